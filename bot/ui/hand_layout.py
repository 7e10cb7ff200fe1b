"""The hand as a Components V2 message (DM and ephemeral): one screen to play on a phone.

The hand's words and controls are `render.hand_payload`'s; this lays them out in one container (its
accent the colour of the side to play) and, at the player's own turn, adds the table drawn
(`bot.ui.dm_picture`: the table cards, the card a caída can take ringed) in a media gallery whose alt
text is the table in words, so a player never switches to the channel to see it.

When the drawing is shown. A media gallery of an uploaded file cannot be *edited into* a message through
an interaction token (``PATCH /webhooks/{app}/{token}/messages/…``: Discord answers 400,
discord-api-docs#7529); the interaction's own answer, a follow-up and the bot's token are fine. The
drawing is shown at the player's turn only (what they choose from; between turns the text says the
table), so it travels only on writes that allow it: a new hand message (the turn alert, by the bot's
token or as a follow-up), the player's own click answered in place (a capture menu), or the bot's
token's edit; `bot.ui.hands` sends a quiet follow-up rather than a token edit at that turn. `for_token`
is the safety net of every token edit: a gallery of an upload becomes its alt text.

Cost (bench/render.py "DM picture"; bench/loopback.py, 50 tables of 1 v 1 people, fast): a drawing takes
0.7 ms (p95 1.1 ms) and weighs about 29 KB (at most about 86 KB); the hands' writes then cost about 3 ms
more CPU per play in the bot (9.0 ms per play with its workers, against 5.9 without the drawing), most of
it the quiet follow-up and the deletion that replace one token edit; bot-token calls per play are
unchanged (0.87 against 0.85). With the bot's ``pictures`` setting off, hands say the table in words.

Hidden information: built from ``game.view(seat)`` for the hand's own seat; the drawing and its alt text
hold the table cards only.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Card, GameView
from bot.i18n import t
from bot.tables import PLAYING, Choice, Table

from . import components, dm_picture, limits, render
from .faces import CardFaces


def caida_card(view: GameView) -> Card | None:
    """The table card a caída can take for the view's seat: the card the seat just before it trailed, when
    it is still on the table (None otherwise, and for a spectator's view)."""
    trail = view.last_trail
    if view.seat is None or trail is None or trail not in view.table:
        return None
    return trail if view.last_trail_seat == (view.seat - 1) % view.players else None


def alt_text(view: GameView, lang: str) -> str:
    """The drawing in words (its alt text): the table cards as text labels, then the card a caída can take.
    At most `limits.ALT_TEXT` characters."""
    lines = [t("dm.table", lang, cards=CardFaces.TEXT.cards(view.table) if view.table else t("table.empty", lang))]
    trail = caida_card(view)
    if trail is not None:
        lines.append(t("dm.alt_caida", lang, card=str(trail)))
    return limits.clip("\n".join(lines), limits.ALT_TEXT)


def drawn(table: Table, view: GameView) -> bool:
    """Whether the hand of ``view`` shows the table drawn: at its seat's turn in play, with cards on the
    table (an empty table is said in words)."""
    return table.status == PLAYING and view.my_turn and bool(view.table)


def hand_layout(table: Table, seat: int, view: GameView, lang: str, *, choice: Choice | None = None,
                page: int = 0, final: str | None = None, faces: CardFaces = CardFaces.TEXT,
                picture: bool = True) -> render.Payload:
    """The hand of ``seat`` (``view`` is ``game.view(seat)``) as a Components V2 message: the words of
    `render.hand_payload` in a text display, then (when `drawn`, and ``picture``) the table drawn in a
    media gallery, the file `dm_picture.PICTURE_NAME`, its alt text `alt_text` (the words then say no
    "on the table" line: the picture and its alt text do), then the card buttons, the trail control or
    the capture menu, and the link to the table. ``picture`` False: the table in words instead (a write
    that cannot carry an upload).

    Raises:
        PayloadLimitError: a renderer bug (`bot.ui.limits`).
    """
    image = (dm_picture.draw_table([c.code for c in view.table], _code(caida_card(view)), t("pic.trail", lang))
             if picture and drawn(table, view) else None)
    classic = render.hand_payload(table, seat, view, lang, choice=choice, page=page, final=final, faces=faces,
                                  table_line=image is None)
    inner: list[components.JSON] = [_text(classic.content or "·")]
    files: list[tuple[str, bytes]] = []
    if image is not None:
        inner.append(_gallery(dm_picture.PICTURE_NAME, alt_text(view, lang)))
        files.append((dm_picture.PICTURE_NAME, image))
    if classic.view is not None:
        inner.extend(classic.view.to_components())
    side = view.to_play % 2 if view.to_play is not None else (view.team or 0)
    container = {"type": 17, "accent_color": render.SIDE_COLOURS[side].value, "components": inner}
    return render.Payload(view=components.Layout([container]), files=files)


def hand_like(message_is_layout: bool, table: Table, seat: int, view: GameView, lang: str,
              **kwargs: Any) -> render.Payload:
    """The hand in the kind of the message it replaces: a Components V2 layout (`hand_layout`) for a V2
    message, else the classic content message (`render.hand_payload`): Discord keeps a message's kind."""
    if message_is_layout:
        return hand_layout(table, seat, view, lang, **kwargs)
    kwargs.pop("picture", None)
    return render.hand_payload(table, seat, view, lang, **kwargs)


def for_token(payload: render.Payload) -> render.Payload:
    """``payload`` as an edit through an interaction token can carry it: every media gallery of an upload
    (``attachment://``) replaced by a text display of its alt text, and no files (discord-api-docs#7529).
    Any other payload is returned as it is."""
    if not payload.layout or not payload.files or payload.view is None:
        return payload
    return render.Payload(view=components.Layout([_without_uploads(c) for c in payload.view.to_components()]))


def _without_uploads(component: components.JSON) -> components.JSON:
    if component.get("type") == 12 and any(str(item.get("media", {}).get("url", "")).startswith("attachment://")
                                           for item in component.get("items") or []):
        alt = "\n".join(item.get("description") or "" for item in component["items"]).strip()
        return _text(alt or "·")
    if "components" in component and component.get("type") != 1:
        return {**component, "components": [_without_uploads(c) for c in component["components"]]}
    return component


def _text(content: str) -> components.JSON:
    return {"type": 10, "content": limits.clip(content, limits.LAYOUT_TEXT // 2)}


def _gallery(name: str, alt: str) -> components.JSON:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}, "description": alt}]}


def _code(card: Card | None) -> str | None:
    return card.code if card is not None else None


__all__ = ["alt_text", "caida_card", "drawn", "for_token", "hand_layout", "hand_like"]
