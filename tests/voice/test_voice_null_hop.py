"""2kissa10's equations said by their values in French (« 3 plus 4 égale 7 », issue 24 §7) are
heard as said once pocketsphinx is given one null transition for each chain of them
(`fsg.ONE_NULL_HOP`, `Automaton.search`): such a line begins with a slot, four null transitions
from the grammar's start, and pocketsphinx follows one after each word. Without it these very
sounds came out as « autour de A10 », « ligne 9 » or nothing, which they fit worse."""

import pytest

from companion.games.base import Act, Ask
from companion.inputs.voice import fsg, synth
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from tests.voice.needs import need_voice
from tests.voice.test_voice_legal import _bench_states

#: (state of the seeded bot game, what is said, voice, words per minute); fr+klatt is a voice
#: nothing is fitted on
SAID = [(1, "1 plus 9 égale 10", "fr", 190), (1, "1 fois 4 égale 4", "fr", 130),
        (2, "3 plus 4 égale 7", "fr+klatt", 220), (3, "3 plus 6 égale 9", "fr-be", 190)]


def test_french_equations_said_by_their_values_are_heard_as_said(monkeypatch):
    need_voice()
    ui, states = _bench_states(4)
    sounds = [synth.utterance(said, voice, rate) for _s, said, voice, rate in SAID]
    for hop in (True, False):
        monkeypatch.setattr(fsg, "ONE_NULL_HOP", hop)
        rec = SphinxRecognizer("fr")
        heard = []
        for (state, said, _voice, _rate), pcm in zip(SAID, sounds, strict=True):
            match, seat = states[state]
            rec.set_phrases(sayable_now(ui, match, seat, "fr"))
            r = rec.recognize(pcm, chunk=480)  # 30 ms at a time, as the listener feeds it
            heard.append(r.line is not None and ui.command(r.line, match, seat) == ui.command(said, match, seat))
        if hop:
            assert all(heard), heard
        else:  # the same sounds, the null transitions as the grammar has them: missed
            assert not any(heard), heard


@pytest.mark.parametrize("said", [s for _k, s, _v, _r in SAID])
def test_each_is_an_equation_of_the_board(said):
    """What is said is a legal move's values in that state (the test says real moves)."""
    ui, states = _bench_states(4)
    state = next(k for k, s, _v, _r in SAID if s == said)
    match, seat = states[state]
    intent, _view = ui.read(said, match, seat)
    assert isinstance(intent, (Act, Ask)), intent
