"""«¿Por qué?»: the table's last play explained in words, by rule.

The explanation goes through the engine: the game is replayed from its seed to just before the last
play, and `Game.explain` says what that play's base capture was (a match or a sum, R17), which cards the
escalera added (R18), and whether it was a caída (R22), a limpia (R23) or a caída en ronda (R25); for
a joker, the rank it stood for (never a caída), and any periquito taken with its bonus (RULES.md Part 1
§9). The points come from the events the play emitted, so a 38 or a cut-off that stopped them is named
too (R30, R15, R28).

Hidden information: everything said here was public when the play was made: the card played, the table
cards, who trailed what, and the events every spectator sees. A hand, the stock and a ronda's rank are
never read (a caída en ronda is named only when its public event says so).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Event, EventKind, Game, Play, PlayInfo, RefusedPlayError
from bot.i18n import t, tn
from bot.tables import Table

from .faces import CardFaces
from .words import (
    blocked_note,
    capture_words,
    periquito_points_text,
    rank_word,
    ranks_words,
    records,
    score_words,
    seat_name,
    side_name,
)

K = EventKind


def position_before_last_play(game: Game) -> tuple[Game, Play] | None:
    """The game as it was just before its last play, and that play; None when nothing was played yet
    in this mesa, or when the game cannot be rebuilt from its seed (a position set up by hand).

    The game is rebuilt with `Game.replay` from its seed and every play but the last.
    """
    if not game.plays:
        return None
    try:
        before = Game.replay(game.rules, game.players, game.seed, game.plays[:-1])
        before.explain(game.plays[-1])
    except RefusedPlayError:
        return None
    return before, game.plays[-1]


def _could_capture(before: Game, card: Card, lang: str, faces: CardFaces) -> str | None:
    options = [p for p in before.plays_for(card) if p.captures]
    if not options:
        return None
    return " / ".join(capture_words(card, p.sorted_captures(), lang, faces.card) for p in options[:3])


_NEXT = (K.CHICA_START, K.HAND_START, K.DEAL, K.PLAYED)


def _after_play(events: Sequence[Event], team: int, before: tuple[int, ...]) -> tuple[tuple[int, ...], bool]:
    """From the events a play caused (``events`` starts at its PLAYED): both sides' score right after it
    (the last ``scores`` before the next chica, hand or deal starts; the end-of-hand count included), and
    whether it won the chica for ``team`` (R33: reaching the target; R13, R25, R26: at once). ``before``:
    the score before the play, kept when the play scored nothing."""
    scores = before
    won = False
    for e in events[1:]:
        if e.kind in _NEXT:
            break
        if e.kind == K.CHICA_WON:
            won = won or e.team == team
            break
        if e.scores is not None:
            scores = e.scores
    return scores, won


def explain_last_play(table: Table, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> str | None:
    """The last play of ``table`` explained in a few lines of ``lang``, or None when no card has been
    played in this mesa yet (or the position cannot be rebuilt).

    Lines, in order: who played which card; what it took and by which rule (match or sum, R17; escalera,
    R18) or why it was a trail (R21); caída, limpia, caída + limpia, caída en ronda, four caídas (R22–R26)
    with their points, or why a capture of the trailed card was not a caída; points that did not count
    (R30, R15); and both sides' score now. Cards are written with ``faces``.
    """
    game = table.game
    if game is None:
        return None
    rebuilt = position_before_last_play(game)
    if rebuilt is None:
        return None
    before, play = rebuilt
    seat = before.to_play
    assert seat is not None
    info = before.explain(play)
    last_played = max(i for i, e in enumerate(game.events) if e.kind == K.PLAYED)
    record = records(game.events[last_played:])[0]
    index = len(game.plays) - 1  # the last play's: named after whoever made it (`bot.tables.Table.held_by`)
    name = seat_name(table, seat, lang, index)
    lines = [t("why.title", lang, name=name, card=faces.card(play.card))]
    trailed = before.last_trail if before.last_trail_seat == (seat - 1) % before.players else None
    if play.is_trail:
        could = _could_capture(before, play.card, lang, faces)
        if could:
            lines.append(t("why.trail_could", lang, options=could))
        else:
            lines.append(t("why.joker_trail" if play.card.is_joker else "why.trail", lang))
    else:
        lines.append(_base_line(play, info, lang, faces))
        if info.escalera:
            lines.append(t("why.escalera", lang, cards=faces.cards(info.escalera)))
        victim = seat_name(table, (seat - 1) % before.players, lang, index - 1)
        points = t("play.points", lang, points=record.capture_points) if record.capture_points else ""
        if info.caida and info.limpia:
            lines.append(t("why.caida_limpia", lang, fallen=faces.card(trailed), victim=victim,  # type: ignore[arg-type]  # a caída takes the trailed card
                           points=points))
        elif info.caida:
            lines.append(t("why.caida", lang, fallen=faces.card(trailed), victim=victim, points=points))  # type: ignore[arg-type]  # a caída: a trailed card
        elif info.limpia:
            lines.append(t("why.limpia", lang, points=points))
        elif trailed is not None and trailed in play.captures:
            if play.card.is_joker and trailed in info.base:
                key = "why.no_caida_joker"
            else:
                key = "why.no_caida_sum" if trailed in info.base else "why.no_caida_escalera"
            lines.append(t(key, lang, fallen=faces.card(trailed), victim=victim))
        if record.en_ronda:
            lines.append(t("why.en_ronda", lang, fallen=faces.card(trailed), victim=victim))  # type: ignore[arg-type]  # en ronda is a caída
        if record.four_caidas:
            lines.append(t("why.four_caidas", lang))
        if record.periquito:
            lines.append(tn("why.periquito", len(record.periquito), lang, ranks=ranks_words(record.periquito, lang),
                            points=periquito_points_text(table, record, lang)))
        elif info.periquito:  # the engine gives no bonus when the play wins the chica at once (§9)
            lines.append(tn("why.periquito_none", len(info.periquito), lang,
                            ranks=ranks_words(info.periquito, lang)))
        if not (info.caida or info.limpia or record.periquito):
            lines.append(t("why.no_points", lang))
    if record.blocked:
        lines.append(blocked_note(table, record.blocked, lang))
    after, won = _after_play(game.events[last_played:], seat % 2, (before.scores[0], before.scores[1]))
    if record.wins_chica or won:
        lines.append(t("why.wins_chica", lang))
    scores = " · ".join(f"{side_name(table, team, lang)}: {score_words(after[team], lang)}"
                        for team in (0, 1))
    lines.append(t("why.score", lang, scores=scores))
    # an empty placeholder (no points) must not leave a double space
    return "\n".join(" ".join(line.split()) if "  " in line else line for line in lines)


def _base_line(play: Play, info: PlayInfo, lang: str, faces: CardFaces) -> str:
    """The base capture in words: a match or a sum (R17); for a joker, the rank it stood for and the card
    it matched, or the other joker it took (§9)."""
    base = faces.cards(info.base)
    if play.card.is_joker:
        if info.joker_rank is None:
            return t("why.joker_joker", lang, card=faces.card(play.card), base=base)
        return t("why.joker", lang, card=faces.card(play.card), rank=rank_word(info.joker_rank, lang), base=base)
    if len(info.base) == 1 and info.base[0].rank == play.card.rank:
        return t("why.match", lang, card=faces.card(play.card), base=faces.card(info.base[0]))
    summed = _summed(play, info)
    return t("why.sum", lang, base=" + ".join(faces.card(c) for c in summed), value=rank_word(play.card.rank, lang))


def _summed(play: Play, info: PlayInfo) -> list[Card]:
    """The cards a sum really added up (R17): with a periquito reached through the sum, the engine's base
    holds all four cards of that rank (§9); the ones beyond the sum are left out here (the periquito line
    names them)."""
    base = list(info.base)
    for rank in info.periquito:
        four = [c for c in base if c.rank == rank]
        over = sum(c.value for c in base) - play.card.value
        if len(four) == 4 and four[0].value and over > 0 and over % four[0].value == 0:
            extra = over // four[0].value
            if 0 < extra < 4:
                base = [c for c in base if c not in four[4 - extra:]]
    return base


__all__ = ["explain_last_play", "position_before_last_play"]
