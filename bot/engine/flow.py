"""The course of a mesa between plays: starting chicas and hands, dealing and announcing rondas
(R8, R12–R14), the end-of-hand count (leftovers R27, cartón R28, falla R29), awarding points under the 38
rule and the cutoffs (R30, R15), and winning a chica or the mesa (R33–R37). A mixin of
`bot.engine.game.Game`, kept apart so that game.py holds the plays themselves.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import deck_for, stock_reserve
from .events import Event, EventKind
from .rules import CHICA
from .state import GameState

__all__ = ["FlowMixin", "carton_points"]

K = EventKind


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


class FlowMixin(GameState):
    """Chicas, hands, deals, the count and awards for `Game` (which sets every attribute they use)."""

    if TYPE_CHECKING:
        @property
        def mano(self) -> int:
            """`Game.mano`."""
            raise NotImplementedError

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

    def _start_chica(self) -> None:
        self.chica_number += 1
        self.scores = [0, 0]
        self.events.append(Event(K.CHICA_START, number=self.chica_number, scores=(0, 0)))
        self._start_hand()

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.deal_number = 0
        deck = list(deck_for(self.rules))
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
        size = min(5, (len(self.stock) - stock_reserve(self.rules)) // n)  # 2 set aside with comodines (§9)
        if size <= 0:
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
            counts = [0] * 11  # index 10: jokers, which count toward no ronda (§9); there are only 2
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
                                             scores=tuple(self.scores)))
                    return self._win_chica(team, "doble_ronda")
                else:
                    points, blocked = self._award(team, rules.doble_ronda, caida=False,
                                                  cutoff=rules.ronda_cutoff)
                    kind = K.DOBLE_RONDA
                self.events.append(Event(kind, seat, team, points=points, blocked=blocked,
                                         scores=tuple(self.scores), rank=rank))
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
                                scores=tuple(self.scores)))
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
        events.append(Event(K.HAND_END, counts=counts, scores=tuple(self.scores), number=self.hand_number))
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
        self.events.append(Event(K.CHICA_WON, team=team, reason=reason, scores=tuple(self.scores),
                                 counts=tuple(self.chicas), number=self.chica_number, zapatero=zapatero))
        by_zapateria = zapatero and self.chica_number == 1
        if by_zapateria or self.chicas[team] >= rules.chicas_to_win:
            self.winner = team
            self.events.append(Event(K.MESA_WON, team=team, counts=tuple(self.chicas),
                                     zapatero=by_zapateria))
            return
        self.dealer = self.mano
        self._start_chica()
