"""What a game package gives the session besides its rules: commands, narration, help.

Each game package `companion/games/<name>/` holds the same files:

* `rules.py` - the pure `Game` subclass (`legal_actions` is the single source of legality);
* `notation.py` - parse and format the written (docs/rules.md §7) and spoken forms;
* `narration.py` - events to `Utterance`s (message ids with parameters, no text);
* `commands.py` - the `GameUI` subclass: its typed commands (frozen records, one per kind of
  the grammar's ``"read"`` rules) and the table of their handlers, help, status;
* `bot.py` - the bots, registered by name in `BOTS`;
* `cli.py` - `main(argv) -> int` for `companion <game> ...` tools (optional);
* `__init__.py` - exposes `Rules`, `UI` and `BOTS`.

Messages live in `companion/locale/<lang>/LC_MESSAGES/<name>.po` with ids `<name>.*`.
"""

from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from companion.core import Event, Game, IllegalAction, Match
from companion.language import LIMIT, Builder, Sayable, shared_phrases
from companion.language.grammar import Grammar
from companion.narration import Msg, Priority, Raw, Utterance, say

FALL_THROUGH = ("yes", "no")  # shared words a game's own reading may take (companion.session.commands)
IntentT = TypeVar("IntentT", bound="Intent | None")


@dataclass
class Intent:
    """What a line of input means, as the game's command parser understood it.

    `command` names what was understood, for the input log and for `companion phrases`:
    a shared word's name (``"repeat"``), a game query's name (``"board"``, ``"hand"``), or
    for an action `action_command(game, action)`. Acts and Confirms may leave it None:
    it is then derived from their action.
    """

    command: str | None = field(default=None, kw_only=True)


@dataclass
class Act(Intent):
    """Play this action now (the session applies it through the match's guards)."""

    action: Any
    #: the action in words, said back with what was heard when it must be confirmed (a voice
    #: line heard with little confidence): « choix 2 » is read back as the move it picks
    said: Msg | None = field(default=None, kw_only=True)


@dataclass
class Confirm(Intent):
    """Read the action back and play it only on "oui"/"yes" (e.g. a 2kissa10 equation)."""

    action: Any
    question: Utterance


@dataclass
class Answer(Intent):
    """A query's answer; nothing changes. Private answers carry `to=seat`."""

    utterances: list[Utterance]


@dataclass
class Refuse(Intent):
    """Understood but impossible, or not understood: say why and what is possible."""

    utterances: list[Utterance]


@dataclass
class Ask(Intent):
    """A question back (which of the two 7s?). The next line goes to `resolve` first;
    when it returns None the line is parsed as usual."""

    question: Utterance
    resolve: Callable[[str], Intent | None]
    #: what may answer it, for the recogniser: a frozen value with `phrases(lang) -> list[str]`
    #: (2kissa10's `phrases.Replies`), told to the voice listeners while the question waits
    #: (issue 24 §7); None: the answers are heard through the game's grammar as it is
    replies: Any = None


@dataclass
class Seq(Intent):
    """Several intents in order (e.g. an answer then an act)."""

    items: list[Intent] = field(default_factory=list)


class Tokens:
    """What a game knows of its tokens laid on a token reader (issue #23: the reader, an
    extension of the session, holds no game's knowledge). A game with more to say gives its
    UI its own subclass (`games/kikoi/reader.py`, `games/kaliko/reader.py`); this one names a
    token by its written id and knows nothing else."""

    def name(self, tid: str) -> Msg | Raw:
        """A token's spoken name (« le Kigliss qui dort »); ValueError or KeyError for none."""
        return Raw(tid)

    def answer(self, match: Match[Any, Any], seat: int, tid: str) -> tuple[Any, str] | None:
        """A token laid by `seat` as the answer to a request: (the action, or None for the
        wrong token; the id of the token asked for); None when `seat` is asked for none."""
        return None

    def progress(self, match: Match[Any, Any], seat: int) -> tuple[int, int] | None:
        """During a deal: (which of `seat`'s tokens this is, of how many), for a neutral
        « jeton 2 sur 4 noté »; None outside a deal."""
        return None

    def misplaced(self, match: Match[Any, Any], seat: int, tid: str) -> bool:
        """Whether the token cannot come now because it lies elsewhere, was used or was read
        twice (the table is asked to check it) rather than because nothing is expected."""
        return False


@dataclass(frozen=True)
class Ambiguous:
    """A line the grammar reads as several commands (two players as close to a name said)."""

    commands: tuple[Any, ...]


#: a handler: (command, match, seat, view) -> (intent, view). `view` is what the seat is in
#: the middle of (a list of declarations being played), a value the session holds: a handler
#: returns the next one and changes nothing itself. The intent None: no command of this game
#: in this state (the session says it did not understand).
Handler = Callable[[Any, Match[Any, Any], int, Any], "tuple[Intent | None, Any]"]


class GameUI(ABC):
    """The session's view of one game: how to understand players and how to speak.

    A game read through the one grammar (`companion.language.grammar`) gives `grammar()`, its
    typed commands by kind (`COMMANDS`: the reading's slots are the record's fields) and the
    table of their handlers (`HANDLERS`, by the command's type). `read` is then pure: the
    grammar gives the command, its handler the intent and the seat's next view."""

    #: earcon names a game may use (generated by companion.outputs.earcons)
    EARCONS = ("turn", "move", "score", "good", "bad", "error", "end", "private", "draw", "question", "thinking")
    #: what the game knows of its tokens on a reader (a physical table)
    tokens: Tokens = Tokens()
    COMMANDS: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    HANDLERS: ClassVar[Mapping[type, Handler]] = {}

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        #: each seat's view, held by the session (it sets them as it takes lines; a UI only
        #: reads them, to speak: a declaration list said back once)
        self.views: dict[int, Any] = {}

    # --- understanding ---------------------------------------------------------------------
    def grammar(self) -> Grammar | None:
        """The game's one grammar (None: the game reads lines with its own `parse`)."""
        return None

    def context(self, match: Match[Any, Any], seat: int) -> dict[str, Any]:
        """What the slot readers may look at: the players' names, the seat speaking."""
        return {"players": tuple(match.players), "seat": seat}

    def command(self, text: str, match: Match[Any, Any], seat: int) -> Any:
        """The typed command `text` says (an `Ambiguous` for several), or None."""
        grammar = self.grammar()
        if grammar is None:
            return None
        readings = grammar.read(text, self.context(match, seat))
        found = tuple(dict.fromkeys(self.COMMANDS[r.kind](**dict(r.values)) for r in readings))
        if not found:
            return None
        return found[0] if len(found) == 1 else Ambiguous(found)

    def handle(self, command: Any, match: Match[Any, Any], seat: int, view: Any = None) -> tuple[Intent | None, Any]:
        """The intent of a typed command for `seat` now, and the seat's next view."""
        if isinstance(command, Ambiguous):
            # issue 24: a doubt is asked back, never guessed (unless every reading means the same)
            options = [self.handle(c, match, seat, view) for c in command.commands]
            intents = [i for i, _v in options if i is not None]
            if len(intents) == 1 or (intents and all(i == intents[0] for i in intents)):
                return next(o for o in options if o[0] is not None)
            if not intents:
                return None, view

            def resolve(line: str) -> Intent | None:
                again = self.command(line, match, seat)
                if again in command.commands:
                    return self.handle(again, match, seat, view)[0]
                return None

            return Ask(say("core.which", Priority.IMPORTANT, "question", seat, n=len(intents)), resolve), view
        return self.HANDLERS[type(command)](command, match, seat, view)

    def read(self, text: str, match: Match[Any, Any], seat: int, view: Any = None) -> tuple[Intent | None, Any]:
        """What `seat` means by `text` now, and the seat's next view; reading changes nothing."""
        if self.grammar() is None:
            return self.parse(text, match, seat), view
        command = self.command(text, match, seat)
        if command is None:
            return None, view
        return self.handle(command, match, seat, view)

    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """What `seat` means by `text`; None when it is no command of this game."""
        return self.read(text, match, seat, self.views.get(seat))[0]

    # --- speaking --------------------------------------------------------------------------------
    @abstractmethod
    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        """The utterances of one event. Private events (event.to) give utterances with `to`."""

    @abstractmethod
    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        """What can be done now, by `seat` (None: someone who is not playing)."""

    @abstractmethod
    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        """Where the game stands: whose turn, the scores, what is left."""

    def turn_prompt(self, match: Match[Any, Any], seat: int) -> list[Utterance]:
        """Said when a human's turn begins."""
        return [say("core.your_turn", player=match.players[seat], earcon="turn")]

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        """Why an action was refused, in words; games override it for their own codes."""
        msg_id = f"{self.game.name}.refused.{exc.code}"
        return [Utterance((Msg(msg_id, **_plain(exc.detail)),), Priority.IMPORTANT, "error", seat)]

    def undoable(self, match: Match[Any, Any]) -> bool:
        """Whether `annule`/`undo` may take back the last human move now."""
        return True

    def bots_refused(self) -> str | None:
        """The message id saying why bots cannot sit at this table (Kaliko at a physical table:
        someone would have to draw a bot's real tiles and so learn its hand), or None."""
        return None

    def history_allowed(self, match: Match[Any, Any]) -> bool:
        """Whether anyone may hear the public events again (KIKOI says them once: KIA-10)."""
        return True

    def rule_chapter(self, match: Match[Any, Any]) -> str | None:
        """The audio-rules chapter about what is happening now (for `règle`/`rule`)."""
        return None

    # --- chance told by the table ---------------------------------------------------------------
    def chance(self, match: Match[Any, Any], seat: int) -> list[str]:
        """At a physical table, the chance outcomes `seat` may tell now, as written ids (RULES
        §7: a KIKOI token `kigliss-sleep`, a Good Fortune tile `12`); [] when no chance is told
        now. Typed today, read by the token reader next: both go through `told`."""
        return []

    def told(self, outcome: str, match: Match[Any, Any], seat: int) -> Intent | None:
        """The intent of a chance outcome told by the table (a written id of `chance`, or the
        words a player says for it); None when it is none of this game's outcomes now."""
        return None

    # --- what is sayable now ------------------------------------------------------------------
    def phrases(self, match: Match[Any, Any], seat: int, lang: str = "fr", limit: int = LIMIT,
                commands: bool = True) -> Sayable:
        """What `seat` may say now that means something, in `lang`: the shared words and every
        legal action in one canonical spoken form (a sample covering every template beyond
        `limit`, 2,000), each with its command (`commands=False`: "action" for every move, to
        list many of them lightly), and the slot grammar of this state."""
        builder = Builder(self.game.name, lang, limit=limit, commands=commands)
        probe = self.probe()
        for phrase, command in shared_phrases(lang):
            # « oui » / « non » go to the game when it reads them (a KIKOI answer)
            if command in FALL_THROUGH and probe.parse(phrase, match, seat) is not None:
                continue
            builder.shared.append((phrase, command))
        self.sayable(builder, match, seat)
        return builder.build()

    def sayable(self, builder: Builder, match: Match[Any, Any], seat: int) -> None:
        """Add this game's templates, slot values and concrete phrases for `seat` now. By
        default the game package's `phrases` module does it (`sayable(ui, builder, match,
        seat)`); a game without one has the shared words only."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.phrases")
        except ModuleNotFoundError as exc:
            if exc.name == f"{package}.phrases":
                return
            raise
        module.sayable(self, builder, match, seat)

    def probe(self) -> GameUI:
        """A copy of this UI to try lines on: what a parse changes (a cursor, a draft) stays
        in the copy; the game is shared."""
        return copy.deepcopy(self, {id(self.game): self.game})


def named(intent: IntentT, command: str) -> IntentT:
    """`intent`, named `command` unless it names itself or is an action (named by it)."""
    if intent is not None and intent.command is None and not isinstance(intent, (Act, Confirm)):
        intent.command = command
    return intent


def action_command(game: Game[Any, Any], action: Any) -> str:
    """The canonical name of an action: ``action:`` and its compact, key-sorted JSON (RULES §7)."""
    import json

    return "action:" + json.dumps(game.action_to_json(action), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(detail: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in detail.items() if isinstance(v, (str, int, float, Msg, list, tuple))}
