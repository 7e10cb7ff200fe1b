"""State → messages: lobby, public table, hands (DM and ephemeral), capture choices, hand summaries,
chica and mesa announcements, rules. Every text comes from `bot.i18n`; every payload is fitted to and
checked against Discord's limits (`bot.ui.limits`).

Hidden information: public renderers read only public state (table cards, captured piles, scores, the
event log without ronda ranks); a hand is rendered only from ``game.view(seat)`` for that seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import RANKS, Card, Event, EventKind, GameView, Play, Rules
from bot.i18n import t
from bot.tables import LOBBY, PLAYING, TEAMS, Choice, Table, TableError

from . import limits
from .items import (
    COMPUTER_LEVELS,
    TRAIL_VALUE,
    BackButton,
    CaptureSelect,
    CardButton,
    HandButton,
    LevelSelect,
    LobbyButton,
    RematchButton,
    TrailSelect,
)

K = EventKind
COLOR = discord.Colour(0x1F8B4C)
LAST_PLAYS = 8


@dataclass
class Payload:
    """A message to send or edit: content, an embed and a view (any may be None)."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None

    def __post_init__(self) -> None:
        limits.check_message(self.content, self.embed, self.view)

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send``/``send_message`` (no pings)."""
        out: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``edit``/``edit_message``: replaces content, embeds and components."""
        return {
            "content": self.content,
            "embeds": [self.embed] if self.embed is not None else [],
            "view": self.view if self.view is not None else discord.ui.View(timeout=None),
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


# ---------------------------------------------------------------------- small words


def cards_text(cards: Iterable[Card]) -> str:
    """``"3♣ 4♥ J♠"``."""
    return " ".join(str(c) for c in cards)


def team_name(team: int, lang: str) -> str:
    """``"Equipo A"`` / ``"Team B"``."""
    return t(f"team.{TEAMS[team]}", lang)


def seat_name(table: Table, seat: int, lang: str) -> str:
    """A seat's display name: the person's name, or "Computadora 2" for a computer player."""
    s = table.seats[seat] if 0 <= seat < len(table.seats) else None
    if s is None:
        return "?"
    if s.is_ai:
        if s.stands_for:
            name = discord.utils.escape_mentions(discord.utils.escape_markdown(s.stands_for))
            return t("ai.name_for", lang, n=s.ai_number, name=name)
        return t("ai.name", lang, n=s.ai_number)
    return discord.utils.escape_mentions(discord.utils.escape_markdown(s.name)) if s.name else f"<@{s.user_id}>"


def seat_mention(table: Table, seat: int, lang: str) -> str:
    """A mention for a person (in an embed it does not ping), the name for a computer player."""
    s = table.seats[seat]
    if s is not None and not s.is_ai:
        return f"<@{s.user_id}>"
    return seat_name(table, seat, lang)


def perros_tantos(points: int) -> tuple[int, int]:
    """Points as perros (10) and tantos (2): 26 → (2, 3)."""
    return points // 10, (points % 10) // 2


def rank_word(rank: int | None) -> str:
    """A rank index as printed (``"7"``, ``"J"``)."""
    return RANKS[rank] if rank is not None else "?"


def error_text(error: TableError, lang: str, table: Table | None = None) -> str:
    """The message of a refused action, in ``lang``. A ``seat`` parameter becomes the seat's name."""
    params = dict(error.params)
    if isinstance(params.get("name"), str):
        params["name"] = discord.utils.escape_mentions(discord.utils.escape_markdown(params["name"]))  # type: ignore[arg-type]
    if "seat" in params:
        seat = params.pop("seat")
        params["name"] = seat_name(table, seat, lang) if table is not None and seat is not None else "?"
    return t(error.key, lang, **params)


# ---------------------------------------------------------------------- lobby


def lobby_payload(table: Table, lang: str) -> Payload:
    """The lobby message: rules, seats by team, host, and the join/computer/leave/start buttons."""
    embed = discord.Embed(title=t("lobby.title", lang, table=table.id, mode=t(f"lobby.mode.{table.players}", lang)),
                          colour=COLOR)
    host = f"<@{table.host_id}>" if table.host_id else "?"
    embed.description = "\n".join([t("lobby.rules", lang, preset=table.preset), t(f"rules.blurb.{table.preset}", lang),
                                   t("lobby.host", lang, host=host), *_lobby_timer_lines(table, lang), "",
                                   t("lobby.help", lang)])
    for team in (0, 1):
        lines = []
        for seat in table.team_seats(team):
            lines.append(seat_mention(table, seat, lang) if table.seats[seat] else t("lobby.empty_seat", lang))
        embed.add_field(name=t("lobby.team", lang, team=TEAMS[team]), value="\n".join(lines), inline=True)
    if table.status != LOBBY:
        key = "lobby.started" if table.status in (PLAYING, "finished") else "lobby.closed"
        embed.set_footer(text=t(key, lang, table=table.id))
        return Payload(embed=embed)
    row = [
        LobbyButton(table.id, "a", label=t("btn.join_a", lang), style=discord.ButtonStyle.primary),
        LobbyButton(table.id, "b", label=t("btn.join_b", lang), style=discord.ButtonStyle.primary),
        LobbyButton(table.id, "c", label=t("btn.add_bot", lang)),
        LobbyButton(table.id, "x", label=t("btn.leave", lang), style=discord.ButtonStyle.danger),
        LobbyButton(table.id, "s", label=t("btn.start", lang), style=discord.ButtonStyle.success),
    ]
    levels = [discord.SelectOption(label=limits.clip(t(f"level.{level}", lang), 100), value=level)
              for level in COMPUTER_LEVELS]
    select = LevelSelect(table.id, options=levels, placeholder=limits.clip(t("lobby.level_placeholder", lang), 150))
    return Payload(embed=embed, view=make_view(row, [select]))


# ---------------------------------------------------------------------- plays in words


def hand_events(events: Sequence[Event]) -> list[Event]:
    """The events of the current hand: those after the last HAND_START."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == K.HAND_START:
            return list(events[i + 1:])
    return list(events)


def capture_words(card: Card, cards: Iterable[Card], lang: str) -> str:
    """The cards a play took, as the capture menu writes them: the base capture (one matched card, or the
    summed cards joined by "+"), then the escalera: ``"5♥, luego 6♠ 7♣"``, ``"3♣ + 4♥, luego J♠"``."""
    taken = list(cards)
    base = [c for c in taken if c.rank <= card.rank]
    stair = sorted((c for c in taken if c.rank > card.rank), key=lambda c: c.rank)
    text = " + ".join(str(c) for c in base)
    if stair:
        text = f"{text}, {t('opt.then', lang)} {cards_text(stair)}" if base else cards_text(stair)
    return text


def blocked_note(table: Table, blocked: str, lang: str) -> str:
    """Why points did not count: ``"(no cuenta: 38 que no juega)"`` at the table's blocking score (18 in
    ``rapido``), or the cutoff."""
    if blocked == "38":
        return t("play.blocked_score", lang, score=table.rules.score38 or 38)
    return t("play.blocked_cutoff", lang)


def _blocked_suffix(table: Table, event: Event, lang: str) -> str:
    return " " + blocked_note(table, event.blocked, lang) if event.blocked else ""


def play_lines(table: Table, events: Sequence[Event], lang: str) -> list[str]:
    """Public sentences for a run of events: "María botó 5♣", "Juan se cayó con 5♦ — caída +2", …

    Never prints a ronda's rank before it is revealed (RONDA_REVEALED), nor any card in a hand."""
    lines: list[str] = []
    i = 0
    n = len(events)
    while i < n:
        e = events[i]
        if e.kind == K.PLAYED:
            name = seat_name(table, e.seat, lang)  # type: ignore[arg-type]
            parts: list[str] = []
            j = i + 1
            if j < n and events[j].kind == K.CAPTURED:
                cap = events[j]
                j += 1
                main = t("play.capture", lang, name=name, cards=capture_words(e.card, cap.cards, lang), card=e.card)
                while j < n and events[j].kind in (K.CAIDA, K.LIMPIA, K.FOUR_CAIDAS):
                    x = events[j]
                    if x.kind == K.CAIDA:
                        if x.en_ronda and x.points == 0 and x.blocked is None:
                            main = t("play.caida_chica", lang, name=name, card=e.card)
                        elif x.en_ronda:
                            main = t("play.caida_en_ronda", lang, name=name, card=e.card, points=x.points)
                        else:
                            main = t("play.caida", lang, name=name, card=e.card, points=x.points)
                        if x.limpia:
                            parts.append(t("play.caida_limpia", lang))
                    elif x.kind == K.LIMPIA:
                        parts.append(t("play.limpia", lang, points=x.points))
                    elif x.reason == "chica" and x.blocked is None:
                        main = t("play.caida_four_chica", lang, name=name, card=e.card)
                    else:
                        parts.append(t("play.four_caidas", lang, team=team_name(x.team or 0, lang)))
                    if x.blocked:
                        parts.append(blocked_note(table, x.blocked, lang))
                    j += 1
                lines.append(" — ".join([main, *parts]) if parts else main)
            else:
                lines.append(t("play.trail", lang, name=name, card=e.card))
            i = j
            continue
        if e.kind in (K.RONDA, K.DOBLE_RONDA):
            name = seat_name(table, e.seat, lang)  # type: ignore[arg-type]
            if e.kind == K.RONDA:
                line = t("play.ronda", lang, name=name, points=e.points)
            elif e.scores is not None and e.points == 0 and e.blocked is None and table.rules.doble_ronda == "chica":
                line = t("play.doble_ronda_chica", lang, name=name)
            else:
                line = t("play.doble_ronda", lang, name=name, points=e.points)
            if e.blocked:
                line += " " + blocked_note(table, e.blocked, lang)
            lines.append(line)
        elif e.kind == K.RONDA_REVEALED:
            lines.append(t("play.ronda_revealed", lang, name=seat_name(table, e.seat, lang), rank=rank_word(e.rank)))  # type: ignore[arg-type]
        elif e.kind == K.DEAL:
            lines.append(t("play.deal", lang, deal=e.number))
        i += 1
    return lines


# ---------------------------------------------------------------------- public table


def team_field_name(table: Table, team: int, lang: str) -> str:
    """``"Equipo A — Ana, Computadora 1"``."""
    names = ", ".join(seat_name(table, s, lang) for s in table.team_seats(team))
    return limits.clip(f"{team_name(team, lang)} — {names}", limits.FIELD_NAME)


def table_payload(table: Table, lang: str) -> Payload:
    """The public table message: table cards in play order, captured cards, scores (points, perros and
    tantos, chicas), whose turn, hand and deal numbers, the last plays in words, and "My hand"."""
    game = table.game
    assert game is not None
    embed = discord.Embed(title=t("table.title", lang, table=table.id, preset=table.preset), colour=COLOR)
    lines = [t("table.progress", lang, chica=game.chica_number, hand=game.hand_number, deal=game.deal_number), ""]
    on_table = cards_text(game.table) if game.table else t("table.empty", lang)
    lines.append(f"**{t('table.on_table', lang)}:** {on_table}")
    if game.to_play is not None:
        lines.append(t("table.turn", lang, who=seat_mention(table, game.to_play, lang)))
        lines.extend(_deadline_lines(table, lang))
    else:
        lines.append(t("table.over", lang))
    for seat in table.messages.dm_closed:
        if seat < len(table.seats) and table.seats[seat] is not None:
            lines.append(t("table.dm_closed", lang, name=seat_name(table, seat, lang)))
    lines.extend(_presence_lines(table, lang))
    embed.description = limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION)
    for team in (0, 1):
        points = game.scores[team]
        perros, tantos = perros_tantos(points)
        pile = game.piles[team]
        captured = (t("table.captured", lang, count=len(pile), cards=cards_text(pile)) if pile
                    else t("table.captured_none", lang))
        value = t("table.score", lang, points=points, perros=perros, tantos=tantos, chicas=game.chicas[team])
        embed.add_field(name=team_field_name(table, team, lang),
                        value=limits.clip(f"{value}\n{captured}", limits.FIELD_VALUE), inline=False)
    recent = play_lines(table, hand_events(game.events), lang)[-LAST_PLAYS:]
    plays = "\n".join(f"• {line}" for line in recent) if recent else t("table.no_plays", lang)
    while len(plays) > limits.FIELD_VALUE and recent:
        recent = recent[1:]
        plays = "\n".join(f"• {line}" for line in recent)
    embed.add_field(name=t("table.last_plays", lang), value=plays or "—", inline=False)
    embed.set_footer(text=t("table.footer", lang, preset=table.preset))
    items: list[discord.ui.Item[Any]] = [HandButton(table.id, label=t("btn.my_hand", lang))]
    if table.status == "finished":
        items.append(RematchButton(table.id, label=t("btn.rematch", lang)))
    return Payload(embed=embed, view=make_view(items))


def stub_payload(table: Table, hand: int, lang: str, *, hand_over: bool = True) -> Payload:
    """What an old table message becomes when the table is re-posted: no cards, no buttons."""
    if hand_over:
        return Payload(content=t("table.stub", lang, table=table.id, hand=hand))
    return Payload(content=t("table.moved", lang, table=table.id))


def closed_payload(table: Table, lang: str) -> Payload:
    """The table message (or lobby, or a DM hand) of a table ended early, with its final state."""
    lines = [t("table.ended", lang, table=table.id)]
    game = table.game
    if game is not None:
        lines.append(t("table.final", lang, a=game.scores[0], b=game.scores[1], ca=game.chicas[0], cb=game.chicas[1]))
    return Payload(content="\n".join(lines))


# ---------------------------------------------------------------------- timers and presence (issue 6)


def when_text(instant: float) -> str:
    """A Discord relative timestamp (``<t:…:R>``: "in 30 seconds", shown in each reader's language)."""
    return f"<t:{int(instant)}:R>"


def _lobby_timer_lines(table: Table, lang: str) -> list[str]:
    if table.status != LOBBY or table.timers.lobby_deadline is None:
        return []
    return [t("lobby.timer", lang, seconds=table.timers.turn_timer, when=when_text(table.timers.lobby_deadline))]


def _deadline_lines(table: Table, lang: str) -> list[str]:
    tm = table.timers
    if table.status != PLAYING or tm.deadline is None or tm.nonce != table.nonce:
        return []
    return [t("table.deadline", lang, when=when_text(tm.deadline))]


def _presence_lines(table: Table, lang: str) -> list[str]:
    lines = [t("table.away", lang, name=seat_name(table, i, lang))
             for i, s in enumerate(table.seats) if s is not None and s.away]
    if table.casual:
        lines.append(t("table.casual", lang))
    return lines


# ---------------------------------------------------------------------- hands


def _team_of_seat(seat: int) -> str:
    return TEAMS[seat % 2]


def hand_payload(table: Table, seat: int, view: GameView, lang: str) -> Payload:
    """A player's hand (DM or ephemeral): server, channel and table; whose turn; table cards; one
    button per card, enabled only on the player's turn; and the trail control for cards that could
    capture."""
    meta = table.meta
    header = t("dm.header", lang, table=table.id, guild=meta.get("guild_name") or "?",
               channel=meta.get("channel_name") or "?")
    lines = [f"**{header}**"]
    if view.to_play is None:
        lines.append(t("dm.over", lang))
    elif view.my_turn:
        lines.append(t("dm.your_turn", lang))
    else:
        lines.append(t("dm.wait", lang, name=seat_name(table, view.to_play, lang)))
    if view.my_turn:
        recent = play_lines(table, hand_events(view.events), lang)
        if recent:
            lines.append(t("dm.last", lang, line=recent[-1]))
    lines.append(t("dm.table", lang, cards=cards_text(view.table) if view.table else t("table.empty", lang)))
    lines.append(t("dm.hand", lang, cards=cards_text(view.hand)) if view.hand else t("dm.hand_empty", lang))
    lines.append(t("dm.score", lang, a=view.scores[0], b=view.scores[1], team=team_name(view.team, lang)))
    person = table.seats[seat] if 0 <= seat < len(table.seats) else None
    away = person is not None and person.away and table.status == PLAYING
    if away:
        lines.append(t("dm.away", lang))
    elif view.my_turn:
        lines.extend(_deadline_lines(table, lang))
    nonce = table.nonce
    my_turn = view.my_turn and table.status == PLAYING
    buttons = [
        CardButton(table.id, nonce, card.code, label=str(card), disabled=not my_turn,
                   style=discord.ButtonStyle.primary if my_turn else discord.ButtonStyle.secondary)
        for card in view.hand
    ]
    rows: list[list[discord.ui.Item[Any]]] = [list(buttons)] if buttons else []
    if my_turn:
        trailable = []
        for card in view.hand:
            plays = [p for p in view.legal_plays if p.card is card]
            if any(p.captures for p in plays) and any(not p.captures for p in plays):
                trailable.append(card)
        if trailable:
            options = [discord.SelectOption(label=limits.clip(t("dm.trail_option", lang, card=card), 100),
                                            value=card.code) for card in trailable]
            rows.append([TrailSelect(table.id, nonce, options=options,
                                     placeholder=limits.clip(t("dm.trail_placeholder", lang), 150))])
    if away:
        rows.append([BackButton(table.id, label=t("btn.back", lang))])
    return Payload(content=limits.clip("\n".join(lines), limits.CONTENT), view=make_view(*rows) if rows else None)


def describe_capture(play: Play, view: GameView, lang: str) -> str:
    """A capture in words: ``"7♦ → 3♣ + 4♥, luego J♠ Q♦ K♣ — limpia"`` (base, then the escalera;
    caída and limpia marked)."""
    card = play.card
    base = [c for c in play.sorted_captures() if c.rank <= card.rank]
    text = f"{card} → {capture_words(card, play.sorted_captures(), lang)}"
    marks = []
    prev = (view.seat - 1) % view.players
    if (view.last_trail is not None and view.last_trail_seat == prev and view.last_trail in base
            and (len(base) == 1 and view.last_trail.rank == card.rank or view.rules.caida_by_sum)):
        marks.append(t("opt.caida", lang))
    if len(play.captures) == len(view.table):
        marks.append(t("opt.limpia", lang))
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


def choice_payload(table: Table, choice: Choice, lang: str, page: int = 0) -> Payload:
    """The second step of an ambiguous play: a select listing each capture in words (and the trail).
    Past Discord's 25 options the captures are split into pages (`capture_pages`); ``page`` is the one
    shown, with "previous" / "more…" options that show the others."""
    pages = capture_pages(choice)
    page = max(0, min(page, len(pages) - 1))
    start, stop = pages[page]
    total = len(choice.options)
    options = [
        discord.SelectOption(label=limits.clip(describe_capture(p, choice.view, lang), 100),
                             value=".".join(c.code for c in p.sorted_captures()))
        for p in choice.options[start:stop]
    ]
    for key, other in (("opt.previous", page - 1), ("opt.more", page + 1)):
        if 0 <= other < len(pages):
            first, last = pages[other]
            options.append(discord.SelectOption(
                label=limits.clip(t(key, lang, first=first + 1, last=last, total=total), 100),
                value=f"{PAGE_VALUE_PREFIX}{other}"))
    if choice.can_trail:
        options.append(discord.SelectOption(label=limits.clip(t("dm.trail_option", lang, card=choice.card), 100),
                                            value=TRAIL_VALUE))
    select = CaptureSelect(table.id, table.nonce, choice.card.code, options=options,
                           placeholder=limits.clip(t("dm.choose_placeholder", lang, card=choice.card), 150))
    return Payload(content=t("dm.choose", lang, card=choice.card), view=make_view([select]))


# ---------------------------------------------------------------------- end of hand, chica, mesa


def hand_summary_payload(table: Table, hand_events_: Sequence[Event], hand_number: int, lang: str) -> Payload:
    """End of a hand: cards per team, cartón, dos por darlas, más cartas, falla, and the hand's
    bonuses (caídas, limpias, rondas), then the score."""
    embed = discord.Embed(title=t("sum.title", lang, hand=hand_number, table=table.id), colour=COLOR)
    lines: list[str] = []
    end = next((e for e in reversed(hand_events_) if e.kind == K.HAND_END), None)
    if end is not None and end.counts is not None:
        for team in (0, 1):
            lines.append(t("sum.cards", lang, team=team_name(team, lang), count=end.counts[team]))
    bonuses = [0, 0]
    for e in hand_events_:
        if e.kind in (K.CAIDA, K.LIMPIA, K.RONDA, K.DOBLE_RONDA) and e.team is not None:
            bonuses[e.team] += e.points
        elif e.kind == K.CARTON:
            lines.append(t("sum.carton", lang, team=team_name(e.team or 0, lang), points=e.points, count=e.number)
                         + _blocked_suffix(table, e, lang))
        elif e.kind == K.DOS_POR_DARLAS:
            lines.append(t("sum.dos_por_darlas", lang, team=team_name(e.team or 0, lang), points=e.points)
                         + _blocked_suffix(table, e, lang))
        elif e.kind == K.MAS_CARTAS:
            lines.append(t("sum.mas_cartas", lang, team=team_name(e.team or 0, lang), points=e.points)
                         + _blocked_suffix(table, e, lang))
        elif e.kind == K.FALLA:
            lines.append(t("sum.falla", lang, team=team_name(e.team or 0, lang), points=e.points)
                         + _blocked_suffix(table, e, lang))
        elif e.kind == K.LEFTOVERS:
            if e.team is None:
                lines.append(t("sum.leftovers", lang, count=len(e.cards)))
            else:
                lines.append(t("sum.leftovers_taken", lang, count=len(e.cards), team=team_name(e.team, lang)))
        elif e.kind == K.RONDA_REVEALED:
            lines.append(t("play.ronda_revealed", lang, name=seat_name(table, e.seat, lang), rank=rank_word(e.rank)))  # type: ignore[arg-type]
    for team in (0, 1):
        if bonuses[team]:
            lines.append(t("sum.bonuses", lang, team=team_name(team, lang), points=bonuses[team]))
    scores = next((e.scores for e in reversed(hand_events_) if e.scores is not None), (0, 0))
    lines.append("")
    lines.append(t("sum.score", lang, a=scores[0], b=scores[1]))
    embed.description = limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION)
    return Payload(embed=embed)


def chica_payload(table: Table, event: Event, lang: str) -> Payload:
    """A chica won: the team, the score (the winner's first), why, and zapatero when it applies."""
    team = event.team or 0
    scores = event.scores or (0, 0)
    lines = [t("chica.won", lang, team=team_name(team, lang), chica=event.number, a=scores[team], b=scores[1 - team]),
             t(f"chica.reason.{event.reason or 'target'}", lang)]
    if event.zapatero:
        lines.append(t("chica.zapatero", lang, team=team_name(1 - team, lang)))
    return Payload(content="\n".join(lines))


def mesa_payload(table: Table, event: Event, lang: str) -> Payload:
    """The mesa won (zapatería marked), the players, and the rematch button."""
    team = event.team or 0
    counts = event.counts or (0, 0)
    key = "mesa.won_one" if counts[team] == 1 else "mesa.won"
    lines = [t(key, lang, team=team_name(team, lang), a=counts[team], b=counts[1 - team])]
    if event.zapatero:
        lines.append(t("mesa.zapateria", lang))
    players = ", ".join(f"{seat_name(table, s, lang)} ({_team_of_seat(s)})" for s in range(table.players))
    lines.append(t("mesa.players", lang, players=players))
    view = make_view([RematchButton(table.id, label=t("btn.rematch", lang))])
    return Payload(content="\n".join(lines), view=view)


# ---------------------------------------------------------------------- rules


def rules_payload(preset: str, lang: str) -> Payload:
    """A preset explained in ``lang``, from its `Rules` fields."""
    rules = Rules.preset(preset)

    def award(value: object) -> str:
        return t("rules.chica", lang) if value == "chica" else t("rules.points_value", lang, points=value)

    yes_no = {True: t("rules.yes", lang), False: t("rules.no", lang)}
    cutoff = rules.carton_cutoff or rules.ronda_cutoff
    lines = [
        t(f"rules.blurb.{preset}", lang),
        "",
        "• " + t("rules.target", lang, target=rules.target, chicas=rules.chicas_to_win),
        "• " + t("rules.points", lang, caida=rules.caida, limpia=rules.limpia, caida_limpia=rules.caida_limpia,
                 ronda=rules.ronda),
        "• " + t("rules.doble_ronda", lang, value=award(rules.doble_ronda)),
        "• " + t("rules.caida_en_ronda", lang, value=award(rules.caida_en_ronda)),
        "• " + t("rules.four_caidas", lang, value=award(rules.four_caidas) if rules.four_caidas
                 else t("rules.four_caidas.none", lang)),
        "• " + t("rules.sums", lang, value=t(f"rules.sums.{rules.sum_mode}", lang)),
        "• " + t("rules.leftovers", lang, value=t(f"rules.leftovers.{rules.leftovers}", lang)),
        "• " + t("rules.carton_r28", lang, min=rules.carton_min_cards, tie=rules.carton_tie),
        "• " + t("rules.falla", lang, value=rules.falla) if rules.falla else "",
        "• " + t("rules.cutoff", lang, value=cutoff) if cutoff else "",
        "• " + (t("rules.rule38_at", lang, score=rules.score38, value=yes_no[True])
               if rules.score38 is not None and rules.score38 != 38
               else t("rules.rule38", lang, value=yes_no[rules.rule38])),
        "• " + t("rules.zapateria", lang, below=rules.zapateria_below, value=yes_no[rules.zapateria]),
    ]
    body = [lines[0], ""] + [line for line in lines[2:] if line]
    embed = discord.Embed(title=t("rules.title", lang, preset=preset), description="\n".join(body), colour=COLOR)
    return Payload(embed=embed)
