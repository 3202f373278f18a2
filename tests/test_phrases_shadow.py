"""No game phrase is shadowed by a shared word.

The session looks a line up in the shared words first (`companion.session.commands.global_command`)
and gives it to the game only when it is none of them, except "yes" and "no", which go to the
game when nothing waits for a confirmation and the game reads them (« oui » gives a KIKOI
token, "cancel" clears a Kaliko draft). So a game phrase that is a whole line may be a shared
word only when that word is "yes" or "no".

« score » used to be a shared word (status) and never reached Kaliko, whose « score » reads
the scores its own way: it is no shared word any more, and each game answers it (Kaliko its
score query, the others their status), as the tests below check.
"""

from __future__ import annotations

import pytest

from companion.core import Match, find
from companion.games.base import FALL_THROUGH
from companion.games.kaliko.commands import WORDS as KALIKO_WORDS
from companion.language import groups, spoken
from companion.session.commands import global_command
from companion.session.outputs import Say
from tests.test_phrases_sayable import understood

# word groups that are never a whole line of their own: filler and question words inside a
# line, and the answers to a question the game asked (read before any shared word)
NOT_WHOLE_LINES = {
    "kikoi": {"next", "end_learn", "filler"},
    "goodfortune": {"filler", "question", "mine", "opponent", "both", "hand", "line_word", "central_line", "hand_charm",
                    "be", "of"},
    # 2kissa10: the words inside an equation or a reading (« quoi » only with a cell: « quoi
    # en B3 »), and the answers to « which reading? » (« encore », « annule », « stop »)
    "kissa": {"plus", "times", "equals", "at", "where", "cell", "empty", "any", "more", "drop"},
}


def _clash(phrase: str) -> str | None:
    word = global_command(phrase)
    return None if word is None or word in FALL_THROUGH else word


@pytest.mark.parametrize("game", ["kikoi", "goodfortune", "kissa"])
def test_no_word_of_a_game_table_is_a_shared_word(game):
    for section in ("kikoi", "moment", "red", "charm", "end", "words", "direction"):
        for key, phrases in groups(game, section).items():
            if section == "words" and key in NOT_WHOLE_LINES[game]:
                continue
            for phrase in phrases:
                assert _clash(phrase) is None, (game, section, key, phrase, global_command(phrase))


def test_no_kaliko_command_word_is_a_shared_word():
    for key, phrases in KALIKO_WORDS.items():
        for phrase in phrases:
            assert _clash(phrase) is None, (key, phrase, global_command(phrase))


@pytest.mark.parametrize("game", ["kikoi", "goodfortune", "kissa", "kaliko"])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_no_template_without_slots_is_a_shared_word(game, lang):
    for key, template in spoken(game, "templates", lang).items():
        if "{" not in template:
            assert _clash(template) is None, (game, lang, key, template)


@pytest.mark.parametrize("game", ["kikoi", "goodfortune", "kissa", "kaliko"])
def test_no_listed_game_phrase_is_taken_by_a_shared_word(game):
    entry = find(game)
    pkg = entry.module()
    rules = pkg.Rules(hand_size=3) if game == "kaliko" else pkg.Rules()
    ui = pkg.UI(rules)
    match = Match(rules, ["Marie", "Paul", "Zoé"][: max(entry.min_players, 2)], 5)
    for lang in ("fr", "en"):
        for phrase, command in ui.phrases(match, match.current, lang).concrete:
            word = global_command(phrase)
            if word == command:
                continue  # a shared word listed as such
            assert word is None or word in FALL_THROUGH, (lang, phrase, command, word)


@pytest.mark.parametrize(("game", "command"), [("kaliko", "score"), ("kikoi", "status"), ("goodfortune", "status"),
                                               ("kissa", "status")])
def test_score_reaches_each_game(game, command):
    entry = find(game)
    pkg = entry.module()
    rules = pkg.Rules(hand_size=3) if game == "kaliko" else pkg.Rules()
    ui = pkg.UI(rules)
    match = Match(rules, ["Marie", "Paul", "Zoé"][: max(entry.min_players, 2)], 5)
    for line in ("score", "Scores"):
        said: list[object] = []
        kind, got = understood(ui, line, match, match.current, "en", said)
        assert (kind, got) == ("answer", command)
        assert any(isinstance(o, Say) for o in said)
