"""Pistas: a practice table's hands mark the plays that capture and what each scores at once; a hinted
mesa is never rated."""

from __future__ import annotations

from bot.engine import EventKind as K
from bot.engine import Rules
from bot.i18n import t
from bot.ui.hints import hint_lines
from tests.ratings.test_leaderboard import play_via_service, ratings
from tests.support.helpers import controls, latest_hand, message_text, play_through_ui, table_of


def immediate_points(game, play) -> int:
    """What the engine says the play scores at once: the rules' value for its caída / limpia
    (`Game.explain`), zero for a plain capture; at the 38 only a caída counts (R30)."""
    info = game.explain(play)
    rules: Rules = game.rules
    points = (rules.caida_limpia if info.caida and info.limpia else rules.caida if info.caida
              else rules.limpia if info.limpia else 0)
    if rules.rule38 and game.scores[game.to_play % 2] == rules.score38 and not info.caida:
        points = 0
    return points


async def test_a_hinted_hand_marks_every_capturing_card_with_its_best_score(world):
    opened = await world.ana.slash(world.channel, "cuarenta new", players=2, hints=True)
    assert opened.ephemeral
    lobby = world.channel.last_message
    assert t("lobby.hints", "es") in lobby.embeds[0].description, "the lobby says it is a practice table"
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta start")
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    checked = scored = 0
    for _ in range(40):
        table = table_of(world, 1)
        game = table.game
        seat = game.to_play
        member = members[table.seats[seat].user_id]
        hand = latest_hand(member)
        capturing = {p.card for p in game.legal_plays() if p.captures}
        buttons = {c.custom_id.rsplit(":", 1)[1]: c.style for c in controls(hand)
                   if c.custom_id and c.custom_id.startswith("c4:p:")}
        green = {code for code, style in buttons.items() if style.name == "success"}
        assert green == {c.code for c in capturing}, "the capturing cards are marked"
        if capturing:
            assert "Hints" in message_text(hand)
            for card in capturing:
                best = max(immediate_points(game, p) for p in game.plays_for(card) if p.captures)
                line = next(x for x in message_text(hand).splitlines() if x.startswith(f"• {card} →"))
                assert (f"+{best}**" in line) == (best > 0), (line, best)
                scored += best > 0
            checked += 1
        else:
            assert "No card captures anything" in message_text(hand)
        _, play = max(((0, p) for p in game.legal_plays()), key=lambda x: len(x[1].captures))
        await play_through_ui(member, table, play)
    assert checked >= 5 and scored >= 1, (checked, scored)


async def test_hints_never_show_in_a_table_without_them_nor_off_turn(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    for seat in (0, 1):
        assert hint_lines(table, table.game.view(seat), "en") == []
    assert "Hints" not in message_text(latest_hand(world.ana)) and "Hints" not in message_text(latest_hand(world.beto))


async def test_a_hinted_mesa_between_people_is_never_rated(world):
    await world.ana.slash(world.channel, "cuarenta new", players=2, hints=True)
    await world.beto.slash(world.channel, "cuarenta join")
    await world.ana.slash(world.channel, "cuarenta start")
    table = table_of(world, 1)
    await play_via_service(world, table.id)
    stats = await ratings(world).stats(world.guild.id, world.ana.id)
    chicas = [e for e in table.game.events if e.kind == K.CHICA_WON]
    assert stats.chicas == len(chicas) > 0, "the chicas are stored"
    assert stats.modes["1v1"].rated_chicas == 0 and stats.modes["1v1"].rating is None, "never rated"


def test_a_fourth_caida_that_wins_the_chica_is_hinted_as_winning_it():
    """cuenca: four caídas in a row win the chica (R26); side A has three and the 5♥ can take the 5♣ beto
    just trailed: the hint says it wins the chica (the streak is public), as the engine then decides."""
    from bot.engine import EventKind as K
    from bot.engine import Game, Rules
    from bot.tables import Seat, Table, TableOptions
    from bot.ui.hints import hint_lines

    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5H KD", "QH QD"],
                              table="5C 2S", last_trail="5C", trailed_by=1, dealer=1, to_play=0,
                              streaks=(3, 0), scores=(10, 10))
    table = Table(id=1, guild_id=1, channel_id=1, host_id=100, players=2, preset="cuenca", status="playing",
                  seed="x", seats=[Seat(100, "ana"), Seat(101, "beto")], game=game, options=TableOptions(hints=True))
    line = next(x for x in hint_lines(table, game.view(0), "en") if x.startswith("• 5♥ →"))
    assert t("hint.wins_chica", "en") in line, line
    game.play(next(p for p in game.plays_for("5H") if p.captures))
    assert any(e.kind == K.CHICA_WON and e.reason == "four_caidas" for e in game.events), "the engine agrees"
