"""The layers of CONTRIBUTING.md, checked on the source: what each package may import (every ``import``
and ``from … import`` of every module, including those under ``if TYPE_CHECKING``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "bot/engine": ("discord", "aiosqlite", "asyncpg", "bot.store", "bot.tables", "bot.ui", "bot.ai", "cogs",
                   "bot.ops", "prometheus_client"),
    "bot/ai": ("discord", "aiosqlite", "asyncpg", "bot.store", "bot.tables", "bot.ui", "cogs"),
    "bot/store": ("discord", "bot.tables", "bot.ui", "cogs"),
    "bot/tables": ("discord", "bot.ui", "cogs", "bot.app", "bot.ops", "prometheus_client"),
    "bot/ui": ("cogs", "bot.app", "bot.ops", "prometheus_client"),
    "bot/ops": ("cogs", "bot.app"),
}
"""Per package, the modules it must not import (a prefix matches the module and its submodules)."""


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def _matches(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_nothing_from_the_layers_above_it(package):
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for path in sorted((ROOT / package).rglob("*.py"))
           for name in _imports(path)
           if any(_matches(name, prefix) for prefix in FORBIDDEN[package])]
    assert bad == []


def test_cogs_hold_no_sql():
    """Cogs hold no SQL: no cog imports the store's database layer or a database driver."""
    bad = [f"{path.name} imports {name}" for path in sorted((ROOT / "cogs").glob("*.py"))
           for name in _imports(path) if any(_matches(name, p) for p in ("bot.store.db", "aiosqlite", "asyncpg"))]
    assert bad == []


FRESHNESS = ("behind", "catch_up", "current", "newest_saved", "table_version", "table_versions")
"""What tells whether a process's copy of a shared table is behind, or brings it up to date: the service
(`bot.tables.shared`) decides and tells the presenter (`Notifier.overtaken`, `Notifier.caught_up`)."""


def test_the_presenter_never_asks_whether_a_table_is_behind():
    """The presenter renders what it is told: no module of bot/ui calls a freshness question or a catch-up
    of the service or the store, under any name (``self.service.behind``, ``tables.catch_up`` …)."""
    bad = [f"{path.relative_to(ROOT)}:{node.lineno} calls .{node.func.attr}"
           for path in sorted((ROOT / "bot/ui").rglob("*.py"))
           for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
           if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FRESHNESS]
    assert bad == []
