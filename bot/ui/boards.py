"""Ratings → messages: the leaderboard page with its buttons, `/cuarenta stats`, `/cuarenta history`,
season announcements and the server settings. Every text comes from `bot.i18n`; every payload is fitted
to and checked against Discord's limits (`bot.ui.limits`), also with long names.

Names are passed in as a ``{user_id: display name}`` mapping (the cog resolves them from the guild);
a user missing from it is shown as a mention, which Discord renders without pinging.

custom_id of the leaderboard buttons (`BoardButton`, under 100 characters)::

    c4:b:<guild>:<season>:<mode>:<page>:<k>    season number (0: the guild has none yet), mode 1v1/2v2,
                                               the 0-based page the button leads to, k = p (◀), n (▶),
                                               m (the mode switch), so ids in one message differ.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from bot.i18n import t, tn
from bot.ratings import (
    MODES,
    BoardRow,
    Leaderboard,
    MesaLine,
    PlayerStats,
    Season,
    SeasonClose,
    Settings,
    Standing,
)
from bot.replays.present import replay_command

from . import limits
from .actions import BoardActions, actions_of, need
from .render import Payload, make_view
from .router import message_components, template_of

COLOR = discord.Colour(0x1F8B4C)
NAME_LIMIT = 24
"""Longest name shown in a row (longer names are cut with an ellipsis)."""


def _handler(interaction: discord.Interaction) -> BoardActions:
    """The leaderboard actions of the bot this click came to (`bot.ui.actions`)."""
    return need(actions_of(interaction).boards, "leaderboard")


class BoardButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"c4:b:(?P<guild>\d+):(?P<season>\d+):(?P<mode>1v1|2v2):(?P<page>\d+):(?P<k>[pnm])"):
    """A leaderboard button: ◀ / ▶ turn the page, 1v1 / 2v2 switch the mode. The custom_id carries the
    guild, season, mode and target page, so a click works after a restart."""

    def __init__(self, guild_id: int, season: int, mode: str, page: int, kind: str, *, label: str = "·",
                 disabled: bool = False, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, disabled=disabled,
                                           custom_id=f"c4:b:{guild_id}:{season}:{mode}:{page}:{kind}"))
        self.guild_id = guild_id
        self.season = season
        self.mode = mode
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> BoardButton:
        """Rebuild the item from the custom_id of a click (also after a restart)."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["guild"]), int(match["season"]), match["mode"], int(match["page"]), match["k"],
                   label=label or "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the click to the board handler (the leaderboard cog)."""
        await _handler(interaction).on_board(interaction, self.guild_id, self.season or None, self.mode,
                                             self.page)


def is_board(message: discord.Message | None) -> bool:
    """Whether ``message`` (as Discord sent it with a click) is a leaderboard: it carries a `BoardButton`.
    A board button's custom_id pressed on any other message (a stale or forged click on a table message)
    must not turn that message into a board."""
    template = template_of(BoardButton)
    return any(template.fullmatch(custom_id) for _, custom_id in message_components(message))


BOARD_ITEMS = (BoardButton,)
"""Register with ``bot.add_dynamic_items(*BOARD_ITEMS)``."""


# ---------------------------------------------------------------------------------------- text helpers


def name_of(user_id: int | None, names: Mapping[int, str], lang: str) -> str:
    """A user's shown name: escaped and cut to `NAME_LIMIT`; a mention when unknown; "computadora" for
    None (a computer seat)."""
    if user_id is None:
        return t("board.computer", lang)
    name = names.get(user_id)
    if not name:
        return f"<@{user_id}>"
    return discord.utils.escape_markdown(limits.clip(name, NAME_LIMIT))


def _names(users: Sequence[int | None], names: Mapping[int, str], lang: str) -> str:
    return ", ".join(name_of(u, names, lang) for u in users) or "—"


def _when(moment: datetime | None, style: str = "R") -> str:
    return f"<t:{int(moment.timestamp())}:{style}>" if moment is not None else "—"


def _pct(value: float) -> str:
    return f"{round(value * 100)}%"


def _mark(provisional: bool) -> str:
    return "?" if provisional else ""


def season_label(season: Season | None, lang: str) -> str:
    """``name`` or "Temporada N" / "Season N" (empty text when there is no season yet)."""
    if season is None:
        return t("board.no_season", lang)
    return limits.clip(season.name, 64) if season.name else t("board.season_n", lang, number=season.number)


def _fit(lines: Sequence[str], limit: int) -> str:
    """Join lines with newlines, dropping the last ones that would pass ``limit`` characters."""
    out: list[str] = []
    size = -1
    for line in lines:
        line = limits.clip(line, limit)
        if size + 1 + len(line) > limit:
            break
        out.append(line)
        size += 1 + len(line)
    return "\n".join(out)


def board_row(row: BoardRow, names: Mapping[int, str], lang: str, min_games: int = 0) -> str:
    """One leaderboard line: rank, name, rating (``?`` while its σ is high), W–L, win %, games, last
    active. A provisional row (`BoardRow.ranked` False: fewer than ``min_games`` rated chicas) has
    `PROVISIONAL_MARK` instead of a rank, counts its games toward ``min_games`` and, to fit one phone
    line (390 px), leaves out the win % and the last-active time."""
    if not row.ranked:
        return tn("board.row_provisional", min_games, lang, name=name_of(row.user_id, names, lang),
                  rating=row.rating, wins=row.wins, losses=row.losses, games=row.games, min=min_games)
    return tn("board.row", row.games, lang, rank=row.rank, name=name_of(row.user_id, names, lang), rating=row.rating,
             mark=_mark(row.provisional), wins=row.wins, losses=row.losses, pct=_pct(row.win_rate),
             games=row.games, last=_when(row.last_active))


PROVISIONAL_MARK = "🌱"
"""The mark of a provisional row (in ``board.row_provisional`` and ``board.legend_provisional``)."""


# ---------------------------------------------------------------------------------------- leaderboard


def _viewer_text(board: Leaderboard, lang: str) -> str:
    viewer = board.viewer
    if viewer is None:
        return ""
    if viewer.standing is Standing.RANKED and viewer.rank is not None:
        return t("board.you_ranked", lang, rank=viewer.rank, rating=viewer.rating, mark=_mark(viewer.provisional))
    if viewer.standing is Standing.INACTIVE:
        return tn("board.you_inactive", viewer.active_days, lang, days=viewer.active_days)
    return t("board.you_unranked", lang, games=viewer.games, min=viewer.min_games)


def leaderboard_payload(board: Leaderboard, guild_id: int, names: Mapping[int, str], lang: str) -> Payload:
    """One page of the leaderboard: ten rows (ranked players numbered, then provisional ones marked
    `PROVISIONAL_MARK`), the caller's place in the footer with a one-line legend for each mark shown,
    ◀ ▶ and 1v1 / 2v2. A live board with nobody says that the first rated chica puts its players on it;
    an empty closed season says what it took to be ranked."""
    title = t("board.title", lang, mode=board.mode, season=season_label(board.season, lang))
    if board.frozen:
        title = t("board.title_frozen", lang, title=title)
    if board.rows:
        description = _fit([board_row(r, names, lang, board.min_games) for r in board.rows],
                           limits.EMBED_DESCRIPTION)
    elif not board.frozen:
        description = t("board.empty_live", lang, mode=board.mode)
    else:
        description = (tn("board.empty", board.min_games, lang, min=board.min_games, days=board.active_days)
                       if board.active_days else tn("board.empty_any", board.min_games, lang, min=board.min_games))
    embed = discord.Embed(title=limits.clip(title, limits.EMBED_TITLE), description=description, colour=COLOR)
    footer = [t("board.page", lang, page=board.page + 1, pages=board.pages)]
    if any(r.provisional and r.ranked for r in board.rows):
        footer.append(t("board.legend", lang))
    if any(not r.ranked for r in board.rows):
        footer.append(tn("board.legend_provisional", board.min_games, lang, min=board.min_games))
    you = _viewer_text(board, lang)
    if you:
        footer.insert(0, you)
    embed.set_footer(text=limits.clip(" · ".join(footer), limits.FOOTER))
    season = board.season.number if board.season is not None else 0
    other = MODES[1 - MODES.index(board.mode)]
    view = make_view([
        BoardButton(guild_id, season, board.mode, max(board.page - 1, 0), "p", label="◀",
                    disabled=board.page <= 0),
        BoardButton(guild_id, season, board.mode, min(board.page + 1, board.pages - 1), "n", label="▶",
                    disabled=board.page >= board.pages - 1),
        BoardButton(guild_id, season, other, 0, "m", label=t("board.switch", lang, mode=other),
                    style=discord.ButtonStyle.primary),
    ])
    return Payload(embed=embed, view=view)


# ---------------------------------------------------------------------------------------- stats


def _story(stats: PlayerStats, lang: str) -> list[str]:
    """The short story under the totals: the current streak with the best one, and the caídas of the
    last 7 days."""
    run = stats.current_streak
    streak = (tn("stats.streak_won", run, lang, n=run) if run > 0 else tn("stats.streak_lost", -run, lang, n=-run))
    best = f"{t('stats.best_streak', lang)}: {stats.best_streak}"
    week = (tn("stats.week", stats.caidas_week, lang, n=stats.caidas_week) if stats.caidas_week
            else t("stats.week_none", lang))
    return [f"{streak} · {best}", week]


def stats_payload(stats: PlayerStats, names: Mapping[int, str], lang: str) -> Payload:
    """`/cuarenta stats`, each fact once: mesas and chicas won (description), the story (current and
    best streak, caídas of the last 7 days), per mode its chicas (only when both modes were played) and
    rating with peak, caídas, limpias, rondas, zapateros, the most frequent partner, and the last results
    (from two chicas on: one result is already the streak)."""
    who = name_of(stats.user_id, names, lang)
    embed = discord.Embed(title=limits.clip(t("stats.title", lang, name=who), limits.EMBED_TITLE), colour=COLOR)
    if stats.chicas == 0:
        embed.description = t("stats.none", lang)
        return Payload(embed=embed)
    summary = t("stats.summary", lang, mesas=stats.mesas, mesas_won=stats.mesas_won,
                chicas=stats.chicas, chicas_won=stats.chicas_won,
                pct=_pct(stats.chicas_won / stats.chicas if stats.chicas else 0.0))
    embed.description = "\n".join([summary, *_story(stats, lang)])
    played = [mode for mode in MODES if stats.modes[mode].chicas]
    for mode in played:
        m = stats.modes[mode]
        lines = []
        if len(played) > 1:  # with one mode, its chicas are the totals above
            lines.append(t("stats.mode_line", lang, chicas=m.chicas, won=m.chicas_won, pct=_pct(m.win_rate)))
        if m.rating is not None:
            lines.append(t("stats.rating_line", lang, rating=m.rating, mark=_mark(m.provisional), peak=m.peak))
        elif m.rated_chicas == 0:
            lines.append(t("stats.unrated", lang))
        if lines:
            embed.add_field(name=mode, value=limits.clip("\n".join(lines), limits.FIELD_VALUE), inline=True)
    embed.add_field(name=t("stats.plays", lang), value=t(
        "stats.plays_line", lang, caidas=stats.caidas, limpias=stats.limpias, rondas=stats.rondas,
        doble=stats.doble_rondas), inline=False)
    embed.add_field(name=t("stats.zapateros", lang), value=t(
        "stats.zapateros_line", lang, given=stats.zapateros_given, suffered=stats.zapateros_suffered), inline=True)
    if stats.partner is not None:
        embed.add_field(name=t("stats.partner", lang), value=tn(
            "stats.partner_line", stats.partner[1], lang, name=name_of(stats.partner[0], names, lang), chicas=stats.partner[1]),
            inline=True)
    if len(stats.last_results) > 1:
        marks = " ".join("✅" if line.won else "❌" for line in stats.last_results)
        embed.add_field(name=tn("stats.last", len(stats.last_results), lang, n=len(stats.last_results)),
                        value=limits.clip(marks, limits.FIELD_VALUE), inline=False)
    return Payload(embed=embed)


# ---------------------------------------------------------------------------------------- history


def history_line(line: MesaLine, names: Mapping[int, str], lang: str) -> str:
    """One mesa: number, date, mode, won/lost, chicas and their points, partners and opponents."""
    scores = ", ".join(f"{a}–{b}" for a, b in line.chica_scores)
    partners = (t("history.with", lang, names=_names(line.partners, names, lang)) + " · ") if line.partners else ""
    return t("history.line", lang, table=line.table_id, when=_when(line.finished_at, "d"), mode=line.mode,
             result=t("history.won" if line.won else "history.lost", lang), a=line.chicas[0], b=line.chicas[1],
             scores=scores or "—", partners=partners, opponents=_names(line.opponents, names, lang),
             preset=f"{line.preset} · {t('table.house_mark', lang)}" if line.house else line.preset, zap=t("history.zapateria", lang) if line.zapateria else "")


def history_payload(user_id: int, lines: Sequence[MesaLine], names: Mapping[int, str], lang: str) -> Payload:
    """`/cuarenta history`: the user's recent finished mesas, newest first, each followed by the command
    that replays it (``↳ `/cuarenta repetir mesa:12` ``, `bot.replays`); the footer says how to replay."""
    who = name_of(user_id, names, lang)
    embed = discord.Embed(title=limits.clip(t("history.title", lang, name=who), limits.EMBED_TITLE), colour=COLOR)
    if not lines:
        embed.description = t("history.none", lang)
    else:
        entries = [f"{history_line(line, names, lang)}\n↳ {replay_command(line.table_id, lang)}" for line in lines]
        embed.description = _fit(entries, limits.EMBED_DESCRIPTION)
        embed.set_footer(text=t("history.footer", lang))
    return Payload(embed=embed)


# ---------------------------------------------------------------------------------------- seasons


def season_close_payload(close: SeasonClose, names: Mapping[int, str], lang: str) -> Payload:
    """The public announcement of a closed season: its top 10 per mode and the season that starts."""
    embed = discord.Embed(
        title=limits.clip(t("season.closed_title", lang, season=season_label(close.closed, lang)), limits.EMBED_TITLE),
        description=t("season.next", lang, season=season_label(close.next, lang),
                      reset=t(f"settings.reset.{close.next.reset_policy}", lang)),
        colour=COLOR,
    )
    for mode in MODES:
        rows = close.top.get(mode, [])
        value = _fit([board_row(r, names, lang) for r in rows], limits.FIELD_VALUE) if rows else t(
            "season.nobody", lang)
        embed.add_field(name=t("season.top", lang, mode=mode), value=value or "—", inline=False)
    return Payload(embed=embed)


def season_started_payload(season: Season, lang: str) -> Payload:
    """The public announcement of a first season (nothing was closed)."""
    return Payload(content=t("season.started", lang, season=season_label(season, lang)))


# ---------------------------------------------------------------------------------------- settings


def settings_payload(settings: Settings, lang: str, *, changed: bool = False,
                     house: tuple[str, str] | None = None, ranks: str | None = None) -> Payload:
    """The server's settings (after a change when ``changed``); ``house``: its default house rules and
    whether mesas under house rules are rated, in words (`bot.houserules.present.settings_lines`);
    ``ranks``: the rank roles in words (`bot.ui.rank_roles.RankRoles.describe`), None: not shown."""
    on_off = t("settings.on" if settings.rate_bots else "settings.off", lang)
    embed = discord.Embed(title=t("settings.title_changed" if changed else "settings.title", lang), colour=COLOR)
    embed.add_field(name=t("settings.language", lang), value=t(f"language.{settings.language or 'es'}", lang))
    embed.add_field(name=t("settings.rate_bots", lang), value=on_off)
    embed.add_field(name=t("settings.preset", lang), value=settings.default_preset)
    embed.add_field(name=t("settings.eligibility", lang), value=tn(
        "settings.eligibility_line", settings.min_games, lang, min=settings.min_games,
        days=settings.active_days if settings.active_days else "∞"))
    embed.add_field(name=t("settings.reset", lang), value=t(f"settings.reset.{settings.reset_policy}", lang))
    embed.add_field(name=t("settings.table_place", lang), value=t(f"settings.table_place.{settings.table_place}", lang))
    if house is not None:
        embed.add_field(name=t("settings.house", lang), value=limits.clip(house[0], limits.FIELD_VALUE), inline=False)
        embed.add_field(name=t("settings.house_rated", lang), value=house[1])
    if ranks is not None:
        embed.add_field(name=t("settings.ranks", lang), value=limits.clip(ranks, limits.FIELD_VALUE), inline=False)
    return Payload(embed=embed)


__all__ = [
    "BOARD_ITEMS",
    "NAME_LIMIT",
    "BoardButton",
    "board_row",
    "history_line",
    "history_payload",
    "leaderboard_payload",
    "name_of",
    "season_close_payload",
    "season_label",
    "season_started_payload",
    "settings_payload",
    "stats_payload",
]
