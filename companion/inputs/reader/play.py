"""Tokens read during a game, sans I/O: reader events in, the session core's moves and words out.

An extension of the session core (`companion.session.extension`), given to it with
`SessionCore.extend(ReaderPlay.bound(...))`: it sees and acts through the core's public `Seam`
alone — reads the match, plays for a seat, says to a listener, answers its own lines (« c'est
quoi ? », « annule la lecture », « lecteur »). Reader events are recognised by their `EVENT`
name (`companion.inputs.reader.events`), so this module imports no adapter. What a game knows
of its tokens (KIKOI's gift, its deal's count, a token's name) is the game's `GameUI.tokens`
(`companion/games/kikoi/reader.py`).

What a token is: the text its tag carries (``kikoi:kigliss-sleep``), else the user's pairing of
its UID (`companion.inputs.reader.pairs`); neither: « jeton inconnu », to that player.

Whose token it is follows from the game: the player the game waits for (to deal, draw or give).
A reader bound to a seat (``--reader PORT=Marie``) speaks for that seat only. A token becomes an
action through `GameUI.told` (the chance told by the table: deals and draws) or, for a KIKOI
gift, the asked player's `Reply(give)`; anything the game did not expect is not acted on. The
reader adapter reports a token only once the reader's next PRESENCE confirmed it.

Secrets: a private line goes to the player's own channel, or nowhere (the core's routing). A
player without a channel among several humans hears a neutral « jeton 2 sur 4 noté » during the
deal, the same for every token; a refusal never names the token laid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core import find, fold
from companion.games.base import GameUI, Tokens
from companion.language import groups
from companion.narration import Msg, Priority, Raw, Utterance, say
from companion.session.extension import Seam
from companion.session.inbox import Device


def _clean(text: str) -> str:
    return fold(text).strip(" ?!.")


def reader_words(key: str) -> frozenset[str]:
    """The reader's own words (typed or said), every language: `learn` (« c'est quoi ? »),
    `cancel` (« annule la lecture »), `status` (« lecteur »), and `done`, the words that end
    « c'est quoi ? » (#29), taken by the mode alone, so that a second one asks whether to quit
    and never quits (« fin » is also a quit word). Data: `companion/language/<lang>/reader.json`."""
    return frozenset(_clean(w) for w in groups("reader", "words").get(key, ()))


@dataclass
class ReaderState:
    name: str          # how it is called aloud: « lecteur 1 »
    seat: int | None   # the seat it speaks for (None: the whole table)
    source: str = "reader"  # the inbox source of its events
    status: str = "waiting"  # waiting (never heard), ready, lost, too_new


@dataclass
class ReaderPlay:
    """The readers of one game. `readers` maps a `Device` source to its reader; a source never
    declared is taken as a shared reader the first time it speaks."""

    readers: dict[str, ReaderState] = field(default_factory=dict)
    uids: dict[str, str] = field(default_factory=dict)  # tag UID (hex) -> token text
    learning: set[int | None] = field(default_factory=set)  # seats in « c'est quoi ? » mode
    last_read: dict[int, int] = field(default_factory=dict)  # seat -> history length after its read
    seam: Seam | None = None  # the core's, once attached

    @classmethod
    def bound(cls, specs: list[tuple[str, int | None]], uids: dict[str, str] | None = None) -> ReaderPlay:
        """One reader per (source, seat); sources as `companion.inputs.reader.run.source_of` names them."""
        readers = {src: ReaderState(str(i + 1), seat, src) for i, (src, seat) in enumerate(specs)}
        return cls(readers, dict(uids or {}))

    # ------------------------------------------------------------------ the extension
    def attach(self, seam: Seam) -> None:
        self.seam = seam
        seam.answers(reader_words("learn"), self._learn)
        seam.answers(reader_words("cancel"), self._cancel)
        seam.answers(reader_words("status"), self._status)
        seam.answers(reader_words("done"), self._done)

    @property
    def _seam(self) -> Seam:
        assert self.seam is not None, "ReaderPlay used before SessionCore.extend"
        return self.seam

    def device(self, item: Device) -> None:
        """One reader event (`Device(event, source)`); events of other devices are ignored."""
        kind = getattr(item.event, "EVENT", None)
        if isinstance(kind, str) and kind:
            self._event(item.source, kind, item.event)

    def other_line(self, seat: int | None) -> None:
        """Any other line of a player ends their « c'est quoi ? » mode."""
        if self.readers:
            self.learning.discard(seat)

    # ------------------------------------------------------------------ its own words
    def _learn(self, seat: int | None) -> bool:
        if not self.readers:
            return False
        self._seam.taken("answer", "reader_learn")
        self.learning.add(seat)
        self._seam.say([say("core.reader.learn", Priority.TEXT, None, seat)])
        return True

    def _done(self, seat: int | None) -> bool:
        """« fin » in « c'est quoi ? » mode ends the mode only (#29); outside it, the word is
        not the reader's (« fin » then asks whether to quit)."""
        if not self.readers or seat not in self.learning:
            return False
        self.learning.discard(seat)
        self._seam.taken("answer", "reader_learn_done")
        self._seam.say([say("core.reader.learn_over", Priority.MESSAGE, None, seat)])
        return True

    def _status(self, seat: int | None) -> bool:
        if not self.readers:
            return False
        self._seam.taken("answer", "reader_status")
        self._seam.say([self._status_of(r) for r in self.readers.values()])
        return True

    def _cancel(self, seat: int | None) -> bool:
        """« annule la lecture »: the seat's last token read, taken back while nothing followed it."""
        if not self.readers:
            return False
        seam = self._seam
        if seat is None or self.last_read.get(seat) != len(seam.match.history):
            seam.taken("refuse", "reader_cancel")
            seam.say([say("core.reader.nothing_to_cancel", Priority.IMPORTANT, None, seat)])
            return True
        del self.last_read[seat]
        seam.taken("shared", "reader_cancel")
        seam.shared("undo", seat)
        return True

    # ------------------------------------------------------------------ events
    def _reader(self, source: str) -> ReaderState:
        if source not in self.readers:
            self.readers[source] = ReaderState(str(len(self.readers) + 1), None, source)
        return self.readers[source]

    def _event(self, source: str, kind: str, ev: Any) -> None:
        r = self._reader(source)
        one = len(self.readers) == 1
        if kind == "hello":
            if r.status == "ready":
                return  # already said (a HELLO after « rebranché »)
            msg = "core.reader.back" if r.status == "lost" else "core.reader.ready"
            r.status = "ready"
            self._tell(msg, r, one)
        elif kind == "back":  # the first frames after a loss (or after no port at the start)
            if r.status != "ready":
                msg = "core.reader.back" if r.status == "lost" else "core.reader.ready"
                r.status = "ready"
                self._tell(msg, r, one)
        elif kind == "lost":
            if r.status == "waiting" and getattr(ev, "why", "") == "no port":
                r.status = "lost_waiting"
                self._tell("core.reader.absent", r, one, Priority.IMPORTANT)
            elif r.status == "ready":
                r.status = "lost"
                self._tell("core.reader.unplugged", r, one, Priority.IMPORTANT)
        elif kind == "too_new":
            r.status = "too_new"
            self._tell("core.reader.too_new", r, one, Priority.IMPORTANT)
        elif kind == "button":
            seat = r.seat if r.seat is not None else self._speaker_seat()
            if not getattr(ev, "long", False):
                self._seam.shared("repeat", seat)
        elif kind == "placed":
            if r.status != "ready":  # a token before HELLO: the reader speaks
                r.status = "ready"
            self._placed(r, int(ev.slot), str(ev.uid), ev.text)

    def _tell(self, msg: str, r: ReaderState, one: bool, priority: Priority = Priority.MESSAGE) -> None:
        self._seam.say([say(msg, priority, "error" if priority == Priority.IMPORTANT else None, None,
                            reader=Raw("" if one else f" {r.name}"))], remember=False)

    def _status_of(self, r: ReaderState) -> Utterance:
        status = {"ready": "ready", "lost": "unplugged", "too_new": "too_new"}.get(r.status, "absent")
        return say(f"core.reader.status.{status}", Priority.TEXT, None, None, reader=Raw(r.name))

    def _speaker_seat(self) -> int | None:
        """Who a shared reader speaks for: the player the game waits for, else the only human."""
        seam = self._seam
        current = seam.match.current
        if current is not None and not seam.is_bot(current):
            return current
        humans = seam.humans
        return humans[0] if humans else None

    # ------------------------------------------------------------------ a token laid
    def _placed(self, r: ReaderState, slot: int, uid: str, text: str | None) -> None:
        seam = self._seam
        seat = r.seat if r.seat is not None else self._speaker_seat()
        text = text or self.uids.get(uid)
        if not text:
            seam.say([say("core.reader.unknown", Priority.IMPORTANT, "error", seat)])
            return
        game, sep, tid = text.partition(":")
        if not sep or game != seam.game_name:
            seam.say([say("core.reader.other_game", Priority.IMPORTANT, "error", seat,
                          game=Raw(game if sep else text))])
            return
        tokens = seam.ui.tokens
        if seat in self.learning or (r.seat is None and self.learning):
            learner = seat if seat in self.learning else next(iter(self.learning))
            seam.say([say("core.reader.this_is", Priority.TEXT, None, learner, token=_name(tokens, tid), slot=slot + 1)],
                     private=True, advise=True)
            return
        match = seam.match
        actor = match.current
        if match.over or actor is None:
            seam.say([say("core.reader.not_expected", Priority.TEXT, "error", seat)])
            return
        if r.seat is not None and r.seat != actor:
            seam.say([say("core.reader.not_your_turn", Priority.TEXT, "error", r.seat,
                          player=Raw(seam.seat_name(actor)))])
            return
        if tid in seam.ui.chance(match, actor):
            intent = seam.ui.told(tid, match, actor)
            action = getattr(intent, "action", None)
            if action is not None:
                self._play(actor, action, r.source, text, dealt=tokens.progress(match, actor))
                return
        gift = tokens.answer(match, actor, tid)
        if gift is not None:
            action, asked = gift
            if action is not None:
                self._play(actor, action, r.source, text)
            elif seam.hears_privately(actor):
                seam.say([say("core.reader.wrong_gift", Priority.IMPORTANT, "error", actor,
                              asked=_name(tokens, asked), laid=_name(tokens, tid))], private=True)
            else:
                seam.say([say("core.reader.wrong_gift_neutral", Priority.IMPORTANT, "error", actor,
                              asked=_name(tokens, asked))])
            return
        if tokens.misplaced(match, actor, tid):
            seam.say([say("core.reader.check", Priority.IMPORTANT, "error", actor)])
        else:
            seam.say([say("core.reader.not_expected", Priority.TEXT, "error", actor)])

    def _play(self, seat: int, action: Any, source: str, text: str,
              dealt: tuple[int, int] | None = None) -> None:
        seam = self._seam
        match = seam.match
        if action not in match.legal(seat):
            seam.say([say("core.reader.check", Priority.IMPORTANT, "error", seat)])
            return
        if dealt is not None and not seam.hears_privately(seat):
            # the same words and earcon for every token: nobody learns which one it was
            seam.say([say("core.reader.noted_n", Priority.MESSAGE, "private", None,
                          player=Raw(seam.seat_name(seat)), n=dealt[0], of=dealt[1])])
        seam.play(seat, action, source=source, text=text)
        self.last_read[seat] = len(match.history)


def _name(tokens: Tokens, tid: str) -> Msg | Raw:
    """A token's spoken name by the game's `Tokens.name`, else its id as written."""
    try:
        return tokens.name(tid)
    except (KeyError, ValueError):
        return Raw(tid)


# ---------------------------------------------------------------------- what games say about tokens
def token_name(game: str, tid: str) -> Msg | Raw:
    """A token's spoken name (« le Kigliss qui dort »): the game's `GameUI.tokens`, else its id."""
    try:
        ui = find(game).spec().ui()
    except (LookupError, ImportError):
        return Raw(tid)
    return _name(ui.tokens if issubclass(ui, GameUI) else Tokens(), tid)
