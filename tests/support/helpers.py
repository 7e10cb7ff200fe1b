"""Drive tables through the UI only (slash commands, clicks, selects), using the service only as an
oracle for whose turn it is and what a player holds."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import discord
import pytest

from bot.engine import DECK, Card, Game, Play, Rules
from bot.tables import FINISHED, Seat, Table, choose_play
from bot.tables.choices import outcome

REAL_PROCESS_SETTLE = 120.0
"""SimCord's settle timeout (real seconds) for tests whose bot waits on real worker processes (pictures,
computer moves): a worker started on a loaded machine can take more than SimCord's default 5 s to answer,
and that wait is real, not virtual. Set ``world.env.settle_timeout`` to it in such a test."""

def _get(obj: Any, name: str, default: Any = None) -> Any:
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def walk(message: Any) -> list[Any]:
    """Every component of a message, depth first: action rows and their items, and a Components V2
    layout's containers, sections (and their accessories), texts and galleries (discord.Message, SimCord
    ResponseMessage, or a list of components as dicts or objects)."""
    stack = list(reversed(message if isinstance(message, list) else
                         (message.get("components") or []) if isinstance(message, dict) else message.components))
    out: list[Any] = []
    while stack:
        component = stack.pop()
        out.append(component)
        inner = list(_get(component, "components", None) or _get(component, "children", None) or [])
        accessory = _get(component, "accessory", None)
        if accessory is not None:
            inner.append(accessory)
        stack.extend(reversed(inner))
    return out


def custom_ids(message: Any) -> list[str]:
    """Every custom_id of a message's components (discord.Message or SimCord ResponseMessage), layouts
    included."""
    return [cid for item in walk(message) if (cid := _get(item, "custom_id", None))]


def controls(message: Any) -> list[Any]:
    """Every button and select of a message (discord.Message or SimCord ResponseMessage), classic action
    rows and Components V2 trees (containers, sections) alike, in reading order; ``message`` may also be a
    request body (a dict)."""
    out: list[Any] = []
    top = message.get("components") if isinstance(message, dict) else message.components
    stack = list(reversed(top or []))
    while stack:
        component = stack.pop()
        kind = component.get("type") if isinstance(component, dict) else getattr(component, "type", None)
        kind = getattr(kind, "value", kind)
        if kind in (2, 3, 5, 6, 7, 8):
            out.append(component)
            continue
        children = (component.get("components", []) if isinstance(component, dict)
                    else getattr(component, "children", None) or [])
        accessory = component.get("accessory") if isinstance(component, dict) else getattr(component, "accessory", None)
        stack.extend(reversed([*children, *([accessory] if accessory is not None else [])]))
    return out



def layout_parts(message: Any) -> tuple[list[str], list[tuple[str, str]]]:
    """A Components V2 message's text displays and its media gallery items as ``(url, alt text)``."""
    texts: list[str] = []
    media: list[tuple[str, str]] = []
    top = message.get("components") if isinstance(message, dict) else message.components
    stack = list(reversed(top or []))
    while stack:
        component = stack.pop()
        get = component.get if isinstance(component, dict) else lambda k, d=None, c=component: getattr(c, k, d)
        kind = get("type")
        kind = getattr(kind, "value", kind)
        if kind == 10:
            texts.append(get("content") or "")
        elif kind == 12:
            for item in get("items") or []:
                if isinstance(item, dict):
                    media.append((item.get("media", {}).get("url", ""), item.get("description") or ""))
                else:
                    media.append((getattr(item.media, "url", ""), item.description or ""))
        children = get("components", None) if isinstance(component, dict) else get("children", None)
        stack.extend(reversed(children or []))
    return texts, media


def select_values(message: Any, custom_id: str) -> list[str]:
    """The option values of the select ``custom_id`` on a message."""
    for item in walk(message):
        if _get(item, "custom_id", None) == custom_id:
            return [o["value"] if isinstance(o, dict) else o.value for o in _get(item, "options", None) or []]
    return []


def is_layout(message: Any) -> bool:
    """Whether a message was sent as a Components V2 layout (its IS_COMPONENTS_V2 flag)."""
    flags = message.flags
    return bool(flags.components_v2) if not isinstance(flags, int) else bool(flags & (1 << 15))


def layout_texts(message: Any) -> list[str]:
    """The text displays of a layout, in order."""
    return [content for item in walk(message) if _get(item, "type", None) in (10, discord.ComponentType.text_display)
            and (content := _get(item, "content", None)) is not None]


def galleries(message: Any) -> list[Any]:
    """The media galleries of a layout."""
    return [item for item in walk(message)
            if _get(item, "type", None) in (12, discord.ComponentType.media_gallery)]


def alt_texts(message: Any) -> list[str]:
    """The alt text (``description``) of every media gallery item of a layout ("" when it has none)."""
    return [_get(item, "description", None) or "" for gallery in galleries(message) for item in _get(gallery, "items")]


def gallery_urls(message: Any) -> list[str]:
    """The media URL of every media gallery item of a layout."""
    out = []
    for gallery in galleries(message):
        for item in _get(gallery, "items"):
            media = _get(item, "media")
            out.append(media["url"] if isinstance(media, dict) else media.url)
    return out


def accent_colour(message: Any) -> int | None:
    """The accent colour of a layout's first container (an int), or None."""
    for item in walk(message):
        if _get(item, "type", None) in (17, discord.ComponentType.container):
            if isinstance(item, dict):
                return item.get("accent_color")
            colour = item.accent_colour
            return colour.value if colour is not None else None
    return None


def message_text(message: Any) -> str:
    """What a message says in words, whatever its kind: content, embed title, description and footer, or
    a layout's text displays and alt texts."""
    if is_layout(message):
        return "\n".join(layout_texts(message) + alt_texts(message))
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
    return "\n".join(p for p in parts if p)


def hand_messages(member: Any) -> list[Any]:
    """The DM messages of a member that hold card buttons, oldest first."""
    return [m for m in member.user.dm_channel.history() if any(c.startswith("c4:p:") for c in custom_ids(m))]


def latest_hand(member: Any) -> Any:
    """The member's current DM hand message."""
    messages = hand_messages(member)
    assert messages, f"{member.name} has no hand by DM"
    return messages[-1]


def table_of(world: Any, table_id: int) -> Table:
    return world.bot.tables.tables[table_id]


def public_message(world: Any, table: Table) -> Any:
    return next(m for m in world.channel.history() if m.id == table.messages.public)


def pick_play(table: Table) -> tuple[int, Play]:
    """What the seat in turn will play (the greedy choice, made by the test for the person)."""
    game = table.game
    assert game is not None and game.to_play is not None
    seat = game.to_play
    return seat, choose_play("greedy", game.seed, game.view(seat))


async def play_through_ui(member: Any, table: Table, play: Play, *, via: Any = None) -> Any:
    """Make ``play`` with clicks: the card button when unambiguous, the select of the second step when
    the card has several captures, the trail control to trail a card that could capture.

    ``via``: the message holding the hand (default: the member's DM hand). Returns the last result.
    """
    game = table.game
    assert game is not None
    options = game.plays_for(play.card)
    captures = [p for p in options if p.captures]
    nonce = table.nonce
    tid = table.id
    in_dm = via is None
    message = latest_hand(member) if in_dm else via
    actor = member.user if in_dm else member
    if play.is_trail and captures:
        return await actor.select(message, [play.card.code], custom_id=f"c4:t:{tid}:{nonce}")
    result = await actor.click(message, custom_id=f"c4:p:{tid}:{nonce}:{play.card.code}")
    if play.captures and table.nonce == nonce and table.game is not None and table.game.to_play is not None:
        # the card had several distinct captures: the menu is now on the hand itself
        cid = f"c4:c:{tid}:{nonce}:{play.card.code}"
        assert cid in custom_ids(result.response or message), "the capture menu is on the hand"
        value = ".".join(c.code for c in play.sorted_captures())
        offered = select_values(result.response or message, cid)
        if value not in offered:  # a suit-only twin of an offered capture: choose that one
            view = table.game.view(table.game.to_play)
            twin = next(p for p in captures if outcome(p, view) == outcome(play, view)
                        and ".".join(c.code for c in p.sorted_captures()) in offered)
            value = ".".join(c.code for c in twin.sorted_captures())
        result = await actor.select(result.response or message, [value], custom_id=cid)
    return result


async def play_to_end(world: Any, table_id: int, members: dict[int, Any], *, limit: int = 2000,
                      on_turn: Any = None) -> Table:
    """Play the table to the end; each person plays through their DM hand."""
    for _ in range(limit):
        table = table_of(world, table_id)
        if table.status == FINISHED:
            return table
        seat, play = pick_play(table)
        person = table.seats[seat]
        assert person is not None and not person.is_ai, "computer players move by themselves"
        member = members[person.user_id]
        if on_turn is not None:
            await on_turn(table, member, play)
        else:
            await play_through_ui(member, table, play)
    raise AssertionError("the mesa did not end")


async def replay_from_store(world: Any, table: Table) -> Game:
    """The engine's replay of the stored plays from the stored seed."""
    store = world.bot.store
    row = await store.load_table(table.id)
    plays = [Play.parse(card, captures.split()) for _, card, captures in await store.plays(table.id)]
    return Game.replay(Rules.preset(row.preset), row.players, row.seed, plays)


def card_labels() -> list[str]:
    from bot.engine import DECK

    return [str(c) for c in DECK]


def hidden_cards(table: Table) -> set[Card]:
    """Cards in hands or in the stock right now."""
    game = table.game
    assert game is not None
    return {c for hand in game.hands for c in hand} | set(game.stock)


async def double_click(env: Any, user: Any, message: Any, custom_id: str) -> list[Any]:
    """Two clicks on the same button that reach the bot together (a double click): both
    INTERACTION_CREATE events are emitted before the bot runs (`clicks_together`)."""
    from simcord import actors
    from simcord.enums import ComponentType

    stored = actors._visible_message(user, message)
    actors._find_component(stored.components, types=(ComponentType.BUTTON,), custom_id=custom_id, label=None)
    return await clicks_together(env, [(user, message, custom_id)] * 2)


async def clicks_together(env: Any, clicks: list[tuple[Any, Any, str]]) -> list[Any]:
    """Several button clicks ``(user, message, custom_id)`` whose INTERACTION_CREATE events all reach the bot
    before it runs (a double click, a race for the last seat). Built from SimCord's own click path
    (`simcord.actors._component_click`), which dispatches one event and settles."""
    from simcord import actors
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType
    from simcord.results import InteractionResult

    env._begin_operation("clicks_together")
    try:
        backend = env.backend
        records = []
        for user, message, custom_id in clicks:
            stored = actors._visible_message(user, message)
            guild = getattr(user, "guild", None)
            record, payload = actors._interactions.base_payload(
                backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
                guild_id=guild.id if guild is not None else None, user_id=user.id,
                data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
            )
            payload["message"] = dict(serializers.message_payload(backend, stored))
            record.source_message_id = stored.id
            env._notify_dispatch_observers(record)
            backend.emit("INTERACTION_CREATE", payload)
            records.append(record)
        await env._settle_internal(dispatch="INTERACTION_CREATE")
        return [InteractionResult(env, r) for r in records]
    finally:
        env._end_operation()


async def click_raw(env: Any, user: Any, message: Any, custom_id: str, *, component_type: int = 2,
                    values: list[str] | None = None) -> Any:
    """A click that carries ``custom_id`` on ``message`` as the message is now, whether or not the message
    still shows that component: what Discord sends when a user clicks a copy of a message their client
    has not refreshed yet (a double click on a hand being edited, an old copy, an earlier version's
    button). ``component_type`` 2 is a button, 3 a string select (with ``values``). Built from SimCord's
    own click path, minus its "the component must be on the message" check."""
    from simcord import actors
    from simcord.results import InteractionResult

    stored = actors._visible_message(user, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type == 3:
        data["values"] = list(values or [])
    result = await actors._component_interaction(user, stored, data)
    assert isinstance(result, InteractionResult)
    return result


def public_text(message: Any) -> str:
    """Everything a message shows: content, embeds, a layout's texts and alt texts, component labels and
    select options."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
        parts += [f"{f['name']} {f['value']}" for f in data.get("fields", [])]
    parts += layout_texts(message) + alt_texts(message)
    for item in walk(message):
        parts.append(_get(item, "label", None) or "")
        parts += [o.label for o in _get(item, "options", None) or []]
    return "\n".join(parts)


def assert_no_hidden_cards_in_public(world: Any, table: Table) -> None:
    """No message a spectator (eva) can see in the channel names a card now in a hand or the stock, as a
    text label (``7♦``) or as its card emoji (``<:c4_7D:…>``). Messages about hands already over (their
    records, or a table message not yet replaced) are skipped: their cards were played in the open, and
    a new deal holds the same cards again."""
    import re

    hidden = hidden_cards(table)
    for message in world.channel.history(viewer=world.eva):
        title = message.embeds[0].title or "" if message.embeds else "\n".join(alt_texts(message) + layout_texts(message))
        number = re.search(r"\b(?:[Mm]ano|[Hh]and) (\d+)", title)
        if number and int(number[1]) < table.game.hand_number:
            continue
        text = public_text(message)
        shown = [str(c) for c in hidden if str(c) in text or f"c4_{c.code}:" in text]
        assert not shown, f"public message {message.id} shows hidden cards {shown}"


def conserved(table: Table) -> None:
    """The 40-card invariant: every card is in exactly one place (a hand, the table, the stock, a pile, or
    out of play this hand), across leave, kick and substitution."""
    game = table.game
    places = [c for hand in game.hands for c in hand] + list(game.table) + list(game.stock) + list(game.dead)
    places += [c for pile in game.piles for c in pile]
    counts = Counter(places)
    assert sum(counts.values()) == 40 and set(counts) == set(DECK), "each of the 40 cards exactly once"


async def _inline(func: Any, *args: Any) -> Any:
    return func(*args)


LOOKS = {"pictures": True, "card_emojis": True}
"""``make_bot(**LOOKS)``, ``@pytest.mark.simcord_bot(**LOOKS)``: the table picture and the card emojis, as in
production (off in other tests: drawing and uploading them is work no other check needs)."""


production_bot = pytest.mark.simcord_bot(edit_interval=1.0, write_budget=True, offload=_inline, virtual=True)
"""Mark a SimCord test to run on the bot as in production (coalesced edits, write budget), computer moves
inline, the presenter's waits in virtual time (``virtual``: `clocked.VirtualWaits`; the ``simcord_bot``
fixture reads the ``simcord_bot`` mark's options)."""


def table_with(game: Game, preset: str) -> Table:
    """A playing table around ``game`` (no Discord): seats p0, p1 … (user ids 100, 101 …), ``preset``."""
    seats = [Seat(100 + i, f"p{i}") for i in range(game.players)]
    return Table(id=1, guild_id=1, channel_id=1, host_id=100, players=game.players, preset=preset,
                 status="playing", seed="x", seats=seats, game=game)


def slow_down(monkeypatch: Any, owner: Any, name: str, seconds: float = 3.5) -> None:
    """Make ``owner.name`` (a store or repository read) take ``seconds`` first: a busy database."""
    real = getattr(owner, name)

    async def slow(*args, **kwargs):
        await asyncio.sleep(seconds)
        return await real(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)


async def start_1v1(world: Any) -> Table:
    """ana opens a 1 v 1 of quito and beto joins: table #1, started."""
    await world.ana.slash(world.channel, "cuarenta new", players=2, rules="quito")
    await world.beto.slash(world.channel, "cuarenta join")
    return table_of(world, 1)


def member_of(world: Any, table: Table, seat: int) -> Any:
    """ana or beto, whoever sits at ``seat``."""
    return world.ana if table.seats[seat].user_id == world.ana.id else world.beto


async def start_people(world: Any) -> Table:
    """ana opens a 1 v 1 (the server's default preset) and beto joins: table #1, started."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    return table_of(world, 1)


def member_for(world: Any, table: Table, seat: int) -> Any:
    """ana or beto, whoever sits at ``seat`` (StopIteration for anyone else)."""
    user_id = table.seats[seat].user_id
    return next(m for m in (world.ana, world.beto) if m.id == user_id)


async def start_pair(world: Any, channel: Any = None) -> None:
    """ana opens a 1 v 1 in ``channel`` (the world's channel by default) and beto joins."""
    channel = channel or world.channel
    await world.ana.slash(channel, "cuarenta new", players=2)
    await world.beto.slash(channel, "cuarenta join")


def seated_member(table: Table, seat: int, *members: Any) -> Any:
    """The one of ``members`` who sits at ``seat``."""
    uid = table.seats[seat].user_id
    return next(m for m in members if m.id == uid)


def look(message: Any) -> tuple:
    """What everybody sees of a message: its content, its embeds and its components' custom_ids."""
    return (message.content, [e.to_dict() for e in message.embeds], custom_ids(message))


def latest_with(world: Any, custom_id: str) -> Any:
    """The latest channel message carrying a component ``custom_id``."""
    return next(m for m in reversed(world.channel.history()) if custom_id in custom_ids(m))


def texts_of(message) -> list[str]:
    """Every text a player reads in a message (content, embeds, component labels, placeholders and
    options), for discord.py messages and SimCord responses alike."""
    def get(obj, name, default=None):
        return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)

    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        parts += [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
        parts += [f"{f['name']} {f['value']}" for f in data.get("fields", [])]
    parts += layout_texts(message) + alt_texts(message)
    for item in walk(message):
        parts += [get(item, "label") or "", get(item, "placeholder") or ""]
        parts += [get(o, "label") or "" for o in get(item, "options", None) or []]
    return [p for p in parts if p]


def button_labels(message: Any) -> list[str]:
    """The labels of a message's buttons, in order, layouts included."""
    return [_get(item, "label", None) or "" for item in walk(message)
            if _get(item, "type", None) in (2, discord.ComponentType.button)]
