"""Discord's payload limits, checked before anything is sent (the renderer fits text to them).

Limits (Discord API): content 2000; embed title 256, description 4096, field name 256, field value 1024,
25 fields, footer 2048, total 6000; 5 action rows of 5 buttons; button label 80; custom_id 100; select
options 25, option label/value/description 100, placeholder 150.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from .components import Components

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FIELDS = 25
FOOTER = 2048
EMBED_TOTAL = 6000
ROWS = 5
ROW_BUTTONS = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150


class PayloadLimitError(ValueError):
    """A message would break one of Discord's limits (a renderer bug)."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_message(content: str | None = None, embed: discord.Embed | None = None,
                  view: discord.ui.View | Components | None = None) -> None:
    """Check a message against Discord's limits.

    Raises:
        PayloadLimitError: naming the first limit broken.
    """
    if content is not None and len(content) > CONTENT:
        raise PayloadLimitError(f"content has {len(content)} characters (max {CONTENT})")
    if embed is not None:
        _check_embed(embed)
    if view is not None:
        _check_components(view.to_components())


def _check_embed(embed: discord.Embed) -> None:
    if embed.title and len(embed.title) > EMBED_TITLE:
        raise PayloadLimitError("embed title too long")
    if embed.description and len(embed.description) > EMBED_DESCRIPTION:
        raise PayloadLimitError("embed description too long")
    if len(embed.fields) > FIELDS:
        raise PayloadLimitError("too many embed fields")
    for field in embed.fields:
        if len(field.name or "") > FIELD_NAME or len(field.value or "") > FIELD_VALUE:
            raise PayloadLimitError(f"embed field {field.name!r} too long")
    if embed.footer and embed.footer.text and len(embed.footer.text) > FOOTER:
        raise PayloadLimitError("embed footer too long")
    if len(embed) > EMBED_TOTAL:
        raise PayloadLimitError(f"embed has {len(embed)} characters (max {EMBED_TOTAL})")


def _check_components(rows: list[dict]) -> None:
    if len(rows) > ROWS:
        raise PayloadLimitError(f"{len(rows)} action rows (max {ROWS})")
    for row in rows:
        items = row.get("components", [])
        if len(items) > ROW_BUTTONS:
            raise PayloadLimitError(f"{len(items)} components in a row (max {ROW_BUTTONS})")
        for item in items:
            if len(item.get("custom_id") or "") > CUSTOM_ID:
                raise PayloadLimitError(f"custom_id too long: {item.get('custom_id')!r}")
            if len(item.get("label") or "") > BUTTON_LABEL:
                raise PayloadLimitError("button label too long")
            if len(item.get("placeholder") or "") > PLACEHOLDER:
                raise PayloadLimitError("placeholder too long")
            options = item.get("options") or []
            if len(options) > SELECT_OPTIONS:
                raise PayloadLimitError(f"{len(options)} select options (max {SELECT_OPTIONS})")
            for option in options:
                for key in ("label", "value", "description"):
                    if len(option.get(key) or "") > OPTION_TEXT:
                        raise PayloadLimitError(f"select option {key} too long")
