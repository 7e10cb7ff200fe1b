"""Changing a lobby's house rules, and a server's default ones. Works through
`TableService.change_lobby` (under the table's lock, persisted, a refused change changes nothing) and the
server's `HouseSettingsRepo`. Refusals are `TableError`s, so they reach the user as any other refusal."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.tables import Table, TableError, TableService

from .menu import HouseRuleError, apply, choose


def _refusal(error: HouseRuleError) -> TableError:
    return TableError(error.key, **error.params)


class HouseRules:
    """House rules over the table service: ``choose`` and ``reset`` for a lobby's host, ``save_default``
    and ``clear_default`` for a server."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def choose(self, table_id: int, *, user_id: int, rule: str, token: str) -> Table:
        """The host sets house rule ``rule`` to the choice ``token``; the lobby then lists what differs
        from the preset and whether the mesa will be rated (the server setting, read now and again at
        the start).

        Raises:
            TableError: ``err.house_rule`` / ``err.house_value`` (no such rule or value),
                ``err.house_cutoff`` or ``err.house_invalid`` (a combination the engine cannot honour, with
                the reason); WrongStateError (the table started: its rules never change); NotHostError.
        """
        table = await self.tables.fetch(table_id)
        rated = (await self.tables.house.get(table.guild_id)).rated
        try:
            house = choose(table.preset, table.house, rule, token)
        except HouseRuleError as error:
            raise _refusal(error) from None
        return await self.tables.change_lobby(table_id, user_id=user_id,
                                              change=lambda t: self._set(t, house, rated))

    async def reset(self, table_id: int, *, user_id: int) -> Table:
        """The host drops every house rule: the preset as it is.

        Raises:
            WrongStateError, NotHostError: as `choose`.
        """
        return await self.tables.change_lobby(table_id, user_id=user_id, change=lambda t: self._set(t, {}, False))

    @staticmethod
    def _set(table: Table, house: dict[str, Any], rated: bool) -> None:
        if house:
            table.options = replace(table.options, house=house, house_rated=rated)
        else:
            table.options = replace(table.options, house={}, house_rated=False)

    async def save_default(self, guild_id: int, table: Table | None) -> dict[str, Any]:
        """Store ``table``'s house rules as the server's default (new tables opened with the server's
        default preset start from them); returns them.

        Raises:
            TableError ``err.house_no_table``: no table, or one without house rules.
        """
        if table is None or not table.house:
            raise TableError("err.house_no_table")
        try:
            apply(table.preset, table.house)
        except HouseRuleError as error:
            raise _refusal(error) from None
        await self.tables.house.set(guild_id, house=table.house)
        return table.house

    async def set_rated(self, guild_id: int, rated: bool) -> None:
        """Whether the server's mesas under house rules are rated; the open lobbies with house rules say
        the new setting at once (and a table still decides it again when it starts)."""
        await self.tables.house.set(guild_id, rated=rated)

        def restate(table: Table) -> bool:
            if not table.house or table.options.house_rated == rated:
                return False
            table.options = replace(table.options, house_rated=rated)
            return True

        await self.tables.refresh_lobbies(guild_id, restate)

    async def clear_default(self, guild_id: int) -> None:
        """The server's new tables start without house rules."""
        await self.tables.house.set(guild_id, house={})
