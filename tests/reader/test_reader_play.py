"""Whole physical-table KIKOI games where every deal, draw and gift comes from the reader
emulator on a pseudo-terminal (issue #14): the same journal and result as the same game typed,
nothing recorded twice, no secret token said to the table, an unplug and a replug in the middle."""

from __future__ import annotations

import random
import time

import pytest

from companion.core import Match, find
from companion.games.kikoi import narration
from companion.games.kikoi.rules import ALL, Ask, Drew, Pass, Pirate, RedsIn, Reply
from companion.games.kikoi.tokens import token_id
from companion.inputs.reader.device import TokenReader
from companion.inputs.reader.play import ReaderPlay
from companion.narration import catalog
from companion.session import Seat, Session
from companion.session.outputs import JournalAction

from .emulator import Emulator

NAMES = ["Marie", "Paul", "Zoé", "Léo"]
FAST = ("--debounce", "0.02", "--grace", "0.05", "--heartbeat", "0.1")
SOURCE = "reader:test"


def script(n: int, seed: int) -> tuple[list[tuple[int, object]], Match]:
    """A whole physical game, red tokens on: random requests (often ones that succeed), random draws."""
    game = find("kikoi").module().Rules(physical=True, red_tokens=True)
    m = Match(game, NAMES[:n], seed)
    rng = random.Random(seed)
    acts: list[tuple[int, object]] = []
    while not m.over:
        s = m.current
        legal = m.legal(s)
        asks = [a for a in legal if isinstance(a, Ask)]
        if asks:
            good = [a for a in asks if a.target is not None and a.token in m.state.boards[a.target]]
            a = rng.choice(good) if good and rng.random() < 0.6 else rng.choice(asks)
        elif Pirate(True) in legal:
            a = Pirate(True)
        else:
            a = rng.choice(legal)
        acts.append((s, a))
        m.play(s, a)
    return acts, m


def name_of(token: int) -> str:
    return catalog("fr").text(narration.tok(token))


def typed(match: Match, seat: int, action: object) -> str:
    """The line a player would type for this action."""
    who = match.players[seat]
    if isinstance(action, Drew):
        return f"{who}: {name_of(action.token)}"
    if isinstance(action, Ask):
        target = "tout le monde" if action.target is ALL else match.players[action.target]
        return f"{who}: {target} {name_of(action.token)}"
    if isinstance(action, Reply):
        return f"{who}: {'oui' if action.give else 'non'}"
    if isinstance(action, Pirate):
        return f"{who}: {'je vole' if action.steal else 'je laisse passer'}"
    if isinstance(action, RedsIn):  # RULES KI-3: the red tokens are in the bag after the deal
        return f"{who}: prêt"
    assert isinstance(action, Pass)
    return f"{who}: je passe"


class Heard:
    """A seat's own channel: what its player alone hears."""

    public = False

    def __init__(self) -> None:
        self.lines: list[tuple[str, bool]] = []

    def deliver(self, text, *, private, priority, earcon, lang):
        self.lines.append((text, private))

    def interrupt(self):
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here


class Table:
    def __init__(self, n: int, seed: int, channels: bool) -> None:
        pkg = find("kikoi").module()
        game = pkg.Rules(physical=True, red_tokens=True)
        self.match = Match(game, NAMES[:n], seed)
        self.printed: list[str] = []  # the shared screen and the table's speaker
        self.journal: list[tuple[int, object]] = []
        self.session = Session("kikoi", pkg.UI(game), self.match, [Seat(x) for x in NAMES[:n]],
                               private_policy="withhold", out=self.printed.append)
        self.session.loop.on_outputs = lambda batch: self.journal.extend(
            (o.seat, o.action) for o in batch if isinstance(o, JournalAction))
        self.heard = [Heard() for _ in range(n)]
        if channels:
            for i, ch in enumerate(self.heard):
                self.session.claim(i, ch)
        self.session.start()

    def type(self, line: str) -> None:
        self.session.handle(line)

    def pump(self, until, what: str, timeout: float = 6.0) -> None:
        loop = self.session.loop
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"timed out waiting for {what}; last lines: {self.printed[-5:]}"
            item = loop.inbox.get(0.02)
            if item is not None:
                loop.feed(item)

    def said(self, text: str, since: int = 0) -> bool:
        return any(text in line for line in self.printed[since:])

    def told(self, seat: int, text: str) -> bool:
        """Said to the table or to the seat's own channel."""
        return self.said(text) or any(text in line for line, _ in self.heard[seat].lines)


def play_typed(n: int, seed: int, acts) -> Table:
    t = Table(n, seed, channels=False)
    for seat, action in acts:
        t.type(typed(t.match, seat, action))
    return t


def play_with_reader(n: int, seed: int, acts, channels: bool, unplug_at: int) -> tuple[Table, dict]:
    t = Table(n, seed, channels)
    emu = Emulator(*FAST)
    slots: dict[int, str] = {}
    seen = {"read": 0, "typed": 0, "check": 0, "wrong": 0, "leaks": []}
    t.session.core.extend(ReaderPlay.bound([(SOURCE, None)]))
    reader = TokenReader.to_inbox(emu.path, t.session.loop.inbox, SOURCE).start()
    nslot = [0]

    def lay(text: str) -> None:
        was = [s for s, have in slots.items() if have == text]
        for s in was:  # a physical token lies in one place at a time
            emu(f"remove {s}")
            del slots[s]
        s = nslot[0] % 4
        nslot[0] += 1
        if s in was:  # laid again on the slot it was on: the reader would see no change
            s = nslot[0] % 4
            nslot[0] += 1
        emu(f"place {s} {text}")
        slots[s] = text

    try:
        t.pump(lambda: t.said("Lecteur prêt"), "the reader's hello")
        first_gift = True
        for i, (seat, action) in enumerate(acts):
            state = t.match.state
            ply = len(t.match.history)
            mark = len(t.printed)
            token = None
            if isinstance(action, Drew):
                token = action.token
            elif isinstance(action, Reply) and action.give:
                token = state.request[2]
            if token is None:
                t.type(typed(t.match, seat, action))
                seen["typed"] += 1
                assert len(t.match.history) == ply + 1
                continue
            text = f"kikoi:{token_id(token)}"
            if i == unplug_at:
                emu("unplug")
                t.pump(lambda mark=mark: t.said("Lecteur débranché", mark), "« lecteur débranché »")
                t.type(typed(t.match, seat, action))  # typing stays possible
                seen["typed"] += 1
                emu("replug")
                t.pump(lambda mark=mark: t.said("Lecteur rebranché", mark), "« lecteur rebranché »")
                assert len(t.match.history) == ply + 1
                continue
            if isinstance(action, Reply) and first_gift:
                # the wrong token first: refused, nothing recorded
                first_gift = False
                wrong = next(x for x in range(25) if x != token)
                lay(f"kikoi:{token_id(wrong)}")
                t.pump(lambda mark=mark, seat=seat: t.said("Ce n'est pas", mark) or t.told(seat, "Ce n'est pas"), "the wrong gift refused")
                assert len(t.match.history) == ply
                seen["wrong"] += 1
            lay(text)
            t.pump(lambda ply=ply: len(t.match.history) > ply, f"step {i}: {action}")
            assert len(t.match.history) == ply + 1
            seen["read"] += 1
            if isinstance(action, Drew) and i == 0:
                # the same token read twice: asked to check, never recorded twice
                again = len(t.printed)
                lay(text)
                t.pump(lambda again=again, seat=seat: t.said("déjà noté", again) or t.told(seat, "déjà noté"), "« déjà noté »")
                assert len(t.match.history) == ply + 1
                seen["check"] += 1
            asked = state.request[2] if state.request is not None else None
            if isinstance(action, Drew) and token != asked:
                public = t.printed[mark:]
                name = name_of(token) if token < 25 else ("Kipirat" if token == 27 else None)
                if name is not None:
                    seen["leaks"] += [line for line in public if name in line and "(dit en privé" not in line]
    finally:
        reader.close()
        emu.close()
    return t, seen


CASES = [(3, 0, False), (4, 0, True)]


@pytest.mark.parametrize(("n", "seed", "channels"), CASES)
def test_a_whole_game_with_the_reader_is_the_typed_game(n, seed, channels):
    acts, final = script(n, seed)
    assert {token_id(a.token) for _, a in acts if isinstance(a, Drew)} >= {"kikonk", "kitourn", "kipirat"}
    typed_t = play_typed(n, seed, acts)
    assert typed_t.match.over and typed_t.journal == [(s, final.game.action_to_json(a)) for s, a in acts]
    unplug_at = next(i for i, (_, a) in enumerate(acts) if i > len(acts) // 2 and isinstance(a, Drew | Reply)
                     and (not isinstance(a, Reply) or a.give))
    t, seen = play_with_reader(n, seed, acts, channels, unplug_at)
    # same moves, same order, each once; same result
    assert t.journal == typed_t.journal
    assert t.match.over and t.match.outcome() == typed_t.match.outcome() == final.outcome()
    assert seen["read"] >= 30 and seen["check"] == 1 and seen["wrong"] == 1
    assert seen["leaks"] == []
    # a game played with the reader resumes without it: its journal replays as typed moves
    again = Match(final.game, NAMES[:n], seed)
    for seat, action in t.journal:
        again.play(seat, final.game.action_from_json(action))
    assert again.outcome() == final.outcome()
    if channels:
        # the dealt tokens were said to their owner only, privately
        dealt = [(s, a.token) for s, a in acts[: 3 * n] if isinstance(a, Drew)]
        for s, tok in dealt:
            assert (f"Noté : {name_of(tok)}.", True) in t.heard[s].lines
        # the wrong gift: the giver alone hears which token it was
        assert any("Ce n'est pas" in line and ", c'est" in line for h in t.heard for line, _ in h.lines)
        assert not t.said("Ce n'est pas")
    else:
        # without private channels: a neutral confirmation, the same for every token
        assert t.said(f"{NAMES[0]} : jeton 1 sur 4 noté.") and t.said(f"{NAMES[n - 1]} : jeton 4 sur 4 noté.")
        assert t.said("Ce n'est pas") and not any(", c'est" in line for line in t.printed)
