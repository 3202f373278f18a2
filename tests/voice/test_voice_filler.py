"""Issue 24 §1 by voice: with the shared filler's arcs in the recogniser's grammar (`fsg.FILLER`,
off in play: docs/voice.md « Filler » says why), « euh », « s'il te plaît », "um", "please" said
around a command are heard as the command, as they are skipped when typed; a plain « yes »
is heard with them, and sure in play. Real audio: espeak-ng speech, the real recogniser, a
KIKOI state's grammar."""

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


def _heard(lang, texts, filler=None):
    need_voice()
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, ["Marie", "Bot 1", "Bot 2"], 1)
    while match.current != 0 or match.state.phase != ASK:
        match.play(match.current, match.legal(match.current)[0])
    saved = fsg.FILLER
    fsg.FILLER = filler  # read when the phrase set is built and when it is compiled
    try:
        ps = sayable_now(ui, match, 0, lang)
        assert bool(ps.filler) == bool(filler)
        rec = SphinxRecognizer(lang)
        rec.set_phrases(ps)
    finally:
        fsg.FILLER = saved
    return {t: rec.recognize(synth.utterance(t, VOICE[lang], 160)) for t in texts}


@pytest.mark.parametrize("lang,plain,filled", [
    ("en", "yes", {"um, yes": "yes", "help please": "help", "um, repeat": "repeat"}),
    ("fr", "oui", {"euh, oui": "oui", "aide s'il te plaît": "aide"}),
])
def test_a_command_said_with_filler_is_heard_as_the_command(lang, plain, filled):
    heard = _heard(lang, [plain, *filled], filler=0.05)
    for said, line in filled.items():
        assert heard[said].line == line, (said, heard[said])
    assert heard[plain].line == plain


def test_a_plain_yes_is_sure_in_play():
    """« yes » alone passes the session's threshold with the grammar in play (fsg.FILLER's)."""
    r = _heard("en", ["yes"], filler=fsg.FILLER)["yes"]
    assert r.line == "yes" and r.confidence >= CONFIDENCE_THRESHOLD, r
