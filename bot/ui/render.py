"""State → messages: lobby, the live public table, hands (DM and ephemeral) with the capture choice on
the hand itself, closing notes. Hand records and the mesa's end are in `bot.ui.records`; words (names,
sides, plays, scores) in `bot.ui.words`; a preset explained in `bot.learn.present`. Every text comes from
`bot.i18n`; every payload is fitted to and checked against Discord's limits (`bot.ui.limits`).

Hidden information: public renderers read only public state (table cards, pile sizes, scores, the event
log as a spectator sees it); a hand is rendered only from ``game.view(seat)`` for that seat.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import discord

from bot.engine import GameView, Play, periquito_ranks
from bot.houserules.items import HouseButton
from bot.houserules.words import house_lines, rules_label
from bot.i18n import t, tn
from bot.tables import LOBBY, PLAYING, TEAMS, Choice, Table, TableError

from . import components, limits
from .faces import CardFaces
from .hints import best_captures, hint_lines, is_caida, periquito_bonus
from .items import (
    COMPUTER_LEVELS,
    TRAIL_VALUE,
    BackButton,
    CaptureSelect,
    CardButton,
    HandButton,
    LevelSelect,
    LobbyButton,
    TrailSelect,
    WhyButton,
)
from .picture.shapes import TEAM
from .words import (
    at_blocking_score,
    by_rank,
    capture_words,
    clean,
    level_word,
    plain_card,
    play_lines,
    recent_records,
    score_words,
    seat_mention,
    seat_name,
    sentence,
    side_members,
    side_name,
    side_title,
)

COLOR = discord.Colour(0x1F8B4C)
PICTURE_NAME = "mesa.png"
"""The file name of the table picture (``attachment://mesa.png`` in the embed)."""
LIVE_PLAYS = 2
"""Plays in words on the live table message (the last one called out); the hand record has them all."""

class _File(discord.File):
    """An attachment whose index is sent as a string, as Discord's API schema types attachment ids."""

    def to_dict(self, index: int) -> Any:
        """The attachment's payload, the id as a string."""
        data = dict(super().to_dict(index))
        data["id"] = str(data["id"])
        return data


@dataclass
class Payload:
    """A message to send or edit: content, an embed, a view and files (any may be empty); or, when ``view``
    is a `discord.ui.LayoutView`, a Components V2 message: the layout and its files, no content or embed
    (`layout`).

    ``files`` are ``(filename, bytes)`` pairs; an edit replaces the message's attachments with them (none:
    the old picture is removed). A message keeps the kind it was sent as: an embed message is edited with
    an embed payload, a V2 one with a layout (Discord keeps the V2 flag once set, and a V2 message takes
    no content or embed).

    Raises:
        PayloadLimitError: the message breaks one of Discord's limits (`bot.ui.limits`).
    """

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | discord.ui.LayoutView | components.Components | None = None
    files: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def layout(self) -> bool:
        """Whether this is a Components V2 message (its view a `discord.ui.LayoutView` or a
        `components.Layout`)."""
        return isinstance(self.view, (discord.ui.LayoutView, components.Layout))

    def __post_init__(self) -> None:
        limits.check_message(self.content, self.embed, self.view)

    def _files(self) -> list[discord.File]:
        return [_File(io.BytesIO(data), filename=name) for name, data in self.files]

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``send_message`` (no pings)."""
        out: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self._files()
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``edit``/``edit_message``: replaces content, embeds, components and
        attachments (a layout: its components and attachments; content and embeds are not sent)."""
        if self.layout:
            return {"view": self.view, "attachments": self._files(),
                    "allowed_mentions": discord.AllowedMentions.none()}
        return {
            "content": self.content,
            "embeds": [self.embed] if self.embed is not None else [],
            "view": self.view if self.view is not None else discord.ui.View(timeout=None),
            "attachments": self._files(),
            "allowed_mentions": discord.AllowedMentions.none(),
        }


def make_view(*rows: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view of rows of items. It is stopped at once: dynamic items route clicks by custom_id, so the
    view need not be kept in memory."""
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows):
        for item in row:
            item.row = row_index
            view.add_item(item)
    view.stop()
    return view


def table_link(table: Table) -> str | None:
    """A jump link to the table's current public (or lobby) message, or None."""
    message = table.messages.public or table.messages.lobby
    if not message:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message}"


def error_text(error: TableError, lang: str, table: Table | None = None) -> str:
    """The message of a refused action, in ``lang``. A ``seat`` parameter becomes the seat's name."""
    params = dict(error.params)
    if isinstance(params.get("name"), str):
        params["name"] = clean(params["name"])
    if "seat" in params:
        seat = params.pop("seat")
        params["name"] = seat_name(table, cast(int, seat), lang) if table is not None and seat is not None else "?"
    return t(error.key, lang, **params)


def when_text(instant: float) -> str:
    """A Discord relative timestamp (``<t:…:R>``: "in 30 seconds", shown in each reader's language)."""
    return f"<t:{int(instant)}:R>"


# ---------------------------------------------------------------------- lobby


def lobby_payload(table: Table, lang: str) -> Payload:
    """The lobby message, short enough for a phone (at most 500 px at 390 px width): rules and host on one
    line, the turn timer, a line on how to join, seats by side (computers with their level), and the
    join, leave and start buttons, and the one way to seat a computer: a select that asks for its level.
    The preset's description is `/cuarenta rules`'s, not repeated here."""
    embed = discord.Embed(title=t("lobby.title", lang, table=table.id, mode=t(f"lobby.mode.{table.players}", lang)),
                          colour=COLOR)
    if table.status != LOBBY:
        return Payload(embed=_lobby_closed(table, embed, lang))
    host = f"<@{table.host_id}>" if table.host_id else "?"
    embed.description = "\n".join([f"{t('lobby.rules', lang, preset=rules_label(table, lang))} · {t('lobby.host', lang, host=host)}",
                                   *_lobby_timer_lines(table, lang),
                                   *([t("lobby.hints", lang)] if table.hints else []),
                                   *house_lines(table, lang),
                                   *([t("lobby.help_levels", lang, level=level_word("medio", lang))]
                                     if table.status == LOBBY else [])])  # how to join: while one can
    for team in (0, 1):
        lines = []
        for seat in table.team_seats(team):
            lines.append(seat_mention(table, seat, lang) if table.seats[seat] else t("lobby.empty_seat", lang))
        name = t("lobby.team", lang, team=TEAMS[team]) if table.players == 4 else t("lobby.seat", lang, n=team + 1)
        embed.add_field(name=name, value="\n".join(lines), inline=True)
    one_v_one = table.players == 2
    row: list[discord.ui.Item[Any]] = [
        LobbyButton(table.id, "a", label=t("btn.join" if one_v_one else "btn.join_a", lang),
                    style=discord.ButtonStyle.primary),
    ]
    if not one_v_one:
        row.append(LobbyButton(table.id, "b", label=t("btn.join_b", lang), style=discord.ButtonStyle.primary))
    row += [
        LobbyButton(table.id, "x", label=t("btn.leave", lang), style=discord.ButtonStyle.danger),
        LobbyButton(table.id, "s", label=t("btn.start", lang), style=discord.ButtonStyle.success),
        HouseButton(table.id, "o", label=t("btn.house", lang)),
    ]
    levels = [discord.SelectOption(label=limits.clip(t(f"level.{level}", lang), 100), value=level,
                                   description=limits.clip(t(f"level.desc.{level}", lang), 100))
              for level in COMPUTER_LEVELS]
    select = LevelSelect(table.id, options=levels, placeholder=limits.clip(t("lobby.level_placeholder", lang), 150))
    return Payload(embed=embed, view=make_view(row, [select]))


def _lobby_closed(table: Table, embed: discord.Embed, lang: str) -> discord.Embed:
    """The lobby once the table started (or closed), in three short lines: the rules, the sides
    (``"@ana, Compu 1 (media) contra @beto, Compu 2 (media)"``; a closed lobby names only who sat, and
    ``"— asiento libre —"`` once for a side nobody took) and where the play went; the seats by side as
    columns and the controls are gone, the channel keeps less of each mesa."""
    sides = [", ".join(seat_mention(table, seat, lang) for seat in table.team_seats(team) if table.seats[seat])
             or t("lobby.empty_seat", lang) for team in (0, 1)]
    end = t("lobby.goes_on", lang) if table.status in (PLAYING, "finished") else t("lobby.closed", lang, table=table.id)
    embed.description = "\n".join([t("lobby.rules", lang, preset=rules_label(table, lang)),
                                   t("lobby.sides", lang, a=sides[0], b=sides[1]), end])
    return embed


def computer_seated_text(table: Table, team: int, lang: str) -> str:
    """What the host is told after seating a computer player on ``team``: its one name with its level
    (`seat_name`), and the team only in 2 v 2: ``"Compu 1 (difícil) se sentó."`` in 1 v 1,
    ``"Compu 2 (media) se sentó en el equipo B."`` in 2 v 2. The computer is the newest one on that team."""
    computers = [(s.ai_number, i) for i in table.team_seats(team) if (s := table.seats[i]) is not None and s.is_ai]
    name = seat_name(table, max(computers)[1], lang) if computers else "?"
    if table.players == 2:
        return t("ok.computer_seated", lang, name=name)
    return t("ok.computer_seated_team", lang, name=name, team=TEAMS[team])


def _lobby_timer_lines(table: Table, lang: str) -> list[str]:
    if table.status != LOBBY or table.timers.lobby_deadline is None:
        return []
    return [t("lobby.timer", lang, seconds=table.timers.turn_timer, when=when_text(table.timers.lobby_deadline))]


# ---------------------------------------------------------------------- the live public table


def order_line(table: Table, lang: str) -> str:
    """Seat and turn order, with the dealer and the mano: ``"Orden: ana (mano) → beto → … (reparte)"``."""
    game = table.game
    assert game is not None
    names = []
    for seat in range(table.players):
        name = seat_name(table, seat, lang)
        marks = []
        if seat == game.mano:
            marks.append(t("table.mark_mano", lang))
        if seat == game.dealer:
            marks.append(t("table.mark_dealer", lang))
        names.append(" · ".join([name, *marks]))
    return t("table.order", lang, seats=" → ".join(names))


def side_line(table: Table, team: int, lang: str) -> str:
    """One side's score: perros and tantos once, chicas, cards captured (a count), the 38 mark."""
    game = table.game
    assert game is not None
    label = side_name(table, team, lang) if table.players == 2 else (
        f"{t(f'team.{TEAMS[team]}', lang)} · {side_members(table, team, lang)}")
    line = tn("table.side", len(game.piles[team]), lang, dot="🟦" if team == 0 else "🟧", side=label, score=score_words(game.scores[team], lang),
             chicas=game.chicas[team], cards=len(game.piles[team]))
    if at_blocking_score(table, team):
        line += " · " + t("table.at38", lang, score=table.rules.score38)
    return line


def table_payload(table: Table, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> Payload:
    """The live public table message, about 10 lines at phone width: the table cards, whose turn (and the
    deadline), the last play called out and the one before it, each side's score, notes (DMs closed,
    away, unrated), and the seat order; the picture is added by `with_picture`. "Mi mano" is the only
    button while the mesa is in play. Cards are written with ``faces``."""
    game = table.game
    assert game is not None
    title = t("table.title", lang, table=table.id, preset=rules_label(table, lang), chica=game.chica_number,
              hand=game.hand_number)
    embed = discord.Embed(title=limits.clip(title, limits.EMBED_TITLE), colour=COLOR)
    on_table = faces.cards(game.table) if game.table else t("table.empty", lang)
    lines = [f"**{t('table.on_table', lang)}:** {on_table}"]
    recent = [r for r in recent_records(game.view(None).events, LIVE_PLAYS, len(game.plays)) if r.kind in ("play", "ronda", "doble_ronda")]
    for record in recent[-LIVE_PLAYS:][::-1]:
        said = sentence(table, record, lang, faces=faces)
        lines.append(said if record is recent[-1] else f"-# {said}")
    if not recent:
        lines.append(t("table.no_plays", lang))
    if game.to_play is not None:
        turn = t("table.turn", lang, who=seat_mention(table, game.to_play, lang))
        deadline = _deadline(table)
        lines.append(f"{turn} · ⏳ {when_text(deadline)}" if deadline else turn)
    lines.append(side_line(table, 0, lang))
    lines.append(side_line(table, 1, lang))
    for seat in table.messages.dm_closed:
        if seat < len(table.seats) and table.seats[seat] is not None:
            lines.append(t("table.dm_closed", lang, name=seat_name(table, seat, lang)))
    lines.extend(_presence_lines(table, lang))
    embed.description = limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION)
    embed.set_footer(text=limits.clip(order_line(table, lang), limits.FOOTER))
    view = components.Components([[
        components.button(custom_id=HandButton.id_for(table.id), label=t("btn.my_hand", lang),
                          style=discord.ButtonStyle.primary),
        components.button(custom_id=WhyButton.id_for(table.id), label=t("btn.why", lang),
                          style=discord.ButtonStyle.secondary),
    ]]) if table.status == PLAYING else None
    return Payload(embed=embed, view=view)


SIDE_COLOURS = tuple(discord.Colour.from_rgb(*rgb) for rgb in TEAM)
"""The colour of each side (team A/seat 1's side, team B/seat 2's side), as the picture draws it."""


def table_alt_text(table: Table, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> str:
    """The table in words, as the picture shows it (at most `limits.ALT_TEXT` characters): the title, the
    table cards, each side's score and the seat order with the mano and the dealer. It is the picture's
    alt text (screen readers, clients that load no images), and the text shown when there is no picture.
    Public facts only."""
    game = table.game
    assert game is not None
    title = t("table.title", lang, table=table.id, preset=rules_label(table, lang), chica=game.chica_number,
              hand=game.hand_number)
    on_table = faces.cards(game.table) if game.table else t("table.empty", lang)
    lines = [title, f"{t('table.on_table', lang)}: {on_table}", side_line(table, 0, lang),
             side_line(table, 1, lang), order_line(table, lang)]
    return limits.clip("\n".join(lines), limits.ALT_TEXT)


def table_layout(table: Table, lang: str, picture: bytes | None, *,
                 faces: CardFaces = CardFaces.TEXT) -> Payload:
    """The live table as a Components V2 message, made to fit one phone screen: one container, its accent
    the colour of the side to play (`SIDE_COLOURS`), holding

    - what the picture cannot say, as text: the last play called out, whose turn it is (a mention) and the
      deadline, then the notes (DMs closed, away, unrated) together in one paragraph of small text;
    - the picture (PNG bytes, sent as the attachment `PICTURE_NAME`) in a media gallery, its alt text the
      table in words (`table_alt_text`); with no picture (pictures off, or one that failed) that text is
      shown instead;
    - "Mi mano" and "¿Por qué?" while the mesa is in play.

    Cards in the text are written with ``faces``.

    Raises:
        PayloadLimitError: a renderer bug (`bot.ui.limits`).
    """
    game = table.game
    assert game is not None
    lines: list[str] = []
    recent = [r for r in recent_records(game.view(None).events, 1, len(game.plays))
              if r.kind in ("play", "ronda", "doble_ronda")]
    lines.append(sentence(table, recent[-1], lang, faces=faces) if recent else t("table.no_plays", lang))
    if game.to_play is not None and table.status == PLAYING:
        turn = t("table.turn", lang, who=seat_mention(table, game.to_play, lang))
        deadline = _deadline(table)
        lines.append(f"{turn} · ⏳ {when_text(deadline)}" if deadline else turn)
    notes = [t("table.dm_closed", lang, name=seat_name(table, seat, lang)) for seat in table.messages.dm_closed
             if seat < len(table.seats) and table.seats[seat] is not None]
    notes.extend(_presence_lines(table, lang))
    if notes:
        lines.append("-# " + " · ".join(notes))
    side = game.to_play % 2 if game.to_play is not None else 0
    alt = table_alt_text(table, lang, faces=faces)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=SIDE_COLOURS[side])
    container.add_item(discord.ui.TextDisplay(limits.clip("\n".join(lines), limits.LAYOUT_TEXT // 2)))
    files: list[tuple[str, bytes]] = []
    if picture is not None:
        container.add_item(discord.ui.MediaGallery(
            discord.MediaGalleryItem(f"attachment://{PICTURE_NAME}", description=alt)))
        files.append((PICTURE_NAME, picture))
    else:
        container.add_item(discord.ui.TextDisplay(alt))
    if table.status == PLAYING:
        container.add_item(discord.ui.ActionRow(
            HandButton(table.id, label=t("btn.my_hand", lang)),
            WhyButton(table.id, label=t("btn.why", lang))))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()
    return Payload(view=view, files=files)


def with_picture(payload: Payload, picture: bytes) -> Payload:
    """``payload`` (a `table_payload`) with the table picture (PNG bytes) in its embed, as the attachment
    `PICTURE_NAME`."""
    assert payload.embed is not None
    payload.embed.set_image(url=f"attachment://{PICTURE_NAME}")
    payload.files = [(PICTURE_NAME, picture)]
    return payload


def _deadline(table: Table) -> float | None:
    tm = table.timers
    if table.status != PLAYING or tm.deadline is None or tm.nonce != table.nonce:
        return None
    return tm.deadline


def _presence_lines(table: Table, lang: str) -> list[str]:
    lines = [t("table.away", lang, name=seat_name(table, i, lang))
             for i, s in enumerate(table.seats) if s is not None and s.away]
    if table.casual:
        lines.append(t("table.casual", lang))
    return lines


def as_layout(payload: Payload) -> Payload:
    """A text payload (content and/or an embed's title and description, no files) as a Components V2
    layout, to edit a message that was sent as one (a V2 message takes no content or embed): one text
    display, the same controls below it in action rows."""
    parts = [payload.content or ""]
    if payload.embed is not None:
        parts += [f"**{payload.embed.title}**" if payload.embed.title else "", payload.embed.description or ""]
    text = "\n".join(p for p in parts if p) or "·"
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(limits.clip(text, limits.LAYOUT_TEXT)))
    rows: list[dict[str, Any]] = payload.view.to_components() if payload.view is not None else []
    for row in rows:
        items: list[discord.ui.Item[Any]] = []
        for item in row["components"]:
            if item["type"] == 2:
                items.append(discord.ui.Button(label=item.get("label"), custom_id=item.get("custom_id"),
                                               url=item.get("url"), style=discord.ButtonStyle(item["style"]),
                                               disabled=item.get("disabled", False)))
        if items:
            view.add_item(discord.ui.ActionRow(*items))
    view.stop()
    return Payload(view=view)


def moved_payload(table: Table, lang: str) -> Payload:
    """What an old table message becomes when the table is re-posted lower in the channel."""
    return Payload(content=t("table.moved", lang, table=table.id))


def closed_payload(table: Table, lang: str) -> Payload:
    """The table message (or lobby, or a DM hand) of a table ended early, with its final state."""
    lines = [t("table.ended", lang, table=table.id)]
    if table.channel_gone:
        lines.append(t("table.ended_gone", lang))
    game = table.game
    if game is not None:
        lines.append(t("table.final", lang, a=side_name(table, 0, lang), b=side_name(table, 1, lang),
                       sa=score_words(game.scores[0], lang), sb=score_words(game.scores[1], lang),
                       ca=game.chicas[0], cb=game.chicas[1]))
    return Payload(content="\n".join(lines))


def turn_ping_payload(table: Table, seat: int, lang: str) -> Payload:
    """The short channel mention that alerts a person whose DMs are closed that it is their turn (it
    pings: send it with user mentions allowed). Removed once they have played."""
    person = table.seats[seat]
    assert person is not None and person.user_id is not None
    return Payload(content=t("table.turn_ping", lang, mention=f"<@{person.user_id}>", table=table.id))


# ---------------------------------------------------------------------- hands


def describe_capture(play: Play, view: GameView, lang: str) -> str:
    """A capture in words: ``"7♦ → 3♣ + 4♥, luego J♠ Q♦ K♣ — limpia"`` (base, then the escalera;
    caída, limpia and a periquito taken marked, §9)."""
    card = play.card
    text = f"{card} → {capture_words(card, play.sorted_captures(), lang, plain_card)}"
    marks = []
    if is_caida(play, view):
        marks.append(t("opt.caida", lang))
    if len(play.captures) == len(view.table):
        marks.append(t("opt.limpia", lang))
    if periquito_bonus(play, view) or (view.rules.periquito and periquito_ranks(play.captures)):
        marks.append(t("opt.periquito", lang))
    if marks:
        text += " — " + ", ".join(marks)
    return text


PAGE_VALUE_PREFIX = "~"
"""A capture-menu option whose value is ``"~N"`` shows page N of the captures (never a card code)."""


def capture_pages(choice: Choice) -> list[tuple[int, int]]:
    """The capture menu's pages as ``(start, stop)`` slices of ``choice.options``: one page when every
    capture fits in a select (with the trail), else pages that keep room for the trail and for the
    "previous" and "more…" options, so every capture can be chosen."""
    total = len(choice.options)
    room = limits.SELECT_OPTIONS - (1 if choice.can_trail else 0)
    if total <= room:
        return [(0, total)]
    size = room - 2
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def capture_select(table: Table, choice: Choice, lang: str, page: int = 0) -> components.JSON:
    """The capture menu of an ambiguous play (a `CaptureSelect`'s JSON): each capture in words (and the
    trail). Past Discord's 25 options the captures are split into pages (`capture_pages`); ``page`` is the
    one shown, with "previous" / "more…" options that show the others."""
    pages = capture_pages(choice)
    page = max(0, min(page, len(pages) - 1))
    start, stop = pages[page]
    total = len(choice.options)
    options = [(limits.clip(describe_capture(p, choice.view, lang), 100), ".".join(c.code for c in p.sorted_captures()))
               for p in choice.options[start:stop]]
    for key, other in (("opt.previous", page - 1), ("opt.more", page + 1)):
        if 0 <= other < len(pages):
            first, last = pages[other]
            options.append((limits.clip(t(key, lang, first=first + 1, last=last, total=total), 100),
                            f"{PAGE_VALUE_PREFIX}{other}"))
    if choice.can_trail:
        options.append((limits.clip(t("dm.trail_option", lang, card=choice.card), 100), TRAIL_VALUE))
    return components.select(custom_id=CaptureSelect.id_for(table.id, table.nonce, choice.card.code),
                             options=options,
                             placeholder=limits.clip(t("dm.choose_placeholder", lang, card=choice.card), 150))


def score_line(table: Table, view: GameView, lang: str) -> str:
    """The score in a hand: ``"Marcador: tú 2 perros · beto 1 perro"`` (your side first)."""
    mine = view.team if view.team is not None else 0
    other = 1 - mine
    if table.players == 2:
        return t("dm.score_1v1", lang, a=score_words(view.scores[mine], lang), other=side_name(table, other, lang),
                 b=score_words(view.scores[other], lang))
    return t("dm.score_2v2", lang, a=score_words(view.scores[mine], lang), b=score_words(view.scores[other], lang),
             team=TEAMS[mine])


def hand_payload(table: Table, seat: int, view: GameView, lang: str, *, choice: Choice | None = None,
                 page: int = 0, final: str | None = None, faces: CardFaces = CardFaces.TEXT,
                 table_line: bool = True) -> Payload:
    """A player's hand (DM or ephemeral): on the player's turn, first "¡Te toca, <name>!" (the line a turn
    alert's notification shows); server, channel and table; whose turn (and the deadline); the
    last play; the table cards; the hand sorted by rank; the score. One button per card (with its card
    emoji when available), enabled only on the player's turn; the trail control for cards that could
    capture; with ``choice``, the capture menu of that card on the hand itself, in place of the trail
    control (the menu offers the card's trail; another card's button closes it); a link to the table
    message. ``final``: the mesa's result in words, when it is over (no buttons then). ``faces``: how the
    cards are written in the lines and the emojis on the card buttons. ``table_line`` False: no "on the
    table" line (the table is drawn beside it, `bot.ui.hand_layout`)."""
    header = t("dm.header", lang, table=table.id, guild=table.options.guild_name or "?",
               channel=table.options.channel_name or "?")
    lines = [f"**{header}**"]
    person = table.seats[seat] if 0 <= seat < len(table.seats) else None
    away = person is not None and person.away and table.status == PLAYING
    my_turn = view.my_turn and table.status == PLAYING
    if view.to_play is None or table.status != PLAYING:
        lines.append(final or t("dm.over", lang))
    elif my_turn:  # the first line, which a phone's notification shows: "¡Te toca, ana!", then where
        lines.insert(0, t("dm.your_turn_title", lang, name=seat_name(table, seat, lang)))
        deadline = _deadline(table)
        lines.append(t("dm.your_turn", lang) + (f" ⏳ {when_text(deadline)}" if deadline and not away else ""))
    else:
        lines.append(t("dm.wait", lang, name=seat_name(table, view.to_play, lang)))
    recent = [r for r in recent_records(view.events, 1, table.nonce) if r.kind == "play"]
    if recent and table.status == PLAYING:
        lines.append(t("dm.last", lang, line=sentence(table, recent[-1], lang, faces=faces)))
    hand = by_rank(view.hand)
    if table_line:
        lines.append(t("dm.table", lang, cards=faces.cards(view.table) if view.table else t("table.empty", lang)))
    lines.append(t("dm.hand", lang, cards=faces.cards(hand)) if hand else t("dm.hand_empty", lang))
    lines.append(score_line(table, view, lang))
    if away:
        lines.append(t("dm.away", lang))
    lines.extend(hint_lines(table, view, lang))
    if choice is not None and my_turn:
        lines.append(t("dm.choose", lang, card=faces.card(choice.card)))
    rows: list[list[components.JSON]] = []
    if table.status == PLAYING and hand:
        nonce = table.nonce
        hinted = set(best_captures(view)) if table.hints and my_turn else set()
        rows.append([
            components.button(custom_id=CardButton.id_for(table.id, nonce, card.code), label=str(card),
                              emoji=faces.emoji(card), disabled=not my_turn,
                              style=(discord.ButtonStyle.success if (choice is not None and card is choice.card)
                                     or (choice is None and card in hinted)
                                     else discord.ButtonStyle.primary if my_turn else discord.ButtonStyle.secondary))
            for card in hand
        ])
        if my_turn:
            trailable = []
            for card in hand:
                plays = [p for p in view.legal_plays if p.card is card]
                if any(p.captures for p in plays) and any(not p.captures for p in plays):
                    trailable.append(card)
            if trailable and choice is None:  # an open capture menu offers its own card's trail
                options = [(limits.clip(t("dm.trail_option", lang, card=card), 100), card.code) for card in trailable]
                rows.append([components.select(custom_id=TrailSelect.id_for(table.id, nonce), options=options,
                                               placeholder=limits.clip(t("dm.trail_placeholder", lang), 150))])
            if choice is not None:
                rows.append([capture_select(table, choice, lang, page)])
    last: list[components.JSON] = []
    if away:
        last.append(components.button(custom_id=BackButton.id_for(table.id), label=t("btn.back", lang),
                                      style=discord.ButtonStyle.success))
    link = table_link(table)
    if link is not None:
        last.append(components.button(style=discord.ButtonStyle.link, url=link, label=t("btn.see_table", lang)))
    rows.append(last)
    controls = components.Components(rows)
    return Payload(content=limits.clip("\n".join(lines), limits.CONTENT), view=controls if controls.items else None)


__all__ = [
    "COLOR", "PAGE_VALUE_PREFIX", "PICTURE_NAME", "Payload", "capture_pages", "capture_select",
    "closed_payload", "computer_seated_text", "describe_capture", "error_text", "hand_payload", "lobby_payload", "make_view",
    "moved_payload", "order_line", "play_lines", "seat_name", "side_line", "side_title",
    "table_link", "table_payload", "turn_ping_payload", "when_text", "with_picture",
]
