"""What the table picture shows, built from public state only (``game.view(None)``): the table cards in
play order with the trailed card a caída can take, each seat in turn order (name, level, cards left,
dealer, mano, turn), each side's perros and tantos, chicas, captured count and the 38 mark, and the last
play with its drama. `bot.ui.picture` draws it.
"""

from __future__ import annotations

from bot.houserules.words import rules_label
from bot.i18n import t
from bot.tables import PLAYING, Table

from .picture import LastPlay, SeatScene, SideScene, TableScene
from .words import (
    at_blocking_score,
    callout,
    perros_tantos,
    recent_records,
    seat_name_parts,
    side_name,
)


def _plain(text: str) -> str:
    """A name as the picture draws it: without the markdown escapes added for messages."""
    return text.replace("\\", "")


def table_scene(table: Table, lang: str) -> TableScene:
    """The scene of a table in play, in ``lang``.

    Raises:
        ValueError: the table has no game.
    """
    game = table.game
    if game is None:
        raise ValueError("no game at this table")
    view = game.view(None)
    seats = []
    for i in range(table.players):
        s = table.seats[i]
        name, level = seat_name_parts(table, i, lang)  # the one seat name, its level drawn apart
        name = _plain(name)
        seats.append(SeatScene(
            name=name, cards_left=view.hand_sizes[i], team=i % 2, dealer=i == view.dealer, mano=i == view.mano,
            to_play=i == view.to_play and table.status == PLAYING, level=level,
            away=bool(s is not None and s.away)))
    sides = []
    for team in (0, 1):
        perros, tantos = perros_tantos(view.scores[team])
        sides.append(SideScene(label=_plain(side_name(table, team, lang)), perros=perros, tantos=tantos,
                               chicas=view.chicas[team], at38=at_blocking_score(table, team),
                               captured=view.pile_sizes[team]))
    last = None
    recent = [r for r in recent_records(view.events, 1) if r.kind == "play"]
    if recent:
        r = recent[-1]
        last = LastPlay(seat=r.seat or 0, card=r.card.code if r.card else "", captured=tuple(c.code for c in r.captured),
                        callout=callout(r, lang))
    trail = view.last_trail.code if view.last_trail is not None and view.last_trail in view.table else None
    labels = {key: t(f"pic.{key}", lang) for key in ("perros", "tantos", "chicas", "cards", "dealer", "mano", "turn",
                                                      "empty", "perros_one", "tantos_one", "chicas_one", "cards_one")}
    labels["only_caida"] = t("pic.only_caida", lang, score=table.rules.score38 or 38)
    title = t("table.title", lang, table=table.id, preset=rules_label(table, lang, emoji=False), chica=view.chica_number,
              hand=view.hand_number)
    return TableScene(title=title, table_cards=tuple(c.code for c in view.table), trail=trail,
                      trail_label=t("pic.trail", lang), seats=tuple(seats), sides=(sides[0], sides[1]),
                      last_play=last, labels=labels)

