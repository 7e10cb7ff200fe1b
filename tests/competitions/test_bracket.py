"""The bracket's layout and its two renderers: single elimination of 3, 4, 5, 8 and 16 players with byes and
best-of-3 scores, a Swiss tournament's standings and rounds; the PNG's size and its names' ink; the SVG
against the tournament's own matches; and a bracket made by the real tournament service."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from bot.competitions.bracket import (
    MIN_TEXT,
    WIDTH,
    BracketLayout,
    SwissLayout,
    elimination_layout,
    swiss_layout,
    tournament_layout,
)
from bot.competitions.bracket_draw import bracket_picture, bracket_pictures, bracket_svg
from bot.competitions.tournament_model import (
    Match,
    Player,
    Tournament,
    bracket_order,
    champion_of,
    swiss_table,
)
from bot.competitions.tournaments import TournamentService
from bot.ui.picture.shapes import PHONE_WIDTH

NAMES = ["Ana María", "Beto", "Carolina Pérez", "Dani", "Eva", "Fernando Castillo", "Gabi", "Hugo", "Inés",
         "Juan José", "Karla", "Luis", "Mónica", "Néstor", "Olga", "Pablo"]
SVG = "{http://www.w3.org/2000/svg}"


def elimination(n: int, *, best_of: int = 3, played: int = 99) -> Tournament:
    """A bracket of ``n`` seeded players as the service draws it (`bracket_order`, byes to the top seeds),
    rounds up to ``played`` decided (best of 3: 2–1 for the upper slot, 0–2 for the lower), then the first
    match of the next round in play at 1–0."""
    tour = Tournament(7, 1, 2, "Copa Quito", "elimination", 0, best_of, "quito", 3, "walkover", "running", 3)
    tour.players = [Player(100 + i, NAMES[i] if i < len(NAMES) else f"Jugador {i + 1}", seed=i + 1) for i in range(n)]
    size = 2 ** tour.total_rounds
    order = bracket_order(size)
    by_seed = {p.seed: p.user_id for p in tour.players}
    pairs = [(by_seed.get(order[2 * k]), by_seed.get(order[2 * k + 1])) for k in range(size // 2)]
    rnd, ident = 1, 1
    while True:
        made = []
        for slot, (a, b) in enumerate(pairs):
            if a is None:
                a, b = b, None
            m = Match(ident, rnd, slot, a, b)
            ident += 1
            if b is None:
                m.status, m.winner = ("walkover", a) if a is not None else ("double_loss", None)
            elif rnd <= played:
                m.wins_a, m.wins_b = ((2, 1) if slot % 2 == 0 else (0, 2)) if best_of == 3 else \
                    ((1, 0) if slot % 2 == 0 else (0, 1))
                m.status, m.winner = "done", a if m.wins_a > m.wins_b else b
            elif slot == 0:
                m.status, m.wins_a, m.table_id = "playing", 1 if best_of == 3 else 0, 12
            made.append(m)
        tour.matches += made
        tour.current_round = rnd
        if rnd > played or rnd == tour.total_rounds:
            break
        pairs = [(made[2 * k].winner, made[2 * k + 1].winner) for k in range(len(made) // 2)]
        rnd += 1
    if all(m.resolved for m in tour.matches) and rnd == tour.total_rounds:
        tour.status = "finished"
    return tour


def boxes_of(layout: BracketLayout) -> dict[tuple[int, int], object]:
    return {(b.round, b.slot): b for b in layout.boxes}


def check_geometry(layout: BracketLayout) -> None:
    """Every box inside the canvas, no two boxes overlapping, every text at least `MIN_TEXT`."""
    for b in layout.boxes:
        assert 0 <= b.x and b.x + b.w <= layout.width and 0 <= b.y and b.y + b.h <= layout.height
    for i, p in enumerate(layout.boxes):
        for q in layout.boxes[i + 1:]:
            apart = p.x + p.w <= q.x or q.x + q.w <= p.x or p.y + p.h <= q.y or q.y + q.h <= p.y
            assert apart, f"boxes {p.round}/{p.slot} and {q.round}/{q.slot} overlap"
    assert all(label.size >= MIN_TEXT for label in layout.labels)


def test_three_players_the_top_seed_has_a_bye_into_the_final():
    tour = elimination(3, played=0)
    layout = elimination_layout(tour, "en")
    boxes = boxes_of(layout)
    assert sorted(boxes) == [(1, 0), (1, 1), (2, 0)]
    bye = boxes[(1, 0)]
    assert (bye.status, bye.a.name, bye.a.state, bye.b.name, bye.b.state) == ("bye", "Ana María", "winner", "bye", "bye")
    final = boxes[(2, 0)]
    assert final.status == "future" and final.a.name == "Ana María", "the bye's winner is already in the final"
    assert final.b.state == "tbd" and final.b.shown == "?"
    assert [label.text for label in layout.labels if label.role == "header"] == ["Semifinals", "Final"]
    check_geometry(layout)


def test_four_players_best_of_three_scores_and_the_champion():
    tour = elimination(4)
    assert tour.status == "finished"
    champion = champion_of(tour)
    layout = elimination_layout(tour, "en", champion)
    for m in tour.matches:
        box = boxes_of(layout)[(m.round, m.slot)]
        assert (box.a.score, box.b.score) == (str(m.wins_a), str(m.wins_b))
        assert {box.a.state, box.b.state} == {"winner", "loser"}
        assert (box.a.state == "winner") == (m.winner == m.a_user)
    assert layout.champion == tour.name_of(champion) == "Ana María"
    assert any(label.role == "champion" and "Ana María" in label.text for label in layout.labels)
    check_geometry(layout)


def test_five_players_three_byes_and_a_walkover():
    tour = elimination(5, played=0)
    m = next(m for m in tour.matches if m.b_user is not None)
    m.status, m.winner = "walkover", m.b_user
    layout = elimination_layout(tour, "es")
    boxes = boxes_of(layout)
    assert len(layout.boxes) == 4 + 2 + 1
    assert sum(b.status == "bye" for b in layout.boxes) == 3
    assert all(b.b.shown == "libre" for b in layout.boxes if b.status == "bye")
    wo = boxes[(1, m.slot)]
    assert (wo.a.score, wo.b.score, wo.b.state) == ("–", "W", "winner")
    fed = boxes[(2, m.slot // 2)]
    assert tour.name_of(m.b_user) in (fed.a.name, fed.b.name), "the walkover's winner goes on"
    check_geometry(layout)


def test_eight_players_in_the_semifinals_one_in_play():
    tour = elimination(8, played=1)
    layout = elimination_layout(tour, "en")
    boxes = boxes_of(layout)
    assert len(layout.boxes) == 7 and len(layout.lines) == 2 * 3
    semi = boxes[(2, 0)]
    assert semi.status == "playing" and (semi.a.score, semi.b.score) == ("1", "0")
    assert boxes[(3, 0)].status == "future" and boxes[(3, 0)].a.state == "tbd"
    # each semifinal sits between its two quarterfinals
    for slot in (0, 1):
        top, bottom = boxes[(1, 2 * slot)], boxes[(1, 2 * slot + 1)]
        mid = boxes[(2, slot)]
        assert top.y + top.h // 2 < mid.y + mid.h // 2 < bottom.y + bottom.h // 2
    check_geometry(layout)


def test_sixteen_players_are_cut_into_sections_of_three_rounds():
    tour = elimination(16, played=1)
    layout = elimination_layout(tour, "en")
    assert len(layout.boxes) == 15 and layout.width == WIDTH
    headers = [label.text for label in layout.labels if label.role == "header"]
    assert headers == ["Round 1", "Quarterfinals", "Semifinals"] * 2 + ["Final"]
    final = boxes_of(layout)[(4, 0)]
    assert final.y > max(b.y for b in layout.boxes if b.round == 3), "the final under both halves"
    check_geometry(layout)


@pytest.mark.parametrize("players", [3, 4, 5, 8, 16])
def test_the_picture_is_the_layouts_size_with_every_name_inked(players):
    tour = elimination(players, played=1)
    layout = elimination_layout(tour, "en")
    image = Image.open(io.BytesIO(bracket_picture(layout)))
    assert image.format == "PNG" and image.size == (layout.width, layout.height) == (600, layout.height)
    rgb = image.convert("RGB")
    for box in layout.boxes:
        for side, top in ((box.a, box.y), (box.b, box.y + box.h // 2)):
            region = rgb.crop((box.x + 6, top + 8, box.x + 40, top + box.h // 2 - 8))
            colours = region.getcolors(region.width * region.height)
            _, ground = max(colours)
            ink = sum(count for count, px in colours if sum(abs(c - g) for c, g in zip(px, ground, strict=True)) > 90)
            assert ink > 10, f"{side.name!r}: nothing drawn in its row"
    if players <= 8:  # a phone shows it 280 px wide at least: the smallest text is 11+ px there
        assert MIN_TEXT * PHONE_WIDTH / layout.width >= 11
        assert layout.height <= layout.width, "landscape or square: Discord's embed fits it whole"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def match_groups(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    return {(int(g.get("data-round")), int(g.get("data-slot"))): g for g in root.iter(f"{SVG}g")
            if "match" in (g.get("class") or "")}


@pytest.mark.parametrize(("players", "played"), [(3, 1), (4, 2), (5, 1), (8, 3)])
def test_the_svg_holds_every_match_with_its_players_and_score(players, played):
    tour = elimination(players, played=played)
    champion = champion_of(tour) if tour.status == "finished" else None
    root = parse(bracket_svg(elimination_layout(tour, "en", champion)))
    groups = match_groups(root)
    for m in tour.matches:
        g = groups[(m.round, m.slot)]
        title = g.find(f"{SVG}title").text
        for user in (m.a_user, m.b_user):
            if user is not None:
                assert tour.name_of(user) in title
        scores = [t.text for t in g.iter(f"{SVG}text") if "score" in (t.get("class") or "")]
        if m.status == "done":
            assert scores == [str(m.wins_a), str(m.wins_b)]
    assert root.get("viewBox") == f"0 0 {WIDTH} {elimination_layout(tour, 'en', champion).height}"
    if champion is not None:
        assert any(tour.name_of(champion) in (t.text or "") for t in root.iter(f"{SVG}text")
                   if t.get("class") == "champion")


def swiss(n: int = 5) -> Tournament:
    tour = Tournament(9, 1, 2, "Suizo", "swiss", 2, 1, "quito", 3, "walkover", "running", 3)
    tour.players = [Player(200 + i, NAMES[i], seed=i + 1) for i in range(n)]
    u = [p.user_id for p in tour.players]
    tour.matches = [Match(1, 1, 0, u[0], u[1], "done", 1, 0, u[0]), Match(2, 1, 1, u[2], u[3], "done", 0, 1, u[3]),
                    Match(3, 1, 2, u[4], None, "walkover", 0, 0, u[4]),
                    Match(4, 2, 0, u[0], u[3], "playing"), Match(5, 2, 1, u[4], u[2], "done", 1, 0, u[4]),
                    Match(6, 2, 2, u[1], None, "walkover", 0, 0, u[1])]
    tour.current_round = 2
    return tour


def test_swiss_standings_are_the_services_and_the_rounds_are_shown():
    tour = swiss()
    rows = swiss_table(tour)
    layout = tournament_layout(tour, "en")
    assert isinstance(layout, SwissLayout)
    assert [(line.name, line.points, line.buchholz) for line in layout.lines] == \
        [(tour.name_of(r.player), f"{r.points:g}", f"{r.buchholz:g}") for r in rows]
    assert [label for label, _, _ in layout.rounds] == ["Round 2", "Round 1"], "the latest round first"
    latest = swiss_layout(tour, rows, "en", all_rounds=False)
    assert [label for label, _, _ in latest.rounds] == ["Round 2"]
    image = Image.open(io.BytesIO(bracket_picture(latest)))
    assert image.size == (latest.width, latest.height)
    root = parse(bracket_svg(layout))
    assert [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("class") == "standing"] == \
        [line.name for line in layout.lines]
    groups = match_groups(root)
    assert sorted(groups) == sorted((m.round, m.slot) for m in tour.matches)


async def test_a_bracket_made_by_the_tournament_service(store, tables, clock):
    """Five players through the real service (byes to seeds 1–3, walkovers awarded by the organizer): the
    layout and the SVG show exactly its matches, and the champion once it has finished."""
    svc = TournamentService(store, tables, clock)
    tour = await svc.create(guild_id=1, channel_id=2, organizer_id=100, name="Copa", format="elimination",
                            best_of=3)
    for i in range(5):
        await svc.sign_up(tour, user_id=100 + i, name=NAMES[i], locale="en")
    await svc.close_signup(tour, user_id=100, can_manage=False)
    while tour.status == "running":
        m = next(m for m in tour.matches if m.round == tour.current_round and not m.resolved)
        await svc.award_walkover(tour, user_id=100, can_manage=False, winner_user=m.a_user)
    assert tour.status == "finished"
    champion = svc.champion(tour)
    layout = tournament_layout(tour, "en", champion=champion)
    assert isinstance(layout, BracketLayout)
    assert sorted((b.round, b.slot) for b in layout.boxes) == sorted((m.round, m.slot) for m in tour.matches)
    assert all(b.status != "future" for b in layout.boxes)
    assert layout.champion == tour.name_of(champion)
    groups = match_groups(parse(bracket_svg(layout)))
    for m in tour.matches:
        title = groups[(m.round, m.slot)].find(f"{SVG}title").text
        assert tour.name_of(m.a_user) in title
        assert ("W" in title) == (m.b_user is not None), "a walkover's W, none for a bye"


def test_two_players_and_names_the_font_lacks_or_that_look_like_markup():
    tour = elimination(2, played=0)
    tour.players[0].name = "<b>Ana</b> 🎉"
    tour.players[1].name = "🎲🎲"
    layout = elimination_layout(tour, "pt")
    (box,) = layout.boxes
    assert box.w > 300 and [label.text for label in layout.labels if label.role == "header"] == ["Final"]
    assert box.a.shown == "<b>Ana</b>" and box.b.shown == "", "characters the font lacks are dropped"
    image = Image.open(io.BytesIO(bracket_picture(layout)))
    assert image.size == (layout.width, layout.height)
    svg = bracket_svg(layout)
    root = parse(svg)  # well-formed: the names are escaped
    assert "<b>" not in svg and "&lt;b&gt;Ana&lt;/b&gt;" in svg
    title = next(iter(match_groups(root).values())).find(f"{SVG}title").text
    assert "<b>Ana</b> 🎉" in title and "🎲🎲" in title, "the full names stay in the title"


@pytest.mark.parametrize(("players", "pictures"), [(8, 1), (16, 2), (32, 5)])
def test_the_discord_pictures_are_the_sections_each_no_taller_than_wide(players, pictures):
    layout = elimination_layout(elimination(players, played=1), "en")
    whole = Image.open(io.BytesIO(bracket_picture(layout))).convert("RGB")
    parts = [Image.open(io.BytesIO(png)).convert("RGB") for png in bracket_pictures(layout)]
    assert len(parts) == pictures
    assert all(p.width == layout.width and p.height <= p.width for p in parts)
    top = 0
    for part in parts:  # the pictures, stacked, are the whole bracket
        assert part.tobytes() == whole.crop((0, top, whole.width, top + part.height)).tobytes()
        top += part.height
    assert top == layout.height
    for box in layout.boxes:  # no box is cut in two
        assert not any(box.y < cut < box.y + box.h for cut in layout.cuts)
