"""Which capture choices a player is offered: only those that differ in what the player gets.

Two captures of one card that take the same ranks, with the same caída and limpia, score the same and
leave the same ranks on the table: they differ only by suit (say the 5♣ or the 5♥ on the table). The
player is offered one of them, resolved as RULES.md Part 1 §2 resolves the escalera's duplicates: the
cards played earlier are taken.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine import Card, GameView, Play


def is_caida(play: Play, view: GameView) -> bool:
    """True when ``play`` (by the seat of ``view``, in turn) falls on the card the previous player just
    trailed (R22; by sum too where ``caida_by_sum``). A joker is never a caída, not even on the joker just
    trailed (RULES.md Part 1 §9)."""
    card = play.card
    if card.is_joker:
        return False
    base = [c for c in play.captures if c.rank <= card.rank]
    prev = (view.seat - 1) % view.players if view.seat is not None else None
    trailed = view.last_trail
    if trailed is None or view.last_trail_seat != prev or trailed not in base:
        return False
    return (len(base) == 1 and trailed.rank == card.rank) or view.rules.caida_by_sum


def outcome(play: Play, view: GameView) -> tuple[object, ...]:
    """What a capture gives the player: the ranks taken, caída, limpia (R17–R23)."""
    return (tuple(sorted(c.rank for c in play.captures)), is_caida(play, view),
            len(play.captures) == len(view.table))


def distinct_captures(plays: Iterable[Play], view: GameView) -> tuple[Play, ...]:
    """``plays`` with suit-only twins merged: one play per `outcome`, the one whose cards lie earliest on
    the table, in the order the outcomes first appear."""
    order = {card: i for i, card in enumerate(view.table)}
    best: dict[tuple[object, ...], Play] = {}
    for play in plays:
        key = outcome(play, view)
        kept = best.get(key)
        if kept is None or _age(play, order) < _age(kept, order):
            best[key] = play
    return tuple(best.values())


def _age(play: Play, order: dict[Card, int]) -> tuple[int, ...]:
    return tuple(sorted(order.get(c, 99) for c in play.captures))
