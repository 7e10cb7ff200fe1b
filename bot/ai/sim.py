"""A lean rank-level simulator of one Cuarenta hand, for the computer players' look-ahead.

Suits never matter in Cuarenta (R1), and no score depends on *which* card of a rank is taken (Part 1 §2),
so a position is kept as counts of ranks (index 0–9, A…K, as `Card.rank`): one 10-int list per hand and
one for the table. That is several times faster to copy and to play than `bot.engine.Game`, which is
general and keeps events. tests/ai/test_sim.py plays the two side by side on random positions so this
module cannot drift from the engine.

It implements, for every `Rules` field that matters within a hand: captures (R17, match or sum, ``sum_mode``,
``match_takes_all``), the escalera (R18, ``sequence_mode``), ``forced_capture`` (R21), caída (R22,
``caida_by_sum``), limpia and caída + limpia (R23, R24), caída en ronda (R25), four caídas (R26), rondas and
doble rondas at each deal (R12–R15, ``ronda_cutoff``), the 38 rule (R30), and the end of the hand:
leftovers (R27), cartón, dos por darlas and more cards (R28, ``carton_cutoff``) and falla (R29). A chica
won (R33) stops the simulation. It never goes past the end of the current hand.

A move is a tuple ``(rank, taken, caida)``: the rank played, the ranks taken from the table (base capture
then escalera; empty for a trail) and whether it is a caída.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from bot.engine import CHICA, Card, GameView, Play, Rules, carton_points

Move = tuple[int, tuple[int, ...], bool]

# Multisets of numeric ranks (rank index = value - 1) of 2+ cards adding up to each value 2..7 (R17).


def _partitions(total: int, smallest: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for v in range(smallest, total + 1):
        if v == total:
            out.append((v,))
        else:
            for rest in _partitions(total - v, v):
                out.append((v, *rest))
    return out


def _sum_table(pairs_only: bool) -> list[list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]]:
    """For each played rank 0–9, the sum bases: (ranks taken, ((rank, count needed), …))."""
    table: list[list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]] = [[] for _ in range(10)]
    for value in range(2, 8):
        for parts in _partitions(value, 1):
            if len(parts) < 2 or (pairs_only and len(parts) != 2):
                continue
            ranks = tuple(p - 1 for p in parts)
            need = tuple((r, ranks.count(r)) for r in sorted(set(ranks)))
            table[value - 1].append((ranks, need))
    return table


_SUMS_ANY = _sum_table(False)
_SUMS_PAIR = _sum_table(True)


class SimRules:
    """The `Rules` fields the simulator reads, flattened for speed (``chica`` awards become ``None``)."""

    __slots__ = ("pairs", "takes_all", "optional_seq", "forced", "caida_by_sum", "caida", "limpia",
                 "caida_limpia", "ronda", "doble_ronda", "cer", "cer_limpia", "four_chica", "across",
                 "ronda_cutoff", "last_capturer", "carton_min", "carton_tie", "carton_cutoff", "falla",
                 "target", "s38", "sums")

    def __init__(self, rules: Rules) -> None:
        def award(v: object) -> int | None:
            return None if v == CHICA else int(v)  # type: ignore[call-overload]

        self.pairs = rules.sum_mode == "pair"
        self.sums = _SUMS_PAIR if self.pairs else _SUMS_ANY
        self.takes_all = rules.match_takes_all
        self.optional_seq = rules.sequence_mode == "optional"
        self.forced = rules.forced_capture
        self.caida_by_sum = rules.caida_by_sum
        self.caida = rules.caida
        self.limpia = rules.limpia
        self.caida_limpia = rules.caida_limpia
        self.ronda = rules.ronda
        self.doble_ronda = award(rules.doble_ronda)
        self.cer = award(rules.caida_en_ronda)
        self.cer_limpia = award(rules.caida_en_ronda_limpia)
        self.four_chica = rules.four_caidas == CHICA
        self.across = rules.four_caidas_across_deals
        self.ronda_cutoff = rules.ronda_cutoff
        self.last_capturer = rules.leftovers == "last_capturer"
        self.carton_min = rules.carton_min_cards
        self.carton_tie = rules.carton_tie
        self.carton_cutoff = rules.carton_cutoff
        self.falla = rules.falla
        self.target = rules.target
        self.s38 = rules.score38 if rules.score38 is not None else -1


_SIMRULES: dict[Rules, SimRules] = {}


def sim_rules(rules: Rules) -> SimRules:
    """The cached `SimRules` for a `Rules` value."""
    sr = _SIMRULES.get(rules)
    if sr is None:
        sr = _SIMRULES[rules] = SimRules(rules)
    return sr


class State:
    """One hand in progress, by rank counts. Build it with `State.from_view` (a sampled world) or
    directly (tests). Attributes are public for the players and the tests.

    Attributes:
        r: `SimRules`. n: players (2 or 4).
        hands: per seat, a 10-int list of rank counts. table: 10-int list. ntable: cards on the table.
        stock: ranks still to deal, dealt from the front (index ``sp`` onward).
        last_trail: rank trailed by the seat before ``to_play`` in this deal (caída target), or -1.
        rondas: per seat, the rank of its ronda in this deal, or -1 (R25).
        piles: cards captured per team this hand. scores: points per team in the chica.
        gained: points added per team since this state was built. plies: moves applied since then.
        streaks: consecutive caídas per team. last_cap: team that captured last, or -1.
        gone: per rank, cards out of play (captured or dead), for trail_mode 2.
        trail_mode: per team, the trail policy of `greedy_move` (0, 1 or 2).
        dealer, to_play: seats. winner: team that won the chica, or -1. over: the hand (or chica) ended.
    """

    __slots__ = ("r", "n", "hands", "table", "ntable", "stock", "sp", "last_trail", "rondas", "piles",
                 "scores", "gained", "streaks", "last_cap", "dealer", "to_play", "winner", "over", "trail_mode", "plies", "gone")

    def __init__(self, rules: SimRules, n: int, hands: list[list[int]], table: list[int], stock: list[int],
                 *, last_trail: int = -1, rondas: list[int] | None = None, piles: Sequence[int] = (0, 0),
                 scores: Sequence[int] = (0, 0), streaks: Sequence[int] = (0, 0), last_cap: int = -1,
                 dealer: int = 0, to_play: int = 1) -> None:
        self.r = rules
        self.n = n
        self.hands = hands
        self.table = table
        self.ntable = sum(table)
        self.stock = stock
        self.sp = 0
        self.last_trail = last_trail
        self.rondas = rondas if rondas is not None else [-1] * n
        self.piles = list(piles)
        self.scores = list(scores)
        self.gained = [0, 0]
        self.streaks = list(streaks)
        self.last_cap = last_cap
        self.dealer = dealer
        self.to_play = to_play
        self.winner = -1
        self.over = False
        self.trail_mode = [0, 0]
        self.plies = 0
        self.gone = [0] * 10

    def copy(self) -> State:
        """An independent copy (the stock list is shared: it is never changed, only read from ``sp``)."""
        s = State.__new__(State)
        s.r = self.r
        s.n = self.n
        s.hands = [h[:] for h in self.hands]
        s.table = self.table[:]
        s.ntable = self.ntable
        s.stock = self.stock
        s.sp = self.sp
        s.last_trail = self.last_trail
        s.rondas = self.rondas[:]
        s.piles = self.piles[:]
        s.scores = self.scores[:]
        s.gained = self.gained[:]
        s.streaks = self.streaks[:]
        s.last_cap = self.last_cap
        s.dealer = self.dealer
        s.to_play = self.to_play
        s.winner = self.winner
        s.over = self.over
        s.trail_mode = self.trail_mode
        s.plies = self.plies
        s.gone = self.gone[:]
        return s

    # ------------------------------------------------------------------ moves

    def moves_for(self, rank: int) -> list[Move]:
        """The distinct legal moves of one card rank held by the seat in turn (R17, R18, R21)."""
        r = self.r
        table = self.table
        lt = self.last_trail
        out: list[Move] = []
        esc: list[int] = []
        nr = rank + 1
        while nr <= 9 and table[nr]:
            esc.append(nr)
            nr += 1
        bases: list[tuple[tuple[int, ...], bool]] = []
        if table[rank]:
            bases.append(((rank,) * table[rank] if r.takes_all else (rank,), lt == rank))
        if rank <= 6 and self.ntable >= 2:
            for ranks, need in r.sums[rank]:
                for x, k in need:
                    if table[x] < k:
                        break
                else:
                    bases.append((ranks, r.caida_by_sum and lt >= 0 and lt in ranks))
        for base, caida in bases:
            if r.optional_seq:
                for k in range(len(esc) + 1):
                    out.append((rank, base + tuple(esc[:k]), caida))
            else:
                out.append((rank, base + tuple(esc), caida))
        if not (out and r.forced):
            out.append((rank, (), False))
        return out

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the seat in turn, by rank A…K, trail last per rank."""
        hand = self.hands[self.to_play]
        out: list[Move] = []
        for rank in range(10):
            if hand[rank]:
                out.extend(self.moves_for(rank))
        return out

    def move_points(self, move: Move) -> int:
        """Points the move would add now for the seat in turn's side (caída, limpia; 38 rule), or 99 when
        it wins the chica at once."""
        rank, taken, caida = move
        if not taken:
            return 0
        team = self.to_play & 1
        limpia = len(taken) == self.ntable
        r = self.r
        if caida:
            if self.rondas[(self.to_play - 1) % self.n] == self.last_trail:
                award = r.cer_limpia if limpia else r.cer
            else:
                award = r.caida_limpia if limpia else r.caida
            if award is None:
                return 99
        elif limpia:
            if self.scores[team] == r.s38:
                return 0
            award = r.limpia
        else:
            return 0
        return award

    def apply(self, move: Move) -> None:
        """Play ``move`` for the seat in turn; deal, end the hand or stop at a chica win as the rules say."""
        rank, taken, caida = move
        seat = self.to_play
        team = seat & 1
        r = self.r
        self.plies += 1
        self.hands[seat][rank] -= 1
        if not taken:
            self.table[rank] += 1
            self.ntable += 1
            self.last_trail = rank
            self.streaks[team] = 0
            self._next_turn(seat)
            return
        table = self.table
        gone = self.gone
        gone[rank] += 1
        for x in taken:
            table[x] -= 1
            gone[x] += 1
        self.ntable -= len(taken)
        self.piles[team] += 1 + len(taken)
        self.last_cap = team
        limpia = self.ntable == 0
        if not caida:
            self.last_trail = -1
            self.streaks[team] = 0
            if limpia:
                self._award(team, r.limpia, False)
                if self.scores[team] >= r.target:
                    self._win(team)
                    return
            self._next_turn(seat)
            return
        trailed = self.last_trail
        self.last_trail = -1
        self.streaks[team] += 1
        if self.rondas[(seat - 1) % self.n] == trailed:
            award = r.cer_limpia if limpia else r.cer
        else:
            award = r.caida_limpia if limpia else r.caida
        if award is None:
            self._win(team)
            return
        self._award(team, award, True)
        if self.streaks[team] == 4 and r.four_chica:
            self._win(team)
            return
        if self.scores[team] >= r.target:
            self._win(team)
            return
        self._next_turn(seat)

    def _award(self, team: int, points: int, caida: bool, cutoff: int | None = None) -> None:
        score = self.scores[team]
        if cutoff is not None and score >= cutoff:
            return
        if not caida and score == self.r.s38:
            return
        self.scores[team] = score + points
        self.gained[team] += points

    def _win(self, team: int) -> None:
        self.winner = team
        self.over = True

    def _next_turn(self, seat: int) -> None:
        nxt = (seat + 1) % self.n
        if any(self.hands[nxt]):
            self.to_play = nxt
        elif self.sp < len(self.stock):
            self.deal()
        else:
            self.end_hand()

    def deal(self) -> None:
        """Deal up to 5 cards to each seat from the mano, then the rondas in play order (R8, R12–R14)."""
        n = self.n
        size = min(5, (len(self.stock) - self.sp) // n)
        if size == 0:
            self.end_hand()
            return
        mano = (self.dealer + 1) % n
        r = self.r
        self.last_trail = -1
        self.rondas = [-1] * n
        if not r.across:
            self.streaks = [0, 0]
        self.to_play = mano
        stock = self.stock
        sp = self.sp
        for i in range(n):
            seat = (mano + i) % n
            h = [0] * 10
            for x in stock[sp:sp + size]:
                h[x] += 1
            sp += size
            self.hands[seat] = h
        self.sp = sp
        for i in range(n):
            seat = (mano + i) % n
            h = self.hands[seat]
            for rank in range(10):
                c = h[rank]
                if c < 3:
                    continue
                team = seat & 1
                if c == 3:
                    self.rondas[seat] = rank
                    self._award(team, r.ronda, False, r.ronda_cutoff)
                elif r.doble_ronda is None:
                    self._win(team)
                    return
                else:
                    self._award(team, r.doble_ronda, False, r.ronda_cutoff)
                if self.scores[team] >= r.target:
                    self._win(team)
                    return

    def end_hand(self) -> None:
        """Leftovers (R27), the count (R28) and falla (R29), checking for the target after each award."""
        r = self.r
        self.over = True
        if self.ntable and r.last_capturer and self.last_cap >= 0:
            self.piles[self.last_cap] += self.ntable
        self.table = [0] * 10
        self.ntable = 0
        counts = self.piles
        non_dealer = (self.dealer + 1) & 1
        cutoff = r.carton_cutoff
        winner = -1

        def award(team: int, points: int, use_cutoff: bool = True) -> None:
            nonlocal winner
            self._award(team, points, False, cutoff if use_cutoff else None)
            if winner < 0 and self.scores[team] >= r.target:
                winner = team

        if counts[0] == counts[1]:
            award(non_dealer, r.carton_tie)
        else:
            scorers = [t for t in (non_dealer, 1 - non_dealer) if counts[t] >= r.carton_min]
            for t in scorers:
                if winner < 0:
                    award(t, carton_points(counts[t]))
            if not scorers:
                award(0 if counts[0] > counts[1] else 1, 2)
        if r.falla and winner < 0:
            for t in (non_dealer, 1 - non_dealer):
                if counts[t] == 0 and winner < 0:
                    award(1 - t, r.falla, False)
        self.winner = winner

    # ------------------------------------------------------------------ fast greedy policy

    def greedy_move(self, rng: random.Random | None = None, eps: float = 0.0) -> Move:
        """The rollout policy: the capture with the most immediate value (cards taken + 3 × points now),
        else a trail chosen by ``trail_mode`` of the seat's team: 0 its lowest card (as `GreedyPlayer`);
        1 its lowest card of a rank the next seat does not hold in this world; 2 the card of which it
        sees the most copies out of play (so the fewest can be in other hands), lowest first. With
        probability ``eps`` (and an ``rng``) a uniformly random legal move instead."""
        if rng is not None and eps and rng.random() < eps:
            return rng.choice(self.legal_moves())
        hand = self.hands[self.to_play]
        best: Move | None = None
        best_v = 0.0
        trail: int = -1
        for rank in range(10):
            if not hand[rank]:
                continue
            for mv in self.moves_for(rank):
                taken = mv[1]
                if not taken:
                    if trail < 0:
                        trail = rank
                    continue
                v = 1.0 + len(taken) + 3.0 * self.move_points(mv)
                if v > best_v:
                    best_v = v
                    best = mv
        if best is not None:
            return best
        if trail < 0:  # forced capture with no trail possible cannot happen when nothing captures
            return self.legal_moves()[0]
        mode = self.trail_mode[self.to_play & 1]
        if mode == 2:  # fair: the rank with fewest copies this seat cannot see (no peeking)
            gone = self.gone
            table = self.table
            best_r, best_u = trail, 9
            for rank in range(trail, 10):
                if hand[rank]:
                    u = 4 - gone[rank] - table[rank] - hand[rank]
                    if u < best_u:
                        best_r, best_u = rank, u
            return (best_r, (), False)
        if mode == 1:  # safe: a rank the next seat does not hold (it sees the world)
            nh = self.hands[(self.to_play + 1) % self.n]
            for rank in range(trail, 10):
                if hand[rank] and not nh[rank]:
                    return (rank, (), False)
        return (trail, (), False)

    def rollout(self, rng: random.Random | None = None, eps: float = 0.0, until_deal_end: bool = False,
                min_plies: int = 0) -> None:
        """Play on with `greedy_move` for every seat: to the end of the hand or a chica win, or, with
        ``until_deal_end``, to the end of the first deal that ends after at least ``min_plies`` more
        plies."""
        if until_deal_end:
            stop = self.plies + min_plies
            sp = self.sp
            while not self.over:
                self.apply(self.greedy_move(rng, eps))
                if self.sp != sp:
                    if self.plies >= stop:
                        return
                    sp = self.sp
            return
        while not self.over:
            self.apply(self.greedy_move(rng, eps))


def move_of_play(view: GameView, play: Play) -> Move:
    """The simulator move for an engine `Play` in ``view`` (the seat in turn's view): the rank played, the
    ranks taken (sorted) and whether the engine will score it as a caída (R22)."""
    card = play.card
    taken = tuple(sorted(c.rank for c in play.captures))
    lt = view.last_trail
    caida = False
    if taken and lt is not None and lt in play.captures and view.to_play is not None \
            and view.last_trail_seat == (view.to_play - 1) % view.players:
        caida = lt.rank == card.rank or (view.rules.caida_by_sum and lt.rank < card.rank)
    return (card.rank, taken, caida)


def _counts(cards: Sequence[Card]) -> list[int]:
    h = [0] * 10
    for c in cards:
        h[c.rank] += 1
    return h


def deal_info(view: GameView) -> tuple[list[list[int]], dict[int, str], int]:
    """From the event log: the ranks each seat played in the current deal, the announcements of this deal
    (seat → ``"ronda"`` / ``"doble"``), and the team that captured last this hand (-1 for none)."""
    n = view.players
    played: list[list[int]] = [[] for _ in range(n)]
    announced: dict[int, str] = {}
    last_cap = -1
    events = view.events
    i = len(events) - 1
    in_deal = True
    while i >= 0:
        e = events[i]
        k = e.kind
        if k == "deal":
            in_deal = False
        elif k == "hand_start" or k == "chica_start":
            break
        elif in_deal and k == "played" and e.seat is not None and e.card is not None:
            played[e.seat].append(e.card.rank)
        elif in_deal and k == "ronda" and e.seat is not None:
            announced[e.seat] = "ronda"
        elif in_deal and k == "doble_ronda" and e.seat is not None:
            announced[e.seat] = "doble"
        if k == "captured" and last_cap < 0 and e.team is not None:
            last_cap = e.team
        i -= 1
    return played, announced, last_cap


def skipped_caidas(view: GameView) -> list[set[int]]:
    """Per seat, the ranks it cannot hold now: in the current deal the seat before it trailed a card of
    that rank and it did not fall on it (a caída is never skipped, R22), nor play that rank. Hands only
    shrink within a deal, so the inference holds until the next deal."""
    n = view.players
    out: list[set[int]] = [set() for _ in range(n)]
    events = view.events
    start = 0
    for i in range(len(events) - 1, -1, -1):
        k = events[i].kind
        if k == "deal" or k == "hand_start":
            start = i
            break
    plays: list[tuple[int, int, bool, bool]] = []  # seat, rank, trailed, caída
    for i in range(start, len(events)):
        e = events[i]
        if e.kind == "played" and e.seat is not None and e.card is not None:
            trailed = not (i + 1 < len(events) and events[i + 1].kind == "captured")
            plays.append((e.seat, e.card.rank, trailed, False))
        elif e.kind == "caida" and plays:
            seat, rank, trailed, _c = plays[-1]
            plays[-1] = (seat, rank, trailed, True)
    for (ps, prank, ptrailed, _pc), (seat, rank, _t, caida) in zip(plays, plays[1:], strict=False):
        if ptrailed and ps == (seat - 1) % n and not caida and rank != prank:
            out[seat].add(prank)
    return out


def _dealt_ok(dealt: list[int], announced: str | None) -> bool:
    top = max(dealt)
    if announced == "ronda":
        return top == 3
    if announced == "doble":
        return top == 4
    return top < 3


class WorldSampler:
    """Samples full hidden states (determinizations) consistent with one seat's view.

    The unseen cards (`GameView.unseen_cards`) are shuffled into the other hands (sizes
    ``view.hand_sizes``) and the stock (``view.stock_size``), honouring what the seat has seen:

    - a seat that announced a ronda this deal was dealt exactly three of a rank, a doble ronda four
      (R12, R13): that rank is drawn first, weighted by the ways to complete it, then the seat's other
      cards avoid it; any seat that announced nothing holds no three of a kind (checked by rejection,
      up to ``tries`` draws, then the last draw is kept);
    - with ``infer``, a seat never holds a rank it has shown it lacks this deal (`skipped_caidas`).

    Only view data is read, so the sample depends on nothing hidden.
    """

    def __init__(self, view: GameView, tries: int = 30, infer: bool = True) -> None:
        n = view.players
        self.view = view
        self.rules = sim_rules(view.rules)
        self.n = n
        self.me = view.seat
        self.unseen = [c.rank for c in view.unseen_cards()]
        self.sizes = list(view.hand_sizes)
        self.stock_size = view.stock_size
        self.tries = tries
        played, announced, last_cap = deal_info(view)
        self.played = played
        self.announced = announced
        self.last_cap = last_cap
        self.my_hand = _counts(view.hand)
        self.table = _counts(view.table)
        lt = view.last_trail
        self.last_trail = lt.rank if (lt is not None and view.to_play is not None
                                      and view.last_trail_seat == (view.to_play - 1) % n) else -1
        known = {s: r for s, r in view.rondas if r is not None}
        self.known_rondas = known
        self.others = [s for s in range(n) if s != self.me]
        # the seats whose dealt cards we must check (all announcements known to us are kept as given)
        self.check = [s for s in self.others if self.sizes[s] + len(played[s]) == 5]
        self.forced = self._forced()
        self.gone = _counts([*view.captured[0], *view.captured[1], *view.dead])
        self.excluded = skipped_caidas(view) if infer else [set() for _ in range(n)]
        for s in self.others:
            # give up an exclusion that the unseen cards cannot satisfy
            free = sum(1 for r in self.unseen if r not in self.excluded[s])
            if free < self.sizes[s]:
                self.excluded[s] = set()

    def _forced(self) -> list[tuple[int, int, list[int], list[float]]]:
        """For each other seat that announced a ronda (3) or doble ronda (4) this deal: ``(seat, need,
        candidate ranks, weights)``, weights ∝ the ways to complete that rank from the unseen cards."""
        unseen = [0] * 10
        for r in self.unseen:
            unseen[r] += 1
        total = len(self.unseen)
        out = []
        for s in self.check:
            kind = self.announced.get(s)
            if kind is None:
                continue
            need = 3 if kind == "ronda" else 4
            h = self.sizes[s]
            ranks, weights = [], []
            known = self.known_rondas.get(s)
            for r in range(10):
                if known is not None and r != known:
                    continue
                p = self.played[s].count(r)
                k = need - p
                if p > need or k > h or k > unseen[r]:
                    continue
                w = float(comb(unseen[r], k) * comb(total - unseen[r], h - k)) if k > 0 else \
                    float(comb(total - unseen[r], h))
                if w > 0:
                    ranks.append(r)
                    weights.append(w)
            if ranks:
                out.append((s, need, ranks, weights))
        return out

    def sample(self, rng: random.Random) -> State:
        """One world: a `State` with the seat in turn to play."""
        view = self.view
        n = self.n
        hands: list[list[int]] = [[0] * 10 for _ in range(n)]
        stock: list[int] = []
        for _ in range(self.tries):
            pool = self.unseen[:]
            for s in self.others:
                hands[s] = [0] * 10
            fixed: dict[int, int] = {}
            for s, need, ranks, weights in self.forced:
                ok_ranks = [(r, w) for r, w in zip(ranks, weights, strict=True)
                            if pool.count(r) >= need - self.played[s].count(r)]
                if not ok_ranks:
                    continue
                r = rng.choices([x for x, _ in ok_ranks], [w for _, w in ok_ranks])[0] \
                    if len(ok_ranks) > 1 else ok_ranks[0][0]
                k = need - self.played[s].count(r)
                for _i in range(k):
                    pool.remove(r)
                hands[s][r] += k
                fixed[s] = r
            rng.shuffle(pool)
            rest: list[int] = []
            excluded = self.excluded
            for s in sorted(self.others, key=lambda seat: seat not in fixed and not excluded[seat]):
                k = self.sizes[s] - sum(hands[s])
                h = hands[s]
                r = fixed.get(s, -1)
                ex = excluded[s]
                while k > 0:
                    x = pool.pop() if pool else rest.pop()
                    if (x == r or x in ex) and pool:
                        rest.append(x)
                        continue
                    h[x] += 1
                    k -= 1
                if rest:  # put the skipped cards back at random places, for the next seats and the stock
                    for x in rest:
                        pool.insert(rng.randrange(len(pool) + 1), x)
                    rest = []
            stock = pool
            ok = True
            for s in self.check:
                dealt = hands[s][:]
                for x in self.played[s]:
                    dealt[x] += 1
                if not _dealt_ok(dealt, self.announced.get(s)):
                    ok = False
                    break
            if ok:
                break
        hands[self.me] = self.my_hand[:]
        rondas = [-1] * n
        for s in range(n):
            if s in self.known_rondas:
                rondas[s] = self.known_rondas[s]  # type: ignore[assignment]
            elif self.announced.get(s) == "ronda":
                dealt = hands[s][:]
                for x in self.played[s]:
                    dealt[x] += 1
                for rank in range(10):
                    if dealt[rank] == 3:
                        rondas[s] = rank
                        break
        state = State(self.rules, n, hands, self.table[:], stock, last_trail=self.last_trail, rondas=rondas,
                      piles=view.pile_sizes, scores=view.scores, streaks=view.streaks, last_cap=self.last_cap,
                      dealer=view.dealer, to_play=view.to_play if view.to_play is not None else self.me)
        state.gone = self.gone[:]
        return state


def lowest_trail_rate(view: GameView) -> tuple[int, int]:
    """Opponent modelling from public cards: over the finished deals of this mesa, how often the viewer's
    opponents, when they trailed, trailed their lowest card (the plain greedy habit).

    Every card of a finished deal has been played face up, so the hand an opponent held at each of its
    turns is known afterwards (the cards it played from then on in that deal). Returns ``(lowest,
    trails)``: the trails that were of the lowest rank then held, and all trails counted.
    """
    n = view.players
    team = view.team
    lowest = trails = 0
    deal: list[tuple[int, int, bool]] = []  # seat, rank, trailed

    def close() -> None:
        nonlocal lowest, trails
        for seat in range(n):
            if seat % 2 == team:
                continue
            mine = [(r, t) for s, r, t in deal if s == seat]
            if len(mine) < 5:
                continue
            for i, (r, t) in enumerate(mine):
                if t:
                    trails += 1
                    lowest += r == min(x for x, _ in mine[i:])

    events = view.events
    for i, e in enumerate(events):
        k = e.kind
        if k == "deal" or k == "hand_start":
            close()
            deal = []
        elif k == "played" and e.seat is not None and e.card is not None:
            trailed = not (i + 1 < len(events) and events[i + 1].kind == "captured")
            deal.append((e.seat, e.card.rank, trailed))
    return lowest, trails
