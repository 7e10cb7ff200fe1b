"""Rendering: captures in words, perros and tantos, payload limits."""

from __future__ import annotations

import discord
import pytest

from bot.engine import Game, Play
from bot.ui import limits, render, words


def test_a_capture_in_words_names_base_escalera_and_limpia():
    game = Game.from_position(hands=["7D", "AS"], table="3C 4H JS QD KC")
    view = game.view(0)
    play = next(p for p in view.legal_plays if p.captures)
    assert render.describe_capture(play, view, "en") == "7♦ → 3♣ + 4♥, then J♠ Q♦ K♣ — limpia"
    assert render.describe_capture(play, view, "es") == "7♦ → 3♣ + 4♥, luego J♠ Q♦ K♣ — limpia"


def test_a_caida_is_marked():
    game = Game.from_position(hands=["5D 2C", "AS"], table="5C 3H", last_trail="5C", trailed_by=1, to_play=0,
                              dealer=0)
    view = game.view(0)
    play = Play.parse("5D", "5C")
    assert render.describe_capture(play, view, "es") == "5♦ → 5♣ — caída"


def test_points_as_perros_and_tantos():
    assert words.perros_tantos(26) == (2, 3)
    assert words.perros_tantos(8) == (0, 4)
    assert words.perros_tantos(40) == (4, 0)
    assert words.score_words(26, "es") == "2 perros y 3 tantos"
    assert words.score_words(12, "es") == "1 perro y 1 tanto"
    assert words.score_words(0, "en") == "nothing"


def test_limits_are_checked():
    with pytest.raises(limits.PayloadLimitError):
        limits.check_message(content="x" * 2001)
    embed = discord.Embed(description="x" * 4097)
    with pytest.raises(limits.PayloadLimitError):
        limits.check_message(embed=embed)
    assert limits.clip("abcdef", 4) == "abc…"
