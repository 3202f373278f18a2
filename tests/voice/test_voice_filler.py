"""Issue 24 §1 by voice: the shared filler (« euh », « s'il te plaît », "um", "please") said
around a command is heard as the command, as it is skipped when typed, and a plain line keeps
its confidence (`fsg.FILLER`, docs/voice.md « Filler »). Real audio: espeak-ng speech, the real
recogniser, a KIKOI state's grammar."""

import pytest

from companion.core import Match, find
from companion.games.kikoi.rules import ASK
from companion.inputs.voice import fsg, synth
from companion.inputs.voice.recognizer import SphinxRecognizer
from companion.inputs.voice.sayable import sayable_now
from companion.session.core import CONFIDENCE_THRESHOLD
from companion.session.transcript import load
from tests.voice.needs import need_voice

VOICE = {"en": "en-us", "fr": "fr"}


def _heard(lang, texts):
    need_voice()
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, ["Marie", "Bot 1", "Bot 2"], 1)
    while match.current != 0 or match.state.phase != ASK:
        match.play(match.current, match.legal(match.current)[0])
    ps = sayable_now(ui, match, 0, lang)
    assert ps.filler, "the recogniser hears the shared filler"
    rec = SphinxRecognizer(lang)
    rec.set_phrases(ps)
    return {t: rec.recognize(synth.utterance(t, VOICE[lang], 160)) for t in texts}


def test_filler_is_on_in_play():
    assert fsg.FILLER


@pytest.mark.parametrize("lang,plain,filled", [
    ("en", "yes", {"um, yes": "yes", "help please": "help", "um, repeat": "repeat"}),
    ("fr", "oui", {"euh, oui": "oui", "aide s'il te plaît": "aide"}),
])
def test_a_command_said_with_filler_is_heard_as_the_command(lang, plain, filled):
    heard = _heard(lang, [plain, *filled])
    for said, line in filled.items():
        assert heard[said].line == line, (said, heard[said])
    assert heard[plain].line == plain


def test_a_plain_yes_is_still_sure():
    """« yes » alone passes the session's threshold with the filler arcs in the grammar (it
    fell to 0.22 with them before the filler states were their own: docs/voice.md)."""
    r = _heard("en", ["yes"])["yes"]
    assert r.line == "yes" and r.confidence >= CONFIDENCE_THRESHOLD, r
