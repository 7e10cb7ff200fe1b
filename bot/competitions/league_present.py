"""Leagues on Discord: the sign-up message, each round's fixtures with «Jugar», results with the
standings, the reminder, the champion, and the thread a fixture is played in. Public text in the
server's language."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.i18n import t, tn
from bot.tables import TableService
from bot.ui import limits
from bot.ui.budget import WriteBudget
from bot.ui.render import Payload, make_view, when_text
from bot.ui.words import clean

from .board_picture import table_picture
from .items import LeagueButton
from .league_repo import Fixture, League
from .leagues import LeagueService
from .live_messages import LiveMessages, PageUrl, message_link, page_of, with_page_link
from .message_repo import CompetitionMessageRepo
from .referee import Place

log = logging.getLogger(__name__)

COLOR = discord.Colour(0x1F8B4C)


def _name(league: League, side_no: int | None) -> str:
    if side_no is None:
        return "?"
    return clean(league.side(side_no).name)


def standings_text(service: LeagueService, league: League, lang: str) -> str:
    """The standings, one line per side that wraps well at phone width: rank, side, points, played / won /
    lost, chicas and tantos for and against."""
    lines = [t("league.table_title", lang)]
    for row in service.standings(league):
        side = league.side(row.side)
        name = clean(side.name) if not side.removed else f"~~{clean(side.name)}~~"
        lines.append(t("league.table_row", lang, rank=row.rank, name=name, points=row.points, played=row.played,
                       won=row.won, lost=row.lost, cf=row.chicas_for, ca=row.chicas_against, tf=row.tantos_for,
                       ta=row.tantos_against))
    return "\n".join(lines)


PICTURE = "tabla.png"


def standings_picture(service: LeagueService, league: League, lang: str, title: str) -> bytes | None:
    """The standings as a picture (`board_picture`), or None when drawing fails (the text stands)."""
    try:
        rows = [[str(r.rank), league.side(r.side).name, str(r.played), str(r.won), str(r.lost), str(r.points),
                 f"{r.chicas_for}-{r.chicas_against}", f"{r.tantos_for}-{r.tantos_against}"]  # the font has no en dash
                for r in service.standings(league)]
        return table_picture(title, t("league.pic_header", lang).split("|"), rows, (0.6, 3.2, 0.8, 0.7, 0.7, 0.9, 1.3, 1.6))
    except Exception:
        log.exception("league %d: the standings picture failed", league.id)
        return None


def _with_picture(embed: discord.Embed, picture: bytes | None) -> list[tuple[str, bytes]]:
    if picture is None:
        return []
    embed.set_image(url=f"attachment://{PICTURE}")
    return [(PICTURE, picture)]


def fixture_line(league: League, f: Fixture, lang: str) -> str:
    """One fixture, with its result when it has one."""
    a, b = _name(league, f.side_a), _name(league, f.side_b)
    if f.status == "done":
        return t("league.fx_done", lang, a=a, b=b, ca=f.chicas[0], cb=f.chicas[1], winner=_name(league, f.winner))
    if f.status == "walkover":
        return t("league.fx_walkover", lang, a=a, b=b, winner=_name(league, f.winner))
    if f.status == "double_loss":
        return t("league.fx_double_loss", lang, a=a, b=b)
    if f.status == "playing":
        return t("league.fx_playing", lang, a=a, b=b, table=f.table_id)
    ready = [x for x, r in ((a, f.ready_a), (b, f.ready_b)) if r]
    if ready:
        return t("league.fx_waiting", lang, a=a, b=b, ready=", ".join(ready))
    return t("league.fx_pending", lang, a=a, b=b)


def signup_payload(league: League, lang: str) -> Payload:
    """The sign-up message: the league's terms, who signed up, the sign-up and close buttons."""
    mode = t(f"queue.mode.{league.mode}", lang)
    terms = tn("league.terms", league.round_days, lang, mode=mode, preset=league.preset, days=league.round_days,
              rr=t("league.double" if league.double else "league.single", lang), win=league.win_points,
              loss=league.loss_points, bonus=league.zapateria_bonus,
              policy=t(f"league.policy.{league.policy}", lang))
    signed = [clean(s.name) + ("" if s.accepted else " ⏳") for s in league.sides]
    lines = [terms, "", t("league.signed", lang, count=sum(1 for s in league.sides if s.accepted)),
             ", ".join(signed) or "—"]
    if league.status == "signup":
        lines.append(t("league.signup_help_2v2" if league.mode == "2v2" else "league.signup_help", lang,
                       league=league.id))
        view = make_view([LeagueButton(league.id, "j", label=t("league.join", lang), style=discord.ButtonStyle.primary),
                          LeagueButton(league.id, "c", label=t("league.close", lang))])
    else:
        lines.append(t("league.signup_over", lang))
        view = None
    embed = discord.Embed(title=t("league.title", lang, league=league.id, name=clean(league.name)), colour=COLOR,
                          description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION))
    return Payload(embed=embed, view=view)


def round_payload(league: League, lang: str, rnd: int, standings: str | None = None) -> Payload:
    """Round ``rnd``'s message: its fixtures (and bye), a link to the standings message (``standings``), and
    while the round is being played (the league running, ``rnd`` its current round, a fixture without a
    result) its deadline and «Jugar». Its content (the mentions) is the caller's."""
    fixtures = [f for f in league.fixtures if f.round == rnd]
    lines = [fixture_line(league, f, lang) for f in fixtures]
    if rnd in league.byes:
        lines.append(t("league.bye", lang, name=_name(league, league.byes[rnd])))
    live = league.status == "running" and rnd == league.current_round and any(not f.resolved for f in fixtures)
    if live and league.round_deadline is not None:
        lines += ["", t("league.deadline", lang, when=when_text(league.round_deadline),
                        policy=t(f"league.policy.{league.policy}", lang))]
    if standings is not None:
        lines += ["", t("league.standings_link", lang, link=standings)]
    title = t("league.round_title", lang, name=clean(league.name), round=rnd, rounds=league.rounds)
    embed = discord.Embed(title=title, colour=COLOR, description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION))
    view = (make_view([LeagueButton(league.id, "p", label=t("league.play", lang), style=discord.ButtonStyle.success)])
            if live else None)
    return Payload(embed=embed, view=view)


def standings_payload(service: LeagueService, league: League, lang: str) -> Payload:
    """The league's one standings message, edited after each result: the standings as text and as a
    picture; once the league ended, its final standings with the champion (`final_payload`)."""
    if league.status in ("finished", "cancelled"):
        return final_payload(service, league, lang)
    title = t("league.standings_title", lang, name=clean(league.name))
    embed = discord.Embed(title=title, colour=COLOR,
                          description=limits.clip(standings_text(service, league, lang), limits.EMBED_DESCRIPTION))
    return Payload(embed=embed, files=_with_picture(embed, standings_picture(service, league, lang, title)))


def final_payload(service: LeagueService, league: League, lang: str) -> Payload:
    """The end: the champion (or the cancellation) and the final standings."""
    rows = service.standings(league)
    if league.status == "cancelled":
        head = t("league.cancelled", lang, name=clean(league.name))
    elif rows:
        head = t("league.champion", lang, name=clean(league.name), champion=_name(league, rows[0].side))
    else:
        head = t("league.cancelled", lang, name=clean(league.name))
    title = t("league.final_title", lang, name=clean(league.name))
    embed = discord.Embed(title=title, colour=COLOR,
                          description=limits.clip(f"{head}\n\n{standings_text(service, league, lang)}",
                                                  limits.EMBED_DESCRIPTION))
    return Payload(embed=embed, files=_with_picture(embed, standings_picture(service, league, lang, title)))


STANDINGS = 0
"""The key of the standings message among a league's kept-current messages (rounds are 1, 2, …)."""


class LeagueDiscord:
    """Implements `bot.competitions.leagues.LeaguePresenter` with the bot token. Its round messages and
    its standings message are kept current (`LiveMessages`: stored ids, coalesced edits in the write
    budget)."""

    def __init__(self, client: discord.Client, tables: TableService, leagues: LeagueService, *,
                 budget: WriteBudget | None = None, sleep: Callable[[float], Awaitable[Any]] | None = None,
                 delay: float = 0.0) -> None:
        self.client = client
        self.tables = tables
        self.leagues = leagues
        self.live = LiveMessages(client, CompetitionMessageRepo(leagues.repo.store.db), "league", budget=budget,
                                 sleep=sleep, delay=delay)
        self.page_url: PageUrl | None = None
        """The servers' web pages (set by the bot): the standings message links its league's page."""

    def _channel(self, league: League) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(league.channel_id, guild_id=league.guild_id)

    async def _send(self, league: League, payload: Payload, *, pings: bool = False) -> int | None:
        kwargs = payload.send_kwargs()
        if pings:
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=True)
        if self.live.budget is not None:
            await self.live.budget.acquire(league.channel_id)
        try:
            return (await self._channel(league).send(**kwargs)).id
        except discord.HTTPException as exc:
            log.warning("league %d: message failed (%s %s)", league.id, exc.status, exc.code)
            return None

    async def signup_changed(self, league: League) -> None:
        """Post the sign-up message once, then edit it."""
        lang = await self.tables.public_language(league.guild_id)
        payload = signup_payload(league, lang)
        if league.signup_message_id is None:
            league.signup_message_id = await self._send(league, payload)
            await self.leagues.repo.save_league(league)
            return
        if self.live.budget is not None:
            await self.live.budget.acquire(league.channel_id)
        try:
            await self._channel(league).get_partial_message(league.signup_message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("league %d: sign-up message not edited (%s %s)", league.id, exc.status, exc.code)

    def _renderer(self, league: League) -> Callable[[int], Awaitable[Payload | None]]:
        async def render(key: int) -> Payload | None:
            lang = await self.tables.public_language(league.guild_id)
            if key == STANDINGS:
                return await self._standings(league, lang)
            return round_payload(league, lang, key, self._standings_link(league))
        return render

    async def _standings(self, league: League, lang: str) -> Payload:
        """The standings message, with a link button to the league's web page when the server has pages."""
        payload = standings_payload(self.leagues, league, lang)
        if league.status != "cancelled":
            url = await page_of(self.page_url, league.guild_id, f"leagues/{league.id}")
            with_page_link(payload, url, t("web.standings_link", lang))
        return payload

    def _standings_link(self, league: League) -> str | None:
        shown = self.live.known(league.id, STANDINGS)
        return message_link(league.guild_id, shown) if shown is not None else None

    async def _ensure_standings(self, league: League) -> None:
        """Post the standings message (pinned when the bot may) unless the league has one."""
        async with self.live.lock(league.id):
            if STANDINGS in await self.live.shown(league.id):
                return
            lang = await self.tables.public_language(league.guild_id)

            async def standings() -> Payload:
                return await self._standings(league, lang)
            posted = await self.live.post(league.id, league.guild_id, league.channel_id, STANDINGS, standings)
        if posted is not None:
            await self.live.pin(posted, league.channel_id)

    async def round_started(self, league: League) -> None:
        """Post the round with its fixtures and «Jugar», pinging the players; before the first round, the
        standings message (pinned when the bot may)."""
        await self._ensure_standings(league)
        render = self._renderer(league)
        rnd = league.current_round
        people = {u for s in league.sides if s.accepted and not s.removed for u in s.users}
        mentions = " ".join(f"<@{u}>" for u in sorted(people))[:1900] or None

        async def round_message() -> Payload:
            payload = await render(rnd)
            assert payload is not None
            payload.content = mentions
            return payload
        await self.live.post(league.id, league.guild_id, league.channel_id, rnd, round_message, pings=True)

    async def result(self, league: League, fixture: Fixture) -> None:
        """A fixture's result (played, at the deadline, a walkover, a double loss): its round's message
        and the standings message are edited, whichever round is current, and after a restart too. A league
        that has no standings message yet (its round began before they were kept) gets one."""
        await self._ensure_standings(league)
        self.live.touch(league.id, (fixture.round, STANDINGS), self._renderer(league))

    async def round_changed(self, league: League, rnd: int) -> None:
        """A round's fixture changed without a result (a side pressed «Jugar», a table opened) or its
        deadline moved: its message is edited."""
        self.live.touch(league.id, (rnd,), self._renderer(league))

    async def reminder(self, league: League, fixtures: list[Fixture]) -> None:
        """A day before the deadline: ping the players of the unplayed fixtures."""
        lang = await self.tables.public_language(league.guild_id)
        people = sorted({u for f in fixtures for s in (f.side_a, f.side_b) for u in league.side(s).users})
        text = t("league.reminder", lang, mentions=" ".join(f"<@{u}>" for u in people), round=league.current_round,
                 when=when_text(league.round_deadline or 0), name=clean(league.name))
        await self._send(league, Payload(content=text), pings=True)

    async def finished(self, league: League) -> None:
        """The final standings and the champion: the standings message and the last round's message are
        edited (no deadline, no «Jugar»), and the final standings are posted (with a link to the league's
        web page when the server has pages)."""
        self.live.touch(league.id, (league.current_round, STANDINGS), self._renderer(league))
        lang = await self.tables.public_language(league.guild_id)
        payload = final_payload(self.leagues, league, lang)
        if league.status == "finished":
            url = await page_of(self.page_url, league.guild_id, f"leagues/{league.id}")
            with_page_link(payload, url, t("web.standings_link", lang))
        await self._send(league, payload)

    async def make_channel(self, league: League, fixture: Fixture) -> Place:
        """A public thread of the league channel for the fixture's table.

        Raises:
            discord.HTTPException, discord.ClientException: Discord refused; the play is refused too.
        """
        channel = self.client.get_channel(league.channel_id) or await self.client.fetch_channel(league.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise discord.ClientException("the league channel is not a text channel")
        lang = await self.tables.public_language(league.guild_id)
        name = t("league.thread", lang, name=league.name, round=fixture.round, a=league.side(fixture.side_a).name,
                 b=league.side(fixture.side_b).name)[:100]
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=1440)
        return Place(thread.id, channel.guild.name, thread.name)
