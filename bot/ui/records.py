"""The public record of a finished hand: every play of the hand (the last ones included), the drama
called out, the points broken down by kind and by player, the chica and the mesa when the hand ended
them. When a hand ends, the live table message becomes this record and the next hand's table is posted
below it, so the channel reads as one message per hand.

Hidden information: a hand's record is built from the spectator's event log, after the hand ended; the
rondas it names were revealed by then (R12).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import Event, EventKind
from bot.i18n import t, tn
from bot.tables import TEAMS, Table
from bot.tables.rematch import ReadyCheck

from . import limits
from .items import PlaysButton, RematchButton, RematchVoteButton
from .render import COLOR, Payload, make_view
from .words import (
    PlayRecord,
    blocked_note,
    log_token,
    rank_word,
    records,
    seat_name,
    side_members,
    side_name,
)

K = EventKind


def hand_slice(events: Sequence[Event], number: int) -> list[Event]:
    """The events of hand ``number``: from its HAND_START up to (not including) the next CHICA_START or
    HAND_START, so the HAND_END, a CHICA_WON and a MESA_WON that closed it are included. Events before the
    log's first HAND_START (a game set up mid-hand) belong to the hand before it. Empty when the log has
    no such hand."""
    starts = [e.number for e in events if e.kind == K.HAND_START and e.number is not None]
    current: int | None = starts[0] - 1 if starts else number
    out: list[Event] = []
    for e in events:
        if e.kind == K.HAND_START:
            current = e.number
        elif e.kind == K.CHICA_START:
            current = None
        elif current == number:
            out.append(e)
    return out


def first_play_of_hand(events: Sequence[Event], number: int) -> int:
    """The index in the mesa (``Game.plays``) of hand ``number``'s first play: the plays of the log before
    its HAND_START (0 when the log has no such HAND_START)."""
    played = 0
    for e in events:
        if e.kind == K.HAND_START and e.number == number:
            return played
        if e.kind == K.PLAYED:
            played += 1
    return 0


def play_log(table: Table, hand: Sequence[Event], lang: str, first: int | None = None) -> list[str]:
    """Every play of a hand, one line per deal: ``"**Reparto 1:** ana 5♣ · beto 5♦→5♣ **¡Caída!** · …"``
    (rondas sung at a deal are in its line). ``first``: the index in the mesa of the hand's first play
    (`first_play_of_hand`), so that each play is named after whoever made it (`bot.ui.words.records`)."""
    lines: list[str] = []
    current: list[str] = []
    label = ""
    for record in records(hand, first):
        if record.kind == "deal":
            if current:
                lines.append(f"{label} {' · '.join(current)}".strip())
            label, current = f"**{log_token(table, record, lang)}**", []
        elif record.kind in ("play", "ronda", "doble_ronda"):
            current.append(log_token(table, record, lang))
    if current:
        lines.append(f"{label} {' · '.join(current)}".strip())
    return lines


def _player_parts(table: Table, recs: Sequence[PlayRecord], lang: str,
                  notes: dict[int, list[str]] | None = None) -> list[tuple[int, str, list[str]]]:
    """Points by player and kind, as ``(seat, name, parts)`` by seat (each seat's holders in the order they
    played): parts like ``"2 caídas +4"``, ``"1 caída en ronda +4"`` (each kind apart, so that each sum reads
    right, R25; a play that took two periquitos counts two, §9). Plays whose points did not count (R30 at
    38, R15 past the cut-off) are counted apart, with why: ``"1 limpia +0 (no cuenta: 38 no juega)"``, so
    that the sums add up; with ``notes``, the why is not written in the part but added, in short, to
    ``notes[side]`` (once). Players who scored nothing are left out."""
    per_seat: dict[tuple[int, str], dict[tuple[str, str | None], list[int]]] = {}
    for r in recs:
        if r.seat is None:
            continue
        who = (r.seat, seat_name(table, r.seat, lang, r.at))  # a seat that changed hands: each holder apart
        for kind, points in r.bonus.items():
            why = r.periquito_blocked if kind == "periquito" else r.blocked
            blocked = why if why and not points else None
            got = per_seat.setdefault(who, {}).setdefault((kind, blocked), [0, 0])
            got[0] += len(r.periquito) if kind == "periquito" else 1
            got[1] += points
    out = []
    for who in sorted(per_seat, key=lambda w: w[0]):
        parts = []
        for kind in ("caida", "caida_en_ronda", "limpia", "periquito", "ronda"):
            for (known, blocked), (n, points) in per_seat[who].items():
                if known != kind:
                    continue
                part = tn(f"sum.{kind}", n, lang, n=n, points=points)
                if blocked and notes is not None:
                    _note(notes, who[0] % 2, _short_note(table, blocked, lang))  # the seat's side
                elif blocked:
                    part = f"{part} {blocked_note(table, blocked, lang)}"
                parts.append(part)
        if parts:
            out.append((who[0], who[1], parts))
    return out


def _short_note(table: Table, blocked: str, lang: str) -> str:
    """Why a side's points did not count, in short, once on its line of the record (R30, R15)."""
    if blocked == "38":
        return t("sum.blocked_score", lang, score=table.rules.score38 or 38)
    return t("sum.blocked_cutoff", lang)


def _note(notes: dict[int, list[str]], key: int, note: str) -> None:
    if note not in notes.setdefault(key, []):
        notes[key].append(note)


def _bonus_lines(table: Table, recs: Sequence[PlayRecord], lang: str) -> list[str]:
    """Points by player and kind, a line per player: ``"ana: 2 caídas +4 · 1 caída en ronda +4 · 1 limpia
    +2"`` (`_player_parts`)."""
    return [t("sum.by_player", lang, name=name, parts=" · ".join(parts))
            for _seat, name, parts in _player_parts(table, recs, lang)]


def _count_parts(table: Table, hand: Sequence[Event], lang: str,
                 notes: dict[int, list[str]]) -> list[tuple[int, str]]:
    """The count's points at the end of the hand, as ``(side, part)``: ``"cartón +6"``, dos por darlas,
    más cartas, falla (R27–R29); why one did not count (R30, R15) is added to ``notes[side]`` (once)."""
    out: list[tuple[int, str]] = []
    for e in hand:
        if e.team is None:
            continue
        if e.kind == K.CARTON:
            part = t("sum.carton_part", lang, points=e.points)
        elif e.kind == K.DOS_POR_DARLAS:
            part = t("sum.dos_por_darlas_part", lang, points=e.points)
        elif e.kind == K.MAS_CARTAS:
            part = t("sum.mas_cartas_part", lang, points=e.points)
        elif e.kind == K.FALLA:
            part = t("sum.falla_part", lang, points=e.points)
        else:
            continue
        if e.blocked:
            _note(notes, e.team, _short_note(table, e.blocked, lang))
        out.append((e.team, part))
    return out


def _glued(part: str) -> str:
    """A part of a side's line with no-break spaces before its points (``"1 caída\u00a0+2"``), so that a
    phone wraps the line between parts, never between a kind and its points."""
    return part.replace(" +", "\u00a0+")


def side_lines(table: Table, hand: Sequence[Event], lang: str, first: int) -> list[str]:
    """The hand's points, a line per side that scored or had points not count: the side's total, then each
    player's points by kind and the count's, that add up to it (``"🟦 **A +10:** ana: 2 caídas +4 ·
    beto: 1 caída en ronda +4 · cartón +2"``), and why points did not count (R30, R15), once. In 1 v 1 the
    player is named once, as the side (unless the seat changed hands). A hand where nobody scored: one
    line that says so. ``first``: the index in the mesa of the hand's first play (`first_play_of_hand`)."""
    got = _hand_points(hand)
    notes: dict[int, list[str]] = {}
    players = _player_parts(table, records(hand, first), lang, notes)
    count = _count_parts(table, hand, lang, notes)
    lines = []
    for team in (0, 1):
        seats = table.team_seats(team)
        mine = [(name, parts) for seat, name, parts in players if seat in seats]
        alone = table.players == 2 and len(mine) == 1 and mine[0][0] == side_name(table, team, lang)
        parts = [", ".join(p) if alone else t("sum.by_player", lang, name=name, parts=", ".join(p))
                 for name, p in mine]
        parts += [part for side, part in count if side == team]
        if not parts:
            continue
        text = " · ".join(_glued(p) for p in parts) + "".join(f" {n}" for n in notes.get(team, []))
        dot = "🟦" if team == 0 else "🟧"
        side = side_name(table, team, lang) if table.players == 2 else TEAMS[team]  # 2 v 2: "A", by its colour
        lines.append(f"{dot} " + t("sum.side_parts", lang, side=side, points=got[team], parts=text))
    return lines or [t("sum.no_points", lang)]


def _end_lines(table: Table, hand: Sequence[Event], lang: str, at: int | None = None) -> list[str]:
    """The count at the end of the hand: cards per side, cartón (or dos por darlas, more cards), falla,
    leftovers, revealed rondas (named after whoever held the seat at the hand's last play, ``at``)."""
    lines: list[str] = []
    for e in hand:
        side = side_name(table, e.team or 0, lang)
        suffix = " " + blocked_note(table, e.blocked, lang) if e.blocked else ""
        if e.kind == K.CARTON:
            lines.append(tn("sum.carton", e.number or 0, lang, team=side, points=e.points, count=e.number) + suffix)
        elif e.kind == K.DOS_POR_DARLAS:
            lines.append(t("sum.dos_por_darlas", lang, team=side, points=e.points) + suffix)
        elif e.kind == K.MAS_CARTAS:
            lines.append(t("sum.mas_cartas", lang, team=side, points=e.points) + suffix)
        elif e.kind == K.FALLA:
            lines.append(t("sum.falla", lang, team=side, points=e.points) + suffix)
        elif e.kind == K.LEFTOVERS and e.cards:
            if e.team is None:
                lines.append(tn("sum.leftovers", len(e.cards), lang, count=len(e.cards)))
            else:
                lines.append(tn("sum.leftovers_taken", len(e.cards), lang, count=len(e.cards), team=side))
        elif e.kind == K.RONDA_REVEALED:
            lines.append(t("play.ronda_revealed", lang, name=seat_name(table, e.seat, lang, at), rank=rank_word(e.rank)))
        elif e.kind == K.HAND_END and e.counts is not None:
            lines.append(t("sum.cards", lang, a=side_name(table, 0, lang), b=side_name(table, 1, lang),
                           ca=e.counts[0], cb=e.counts[1]))
    return lines


def _hand_points(hand: Sequence[Event]) -> tuple[int, int]:
    """Points each side added during the hand."""
    got = [0, 0]
    for e in hand:
        if e.team is not None and e.kind in (K.CAIDA, K.LIMPIA, K.PERIQUITO, K.RONDA, K.DOBLE_RONDA, K.CARTON,
                                             K.DOS_POR_DARLAS, K.MAS_CARTAS, K.FALLA):
            got[e.team] += e.points
    return got[0], got[1]


def chica_lines(table: Table, event: Event, lang: str, *, by_side: bool = False) -> list[str]:
    """A chica won, called out: who made the 40 (or why it was won at once), the score with the
    winner's first, and the zapatero (R33, R35). In 2 v 2 the sides are named by their players
    (``"ana y caro"``), or with ``by_side`` by the side alone (``"Equipo A"``: the hand's record, whose
    lines above name the players)."""
    team = event.team or 0
    scores = event.scores or (0, 0)
    players = 2 if by_side else table.players  # the 1 v 1 keys: one subject, in the singular
    winner = side_name(table, team, lang) if players == 2 else side_members(table, team, lang)
    loser = side_name(table, 1 - team, lang) if players == 2 else side_members(table, 1 - team, lang)
    reason = event.reason or "target"
    key = f"chica.won.{players}" if reason == "target" else f"chica.won_by.{players}"
    lines = [t(key, lang, winner=winner, chica=event.number, a=scores[team], b=scores[1 - team],
               reason=t(f"chica.reason.{reason}", lang), target=table.rules.target)]
    if event.zapatero:
        lines.append(t(f"chica.zapatero.{players}", lang, loser=loser))
    return lines


def mesa_lines(table: Table, event: Event, lang: str, *, by_side: bool = False) -> list[str]:
    """The mesa won: by chicas, or by zapatería (R35, R36); ``by_side`` as in `chica_lines`."""
    team = event.team or 0
    counts = event.counts or (0, 0)
    players = 2 if by_side else table.players
    winner = side_name(table, team, lang) if players == 2 else side_members(table, team, lang)
    lines = [tn(f"mesa.won.{players}", counts[team], lang, winner=winner, a=counts[team], b=counts[1 - team])]
    if event.zapatero:
        lines.append(t(f"mesa.zapateria.{players}", lang))
    return lines


def mesa_result(table: Table, lang: str) -> str | None:
    """The mesa's result in one line (for the DM hands when it is over), or None while it goes on."""
    game = table.game
    if game is None:
        return None
    won = next((e for e in reversed(game.events) if e.kind == K.MESA_WON), None)
    return mesa_lines(table, won, lang)[0] if won is not None else None


def hand_record_payload(table: Table, number: int, lang: str, *, layout: bool = False) -> Payload:
    """Hand ``number``'s short record, the one the channel keeps (at most about six lines at phone width):
    its title, the points of each side by player and kind that add up to the side's total (`side_lines`),
    the score as perros and tantos, or the chica (and zapatero) and the mesa when they ended here. The
    play-by-play is one click away: «Ver jugadas» (`PlaysButton`, answered by `plays_answer`). A mesa's
    last record also carries «Revancha».

    ``layout``: a Components V2 message (a container of text and a row of buttons), for a table whose
    message was sent as one (`Messages.public_layout`); else an embed (a message keeps its kind).

    Raises:
        PayloadLimitError: a renderer bug (`bot.ui.limits`).
    """
    game = table.game
    assert game is not None
    events = game.view(None).events
    hand = hand_slice(events, number)
    first = first_play_of_hand(events, number)
    title = t("sum.title", lang, hand=number, table=table.id)
    lines = side_lines(table, hand, lang, first)
    scores = next((e.scores for e in reversed(hand) if e.scores is not None), None)
    chica = next((e for e in hand if e.kind == K.CHICA_WON), None)
    mesa = next((e for e in hand if e.kind == K.MESA_WON), None)
    score = tiny = None  # the score line; its short form, beside «Ver jugadas» in a V2 record
    if chica is not None:
        lines += chica_lines(table, chica, lang, by_side=True)
    elif scores is not None:  # the sides by their colours, as in the lines above and the picture
        score = t("sum.score_short", lang, sa=scores[0], sb=scores[1], target=table.rules.target)  # one line
        tiny = t("sum.score_tiny", lang, sa=scores[0], sb=scores[1], target=table.rules.target)
    if mesa is not None:
        lines += mesa_lines(table, mesa, lang, by_side=True)
    buttons: list[discord.ui.Item[Any]] = [PlaysButton(table.id, number, label=t("btn.plays", lang))]
    if mesa is not None and table.rematch_allowed:  # a league or tournament deals its own next mesa
        buttons.append(RematchButton(table.id, label=t("btn.rematch", lang)))
    if layout:
        container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=COLOR)
        text = "\n".join([f"**{title}**", *lines])
        container.add_item(discord.ui.TextDisplay(limits.clip(text, limits.LAYOUT_TEXT)))
        if tiny is not None and len(buttons) == 1:  # the score beside «Ver jugadas»: a row less per hand
            words = discord.ui.TextDisplay[discord.ui.LayoutView](tiny)
            container.add_item(discord.ui.Section(words, accessory=buttons[0]))
        else:
            if score is not None:
                container.add_item(discord.ui.TextDisplay(score))
            container.add_item(discord.ui.ActionRow(*buttons))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(container)
        view.stop()
        return Payload(view=view)
    if score is not None:
        lines.append(score)
    embed = discord.Embed(title=title, colour=COLOR,
                          description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION))
    return Payload(embed=embed, view=make_view(buttons))


def plays_embed(table: Table, number: int, lang: str) -> discord.Embed:
    """«Ver jugadas»: hand ``number``'s play-by-play, for an ephemeral answer: every play by deal, the
    points by player and kind, and the count (cards per side, cartón, leftovers, rondas revealed). A hand
    that has not started yet shows no plays.

    Hidden information: read from the spectator's event log (`Game.view` with no seat): only what every
    spectator saw (R12); a ronda's rank only once revealed at the end of its hand."""
    game = table.game
    assert game is not None
    events = game.view(None).events
    hand = hand_slice(events, number) if 1 <= number <= game.hand_number else []
    first = first_play_of_hand(events, number)
    lines = play_log(table, hand, lang, first) or [t("sum.no_plays", lang)]
    bonus = _bonus_lines(table, records(hand, first), lang)
    end = _end_lines(table, hand, lang, first + sum(1 for e in hand if e.kind == K.PLAYED) - 1)
    if bonus or end:
        lines += ["", f"**{t('sum.points_title', lang)}**", *bonus, *end]
    return discord.Embed(title=t("sum.title", lang, hand=number, table=table.id), colour=COLOR,
                         description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION))


def rematch_payload(table: Table, check: ReadyCheck, lang: str) -> Payload:
    """The rematch ready check in the channel: who asked, who accepted, who is still to answer and until
    when, with «Acepto» / «No»; once it ended, what happened (dealt, declined by whom, timed out,
    or why the new table could not open), without buttons."""
    from .render import error_text, when_text

    def name(user_id: int) -> str:
        seat = table.seat_of(user_id)
        return seat_name(table, seat, lang) if seat is not None else f"<@{user_id}>"

    asker = name(check.asked_by)
    view = None
    if check.status == "open":
        lines = [t("rematch.asked", lang, name=asker, table=table.id),
                 t("rematch.waiting", lang, names=", ".join(name(u) for u in check.waiting),
                   when=when_text(check.deadline))]
        if len(check.accepted) > 1:
            lines.append(t("rematch.accepted_by", lang, names=", ".join(name(u) for u in check.accepted)))
        view = make_view([RematchVoteButton(table.id, True, label=t("btn.rematch_yes", lang)),
                          RematchVoteButton(table.id, False, label=t("btn.rematch_no", lang))])
    elif check.status == "accepted":
        lines = [t("rematch.dealt", lang, table=check.new_table)]
    elif check.status == "declined":
        lines = [t("rematch.declined", lang, name=name(check.declined_by or 0))]
    elif check.status == "expired":
        lines = [t("rematch.expired", lang, names=", ".join(name(u) for u in check.waiting))]
    else:
        lines = [t("rematch.failed", lang, reason=error_text(check.error, lang) if check.error else "?")]
    return Payload(content="\n".join(lines), view=view)
