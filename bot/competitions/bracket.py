"""A tournament's bracket laid out once, for two renderers: the PNG posted in Discord
(`bracket_draw.bracket_picture`) and the SVG of the web page (`bracket_draw.bracket_svg`).

Pure: it reads a `Tournament` (its players and its own matches, nothing else) and returns frozen values in
*design pixels* on a canvas `WIDTH` px wide, every text at least `MIN_TEXT` px (the table picture's rule:
shown 280–320 px wide on a phone, the smallest text is 11–13 px there).

- **Single elimination** (`elimination_layout`): one column per round, the bracket's size the next power of
  two, every match of the bracket drawn, the ones not made yet with the names already known (a decided
  feeder's winner) or "to be decided". A bye shows its player against «bye»; a match's score is the mesas
  won (best of 3: ``2``–``1``), a walkover ``W``–``–``, a double loss ``–``–``–``. A bracket of more than
  three rounds is cut into sections of three rounds (eight players each), stacked, then the later rounds
  as a section of their own: a phone shows three columns readably, never more.
- **Swiss** (`swiss_layout`): the standings (points, then Buchholz, the service's own order) and the rounds'
  results, all of them or the latest only (the picture).

Names are cut with ``…`` to fit their box at the picture's font (`bot.ui.picture.text.fit_text`); the full
name stays in `Side.name`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import t
from bot.ui.picture.text import fit_text

from .swiss import SwissRow
from .tournament_model import Match, Tournament, swiss_table

WIDTH = 600
"""Width of the canvas, design pixels (the table picture's width)."""
MIN_TEXT = 24
"""Smallest text size, design pixels (4 % of `WIDTH`)."""
PAD = 12
TITLE_H = 58
TITLE_SIZE = 30
HEADER_H = 40
LINE_H = 38
"""Height of one player's row in a match box."""
BOX_H = 2 * LINE_H
BOX_GAP = 14
PITCH = BOX_H + BOX_GAP
COL_GAP = 20
SECTION_GAP = 26
SCORE_W = 36
"""Width of the score cell at the right of a match box."""
CHAMPION_H = 62
NAME_ROOM_PAD = 8
COLUMNS = 3
"""Round columns at most side by side."""


@dataclass(frozen=True)
class Side:
    """One player's row of a match: ``name`` the full display name ("" when nobody), ``shown`` the text drawn
    (fitted; ``?`` for a player not known yet), ``score`` the text of the score cell, ``state`` one of ``winner``, ``loser``, ``open``
    (still playing or to play), ``bye`` (no opponent), ``tbd`` (not known yet), ``empty`` (nobody comes)."""

    name: str
    shown: str
    score: str
    state: str


@dataclass(frozen=True)
class Box:
    """A match at ``(x, y)`` (top-left), ``w`` × ``h`` design pixels; ``status`` the match's (``pending``,
    ``playing``, ``done``, ``walkover``, ``double_loss``), ``bye``, or ``future`` (not made yet)."""

    round: int
    slot: int
    status: str
    a: Side
    b: Side
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True)
class Label:
    """A text at ``(x, y)`` (its anchor: ``"start"`` left, ``"middle"`` centred; ``y`` the middle of the
    line), ``size`` px, ``role`` ``title``, ``header``, ``champion`` or ``cell``."""

    text: str
    x: int
    y: int
    size: int
    role: str
    anchor: str = "start"
    bold: bool = False


@dataclass(frozen=True)
class BracketLayout:
    """A single-elimination bracket: ``width`` × ``height`` design pixels, its title, labels, match
    boxes, connector polylines (each a tuple of points), and the champion's name (None while running)."""

    width: int
    height: int
    title: str
    labels: tuple[Label, ...]
    boxes: tuple[Box, ...]
    lines: tuple[tuple[tuple[int, int], ...], ...]
    champion: str | None
    best_of: int
    cuts: tuple[int, ...] = ()
    """The ``y`` between two stacked sections (none for three rounds or fewer): where the picture posted
    in Discord is cut into one picture per section, each readable at phone width."""


@dataclass(frozen=True)
class SwissLine:
    """A line of the Swiss standings at ``y`` (its middle): rank, name (full, and fitted), points, Buchholz."""

    rank: int
    name: str
    shown: str
    points: str
    buchholz: str
    y: int


@dataclass(frozen=True)
class SwissGame:
    """A Swiss match at ``y`` (its middle): two sides (``b`` a ``bye`` side for a bye) and its status."""

    round: int
    slot: int
    status: str
    a: Side
    b: Side
    y: int


@dataclass(frozen=True)
class SwissLayout:
    """A Swiss tournament: the standings (``header``: rank, player, points, Buchholz column names) and the
    rounds shown (``rounds``: each its label, its label's ``y`` and its games), the champion once finished
    (``champion`` the name, ``champion_text`` the line drawn, at ``champion_y``)."""

    width: int
    height: int
    title: str
    header: tuple[str, ...]
    header_y: int
    lines: tuple[SwissLine, ...]
    rounds: tuple[tuple[str, int, tuple[SwissGame, ...]], ...]
    champion: str | None
    champion_y: int
    champion_text: str = ""


def round_label(rnd: int, rounds: int, lang: str) -> str:
    """A round's name: the final, the semifinals, the quarterfinals, else «Round N»."""
    if rnd == rounds:
        return t("bracket.final", lang)
    if rnd == rounds - 1:
        return t("bracket.semi", lang)
    if rnd == rounds - 2:
        return t("bracket.quarter", lang)
    return t("bracket.round", lang, round=rnd)


def _side(name: str, score: str, state: str, room: int) -> Side:
    return Side(name, fit_text(name, MIN_TEXT, room, False) if name else "", score, state)


def match_sides(tour: Tournament, m: Match, lang: str, room: int = 10_000) -> tuple[Side, Side, str]:
    """The two sides of a match that exists and its status (``bye`` for a bye), names fitted to ``room``."""
    a, b = tour.name_of(m.a_user), tour.name_of(m.b_user)
    if m.b_user is None:
        if m.a_user is None:
            return (_side("", "", "empty", room), _side("", "", "empty", room), "double_loss")
        return _side(a, "", "winner", room), _side(t("bracket.bye", lang), "", "bye", room), "bye"
    if m.status == "done":
        won_a = m.winner == m.a_user
        return (_side(a, str(m.wins_a), "winner" if won_a else "loser", room),
                _side(b, str(m.wins_b), "loser" if won_a else "winner", room), "done")
    if m.status == "walkover":
        won_a = m.winner == m.a_user
        return (_side(a, "W" if won_a else "–", "winner" if won_a else "loser", room),
                _side(b, "–" if won_a else "W", "loser" if won_a else "winner", room), "walkover")
    if m.status == "double_loss":
        return _side(a, "–", "loser", room), _side(b, "–", "loser", room), "double_loss"
    played = m.wins_a + m.wins_b > 0
    return (_side(a, str(m.wins_a) if played else "", "open", room),
            _side(b, str(m.wins_b) if played else "", "open", room), m.status)


def _fed(tour: Tournament, feeder: Match | None, lang: str, room: int) -> Side:
    """Who comes out of ``feeder`` into a match not made yet."""
    if feeder is None or not feeder.resolved:
        return Side(t("bracket.tbd", lang), "?", "", "tbd")
    if feeder.winner is None:
        return _side("", "", "empty", room)
    return _side(tour.name_of(feeder.winner), "", "open", room)


def _sections(rounds: int, first: int = 1) -> list[tuple[int, int, int, int]]:
    """The bracket cut into sections of at most `COLUMNS` rounds: ``(first round, last round, first slot,
    matches in the first round)``, top to bottom."""
    if rounds <= COLUMNS:
        return [(first, first + rounds - 1, 0, 2 ** (rounds - 1))]
    groups = 2 ** (rounds - COLUMNS)
    out = [(first, first + COLUMNS - 1, g * 2 ** (COLUMNS - 1), 2 ** (COLUMNS - 1)) for g in range(groups)]
    return out + _sections(rounds - COLUMNS, first + COLUMNS)


def elimination_layout(tour: Tournament, lang: str, champion: int | None = None) -> BracketLayout:
    """The single-elimination bracket of ``tour`` (every round, the future ones too), in ``lang``;
    ``champion`` the winner's user id once finished."""
    rounds = tour.total_rounds
    columns = min(rounds, COLUMNS)
    col_w = (WIDTH - 2 * PAD - (columns - 1) * COL_GAP) // columns
    room = col_w - SCORE_W - NAME_ROOM_PAD
    by_key = {(m.round, m.slot): m for m in tour.matches}
    title = t("tournament.bracket_title", lang, name=tour.name)
    labels = [Label(fit_text(title, TITLE_SIZE, WIDTH - 2 * PAD, True), PAD, TITLE_H // 2, TITLE_SIZE, "title",
                    bold=True)]
    boxes: list[Box] = []
    lines: list[tuple[tuple[int, int], ...]] = []
    cuts: list[int] = []
    y = TITLE_H
    for r0, r1, s0, m0 in _sections(rounds):
        span = r1 - r0 + 1
        left = (WIDTH - span * col_w - (span - 1) * COL_GAP) // 2
        for c in range(span):
            labels.append(Label(fit_text(round_label(r0 + c, rounds, lang), MIN_TEXT, col_w, True),
                                left + c * (col_w + COL_GAP) + col_w // 2, y + HEADER_H // 2, MIN_TEXT, "header",
                                "middle", True))
        top = y + HEADER_H
        for c in range(span):
            rnd, step = r0 + c, 2 ** c
            x = left + c * (col_w + COL_GAP)
            for j in range(m0 // step):
                slot = (s0 // step) + j
                centre = top + round(PITCH * (step * j + (step - 1) / 2)) + BOX_H // 2
                m = by_key.get((rnd, slot))
                if m is not None:
                    a, b, status = match_sides(tour, m, lang, room)
                else:
                    a = _fed(tour, by_key.get((rnd - 1, 2 * slot)), lang, room) if rnd > 1 else _side("", "", "empty", room)
                    b = _fed(tour, by_key.get((rnd - 1, 2 * slot + 1)), lang, room) if rnd > 1 else a
                    status = "future"
                boxes.append(Box(rnd, slot, status, a, b, x, centre - BOX_H // 2, col_w, BOX_H))
                if c > 0:
                    mid = x - COL_GAP // 2
                    for k in (0, 1):
                        feed = top + round(PITCH * (step * j + k * step // 2 + (step // 2 - 1) / 2)) + BOX_H // 2
                        lines.append(((x - COL_GAP, feed), (mid, feed), (mid, centre), (x, centre)))
        y = top + m0 * PITCH - BOX_GAP + SECTION_GAP
        cuts.append(y - SECTION_GAP // 2)
    cuts.pop()
    name = tour.name_of(champion) if champion is not None else None
    height = y - SECTION_GAP + PAD
    if name is not None:
        text = t("bracket.champion", lang, name=name)
        labels.append(Label(fit_text(text, 28, WIDTH - 2 * PAD - 70, True), PAD + 60, height + CHAMPION_H // 2, 28,
                            "champion", bold=True))
        height += CHAMPION_H + PAD
    return BracketLayout(WIDTH, height, title, tuple(labels), tuple(boxes), tuple(lines), name, tour.best_of,
                         tuple(cuts))


SWISS_LINE = 40
"""Height of a Swiss standings line or game line."""


def swiss_layout(tour: Tournament, standings: list[SwissRow[int]], lang: str, *, all_rounds: bool = True,
                 champion: int | None = None) -> SwissLayout:
    """A Swiss tournament's standings (``standings``: the service's rows, best first) and its rounds:
    every round made so far, or (``all_rounds`` False, the picture) the latest only."""
    title = t("tournament.standings_title", lang, name=tour.name)
    header = tuple(t("tournament.pic_header", lang).split("|"))
    y = TITLE_H + SWISS_LINE // 2
    header_y = y
    out: list[SwissLine] = []
    for i, row in enumerate(standings, start=1):
        y += SWISS_LINE
        full = tour.name_of(row.player)
        out.append(SwissLine(i, full, fit_text(full, MIN_TEXT, 300, False), f"{row.points:g}", f"{row.buchholz:g}", y))
    made = sorted({m.round for m in tour.matches})
    shown = made if all_rounds else made[-1:]
    rounds: list[tuple[str, int, tuple[SwissGame, ...]]] = []
    half = (WIDTH - 2 * PAD - 2 * SCORE_W) // 2 - NAME_ROOM_PAD
    for rnd in reversed(shown):
        y += SWISS_LINE + SECTION_GAP // 2
        label_y = y
        games = []
        for m in sorted((m for m in tour.matches if m.round == rnd), key=lambda m: m.slot):
            y += SWISS_LINE
            a, b, status = match_sides(tour, m, lang, half)
            games.append(SwissGame(rnd, m.slot, status, a, b, y))
        rounds.append((t("bracket.round", lang, round=rnd), label_y, tuple(games)))
    name = tour.name_of(champion) if champion is not None else None
    champion_y = y + SWISS_LINE // 2 + PAD + CHAMPION_H // 2
    height = y + SWISS_LINE // 2 + PAD + ((CHAMPION_H + PAD) if name is not None else 0)
    line = fit_text(t("bracket.champion", lang, name=name), 28, WIDTH - 2 * PAD - 70, True) if name else ""
    return SwissLayout(WIDTH, height, title, header, header_y, tuple(out), tuple(rounds), name, champion_y, line)


def tournament_layout(tour: Tournament, lang: str, *, all_rounds: bool = True,
                      champion: int | None = None) -> BracketLayout | SwissLayout:
    """The bracket of an elimination tournament, or the standings (`tournament_model.swiss_table`) and rounds
    of a Swiss one; ``champion`` the winner's user id once finished (else None)."""
    if tour.format == "swiss":
        return swiss_layout(tour, swiss_table(tour), lang, all_rounds=all_rounds, champion=champion)
    return elimination_layout(tour, lang, champion)
