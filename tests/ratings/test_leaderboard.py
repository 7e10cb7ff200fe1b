"""Ratings on Discord: rating wired into persistence (exactly once, also across a restart),
leaderboard pages and the 1v1/2v2 switch, stats and history after real mesas checked against values
computed from the engine events, seasons, settings, permissions, and two servers kept apart."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import discord
from openskill.models import PlackettLuce

from bot.engine import EventKind, Game
from bot.i18n import t, tn
from bot.ratings import ChicaResult, display_rating
from bot.ui import boards, limits
from tests.support.helpers import (
    click_raw,
    custom_ids,
    look,
    pick_play,
    production_bot,
    replay_from_store,
    slow_down,
    table_of,
)

K = EventKind


# ---------------------------------------------------------------------------------------- helpers


def ratings(world):
    return world.bot.tables.ratings


def message(world, message_id, channel=None):
    return next(m for m in (channel or world.channel).history() if m.id == message_id)


def embed_text(msg) -> str:
    data = msg.embeds[0].to_dict()
    parts = [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def rows_of(msg) -> list[str]:
    return [line for line in (msg.embeds[0].description or "").splitlines() if line.startswith("**")]


async def play_via_service(world, table_id: int, *, before_play=None) -> None:
    """Play a table to its end through the table service (people play the greedy choice; computer
    players move by themselves)."""
    service = world.bot.tables
    for _ in range(4000):
        table = service.tables[table_id]
        if table.status == "finished":
            async with table.lock:  # a computer's last play may still be saving
                pass
            await world.env.settle()  # and let the bot finish what that play started
            return
        seat = table.game.to_play
        if table.seats[seat].is_ai:
            await asyncio.sleep(0.001)
            continue
        _, play = pick_play(table)
        if before_play is not None:
            await before_play(table, seat, play)
        await service.play(table_id, user_id=table.seats[seat].user_id, nonce=table.nonce, card=play.card.code,
                           captures=" ".join(c.code for c in play.sorted_captures()) if play.captures else None,
                           trail=play.is_trail)
    raise AssertionError("the mesa did not end")


async def new_1v1(world, host, guest, rules="rapido", channel=None):
    channel = channel or world.channel
    await host.slash(channel, "cuarenta new", players=2, rules=rules)
    table = world.bot.tables.table_in_channel(channel.id)
    if guest is None:
        await host.select(channel.last_message, ["medio"], custom_id=f"c4:v:{table.id}")
    else:
        await guest.slash(channel, "cuarenta join")
    return table


def expected_from_events(games, user_id):
    """What `/cuarenta stats` must show for ``user_id``, counted here straight from the engine events of
    the mesas (``games``: ``(seats, Game)``), and the 1v1 rating replayed with openskill itself."""
    out = dict(mesas=0, mesas_won=0, chicas=0, chicas_won=0, caidas=0, limpias=0, rondas=0, zap_given=0,
               zap_suffered=0)
    model = PlackettLuce()
    rating = {}
    results = []
    for seats, game, rated in games:
        seat = seats.index(user_id)
        team = seat % 2
        out["mesas"] += 1
        out["mesas_won"] += int(game.winner == team)
        for e in game.events:
            if e.kind == K.CAIDA and e.seat == seat:
                out["caidas"] += 1
                out["limpias"] += int(bool(e.limpia))
            elif e.kind == K.LIMPIA and e.seat == seat:
                out["limpias"] += 1
            elif e.kind == K.RONDA and e.seat == seat:
                out["rondas"] += 1
            elif e.kind == K.CHICA_WON:
                won = e.team == team
                out["chicas"] += 1
                out["chicas_won"] += int(won)
                if e.zapatero:
                    out["zap_given" if won else "zap_suffered"] += 1
                results.append(won)
                if rated:
                    a, b = seats[0], seats[1]
                    ra = rating.get(a, model.rating())
                    rb = rating.get(b, model.rating())
                    [[ra], [rb]] = model.rate([[ra], [rb]], ranks=[1, 2] if e.team == 0 else [2, 1])
                    rating[a], rating[b] = ra, rb
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    out["best_streak"] = best
    r = rating.get(user_id)
    out["rating"] = display_rating(r.mu, r.sigma) if r is not None else None
    out["last"] = results[::-1][:10]
    return out


async def seed_chicas(world, guild_id, pairs, *, mode="1v1", table0=1000):
    """Record chicas straight through the repository: ``pairs`` of (winner, loser) user ids (1v1) or of
    teams (2v2)."""
    for i, (win, lose) in enumerate(pairs):
        teams = ((win,), (lose,)) if mode == "1v1" else (tuple(win), tuple(lose))
        await ratings(world).record_chica(ChicaResult(
            guild_id=guild_id, table_id=table0 + i, chica_number=1, teams=(teams[0], teams[1]), winner=0,
            scores=(40, 20)))


# ---------------------------------------------------------------------------------------- rating hook


async def test_a_finished_chica_is_rated_in_the_same_save_and_a_computer_game_is_casual(world):
    table = await new_1v1(world, world.ana, world.beto)
    await play_via_service(world, table.id)
    stats = await ratings(world).stats(world.guild.id, world.ana.id)
    chicas = [e for e in table.game.events if e.kind == K.CHICA_WON]
    assert stats.chicas == len(chicas) and stats.modes["1v1"].rated_chicas == len(chicas)
    assert stats.modes["1v1"].rating is not None

    casual = await new_1v1(world, world.caro, None)
    await play_via_service(world, casual.id)
    caro = await ratings(world).stats(world.guild.id, world.caro.id)
    assert caro.chicas == len([e for e in casual.game.events if e.kind == K.CHICA_WON]) > 0
    assert caro.modes["1v1"].rated_chicas == 0 and caro.modes["1v1"].rating is None, "casual by default"
    assert world.env.errors == []


async def test_a_crash_before_the_commit_rolls_back_play_and_rating_and_a_restart_rates_once(world, make_bot):
    table = await new_1v1(world, world.ana, world.beto)
    service = world.bot.tables
    original = service._record_chicas
    crashed = []

    async def crash_after_rating(t):
        await original(t)  # the rating is written inside the transaction …
        raise RuntimeError("power cut before COMMIT")  # … and the process dies before the commit

    async def before_play(t, seat, play):
        if crashed:
            return
        probe = Game.from_dict(t.game.to_dict())
        if any(e.kind == K.CHICA_WON for e in probe.play(play, seat=seat)):
            crashed.append(t.nonce)
            service._record_chicas = crash_after_rating

    try:
        await play_via_service(world, table.id, before_play=before_play)
    except RuntimeError:
        pass
    assert crashed, "a play that ends a chica was reached"
    assert table.nonce == crashed[0], "the play was not saved"
    assert (await ratings(world).stats(world.guild.id, world.ana.id)).chicas == 0, "nor its rating"

    await world.env.restart_bot(make_bot())
    await play_via_service(world, table.id)
    game = table_of(world, table.id).game
    chicas = len([e for e in game.events if e.kind == K.CHICA_WON])
    stats = await ratings(world).stats(world.guild.id, world.ana.id)
    assert stats.chicas == chicas and stats.modes["1v1"].rated_chicas == chicas
    board = await ratings(world).leaderboard(world.guild.id, "1v1", viewer=world.ana.id)
    assert board.viewer.games == chicas, "each chica rated exactly once"


async def test_a_rating_that_failed_is_caught_up_at_restart_exactly_once(world, make_bot):
    table = await new_1v1(world, world.ana, world.beto)
    service = world.bot.tables

    async def broken(*args, **kwargs):
        raise RuntimeError("ratings unavailable")

    service.ratings.record_chicas = broken  # the game goes on; the chicas stay unrated for now
    await play_via_service(world, table.id)
    assert table.status == "finished"
    del service.ratings.record_chicas
    assert (await ratings(world).stats(world.guild.id, world.ana.id)).chicas == 0

    await world.env.restart_bot(make_bot())  # startup catch-up
    chicas = len([e for e in table.game.events if e.kind == K.CHICA_WON])
    first = await ratings(world).leaderboard(world.guild.id, "1v1", viewer=world.ana.id)
    assert first.viewer.games == chicas

    await world.env.restart_bot(make_bot())  # and again: nothing is rated twice
    again = await ratings(world).leaderboard(world.guild.id, "1v1", viewer=world.ana.id)
    assert again.viewer == first.viewer
    assert await world.bot.tables.catch_up_ratings() == 0


# ---------------------------------------------------------------------------------------- stats, history


def assert_no_line_twice(text: str) -> None:
    """No line of a stats embed is repeated, nor are the labels that used to be: mesas, the best streak."""
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == len(set(lines)), text
    for label in ("Mesas", "Mejor racha", "Best streak", "Melhor sequência"):
        assert text.count(label) <= 1, (label, text)


async def test_stats_list_no_line_twice_for_players_with_and_without_history(world):
    """ana played three chicas (two 1 v 1 won, one 2 v 2 lost), beto two 1 v 1, caro one 2 v 2 and eva
    none. Stats used to repeat "Mesas"/"Chicas" (the totals and the only mode's field), "Mejor racha"
    (per mode and overall) and show "La última chica ❌" for a single result. Now every line is said once,
    with the story: the current streak beside the best one, and the caídas of the last 7 days."""
    gid = world.guild.id
    a, b, c, d = world.ana.id, world.beto.id, world.caro.id, world.dani.id
    await seed_chicas(world, gid, [(a, b), (a, b)])
    await seed_chicas(world, gid, [((b, c), (a, d))], mode="2v2", table0=5000)
    texts = {}
    for member in (world.ana, world.beto, world.caro, world.eva):
        shown = await member.slash(world.channel, "cuarenta stats")
        texts[member.name] = embed_text(shown.response)
        assert_no_line_twice(texts[member.name])
    ana = texts["ana"]
    assert "Streak: 1 chica lost · Best streak: 2" in ana, ana
    assert "Last 7 days: no caída" in ana
    assert "Last 3 chicas (newest first)\n❌ ✅ ✅" in ana
    assert "Chicas: 2 (2 won, 100%)" in ana and "Chicas: 1 (0 won, 0%)" in ana, "both modes: per mode"
    caro = texts["caro"]
    assert "🔥 Streak: 1 chica won · Best streak: 1" in caro, caro
    assert caro.count("Chicas:") == 1, "one mode: its chicas are the totals, said once"
    assert "last chica" not in caro.lower() and "✅" not in caro, "one result is the streak, not a list"
    assert "No chicas played on this server yet." in texts["eva"]
    assert world.env.errors == []


async def test_stats_and_history_after_known_mesas_match_the_engine_events(world):
    played = []
    for host, guest in ((world.ana, world.beto), (world.beto, world.ana)):
        table = await new_1v1(world, host, guest)
        await play_via_service(world, table.id)
        played.append(([s.user_id for s in table.seats], table.game, True))
    casual = await new_1v1(world, world.ana, None)
    await play_via_service(world, casual.id)
    played.append(([s.user_id for s in casual.seats], casual.game, False))

    want = expected_from_events(played, world.ana.id)
    got = await ratings(world).stats(world.guild.id, world.ana.id)
    assert (got.mesas, got.mesas_won, got.chicas, got.chicas_won) == (
        want["mesas"], want["mesas_won"], want["chicas"], want["chicas_won"])
    assert (got.caidas, got.limpias, got.rondas) == (want["caidas"], want["limpias"], want["rondas"])
    assert (got.zapateros_given, got.zapateros_suffered) == (want["zap_given"], want["zap_suffered"])
    assert got.best_streak == want["best_streak"]
    assert got.caidas_week == want["caidas"], "every caída of these mesas was made in the last 7 days"
    assert [line.won for line in got.last_results] == want["last"]
    assert abs(got.modes["1v1"].rating - want["rating"]) <= 1, "openskill replayed by hand (idle σ growth ≈ 0)"
    assert got.partner is None, "no partner in 1v1"

    shown = await world.ana.slash(world.channel, "cuarenta stats")
    assert shown.ephemeral
    text = embed_text(shown.response)
    assert f"Caídas: {want['caidas']} · Limpias: {want['limpias']} · Rondas: {want['rondas']}" in text
    assert f"Mesas: {want['mesas']} ({want['mesas_won']} won)" in text
    assert f"given {want['zap_given']} · received {want['zap_suffered']}" in text
    week = tn("stats.week", want["caidas"], "en", n=want["caidas"]) if want["caidas"] else t("stats.week_none", "en")
    assert week in text, "the caídas of the last 7 days"
    assert_no_line_twice(text)
    other = await world.caro.slash(world.channel, "cuarenta stats", user=world.ana)
    assert embed_text(other.response) == text, "anyone may look up a player"

    history = await world.ana.slash(world.channel, "cuarenta history")
    lines = [line for line in history.response.embeds[0].description.splitlines() if line.startswith("`#")]
    assert [line.split("`")[1] for line in lines] == [f"#{casual.id}", "#2", "#1"]
    assert "vs computer" in lines[0] and "vs beto" in lines[1]
    first = played[0][1]
    ana_won = first.winner == 0
    assert ("won" if ana_won else "lost") in lines[2]
    assert f"{first.chicas[0]}–{first.chicas[1]}" in lines[2]
    replayed = await replay_from_store(world, table_of(world, 1) if 1 in world.bot.tables.tables else
                                       await world.bot.tables.fetch(1))
    assert replayed.to_dict() == first.to_dict(), "the stored seed and plays replay the mesa exactly"
    assert world.env.errors == []


# ---------------------------------------------------------------------------------------- leaderboard


async def test_leaderboard_pages_the_mode_switch_and_the_footer(world, make_bot):
    gid = world.guild.id
    players = [world.guild.add_member(world.env.create_user(f"p{i:02d}")) for i in range(23)]
    await ratings(world).set_settings(gid, min_games=1)
    ids = [p.id for p in players]
    await seed_chicas(world, gid, [(ids[i], ids[i + 1]) for i in range(0, 22)])  # 23 players, 1v1
    await seed_chicas(world, gid, [((ids[0], ids[1]), (ids[2], ids[3]))], mode="2v2", table0=5000)

    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert not shown.ephemeral, "the board is public"
    board = message(world, shown.response.id)
    assert rows_of(board)[0].startswith("**1.** ") and len(rows_of(board)) == 10
    assert "Página 1/3" in board.embeds[0].footer.text, "public messages in the server's language"
    assert "Sin clasificar: 0/1 chicas" in board.embeds[0].footer.text, "ana never played"
    expected = await ratings(world).leaderboard(gid, "1v1", page=1)
    assert f"c4:b:{gid}:1:1v1:1:n" in custom_ids(board)

    await world.ana.click(board, custom_id=f"c4:b:{gid}:1:1v1:1:n")
    board = message(world, shown.response.id)
    assert [r.split(" ")[0] for r in rows_of(board)] == [f"**{r.rank}.**" for r in expected.rows]
    # no members intent and never seated: names fall back on mentions (Discord shows them as names)
    assert all(f"<@{r.user_id}>" in line for r, line in zip(expected.rows, rows_of(board), strict=True))

    await world.env.restart_bot(make_bot())  # the buttons carry everything they need
    await world.ana.click(board, custom_id=f"c4:b:{gid}:1:1v1:2:n")
    board = message(world, shown.response.id)
    assert [r.split(" ")[0] for r in rows_of(board)] == [f"**{n}.**" for n in (21, 22, 23)]
    assert "Página 3/3" in board.embeds[0].footer.text

    await world.ana.click(board, custom_id=f"c4:b:{gid}:1:2v2:0:m")
    board = message(world, shown.response.id)
    assert "2v2" in board.embeds[0].title and len(rows_of(board)) == 4

    top = players[0]
    copy = await top.click(board, custom_id=f"c4:b:{gid}:1:1v1:0:m")
    assert copy.ephemeral, "someone else gets their own copy"
    assert "Your rank: #" in copy.response.embeds[0].footer.text
    assert "2v2" in message(world, shown.response.id).embeds[0].title, "the public board did not move"
    assert world.env.errors == []


async def test_unranked_footer_counts_games_toward_the_minimum(world):
    gid = world.guild.id
    await seed_chicas(world, gid, [(world.ana.id, world.beto.id)] * 3)
    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert "Sin clasificar: 3/10 chicas" in shown.response.embeds[0].footer.text
    assert rows_of(shown.response) == [], "nobody has a rank before 10 rated chicas"


async def test_a_new_server_with_one_rated_1v1_mesa_shows_both_players_marked_provisional(world):
    """ana and beto play the server's first mesa, a 1 v 1; anyone then posts `/cuarenta leaderboard` with
    no mode. The board used to open on 2 v 2 and say that nobody is on it until 10 rated chicas; now it
    opens on 1 v 1 (the mode played) and lists both, each marked 🌱 with their progress toward a rank,
    with a one-line legend, and numbers nobody."""
    table = await new_1v1(world, world.ana, world.beto)
    await play_via_service(world, table.id)
    chicas = len([e for e in table.game.events if e.kind == K.CHICA_WON])
    assert 0 < chicas < 10
    shown = await world.caro.slash(world.channel, "cuarenta leaderboard")
    embed = shown.response.embeds[0]
    assert "1v1" in embed.title, "the board opens on the mode the server played"
    lines = embed.description.splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{boards.PROVISIONAL_MARK} ") for line in lines)
    assert any("ana" in line for line in lines) and any("beto" in line for line in lines)
    assert all(f"{chicas}/10 chicas" in line for line in lines), "their progress toward a rank"
    assert rows_of(shown.response) == [], "no rank number before the threshold"
    assert "🌱 = provisional, sin puesto hasta 10 chicas calificadas" in embed.footer.text
    assert "Sin clasificar: 0/10 chicas" in embed.footer.text, "caro, who never played"
    assert world.env.errors == []


async def test_the_board_opens_on_the_mode_the_server_plays_most(world):
    gid = world.guild.id
    a, b, c, d = world.ana.id, world.beto.id, world.caro.id, world.eva.id

    async def opened() -> str:
        shown = await world.ana.slash(world.channel, "cuarenta leaderboard")
        return shown.response.embeds[0].title

    assert "1v1" in await opened(), "a server with no chica opens on 1 v 1"
    await seed_chicas(world, gid, [((a, b), (c, d))], mode="2v2", table0=5000)
    assert "2v2" in await opened()
    await seed_chicas(world, gid, [(a, b)], table0=6000)
    assert "1v1" in await opened(), "a tie opens on 1 v 1"
    await seed_chicas(world, gid, [((a, c), (b, d)), ((a, d), (b, c))], mode="2v2", table0=7000)
    board = await world.ana.slash(world.channel, "cuarenta leaderboard")
    assert "2v2" in board.response.embeds[0].title and f"c4:b:{gid}:1:1v1:0:m" in custom_ids(board.response)
    assert "1v1" in (await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")).response.embeds[0].title


async def test_long_names_keep_the_embeds_within_discord_limits(world, make_bot):
    await world.env.restart_bot(make_bot(members_intent=True))  # names from the member cache
    gid = world.guild.id
    long = "Ñ*_~`|" * 6
    players = [world.guild.add_member(world.env.create_user(f"long{i}", global_name=long[:32]), nick=long[:32])
               for i in range(12)]
    await ratings(world).set_settings(gid, min_games=1)
    await seed_chicas(world, gid, [(players[i].id, players[i + 1].id) for i in range(11)])
    shown = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert len(rows_of(shown.response)) == 10
    cut = discord.utils.escape_markdown(long[:boards.NAME_LIMIT - 1] + "…")
    assert all(cut in line for line in rows_of(shown.response)), "escaped and cut"
    closed = await world.eva.slash(world.channel, "cuarenta season end")
    assert closed.response.embeds, "the top 10 is posted"

    rows = [boards.BoardRow(i, 10**18 + i, 1500 + i, True, 999, 999, 1998, 0.5, datetime.now(UTC))
            for i in range(1, 11)]
    names = {r.user_id: "W" * 200 for r in rows}
    board = boards.Leaderboard(None, "2v2", 0, 1, 10, rows, None, False, 10, 30)
    payload = boards.leaderboard_payload(board, 10**18, names, "es")  # checked against the limits
    assert len(payload.embed) <= limits.EMBED_TOTAL
    assert all(len(line) < 200 for line in payload.embed.description.splitlines())
    assert world.env.errors == []


# ---------------------------------------------------------------------------------------- seasons, settings


async def test_closing_a_season_freezes_it_posts_the_top_10_and_starts_the_next(world):
    gid = world.guild.id
    await ratings(world).set_settings(gid, min_games=1)
    await seed_chicas(world, gid, [(world.ana.id, world.beto.id), (world.ana.id, world.caro.id)])
    before = await ratings(world).leaderboard(gid, "1v1")

    closed = await world.eva.slash(world.channel, "cuarenta season end")
    assert not closed.ephemeral
    text = embed_text(closed.response)
    assert "Se cerró Temporada 1" in text and "Empieza Temporada 2 (reinicio: suave)" in text
    assert f"**1.** <@{world.ana.id}>" in text and "**2.** " in text

    await seed_chicas(world, gid, [(world.beto.id, world.ana.id)], table0=2000)
    past = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1", season=1)
    assert "(cerrada)" in past.response.embeds[0].title
    assert [r.split(" · ")[0] for r in rows_of(past.response)] == [
        f"**{r.rank}.** " + ("ana" if r.user_id == world.ana.id else f"<@{r.user_id}>") for r in before.rows
    ], "the frozen standings (the caller's own name is known)"
    now = await ratings(world).leaderboard(gid, "1v1")
    assert now.season.number == 2 and now.rows[0].user_id == world.beto.id

    started = await world.eva.slash(world.channel, "cuarenta season start", name="Verano")
    assert "Se cerró Temporada 2" in embed_text(started.response) and "Empieza Verano" in embed_text(started.response)
    assert (await ratings(world).current_season(gid)).name == "Verano"
    missing = await world.ana.slash(world.channel, "cuarenta leaderboard", season=9)
    assert missing.ephemeral and missing.response.content == "This server has no such season."


async def test_managers_only_for_seasons_and_settings(world):
    for command, options in (("cuarenta season end", {}), ("cuarenta season start", {"name": "X"}),
                             ("cuarenta settings", {}), ("cuarenta settings", {"min_games": 1})):
        refused = await world.ana.slash(world.channel, command, **options)
        assert refused.ephemeral and refused.response.content == "You need the Manage Server permission.", command
    assert (await ratings(world).settings(world.guild.id)).min_games == 10, "nothing changed"
    assert await ratings(world).current_season(world.guild.id) is None
    empty = await world.eva.slash(world.channel, "cuarenta season end")
    assert empty.response.content == "There is no open season: no chica has been played yet."


async def test_settings_change_the_default_preset_language_and_rated_computer_games(world):
    gid = world.guild.id
    shown = await world.eva.slash(world.channel, "cuarenta settings", preset="rapido", rated_bots=True,
                                  min_games=3, active_days=0, reset="hard", language="en")
    assert shown.ephemeral and "Settings saved" in embed_text(shown.response)
    now = await ratings(world).settings(gid)
    assert (now.default_preset, now.rate_bots, now.min_games, now.active_days, now.reset_policy, now.language) == (
        "rapido", True, 3, 0, "hard", "en")
    assert await world.bot.store.guild_language(gid) == "en", "the one language setting"

    await world.ana.slash(world.channel, "cuarenta new", players=2)  # no rules given
    table = world.bot.tables.table_in_channel(world.channel.id)
    assert table.preset == "rapido"
    await world.ana.select(world.channel.last_message, ["medio"], custom_id=f"c4:v:{table.id}")
    await play_via_service(world, table.id)
    stats = await ratings(world).stats(gid, world.ana.id)
    assert stats.modes["1v1"].rated_chicas == stats.chicas > 0, "games with computers are rated when chosen"
    board = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert "Page 1/1" in board.response.embeds[0].footer.text, "public text follows the new language"


async def test_two_servers_never_see_each_other(world):
    other = world.env.create_guild("Cuenca Club")
    channel = other.create_text_channel("cuarenta")
    admins = other.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ana2 = other.add_member(world.ana.user)
    boss = other.add_member(world.env.create_user("boss"), roles=[admins])
    await world.env.bot.tree.sync()

    table = await new_1v1(world, world.ana, world.beto)
    await play_via_service(world, table.id)
    await ratings(world).set_settings(world.guild.id, min_games=1)
    here = await world.ana.slash(world.channel, "cuarenta leaderboard", mode="1v1")
    assert len(rows_of(message(world, here.response.id))) == 2

    there = await ana2.slash(channel, "cuarenta leaderboard", mode="1v1")
    assert rows_of(message(world, there.response.id, channel)) == []
    stats = await ana2.slash(channel, "cuarenta stats")
    assert "No chicas played on this server yet." in embed_text(stats.response)
    history = await ana2.slash(channel, "cuarenta history")
    assert "No finished mesas on this server yet." in embed_text(history.response)
    closed = await boss.slash(channel, "cuarenta season end")
    assert closed.response.content == "There is no open season: no chica has been played yet."
    assert (await ratings(world).current_season(world.guild.id)).number == 1, "the first server's season stays"
    assert world.env.errors == []


async def test_the_new_commands_join_the_cuarenta_group_with_spanish_and_english_names(world):
    sync = next(r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))
    top = [c["name"] for c in sync.json]
    assert top.count("cuarenta") == 1
    assert not {"leaderboard", "stats", "history", "season", "settings"} & set(top), "not top-level commands"
    subs = {o["name"]: o for o in next(c for c in sync.json if c["name"] == "cuarenta")["options"]}
    assert {"leaderboard", "stats", "history", "season", "settings"} <= set(subs)
    assert subs["leaderboard"]["name_localizations"]["es-419"] == "clasificación"
    assert subs["settings"]["name_localizations"]["es-ES"] == "ajustes"
    season = subs["season"]
    assert season["name_localizations"]["es-ES"] == "temporada"
    assert {o["name"] for o in season["options"]} == {"start", "end"}


async def test_stats_name_the_most_frequent_partner_in_2v2(world):
    service = world.bot.tables
    await world.ana.slash(world.channel, "cuarenta new", players=4, rules="rapido")
    for member, team in ((world.beto, "B"), (world.caro, "A"), (world.dani, "B")):
        await member.slash(world.channel, "cuarenta join", team=team)
    table = service.table_in_channel(world.channel.id)
    await play_via_service(world, table.id)
    stats = await ratings(world).stats(world.guild.id, world.ana.id)
    chicas = len([e for e in table.game.events if e.kind == K.CHICA_WON])
    assert stats.partner == (world.caro.id, chicas)
    assert stats.modes["2v2"].rated_chicas == chicas and stats.modes["1v1"].chicas == 0
    shown = await world.ana.slash(world.channel, "cuarenta stats")
    assert f"caro ({chicas} chicas)" in embed_text(shown.response), "the partner's name from their seat"
    history = await world.ana.slash(world.channel, "cuarenta history")
    assert "with caro" in history.response.embeds[0].description
    assert "vs beto, dani" in history.response.embeds[0].description


def ratings_of(world):
    """The ratings repository the ratings commands read."""
    return next(c for c in world.bot.cogs.values() if hasattr(c, "ratings")).ratings


@production_bot
async def test_a_ratings_command_on_a_slow_store_is_acknowledged_in_time_and_answered(world, monkeypatch):
    slow_down(monkeypatch, ratings_of(world), "stats")
    result = await world.ana.slash(world.channel, "cuarenta stats")
    await world.env.advance_time(5)
    assert result.acknowledged, "acknowledged before Discord's 3 s"
    assert result.response.embeds or result.followups, "and the stats followed"


@production_bot
async def test_a_slow_leaderboard_is_acknowledged_in_time_and_stays_public(world, monkeypatch):
    slow_down(monkeypatch, ratings_of(world), "leaderboard")
    result = await world.ana.slash(world.channel, "cuarenta leaderboard")
    await world.env.advance_time(5)
    assert result.acknowledged
    assert not result.response.ephemeral, "the board is public, as when it is quick"
    assert result.response.embeds or result.followups


async def test_stats_of_a_player_who_left_the_server_is_answered_not_an_error(world):
    """ana asks `/cuarenta stats user:@beto` (and `/cuarenta history user:@beto`) after beto left the
    server (Discord then resolves the option as a user without member data). She used to see "Something
    went wrong" and the bot logged a command error: the option was typed `discord.Member`, which discord.py
    refuses for a non-member. It is now a `discord.User`: she sees beto's stats and history (none yet)."""
    world.guild.remove_member(world.beto)
    stats = await world.ana.slash(world.channel, "cuarenta stats", user=world.beto.user)
    assert stats.ephemeral
    assert stats.response.content != t("err.generic", "en"), "stats of a former member fail"
    history = await world.ana.slash(world.channel, "cuarenta history", user=world.beto.user)
    assert history.response.content != t("err.generic", "en"), "history of a former member fails"
    assert world.env.errors == []


async def test_an_empty_leaderboard_with_no_activity_limit_does_not_say_within_0_days(world):
    """A manager sets `/cuarenta settings active_days:0` ("0: no limit", as the option says), then anyone
    posts `/cuarenta leaderboard`. The empty board used to say "…it takes 10 rated chicas, the last one
    within the past 0 days.", which nobody can meet, while /cuarenta settings shows the same setting as no
    limit (∞). With no limit the empty board now names none (`board.empty_any`)."""
    await world.eva.slash(world.channel, "cuarenta language", language="en")
    await world.eva.slash(world.channel, "cuarenta settings", active_days=0)
    board = await world.ana.slash(world.channel, "cuarenta leaderboard")
    text = board.response.embeds[0].description
    assert "0 days" not in text, text


async def test_a_leaderboard_id_on_the_public_table_message_leaves_it_and_answers_the_presser(world):
    """eva (a spectator) sends a leaderboard button's custom_id (``c4:b:<guild>:0:2v2:0:p``) on the live
    table message of a 1 v 1, as a stale or modified client can. The bot used to edit the table message
    itself into a leaderboard page for everyone (`on_board` took any public message without an interaction
    owner for a board). Now only a message that is a board (`boards.is_board`) is turned: the table
    message stays as it was and eva gets the board ephemerally."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    public = next(m for m in world.channel.history() if "c4:y:1" in custom_ids(m))
    before = look(public)
    result = await click_raw(world.env, world.eva, public, f"c4:b:{world.guild.id}:0:2v2:0:p")
    after = next(m for m in world.channel.history() if m.id == public.id)
    assert look(after) == before, "the live table message was replaced by a leaderboard"
    assert result.ephemeral
