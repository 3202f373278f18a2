"""A GameUI for the toy Nim game, so the session can be tested without a real game."""

from __future__ import annotations

from typing import Any

from companion.core import Bot, Event, IllegalAction, Match, RandomBot
from companion.core.text import words
from companion.games.base import Act, Answer, Confirm, GameUI, Intent, Refuse
from companion.narration import Priority, Raw, Utterance

from .toygame import Nim, Take


def line(text: str, to: int | None = None, priority: Priority = Priority.MESSAGE) -> Utterance:
    return Utterance((Raw(text),), priority, None, to)


class NimUI(GameUI):
    def parse(self, text: str, match: Match[Any, Any], seat: int) -> Intent | None:
        w = words(text)
        if w[:1] in (["take"], ["prends"]) and len(w) == 2 and w[1].isdigit():
            return Act(Take(int(w[1])))
        if w[:1] == ["sure"] and len(w) == 2 and w[1].isdigit():
            return Confirm(Take(int(w[1])), line(f"take {w[1]}?", seat, Priority.TEXT))
        if w == ["secret"]:
            return Answer([line(f"your secret is {match.state.secrets[seat]}", seat, Priority.TEXT)])
        if w == ["nope"]:
            return Refuse([line("no way", seat, Priority.IMPORTANT)])
        return None

    def narrate(self, event: Event, match: Match[Any, Any]) -> list[Utterance]:
        d = event.data
        if event.type == "stones_taken":
            return [line(f"{match.players[d['seat']]} took {d['n']}, {d['left']} left")]
        if event.type == "secret_dealt":
            return [line(f"secret {d['secret']}", d["seat"])]
        if event.type == "game_ended":
            return [line(f"game over, {match.players[d['winners'][0]]} wins", None, Priority.IMPORTANT)]
        return []

    def help(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return [line("say take 1, 2 or 3", seat, Priority.TEXT)]

    def status(self, match: Match[Any, Any], seat: int | None) -> list[Utterance]:
        return [line(f"{match.state.pile} stones left", seat, Priority.TEXT)]

    def refusal(self, exc: IllegalAction, match: Match[Any, Any], seat: int) -> list[Utterance]:
        return [line(f"refused: {exc.code}", seat, Priority.IMPORTANT)]


class TakeOne(Bot):
    def choose(self, state: Any) -> Any:
        return Take(1)


BOTS: dict[str, type[Bot]] = {"one": TakeOne, "random": RandomBot}
Rules = Nim
UI = NimUI
