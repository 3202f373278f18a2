"""The voice options of `companion play` and `resume` (argparse only: the command line stays
light; the recogniser is imported when a game starts listening)."""

from __future__ import annotations

import argparse
from pathlib import Path

#: the recognisers `--voice-engine` names (`engines.open_engine`, docs/voice.md)
ENGINES = ("auto", "pocketsphinx", "whisper", "confirm", "checked", "rescore", "vosk")
#: the noise suppressors `--voice-suppress` names (`suppress.SUPPRESSORS`: tests/voice keep them equal)
SUPPRESSORS = ("none", "webrtc", "rnnoise", "deepfilter")


def add_voice_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--voice", nargs="?", action="append", const="", default=None, metavar="DEVICE=SEAT",
                   help="take commands from a microphone (DEVICE=SEAT: one per player)")
    p.add_argument("--voice-input", type=Path, action="append", default=None, metavar="FILE.wav",
                   help="take commands from recordings instead of a microphone (read as fast as possible, "
                        "each command once the companion has answered the one before)")
    p.add_argument("--voice-realtime", action="store_true",
                   help="read the recordings at real speed, as a microphone (what comes while the companion speaks is not heard)")
    p.add_argument("--voice-model", type=Path, default=None, help="a vosk model folder for the language")
    p.add_argument("--voice-engine", choices=ENGINES,
                   default="auto",
                   help="the recogniser: pocketsphinx, Whisper, pocketsphinx with Whisper confirming its doubtful state "
                        "changes (confirm) or also rejecting talk (checked), pocketsphinx's shortlist scored by Whisper "
                        "(rescore), vosk; auto: the one "
                        "measured best for the language (docs/voice.md)")
    p.add_argument("--whisper-model", type=Path, default=None, metavar="DIR",
                   help="a faster-whisper model folder (default: the packaged Whisper base; or $COMPANION_WHISPER_MODEL)")
    p.add_argument("--voice-suppress", choices=SUPPRESSORS, default="none",
                   help="a noise suppressor before the recogniser: webrtc (light), deepfilter (best in steady noise, "
                        "heavier); none by default (measured: docs/voice.md)")
    p.add_argument("--barge-in", action="store_true", help="listen while the companion speaks (headphones)")
    p.add_argument("--voice-wake", default=None, metavar="WORD",
                   help='a word every command starts with, for noisy tables (e.g. "companion")')
    p.add_argument("--voice-ptt", nargs="?", const="", default=None, metavar="WORD",
                   help="push-to-talk: the microphone listens only after Enter on an empty line "
                        "(or WORD typed), for one command; an earcon says when it opens and closes")


__all__ = ["add_voice_args"]
