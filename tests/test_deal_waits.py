"""No game dealt that nobody can play (issue 25, point 7): the companion holding KIKOI's
tokens (or Kaliko's tiles) for two or more humans deals only when each can hear their own hand.

Without any channel to come, `play` offers the real game or the channels in one sentence and
deals nothing; with `--web` or `--join`, the deal waits for every human's page or terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.core import GAMES, Match
from companion.session import Seat, Session
from companion.session.transcript import load

BIN = Path(sys.executable).parent / "companion"


class Page:
    public = True

    def __init__(self) -> None:
        self.lines: list[str] = []

    def deliver(self, text: str, *, private: bool, priority: Any, earcon: Any, lang: str) -> None:
        self.lines.append(("[privé] " if private else "") + text)

    def interrupt(self) -> None:
        pass


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_SPEECH": "none", "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}


@pytest.mark.parametrize(("game", "lang", "said"), [
    ("kikoi", "fr", "Il manque un canal privé à Anne, Bruno et Chloé pour entendre ce qu'on a en main"),
    ("kaliko", "en", "A private channel is missing for Anne and Bruno to hear what they hold"),
])
def test_play_without_channels_offers_the_real_game_or_channels_and_deals_nothing(tmp_path: Path, game: str,
                                                                                   lang: str, said: str) -> None:
    players = "Anne,Bruno,Chloé" if game == "kikoi" else "Anne,Bruno"
    r = subprocess.run([str(BIN), "play", game, "--players", players, "--seed", "3", "--lang", lang],
                       input="quit\n", capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert r.returncode == 2
    assert said in r.stdout + r.stderr and "-o physical=true" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert not list((tmp_path / "data").rglob("*.jsonl"))  # nothing dealt, nothing saved


@pytest.mark.parametrize("extra", [["--players", "Anne", "--bots", "2"], ["--players", "Anne,Bruno,Chloé", "-o", "physical=true"],
                                   ["--players", "Anne,Bruno,Chloé", "--private", "Anne=null", "--private", "Bruno=null",
                                    "--private", "Chloé=null"]])
def test_a_table_where_each_can_hear_their_hand_is_dealt(tmp_path: Path, extra: list[str]) -> None:
    from companion.cli import runner

    game, _, _ = load(next(g for g in GAMES if g.name == "kikoi"), **({"physical": True} if "physical=true" in extra else {}))
    names = [n for n in extra[1].split(",")] + (["Bot 1", "Bot 2"] if "--bots" in extra else [])
    kinds = [None if not n.startswith("Bot") else "random" for n in names]
    private = [e for e in extra if "=" in e and not e.startswith("physical")]

    class Args:
        pass

    args = Args()
    args.private = private  # type: ignore[attr-defined]
    args.speech = "espeak-ng"  # type: ignore[attr-defined]
    assert runner.unheard_humans(game, names, kinds, 3, args) == []  # type: ignore[arg-type]
    if private:  # without any voice, a private speaker is none: nobody would hear their hand
        args.speech = "none"  # type: ignore[attr-defined]
        assert runner.unheard_humans(game, names, kinds, 3, args) == ["Anne", "Bruno", "Chloé"]  # type: ignore[arg-type]


def _waiting_table() -> tuple[Session, list[str], Match[Any, Any]]:
    game, ui, _ = load(next(g for g in GAMES if g.name == "kikoi"), two_players=True)
    match: Match[Any, Any] = Match(game, ["Anne", "Bruno"], 5)
    lines: list[str] = []
    session = Session("kikoi", ui, match, [Seat("Anne"), Seat("Bruno")], out=lines.append, private_policy="withhold")
    session.core.deal_waits = True
    return session, lines, match


def test_with_pages_to_come_the_deal_waits_for_every_human() -> None:
    session, lines, match = _waiting_table()
    session.start()
    assert lines == ["La distribution attend que chacun ait son canal privé ; il manque encore Anne et Bruno."]
    lines.clear()
    session.handle("Bruno, kigliss dort")  # nobody plays while it waits
    assert lines == ["La distribution attend que chacun ait son canal privé ; il manque encore Anne et Bruno."]
    assert not match.history
    anne, bruno = Page(), Page()
    lines.clear()
    session.claim(0, anne, "web")
    assert lines[-1] == "La distribution attend que chacun ait son canal privé ; il manque encore Bruno."
    assert not any(line.startswith("[privé]") for line in anne.lines)  # not dealt yet
    session.claim(1, bruno, "web")
    # dealt now: each hears their own tokens on their own page, then the first player is asked
    assert any(line.startswith("[privé]") for line in anne.lines)
    assert any(line.startswith("[privé]") for line in bruno.lines)
    assert not set(anne.lines) & {x for x in bruno.lines if x.startswith("[privé]")}
    assert lines[-1] == "Anne, que demandes-tu, et à qui ?"
    assert "[Anne] (dit en privé à Anne)" in lines and "[Bruno] (dit en privé à Bruno)" in lines
    assert session.core.waiting is False
    session.handle("quitte")
    session.handle("oui")  # « Quitter la partie ? » (#29)
    assert not session.running


def test_quit_is_heard_while_the_deal_waits() -> None:
    session, lines, _ = _waiting_table()
    session.start()
    session.handle("quitte")
    session.handle("oui")  # « Quitter la partie ? » (#29)
    assert not session.running


def test_a_resumed_game_waits_too_and_then_tells_each_their_hand() -> None:
    session, lines, match = _waiting_table()
    match.play(0, match.legal(0)[0])  # a move made before the save was closed
    session.core.resumed = True
    session.start()
    assert lines[-1] == "La partie attend que chacun ait son canal privé ; il manque encore Anne et Bruno."
    anne, bruno = Page(), Page()
    session.claim(0, anne, "web")
    assert not any(line.startswith("[privé]") for line in anne.lines)
    session.claim(1, bruno, "web")
    assert any(line.startswith("[privé] Ton plateau") for line in anne.lines), anne.lines
    assert any(line.startswith("[privé] Ton plateau") for line in bruno.lines), bruno.lines
    assert not any("Les 5 KIKOI à 2 joueurs" in line for line in lines[-6:])  # the deal is not said again
    assert session.core.waiting is False
