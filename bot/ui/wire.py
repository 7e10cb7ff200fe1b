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
- `edit_original`: the message of the click's own response; `edit_token_message`, `delete_token_message`
  and `send_followup`: a message of a click's token from a `ClickToken`, which keeps the token without its
  interaction (the DM hands' writes through a click's token, `bot.ui.hands`);
- `edit_channel_message`: a message by the bot's token (the table message, with its picture).

Every function takes a `bot.ui.render.Payload` and raises `discord.HTTPException` when Discord refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

if TYPE_CHECKING:
    from .render import Payload


NETWORK_ERRORS = (aiohttp.ClientError, TimeoutError, OSError)
"""Errors of a request that never got Discord's answer (a dropped connection, a timeout): worth trying
again. Discord's own refusals are `discord.HTTPException`."""


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


@dataclass(frozen=True, slots=True)
class ClickToken:
    """What writing through a click's interaction token needs, without the interaction: the application
    id, the token (a str, valid 15 minutes), discord.py's connection state and HTTP session.

    A ``discord.Interaction`` and its ``InteractionResponse`` refer to each other, so only the garbage
    collector frees one, and one kept for minutes (a DM hand's next writes, `bot.ui.hands`) ends in the
    oldest generation with its message, components and users. This keeps none of that."""

    application_id: int
    token: str
    state: Any
    session: Any

    @classmethod
    def of(cls, interaction: discord.Interaction) -> ClickToken:
        """The token of ``interaction``."""
        return cls(interaction.application_id, interaction.token, interaction._state,  # noqa: SLF001
                   interaction._session)  # noqa: SLF001


async def edit_original(interaction: discord.Interaction, payload: Payload) -> None:
    """Edit the message of the interaction's own response (or, after a deferred click, its message).

    Raises:
        discord.HTTPException: Discord refused the edit (the token expired: 401 / 404).
    """
    await edit_token_message(ClickToken.of(interaction), None, payload)


async def edit_token_message(click: ClickToken, message_id: int | None, payload: Payload) -> None:
    """Edit a message of a click's token: its original response (``message_id`` None: after a deferred
    click or an UPDATE_MESSAGE answer, the component's own message) or a follow-up it sent.

    Raises:
        discord.HTTPException: Discord refused the edit (the token expired: 401 / 404).
    """
    state = click.state
    http = state.http
    adapter = async_context.get()
    with handle_message_parameters(**payload.edit_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        if message_id is None:
            await adapter.edit_original_interaction_response(
                click.application_id, click.token, session=click.session, proxy=http.proxy,
                proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files)
        else:
            await adapter.edit_webhook_message(
                click.application_id, click.token, message_id, session=click.session, proxy=http.proxy,
                proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart,
                files=params.files, with_components=payload.view is not None)


async def delete_token_message(click: ClickToken, message_id: int | None) -> None:
    """Delete a message of a click's token: its original response (``message_id`` None) or a follow-up.

    Raises:
        discord.HTTPException: Discord refused (the message is gone: 404 / 10008; the token expired).
    """
    http = click.state.http
    adapter = async_context.get()
    if message_id is None:
        await adapter.delete_original_interaction_response(click.application_id, click.token, session=click.session,
                                                           proxy=http.proxy, proxy_auth=http.proxy_auth)
    else:
        await adapter.delete_webhook_message(click.application_id, click.token, message_id, session=click.session,
                                             proxy=http.proxy, proxy_auth=http.proxy_auth)


async def send_followup(click: ClickToken, payload: Payload) -> int:
    """Send ``payload`` as a new message through a click's token (a follow-up: in a DM, a new DM message,
    which notifies); returns the new message's id.

    Raises:
        discord.HTTPException: Discord refused the message.
    """
    state = click.state
    http = state.http
    with handle_message_parameters(**payload.send_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        data = await async_context.get().execute_webhook(
            click.application_id, click.token, session=click.session, proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files, wait=True,
            with_components=payload.view is not None)
    return int(data["id"])  # type: ignore[index]


async def edit_channel_message(client: discord.Client, channel_id: int, message_id: int, payload: Payload) -> None:
    """Edit a message the bot sent in a channel (with the bot's token).

    Raises:
        discord.HTTPException: Discord refused the edit (10008 the message is gone, 30046 too old …).
    """
    state = client._connection  # noqa: SLF001
    with handle_message_parameters(**payload.edit_kwargs(), previous_allowed_mentions=state.allowed_mentions) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


__all__ = ["ClickToken", "delete_token_message", "edit_channel_message", "edit_original",
           "edit_token_message", "send_followup", "update_message"]
