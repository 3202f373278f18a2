"""The one grammar's reader (companion/language/grammar.py): patterns, slots, filler, the
choice among readings, and the same rules compiled for the recogniser."""

from __future__ import annotations

import json

from companion.games.goodfortune.phrases import GRAMMAR as GOODFORTUNE
from companion.games.kaliko.phrases import GRAMMAR as KALIKO
from companion.games.kikoi.phrases import GRAMMAR as KIKOI
from companion.inputs.voice.fsg import Automaton
from companion.language import extra_dir
from companion.language.grammar import Names, Number, Player, build, strip_filler

CTX = {"players": ("Anne", "Bruno", "Bot 2")}


def test_patterns_read_whole_lines_with_filler_costing_nothing(tmp_path):
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "toy.json").write_text(json.dumps({
        "words": {"take": ["prends", "je prends"], "filler": ["la", "le"]},
        "end": {"left": ["gauche"], "right": ["droite"]},
        "read": {"take": ["<take>+ {n}+"], "place": ["{end}"], "ask": ["{who} ?"]},
    }), encoding="utf-8")
    with extra_dir(tmp_path):
        g = build("toy", {"n": Number(1, 21), "end": Names("toy", "end"), "who": Player()})
        [r] = g.read("euh, je prends la douze 3 s'il te plaît", CTX)
        assert (r.kind, r.get("n")) == ("take", (12, 3))
        assert [x.get("end") for x in g.read("droite", CTX)] == ["right"]
        assert g.read("prends 22", CTX) == []  # out of the slot's range: not read
        assert g.read("prends douze maintenant", CTX) == []  # a word left over: not read
        assert g.read("Bruno", CTX)[0].get("who") == 1
        assert g.read("bot two", CTX)[0].get("who") == 2  # « Bot 2 » said in words


def test_a_word_read_as_meaning_beats_the_same_word_skipped():
    # « ma » is filler and « mine »; « qui » filler and a KIKOI word (« qui glisse »)
    readings = GOODFORTUNE().read("ma collection", CTX)
    assert [r.values for r in readings] == [(("whose", "mine"),)]
    readings = KIKOI().read("Bruno: qui glisse, dodo", CTX)
    assert len(readings) == 1 and readings[0].get("token").kikois == (2,)


def test_shared_filler_goes_from_shared_words_too():
    assert strip_filler("euh, s'il te plaît, aide") == "aide"
    assert strip_filler("um please undo") == "undo"


def test_the_same_rules_compile_to_the_recognisers_automaton():
    g = GOODFORTUNE()
    fa = Automaton()
    numbers = {"number": [["douze"], ["12"]]}
    fa.words(g.sequences("where"), fa.start, fa.final, 1.0, numbers)
    assert fa.accepts(["ou", "est", "douze"]) and fa.accepts(["where", "is", "12"])
    assert not fa.accepts(["ou", "douze", "est"])
    for seq in g.sequences("where"):
        words = [w if isinstance(w, str) else "douze" for w in seq]
        assert g.read(" ".join(words), CTX)[0].kind == "where"  # what is heard is what is read


def test_kaliko_lines_with_filler_and_politeness_read_as_without():
    from companion.games.kaliko.phrases import BAD

    g = KALIKO()
    for plain, padded in [("prends 2", "euh, prends la 2 s'il te plaît"), ("take 2", "um, take 2 please"),
                          ("en 3h1", "euh en 3h1 stp"), ("joue", "joue s'il vous plaît"), ("pass", "um pass please"),
                          ("rouge 9", "rouge vers 9 heures"), ("red 9", "red to 9 o'clock"), ("main", "ben, ma main")]:
        assert g.read(padded, CTX) == g.read(plain, CTX) != [], (plain, padded)
    # issue 24's reading mistake: « put it at 5h1 » places the tile taken at 5h1
    [r] = g.read("put it at 5h1", CTX)
    assert (r.kind, r.get("cell")) == ("here", (0, 1))
    [r] = g.read("en 9 h 1", CTX)  # spaced cells, as the companion says them
    assert (r.kind, r.get("cell")) == ("here", (-1, 0))
    assert g.read("pose 2 en 1 h 1 puis 3 h 1", CTX)[0].values == (("number", 2), ("cell", (2, -1)))
    assert g.read("en 1 h 1 puis 3 h", CTX)[0].get("cell") == BAD  # no cell: refused, not guessed
    assert g.read("12 40", CTX) == []  # tiles told only while this seat owes some
    assert g.read("12 40", {**CTX, "told": True})[0].get("told") == (12, 40)


def test_2kissa10_equations_are_read_with_filler_and_politeness_costing_nothing():
    from companion.games.kissa.notation import parse_cell
    from companion.games.kissa.phrases import GRAMMAR as KISSA

    g = KISSA()
    for line in ("euh, trois plus quatre égale sept, s'il te plaît", "um, 3 and 4 makes 7 please",
                 "three plus four equals seven", "hum, alors, je joue 3 plus 4 égale 7"):
        [r] = g.read(line, CTX)
        values = tuple(r.get(k).value for k in "abc")
        assert (r.kind, r.get("op"), values) == ("equation", "+", (3, 4, 7)), line
    [r] = g.read("dix en A1 plus vingt-neuf en c quatre vers le bas égale trente-neuf en e deux", CTX)
    assert (r.get("a").cell, r.get("b").cell, r.get("b").way, r.get("c").cell) == (
        parse_cell("A1"), parse_cell("C4"), "down", parse_cell("E2"))
    [r] = g.read("81 égale neuf fois neuf", CTX)  # the result first
    assert (r.get("op"), r.get("a").value, r.get("c").value) == ("*", 9, 81)
    assert g.read("ten at a one times two nine oh equals", CTX) == []  # a number missing: not read


def test_2kissa10_readings_read_through_filler_too():
    from companion.games.kissa.phrases import GRAMMAR as KISSA

    g = KISSA()
    assert [(r.kind, r.values) for r in g.read("euh, lis la ligne 3 s'il te plaît", CTX)] == [("row", (("number", 3),))]
    assert g.read("please, where are the 7s", CTX)[0].values == (("digit", 7),)
    assert g.read("um, around e five", CTX)[0].values == (("cell", 44),)
    assert g.read("qu'y a-t-il en C4 ?", CTX)[0].kind == "cell"
    assert g.read("combien de coups, stp", CTX)[0].kind == "moves"
    assert g.read("bonjour tout le monde", CTX) == []  # talk is no command


def test_what_players_say_in_french_as_they_say_it_in_english():
    # « mets-la en 1h1 » as "put it at 1h1" (Kaliko); « qu'est-ce qu'il y a en C4 », « que vaut
    # C4 », « c'est quoi en C4 » as "what is in C4" (2kissa10): found playing by keyboard
    from companion.games.kissa.phrases import GRAMMAR as KISSA

    g = KALIKO()
    for line in ("mets-la en 1h1", "pose-la en 1h1", "place-la en 1h1", "put it at 1h1"):
        [r] = g.read(line, CTX)
        assert (r.kind, r.get("cell")) == ("here", (1, -1)), line
    k = KISSA()
    for line in ("qu'est-ce qu'il y a en C4", "que vaut C4", "c'est quoi en C4", "qu'y a-t-il en C4", "what is in C4"):
        [r] = k.read(line, CTX)
        assert (r.kind, r.values) == ("cell", (("cell", 32),)), line
