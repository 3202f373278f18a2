"""Issue 24 §6, « the player always knows what was heard »: each voice line printed as heard
(said in verbose only), talk that is no command changes nothing and says nothing, one rule for
what is not understood, one `InputTaken` per input with its command and source."""

import pytest

from companion.core import Match
from companion.games.base import action_command
from companion.narration import Verbosity
from companion.session import Seat, Session, SessionCore, Table
from companion.session.inbox import Line
from companion.session.outputs import Cue, Echo, InputTaken, Interrupt, Say
from tests.test_session import Recorder, of, says
from tests.toygame import Nim, Take
from tests.toyui import NimUI, TakeOne


def core():
    game = Nim(pile=7)
    seats = [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))]
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), seats, lang="en")
    c.start()
    return c


def echoed(outputs):
    return [Table([], lang="en").render(Say(o.listener, o.utterance, False, o.lang, o.verbosity))
            for o in outputs if isinstance(o, Echo)]


def test_each_voice_line_is_printed_as_heard_before_what_it_causes():
    c = core()
    out = c.handle(Line("take 2", source="voice", confidence=0.9, heard="take two"))
    assert echoed(out) == ["Heard: take two"]
    assert out.index(of(out, Echo)[0]) < out.index(of(out, Say)[0])
    taken = of(out, InputTaken)[0]
    assert (taken.source, taken.outcome, taken.heard, taken.confidence) == ("voice", "act", "take two", 0.9)
    assert taken.to_json()["heard"] == "take two"
    assert not echoed(c.handle(Line("status")))  # typed: nothing echoed


def test_the_heard_line_is_printed_always_and_said_in_verbose_only():
    lines, speaker = [], Recorder()
    game = Nim(pile=7)
    s = Session("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4),
                [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en", speaker=speaker, out=lines.append)
    s.start()
    s.handle("status", source="voice", confidence=0.9)
    assert "Heard: status" in lines and all("Heard" not in t for t, _p in speaker.said)
    s.core.verbosity = Verbosity.VERBOSE
    s.handle("status", source="voice", confidence=0.9)
    assert lines.count("Heard: status") == 2 and any(t == "Heard: status" for t, _p in speaker.said)


def test_talk_that_is_no_command_is_printed_and_changes_nothing():
    c = core()
    out = c.handle(Line("", source="voice", confidence=0.1, heard="so what did you think of it", talk=True))
    assert echoed(out) == ["Heard: so what did you think of it"]
    assert not of(out, Say) and not of(out, Cue) and not of(out, Interrupt)  # said nothing, cut nobody off
    assert [(t.outcome, t.command) for t in of(out, InputTaken)] == [("talk", None)]
    assert c.match.state.pile == 7 and not c.pending


def test_a_typed_line_not_understood_gets_the_three_nearest_commands():
    c = core()
    out = c.handle(Line("repeet"))
    said = says(out)
    assert said[0] == (0, "I did not understand “repeet”.", False)
    assert said[1][1].startswith("You can say, for example: repeat, ")
    assert len(said) == 2  # not the whole help


def test_yes_and_no_are_never_suggested_they_would_answer_nothing():
    c = core()
    for first in ([], ["sure 2"]):  # no question, or « take 2? » waiting (the miss drops it)
        for line in first:
            c.handle(Line(line))
        said = says(c.handle(Line("yeah")))  # « yeah » is nearest « yes »
        suggested = said[1][1].removeprefix("You can say, for example: ").rstrip(".").split(", ")
        assert suggested and not {"yes", "no"} & set(suggested)
        assert not c.pending


def test_by_voice_a_first_miss_is_an_earcon_a_second_says_the_nearest():
    c = core()
    first = c.handle(Line("repeet", source="voice", confidence=0.3, heard="repeet", nearest="repeat"))
    assert of(first, Cue) and of(first, Cue)[0].earcon == "error" and not of(first, Say)
    second = c.handle(Line("repeet", source="voice", confidence=0.3, heard="repeet", nearest="repeat"))
    # (Nim deals secrets: what Marie may say is said to her alone, as a secret)
    assert says(second) == [(0, "I did not understand.", False), (0, "You can say, for example: repeat.", True)]
    c.handle(Line("status", source="voice", confidence=0.9))  # understood: the count starts again
    again = c.handle(Line("x", source="voice", confidence=0.3, heard="x", nearest="status"))
    assert of(again, Cue) and not of(again, Say)


def test_a_voice_line_near_a_command_is_never_read_from_its_words():
    c = core()
    # the words heard happen to read as a move, but the recogniser said: not understood
    c.handle(Line("take 2", source="voice", confidence=0.3, heard="take 2", nearest="take 2"))
    assert c.match.state.pile == 7


def test_the_typed_command_of_a_voice_line_is_handled_as_it_is():
    handled = []

    class Typed(NimUI):
        def handle(self, command, match, seat, view=None):
            handled.append(command)
            return super().read(command, match, seat, view)

    game = Nim(pile=7)
    c = SessionCore("nim", Typed(game), Match(game, ["Marie", "Paul"], seed=4),
                    [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))], lang="en")
    c.start()
    c.handle(Line("listed phrase nobody reads", source="voice", confidence=0.9, command="take 3"))
    assert handled == ["take 3"] and c.match.state.pile == 4


@pytest.mark.parametrize("source", ["keyboard", "voice", "web"])
def test_one_input_record_per_line_whatever_the_source(source):
    c = core()
    out = c.handle(Line("take 1", source=source, confidence=0.9 if source == "voice" else None))
    assert [(t.source, t.outcome, t.command) for t in of(out, InputTaken)] == [(source, "act", action_command(c.match.game, Take(1)))]


def test_nearest_commands_that_tell_a_secret_go_to_their_player_alone():
    game = Nim(pile=7)
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), [Seat("Marie"), Seat("Paul")], lang="en")
    c.start()
    said = says(c.handle(Line("repeet")))
    # two humans, no private channel: the suggestions (drawn from what Marie may do) are withheld
    assert said == [(0, "I did not understand “repeet”.", False), (0, 'Say "help" to hear what you can say.', False)]


def test_talk_into_a_seats_own_microphone_is_not_printed_for_the_table():
    c = core()
    out = c.handle(Line("", seat=0, source="voice", confidence=0.1, heard="I have two left", talk=True))
    assert not echoed(out) and not of(out, Say)
    assert [(t.outcome, t.seat) for t in of(out, InputTaken)] == [("talk", 0)]


def test_a_doubtful_query_is_answered_when_heard_so_twice_in_a_row_only():
    c = core()
    first = c.handle(Line("status", source="voice", confidence=0.3))
    assert of(first, Cue) and not says(first)  # a miss: the short earcon, nothing said
    answer = says(c.handle(Line("status", source="voice", confidence=0.3)))  # the same, right after
    assert answer and not any("understand" in t for _l, t, _p in answer)
    c.handle(Line("status", source="voice", confidence=0.3))
    c.handle(Line("x", source="voice", confidence=0.3, heard="x", nearest="repeat"))  # another line between
    again = says(c.handle(Line("status", source="voice", confidence=0.3)))
    assert any("understand" in t for _l, t, _p in again) and not any(t in again for t in answer)

