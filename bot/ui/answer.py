"""Answering an interaction exactly once, and always within Discord's 3 seconds.

Discord drops an interaction that gets no initial response within 3 s ("This interaction failed"). A
click usually answers in milliseconds, but a busy event loop or a slow database write can hold it up.
`watchdog` runs beside the handler: if no answer has started after `ACK_DEADLINE` seconds, it
acknowledges the interaction (a deferred update for a click, a deferred ephemeral "thinking" for a
command), and the handler's own answer then arrives as the follow-up or the edit of that response.

Every answer goes through `reply`, `edit` or `acknowledge`, which take one lock per interaction, so the
watchdog and the handler never both send an initial response (Discord would refuse the second, 40060).
The first of them to answer calls the interaction's `ON_ANSWERED` hook, if one was set when it arrived
(the metrics time each interaction from its receipt to that answer, `bot.ops.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord

from bot.i18n import COMMAND_LANG, DEFAULT_LANG, lang_of

from . import delivery

log = logging.getLogger(__name__)

ACK_DEADLINE = 2.5
"""Seconds after which an interaction that has no answer yet is acknowledged (Discord allows 3)."""

ON_ANSWERED = "c4_on_answered"
"""The key of ``interaction.extras`` under which a callable with no argument waits for the interaction's
initial response (an answer or an acknowledgement): called once, when that response was sent."""


def _answered(interaction: discord.Interaction) -> None:
    """The initial response was sent: call the `ON_ANSWERED` hook, once."""
    hook = interaction.extras.pop(ON_ANSWERED, None)
    if hook is not None:
        hook()


async def language(interaction: discord.Interaction) -> str:
    """The language to answer ``interaction`` in: the user's Discord locale when we have its catalog
    (es-*, en-*, pt-BR), else the server's public language (``/cuarenta idioma``; Spanish by default). A
    click in a DM has no server: the server of the table the user sits at is used. The server's language is
    read from the store the first time (a cached value after that): call this inside `watchdog`. A read
    that fails is logged and Spanish is used; this never raises."""
    fallback = DEFAULT_LANG
    tables = getattr(interaction.client, "tables", None)
    guild_id = interaction.guild_id
    if not guild_id and tables is not None:  # a click in a DM: the server of the table the user sits at
        seated = tables.table_of_user(interaction.user.id)
        guild_id = seated.guild_id if seated is not None else None
    if guild_id and tables is not None:
        try:
            fallback = await tables.public_language(guild_id)
        except Exception as exc:  # noqa: BLE001 - a store that fails here must not cost the answer itself
            log.warning("interaction %s: the server's language could not be read (%s); using %s",
                        interaction.id, type(exc).__name__, fallback)
    COMMAND_LANG.set(lang_of(interaction.locale, "en"))  # the command names this user's client shows
    return lang_of(interaction.locale, fallback)


def answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock every answer to ``interaction`` holds while it is sent (hold it to wait for an answer
    in progress, e.g. before writing through the interaction's token)."""
    return _lock(interaction)


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    lock = interaction.extras.get("c4_answer_lock")
    if lock is None:
        lock = interaction.extras["c4_answer_lock"] = asyncio.Lock()
    return lock


async def reply(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                **kwargs: Any) -> None:
    """Send a message in answer: the initial response, or a follow-up once the interaction was answered
    or acknowledged. ``kwargs`` are those of ``send_message`` (embed, view, files, allowed_mentions).

    Raises:
        discord.HTTPException: Discord refused the message.
    """
    async with _lock(interaction):
        if interaction.response.is_done():
            # discord.py sends a None content as none, though its signature says str
            await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)  # type: ignore[arg-type]
        else:
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
            _answered(interaction)


async def edit_own(interaction: discord.Interaction, payload: Any) -> None:
    """Show ``payload`` (a `bot.ui.render.Payload`) in place of the component's message when that message
    is the user's own ephemeral one (a guide page, a replay step, the house-rules editor); on any other
    message (a stale or forged custom_id pressed on a public or DM message) answer with a new ephemeral
    message instead, so that nobody else's message ever changes.

    Raises:
        discord.HTTPException: Discord refused the answer.
    """
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await edit(interaction, **payload.edit_kwargs())
    else:
        await reply(interaction, **payload.send_kwargs())


async def edit(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component is on (the DM or ephemeral hand), as the initial response or, once
    the click was acknowledged, as the edit of that message. ``kwargs`` are those of ``edit_message``.

    Raises:
        discord.HTTPException: Discord refused the edit.
    """
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            _answered(interaction)
        else:  # after a deferred update, the "original response" is the component's own message
            await interaction.edit_original_response(**kwargs)


async def show(interaction: discord.Interaction, payload: Any) -> None:
    """Show ``payload`` (a `bot.ui.render.Payload`, a hand) in place of the message a component is on, as
    `edit` does, through `bot.ui.delivery` (discord.py's public calls, one seam for a play's hot
    path), when that message is private: in a DM or ephemeral. On any other message (a hand's custom_id
    pressed on the public table message: stale, foreign or forged) the hand is a new ephemeral message, so
    that no hand ever shows in a channel.

    Raises:
        discord.HTTPException: Discord refused the answer.
    """
    message = interaction.message
    if message is not None and interaction.guild_id is not None and not message.flags.ephemeral:
        await reply(interaction, **payload.send_kwargs())
        return
    async with _lock(interaction):
        if not interaction.response.is_done():
            await delivery.update_message(interaction, payload)
            _answered(interaction)
        else:  # after a deferred update, the "original response" is the component's own message
            await delivery.edit_original(interaction, payload)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge without a message (a click where nothing needs saying); nothing if already answered."""
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()
            _answered(interaction)


async def _keep_alive(interaction: discord.Interaction, after: float, started: asyncio.Event,
                      ephemeral: bool = True) -> None:
    await asyncio.sleep(after)
    started.set()  # from here on the acknowledgement is not cancelled half-way
    async with _lock(interaction):
        if interaction.response.is_done():
            return
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
            _answered(interaction)
            log.info("interaction %s: acknowledged after %.1f s, the answer follows", interaction.id, after)
        except discord.HTTPException as exc:
            log.info("interaction %s: could not acknowledge (%s %s)", interaction.id, exc.status, exc.code)


@contextlib.asynccontextmanager
async def watchdog(interaction: discord.Interaction, after: float = ACK_DEADLINE, *,
                   ephemeral: bool = True) -> AsyncIterator[None]:
    """Run the body with the 3-second guard beside it (see the module docstring). A command acknowledged by
    the guard shows "thinking" to the user alone, or to the channel with ``ephemeral=False`` (a command
    whose answer is public: the answer then replaces that message, so it stays public)."""
    started = asyncio.Event()
    task = asyncio.ensure_future(_keep_alive(interaction, after, started, ephemeral))
    try:
        yield
    finally:
        if not started.is_set():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
