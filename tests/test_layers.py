"""The layers of CONTRIBUTING.md, checked on the source: what each package may import (every ``import``
and ``from … import`` of every module, including those under ``if TYPE_CHECKING``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "bot/engine": ("discord", "aiosqlite", "asyncpg", "bot.store", "bot.tables", "bot.ui", "bot.ai", "cogs"),
    "bot/ai": ("discord", "aiosqlite", "asyncpg", "bot.store", "bot.tables", "bot.ui", "cogs"),
    "bot/store": ("discord", "bot.tables", "bot.ui", "cogs"),
    "bot/tables": ("discord", "bot.ui", "cogs", "bot.app"),
    "bot/ui": ("cogs", "bot.app"),
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
