"""Tournaments on Discord: the sign-up message, each round's matches with «Jugar», results, the
bracket or the Swiss standings as text, the champion, and the thread a match is played in."""

from __future__ import annotations

import logging

import discord

from bot.i18n import t, tn
from bot.tables import TableService
from bot.ui import limits
from bot.ui.render import Payload, make_view, when_text
from bot.ui.words import clean

from .board_picture import table_picture
from .items import TournamentButton
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


class TournamentDiscord:
    """Implements `bot.competitions.tournaments.TournamentPresenter` with the bot token."""

    def __init__(self, client: discord.Client, tables: TableService, service: TournamentService) -> None:
        self.client = client
        self.tables = tables
        self.service = service
        self._rounds: dict[int, tuple[int, int, str | None]] = {}
        """tournament id → (round, its message's id, its mentions) of the round message this process
        posted, edited as the round's matches get results (kept in memory: after a restart only new ones)."""

    def _channel(self, tour: Tournament) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)

    async def _send(self, tour: Tournament, payload: Payload, *, pings: bool = False) -> int | None:
        kwargs = payload.send_kwargs()
        if pings:
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=True)
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
        try:
            await self._channel(tour).get_partial_message(tour.signup_message_id).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("tournament %d: sign-up not edited (%s %s)", tour.id, exc.status, exc.code)

    def _round_payload(self, tour: Tournament, lang: str, mentions: str | None) -> Payload:
        """The current round's message: its matches, the deadline (Swiss: the standings), «Jugar»."""
        body = "\n".join([*(match_line(tour, m, lang) for m in tour.matches if m.round == tour.current_round), "",
                          t("league.deadline", lang, when=when_text(tour.round_deadline or 0),
                            policy=t(f"league.policy.{tour.policy}", lang))])
        if tour.format == "swiss":
            body += "\n\n" + board_text(self.service, tour, lang)
        return Payload(content=mentions,
                       embed=self._embed(tour, t("tournament.round_title", lang, name=clean(tour.name),
                                                 round=tour.current_round, rounds=tour.total_rounds), body),
                       view=make_view([TournamentButton(tour.id, "p", label=t("tournament.play", lang),
                                                        style=discord.ButtonStyle.success)]))

    async def round_started(self, tour: Tournament) -> None:
        """Post the round's matches with «Jugar», pinging its players."""
        lang = await self.tables.public_language(tour.guild_id)
        people = sorted({u for m in tour.matches if m.round == tour.current_round and not m.resolved
                         for u in (m.a_user, m.b_user) if u is not None})
        mentions = " ".join(f"<@{u}>" for u in people)[:1900] or None
        message_id = await self._send(tour, self._round_payload(tour, lang, mentions), pings=True)
        if message_id is not None:
            self._rounds[tour.id] = (tour.current_round, message_id, mentions)

    async def result(self, tour: Tournament, m: Match) -> None:
        """Announce a match's (or a mesa's) result, and bring the round's message up to date when it is the
        current round's and this process posted it."""
        lang = await self.tables.public_language(tour.guild_id)
        await self._send(tour, Payload(content=match_line(tour, m, lang)))
        shown = self._rounds.get(tour.id)
        if shown is None or shown[0] != m.round or tour.current_round != m.round:
            return
        payload = self._round_payload(tour, lang, shown[2])
        try:
            await self._channel(tour).get_partial_message(shown[1]).edit(**payload.edit_kwargs())
        except discord.HTTPException as exc:
            log.info("tournament %d: round message not edited (%s %s)", tour.id, exc.status, exc.code)

    async def reminder(self, tour: Tournament, matches: list[Match]) -> None:
        """A day before the deadline: ping the players of the unfinished matches."""
        lang = await self.tables.public_language(tour.guild_id)
        people = sorted({u for m in matches for u in (m.a_user, m.b_user) if u is not None})
        text = t("league.reminder", lang, mentions=" ".join(f"<@{u}>" for u in people), round=tour.current_round,
                 when=when_text(tour.round_deadline or 0), name=clean(tour.name))
        await self._send(tour, Payload(content=text), pings=True)

    async def finished(self, tour: Tournament) -> None:
        """The champion and the final bracket or standings."""
        lang = await self.tables.public_language(tour.guild_id)
        champion = self.service.champion(tour) if tour.status == "finished" else None
        head = (t("tournament.champion", lang, champion=clean(tour.name_of(champion)), name=clean(tour.name))
                if champion is not None else t("league.cancelled", lang, name=clean(tour.name)))
        title = t("league.final_title", lang, name=clean(tour.name))
        embed = self._embed(tour, title, f"{head}\n\n{board_text(self.service, tour, lang)}")
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
        await self._send(tour, Payload(embed=embed, files=files))

    async def make_channel(self, tour: Tournament, m: Match) -> Place:
        """A public thread of the tournament channel for the match's table."""
        channel = self.client.get_channel(tour.channel_id) or await self.client.fetch_channel(tour.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise discord.ClientException("the tournament channel is not a text channel")
        lang = await self.tables.public_language(tour.guild_id)
        name = t("league.thread", lang, name=tour.name, round=m.round, a=tour.name_of(m.a_user),
                 b=tour.name_of(m.b_user))[:100]
        thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                             auto_archive_duration=1440)
        return Place(thread.id, channel.guild.name, thread.name)
