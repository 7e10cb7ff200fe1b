"""Pistas (hints) for a practice table: on your turn, the hand marks the plays that capture and what
each would score at once. A table with hints is never rated (`TableService.is_casual`).

Hidden information: hints read only the player's own `GameView` (their hand, the table, the last trail),
so they never depend on another hand, the stock or a hidden ronda rank. That is also why a caída en ronda
(R25) is not announced in a hint: it depends on the trailer's hidden ronda.
"""

from __future__ import annotations

from bot.engine import CHICA, Card, GameView, Play, periquito_ranks
from bot.i18n import t
from bot.tables import Table

from .words import capture_words, plain_card


def is_caida(play: Play, view: GameView) -> bool:
    """The base capture takes the card the previous seat just trailed (R22; by sum only where the rules
    allow it). A joker is never a caída, not even on the joker just trailed (§9)."""
    card = play.card
    if card.is_joker:
        return False
    base = [c for c in play.sorted_captures() if c.rank <= card.rank]
    prev = (view.seat - 1) % view.players  # type: ignore[operator]  # hints are for a seated player's view
    return bool(view.last_trail is not None and view.last_trail_seat == prev and view.last_trail in base
                and (len(base) == 1 and view.last_trail.rank == card.rank or view.rules.caida_by_sum))


def periquito_bonus(play: Play, view: GameView) -> int:
    """The periquito bonus a capture would score (§9): ``periquito_points`` for each rank of which it takes
    all four cards, where ``Rules.periquito`` is on; 0 at the blocking score (38, R30), which stops it as
    it stops a limpia."""
    rules = view.rules
    if not rules.periquito or not play.captures:
        return 0
    mine = view.scores[view.team or 0]
    if rules.score38 is not None and mine == rules.score38:
        return 0
    return rules.periquito_points * len(periquito_ranks(play.captures))


def play_points(play: Play, view: GameView) -> tuple[int, bool, bool]:
    """What a capture scores at once for the player's side, as ``(points, caida, limpia)``: a caída
    (R22), a limpia (R23) or both (R24), plus the periquito bonus (`periquito_bonus`, §9); at the blocking
    score (38, R30) only a caída counts. Cards taken score later, in the cartón (R28). A joker left on
    the table keeps it from being clear (§9): the capture does not take it, so it is no limpia."""
    rules = view.rules
    caida = is_caida(play, view)
    limpia = len(play.captures) == len(view.table)
    points = rules.caida_limpia if caida and limpia else rules.caida if caida else rules.limpia if limpia else 0
    mine = view.scores[view.team or 0]
    if rules.rule38 and rules.score38 is not None and mine == rules.score38 and not caida:
        points = 0
    return points + periquito_bonus(play, view), caida, limpia


def wins_chica(play: Play, view: GameView) -> bool:
    """The capture wins the chica at once: a fourth caída in a row where four caídas win it (R26), or
    points that reach the target (R33). Read from the player's own view (streaks and scores are public;
    a caída en ronda depends on a hidden ronda, so it is never announced here)."""
    points, caida, _ = play_points(play, view)
    rules = view.rules
    team = view.team or 0
    if caida and rules.four_caidas == CHICA and view.streaks[team] == 3:
        return True
    return bool(points) and view.scores[team] + points >= rules.target


def best_captures(view: GameView) -> dict[Card, Play]:
    """For each card of the hand that can capture, its capture that scores most at once (then takes the
    most cards)."""
    best: dict[Card, Play] = {}
    for play in view.legal_plays:
        if not play.captures:
            continue
        key = (wins_chica(play, view), play_points(play, view)[0], len(play.captures))
        held = best.get(play.card)
        if held is None or key > (wins_chica(held, view), play_points(held, view)[0], len(held.captures)):
            best[play.card] = play
    return best


def hint_lines(table: Table, view: GameView, lang: str) -> list[str]:
    """The hint block of a hand on the player's turn: one line per capturing card, ``"💡 5♥ → 5♣ ·
    caída +2"``, or that no card captures (so trail one). Empty when hints are off or it is not the
    player's turn."""
    if not table.hints or not view.my_turn:
        return []
    best = best_captures(view)
    if not best:
        return [t("hint.none", lang)]
    lines = [t("hint.title", lang)]
    for card, play in sorted(best.items(), key=lambda item: -play_points(item[1], view)[0]):
        points, caida, limpia = play_points(play, view)
        bonus = periquito_bonus(play, view)
        what = capture_words(card, play.sorted_captures(), lang, plain_card)
        kind = ("hint.caida_limpia" if caida and limpia else "hint.caida" if caida
                else "hint.limpia" if limpia else "hint.capture")
        line = t(kind, lang, card=plain_card(card), cards=what, points=points - bonus, count=len(play.captures) + 1)
        if bonus:
            line += " " + t("hint.periquito", lang, points=bonus)
        if wins_chica(play, view):
            line += " " + t("hint.wins_chica", lang)
        lines.append(line)
    return lines


__all__ = ["best_captures", "hint_lines", "is_caida", "periquito_bonus", "play_points", "wins_chica"]
