"""Greedy computer player: the most valuable capture, else the lowest trail."""

from __future__ import annotations

import random

from bot.engine import GameView, Play, periquito_ranks


def is_caida(view: GameView, play: Play) -> bool:
    """True when ``play`` is a caída: a match of the card the seat before just trailed (R22).

    The ``caida_by_sum`` variant (a sum taking that card) counts too when the table's rules use it. A joker
    is never a caída (§9).
    """
    lt = view.last_trail
    if lt is None or lt not in play.captures or view.seat is None \
            or view.last_trail_seat != (view.seat - 1) % view.players or play.card.is_joker:
        return False
    return lt.rank == play.card.rank or (view.rules.caida_by_sum and lt.rank < play.card.rank)


def capture_value(view: GameView, play: Play) -> float:
    """Immediate value of a play for the seat: points it scores now (caída, limpia) plus cards taken.

    Shape: a float, higher is better; a trail is 0. Caída is a match of ``view.last_trail`` when the seat
    before trailed it (R22; never by a joker, §9); limpia empties the table (R23). Bonus points are counted
    at 2 (todo dos), at 3 a point like them; a periquito (all four cards of a rank, §9) at its
    ``periquito_points``.
    """
    if not play.captures:
        return 0.0
    value = 1.0 + len(play.captures)  # cards to the cartón, the played card included
    if view.last_trail is not None and view.last_trail in play.captures and view.seat is not None \
            and view.last_trail_seat == (view.seat - 1) % view.players \
            and view.last_trail.rank == play.card.rank and not play.card.is_joker:
        value += 6.0  # caída (the plain greedy baseline ignores the caida_by_sum variant)
    if len(play.captures) == len(view.table):
        value += 6.0
    if view.rules.periquito:
        value += 3.0 * view.rules.periquito_points * len(periquito_ranks(play.captures))
    return value


class GreedyPlayer:
    """Plays the capture with the highest `capture_value`; with none, trails its lowest card.

    Ties are broken by ``rng``, so play is reproducible from the game's seed.
    """

    name = "greedy"

    def choose(self, view: GameView, rng: random.Random) -> Play:
        """Return a legal play for ``view.seat``.

        Raises:
            ValueError: it is not this seat's turn (no legal plays in the view).
        """
        plays = list(view.legal_plays)
        if not plays:
            raise ValueError("not this seat's turn")
        best = max(capture_value(view, p) for p in plays)
        if best > 0:
            choices = [p for p in plays if capture_value(view, p) == best]
        else:
            low = min(p.card.rank for p in plays)
            choices = [p for p in plays if p.card.rank == low and not p.captures]
        return rng.choice(sorted(choices, key=lambda p: (p.card, sorted(p.captures))))
