"""Bot-only games and their transcripts: the events of a match narrated as plain lines.

Used by `companion play` with every seat a bot, by the demo, and by golden-transcript tests.
Golden transcripts are driven by committed journals (`journal_game`): the game is replayed
from its seed and its action list, so a change in a bot never rewrites them; only a change
in the rules or the narration does. `write_journal` records a match as such a journal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.core import Bot, Event, GameEntry, Match, Rng, find
from companion.games.base import GameUI
from companion.narration import Utterance, Verbosity, catalog


def load(entry: GameEntry, **options: Any) -> tuple[Any, GameUI, dict[str, Any]]:
    """The game's rules object, its UI and its bots, from the registry entry."""
    spec = entry.spec()
    game = spec.rules(**options)
    return game, spec.ui()(game), dict(spec.bots())


def make_bots(
    game: Any, bots: dict[str, Any], kinds: list[str], seed: int
) -> list[Bot]:
    """One bot per seat, each with its own random stream derived from the game's seed."""
    root = Rng(seed)
    return [bots[k](game, seat, root.fork(seat + 1)) for seat, k in enumerate(kinds)]


def bot_game(
    entry: GameEntry,
    seed: int,
    kinds: list[str] | None = None,
    names: list[str] | None = None,
    max_steps: int = 100_000,
    **options: Any,
) -> tuple[Match[Any, Any], GameUI]:
    """A whole game played by bots (kinds default to the game's first bot in every seat)."""
    game, ui, bots = load(entry, **options)
    n = len(kinds or names or []) or entry.min_players
    kinds = kinds or [next(iter(bots))] * n
    names = names or [f"Bot {i + 1}" for i in range(n)]
    match: Match[Any, Any] = Match(game, names, seed)
    seats = make_bots(game, bots, kinds, seed)
    for bot in seats:
        bot.observe([e for e in match.setup_events if e.visible_to(bot.seat)])
    for _ in range(max_steps):
        if match.over:
            break
        seat = match.current
        assert seat is not None
        events = match.play(seat, seats[seat].choose(match.state))
        for bot in seats:
            bot.observe([e for e in events if e.visible_to(bot.seat)])
    return match, ui


def journal_game(path: Path) -> tuple[Match[Any, Any], GameUI]:
    """The match a journal records, replayed from its seed and actions (no bot is run)."""
    from companion.saves import journal as jr

    c = jr.read(path)
    entry = find(c.start["game"])
    game, ui, _ = load(entry, **dict(c.start.get("options", {})))
    match: Match[Any, Any] = Match(game, list(c.start["players"]), int(c.start["seed"]))
    match.replay(c.actions)
    return match, ui


def write_journal(path: Path, entry: GameEntry, match: Match[Any, Any], options: dict[str, Any],
                  kinds: list[str | None], lang: str = "fr") -> None:
    """Record `match` (its seed, options, players and every action) as a journal."""
    from companion.saves import journal as jr

    start = {"game": entry.name, "options": options, "players": list(match.players), "seats": kinds,
             "seed": match.seed, "lang": lang}
    with jr.Journal.create(path, start) as j:
        for step in match.history:
            j.action(step.seat, match.game.action_to_json(step.action))
        if match.over:
            out = match.outcome()
            j.end(list(out.scores), list(out.winners))


def utterances(ui: GameUI, match: Match[Any, Any], events: list[Event]) -> Iterator[Utterance]:
    for ev in events:
        yield from ui.narrate(ev, match)


def transcript(
    ui: GameUI,
    match: Match[Any, Any],
    lang: str = "fr",
    verbosity: Verbosity = Verbosity.NORMAL,
    viewer: int | None = None,
    strict: bool = False,
) -> list[str]:
    """Every event of the match as the table (viewer None) or one seat would hear it.

    Private utterances are kept only for their own seat; a line said privately is marked
    with the listener's name in brackets, as the session prints it.
    """
    cat = catalog(lang, strict=strict)
    lines = []
    for utt in utterances(ui, match, match.events()):
        if utt.to is not None and utt.to != viewer:
            continue
        text = cat.render(utt, verbosity)
        if utt.to is not None:
            text = f"[{match.players[utt.to]}] {text}"
        lines.append(text)
    return lines
