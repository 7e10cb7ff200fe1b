"""Building a game from any position, and its JSON forms: `Game.from_position`, `Game.to_dict` /
`Game.from_dict` (the whole game) and `Game.snapshot` / `Game.from_snapshot` / `Game.restore` (the
compact state that tables save). A mixin of `bot.engine.game.Game`, kept apart so that game.py holds the rules of play.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self

from .cards import RANKS, Card, deck_for, parse_cards
from .errors import PositionError
from .events import Event, EventKind
from .plays import Play
from .rules import Rules
from .state import GameState

__all__ = ["PositionsMixin"]

K = EventKind


class PositionsMixin(GameState):
    """`from_position`, `to_dict` and `from_dict` for `Game` (which sets every attribute they use)."""

    def __init__(self, rules: Rules | None = None, players: int = 2, seed: int | str = 0) -> None:
        raise NotImplementedError  # pragma: no cover - Game.__init__ builds every attribute

    if TYPE_CHECKING:
        @classmethod
        def replay(cls, rules: Rules | None, players: int, seed: int | str, plays: Iterable[Play]) -> Self:
            """`Game.replay`."""

    @classmethod
    def from_position(
        cls,
        rules: Rules | None = None,
        *,
        players: int = 2,
        hands: Sequence[Iterable[Card | str] | str],
        table: Iterable[Card | str] | str = (),
        last_trail: Card | str | None = None,
        trailed_by: int | None = None,
        scores: Sequence[int] = (0, 0),
        chicas: Sequence[int] = (0, 0),
        dealer: int | None = None,
        to_play: int | None = None,
        deal_number: int = 1,
        hand_number: int = 1,
        chica_number: int | None = None,
        stock: Iterable[Card | str] | str | None = None,
        piles: Sequence[Iterable[Card | str] | str] = ((), ()),
        rondas: dict[int, int | str] | None = None,
        streaks: Sequence[int] = (0, 0),
        last_capturer: int | None = None,
        first_play: bool | None = None,
        seed: int | str = 0,
    ) -> Self:
        """Build any mid-hand position, for tests and analysis.

        Args:
            hands: one card list per seat (codes, ``"7D 3C"`` strings or `Card`). The jokers ``W1`` and
                ``W2`` may be placed in hands, table, stock and piles only when ``rules.comodines`` is
                on (§9). The seats from ``to_play`` round to the dealer hold k ≥ 1 cards; those from
                the mano up to ``to_play`` hold k - 1 (everyone plays one card per turn).
            table: table cards, oldest first.
            last_trail: the card just trailed (must be on the table); ``trailed_by`` the seat that
                trailed it, by default the seat before ``to_play``. A caída on it is possible only
                when that seat played just before (R22).
            scores, chicas: per team. streaks: consecutive caídas per team (R26).
            dealer, to_play: seats. Defaults: ``to_play`` is the mano; ``dealer`` is the seat before
                ``to_play``.
            stock: the cards still to be dealt, dealt from the front. None: every card not placed
                elsewhere, shuffled from the seed. When given, unplaced cards are out of play (`dead`).
                With comodines the last 2 stock cards are never dealt (§9): give them too.
            piles: cards captured so far this hand, per team.
            rondas: seat → rank (index 0–9 or symbol ``"6"``) of a ronda held in this deal (R25).
            last_capturer: team that captured last (for ``leftovers="last_capturer"``).
            first_play: this is the first play of a deal: the mano is to play and every seat holds
                all its cards, so no card was trailed before it in this deal (R22: no caída). None:
                inferred, True exactly when the mano is to play and every seat holds 5 cards (a full
                deal; nobody has played yet). A position that says False there, or True with the
                hands of a later turn, is refused.

        Raises:
            PositionError: duplicate or unknown cards, a joker without comodines, odd scores, a score at
                or over the target (the chica would be over), impossible hand sizes, a last_trail not on
                the table or on the first play of a deal, a first_play that contradicts the hands, or a
                bad seat.
            CardError: a code names no card.
        """
        game = cls(rules, players, seed)
        n = players
        if len(hands) != n:
            raise PositionError(f"hands must list {n} seats, not {len(hands)}")

        def cards(x: Iterable[Card | str] | str) -> list[Card]:
            return parse_cards(x)

        def seat_ok(name: str, value: int | None) -> None:
            if value is not None and not (isinstance(value, int) and 0 <= value < n):
                raise PositionError(f"{name} must be a seat 0–{n - 1}, not {value!r}")

        seat_ok("dealer", dealer)
        seat_ok("to_play", to_play)
        seat_ok("trailed_by", trailed_by)
        if to_play is None:
            to_play = 0 if dealer is None else (dealer + 1) % n
        if dealer is None:
            dealer = (to_play - 1) % n
        game.dealer = dealer
        game.to_play = to_play
        game.hands = [cards(h) for h in hands]
        game.table = cards(table)
        if len(piles) != 2:
            raise PositionError("piles must list 2 teams")
        game.piles = [cards(p) for p in piles]
        placed = [*game.table, *game.piles[0], *game.piles[1]]
        for h in game.hands:
            placed.extend(h)
        explicit_stock = cards(stock) if stock is not None else None
        if explicit_stock is not None:
            placed.extend(explicit_stock)
        if len(set(placed)) != len(placed):
            dupes = sorted({c for c in placed if placed.count(c) > 1})
            raise PositionError(f"cards placed twice: {' '.join(map(str, dupes))}")
        if not game.rules.comodines and any(c.is_joker for c in placed):
            raise PositionError("jokers (W1, W2) are in play only with comodines (§9)")
        placed_set = set(placed)
        unplaced = [c for c in deck_for(game.rules) if c not in placed_set]
        if explicit_stock is None:
            random.Random(f"cuarenta/{seed}/position").shuffle(unplaced)
            game.stock = unplaced
        else:
            game.stock = explicit_stock
            game.dead = unplaced

        mano = (dealer + 1) % n
        k = len(game.hands[to_play])
        if k < 1:
            raise PositionError(f"seat {to_play} is to play but holds no card")
        order = [(mano + i) % n for i in range(n)]
        pos = order.index(to_play)
        for i, s in enumerate(order):
            want = k if i >= pos else k - 1
            if len(game.hands[s]) != want:
                raise PositionError(
                    f"seat {s} holds {len(game.hands[s])} cards; with seat {to_play} to play holding {k}, "
                    f"it should hold {want} (turns run from the mano, seat {mano})"
                )

        full = to_play == mano and all(len(h) == k for h in game.hands)
        if first_play is None:
            first_play = full and k == 5
        elif first_play and not full:
            raise PositionError("the first play of a deal is the mano's, with every seat holding all its cards")
        elif not first_play and full and k == 5:
            raise PositionError("every seat holds 5 cards and the mano is to play: that is the first play of a deal")
        if first_play and last_trail is not None:
            raise PositionError("no card is trailed before the first play of a deal, so no caída can be on it (R22)")

        for name, pair in (("scores", scores), ("chicas", chicas), ("streaks", streaks)):
            if len(pair) != 2 or any(not isinstance(v, int) or v < 0 for v in pair):
                raise PositionError(f"{name} must be two non-negative integers, not {pair!r}")
        if any(v % 2 for v in scores):
            raise PositionError(f"scores are always even (R32), not {tuple(scores)!r}")
        if any(v >= game.rules.target for v in scores):
            raise PositionError(f"a score of {game.rules.target} or more has already won the chica (R33), "
                                f"not {tuple(scores)!r}")
        game.scores = list(scores)
        game.chicas = list(chicas)
        game.streaks = list(streaks)
        game.deal_number = deal_number
        game.hand_number = hand_number
        game.chica_number = chica_number if chica_number is not None else sum(chicas) + 1

        if last_trail is not None:
            card = Card.parse(last_trail)
            if card not in game.table:
                raise PositionError(f"last_trail {card} is not on the table")
            game.last_trail = card
            game.last_trail_seat = (to_play - 1) % n if trailed_by is None else trailed_by
        for seat, rank in (rondas or {}).items():
            seat_ok("ronda seat", seat)
            r = RANKS.index(str(rank).upper()) if isinstance(rank, str) else rank
            if not (isinstance(r, int) and 0 <= r <= 9):
                raise PositionError(f"ronda rank must be 0–9 or a rank symbol, not {rank!r}")
            game.events.append(Event(K.RONDA, seat=seat, team=seat % 2, rank=r, scores=tuple(game.scores)))
            game.rondas[seat] = (r, len(game.events) - 1)
            game.hidden.add(len(game.events) - 1)
        if last_capturer not in (None, 0, 1):
            raise PositionError(f"last_capturer must be team 0 or 1, not {last_capturer!r}")
        game.last_capturer = last_capturer
        return game

    # ---------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data holding the whole state and history (every event and play);
        `Game.from_dict` restores an identical game. Its size grows with the mesa: tables save a
        `snapshot` instead."""
        return {"version": 1, **self.to_dict_state(),
                "events": [e.to_dict() for e in self.events], "plays": [p.to_dict() for p in self.plays]}

    def snapshot(self) -> dict[str, Any]:
        """The compact state, JSON-ready: hands, stock, table, piles, scores, turn, rondas, and the counts
        of plays and events, but no history. Its size does not grow with the mesa (about 1 KB): it is
        what a table saves after every play, next to the play's own row.

        `Game.from_snapshot` rebuilds the game from it and the plays; `Game.restore` rewinds this game
        to it."""
        data = self.to_dict_state()
        data["version"] = 2
        data["play_count"] = len(self.plays)
        data["event_count"] = len(self.events)
        return data

    def to_dict_state(self) -> dict[str, Any]:
        """The fields shared by `to_dict` and `snapshot`: everything but the version and the history."""
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "to_play": self.to_play,
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock],
            "table": [c.code for c in self.table],
            "piles": [[c.code for c in p] for p in self.piles],
            "dead": [c.code for c in self.dead],
            "scores": list(self.scores),
            "chicas": list(self.chicas),
            "streaks": list(self.streaks),
            "hand_number": self.hand_number,
            "deal_number": self.deal_number,
            "chica_number": self.chica_number,
            "last_trail": self.last_trail.code if self.last_trail else None,
            "last_trail_seat": self.last_trail_seat,
            "last_capturer": self.last_capturer,
            "rondas": [[seat, rank, index] for seat, (rank, index) in sorted(self.rondas.items())],
            "hidden": sorted(self.hidden),
            "winner": self.winner,
        }

    def _set_state(self, data: dict[str, Any]) -> None:
        """Set every state field from `to_dict_state` data (not rules, players, seed or the history)."""
        self.dealer = data["dealer"]
        self.to_play = data["to_play"]
        self.hands = [parse_cards(h) for h in data["hands"]]
        self.stock = parse_cards(data["stock"])
        self.table = parse_cards(data["table"])
        self.piles = [parse_cards(p) for p in data["piles"]]
        self.dead = parse_cards(data["dead"])
        self.scores = list(data["scores"])
        self.chicas = list(data["chicas"])
        self.streaks = list(data["streaks"])
        self.hand_number = data["hand_number"]
        self.deal_number = data["deal_number"]
        self.chica_number = data["chica_number"]
        self.last_trail = Card.parse(data["last_trail"]) if data["last_trail"] else None
        self.last_trail_seat = data["last_trail_seat"]
        self.last_capturer = data["last_capturer"]
        self.rondas = {seat: (rank, index) for seat, rank, index in data["rondas"]}
        self.hidden = set(data["hidden"])
        self.winner = data["winner"]
        self._cache_key = -1
        self._seen = {}

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Rewind this game to an earlier `snapshot` of itself: the state is set back and the plays and
        events made since are dropped. Costs the size of the snapshot, not of the mesa (how a play is
        undone when it could not be saved).

        Raises:
            PositionError: not a version-2 snapshot, or one taken later than the game's present.
        """
        if snapshot.get("version") != 2:
            raise PositionError(f"not a game snapshot (version {snapshot.get('version')!r})")
        if snapshot["play_count"] > len(self.plays) or snapshot["event_count"] > len(self.events):
            raise PositionError("the snapshot is later than the game")
        self._set_state(snapshot)
        del self.plays[snapshot["play_count"]:]
        del self.events[snapshot["event_count"]:]

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any], plays: Iterable[Play]) -> Self:
        """Rebuild a game from its `snapshot` and its plays in order: the engine replays the plays from
        the seed (which rebuilds the history, events included) and checks the result equals the snapshot
        (how a table is restored after a restart).

        Raises:
            PositionError: not a snapshot, or the plays do not lead to it (missing or altered plays).
            RefusedPlayError: a stored play is not legal where it is replayed.
        """
        if snapshot.get("version") != 2:
            raise PositionError(f"not a game snapshot (version {snapshot.get('version')!r})")
        try:
            game = cls.replay(Rules.from_dict(snapshot["rules"]), snapshot["players"],
                              snapshot["seed"], plays)
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a game snapshot: {exc}") from exc
        rebuilt = game.snapshot()
        # rules saved before a field existed load with its default (`Rules.from_dict`): compare values
        rebuilt["rules"] = snapshot["rules"] if game.rules == Rules.from_dict(snapshot["rules"]) else rebuilt["rules"]
        if rebuilt != snapshot:
            differ = sorted(k for k in set(rebuilt) | set(snapshot) if rebuilt.get(k) != snapshot.get(k))
            raise PositionError(f"the stored plays do not rebuild the snapshot (differs in {', '.join(differ)})")
        return game

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Inverse of `to_dict`. Data saved before a rules field existed loads with that field's default
        (`Rules.from_dict`), so games stored before comodines and periquito load with both off.

        Raises:
            PositionError: unknown version, or the data does not describe a game.
        """
        if data.get("version") != 1:
            raise PositionError(f"unknown game data version {data.get('version')!r}")
        try:
            game = cls(Rules.from_dict(data["rules"]), data["players"], data["seed"])
            game._set_state(data)
            game.events = [Event.from_dict(e) for e in data["events"]]
            game.plays = [Play.from_dict(p) for p in data["plays"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a saved game: {exc}") from exc
        return game
