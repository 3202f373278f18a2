"""The reader at every moment of a KIKOI game, event by event (no serial port): arrival,
unplug and return, unknown tags, paired UIDs, learn mode, « annule la lecture », status,
a reader bound to a seat, the button, tokens the game did not expect."""

from __future__ import annotations

import json
import os

import pytest

from companion.core import Match, find
from companion.inputs.reader.events import (
    ButtonPressed,
    ReaderBack,
    ReaderHello,
    ReaderLost,
    TokenPlaced,
)
from companion.inputs.reader.pairs import load_pairs, save_pairs
from companion.inputs.reader.play import ReaderPlay
from companion.inputs.reader.run import ReaderSpecError, parse_specs
from companion.session import Seat, Session
from companion.session.inbox import Device
from companion.session.outputs import InputTaken

NAMES = ["Marie", "Paul", "Zoé"]


class Heard:
    public = False

    def __init__(self):
        self.lines = []

    def deliver(self, text, *, private, priority, earcon, lang):
        self.lines.append((text, private))

    def interrupt(self):
        self.interrupted = getattr(self, "interrupted", 0) + 1  # counted: nothing plays here


def table(readers=(("r1", None),), uids=None, channels=()):
    pkg = find("kikoi").module()
    game = pkg.Rules(physical=True)
    match = Match(game, NAMES, 1)
    printed: list[str] = []
    s = Session("kikoi", pkg.UI(game), match, [Seat(n) for n in NAMES], private_policy="withhold", out=printed.append)
    heard = {}
    for seat in channels:
        heard[seat] = Heard()
        s.claim(seat, heard[seat])
    s.core.extend(ReaderPlay.bound(list(readers), uids))
    s.start()
    return s, printed, heard


def ev(s, event, source="r1"):
    s.loop.feed(Device(event, source))


def placed(text, slot=0, uid=None):
    return TokenPlaced("52440001", slot, uid or format(abs(hash(text)) % 10**12, "014x"), text)


HELLO = ReaderHello("52440001", 1, "1.0.0", 4, ())


def test_arrives_leaves_and_comes_back_while_typing_goes_on():
    s, printed, _ = table()
    ev(s, ReaderLost("", "no port"))
    assert printed[-1] == "Pas encore de lecteur : je l'attends. Vous pouvez taper en attendant."
    s.handle("Marie: le kigliss qui dort")  # typing works without a reader
    assert len(s.match.history) == 1
    ev(s, HELLO)
    assert printed[-1] == "Lecteur prêt."
    ev(s, ReaderLost("52440001", "unplugged"))
    assert printed[-1] == "Lecteur débranché. Vous pouvez continuer au clavier."
    s.handle("lecteur")
    assert printed[-1] == "Lecteur 1 : débranché."
    ev(s, ReaderBack("52440001"))
    n = len(printed)
    ev(s, HELLO)  # the board's HELLO after the replug: already said
    assert printed[n - 1] == "Lecteur rebranché." and len(printed) == n
    s.handle("état du lecteur")
    assert printed[-1] == "Lecteur 1 : prêt."


def test_unknown_tag_paired_uid_and_other_game():
    s, printed, _ = table(uids={"04aabbccddeeff": "kikoi:kiboss-eat"})
    ev(s, HELLO)
    ev(s, TokenPlaced("52440001", 0, "04000000000001", None))
    assert printed[-1] == "[Marie] Jeton inconnu." and s.match.history == []
    ev(s, TokenPlaced("52440001", 1, "04000000000002", "goodfortune:neko-mati"))
    assert "pas de ce jeu" in printed[-1] and s.match.history == []
    outs = s.core.handle(Device(TokenPlaced("52440001", 2, "04aabbccddeeff", None), "r1"))  # by its UID alone
    assert s.match.game.action_to_json(s.match.history[-1].action) == {"drew": "kiboss-eat"}
    taken = [o for o in outs if isinstance(o, InputTaken)]
    assert [(o.source, o.seat, o.text, o.outcome, o.command) for o in taken] == [
        ("r1", 0, "kikoi:kiboss-eat", "act", 'action:{"drew":"kiboss-eat"}')]


def test_learn_mode_is_private_and_outside_the_turn():
    s, printed, heard = table(channels=(1,))
    ev(s, HELLO)
    s.handle("Paul: c'est quoi ?")
    ev(s, placed("kikoi:kigratt-bike", slot=2))
    assert ("C'est le Kigratt à vélo, case 3.", True) in heard[1].lines
    assert s.match.history == [] and not any("Kigratt" in line for line in printed)
    s.handle("Paul: mon plateau")  # any other line ends the learn mode
    ev(s, placed("kikoi:kigratt-bike", slot=3))
    assert s.match.game.action_to_json(s.match.history[-1].action) == {"drew": "kigratt-bike"}


def test_learn_mode_without_a_channel_says_why_not():
    s, printed, _ = table()
    ev(s, HELLO)
    s.handle("Marie: what is this?")
    ev(s, placed("kikoi:kigratt-bike"))
    assert "canal privé" in printed[-1] and not any("Kigratt" in line for line in printed)


def test_cancel_the_reading_then_nothing_more_to_cancel():
    s, printed, _ = table()
    ev(s, HELLO)
    ev(s, placed("kikoi:kigliss-sleep"))
    assert printed[-2] == "Marie : jeton 1 sur 4 noté." and len(s.match.history) == 1
    s.handle("Marie: annule la lecture")
    assert s.match.history == []
    s.handle("Marie: annule la lecture")
    assert printed[-1] == "[Marie] Aucune lecture à annuler."
    ev(s, placed("kikoi:kigliss-sleep", slot=1))  # laid again: recorded once
    assert len(s.match.history) == 1


def test_a_reader_bound_to_a_seat_speaks_for_that_seat_and_its_button_repeats():
    s, printed, heard = table(readers=(("r1", 0), ("r2", 1)), channels=(0, 1))
    ev(s, HELLO, "r1")
    ev(s, HELLO, "r2")
    assert printed[-2:] == ["Lecteur 1 prêt.", "Lecteur 2 prêt."]
    ev(s, placed("kikoi:kimouss-house"), "r2")  # Paul's reader while Marie deals
    assert heard[1].lines[-1] == ("C'est à Marie de poser un jeton.", True) and s.match.history == []
    for i, tid in enumerate(("kimouss-house", "kimouss-eat", "kimouss-bike", "kimouss-forest")):
        ev(s, placed(f"kikoi:{tid}", slot=i), "r1")
    assert len(s.match.history) == 4 and s.match.current == 1
    assert ("Noté : le Kimouss en forêt.", True) in heard[0].lines
    before = len(heard[0].lines)
    ev(s, ButtonPressed("52440001", 0, False), "r1")  # « répète » for Marie
    assert heard[0].lines[before:] and heard[0].lines[-1][0] in [t for t, _ in heard[0].lines[:before]] + printed
    ev(s, placed("kikoi:kigliss-house"), "r2")
    assert len(s.match.history) == 5


def test_a_token_the_game_does_not_expect_is_not_acted_on():
    s, printed, _ = table()
    ev(s, HELLO)
    for seat in range(3):
        for m in ("house", "eat", "bike", "forest"):
            ev(s, placed(f"kikoi:{['kimouss', 'kigratt', 'kigliss'][seat]}-{m}", slot=len(s.match.history) % 4))
    assert s.match.state.phase == "reds" and len(s.match.history) == 12  # RULES KI-3: the red tokens go in
    s.handle("prêt")
    assert s.match.state.phase == "ask" and len(s.match.history) == 13
    ev(s, placed("kikoi:kiboss-eat"))  # a request is due, not a token
    assert printed[-1] == "[Marie] Je n'attends pas de jeton maintenant." and len(s.match.history) == 13
    ev(s, placed("kikoi:kimouss-sleep", slot=1))  # still in the bag, but no draw is due
    assert len(s.match.history) == 13


def test_specs_and_pairs_file(tmp_path, monkeypatch):
    assert parse_specs(["/dev/ttyACM0", "/dev/ttyACM1=Paul", "loop://=3"], NAMES) == [
        ("/dev/ttyACM0", None), ("/dev/ttyACM1", 1), ("loop://", 2)]
    with pytest.raises(ReaderSpecError):
        parse_specs(["/dev/ttyACM0=Nobody"], NAMES)
    path = tmp_path / "sub" / "reader-tokens.json"
    monkeypatch.setenv("COMPANION_READER_PAIRS", str(path))
    save_pairs({"04AA": "kikoi:kiboss-eat"})
    assert load_pairs() == {"04aa": "kikoi:kiboss-eat"}
    assert json.loads(path.read_text()) == {"04AA": "kikoi:kiboss-eat"}
    assert [p.name for p in path.parent.iterdir()] == ["reader-tokens.json"]  # no temporary left
    path.write_text("{broken")
    from companion.inputs.reader.pairs import PairsError

    with pytest.raises(PairsError):  # never read as « no pairs » (then overwritten): issue 25
        load_pairs()
    assert os.environ["COMPANION_READER_PAIRS"] == str(path)


def test_learn_mode_ends_with_its_own_word_and_ending_it_twice_does_not_quit():
    """#29 finding 2: « fin » ended « c'est quoi ? » and quit the game at once; now the mode
    takes its « fin », and a second « fin » only asks whether to quit."""
    s, printed, heard = table(channels=(1,))
    ev(s, HELLO)
    s.handle("Paul: c'est quoi ?")
    s.handle("Paul: fin")
    assert ("Fin de « c'est quoi ? ».", True) in heard[1].lines and s.core.running
    s.handle("Paul: fin")
    assert s.core.running and printed[-1].startswith("Quitter la partie ? Elle est enregistrée.")
    s.handle("Paul: non")
    assert s.core.running and printed[-1] == "On continue."
