"""Offline voice commands: a microphone (or a WAV file) as one more input of the table.

* `grammar.PhraseSet` — what is sayable now (concrete phrases and/or templates with slots),
  compiled to JSGF, and back from recognised words to exactly one listed phrase;
* `sayable.sayable_now(ui, match, seat, lang)` — that set from the game (`GameUI.phrases`);
* `pronounce` — CMUdict, else espeak-ng's IPA mapped to the recogniser's phones;
* `recognizer` — pocketsphinx with the grammar and a calibrated confidence; vosk with a
  model the user supplies;
* `vad.Segmenter`, `sources` (WAV, microphone), `listener.Listener` — sound to
  `companion.inbox.Line(text, seat, source="voice", confidence)` posted to the inbox;
* `cli` — `companion voice recognize|test|devices|say`.
"""

from .grammar import PhraseSet
from .recognizer import NoModel, Result, SphinxRecognizer, VoskRecognizer, open_recognizer
from .sayable import sayable_now

__all__ = ["NoModel", "PhraseSet", "Result", "SphinxRecognizer", "VoskRecognizer", "open_recognizer", "sayable_now"]
