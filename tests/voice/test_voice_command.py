"""Issue 24 §3-4: voice posts the typed command the grammar reads, and the session reads back
what changes state below the threshold; `companion voice recognize --json` says both. Real
recogniser, recordings made by espeak-ng."""

import json

from companion.core import Match, find
from companion.inputs.voice import synth
from companion.inputs.voice.listener import TALK_FLOOR, Listener
from companion.inputs.voice.recognizer import Result
from companion.inputs.voice.sayable import sayable_now
from companion.inputs.voice.sources import write_wav
from companion.inputs.voice.whisper import Transcript, WhisperResult
from companion.session.core import CONFIDENCE_THRESHOLD
from companion.session.inbox import Inbox
from companion.session.transcript import load
from tests.voice.needs import need_voice


def goodfortune():
    game, ui, _ = load(find("goodfortune"))
    match = Match(game, ["Marie", "Paul"], 1)
    return ui, match, match.current


def test_recognize_json_gives_the_command_and_whether_it_is_read_back(tmp_path, capsys):
    need_voice()
    from companion.cli.voice import voice_main

    ui, match, seat = goodfortune()
    listed = {m.phrase: m.command for m in sayable_now(ui, match, seat, "en").phrases()}
    move = sorted(p for p in listed if "push" in p)[0]
    wav = tmp_path / "move.wav"
    write_wav(wav, synth.utterance(move, "en-us", 160))
    assert voice_main(["recognize", str(wav), "--game", "goodfortune", "--lang", "en", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"text", "line", "confidence", "command", "read_back"} <= set(out)
    assert out["line"] == move and out["command"] == {"kind": "push", **out["command"]} and len(out["command"]) > 1
    assert out["read_back"] == (out["confidence"] < CONFIDENCE_THRESHOLD)
    wav = tmp_path / "undo.wav"
    write_wav(wav, synth.utterance("undo", "en-us", 160))
    assert voice_main(["recognize", str(wav), "--game", "goodfortune", "--lang", "en", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    if out.get("talk"):  # below the talk floor the live listener drops it: so does the JSON
        assert out["command"] is None and out["read_back"] is False and out["confidence"] < TALK_FLOOR
    else:
        assert out["command"] == {"kind": "shared", "word": "undo"}
        assert out["read_back"] == (out["confidence"] < CONFIDENCE_THRESHOLD)


def test_recognize_json_says_talk_where_the_listener_drops_a_line_as_talk():
    from companion.cli.voice import taken_as

    ui, match, seat = goodfortune()
    ps = sayable_now(ui, match, seat, "en")
    unsure = taken_as(Result("undo", "undo", "undo", TALK_FLOOR / 2), ps, ui, match, seat)
    assert unsure == {"command": None, "read_back": False, "talk": True}
    doubt = taken_as(Result("undo", "undo", "undo", (TALK_FLOOR + CONFIDENCE_THRESHOLD) / 2), ps, ui, match, seat)
    assert doubt == {"command": {"kind": "shared", "word": "undo"}, "read_back": True}


def listener_on(ui, match, seat):
    ps = sayable_now(ui, match, seat, "en")
    return Listener([], None, Inbox(), lambda: ps), ps  # (no sound: the recognise step alone)


def test_the_listener_posts_the_typed_command_the_grammar_reads():
    ui, match, seat = goodfortune()
    listener, ps = listener_on(ui, match, seat)
    listener._current = ps
    move = sorted(m.phrase for m in ps.phrases() if m.phrase.startswith("I push"))[0]
    line = listener.line_of(Result(move.lower(), move, "action", 0.9))
    assert line.text == move and line.heard == move.lower() and line.confidence == 0.9
    assert line.command == ui.command(move, match, seat) and line.command is not None and not line.talk
    shared = listener.line_of(Result("repeat", "repeat", "repeat", 0.9))
    assert shared.command is None and shared.text == "repeat"


def test_the_listener_posts_talk_and_near_misses_as_such():
    ui, match, seat = goodfortune()
    listener, ps = listener_on(ui, match, seat)
    listener._current = ps
    talk = listener.line_of(Result("repeat", "repeat", "repeat", TALK_FLOOR / 2))
    assert talk.talk and talk.heard == "repeat" and talk.command is None
    near = listener.line_of(Result("repeet", None, None, 0.0))
    assert near.nearest == "repeat" and near.command is None and not near.talk
    assert listener.line_of(Result("", None, None, 0.0)) is None  # nothing heard: nothing posted
    # Whisper's own words that are no listed phrase are what people said: talk, not a near miss
    said = WhisperResult("so what did you think of it", None, None, 0.0, (), Transcript("so what did you think of it", -0.4, 0.1))
    free = listener.line_of(said)
    assert free.talk and free.nearest is None and free.command is None and free.heard == said.text
