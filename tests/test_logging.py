"""No log line names a hidden card, even at LOG_LEVEL=DEBUG (found by QA: aiosqlite logged the saved game)."""

from __future__ import annotations

import logging

import pytest

import bot.__main__ as entry
from bot.store import Store
from bot.tables import TableService
from tests.support.helpers import controls, latest_hand, member_of, pick_play, production_bot, start_1v1


async def inline(func, *args):
    return func(*args)


def test_debug_log_level_never_prints_a_hand(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "q.db"))
    monkeypatch.setattr(logging.getLogger(), "handlers", list(logging.getLogger().handlers))
    for name in entry.QUIET_LOGGERS:
        monkeypatch.setattr(logging.getLogger(name), "level", logging.getLogger(name).level)
    hands: list[str] = []

    async def fake_run(settings, command):
        store = await Store.open(settings.database_path)
        service = TableService(store, ai_delay=0, seed_factory=lambda: "fixed", offload=inline)
        table = await service.create(guild_id=1, channel_id=2, user_id=10, name="ana", locale="es", players=2)
        await service.join(table.id, user_id=20, name="beto", locale="en")
        assert table.game is not None  # the table filled up and the engine dealt
        hands.extend(c.code for h in table.game.hands for c in h)
        seat = table.game.to_play
        play = table.game.legal_plays()[0]
        played = play.card.code
        await service.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce, card=played,
                           captures=" ".join(c.code for c in play.sorted_captures()) or None,
                           trail=not play.captures)  # a play logs at DEBUG (never its hand)
        hands.remove(played)  # public now: on the table or in a pile
        await service.close()
        await store.close()
        return 0

    monkeypatch.setattr(entry, "run", fake_run)
    caplog.set_level(logging.DEBUG)
    assert entry.main([]) == 0
    assert hands and any(r.levelno == logging.DEBUG for r in caplog.records)
    leaks = [f"{r.name}: {r.getMessage()[:120]}" for r in caplog.records
             if any(f'"{code}"' in r.getMessage() for code in hands)]
    assert leaks == [], f"{len(leaks)} log lines hold hand cards, e.g. {leaks[:2]}"


@pytest.mark.simcord_bot(**production_bot.kwargs, card_emojis=True)  # the emoji's name must not leak either
async def test_a_card_click_whose_handler_raises_logs_no_card(world, monkeypatch, caplog):
    """discord.py logs the item of a callback that raised: a hand's items name their table, not a card."""
    import logging

    from cogs.tables import TablesCog

    caplog.set_level(logging.DEBUG)
    table = await start_1v1(world)
    seat, play = pick_play(table)
    member = member_of(world, table, seat)

    async def broken(self, interaction, table_id, nonce, card):
        raise RuntimeError("a bug")

    monkeypatch.setattr(TablesCog, "on_card", broken)
    hand = latest_hand(member)
    code = play.card.code
    button = next(c for c in controls(hand) if c.custom_id.endswith(f":{code}"))
    caplog.clear()
    await member.user.click(hand, custom_id=button.custom_id)
    failed = [r for r in caplog.records if "Ignoring exception" in r.getMessage()]
    assert failed, "discord.py logged the failing callback"
    text = " ".join(r.getMessage() for r in caplog.records)
    assert button.label not in text and f"'{code}'" not in text and f"c4_{code}" not in text
    assert button.custom_id not in text
