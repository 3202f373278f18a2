"""speech-dispatcher, where it is installed: a real server, spawned for the test in a private
HOME whose user configuration sends its sound to ALSA's null device.

Skipped when the server or its Python client (Debian: speech-dispatcher, python3-speechd)
is missing, except under CI, where `./run setup` has installed them. The Debian client is made importable by a symbolic link in a temporary folder
put on PYTHONPATH (the venv is not changed). The server started by the test is stopped by
its process id at the end.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = Path("/usr/lib/python3/dist-packages/speechd")
SYSTEM_CONF = Path("/etc/speech-dispatcher/speechd.conf")

_MISSING = shutil.which("speech-dispatcher") is None or not CLIENT.is_dir() or not SYSTEM_CONF.exists()
# `./run setup` installs both (APT_PACKAGES): under CI a missing server is a failure, not a skip
assert not (_MISSING and os.environ.get("CI") == "true"), \
    "speech-dispatcher and python3-speechd are required under CI (apt-get install speech-dispatcher python3-speechd)"
needs_server = pytest.mark.skipif(_MISSING, reason="speech-dispatcher or python3-speechd not installed")

SCRIPT = r"""
import json, time, threading
from companion.outputs.speaker import open_speaker
from companion.outputs.speech import get_engine
from companion.narration import Priority, catalog
out = {}
eng = get_engine("speech-dispatcher")
done = threading.Event()
eng.speak("Bonjour.", "fr", priority=2, done=done.set)
out["done"] = done.wait(10)
out["voices_fr"] = len(eng.voices("fr"))
sp = open_speaker("speech-dispatcher", "null", "fr")
out["describe"] = [catalog("fr").render(u) for u in sp.describe()]
sp.say("C'est au tour de Marie.", Priority.MESSAGE)
out["waited"] = sp.wait(10)
long = sp.say("Une très longue lecture des règles du jeu, " * 20, Priority.TEXT)
end = time.monotonic() + 30
while long.started is None and time.monotonic() < end:  # cut once it is being said
    time.sleep(0.005)
out["long_started"] = long.started is not None
sp.interrupt()
out["cut_waited"] = sp.wait(30)  # the text lasts a minute: only a cut ends it sooner
out["cut"] = long.cut
out["errors"] = sp.player.errors
sp.close()
print(json.dumps(out))
"""


@pytest.fixture
def home(short_path):
    tmp_path = short_path  # speech-dispatcher's socket is under it: its path must fit in 108 bytes
    (tmp_path / ".asoundrc").write_text("pcm.!default { type null }\n")
    conf = tmp_path / ".config" / "speech-dispatcher"
    conf.mkdir(parents=True)
    text = SYSTEM_CONF.read_text()
    (conf / "speechd.conf").write_text(text + '\nAudioOutputMethod "alsa"\n')
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "speechd").symlink_to(CLIENT)
    yield tmp_path
    pidfile = tmp_path / ".cache" / "speech-dispatcher" / "pid" / "speech-dispatcher.pid"
    if pidfile.exists():
        try:
            os.kill(int(pidfile.read_text().split()[0]), signal.SIGTERM)
        except (ValueError, ProcessLookupError):
            pass

@needs_server
def test_speaks_stops_and_goes_through_the_priority_queue(home):
    env = dict(os.environ, HOME=str(home), PYTHONPATH=f"{ROOT}{os.pathsep}{home / 'py'}")
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_RUNTIME_DIR", None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=home, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["done"] is True  # the server said it had finished
    assert out["voices_fr"] >= 1
    assert out["describe"] == ["Voix : speech-dispatcher.", "Sortie : aucune, rien n'est joué."]
    assert out["waited"] and out["long_started"] and out["cut"] and out["cut_waited"]
    assert out["errors"] == []


def test_a_stalled_server_does_not_hang_the_companion(monkeypatch):
    """A stand-in for the python3-speechd client whose server never answers `speak`."""
    import threading
    import types

    from companion.narration import Priority
    from companion.outputs import speech as speech_mod
    from companion.outputs.audio.sinks import NullSink
    from companion.outputs.speaker import Speaker

    never = threading.Event()

    class Client:
        def __init__(self, name):
            pass

        def __getattr__(self, name):
            return lambda *a, **k: None

        def speak(self, *a, **k):
            never.wait()

    fake = types.SimpleNamespace(
        SSIPClient=Client,
        Priority=types.SimpleNamespace(IMPORTANT=1, MESSAGE=2, TEXT=3, NOTIFICATION=4),
        CallbackType=types.SimpleNamespace(END="end", CANCEL="cancel"),
    )
    monkeypatch.setitem(sys.modules, "speechd", fake)
    monkeypatch.setattr(speech_mod.SpeechDispatcherEngine, "CALL_TIMEOUT", 0.2)
    eng = speech_mod.SpeechDispatcherEngine()
    sp = Speaker(eng, NullSink(), "fr")
    try:
        sp.say("Bonjour.", Priority.MESSAGE)
        sp.say("Encore.", Priority.MESSAGE)
        assert sp.wait(30)  # given up after CALL_TIMEOUT, not waited for ever
        assert eng.broken and "did not answer" in sp.player.errors[0]
    finally:
        never.set()
        sp.close()
