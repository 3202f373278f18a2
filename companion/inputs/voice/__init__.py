"""Offline voice commands: a microphone (or a WAV file) as one more input of the table.

* `grammar.PhraseSet` — what is sayable now (concrete phrases and/or templates with slots),
  compiled to JSGF, and back from recognised words to exactly one listed phrase;
* `sayable.sayable_now(ui, match, seat, lang)` — that set from the game (`GameUI.phrases`);
* `pronounce` — CMUdict, else espeak-ng's IPA mapped to the recogniser's phones;
* `recognizer` — pocketsphinx with the grammar and a calibrated confidence; vosk with a
  model the user supplies;
* `vad.Segmenter`, `sources` (WAV, microphone), `listener.Listener` — sound to
  `companion.session.inbox.Line(text, seat, source="voice", confidence)` posted to the inbox;
* `cli` — `companion voice recognize|test|devices|say`.
"""

from importlib import import_module
from typing import Any

# Imported when first used: `companion play --help` and the options (voice.options) stay light.
_LAZY = {"PhraseSet": "grammar", "NoModel": "recognizer", "Result": "recognizer",
         "SphinxRecognizer": "recognizer", "VoskRecognizer": "recognizer",
         "open_recognizer": "recognizer", "sayable_now": "sayable"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NoModel", "PhraseSet", "Result", "SphinxRecognizer", "VoskRecognizer", "open_recognizer", "sayable_now"]
