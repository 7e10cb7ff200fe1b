"""A mesa of Cuarenta: dealing, legal plays, captures, scoring and winning (RULES.md R1–R40).

The engine is pure: no I/O, no clock, no Discord. Randomness comes only from the seed, so a seeded game
replays identically from its seed and its list of plays. This module holds the plays; the course
between them (deals, rondas, the count, winning a chica) is in `bot.engine.flow`, positions and JSON
forms in `bot.engine.positions`.

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

Seed variants (Part 1 §9; house rules, off in every preset). Capture enumeration is in `bot.engine.plays`.
- Comodines: the hand is shuffled from 42 cards (`deck_for`); deals are unchanged, so the last 2 stock
  cards are never dealt (`stock_reserve`) and stay unseen. A joker counts toward no ronda. Joker plays are
  never a caída (R22 needs a match of a real card). A joker on the table keeps it from being clear (R23).
  Jokers count as cards in the cartón (R28), out of the 40 cards in play.
- Periquito, project decisions: (1) the four cards of a rank are taken by any capture that takes one of
  them: by a sum that includes one, by an escalera step from a lower card, or by a joker standing for that
  rank (nobody can hold a card of the rank to match it); the capture's escalera still runs from the played
  card's rank (R18). (2) The bonus is scored after the capture's own caída / limpia points and on top of
  them (no "todo dos" capping), in one PERIQUITO event per rank taken. (3) The 38 rule blocks the bonus
  when the side was on 38 before the play, as it blocks a limpia (R30); a side on 36 whose limpia takes
  it to 38 still scores the bonus in the same play. (4) When the play wins the chica at once (caída en
  ronda or four caídas worth the chica, R31 step 3) no bonus is awarded and no PERIQUITO is reported.
  (5) A capture is a caída only as without periquito; with ``caida_by_sum`` a sum taking the four is a
  caída when the just-trailed card is among them. (6) Two periquitos taken in one play score twice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Self

from .cards import Card
from .errors import (
    CardNotInHandError,
    CuarentaError,
    GameOverError,
    IllegalCaptureError,
    OutOfTurnError,
    PositionError,
    RefusedPlayError,
)
from .events import Event, EventKind
from .flow import FlowMixin, carton_points
from .plays import Option, Play, PlayInfo, options_by_card, periquito_ranks
from .positions import PositionsMixin
from .rules import CHICA, Rules
from .view import GameView, Outcome

__all__ = [
    "CardNotInHandError",
    "CuarentaError",
    "Game",
    "GameOverError",
    "GameView",
    "IllegalCaptureError",
    "OutOfTurnError",
    "Outcome",
    "Play",
    "PlayInfo",
    "PositionError",
    "RefusedPlayError",
    "carton_points",
]

K = EventKind


class Game(PositionsMixin, FlowMixin):
    """A mesa of Cuarenta for 2 players, or 4 in two partnerships.

    Build one with `Game.new` (dealt from a seed), `Game.from_position` (any mid-hand position) or
    `Game.from_dict` (persistence). Then `legal_plays` and `play` until `is_over`.

    Public attributes (read them; change them only through `play`):
        rules, players, seed; dealer, to_play (None when over), mano (property);
        hands (list per seat), table (oldest first), piles (per team), stock (with comodines its last 2
        cards are never dealt, §9), dead;
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
        self._cache: dict[Card, list[Option]] = {}
        self._seen: dict[int | None, tuple[int, frozenset[int], tuple[Event, ...]]] = {}

    @classmethod
    def new(cls, rules: Rules | None = None, players: int = 2, seed: int | str = 0) -> Self:
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
    def replay(cls, rules: Rules | None, players: int, seed: int | str, plays: Iterable[Play]) -> Self:
        """`Game.new` followed by every play in order: how a stored mesa is replayed exactly.

        Raises:
            RefusedPlayError: a play is not legal where it is applied.
        """
        game = cls.new(rules, players, seed)
        for play in plays:
            game.play(play)
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
        card that can capture when ``forced_capture``). With comodines a joker has one capture per rank on
        the table and card of that rank, plus one per joker on the table (§9; `Play.joker_rank`); with
        periquito a capture touching a rank whose four cards lie on the table takes all four (§9).
        Empty once the mesa is over.

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
        """Describe a legal play of the seat in turn without playing it (R17–R25, §9): its base capture,
        escalera, caída, limpia and caída en ronda; for a joker the rank it stands for; the periquitos it
        takes.

        Raises:
            GameOverError, CardNotInHandError, IllegalCaptureError: as `play` would, for the same play.
        """
        if self.to_play is None:
            raise GameOverError("the mesa is over")
        found, base, is_match = self._find_option(self.to_play, play)
        captures = found.captures
        if not captures:
            return PlayInfo((), (), False, False, False)
        escalera = tuple(sorted(c for c in captures if c not in base))
        prev = (self.to_play - 1) % self.players
        trailed = self.last_trail
        caida = (trailed is not None and self.last_trail_seat == prev and trailed in base
                 and (is_match or (self.rules.caida_by_sum and found.card.value > 0)))
        ronda = self.rondas.get(prev)
        en_ronda = caida and ronda is not None and ronda[0] == trailed.rank  # type: ignore[union-attr]
        return PlayInfo(base, escalera, caida, len(captures) == len(self.table), en_ronda, found.joker_rank,
                        periquito_ranks(captures) if self.rules.periquito else ())

    def view(self, seat: int | None) -> GameView:
        """What ``seat`` may see (see `GameView`); ``None`` gives a spectator's view: no hand, no legal
        plays, and every ronda rank hidden until it is revealed.

        Raises:
            PositionError: not a seat of this game.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise PositionError(f"no seat {seat!r} at a {self.players}-player table")
        events = self._events_seen_by(seat)
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

    def _events_seen_by(self, seat: int | None) -> tuple[Event, ...]:
        """The event log as ``seat`` sees it (ronda ranks of other seats hidden until revealed), kept per
        seat and extended with the new events only: the log only grows between two views, and a reveal
        or a rewind (`restore`, which empties this cache) rebuilds it."""
        events, hidden = self.events, self.hidden
        count = len(events)
        cached = self._seen.get(seat)
        if cached is not None:
            known, was_hidden, seen = cached
            if known == count and was_hidden == hidden:
                return seen
            # only new events, and no ronda revealed among the old ones: extend what was seen
            if known <= count and was_hidden <= hidden and all(i >= known for i in hidden - was_hidden):
                seen = seen + tuple(e.hidden() if i in hidden and e.seat != seat else e
                                    for i, e in enumerate(events[known:], start=known))
                self._seen[seat] = (count, frozenset(hidden), seen)
                return seen
        seen = tuple(e.hidden() if i in hidden and e.seat != seat else e for i, e in enumerate(events))
        self._seen[seat] = (count, frozenset(hidden), seen)
        return seen

    # ---------------------------------------------------------------- playing

    def play(self, play: Play, *, seat: int | None = None) -> list[Event]:
        """Apply ``play`` for the seat in turn and return the events it caused, in order: PLAYED, then
        CAPTURED, CAIDA / LIMPIA / FOUR_CAIDAS, PERIQUITO (§9), and whatever follows: the next deal and its rondas, the end
        of the hand and its count, CHICA_WON, the next chica, MESA_WON (R16–R37).

        Args:
            play: a `Play`; only its card and its set of captures matter.
            seat: if given, the seat that is trying to play; refused unless it is the seat in turn.

        Raises (and change nothing):
            GameOverError: the mesa is over.
            OutOfTurnError: ``seat`` is not the seat in turn.
            CardNotInHandError: the card is not in the hand of the seat in turn.
            IllegalCaptureError: the captures are not a legal capture for that card, or a trail that
                ``forced_capture`` forbids.
        """
        if self.to_play is None:
            raise GameOverError("the mesa is over")
        current = self.to_play
        if seat is not None and seat != current:
            raise OutOfTurnError(f"it is seat {current}'s turn, not seat {seat}'s")
        option = self._find_option(current, play)
        start = len(self.events)
        self._apply(current, option)
        return self.events[start:]

    def _find_option(self, seat: int, play: Play) -> Option:
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

    def _options_by_card(self) -> dict[Card, list[Option]]:
        """Every option of each card in the hand in turn, computed once per turn (R17, R18, R21, §9;
        `bot.engine.plays.options_by_card`)."""
        key = len(self.plays)
        if self._cache_key == key:
            return self._cache
        result = options_by_card(self.rules, self.table, self.hands[self.to_play])  # type: ignore[index]
        self._cache_key = key
        self._cache = result
        return result

    def _apply(self, seat: int, option: Option) -> None:
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
            and (is_match or (rules.caida_by_sum and card.value > 0))  # a joker is never a caída (§9)
        )
        self.last_trail = None
        self.last_trail_seat = None
        limpia = not self.table
        before = self.scores[team]
        if not caida:
            self.streaks[team] = 0
            if limpia:
                points, blocked = self._award(team, rules.limpia, caida=False)
                events.append(Event(K.LIMPIA, seat, team, points=points, blocked=blocked,
                                    scores=tuple(self.scores)))
                if rules.periquito:
                    self._periquito(seat, captured, before)
                if self.scores[team] >= rules.target:
                    return self._win_chica(team, "target")
            elif rules.periquito:
                self._periquito(seat, captured, before)
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
            assert isinstance(award, int)  # a CHICA award is instant
            points, blocked = self._award(team, award, caida=True)
        events.append(Event(K.CAIDA, seat, team, trailed, points=points, blocked=blocked,
                            scores=tuple(self.scores), limpia=limpia, en_ronda=en_ronda,
                            reason=CHICA if instant == "caida_en_ronda" else None))
        if four:
            events.append(Event(K.FOUR_CAIDAS, seat, team, number=4,
                                reason=CHICA if instant == "four_caidas" else None))
        if instant:
            return self._win_chica(team, instant)
        if rules.periquito:
            self._periquito(seat, captured, before)
        if self.scores[team] >= rules.target:
            return self._win_chica(team, "target")
        return self._next_turn(seat)

    def _periquito(self, seat: int, captured: Sequence[Card], before: int) -> None:
        """Score the periquito bonus once for each rank of which ``captured`` holds all four cards (§9),
        unless the side was on 38 before the play (R30; ``before`` is its score then)."""
        ranks = periquito_ranks(captured)
        if not ranks:
            return
        team = seat & 1
        bonus = self.rules.periquito_points
        for rank in ranks:
            if before == self.rules.score38:
                points, blocked = 0, "38"
            else:
                assert bonus % 2 == 0, "every award is even (R32)"
                self.scores[team] += bonus
                points, blocked = bonus, None
            self.events.append(Event(K.PERIQUITO, seat, team, cards=tuple(c for c in captured if c.rank == rank),
                                     points=points, blocked=blocked, scores=tuple(self.scores),
                                     rank=rank))

    def _next_turn(self, seat: int) -> None:
        nxt = (seat + 1) % self.players
        if self.hands[nxt]:
            self.to_play = nxt
        elif self.stock:
            self._deal()
        else:
            self._end_hand()

    # ---------------------------------------------------------------- persistence

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<Game {self.players}p chica {self.chica_number} hand {self.hand_number} deal {self.deal_number} "
                f"scores {self.scores} chicas {self.chicas} to_play {self.to_play}>")


