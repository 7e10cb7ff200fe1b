"""Fixtures shared by every test package: the two database backends.

``database_url`` is parametrized over ``sqlite`` (a fresh file) and ``postgresql`` (a fresh database on a
real PostgreSQL server, created from a migrated template). The server is ``TEST_DATABASE_URL`` when it is
set (`.ci/run` starts one with ``scripts/postgres-for-tests``); otherwise the session starts its own with
that script when PostgreSQL's binaries are on the machine; otherwise the PostgreSQL half is skipped, and
says why. Under CI (``CI`` set), a missing server fails instead of skipping.

Under pytest-xdist every worker has its own template database (``cuarenta_template_gw0`` …), so workers
sharing one server never drop or copy each other's template. Every test that uses PostgreSQL is marked
``postgresql`` (``-m "not postgresql"`` runs the SQLite half alone).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.store.db import create_postgres_database, drop_postgres_database

ROOT = Path(__file__).resolve().parent.parent

pytest_plugins = ["tests.support.bot_fixtures"]
"""The SimCord harness (``world``, ``make_bot``, ``service`` …) for every test directory."""
_names = itertools.count(1)


def _template() -> str:
    """This process's migrated template database: one per xdist worker (``PYTEST_XDIST_WORKER``, set once
    the worker starts, so read here rather than at import), ``cuarenta_template`` without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"cuarenta_template_{worker}" if re.fullmatch(r"gw\d+", worker) else "cuarenta_template"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``postgresql`` every test on the PostgreSQL backend: the ``postgresql`` half of the
    parametrized database fixtures, and every user of ``postgres_url``."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if ("postgres_url" in getattr(item, "fixturenames", ())
                or "postgresql" in (params.get("database_url"), params.get("blank_database_url"))):
            item.add_marker(pytest.mark.postgresql)


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The URL of a PostgreSQL server's ``postgres`` database, with a migrated template database. A
    server this session started is stopped and deleted at its end."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    started: str | None = None
    if not url:
        have_binaries = any(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not have_binaries and not os.environ.get("CI"):
            pytest.skip("no PostgreSQL here: set TEST_DATABASE_URL or install Debian's postgresql")
        out = subprocess.run([str(ROOT / "scripts" / "postgres-for-tests")], capture_output=True,
                             text=True, check=False)
        if out.returncode != 0:
            if os.environ.get("CI"):
                pytest.fail(f"could not start PostgreSQL: {out.stderr}")
            pytest.skip(f"could not start PostgreSQL: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip()
        started = re.search(r"server in (\S+)/data", out.stderr).group(1)  # type: ignore[union-attr]
    asyncio.run(_make_template(url))
    yield url
    asyncio.run(drop_postgres_database(url, _template()))
    if started:
        bindir = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
        run = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run([*run, str(bindir / "pg_ctl"), "-D", f"{started}/data", "-m", "immediate", "stop"],
                       capture_output=True, check=False)
        shutil.rmtree(started, ignore_errors=True)


async def _make_template(url: str) -> None:
    from bot.store import Store

    store = await Store.open(await create_postgres_database(url, _template()))
    await store.close()


def _postgres_database(request: pytest.FixtureRequest, template: str):
    server = request.getfixturevalue("postgres_server")
    name = f"cuarenta_t{os.getpid()}_{next(_names)}"
    url = asyncio.run(create_postgres_database(server, name, template))
    yield url
    asyncio.run(drop_postgres_database(server, name))


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest) -> str:
    """A fresh, migrated PostgreSQL database for this test (dropped after it)."""
    yield from _postgres_database(request, _template())


@pytest.fixture(params=["sqlite", "postgresql"])
def blank_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Like `database_url`, but with no migration applied yet (for tests of the migrations)."""
    if request.param == "sqlite":
        yield str(tmp_path / "cuarenta-blank.db")
    else:
        yield from _postgres_database(request, "template0")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for this test, once on each backend: a SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "cuarenta-test.db")
    return request.getfixturevalue("postgres_url")
