"""The one authoritative session: takes commands from every input, applies them to the
match, journals them, and fans speech out to every output.

Inputs (the keyboard now; a token reader, voice or a web page later) call `handle(line,
seat)`. Outputs are the printed line (always: braille displays and screen readers read
it) and speakers: the table's, and a private one per player who has their own channel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.commands import global_command
from companion.core import Bot, Event, IllegalAction, Match
from companion.games.base import Act, Answer, Ask, Confirm, GameUI, Intent, Refuse, Seq
from companion.journal import Journal
from companion.narration import Msg, Priority, Raw, Utterance, Verbosity, catalog, say, spell

RATE_STEP = 25
# Shared words that leave a pending question or read-back open.
KEEPS_PENDING = frozenset({"repeat", "help", "status", "terse", "normal", "verbose", "faster", "slower", "louder", "quieter"})


@dataclass
class Seat:
    name: str
    bot: Bot | None = None
    lang: str | None = None  # None: the table's language
    verbosity: Verbosity | None = None  # None: the table's verbosity
    speaker: Any = None  # a private channel (companion.adapters.speaker.Speaker) or None


@dataclass
class Heard:
    """What one listener heard last, for `repeat` (and spelling on a second repeat)."""

    utterances: list[Utterance] = field(default_factory=list)
    repeats: int = 0
    order: int = 0  # when it was said: `repeat` says the latest of public and private


class Session:
    def __init__(
        self,
        game_name: str,
        ui: GameUI,
        match: Match[Any, Any],
        seats: list[Seat],
        *,
        lang: str = "fr",
        verbosity: Verbosity = Verbosity.NORMAL,
        speaker: Any = None,
        journal: Journal | None = None,
        log: Path | None = None,
        out: Callable[[str], None] = print,
    ) -> None:
        self.game_name = game_name
        self.ui = ui
        self.match = match
        self.seats = seats
        self.lang = lang
        self.verbosity = verbosity
        self.speaker = speaker
        self.journal = journal
        self.log_path = log
        self.out = out
        self.running = True
        self.heard: dict[int | None, Heard] = {}
        self.pending: dict[int, Intent] = {}  # an Ask or a Confirm waiting for its answer
        self._log_fh = log.open("a", encoding="utf-8") if log else None
        self._ended_said = False
        self.resumed = False
        self._said = 0
        self.helper: Callable[[int], Bot] | None = None  # makes a bot to play a move for a human

    def start_or_resume(self) -> None:
        self.start(resumed=self.resumed)

    # ------------------------------------------------------------------ speaking
    def _lang(self, seat: int | None) -> str:
        return (self.seats[seat].lang if seat is not None else None) or self.lang

    def _verb(self, seat: int | None) -> Verbosity:
        v = self.seats[seat].verbosity if seat is not None else None
        return self.verbosity if v is None else v

    def render(self, utt: Utterance, seat: int | None) -> str:
        return catalog(self._lang(seat)).render(utt, self._verb(seat))

    def emit(self, utts: list[Utterance], *, remember: bool = True) -> None:
        """Print and speak each utterance for the listener it is meant for."""
        by_listener: dict[int | None, list[Utterance]] = {}
        for utt in utts:
            listener = utt.to
            if listener is not None and self.seats[listener].bot is not None:
                continue  # bots read the state; nobody needs to hear their private lines
            self._say(utt, listener)
            by_listener.setdefault(listener, []).append(utt)
        if remember:
            self._said += 1
            for listener, said in by_listener.items():
                self.heard[listener] = Heard(said, 0, self._said)

    def _say(self, utt: Utterance, listener: int | None, text: str | None = None) -> None:
        text = text if text is not None else self.render(utt, listener)
        if listener is None:
            self.out(text)
            if self.speaker is not None:
                self.speaker.say(text, utt.priority, utt.earcon, self._lang(None))
            return
        seat = self.seats[listener]
        if seat.speaker is not None:
            # RULES KIA-10: a private holding is said only to its owner, on their channel;
            # the shared screen shows only that something was said to them.
            note = catalog(self.lang).render(say("core.said_privately", player=Raw(seat.name)))
            self.out(f"[{seat.name}] {note}")
            seat.speaker.say(text, utt.priority, utt.earcon or "private", self._lang(listener))
        else:
            self.out(f"[{seat.name}] {text}")
            if self.speaker is not None:
                self.speaker.say(text, utt.priority, utt.earcon, self._lang(listener))

    def tell(self, msg_id: str, seat: int | None = None, priority: Priority = Priority.TEXT, **params: Any) -> None:
        self.emit([say(msg_id, priority=priority, to=seat, **params)])

    # ------------------------------------------------------------------ events
    def _record(self, events: list[Event]) -> None:
        if self._log_fh is not None:
            import json

            for ev in events:
                self._log_fh.write(json.dumps(ev.to_json(), ensure_ascii=False) + "\n")
            self._log_fh.flush()

    def _narrate(self, events: list[Event]) -> None:
        utts: list[Utterance] = []
        for ev in events:
            utts.extend(self.ui.narrate(ev, self.match))
        self.emit(utts)
        for bot_seat in self.seats:
            if bot_seat.bot is not None:
                bot_seat.bot.observe([e for e in events if e.visible_to(bot_seat.bot.seat)])

    def _played(self, seat: int, action: Any, events: list[Event]) -> None:
        if self.journal is not None:
            self.journal.action(seat, self.match.game.action_to_json(action))
        self._record(events)
        self._narrate(events)
        if self.journal is not None and hasattr(self.journal, "announced"):
            self.journal.announced()  # the move is said: a resume need not say it again

    # ------------------------------------------------------------------ flow
    def start(self, resumed: bool = False) -> None:
        """Say the set-up (or where a resumed game stands), then let bots play until a human is due."""
        if resumed:
            self.tell("core.resumed", priority=Priority.IMPORTANT, n=len(self.match.history))
            self._record([])
            for seat in self.seats:
                if seat.bot is not None:
                    seat.bot.observe([e for e in self.match.events() if e.visible_to(seat.bot.seat)])
            self.emit(self.ui.status(self.match, None))
        else:
            self._record(self.match.setup_events)
            self._narrate(self.match.setup_events)
        self.advance()

    def notices(self) -> None:
        """Say what went wrong with an output since last time (a device unplugged mid-game)."""
        for spk in [self.speaker, *(s.speaker for s in self.seats)]:
            if spk is not None and hasattr(spk, "notices"):
                self.emit(list(spk.notices()), remember=False)

    def advance(self) -> None:
        """Bots play their turns; then the human to play is prompted, or the game ends."""
        self.notices()
        while not self.match.over:
            seat = self.match.current
            assert seat is not None
            bot = self.seats[seat].bot
            if bot is None:
                self.emit(self.ui.turn_prompt(self.match, seat))
                return
            action = bot.choose(self.match.state)
            events = self.match.play(seat, action)
            self._played(seat, action, events)
        self._finish()

    def _finish(self) -> None:
        if self._ended_said:
            return
        self._ended_said = True
        out = self.match.outcome()
        if self.journal is not None:
            self.journal.end(list(out.scores), list(out.winners))
        if self.humans:
            # The players may still ask for the scores or to hear the end again; they leave with "quitte".
            self.emit([say("core.game_over_hint", Priority.MESSAGE)], remember=False)
        else:
            self.running = False

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    # ------------------------------------------------------------------ input
    def seat_of(self, line: str) -> tuple[int | None, str]:
        """`Bob: mon plateau` is Bob speaking; otherwise the player to move (or the only human)."""
        head, sep, rest = line.partition(":")
        if sep:
            from companion.core import fold

            for i, s in enumerate(self.seats):
                if fold(s.name) == fold(head) and s.bot is None:
                    return i, rest.strip()
        current = self.match.current
        if current is not None and self.seats[current].bot is None:
            return current, line
        humans = self.humans
        return (humans[0] if humans else None), line

    def handle(self, line: str, seat: int | None = None) -> bool:
        """One line of input. Returns False when the session should end (quit)."""
        line = line.strip()
        if seat is None:
            seat, line = self.seat_of(line)
        self._interrupt(seat)
        if not line:
            return self.running
        word = global_command(line)
        pending = self.pending.pop(seat, None) if seat is not None else None
        if pending is not None and seat is not None:
            if word in KEEPS_PENDING:  # "repeat" or "help" keeps the question open
                self.pending[seat] = pending
                return self._global(word, seat)
            if isinstance(pending, Confirm):
                if word == "yes":
                    self._act(seat, pending.action)
                    return self.running
                if word == "no":
                    self.tell("core.cancelled", seat)
                    return self.running
            elif isinstance(pending, Ask):
                resolved = pending.resolve(line)
                if resolved is not None:
                    self._intent(seat, resolved)
                    return self.running
        if word is not None and word not in ("yes", "no"):
            return self._global(word, seat)
        if word in ("yes", "no") and pending is None:
            if self.ui.parse(line, self.match, seat) is None if seat is not None else True:
                self.tell("core.nothing_to_confirm", seat)
                return self.running
        if seat is None:
            self.tell("core.no_player", None)
            return self.running
        intent = self.ui.parse(line, self.match, seat)
        if intent is None:
            self.tell("core.not_understood", seat, priority=Priority.IMPORTANT, text=Raw(line))
            self.emit(self.ui.help(self.match, seat))
            return self.running
        self._intent(seat, intent)
        return self.running

    def _interrupt(self, seat: int | None) -> None:
        # New input cuts speech of text priority (speech-dispatcher's model).
        if self.speaker is not None:
            self.speaker.interrupt()
        if seat is not None and self.seats[seat].speaker is not None:
            self.seats[seat].speaker.interrupt()

    def _intent(self, seat: int, intent: Intent) -> None:
        if isinstance(intent, Seq):
            for item in intent.items:
                self._intent(seat, item)
        elif isinstance(intent, Act):
            self._act(seat, intent.action)
        elif isinstance(intent, Confirm):
            self.pending[seat] = intent
            self.emit([intent.question])
        elif isinstance(intent, Ask):
            self.pending[seat] = intent
            self.emit([intent.question])
        elif isinstance(intent, (Answer, Refuse)):
            self.emit(intent.utterances)

    def _act(self, seat: int, action: Any) -> None:
        try:
            events = self.match.play(seat, action)
        except IllegalAction as exc:
            self.emit(self.refusal(exc, seat))
            return
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

    # ------------------------------------------------------------------ shared commands
    def _global(self, word: str, seat: int | None) -> bool:
        if word == "help":
            self.emit([say("core.help_global", Priority.TEXT, to=seat)] + self.ui.help(self.match, seat))
        elif word == "repeat":
            self._repeat(seat)
        elif word == "status":
            self.emit(self.ui.status(self.match, seat))
        elif word == "undo":
            self._undo(seat)
        elif word == "quit":
            self.tell("core.goodbye" if self.match.over else "core.saved_and_quit", None, priority=Priority.IMPORTANT)
            self.running = False
        elif word in ("terse", "normal", "verbose"):
            level = Verbosity[word.upper()]
            if seat is None:
                self.verbosity = level
            else:
                self.seats[seat].verbosity = level
            self.tell(f"core.verbosity.{word}", seat)
        elif word in ("faster", "slower", "louder", "quieter"):
            self._tune(word, seat)
        elif word == "history":
            self._history(seat)
        elif word == "rule":
            self._rule(seat)
        elif word == "autoplay":
            self._autoplay(seat)
        elif word in ("french", "english"):
            lang = "fr" if word == "french" else "en"
            if seat is None:
                self.lang = lang
            else:
                self.seats[seat].lang = lang
            self.tell("core.language_set", seat)
        return self.running

    def _rule(self, seat: int | None) -> None:
        """The audio rules' chapter about what is happening now, read to whoever asked."""
        from companion.audiorules.ingame import chapter_utterances

        chapter = self.ui.rule_chapter(self.match) or "turn"
        utts = chapter_utterances(self.game_name, chapter, self._lang(seat))
        if not utts:
            self.tell("core.rule_hint", seat, game=self.game_name, chapter=chapter)
            return
        self.emit([Utterance(u.parts, Priority.TEXT, u.earcon, seat) for u in utts])

    def _autoplay(self, seat: int | None) -> None:
        """The game's default bot plays this one move for the player (learning, tiredness)."""
        if self.match.over:
            self.emit(self.refusal(IllegalAction("game_over"), seat if seat is not None else 0))
            return
        if seat is None or self.match.current != seat or self.helper is None:
            self.tell("core.cannot_autoplay", seat, priority=Priority.IMPORTANT)
            return
        bot = self.helper(seat)
        bot.observe([e for e in self.match.events() if e.visible_to(seat)])
        self.tell("core.autoplay", seat)
        self._act(seat, bot.choose(self.match.state))

    def _repeat(self, seat: int | None) -> None:
        candidates = [h for h in (self.heard.get(seat), self.heard.get(None)) if h is not None and h.utterances]
        heard = max(candidates, key=lambda h: h.order) if candidates else None
        if heard is None:
            self.tell("core.nothing_to_repeat", seat)
            return
        heard.repeats += 1
        for utt in heard.utterances:
            listener = utt.to
            text = self.render(utt, listener)
            if heard.repeats >= 2:  # said twice already: spell it
                text = spell(text)
            self._say(Utterance(utt.parts, Priority.TEXT, None, utt.to), listener, text)

    def _undo(self, seat: int | None) -> None:
        """Take back the last human move (and the bots' moves after it)."""
        m = self.match
        humans = set(self.humans)
        # Once the game has ended (and its end is in the journal) nothing is taken back.
        if m.over or not any(step.seat in humans for step in m.history) or not self.ui.undoable(self.match):
            self.tell("core.cannot_undo", seat, priority=Priority.IMPORTANT)
            return
        while m.history:
            step = m.undo()
            if self.journal is not None:
                self.journal.undo()
            if step.seat in humans:
                break
        self._record([Event("undone", {"seat": step.seat})])
        self.tell("core.undone", None, priority=Priority.MESSAGE, player=Raw(self.seats[step.seat].name))
        self.advance()

    def _tune(self, word: str, seat: int | None) -> None:
        """Rate and volume change live; the speaker keeps them in the player's profile."""
        speaker = (self.seats[seat].speaker if seat is not None else None) or self.speaker
        if speaker is None:
            self.tell("core.no_voice", seat)
            return
        profile = speaker.profile
        if word in ("faster", "slower"):
            utt = speaker.set_rate(profile.rate + (RATE_STEP if word == "faster" else -RATE_STEP))
        else:
            utt = speaker.set_volume(profile.volume + (10 if word == "louder" else -10))
        self.emit([Utterance(utt.parts, utt.priority, utt.earcon, seat)])

    def _history(self, seat: int | None) -> None:
        """The public events since this player last acted (what happened while I was away)."""
        if not self.ui.history_allowed(self.match):
            self.tell("core.history_not_allowed", seat)
            return
        steps = self.match.history
        start = 0
        for i in range(len(steps) - 1, -1, -1):
            if seat is not None and steps[i].seat == seat:
                start = i + 1
                break
        utts: list[Utterance] = []
        for step in steps[start:]:
            for ev in step.events:
                if ev.visible_to(seat):
                    utts.extend(u for u in self.ui.narrate(ev, self.match) if u.to in (None, seat))
        if not utts:
            self.tell("core.history_empty", seat)
            return
        self.emit([Utterance(u.parts, Priority.TEXT, None, seat if u.to is None else u.to) for u in utts])
