"""The one audio path, by job (this module gathers their names, for older imports):

* `audio_sinks`: the sound outputs (device, WAV file, nothing, memory for tests);
* `audio_wav`: the WAV reader and writer;
* `speech_queue`: the priority policy (pure, tested without a clock);
* `speech_trim`: the engine's leading silence cut as it streams;
* `audio_player`: the thread that applies the queue's decisions and feeds a sink.
"""

from __future__ import annotations

from .audio_player import BLOCK_MS, Player, Settings, SinkFailed
from .audio_sinks import (
    AudioUnavailable,
    DeviceSink,
    FileSink,
    NullSink,
    Pacer,
    RecordedItem,
    RecordingSink,
    Sink,
    resample,
)
from .audio_wav import appendable_layout, wav_header
from .speech_queue import CUT_BY_INPUT, Decision, Item, SpeechQueue

__all__ = [
    "BLOCK_MS", "CUT_BY_INPUT", "AudioUnavailable", "Decision", "DeviceSink", "FileSink", "Item",
    "NullSink", "Pacer", "Player", "RecordedItem", "RecordingSink", "Settings", "Sink", "SinkFailed",
    "SpeechQueue", "appendable_layout", "resample", "wav_header",
]
