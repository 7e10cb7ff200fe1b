"""Discord's limits on a Components V2 message, checked before it is sent (`bot.ui.limits`), and the
payload of one (`bot.ui.render.Payload`)."""

from __future__ import annotations

import discord
import pytest

from bot.ui.limits import PayloadLimitError, check_layout
from bot.ui.render import Payload


def _layout(*children: discord.ui.Item) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children, accent_colour=discord.Colour(0x3B82F6)))
    return view


def _gallery(description: str) -> discord.ui.MediaGallery:
    return discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://mesa.png", description=description))


def test_a_layout_payload_sends_its_view_and_files_and_no_content_or_embed():
    payload = Payload(view=_layout(discord.ui.TextDisplay("¡Te toca!"), _gallery("Mesa: 3♦")),
                      files=[("mesa.png", b"png")])
    assert payload.layout
    sent = payload.send_kwargs()
    assert "content" not in sent and "embed" not in sent and sent["view"] is payload.view
    edit = payload.edit_kwargs()
    assert set(edit) == {"view", "attachments", "allowed_mentions"}
    assert [f.filename for f in edit["attachments"]] == ["mesa.png"]
    body = payload.view.to_components()
    assert body[0]["type"] == 17 and body[0]["accent_color"] == 0x3B82F6
    assert [c["type"] for c in body[0]["components"]] == [10, 12]


def test_an_embed_payload_is_not_a_layout_and_its_edit_clears_content_and_embeds():
    payload = Payload(content="hola")
    assert not payload.layout
    assert payload.edit_kwargs()["embeds"] == []


def test_a_layout_with_content_or_an_embed_is_refused():
    with pytest.raises(PayloadLimitError):
        Payload(content="hola", view=_layout(discord.ui.TextDisplay("x")))
    with pytest.raises(PayloadLimitError):
        Payload(embed=discord.Embed(title="x"), view=_layout(discord.ui.TextDisplay("x")))


def test_layout_limits_alt_text_text_total_and_component_count():
    check_layout(_layout(_gallery("a" * 1024)).to_components())
    with pytest.raises(PayloadLimitError, match="alt text"):
        check_layout(_layout(_gallery("a" * 1025)).to_components())
    with pytest.raises(PayloadLimitError, match="characters of text"):
        check_layout(_layout(*(discord.ui.TextDisplay("a" * 1000) for _ in range(5))).to_components())
    with pytest.raises(PayloadLimitError, match="components"):
        check_layout([{"type": 17, "components": [{"type": 10, "content": "a"} for _ in range(40)]}])
    row = discord.ui.ActionRow(discord.ui.Button(label="x" * 81, custom_id="c4:x"))
    with pytest.raises(PayloadLimitError, match="label"):
        check_layout(_layout(row).to_components())


def test_a_text_payload_as_a_layout_keeps_its_words_and_buttons():
    from bot.ui.render import as_layout, make_view

    embed = discord.Embed(title="Mesa #1", description="Se cerró.")
    view = make_view([discord.ui.Button(label="Revancha", custom_id="c4:r:1")])
    layout = as_layout(Payload(content="Hola", embed=embed, view=view))
    text, row = layout.view.to_components()
    assert text["type"] == 10 and text["content"] == "Hola\n**Mesa #1**\nSe cerró."
    assert row["type"] == 1 and row["components"][0]["custom_id"] == "c4:r:1"
    assert layout.layout and layout.content is None and layout.embed is None
