"""A server's house-rule settings (migration 0008): its default house rules for new tables,
and whether a mesa under house rules is rated (by default it is not: only named presets are)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.store import Store


@dataclass(frozen=True)
class HouseSettings:
    """``house``: ``{Rules field: value}`` on top of the server's default preset; ``rated``: mesas under
    house rules are rated."""

    house: dict[str, Any] = field(default_factory=dict)
    rated: bool = False


class HouseSettingsRepo:
    """House-rule settings per server, in the store (cached: read on every new table)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[int, HouseSettings] = {}

    async def get(self, guild_id: int) -> HouseSettings:
        """The server's settings (the defaults when it never chose)."""
        cached = self._cache.get(guild_id)
        if cached is not None:
            return cached
        row = await self.store.db.fetchrow("SELECT house, rated FROM house_settings WHERE guild_id = ?", guild_id)
        settings = HouseSettings(json.loads(row[0]), bool(row[1])) if row else HouseSettings()
        self._cache[guild_id] = settings
        return settings

    async def set(self, guild_id: int, *, house: dict[str, Any] | None = None,
                  rated: bool | None = None) -> HouseSettings:
        """Change the server's default house rules and/or the rated setting; returns the new settings."""
        now = await self.get(guild_id)
        new = HouseSettings(dict(now.house) if house is None else dict(house), now.rated if rated is None else rated)
        await self.store.db.execute(
            "INSERT INTO house_settings (guild_id, house, rated) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET house = excluded.house, rated = excluded.rated",
            guild_id, json.dumps(new.house), int(new.rated))
        self._cache[guild_id] = new
        return new
