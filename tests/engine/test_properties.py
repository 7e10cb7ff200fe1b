"""Property tests: random seeds, presets and 2 or 4 players, random legal plays to the end of whole mesas.

They check every invariant of RULES.md Part 1 ("Engine invariants") and the engine's persistence promises (`Game.to_dict`, `snapshot`, `replay`),
with each seed-002 variant of Part 1 §9 off and on (`VARIANTS`: plain, comodines, periquito, both).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import PRESET_NAMES, Card, EventKind, Game, PositionError, Rules, deck_for

K = EventKind
PLAY_AWARDS = (K.CAIDA, K.LIMPIA)

seeds = st.integers(min_value=0, max_value=2**32)
presets = st.sampled_from(PRESET_NAMES)
player_counts = st.sampled_from([2, 4])
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VARIANTS = {
    "plain": {},
    "comodines": {"comodines": True},
    "periquito": {"periquito": True},
    "both": {"comodines": True, "periquito": True},
}
"""The seed-002 variants (Part 1 §9), as `Rules.replace` fields over the drawn preset."""
variants = pytest.mark.parametrize("variant", list(VARIANTS))


def rules_for(preset: str, variant: str) -> Rules:
    return Rules.preset(preset).replace(**VARIANTS[variant])


def all_cards(game: Game) -> list[Card]:
    cards = [*game.table, *game.stock, *game.piles[0], *game.piles[1], *game.dead]
    for hand in game.hands:
        cards.extend(hand)
    return cards


def random_mesa(rules: Rules, players: int, seed: int):
    """Yield (game, play, events) for every play of a whole random mesa, after a first
    (game, None, events of the first deal)."""
    game = Game.new(rules, players, seed)
    yield game, None, list(game.events)
    rng = random.Random(seed)
    while not game.is_over:
        play = rng.choice(game.legal_plays())
        yield game, play, game.play(play)


@variants
@SETTINGS
@given(seed=seeds, preset=presets, players=player_counts)
def test_invariants_hold_through_whole_mesas(variant, seed, preset, players):
    rules = rules_for(preset, variant)
    deck = deck_for(rules)
    deals = 4 if players == 2 else 2
    game = None
    hand_plays = 0
    hand_deals = 0
    previous_mano = None
    per_deal = 10 if players == 2 else 20
    played_by: dict[Card, tuple[int, int]] = {}  # card -> (seat, deal number) when it was played
    for game, _play, events in random_mesa(rules, players, seed):
        # 40 cards (42 with comodines) conserved, no duplicates
        cards = all_cards(game)
        assert len(cards) == len(deck) and set(cards) == set(deck)
        # deals of 5 cards each; with comodines the stock's last 2 cards are never dealt (§9)
        reserve = 2 if rules.comodines else 0
        assert len(game.stock) >= reserve and (len(game.stock) - reserve) % (5 * players) == 0
        # scores always even (R32)
        assert game.scores[0] % 2 == 0 and game.scores[1] % 2 == 0
        awarded = sum(e.points for e in events if e.kind in PLAY_AWARDS)
        if preset == "quito":
            # no single play scores more than 4, and only a caída en ronda reaches 4 (§7)
            assert awarded <= 4
            if awarded == 4:
                assert any(e.kind == K.CAIDA and e.en_ronda for e in events)
        uncounted = 0
        last_played: Card | None = None
        for e in events:
            if e.kind == K.PLAYED:
                hand_plays += 1
                played_by[e.card] = (e.seat, hand_deals)
                last_played = e.card
            elif e.kind == K.CAPTURED and any(c.is_joker for c in e.cards):
                # a joker on the table is taken only by a played joker, alone (§9)
                assert e.card.is_joker and len(e.cards) == 1
            elif e.kind == K.PERIQUITO:
                # all four cards of one rank, the bonus unless the side was on 38 (§9, R30)
                assert rules.periquito and len(e.cards) == 4 and {c.rank for c in e.cards} == {e.rank}
                assert (e.points, e.blocked) in ((rules.periquito_points, None), (0, "38"))
            elif e.kind == K.CAIDA:
                assert not last_played.is_joker  # a joker is never a caída (§9)
                # never on the first play of a deal (R22)
                assert hand_plays % per_deal != 1
                # only on the card the previous seat, an opponent, trailed in this deal (R4, R22)
                trailer, deal = played_by[e.card]
                assert trailer == (e.seat - 1) % players and trailer % 2 != e.team
                assert deal == hand_deals
            elif e.kind == K.DEAL:
                hand_deals += 1
            elif e.kind == K.LEFTOVERS and e.team is None:
                uncounted = len(e.cards)
            elif e.kind == K.HAND_END:
                # a hand played out: 2p = 4 deals × 10 cards, 4p = 2 deals × 20 (R8); all 40 accounted
                # (with comodines the 2 cards left in the stock are counted for nobody, §9)
                assert hand_deals == deals and hand_plays == 40
                assert sum(e.counts) + uncounted == 40
            elif e.kind == K.HAND_START:
                # the dealer of hand k+1 is the mano of hand k (R10)
                if previous_mano is not None:
                    assert e.seat == previous_mano
                previous_mano = (e.seat + 1) % players
                hand_plays = 0
                hand_deals = 0
            elif e.kind == K.CHICA_WON and e.reason == "target":
                assert e.scores[e.team] >= rules.target
    assert game is not None and game.is_over
    assert game.chicas[game.winner] == rules.chicas_to_win or (
        rules.zapateria and any(e.kind == K.MESA_WON and e.zapatero for e in game.events)
    )


@variants
@settings(max_examples=5, deadline=None)
@given(seed=seeds, preset=presets, players=player_counts)
def test_a_snapshot_and_the_plays_rebuild_the_game_at_every_step(variant, seed, preset, players):
    """The compact snapshot (no history) plus the plays rebuild an identical game, and
    `restore` rewinds a game to any earlier snapshot of itself."""
    rules = rules_for(preset, variant)
    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    taken: list[tuple[dict, Game]] = []
    while not game.is_over and len(game.plays) < 250:
        snapshot = json.loads(json.dumps(game.snapshot()))
        assert "events" not in snapshot and "plays" not in snapshot and snapshot["event_count"] == len(game.events)
        if rng.random() < 0.1:
            taken.append((snapshot, Game.from_dict(game.to_dict())))
        restored = Game.from_snapshot(snapshot, game.plays)
        assert restored == game
        game.play(rng.choice(game.legal_plays()))
    assert Game.from_snapshot(game.snapshot(), game.plays) == game
    for snapshot, then in reversed(taken):
        game.restore(snapshot)
        assert game == then and game.legal_plays() == then.legal_plays()


@given(seed=seeds, players=player_counts)
@settings(max_examples=5, deadline=None)
def test_a_snapshot_does_not_grow_with_the_mesa(seed, players):
    """The saved state after 400 plays is about as big as after 10 (no history in it)."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset("quito"), players, seed)
    sizes = {}
    while len(game.plays) < 400:
        if game.is_over:
            game = Game.new(Rules.preset("quito"), players, f"{seed}+")
        game.play(rng.choice(game.legal_plays()))
        if len(game.plays) in (10, 400):
            sizes[len(game.plays)] = len(json.dumps(game.snapshot()))
    assert sizes[400] < 1.5 * sizes[10] < 3000, sizes
    assert len(json.dumps(game.to_dict())) > 10 * sizes[400], "the whole game does grow: the test measures"


def test_plays_that_do_not_lead_to_the_snapshot_are_refused():
    game = Game.new(Rules.preset("quito"), 2, "tamper")
    rng = random.Random(3)
    for _ in range(30):
        game.play(rng.choice(game.legal_plays()))
    snapshot = game.snapshot()
    with pytest.raises(PositionError, match="do not rebuild"):
        Game.from_snapshot(snapshot, game.plays[:-1])
    with pytest.raises(PositionError, match="not a game snapshot"):
        Game.from_snapshot(game.to_dict(), game.plays)
    with pytest.raises(PositionError, match="later than the game"):
        Game.new(Rules.preset("quito"), 2, "tamper").restore(snapshot)


@variants
@settings(max_examples=5, deadline=None)
@given(seed=seeds, preset=presets, players=player_counts)
@pytest.mark.slow
def test_to_dict_from_dict_identical_at_every_step(variant, seed, preset, players):
    rules = rules_for(preset, variant)
    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    steps = 0
    while not game.is_over and steps < 250:
        restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        assert restored == game
        play = rng.choice(game.legal_plays())
        assert restored.legal_plays() == game.legal_plays()
        assert restored.play(play) == game.play(play)
        steps += 1
    assert Game.from_dict(game.to_dict()) == game


@variants
@SETTINGS
@given(seed=seeds, preset=presets, players=player_counts)
def test_seeded_game_replays_identically(variant, seed, preset, players):
    rules = rules_for(preset, variant)
    *_, (game, _, _) = random_mesa(rules, players, seed)
    replayed = Game.replay(rules, players, seed, game.plays)
    assert replayed == game and replayed.events == game.events


@variants
@settings(max_examples=6, deadline=None)
@given(seed=seeds, preset=presets, players=player_counts)
def test_views_never_show_hidden_cards_or_ronda_ranks(variant, seed, preset, players):
    rules = rules_for(preset, variant)
    for game, _, _ in random_mesa(rules, players, seed):
        if game.is_over:
            break
        hand_start = max(i for i, e in enumerate(game.events) if e.kind == K.HAND_START)
        for seat in range(players):
            view = game.view(seat)
            hidden = set(game.stock)
            for other in range(players):
                if other != seat:
                    hidden.update(game.hands[other])
            visible = {*view.hand, *view.table, *view.captured[0], *view.captured[1], *view.dead}
            # events of earlier hands name cards that have been reshuffled since: only this hand's count
            visible.update(c for e in view.events[hand_start:] for c in (e.card, *e.cards) if c is not None)
            assert not visible & hidden
            assert view.stock_size == len(game.stock)
            # what the seat cannot locate is exactly the hidden cards (jokers and set-aside cards too, §9)
            assert set(view.unseen_cards()) == hidden
            for index, e in enumerate(view.events):
                if e.kind in (K.RONDA, K.DOBLE_RONDA) and e.seat != seat and index in game.hidden:
                    assert e.rank is None
            for ronda_seat, rank in view.rondas:
                if ronda_seat != seat and game.rondas[ronda_seat][1] in game.hidden:
                    assert rank is None


@variants
@settings(max_examples=5, deadline=None)
@given(seed=seeds, preset=presets, players=player_counts)
def test_the_event_log_a_view_shows_is_always_the_fresh_one(variant, seed, preset, players):
    """`Game.view` keeps each seat's event log and extends it: at every step, and after a
    `restore`, it equals the log computed afresh (other seats' ronda ranks hidden until revealed)."""
    rules = rules_for(preset, variant)
    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    saved, restored, steps = None, False, 0
    while not game.is_over and steps < 200:
        for seat in (None, *range(players)):
            fresh = tuple(e.hidden() if i in game.hidden and e.seat != seat else e
                          for i, e in enumerate(game.events))
            assert game.view(seat).events == fresh
        if len(game.plays) == 40 and not restored:
            saved = game.snapshot()
        game.play(rng.choice(game.legal_plays()))
        steps += 1
        if len(game.plays) == 80 and saved is not None and not restored:
            game.restore(saved)  # once: back to play 40, then on with other plays
            restored = True
