"""The presenter interface is complete: `NullNotifier` and the Discord presenter implement every method of
`bot.tables.Notifier`, with the same parameters, so the service calls each one without looking it up."""

from __future__ import annotations

import inspect

import pytest

from bot.tables import Notifier, NullNotifier
from bot.ui.notifier import DiscordNotifier

METHODS = [name for name, value in vars(Notifier).items() if inspect.isfunction(value) and not name.startswith("_")]


def test_the_protocol_names_every_call_the_service_makes():
    assert {"lobby_changed", "game_changed", "table_closed", "repost", "resumed", "reloaded", "table_note",
            "rematch_changed", "forget"} <= set(METHODS)


@pytest.mark.parametrize("presenter", [NullNotifier, DiscordNotifier])
@pytest.mark.parametrize("name", METHODS)
def test_a_presenter_implements_every_method_with_its_parameters(presenter, name):
    wanted, got = getattr(Notifier, name), getattr(presenter, name)
    assert list(inspect.signature(got).parameters) == list(inspect.signature(wanted).parameters)
    assert inspect.iscoroutinefunction(got) == inspect.iscoroutinefunction(wanted)
