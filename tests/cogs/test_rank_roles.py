"""Rank roles through SimCord (`bot.ui.rank_roles`, ``/cuarenta settings rank_roles``): turning them on
creates the tiers' roles in the server's language, rated chicas give each eligible player their tier's role
(and only them), a missing permission or a bot role too low is refused with the reason in the user's
language, a role the bot did not create is never touched, and turning them off deletes the bot's roles."""

from __future__ import annotations

import discord
import pytest

from bot.i18n import t
from bot.ratings import ChicaResult
from bot.ratings.ranks import DEFAULT_THRESHOLDS, eligible_rating, plain_tier
from bot.ui.rank_roles import RankRoles

NAMES_ES = ["Bronce", "Plata", "Oro", "Diamante"]


@pytest.fixture(autouse=True)
def _no_pause(monkeypatch):
    monkeypatch.setattr(RankRoles, "EDIT_GAP", 0.0)


def _ranks(world) -> RankRoles:
    return world.bot.get_cog("LeaderboardCog").ranks


def _role_ids(world, member) -> list[int]:
    return list(world.env.backend.get_member(world.guild.id, member.id).role_ids)


def _bot_role(world):
    return next(r for r in world.env.backend.get_guild(world.guild.id).roles.values() if r.managed)


def _role_requests(world) -> list:
    return [r for r in world.env.http_requests if "/roles" in r.path and r.method != "GET"]


async def _chicas(world, winner, loser, count: int, *, table_id: int) -> None:
    ratings = world.bot.tables.ratings
    for number in range(1, count + 1):
        await ratings.record_chica(ChicaResult(world.guild.id, table_id, number, ((winner.id,), (loser.id,)), 0))
    await _ranks(world).drain()


async def _turn_on(world):
    return await world.eva.slash(world.channel, "cuarenta settings", rank_roles=True)


async def test_turning_rank_roles_on_creates_the_tiers_in_the_servers_language_and_stores_them(world):
    result = await _turn_on(world)
    assert result.ephemeral and result.response.embeds[0].title == t("settings.title_changed", "en")
    guild_roles = world.env.backend.get_guild(world.guild.id).roles
    stored = await _ranks(world)._store.roles(world.guild.id)
    assert [guild_roles[rid].name for rid in stored] == NAMES_ES, "lowest tier first, in the server's Spanish"
    assert all(guild_roles[rid].position < _bot_role(world).position for rid in stored)
    field = next(f for f in result.response.embeds[0].fields if f.name == "Rank roles")
    assert f"<@&{stored[1]}> ≥ {DEFAULT_THRESHOLDS[1]}" in field.value
    again = await _turn_on(world)
    assert await _ranks(world)._store.roles(world.guild.id) == stored, "on twice creates nothing more"
    assert again.ephemeral
    assert len([r for r in _role_requests(world) if r.method == "POST"]) == 4


async def test_after_rated_chicas_each_eligible_player_holds_their_tiers_role_and_others_none(world):
    await world.eva.slash(world.channel, "cuarenta settings", min_games=3)
    await _turn_on(world)
    roles = await _ranks(world)._store.roles(world.guild.id)
    await _chicas(world, world.ana, world.beto, 3, table_id=1)
    await _chicas(world, world.caro, world.dani, 2, table_id=2)  # below min_games: not eligible
    store = _ranks(world)._store
    for member in (world.ana, world.beto):
        rating = eligible_rating(await store.season_ratings(world.guild.id, member.id), 3)
        tier = plain_tier(rating, DEFAULT_THRESHOLDS)
        assert tier is not None
        assert [rid for rid in _role_ids(world, member) if rid in roles] == [roles[tier]], member
        assert await store.tier(world.guild.id, member.id) == tier
    for member in (world.caro, world.dani, world.eva):
        assert not set(_role_ids(world, member)) & set(roles), f"{member} is not past min_games"
    assert world.env.errors == []


async def test_a_rating_change_moves_the_role_with_one_request_per_change_and_pauses_between(world, monkeypatch):
    await world.eva.slash(world.channel, "cuarenta settings", min_games=1)
    await _turn_on(world)
    ranks = _ranks(world)
    roles = await ranks._store.roles(world.guild.id)
    pauses: list[int] = []

    async def pause(seconds: float) -> None:
        pauses.append(len([r for r in _role_requests(world) if "/members/" in r.path]))

    monkeypatch.setattr(ranks, "_sleep", pause)
    await ranks._store.set_tier(world.guild.id, world.ana.id, 3)  # as if ana had held Diamante
    world.env.backend.add_member_role(world.guild.id, world.ana.id, roles[3])
    before = len(_role_requests(world))
    await _chicas(world, world.ana, world.beto, 1, table_id=1)
    member_edits = [r for r in _role_requests(world)[before:] if "/members/" in r.path]
    assert all(r.method in ("PUT", "DELETE") for r in member_edits), "one role per request, never the list"
    assert pauses == list(range(1, len(member_edits) + 1)), "a pause after every single member edit"
    held = [rid for rid in _role_ids(world, world.ana) if rid in roles]
    assert len(held) == 1 and held[0] != roles[3]


async def test_a_bot_without_manage_roles_is_refused_with_the_reason_in_the_users_language(world, locales):
    role = _bot_role(world)
    perms = discord.Permissions(role.permissions)
    perms.manage_roles = False
    world.env.backend.edit_role(world.guild.id, role.id, {"permissions": perms.value})
    await world.env.settle()
    locales[world.eva.id] = "es-ES"
    refused = await _turn_on(world)
    assert refused.ephemeral and refused.response.content == t("err.ranks_need_manage_roles", "es")
    assert "Gestionar roles" in refused.response.content
    assert await _ranks(world)._store.roles(world.guild.id) == []
    assert _role_requests(world) == [], "nothing created"


async def test_a_bot_with_no_role_of_its_own_is_refused_because_its_role_is_too_low(world):
    everyone = world.env.backend.get_guild(world.guild.id).roles[world.guild.id]
    world.env.backend.edit_role(world.guild.id, everyone.id,
                                {"permissions": everyone.permissions | discord.Permissions(manage_roles=True).value})
    world.env.backend.remove_member_role(world.guild.id, world.bot.user.id, _bot_role(world).id)
    # Discord always sends the bot its own member updates; SimCord sends none without the members intent,
    # so the cache is brought where Discord's event would bring it.
    world.bot.get_guild(world.guild.id).me._roles = discord.utils.SnowflakeList([])
    assert world.bot.get_guild(world.guild.id).me.top_role.is_default()
    refused = await _turn_on(world)
    assert refused.response.content == t("err.ranks_role_too_low", "en")
    assert await _ranks(world)._store.roles(world.guild.id) == []


async def test_a_role_the_bot_did_not_create_is_never_touched_and_off_deletes_only_the_bots(world):
    theirs = world.guild.create_role("Bronce")  # the same name as a tier: still not the bot's
    world.env.backend.add_member_role(world.guild.id, world.ana.id, theirs.id)
    await world.eva.slash(world.channel, "cuarenta settings", min_games=1)
    await _turn_on(world)
    roles = await _ranks(world)._store.roles(world.guild.id)
    await _chicas(world, world.ana, world.beto, 2, table_id=1)
    await _chicas(world, world.beto, world.ana, 3, table_id=2)
    assert theirs.id in _role_ids(world, world.ana)
    off = await world.eva.slash(world.channel, "cuarenta settings", rank_roles=False)
    field = next(f for f in off.response.embeds[0].fields if f.name == "Rank roles")
    assert field.value == t("settings.ranks.off", "en")
    guild_roles = world.env.backend.get_guild(world.guild.id).roles
    assert theirs.id in guild_roles and not set(roles) & set(guild_roles), "the bot's four deleted, theirs kept"
    assert theirs.id in _role_ids(world, world.ana)
    assert not [r for r in _role_requests(world) if str(theirs.id) in r.path], "no request names their role"
    assert await _ranks(world)._store.roles(world.guild.id) == []
    await _chicas(world, world.ana, world.beto, 1, table_id=3)
    assert not [r for r in _role_requests(world) if r.method == "PUT" and str(theirs.id) in r.path]


async def test_only_a_manager_turns_rank_roles_on(world):
    refused = await world.ana.slash(world.channel, "cuarenta settings", rank_roles=True)
    assert refused.response.content == "You need the Manage Server permission."
    assert await _ranks(world)._store.roles(world.guild.id) == []


async def test_an_admins_tiers_name_the_roles_set_the_thresholds_and_replace_the_old_roles(world):
    await world.eva.slash(world.channel, "cuarenta settings", min_games=1)
    await _turn_on(world)
    old = await _ranks(world)._store.roles(world.guild.id)
    result = await world.eva.slash(world.channel, "cuarenta settings", rank_tiers="Novato 0, Crack 1510")
    assert result.ephemeral
    guild_roles = world.env.backend.get_guild(world.guild.id).roles
    store = _ranks(world)._store
    roles = await store.roles(world.guild.id)
    assert [guild_roles[rid].name for rid in roles] == ["Novato", "Crack"]
    assert await store.thresholds(world.guild.id) == [0, 1510]
    assert not set(old) & set(guild_roles), "the default roles were deleted"
    await _chicas(world, world.ana, world.beto, 1, table_id=1)
    for member in (world.ana, world.beto):
        rating = eligible_rating(await store.season_ratings(world.guild.id, member.id), 1)
        want = roles[plain_tier(rating, (0, 1510))]
        assert [rid for rid in _role_ids(world, member) if rid in roles] == [want], member


@pytest.mark.parametrize("text", ["Oro", "Plata 1600, Bronce 1500", "A 1, B 2, C 3, D 4, E 5, F 6, G 7, H 8, I 9",
                                  "Oro mil"])
async def test_tiers_that_cannot_be_read_are_refused_with_the_reason_and_nothing_changes(world, text):
    result = await world.eva.slash(world.channel, "cuarenta settings", rank_tiers=text)
    assert result.ephemeral and result.response.content == t("err.rank_tiers_bad", "en")
    assert await _ranks(world)._store.roles(world.guild.id) == []
    assert [r for r in _role_requests(world) if r.method == "POST"] == []
