"""Should a typed 2kissa10 move be read back before it is played? (#29, docs/2kissa10.md)

Figures for the decision: for moves of bot games, the move typed in full (« 10 en A1 plus 29
en C4 bas égale 39 en E2 ») and by its numbers alone (« 10 plus 29 égale 39 »), then every
one-digit slip of it (each digit replaced by each other digit), parsed in the same state:

* refused or asked about: the companion catches the slip without a read-back;
* played as the intended move: harmless;
* played as another legal move: the only slips a read-back would catch.

And the words a read-back adds to each of one's own moves (its question and the « oui »).

Run: .venv/bin/python bench/kissa_readback.py [seeds...]   (default: 1 2)
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core import find  # noqa: E402
from companion.games.base import Act, Ask  # noqa: E402
from companion.games.kissa.narration import equation_msg, names_cells  # noqa: E402
from companion.narration import Msg, catalog  # noqa: E402
from companion.session.transcript import bot_game  # noqa: E402

PLIES = 12  # moves per game measured (each gives ~40 slips a form)


def forms(ev) -> dict[str, str]:
    d = ev.data
    cells = [names_cells(d["operands"][0]), names_cells(d["operands"][1]), names_cells(d["result"])]
    fr = catalog("fr")
    return {"full": fr.text(equation_msg(d["op"], d["values"], cells)),
            "numbers": fr.text(equation_msg(d["op"], d["values"]))}


def outcome(ui, match, step, slip: str) -> str:
    got = ui.parse(slip, match, step.seat)
    if isinstance(got, Act):
        norm = match.game.normalize
        same = norm(match.state.board, got.action) == norm(match.state.board, step.action)
        return "played as meant" if same else "another legal move played"
    return "asked about" if isinstance(got, Ask) else "refused"


def main(seeds: list[int]) -> None:
    t0 = time.perf_counter()
    tally: dict[str, Counter[str]] = {"full": Counter(), "numbers": Counter()}
    readback_words: list[int] = []
    for seed in seeds:
        match, ui = bot_game(find("kissa"), seed=seed)
        replay = type(match)(match.game, match.players, seed)
        for step in match.history[:PLIES]:
            ev = next((e for e in step.events if e.type == "move_played"), None)
            if ev is not None:
                said = forms(ev)
                question = catalog("fr").text(Msg("kissa.confirm_move", equation=said["full"], n=ev.data["score"]))
                readback_words.append(len(question.split()) + 1)  # the question and « oui »
                for form, text in said.items():
                    for i, ch in enumerate(text):
                        for other in "0123456789" if ch.isdigit() else "":
                            if other != ch:
                                tally[form][outcome(ui, replay, step, text[:i] + other + text[i + 1:])] += 1
            replay.play(step.seat, step.action)
    for form, c in tally.items():
        n = sum(c.values())
        print(f"{form:8} slips {n:5}: " + ", ".join(f"{k} {v} ({100 * v / n:.1f} %)" for k, v in c.most_common()))
    if readback_words:
        readback_words.sort()
        print(f"a read-back adds {readback_words[len(readback_words) // 2]} words (median) and one line typed to each own move")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1, 2])
