"""The typed wiring between persistent components and the cogs (`bot.ui.actions`): every cog implements
the interface its components call, with the same parameters, and fills its own slot of the registry."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest

from bot.ui import actions
from cogs.competitions import CompetitionsCog
from cogs.house import HouseCog
from cogs.leaderboard import LeaderboardCog
from cogs.leagues import LeaguesCog
from cogs.learn import LearnCog
from cogs.replays import ReplaysCog
from cogs.tables import TablesCog
from cogs.tournaments import TournamentsCog

PAIRS = [
    (actions.TableActions, TablesCog, "tables"),
    (actions.BoardActions, LeaderboardCog, "boards"),
    (actions.QueueActions, CompetitionsCog, "queue"),
    (actions.LeagueActions, LeaguesCog, "leagues"),
    (actions.TournamentActions, TournamentsCog, "tournaments"),
    (actions.ReplayActions, ReplaysCog, "replays"),
    (actions.LearnActions, LearnCog, "learn"),
    (actions.HouseActions, HouseCog, "house"),
]


def _methods(protocol: type) -> list[str]:
    return [name for name, value in vars(protocol).items() if inspect.iscoroutinefunction(value)]


@pytest.mark.parametrize(("protocol", "cog", "slot"), PAIRS, ids=[slot for _, _, slot in PAIRS])
def test_each_cog_implements_the_actions_its_components_call(protocol, cog, slot):
    assert _methods(protocol), protocol
    for name in _methods(protocol):
        wanted = list(inspect.signature(getattr(protocol, name)).parameters)
        got = list(inspect.signature(getattr(cog, name)).parameters)
        assert got == wanted, (cog.__name__, name)
    assert slot in {f for f in actions.Actions.__dataclass_fields__}


@pytest.mark.parametrize(("protocol", "cog", "slot"), PAIRS[2:], ids=[slot for _, _, slot in PAIRS[2:]])
def test_a_grouped_cog_fills_and_empties_its_own_slot(protocol, cog, slot):
    registry = actions.Actions()
    instance = cog(SimpleNamespace())
    instance.bind(registry, True)
    assert getattr(registry, slot) is instance
    assert [f for f in actions.Actions.__dataclass_fields__ if getattr(registry, f) is not None] == [slot]
    instance.bind(registry, False)
    assert getattr(registry, slot) is None


def test_a_click_for_a_cog_not_loaded_says_so():
    with pytest.raises(actions.ActionsMissingError):
        actions.need(actions.Actions().tables, "table")
