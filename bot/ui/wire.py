"""The edits every play makes, sent through discord.py's own request code, without the objects discord.py
builds from Discord's answer (issue 13).

A play rewrites three messages: the clicker's hand (the click's answer), the next player's hand (through
an interaction token) and the public table message. discord.py's ``edit_message``, ``edit_original_response``
and ``PartialMessage.edit`` turn Discord's answer (the whole message) into a ``Message`` with its author,
embeds and components, and ask for that answer even where Discord need not send it; the bot never reads
it. These functions build the same request (discord.py's ``handle_message_parameters`` and
``interaction_message_response_params``), send it through the same adapters (so the rate limits, retries
and errors are discord.py's), and return nothing:

- `update_message`: the click's answer, UPDATE_MESSAGE (type 7), without ``with_response`` (Discord answers
  204 and sends no message back), then marks the interaction answered as discord.py does;
- `edit_original` / `edit_followup`: a message of the click's token;
- `edit_channel_message`: a message by the bot's token (the table message, with its picture).

Every function takes a `bot.ui.render.Payload` and raises `discord.HTTPException` when Discord refuses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

if TYPE_CHECKING:
    from .render import Payload


async def update_message(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer a component click by showing ``payload`` in place of its message (UPDATE_MESSAGE).

    Raises:
        discord.InteractionResponded: the interaction was already answered.
        discord.HTTPException: Discord refused the answer (then the interaction stays unanswered).
    """
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state  # noqa: SLF001 - discord.py's own answer reads the same
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback",
                  webhook_id=interaction.id, webhook_token=interaction.token)
    http = state.http
    adapter = async_context.get()
    with interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value, **payload.edit_kwargs(),
            previous_allowed_mentions=state.allowed_mentions) as params:
        if params.files:
            await adapter.request(route, session=interaction._session, proxy=http.proxy,  # noqa: SLF001
                                  proxy_auth=http.proxy_auth, files=params.files, multipart=params.multipart)
        else:
            await adapter.request(route, session=interaction._session, proxy=http.proxy,  # noqa: SLF001
                                  proxy_auth=http.proxy_auth, payload=params.payload)
    response._response_type = discord.InteractionResponseType.message_update  # noqa: SLF001 - as discord.py


async def edit_original(interaction: discord.Interaction, payload: Payload) -> None:
    """Edit the message of the interaction's own response (or, after a deferred click, its message).

    Raises:
        discord.HTTPException: Discord refused the edit (the token expired: 401 / 404).
    """
    state = interaction._state  # noqa: SLF001
    with handle_message_parameters(**payload.edit_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        http = state.http
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session,  # noqa: SLF001
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart,
            files=params.files)


async def edit_followup(interaction: discord.Interaction, message_id: int, payload: Payload) -> None:
    """Edit a follow-up message sent with the interaction's token.

    Raises:
        discord.HTTPException: Discord refused the edit.
    """
    state = interaction._state  # noqa: SLF001
    with handle_message_parameters(**payload.edit_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        http = state.http
        await async_context.get().edit_webhook_message(
            interaction.application_id, interaction.token, message_id, session=interaction._session,  # noqa: SLF001
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart,
            files=params.files, with_components=payload.view is not None)


async def edit_channel_message(client: discord.Client, channel_id: int, message_id: int, payload: Payload) -> None:
    """Edit a message the bot sent in a channel (with the bot's token).

    Raises:
        discord.HTTPException: Discord refused the edit (10008 the message is gone, 30046 too old …).
    """
    state = client._connection  # noqa: SLF001
    with handle_message_parameters(**payload.edit_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


__all__ = ["edit_channel_message", "edit_followup", "edit_original", "update_message"]
