"""Golden transcripts of whole seeded KIKOI games, French and English, as the table and as
one player hear them. Each game is a committed journal, replayed (tests/golden.py): a bot
change never rewrites them. COMPANION_REGEN_GOLDEN=1 writes the texts after a wording change."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import find
from companion.narration import Verbosity
from companion.session.transcript import bot_game, transcript
from tests import golden

GOLDEN = Path(__file__).parent / "golden"
NAMES = ["Alice", "Bob", "Chloé", "Denis"]

# name: (seed, bot kinds, options, viewer, verbosity)
CASES = {
    "s3_memory_vs_random": (3, ["memory", "random", "random"], {}, None, Verbosity.NORMAL),
    "s3_memory_vs_random_alice": (3, ["memory", "random", "random"], {}, 0, Verbosity.NORMAL),
    "s8_four_players_terse": (8, ["memory", "memory", "random", "random"], {}, 1, Verbosity.TERSE),
    "s0_kikonk_and_kipirat_steal": (0, ["memory", "memory", "random", "random"], {}, None, Verbosity.NORMAL),
    "s2_physical_table_bob": (2, ["memory", "random", "random"], {"physical": True}, 1, Verbosity.NORMAL),
    "s5_no_red_verbose": (5, ["memory", "random", "memory"], {"red_tokens": False}, 2, Verbosity.VERBOSE),
}


def _game(case: str):
    seed, kinds, options, viewer, verbosity = CASES[case]
    return golden.game(GOLDEN / f"{case}.journal.jsonl", "kikoi", options, list(kinds),
                       lambda: bot_game(find("kikoi"), seed, kinds, NAMES[: len(kinds)], **options)[0])


def _lines(case: str, lang: str) -> list[str]:
    seed, kinds, options, viewer, verbosity = CASES[case]
    match, ui = _game(case)
    return transcript(ui, match, lang, verbosity, viewer=viewer, strict=True)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_transcript(case, lang):
    lines = _lines(case, lang)
    golden.check(GOLDEN / f"{case}.{lang}.txt", "\n".join(lines) + "\n")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_no_transcript_says_a_board_to_another(case, lang):
    seed, kinds, options, viewer, verbosity = CASES[case]
    names = NAMES[: len(kinds)]
    lines = _lines(case, lang)
    marked = [line for line in lines if line.startswith("[")]
    if viewer is None:
        assert not marked
    else:
        assert all(line.startswith(f"[{names[viewer]}]") for line in marked)
    # what each other seat heard privately never reaches this listener
    match, ui = _game(case)
    heard = set(lines)
    for other in range(len(kinds)):
        if other == viewer:
            continue
        for line in transcript(ui, match, lang, verbosity, viewer=other, strict=True):
            if line.startswith("["):
                assert line not in heard and line.split("] ", 1)[1] not in heard
    assert lines[-1]  # the game ended and said its winners
    ended = match.events()[-1]
    assert ended.type == "game_ended" and sum(ended.data["scores"]) == sum(len(d) for d in ended.data["days"])
