"""A KIKOI game at a physical table read by the token reader on the emulator, as a golden
(issue #23, before the reader became an extension of the core): the deal, draws, a wrong gift
then the right one, the Kipirat drawn and stolen with, « c'est quoi ? », the reader unplugged
and replugged, its button.

Two files in `golden/`: `kikoi_reader.inputs.jsonl`, every input the core took, in order (the
reader's events as `companion reader listen --json` writes them, the lines typed), and
`kikoi_reader.fr.txt`, every output the core gave (rendered sentences, log and journal
records). The first test replays the inputs without the emulator; the second plays the game
again on the emulator, through the real serial adapter. Both must give the committed
transcript. `COMPANION_REGEN_GOLDEN=1` with the second test writes both files anew.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion.core import Match, find
from companion.games.kikoi.rules import Drew, Reply
from companion.games.kikoi.tokens import token_id
from companion.inputs.reader import events as rev
from companion.inputs.reader.device import TokenReader
from companion.inputs.reader.play import ReaderPlay
from companion.narration import catalog
from companion.session import Seat, Session
from companion.session.inbox import Device, Input, Line
from companion.session.outputs import (
    Attach,
    Cue,
    Detach,
    InputTaken,
    Interrupt,
    JournalAction,
    Output,
    Record,
    Say,
)
from tests import golden

from .emulator import Emulator
from .test_reader_play import FAST, NAMES, script, typed

HERE = Path(__file__).parent / "golden"
INPUTS = HERE / "kikoi_reader.inputs.jsonl"
TRANSCRIPT = HERE / "kikoi_reader.fr.txt"
SEED, N, UPTO = 23, 3, 22  # seed 23: a gift at 14, the Kipirat drawn at 18, stolen with at 21
UNPLUG_AT = 9  # Zoé's second deal token is typed while the reader is unplugged
SOURCE = "reader:test"
EVENTS = {c.EVENT: c for c in (rev.ReaderHello, rev.ReaderTooNew, rev.TokenPlaced, rev.TokenRemoved,
                               rev.ButtonPressed, rev.ReaderStatus, rev.ReaderLost, rev.ReaderBack)}


def event_from_json(d: dict[str, Any]) -> rev.ReaderEvent:
    cls = EVENTS[d["event"]]
    fields = {k: v for k, v in d.items() if k != "event" and k in cls.__dataclass_fields__}
    if "capabilities" in fields:
        fields["capabilities"] = tuple(fields["capabilities"])
    return cls(**fields)


def input_to_json(item: Input) -> dict[str, Any]:
    if isinstance(item, Line):
        return {"line": item.text, "seat": item.seat, "source": item.source}
    assert isinstance(item, Device)
    return {"device": item.event.to_json(), "source": item.source}


def input_from_json(d: dict[str, Any]) -> Input:
    if "line" in d:
        return Line(d["line"], d["seat"], d["source"])
    return Device(event_from_json(d["device"]), d["source"])


def output_line(o: Output, names: list[str]) -> str:
    def who(seat: int | None) -> str:
        return "table" if seat is None else names[seat]

    if isinstance(o, Say):
        text = catalog(o.lang).render(o.utterance, o.verbosity)
        return f"say {who(o.listener)}{' private' if o.private else ''}{' spell' if o.spell else ''}: {text}"
    if isinstance(o, InputTaken):
        return "log " + json.dumps(o.to_json(), ensure_ascii=False, sort_keys=True)
    if isinstance(o, JournalAction):
        return f"journal {who(o.seat)} " + json.dumps(o.action, ensure_ascii=False, sort_keys=True)
    if isinstance(o, Record):
        return "record " + " ".join(ev.type for ev in o.events)
    if isinstance(o, (Attach, Detach, Interrupt, Cue)):
        seat = o.seat if isinstance(o, (Attach, Detach)) else o.listener
        return f"{type(o).__name__.lower()} {who(seat)}"
    return type(o).__name__.lower()


class Channel:
    """Marie's own channel (the others have none: their secrets are withheld, their deal neutral)."""

    def deliver(self, text, *, private, priority, earcon, lang):
        pass

    def interrupt(self):
        pass


class GoldenTable:
    def __init__(self) -> None:
        pkg = find("kikoi").module()
        game = pkg.Rules(physical=True, red_tokens=True)
        self.match = Match(game, NAMES[:N], SEED)
        self.session = Session("kikoi", pkg.UI(game), self.match, [Seat(x) for x in NAMES[:N]],
                               private_policy="withhold", out=lambda _line: None)
        self.inputs: list[dict[str, Any]] = []
        self.lines: list[str] = []
        loop = self.session.loop
        loop.on_outputs = lambda batch: self.lines.extend(output_line(o, NAMES[:N]) for o in batch)
        self.session.core.extend(ReaderPlay.bound([(SOURCE, None)]))
        self.session.claim(0, Channel())
        feed = loop.feed

        def recorded(item: Input) -> None:
            self.inputs.append(input_to_json(item))
            feed(item)

        loop.feed = recorded  # type: ignore[method-assign]
        self.session.start()

    def transcript(self) -> str:
        return "\n".join(self.lines) + "\n"


def test_the_recorded_inputs_replay_to_the_golden_transcript():
    t = GoldenTable()
    head, *lines = INPUTS.read_text(encoding="utf-8").splitlines()
    assert json.loads(head) == {"game": "kikoi", "seed": SEED, "players": NAMES[:N],
                                "options": {"physical": True, "red_tokens": True}}
    for d in (json.loads(x) for x in lines):
        t.session.loop.feed(input_from_json(d))
    golden.check(TRANSCRIPT, t.transcript())


def test_a_reader_game_on_the_emulator_gives_the_golden_transcript():
    acts, _ = script(N, SEED)
    t = GoldenTable()
    emu = Emulator(*FAST)
    loop = t.session.loop
    reader = TokenReader.to_inbox(emu.path, loop.inbox, SOURCE).start()
    slots: dict[int, str] = {}
    free = iter(range(10_000))

    def pump(kind: str, what: str, timeout: float = 8.0) -> None:
        """Feed the reader's events until one of `kind` was taken."""
        end = time.monotonic() + timeout
        while True:
            assert time.monotonic() < end, f"timed out waiting for {what}; last: {t.lines[-4:]}"
            item = loop.inbox.get(0.02)
            if item is None:
                continue
            loop.feed(item)
            if isinstance(item, Device) and getattr(item.event, "EVENT", "") == kind:
                return

    def lay(text: str) -> None:
        was = [s for s, have in slots.items() if have == text]  # a token lies in one place
        s = next(free) % 4
        if s in was:  # laid again where it was: the reader would see no change
            s = next(free) % 4
        for old in set(was) | ({s} & set(slots)):  # taken off the reader (onto the board, the bag)
            emu(f"remove {old}")
            del slots[old]
        emu(f"place {s} {text}")
        slots[s] = text
        pump("placed", f"the reading of {text}")

    def tok(token: int) -> str:
        return f"kikoi:{token_id(token)}"

    def type_(line: str) -> None:
        loop.feed(Line(line, None, "keyboard"))

    try:
        pump("hello", "the reader's hello")
        first = acts[0][1]
        assert isinstance(first, Drew)
        type_("Marie: c'est quoi ?")
        lay(tok(first.token))  # told privately what it is, not dealt
        type_("Marie: répète")  # any other line ends the « c'est quoi ? » mode
        first_gift = True
        for i, (seat, action) in enumerate(acts[:UPTO]):
            ply = len(t.match.history)
            state = t.match.state
            token = action.token if isinstance(action, Drew) else (
                state.request[2] if isinstance(action, Reply) and action.give else None)
            if i == UNPLUG_AT:
                emu("unplug")
                pump("lost", "« lecteur débranché »")
                type_(typed(t.match, seat, action))  # typing goes on meanwhile
                emu("replug")
                pump("back", "« lecteur rebranché »")
            elif token is None:
                type_(typed(t.match, seat, action))
            else:
                if isinstance(action, Reply) and first_gift:
                    first_gift = False
                    lay(tok(next(x for x in range(25) if x != token)))  # the wrong token: refused
                    assert len(t.match.history) == ply
                lay(tok(token))
            assert len(t.match.history) == ply + 1, (i, action, t.lines[-4:])
        emu("button 0")
        pump("button", "the button (« répète »)")
    finally:
        reader.close()
        emu.close()
    if golden.regen_golden():
        header = json.dumps({"game": "kikoi", "seed": SEED, "players": NAMES[:N],
                             "options": {"physical": True, "red_tokens": True}}, ensure_ascii=False)
        INPUTS.parent.mkdir(exist_ok=True)
        INPUTS.write_text("\n".join([header] + [json.dumps(d, ensure_ascii=False) for d in t.inputs]) + "\n",
                          encoding="utf-8")
    golden.check(TRANSCRIPT, t.transcript())
