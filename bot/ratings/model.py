"""The values the ratings repository answers with: frozen dataclasses (settings, seasons, leaderboard
pages, rating changes, stats, history lines), its errors, and the few constants its callers share.
Times are aware UTC datetimes; ratings are shown ratings ``1500 + 24·(μ − 3σ)`` unless a field says μ/σ.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .skill import Standing

SCHEMA_PATH = Path(__file__).parents[1] / "store" / "migrations" / "0002_ratings.sql"
"""The ratings schema: migration 2 of the bot's store."""

PAGE_SIZE = 10
"""Leaderboard rows per page."""
LANGUAGES: tuple[str, ...] = ("es", "en")
"""Public languages a server may choose."""
TABLE_PLACES: tuple[str, ...] = ("channel", "thread")
"""Where a table opened with ``/cuarenta new`` in a text channel plays: in that ``channel``, or in a public
``thread`` of it opened for the table (the default is the channel: `Settings.table_place`)."""

class RatingsError(ValueError):
    """A request the ratings repository refuses (bad setting, unknown season, nothing to close)."""


class UnknownSeasonError(RatingsError):
    """The guild has no season with that number."""


class NoCurrentSeasonError(RatingsError):
    """``end_season`` was asked but the guild has no open season (no chica was ever recorded)."""


# ---------------------------------------------------------------------------------------- values


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _dt(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class Settings:
    """A server's settings (the defaults when it never changed them).

    Attributes:
        language: the public language (``"es"``/``"en"``), None when never chosen.
        rate_bots: chicas with a computer player are rated (default False: casual).
        min_games: rated chicas needed this season for a rank on the leaderboard (default 10; fewer: listed as
            provisional, without a rank).
        active_days: a rated chica within this many days is needed to appear (default 30; 0 = no rule).
        reset_policy: ``"none"``, ``"soft"`` (default) or ``"hard"``, applied when a season starts.
        default_preset: the rules preset of new tables (default ``"quito"``).
        table_place: where ``/cuarenta new`` in a text channel opens its table: ``"channel"`` (default: the
            table stays in sight of everyone in the channel, also on phones, where a channel's threads are
            one tap away and easy to miss) or ``"thread"`` (a public thread of the channel per table, for a
            busy server); one of `TABLE_PLACES`.
    """

    language: str | None = None
    rate_bots: bool = False
    min_games: int = 10
    active_days: int = 30
    reset_policy: str = "soft"
    default_preset: str = "quito"
    table_place: str = "channel"


SETTING_NAMES: tuple[str, ...] = ("language", "rate_bots", "min_games", "active_days", "reset_policy",
                                  "default_preset", "table_place")


@dataclass(frozen=True)
class Season:
    """A season of one guild. ``number`` (1, 2, …) is what users name; ``id`` is internal.

    ``name`` is None when the server gave none (show "Season N"). ``ended_at`` is None for the current
    season. ``reset_policy`` is the reset applied when it started.
    """

    id: int
    guild_id: int
    number: int
    name: str | None
    reset_policy: str
    started_at: datetime
    ended_at: datetime | None

    @property
    def current(self) -> bool:
        """True while the season is open."""
        return self.ended_at is None


@dataclass(frozen=True)
class BoardRow:
    """One leaderboard row.

    Attributes:
        rank: 1-based among the ranked players; 0 on a provisional row (``ranked`` False).
        user_id: the Discord user.
        rating: the shown rating ``1500 + 24·(μ − 3σ)``.
        provisional: σ > 6 (show "?").
        wins, losses, games: rated chicas this season in this mode (games = wins + losses).
        win_rate: wins / games, 0.0–1.0.
        last_active: time of the last rated chica.
        ranked: the player reached the server's eligibility threshold (``min_games`` rated chicas this
            season); False: listed as provisional, without a rank, until they do.
    """

    rank: int
    user_id: int
    rating: int
    provisional: bool
    wins: int
    losses: int
    games: int
    win_rate: float
    last_active: datetime | None
    ranked: bool = True


@dataclass(frozen=True)
class ViewerRank:
    """The caller's place for the footer.

    ``standing`` is RANKED (then ``rank`` is set), FEW_GAMES ("unranked: games/min_games games") or
    INACTIVE (no rated chica within ``active_days``). ``rating`` is None when they never played this
    season and mode.
    """

    user_id: int
    standing: Standing
    rank: int | None
    games: int
    min_games: int
    active_days: int
    rating: int | None
    provisional: bool


@dataclass(frozen=True)
class Leaderboard:
    """One leaderboard page.

    Attributes:
        season: the season shown, None when the guild has none yet (then everything is empty).
        mode: ``"1v1"`` or ``"2v2"``.
        page: the 0-based page actually shown (clamped into range).
        pages: number of pages (at least 1).
        total: players listed (ranked and provisional; on a closed season, its ranked players).
        rows: up to `PAGE_SIZE` rows.
        viewer: the caller's rank or progress, None when no viewer was given.
        frozen: True for a closed season (its standings as they were at the close).
        min_games, active_days: the rules used (the current settings; for a closed season, the settings
            at close time are baked into the frozen ranks).
    """

    season: Season | None
    mode: str
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    viewer: ViewerRank | None
    frozen: bool
    min_games: int
    active_days: int
    ranked: int = 0


@dataclass(frozen=True)
class RatingChange:
    """A player's shown rating before (as the leaderboard showed it) and after a rated chica, and the new
    raw μ/σ. ``delta`` includes the effect of idle-time σ growth, so it matches what the board shows."""

    user_id: int
    before: int
    after: int
    mu: float
    sigma: float

    @property
    def delta(self) -> int:
        """``after − before``."""
        return self.after - self.before


@dataclass(frozen=True)
class Recorded:
    """What `Ratings.record_chica` did. ``bool(recorded)`` is ``recorded.rated``.

    Attributes:
        stored: the chica was new and is now stored (False: it was already there; nothing changed).
        rated: it was stored AND rated just now.
        season_number: the season it counted in (None when it was already stored).
        changes: per rated player, in seat order; empty when not rated.
    """

    stored: bool
    rated: bool
    season_number: int | None = None
    changes: tuple[RatingChange, ...] = ()

    def __bool__(self) -> bool:
        return self.rated


@dataclass(frozen=True)
class ModeStats:
    """A user's numbers in one mode of one guild (all seasons, rated and casual unless noted).

    ``rating``/``provisional``/``peak`` are the current season's (None when not rated this season);
    ``best_peak`` is the highest shown rating of any season. ``best_streak`` counts chicas won in a row.
    """

    mode: str
    mesas: int
    mesas_won: int
    chicas: int
    chicas_won: int
    rated_chicas: int
    win_rate: float
    best_streak: int
    rating: int | None
    provisional: bool
    peak: int | None
    best_peak: int | None


@dataclass(frozen=True)
class ChicaLine:
    """One chica in a user's recent results (scores from the user's side: own team first).

    ``partners``/``opponents`` are user ids, None for a computer player. ``change`` is the shown-rating
    change when it was rated.
    """

    table_id: int
    chica_number: int
    mode: str
    won: bool
    scores: tuple[int, int]
    zapatero: bool
    rated: bool
    change: int | None
    partners: tuple[int | None, ...]
    opponents: tuple[int | None, ...]
    finished_at: datetime


@dataclass(frozen=True)
class PlayerStats:
    """`/cuarenta stats`: a user's record in one guild.

    Attributes:
        modes: per mode (``"1v1"``, ``"2v2"``), always both keys.
        mesas, mesas_won, chicas, chicas_won: totals over both modes.
        caidas, limpias, rondas, doble_rondas: counted over all their chicas.
        zapateros_given, zapateros_suffered: chicas won / lost by zapatero.
        best_streak: most chicas won in a row (both modes together).
        last_results: the last 10 chicas, newest first.
        partner: ``(user_id, chicas together)`` of the most frequent human partner, None if none.
        current_streak: the run the last chicas make (both modes together): +n for n won in a row, −n for
            n lost in a row, 0 with no chica.
        caidas_week: caídas in the chicas finished within the last 7 days (a caída is stored with the
            chica it was made in, so the caídas of a chica still being played are not counted yet).
    """

    guild_id: int
    user_id: int
    modes: dict[str, ModeStats]
    mesas: int
    mesas_won: int
    chicas: int
    chicas_won: int
    caidas: int
    limpias: int
    rondas: int
    doble_rondas: int
    zapateros_given: int
    zapateros_suffered: int
    best_streak: int
    last_results: list[ChicaLine]
    partner: tuple[int, int] | None
    current_streak: int = 0
    caidas_week: int = 0


@dataclass(frozen=True)
class MesaLine:
    """One finished mesa in `/cuarenta history` (from the user's side: own team first).

    Attributes:
        table_id: replay it with ``Game.replay(rules, players, seed, Store.plays(table_id))``, where the
            rules are the preset with the table's house rules (``tables.meta["house"]``) on top.
        chicas: chicas won per side; ``chica_scores`` the points of each chica, in order.
        seats: user id per seat (None for a computer), as stored in ``mesas.seats``.
    """

    table_id: int
    mode: str
    preset: str
    seed: str
    won: bool
    chicas: tuple[int, int]
    chica_scores: list[tuple[int, int]]
    zapateria: bool
    partners: tuple[int | None, ...]
    opponents: tuple[int | None, ...]
    seats: list[int | None]
    finished_at: datetime
    house: bool = False
    """The mesa was played under house rules (``tables.meta``)."""


@dataclass(frozen=True)
class SeasonClose:
    """The result of closing a season: the closed season, its top 10 per mode, and the new season."""

    closed: Season
    top: dict[str, list[BoardRow]]
    next: Season
