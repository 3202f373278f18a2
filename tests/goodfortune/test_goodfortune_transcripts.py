"""Golden transcripts of whole seeded bot games (fr, en), and bot games recounted from the log.

Each golden game is a committed journal, replayed (tests/golden.py): a bot change never
rewrites them. COMPANION_REGEN_GOLDEN=1 writes the texts after a deliberate change of wording.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import Match, Rng, find
from companion.games.goodfortune import Rules
from companion.games.goodfortune.bot import GreedyBot, SearchBot
from companion.games.goodfortune.notation import parse_tile
from companion.games.goodfortune.scoring import score
from companion.narration import Verbosity
from companion.session.transcript import bot_game, transcript
from tests import golden

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "default": dict(seed=7, kinds=["greedy", "random"], options={}),
    "physical": dict(seed=3, kinds=["random", "greedy"],
                     options={"physical": True, "match": "domino_half", "free_end": True, "medallion": "pass_only"}),
}
CASES = [("default", "fr", Verbosity.NORMAL), ("default", "en", Verbosity.NORMAL), ("default", "fr", Verbosity.TERSE),
         ("default", "en", Verbosity.VERBOSE), ("physical", "fr", Verbosity.NORMAL), ("physical", "en", Verbosity.NORMAL)]


@pytest.mark.parametrize("game,lang,verbosity", CASES, ids=lambda x: getattr(x, "name", x))
def test_golden_transcript(game, lang, verbosity):
    spec = GAMES[game]
    match, ui = golden.game(GOLDEN / f"{game}.journal.jsonl", "goodfortune", spec["options"], list(spec["kinds"]),
                            lambda: bot_game(find("goodfortune"), spec["seed"], kinds=spec["kinds"],
                                             names=["Anne", "Bruno"], **spec["options"])[0])
    lines = transcript(ui, match, lang, verbosity, strict=True)
    golden.check(GOLDEN / f"{game}_{lang}_{verbosity.name.lower()}.txt", "\n".join(lines) + "\n")
    assert not any("goodfortune." in line for line in lines)


def _play(game, kinds, seed):
    m = Match(game, ["A", "B"], seed)
    root = Rng(seed)
    bots = [k(game, s, root.fork(s + 1)) for s, k in enumerate(kinds)]
    while not m.over:
        seat = m.current
        m.play(seat, bots[seat].choose(m.state))
    return m


@pytest.mark.parametrize("options", [{}, {"free_end": True}, {"match": "domino_half"}, {"medallion": "flip_only"}],
                         ids=lambda o: ",".join(o) or "default")
def test_bot_games_scores_equal_a_recount_from_the_log(options):
    game = Rules(**options)

    def small_search(g, seat, rng):
        return SearchBot(g, seat, rng, max_nodes=3000)

    for seed in range(6):
        kinds = [small_search, GreedyBot] if seed % 2 else [GreedyBot, small_search]
        m = _play(game, kinds, seed)
        collected = {0: [], 1: []}
        for e in m.events():
            if e.type == "tile_placed" and e.data["collected"]:
                collected[e.data["seat"]].append(parse_tile(e.data["collected"]))
        end = m.events()[-1]
        assert end.type == "game_ended"
        assert end.data["scores"] == [score(collected[s]).total for s in (0, 1)]
        assert list(m.outcome().scores) == end.data["scores"]
