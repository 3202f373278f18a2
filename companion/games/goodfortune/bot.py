"""Good Fortune's bots: random, greedy, and a searching bot.

The game has perfect information and nine rounds (RULES GFA-9, GF-11), so the searching
bot runs an alpha-beta minimax over the real rules (a compact copy of the state, the same
`placements`/`place_on` functions as the rules): the end of the game exactly, the opening
by iterative deepening, round by round, within a node budget and a time limit (one second
a move by default). Its value is its score minus the opponent's (GF-13).
"""

from __future__ import annotations

import time
from typing import Any

from companion.core import Bot, RandomBot, Rng

from .rules import (
    ROUNDS,
    GoodFortune,
    Place,
    Push,
    State,
    next_medallion,
    place_on,
    placements,
    placing_order,
)
from .scoring import total

# A search node: (round, holder, face, line0, line1, central, lefts, col0, col1, pushed0, pushed1, order)
Node = tuple[Any, ...]
PUSH, PLACE = 0, 1


class Sim:
    """The rules of one game on compact tuples, with caches, for bots that look ahead."""

    def __init__(self, game: GoodFortune) -> None:
        self.game = game
        self.tiles = game.deck.tiles
        self.domino_half = game.domino_half
        self.free_end = game.free_end
        self.medallion = game.config["medallion"]
        self.tie_order = game.config["tie_order"]
        self._score: dict[int, int] = {0: 0}
        self._ways: dict[tuple[Any, ...], list[tuple[str, str | None, bool]]] = {}

    def node(self, s: State) -> Node:
        cols = tuple(sum(1 << n for n in c) for c in s.collections)
        return (s.round, s.holder, s.face, s.lines[0], s.lines[1], s.central, s.lefts, cols[0], cols[1],
                s.pushed[0], s.pushed[1], s.order)

    def score(self, mask: int) -> int:
        got = self._score.get(mask)
        if got is None:
            got = total([self.tiles[n - 1] for n in range(1, 22) if mask >> n & 1], self.tie_order)
            self._score[mask] = got
        return got

    def ways(self, central: tuple[int, ...], lefts: tuple[str, ...] | None, n: int) -> list[tuple[str, str | None, bool]]:
        key = (central, lefts, n)
        got = self._ways.get(key)
        if got is None:
            got = [(o.end, o.outer, o.collects) for o in
                   placements(self.tiles, central, lefts, n, self.domino_half, self.free_end)]
            self._ways[key] = got
        return got

    @staticmethod
    def current(s: Node) -> int | None:
        if s[0] > ROUNDS:
            return None
        if s[11]:
            return s[11][0]
        holder = s[1]
        return holder if s[9 + holder] is None else 1 - holder

    def moves(self, s: Node) -> list[tuple[Any, ...]]:
        if s[11]:
            seat = s[11][0]
            return [(PLACE, e, o) for e, o, _c in self.ways(s[5], s[6], s[9 + seat])]
        seat = self.current(s)
        assert seat is not None
        return [(PUSH, n) for n in s[3 + seat]]

    def apply(self, s: Node, mv: tuple[Any, ...]) -> Node:
        rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order = s
        if mv[0] == PUSH:
            n = mv[1]
            seat = holder if (p0, p1)[holder] is None else 1 - holder
            if seat == 0:
                l0 = tuple(x for x in l0 if x != n)
                p0 = n
            else:
                l1 = tuple(x for x in l1 if x != n)
                p1 = n
            if p0 is None or p1 is None:
                return (rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order)
            order = placing_order((p0, p1), face)  # GF-7
            return self._advance((rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order))
        return self._advance(self._place(s, mv[1], mv[2]))

    def _place(self, s: Node, end: str, outer: str | None) -> Node:
        rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order = s
        seat = order[0]
        n = p0 if seat == 0 else p1
        collects = next(c for e, o, c in self.ways(central, lefts, n) if e == end and o == outer)
        central, lefts, gone = place_on(self.tiles, central, lefts, n, end, outer)
        if collects:
            if seat == 0:
                c0 |= 1 << gone
            else:
                c1 |= 1 << gone
        if seat == 0:
            p0 = None
        else:
            p1 = None
        return (rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order[1:])

    def _advance(self, s: Node) -> Node:
        while s[11]:
            seat = s[11][0]
            w = self.ways(s[5], s[6], s[9 + seat])
            if len(w) > 1:
                return s
            s = self._place(s, w[0][0], w[0][1])
        rnd, holder, face, l0, l1, central, lefts, c0, c1, p0, p1, order = s
        holder, face = next_medallion(holder, face, self.medallion)  # GF-10
        return (rnd + 1, holder, face, l0, l1, central, lefts, c0, c1, None, None, ())

    def value(self, s: Node, me: int) -> int:
        mine, theirs = (s[7], s[8]) if me == 0 else (s[8], s[7])
        return self.score(mine) - self.score(theirs)

    def to_action(self, mv: tuple[Any, ...]) -> Push | Place:
        return Push(mv[1]) if mv[0] == PUSH else Place(mv[1], mv[2])


class GreedyBot(Bot):
    """Takes what raises its own score most this round (the benchmark's baseline).

    First to push, it judges each tile against the line as it stands; second, it knows the
    other push and plays the round out; placing, it takes the end that scores most."""

    name = "greedy"

    def __init__(self, game: Any, seat: int, rng: Rng) -> None:
        super().__init__(game, seat, rng)
        self.sim = Sim(game)

    def choose(self, state: State) -> Any:
        if state.phase == "declare":
            return self.rng.choice(self.game.legal_actions(state, self.seat))
        sim, me = self.sim, self.seat
        s = sim.node(state)
        moves = sim.moves(s)
        if len(moves) == 1:
            return sim.to_action(moves[0])
        if moves[0][0] == PLACE:
            return sim.to_action(max(moves, key=lambda mv: self._mine(sim.apply(s, mv))))
        other_pushed = s[9 + (1 - me)]
        best, best_v = moves[0], -1
        for mv in moves:
            if other_pushed is not None:
                v = self._mine(self._greedy_round(sim.apply(s, mv)))
            else:  # judge the tile alone against the line as it is now
                v = max(self._mine_with(s, gone) if c else self._mine(s)
                        for e, o, c in sim.ways(s[5], s[6], mv[1])
                        for gone in [place_on(sim.tiles, s[5], s[6], mv[1], e, o)[2]])
            if v > best_v:
                best, best_v = mv, v
        return sim.to_action(best)

    def _greedy_round(self, s: Node) -> Node:
        """Finish the round with each owner placing for their own best score."""
        sim = self.sim
        while s[11]:
            seat = s[11][0]
            s = max((sim.apply(s, mv) for mv in sim.moves(s)),
                    key=lambda t: sim.score(t[7] if seat == 0 else t[8]))
        return s

    def _mine(self, s: Node) -> int:
        return self.sim.score(s[7] if self.seat == 0 else s[8])

    def _mine_with(self, s: Node, gone: int) -> int:
        return self.sim.score((s[7] if self.seat == 0 else s[8]) | 1 << gone)


class _OutOfBudget(Exception):
    """The search used its node budget: the deepest finished iteration decides."""


class SearchBot(Bot):
    """Alpha-beta over the rules: exact once the end is within reach, else iterative deepening.

    `max_nodes` (deterministic) and `max_seconds` (a safety cap) bound each decision."""

    name = "search"
    max_nodes = 30_000
    max_seconds = 1.0

    def __init__(self, game: Any, seat: int, rng: Rng, max_nodes: int | None = None,
                 max_seconds: float | None = None) -> None:
        super().__init__(game, seat, rng)
        self.sim = Sim(game)
        if max_nodes is not None:
            self.max_nodes = max_nodes
        if max_seconds is not None:
            self.max_seconds = max_seconds
        self.stats: dict[str, Any] = {}

    def choose(self, state: State) -> Any:
        if state.phase == "declare":
            return self.rng.choice(self.game.legal_actions(state, self.seat))
        sim = self.sim
        root = sim.node(state)
        moves = sim.moves(root)
        if len(moves) == 1:
            return sim.to_action(moves[0])
        self.nodes = 0
        self.deadline = time.perf_counter() + self.max_seconds
        left = ROUNDS - root[0] + 1
        best = moves[0]
        order = list(moves)
        depth_done, best_value = 0, None
        for depth in range(1, left + 1):
            try:
                value, mv = self._root(root, order, depth)
            except _OutOfBudget:
                break
            best, depth_done, best_value = mv, depth, value
            order.sort(key=lambda m: m != mv)
        self.stats = {"depth": depth_done, "rounds_left": left, "exact": depth_done == left, "nodes": self.nodes,
                      "value": best_value}
        return sim.to_action(best)

    def _root(self, root: Node, moves: list[tuple[Any, ...]], depth: int) -> tuple[int, tuple[Any, ...]]:
        alpha, beta = -10**9, 10**9
        best_v, best = -10**9, moves[0]
        stop = root[0] + depth  # search until this round begins
        for mv in moves:
            v = self._ab(self.sim.apply(root, mv), stop, alpha, beta)
            if v > best_v:
                best_v, best = v, mv
            alpha = max(alpha, v)
        return best_v, best

    def _ab(self, s: Node, stop: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes >= self.max_nodes or (self.nodes & 63 == 0 and time.perf_counter() > self.deadline):
            raise _OutOfBudget
        sim = self.sim
        if s[0] >= stop or s[0] > ROUNDS:
            return sim.value(s, self.seat)
        seat = sim.current(s)
        moves = sim.moves(s)
        if seat == self.seat:
            v = -10**9
            for mv in moves:
                v = max(v, self._ab(sim.apply(s, mv), stop, alpha, beta))
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
            return v
        v = 10**9
        for mv in moves:
            v = min(v, self._ab(sim.apply(s, mv), stop, alpha, beta))
            beta = min(beta, v)
            if alpha >= beta:
                break
        return v


BOTS: dict[str, type[Bot]] = {"search": SearchBot, "greedy": GreedyBot, "random": RandomBot}

__all__ = ["BOTS", "GreedyBot", "RandomBot", "SearchBot", "Sim"]
