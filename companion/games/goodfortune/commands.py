"""Good Fortune's commands, read by the one grammar, and their handlers.

The words and patterns are data: `companion/language/<lang>/goodfortune.json` (``"read"``,
``"words"``, ``"charm"``, ``"end"``), every language at once. Each kind of the patterns is a
frozen record here; `HANDLERS` turns one into an intent for a seat now. Everything in this game
is public (RULES GFA-9), so any zone is read on request (`readings`); answers go to the player
who asked (`to=seat`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.core import Event, IllegalAction, Match
from companion.core.text import fold
from companion.games.base import Act, Ask, GameUI, Handler, Intent, Seq
from companion.language.grammar import Grammar, Names
from companion.narration import Msg, Priority, Raw, Utterance, say

from . import narration, readings
from .events import TileDeclared
from .phrases import GRAMMAR, vocabulary
from .readings import Central, Collection, Deck, Discards, Line, Medallion, Options, Status, Where
from .rules import HAND, Declare, GoodFortune, Place, Push, State
from .speech import charm_msg, tile_msg


# --- the commands --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tiles:
    """Numbers said: tiles declared at a physical table (with the charm said after each, for
    the domino halves), or the one tile pushed. Each item is (number, charm or None)."""

    tile: tuple[tuple[int, str | None], ...]


@dataclass(frozen=True)
class PlaceAt:
    end: str
    charm: str | None = None


def _both() -> Collection:
    return Collection("both")


COMMANDS: dict[str, Callable[..., Any]] = {
    "where": Where, "central": Central, "collection": Collection, "detail": _both, "discards": Discards,
    "medallion": Medallion, "options": Options, "deck": Deck, "status": Status, "line": Line,
    "tiles": Tiles, "place": PlaceAt}


# --- the handlers ----------------------------------------------------------------------------------
def on_tiles(c: Tiles, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if match.over:
        return None, view
    state: State = match.state
    if state.phase != "declare":
        if len(c.tile) == 1 and c.tile[0][1] is None:
            return Act(Push(c.tile[0][0])), view
        return None, view  # « 12 13 »: one tile is pushed at a time
    game: GoodFortune = match.game  # type: ignore[assignment]
    central = len(state.lines[0]) >= HAND
    acts: list[Intent] = []
    for i, (n, charm) in enumerate(c.tile):
        half = game.domino_half and (central or len(state.lines[0]) + i >= HAND)
        acts.append(Act(Declare(n, charm if half else None)))
    if len(acts) == 1:
        return acts[0], view
    # several declarations in one line are said back once, together (#17): the seat's view
    return Seq(acts), Batch(len(match.history), tuple(a.action for a in acts if isinstance(a, Act)))


def on_place(c: PlaceAt, match: Match[Any, Any], seat: int, view: Any) -> tuple[Intent | None, Any]:
    if match.over:
        return None, view
    if match.state.phase != "place" or match.current != seat:
        return Act(Place(c.end)), view  # refused with the reason (no tile to place)
    legal = [a for a in match.legal(seat) if isinstance(a, Place) and a.end == c.end]
    outers = [a.outer for a in legal if a.outer is not None]
    if len(outers) <= 1:
        return Act(legal[0] if legal else Place(c.end)), view
    if c.charm in outers:
        return Act(Place(c.end, c.charm)), view
    def resolve(line: str) -> Intent | None:
        got = [charm for _e, charm in Names("goodfortune", "charm").spans(fold(line).split(), 0, {}) if charm in outers]
        return Act(Place(c.end, got[0])) if got else None

    return Ask(say("goodfortune.ask_outer", Priority.IMPORTANT, "question", seat,
                   choices=[charm_msg(o) for o in outers]), resolve), view


HANDLERS: dict[type, Handler] = {
    Where: readings.on_where, Central: readings.on_central, Collection: readings.on_collection,
    Line: readings.on_line, Discards: readings.on_discards, Medallion: readings.on_medallion,
    Options: readings.on_options, Deck: readings.on_deck, Status: readings.on_status,
    Tiles: on_tiles, PlaceAt: on_place,
}


@dataclass(frozen=True)
class Batch:
    """Declarations read in one line (history length when read, the declarations)."""

    start: int
    items: tuple[Declare, ...]


class GoodFortuneUI(GameUI):
    game: GoodFortune
    COMMANDS = COMMANDS
    HANDLERS = HANDLERS

    def grammar(self) -> Grammar:
        return GRAMMAR()

    def context(self, match: Match[Any, Any], seat: int) -> dict[str, Any]:
        return {**super().context(match, seat), "known": vocabulary()}

    def _batch_next(self, match: Match[Any, Any], batch: Batch) -> Declare | None:
        """The declaration of the line in hand that comes next and will be played, if any."""
        done = len(match.history) - batch.start
        if not 0 < done <= len(batch.items) or match.history[-1].action != batch.items[done - 1]:
            return None  # another line came between: the batch is over
        if done == len(batch.items):
            return None
        nxt = batch.items[done]
        seat = match.current
        return nxt if seat is not None and nxt in self.game.legal_actions(match.state, seat) else None

    def _batch(self, match: Match[Any, Any]) -> Batch | None:
        """The declaration list being played, from the seats' views the session holds."""
        batch = next((v for v in self.views.values() if isinstance(v, Batch)), None)
        if batch is None:
            return None
        done = len(match.history) - batch.start
        if not 0 <= done <= len(batch.items) or any(
                match.history[batch.start + k].action != batch.items[k] for k in range(done)):
            return None
        return batch

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
        command = self.command(outcome, match, seat)
        return on_tiles(command, match, seat, None)[0] if isinstance(command, Tiles) else None

    # --- speaking -----------------------------------------------------------------------------------------
    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        batch = self._batch(match)
        if isinstance(event, TileDeclared) and batch is not None and len(match.history) > batch.start:
            if self._batch_next(match, batch) is not None:
                return []  # said with the rest of the line
            said = [e for step in match.history[batch.start:] for e in step.events if isinstance(e, TileDeclared)]
            return narration.declared_together(said, match)
        return narration.narrate(event, match)

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.help(match, seat)

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return readings.status(match, seat)

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        state: State = match.state
        name = Raw(match.players[seat])
        if state.phase == "declare":
            batch = self._batch(match)
            if batch is not None and self._batch_next(match, batch) is not None:
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
