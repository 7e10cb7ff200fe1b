"""Faults found by a fresh-eyes QA session (QA pass 5: learning features, house rules, ratings and seasons,
languages, unanswered interactions), each a regression test. The session found no hidden information
leaking through help, «¿Por qué?», hints or replays."""

from __future__ import annotations

from bot.i18n import t

from .helpers import click_raw, custom_ids


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


async def _house_lobby(world, *choices):
    """ana opens a 1 v 1 lobby and sets ``(rule, token)`` house rules through the editor."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    lobby = world.channel.last_message
    editor = (await world.ana.click(lobby, custom_id="c4:u:1:o")).response
    for rule, token in choices:
        picked = await world.ana.select(editor, [rule], custom_id="c4:u:1:r")
        editor = picked.response or editor
        chosen = await world.ana.select(editor, [token], custom_id=f"c4:u:1:v:{rule}")
        editor = chosen.response or editor
    return editor


async def test_rules_of_a_table_with_the_ronda_off_do_not_say_the_ronda_scores_plus_0(world):
    """ana sets the house rule «Ronda: no» in her lobby and asks `/cuarenta rules` there. The lobby said
    "Ronda: no", but the rules' term line said the ronda scores "+0". It now says "no", as the lobby and
    the difference lines do (`bot.learn.presets.term_lines`)."""
    await _house_lobby(world, ("ronda", "0"))
    shown = await world.ana.slash(world.channel, "cuarenta rules")
    text = shown.response.embeds[0].description
    ronda_line = next(line for line in text.splitlines() if line.startswith("• **Ronda**"))
    assert "+0" not in ronda_line, ronda_line


async def test_rules_with_comodines_and_periquito_list_them_with_one_bullet(world):
    """ana sets «Comodines: yes» and «Periquito» in her lobby and asks `/cuarenta rules` (any language).
    The two lines used to read "• • **Comodines** …": their catalog texts started with "• " and
    `rules_payload` adds another. Each term now has one bullet like the others."""
    await _house_lobby(world, ("comodines", "1"), ("periquito", "1"))
    shown = await world.ana.slash(world.channel, "cuarenta rules")
    text = shown.response.embeds[0].description
    assert "• •" not in text, [line for line in text.splitlines() if line.startswith("• •")]


async def test_the_guide_names_the_table_buttons_as_the_table_message_shows_them(world):
    """ana's Discord is in English, the server's public language is Spanish (the default). She opens
    `/cuarenta help` and goes to its last page ("The buttons"): it used to tell her to press "See my hand"
    and "Why?" on the table message, which carries «Ver mi mano» and «¿Por qué?» (public messages use the
    server's language). The guide now quotes the table message's words in the server's language."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    public = next(m for m in world.channel.history() if "c4:y:1" in custom_ids(m))
    labels = [item.label for row in public.components for item in row.children]
    assert labels == [t("btn.my_hand", "es"), t("btn.why", "es")]
    guide = await world.ana.slash(world.channel, "cuarenta help")
    last = await world.ana.select(guide.response, ["5"], custom_id="c4:a:s")
    page = (last.response or guide.response).embeds[0].description
    for label in labels:
        assert label in page, f"the guide never names the {label!r} button the table shows: {page}"


def _look(message):
    return (message.content, [e.to_dict() for e in message.embeds], custom_ids(message))


async def test_a_leaderboard_id_on_the_public_table_message_leaves_it_and_answers_the_presser(world):
    """eva (a spectator) sends a leaderboard button's custom_id (``c4:b:<guild>:0:2v2:0:p``) on the live
    table message of a 1 v 1, as a stale or modified client can. The bot used to edit the table message
    itself into a leaderboard page for everyone (`on_board` took any public message without an interaction
    owner for a board). Now only a message that is a board (`boards.is_board`) is turned: the table
    message stays as it was and eva gets the board ephemerally."""
    await world.ana.slash(world.channel, "cuarenta new", players=2)
    await world.beto.slash(world.channel, "cuarenta join")
    public = next(m for m in world.channel.history() if "c4:y:1" in custom_ids(m))
    before = _look(public)
    result = await click_raw(world.env, world.eva, public, f"c4:b:{world.guild.id}:0:2v2:0:p")
    after = next(m for m in world.channel.history() if m.id == public.id)
    assert _look(after) == before, "the live table message was replaced by a leaderboard"
    assert result.ephemeral
