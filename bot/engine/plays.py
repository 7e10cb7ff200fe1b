"""Plays and what a card can capture: the legal options of a hand on a table (R17, R18, R21), with the
seed-002 variants comodines and periquito (RULES.md Part 1 §9).

`options_by_card` is the engine's capture enumeration. Without the variants it runs the plain, tuned path
(`_plain_options`); with either flag on, `_variant_options` reuses it for the real cards and adds:

- **Comodines** (``Rules.comodines``). A joker in the hand has one capture per rank on the table and per
  card of that rank (R17's choice between two matches): it matches that card and takes the escalera
  upward from its rank, as a card of that rank would (R18; ``sequence_mode``, ``match_takes_all`` apply
  as for that card). It also takes a joker lying on the table, alone (no escalera). It never sums and
  its option is never a match for caída purposes (R22: a joker is never a caída). Jokers on the table are
  invisible to real cards: no match, sum or escalera step takes one. A joker that cannot capture, or any
  joker where ``forced_capture`` is off, may be trailed.
- **Periquito** (``Rules.periquito``). When all four cards of a rank lie on the table, every option whose
  captures include a card of that rank takes all four instead (project decision: however the rank is
  reached — by a sum that includes one of them, by an escalera step from a lower card, or by a joker
  standing for it — since nobody can hold a card of that rank to match it). The rest of the capture is
  unchanged: its escalera still runs from the played card's rank (R18), so from that rank itself when
  the escalera or a joker reached it. Options that become equal are merged. A sum's base grows to the
  four cards, so with ``caida_by_sum`` it is a caída when the just-trailed card is one of them.

An option is ``(play, base, is_match)``: the play, its base capture (the matched card or the summed cards,
in table order) and whether the base is a match of a real card; the base decides a caída (R22).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .cards import ALL_CARDS, JOKER_RANK, Card, parse_cards
from .rules import Rules

__all__ = ["Option", "Play", "PlayInfo", "options_by_card", "periquito_ranks"]


class Play(NamedTuple):
    """A card plus the exact set of cards it captures (base capture + escalera). Trailing is a play with
    no captures (R16, R21).

    Build one with ``Play(Card.parse("7D"), frozenset(parse_cards("3C 4H")))``, `Play.trail`, or
    `Play.parse("7D", "3C 4H")`; or pick one from `Game.legal_plays`.

    A joker's play (comodines, §9) is ``Play(W1, captures)`` like any other: the captures say which rank
    it stands for (the lowest one taken, `joker_rank`) and which card of it; ``Play.parse("W1", "W2")``
    takes the other joker.
    """

    card: Card
    captures: frozenset[Card] = frozenset()

    @classmethod
    def trail(cls, card: Card | str) -> Play:
        """Trail ``card``: play it without capturing (R21)."""
        return cls(Card.parse(card), frozenset())

    @classmethod
    def parse(cls, card: Card | str, captures: str | Iterable[Card | str] = ()) -> Play:
        """``Play.parse("7D", "3C 4H JS")``.

        Raises:
            CardError: a code names no card.
        """
        return cls(Card.parse(card), frozenset(parse_cards(captures)))

    @property
    def is_trail(self) -> bool:
        """True when the play captures nothing."""
        return not self.captures

    @property
    def joker_rank(self) -> int | None:
        """The rank index (0–9) a joker stands for in this play (§9): the lowest rank it captures, since it
        matches a card of that rank and takes the escalera upward. None for a card that is not a joker, a
        trail, or a joker taking the other joker."""
        if not self.card.is_joker or not self.captures:
            return None
        rank = min(c.rank for c in self.captures)
        return None if rank == JOKER_RANK else rank

    def sorted_captures(self) -> list[Card]:
        """The captured cards, sorted A…K (jokers last)."""
        return sorted(self.captures)

    def __str__(self) -> str:
        if not self.captures:
            return str(self.card)
        return f"{self.card} → {' + '.join(str(c) for c in self.sorted_captures())}"

    def to_dict(self) -> dict[str, Any]:
        """``{"card": "7D", "captures": ["3C", "4H"]}`` (captures sorted)."""
        return {"card": self.card.code, "captures": [c.code for c in self.sorted_captures()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Play:
        """Inverse of `to_dict`."""
        return cls.parse(data["card"], data.get("captures", ()))


Option = tuple[Play, tuple[Card, ...], bool]
"""An option: (play, base capture, base is a match of a real card). The base is what decides a caída (R22)."""


class PlayInfo(NamedTuple):
    """What a legal play would do (`Game.explain`), for describing it to a player.

    Attributes:
        base: the base capture (one matched card, or the summed cards), in table order (R17). For a joker:
            the card it matches (of the rank it stands for), or the joker it takes (§9). With a periquito
            taken through the base, all four cards of that rank.
        escalera: the cards then taken in sequence, in rank order (R18); with a periquito reached by the
            escalera, all four cards of that rank.
        caida: the base matches the card the previous seat just trailed (R22). Never for a joker (§9).
        limpia: the play empties the table (R23); a joker left on the table keeps it from being clear.
        en_ronda: the caída falls on a card of the trailer's ronda (R25).
        joker_rank: the rank index a played joker stands for (`Play.joker_rank`), else None (§9).
        periquito: the ranks of which the play takes all four cards, scoring the periquito bonus, in rank
            order; () when none or when ``Rules.periquito`` is off (§9).
    """

    base: tuple[Card, ...]
    escalera: tuple[Card, ...]
    caida: bool
    limpia: bool
    en_ronda: bool
    joker_rank: int | None = None
    periquito: tuple[int, ...] = ()


def periquito_ranks(cards: Iterable[Card]) -> tuple[int, ...]:
    """The ranks (0–9, ascending) of which all four cards are among ``cards``: the periquitos a capture
    takes when ``Rules.periquito`` is on (§9)."""
    counts = [0] * 11
    for c in cards:
        counts[c.rank] += 1
    return tuple(r for r in range(10) if counts[r] == 4)


_EMPTY: frozenset[Card] = frozenset()
_TRAIL_OPTIONS: tuple[Option, ...] = tuple((Play(c, _EMPTY), (), False) for c in ALL_CARDS)
_TRAIL_ONLY: tuple[list[Option], ...] = tuple([o] for o in _TRAIL_OPTIONS)  # shared: never mutate


def options_by_card(rules: Rules, table: list[Card], hand: Sequence[Card]) -> dict[Card, list[Option]]:
    """Every option of each card of ``hand`` on ``table`` (oldest first) under ``rules`` (R17, R18, R21,
    §9): card → its options, its captures first (in a fixed order), then its trail when allowed.

    Shape: a dict with one key per card of ``hand``. The lists may be shared between calls: never mutate
    them.
    """
    if rules.comodines or rules.periquito:
        return _variant_options(rules, table, hand)
    return _plain_options(rules, table, hand)


def _plain_options(rules: Rules, table: list[Card], hand: Sequence[Card]) -> dict[Card, list[Option]]:
    """Options of real cards on a table of real cards (R17, R18, R21)."""
    result: dict[Card, list[Option]] = {}
    if not table:
        for card in hand:
            result[card] = _TRAIL_ONLY[card.index]
        return result
    first: dict[int, Card] = {}  # rank -> the earliest table card of that rank
    repeated = False
    for t in table:
        if t.rank in first:
            repeated = True
        else:
            first[t.rank] = t
    sums = _sum_groups(table, hand, rules.sum_mode == "pair") if len(table) > 1 else None
    for card in hand:
        r = card.rank
        summed = sums.get(card.value) if sums else None
        if r not in first and not summed:
            result[card] = _TRAIL_ONLY[card.index]
            continue
        escalera: tuple[Card, ...] = ()
        nr = r + 1
        while nr in first:
            escalera += (first[nr],)
            nr += 1
        if r not in first:
            bases: list[tuple[tuple[Card, ...], bool]] = []
        elif not repeated:
            bases = [((first[r],), True)]
        elif rules.match_takes_all:
            bases = [(tuple([t for t in table if t.rank == r]), True)]
        else:
            bases = [((t,), True) for t in table if t.rank == r]
        if summed:
            bases += [(b, False) for b in summed]
        if rules.sequence_mode == "optional":
            options = [
                (Play(card, frozenset(base + escalera[:k])), base, is_match)
                for base, is_match in bases
                for k in range(len(escalera) + 1)
            ]
        else:
            options = [(Play(card, frozenset(base + escalera)), base, is_match) for base, is_match in bases]
        if not rules.forced_capture:
            options.append(_TRAIL_OPTIONS[card.index])
        result[card] = options
    return result


def _variant_options(rules: Rules, table: list[Card], hand: Sequence[Card]) -> dict[Card, list[Option]]:
    """`_plain_options` for the real cards on the real table cards, plus the jokers' options, then the
    periquito applied to every option (§9; see the module docstring)."""
    real = [t for t in table if not t.is_joker] if rules.comodines else table
    jokers = [c for c in hand if c.is_joker] if rules.comodines else ()
    result = _plain_options(rules, real, [c for c in hand if not c.is_joker] if jokers else hand)
    for joker in jokers:
        result[joker] = _joker_options(rules, table, real, joker)
    if rules.periquito and len(real) >= 4:
        by_rank: dict[int, list[Card]] = {}
        for t in real:
            by_rank.setdefault(t.rank, []).append(t)
        full = {r: frozenset(cards) for r, cards in by_rank.items() if len(cards) == 4}
        if full:
            for card in hand:
                result[card] = _with_periquito(result[card], full, real)
    return result


def _joker_options(rules: Rules, table: list[Card], real: list[Card], joker: Card) -> list[Option]:
    """A joker's options (§9): for each rank on the table (ascending) and each card of it (table order),
    match it and take the escalera from that rank; then take each joker on the table, alone; then trail."""
    by_rank: dict[int, list[Card]] = {}
    for t in real:
        by_rank.setdefault(t.rank, []).append(t)
    optional = rules.sequence_mode == "optional"
    options: list[Option] = []
    for r in sorted(by_rank):
        cards = by_rank[r]
        escalera: tuple[Card, ...] = ()
        nr = r + 1
        while nr in by_rank:
            escalera += (by_rank[nr][0],)  # the one played earlier (Part 1 §2)
            nr += 1
        bases = [tuple(cards)] if rules.match_takes_all else [(c,) for c in cards]
        for base in bases:
            if optional:
                options.extend((Play(joker, frozenset(base + escalera[:k])), base, False)
                               for k in range(len(escalera) + 1))
            else:
                options.append((Play(joker, frozenset(base + escalera)), base, False))
    for t in table:
        if t.is_joker:
            options.append((Play(joker, frozenset((t,))), (t,), False))
    if not options or not rules.forced_capture:
        options.append(_TRAIL_OPTIONS[joker.index])
    return options


def _with_periquito(options: list[Option], full: dict[int, frozenset[Card]], real: list[Card]) -> list[Option]:
    """The options with every capture that touches a full rank taking all four of it (§9), merged when
    they become equal. ``full``: rank → its four table cards. A new list; ``options`` is not changed."""
    out: list[Option] = []
    seen: set[frozenset[Card]] = set()
    for option in options:
        play, base, is_match = option
        caps = play.captures
        if caps:
            grown_base = set(base)
            for four in full.values():
                if not caps.isdisjoint(four):
                    if not grown_base.isdisjoint(four):
                        grown_base |= four
                    caps = caps | four
            if caps is not play.captures:
                if caps in seen:
                    continue
                base = tuple([t for t in real if t in grown_base]) if len(grown_base) != len(base) else base
                option = (Play(play.card, caps), base, is_match)
            seen.add(caps)
        out.append(option)
    return out


def _sum_groups(table: list[Card], hand: Sequence[Card], pairs_only: bool) -> dict[int, list[tuple[Card, ...]]]:
    """Sets of 2+ numeric table cards (exactly 2 when ``pairs_only``) whose values add up to the value of
    a numeric card in ``hand``, by total (R2, R17). Cards keep table order."""
    top = 0
    for c in hand:
        if c.value > top:
            top = c.value
    nums = [t for t in table if 0 < t.value < top]
    groups: dict[int, list[tuple[Card, ...]]] = {}
    if len(nums) < 2:
        return groups
    if len(nums) == 2:
        a, b = nums
        if a.value + b.value <= top:
            groups[a.value + b.value] = [(a, b)]
        return groups
    if pairs_only:
        for i, a in enumerate(nums):
            for b in nums[i + 1:]:
                total = a.value + b.value
                if total <= top:
                    groups.setdefault(total, []).append((a, b))
        return groups
    subsets: list[tuple[int, tuple[Card, ...]]] = []  # every non-empty subset so far with total <= top
    for t in nums:
        v = t.value
        grown = [(total + v, (*chosen, t)) for total, chosen in subsets if total + v <= top]
        for total, chosen in grown:  # a grown subset has 2+ cards: a sum
            if total in groups:
                groups[total].append(chosen)
            else:
                groups[total] = [chosen]
        subsets += grown
        subsets.append((v, (t,)))
    return groups
