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

The seed-002 variants (Part 1 §9) are simulated as the engine plays them (`bot.engine.plays`):
- comodines: the jokers are rank `JOKER_RANK` (10), so every count list has 11 slots (index 10 = jokers);
  a joker stands for any rank on the table (match + escalera from it), takes a joker on the table alone,
  is never a caída, never sums and counts toward no ronda; real cards never take a joker; the last 2
  stock cards are never dealt (`SimRules.reserve`).
- periquito: a move that takes a rank of which all four lie on the table takes all four, and scores
  ``periquito_points`` on top unless the side was on 38 before the move (R30).

A move is a tuple ``(rank, taken, caida)``: the rank played (10 for a joker), the ranks taken from the
table (base capture then escalera, sorted; 10 for a joker taken; empty for a trail) and whether it is a
caída.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import CHICA, JOKER_RANK, GameView, Play, Rules, carton_points, stock_reserve

Move = tuple[int, tuple[int, ...], bool]

NRANKS = 11
"""Slots of every rank-count list: ranks 0–9 (A…K) and `JOKER_RANK` (10) for the jokers (§9)."""

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
                 "target", "s38", "sums", "periquito", "peri_points", "reserve", "nranks")

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
        self.periquito = rules.periquito
        self.peri_points = rules.periquito_points
        self.reserve = stock_reserve(rules)
        self.nranks = NRANKS if rules.comodines else 10  # hand ranks to look at


_SIMRULES: dict[Rules, SimRules] = {}


def sim_rules(rules: Rules) -> SimRules:
    """The cached `SimRules` for a `Rules` value."""
    sr = _SIMRULES.get(rules)
    if sr is None:
        sr = _SIMRULES[rules] = SimRules(rules)
    return sr


class State:
    """One hand in progress, by rank counts. Build it with `bot.ai.worlds.WorldSampler.sample` (a sampled
    world) or directly (tests). Attributes are public for the players and the tests.

    Attributes:
        r: `SimRules`. n: players (2 or 4).
        hands: per seat, an 11-int list of rank counts (index 10: jokers). table: 11-int list. ntable:
            cards on the table.
        stock: ranks still to deal, dealt from the front (index ``sp`` onward); with comodines its last
            ``r.reserve`` (2) are never dealt (§9).
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
        self.gone = [0] * NRANKS

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
        """The distinct legal moves of one card rank held by the seat in turn (R17, R18, R21, §9)."""
        r = self.r
        table = self.table
        if rank == JOKER_RANK:
            return self._joker_moves()
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
        if r.periquito and out:
            out = self._periquito(out)
        if not (out and r.forced):
            out.append((rank, (), False))
        return out

    def _joker_moves(self) -> list[Move]:
        """A joker's moves (§9): stand for each rank on the table (match + escalera from it), take a joker
        on the table, or trail. Never a caída."""
        r = self.r
        table = self.table
        out: list[Move] = []
        for x in range(10):
            if not table[x]:
                continue
            esc: list[int] = []
            nr = x + 1
            while nr <= 9 and table[nr]:
                esc.append(nr)
                nr += 1
            base = (x,) * table[x] if r.takes_all else (x,)
            if r.optional_seq:
                for k in range(len(esc) + 1):
                    out.append((JOKER_RANK, base + tuple(esc[:k]), False))
            else:
                out.append((JOKER_RANK, base + tuple(esc), False))
        if r.periquito and out:
            out = self._periquito(out)
        if table[JOKER_RANK]:
            out.append((JOKER_RANK, (JOKER_RANK,), False))
        if not (out and r.forced):
            out.append((JOKER_RANK, (), False))
        return out

    def _periquito(self, moves: list[Move]) -> list[Move]:
        """The moves with each rank of which all four lie on the table taken whole when touched (§9)."""
        table = self.table
        full = [x for x in range(10) if table[x] == 4]
        if not full:
            return moves
        out: list[Move] = []
        for rank, taken, caida in moves:
            for x in full:
                k = taken.count(x)
                if 0 < k < 4:
                    taken = tuple(sorted(taken + (x,) * (4 - k)))
            mv = (rank, taken, caida)
            if mv not in out:
                out.append(mv)
        return out

    def legal_moves(self) -> list[Move]:
        """Every distinct legal move of the seat in turn, by rank A…K, trail last per rank."""
        hand = self.hands[self.to_play]
        out: list[Move] = []
        for rank in range(self.r.nranks):
            if hand[rank]:
                out.extend(self.moves_for(rank))
        return out

    def move_points(self, move: Move) -> int:
        """Points the move would add now for the seat in turn's side (caída, limpia, periquito; 38 rule),
        or 99 when it wins the chica at once."""
        rank, taken, caida = move
        if not taken:
            return 0
        r = self.r
        if r.periquito:
            peri = _full_ranks(taken)
            if peri:
                base = self._move_points(move)
                if base == 99 or self.scores[self.to_play & 1] == r.s38:
                    return base
                return base + peri * r.peri_points
        return self._move_points(move)

    def _move_points(self, move: Move) -> int:
        rank, taken, caida = move
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
        peri = _full_ranks(taken) if r.periquito else 0
        before = self.scores[team]
        if not caida:
            self.last_trail = -1
            self.streaks[team] = 0
            if limpia:
                self._award(team, r.limpia, False)
            if peri and before != r.s38:
                self.scores[team] += peri * r.peri_points
                self.gained[team] += peri * r.peri_points
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
        if peri and before != r.s38:
            self.scores[team] += peri * r.peri_points
            self.gained[team] += peri * r.peri_points
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
        size = min(5, (len(self.stock) - self.sp - self.r.reserve) // n)
        if size <= 0:
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
            h = [0] * NRANKS
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
        self.table = [0] * NRANKS
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
        for rank in range(self.r.nranks):
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
            and view.last_trail_seat == (view.to_play - 1) % view.players and not card.is_joker:
        caida = lt.rank == card.rank or (view.rules.caida_by_sum and lt.rank < card.rank)
    return (card.rank, taken, caida)


def _full_ranks(taken: tuple[int, ...]) -> int:
    """How many ranks a sorted ``taken`` holds four times: the periquitos a move takes (§9)."""
    n = 0
    run = 0
    prev = -1
    for x in taken:
        run = run + 1 if x == prev else 1
        prev = x
        if run == 4 and x != JOKER_RANK:
            n += 1
    return n
