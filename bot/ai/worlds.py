"""What one seat can infer of the hidden cards from its `GameView`, and the worlds (determinizations) the
search samples from it: `WorldSampler`, with the inferences it honours (`deal_info`, `skipped_caidas`) and
the opponent model of `lowest_trail_rate`. The worlds are `bot.ai.sim.State` values.

With comodines (RULES.md Part 1 §9) the unseen cards include the jokers (rank 10, `NRANKS` slots) and the
2 cards of each hand that stay in the stock: a sampled stock has ``view.stock_size`` cards, the last 2 of
which the simulator never deals (`SimRules.reserve`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from bot.engine import JOKER_RANK, Card, GameView

from .sim import NRANKS, State, sim_rules

__all__ = ["WorldSampler", "deal_info", "lowest_trail_rate", "skipped_caidas"]


def _counts(cards: Sequence[Card]) -> list[int]:
    h = [0] * NRANKS
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
        # nobody can fall on a trailed joker (§9), so letting one lie shows nothing
        if ptrailed and ps == (seat - 1) % n and not caida and rank != prank and prank != JOKER_RANK:
            out[seat].add(prank)
    return out


def _dealt_ok(dealt: list[int], announced: str | None) -> bool:
    top = max(dealt[:10])  # jokers count toward no ronda (§9)
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
        assert view.seat is not None, "a computer plays from a seat"
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
        unseen = [0] * NRANKS
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
        hands: list[list[int]] = [[0] * NRANKS for _ in range(n)]
        stock: list[int] = []
        for _ in range(self.tries):
            pool = self.unseen[:]
            for s in self.others:
                hands[s] = [0] * NRANKS
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
                rondas[s] = self.known_rondas[s]
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
