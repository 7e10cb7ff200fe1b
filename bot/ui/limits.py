"""Discord's payload limits, checked before anything is sent (the renderer fits text to them).

Limits (Discord API): content 2000; embed title 256, description 4096, field name 256, field value 1024,
25 fields, footer 2048, total 6000; 5 action rows of 5 buttons; button label 80; custom_id 100; select
options 25, option label/value/description 100, placeholder 150. A Components V2 layout (a message with the
``IS_COMPONENTS_V2`` flag: no content, no embeds): at most 40 components in all (nested ones counted),
4000 characters of text displays in all, a media gallery of 1 to 10 items, an alt text (``description``)
of at most 1024 characters, a section of 1 to 3 text displays.
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
LAYOUT_COMPONENTS = 40
LAYOUT_TEXT = 4000
GALLERY_ITEMS = 10
ALT_TEXT = 1024
SECTION_TEXTS = 3


class PayloadLimitError(ValueError):
    """A message would break one of Discord's limits (a renderer bug)."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_message(content: str | None = None, embed: discord.Embed | None = None,
                  view: discord.ui.View | discord.ui.LayoutView | Components | None = None) -> None:
    """Check a message against Discord's limits (a `discord.ui.LayoutView` is a Components V2 message:
    nothing beside it).

    Raises:
        PayloadLimitError: naming the first limit broken.
    """
    if view is not None and (isinstance(view, discord.ui.LayoutView) or view.has_components_v2()):
        if content is not None or embed is not None:
            raise PayloadLimitError("a Components V2 message has no content or embed")
        check_layout(view.to_components())
        return
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


def check_layout(components: list[dict]) -> None:
    """Check a Components V2 layout (Discord's JSON) against the limits in the module docstring; its action
    rows as `check_message` checks classic ones.

    Raises:
        PayloadLimitError: naming the first limit broken.
    """
    count = 0
    text = 0
    rows: list[dict] = []
    stack = list(components)
    while stack:
        component = stack.pop()
        count += 1
        kind = component.get("type")
        if kind == 1:
            rows.append(component)
            count += len(component.get("components", []))
            continue
        if kind == 10:
            text += len(component.get("content") or "")
        elif kind == 12:
            items = component.get("items") or []
            if not 1 <= len(items) <= GALLERY_ITEMS:
                raise PayloadLimitError(f"a media gallery of {len(items)} items (1 to {GALLERY_ITEMS})")
            for item in items:
                if len(item.get("description") or "") > ALT_TEXT:
                    raise PayloadLimitError("alt text too long")
        elif kind == 11 and len(component.get("description") or "") > ALT_TEXT:
            raise PayloadLimitError("alt text too long")
        elif kind == 9:
            if not 1 <= len(component.get("components") or []) <= SECTION_TEXTS:
                raise PayloadLimitError("a section holds 1 to 3 text displays")
            accessory = component.get("accessory")
            if accessory is not None:
                stack.append(accessory)
        if kind != 12:  # a gallery's children are its items, checked above
            stack.extend(component.get("components") or [])
    if count > LAYOUT_COMPONENTS:
        raise PayloadLimitError(f"{count} components (max {LAYOUT_COMPONENTS})")
    if text > LAYOUT_TEXT:
        raise PayloadLimitError(f"{text} characters of text displays (max {LAYOUT_TEXT})")
    for row in rows:
        _check_components([row])


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
