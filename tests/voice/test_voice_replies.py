"""Issue 24 §7: the answers to 2kissa10's « which reading? » question are heard by voice. The
question holds what may answer it (`Ask.replies`); the session core tells it to the voice
listeners with what is sayable (`Hearable.replying`) while it waits; each reply listed is one
the question reads; the recogniser hears them only then (`PhraseSet.replies`)."""

from __future__ import annotations

import pytest

from companion.games.kissa.phrases import Replies
from companion.inputs.voice import synth
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.session.inbox import Line
from tests.voice.needs import need_voice
from tests.voice.whole_game import plan_session


def told_of(session):
    told = []
    session.table.hearers.append(told.append)
    session.core.tells_hearable = True
    return told


def typed(session, text):
    session.loop.feed(Line(text=text, seat=0, source="keyboard"))


def test_the_question_is_told_with_its_replies_until_it_is_answered():
    session = plan_session("kissa", "en", 3, 1)
    told = told_of(session)
    typed(session, "2 plus 3 equals 5")  # a thousand places on seed 3's board
    (seat, replies), = told[-1].replying
    assert seat == 0 and isinstance(replies, Replies) and replies.more
    en = replies.phrases("en")
    assert {"option 1", "option 8", "the first", "the last one", "more", "whichever", "never mind"} <= set(en)
    assert "option 9" not in en
    assert {"choix 1", "le premier", "la suite", "peu importe", "laisse tomber"} <= set(replies.phrases("fr"))
    first = told[-1]
    typed(session, "more")  # the next page: options 9 to 16
    assert "option 9" in told[-1].replying[0][1].phrases("en") and told[-1].generation > first.generation
    assert told[-1].match is first.match  # the same replica: nothing was played
    typed(session, "option 9")
    assert not session.pending and told[-1].replying == ()
    assert session.match.history  # option 9 played


@pytest.mark.parametrize("lang, said", [("en", "20 times 28 equals 560"), ("fr", "20 fois 28 égale 560"),
                                         ("en", "2 plus 3 equals 5"), ("fr", "2 plus 3 égale 5")])
def test_every_reply_listed_is_read_by_the_question_and_reading_it_changes_nothing(lang, said):
    session = plan_session("kissa", lang, 3, 1)
    typed(session, said)
    ask = session.pending[0]
    before = (len(session.match.history), session.match.state)
    phrases = ask.replies.phrases(lang)
    assert len(phrases) == len(set(phrases)) > 10
    unread = [p for p in phrases if ask.resolve(p) is None]
    assert not unread, unread
    assert (len(session.match.history), session.match.state) == before


def test_the_replies_are_heard_while_the_question_waits_and_only_then():
    need_voice()
    session = plan_session("kissa", "en", 3, 1)
    typed(session, "20 times 28 equals 560")  # two places: « option 1 », « option 2 »
    ask = session.pending[0]
    rec = SphinxRecognizer("en")
    sound = synth.utterance("option 2", "en-us", 160)
    rec.set_phrases(sayable_now(session.ui, session.match, 0, "en"))
    assert rec.recognize(sound).line != "option 2"  # not sayable without the question
    rec.set_phrases(sayable_now(session.ui, session.match, 0, "en", replies=ask.replies))
    got = rec.recognize(sound)
    assert got.line == "option 2" and got.command == "reply", got
