"""``/cuarenta table``: the table message re-posted at most once per cooldown, whoever asks."""

from __future__ import annotations

from tests.support.helpers import table_of


async def test_table_command_reposts_once_per_cooldown_for_spectators_players_and_managers(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.ana.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    before = len(list(world.channel.history()))
    first = await world.caro.slash(world.channel, "cuarenta table")
    assert first.ephemeral
    for member in (world.caro, world.caro, world.ana, world.eva):
        refused = await member.slash(world.channel, "cuarenta table")
        assert refused.ephemeral
        assert "Table #1" in refused.response.content and str(table.messages.public) in refused.response.content
    after = len(list(world.channel.history()))
    assert after - before == 1, f"the table was re-posted {after - before} times"
    await world.env.advance_time(31)
    again = await world.caro.slash(world.channel, "cuarenta table")
    assert "reposted the table" in again.response.content
    assert len(list(world.channel.history())) == after + 1
    assert world.env.errors == []
