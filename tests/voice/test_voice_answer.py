"""Issue 30: while a yes/no question waits, the listener hears the answer's own grammar (French),
told by the session core (`Hearable.asking`), and the recogniser comes back to the game's
grammar without building it again."""

from companion.inputs.voice import synth
from companion.inputs.voice.recognizer import (
    SphinxRecognizer,
    answer_phrases,
    answers_apart,
    is_answer,
)
from companion.inputs.voice.sayable import sayable_now
from companion.session.inbox import Line
from tests.voice.needs import need_voice
from tests.voice.whole_game import plan_session


def told_of(session):
    told = []
    session.table.hearers.append(told.append)
    session.core.tells_hearable = True
    return told


def test_a_doubtful_move_asks_and_the_core_tells_the_seat_asked():
    session = plan_session("goodfortune", "fr", 3, 1)
    told = told_of(session)
    move = next(p for p, c in sayable_now(session.ui, session.match, 0, "fr").concrete if c.startswith("action:"))
    session.loop.feed(Line(text=move, seat=0, source="voice", confidence=0.3, heard=move))
    assert session.pending and told and told[-1].asking == (0,)
    asked = told[-1]
    session.loop.feed(Line(text="non", seat=0, source="voice", confidence=0.9, heard="non"))
    assert not session.pending and told[-1].asking == ()
    assert told[-1].generation > asked.generation  # the listener builds its grammar again
    assert told[-1].match is asked.match  # the same replica: nothing was played


def test_the_quit_question_asks_every_seat():
    session = plan_session("goodfortune", "fr", 3, 1)
    told = told_of(session)
    session.loop.feed(Line(text="quitte", seat=0, source="voice", confidence=0.3, heard="quitte"))
    assert session.core.quit_asked and told[-1].asking == (0, 1)


def test_french_answers_are_heard_apart_and_the_games_grammar_comes_back():
    need_voice()
    assert answers_apart("fr") and not answers_apart("en")
    session = plan_session("goodfortune", "fr", 3, 1)
    game = sayable_now(session.ui, session.match, 0, "fr")
    rec = SphinxRecognizer("fr")
    rec.set_phrases(game)
    search = rec._search
    answer = answer_phrases("fr")
    assert is_answer(answer) and {c for _p, c in answer.concrete} == {"yes", "no", "undo", "repeat"}
    rec.set_phrases(answer)
    got = rec.recognize(synth.utterance("oui", "fr", 160))
    assert got.command == "yes", got
    # a long utterance while a question waits is no answer (a move said then, talk)
    long = rec.recognize(synth.utterance("je demande le Kigliss qui dort à Robot 1 et puis encore autre chose", "fr", 160))
    assert long.line is None, long
    rec.set_phrases(game)
    assert rec._search == search  # not built again
    move = next(p for p, c in game.concrete if c.startswith("action:"))
    assert rec.recognize(synth.utterance(move, "fr", 160)).line is not None
