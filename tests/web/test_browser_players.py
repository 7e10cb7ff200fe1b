"""A player's profile and a finished mesa's replay in a real browser (headless Chromium), over a database
filled by real mesas: the profile's figures are the bot's own (`Ratings.stats` per mode, `Ratings.history`
for the recent mesas), the replay's cards are the bot's own replay of that mesa (`bot.replays.load`: every
seat's hand and the table at the first and the last step), both fit a phone's 390 px, and a mesa still in
play, another server's mesa and the pages of a server that never turned them on answer 404."""

from __future__ import annotations

import re

import pytest

from bot.ratings import MODES
from bot.replays import load
from bot.web.data import player_numbers
from tests.support.browser import DESKTOP, PHONE
from tests.support.web_site import serve
from tests.support.web_world import GUILD, OTHER, OTHERS, PLAYERS

PROFILE = """({
    modes: [...document.querySelectorAll('main h2')].filter(h => /^(1v1|2v2)$/.test(h.innerText.trim()))
        .map(h => ({mode: h.innerText.trim(),
                    values: [...h.nextElementSibling.querySelectorAll('dd')].map(d => d.innerText.trim())})),
    mesas: [...document.querySelectorAll('ul.mesas li a')].map(a => a.getAttribute('href')),
})"""
"""Per mode heading, the values of the stats list under it; the recent mesas' links."""

REPLAY = """({
    seats: [...document.querySelectorAll('.seat')].map(s => [...s.querySelectorAll('.card')].map(c => c.innerText)),
    table: [...document.querySelectorAll('h2 + .cards')].map(d => [...d.querySelectorAll('.card')].map(c => c.innerText)),
})"""
"""Each seat's cards as drawn, and the cards of each row of cards that follows a heading (the table)."""


@pytest.fixture
async def site(web_world):
    async with serve(web_world) as running:
        yield running


async def number_of(site, user: int) -> int:
    return (await player_numbers(site.store.db, GUILD, [user]))[user]


async def test_every_player_s_profile_shows_the_bot_s_own_stats_and_recent_mesas(chromium, site):
    for name, user in PLAYERS.items():
        stats = await site.ratings.stats(GUILD, user)
        history = await site.ratings.history(GUILD, user, limit=10)
        page = await chromium.load(site.url(GUILD, f"players/{await number_of(site, user)}"), PHONE,
                                   script=PROFILE)
        assert page.status == 200 and site.name(user) in page.title, name
        want = []
        for mode in MODES:
            m = stats.modes[mode]
            if m.chicas:
                rating = "—" if m.rating is None else f"{m.rating}{'?' if m.provisional else ''}"
                want.append({"mode": mode, "values": [rating, "—" if m.best_peak is None else str(m.best_peak),
                                                      f"{m.mesas_won} / {m.mesas}", f"{m.chicas_won} / {m.chicas}",
                                                      str(m.rated_chicas), str(m.best_streak)]})
        assert page.value["modes"] == want, name
        assert page.value["mesas"] == [f"/s/{GUILD}/mesas/{line.table_id}" for line in history], name
        assert not page.scrolls_sideways, f"{name}: {page.scroll_width} px at {PHONE}"
        assert str(user) not in page.html, "a page never shows a user id"


async def test_the_profile_draws_the_rating_chart_and_fits_both_widths(chromium, site):
    url = site.url(GUILD, f"players/{await number_of(site, PLAYERS['ana'])}")
    for width in (PHONE, DESKTOP):
        page = await chromium.load(url, width, script="document.querySelectorAll('main svg').length")
        assert page.status == 200 and page.value >= 1, "a rating chart per mode played"
        assert not page.scrolls_sideways, f"{page.scroll_width} px at {width}"


async def test_a_replay_draws_the_bot_s_own_cards_at_its_first_and_last_step(chromium, site):
    for mesa in (site.world.mesas[0], site.world.mesas[-1]):
        shown = await load(site.store, GUILD, mesa)
        steps = shown.replay.steps
        for index in (0, len(steps) - 1):
            step = steps[index]
            page = await chromium.load(site.url(GUILD, f"mesas/{mesa}?step={index + 1}"), PHONE, script=REPLAY)
            assert page.status == 200
            assert [sorted(cards) for cards in page.value["seats"]] == [sorted(str(c) for c in hand)
                                                                        for hand in step.hands], (mesa, index)
            assert sorted(page.value["table"][0]) == sorted(str(c) for c in step.table), (mesa, index)
            assert f"{index + 1}" in page.text and f"{len(steps)}" in page.text
            assert not page.scrolls_sideways, f"mesa {mesa} step {index + 1}: {page.scroll_width} px"


async def test_mesas_in_play_and_other_servers_mesas_answer_404(chromium, site):
    world = site.world
    for path in (f"mesas/{world.in_play}", f"mesas/{world.other_mesas[0]}", "mesas/999999", "players/1"):
        page = await chromium.load(site.url(GUILD, path), PHONE)
        assert page.status == 404, path
    for path in (f"mesas/{world.other_mesas[0]}", f"players/{await _other_number(site)}"):
        page = await chromium.load(site.url(OTHER, path), PHONE)
        assert page.status == 404, path
        assert not re.search("iris|juan|kike|lola", page.text, re.I)


async def _other_number(site) -> int:
    user = OTHERS["iris"]
    return (await player_numbers(site.store.db, OTHER, [user]))[user]
