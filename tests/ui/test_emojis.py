"""The card emojis (`bot.ui.emojis.CardEmojis`) against SimCord's application-emoji routes: created once
by name, looked up for buttons and text, and a clean fallback to text when Discord refuses."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.engine import ALL_CARDS, Card, CardError
from bot.ui.emojis import CardEmojis

EMOJIS = "/applications/*/emojis"


def posts(env, since: int = 0) -> list:
    return [r for r in env.http_requests[since:] if r.method == "POST" and r.path.rstrip("/").endswith("/emojis")]


def app_emoji_names(env) -> list[str]:
    return sorted(e.name for e in env.backend.application_emojis.values())


@pytest.fixture
def app(env):
    """The environment with no application emoji yet (whatever the bot made when it started is removed),
    so each test starts from a known set."""
    env.backend.application_emojis.clear()
    return env


async def test_sync_creates_the_42_cards_once_and_a_second_sync_creates_nothing(app):
    """The 40 cards and the two jokers of the comodines variant (``c4_W1``, ``c4_W2``)."""
    env = app
    emojis = CardEmojis()
    assert not emojis.available and emojis.get("7D") is None

    cursor = len(env.http_requests)
    assert await emojis.sync(env.bot) is True
    created = posts(env, cursor)
    assert len(created) == 42
    names = app_emoji_names(env)
    assert names == sorted(f"c4_{c.code}" for c in ALL_CARDS)
    assert len(names) == len(set(names)), "an emoji name was created twice"
    for request in created:  # what Discord receives: a name and a PNG data URI
        assert request.json["name"].startswith("c4_") and 2 <= len(request.json["name"]) <= 32
        assert request.json["image"].startswith("data:image/png;base64,")

    cursor = len(env.http_requests)
    assert await emojis.sync(env.bot) is True
    assert posts(env, cursor) == []
    assert await CardEmojis().sync(env.bot) is True  # a fresh mapping (a restart) finds them by name
    assert posts(env, cursor) == []
    assert len(app_emoji_names(env)) == len(names)

    assert emojis.available and len(emojis) == 42
    emoji = emojis.get("7D")
    assert isinstance(emoji, discord.PartialEmoji) and emoji.name == "c4_7D" and emoji.id
    assert emojis.get(Card.parse("7♦").code) == emoji
    assert emojis.inline("7D") == f"<:c4_7D:{emoji.id}>"
    assert emojis.inline("as") == f"<:c4_AS:{emojis.get('AS').id}>"
    button = discord.ui.Button(label="7", emoji=emojis.get("7D"))
    assert int(button.to_component_dict()["emoji"]["id"]) == emoji.id


async def test_sync_keeps_other_emojis_and_creates_only_the_missing_cards(app):
    env = app
    env.backend.create_application_emoji("logo")
    env.backend.create_application_emoji("c4_KS")
    emojis = CardEmojis()
    cursor = len(env.http_requests)
    assert await emojis.sync(env.bot) is True
    assert len(posts(env, cursor)) == 41
    assert app_emoji_names(env).count("c4_KS") == 1 and "logo" in app_emoji_names(env)


@pytest.mark.parametrize(("status", "code"), [(403, 50013), (404, 10014), (404, 0)])
async def test_a_refused_listing_leaves_text_cards(app, caplog, status, code):
    env = app
    env.inject_error("GET", EMOJIS, status=status, code=code, times=None)
    emojis = CardEmojis()
    cursor = len(env.http_requests)
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await emojis.sync(env.bot) is False
    assert posts(env, cursor) == [], "nothing is created blind when the listing fails"
    assert not emojis.available and len(emojis) == 0
    assert emojis.get("7D") is None
    assert emojis.inline("7D") == "7♦"
    assert emojis.inline("KH") == "K♥"
    messages = [r.getMessage() for r in caplog.records if r.name == "bot.ui.emojis"]
    assert any(str(status) in m for m in messages)


async def test_a_refused_creation_keeps_a_partial_mapping_without_raising(app, caplog):
    env = app
    env.backend.create_application_emoji("c4_AS")
    env.backend.create_application_emoji("c4_7D")
    env.inject_error("POST", EMOJIS, status=403, code=50013, times=None)
    emojis = CardEmojis()
    with caplog.at_level(logging.INFO, logger="bot"):
        assert await emojis.sync(env.bot) is False
    assert len(emojis) == 2 and not emojis.available
    assert emojis.get("7D") is not None and emojis.inline("7D").startswith("<:c4_7D:")
    assert emojis.get("KH") is None and emojis.inline("KH") == "K♥"
    assert any("403" in r.getMessage() for r in caplog.records if r.name == "bot.ui.emojis")


async def test_creation_refused_part_way_then_a_later_sync_completes(app):
    env = app
    env.inject_error("POST", EMOJIS, status=400, code=30056, times=1)  # e.g. a limit, once
    emojis = CardEmojis()
    assert await emojis.sync(env.bot) is False
    assert len(emojis) == 0
    cursor = len(env.http_requests)
    assert await emojis.sync(env.bot) is True
    assert len(posts(env, cursor)) == 42 and emojis.available


async def test_lookups_refuse_codes_that_are_not_cards(env):
    emojis = CardEmojis()
    with pytest.raises(CardError):
        emojis.get("8D")
    with pytest.raises(CardError):
        emojis.inline("10H")
    assert CardEmojis.name_of("7♦") == "c4_7D"
