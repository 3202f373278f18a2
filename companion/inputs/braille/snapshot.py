"""The status and the choices a braille seat shows, read from the session in the loop's thread.

`Snapshots(core)` is called by the seat's channel hook right after the table delivered a
line (the table loop's thread, the only one that touches the match): who is to move, this
seat's score, whether a question waits for its answer, and the moves of this turn as
choices for the routing keys — only this seat's own (its legal moves, what it may say now),
never another seat's holdings.
"""

from __future__ import annotations

from typing import Any

from .view import Info

MAX_OFFERS = 48  # more than this (2kissa10's thousands of moves): words are picked, not moves
ANSWERS = ("yes", "no")


class Snapshots:
    def __init__(self, core: Any) -> None:
        self.core = core
        self._offers: dict[tuple[int, str, bool], tuple[tuple[int, ...], tuple[tuple[str, str], ...]]] = {}

    def __call__(self, seat: int, lang: str) -> Info:
        core = self.core
        match = core.match
        over = match.over
        cur = None if over else match.current
        turn = core.seats[cur].name if cur is not None else ""
        asked = seat in getattr(core, "pending", {})
        try:
            score: int | None = int(match.game.scores(match.state)[seat])
        except Exception:  # noqa: BLE001 - a game whose score is only known at the end
            score = None
        key = (len(match.history), int(asked), id(core.pending.get(seat)) if asked else 0)
        offers: tuple[tuple[str, str], ...] = ()
        if not over and (cur == seat or asked):
            offers = self._choices(seat, lang, key)
        return Info(turn=turn, mine=cur == seat, asked=asked, score=score, offers=offers, key=key)

    def _choices(self, seat: int, lang: str, key: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
        cached = self._offers.get((seat, lang, True))
        if cached is not None and cached[0] == key:
            return cached[1]
        core = self.core
        sayable = core.ui.phrases(core.match, seat, lang, limit=MAX_OFFERS * 4)
        seen: set[str] = set()
        picked: list[tuple[str, str]] = []
        for phrase, command in sayable.concrete:
            if command in seen:
                continue
            if command.startswith("action:") or (key[1] and command in ANSWERS):
                seen.add(command)
                picked.append((phrase, command))
        moves = [p for p in picked if p[1].startswith("action:")]
        if sayable.sampled or len(moves) > MAX_OFFERS:
            picked = [p for p in picked if not p[1].startswith("action:")]
        offers = tuple((short, phrase) for short, (phrase, _) in zip(_shortened([p for p, _ in picked]), picked, strict=True))
        self._offers[(seat, lang, True)] = (key, offers)
        return offers


def _shortened(phrases: list[str]) -> list[str]:
    """The choices without the words they all start with (« je demande le »): shown short,
    played whole."""
    if len(phrases) < 2:
        return phrases
    split = [p.split() for p in phrases]
    n = 0
    while all(len(s) > n + 1 for s in split) and len({s[n] for s in split}) == 1:
        n += 1
    return [" ".join(s[n:]) for s in split]


def info_json(info: Info) -> dict[str, Any]:
    """For `companion join --braille`: the snapshot sent with the seat's lines."""
    return {"turn": info.turn, "mine": info.mine, "asked": info.asked, "score": info.score,
            "offers": [list(o) for o in info.offers], "key": list(info.key)}


def info_from_json(data: Any) -> Info:
    if not isinstance(data, dict):
        return Info()
    try:
        return Info(turn=str(data.get("turn", ""))[:40], mine=bool(data.get("mine")), asked=bool(data.get("asked")),
                    score=None if data.get("score") is None else int(data["score"]),
                    offers=tuple((str(a)[:200], str(b)[:400]) for a, b in data.get("offers", [])[:MAX_OFFERS * 2]),
                    key=tuple(int(k) for k in data.get("key", [])[:3]))
    except (TypeError, ValueError):
        return Info()


__all__ = ["MAX_OFFERS", "Snapshots", "info_from_json", "info_json"]
