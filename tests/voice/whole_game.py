"""A whole seeded game played by voice alone (issue 30, "Done when"): the human's moves are
precomputed by playing the same seeded game in-process (the session `companion play` makes,
a bot choosing for the human), each move said as its canonical phrase (`GameUI.phrases`: the
listed phrase whose command is the move), spoken by a held-out synthesizer, joined with
silences into one recording for `companion play GAME --voice-input FILE`."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.core import Rng, find
from companion.games.base import action_command
from companion.language.sayable import shared_phrases

#: the held-out voices (never fitted on, docs/voice.md): English another synthesizer family,
#: French the espeak-ng French variants no benchmark fits on (no other French synthesizer here)
VOICES = {"en": ("flite:slt", "flite:kal16"), "fr": ("fr-ch", "fr+klatt")}
HUMAN = {"en": "Human", "fr": "Humain"}


@dataclass
class Plan:
    game: str
    lang: str
    seed: int
    bots: int
    options: dict[str, str]
    said: list[tuple[str, str]] = field(default_factory=list)  # (phrase, command) in order
    moves: int = 0  # the human's moves
    over: bool = False


def word(command: str, lang: str) -> str:
    return next(p for p, c in shared_phrases(lang) if c == command)


def plan(game_name: str, lang: str, seed: int, bots: int = 1, options: dict[str, str] | None = None,
         max_turns: int = 200) -> Plan:
    """Play the seeded game as `companion play GAME --players Human --bots N --seed S` makes it,
    the human's moves chosen by the game's default bot on its own stream, each given by its
    phrase (typed: so the phrase is known to read as that move), answering « oui » where the
    game asks."""
    from companion.cli.runner import load_game, make_session, table_options

    options = dict(options or {})
    entry = find(game_name)
    opts = table_options(entry, dict(options), 1, lang)
    game, ui, bot_kinds = load_game(entry, opts, lang)
    kind = next(iter(bot_kinds))
    from companion.narration import Msg, catalog

    names = [HUMAN[lang]] + [catalog(lang).text(Msg("core.bot_name", n=i + 1)) for i in range(bots)]
    args = argparse.Namespace(verbosity=None, log=None, log_private=False)
    session = make_session(entry, game, ui, bot_kinds, names, [None] + [kind] * bots, seed, {}, None, None, args, lang)
    session.core.out = lambda _t: None
    session.start()
    match = session.match
    chooser = bot_kinds[kind](game, 0, Rng(seed).fork(999))
    out = Plan(game_name, lang, seed, bots, options)
    yes = word("yes", lang)
    for _ in range(max_turns):
        if match.over:
            break
        assert match.current == 0, match.current
        legal = match.legal(0)
        sayable = ui.phrases(match, 0, lang)
        listed = {c: p for p, c in reversed(sayable.concrete) if c.startswith("action:")}  # the first phrase of each
        want = action_command(game, chooser.choose(match.state))
        if want not in listed:  # a sample of the moves is listed (2kissa10): take the first listed legal move
            want = next(action_command(game, a) for a in legal if action_command(game, a) in listed)
        before = len(match.history)
        session.handle(listed[want], 0)
        out.said.append((listed[want], want))
        if len(match.history) == before and session.pending:
            session.handle(yes, 0)  # the game's own question (a 2kissa10 equation and its score)
            out.said.append((yes, "yes"))
        assert len(match.history) > before, (listed[want], want)
        out.moves += 1
    out.over = match.over
    out.said += [(word("quit", lang), "quit"), (yes, "yes")]  # then leave: the quit question, « oui »
    return out


def recording(p: Plan, path: Path, gap: float = 0.8) -> None:
    """The plan's phrases spoken by the held-out voices in turn, joined by `gap` of quiet room."""
    from companion.inputs.voice import synth
    from companion.inputs.voice.sources import write_wav

    voices = VOICES[p.lang]
    synth.prefetch([(text, voices[i % len(voices)], 160) for i, (text, _c) in enumerate(p.said)])
    parts = []
    for i, (text, _c) in enumerate(p.said):
        parts += [synth.utterance(text, voices[i % len(voices)], 160, seed=i), synth.silence(gap, seed=1000 + i)]
    write_wav(path, np.concatenate(parts))


@dataclass
class Run:
    out: str
    inputs: list[dict[str, Any]]
    returncode: int | None
    seconds: float

    @property
    def voice(self) -> list[dict[str, Any]]:
        return [i for i in self.inputs if i.get("source") == "voice"]


def play(p: Plan, wav: Path, tmp: Path, realtime: bool = False, timeout: float = 240) -> Run:
    """`companion play` with the recording as its only input: standard input stays open and
    says nothing (no keyboard line) until the game ends."""
    import time

    log = tmp / "log.jsonl"
    env = {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp / "data")}
    cmd = [sys.executable, "-m", "companion.cli", "play", p.game, "--players", HUMAN[p.lang], "--bots", str(p.bots),
           "--lang", p.lang, "--speech", "text", "--voice-input", str(wav), "--seed", str(p.seed), "--log", str(log)]
    for k, v in p.options.items():
        cmd += ["-o", f"{k}={v}"]
    if realtime:
        cmd.append("--voice-realtime")
    printed = tmp / "out.txt"
    t0 = time.monotonic()
    with printed.open("w") as fh:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=fh, stderr=subprocess.STDOUT, env=env)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            proc.kill()
            proc.wait()
            assert proc.stdin is not None
            proc.stdin.close()
    seconds = time.monotonic() - t0
    records = [json.loads(ln) for ln in log.read_text().splitlines()] if log.exists() else []
    return Run(printed.read_text(), [r for r in records if r.get("type") == "input"], proc.returncode, seconds)


def tally(p: Plan, run: Run) -> dict[str, Any]:
    """Utterances, read-backs and misheard lines (the line heard against the line said)."""
    voice = run.voice
    misheard = [(said, got.get("heard")) for (said, command), got in zip(p.said, voice, strict=False)
                if got.get("command") != command]
    return {"game": p.game, "lang": p.lang, "utterances": len(p.said), "heard": len(voice),
            "read_backs": sum(1 for i in voice if i.get("outcome") == "confirm" and i.get("command") != "yes"),
            "misheard": misheard, "seconds": round(run.seconds, 1)}
