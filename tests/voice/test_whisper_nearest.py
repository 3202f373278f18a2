"""Whisper's free transcript mapped onto what is sayable: the costs per confusion (no model)."""

import pytest
from rapidfuzz import fuzz, process

from companion.core import Match, find
from companion.inputs.voice import nearest as nr
from companion.inputs.voice.grammar import PhraseSet
from companion.inputs.voice.nearest import PhraseIndex, distance, nearest, normalise, word_cost
from companion.inputs.voice.sayable import sayable_now
from companion.session.transcript import load

PHRASES = PhraseSet.build([
    ("help", "help"), ("repeat", "repeat"), ("exchange 2", "action:x2"), ("exchange 3", "action:x3"),
    ("exchange all", "action:xall"), ("I push three", "action:p3"), ("I push four", "action:p4"),
    ("d 5", "action:d5"), ("k 5", "action:k5"),
    ("43 at D3 plus 3 at B1 equals 46 at A2", "action:m1"), ("4 at D3 plus 3 at B1 equals 7 at A2", "action:m2"),
], None, "en")


def test_number_words_and_digits_are_one_word_and_letters_part_from_digits():
    assert normalise("D3, twenty-one.", "en") == ("d", "3", "21")
    assert normalise("vingt et un en D trois", "fr") == ("21", "en", "d", "3")
    assert normalise("Je demande le Kigliss à Zoé !", "fr") == ("je", "demande", "le", "kigliss", "a", "zoe")


def test_rhyming_letters_are_cheap_other_letters_and_other_digits_are_whole_errors():
    assert word_cost("b", "d", "en") == nr.RHYME
    assert word_cost("e", "g", "en") == nr.RHYME
    assert word_cost("b", "k", "en") == 1.0
    assert word_cost("g", "v", "fr") == nr.RHYME  # « gé », « vé »
    assert word_cost("3", "4", "en") == 1.0  # a wrong number is a wrong move
    assert word_cost("15", "50", "en") == nr.TEEN_TY  # "fifteen" / "fifty"
    assert word_cost("for", "4", "en") == nr.HOMOPHONE
    assert word_cost("to", "2", "en") == nr.HOMOPHONE
    assert word_cost("sept", "7", "fr") == nr.HOMOPHONE


def test_digits_run_together_cost_little_either_way():
    assert distance(("43",), ("4", "3"), "en") == pytest.approx(nr.RUN_TOGETHER)
    assert distance(("4", "3"), ("43",), "en") == pytest.approx(nr.RUN_TOGETHER)
    assert distance(("4", "3"), ("44",), "en") > 1.0


def test_small_words_said_or_dropped_cost_less_than_words():
    assert distance(("the", "help"), ("help",), "en") == pytest.approx(nr.FILLER_COST)
    assert distance(("banana", "help"), ("help",), "en") == pytest.approx(1.0)


def test_where_a_plain_string_distance_cannot_tell_the_confusion_costs_can():
    for heard, right in [("exchange to", "exchange 2"), ("b 5", "d 5"), ("I push for", "I push four")]:
        got = nearest(heard, PHRASES)
        assert got.match is not None and got.match.phrase == right, (heard, got)
    # plain similarity rates both neighbours the same: it could not choose
    plain = process.extract("exchange to", ["exchange 2", "exchange 3"], scorer=fuzz.ratio)
    assert plain[0][1] == plain[1][1]
    plain = process.extract("b 5", ["d 5", "k 5"], scorer=fuzz.ratio)
    assert plain[0][1] == plain[1][1]


def test_digits_heard_apart_map_onto_the_number_and_a_wrong_number_is_no_move():
    got = nearest("4 3 at D 3 plus 3 at B 1 equals 46 at A 2.", PHRASES)
    assert got.match is not None and got.match.phrase == "43 at D3 plus 3 at B1 equals 46 at A2"
    # one number wrong on each side: nearer neither than the other, so no command
    assert nearest("43 at the 3 plus 3 at B1 equals 7 at A2", PHRASES).match is None


@pytest.mark.parametrize("talk", ["What time is it?", "Pass the salt, please.", "Ask Paul for tea", "Help me find my glasses.", ""])
def test_talk_maps_to_no_command(talk):
    assert nearest(talk, PHRASES).match is None


def test_a_game_state_whole_grammar_and_its_every_legal_move():
    """2kissa10 lists a sample of its legal moves: a move not in the sample is found too."""
    game, ui, _ = load(find("kissa"))
    match = Match(game, ["Chloé", "Paul"], 3)
    ps = sayable_now(ui, match, match.current, "en")
    assert ps.sampled and ps.every_move is not None
    index = PhraseIndex(ps)
    every = ps.every_move()
    listed = {" ".join(t) for t in ps.by_tokens}
    unlisted = next(m for m in every if m not in listed)
    said = ps.resolve(unlisted.split())
    assert said is not None
    got = index.nearest(said.phrase.replace("at ", "at the ").upper())  # "AT THE D3": the heard form
    assert got.match is not None and got.match.phrase == said.phrase
    assert index.nearest("what a lovely game").match is None
