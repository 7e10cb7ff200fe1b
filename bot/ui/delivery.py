"""The message writes of a play, through discord.py's public API.

A play rewrites three messages: the clicker's hand (the click's answer), the next player's hand (through
an interaction token) and the public table message. Each function here is one discord.py call, kept in
one place so that the presenter and the tests share one seam:

- `update_message`: the click's answer, ``InteractionResponse.edit_message`` (UPDATE_MESSAGE, type 7);
- `edit_original`: the message of the click's own response, ``Interaction.edit_original_response``;
- `edit_token_message`, `delete_token_message` and `send_followup`: a message of a click's token from a
  `ClickToken`, which keeps the click's follow-up ``discord.Webhook`` without its interaction (the DM
  hands' writes through a click's token, `bot.ui.hands`). A follow-up is written with the webhook's own
  methods; the click's original message (``@original``) has no public method but the interaction's, so
  it goes through discord.py's webhook adapter (``async_context``), the call
  ``Interaction.edit_original_response`` makes: the one place left outside discord.py's documented API;
- `edit_channel_message`: a message by the bot's token (the table message, with its picture),
  ``PartialMessage.edit``.

Every function takes a `bot.ui.render.Payload` and raises `discord.HTTPException` when Discord refuses.
Their cost against requests built from discord.py's internals is in docs/SCALING.md ("Speed devices kept
and removed").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from .hand_layout import for_token

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
    await interaction.response.edit_message(**payload.edit_kwargs())


@dataclass(frozen=True, slots=True)
class ClickToken:
    """What writing through a click's interaction token needs, without the interaction: the click's
    follow-up webhook (``Interaction.followup``: the application id, the token, valid 15 minutes, and
    discord.py's connection state).

    A ``discord.Interaction`` and its ``InteractionResponse`` refer to each other, so only the garbage
    collector frees one, and one kept for minutes (a DM hand's next writes, `bot.ui.hands`) ends in the
    oldest generation with its message, components and users. This keeps none of that."""

    webhook: discord.Webhook

    @classmethod
    def of(cls, interaction: discord.Interaction) -> ClickToken:
        """The token of ``interaction``."""
        return cls(interaction.followup)


async def edit_original(interaction: discord.Interaction, payload: Payload) -> None:
    """Edit the message of the interaction's own response (or, after a deferred click, its message).

    A media gallery of an upload goes as its alt text (`hand_layout.for_token`: such an edit through the
    token fails, discord-api-docs#7529).

    Raises:
        discord.HTTPException: Discord refused the edit (the token expired: 401 / 404).
    """
    await interaction.edit_original_response(**for_token(payload).edit_kwargs())


async def edit_token_message(click: ClickToken, message_id: int | None, payload: Payload) -> None:
    """Edit a message of a click's token: its original response (``message_id`` None: after a deferred
    click or an UPDATE_MESSAGE answer, the component's own message) or a follow-up it sent. A media
    gallery of an upload goes as its alt text (`hand_layout.for_token`, discord-api-docs#7529).

    Raises:
        discord.HTTPException: Discord refused the edit (the token expired: 401 / 404).
    """
    payload = for_token(payload)
    webhook = click.webhook
    if message_id is not None:
        await webhook.edit_message(message_id, **payload.edit_kwargs())
        return
    # discord.py edits an original response only through the ``Interaction`` (``edit_original_response``),
    # which this token does not keep: the same request, through discord.py's webhook adapter
    with handle_message_parameters(**payload.edit_kwargs()) as params:
        await async_context.get().edit_original_interaction_response(
            webhook.id, webhook.token or "", session=webhook.session, proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files)


async def delete_token_message(click: ClickToken, message_id: int | None) -> None:
    """Delete a message of a click's token: its original response (``message_id`` None) or a follow-up.

    Raises:
        discord.HTTPException: Discord refused (the message is gone: 404 / 10008; the token expired).
    """
    webhook = click.webhook
    if message_id is not None:
        await webhook.delete_message(message_id)
        return
    await async_context.get().delete_original_interaction_response(  # as `edit_token_message`
        webhook.id, webhook.token or "", session=webhook.session, proxy=webhook.proxy, proxy_auth=webhook.proxy_auth)


async def send_followup(click: ClickToken, payload: Payload, *, silent: bool = False) -> int:
    """Send ``payload`` as a new message through a click's token (a follow-up: in a DM, a new DM message,
    which notifies, unless ``silent``: the message flag SUPPRESS_NOTIFICATIONS); returns the new message's id.

    Raises:
        discord.HTTPException: Discord refused the message.
    """
    message = await click.webhook.send(**payload.send_kwargs(), wait=True, silent=silent)
    return message.id


async def edit_channel_message(client: discord.Client, channel_id: int, message_id: int, payload: Payload) -> None:
    """Edit a message the bot sent in a channel (with the bot's token).

    Raises:
        discord.HTTPException: Discord refused the edit (10008 the message is gone, 30046 too old …).
    """
    message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
    await message.edit(**payload.edit_kwargs())


__all__ = ["NETWORK_ERRORS", "ClickToken", "delete_token_message", "edit_channel_message", "edit_original",
           "edit_token_message", "send_followup", "update_message"]
