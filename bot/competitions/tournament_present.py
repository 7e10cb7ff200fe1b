"""Tournaments on Discord: the sign-up message, each round's matches with «Jugar», results, the
bracket or the Swiss standings as text, the champion, and the thread a match is played in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import t, tn
from bot.tables import TableService
from bot.ui import limits
from bot.ui.budget import WriteBudget
from bot.ui.render import Payload, make_view, when_text
from bot.ui.words import clean

from .board_picture import table_picture
from .bracket import tournament_layout
from .bracket_draw import bracket_pictures
from .items import TournamentButton
from .live_messages import LiveMessages, PageUrl, message_link, page_of, with_page_link
from .message_repo import CompetitionMessageRepo
from .referee import Place
from .tournaments import Match, Tournament, TournamentService

log = logging.getLogger(__name__)

COLOR = discord.Colour(0x1F8B4C)


def match_line(tour: Tournament, m: Match, lang: str) -> str:
    """One match with its state (bye, playing, score, winner)."""
    a, b = clean(tour.name_of(m.a_user)), clean(tour.name_of(m.b_user))
    if m.b_user is None:
        return t("tournament.m_bye", lang, a=a) if m.a_user is not None else t("tournament.m_empty", lang)
    if m.status == "done":
        return t("tournament.m_done", lang, a=a, b=b, wa=m.wins_a, wb=m.wins_b, winner=clean(tour.name_of(m.winner)))
    if m.status == "walkover":
        return t("league.fx_walkover", lang, a=a, b=b, winner=clean(tour.name_of(m.winner)))
    if m.status == "double_loss":
        return t("league.fx_double_loss", lang, a=a, b=b)
    if m.status == "playing":
        return t("league.fx_playing", lang, a=a, b=b, table=m.table_id)
    ready = [x for x, r in ((a, m.ready_a), (b, m.ready_b)) if r]
    if ready:
        return t("tournament.m_waiting", lang, a=a, b=b, wa=m.wins_a, wb=m.wins_b, ready=", ".join(ready))
    return t("tournament.m_pending", lang, a=a, b=b, wa=m.wins_a, wb=m.wins_b)


def board_text(service: TournamentService, tour: Tournament, lang: str) -> str:
    """The bracket round by round, or the Swiss standings."""
    if tour.format == "swiss":
        lines = [t("league.table_title", lang)]
        for i, row in enumerate(service.swiss_standings(tour), start=1):
            lines.append(t("tournament.swiss_row", lang, rank=i, name=clean(tour.name_of(row.player)),
                           points=f"{row.points:g}", buchholz=f"{row.buchholz:g}"))
        return "\n".join(lines)
    lines = []
    for rnd in range(1, tour.current_round + 1):
        lines.append(t("tournament.round_name", lang, round=rnd, rounds=tour.total_rounds))
        lines += ["  " + match_line(tour, m, lang) for m in tour.matches if m.round == rnd]
    return "\n".join(lines)


BRACKET = 0
"""The key of the bracket (or Swiss standings) message among a tournament's kept-current messages."""
BRACKET_FILE = "cuadro.png"
"""The bracket picture's file name in the bracket message (the embed's image)."""


def round_payload(tour: Tournament, lang: str, rnd: int, bracket: str | None = None) -> Payload:
    """Round ``rnd``'s message: its matches, a link to the bracket message (``bracket``), and while the
    round is being played (the tournament running, ``rnd`` its current round, a match undecided) its
    deadline and «Jugar». Its content (the mentions) is the caller's."""
    matches = [m for m in tour.matches if m.round == rnd]
    lines = [match_line(tour, m, lang) for m in matches]
    live = tour.status == "running" and rnd == tour.current_round and any(not m.resolved for m in matches)
    if live and tour.round_deadline is not None:
        lines += ["", t("league.deadline", lang, when=when_text(tour.round_deadline),
                        policy=t(f"league.policy.{tour.policy}", lang))]
    if bracket is not None:
        lines += ["", t("tournament.bracket_link", lang, link=bracket)]
    embed = discord.Embed(title=t("tournament.round_title", lang, name=clean(tour.name), round=rnd,
                                  rounds=tour.total_rounds),
                          colour=COLOR, description=limits.clip("\n".join(lines), limits.EMBED_DESCRIPTION))
    view = (make_view([TournamentButton(tour.id, "p", label=t("tournament.play", lang),
                                        style=discord.ButtonStyle.success)]) if live else None)
    return Payload(embed=embed, view=view)


def _champion_head(service: TournamentService, tour: Tournament, lang: str) -> str:
    champion = service.champion(tour) if tour.status == "finished" else None
    return (t("tournament.champion", lang, champion=clean(tour.name_of(champion)), name=clean(tour.name))
            if champion is not None else t("tournament.cancelled", lang, name=clean(tour.name)))


def bracket_payload(service: TournamentService, tour: Tournament, lang: str) -> Payload:
    """The tournament's one bracket (or Swiss standings) message, edited after each result; once the
    tournament ended, with its champion (or its cancellation) on top."""
    key = "tournament.standings_title" if tour.format == "swiss" else "tournament.bracket_title"
    body = board_text(service, tour, lang)
    if tour.status in ("finished", "cancelled"):
        body = f"{_champion_head(service, tour, lang)}\n\n{body}"
    return Payload(embed=discord.Embed(title=t(key, lang, name=clean(tour.name)), colour=COLOR,
                                       description=limits.clip(body, limits.EMBED_DESCRIPTION)))


def picture_name(index: int) -> str:
    """The file name of the bracket's ``index``-th picture (0: `BRACKET_FILE`; then ``cuadro-2.png`` …)."""
    return BRACKET_FILE if index == 0 else BRACKET_FILE.replace(".png", f"-{index + 1}.png")


@dataclass
class BracketPayload(Payload):
    """The bracket message with its pictures: the first is the embed's image, each other one the image of
    an embed of its own under it (``more``: a bracket of 16 players or more, cut into sections that each
    read at phone width). Sent and edited as one message, in one write."""

    more: list[discord.Embed] = field(default_factory=list)

    @classmethod
    def with_pictures(cls, payload: Payload, pngs: list[bytes]) -> BracketPayload:
        """``payload`` (an embed message) with ``pngs`` attached and shown, top to bottom (at most 10)."""
        if payload.embed is None or not pngs:
            return cls(content=payload.content, embed=payload.embed, view=payload.view, files=payload.files)
        pngs = pngs[:10]
        names = [picture_name(i) for i in range(len(pngs))]
        payload.embed.set_image(url=f"attachment://{names[0]}")
        more = [discord.Embed(colour=COLOR).set_image(url=f"attachment://{name}") for name in names[1:]]
        return cls(content=payload.content, embed=payload.embed, view=payload.view,
                   files=list(zip(names, pngs, strict=True)), more=more)

    def send_kwargs(self) -> dict[str, Any]:
        """`Payload.send_kwargs` with every embed."""
        out = super().send_kwargs()
        if self.more and "embed" in out:
            out["embeds"] = [out.pop("embed"), *self.more]
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """`Payload.edit_kwargs` with every embed."""
        out = super().edit_kwargs()
        if self.more and self.embed is not None:
            out["embeds"] = [self.embed, *self.more]
        return out


class TournamentDiscord:
    """Implements `bot.competitions.tournaments.TournamentPresenter` with the bot token. Its round messages
    and its bracket message are kept current (`LiveMessages`: stored ids, coalesced edits in the write
    budget)."""

    def __init__(self, client: discord.Client, tables: TableService, service: TournamentService, *,
                 budget: WriteBudget | None = None, sleep: Callable[[float], Awaitable[Any]] | None = None,
                 delay: float = 0.0) -> None:
        self.client = client
        self.tables = tables
        self.service = service
        self.live = LiveMessages(client, CompetitionMessageRepo(service.store.db), "tournament", budget=budget,
                                 sleep=sleep, delay=delay)
        self.page_url: PageUrl | None = None
        """The servers' web pages (set by the bot): the bracket message links its tournament's page."""

    def _channel(self, tour: Tournament) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)

    async def _send(self, tour: Tournament, payload: Payload, *, pings: bool = False) -> int | None:
        kwargs = payload.send_kwargs()
        if pings:
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=True)
        if self.live.budget is not None:
            await self.live.budget.acquire(tour.channel_id)
        try:
            return (await self._channel(tour).send(**kwargs)).id
        except discord.HTTPException as exc:
            log.warning("tournament %d: message failed (%s %s)", tour.id, exc.status, exc.code)
            return None

    def _embed(self, tour: Tournament, title: str, body: str) -> discord.Embed:
        return discord.Embed(title=title, colour=COLOR, description=limits.clip(body, limits.EMBED_DESCRIPTION))

    async def signup_changed(self, tour: Tournament) -> None:
        """Post the sign-up message once, then edit it."""
        lang = await self.tables.public_language(tour.guild_id)
        kind = (tn("tournament.format.swiss", tour.swiss_rounds, lang, rounds=tour.swiss_rounds)
                if tour.format == "swiss" else t(f"tournament.format.{tour.format}", lang))
        terms = tn("tournament.terms", tour.round_days, lang, format=kind,
                  best_of=tour.best_of, preset=tour.preset, days=tour.round_days,
                  policy=t(f"league.policy.{tour.policy}", lang))
        names = ", ".join(clean(p.name) for p in tour.players) or "—"
        body = f"{terms}\n\n{t('league.signed', lang, count=len(tour.players))}\n{names}"
        view = None
        if tour.status == "signup":
            view = make_view([TournamentButton(tour.id, "j", label=t("league.join", lang), style=discord.ButtonStyle.primary),
                              TournamentButton(tour.id, "c", label=t("tournament.close", lang))])
        else:
            body += "\n" + t("league.signup_over", lang)
        payload = Payload(embed=self._embed(tour, t("tournament.title", lang, tournament=tour.id, name=clean(tour.name)),
                                            body), view=view)
        if tour.signup_message_id is None:
            tour.signup_message_id = await self._send(tour, payload)
            await self.service.save_signup_message(tour)
            return
        if self.live.budget is not None:
            await self.live.budget.acquire(tour.channel_id)
        try:
            await self._channel(tour).get_partial_message(tour.signup_message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("tournament %d: sign-up not edited (%s %s)", tour.id, exc.status, exc.code)

    async def _bracket(self, tour: Tournament, lang: str) -> Payload:
        """The bracket message with its picture (`bracket_draw.bracket_picture`): laid out here, from the
        state of now, drawn in a thread (about 40 ms of Pillow, once per result; not in the computer
        players' worker processes, which never import discord, nor the table pictures' workers). Without
        the picture when drawing it fails (logged): the text says it all. With a link button to the
        tournament's web page when the server has pages."""
        payload = bracket_payload(self.service, tour, lang)
        if tour.status != "cancelled":
            url = await page_of(self.page_url, tour.guild_id, f"tournaments/{tour.id}")
            with_page_link(payload, url, t("web.bracket_link", lang))
        champion = self.service.champion(tour) if tour.status == "finished" else None
        layout = tournament_layout(tour, lang, all_rounds=False, champion=champion)
        try:
            pngs = await asyncio.to_thread(bracket_pictures, layout)
        except Exception:
            log.exception("tournament %d: the bracket picture failed", tour.id)
            return payload
        return BracketPayload.with_pictures(payload, pngs)

    def _renderer(self, tour: Tournament) -> Callable[[int], Awaitable[Payload | None]]:
        async def render(key: int) -> Payload | None:
            lang = await self.tables.public_language(tour.guild_id)
            if key == BRACKET:
                return await self._bracket(tour, lang)
            shown = self.live.known(tour.id, BRACKET)
            return round_payload(tour, lang, key, message_link(tour.guild_id, shown) if shown else None)
        return render

    async def _ensure_bracket(self, tour: Tournament) -> bool:
        """Post the bracket message (pinned when the bot may) unless the tournament has one; returns
        whether it was posted now."""
        async with self.live.lock(tour.id):
            if BRACKET in await self.live.shown(tour.id):
                return False
            lang = await self.tables.public_language(tour.guild_id)

            async def bracket() -> Payload:
                return await self._bracket(tour, lang)
            posted = await self.live.post(tour.id, tour.guild_id, tour.channel_id, BRACKET, bracket)
        if posted is not None:
            await self.live.pin(posted, tour.channel_id)
        return True

    async def round_started(self, tour: Tournament) -> None:
        """Post the round's matches with «Jugar», pinging its players; before the first round, the
        bracket message (pinned when the bot may). The bracket message shows the new round."""
        render = self._renderer(tour)
        if not await self._ensure_bracket(tour) and tour.format != "swiss":
            self.live.touch(tour.id, (BRACKET,), render)
        rnd = tour.current_round
        people = sorted({u for m in tour.matches if m.round == rnd and not m.resolved
                         for u in (m.a_user, m.b_user) if u is not None})
        mentions = " ".join(f"<@{u}>" for u in people)[:1900] or None

        async def round_message() -> Payload:
            payload = await render(rnd)
            assert payload is not None
            payload.content = mentions
            return payload
        await self.live.post(tour.id, tour.guild_id, tour.channel_id, rnd, round_message, pings=True)

    async def result(self, tour: Tournament, m: Match) -> None:
        """A match's (or one of its mesas') result, however decided: its round's message and the bracket
        message are edited, whichever round is current, and after a restart too. A tournament that has no
        bracket message yet (its round began before they were kept) gets one."""
        await self._ensure_bracket(tour)
        self.live.touch(tour.id, (m.round, BRACKET), self._renderer(tour))

    async def round_changed(self, tour: Tournament, rnd: int) -> None:
        """A round's match changed without a result (a player pressed «Jugar», a table opened): its message
        is edited."""
        self.live.touch(tour.id, (rnd,), self._renderer(tour))

    async def reminder(self, tour: Tournament, matches: list[Match]) -> None:
        """A day before the deadline: ping the players of the unfinished matches."""
        lang = await self.tables.public_language(tour.guild_id)
        people = sorted({u for m in matches for u in (m.a_user, m.b_user) if u is not None})
        text = t("tournament.reminder", lang, mentions=" ".join(f"<@{u}>" for u in people), round=tour.current_round,
                 when=when_text(tour.round_deadline or 0), name=clean(tour.name))
        await self._send(tour, Payload(content=text), pings=True)

    async def finished(self, tour: Tournament) -> None:
        """The champion: the bracket message and the last round's message are edited (no deadline, no
        «Jugar»), and the champion with the final bracket or standings is posted."""
        self.live.touch(tour.id, (tour.current_round, BRACKET), self._renderer(tour))
        lang = await self.tables.public_language(tour.guild_id)
        title = t("league.final_title", lang, name=clean(tour.name))
        embed = self._embed(tour, title, f"{_champion_head(self.service, tour, lang)}\n\n"
                                         f"{board_text(self.service, tour, lang)}")
        files: list[tuple[str, bytes]] = []
        if tour.format == "swiss":
            rows = [[str(i), tour.name_of(r.player), f"{r.points:g}", f"{r.buchholz:g}"]
                    for i, r in enumerate(self.service.swiss_standings(tour), start=1)]
            try:
                files = [("tabla.png", table_picture(title, t("tournament.pic_header", lang).split("|"), rows,
                                                     (0.6, 4.0, 1.0, 1.4)))]
                embed.set_image(url="attachment://tabla.png")
            except Exception:
                log.exception("tournament %d: the standings picture failed", tour.id)
        payload = Payload(embed=embed, files=files)
        if tour.status == "finished":
            url = await page_of(self.page_url, tour.guild_id, f"tournaments/{tour.id}")
            with_page_link(payload, url, t("web.bracket_link", lang))
        await self._send(tour, payload)

    async def make_channel(self, tour: Tournament, m: Match) -> Place:
        """A public thread of the tournament channel for the match's table («… · ronda N · a vs b»)."""
        channel = self.client.get_channel(tour.channel_id) or await self.client.fetch_channel(tour.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise discord.ClientException("the tournament channel is not a text channel")
        lang = await self.tables.public_language(tour.guild_id)
        name = t("tournament.thread", lang, name=tour.name, round=m.round, a=tour.name_of(m.a_user),
                 b=tour.name_of(m.b_user))[:100]
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=1440)
        return Place(thread.id, channel.guild.name, thread.name)
