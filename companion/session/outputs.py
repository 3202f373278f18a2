"""What the session core asks the table to do: outputs as plain data (h11's shape).

The core (`companion.session.core.SessionCore`) takes one input and returns a list of these;
it never prints, speaks, writes a file or reads a clock. The table
(`companion.session.table.Table`) carries them out, in order: it renders a `Say` in its
listener's language and verbosity, prints it, speaks it on the right channels, appends the
journal records, writes the `--log` lines. The loop (`companion.session.loop.TableLoop`)
starts a bot's search on `Think` and posts the chosen action back to the inbox.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core import Bot, Event
from companion.narration import Utterance, Verbosity


@dataclass(frozen=True)
class Say:
    """Say `utterance` to `listener`: None is the whole table, a seat is one player.

    `private` marks what only that player may know (their hand, a token they drew, their
    board): the core has already applied the routing rule, so a private `Say` is only
    emitted when the seat has a channel of its own, or is the only human at the table, or
    the table plays with every line shared (hot seat). `lang` and `verbosity` are the
    listener's at the time it was said; `spell` asks for the text spelled (a second repeat).
    """

    listener: int | None
    utterance: Utterance
    private: bool = False
    lang: str = "fr"
    verbosity: Verbosity = Verbosity.NORMAL
    spell: bool = False


@dataclass(frozen=True)
class Cue:
    """An earcon alone, no words (« je réfléchis » while a bot searches)."""

    listener: int | None
    earcon: str


@dataclass(frozen=True)
class Interrupt:
    """New input: cut speech of text priority for this listener (None: the table)."""

    listener: int | None


@dataclass(frozen=True)
class Record:
    """Events to write to the `--log` file (one JSON object per event)."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class InputTaken:
    """How one input line was taken, for the `--log` file: outcome is one of `act`,
    `confirm`, `ask`, `answer`, `shared`, `refuse`, `not_understood` (see `OUTCOMES`)."""

    source: str
    seat: int | None
    text: str
    outcome: str
    command: str | None
    heard: str | None = None  # by voice: the words as heard (`Line.heard`)
    confidence: float | None = None  # by voice: the recogniser's
    rival_margin: float | None = None  # by voice: the heard line's margin over its rival (`Line.rival_margin`)

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"type": "input", "source": self.source, "seat": self.seat, "text": self.text,
                 "outcome": self.outcome, "command": self.command}
        if self.heard is not None:
            entry["heard"] = self.heard
        if self.confidence is not None:
            entry["confidence"] = round(self.confidence, 3)
        if self.rival_margin is not None:
            entry["rival_margin"] = round(self.rival_margin, 2)
        return entry


#: `talk`: a voice line the recogniser judged talk that is no command (nothing changed, nothing said)
OUTCOMES = ("act", "confirm", "ask", "answer", "shared", "refuse", "not_understood", "talk")


@dataclass(frozen=True)
class Echo:
    """Print `utterance` on the screen always, say it only in the verbose profile: what a voice
    line was heard as (« Entendu : annule », issue 24), that the player always knows and that
    a terse table is not slowed by."""

    listener: int | None
    utterance: Utterance
    lang: str = "fr"
    verbosity: Verbosity = Verbosity.NORMAL


@dataclass(frozen=True)
class JournalAction:
    """Append an accepted action (the game's JSON form) to the journal."""

    seat: int
    action: Any


@dataclass(frozen=True)
class JournalUndo:
    """Append an undo record to the journal."""


@dataclass(frozen=True)
class JournalEnd:
    """Append the end of the game to the journal."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class JournalAnnounced:
    """Mark in the journal that every move saved so far has been said (after a resume said
    the moves a stop had left unannounced)."""


@dataclass(frozen=True)
class JournalSetting:
    """Append a setting changed during the game (`key` "verbosity", `value` "terse") to the
    journal, for the table (`seat` None) or one player: a resume applies them in order."""

    seat: int | None
    key: str
    value: str


@dataclass(frozen=True)
class Think:
    """Start a bot's search for `seat` in `state` (the match's history had `ply` steps).

    The loop runs `bot.choose(state)` (in a worker thread, or inline in synchronous mode)
    and hands back `BotMove(seat, action, ply)`. `autoplay` marks a move chosen for a human
    who asked « joue pour moi »."""

    seat: int
    ply: int
    bot: Bot = field(compare=False)
    state: Any = field(compare=False)
    autoplay: bool = False


@dataclass(frozen=True)
class Tune:
    """Change the speech rate or volume of the listener's voice (`faster`, `slower`,
    `louder`, `quieter`); the table says the new value, in `lang`."""

    listener: int | None
    word: str
    lang: str = "fr"
    verbosity: Verbosity = Verbosity.NORMAL


@dataclass(frozen=True)
class Attach:
    """Give `seat` this channel (a page, a second terminal, a private speaker)."""

    seat: int
    channel: Any = field(compare=False)


@dataclass(frozen=True)
class Detach:
    """Take this channel away from `seat`."""

    seat: int
    channel: Any = field(compare=False)


@dataclass(frozen=True)
class Release:
    """Let go of the page or terminal that claimed `seat` (« libère Anne » said at the table)."""

    seat: int


@dataclass(frozen=True)
class ScanRules:
    """« lis le code » in a game (issue 28): look through the camera for a rules label and
    say which game and language it opens, in `lang`, while the game goes on. The camera is
    the edge's (`Table.on_scan`, given by the runner); the core only asks."""

    listener: int | None
    lang: str = "fr"


@dataclass(frozen=True)
class Ended:
    """The game ended (its end is journaled just before)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Hearable:
    """What may be said now changed (or a voice line was taken: the listener that posted it
    then knows its answer is out): a replica of the match and a probe of the game's UI, both
    made in the loop's thread, for the voice listeners to build their grammar from in theirs
    (issue 24: no thread but the loop reads the match). `seat` is the player to move; a
    listener of one seat uses its own. `generation` changes only when what is sayable does."""

    match: Any = field(compare=False)
    ui: Any = field(compare=False)
    seat: int | None
    lang: str
    generation: int
    #: a bot is choosing its move: a recording read as fast as possible waits for it, so that
    #: the next command is heard with the grammar of the human's turn, not the bot's
    bot_thinking: bool = False
    #: the seats a yes/no question waits for (a read-back, the quit question: every seat): their
    #: listeners hear the answer's own grammar, whose confidence is calibrated apart (issue 30)
    asking: tuple[int, ...] = ()
    #: the seats a game's question waits for (2kissa10's « which reading? ») and what may
    #: answer it (`Ask.replies`): their listeners hear those replies beside the game's phrases
    replying: tuple[tuple[int, Any], ...] = ()


def replica(match: Any) -> Any:
    """A copy of `match` another thread may read while the loop plays on: its own history list
    and dice; the states are shared, as no rule changes a state in place (`Match.undo` goes
    back to the very `Step.before` objects, so they must stay as they were)."""
    import copy

    twin = copy.copy(match)
    twin.history = list(match.history)
    twin.rng = copy.deepcopy(match.rng)
    return twin


@dataclass(frozen=True)
class Stop:
    """The session is over (quit, end of input, or a game of bots only finished)."""


Output = (Say | Echo | Cue | Interrupt | Record | InputTaken | JournalAction | JournalUndo | JournalEnd | JournalAnnounced
          | JournalSetting | Think | Tune | Attach | Detach | Release | ScanRules | Ended | Hearable | Stop)

__all__ = ["OUTCOMES", "Attach", "Cue", "Detach", "Echo", "Ended", "Hearable", "InputTaken", "Interrupt", "JournalAction",
           "JournalAnnounced", "JournalEnd", "JournalSetting", "JournalUndo", "Output", "Record", "Release", "Say", "ScanRules",
           "Stop", "Think", "Tune"]
