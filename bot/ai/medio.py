"""medio (medium): greedy that weighs the opponent's best reply (the pilot's "safe-greedy")."""

from __future__ import annotations

import random
from math import comb

from bot.engine import GameView, Play

from .sim import NRANKS, Move, State, move_of_play, sim_rules

CARD_WEIGHT = 0.5
"""Value of one card taken to the cartón, in points (20 cards score 6, each 2 more score 2: R28)."""

WIN = 100.0
"""Value of a play that wins the chica at once (R33)."""


def unique_moves(view: GameView) -> list[tuple[Move, Play]]:
    """The seat's legal plays grouped by their rank-level effect (suits never matter, R1): one
    ``(move, play)`` per distinct simulator move, in a fixed order that depends only on the view.

    A non-caída match that has a caída twin (same rank, same ranks taken) is dropped: it scores less and
    leaves the same table (R22).

    Raises:
        ValueError: it is not this seat's turn (no legal plays in the view).
    """
    plays = sorted(view.legal_plays, key=lambda p: (p.card, sorted(p.captures)))
    if not plays:
        raise ValueError("not this seat's turn")
    seen: dict[Move, Play] = {}
    for p in plays:
        m = move_of_play(view, p)
        if m not in seen:
            seen[m] = p
    return [(m, p) for m, p in seen.items() if m[2] or (m[0], m[1], True) not in seen]


def root_state(view: GameView) -> State:
    """A `State` of the view's position with only the viewer's hand known: the other hands are
    placeholders (never read for their contents) and the stock is empty."""
    n = view.players
    me = view.seat
    assert me is not None, "a computer plays from a seat"
    hands = [[1] * NRANKS for _ in range(n)]
    h = [0] * NRANKS
    for c in view.hand:
        h[c.rank] += 1
    hands[me] = h
    table = [0] * NRANKS
    for c in view.table:
        table[c.rank] += 1
    lt = view.last_trail
    last = lt.rank if (lt is not None and view.last_trail_seat == (me - 1) % n) else -1
    rondas = [-1] * n
    for seat, rank in view.rondas:
        if rank is not None:
            rondas[seat] = rank
    return State(sim_rules(view.rules), n, hands, table, [], last_trail=last, rondas=rondas,
                 piles=view.pile_sizes, scores=view.scores, streaks=view.streaks, dealer=view.dealer, to_play=me)


def move_value(state: State, move: Move, card_weight: float = CARD_WEIGHT) -> float:
    """Immediate value of a move for the seat in turn: points it adds now (caída, limpia, 38 rule) plus
    `CARD_WEIGHT` per card taken; `WIN` when it wins the chica at once."""
    pts = state.move_points(move)
    if pts >= 99:
        return WIN
    if not move[1]:
        return 0.0
    gain = pts
    team = state.to_play & 1
    if gain and state.scores[team] + gain >= state.r.target:
        return WIN
    return gain + card_weight * (1 + len(move[1]))


def expected_best(values: list[tuple[float, float]]) -> float:
    """E[max] of the values whose rank the replier holds, from ``(value, P(holds that rank))`` pairs,
    treating holdings as independent (a good approximation for 5 cards out of 20–35)."""
    total = 0.0
    miss = 1.0
    for v, p in sorted(values, reverse=True):
        if v <= 0:
            break
        total += miss * p * v
        miss *= 1.0 - p
    return total


class SafeGreedyPlayer:
    """Greedy that weighs the opponent's best reply (level ``medio``).

    For each distinct legal play it adds the immediate value (`move_value`: caída, limpia, caída en
    ronda, the 38 rule, cards taken) and subtracts the expected value of the next seat's best reply (that
    seat is always an opponent, R4). The reply's chance comes from the unseen cards: the next seat holds a
    rank with the hypergeometric probability for its hand size. So it avoids trailing a card that leaves
    a caída open, and leaving a table that an unseen card cleans (limpia). It then adds ``keep_weight``
    times the best capture its remaining hand could make on the table it leaves (the chance it keeps for
    its next turn). Ties are broken by ``rng``. Only ``view`` is read. About 0.1 ms a move.

    Args:
        reply_weight: weight of the opponent's expected best reply.
        card_weight: points per card taken (`CARD_WEIGHT`).
        keep_weight: weight of the capture kept for the next turn.
    """

    name = "medio"

    def __init__(self, reply_weight: float = 1.0, card_weight: float = CARD_WEIGHT,
                 keep_weight: float = 0.4) -> None:
        self.reply_weight = reply_weight
        self.keep_weight = keep_weight
        self.card_weight = card_weight

    def scores(self, view: GameView) -> list[tuple[float, Play]]:
        """``(value, play)`` for each distinct legal play (see the class docstring)."""
        moves = unique_moves(view)
        base = root_state(view)
        n = view.players
        me = view.seat
        assert me is not None, "a computer plays from a seat"
        nxt = (me + 1) % n
        unseen: list[int] = [0] * NRANKS
        for c in view.unseen_cards():
            unseen[c.rank] += 1
        total_unseen = sum(unseen)
        out: list[tuple[float, Play]] = []
        for move, play in moves:
            cw = self.card_weight
            v = move_value(base, move, cw)
            if v >= WIN:
                out.append((WIN, play))
                continue
            s = base.copy()
            s.apply(move)
            if s.over:
                out.append((WIN if s.winner == view.team else -WIN, play))
                continue
            h = view.hand_sizes[nxt]
            if h == 0:  # my play ends the deal: the next seat leads a new deal, no caída possible
                if view.to_deal < n:  # the hand ends (with comodines 2 cards stay in the stock, §9)
                    out.append((v, play))
                    continue
                h = min(5, view.to_deal // n)
                s.last_trail = -1
            keep = 0.0
            if self.keep_weight:
                mine = s.hands[me]
                s.to_play = me
                lt = s.last_trail
                s.last_trail = -1
                keep = max((move_value(s, m, cw) for x in range(NRANKS) if mine[x] for m in s.moves_for(x)),
                           default=0.0)
                s.last_trail = lt
                v += self.keep_weight * keep
            s.to_play = nxt
            denom = comb(total_unseen, h) if total_unseen >= h else 1
            replies = []
            for x in range(NRANKS):
                if not unseen[x]:
                    continue
                p = 1.0 - comb(total_unseen - unseen[x], h) / denom
                best = max(move_value(s, m, cw) for m in s.moves_for(x))
                replies.append((best, p))
            out.append((v - self.reply_weight * expected_best(replies), play))
        return out

    def choose(self, view: GameView, rng: random.Random) -> Play:
        """Return a legal play for ``view.seat``.

        Raises:
            ValueError: it is not this seat's turn (no legal plays in the view).
        """
        scored = self.scores(view)
        top = max(v for v, _ in scored)
        return rng.choice([p for v, p in scored if v >= top - 1e-9])
