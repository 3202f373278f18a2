"""`companion play` runs one table loop (issue #23): the session's own, with its bots' worker;
the runner builds none of its own around the same core."""

from __future__ import annotations

import threading

from companion.cli import main
from companion.session import loop as loop_module


def test_play_builds_one_loop_and_its_worker(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SPEECH", "none")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    made: list[loop_module.TableLoop] = []
    real_init = loop_module.TableLoop.__init__

    def counted(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(loop_module.TableLoop, "__init__", counted)
    before = {t.ident for t in threading.enumerate() if t.name == "bot-worker"}
    assert main(["play", "kissa", "--seed", "3", "--lang", "en"]) == 0  # bots only: to the end
    assert len(made) == 1 and made[0].worker is not None  # bots searched in the one loop's worker
    assert made[0].core.match.over
    workers = [t for t in threading.enumerate() if t.name == "bot-worker" and t.ident not in before]
    for t in workers:
        t.join(5)
    assert not any(t.is_alive() for t in workers)  # closed with the loop
