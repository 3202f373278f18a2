"""Typed or dictated commands for Good Fortune, in French and English, and readings.

Everything in this game is public (RULES GFA-9), so any zone can be read on request:
the central line and its ends, either lucky line, either collection with its grouped
score, the medallion, where a tile is, the discards, and what each of one's tiles would
do now. Answers go to the player who asked (`to=seat`).
"""

from __future__ import annotations

from typing import Any

from companion import language as tables
from companion.core import Event, IllegalAction, Match
from companion.core.text import fold
from companion.games.base import Act, Answer, Ask, GameUI, Intent, Seq
from companion.language import find_players, number_spans
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration
from .notation import find_charms, number_items, numbers_in
from .rules import HAND, LEFT, RIGHT, Declare, GoodFortune, Place, Push, State, placements
from .scoring import score
from .speech import charm_msg, groups_msg, points_msg, tile_msg, tiles_msg
from .tiles import N_TILES

# The words are data: `companion/language/<lang>/goodfortune.json` ("words", "end"), every
# language at once.


@tables.cached
def _groups() -> dict[str, frozenset[str]]:
    return {k: frozenset(v) for k, v in tables.groups("goodfortune", "words").items()}


def W(key: str) -> frozenset[str]:
    """The folded phrases of one of Good Fortune's word groups (push, filler, where...)."""
    return _groups().get(key, frozenset())


@tables.cached
def end_words() -> dict[str, frozenset[str]]:
    return {end: frozenset(ws) for end, ws in tables.groups("goodfortune", "end").items()}


def _said(folded: str, toks: set[str], key: str) -> bool:
    """Whether the line says one of the group's words (a single word) or phrases."""
    return bool(toks & W(key)) or any(" " in p and f" {p} " in f" {folded} " for p in W(key))


@tables.cached
def _vocabulary() -> frozenset[str]:
    """Every single word Good Fortune knows (never taken for a misspelt player name)."""
    out = {w for ws in _groups().values() for p in ws for w in p.split()}
    out |= {w for ws in tables.groups("goodfortune", "charm").values() for p in ws for w in p.split()}
    return frozenset(out)


def _not_numbers(folded: str) -> set[str]:
    """The words of the line that are not part of a number."""
    tokens = folded.split()
    for i, j, _v in number_spans(folded):
        tokens[i:j] = [""] * (j - i)
    return {t for t in tokens if t}


class GoodFortuneUI(GameUI):
    game: GoodFortune
    # Several tiles declared in one line (« 2 5 7 9 11 13 15 17 21 »): the session plays them one
    # by one; they are said back once, together, and the next prompt comes after the last
    # (#17). (history length when parsed, the declarations, the events said back so far)
    _batch: tuple[int, list[Declare], list[Event]] | None = None
    # --- understanding -----------------------------------------------------------------------
    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        folded = fold(text)
        if not folded:
            return None
        toks = set(folded.split())
        state: State = match.state
        if state.phase == "declare" and match.current == seat and numbers_in(folded) and not toks & W("where"):
            return self._declare(folded, match, seat)
        if state.phase == "place" and match.current == seat and self._end(toks) is not None \
                and not toks & (W("where") | W("options") | W("question")):
            return self._place(self._end(toks) or LEFT, folded, match, seat)
        query = self._query(folded, toks, match, seat)
        if query is not None:
            return query
        if match.over:
            return None
        if state.phase == "declare":
            return self._declare(folded, match, seat)
        if state.phase == "place" and match.current == seat:
            end = self._end(toks)
            if end is not None:
                return self._place(end, folded, match, seat)
        nums = numbers_in(folded)
        if len(nums) == 1 and not (_not_numbers(folded) - W("push") - W("filler")):
            return Act(Push(nums[0]))
        if self._end(toks) is not None:
            return Act(Place(self._end(toks) or LEFT))  # refused with the reason (no tile to place)
        return None

    def _end(self, toks: set[str]) -> str | None:
        for end, words in end_words().items():
            if toks & words:
                return end
        return None

    def _place(self, end: str, folded: str, match: Match[Any, Any], seat: int) -> Intent:
        legal = [a for a in match.legal(seat) if isinstance(a, Place) and a.end == end]
        outers = [a.outer for a in legal if a.outer is not None]
        if len(outers) <= 1:
            return Act(legal[0] if legal else Place(end))
        said = [c for c, _w in find_charms(folded) if c in outers]
        if said:
            return Act(Place(end, said[0]))

        def resolve(line: str) -> Intent | None:
            got = [c for c, _w in find_charms(fold(line)) if c in outers]
            return Act(Place(end, got[0])) if got else None

        return Ask(say("goodfortune.ask_outer", Priority.IMPORTANT, "question", seat,
                       choices=[charm_msg(c) for c in outers]), resolve)

    def _declare(self, folded: str, match: Match[Any, Any], seat: int) -> Intent | None:
        items = number_items(folded)
        if not items:
            return None
        acts: list[Intent] = []
        central = len(match.state.lines[0]) >= HAND
        for i, (n, rest) in enumerate(items):
            if self.game.domino_half and (central or len(match.state.lines[0]) + i >= HAND):
                charms = [c for c, _w in find_charms(rest)]
                acts.append(Act(Declare(n, charms[0] if charms else None)))
            else:
                acts.append(Act(Declare(n)))
        if len(acts) == 1:
            return acts[0]
        self._batch = (len(match.history), [a.action for a in acts if isinstance(a, Act)], [])
        return Seq(acts)

    def _batch_next(self, match: Match[Any, Any]) -> Declare | None:
        """The declaration of the line in hand that comes next and will be played, if any."""
        if self._batch is None:
            return None
        start, items, _said = self._batch
        done = len(match.history) - start
        if not 0 < done <= len(items) or match.history[-1].action != items[done - 1]:
            self._batch = None  # another line came between: the batch is over
            return None
        if done == len(items):
            return None
        nxt = items[done]
        seat = match.current
        return nxt if seat is not None and nxt in self.game.legal_actions(match.state, seat) else None

    # --- chance told by the table ---------------------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """The tiles the table may declare now (physical set-up): `12`, or `12:clover` with the
        charm on its left half (domino_half, central tiles)."""
        return [f"{a.number}:{a.left}" if a.left else str(a.number) for a in match.legal(seat) if isinstance(a, Declare)]

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        number, _sep, charm = outcome.partition(":")
        legal = [a for a in match.legal(seat) if isinstance(a, Declare)]
        if not legal:
            return None
        if number.strip().isdigit():
            left = fold(charm) or None
            found = [a for a in legal if a.number == int(number) and (left is None or a.left == left)]
            return Act(found[0] if len(found) == 1 else Declare(int(number), left))
        return self._declare(fold(outcome), match, seat)

    # --- readings -----------------------------------------------------------------------------------
    def _query(self, folded: str, toks: set[str], match: Match[Any, Any], seat: int) -> Intent | None:
        state: State = match.state
        whose = self._whose(folded, toks, match, seat)
        nums = numbers_in(folded)
        if toks & (W("where") | W("question")) and len(nums) == 1 and not toks & W("push"):
            return self._answer(seat, [self.where(state, nums[0], match)], "where")
        if toks & W("collection") or (toks & W("detail")):
            seats = (0, 1) if (toks & W("both") or toks & W("detail")) and whose is None else (whose if whose is not None else seat,)
            return self._answer(seat, [self.collection(state, s, match) for s in seats], "collection")
        if toks & W("discards"):
            return self._answer(seat, [Msg("goodfortune.read.discarded", n=len(state.discarded),
                                           tiles=tiles_msg(state.tile(n) for n in state.discarded))], "discards")
        if toks & W("medallion") and state.phase != "declare":
            return self._answer(seat, [self.medallion(state, match)], "medallion")
        if toks & W("options"):
            return self._answer(seat, self.options(state, match, seat), "options")
        if _said(folded, toks, "deck"):
            mid = "goodfortune.read.deck_synthetic" if state.deck == "synthetic" else "goodfortune.read.deck"
            return self._answer(seat, [Msg(mid, name=Raw(state.deck))], "deck")
        if toks & W("question") and self._end(toks) is not None and len(state.central) == 3:
            return self._answer(seat, [self.central(state)], "central")  # "qu'y a-t-il à gauche ?"
        if toks & W("central") and not (whose is not None and toks & W("line_word") and not toks & W("central_line")):
            return self._answer(seat, [self.central(state)], "central")
        if _said(folded, toks, "status") and not nums:
            return Answer(self.status(match, seat), command="status")
        if toks & W("hand_charm"):  # "main de Fatma" is a charm, not a hand
            toks = toks - W("hand")
        if toks & W("line") and not nums:
            seats = (0, 1) if toks & W("both") and whose is None else (whose if whose is not None else seat,)
            return self._answer(seat, [self.lucky_line(state, s, match) for s in seats], "line")
        return None

    def _whose(self, folded: str, toks: set[str], match: Match[Any, Any], seat: int) -> int | None:
        named = find_players(folded, match.players, _vocabulary())
        if named:
            return named[0]
        if toks & W("opponent"):
            return 1 - seat
        if toks & W("mine"):
            return seat
        return None

    def _answer(self, seat: int, msgs: list[Msg], command: str) -> Answer:
        return Answer([Utterance((m,), Priority.TEXT, None, seat) for m in msgs], command=command)

    def central(self, state: State) -> Msg:
        if len(state.central) < 3:
            return Msg("goodfortune.read.central_partial", n=len(state.central), tiles=tiles_msg(state.tile(n) for n in state.central))
        lefts = state.lefts
        if lefts is not None:
            from .rules import exposed

            return Msg("goodfortune.read.central_halves", left=tile_msg(state.tile(state.central[0])),
                       middle=tile_msg(state.tile(state.central[1])), right=tile_msg(state.tile(state.central[2])),
                       left_shows=charm_msg(exposed(state.tiles, state.central, lefts, LEFT) or ""),
                       right_shows=charm_msg(exposed(state.tiles, state.central, lefts, RIGHT) or ""))
        return Msg("goodfortune.read.central", left=tile_msg(state.tile(state.central[0])),
                   middle=tile_msg(state.tile(state.central[1])), right=tile_msg(state.tile(state.central[2])))

    def lucky_line(self, state: State, s: int, match: Match[Any, Any]) -> Msg:
        line = state.lines[s]
        if not line:
            return Msg("goodfortune.read.line_empty", player=Raw(match.players[s]))
        return Msg("goodfortune.read.line", player=Raw(match.players[s]), n=len(line),
                   tiles=tiles_msg(state.tile(n) for n in line))

    def collection(self, state: State, s: int, match: Match[Any, Any]) -> Msg:
        col = [state.tile(n) for n in state.collections[s]]
        if not col:
            return Msg("goodfortune.read.collection_empty", player=Raw(match.players[s]))
        total, groups = groups_msg(col, self.game.config["tie_order"])
        return Msg("goodfortune.read.collection", player=Raw(match.players[s]), n=len(col), score=points_msg(total),
                   tiles=tiles_msg(col), groups=groups)

    def medallion(self, state: State, match: Match[Any, Any]) -> Msg:
        return Msg("goodfortune.read.medallion", player=Raw(match.players[state.holder]),
                   face=narration.face_msg(state.face), meaning=narration.meaning_msg(state.face))

    def where(self, state: State, n: int, match: Match[Any, Any]) -> Msg:
        if not 1 <= n <= N_TILES:
            return Msg("goodfortune.read.no_such_tile", number=n)
        tile = tile_msg(state.tile(n))
        for s in (0, 1):
            if n in state.lines[s]:
                return Msg("goodfortune.read.where_line", tile=tile, player=Raw(match.players[s]))
            if n in state.collections[s]:
                return Msg("goodfortune.read.where_collection", tile=tile, player=Raw(match.players[s]))
            if state.pushed[s] == n:
                return Msg("goodfortune.read.where_pushed", tile=tile, player=Raw(match.players[s]))
        if n in state.central:
            pos = ("left", "middle", "right")[state.central.index(n)] if len(state.central) == 3 else "middle"
            return Msg("goodfortune.read.where_central", tile=tile, position=Msg(f"goodfortune.position.{pos}"))
        if n in state.discarded:
            return Msg("goodfortune.read.where_discarded", tile=tile)
        return Msg("goodfortune.read.where_unknown", tile=tile)

    def options(self, state: State, match: Match[Any, Any], seat: int) -> list[Msg]:
        """What each of one's tiles would do against the line as it stands now."""
        if state.phase == "declare" or len(state.central) < 3:
            return [Msg("goodfortune.read.options_none")]
        if state.phase == "place" and state.pushed[seat] is not None:
            numbers = [state.pushed[seat]]
        else:
            numbers = list(state.lines[seat])
        if not numbers:
            return [Msg("goodfortune.read.options_none")]
        out = [Msg("goodfortune.read.options_intro")]
        for n in numbers:
            assert n is not None
            opts = placements(state.tiles, state.central, state.lefts, n, self.game.domino_half, self.game.free_end)
            ends = []
            for o in opts:
                if any(e.end == o.end for e in opts[: opts.index(o)]):
                    continue
                gone = state.central[-1 if o.end == LEFT else 0]
                if o.collects:
                    after = score([state.tile(x) for x in (*state.collections[seat], gone)], self.game.config["tie_order"])
                    ends.append(Msg("goodfortune.read.option_collect", end=narration.end_msg(o.end), number=gone,
                                    score=after.total))
                else:
                    ends.append(Msg("goodfortune.read.option_discard", end=narration.end_msg(o.end), number=gone))
            out.append(Msg("goodfortune.read.option", number=n, ends=ends))
        return out

    # --- speaking -----------------------------------------------------------------------------------------
    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        if event.type == "tile_declared" and self._batch is not None:
            batch = self._batch
            more = self._batch_next(match) is not None
            if self._batch is not None:
                batch[2].append(event)
                if more:
                    return []  # said with the rest of the line
                self._batch = None  # the last of the line, or the next one will be refused
                return narration.declared_together(batch[2], match)
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        state: State = match.state
        if match.over:
            mid = "goodfortune.help.over"
        elif seat is None or match.current != seat:
            mid = "goodfortune.help.wait"
        elif state.phase == "declare":
            mid = "goodfortune.help.declare_line" if len(state.lines[0]) < HAND else "goodfortune.help.declare_central"
        elif state.phase == "place":
            mid = "goodfortune.help.place_outer" if self.game.domino_half else "goodfortune.help.place"
        else:
            mid = "goodfortune.help.push"
        current = match.current
        return [say(mid, Priority.TEXT, to=seat, player=Raw(match.players[current]) if current is not None else Raw("")),
                say("goodfortune.help.readings", Priority.TEXT, to=seat)]

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        state: State = match.state
        out: list[Msg] = []
        scores = match.outcome().scores
        if state.phase == "declare":
            out.append(Msg("goodfortune.status.declare", player=Raw(match.players[0]),
                           n=len(state.lines[0]) + len(state.central)))
        elif match.over:
            out.append(Msg("goodfortune.status.over"))
        else:
            out.append(Msg("goodfortune.status.round", round=state.round))
            out.append(self.medallion(state, match))
            for s in (0, 1):
                pushed = state.pushed[s]
                if pushed is not None:
                    out.append(Msg("goodfortune.read.where_pushed", tile=tile_msg(state.tile(pushed)),
                                   player=Raw(match.players[s])))
            cur = match.current
            assert cur is not None
            if state.phase == "place":
                out.append(Msg("goodfortune.status.to_place", player=Raw(match.players[cur]), number=state.pushed[cur]))
            else:
                out.append(Msg("goodfortune.status.to_push", player=Raw(match.players[cur])))
            out.append(self.central(state))
        if state.phase != "declare":
            out.append(Msg("goodfortune.status.scores", a=Raw(match.players[0]), sa=scores[0],
                           b=Raw(match.players[1]), sb=scores[1]))
        return [Utterance((m,), Priority.TEXT, None, seat) for m in out]

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        state: State = match.state
        name = Raw(match.players[seat])
        if state.phase == "declare":
            if self._batch is not None and self._batch_next(match) is not None:
                return []  # the line in hand goes on: asked once it is all played
            if len(state.lines[0]) < HAND:
                return [say("goodfortune.prompt.declare_line", player=name, n=len(state.lines[0]) + 1, earcon="turn")]
            return [say("goodfortune.prompt.declare_central", player=name, n=len(state.central) + 1, earcon="turn")]
        if state.phase == "place":
            return [say("goodfortune.prompt.place", player=name, number=state.pushed[seat], earcon="turn")]
        return [say("goodfortune.prompt.push", player=name, earcon="turn",
                    numbers=[str(n) for n in state.lines[seat]])]

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        d = dict(exc.detail)
        if exc.code == "not_in_line":
            d["where"] = Msg(f"goodfortune.where.{d.get('where', 'none')}")
            d["line"] = [str(n) for n in d.get("line", [])] or Msg("goodfortune.none")
        elif exc.code == "must_match":
            d["other"] = narration.end_msg(d["other"])
            d["end"] = narration.end_msg(d["end"])
            d["tile"] = tile_msg(d["tile"])
        elif exc.code == "bad_orientation":
            d["choices"] = [charm_msg(c) for c in d.get("choices", []) if c] or Msg("goodfortune.none")
        msg = Msg(f"goodfortune.refused.{exc.code}", **d)
        return [Utterance((msg,), Priority.IMPORTANT, "error", seat)]

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        if match.over:
            return "scoring"
        return "setup" if match.state.phase == "declare" else "turn"
