"""A seat that changes hands mid-mesa (a person leaves, a computer player takes the seat): every text that
names who made a play (the hand's record, the live lines, «¿Por qué?», replays) names whoever made it,
from the seat history kept with the table (`Table.hand_over`, `Table.held_by`)."""

from __future__ import annotations

from bot.engine import Game, Rules
from bot.replays.present import event_lines
from bot.tables import Seat, Table, TableOptions, choose_play
from bot.ui.records import plays_embed
from bot.ui.words import records, seat_name
from tests.support.helpers import custom_ids, pick_play, play_through_ui, public_message, table_of


def record_of_hand(world, number):
    return next(m for m in world.channel.history()
                if any(c.startswith("c4:j:") and c.endswith(f":{number}") for c in custom_ids(m)))


async def test_a_hands_record_names_a_person_who_left_for_their_own_plays(world, make_bot):
    """Used to fail: once a computer player took ana's seat, the hand's record listed ana's own earlier
    plays as "Compu 1 …" and «¿Por qué?» on her last play named the computer ("Computadora 1 (media, por
    ana)")."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    table = table_of(world, 1)
    members = {world.ana.id: world.ana, world.beto.id: world.beto}
    ana = table.seat_of(world.ana.id)
    hers = []
    while len(hers) < 3:  # three plays of ana's own, the last of them the table's last play
        seat, play = pick_play(table)
        await play_through_ui(members[table.seats[seat].user_id], table, play)
        if seat == ana:
            hers.append(str(play.card))
    assert table.game.plays[-1] is not None and table.game.to_play != ana

    handed_over = table.nonce
    left = await world.ana.slash(world.channel, "cuarenta leave")
    assert left.ephemeral and table.seats[ana].is_ai
    why = await world.caro.click(public_message(world, table), custom_id="c4:y:1")
    assert why.response.content.startswith("**ana** played "), why.response.content

    await world.env.restart_bot(make_bot())  # the history is kept with the table
    table = table_of(world, 1)
    assert table.held_by(ana, 0).name == "ana" and table.held_by(ana, table.nonce).is_ai
    for _ in range(200):
        if table.game.hand_number > 1 or table.status != "playing":
            break
        seat, play = pick_play(table)
        if table.seats[seat].autoplays:
            await world.env.settle()
            continue
        await play_through_ui(world.beto, table, play)
    assert table.game.hand_number > 1 or table.status != "playing", "the first hand ended"
    await world.env.settle()
    stored = await world.bot.store.plays(1)
    computer = [str(table.game.plays[i].card) for i, (seat, _, _) in enumerate(stored) if seat == ana and i >= handed_over]
    assert computer

    plays = await world.caro.click(record_of_hand(world, 1), custom_id="c4:j:1:1")  # «Ver jugadas»
    assert plays.ephemeral
    text = plays.response.embeds[0].description  # in caro's language
    cpu = seat_name(table, ana, "en")
    assert cpu == "CPU 1 (medium, for ana)"
    for card in hers:
        assert f"ana {card}" in text, f"ana's {card} is hers in the record:\n{text}"
        assert f"{cpu} {card}" not in text
    assert any(f"{cpu} {card}" in text for card in computer), "the computer's own plays are its own"
    assert world.env.errors == []


def test_held_by_and_names_follow_the_seat_history():
    """Used to fail (no seat history): every play was named after the seat's holder now. Also: a table
    whose ``meta`` has no seat history (saved before it existed) names every play after today's holder."""
    game = Game.replay(Rules.preset("quito"), 2, "seed-1", [])
    for _ in range(4):
        game.play(choose_play("greedy", game.seed, game.view(game.to_play)))
    old = Table(id=1, guild_id=1, channel_id=1, host_id=1, players=2, preset="quito", status="playing",
                seats=[Seat(1, "ana"), Seat(2, "beto")], game=game)
    assert old.held_by(0, 0).name == "ana" and Seat.from_dict(old.seats[0].to_dict()) == old.seats[0]
    old.hand_over(0, Seat(None, "", ai="medio", ai_number=1, stands_for="ana"))
    assert old.meta_json()[Table.SEAT_HISTORY] == [{"seat": 0, "until": 4, "held_by": Seat(1, "ana").to_dict()}]
    assert old.held_by(0, 3).name == "ana" and old.held_by(0, 4).is_ai and old.held_by(0, None).is_ai
    assert old.held_by(1, 0).name == "beto"
    assert seat_name(old, 0, "es", 2) == "ana" and seat_name(old, 0, "es").startswith("Compu 1 (")

    recs = [r for r in records(game.events, 0) if r.kind == "play"]
    assert [r.at for r in recs] == [0, 1, 2, 3]
    lines = event_lines(old, game.events, "es", 0)
    assert not any("Computadora" in line for line in lines), "the four plays were made before the hand-over"
    assert sum(" ana " in f" {line} " or line.startswith("ana ") for line in lines) >= 2, lines

    saved = Table(id=2, guild_id=1, channel_id=1, host_id=1, players=2, preset="quito", status="playing",
                  seats=old.seats, game=game, options=TableOptions(guild_name="g"))  # no history: names as the seats are now
    assert saved.held_by(0, 0).is_ai
    log_line = plays_embed(saved, 1, "es").description.splitlines()[0]
    assert log_line.count("Compu 1 ") == 2 and "ana " not in log_line, log_line
    log_line = plays_embed(old, 1, "es").description.splitlines()[0]
    assert log_line.count("ana ") == 2 and "Compu 1 " not in log_line, log_line
