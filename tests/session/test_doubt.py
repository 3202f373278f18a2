"""Issue 24, « nothing changes state on a doubt »: every state-changing command heard by voice
below the confidence threshold is read back and waits for a sure « oui », driven through
`SessionCore.handle` (the session's real rules) on the toy game."""

from companion.core import Match
from companion.narration import Verbosity
from companion.session import Seat, SessionCore
from companion.session.inbox import BotMove, Line
from companion.session.outputs import Cue, InputTaken, Stop, Think
from tests.test_session import of, says
from tests.toygame import Nim, Take
from tests.toyui import NimUI, TakeOne


def core(pile=7, **kw):
    game = Nim(pile=pile)
    seats = [Seat("Marie"), Seat("Paul", bot=TakeOne(game, 1, None))]
    c = SessionCore("nim", NimUI(game), Match(game, ["Marie", "Paul"], seed=4), seats, lang="en",
                    helper=lambda seat: TakeOne(game, seat, None), **kw)
    c.start()
    return c


def voice(text, confidence):
    return Line(text, source="voice", confidence=confidence)


def played_once(c):
    c.handle(Line("take 2"))
    c.handle(BotMove(1, Take(1), 1))
    assert c.match.state.pile == 4 and len(c.match.history) == 2


def test_undo_heard_with_little_confidence_is_read_back_and_needs_a_sure_yes():
    c = core()
    played_once(c)
    out = c.handle(voice("undo", 0.04))  # « repeat » heard as « undo » in noise
    assert len(c.match.history) == 2 and says(out) == [(0, "You said: undo?", False)]
    assert (of(out, InputTaken)[0].outcome, of(out, InputTaken)[0].command) == ("confirm", "undo")
    out = c.handle(voice("yes", 0.3))  # a doubtful « oui » answers nothing: asked again
    assert len(c.match.history) == 2
    assert says(out) == [(0, 'I did not hear "yes" clearly.', False), (0, "You said: undo?", False)]
    out = c.handle(voice("yes", 0.9))
    assert len(c.match.history) == 0 and of(out, InputTaken)[0].command == "undo"


def test_a_read_back_is_dropped_by_no_and_by_any_other_line():
    c = core()
    played_once(c)
    c.handle(voice("undo", 0.1))
    c.handle(voice("no", 0.2))  # « non » is safe at any confidence: nothing changes
    assert len(c.match.history) == 2 and not c.pending
    c.handle(voice("undo", 0.1))
    c.handle(Line("nope"))  # (« status », « repeat » keep the question open)
    c.handle(Line("yes"))  # the read-back was dropped by the line between
    assert len(c.match.history) == 2


def test_undo_heard_with_confidence_is_carried_out_at_once():
    c = core()
    played_once(c)
    c.handle(voice("undo", 0.95))
    assert len(c.match.history) == 0


def test_autoplay_heard_with_little_confidence_is_read_back():
    c = core()
    out = c.handle(voice("play for me", 0.2))
    assert not of(out, Think) and c.thinking is None and c.match.state.pile == 7
    out = c.handle(voice("yes", 0.8))
    assert of(out, Think) and of(out, Think)[0].autoplay


def test_verbosity_heard_with_little_confidence_changes_nothing_until_yes():
    c = core()
    c.handle(voice("terse", 0.3))
    assert c.verbosity == Verbosity.NORMAL
    c.handle(Line("yes"))  # typed: sure
    assert c.verbosity == Verbosity.TERSE


def test_quit_heard_with_little_confidence_asks_and_a_doubtful_yes_asks_again():
    c = core()
    out = c.handle(voice("quit", 0.16))  # « répète » heard as « fin »
    assert c.running and c.quit_asked and not of(out, Stop)
    out = c.handle(voice("yes", 0.2))
    assert c.running and c.quit_asked and not of(out, Stop)
    out = c.handle(voice("quit", 0.2))  # asked again, doubtfully: still asking
    assert c.running and c.quit_asked
    out = c.handle(voice("yes", 0.9))
    assert not c.running and of(out, Stop)


def test_quit_after_the_end_heard_with_little_confidence_asks_first():
    c = core(pile=1)
    c.handle(Line("take 1"))
    assert c.match.over
    c.handle(voice("quit", 0.1))
    assert c.running and c.quit_asked
    c.handle(Line("yes"))
    assert not c.running


def test_a_move_read_back_needs_a_sure_yes():
    c = core()
    c.handle(voice("take 2", 0.3))
    c.handle(voice("yes", 0.3))
    assert c.match.state.pile == 7 and c.pending
    c.handle(voice("yes", 0.7))
    assert c.match.state.pile == 5


def test_a_doubtful_query_is_answered_only_when_heard_so_twice_in_a_row():
    # talk at the table heard as « état » at low confidence must not make the companion speak
    c = core()
    out = c.handle(voice("status", 0.05))
    assert says(out) == [] and [o.earcon for o in of(out, Cue)] == ["error"] and not c.pending
    assert of(out, InputTaken)[0].outcome == "not_understood"
    out = c.handle(voice("status", 0.2))  # the same heard again: the two hearings agree
    assert says(out) == [(0, "7 stones left", False)]
    out = c.handle(voice("status", 0.9))  # heard with confidence: answered at once
    assert says(out) == [(0, "7 stones left", False)]
    c.handle(voice("status", 0.1))
    c.handle(Line("take 1"))  # another line between: not « in a row »
    c.handle(BotMove(1, Take(1), 1))
    out = c.handle(voice("status", 0.1))
    assert says(out) == [] and c.match.state.pile == 5


def _kissa(lang="fr"):
    from companion.core import find
    from companion.session.transcript import load

    game, ui, _bots = load(find("kissa"))
    c = SessionCore("kissa", ui.probe(), Match(game, ["Marie", "Bot"], 3), [Seat("Marie"), Seat("Bot")], lang=lang,
                    private_policy="table")
    c.start()
    return c


def test_a_doubtful_equation_in_two_places_is_asked_back_at_once_and_plays_nothing_yet():
    """2kissa10's « which reading? » names what it understood and waits for its answer: it is
    the read-back itself, asked at once (a French values-only equation is heard at 0.02-0.14:
    taken as a miss, the question was never asked). A doubtful refusal stays a miss."""
    c = _kissa()
    seat = c.match.current
    out = c.handle(Line("20 fois 28 égale 560", source="voice", confidence=0.2, seat=seat))
    assert [t.outcome for t in of(out, InputTaken)] == ["ask"] and seat in c.pending
    assert any("2 lectures possibles" in text for _s, text, _p in says(out)), says(out)
    assert not c.match.history
    out = c.handle(Line("choix 2", source="voice", confidence=0.3, seat=seat))  # doubtful: read back as the move
    assert not c.match.history and [t.outcome for t in of(out, InputTaken)] == ["confirm"]
    assert any("c'est-à-dire 20 en E5 bas fois 28 en A8 bas" in text for _s, text, _p in says(out)), says(out)
    c.handle(Line("oui", source="voice", confidence=0.95, seat=seat))
    assert len(c.match.history) == 1
    # « 9 fois 9 égale 80 », refused (no such equation), heard with little confidence: a miss (talk must not
    # make the companion speak), answered when heard so twice in a row
    c = _kissa()
    seat = c.match.current
    out = c.handle(Line("9 fois 9 égale 80", source="voice", confidence=0.2, seat=seat))
    assert [t.outcome for t in of(out, InputTaken)] == ["not_understood"] and says(out) == []
    out = c.handle(Line("9 fois 9 égale 80", source="voice", confidence=0.2, seat=seat))
    assert [t.outcome for t in of(out, InputTaken)] == ["refuse"]
