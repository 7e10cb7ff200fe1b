"""A replay step as a Discord message: one embed, readable at phone width, with ⏮ ◀ ▶ ⏭.

What a step shows (in this order):

- where it is: the hand (mano), chica and deal;
- what opened it, when it did: a new chica, a new hand and its dealer, a deal, the rondas sung;
- every seat's cards just before the play (a finished mesa has no secrets left), the seat in turn marked
  with ▶, and the cards on the table;
- the play as a sentence (who, which card, what it took, the caída or limpia called out, its points;
  `bot.ui.words.sentence`), the table right after it, and everything the play closed: the count at the
  end of the hand (leftovers, cartón, dos por darlas, falla, rondas revealed), a chica, the mesa;
- the running score and chicas in a field of their own (so no long step can push it out), and in the
  footer the play's and the hand's number out of how many.

Cards are written with the `bot.ui.faces.CardFaces` given (the bot's: the card emojis, or ``7♦``). Every text comes from `bot.i18n`; the payload is checked against Discord's limits by `Payload`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import discord

from bot.engine import Event, EventKind
from bot.houserules.words import rules_label
from bot.i18n import command_lang, t, tn
from bot.tables import TEAMS, Table
from bot.ui import limits
from bot.ui.faces import CardFaces
from bot.ui.records import chica_lines, mesa_lines
from bot.ui.render import Payload, make_view
from bot.ui.words import blocked_note, by_rank, records, seat_name, sentence, side_name

from .items import KINDS, ReplayButton
from .source import ReplayedMesa
from .steps import Replay, Step

K = EventKind
COLOR = discord.Colour(0x2E6DB4)
_PLAY_KINDS = (K.PLAYED, K.CAPTURED, K.CAIDA, K.LIMPIA, K.FOUR_CAIDAS, K.PERIQUITO)


def replay_command(table_id: int, lang: str) -> str:
    """The command that replays a mesa, as the user types it: ``"`/cuarenta repetir mesa:12`"``."""
    names = command_lang(lang)  # as the user's client shows the command
    return (f"`/{t('cmd.cuarenta.name', names)} {t('cmd.replay.name', names)} "
            f"{t('opt.mesa.name', names)}:{table_id}`")


def _count_line(table: Table, e: Event, lang: str) -> str | None:
    """One line of the count at the end of a hand, or None for an event that has none."""
    side = side_name(table, e.team or 0, lang)
    suffix = " " + blocked_note(table, e.blocked, lang) if e.blocked else ""
    if e.kind == K.CARTON:
        return tn("sum.carton", e.number or 0, lang, team=side, points=e.points, count=e.number) + suffix
    if e.kind == K.DOS_POR_DARLAS:
        return t("sum.dos_por_darlas", lang, team=side, points=e.points) + suffix
    if e.kind == K.MAS_CARTAS:
        return t("sum.mas_cartas", lang, team=side, points=e.points) + suffix
    if e.kind == K.FALLA:
        return t("sum.falla", lang, team=side, points=e.points) + suffix
    if e.kind == K.LEFTOVERS and e.cards:
        if e.team is None:
            return tn("sum.leftovers", len(e.cards), lang, count=len(e.cards))
        return tn("sum.leftovers_taken", len(e.cards), lang, count=len(e.cards), team=side)
    if e.kind == K.HAND_END and e.counts is not None:
        return t("sum.cards", lang, a=side_name(table, 0, lang), b=side_name(table, 1, lang),
                 ca=e.counts[0], cb=e.counts[1])
    return None


def event_lines(table: Table, events: Sequence[Event], lang: str, first: int | None = None, *,
                faces: CardFaces = CardFaces.TEXT) -> list[str]:
    """Every event of a run as lines, in order: plays as sentences (a caída names its victim, the seat
    that played just before), rondas, deals, a new hand or chica, the count, a chica and the mesa won.
    ``first``: the index in the mesa of the run's first play (events before it came with play ``first -
    1``), so that every line names whoever held the seat then (`bot.ui.words.records`). Cards are written
    with ``faces``."""
    lines: list[str] = []
    at = None if first is None else first - 1
    i, n = 0, len(events)
    while i < n:
        e = events[i]
        if e.kind == K.PLAYED:
            j = i + 1
            while j < n and events[j].kind in _PLAY_KINDS[1:]:
                j += 1
            at = None if at is None else at + 1
            record = records(events[i:j], at)[0]
            if record.caida and record.seat is not None:
                record = dataclasses.replace(record, victim=(record.seat - 1) % table.players)
            lines.append(sentence(table, record, lang, faces=faces))
            i = j
            continue
        if e.kind in (K.RONDA, K.DOBLE_RONDA, K.DEAL, K.RONDA_REVEALED):
            lines.append(sentence(table, records([e], None if at is None else at + 1)[0], lang, faces=faces))
        elif e.kind == K.CHICA_START:
            lines.append(t("replay.chica_start", lang, chica=e.number))
        elif e.kind == K.HAND_START:
            lines.append(t("replay.hand_start", lang, hand=e.number, dealer=seat_name(table, e.seat, lang, at)))
        elif e.kind == K.CHICA_WON:
            lines += chica_lines(table, e, lang)
        elif e.kind == K.MESA_WON:
            lines += mesa_lines(table, e, lang)
        else:
            line = _count_line(table, e, lang)
            if line is not None:
                lines.append(line)
        i += 1
    return lines


def _cards(cards: Sequence, lang: str, faces: CardFaces) -> str:
    return faces.cards(cards) if cards else t("replay.empty", lang)


def hand_lines(table: Table, step: Step, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> list[str]:
    """Every seat's cards before the play, sorted as a player holds them; ``▶`` marks the seat in turn
    (in 2 v 2 the team follows the name); each seat named after whoever held it at this play."""
    lines = []
    for seat, hand in enumerate(step.hands):
        mark = "▶" if seat == step.seat else "·"
        team = f" ({TEAMS[seat % 2]})" if table.players == 4 else ""
        lines.append(f"{mark} **{seat_name(table, seat, lang, step.index)}**{team}: {_cards(by_rank(hand), lang, faces)}")
    return lines


def step_lines(table: Table, step: Step, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> list[str]:
    """The description of a step (see the module docstring), as lines; cards written with ``faces``."""
    lines = [t("replay.where", lang, hand=step.hand, chica=step.chica, deal=step.deal)]
    lines += event_lines(table, step.opening, lang, step.index, faces=faces)
    lines.append("")
    lines += hand_lines(table, step, lang, faces=faces)
    lines.append(t("replay.table", lang, cards=_cards(step.table, lang, faces)))
    lines.append("")
    if step.play is None:
        return [*lines, t("replay.no_play", lang), *event_lines(table, step.events, lang, step.index, faces=faces)]
    own = next((i for i, e in enumerate(step.events) if e.kind not in _PLAY_KINDS), len(step.events))
    lines += event_lines(table, step.events[:own], lang, step.index, faces=faces)
    lines.append(t("replay.after", lang, cards=_cards(step.after, lang, faces)))
    lines += event_lines(table, step.events[own:], lang, step.index + 1, faces=faces)
    return lines


def buttons(table_id: int, replay: Replay, index: int) -> list[ReplayButton]:
    """⏮ ◀ ▶ ⏭ for step ``index``; a button with nowhere to go is disabled (and points at ``index``)."""
    targets = {"b": replay.previous_hand(index), "p": index - 1 if index > 0 else None,
               "n": index + 1 if index < replay.last else None, "f": replay.next_hand(index)}
    return [ReplayButton(table_id, index if (target := targets[k]) is None else target, k, disabled=target is None)
            for k in KINDS]


def step_payload(mesa: ReplayedMesa, index: int, lang: str, *, faces: CardFaces = CardFaces.TEXT) -> Payload:
    """Step ``index`` (clamped to the replay) of a finished mesa, in ``lang``, with its buttons; cards
    written with ``faces``."""
    replay, table = mesa.replay, mesa.table
    index = replay.clamp(index)
    step = replay.steps[index]
    embed = discord.Embed(title=limits.clip(t("replay.title", lang, table=table.id, preset=rules_label(table, lang)),
                                            limits.EMBED_TITLE),
                          description=limits.clip("\n".join(step_lines(table, step, lang, faces=faces)),
                                                  limits.EMBED_DESCRIPTION),
                          colour=COLOR)
    score = t("replay.score", lang, a=side_name(table, 0, lang), sa=step.scores[0], b=side_name(table, 1, lang),
              sb=step.scores[1], ca=step.chicas[0], cb=step.chicas[1])
    embed.add_field(name=t("replay.score_title", lang), value=limits.clip(score, limits.FIELD_VALUE), inline=False)
    embed.set_footer(text=limits.clip(t("replay.footer", lang, step=index + 1, steps=len(replay.steps),
                                        hand=step.hand, hands=replay.steps[-1].hand), limits.FOOTER))
    return Payload(embed=embed, view=make_view(buttons(table.id, replay, index)))


__all__ = ["buttons", "event_lines", "hand_lines", "replay_command", "step_lines", "step_payload"]
