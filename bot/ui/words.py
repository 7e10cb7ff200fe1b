"""The game in words: names, sides, scores as perros and tantos, and every play as a record with its
drama called out (caída, limpia, ronda, the 38, chica, zapatero). Every text comes from `bot.i18n`.

Hidden information: these functions read only public events (the log as a spectator sees it: ronda
ranks stay hidden until RONDA_REVEALED) and never a hand.

Cards are written with the `CardFaces` each function is given (the application's card emojis when the bot
has them; by default `CardFaces.TEXT`, text labels ``7♦``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import discord

from bot.engine import JOKER_RANK, RANKS, Card, Event, EventKind
from bot.i18n import t, tn
from bot.tables import TEAMS, Table

from .faces import CardFaces

K = EventKind

CardText = Callable[[Card], str]
"""How a card is written in a line: `plain_card` (``"7♦"``) or `bot.ui.faces.CardFaces.card` (an emoji mention)."""


def plain_card(card: Card) -> str:
    """The text label of a card: ``"7♦"``."""
    return str(card)


def by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted as a player holds them: by rank A 2 3 4 5 6 7 J Q K, then suit; the jokers
    (comodines, RULES.md Part 1 §9) last, 🃏1 before 🃏2."""
    return sorted(cards, key=lambda c: (c.rank, c.suit, c.index))


@lru_cache(maxsize=4096)
def clean(name: str) -> str:
    """A user-given name made safe for a message: no markdown, no mentions (cached: every message of a
    play names the same few people)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def rank_word(rank: int | None, lang: str | None = None) -> str:
    """A rank index as printed (``"7"``, ``"J"``); ``"?"`` when hidden or not a rank. The jokers' rank
    (`JOKER_RANK`, §9) is the word ``"comodín"`` / ``"joker"`` / ``"coringa"`` in ``lang`` (Spanish by
    default)."""
    if rank == JOKER_RANK:
        return t("rank.joker", lang or "es")
    return RANKS[rank] if rank is not None and 0 <= rank < len(RANKS) else "?"


def ranks_words(ranks: Sequence[int], lang: str) -> str:
    """Several ranks in words: ``"5"``, ``"5 y J"`` (the ranks of a play's periquitos, §9)."""
    names = [rank_word(r, lang) for r in ranks]
    if len(names) <= 1:
        return names[0] if names else "?"
    return t("words.and", lang, a=", ".join(names[:-1]), b=names[-1])


def level_word(level: str | None, lang: str) -> str:
    """A computer level in words (``"media"``); ``greedy`` (the internal baseline) reads as ``medio``."""
    return t(f"level.short.{level if level in ('facil', 'medio', 'dificil') else 'medio'}", lang)


def seat_name(table: Table, seat: int | None, lang: str, at: int | None = None) -> str:
    """A seat's one name, the same in every message, the picture, the record and the replay: the
    person's name, or ``"Compu 1 (difícil)"`` for a computer player (``"Compu 3 (media, por ana)"`` when
    it replaced a person). With ``at`` (a play's index in the mesa, `PlayRecord.at`), the name of whoever
    held the seat when that play was made (`Table.held_by`: a person's own plays stay theirs after a
    computer player took the seat)."""
    s = table.held_by(seat, at)
    if s is None:
        return "?"
    if s.is_ai:
        level = level_word(s.ai, lang)
        if s.stands_for:
            return t("ai.name_level_for", lang, n=s.ai_number, level=level, name=clean(s.stands_for))
        return t("ai.name_level", lang, n=s.ai_number, level=level)
    return clean(s.name) if s.name else f"<@{s.user_id}>"


def seat_name_parts(table: Table, seat: int | None, lang: str) -> tuple[str, str | None]:
    """`seat_name` in two parts, for a layout that draws the level apart (the table picture): the name
    without the level (``"Compu 1"``, the person's name) and the computer's level in words (``"difícil"``),
    None for a person."""
    s = table.held_by(seat, None)
    if s is not None and s.is_ai:
        return t("ai.short", lang, n=s.ai_number), level_word(s.ai, lang)
    return seat_name(table, seat, lang), None


short_name = seat_name
"""The name in the hand's log: the same one name as everywhere (`seat_name`)."""


def seat_mention(table: Table, seat: int, lang: str) -> str:
    """A mention for a person (it does not ping inside an embed), the name for a computer player."""
    s = table.seats[seat]
    if s is not None and not s.is_ai:
        return f"<@{s.user_id}>"
    return seat_name(table, seat, lang)


def team_name(team: int, lang: str) -> str:
    """``"Equipo A"`` / ``"Team B"``."""
    return t(f"team.{TEAMS[team]}", lang)


def side_name(table: Table, team: int, lang: str) -> str:
    """How a side is named: in 1 v 1 the player (never "Equipo A"), in 2 v 2 ``"Equipo A"``."""
    if table.players == 2:
        return seat_name(table, team, lang)
    return team_name(team, lang)


def side_members(table: Table, team: int, lang: str) -> str:
    """The players of a side: ``"ana y caro"`` (one name in 1 v 1)."""
    names = [seat_name(table, s, lang) for s in table.team_seats(team)]
    return t("words.and", lang, a=names[0], b=names[1]) if len(names) == 2 else names[0]


def side_title(table: Table, team: int, lang: str) -> str:
    """A side with its players: ``"Equipo A (ana y caro)"`` in 2 v 2, the player's name in 1 v 1."""
    if table.players == 2:
        return seat_name(table, team, lang)
    return t("words.side_with", lang, side=team_name(team, lang), members=side_members(table, team, lang))


def perros_tantos(points: int) -> tuple[int, int]:
    """Points as perros (10) and tantos (2): 26 → (2, 3) (R32's traditional display)."""
    return points // 10, (points % 10) // 2


def score_words(points: int, lang: str) -> str:
    """Points as players say them: ``"2 perros y 3 tantos"``, ``"1 perro"``, ``"nada"``."""
    perros, tantos = perros_tantos(points)
    parts = []
    if perros:
        parts.append(tn("score.perros", perros, lang, n=perros))
    if tantos:
        parts.append(tn("score.tantos", tantos, lang, n=tantos))
    if not parts:
        return t("score.nothing", lang)
    return parts[0] if len(parts) == 1 else t("words.and", lang, a=parts[0], b=parts[1])


def at_blocking_score(table: Table, team: int) -> bool:
    """True when the side is at the score where only a caída counts (38; 18 in ``rapido``; R30)."""
    game = table.game
    score = table.rules.score38
    return bool(game is not None and table.rules.rule38 and score is not None and game.scores[team] == score)


def blocked_note(table: Table, blocked: str, lang: str) -> str:
    """Why points did not count: ``"(no cuenta: 38 no juega)"`` at the table's blocking score (18 in
    ``rapido``), or the cut-off."""
    if blocked == "38":
        return t("play.blocked_score", lang, score=table.rules.score38 or 38)
    return t("play.blocked_cutoff", lang)


# ---------------------------------------------------------------------- plays as records


@dataclass(frozen=True)
class PlayRecord:
    """One public happening of a hand, built from the event log (`records`).

    Attributes:
        kind: ``"play"``, ``"ronda"``, ``"doble_ronda"``, ``"revealed"`` or ``"deal"``.
        seat: who played / sang; victim: whose trailed card a caída fell on (R22).
        card: the card played; fallen: the card fallen on (caída); captured: cards taken, as captured.
        caida, limpia, en_ronda, four_caidas: what the play was (R22–R26).
        points: points the play (or ronda) added to the side, periquito bonus included; blocked:
            ``"38"``/``"cutoff"`` when the caída / limpia / ronda points did not count (R30, R15).
        wins_chica: the play or the doble ronda won the chica at once (R13, R25, R26).
        rank: a revealed ronda's rank (``revealed``); number: the deal number (``deal``).
        at: the index in the mesa (``Game.plays``) of the play this record is (``play``) or came with (a
            ronda sung at the deal that play led to, a reveal at the end of its hand); -1 before the first
            play; None when the records were built without knowing where they start (`records`). Names
            are given for ``at`` (`seat_name`): whoever held the seat then.
    """

    kind: str
    seat: int | None = None
    victim: int | None = None
    card: Card | None = None
    fallen: Card | None = None
    captured: tuple[Card, ...] = ()
    caida: bool = False
    limpia: bool = False
    en_ronda: bool = False
    four_caidas: bool = False
    points: int = 0
    blocked: str | None = None
    wins_chica: bool = False
    rank: int | None = None
    number: int | None = None
    bonus: dict[str, int] = field(default_factory=dict)
    """Points by kind for the summary: ``{"caida": 2}``, ``{"caida_en_ronda": 4}`` (R25, summed apart from
    the plain caídas), ``{"limpia": 2}``, ``{"ronda": 2}``, ``{"periquito": 6}`` …"""
    periquito: tuple[int, ...] = ()
    """The ranks of which the play took all four cards, each scoring the periquito bonus (§9); ()."""
    periquito_points: int = 0
    """The periquito bonus the play added (also counted in ``points``); 0 when blocked."""
    periquito_blocked: str | None = None
    """``"38"`` when the 38 rule stopped the periquito bonus (R30, §9); the caída / limpia's own block is
    ``blocked``."""
    at: int | None = None

    @property
    def capture_points(self) -> int:
        """The points of the caída / limpia alone, without the periquito bonus."""
        return self.points - self.periquito_points

    @property
    def joker_rank(self) -> int | None:
        """The rank a played joker stood for (the lowest rank it took, as `bot.engine.Play.joker_rank`);
        None for any other card, a trail, or a joker that took the other joker (§9)."""
        if self.card is None or not self.card.is_joker or not self.captured:
            return None
        rank = min(c.rank for c in self.captured)
        return None if rank == JOKER_RANK else rank

    @property
    def dramatic(self) -> bool:
        """A caída, limpia, periquito, ronda or an instant chica: something to call out."""
        return (self.caida or self.limpia or self.four_caidas or self.wins_chica or bool(self.periquito)
                or self.kind in ("ronda", "doble_ronda"))


def records(events: Sequence[Event], first: int | None = None) -> list[PlayRecord]:
    """The public records of a run of events (a hand's, usually), in order. A caída's victim is the seat
    of the play just before it (R22: the immediately preceding player's trail).

    ``first``: the index in the mesa (``Game.plays``) of the first PLAYED event of ``events``; each record
    then carries its `PlayRecord.at` (events before that play came with play ``first - 1``). None: ``at``
    stays None (names are then those of the seats' holders now)."""
    out: list[PlayRecord] = []
    last_seat: int | None = None
    at = None if first is None else first - 1
    i, n = 0, len(events)
    while i < n:
        e = events[i]
        if e.kind == K.PLAYED:
            if at is not None:
                at += 1
            j = i + 1
            captured: tuple[Card, ...] = ()
            caida = limpia = en_ronda = four = wins = False
            points = 0
            blocked = None
            fallen = None
            bonus: dict[str, int] = {}
            periquito: tuple[int, ...] = ()
            periquito_points = 0
            periquito_blocked = None
            if j < n and events[j].kind == K.CAPTURED:
                captured = events[j].cards
                j += 1
                while j < n and events[j].kind in (K.CAIDA, K.LIMPIA, K.FOUR_CAIDAS, K.PERIQUITO):
                    x = events[j]
                    j += 1
                    if x.kind == K.PERIQUITO:  # §9: one per rank taken whole, after the caída / limpia
                        rank = x.rank if x.rank is not None else (x.cards[0].rank if x.cards else None)
                        periquito += (rank,) if rank is not None else ()
                        periquito_points += x.points
                        points += x.points
                        bonus["periquito"] = bonus.get("periquito", 0) + x.points
                        periquito_blocked = periquito_blocked or x.blocked
                        continue
                    if x.kind == K.CAIDA:
                        caida, limpia, en_ronda, fallen = True, x.limpia, x.en_ronda, x.card
                        points += x.points
                        kind = "caida_en_ronda" if x.en_ronda else "caida"  # summed apart: +4, not +2 (R25)
                        bonus[kind] = bonus.get(kind, 0) + x.points
                        wins = wins or (x.reason == "chica" and x.blocked is None)
                    elif x.kind == K.LIMPIA:
                        limpia = True
                        points += x.points
                        bonus["limpia"] = bonus.get("limpia", 0) + x.points
                    else:
                        four = True
                        wins = wins or (x.reason == "chica" and x.blocked is None)
                    blocked = blocked or x.blocked
            out.append(PlayRecord("play", seat=e.seat, victim=last_seat if caida else None, card=e.card,
                                  fallen=fallen, captured=captured, caida=caida, limpia=limpia, en_ronda=en_ronda,
                                  four_caidas=four, points=points, blocked=blocked, wins_chica=wins, bonus=bonus,
                                  periquito=periquito, periquito_points=periquito_points,
                                  periquito_blocked=periquito_blocked, at=at))
            last_seat = e.seat
            i = j
            continue
        if e.kind in (K.RONDA, K.DOBLE_RONDA):
            kind = "ronda" if e.kind == K.RONDA else "doble_ronda"
            wins = e.kind == K.DOBLE_RONDA and e.reason == "chica" and e.blocked is None
            out.append(PlayRecord(kind, seat=e.seat, points=e.points, blocked=e.blocked, wins_chica=wins,
                                  bonus={"ronda": e.points}, at=at))
        elif e.kind == K.RONDA_REVEALED:
            out.append(PlayRecord("revealed", seat=e.seat, rank=e.rank, at=at))
        elif e.kind == K.DEAL:
            out.append(PlayRecord("deal", number=e.number, at=at))
            last_seat = None
        i += 1
    return out


def callout(record: PlayRecord, lang: str) -> str:
    """The drama of a record in a word or two, for the picture and the lines: ``"¡Caída!"``,
    ``"¡Caída y limpia!"``, ``"¡Limpia!"``, ``"¡Ronda!"``, ``"¡Periquito!"``, ``"¡Caída y periquito!"`` …;
    ``""`` for a plain play."""
    if record.kind in ("ronda", "doble_ronda"):
        return t(f"call.{record.kind}", lang)
    if record.kind != "play":
        return ""
    if not record.periquito:
        return _callout_without_periquito(record, lang)
    if record.four_caidas or record.en_ronda:  # rare: both callouts, one after the other
        return f"{_callout_without_periquito(record, lang)} {t('call.periquito', lang)}"
    if record.caida and record.limpia:
        return t("call.caida_limpia_periquito", lang)
    if record.caida:
        return t("call.caida_periquito", lang)
    if record.limpia:
        return t("call.limpia_periquito", lang)
    return t("call.periquito", lang)


def _callout_without_periquito(record: PlayRecord, lang: str) -> str:
    if record.four_caidas:
        return t("call.four_caidas", lang)
    if record.caida and record.en_ronda:
        return t("call.caida_en_ronda", lang)
    if record.caida and record.limpia:
        return t("call.caida_limpia", lang)
    if record.caida:
        return t("call.caida", lang)
    if record.limpia:
        return t("call.limpia", lang)
    return ""


def capture_words(card: Card, cards: Iterable[Card], lang: str, writer: CardText = plain_card) -> str:
    """The cards a play took, as the capture menu writes them: the base capture (one matched card, or the
    summed cards joined by "+"), then the escalera: ``"5♥, luego 6♠ 7♣"``, ``"3♣ + 4♥, luego J♠"``. A
    joker (§9) never sums: its base is the card it matched, ``"5♣, luego 6♦ 7♠"``, or the other joker.
    ``writer``: how each card is written (`plain_card`, as menus need it since select labels cannot show
    custom emojis; lines pass `CardFaces.card`)."""
    write = writer
    taken = list(cards)
    if card.is_joker and taken:  # §9: the card(s) of the rank it stands for, then the escalera; never a sum
        rank = min(c.rank for c in taken)
        base = [c for c in taken if c.rank == rank]
        stair = sorted((c for c in taken if c.rank > rank), key=lambda c: c.rank)
        joined = " "
    else:
        base = [c for c in taken if c.rank <= card.rank]
        stair = sorted((c for c in taken if c.rank > card.rank), key=lambda c: c.rank)
        joined = " + "
    text = joined.join(write(c) for c in base)
    if stair:
        rest = " ".join(write(c) for c in stair)
        text = f"{text}, {t('opt.then', lang)} {rest}" if base else rest
    return text


def _points_suffix(table: Table, record: PlayRecord, lang: str) -> str:
    if record.blocked:
        return " " + blocked_note(table, record.blocked, lang)
    if record.capture_points:
        return " " + t("play.points", lang, points=record.capture_points)
    return ""


def periquito_points_text(table: Table, record: PlayRecord, lang: str) -> str:
    """The periquito bonus of a record: ``"(+6)"``, or why it did not count (``"(no cuenta: 38 no
    juega)"``, R30, §9)."""
    if record.periquito_blocked:
        return blocked_note(table, record.periquito_blocked, lang)
    return t("play.points", lang, points=record.periquito_points)


def periquito_words(table: Table, record: PlayRecord, lang: str) -> str:
    """A record's periquitos as the end of its sentence: ``"y se llevó el periquito de 5 (+6)"``; ``""``
    when it took none (§9)."""
    if not record.periquito:
        return ""
    return tn("play.periquito", len(record.periquito), lang, ranks=ranks_words(record.periquito, lang),
              points=periquito_points_text(table, record, lang))


def sentence(table: Table, record: PlayRecord, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> str:
    """A record as a sentence, its drama called out in bold first:
    ``"**¡Caída!** ana le cayó a beto con 6♦ (+2)"``, ``"beto botó 5♣"``, ``"**¡Periquito!** ana llevó 4♥,
    luego 5♠ 5♥ 5♦ 5♣ con 4♣ y se llevó el periquito de 5 (+6)"``; a joker's rank is named (``"con 🃏1
    (como 5)"``). Never a hidden ronda rank. Names are those of whoever made the play (`PlayRecord.at`).
    Cards are written with ``faces``."""
    name = seat_name(table, record.seat, lang, record.at)
    if record.kind == "deal":
        return t("play.deal", lang, deal=record.number)
    if record.kind == "revealed":
        return t("play.ronda_revealed", lang, name=name, rank=rank_word(record.rank))
    if record.kind in ("ronda", "doble_ronda"):
        if record.wins_chica:
            body = t("play.doble_ronda_chica", lang, name=name)
        else:
            body = t(f"play.{record.kind}", lang, name=name) + _points_suffix(table, record, lang)
        return f"**{callout(record, lang)}** {body}"
    card = faces.card(record.card) if record.card else "?"
    if not record.captured:
        return t("play.trail", lang, name=name, card=card)
    if record.joker_rank is not None:  # a joker stood for a rank (§9): say which
        card = t("play.joker_as", lang, card=card, rank=rank_word(record.joker_rank, lang))
    if record.caida:
        victim = seat_name(table, record.victim, lang, None if record.at is None else record.at - 1)
        key = "play.caida_en_ronda" if record.en_ronda else "play.caida"
        body = t(key, lang, name=name, victim=victim, card=card,
                 fallen=faces.card(record.fallen) if record.fallen else "?")
        taken_more = len(record.captured) > 1
        if taken_more:
            body += " " + t("play.and_took", lang, cards=faces.cards(c for c in record.captured if c != record.fallen))
        if record.limpia:
            body += " " + t("play.and_limpia", lang)
    else:
        body = t("play.capture", lang, name=name, cards=capture_words(record.card, record.captured, lang, faces.card), card=card)  # type: ignore[arg-type]  # a capture has its card
        if record.limpia:
            body += " " + t("play.and_limpia", lang)
    body += _points_suffix(table, record, lang)
    if record.periquito:
        body += " " + periquito_words(table, record, lang)
    if record.wins_chica:
        body += " " + t("play.wins_chica", lang)
    word = callout(record, lang)
    return f"**{word}** {body}" if word else body


def log_token(table: Table, record: PlayRecord, lang: str) -> str:
    """A record in a few characters for the hand's full log: ``"ana 5♣"``, ``"beto 5♦→5♣ ¡Caída!"`` (text
    labels, not emojis: a 4-player hand's 40 plays must fit one embed)."""
    if record.kind == "deal":
        return t("log.deal", lang, deal=record.number)
    name = short_name(table, record.seat, lang, record.at)
    if record.kind in ("ronda", "doble_ronda"):
        return f"{name} **{callout(record, lang)}**"
    if record.kind == "revealed":
        return t("play.ronda_revealed", lang, name=name, rank=rank_word(record.rank))
    text = f"{name} {record.card}" if record.card else name
    if record.captured:
        text += "→" + " ".join(str(c) for c in by_rank(record.captured))
    word = callout(record, lang)
    if word:
        text += f" **{word}**"
    return text


def recent_records(events: Sequence[Event], plays: int, total: int | None = None) -> list[PlayRecord]:
    """The end of ``records(hand_events(events))``: from the current hand's ``plays``-th last play on (rondas
    and reveals after it included), or the whole hand when it has no more plays than that. The records are
    equal to those of the whole hand; the cost does not grow with the hand (a play's messages show its
    last plays only). ``total``: the number of plays in ``events`` (the mesa's, ``len(game.plays)``), so
    that each record knows its play (`PlayRecord.at`, the name of who made it)."""
    found = 0
    start = 0
    for i in range(len(events) - 1, -1, -1):
        kind = events[i].kind
        if kind == K.HAND_START:
            start = i + 1
            break
        if kind == K.PLAYED:
            found += 1
            if found > plays:  # the play before the first one wanted: its seat is the next one's victim
                return records(events[i:], None if total is None else total - found)[1:]
    return records(events[start:], None if total is None else total - found)


def hand_events(events: Sequence[Event]) -> list[Event]:
    """The events of the current hand: those after the last HAND_START."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].kind == K.HAND_START:
            return list(events[i + 1:])
    return list(events)


def play_lines(table: Table, events: Sequence[Event], lang: str, *,
               faces: CardFaces = CardFaces.TEXT) -> list[str]:
    """Public sentences for a run of events (`sentence` of each record, cards written with ``faces``)."""
    return [sentence(table, r, lang, faces=faces) for r in records(events)]
