"""The readers every game shares (companion.language): numbers, yes/no/cancel, players, close names,
and the phrase tables they read."""

import json

import pytest

from companion.core import Match, fold
from companion.games.goodfortune.notation import find_charms, number_items
from companion.games.kikoi import UI as KikoiUI
from companion.games.kikoi import Rules as Kikoi
from companion.games.kikoi.notation import find_tokens, scan
from companion.games.kikoi.rules import Ask
from companion.games.kikoi.tokens import token_from_id
from companion.language import (
    LAST,
    close_match,
    find_players,
    groups,
    is_ordinal,
    languages,
    number_spans,
    number_word,
    numbers_in,
    ordinal,
    read_number,
    strip_players,
    table,
    yes_no,
)
from companion.language.tables import TableError, extra_dir
from companion.session.commands import global_command, shared_words


@pytest.mark.parametrize(("text", "value"), [
    ("21", 21), ("vingt et un", 21), ("Vingt-et-un", 21), ("twenty-one", 21), ("twenty one", 21),
    ("dix-sept", 17), ("dix sept", 17), ("quatre-vingt-dix-sept", 97), ("quatre vingt dix sept", 97),
    ("soixante et onze", 71), ("cent deux", 102), ("one hundred", 100), ("zéro", 0), ("un", 1), ("une", 1),
    ("premier", 1), ("première", 1), ("troisième", 3), ("third", 3), ("twelve", 12), ("douze", 12),
])
def test_read_number_words_and_digits_in_french_and_english(text, value):
    assert read_number(text) == value


@pytest.mark.parametrize("text", ["", "kigliss", "vingt kigliss", "et", "deux neuf", "12 13"])
def test_read_number_is_none_for_what_is_not_one_number(text):
    assert read_number(text) is None


def test_numbers_in_a_line_in_order_with_their_words():
    assert numbers_in("je joue la douze puis la vingt et un") == [12, 21]
    assert numbers_in("twenty-one and 3 then four") == [21, 3, 4]
    assert numbers_in("deux neuf") == [2, 9]  # digits said one by one stay apart
    assert number_spans("la vingt et un et la 3") == [(1, 4, 21), (6, 7, 3)]
    # Good Fortune's declarations read with the same reader
    assert number_items("douze trefle vingt et un scarabee") == [(12, "trefle"), (21, "scarabee")]


def test_every_spelled_number_of_the_tables_reads_back():
    for lang in ("fr", "en"):
        for n in range(0, 101):
            assert read_number(number_word(n, lang)) == n, (lang, n, number_word(n, lang))


@pytest.mark.parametrize(("text", "meaning"), [
    ("oui", "yes"), ("Yes", "yes"), ("d'accord", "yes"), ("non", "no"), ("No", "no"),
    ("laisse tomber", "no"), ("never mind", "cancel"), ("peu importe", "cancel"), ("kigliss", None),
])
def test_yes_no_cancel(text, meaning):
    assert yes_no(text) == meaning


def test_players_by_name_accents_ignored_by_number_and_by_close_spelling():
    players = ["Marie", "Chloé", "Paul", "Bérénice"]
    assert find_players("je demande à Chloe le kigliss", players) == [1]
    assert find_players("CHLOÉ", players) == [1]
    assert find_players("joueur 3", players) == [2]
    assert find_players("player two", players) == [1]
    assert find_players("joueur 9", players) == []
    assert find_players("Berenise", players) == [3]  # a close spelling of a long name
    assert find_players("Maire", players) == [0]
    assert find_players("mange", players) == []
    assert find_players("Marie et Paul", players) == [0, 2]
    assert find_players("kigliss", players, known={"kigliss"}) == []
    assert strip_players("demande à Paul le kigliss", players) == "demande a le kigliss"


def test_close_match_of_vocabulary():
    names = ["kimouss", "kigliss", "kiboss", "kigratt", "kiboucle"]
    assert close_match("kiglis", names) == "kigliss"
    assert close_match("kimous", names) == "kimouss"
    assert close_match("maison", names) is None
    assert close_match("kiboss", names) == "kiboss"


def test_kikoi_tokens_by_close_spelling():
    assert find_tokens("kiglis dort") == [token_from_id("kigliss-sleep")]
    assert find_tokens("Kimous maison") == [token_from_id("kimouss-house")]
    assert scan("kikonke").reds == (25,)
    ui = KikoiUI(Kikoi())
    match = Match(ui.game, ["Marie", "Chloé", "Paul"], 3)
    seat = match.current
    legal = [a for a in match.legal(seat) if isinstance(a, Ask)]
    target = legal[0]
    kikoi, moment = {0: "kimous", 1: "kigrat", 2: "kiglis", 3: "kibos", 4: "kiboucl"}[target.token // 5], \
        ("maison", "mange", "velo", "foret", "dort")[target.token % 5]
    name = "Chloe" if target.target == 1 else match.players[target.target]
    got = ui.parse(f"je demande à {name} le {kikoi} qui {moment}", match, seat)
    assert got is not None and getattr(got, "action", None) == target


def test_good_fortune_charms_in_both_languages():
    assert [c for c, _w in find_charms(fold("main de Fatma et trèfle"))] == ["fatima", "clover"]
    assert [c for c, _w in find_charms(fold("hand of Fatima, four leaf clover, œil"))] == ["fatima", "clover", "mati"]


def test_shared_words_are_data_in_every_language():
    assert languages()[:2] == ("fr", "en")
    assert global_command("Répète") == "repeat" and global_command("what can I do?") == "help"
    assert global_command("où en est-on") == "status"
    assert global_command("score") is None  # each game answers « score » its own way
    words = shared_words()
    for lang in ("fr", "en"):
        t = table("shared", lang)
        assert t["lang"] == lang
        assert set(t["words"]) == set(words)  # both languages name every shared command
    assert "aide" in groups("shared", "words", "fr")["help"] and "aide" not in groups("shared", "words", "en")["help"]


def test_a_bad_table_says_which_file(tmp_path):
    (tmp_path / "zz").mkdir()
    (tmp_path / "zz" / "shared.json").write_text("{not json", encoding="utf-8")
    with extra_dir(tmp_path), pytest.raises(TableError, match="zz/shared.json"):
        table("shared", "zz")
    (tmp_path / "zz" / "shared.json").write_text(json.dumps({"words": []}), encoding="utf-8")
    with extra_dir(tmp_path), pytest.raises(TableError, match="words is not an object"):
        groups("shared", "words")
    assert "zz" not in languages()  # the folder is forgotten when the context ends


@pytest.mark.parametrize(("text", "place"), [
    ("le deuxième", 2), ("la troisième", 3), ("the second one", 2), ("the third", 3), ("choix 2", 2),
    ("option two", 2), ("3", 3), ("deux", 2), ("premier", 1), ("le dernier", LAST), ("la dernière", LAST),
    ("the last one", LAST), ("last", LAST), ("blabla", None), ("C4", None), ("", None), ("deux et trois", None),
])
def test_places_in_a_list_ordinals_and_the_last_one(text, place):
    assert ordinal(text) == place


def test_ordinals_are_numbers_too_but_known_as_ordinals():
    assert read_number("deuxième") == 2 and is_ordinal("deuxieme") and is_ordinal("last")
    assert not is_ordinal("deux") and not is_ordinal("two")


@pytest.mark.parametrize(("text", "value"), [
    ("mille", 1000), ("deux mille trois cent quarante-cinq", 2345), ("huit mille", 8000),
    ("trois cent quatre-vingt-dix-sept mille deux cent quatre-vingt-dix-neuf", 397299),
    ("twelve thousand three hundred and four", 12304), ("two hundred and five", 205), ("nought", 0),
])
def test_big_numbers_in_words(text, value):
    """2kissa10's products reach ten digits: numbers of many words, « mille », "thousand"."""
    assert read_number(text) == value
