"""Presence at the service level, on a `ManualClock` (never the real one): turn timers, reminders, expiry,
AFK hand-over and return, leaving and kicks mid-game, lobby timeout, everyone gone, deleted channels,
restarts that resume the time left, and two tables that never touch each other."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import NotHostError, Played, SeatError, TableError, TableService
from bot.tables.ports import NullNotifier
from bot.tables.presence import SUBSTITUTE_LEVEL
from bot.tables.timers import LOBBY_TIMEOUT, RESTART_GRACE, ManualClock
from tests.support.helpers import conserved

ANA, BETO, CARO, DANI = 10, 20, 30, 40


async def inline(func, *args):
    return func(*args)


class Recorder(NullNotifier):
    """A notifier that records the table notes (reminders, timeouts …)."""

    def __init__(self) -> None:
        self.notes: list[tuple[int, str, dict]] = []
        self.closed: list[int] = []

    async def lobby_changed(self, table): ...
    async def game_changed(self, table, events): ...
    async def repost(self, table): ...
    async def resumed(self, table): ...

    async def table_closed(self, table):
        self.closed.append(table.id)

    async def table_note(self, table, kind, **params):
        self.notes.append((table.id, kind, params))

    def kinds(self, table_id=None):
        return [k for tid, k, _ in self.notes if table_id is None or tid == table_id]


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def db(database_url):
    """The table service's database, once on each backend."""
    return database_url


@pytest.fixture
async def made(db, clock):
    services = []

    async def make():
        store = await Store.open(db)
        svc = TableService(store, Recorder(), ai_delay=0, seed_factory=lambda: "fixed", offload=inline, clock=clock)
        services.append(svc)
        clock.watch(svc._tasks)
        await svc.load()
        return svc

    yield make
    for svc in services:
        await svc.close()
        await svc.store.close()


@pytest.fixture
async def service(made):
    return await made()




async def people(service, n=4, channel=2, guild=1, first=ANA, turn_timer=None):
    ids = [first, first + 10, first + 20, first + 30][:n]
    table = await service.create(guild_id=guild, channel_id=channel, user_id=ids[0], name=f"p{ids[0]}",
                                 locale="es", players=n, turn_timer=turn_timer)
    for uid in ids[1:]:
        await service.join(table.id, user_id=uid, name=f"p{uid}", locale="es")
    await service.clock.settle()
    assert table.status == "playing"
    return table


async def play_turn(service, table):
    """The person in turn plays (greedy choice)."""
    from bot.tables import choose_play

    game = table.game
    seat = game.to_play
    play = choose_play("greedy", game.seed, game.view(seat))
    result = await service.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce,
                                card=play.card.code, captures=" ".join(c.code for c in play.sorted_captures()) or None,
                                trail=play.is_trail and any(p.captures for p in game.plays_for(play.card)))
    assert isinstance(result, Played)
    await service.clock.settle()


async def test_reminder_at_two_thirds_then_expiry_plays_the_medio_move(service, clock):
    table = await people(service, n=2, turn_timer=90)
    seat, nonce = table.game.to_play, table.nonce
    assert table.timers.deadline == clock.now() + 90
    await clock.advance(59)
    assert service.notifier.kinds() == []
    await clock.advance(1)
    assert service.notifier.kinds() == ["reminder"], "reminded once at 2/3 of the time"
    stored = await service.store.load_table(table.id)
    assert stored.timers["reminded"] is True, "the reminder is stored: not sent again after a restart"
    await clock.advance(29)
    assert table.nonce == nonce, "not before the deadline"
    await clock.advance(1)
    assert table.nonce == nonce + 1, "the seat played at the deadline"
    assert service.notifier.kinds() == ["reminder", "expired"]
    assert table.game.plays[-1] and (await service.store.plays(table.id))[-1][0] == seat
    assert table.timers.strikes == {str(seat): 1}
    assert not table.casual and not table.seats[seat].away
    conserved(table)


async def test_two_expiries_in_a_row_hand_the_seat_over_until_a_click(service, clock):
    table = await people(service, n=4, turn_timer=30)
    afk = table.game.to_play
    afk_user = table.seats[afk].user_id
    await clock.advance(30)  # first expiry
    while table.game.to_play != afk:
        await play_turn(service, table)
    await clock.advance(30)  # second expiry in a row
    assert table.seats[afk].away and table.casual
    assert "away" in service.notifier.kinds()
    assert (await service.store.load_table(table.id)).casual is True
    for _ in range(8):  # the computer plays the away seat; the others play on
        if table.seats[table.game.to_play].away:
            await service.clock.settle()
            continue
        await play_turn(service, table)
    assert table.seats[afk].away and table.seat_of(afk_user) == afk, "the person keeps the seat while away"
    conserved(table)
    with pytest.raises(TableError):  # any click on their hand brings them back, even a stale one
        await service.play(table.id, user_id=afk_user, nonce=0, card="AS")
    await service.clock.settle()
    assert not table.seats[afk].away
    assert "back" in service.notifier.kinds()
    assert table.timers.strikes.get(str(afk)) is None


async def test_back_command_and_a_click_just_before_the_deadline_counts(service, clock):
    table = await people(service, n=2, turn_timer=60)
    nonce = table.nonce
    await clock.advance(59.9)
    await play_turn(service, table)  # the click wins the lock before the expiry
    await clock.advance(0.2)
    assert table.nonce == nonce + 1, "the expiry did nothing: the click counted"
    assert "expired" not in service.notifier.kinds()


async def test_a_restart_resumes_the_time_that_was_left(made, clock):
    first = await made()
    table = await people(first, n=2, turn_timer=90)
    deadline, nonce = table.timers.deadline, table.nonce
    await clock.advance(40)
    await first.close()  # the bot stops with 50 s left
    await clock.advance(10)  # down for 10 s
    second = await made()
    restored = second.tables[table.id]
    assert restored.timers.deadline == deadline, "not a fresh timer"
    await clock.advance(39)
    assert restored.nonce == nonce, "not an instant expiry either"
    assert second.notifier.kinds() == ["reminder"], "the 2/3 reminder (at 60 s) fired after the restart"
    await clock.advance(1)
    assert restored.nonce == nonce + 1 and second.notifier.kinds() == ["reminder", "expired"]


async def test_a_deadline_that_passed_while_down_gets_a_grace_period(made, clock):
    first = await made()
    table = await people(first, n=2, turn_timer=30)
    nonce = table.nonce
    await first.close()
    await clock.advance(300)
    second = await made()
    restored = second.tables[table.id]
    assert restored.timers.deadline == clock.now() + RESTART_GRACE
    await clock.advance(RESTART_GRACE - 1)
    assert restored.nonce == nonce
    await clock.advance(1)
    assert restored.nonce == nonce + 1


async def test_leaving_mid_hand_hands_the_cards_to_a_computer_and_the_mesa_ends(service, clock):
    table = await people(service, n=4)
    await play_turn(service, table)
    leaver = next(s for s in range(4) if table.seats[s].user_id == ANA)
    hand = list(table.game.hands[leaver])
    result = await service.leave(table.id, user_id=ANA)
    assert not result.closed and result.new_host is not None and table.host_id == result.new_host.user_id
    seat = table.seats[leaver]
    assert seat.is_ai and seat.ai == SUBSTITUTE_LEVEL and seat.stands_for == f"p{ANA}"
    assert table.game.hands[leaver] == hand, "the hand passes whole"
    assert table.casual and table.meta_json()["casual"] and service.is_casual(table)
    assert service.table_of_user(ANA) is None, "free to sit elsewhere"
    conserved(table)
    for _ in range(3000):
        if table.status != "playing":
            break
        if table.seats[table.game.to_play].autoplays:
            await service.clock.settle()
            continue
        await play_turn(service, table)
        conserved(table)
    assert table.status == "finished"
    assert (await service.store.load_table(table.id)).casual


async def test_kick_by_host_or_manager_only(service):
    table = await people(service, n=4)
    with pytest.raises(NotHostError):
        await service.kick(table.id, user_id=BETO, target_id=CARO)
    with pytest.raises(SeatError):
        await service.kick(table.id, user_id=ANA, target_id=ANA)
    await service.kick(table.id, user_id=ANA, target_id=CARO)
    caro_seat = next(i for i, s in enumerate(table.seats) if s.stands_for == f"p{CARO}")
    assert table.seats[caro_seat].is_ai and table.casual
    await service.kick(table.id, user_id=99, target_id=ANA, can_manage=True)
    assert table.host_id in (BETO, DANI), "hosting passed to the next person"
    conserved(table)


async def test_kick_in_a_lobby_frees_the_seat(service):
    table = await service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=4)
    await service.join(table.id, user_id=BETO, name="beto", locale="es")
    await service.kick(table.id, user_id=ANA, target_id=BETO)
    assert table.seat_of(BETO) is None and table.status == "lobby" and not table.casual


async def test_the_lobby_closes_itself_after_15_minutes(service, clock):
    table = await service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=4)
    await service.join(table.id, user_id=BETO, name="beto", locale="es")
    await clock.advance(LOBBY_TIMEOUT - 1)
    assert table.status == "lobby"
    await clock.advance(1)
    assert table.status == "closed" and "lobby_timeout" in service.notifier.kinds()
    assert service.table_of_user(ANA) is None and service.table_of_user(BETO) is None
    again = await service.create(guild_id=1, channel_id=2, user_id=BETO, name="beto", locale="es", players=2)
    assert again.status == "lobby"


async def test_a_started_table_has_no_lobby_timeout(service, clock):
    table = await people(service, n=2, turn_timer=300)
    await clock.advance(LOBBY_TIMEOUT)
    assert table.status == "playing"


async def test_no_person_left_ends_the_table(service):
    table = await service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
    await service.add_computer(table.id, user_id=ANA)
    await service.clock.settle()
    result = await service.leave(table.id, user_id=ANA)
    assert result.closed and table.status == "closed"
    await service.clock.settle()
    assert table.id in service.notifier.closed


async def test_all_people_away_ends_the_table(service, clock):
    table = await service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2,
                                 turn_timer=30)
    await service.add_computer(table.id, user_id=ANA)
    await service.clock.settle()
    for _ in range(2):
        while table.status == "playing" and table.game.to_play != 0:
            await service.clock.settle()
        await clock.advance(30)
    assert table.status == "closed", "computer players never play on alone"


async def test_a_deleted_channel_ends_the_table_and_frees_its_players(service):
    table = await people(service, n=2)
    await play_turn(service, table)
    assert await service.channel_gone(2) is table
    assert table.status == "closed" and service.table_of_user(ANA) is None
    assert (await service.store.load_table(table.id)).status == "closed"
    other = await service.create(guild_id=1, channel_id=5, user_id=ANA, name="ana", locale="es", players=2)
    assert other.status == "lobby", "sits elsewhere straight away"


async def test_member_gone_only_from_their_own_server(service):
    table = await people(service, n=2)
    assert await service.member_gone(999, ANA) is None, "leaving another server changes nothing"
    assert table.seats[0].user_id == ANA
    assert await service.member_gone(1, ANA) is table
    assert table.status == "playing", "beto is still here: the computer plays ana's seat"
    assert table.seat_of(ANA) is None and table.casual


async def test_two_tables_keep_their_own_clocks(service, clock):
    one = await people(service, n=2, channel=2, guild=1, first=ANA, turn_timer=30)
    two = await people(service, n=2, channel=3, guild=7, first=100, turn_timer=60)
    n1, n2 = one.nonce, two.nonce
    await clock.advance(30)
    assert one.nonce == n1 + 1 and two.nonce == n2, "only the first table's turn expired"
    assert service.notifier.kinds(two.id) == [], "the second table's reminder is at 40 s"
    await service.channel_gone(2)
    assert one.status == "closed" and two.status == "playing"
    await clock.advance(30)
    assert two.nonce == n2 + 1


async def test_guild_turn_timer_setting(service):
    assert await service.guild_turn_timer(1) == 90
    await service.set_guild_turn_timer(1, 45)
    assert await service.guild_turn_timer(1) == 45
    table = await service.create(guild_id=1, channel_id=2, user_id=ANA, name="ana", locale="es", players=2)
    assert table.timers.turn_timer == 45


async def test_a_rematch_check_that_ran_out_while_down_expires_at_the_restart(made, clock):
    """An open rematch ready check is kept in the store (on both backends) with its message; a restart
    after its minute ran out expires it at once and forgets it. One still running is resumed."""
    from bot.tables.rematch import EXPIRED, OPEN, READY_TIMEOUT

    first = await made()
    tables = [await people(first, n=2, channel=c, first=ANA + 100 * c) for c in (2, 3)]
    for table in tables:
        while table.status == "playing":
            await play_turn(first, table)
        assert table.status == "finished"
    early = await first.ask_rematch(tables[0].id, user_id=tables[0].seats[0].user_id)
    early.message_id = 555
    await first.rematch_posted(early)
    await clock.advance(READY_TIMEOUT - 10)
    late = await first.ask_rematch(tables[1].id, user_id=tables[1].seats[0].user_id)
    kept = await first.store.load_rematch_checks()
    assert set(kept) == {tables[0].id, tables[1].id} and kept[tables[0].id]["message_id"] == 555
    await first.close()
    await clock.advance(20)  # down past the first check's minute, not the second's

    second = await made()
    await clock.settle()  # the expiry at the restart deletes its row in a background task
    assert second.ready_check(tables[0].id).status == EXPIRED
    resumed = second.ready_check(tables[1].id)
    assert resumed.status == OPEN and resumed.deadline == late.deadline
    assert set(await second.store.load_rematch_checks()) == {tables[1].id}
    await second.vote_rematch(tables[1].id, user_id=tables[1].seats[1].user_id, accept=False)
    assert await second.store.load_rematch_checks() == {}
