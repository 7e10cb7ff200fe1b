"""Rank roles on Discord: the roles of a server's rank tiers, created when an admin turns them on
(``/cuarenta settings roles:``), given and taken after each rated chica, deleted when turned off.

The rule (tiers by shown rating, a margin before a demotion, only players past the leaderboard's ``min_games``)
is `bot.ratings.ranks`; the rows (the roles the bot created, each player's tier) are `bot.ratings.rank_store`.
This module only talks to Discord:

- Turning on needs Manage Roles (`bot.ui.permissions.RANK_ROLES`, not in the invite: asked for only by the
  servers that want rank roles) and a bot role above the rank roles (a bot can only give roles below its top
  role); either missing is refused with the reason, and nothing is created.
- A rated chica queues a check of its players (`RankRoles.notice`, the ratings' ``on_rated_players``); one worker per
  server makes the role changes one request at a time, `EDIT_GAP` seconds apart (Discord's rate limits on
  member edits), each adding or removing one of the bot's own rank roles (``PUT``/``DELETE
  /guilds/{g}/members/{u}/roles/{r}``), so no other role of a member is ever touched.
- Turning off forgets the tiers and deletes the roles the bot created (only those: their ids are stored).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.ratings import Ratings
from bot.ratings.rank_store import RankStore
from bot.ratings.ranks import DEFAULT_MARGIN, DEFAULT_THRESHOLDS, TIER_NAME_KEYS, eligible_rating, next_tier
from bot.tables import TableError

log = logging.getLogger(__name__)

TIER_COLOURS: tuple[int, ...] = (0xB87333, 0xA8A9AD, 0xD4AF37, 0x5DADE2)
"""The default tiers' colours, lowest first (bronze, silver, gold, diamond): a player's name shows their tier."""

def _colours(count: int) -> list[int]:
    """``count`` role colours, lowest tier first: the default tiers' colours, the highest kept for the top
    tier; more tiers than colours repeat the middle ones."""
    if count <= len(TIER_COLOURS):
        return list(TIER_COLOURS[:count - 1]) + [TIER_COLOURS[-1]] if count else []
    middle = TIER_COLOURS[1:-1]
    return [TIER_COLOURS[0]] + [middle[i % len(middle)] for i in range(count - 2)] + [TIER_COLOURS[-1]]


REASON = "Cuarenta rank roles"
"""The audit-log reason of every role change the bot makes for rank roles."""


class RankRoles:
    """A bot's rank roles in every server that turned them on.

    Args:
        client: the bot (its cache of servers, members and roles).
        ratings: the ratings repository (the server's ``min_games``).
        store: the rank-role rows.
        sleep: the wait between two role changes in a server (`asyncio.sleep`; tests pass a fake).
    """

    EDIT_GAP = 1.0
    """Seconds between two role changes in one server (at most one a second per server)."""

    def __init__(self, client: discord.Client, ratings: Ratings, store: RankStore,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        self._client = client
        self._ratings = ratings
        self._store = store
        self._sleep = sleep
        self._pending: dict[int, dict[int, None]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}

    # ------------------------------------------------------------------ turning on and off

    async def turn_on(self, guild: discord.Guild, lang: str,
                      tiers: Sequence[tuple[str, int]] | None = None) -> list[discord.Role]:
        """Create the tiers' roles and start giving them; the rated players of the current season are checked
        at once. ``tiers``: the admin's ``(name, threshold)`` pairs, lowest first (`bot.ratings.ranks.parse_tiers`);
        None: the defaults (`DEFAULT_THRESHOLDS`, names in ``lang``). Already on and no ``tiers``: the roles it
        has, nothing created; already on with ``tiers``: the bot's old rank roles are deleted and the new
        ones created (after the checks below).

        Raises:
            TableError: ``err.ranks_need_manage_roles`` (the bot lacks Manage Roles) or
                ``err.ranks_role_too_low`` (the bot's top role is not above where the roles go); nothing
                is created then (roles created before the check failed are deleted again).
        """
        existing = await self._store.roles(guild.id)
        if existing and tiers is None:
            return [role for rid in existing if (role := guild.get_role(rid)) is not None]
        if tiers is None:
            tiers = [(t(key, lang), floor) for key, floor in zip(TIER_NAME_KEYS, DEFAULT_THRESHOLDS, strict=True)]
        me = guild.me
        if not me.guild_permissions.manage_roles:
            raise TableError("err.ranks_need_manage_roles")
        if me.top_role.is_default():  # a new role goes right above @everyone: the bot needs a role above that
            raise TableError("err.ranks_role_too_low")
        if existing:
            await self.turn_off(guild)
        colours = _colours(len(tiers))
        created: list[discord.Role] = []
        try:
            for tier in reversed(range(len(tiers))):  # highest first: each new role goes lowest
                created.append(await self._create(guild, tiers[tier][0], colours[tier]))
        except discord.Forbidden as error:
            await self._delete(created)
            raise TableError("err.ranks_need_manage_roles") from error
        created.reverse()  # lowest tier first
        top = guild.me.top_role
        if any(role.position >= top.position for role in created):
            await self._delete(created)
            raise TableError("err.ranks_role_too_low")
        await self._store.turn_on(guild.id, [role.id for role in created], [floor for _, floor in tiers])
        self.notice(guild.id, await self._store.rated_players(guild.id))
        return created

    async def turn_off(self, guild: discord.Guild) -> int:
        """Stop giving rank roles in ``guild`` and delete the roles the bot created for them (no other).
        Returns how many roles were deleted (a role already gone or not deletable is skipped)."""
        self._pending.pop(guild.id, None)
        worker = self._workers.pop(guild.id, None)
        if worker is not None:
            worker.cancel()
        ids = await self._store.turn_off(guild.id)
        return await self._delete([role for rid in ids if (role := guild.get_role(rid)) is not None])

    async def _create(self, guild: discord.Guild, name: str, colour: int) -> discord.Role:
        """Create one rank role with no permissions. Through the HTTP route, not `discord.Guild.create_role`,
        whose body sends the permissions as a string where Discord's API schema has an integer."""
        data = await self._client.http.create_role(guild.id, reason=REASON, name=name, permissions=0,
                                                   color=colour, hoist=False, mentionable=False)
        return discord.Role(guild=guild, state=guild._state, data=data)

    async def describe(self, guild: discord.Guild, lang: str) -> str:
        """The server's rank roles in words: off, or each tier's role mention and threshold, and the margin."""
        ids = await self._store.roles(guild.id)
        if not ids:
            return t("settings.ranks.off", lang)
        floors = await self._store.thresholds(guild.id)
        tiers = " · ".join(f"<@&{rid}> ≥ {floor}" for rid, floor in zip(ids, floors, strict=False))
        return t("settings.ranks.on", lang, tiers=tiers, margin=DEFAULT_MARGIN)

    @staticmethod
    async def _delete(roles: Sequence[discord.Role]) -> int:
        deleted = 0
        for role in roles:
            try:
                await role.delete(reason=REASON)
                deleted += 1
            except discord.HTTPException:
                log.warning("guild %d: rank role %d could not be deleted", role.guild.id, role.id)
        return deleted

    # ------------------------------------------------------------------ after rated chicas

    def notice(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """Queue a check of these players' tiers in the server (after a rated chica). Never blocks; a
        player already queued is checked once. Does nothing once the bot is closed."""
        if not user_ids:
            return
        pending = self._pending.setdefault(guild_id, {})
        pending.update(dict.fromkeys(user_ids))
        worker = self._workers.get(guild_id)
        if worker is None or worker.done():
            try:
                self._workers[guild_id] = asyncio.get_running_loop().create_task(self._work(guild_id))
            except RuntimeError:  # no loop running (a script recording chicas): nothing to give
                self._pending.pop(guild_id, None)

    async def drain(self) -> None:
        """Wait until every queued check is done (tests, and closing)."""
        while workers := [w for w in self._workers.values() if not w.done()]:
            await asyncio.gather(*workers, return_exceptions=True)

    def close(self) -> None:
        """Stop the workers; queued checks are dropped (the next rated chica checks its players again)."""
        for worker in self._workers.values():
            worker.cancel()
        self._workers.clear()
        self._pending.clear()

    async def _work(self, guild_id: int) -> None:
        pending = self._pending.get(guild_id)
        while pending:
            user_id = next(iter(pending))
            del pending[user_id]
            try:
                await self.check(guild_id, user_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("guild %d: the rank role of user %d could not be updated", guild_id, user_id)
        self._pending.pop(guild_id, None)

    async def check(self, guild_id: int, user_id: int) -> int | None:
        """Bring one player's rank role in line with their rating: compute the tier (`next_tier`, from the
        one they hold), take the bot's other rank roles and give the tier's one, one request per change,
        `EDIT_GAP` apart. The tier unchanged: no request at all; changed: the member is fetched first (the
        roles they hold now). Returns the tier now held (None: none). Rank roles off or the server not
        found: nothing changes; the member gone: their tier is forgotten."""
        roles = await self._store.roles(guild_id)
        guild = self._client.get_guild(guild_id)
        if not roles or guild is None:
            return None
        settings = await self._ratings.settings(guild_id)
        rating = eligible_rating(await self._store.season_ratings(guild_id, user_id), settings.min_games)
        current = await self._store.tier(guild_id, user_id)
        thresholds = await self._store.thresholds(guild_id)
        tier = next_tier(rating, current if current is None or current < len(roles) else None, thresholds,
                         DEFAULT_MARGIN)
        if tier == current:
            return tier  # nothing to change: no request
        try:  # fresh from Discord: without the members intent the cache does not follow role changes
            member = await guild.fetch_member(user_id)
        except discord.NotFound:  # left the server
            await self._store.set_tier(guild_id, user_id, None)
            return None
        want = roles[tier] if tier is not None else None
        held = {role.id for role in member.roles}
        changes: list[tuple[bool, int]] = [(False, rid) for rid in roles if rid in held and rid != want]
        if want is not None and want not in held:
            changes.append((True, want))
        for add, role_id in changes:
            target = discord.Object(role_id)
            if add:
                await member.add_roles(target, reason=REASON)
            else:
                await member.remove_roles(target, reason=REASON)
            await self._sleep(self.EDIT_GAP)
        if tier != current:
            await self._store.set_tier(guild_id, user_id, tier)
        return tier
