"""The session core: the one authoritative place where inputs change the match. No I/O.

`SessionCore.handle(input) -> list[Output]` takes one input from the inbox (a `Line` typed,
heard or sent from a page; a `Device` event; a `Tick`; a bot's `BotMove`; a `Closed`
input) and returns what to do as data (`companion.session.outputs`): say this to this
listener, append this journal record, write this log line, start this bot's search, cut
this listener's speech. It prints nothing, speaks nothing, writes nothing, reads no clock
and starts no thread, so tests assert its outputs directly and any number of inputs are
safe together: the table loop alone calls it, one input at a time.

What it needs from outside is passed in: the game's UI, the match, the seats, a reader of
the audio rules' chapters (`rule_reader`), a maker of a helper bot (`helper`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from companion.core import Bot, Event, IllegalAction, Match, Undone, fold
from companion.games.base import (
    FALL_THROUGH,
    Act,
    Answer,
    Ask,
    Confirm,
    GameUI,
    Intent,
    Refuse,
    Seq,
    action_command,
)
from companion.language import TableError, cached, spoken, yes_no
from companion.narration import (
    Msg,
    Priority,
    Raw,
    Utterance,
    Verbosity,
    catalog,
    say,
    secret,
    stand_in,
)
from companion.session.commands import global_command
from companion.session.inbox import (
    BotMove,
    Closed,
    Device,
    Input,
    Line,
    SeatClaimed,
    SeatReleased,
    Tick,
)

from .extension import Extension, LineHandler, Seam, phrase_key
from .outputs import (
    Attach,
    Cue,
    Detach,
    Echo,
    Ended,
    Hearable,
    InputTaken,
    Interrupt,
    JournalAction,
    JournalAnnounced,
    JournalEnd,
    JournalSetting,
    JournalUndo,
    Output,
    Record,
    Release,
    Say,
    ScanRules,
    Stop,
    Think,
    Tune,
    replica,
)

# Shared words that leave a pending question or read-back open.
KEEPS_PENDING = frozenset({"repeat", "help", "status", "where_saved", "terse", "normal", "verbose", "faster", "slower", "louder", "quieter"})
# What is answered at once while a bot searches; any other line waits for the bot's move.
WHILE_THINKING = KEEPS_PENDING | {"history", "rule", "french", "english"}
# What is taken while the deal waits for every human's channel (the rest: « on attend … »).
WHILE_WAITING = frozenset({"quit", "repeat", "where_saved", "terse", "normal", "verbose", "faster", "slower", "louder",
                           "quieter", "french", "english"})
# Shared words that answer a question (the rest act on the session: outcome "shared").
ANSWERS = frozenset({"help", "status", "history", "rule", "where_saved"})
THINK_CUE_SECONDS = 0.4  # a bot still searching after this long: the « je réfléchis » earcon
THINK_EARCON = "thinking"  # a soft low double hum (companion.outputs.earcons)
NOT_HEARD_EARCON = "error"  # a sound near a command, not understood: the earcon alone, no words
NEAREST = 3  # the nearest sayable commands said after a typed line not understood
ECHO_CHARS = 80  # the most of a line not understood said back to its player
NEAREST_CHARS = 200  # more than any sayable phrase: the rest of a longer line cannot make it nearer one
CONFIDENCE_THRESHOLD = 0.6
# Shared words that change the game or the session: heard by voice below the threshold, they are
# read back and wait for a sure « oui » (issue 24: « repeat » heard as « undo » at 0.04 took a
# move back; « répète » heard as « fin » ended the game).
CHANGES_STATE = frozenset({"undo", "autoplay", "quit", "terse", "normal", "verbose", "french", "english"})
# Who may claim a seat, and what the table hears when they do.
CLAIM_SOURCES = {"web": "core.web.seat_claimed", "terminal": "core.web.terminal_claimed",
                 "braille": "core.braille.claimed", "braille:back": "core.braille.back"}
# What the table hears when a channel leaves; a braille display unplugged is said as such.
RELEASE_SOURCES = {"braille:lost": "core.braille.lost"}

# The game's query for what a player holds: Kaliko's « main », KIKOI's « mon plateau ».
HOLDINGS_QUERIES = ("hand", "board")

RuleReader = Callable[[str, str, str], list[Utterance]]  # (game, chapter id, lang) -> utterances


@dataclass
class Seat:
    name: str
    bot: Bot | None = None
    lang: str | None = None  # None: the table's language
    verbosity: Verbosity | None = None  # None: the table's verbosity
    speaker: Any = None  # a private speaker given by --private (the table makes it a channel)


@dataclass
class ReadBack(Intent):
    """A shared word heard with little confidence, read back (« Tu as dit : annule ? »): a sure
    « oui » carries it out, anything else drops it (issue 24: nothing changes on a doubt)."""

    word: str
    question: Utterance


@dataclass
class LastSaid:
    """What one listener heard last, for `repeat` (and spelling on a second repeat)."""

    says: list[tuple[Utterance, bool]] = field(default_factory=list)  # (utterance, private)
    repeats: int = 0
    order: int = 0  # when it was said: `repeat` says the latest of public and private


class SessionCore:
    """One game at one table. `start()` then `handle(input)` for each input; both return
    outputs. `running` turns False on quit, end of input, or the end of a bots-only game.

    `private_policy` says where a private line goes when its player has no channel of
    their own and is not the only human: "withhold" (not said; the table is told once how
    to give each player a channel) or "table" (said aloud, marked with the player's name: a
    hot-seat game where everyone agreed to hear everything, and the typed-game tests).
    """

    def __init__(
        self,
        game_name: str,
        ui: GameUI,
        match: Match[Any, Any],
        seats: list[Seat],
        *,
        lang: str = "fr",
        verbosity: Verbosity = Verbosity.NORMAL,
        rule_reader: RuleReader | None = None,
        helper: Callable[[int], Bot] | None = None,
        private_policy: str = "withhold",
        confidence_threshold: float = CONFIDENCE_THRESHOLD,
    ) -> None:
        if private_policy not in ("withhold", "table"):
            raise ValueError(f"private_policy must be 'withhold' or 'table', not {private_policy!r}")
        self.game_name = game_name
        self.ui = ui
        self.match = match
        self.seats = seats
        self.lang = lang
        self.verbosity = verbosity
        self.rule_reader = rule_reader
        self.helper = helper  # makes a bot to play one move for a human ("joue pour moi")
        self.private_policy = private_policy
        self.confidence_threshold = confidence_threshold
        self.running = True
        self.resumed = False
        # Set by a resume: what to say right after « Partie reprise après N coups » (the last
        # move, or the moves saved but never announced); `news_unannounced`: they were never said.
        self.resume_news: list[Utterance] = []
        self.news_unannounced = False
        self.save_path: str | None = None  # where the journal is, said when asked (« où est la sauvegarde »)
        self.heard: dict[int | None, LastSaid] = {}
        self.pending: dict[int, Intent] = {}  # an Ask or a Confirm waiting for its answer
        self.quit_asked = False  # « Quitter la partie ? » waits for « oui » (#29)
        # what each seat is in the middle of (a declaration list being played): values the
        # game's handlers return; reading a line changes none, taking it sets the seat's
        self.views: dict[int, Any] = ui.views
        self.channels: dict[int, int] = {i: 1 for i, s in enumerate(seats) if s.speaker is not None}
        self.thinking: Think | None = None  # the bot search under way
        self._think_since: float | None = None
        self._cued = False
        self.deferred: deque[Input] = deque()  # lines that wait for the bot's move
        self._ended_said = False
        self._said = 0
        self._out: list[Output] = []
        self._taken: tuple[str, str | None] | None = None  # (outcome, command) of the line in hand
        # Seats claimed by a page or a terminal (not a --private speaker), and the words said at
        # the table that free one (« libère Anne »): text -> seat or None, given by the runner.
        self.claims: dict[int, list[Any]] = {}
        self.release_target: Callable[[str], int | None] | None = None
        # Set by the runner when voice listens: what is sayable is told as an output (`Hearable`)
        self.tells_hearable = False
        self._hearable: Hearable | None = None
        self._hearable_key: Any = None
        self._voice_taken = False
        self._in_hand: Line | None = None  # the line being taken
        self._misses: dict[int | None, int] = {}  # voice lines not understood in a row, per seat
        # a query heard with little confidence, per seat, with the number of the line it came
        # in: answered when heard so twice in a row (no other line between the two)
        self._doubted: dict[int | None, tuple[str, int]] = {}
        self._lines = 0  # lines taken so far, of every source
        self._doubting = False  # the line in hand was heard with little confidence (issue 24)
        self._named = False  # the line in hand named its player (« Paul: bref ») or came from a seat's page
        # What the table has besides the game (the token reader), through the public seam only.
        self.extensions: list[Extension] = []
        self._answers: dict[str, LineHandler] = {}  # lines the extensions answer (`Seam.answers`)
        self.seam: Seam = _Seam(self)
        # Set by the runner when the companion holds secrets for several humans whose channels
        # are still to come (--web, --join): the deal is said, and play begins, only once each
        # human can hear their own hand (issue 25). `waiting`: the deal is held back now.
        self.deal_waits = False
        self.waiting = False

    # ------------------------------------------------------------------ entry points
    def extend(self, extension: Extension) -> None:
        """Take an extension (`companion.session.extension`): it sees and acts through `seam`."""
        self.extensions.append(extension)
        extension.attach(self.seam)

    def start(self) -> list[Output]:
        """Say the set-up (or where a resumed game stands), then let bots play until a human is due."""
        self._out = []
        if self.resumed:
            self.tell("core.resumed", None, Priority.IMPORTANT, n=len(self.match.history))
            if self.resume_news:
                self.emit(self.resume_news)
                if self.news_unannounced:
                    self._out.append(JournalAnnounced())  # said now: a next resume need not say them again
            for seat in self.seats:
                if seat.bot is not None:
                    seat.bot.observe([e for e in self.match.events() if e.visible_to(seat.bot.seat)])
            self.emit(self.ui.status(self.match, None))
            if self.deal_waits and self._unheard() and not self.match.over:
                self.waiting = True  # play goes on once each human can hear their own hand
                self._tell_waiting()
                return self._flush()
        else:
            self._out.append(Record(tuple(self.match.setup_events)))
            if self.deal_waits and self._unheard():
                self.waiting = True  # nothing dealt is said, nobody plays, until each can hear
                self._tell_waiting()
                return self._flush()
            self._narrate(self.match.setup_events)
        if self._shares_secrets():
            self.emit([say("core.private_advice", Priority.MESSAGE)], remember=False)
        self.advance()
        return self._flush()

    def handle(self, item: Input) -> list[Output]:
        """One input; the outputs it causes, in order."""
        self._out = []
        if isinstance(item, Line):
            self._line(item)
        elif isinstance(item, BotMove):
            self._bot_move(item)
        elif isinstance(item, Tick):
            self._tick(item.now)
        elif isinstance(item, Device):
            self._device(item)
        elif isinstance(item, Closed):
            self._closed(item)
        return self._flush()

    def say_now(self, utts: list[Utterance], remember: bool = True) -> list[Output]:
        """Outputs saying these utterances (the speakers' descriptions, the journal's path)."""
        self._out = []
        self.emit(utts, remember=remember)
        return self._flush()

    def _flush(self) -> list[Output]:
        if self.tells_hearable:
            self._tell_hearable()
        out, self._out = self._out, []
        return out

    def _tell_hearable(self) -> None:
        """Tell the voice listeners what is sayable when it changed, or after a voice line
        (its listener then knows the line was taken): a replica of the match made here, in the
        loop's thread, never the live match (issue 24 §4)."""
        m = self.match
        key = (len(m.history), id(m.history[-1]) if m.history else None, m.current, self.lang,
               tuple((k, id(v)) for k, v in self.views.items()))
        thinking = self.thinking is not None
        asking = tuple(range(len(self.seats))) if self.quit_asked else tuple(
            sorted(s for s, p in self.pending.items() if isinstance(p, (Confirm, ReadBack))))
        replying = tuple(sorted(((s, p.replies) for s, p in self.pending.items()
                                 if isinstance(p, Ask) and p.replies is not None), key=lambda sp: sp[0]))
        if key != self._hearable_key or self._hearable is None:
            self._hearable_key = key
            gen = self._hearable.generation + 1 if self._hearable is not None else 0
            self._hearable = Hearable(replica(m), self.ui.probe(), m.current, self.lang, gen, thinking, asking,
                                      replying)
        elif self._hearable.asking != asking or self._hearable.replying != replying:
            # a question asked or answered: the same replica, a new generation (issue 30, 24 §7)
            self._hearable = replace(self._hearable, asking=asking, replying=replying, bot_thinking=thinking,
                                     generation=self._hearable.generation + 1)
        elif self._hearable.bot_thinking != thinking:
            # the same sayable (the same generation: no grammar built again), a bot's search begun or done
            self._hearable = replace(self._hearable, bot_thinking=thinking)
        elif not self._voice_taken:
            return
        self._voice_taken = False
        self._out.append(self._hearable)

    # ------------------------------------------------------------------ who hears what
    def _lang(self, seat: int | None) -> str:
        return (self.seats[seat].lang if seat is not None else None) or self.lang

    def _verb(self, seat: int | None) -> Verbosity:
        v = self.seats[seat].verbosity if seat is not None else None
        return self.verbosity if v is None else v

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    def hears_privately(self, seat: int) -> bool:
        """Whether a private line for `seat` may be said: on its own channel, or aloud when
        it is the only human (or the table shares everything)."""
        return self.channels.get(seat, 0) > 0 or self.private_policy == "table" or self.humans == [seat]

    def _shares_secrets(self) -> bool:
        """Several humans, some without a channel, in a game with hidden holdings."""
        if self.private_policy == "table":
            return False
        lacking = [s for s in self.humans if not self.hears_privately(s)]
        if not lacking:
            return False
        state = self.match.state
        return any(self.match.game.hidden_holdings(state, s) for s in range(len(self.seats)))

    def _unheard(self) -> list[int]:
        """The humans who could not hear their own hand now."""
        return [s for s in self.humans if not self.hears_privately(s)]

    def _tell_waiting(self) -> None:
        names = [Raw(self.seats[s].name) for s in self._unheard()]
        self.tell("core.play_waits" if self.resumed else "core.deal_waits", None, Priority.IMPORTANT, names=names)

    def _deal_now(self) -> None:
        """Every human has a channel at last: the deal is said (each hand to its owner), and play begins."""
        self.waiting = False
        if self.resumed:  # dealt long ago: each hears what they hold now
            for seat in self.humans:
                self.emit(self.holdings(seat), private=True)
        else:
            self._narrate(self.match.setup_events)
        self.advance()

    def emit(self, utts: list[Utterance], *, remember: bool = True, private: bool = False, advise: bool = False) -> None:
        """Say each utterance to the listener it is meant for.

        `private`: utterances addressed to a seat are that player's secrets (a private
        event's narration, an answer about their own holdings), routed by `hears_privately`.
        `advise`: withheld ones are replaced, once, by how to get a private channel (the
        answer to « mon plateau », a refusal whose reason is a secret with no public stand-in);
        withheld narration is simply not said."""
        by_listener: dict[int | None, list[tuple[Utterance, bool]]] = {}
        advised = False
        # A refusal's reason or a help's example naming what only its player holds (`secret`)
        # is said to them alone; where it cannot be, its public stand-in is said instead.
        withheld = {u.to for u in utts if u.secret and u.to is not None and not self.hears_privately(u.to)}
        stood_in = {u.to for u in utts if u.stand_in}
        for utt in utts:
            listener = utt.to
            if listener is not None and self.seats[listener].bot is not None:
                continue  # bots read the state; nobody needs to hear their private lines
            if utt.stand_in and listener not in withheld:
                continue
            secret = (private or utt.secret) and listener is not None
            if secret and listener is not None and not self.hears_privately(listener):
                if advise and not advised and listener not in stood_in:  # a question of theirs: say why there is no answer
                    advised = True
                    self._say(say("core.private_needs_channel", Priority.TEXT, None, listener), False)
                continue
            self._say(utt, secret)
            by_listener.setdefault(listener, []).append((utt, secret))
        if remember and by_listener:
            self._said += 1
            for listener, said in by_listener.items():
                self.heard[listener] = LastSaid(said, 0, self._said)

    def _say(self, utt: Utterance, private: bool, spell: bool = False) -> None:
        self._out.append(Say(utt.to, utt, private, self._lang(utt.to), self._verb(utt.to), spell))

    def tell(self, msg_id: str, seat: int | None = None, priority: Priority = Priority.TEXT, **params: Any) -> None:
        self.emit([say(msg_id, priority=priority, to=seat, **params)])

    # ------------------------------------------------------------------ the game moving on
    def _narrate(self, events: list[Event]) -> None:
        utts: list[Utterance] = []
        for ev in events:
            utts.extend(self.ui.narrate(ev, self.match))
        self.emit(utts, private=True)
        for bot_seat in self.seats:
            if bot_seat.bot is not None:
                bot_seat.bot.observe([e for e in events if e.visible_to(bot_seat.bot.seat)])

    def _played(self, seat: int, action: Any, events: list[Event]) -> None:
        self._out.append(JournalAction(seat, self.match.game.action_to_json(action)))
        self._out.append(Record(tuple(events)))
        self._narrate(events)

    def advance(self) -> None:
        """A bot due to play starts its search; else the human to play is prompted, or the game ends."""
        if self.match.over:
            self._finish()
            return
        seat = self.match.current
        assert seat is not None
        bot = self.seats[seat].bot
        if bot is None:
            self.emit(self.ui.turn_prompt(self.match, seat))
            return
        self._think(Think(seat, len(self.match.history), bot, self.match.state))

    def _think(self, think: Think) -> None:
        self.thinking = think
        self._think_since = None
        self._cued = False
        self._out.append(think)

    def _bot_move(self, move: BotMove) -> None:
        think = self.thinking
        if think is None or move.ply != len(self.match.history) or move.seat != think.seat or move.ply != think.ply:
            return  # stale: the state changed since the search began
        self.thinking = None
        if think.autoplay:
            self._act(move.seat, move.action)
        else:
            events = self.match.play(move.seat, move.action)  # a bot's choice is legal by contract
            self._played(move.seat, move.action, events)
            self.advance()
        self._drain()

    def _drain(self) -> None:
        """Lines that came while the bot searched, in their order, until a new search starts."""
        while self.deferred and self.thinking is None and self.running:
            item = self.deferred.popleft()
            if isinstance(item, Line):
                self._line(item, drained=True)
            elif isinstance(item, Closed):
                self._closed(item)

    def _tick(self, now: float) -> None:
        if self.thinking is None or self._cued:
            return
        if self._think_since is None:
            self._think_since = now
        elif now - self._think_since >= THINK_CUE_SECONDS and self.humans:
            self._cued = True
            self._out.append(Cue(None, THINK_EARCON))

    def _finish(self) -> None:
        if self._ended_said:
            return
        self._ended_said = True
        out = self.match.outcome()
        self._out.append(JournalEnd(tuple(out.scores), tuple(out.winners)))
        self._out.append(Ended(tuple(out.scores), tuple(out.winners)))
        if self.humans:
            # The players may still ask for the scores or to hear the end again; they leave with "quitte".
            self.emit([say("core.game_over_hint", Priority.MESSAGE)], remember=False)
        else:
            self._stop()

    def _quit(self) -> None:
        self.quit_asked = False
        self.tell("core.goodbye" if self.match.over else "core.saved_and_quit", None, Priority.IMPORTANT)
        self._stop()

    def _quit_answer(self, word: str | None, doubtful: bool = False) -> bool:
        """The line after « Quitter la partie ? »: « oui » quits; « non » or any other line
        keeps playing (said once), the other line then taken as usual. True: the line is used.
        A « oui » or « fin » heard with little confidence asks again (issue 24)."""
        if doubtful and word in ("yes", "quit"):
            self._taking("confirm", "quit")
            self.tell("core.yes_unsure", None, Priority.IMPORTANT)
            self.tell("core.quit_confirm", None, Priority.IMPORTANT)
            return True
        self.quit_asked = False
        if word == "yes":
            self._taking("shared", "quit")
            self._quit()
            return True
        if word == "quit":
            return False  # asked again: the question again
        self.tell("core.quit_cancelled", None, Priority.IMPORTANT)
        if word == "no":
            self._taking("shared", "no")
            return True
        return False

    def _stop(self) -> None:
        self.running = False
        self._out.append(Stop())

    # ------------------------------------------------------------------ devices, end of input
    def _device(self, item: Device) -> None:
        ev = item.event
        if isinstance(ev, SeatClaimed) and 0 <= ev.seat < len(self.seats):
            self.channels[ev.seat] = self.channels.get(ev.seat, 0) + 1
            self._out.append(Attach(ev.seat, ev.channel))
            if item.source in CLAIM_SOURCES:
                self.claims.setdefault(ev.seat, []).append(ev.channel)
                # The table hears that a phone or terminal took the seat, never what it hears.
                self.tell(CLAIM_SOURCES[item.source], None, Priority.MESSAGE, player=Raw(self.seats[ev.seat].name))
            if self.waiting:
                if self._unheard():
                    self._tell_waiting()
                else:
                    self._deal_now()
            elif self.seats[ev.seat].bot is None:
                # Its own channel at last: the player hears, privately, what they hold.
                self.emit(self.holdings(ev.seat), private=True)
        elif isinstance(ev, SeatReleased) and self.channels.get(ev.seat, 0) > 0:
            self.channels[ev.seat] -= 1
            self._out.append(Detach(ev.seat, ev.channel))
            claims = self.claims.get(ev.seat, [])
            if ev.channel in claims:
                claims.remove(ev.channel)
                self.tell(RELEASE_SOURCES.get(item.source, "core.web.seat_released"), None, Priority.MESSAGE,
                          player=Raw(self.seats[ev.seat].name))
        else:
            for extension in self.extensions:
                extension.device(item)

    def holdings(self, seat: int) -> list[Utterance]:
        """What only `seat` holds, as the game answers its own query for it (« main »,
        « mon plateau »), or the private part of its status; [] when it holds no secret."""
        match = self.match
        if match.over or not match.game.hidden_holdings(match.state, seat):
            return []
        templates = _templates(self.game_name, self._lang(seat))
        for command in HOLDINGS_QUERIES:
            phrase = templates.get(command)
            if not isinstance(phrase, str) or "{" in phrase:
                continue
            intent = self.ui.parse(phrase, match, seat)
            if isinstance(intent, Answer) and intent.command == command:
                mine = [u for u in intent.utterances if u.to == seat]
                if mine:
                    return mine
        return [u for u in self.ui.status(match, seat) if u.to == seat and u.earcon == "private"]

    def _closed(self, item: Closed) -> None:
        if item.source != "keyboard" or not self.running or not self.humans:
            return
        if self.thinking is not None:
            self.deferred.append(item)
            return
        # Input closed (Ctrl-D): the journal is already safe on disk.
        self.tell("core.goodbye" if self.match.over else "core.saved_and_quit", None, Priority.IMPORTANT)
        self._stop()

    # ------------------------------------------------------------------ a line of words
    def seat_of(self, line: str) -> tuple[int | None, str]:
        """`Bob: mon plateau` is Bob speaking, and so is « Bob, joue pour moi » (a name then a
        shared word); otherwise the player to move (or the only human)."""
        head, sep, rest = line.partition(":")
        if sep:
            for i, s in enumerate(self.seats):
                if fold(s.name) == fold(head) and s.bot is None:
                    return i, rest.strip()
        if global_command(line) is None:
            folded = fold(line)
            for i, s in enumerate(self.seats):
                name = fold(s.name)
                if s.bot is None and name and folded.startswith(name + " "):
                    after = line.strip()[len(s.name):].lstrip(" ,").strip()
                    if global_command(after) is not None:
                        return i, after
        current = self.match.current
        if current is not None and self.seats[current].bot is None:
            return current, line
        humans = self.humans
        return (humans[0] if humans else None), line

    def _line(self, item: Line, drained: bool = False) -> None:
        self._lines += 1
        raw = item.text.strip()
        seat, text = (item.seat, raw) if item.seat is not None else self.seat_of(raw)
        self._named = item.seat is not None or text != raw
        if item.source == "voice" and not drained:  # printed as heard at once, even if it waits for a bot
            self._voice_taken = True
            if self._voice_heard(item, seat):
                return
        if self.thinking is not None and global_command(text) not in WHILE_THINKING:
            self.deferred.append(item)  # taken after the bot's move, in order (its seat then too)
            return
        self._out.append(Interrupt(None))  # new input cuts speech of text priority
        if seat is not None and self.channels.get(seat, 0):
            self._out.append(Interrupt(seat))
        if not text:
            return
        if item.source == "keyboard" and self.release_target is not None:
            target = self.release_target(text)
            if target is not None:
                self._release(target, item)
                return
        # while the deal waits, only the words that act on the session; the answer to
        # « Quitter la partie ? » too (#29), whatever it is
        if self.waiting and not self.quit_asked and global_command(text) not in WHILE_WAITING:
            self._out.append(InputTaken(item.source, seat, item.text, "refuse", None))
            self._tell_waiting()
            return
        self._taken = None
        self._in_hand = item
        at = len(self._out)
        self._take_line(text, seat, item.confidence)
        outcome, command = self._taken or ("not_understood", None)
        if outcome != "not_understood":
            # a miss « in a row » ends with a line understood, typed or said; two doubtful
            # hearings agree only one right after the other
            self._misses.pop(seat, None)
            self._doubted.pop(seat, None)
        # logged before what it caused: the log reads as the table lived it
        self._out.insert(at, InputTaken(item.source, seat, item.text, outcome, command, item.heard, item.confidence,
                                        item.rival_margin))

    # ------------------------------------------------------------------ what was heard (issue 24 §6)
    def _voice_heard(self, item: Line, seat: int | None) -> bool:
        """A voice line is printed as heard (« Entendu : annule »), said in verbose only. Talk
        that is no command (people talking at the table) ends there: logged, nothing changed,
        nothing said, nobody cut off. True: the line is used up."""
        heard = (item.heard if item.heard is not None else item.text).strip()
        # talk into a seat's own microphone is that player's, not the table's: not printed
        if heard and not (item.talk and item.seat is not None):
            utt = say("core.voice.heard", Priority.TEXT, None, None, text=Raw(heard))
            self._out.append(Echo(None, utt, self._lang(None), self._verb(None)))
        if item.talk:
            self._out.append(InputTaken(item.source, seat, item.text, "talk", None, item.heard, item.confidence))
            return True
        return False

    def _read(self, line: str, seat: int) -> tuple[Intent | None, Any]:
        """The intent of a line for `seat` now: the typed command the recogniser read with the
        grammar (`Line.command`) is handled as it is, never read again from its words; a voice
        line heard near a command but not understood (`Line.nearest`) is read as nothing."""
        item = self._in_hand
        view = self.views.get(seat)
        if item is not None and item.command is not None:
            return self.ui.handle(item.command, self.match, seat, view)
        if item is not None and item.source == "voice" and item.nearest is not None:
            return None, view
        return self.ui.read(line, self.match, seat, view)

    def _not_understood(self, line: str, seat: int) -> None:
        """One rule (issue 24 §6): typed, « Je n'ai pas compris » and the three nearest sayable
        commands; by voice, a short earcon for a first miss, then « Je n'ai pas compris » with
        the nearest command for a second one in a row."""
        self._taking("not_understood", None)
        item = self._in_hand
        if item is not None and item.source == "voice":
            misses = self._misses[seat] = self._misses.get(seat, 0) + 1
            if misses == 1:
                self._out.append(Cue(seat if self.channels.get(seat, 0) else None, NOT_HEARD_EARCON))
                return
            nearest = [item.nearest] if item.nearest else self.nearest(item.heard or line, seat, 1)
            self.tell("core.voice.not_understood", seat, Priority.IMPORTANT)
            self._suggest(nearest, seat)
            return
        echo = line if len(line) <= ECHO_CHARS else line[:ECHO_CHARS].rstrip() + "…"  # a pasted page is not read back
        self.tell("core.not_understood", seat, Priority.IMPORTANT, text=Raw(echo))
        if not fold(line):  # no word at all (« ? »): nothing is near it, the help is
            self.emit(self.ui.help(self.match, seat))
            return
        self._suggest(self.nearest(line, seat, NEAREST), seat)

    def nearest(self, line: str, seat: int, n: int) -> list[str]:
        """The `n` sayable phrases of `seat` now nearest `line`: those holding its rarer words
        first (`companion.language.suggest`)."""
        from companion.language.suggest import nearest_phrases

        lang = self._lang(seat)
        line = line[:NEAREST_CHARS]  # a pasted page is near nothing; compared whole it held the table for seconds
        phrases = self.ui.phrases(self.match, seat, lang=lang).concrete
        # the shared « oui » / « non » are no use here: a line not understood drops the question
        # it followed (`_line`), so they would answer nothing (a game's own « oui », a KIKOI
        # answer, has its own command and stays)
        phrases = [(p, c) for p, c in phrases if c not in FALL_THROUGH]
        return nearest_phrases(line, phrases, lang, n)

    def _suggest(self, phrases: list[str], seat: int) -> None:
        """« Essaie : … ». What `seat` may say now can tell what they hold (a KIKOI request
        names a token they lack): then only to them, and to the others « dis aide »."""
        if not phrases:
            return
        hidden = bool(self.match.game.hidden_holdings(self.match.state, seat))
        utt = say("core.nearest", Priority.TEXT, None, seat, phrases=[Raw(p) for p in phrases])
        if hidden:
            self.emit([secret(utt), stand_in(say("core.nearest_hidden", Priority.TEXT, None, seat))])
        else:
            self.emit([utt])

    def _release(self, seat: int, item: Line) -> None:
        """« libère Anne » at the table: the page or terminal holding Anne's seat is let go (the
        table asks its owner to free it; the core hears back a SeatReleased)."""
        self._out.append(InputTaken(item.source, None, item.text, "shared", "release"))
        if self.claims.get(seat):
            self._out.append(Release(seat))
        else:
            self.tell("core.web.not_claimed", None, Priority.MESSAGE, player=Raw(self.seats[seat].name))

    def _taking(self, outcome: str, command: str | None) -> None:
        if self._taken is None:
            self._taken = (outcome, command)

    def _take_line(self, line: str, seat: int | None, confidence: float | None) -> None:
        if self.extensions:  # an extension's own words: the reader's « c'est quoi ? », « annule la lecture »
            handler = self._answers.get(phrase_key(line))
            if handler is not None and handler(seat):
                return
            for extension in self.extensions:
                extension.other_line(seat)
        word = global_command(line)
        doubtful = self._doubtful(confidence)
        if self.quit_asked and self._quit_answer(word, doubtful):
            return
        pending = self.pending.pop(seat, None) if seat is not None else None
        if pending is not None and seat is not None:
            if word in KEEPS_PENDING:  # "repeat" or "help" keeps the question open
                self.pending[seat] = pending
                self._global(word, seat)
                return
            if word == "yes" and doubtful and isinstance(pending, (Confirm, ReadBack)):
                self._unsure_yes(seat, pending)
                return
            if isinstance(pending, ReadBack):
                if word == "yes":
                    self._taking("shared", pending.word)
                    self._global(pending.word, seat, sure=True)
                    return
            elif isinstance(pending, Confirm):
                if word == "yes":
                    self._act(seat, pending.action)
                    return
                if word == "no":
                    self._taking("shared", "no")
                    self.tell("core.cancelled", seat)
                    return
            elif isinstance(pending, Ask):
                resolved = pending.resolve(line)
                if resolved is not None:
                    self._intent(seat, resolved, line, confidence)
                    return
            if word in ("no", "undo") or yes_no(line) in ("no", "cancel"):
                # « annule », « non », "cancel" answer the question or the read-back: it is
                # dropped and nothing else happens (« annule » never takes a move back then)
                self._taking("shared", "no")
                self.tell("core.cancelled", seat)
                return
        if word is not None and word not in ("yes", "no"):
            if doubtful and word in CHANGES_STATE and seat is not None:
                self._read_back(word, seat, line)
                return
            if doubtful and seat is not None and self._unconfirmed(word, line, seat):
                return
            self._global(word, seat)
            return
        if word in ("yes", "no") and pending is None:
            if seat is None or self.ui.parse(line, self.match, seat) is None:
                self._taking("refuse", word)
                self.tell("core.nothing_to_confirm", seat)
                return
        if seat is None:
            self._taking("refuse", None)
            self.tell("core.no_player", None)
            return
        intent, view = self._read(line, seat)
        if intent is None:
            self.views[seat] = view
            self._not_understood(line, seat)
            return
        # a question back that names what it understood and waits for the answer (2kissa10's
        # « which reading? »: `Ask.replies`) is itself the read-back, asked at once: a French
        # values-only equation is heard at 0.02-0.14, and taken as a miss it was never asked
        asks_back = isinstance(intent, Ask) and intent.replies is not None
        if doubtful and isinstance(intent, (Answer, Refuse, Ask)) and not asks_back and self._unconfirmed(
                self._command(intent) or fold(line), line, seat):
            return  # the view stays: nothing was taken
        self.views[seat] = view
        self._intent(seat, intent, line, confidence)

    # ------------------------------------------------------------------ doubt (issue 24)
    def _doubtful(self, confidence: float | None) -> bool:
        """A line heard with less confidence than the threshold (voice only; typed: None)."""
        self._doubting = confidence is not None and confidence < self.confidence_threshold
        return self._doubting

    def _unconfirmed(self, key: str, line: str, seat: int) -> bool:
        """A query, a refusal or a question back heard by voice with little confidence is not
        said at once (issue 24: talk at the table that sounds like « état » must not make the
        companion speak): it is a miss (the short earcon, then « Je n'ai pas compris » with the
        nearest command), unless the same was heard so just before — two hearings that agree
        are answered. True: the line is used up as a miss."""
        if self._doubted.get(seat) == (key, self._lines - 1):
            del self._doubted[seat]
            return False
        self._doubted[seat] = (key, self._lines)
        self._not_understood(line, seat)
        return True

    def _read_back(self, word: str, seat: int, line: str) -> None:
        """A shared word that changes something, heard with little confidence: said back, and
        carried out only on a sure « oui ». Quit asks its own question (#29), answered the same way."""
        if word == "quit":
            self._taking("confirm", "quit")
            self.quit_asked = True
            self.tell("core.quit_confirm", None, Priority.IMPORTANT)
            return
        self._taking("confirm", word)
        question = say("core.you_said", Priority.TEXT, "question", seat, text=Raw(line))
        self.pending[seat] = ReadBack(word, question, command=word)
        self.emit([question])

    def _unsure_yes(self, seat: int, pending: Intent) -> None:
        """A « oui » heard with little confidence answers nothing: the question again."""
        self.pending[seat] = pending
        self._taking("confirm", self._command(pending) if not isinstance(pending, ReadBack) else pending.word)
        self.tell("core.yes_unsure", seat, Priority.IMPORTANT)
        question = pending.question if isinstance(pending, (Confirm, ReadBack)) else None
        if question is not None:
            self.emit([question])

    def _command(self, intent: Intent) -> str | None:
        if intent.command is not None:
            return intent.command
        if isinstance(intent, (Act, Confirm)):
            return action_command(self.match.game, intent.action)
        return None

    def _intent(self, seat: int, intent: Intent, line: str = "", confidence: float | None = None) -> None:
        if isinstance(intent, Seq):
            for item in intent.items:
                self._intent(seat, item, line, confidence)
        elif isinstance(intent, Act):
            if confidence is not None and confidence < self.confidence_threshold:
                # A voice line heard with little confidence is read back before it changes anything.
                question = say("core.you_said", Priority.TEXT, "question", seat, text=Raw(line)) if intent.said is None \
                    else say("core.you_said_meaning", Priority.TEXT, "question", seat, text=Raw(line), meaning=intent.said)
                self._intent(seat, Confirm(intent.action, question, command=intent.command), line)
                return
            self._act(seat, intent.action, self._command(intent))
        elif isinstance(intent, Confirm):
            self._taking("confirm", self._command(intent))
            self.pending[seat] = intent
            self.emit([intent.question])
        elif isinstance(intent, Ask):
            self._taking("ask", intent.command)
            self.pending[seat] = intent
            self.emit([intent.question])
        elif isinstance(intent, Answer):
            self._taking("answer", intent.command)
            self.emit(intent.utterances, private=True, advise=True)
        elif isinstance(intent, Refuse):
            self._taking("refuse", intent.command)
            self.emit(intent.utterances, advise=True)  # a secret reason withheld: said why, as for an answer

    def _act(self, seat: int, action: Any, command: str | None = None) -> None:
        command = command or action_command(self.match.game, action)
        try:
            events = self.match.play(seat, action)
        except IllegalAction as exc:
            self._taking("refuse", command)
            self.emit(self.refusal(exc, seat), advise=True)
            return
        self._taking("act", command)
        self._played(seat, action, events)
        self.advance()

    def refusal(self, exc: IllegalAction, seat: int) -> list[Utterance]:
        """Why it was refused and what is possible; the state is unchanged."""
        if exc.code == "game_over":
            return [say("core.refused.game_over", Priority.IMPORTANT, "error", seat)]
        if exc.code == "not_your_turn":
            current = self.match.current
            name = self.seats[current].name if current is not None else ""
            return [say("core.refused.not_your_turn", Priority.IMPORTANT, "error", seat, player=Raw(name))]
        utts = self.ui.refusal(exc, self.match, seat)
        cat = catalog(self._lang(seat))
        known = [u for u in utts if all(not isinstance(p, Msg) or cat.has(p.id) for p in u.parts)]
        if not known:
            known = [say("core.refused.other", Priority.IMPORTANT, "error", seat, code=exc.code)]
        return known

    # ------------------------------------------------------------------ shared words
    def _global(self, word: str, seat: int | None, sure: bool = False) -> None:
        self._taking("answer" if word in ANSWERS else "shared", word)
        if word == "help":
            self.emit([say("core.help_global", Priority.TEXT, to=seat)] + self.ui.help(self.match, seat))
        elif word == "repeat":
            self._repeat(seat)
        elif word == "status":
            self.emit(self.ui.status(self.match, seat))
        elif word == "undo":
            self._undo(seat)
        elif word == "quit":
            if (self.match.over and not self._doubting) or self.quit_asked or sure:
                self._quit()
            else:
                # #29: nothing ends by accident (« fin » also ends the reader's modes): the
                # game goes on unless the next line is « oui ».
                self.quit_asked = True
                self.tell("core.quit_confirm", None, Priority.IMPORTANT)
        elif word in ("terse", "normal", "verbose"):
            # « bref » alone sets the table's verbosity (the narration of moves everyone hears);
            # « Paul: bref », or a line from Paul's page, sets Paul's own (his private lines).
            level = Verbosity[word.upper()]
            own = seat if self._named else None
            self.set_verbosity(own, level)
            self._out.append(JournalSetting(own, "verbosity", level.name.lower()))
            self.tell(f"core.verbosity.{word}", seat)
        elif word in ("faster", "slower", "louder", "quieter"):
            self._out.append(Tune(seat, word, self._lang(seat), self._verb(seat)))
        elif word == "where_saved":
            if self.save_path is None:
                self.tell("core.not_saved", seat)
            else:
                self.tell("core.journal_at", seat, path=Raw(self.save_path))
        elif word == "history":
            self._history(seat)
        elif word == "rule":
            self._rule(seat)
        elif word == "scan_code":  # issue 28: the camera is the table's edge; the game goes on
            self._out.append(ScanRules(seat, self._lang(seat)))
        elif word == "autoplay":
            self._autoplay(seat)
        elif word in ("french", "english"):
            lang = "fr" if word == "french" else "en"
            if seat is None:
                self.lang = lang
            else:
                self.seats[seat].lang = lang
            self.tell("core.language_set", seat)

    def set_verbosity(self, seat: int | None, level: Verbosity) -> None:
        """The table's verbosity (seat None) or one player's own."""
        if seat is None:
            self.verbosity = level
        else:
            self.seats[seat].verbosity = level

    def apply_settings(self, settings: list[tuple[int | None, str, str]]) -> None:
        """Settings a save recorded (`JournalSetting`), in order: a resume keeps them."""
        for seat, key, value in settings:
            if key == "verbosity" and value.upper() in Verbosity.__members__ and (seat is None or 0 <= seat < len(self.seats)):
                self.set_verbosity(seat, Verbosity[value.upper()])

    def _refuse(self, word: str) -> None:
        self._taken = ("refuse", word)

    def _rule(self, seat: int | None) -> None:
        """The audio rules' chapter about what is happening now, read to whoever asked."""
        chapter = self.ui.rule_chapter(self.match) or "turn"
        utts = self.rule_reader(self.game_name, chapter, self._lang(seat)) if self.rule_reader else []
        if not utts:
            self.tell("core.rule_hint", seat, game=self.game_name, chapter=chapter)
            return
        self.emit([Utterance(u.parts, Priority.TEXT, u.earcon, seat) for u in utts])

    def _autoplay(self, seat: int | None) -> None:
        """The game's default bot plays this one move for the player (learning, tiredness)."""
        if self.match.over:
            self._refuse("autoplay")
            self.emit(self.refusal(IllegalAction("game_over"), seat if seat is not None else 0))
            return
        if seat is None or self.match.current != seat or self.helper is None:
            self._refuse("autoplay")
            self.tell("core.cannot_autoplay", seat, Priority.IMPORTANT)
            return
        self._taken = ("act", "autoplay")
        bot = self.helper(seat)
        bot.observe([e for e in self.match.events() if e.visible_to(seat)])
        if self._verb(seat) == Verbosity.VERBOSE:  # else the move itself, said at once, is the answer (#29)
            self.tell("core.autoplay", seat)
        self._think(Think(seat, len(self.match.history), bot, self.match.state, autoplay=True))

    def _repeat(self, seat: int | None) -> None:
        candidates = [h for h in (self.heard.get(seat), self.heard.get(None)) if h is not None and h.says]
        heard = max(candidates, key=lambda h: h.order) if candidates else None
        if heard is None:
            self.tell("core.nothing_to_repeat", seat)
            return
        heard.repeats += 1
        for utt, private in heard.says:
            # said twice already: spell it
            self._say(Utterance(utt.parts, Priority.TEXT, None, utt.to), private, spell=heard.repeats >= 2)

    def _undo(self, seat: int | None) -> None:
        """Take back the speaker's own last move (and the bots' moves after it)."""
        m = self.match
        humans = set(self.humans)
        last = next((step for step in reversed(m.history) if step.seat in humans), None)
        # Once the game has ended (and its end is in the journal) nothing is taken back.
        if m.over or last is None or not self.ui.undoable(self.match):
            self._refuse("undo")
            self.tell("core.cannot_undo", seat, Priority.IMPORTANT)
            return
        if seat is not None and last.seat != seat:
            # At a shared keyboard « Paul: annule » must not take back Marie's move.
            self._refuse("undo")
            self.tell("core.cannot_undo_other", seat, Priority.IMPORTANT, player=Raw(self.seats[last.seat].name))
            return
        while m.history:
            step = m.undo()
            self._out.append(JournalUndo())
            if step.seat in humans:
                break
        self._out.append(Record((Undone(seat=step.seat),)))
        self.tell("core.undone", None, Priority.MESSAGE, player=Raw(self.seats[step.seat].name))
        self.advance()

    def _history(self, seat: int | None) -> None:
        """The public events since this player last acted (what happened while I was away)."""
        if not self.ui.history_allowed(self.match):
            self.tell("core.history_not_allowed", seat)
            return
        steps = self.match.history
        mine_at = [i for i, step in enumerate(steps) if seat is not None and step.seat == seat]
        start = mine_at[-1] + 1 if mine_at else 0
        if start == len(steps) and len(mine_at) > 1:
            # Nothing since my own last move (it ended a round, or nobody has played since):
            # what happened since my move before it, mine included (issue #17).
            start = mine_at[-2] + 1
        utts: list[Utterance] = []
        mine = seat is not None and self.hears_privately(seat)
        for step in steps[start:]:
            for ev in step.events:
                if ev.visible_to(seat):
                    utts.extend(u for u in self.ui.narrate(ev, self.match) if u.to is None or (mine and u.to == seat))
        if not utts:
            self.tell("core.history_empty", seat)
            return
        self.emit([Utterance(u.parts, Priority.TEXT, None, seat) for u in utts])


class _Seam:
    """The core as an extension sees it (`companion.session.extension.Seam`): the one place
    an extension's request reaches the core's own methods and outputs."""

    def __init__(self, core: SessionCore) -> None:
        self._core = core

    @property
    def game_name(self) -> str:
        return self._core.game_name

    @property
    def match(self) -> Match[Any, Any]:
        return self._core.match

    @property
    def ui(self) -> GameUI:
        return self._core.ui

    @property
    def humans(self) -> list[int]:
        return self._core.humans

    def seat_name(self, seat: int) -> str:
        return self._core.seats[seat].name

    def is_bot(self, seat: int) -> bool:
        return self._core.seats[seat].bot is not None

    def hears_privately(self, seat: int) -> bool:
        return self._core.hears_privately(seat)

    def answers(self, phrases: Iterable[str], handler: LineHandler) -> None:
        for phrase in phrases:
            self._core._answers[phrase_key(phrase)] = handler

    def say(self, utts: list[Utterance], *, private: bool = False, advise: bool = False,
            remember: bool = True) -> None:
        self._core.emit(utts, private=private, advise=advise, remember=remember)

    def play(self, seat: int, action: Any, *, source: str, text: str) -> None:
        core = self._core
        at = len(core._out)
        core._act(seat, action)
        # the --log file tells a move read by an extension (the journal does not: same move)
        core._out.insert(at, InputTaken(source, seat, text, "act", action_command(core.match.game, action)))

    def shared(self, word: str, seat: int | None) -> None:
        self._core._global(word, seat)

    def taken(self, outcome: str, command: str | None) -> None:
        self._core._taking(outcome, command)


@cached
def _templates(game: str, lang: str) -> dict[str, Any]:
    """The game's canonical spoken phrases (companion/language/<lang>/<game>.json), read once."""
    try:
        found = spoken(game, "templates", lang)
    except TableError:  # a game without phrase tables: its status says what it holds
        return {}
    return found if isinstance(found, dict) else {}
