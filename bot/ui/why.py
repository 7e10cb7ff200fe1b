"""«¿Por qué?»: a play of the hand explained in words, with its cards.

The answer (ephemeral) explains the table's last play and offers a menu of the hand's last plays
(`WHY_PLAYS`, newest first, ``"ana · 7♦ → 7♣ 4♠"``); picking one explains that play in place. The rule
numbers are a small footnote (``-# R17 · R22``), never the explanation itself.

The explanation goes through the engine: the game is replayed from its seed to just before the play,
and `Game.explain` says what that play's base capture was (a match or a sum, R17), which cards the
escalera added (R18), and whether it was a caída (R22), a limpia (R23) or a caída en ronda (R25); for
a joker, the rank it stood for (never a caída), and any periquito taken with its bonus (RULES.md Part 1
§9). The points come from the events the play emitted, so a 38 or a cut-off that stopped them is named
too (R30, R15, R28).

Hidden information: everything said here was public when the play was made: the card played, the table
cards, who trailed what, and the events every spectator sees. A hand, the stock and a ronda's rank are
never read (a caída en ronda is named only when its public event says so).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.engine import Card, Event, EventKind, Game, Play, PlayInfo, RefusedPlayError
from bot.i18n import t, tn
from bot.tables import Table

from . import limits
from .faces import CardFaces
from .items import WhySelect
from .words import (
    PlayRecord,
    blocked_note,
    by_rank,
    callout,
    capture_words,
    periquito_points_text,
    rank_word,
    ranks_words,
    records,
    score_words,
    seat_name,
    side_name,
)

log = logging.getLogger(__name__)

K = EventKind


def position_before(game: Game, index: int) -> tuple[Game, Play] | None:
    """The game as it was just before play ``index`` (its index in ``game.plays``), and that play; None
    when there is no such play, or when the game cannot be rebuilt from its seed (a position set up by
    hand). The game is rebuilt with `Game.replay` from its seed and the plays before it."""
    if not 0 <= index < len(game.plays):
        return None
    try:
        before = Game.replay(game.rules, game.players, game.seed, game.plays[:index])
        before.explain(game.plays[index])
    except RefusedPlayError:
        return None
    return before, game.plays[index]


def position_before_last_play(game: Game) -> tuple[Game, Play] | None:
    """`position_before` the game's last play; None when nothing was played yet in this mesa."""
    return position_before(game, len(game.plays) - 1)


# ---------------------------------------------------------------------- the menu of the hand's last plays


WHY_PLAYS = 5
"""How many of the hand's last plays the menu offers."""


def _played_at(game: Game) -> list[int]:
    """The position in ``game.events`` of each play's PLAYED event (one per ``game.plays`` entry)."""
    return [i for i, e in enumerate(game.events) if e.kind == K.PLAYED]


def hand_plays(table: Table, newest: int | None = None) -> list[PlayRecord]:
    """The public records of the plays of the hand of play ``newest`` (default: the mesa's last play), up
    to that play, each with its `PlayRecord.at`; [] before the first play."""
    game = table.game
    if game is None or not game.plays:
        return []
    played = _played_at(game)
    newest = len(played) - 1 if newest is None else newest
    if not 0 <= newest < len(played):
        return []
    stop = played[newest]
    start = next((i + 1 for i in range(stop, -1, -1) if game.events[i].kind == K.HAND_START), 0)
    first = sum(1 for i in played if i < start)
    end = played[newest + 1] if newest + 1 < len(played) else len(game.events)
    return [r for r in records(game.events[start:end], first) if r.kind == "play"]


@dataclass(frozen=True)
class PlayChoice:
    """One play in the «¿Por qué?» menu: ``index`` in ``game.plays``, ``label`` ``"ana · 7♦ → 7♣ 4♠"``
    (text labels: a menu shows no custom emoji), ``note`` its callout (``"¡Caída!"``) or ``""``."""

    index: int
    label: str
    note: str


def play_choices(table: Table, lang: str, newest: int | None = None) -> list[PlayChoice]:
    """The last `WHY_PLAYS` plays of the hand of play ``newest`` (default: the last play), newest first,
    each named after whoever made it (`seat_name`). Public facts only: the card played and what it took."""
    out = []
    for r in reversed(hand_plays(table, newest)[-WHY_PLAYS:]):
        if r.at is None or r.card is None:
            continue
        label = f"{seat_name(table, r.seat, lang, r.at)} · {r.card}"
        if r.captured:
            label += " → " + " ".join(str(c) for c in by_rank(r.captured))
        out.append(PlayChoice(r.at, limits.clip(label.replace("\\", ""), 100), limits.clip(callout(r, lang), 100)))
    return out


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
    """`explain_play` of the table's last play; None when no card has been played in this mesa yet (or
    the position cannot be rebuilt)."""
    game = table.game
    if game is None:
        return None
    return explain_play(table, len(game.plays) - 1, lang, faces=faces)


def explain_play(table: Table, index: int, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> str | None:
    """Play ``index`` of ``table`` (its index in ``game.plays``) explained in a few lines of ``lang``, or
    None when there is no such play (or the position cannot be rebuilt).

    Lines, in order: who played which card; what it took, in words with the cards (a match or a sum,
    R17; the escalera, R18) or why it was a trail (R21); whether it was a caída and why (the card the
    previous player had just trailed, and who: R22), limpia, caída + limpia, caída en ronda, four caídas
    (R23–R26), with the points they scored, or that a capture scores nothing yet (R28); points that did
    not count (R30, R15); both sides' score right after it; and, last, the rule numbers as a small
    footnote (``-# R17 · R22``). Cards are written with ``faces``.
    """
    game = table.game
    if game is None:
        return None
    rebuilt = position_before(game, index)
    if rebuilt is None:
        return None
    before, play = rebuilt
    seat = before.to_play
    assert seat is not None
    info = before.explain(play)
    played = _played_at(game)
    events = game.events[played[index]:]
    record = records(events[:played[index + 1] - played[index]] if index + 1 < len(played) else events)[0]
    name = seat_name(table, seat, lang, index)  # named after whoever made it (`bot.tables.Table.held_by`)
    lines = [t("why.title", lang, name=name, card=faces.card(play.card))]
    rules: list[str] = []
    previous = (seat - 1) % before.players
    trailed = before.last_trail if before.last_trail_seat == previous else None
    if play.is_trail:
        could = _could_capture(before, play.card, lang, faces)
        if could:
            lines.append(t("why.trail_could", lang, options=could))
        else:
            lines.append(t("why.joker_trail" if play.card.is_joker else "why.trail", lang))
        rules += ["§9"] if play.card.is_joker else ["R21"] if could else ["R17", "R21"]
    else:
        lines.append(_base_line(play, info, lang, faces))
        rules.append("§9" if play.card.is_joker else "R17")
        if info.escalera:
            lines.append(t("why.escalera", lang, cards=faces.cards(info.escalera)))
            rules.append("R18")
        victim = seat_name(table, previous, lang, index - 1)
        points = t("play.points", lang, points=record.capture_points) if record.capture_points else ""
        if info.caida and info.limpia:
            lines.append(t("why.caida_limpia", lang, fallen=faces.card(trailed), victim=victim,  # type: ignore[arg-type]  # a caída takes the trailed card
                           points=points))
            rules.append("R24")
        elif info.caida:
            lines.append(t("why.caida", lang, fallen=faces.card(trailed), victim=victim, points=points))  # type: ignore[arg-type]  # a caída: a trailed card
            rules.append("R22")
        else:
            if info.limpia:
                lines.append(t("why.limpia", lang, points=points))
                rules.append("R23")
            lines.append(_no_caida_line(table, play, info, trailed, victim, index, lang, faces))
            rules.append("§9" if play.card.is_joker else "R22")
        if record.en_ronda:
            lines.append(t("why.en_ronda", lang, fallen=faces.card(trailed), victim=victim))  # type: ignore[arg-type]  # en ronda is a caída
            rules.append("R25")
        if record.four_caidas:
            lines.append(t("why.four_caidas", lang))
            rules.append("R26")
        if record.periquito:
            lines.append(tn("why.periquito", len(record.periquito), lang, ranks=ranks_words(record.periquito, lang),
                            points=periquito_points_text(table, record, lang)))
            rules.append("§9")
        elif info.periquito:  # the engine gives no bonus when the play wins the chica at once (§9)
            lines.append(tn("why.periquito_none", len(info.periquito), lang,
                            ranks=ranks_words(info.periquito, lang)))
            rules.append("§9")
        if not (info.caida or info.limpia or record.periquito):
            lines.append(t("why.no_points", lang))
            rules.append("R28")
    if record.blocked:
        lines.append(blocked_note(table, record.blocked, lang))
        rules.append("R30" if record.blocked == "38" else "R15")
    after, won = _after_play(events, seat % 2, (before.scores[0], before.scores[1]))
    if record.wins_chica or won:
        lines.append(t("why.wins_chica", lang))
    scores = " · ".join(f"{side_name(table, team, lang)}: {score_words(after[team], lang)}"
                        for team in (0, 1))
    lines.append(t("why.score", lang, scores=scores))
    # an empty placeholder (no points) must not leave a double space
    lines = [" ".join(line.split()) if "  " in line else line for line in lines]
    lines.append("-# " + " · ".join(dict.fromkeys(rules)))
    return "\n".join(lines)


def _no_caida_line(table: Table, play: Play, info: PlayInfo, trailed: Card | None, victim: str, index: int,
                   lang: str, faces: CardFaces) -> str:
    """Why a capture was not a caída (R22), with the cards: the card the previous player had just trailed
    was taken by sum, in the escalera or by a joker (§9); it was not taken; or that player trailed nothing
    (they captured with their card, or nobody had played yet in this deal)."""
    if trailed is not None and trailed in play.captures:
        if play.card.is_joker and trailed in info.base:
            key = "why.no_caida_joker"
        else:
            key = "why.no_caida_sum" if trailed in info.base else "why.no_caida_escalera"
        return t(key, lang, fallen=faces.card(trailed), victim=victim)
    if trailed is not None:
        return t("why.no_caida_other", lang, fallen=faces.card(trailed), victim=victim, card=faces.card(play.card))
    plays = hand_plays(table, index)
    if len(plays) >= 2 and plays[-2].card is not None and plays[-2].captured:
        return t("why.no_caida_took", lang, victim=victim, card=faces.card(plays[-2].card))
    return t("why.no_caida_first", lang)


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



# ---------------------------------------------------------------------- the answer


def why_message(table: Table, lang: str, *, faces: CardFaces = CardFaces.TEXT, newest: int | None = None,
                pick: int | None = None) -> tuple[str, discord.ui.View | None]:
    """The «¿Por qué?» answer: the explanation of play ``pick`` (default: the newest listed), and a menu
    of the hand's last plays up to play ``newest`` (default: the mesa's last play), that play marked as
    chosen; no menu when the hand has a single play. ``("why.none" text, None)`` before the first play
    or when the play cannot be explained.

    The menu's custom_id carries the table and ``newest`` (`bot.ui.items.WhySelect`), its values the
    play's distance back from it, so a menu stays the same list while the mesa goes on.
    """
    choices = play_choices(table, lang, newest)
    if not choices:
        return t("why.none", lang), None
    newest = choices[0].index
    pick = newest if pick is None or not any(c.index == pick for c in choices) else pick
    text = explain_play(table, pick, lang, faces=faces)
    if text is None:
        return t("why.none", lang), None
    if len(choices) < 2:
        return text, None
    options = [discord.SelectOption(label=c.label, value=str(newest - c.index), description=c.note or None,
                                    default=c.index == pick) for c in choices]
    select = WhySelect(table.id, newest, options=options,
                       placeholder=limits.clip(t("why.placeholder", lang), 150))
    view = discord.ui.View(timeout=None)
    view.add_item(select)
    view.stop()  # dynamic items route clicks by custom_id: nothing to keep in memory
    return text, view


__all__ = ["WHY_PLAYS", "PlayChoice", "explain_last_play", "explain_play", "hand_plays",
           "play_choices", "position_before", "position_before_last_play", "why_message"]
