"""The records of a hand, a chica and a mesa (`bot.ui.records`): what they say, in each language,
against RULES.md."""

from __future__ import annotations

from bot.engine import Event, Game, Play, Rules
from bot.engine import EventKind as K
from bot.ui import records
from tests.support.helpers import table_with


def test_end_of_hand_summary_explains_a_blocked_carton_at_38():
    """R30: at 38 the cartón does not count; the summary says why, like the play lines."""
    pile_a = "AC 2C 3C 4C 5C 6C 7C JC QC KC AD 2D 3D 4D 5D 6D 7D JD QD KD AH 2H"
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["3H", "4H"], table="",
                              dealer=1, to_play=0, deal_number=4, stock="", piles=(pile_a, "5H 6H"),
                              scores=(38, 0))
    events = game.play(Play.trail(game.hands[0][0]), seat=0)
    events += game.play(Play.trail(game.hands[1][0]), seat=1)
    carton = next(e for e in events if e.kind == K.CARTON)
    assert carton.blocked == "38" and carton.points == 0
    hand = [e for e in game.events if e.kind != K.HAND_START]
    end = next(i for i, e in enumerate(hand) if e.kind == K.HAND_END)
    del hand, end
    for lang, why, short in (("es", "no cuenta: 38 no juega", "(en 38 solo suma la caída)"),
                             ("en", "does not count: on 38, only a caída scores", "(on 38, only a caída scores)")):
        payload = records.hand_record_payload(table_with(game, "quito"), 1, lang)
        line = next(x for x in payload.embed.description.splitlines() if "cartón" in x)
        assert "cartón\u00a0+0" in line and short in line, line  # the record, on the side's line
        plays = records.plays_embed(table_with(game, "quito"), 1, lang).description
        line = next(x for x in plays.splitlines() if "cartón" in x)
        assert why in line, line  # «Ver jugadas», on the count's line


def test_chica_announcement_gives_the_winners_score_first():
    """An instant chica (caída en ronda, cuenca) won by B with 0 points against A's 6."""
    event = Event(K.CHICA_WON, team=1, reason="caida_en_ronda", scores=(6, 0), counts=(0, 2), number=2,
                  zapatero=True)
    game = Game.from_position(Rules.preset("cuenca"), players=2, hands=["5C", "7H"], to_play=0, dealer=1)
    es = records.chica_lines(table_with(game, "cuenca"), event, "es")[0]
    en = records.chica_lines(table_with(game, "cuenca"), event, "en")[0]
    assert "(0 a 6)" in es, es
    assert "(0 to 6)" in en, en


def test_mesa_won_with_one_chica_says_chica_in_the_singular():
    event = Event(K.MESA_WON, team=0, counts=(1, 0), zapatero=True)
    game = Game.from_position(Rules.preset("quito"), players=2, hands=["5C", "7H"], to_play=0, dealer=1)
    es = "\n".join(records.mesa_lines(table_with(game, "quito"), event, "es"))
    en = "\n".join(records.mesa_lines(table_with(game, "quito"), event, "en"))
    assert "1 chicas" not in es and "1 chica a 0" in es, es
    assert "1 chicas" not in en and "1 chica to 0" in en, en
    two = Event(K.MESA_WON, team=1, counts=(1, 2), zapatero=False)
    assert "2 chicas a 1" in records.mesa_lines(table_with(game, "quito"), two, "es")[0]
