import pytest

from companion.core import Match
from companion.journal import Journal, read
from companion.narration import Raw, Utterance, Verbosity
from companion.session import Seat, Session
from tests.toygame import Nim
from tests.toyui import NimUI, TakeOne


class Profile:
    rate, volume = 175, 100


class Recorder:
    """A speaker stand-in that records calls (the real ones are tested in tests/speech)."""

    def __init__(self):
        self.said, self.cuts, self.profile = [], 0, Profile()

    def say(self, text, priority, earcon=None, lang=None):
        self.said.append((text, priority))

    def interrupt(self):
        self.cuts += 1

    def set_rate(self, r):
        self.profile.rate = r
        return Utterance((Raw(f"rate {r}"),))

    def set_volume(self, v):
        self.profile.volume = v
        return Utterance((Raw(f"volume {v}"),))


def make(tmp_path=None, pile=7, bots=(False, True), private=None):
    game = Nim(pile=pile)
    names = ["Marie", "Paul"][: len(bots)]
    match = Match(game, names, seed=4)
    seats = [Seat(n, bot=TakeOne(game, i, None) if b else None) for i, (n, b) in enumerate(zip(names, bots, strict=True))]
    if private:
        seats[0].speaker = private
    lines = []
    journal = Journal.create(tmp_path / "g.jsonl", {"game": "nim", "options": {}, "players": names, "seats": [None, "one"], "seed": 4, "lang": "en"}) if tmp_path else None
    s = Session("nim", NimUI(game), match, seats, lang="en", speaker=Recorder(), out=lines.append, journal=journal)
    return s, lines


def test_move_then_bot_then_prompt():
    s, lines = make()
    s.start()
    assert lines[-1] == "Your turn, Marie."
    assert "[Marie] secret" in lines[0]  # a private line, marked with its listener
    s.handle("take 2")
    assert "Marie took 2, 5 left" in lines and "Paul took 1, 4 left" in lines
    assert s.speaker.cuts >= 1  # new input cut speech


def test_unknown_input_says_so_and_helps_state_unchanged():
    s, lines = make()
    s.start()
    s.handle("dance")
    assert lines[-2] == "[Marie] I did not understand “dance”."
    assert lines[-1] == "[Marie] say take 1, 2 or 3"
    assert s.match.state.pile == 7


def test_illegal_move_refused_with_reason():
    s, lines = make(pile=2)
    s.start()
    s.handle("take 3")
    assert lines[-1] == "[Marie] refused: too_many"
    assert s.match.state.pile == 2 and not s.match.history


def test_repeat_twice_spells():
    s, lines = make()
    s.start()
    s.handle("status")
    s.handle("repeat")
    assert lines[-1] == lines[-2]
    s.handle("répète")
    assert lines[-1] == "[Marie] 7 ; s, t, o, n, e, s ; l, e, f, t"  # spaces kept (#17)


def test_confirm_yes_and_no():
    s, lines = make()
    s.start()
    s.handle("sure 2")
    assert lines[-1] == "[Marie] take 2?" and s.match.state.pile == 7
    s.handle("non")
    assert s.match.state.pile == 7
    s.handle("sure 2")
    s.handle("oui")
    assert s.match.state.pile == 4


def test_undo_takes_back_human_and_bot_moves(tmp_path):
    s, lines = make(tmp_path)
    s.start()
    s.handle("take 2")
    assert s.match.state.pile == 4
    s.handle("annule")
    assert s.match.state.pile == 7 and "Marie's move taken back. We are back before it." in lines
    assert read(tmp_path / "g.jsonl").actions == []


def test_private_channel_keeps_secret_off_the_screen():
    spk = Recorder()
    s, lines = make(private=spk)
    s.start()
    s.handle("secret")
    assert not any(str(s.match.state.secrets[0]) in line for line in lines)
    assert any(str(s.match.state.secrets[0]) in t for t, _ in spk.said)


def test_verbosity_and_rate_commands():
    s, lines = make()
    s.start()
    s.handle("bref")
    assert s.seats[0].verbosity == Verbosity.TERSE
    s.handle("plus vite")
    assert s.speaker.profile.rate == 200 and lines[-1] == "[Marie] rate 200"


def test_game_end_and_quit(tmp_path):
    s, lines = make(tmp_path, pile=3)
    s.start()
    s.handle("take 3")
    assert s.running and lines[-2] == "game over, Marie wins"
    assert lines[-1] == "The game is over. You can still ask for “status” or “repeat”; “quit” to leave."
    assert read(tmp_path / "g.jsonl").finished
    s.handle("repeat")  # the end can be heard again
    assert "game over, Marie wins" in lines[-2:]
    s.handle("take 1")
    assert lines[-1] == "[Marie] The game is over. Say “status” for the scores, or “quit”."
    s.handle("undo")  # the end is final: nothing is taken back
    assert lines[-1] == "[Marie] Nothing to undo: no human move can be taken back now." and s.match.over
    s.handle("play for me")
    assert lines[-1] == "[Marie] The game is over. Say “status” for the scores, or “quit”."
    assert s.handle("quit") is False and lines[-1] == "Goodbye, and thank you for playing!"
    s2, _ = make()
    s2.start()
    assert s2.handle("quit") is False


def test_speaking_for_another_player():
    s, lines = make(bots=(False, False))
    s.start()
    s.handle("Paul: take 1")
    assert lines[-1] == "[Paul] It is not your turn: Marie is to play."
    assert s.match.state.pile == 7


@pytest.mark.parametrize("cmd", ["aide", "HELP", "?"])
def test_help_aliases(cmd):
    s, lines = make()
    s.start()
    s.handle(cmd)
    assert lines[-1] == "[Marie] say take 1, 2 or 3"


def test_real_speaker_new_input_cuts_a_long_answer_but_not_game_events():
    """The session with real espeak-ng speech on the recording output."""
    import time

    from companion.adapters.speaker import open_speaker

    spk = open_speaker(engine="espeak-ng", output="recording", lang="en")
    game = Nim(pile=9)
    match = Match(game, ["Marie", "Paul"], seed=4)
    seats = [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))]
    lines = []
    s = Session("nim", NimUI(game), match, seats, lang="en", speaker=spk, out=lines.append)
    s.start()
    s.handle("help")  # a long answer of text priority
    time.sleep(0.3)
    s.handle("take 1")  # new input: the help is cut, the moves are said in full
    assert spk.wait(30)
    items = spk.recording.items
    helps = [i for i in items if i.text.startswith("Always possible")]
    assert helps and helps[0].cut
    moves = [i for i in items if "took" in i.text]
    assert len(moves) == 2 and not any(m.cut for m in moves)
    spk.close()


def test_repeat_keeps_a_read_back_open_and_yes_alone_is_explained():
    s, lines = make()
    s.start()
    s.handle("oui")
    assert lines[-1] == "[Marie] There is nothing to confirm right now."
    s.handle("sure 1")
    s.handle("repeat")
    assert lines[-1] == "[Marie] take 1?"
    s.handle("yes")
    assert s.match.state.pile == 5
