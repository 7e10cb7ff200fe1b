"""A mesa of Cuarenta: dealing, legal plays, captures, scoring and winning (RULES.md R1–R40).

The engine is pure: no I/O, no clock, no Discord. Randomness comes only from the seed, so a seeded game
replays identically from its seed and its list of plays.

Seats are numbered 0…n-1 **in play order** (counter-clockwise, R6): seat ``s + 1`` plays after seat ``s``.
The team of a seat is ``seat % 2``, so in the 4-player game partners (0, 2) and (1, 3) sit opposite and
the player before you is always an opponent (R4). The mano is the seat after the dealer (R6).

Decisions taken where RULES.md is silent (also in the issue note):
- A deal gives each player 5 cards starting with the mano; the stock is dealt from its front.
- In the count, a side at or over ``carton_cutoff`` scores nothing from the count (cartón, dos por darlas,
  more cards); the cutoff does not block falla. Sides are counted in play order from the mano.
- Ronda and doble ronda ranks are revealed (event RONDA_REVEALED) when the hand ends, also when a chica win
  abandons it.
- FOUR_CAIDAS is reported in every preset when a side's streak reaches 4; it wins the chica only where
  ``four_caidas == "chica"``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import DECK, RANKS, Card, parse_cards
from .events import Event, EventKind
from .rules import CHICA, Rules

__all__ = [
    "CardNotInHandError",
    "CuarentaError",
    "Game",
    "GameOverError",
    "GameView",
    "IllegalCaptureError",
    "IllegalPlayError",
    "NotYourTurnError",
    "Outcome",
    "Play",
    "PlayInfo",
    "PositionError",
    "carton_points",
]

K = EventKind


class CuarentaError(Exception):
    """Base class of the engine's errors."""


class IllegalPlayError(CuarentaError):
    """A play was refused; the game is unchanged (R40)."""


class NotYourTurnError(IllegalPlayError):
    """The seat that tried to play is not the seat in turn."""


class CardNotInHandError(IllegalPlayError):
    """The card is not in the hand of the seat in turn."""


class IllegalCaptureError(IllegalPlayError):
    """The set of captured cards is not one the rules allow for that card (R17, R18, R21)."""


class GameOverError(IllegalPlayError):
    """The mesa is over: no more plays."""


class PositionError(CuarentaError, ValueError):
    """`Game.from_position` or `Game.from_dict` was given an impossible position."""


class Play(NamedTuple):
    """A card plus the exact set of cards it captures (base capture + escalera). Trailing is a play with
    no captures (R16, R21).

    Build one with ``Play(Card.parse("7D"), frozenset(parse_cards("3C 4H")))``, `Play.trail`, or
    `Play.parse("7D", "3C 4H")`; or pick one from `Game.legal_plays`.
    """

    card: Card
    captures: frozenset[Card] = frozenset()

    @classmethod
    def trail(cls, card: Card | str) -> Play:
        """Trail ``card``: play it without capturing (R21)."""
        return cls(Card.parse(card), frozenset())

    @classmethod
    def parse(cls, card: Card | str, captures: str | Iterable[Card | str] = ()) -> Play:
        """``Play.parse("7D", "3C 4H JS")``.

        Raises:
            CardError: a code names no card.
        """
        return cls(Card.parse(card), frozenset(parse_cards(captures)))

    @property
    def is_trail(self) -> bool:
        """True when the play captures nothing."""
        return not self.captures

    def sorted_captures(self) -> list[Card]:
        """The captured cards, sorted A…K."""
        return sorted(self.captures)

    def __str__(self) -> str:
        if not self.captures:
            return str(self.card)
        return f"{self.card} → {' + '.join(str(c) for c in self.sorted_captures())}"

    def to_dict(self) -> dict[str, Any]:
        """``{"card": "7D", "captures": ["3C", "4H"]}`` (captures sorted)."""
        return {"card": self.card.code, "captures": [c.code for c in self.sorted_captures()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Play:
        """Inverse of `to_dict`."""
        return cls.parse(data["card"], data.get("captures", ()))


_Option = tuple[Play, tuple[Card, ...], bool]
"""An option: (play, base capture, base is a match). The base is what decides a caída (R22)."""


class PlayInfo(NamedTuple):
    """What a legal play would do (`Game.explain`), for describing it to a player.

    Attributes:
        base: the base capture (one matched card, or the summed cards), in table order (R17).
        escalera: the cards then taken in sequence, in rank order (R18).
        caida: the base matches the card the previous seat just trailed (R22).
        limpia: the play empties the table (R23).
        en_ronda: the caída falls on a card of the trailer's ronda (R25).
    """

    base: tuple[Card, ...]
    escalera: tuple[Card, ...]
    caida: bool
    limpia: bool
    en_ronda: bool


class Outcome(NamedTuple):
    """How a finished mesa ended (`Game.outcome`).

    Attributes:
        winner: the winning team, 0 or 1.
        chicas: chicas won per team.
        zapateria: True when the mesa ended by zapatería after the first chica (R35).
    """

    winner: int
    chicas: tuple[int, int]
    zapateria: bool


def carton_points(cards: int) -> int:
    """Cartón points for ``cards`` captured cards (R28): 6 for 20, then one per card over 20 rounded up
    to even (21→8, 22→8, 23→10 … 40→26). 19 cards give 6 (only used with ``carton_min_cards=19``).

    Raises:
        ValueError: fewer than 19 or more than 40 cards.
    """
    if not 19 <= cards <= 40:
        raise ValueError(f"cartón is scored for 19–40 cards, not {cards}")
    over = max(0, cards - 20)
    return 6 + 2 * ((over + 1) // 2)


@dataclass(frozen=True)
class GameView:
    """What one seat may see (`Game.view`): never another hand, the stock, or an opponent's ronda rank
    before it is revealed.

    Attributes:
        seat, team: the viewer (team = seat % 2); both None for a spectator.
        players: 2 or 4.
        rules: the table's `Rules`.
        hand: the viewer's own cards, in the order dealt.
        hand_sizes: cards held by each seat.
        table: table cards, oldest first.
        last_trail, last_trail_seat: the card trailed by the seat that played just before ``to_play``,
            when a caída on it is possible (R22); else None.
        pile_sizes: cards captured by each team this hand. captured: those cards (they were shown when
            taken). dead: cards out of play this hand (uncounted leftovers).
        stock_size: cards still to be dealt this hand.
        scores, chicas: points in the current chica and chicas won, per team.
        streaks: consecutive caídas per team (R26).
        dealer, mano, to_play: seats (``to_play`` is None once the mesa is over).
        hand_number, deal_number, chica_number: counters, 1-based.
        rondas: ``(seat, rank)`` for each ronda of this deal; rank is None when hidden from the viewer.
        events: the whole event log, with hidden ronda ranks removed.
        legal_plays: the viewer's legal plays when it is the viewer's turn, else ().
        winner: the team that won the mesa, or None.
    """

    seat: int | None
    team: int | None
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    last_trail: Card | None
    last_trail_seat: int | None
    pile_sizes: tuple[int, int]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    dead: tuple[Card, ...]
    stock_size: int
    scores: tuple[int, int]
    chicas: tuple[int, int]
    streaks: tuple[int, int]
    dealer: int
    mano: int
    to_play: int | None
    hand_number: int
    deal_number: int
    chica_number: int
    rondas: tuple[tuple[int, int | None], ...]
    events: tuple[Event, ...]
    legal_plays: tuple[Play, ...]
    winner: int | None

    @property
    def my_turn(self) -> bool:
        """True when this seat is to play."""
        return self.seat is not None and self.to_play == self.seat

    def unseen_cards(self) -> list[Card]:
        """Cards this seat cannot locate: in other hands or in the stock (sorted)."""
        seen = {*self.hand, *self.table, *self.captured[0], *self.captured[1], *self.dead}
        return [c for c in DECK if c not in seen]


class Game:
    """A mesa of Cuarenta for 2 players, or 4 in two partnerships.

    Build one with `Game.new` (dealt from a seed), `Game.from_position` (any mid-hand position) or
    `Game.from_dict` (persistence). Then `legal_plays` and `play` until `is_over`.

    Public attributes (read them; change them only through `play`):
        rules, players, seed; dealer, to_play (None when over), mano (property);
        hands (list per seat), table (oldest first), piles (per team), stock, dead;
        scores, chicas (per team); hand_number, deal_number, chica_number;
        events (the whole log), plays (every accepted play, in order); winner (team or None).
    """

    rules: Rules
    players: int
    seed: int | str

    # ---------------------------------------------------------------- construction

    def __init__(self, rules: Rules | None = None, players: int = 2, seed: int | str = 0) -> None:
        """An empty game; use `Game.new`, `Game.from_position` or `Game.from_dict` instead."""
        if players not in (2, 4):
            raise PositionError(f"Cuarenta is played by 2 or 4 players, not {players!r}")
        self.rules = rules if rules is not None else Rules()
        if not isinstance(self.rules, Rules):
            raise TypeError("rules must be a Rules value (Rules.preset('quito'))")
        self.players = players
        self.seed = seed
        self.dealer = 0
        self.to_play: int | None = None
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.table: list[Card] = []
        self.piles: list[list[Card]] = [[], []]
        self.dead: list[Card] = []
        self.scores = [0, 0]
        self.chicas = [0, 0]
        self.streaks = [0, 0]
        self.hand_number = 0
        self.deal_number = 0
        self.chica_number = 0
        self.last_trail: Card | None = None
        self.last_trail_seat: int | None = None
        self.last_capturer: int | None = None
        self.rondas: dict[int, tuple[int, int]] = {}  # seat -> (rank, event index), this deal
        self.hidden: set[int] = set()  # indices of ronda events whose rank is not yet public
        self.events: list[Event] = []
        self.plays: list[Play] = []
        self.winner: int | None = None
        self._cache_key = -1
        self._cache: dict[Card, list[_Option]] = {}

    @classmethod
    def new(cls, rules: Rules | None = None, players: int = 2, seed: int | str = 0) -> Game:
        """Start a mesa: the first dealer is drawn from the seed (R7), the first hand is dealt and its
        rondas announced (events in `Game.events`).

        Args:
            rules: a `Rules` value; default `quito`.
            players: 2, or 4 in two partnerships.
            seed: any int or str; the same seed and plays give the same game.

        Raises:
            PositionError: players is not 2 or 4.
        """
        game = cls(rules, players, seed)
        game.dealer = random.Random(f"cuarenta/{seed}/dealer").randrange(players)
        game._start_chica()
        return game

    @classmethod
    def replay(cls, rules: Rules | None, players: int, seed: int | str, plays: Iterable[Play]) -> Game:
        """`Game.new` followed by every play in order: how a stored mesa is replayed exactly.

        Raises:
            IllegalPlayError: a play is not legal where it is applied.
        """
        game = cls.new(rules, players, seed)
        for play in plays:
            game.play(play)
        return game

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
    ) -> Game:
        """Build any mid-hand position, for tests and analysis.

        Args:
            hands: one card list per seat (codes, ``"7D 3C"`` strings or `Card`). The seats from
                ``to_play`` round to the dealer hold k ≥ 1 cards; those from the mano up to ``to_play``
                hold k - 1 (everyone plays one card per turn).
            table: table cards, oldest first.
            last_trail: the card just trailed (must be on the table); ``trailed_by`` the seat that
                trailed it, by default the seat before ``to_play``. A caída on it is possible only
                when that seat played just before (R22).
            scores, chicas: per team. streaks: consecutive caídas per team (R26).
            dealer, to_play: seats. Defaults: ``to_play`` is the mano; ``dealer`` is the seat before
                ``to_play``.
            stock: the cards still to be dealt, dealt from the front. None: every card not placed
                elsewhere, shuffled from the seed. When given, unplaced cards are out of play (`dead`).
            piles: cards captured so far this hand, per team.
            rondas: seat → rank (index 0–9 or symbol ``"6"``) of a ronda held in this deal (R25).
            last_capturer: team that captured last (for ``leftovers="last_capturer"``).
            first_play: this is the first play of a deal: the mano is to play and every seat holds
                all its cards, so no card was trailed before it in this deal (R22: no caída). None:
                inferred, True exactly when the mano is to play and every seat holds 5 cards (a full
                deal; nobody has played yet). A position that says False there, or True with the
                hands of a later turn, is refused.

        Raises:
            PositionError: duplicate or unknown cards, odd scores, a score at or over the target (the
                chica would be over), impossible hand sizes, a last_trail not on the table or on
                the first play of a deal, a first_play that contradicts the hands, or a bad seat.
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
        unplaced = [c for c in DECK if c not in set(placed)]
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

    # ---------------------------------------------------------------- queries

    @property
    def mano(self) -> int:
        """The seat on the dealer's right, who leads every deal (R6, R9)."""
        return (self.dealer + 1) % self.players

    @property
    def is_over(self) -> bool:
        """True once a side has won the mesa."""
        return self.winner is not None

    def outcome(self) -> Outcome | None:
        """The result once the mesa is over (R35, R36), else None."""
        if self.winner is None:
            return None
        last = self.events[-1]
        return Outcome(self.winner, (self.chicas[0], self.chicas[1]), last.kind == K.MESA_WON and last.zapatero)

    def team_of(self, seat: int) -> int:
        """The side of a seat: 0 or 1 (R4)."""
        return seat % 2

    def deals_per_hand(self) -> int:
        """4 deals with 2 players, 2 with 4 players (R8)."""
        return 4 if self.players == 2 else 2

    def legal_plays(self) -> list[Play]:
        """Every legal play of the seat in turn: for each card in hand, each capture it can make
        (one base capture, match or sum, plus the escalera; R17, R18) and the trail (R21; refused for a
        card that can capture when ``forced_capture``). Empty once the mesa is over.

        Shape: a list of `Play`, grouped by card in hand order, trail last for each card.
        """
        if self.to_play is None:
            return []
        options = self._options_by_card()
        return [o[0] for card in self.hands[self.to_play] for o in options[card]]

    def plays_for(self, card: Card | str) -> list[Play]:
        """The legal plays of ``card`` for the seat in turn (its captures, then the trail if allowed).

        Raises:
            CardNotInHandError: the card is not in the hand of the seat in turn.
            GameOverError: the mesa is over.
        """
        card = Card.parse(card)
        if self.to_play is None:
            raise GameOverError("the mesa is over")
        if card not in self.hands[self.to_play]:
            raise CardNotInHandError(f"{card} is not in seat {self.to_play}'s hand")
        return [o[0] for o in self._options_by_card()[card]]

    def explain(self, play: Play) -> PlayInfo:
        """Describe a legal play of the seat in turn without playing it.

        Raises:
            GameOverError, CardNotInHandError, IllegalCaptureError: as `play` would, for the same play.
        """
        if self.to_play is None:
            raise GameOverError("the mesa is over")
        _, base, is_match = self._find_option(self.to_play, play)
        captures = frozenset(play.captures)
        if not captures:
            return PlayInfo((), (), False, False, False)
        escalera = tuple(sorted((c for c in captures if c not in base), key=lambda c: c.rank))
        prev = (self.to_play - 1) % self.players
        trailed = self.last_trail
        caida = (trailed is not None and self.last_trail_seat == prev and trailed in base
                 and (is_match or self.rules.caida_by_sum))
        ronda = self.rondas.get(prev)
        en_ronda = caida and ronda is not None and ronda[0] == trailed.rank  # type: ignore[union-attr]
        return PlayInfo(base, escalera, caida, len(captures) == len(self.table), en_ronda)

    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may see (see `GameView`); ``None`` gives a spectator's view: no hand, no legal
        plays, and every ronda rank hidden until it is revealed.

        Raises:
            PositionError: not a seat of this game.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise PositionError(f"no seat {seat!r} at a {self.players}-player table")
        events = tuple(
            e.hidden() if i in self.hidden and e.seat != seat else e for i, e in enumerate(self.events)
        )
        rondas = tuple(
            (s, r if (s == seat or i not in self.hidden) else None) for s, (r, i) in sorted(self.rondas.items())
        )
        return GameView(
            seat=seat,
            team=None if seat is None else seat % 2,
            players=self.players,
            rules=self.rules,
            hand=() if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            table=tuple(self.table),
            last_trail=self.last_trail,
            last_trail_seat=self.last_trail_seat if self.last_trail is not None else None,
            pile_sizes=(len(self.piles[0]), len(self.piles[1])),
            captured=(tuple(self.piles[0]), tuple(self.piles[1])),
            dead=tuple(self.dead),
            stock_size=len(self.stock),
            scores=(self.scores[0], self.scores[1]),
            chicas=(self.chicas[0], self.chicas[1]),
            streaks=(self.streaks[0], self.streaks[1]),
            dealer=self.dealer,
            mano=self.mano,
            to_play=self.to_play,
            hand_number=self.hand_number,
            deal_number=self.deal_number,
            chica_number=self.chica_number,
            rondas=rondas,
            events=events,
            legal_plays=tuple(self.legal_plays()) if seat is not None and self.to_play == seat else (),
            winner=self.winner,
        )

    # ---------------------------------------------------------------- playing

    def play(self, play: Play, *, seat: int | None = None) -> list[Event]:
        """Apply ``play`` for the seat in turn and return the events it caused, in order: PLAYED, then
        CAPTURED, CAIDA / LIMPIA / FOUR_CAIDAS, and whatever follows: the next deal and its rondas, the end
        of the hand and its count, CHICA_WON, the next chica, MESA_WON (R16–R37).

        Args:
            play: a `Play`; only its card and its set of captures matter.
            seat: if given, the seat that is trying to play; refused unless it is the seat in turn.

        Raises (and change nothing):
            GameOverError: the mesa is over.
            NotYourTurnError: ``seat`` is not the seat in turn.
            CardNotInHandError: the card is not in the hand of the seat in turn.
            IllegalCaptureError: the captures are not a legal capture for that card, or a trail that
                ``forced_capture`` forbids.
        """
        if self.to_play is None:
            raise GameOverError("the mesa is over")
        current = self.to_play
        if seat is not None and seat != current:
            raise NotYourTurnError(f"it is seat {current}'s turn, not seat {seat}'s")
        option = self._find_option(current, play)
        start = len(self.events)
        self._apply(current, option)
        return self.events[start:]

    def _find_option(self, seat: int, play: Play) -> _Option:
        """The legal option of ``seat`` (the seat in turn) equal to ``play``.

        Raises:
            CardNotInHandError, IllegalCaptureError: no such option.
        """
        card = play.card
        if not isinstance(card, Card) or card not in self.hands[seat]:
            raise CardNotInHandError(f"{card} is not in seat {seat}'s hand")
        captures = play.captures if isinstance(play.captures, frozenset) else frozenset(play.captures)
        for option in self._options_by_card()[card]:
            if option[0].captures == captures:
                return option
        if not captures:
            raise IllegalCaptureError(f"{card} can capture, so it may not be trailed (forced capture)")
        shown = " + ".join(str(c) for c in sorted(captures))
        raise IllegalCaptureError(f"{card} cannot capture exactly {shown}")

    def _options_by_card(self) -> dict[Card, list[_Option]]:
        """Every option of each card in the hand in turn, computed once per turn (R17, R18, R21)."""
        key = len(self.plays)
        if self._cache_key == key:
            return self._cache
        rules = self.rules
        table = self.table
        hand = self.hands[self.to_play]  # type: ignore[index]
        result: dict[Card, list[_Option]] = {}
        self._cache_key = key
        self._cache = result
        if not table:
            for card in hand:
                result[card] = _TRAIL_ONLY[card.index]
            return result
        first: dict[int, Card] = {}  # rank -> the earliest table card of that rank
        repeated = False
        for t in table:
            if t.rank in first:
                repeated = True
            else:
                first[t.rank] = t
        sums = _sum_groups(table, hand, rules.sum_mode == "pair") if len(table) > 1 else None
        for card in hand:
            r = card.rank
            summed = sums.get(card.value) if sums else None
            if r not in first and not summed:
                result[card] = _TRAIL_ONLY[card.index]
                continue
            escalera: tuple[Card, ...] = ()
            nr = r + 1
            while nr in first:
                escalera += (first[nr],)
                nr += 1
            if r not in first:
                bases: list[tuple[tuple[Card, ...], bool]] = []
            elif not repeated:
                bases = [((first[r],), True)]
            elif rules.match_takes_all:
                bases = [(tuple([t for t in table if t.rank == r]), True)]
            else:
                bases = [((t,), True) for t in table if t.rank == r]
            if summed:
                bases += [(b, False) for b in summed]
            if rules.sequence_mode == "optional":
                options = [
                    (Play(card, frozenset(base + escalera[:k])), base, is_match)
                    for base, is_match in bases
                    for k in range(len(escalera) + 1)
                ]
            else:
                options = [(Play(card, frozenset(base + escalera)), base, is_match) for base, is_match in bases]
            if not rules.forced_capture:
                options.append(_TRAIL_OPTIONS[card.index])
            result[card] = options
        return result

    def _apply(self, seat: int, option: _Option) -> None:
        rules = self.rules
        events = self.events
        play, base, is_match = option
        card = play.card
        team = seat & 1
        self.hands[seat].remove(card)
        self.plays.append(play)
        events.append(Event(K.PLAYED, seat, team, card))
        if not play.captures:
            self.table.append(card)
            self.last_trail = card
            self.last_trail_seat = seat
            self.streaks[team] = 0
            return self._next_turn(seat)

        caps = play.captures
        captured = tuple([t for t in self.table if t in caps])
        self.table = [t for t in self.table if t not in caps]
        pile = self.piles[team]
        pile.append(card)
        pile.extend(captured)
        self.last_capturer = team
        events.append(Event(K.CAPTURED, seat, team, card, captured))
        trailed = self.last_trail
        prev = (seat - 1) % self.players
        caida = (
            trailed is not None
            and self.last_trail_seat == prev
            and trailed in base
            and (is_match or rules.caida_by_sum)
        )
        self.last_trail = None
        self.last_trail_seat = None
        limpia = not self.table
        if not caida:
            self.streaks[team] = 0
            if limpia:
                points, blocked = self._award(team, rules.limpia, caida=False)
                events.append(Event(K.LIMPIA, seat, team, points=points, blocked=blocked,
                                    scores=tuple(self.scores)))  # type: ignore[arg-type]
                if self.scores[team] >= rules.target:
                    return self._win_chica(team, "target")
            return self._next_turn(seat)

        self.streaks[team] += 1
        four = self.streaks[team] == 4
        ronda = self.rondas.get(prev)
        en_ronda = ronda is not None and ronda[0] == trailed.rank  # type: ignore[union-attr]
        if en_ronda:
            self.hidden.discard(ronda[1])  # type: ignore[index]
            award = rules.caida_en_ronda_limpia if limpia else rules.caida_en_ronda
        else:
            award = rules.caida_limpia if limpia else rules.caida
        # R31: an instant chica (caída en ronda, four caídas) comes before any points
        instant = "caida_en_ronda" if award == CHICA else "four_caidas" if four and rules.four_caidas == CHICA else None
        if instant:
            points, blocked = 0, None
        else:
            points, blocked = self._award(team, award, caida=True)  # type: ignore[arg-type]
        events.append(Event(K.CAIDA, seat, team, trailed, points=points, blocked=blocked,
                            scores=tuple(self.scores), limpia=limpia, en_ronda=en_ronda,  # type: ignore[arg-type]
                            reason=CHICA if instant == "caida_en_ronda" else None))
        if four:
            events.append(Event(K.FOUR_CAIDAS, seat, team, number=4,
                                reason=CHICA if instant == "four_caidas" else None))
        if instant:
            return self._win_chica(team, instant)
        if self.scores[team] >= rules.target:
            return self._win_chica(team, "target")
        return self._next_turn(seat)

    def _award(self, team: int, points: int, *, caida: bool, cutoff: int | None = None) -> tuple[int, str | None]:
        """Add points to a team unless the 38 rule (R30) or a cutoff (R15, R28) blocks them."""
        score = self.scores[team]
        if cutoff is not None and score >= cutoff:
            return 0, "cutoff"
        if not caida and score == self.rules.score38:
            return 0, "38"
        assert points % 2 == 0, "every award is even (R32)"
        self.scores[team] = score + points
        return points, None

    def _next_turn(self, seat: int) -> None:
        nxt = (seat + 1) % self.players
        if self.hands[nxt]:
            self.to_play = nxt
        elif self.stock:
            self._deal()
        else:
            self._end_hand()

    # ---------------------------------------------------------------- flow: chicas, hands, deals

    def _start_chica(self) -> None:
        self.chica_number += 1
        self.scores = [0, 0]
        self.events.append(Event(K.CHICA_START, number=self.chica_number, scores=(0, 0)))
        self._start_hand()

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.deal_number = 0
        deck = list(DECK)
        random.Random(f"cuarenta/{self.seed}/hand/{self.hand_number}").shuffle(deck)
        for h in self.hands:
            h.clear()
        self.stock = deck
        self.table = []
        self.piles = [[], []]
        self.dead = []
        self.streaks = [0, 0]
        self.last_capturer = None
        self.events.append(Event(K.HAND_START, seat=self.dealer, number=self.hand_number))
        self._deal()

    def _deal(self) -> None:
        """Deal the next 5 cards to each player from the mano, then announce rondas (R8, R12–R14)."""
        n = self.players
        size = min(5, len(self.stock) // n)
        if size == 0:
            return self._end_hand()
        self.deal_number += 1
        mano = self.mano
        stock = self.stock
        for i in range(n):
            seat = (mano + i) % n
            self.hands[seat] = stock[:size]
            del stock[:size]
        self.last_trail = None
        self.last_trail_seat = None
        self.rondas = {}
        if not self.rules.four_caidas_across_deals:
            self.streaks = [0, 0]
        self.to_play = mano
        self.events.append(Event(K.DEAL, seat=mano, number=self.deal_number))
        rules = self.rules
        for i in range(n):
            seat = (mano + i) % n
            counts = [0] * 10
            for c in self.hands[seat]:
                counts[c.rank] += 1
            for rank, count in enumerate(counts):
                if count < 3:
                    continue
                team = seat & 1
                index = len(self.events)
                self.hidden.add(index)
                if count == 3:
                    self.rondas[seat] = (rank, index)
                    points, blocked = self._award(team, rules.ronda, caida=False, cutoff=rules.ronda_cutoff)
                    kind = K.RONDA
                elif rules.doble_ronda == CHICA:
                    self.events.append(Event(K.DOBLE_RONDA, seat, team, rank=rank, reason=CHICA,
                                             scores=tuple(self.scores)))  # type: ignore[arg-type]
                    return self._win_chica(team, "doble_ronda")
                else:
                    points, blocked = self._award(team, rules.doble_ronda, caida=False,  # type: ignore[arg-type]
                                                  cutoff=rules.ronda_cutoff)
                    kind = K.DOBLE_RONDA
                self.events.append(Event(kind, seat, team, points=points, blocked=blocked,
                                         scores=tuple(self.scores), rank=rank))  # type: ignore[arg-type]
                if self.scores[team] >= rules.target:
                    return self._win_chica(team, "target")
        return None

    def _reveal_rondas(self) -> None:
        for index in sorted(self.hidden):
            e = self.events[index]
            self.events.append(Event(K.RONDA_REVEALED, e.seat, e.team, rank=e.rank))
        self.hidden.clear()

    def _end_hand(self) -> None:
        """Leftovers (R27), the count (R28), falla (R29), checking for the target after each award (R37)."""
        rules = self.rules
        events = self.events
        self.to_play = None
        if self.table:
            taker = self.last_capturer if rules.leftovers == "last_capturer" else None
            if taker is None:
                self.dead.extend(self.table)
            else:
                self.piles[taker].extend(self.table)
            events.append(Event(K.LEFTOVERS, team=taker, cards=tuple(self.table)))
            self.table = []
        self._reveal_rondas()
        counts = (len(self.piles[0]), len(self.piles[1]))
        non_dealer = (self.dealer + 1) & 1
        order = (non_dealer, 1 - non_dealer)
        cutoff = rules.carton_cutoff
        winner: int | None = None

        def award(kind: EventKind, team: int, points: int, number: int | None = None,
                  use_cutoff: bool = True) -> None:
            nonlocal winner
            got, blocked = self._award(team, points, caida=False, cutoff=cutoff if use_cutoff else None)
            events.append(Event(kind, team=team, points=got, blocked=blocked, number=number,
                                scores=tuple(self.scores)))  # type: ignore[arg-type]
            if winner is None and self.scores[team] >= rules.target:
                winner = team

        if counts[0] == counts[1]:
            award(K.DOS_POR_DARLAS, non_dealer, rules.carton_tie)
        else:
            scorers = [t for t in order if counts[t] >= rules.carton_min_cards]
            for t in scorers:
                if winner is None:
                    award(K.CARTON, t, carton_points(counts[t]), number=counts[t])
            if not scorers:
                more = 0 if counts[0] > counts[1] else 1
                award(K.MAS_CARTAS, more, 2)
        if rules.falla and winner is None:
            for t in order:
                if counts[t] == 0 and winner is None:
                    award(K.FALLA, 1 - t, rules.falla, use_cutoff=False)
        events.append(Event(K.HAND_END, counts=counts, scores=tuple(self.scores), number=self.hand_number))  # type: ignore[arg-type]
        if winner is not None:
            return self._win_chica(winner, "target")
        self.dealer = self.mano
        return self._start_hand()

    def _win_chica(self, team: int, reason: str) -> None:
        """A side wins the chica (R33); zapatería (R35) or 2 chicas (R36) may end the mesa."""
        rules = self.rules
        self.to_play = None
        self._reveal_rondas()
        zapatero = rules.zapateria and self.scores[1 - team] < rules.zapateria_below
        self.chicas[team] += 1
        self.events.append(Event(K.CHICA_WON, team=team, reason=reason, scores=tuple(self.scores),  # type: ignore[arg-type]
                                 counts=tuple(self.chicas), number=self.chica_number, zapatero=zapatero))  # type: ignore[arg-type]
        by_zapateria = zapatero and self.chica_number == 1
        if by_zapateria or self.chicas[team] >= rules.chicas_to_win:
            self.winner = team
            self.events.append(Event(K.MESA_WON, team=team, counts=tuple(self.chicas),  # type: ignore[arg-type]
                                     zapatero=by_zapateria))
            return
        self.dealer = self.mano
        self._start_chica()

    # ---------------------------------------------------------------- persistence

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data holding the whole state; `Game.from_dict` restores an identical game."""

        def codes(cards: Iterable[Card]) -> list[str]:
            return [c.code for c in cards]

        return {
            "version": 1,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "to_play": self.to_play,
            "hands": [codes(h) for h in self.hands],
            "stock": codes(self.stock),
            "table": codes(self.table),
            "piles": [codes(p) for p in self.piles],
            "dead": codes(self.dead),
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
            "events": [e.to_dict() for e in self.events],
            "plays": [p.to_dict() for p in self.plays],
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Inverse of `to_dict`.

        Raises:
            PositionError: unknown version, or the data does not describe a game.
        """
        if data.get("version") != 1:
            raise PositionError(f"unknown game data version {data.get('version')!r}")
        try:
            game = cls(Rules.from_dict(data["rules"]), data["players"], data["seed"])
            game.dealer = data["dealer"]
            game.to_play = data["to_play"]
            game.hands = [parse_cards(h) for h in data["hands"]]
            game.stock = parse_cards(data["stock"])
            game.table = parse_cards(data["table"])
            game.piles = [parse_cards(p) for p in data["piles"]]
            game.dead = parse_cards(data["dead"])
            game.scores = list(data["scores"])
            game.chicas = list(data["chicas"])
            game.streaks = list(data["streaks"])
            game.hand_number = data["hand_number"]
            game.deal_number = data["deal_number"]
            game.chica_number = data["chica_number"]
            game.last_trail = Card.parse(data["last_trail"]) if data["last_trail"] else None
            game.last_trail_seat = data["last_trail_seat"]
            game.last_capturer = data["last_capturer"]
            game.rondas = {seat: (rank, index) for seat, rank, index in data["rondas"]}
            game.hidden = set(data["hidden"])
            game.events = [Event.from_dict(e) for e in data["events"]]
            game.plays = [Play.from_dict(p) for p in data["plays"]]
            game.winner = data["winner"]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a saved game: {exc}") from exc
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Game {self.players}p chica {self.chica_number} hand {self.hand_number} deal {self.deal_number} "
                f"scores {self.scores} chicas {self.chicas} to_play {self.to_play}>")


_EMPTY: frozenset[Card] = frozenset()
_TRAIL_OPTIONS: tuple[_Option, ...] = tuple((Play(c, _EMPTY), (), False) for c in DECK)
_TRAIL_ONLY: tuple[list[_Option], ...] = tuple([o] for o in _TRAIL_OPTIONS)  # shared: never mutate


def _sum_groups(table: list[Card], hand: list[Card], pairs_only: bool) -> dict[int, list[tuple[Card, ...]]]:
    """Sets of 2+ numeric table cards (exactly 2 when ``pairs_only``) whose values add up to the value of
    a numeric card in ``hand``, by total (R2, R17). Cards keep table order."""
    top = 0
    for c in hand:
        if c.value > top:
            top = c.value
    nums = [t for t in table if 0 < t.value < top]
    groups: dict[int, list[tuple[Card, ...]]] = {}
    if len(nums) < 2:
        return groups
    if len(nums) == 2:
        a, b = nums
        if a.value + b.value <= top:
            groups[a.value + b.value] = [(a, b)]
        return groups
    if pairs_only:
        for i, a in enumerate(nums):
            for b in nums[i + 1:]:
                total = a.value + b.value
                if total <= top:
                    groups.setdefault(total, []).append((a, b))
        return groups
    subsets: list[tuple[int, tuple[Card, ...]]] = []  # every non-empty subset so far with total <= top
    for t in nums:
        v = t.value
        grown = [(total + v, (*chosen, t)) for total, chosen in subsets if total + v <= top]
        for total, chosen in grown:  # a grown subset has 2+ cards: a sum
            if total in groups:
                groups[total].append(chosen)
            else:
                groups[total] = [chosen]
        subsets += grown
        subsets.append((v, (t,)))
    return groups
