"""Every word the session says lets no other listener infer a secret (issue 25, point 1).

`tests/test_hidden_info.py` checks the narration of moves, prompts and « état » against
`Game.view`; this extends it to every output of the session core (`SessionCore.handle`):
every `Say` a line causes — refusals, help, hints, questions back, « tu peux demander »
lists, errors — as heard by every listener other than the owner of a secret.

Random playouts of every game; at sampled steps every seat types random lines: the legal
moves of that moment, moves that were legal for someone at an earlier step (mostly illegal
now), the game's queries and the shared words, requests for random tokens of random seats,
and lines of nonsense. Each line is typed in the real state and in every state that differs
only in hidden holdings (the variants of `test_hidden_info.World`), at two tables:

* one keyboard, several humans, no private channel: everything said is heard by everyone,
  so two worlds with the same public view before and after the line must sound the same;
* every seat with a channel of its own: a listener hears the table's lines and their own;
  two worlds they cannot tell apart (same view of theirs) must sound the same to them.

Good Fortune and 2kissa10 hold no secrets (no hidden holdings, no chance in their moves:
`test_hidden_info.HIDDEN`): their lines are typed too, but no two worlds can differ there.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from companion.core import GAMES, Match, Rng
from companion.language.sayable import shared_phrases
from companion.session import Seat
from companion.session.core import SessionCore
from companion.session.inbox import Line
from companion.session.outputs import Say
from companion.session.transcript import load
from tests.test_hidden_info import HIDDEN, World, dump, playing_bots

# Lines any seat may type at any moment: queries, shared words, half-requests, nonsense.
ANY_LINE = (
    "aide", "help", "état", "status", "répète", "historique", "annule", "joue pour moi", "oui", "non",
    "mon plateau", "main", "my hand", "indice", "hint", "meilleur", "coups", "pioche", "passe", "kipirat",
    "je donne", "prêt", "tuile 2", "pose", "valide", "case 1h1", "zzz qwerty", "7", "rouge 3",
    "kigliss", "maison", "c'est quoi le kigliss ?", "bref", "détaillé",
)
KIKOI_WHITES = [f"{k} {m}" for k in ("kimouss", "kigratt", "kigliss", "kiboss", "kiboucle")
                for m in ("maison", "mange", "vélo", "forêt", "dort")]


class Table:
    """One game's playout, typed at by every seat in every world that hides the same secrets."""

    def __init__(self, name: str, n: int, seed: int, **options: Any) -> None:
        self.world = World(name, n, **options)
        self.name, self.n, self.options = name, n, options
        self.entry = next(g for g in GAMES if g.name == name)
        self.match: Match[Any, Any] = Match(self.world.game, self.world.players, seed)
        self.rnd = random.Random(seed)
        self.seen: list[str] = []  # legal phrases of earlier steps: mostly illegal later
        self.compared = 0
        self.typed_lines = 0
        self.strict = True  # fail at the first leak; else count them (bench/secrets_fuzz.py)
        self.leaks: list[str] = []

    # --- the lines ------------------------------------------------------------------------------------
    def lines(self, seat: int, count: int) -> list[str]:
        ui, match = self.world.ui, self.match
        said = ui.phrases(match, seat, "fr", limit=40).concrete
        moves = [p for p, c in said if c.startswith("action")]
        queries = [p for p, c in said if not c.startswith("action") and c not in SHARED]
        self.seen.extend(self.rnd.sample(moves, min(4, len(moves))))
        pool = list(ANY_LINE) + queries + self.seen[-60:]
        if self.name == "kaliko":
            # « indice », « meilleur », « coups »: a whole search of the hand each (seconds in
            # mid-game, in every world), answered to the asker alone (an Answer: private)
            pool = [p for p in pool if p.split()[0] not in SEARCHES]
        if self.name == "kikoi":
            others = [p for p in self.world.players if p != self.world.players[seat]]
            pool += [f"{self.rnd.choice(others)}, {self.rnd.choice(KIKOI_WHITES)}" for _ in range(8)]
            pool += [f"{self.rnd.choice(KIKOI_WHITES)}" for _ in range(2)]
        if self.name == "kaliko":  # a play is built in steps: a tile taken, put down, turned, played
            cells = [f"{h}h{k}" for h in range(1, 13) for k in range(1, 3)]
            for _ in range(4):
                pos = self.rnd.randint(1, 7)
                pool.append(" / ".join(self.rnd.sample([f"prends {pos}", f"va {self.rnd.choice(cells)}", "ici",
                                                        "tourne", f"rouge {self.rnd.randint(1, 12)}", "joue",
                                                        f"pose {pos} en {self.rnd.choice(cells)}", "brouillon",
                                                        f"tuile {pos}", f"où {pos}", "enlève", "aide", "état",
                                                        "répète"], 4)))
        out = self.rnd.sample(moves, min(2, len(moves)))
        return out + self.rnd.sample(pool, max(0, count - len(out)))

    # --- the worlds -----------------------------------------------------------------------------------
    def worlds(self) -> list[tuple[Any, set[int]]]:
        """The real state, then every state differing from it only in hidden holdings."""
        state = self.match.state
        out: list[tuple[Any, set[int]]] = [(state, set())]
        make = kaliko_variants if self.name == "kaliko" else getattr(self.world, f"_variants_{self.name}", None)
        if make is None:
            return out
        game = self.world.game
        public = dump(game.view(state, None))
        for alt, changed in make(game.state_to_json(state), {}):
            other = game.state_from_json(alt)
            if dump(game.view(other, None)) == public:
                out.append((other, changed))
        return out

    def typed(self, state: Any, seat: int, text: str, channels: bool) -> tuple[list[Say], Any, list[Any]]:
        """The `Say` outputs of one line typed by `seat` in `state` (a fresh session), the
        state after it and the events it caused."""
        game = self.world.game
        match = copy.copy(self.match)
        match.state, match.history = state, list(self.match.history)
        match.rng = Rng(0)
        match.rng.setstate(self.match.rng.getstate())
        _, ui, _ = load(self.entry, **self.options)
        seats = [Seat(name) for name in self.world.players]
        core = SessionCore(self.name, ui, match, seats, private_policy="withhold")
        if channels:
            core.channels = {i: 1 for i in range(self.n)}
        out: list[Say] = []
        for part in text.split(" / "):  # several lines typed in a row
            current = match.current
            line = part if seat == current else f"{self.world.players[seat]}: {part}"
            out += [o for o in core.handle(Line(line)) if isinstance(o, Say)]
        events = [e for step in match.history[len(self.match.history):] for e in step.events]
        assert game is not None
        return out, match.state, events

    # --- one step -----------------------------------------------------------------------------------
    def check(self, step: int, count: int) -> None:
        game = self.world.game
        worlds = self.worlds()
        for seat in range(self.n):
            for text in self.lines(seat, count):
                self.typed_lines += 1
                groups: dict[tuple[Any, ...], str] = {}
                for state, changed in worlds:
                    for channels in (False, True):
                        says, after, events = self.typed(state, seat, text, channels)
                        listeners: list[int | None] = [None] if not channels else [None, *range(self.n)]
                        for listener in listeners:
                            if channels and (listener == seat or listener in changed):
                                continue  # their own line or their own holdings: they may hear it
                            heard = [s for s in says if not channels or s.listener in (None, listener)]
                            # what the rules let them know: the views, and the events they witness
                            key = (channels, listener, self.world.knows(state, listener),
                                   self.world.knows(after, listener),
                                   dump([e.to_json() for e in events if e.visible_to(listener)]))
                            said = "\n".join(f"{s.listener}|{s.private}|" + self.world.render(
                                replace(s.utterance, to=None)) for s in heard)
                            where = (f"{self.name} {self.options} step {step}: {self.world.players[seat]} types "
                                     f"{text!r} ({'channels' if channels else 'one keyboard, no channel'})")
                            seen = groups.setdefault(key, said)
                            if seen != said:
                                leak = (f"{where}: {'the table' if listener is None else self.world.players[listener]} "
                                        f"tells two worlds apart:\n--- one\n{seen}\n--- other\n{said}")
                                assert not self.strict, leak
                                self.leaks.append(leak)
                                groups[key] = said  # count each difference once
                            self.compared += 1
        del game

    def play(self, steps: int, every: int, count: int) -> int:
        game = self.world.game
        bots = playing_bots(self.name, game, self.n, 1)
        for bot in bots or []:
            bot.observe([e for e in self.match.setup_events if e.visible_to(bot.seat)])
        for step in range(steps):
            if self.match.over:
                break
            if step % every == 0:
                self.check(step, count)
            seat = self.match.current
            assert seat is not None
            if bots is None:
                action = self.rnd.choice(game.legal_actions(self.match.state, seat))
            else:
                action = bots[seat].choose(self.match.state)
            events = self.match.play(seat, action)
            for bot in bots or []:
                bot.observe([e for e in events if e.visible_to(bot.seat)])
        return self.compared


SHARED = {c for _, c in shared_phrases("fr")}
SEARCHES = {"indice", "hint", "meilleur", "best", "coups", "moves"}


def kaliko_variants(data: dict[str, Any], action: Any) -> Iterator[tuple[dict[str, Any], set[int]]]:
    """Every tile of every hand swapped in turn with one of the bag (whether a tile typed by
    its place in the hand fits, turns or scores depends on which tile it is)."""
    rnd = random.Random(dump(data))
    for q, hand in enumerate(data["hands"]):
        for i in range(len(hand)):
            if data["bag"]:
                alt = json.loads(json.dumps(data))
                j = rnd.randrange(len(alt["bag"]))
                alt["hands"][q][i], alt["bag"][j] = alt["bag"][j], alt["hands"][q][i]
                yield alt, {q}

# (game, players, seeds, steps, every, lines per seat, options)
CASES: list[tuple[str, int, tuple[int, ...], int, int, int, dict[str, Any]]] = [
    ("kikoi", 3, (1, 2, 3), 150, 4, 8, {}),
    ("kikoi", 4, (4,), 150, 5, 7, {}),
    ("kikoi", 3, (5,), 150, 5, 7, {"physical": True}),
    ("kaliko", 2, (6,), 12, 4, 6, {}),
    ("kaliko", 3, (7,), 5, 4, 3, {}),
    ("goodfortune", 2, (8,), 30, 10, 5, {}),
    ("kissa", 2, (9,), 6, 3, 4, {}),
]


def test_every_game_is_typed_at() -> None:
    assert {c[0] for c in CASES} == {g.name for g in GAMES}
    assert set(HIDDEN) <= {c[0] for c in CASES}


@pytest.mark.parametrize(("name", "n", "seeds", "steps", "every", "count", "options"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{json.dumps(c[6]) if c[6] else 'default'}" for c in CASES])
def test_no_line_typed_lets_another_listener_infer_a_secret(name: str, n: int, seeds: tuple[int, ...], steps: int,
                                                            every: int, count: int, options: dict[str, Any]) -> None:
    compared = sum(Table(name, n, seed, **options).play(steps, every, count) for seed in seeds)
    assert compared > 20  # the lines were typed and heard


# --- the finding of issue 25 ------------------------------------------------------------------------------

def test_a_refused_request_does_not_tell_the_table_what_anne_holds() -> None:
    """Les 5 KIKOI, three humans at one keyboard, no private channel: « Bruno, kigliss maison »
    on Anne's turn, Anne holding the Kigliss at home. The table heard « [Anne] Tu as déjà le
    Kigliss dans sa maison sur ton plateau. Tu peux demander : Kigratt, Kigliss et Kiboucle. »"""
    from companion.games.kikoi.rules import ASK, State
    from companion.games.kikoi.tokens import token_from_id as tok
    from companion.session import Session

    entry = next(g for g in GAMES if g.name == "kikoi")
    game, ui, _ = load(entry)
    match: Match[Any, Any] = Match(game, ["Anne", "Bruno", "Chloé"], 4)

    def toks(*ids: str) -> tuple[int, ...]:
        return tuple(sorted(tok(i) for i in ids))

    boards = (toks("kigratt-eat", "kigliss-house", "kiboucle-bike", "kigliss-sleep"),
              toks("kimouss-eat", "kiboss-forest", "kigratt-sleep", "kiboss-house"),
              toks("kimouss-house", "kiboss-bike", "kiboucle-sleep", "kigratt-forest"))
    used = set().union(*boards)
    bag = tuple(t for t in range(28) if t not in used)
    match.state = State(3, boards, bag, (), None, 0, 0, ASK, 0)
    lines: list[str] = []
    session = Session("kikoi", ui, match, [Seat("Anne"), Seat("Bruno"), Seat("Chloé")], out=lines.append,
                      private_policy="withhold")
    session.handle("Bruno, kigliss maison")
    said = "\n".join(lines)
    assert "[Anne] Tu ne peux pas demander celui-là." in said
    for secret in ("Kigliss", "maison", "Kigratt", "Kiboucle", "peux demander :"):
        assert secret not in said, said
    assert match.current == 0 and match.state.boards == boards  # nothing was played
    # With a channel of her own, Anne hears the reason there; the table sees only that she was told.
    heard: list[str] = []

    class Page:
        public = True

        def deliver(self, text: str, *, private: bool, priority: Any, earcon: Any, lang: str) -> None:
            heard.append(text)

        def interrupt(self) -> None:
            heard.append("")

    lines.clear()
    session.claim(0, Page(), "web")
    heard.clear()
    lines.clear()
    session.handle("Bruno, kigliss maison")
    assert any("Tu as déjà le Kigliss dans sa maison" in h for h in heard), heard
    assert any("Tu peux demander : Kigratt, Kigliss et Kiboucle" in h for h in heard), heard
    assert not any("Kigliss" in line for line in lines), lines
