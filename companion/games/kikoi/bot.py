"""Bots for Les 5 KIKOI: one that remembers every public request, gift and draw, and the random one.

The memory bot reads only its own view and the events it is shown (`observe`), like a masked
player with a perfect memory: who asked for what (so they lack it and hold its KIKOI), who
refused what, where every given or stolen token went, which days were completed, how the
boards turned. It asks the player who must hold a token when it knows, and otherwise the
player most likely to.
"""

from __future__ import annotations

from typing import Any

from companion.core import Bot, Event, Game, RandomBot, Rng

from . import events as E
from .rules import ALL, Ask, Pirate
from .tokens import N_WHITE, kikoi_of, row_counts, token_from_id


class MemoryBot(Bot):
    name = "memory"

    def __init__(self, game: Game[Any, Any], seat: int, rng: Rng) -> None:
        super().__init__(game, seat, rng)
        self.n = 0
        self.has: dict[int, int] = {}  # token -> seat known to hold it
        self.lacks: dict[int, set[int]] = {t: set() for t in range(N_WHITE)}
        self.kikoi_at: list[set[int]] = []  # seat -> KIKOI it showed it holds (a request)
        self.done: set[int] = set()  # KIKOI whose day is complete (their tokens never given)
        self.last_ask: tuple[int, int] | None = None  # (asker, token) of the last request

    # --- memory ------------------------------------------------------------------------------------
    def observe(self, events: list[Event]) -> None:
        for ev in events:
            if isinstance(ev, E.GameStarted):
                self.n = ev.players
                self.kikoi_at = [set() for _ in range(self.n)]
            elif isinstance(ev, (E.Asked, E.KikonkAsked)):
                t = token_from_id(ev.token)
                asker = ev.asker
                self.last_ask = (asker, t)
                self._lacks(asker, t)
                self.kikoi_at[asker].add(kikoi_of(t))
            elif isinstance(ev, E.Refused):
                self._lacks(ev.target, token_from_id(ev.token))
            elif isinstance(ev, E.RefusedCompleted):
                t = token_from_id(ev.token)
                self.has[t] = ev.target
                self.done.add(kikoi_of(t))
            elif isinstance(ev, E.KikonkFailed) and ev.token:
                t = token_from_id(ev.token)
                for s in range(self.n):
                    if s != ev.asker:
                        self._lacks(s, t)
            elif isinstance(ev, E.Given):
                t = token_from_id(ev.token)
                self.has[t] = ev.receiver
                self.kikoi_at[ev.receiver].add(kikoi_of(t))
            elif isinstance(ev, E.Stolen):
                t = token_from_id(ev.token)
                self.has[t] = ev.pirate
                self.lacks[t].discard(ev.pirate)
            elif isinstance(ev, E.GoodDraw):
                if self.last_ask is not None and self.last_ask[0] == ev.seat:
                    t = self.last_ask[1]
                    if self.game.config["good_draw"] == "exact":
                        self.has[t] = ev.seat
                        self.lacks[t].discard(ev.seat)
                self._drew(ev.seat)
            elif isinstance(ev, (E.BadDraw, E.DrewBlind)):
                self._drew(ev.seat)
            elif isinstance(ev, E.DayCompleted):
                k = ["kimouss", "kigratt", "kigliss", "kiboss", "kiboucle"].index(ev.kikoi)
                self.done.add(k)
                for t in range(k * 5, k * 5 + 5):
                    self.has[t] = ev.seat
            elif isinstance(ev, E.BoardsRotated):
                n = self.n
                self.has = {t: (s + 1) % n for t, s in self.has.items()}
                self.lacks = {t: {(s + 1) % n for s in ss} for t, ss in self.lacks.items()}
                self.kikoi_at = [self.kikoi_at[(i - 1) % n] for i in range(n)]

    def _lacks(self, seat: int, t: int) -> None:
        self.lacks[t].add(seat)
        if self.has.get(t) == seat:
            del self.has[t]

    def _drew(self, seat: int) -> None:
        """`seat` took an unknown token: any token of unknown place may now be theirs."""
        asked = self.last_ask[1] if self.last_ask and self.last_ask[0] == seat else None
        for t, ss in self.lacks.items():
            if t not in self.has and t != asked:
                ss.discard(seat)

    # --- choice --------------------------------------------------------------------------------------
    def choose(self, state: Any) -> Any:
        legal = self.game.legal_actions(state, self.seat)
        if len(legal) == 1:
            return legal[0]
        view = self.game.view(state, self.seat)
        mine = {token_from_id(x) for x in view["board"]}
        for t in mine:
            self.has[t] = self.seat
        counts = row_counts(list(mine))
        first = legal[0]
        if isinstance(first, Pirate):
            t = token_from_id(view["passing"]["token"])
            # steal a token of a KIKOI already gathered on my board, or late in the game
            return Pirate(counts[kikoi_of(t)] >= 2 or (counts[kikoi_of(t)] >= 1 and view["bag"] <= 3))
        if not isinstance(first, Ask):
            return self.rng.choice(legal)
        best: list[Any] = []
        best_score = -1.0
        for a in legal:
            score = self._score(a, counts, view)
            if score > best_score + 1e-9:
                best, best_score = [a], score
            elif abs(score - best_score) <= 1e-9:
                best.append(a)
        return self.rng.choice(best)

    def _score(self, a: Ask, counts: list[int], view: dict[str, Any]) -> float:
        t = a.token
        k = kikoi_of(t)
        progress = counts[k] * 0.5
        holder = self.has.get(t)
        if a.target is ALL:
            if holder is not None and holder != self.seat:
                return 0.0 if k in self.done else 100.0 + progress
            unknown = sum(1 for s in range(self.n) if s != self.seat and s not in self.lacks[t])
            return unknown * 3.0 + progress
        if holder is not None:
            if holder == a.target:
                # RULES KI-8: a completed day is never given, and asking loses the turn
                return 0.0 if k in self.done else 100.0 + progress
            return 0.5
        if a.target in self.lacks[t]:
            return 1.0 + progress * 0.1
        score = 10.0 + progress
        if k in self.kikoi_at[a.target]:
            score += 5.0
        return score


BOTS = {"memory": MemoryBot, "random": RandomBot}
