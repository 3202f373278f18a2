"""The real sound-device output, in a subprocess, on ALSA's null device; and without any.

HOME is a temporary folder holding `.asoundrc` = `pcm.!default { type null }` (tech-stack
§2.2), so PortAudio finds a "default" device that swallows the sound: no sound card needed.
The tests of a machine without any sound device run where there is none (this VM, CI) and
are skipped on a machine with a sound card. (Hiding the cards with an empty
ALSA_CONFIG_PATH makes PortAudio abort, so it is not used.)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
from pathlib import Path
from companion.outputs.speaker import open_speaker
from companion.narration import Priority, catalog
spec, fallback = sys.argv[1], sys.argv[2] or None
sp = open_speaker("espeak-ng", spec, "fr", fallback_wav=Path(fallback) if fallback else None)
item = sp.say("À Marie.", Priority.MESSAGE, earcon="turn")
ok = sp.wait(10)
out = {
    "kind": sp.sink.kind,
    "channels": getattr(sp.sink, "channels", None),
    "describe": [catalog("fr").render(u) for u in sp.describe()],
    "done": item.done.is_set(), "cut": item.cut, "waited": ok,
    "errors": sp.player.errors,
}
sp.close()
print(json.dumps(out))
"""


def run(tmp_path, spec, fallback="", asound=True, argv=None, script=SCRIPT):
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    if asound:
        (tmp_path / ".asoundrc").write_text("pcm.!default { type null }\n")
    else:
        no_sound_card_here(tmp_path)
    cmd = [sys.executable, "-c", script] + (argv if argv is not None else [spec, str(fallback)])
    proc = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc


_HAS_CARD: list[bool] = []


def no_sound_card_here(tmp_path):
    """Skip unless PortAudio finds no output device here (with no .asoundrc)."""
    if not _HAS_CARD:
        probe = "import sounddevice as sd; sd.query_devices(kind='output')"
        env = dict(os.environ, HOME=str(tmp_path))
        proc = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, timeout=30)
        _HAS_CARD.append(proc.returncode == 0)
    if _HAS_CARD[0]:
        pytest.skip("this machine has a sound device")


def result(proc):
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_default_device_on_alsa_null(tmp_path):
    r = result(run(tmp_path, "device"))
    assert r["kind"] == "device" and r["done"] and r["waited"] and not r["errors"]
    assert r["describe"] == ["Voix : espeak-ng.", "Sortie : default."]


def test_auto_uses_the_device_when_there_is_one(tmp_path):
    r = result(run(tmp_path, "auto", tmp_path / "never.wav"))
    assert r["kind"] == "device" and not (tmp_path / "never.wav").exists()


def test_one_side_of_a_device_as_a_private_channel(tmp_path):
    r = result(run(tmp_path, "device:default:left"))
    assert r["kind"] == "device" and r["channels"] == 2 and r["done"]
    assert r["describe"][-1] == "Sortie : côté gauche de default."
    r = result(run(tmp_path, "device:0:right"))
    assert r["describe"][-1] == "Sortie : côté droit de default."


def test_unknown_device_falls_back_to_the_file_and_says_so(tmp_path):
    wav = tmp_path / "secours.wav"
    r = result(run(tmp_path, "device:Casque USB inexistant", wav))
    assert r["kind"] == "file" and r["done"]
    assert r["describe"][-1] == f"Sortie : pas de carte son, le son est écrit dans {wav}."
    import soundfile as sf

    assert 0.4 < sf.info(str(wav)).duration < 2.0


def test_no_sound_card_auto_falls_back_to_file(tmp_path):
    wav = tmp_path / "partie.wav"
    r = result(run(tmp_path, "auto", wav, asound=False))
    assert r["kind"] == "file" and r["done"] and r["waited"]
    assert r["describe"][-1] == f"Sortie : pas de carte son, le son est écrit dans {wav}."
    assert wav.stat().st_size > 20000


def test_no_sound_card_and_no_file_is_silent_and_says_so(tmp_path):
    r = result(run(tmp_path, "auto", "", asound=False))
    assert r["kind"] == "null" and r["done"] and not r["errors"]
    assert r["describe"][-1] == "Sortie : pas de carte son, rien n'est joué. Lisez le texte affiché."


SAY = "import sys; from companion.cli.say import say_main; sys.exit(say_main(sys.argv[1:]))"


def test_say_command_without_sound_card_prints_where_the_sound_went(tmp_path):
    proc = run(tmp_path, "", asound=False, script=SAY, argv=["Bonjour", "--lang", "fr"])
    assert proc.stdout.splitlines() == [
        "Voix : espeak-ng.",
        "Sortie : pas de carte son, rien n'est joué. Lisez le texte affiché.",
        "Bonjour",
    ]


def test_say_command_on_alsa_null(tmp_path):
    proc = run(tmp_path, "", script=SAY, argv=["Hello", "--lang", "en", "--output", "device:default:right"])
    assert proc.stdout.splitlines() == ["Voice: espeak-ng.", "Output: right side of default.", "Hello"]


@pytest.mark.parametrize("engine", ["pyttsx3", "text"])
def test_other_engines_on_the_device(tmp_path, engine):
    script = SCRIPT.replace('open_speaker("espeak-ng"', f'open_speaker("{engine}"')
    r = result(run(tmp_path, "device", script=script))
    assert r["kind"] == "device" and r["done"] and not r["errors"]
    assert r["describe"][0].startswith("Voix : ")


TWO = r"""
import json
from companion.outputs.speaker import open_speaker
from companion.narration import Priority, catalog
table = open_speaker("espeak-ng", "device", "fr")
marie = open_speaker("espeak-ng", "device:default:left", "fr")
paul = open_speaker("espeak-ng", "device:default:right", "en")
items = [table.say("Au tour de Marie.", Priority.MESSAGE),
         marie.say("Ta main : trois, cinq, neuf.", Priority.TEXT, earcon="private"),
         paul.say("Your hand: two, four.", Priority.TEXT, earcon="private")]
ok = all(s.wait(10) for s in (table, marie, paul))
print(json.dumps({"kinds": [s.sink.kind for s in (table, marie, paul)], "ok": ok,
                  "done": [i.done.is_set() and not i.cut for i in items],
                  "describe": [catalog("fr").render(s.describe()[-1]) for s in (table, marie, paul)],
                  "errors": [e for s in (table, marie, paul) for e in s.player.errors]}))
for s in (table, marie, paul):
    s.close()
"""


def test_table_and_two_private_channels_at_once(tmp_path):
    r = result(run(tmp_path, "", script=TWO, argv=[]))
    assert r["kinds"] == ["device", "device", "device"] and r["ok"] and all(r["done"])
    assert r["describe"] == ["Sortie : default.", "Sortie : côté gauche de default.",
                             "Sortie : côté droit de default."]
    assert r["errors"] == []


CAPTURE = r"""
import sys
from companion.outputs.speaker import open_speaker
from companion.narration import Priority
sp = open_speaker("espeak-ng", sys.argv[1], "fr")
sp.say("C'est au tour de Marie.", Priority.MESSAGE)
assert sp.wait(10)
sp.close()
print(sp.sink.sample_rate, sp.sink.channels)
"""


@pytest.mark.parametrize("spec, side", [("device:default:left", 0), ("device:default:right", 1), ("device", None)])
def test_what_reaches_the_device_is_the_speech_on_the_right_side(tmp_path, spec, side):
    """ALSA's `file` plugin in front of the null device keeps what PortAudio played
    (float32 samples, raw), so the test hears exactly what a headset would."""
    import numpy as np

    from companion.outputs.speech.espeak import EspeakNgEngine
    from companion.outputs.speech.trim import trim_leading

    cap = tmp_path / "captured.raw"
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{cap}"\n format "raw"\n}}\n'
    )
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", CAPTURE, spec], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    sr, channels = map(int, proc.stdout.split())
    frames = np.fromfile(cap, dtype="<f4").reshape(-1, channels)
    # the speaker's first sentence, as the espeak-ng program makes it (libespeak-ng keeps a
    # little state from one sentence to the next: a later one may differ by a few samples)
    program = EspeakNgEngine(backend="process")
    try:
        full, esr = program.synth("C'est au tour de Marie.", "fr")
    finally:
        program.close()
    # the device gets the speech without the engine's leading silence
    expected = np.concatenate([c for c, _ in trim_leading([(full, esr)])])
    assert 0 < len(full) - len(expected) < esr // 10
    assert sr == esr and channels == 2
    assert len(frames) == pytest.approx(len(expected), abs=sr // 50)
    if side is None:
        assert np.allclose(frames[:, 0], frames[:, 1])
        heard = frames[:, 0]
    else:
        assert not frames[:, 1 - side].any()  # nothing at all on the other player's side
        heard = frames[:, side]
    n = min(len(heard), len(expected))
    assert np.max(np.abs(heard)) == pytest.approx(np.max(np.abs(expected)), abs=1e-3)
    assert np.corrcoef(heard[:n], expected[:n])[0, 1] > 0.99
