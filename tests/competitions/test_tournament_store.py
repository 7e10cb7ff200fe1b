"""Tournaments' own SQL (migration 6, and 11 for the sign-up order) on both backends: what a
tournament service stores is what the next process loads, and a mesa's result is written inside the
transaction of its last play."""

from __future__ import annotations

from bot.competitions.referee import Place
from bot.competitions.tournaments import Match, TournamentService
from bot.tables import TableService
from tests.support.helpers import pick_play

GUILD = 1_300_000_000_000_000_001
CHANNEL = 1_300_000_000_000_000_002
PEOPLE = [(1_100_000_000_000_000_000 + 10 * i, f"p{i}") for i in range(1, 6)]


class Channels:
    """A presenter that only opens places for match tables (every other call is ignored)."""

    def __init__(self) -> None:
        self.made: list[int] = []

    def __getattr__(self, name):
        async def ignore(*args, **kwargs) -> None:
            return None
        return ignore

    async def make_channel(self, tournament, match) -> Place:
        self.made.append(match.id)
        return Place(CHANNEL + 100 + len(self.made), "Quito Club", f"match-{match.id}")


async def _reloaded(store, tables, clock) -> TournamentService:
    """A new service over the same database, as after a restart."""
    svc = TournamentService(store, TableService(store, ai_delay=0, clock=clock), clock)
    await svc.load()
    return svc


async def test_signup_order_seeds_and_matches_survive_a_restart(store, tables, clock):
    svc = TournamentService(store, tables, clock)
    t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=PEOPLE[0][0], name="Copa",
                         format="elimination", best_of=3, round_days=2, policy="double_loss")
    t.signup_message_id = 1_500_000_000_000_000_009
    await svc.save_signup_message(t)
    order = [PEOPLE[i] for i in (3, 0, 4, 2, 1)]  # not the order of the ids
    for user_id, name in order:
        await svc.sign_up(t, user_id=user_id, name=name, locale="en" if user_id % 20 else "es")

    loaded = (await _reloaded(store, tables, clock)).tournaments[t.id]
    assert [p.user_id for p in loaded.players] == [u for u, _ in order], "the sign-up order"
    assert loaded == t

    await svc.close_signup(t, user_id=PEOPLE[0][0], can_manage=False)
    assert [p.seed for p in t.players] == [1, 2, 3, 4, 5], "nobody rated: seeded in sign-up order"
    assert t.status == "running" and t.current_round == 1
    assert isinstance(t.round_deadline, float)
    byes = [m for m in t.matches if m.b_user is None]
    assert len(t.matches) == 4 and len(byes) == 3 and all(m.status == "walkover" for m in byes)

    loaded = (await _reloaded(store, tables, clock)).tournaments[t.id]
    assert loaded == t
    assert all(isinstance(m.id, int) and m.id > 0 for m in loaded.matches)

    [real] = [m for m in t.matches if m.b_user is not None]
    await svc.play(t, user_id=real.a_user)  # «Jugar» by one: waiting, and when
    assert (await _reloaded(store, tables, clock)).tournaments[t.id].matches == t.matches
    assert isinstance(real.ready_a, float) and real.ready_b is None

    await svc.award_walkover(t, user_id=PEOPLE[0][0], can_manage=False, winner_user=real.b_user)
    assert t.current_round == 2, "every match of round 1 resolved: round 2 drawn"
    loaded = (await _reloaded(store, tables, clock)).tournaments[t.id]
    assert loaded == t
    assert [(m.round, m.slot) for m in loaded.matches] == sorted((m.round, m.slot) for m in t.matches)

    await svc.cancel(t, user_id=PEOPLE[0][0], can_manage=False)
    assert t.id not in (await _reloaded(store, tables, clock)).tournaments
    await svc.close()


async def test_a_mesa_result_is_recorded_once_in_the_last_plays_transaction(store, tables, clock):
    channels = Channels()
    svc = TournamentService(store, tables, clock, presenter=channels)
    clock.watch(svc._tasks)
    (ana, ana_name), (beto, beto_name) = PEOPLE[0], PEOPLE[1]
    t = await svc.create(guild_id=GUILD, channel_id=CHANNEL, organizer_id=ana, name="Final", format="elimination",
                         preset="rapido")
    await svc.sign_up(t, user_id=ana, name=ana_name, locale="es")
    await svc.sign_up(t, user_id=beto, name=beto_name, locale="es")
    await svc.close_signup(t, user_id=ana, can_manage=False)
    assert (await svc.play(t, user_id=ana))[0] == "waiting"
    status, match = await svc.play(t, user_id=beto)
    assert status == "opened" and match.table_id is not None

    table = tables.tables[match.table_id]
    for _ in range(4000):
        if table.status == "finished":
            break
        seat, play = pick_play(table)
        await tables.play(table.id, user_id=table.seats[seat].user_id, nonce=table.nonce, card=play.card.code,
                          captures=" ".join(c.code for c in play.sorted_captures()) if play.captures else None,
                          trail=play.is_trail)
    assert table.status == "finished"
    await clock.settle()  # the service's work after the result (the next round, the announcements)

    winner = table.seats[0 if table.game.winner == 0 else 1].user_id
    row = await store.db.fetchrow("SELECT status, wins_a, wins_b, winner, table_id FROM tournament_matches"
                                  " WHERE id = ?", match.id)
    assert (row["status"], row["winner"], row["table_id"]) == ("done", winner, table.id)
    assert row["wins_a"] + row["wins_b"] == 1
    assert await store.db.fetchval("SELECT status FROM tournaments WHERE id = ?", t.id) == "finished"
    assert (await store.load_table(table.id)).status == "finished", "the play and the result: one commit"
    assert isinstance(match, Match) and match.status == "done" and match.winner == winner
    await svc.close()
