"""The house-rules menu over the engine's `Rules`: every combination the menu allows is a valid
`Rules` that the engine deals and plays; a combination it cannot honour is refused, with a reason."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import PRESET_NAMES, Game, Rules
from bot.houserules.menu import HOUSE_RULES, HouseRuleError, apply, choose, rule
from bot.i18n import LANGUAGES, message

STEPS = st.lists(st.tuples(st.sampled_from([r.key for r in HOUSE_RULES]), st.integers(0, 2)), max_size=8)


@settings(max_examples=150, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), steps=STEPS, seed=st.integers(0, 10**6))
def test_every_combination_the_menu_allows_is_valid_rules_the_engine_plays(preset, steps, seed):
    house: dict = {}
    for key, index in steps:
        choices = rule(key).choices
        token = choices[index % len(choices)].token
        try:
            house = choose(preset, house, key, token)
        except HouseRuleError as refused:
            assert message(refused.key, "es"), f"a refusal names its reason: {refused.key}"
            continue
        rules = apply(preset, house)
        assert isinstance(rules, Rules)
        base = Rules.preset(preset)
        assert all(getattr(base, name) != value for name, value in house.items()), "only the differences"
    rules = apply(preset, house)
    game = Game.new(rules, 2, seed)
    rng = random.Random(seed)
    for _ in range(30):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_plays()))


def test_a_cutoff_at_or_over_the_target_is_refused_with_the_reason():
    house = choose("quito", {}, "target", "20")
    with pytest.raises(HouseRuleError) as refused:
        choose("quito", house, "carton_cutoff", "30")
    assert refused.value.key == "err.house_cutoff" and refused.value.params == {"cutoff": 30, "target": 20}
    house = choose("barrio", {}, "target", "40")
    assert house == {}, "barrio already plays to 40"
    with pytest.raises(HouseRuleError):
        choose("barrio", {}, "target", "20")  # barrio's 30 cut-offs cannot stay with a chica to 20


def test_choosing_the_presets_own_value_leaves_no_override():
    house = choose("quito", {}, "caida_limpia", "4")
    assert house == {"caida_limpia": 4}
    assert choose("quito", house, "caida_limpia", "2") == {}


def test_every_house_rule_and_value_has_words_in_every_language():
    for r in HOUSE_RULES:
        for lang in LANGUAGES:
            assert message(f"house.{r.key}.desc", lang), (r.key, lang)
    assert len(HOUSE_RULES) == 15 and len(HOUSE_RULES) <= 25, "one Discord select"


def test_unknown_rule_or_value_is_refused():
    with pytest.raises(HouseRuleError):
        choose("quito", {}, "nope", "1")
    with pytest.raises(HouseRuleError):
        choose("quito", {}, "target", "99")
    with pytest.raises(HouseRuleError):
        apply("quito", {"not_a_field": 1})


def test_switching_a_rule_back_restores_every_field_its_other_choice_set():
    off = choose("cuenca", {}, "ronda", "0")
    assert off == {"ronda": 0, "doble_ronda": 0}
    assert choose("cuenca", off, "ronda", "1") == {}, "cuenca's doble ronda (chica) comes back"
    assert apply("cuenca", {}) == Rules.preset("cuenca")
