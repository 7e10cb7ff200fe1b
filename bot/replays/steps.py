"""A finished mesa as a list of steps, one per play, rebuilt by the engine from its seed and its plays.

Pure: the engine only (no I/O, no Discord, no text). `build` deals the mesa with ``Game.replay`` from the
stored seed and no play (that is ``Game.new``), then applies the stored plays one by one, exactly as
``Game.replay(rules, players, seed, plays)`` does, keeping the position before each play. Nothing is
read from stored text: the events, hands and scores all come from the engine.

How the event log is cut into steps: the events a play emits run from its PLAYED to the end of what the
play closed (the count at the end of the hand, a chica, the mesa). When the play also made the engine
deal again, the events of that new deal (CHICA_START, HAND_START, DEAL, rondas) belong to the *next*
step, as its ``opening``: they are what that next player sees before playing. The events that open the
mesa (the first deal) are the first step's opening; events after the last play (a doble ronda that ends
the mesa at a deal) join the last step. Every event of the log is in exactly one step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import Card, Event, EventKind, Game, Play, Rules

K = EventKind

_OPENS = (K.CHICA_START, K.HAND_START, K.DEAL)
"""Event kinds that start a new deal: where a play's own events end and the next step's opening begins."""


@dataclass(frozen=True)
class Step:
    """One play of a finished mesa, with the position it was made in and what it caused.

    Attributes:
        index: 0-based place in the replay (the play's index in ``Game.plays``).
        seat: the seat that played (0-based, in play order); play: the `Play`. Both None only for a mesa
            that ended before anyone played (its single step holds the whole log).
        hand, chica, deal: the numbers of the hand (mesa-wide, as HAND_START counts them), the chica and
            the deal the play was made in (1-based).
        dealer: the hand's dealer seat.
        hands: every seat's cards just before the play, in the order dealt.
        table: the table cards just before the play, oldest first.
        after: the table cards right after the play (before the end of a hand clears them).
        opening: events since the previous step that came before this play (a new chica, hand or deal,
            rondas sung at the deal).
        events: the events this play emitted, up to the end of what it closed (capture, caída, limpia,
            the count, a chica, the mesa).
        scores: points per team after this step (the chica's final score when the step ended a chica).
        chicas: chicas won per team after this step.
    """

    index: int
    seat: int | None
    play: Play | None
    hand: int
    chica: int
    deal: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    after: tuple[Card, ...]
    opening: tuple[Event, ...]
    events: tuple[Event, ...]
    scores: tuple[int, int]
    chicas: tuple[int, int]


@dataclass(frozen=True)
class Replay:
    """A finished mesa as steps (`build`).

    Attributes:
        preset, players, seed: what it was dealt with (``preset``: a preset name, or the mesa's own `Rules`).
        game: the engine's game after the last play (equal to ``Game.replay`` of every play).
        steps: one `Step` per play, in order (never empty).
    """

    preset: str | Rules
    players: int
    seed: str
    game: Game
    steps: tuple[Step, ...]

    @property
    def last(self) -> int:
        """The index of the last step."""
        return len(self.steps) - 1

    def clamp(self, index: int) -> int:
        """``index`` brought into ``0 … last`` (a stale or forged step number shows the nearest step)."""
        return max(0, min(int(index), self.last))

    @property
    def hand_numbers(self) -> list[int]:
        """The numbers of the hands that hold at least one step, in order."""
        out: list[int] = []
        for step in self.steps:
            if not out or out[-1] != step.hand:
                out.append(step.hand)
        return out

    def hand_start(self, hand: int) -> int | None:
        """The index of the first step of hand ``hand``, or None when that hand has no step."""
        return next((s.index for s in self.steps if s.hand == hand), None)

    def next_hand(self, index: int) -> int | None:
        """⏭: the first step of the hand after the one of step ``index``; None in the last hand."""
        current = self.steps[self.clamp(index)].hand
        return next((s.index for s in self.steps if s.hand > current), None)

    def previous_hand(self, index: int) -> int | None:
        """⏮: the first step of the hand before the one of step ``index`` (of the first hand, from inside
        it); None at the very first step."""
        index = self.clamp(index)
        if index == 0:
            return None
        current = self.steps[index].hand
        earlier = [s.hand for s in self.steps[:index] if s.hand < current]
        return self.hand_start(earlier[-1]) if earlier else 0


def _cut(events: Sequence[Event]) -> int:
    """Where a play's own events end: at the first event that starts a new deal (or the end)."""
    return next((i for i, e in enumerate(events) if e.kind in _OPENS), len(events))


def _tally(events: Iterable[Event], scores: tuple[int, int], chicas: tuple[int, int]
           ) -> tuple[tuple[int, int], tuple[int, int]]:
    """The score and chicas after ``events``, from their own figures. A step's own events never hold the
    next CHICA_START (it opens the next step), so a step that ended a chica shows its final score."""
    for e in events:
        if e.scores is not None:
            scores = (e.scores[0], e.scores[1])
        if e.kind in (K.CHICA_WON, K.MESA_WON) and e.counts is not None:
            chicas = (e.counts[0], e.counts[1])
    return scores, chicas


def build(preset: str | Rules, players: int, seed: str, plays: Sequence[Play]) -> Replay:
    """Replay a mesa and cut it into steps.

    Args:
        preset: the rules preset name (``Rules.preset``), or the mesa's own `Rules` (house rules).
        players: 2 or 4.
        seed: the stored seed.
        plays: every stored play, in order.

    Returns:
        a `Replay` with one step per play (one step without a play when ``plays`` is empty).

    Raises:
        bot.engine.RulesError: unknown preset.
        bot.engine.RefusedPlayError: a stored play is not legal where it is applied (the stored plays do
            not belong to this seed).
        bot.engine.PositionError: players is not 2 or 4.
    """
    rules = preset if isinstance(preset, Rules) else Rules.preset(preset)
    game = Game.replay(rules, players, seed, ())
    pending: list[Event] = list(game.events)  # the opening of the next step
    steps: list[Step] = []
    scores = (game.scores[0], game.scores[1])
    chicas = (game.chicas[0], game.chicas[1])
    for index, play in enumerate(plays):
        opening = tuple(pending)
        scores, chicas = _tally(opening, scores, chicas)
        seat = game.to_play
        hands = tuple(tuple(h) for h in game.hands)
        table = tuple(game.table)
        hand, chica, deal, dealer = game.hand_number, game.chica_number, game.deal_number, game.dealer
        start = len(game.events)
        game.play(play)
        emitted = game.events[start:]
        cut = _cut(emitted)
        own, pending = tuple(emitted[:cut]), list(emitted[cut:])
        after = table + (play.card,) if play.is_trail else tuple(c for c in table if c not in play.captures)
        scores, chicas = _tally(own, scores, chicas)
        steps.append(Step(index, seat, play, hand, chica, deal, dealer, hands, table, after, opening, own,
                          scores, chicas))
    if not steps:  # a mesa won at its first deal: one step without a play, holding the whole log
        scores, chicas = _tally(pending, scores, chicas)
        steps.append(Step(0, None, None, game.hand_number, game.chica_number, game.deal_number, game.dealer,
                          tuple(tuple(h) for h in game.hands), tuple(game.table), tuple(game.table),
                          tuple(pending), (), scores, chicas))
    elif pending:  # events after the last play (a doble ronda that ends the mesa at a deal)
        last = steps[-1]
        tail = tuple(pending)
        scores, chicas = _tally(tail, last.scores, last.chicas)
        steps[-1] = Step(last.index, last.seat, last.play, last.hand, last.chica, last.deal, last.dealer,
                         last.hands, last.table, last.after, last.opening, last.events + tail, scores, chicas)
    return Replay(preset, players, str(seed), game, tuple(steps))


__all__ = ["Replay", "Step", "build"]
