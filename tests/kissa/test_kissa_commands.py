"""What players say to the 2kissa10 companion, understood and answered, in French and English."""

import pytest

from companion.core import Match
from companion.games.base import Act, Answer, Ask, Confirm, Refuse
from companion.games.kissa import UI, Rules
from companion.games.kissa.rules import EnterRow, Move, StartPlay, State
from companion.narration import Verbosity, catalog
from tests.kissa.helpers import board_with, cells

SEED = dict(A1=1, B1=0, C4=2, C5=9, E2=3, F2=9, A7=2, B7=9, C7=0, J10=5)


def setup(board=None, **options):
    game = Rules(**options)
    ui = UI(game)
    m = Match(game, ["Anne", "Alain"], seed=1)
    if board is not None:
        m.state = State(tuple(board), (0, 0), 0, "play", (True,) * 10)
    return game, ui, m


def heard(ui, line, m, seat):
    """A line taken as the session takes it: the seat's view (how it hears lines read, its
    hints so far) is the session's, kept between lines; reading changes nothing else."""
    intent, ui.views[seat] = ui.read(line, m, seat, ui.views.get(seat))
    return intent


def text(utt, lang="fr", verbosity=Verbosity.NORMAL):
    cat = catalog(lang, strict=True)
    return cat.render(utt, verbosity)


def say_all(intent, lang="fr"):
    if isinstance(intent, (Answer, Refuse)):
        return " | ".join(text(u, lang) for u in intent.utterances)
    if isinstance(intent, (Confirm, Ask)):
        return text(intent.question, lang)
    raise AssertionError(intent)


def test_a_move_said_in_full_and_unambiguous_is_played_in_one_step():
    """No read-back: the narration of the move says it once (#17)."""
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "10 en A1 plus 29 en C4 vers le bas égale 39 en E2", m, 0)
    assert isinstance(got, Act)
    assert got.action == Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2"))
    en = heard(ui, "10 at A1 plus 29 at C4 down equals 39 at E2", m, 0)
    assert en.action == got.action
    events = m.play(0, got.action)
    said = " ".join(text(u) for e in events for u in ui.narrate(e, m))
    # #29: a number read to the right, the usual way, is said without its direction
    assert "10 en A1 plus 29 en C4 bas égale 39 en E2." in said and "34 points" in said


def test_a_number_in_two_places_is_asked_about():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "10 + 29 = 39", m, 0)
    assert isinstance(got, Ask)
    question = say_all(got)
    assert question.startswith("2 lectures possibles") and "C4" in question and "A7" in question
    assert got.resolve("blabla") is None
    done = got.resolve("C4")
    assert isinstance(done, Act) and done.action.b == cells("C4", "C5")
    other = got.resolve("le deuxième")
    assert isinstance(other, Act) and other.action.b != done.action.b
    assert got.resolve("the last one").action == other.action  # the last one heard, not the first
    assert got.resolve("le dernier").action == other.action
    assert isinstance(got.resolve("choix 2"), Act)
    assert isinstance(got.resolve("peu importe"), Act)
    dropped = got.resolve("non")
    assert isinstance(dropped, Answer) and say_all(dropped) == "D'accord, on oublie ce coup."


def test_multiplication_and_result_first():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "290 en A7 égale 10 fois 29 en C4", m, 0)
    assert isinstance(got, Act) and got.action.op == "*"
    assert m.play(0, got.action)[0].data["score"] == 86


def test_wrong_or_missing_numbers_are_refused_with_the_reason():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "10 plus 29 en C4 égale 290", m, 0)
    assert isinstance(got, Refuse) and "Faux : cette addition donne 39, pas 290." in say_all(got)
    got = heard(ui, "10 plus 29 égale 38", m, 0)
    assert isinstance(got, Refuse) and "Je ne trouve pas 38" in say_all(got)
    got = heard(ui, "10 times 29 at C4 equals 39", m, 0)
    assert "this multiplication gives 290, not 39" in say_all(got, "en")


def test_both_relations_read_back_as_the_product():
    _, ui, m = setup(board_with(A1=2, C1=2, E1=4, J10=5))
    got = heard(ui, "2 plus 2 égale 4", m, 0)
    assert isinstance(got, Act) and got.action.op == "*"  # RULES TA-5: the product scores more


def test_board_readings():
    _, ui, m = setup(board_with(**SEED))
    assert say_all(heard(ui, "ligne 1", m, 0)) == "Ligne 1 : 1, 0, vide, vide, vide, vide, vide, vide, vide et vide."
    assert say_all(heard(ui, "column C", m, 1), "en").startswith("Column C: empty, empty, empty, 2, 9, empty, 0,")
    assert say_all(heard(ui, "E2", m, 0)) == "E2 : 3."
    assert say_all(heard(ui, "autour de B2", m, 0)).startswith("B2 : vide. Autour : A1 1, B1 0, C1 vide,")
    assert say_all(heard(ui, "où sont les 9", m, 0)) == "3 fois le 9 : F2, C5 et B7."
    assert say_all(heard(ui, "where are the 7s", m, 0), "en") == "There is no 7 left on the board."
    assert say_all(heard(ui, "jetons", m, 0)) == "Il reste 10 jetons, valeur 60."
    heard(ui, "en nombres", m, 0)
    assert say_all(heard(ui, "ligne 7", m, 0)) == "Ligne 7 : 290 de A7 à C7 et vide de D7 à J7."
    heard(ui, "digit by digit", m, 0)
    assert say_all(heard(ui, "row 7", m, 0), "en").startswith("Row 7: 2, 9, 0, empty")
    board = heard(ui, "plateau", m, 0)
    assert isinstance(board, Answer) and len(board.utterances) == 10
    assert all(u.to == 0 for u in heard(ui, "ligne 2", m, 0).utterances)


def test_hints_give_a_little_more_each_time():
    _, ui, m = setup(board_with(**SEED))
    first = say_all(heard(ui, "indice", m, 0))
    second = say_all(heard(ui, "indice", m, 0))
    third = say_all(heard(ui, "indice", m, 0))
    assert first.startswith("Indice : il y a un bon coup qui utilise la case")
    assert second == "Indice : une multiplication dont le résultat est 290."
    assert third.startswith("Meilleur coup : 10 en A1 droite fois 29")
    assert "86 points" in third
    assert "legal move" in say_all(heard(ui, "how many moves", m, 0), "en")


def test_physical_entry_by_typing_and_dictation():
    game, ui, m = setup(physical=True)
    got = heard(ui, "ligne 1 : 5 3 6 5 0 2 3 0 1 8", m, 0)
    assert got == Act(EnterRow(0, "5365023018"))
    m.play(0, got.action)
    got = heard(ui, "cinq trois vide six cinq zéro deux trois zéro un", m, 0)
    assert got == Act(EnterRow(1, "53.6502301"))
    assert heard(ui, "53.65.2301", m, 0) == Act(EnterRow(1, "53.65.2301"))
    assert heard(ui, "ligne 4 : 1234567890.", m, 0) == Act(EnterRow(3, "1234567890"))
    assert heard(ui, "ligne 5 : ..........", m, 0) == Act(EnterRow(4, ".........."))
    got = heard(ui, "row 3: 1 2 3", m, 0)
    assert isinstance(got, Refuse) and "I hear 3 cells" in say_all(got, "en")
    got = heard(ui, "commencer, Alain commence", m, 0)
    assert got == Act(StartPlay(1))
    assert "Saisie du plateau" in text(ui.status(m, 0)[0])


def test_declare_only_at_a_physical_table():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "pas de solution", m, 0)
    assert isinstance(got, Refuse) and "indice" in say_all(got)
    _, ui, m = setup(board_with(**SEED), physical=True)
    got = heard(ui, "no solution", m, 0)
    assert isinstance(got, Confirm) and "120 points" in say_all(got, "en")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_help_and_status_are_said_in_every_phase(lang, verbosity):
    for options in ({}, {"physical": True}):
        _, ui, m = setup(**options)
        for seat in (0, 1, None):
            for utt in ui.help(m, seat) + ui.status(m, seat):
                assert text(utt, lang, verbosity)


def test_refusals_of_the_match_are_worded():
    from companion.core import IllegalAction

    _, ui, m = setup(board_with(**SEED))
    for move in (
        Move("+", cells("A1", "B1"), cells("A1", "B1"), cells("E2", "F2")),
        Move("*", cells("B1"), cells("C4", "C5"), cells("E2", "F2")),
        Move("+", cells("B1", "A1"), cells("C4", "C5"), cells("E2", "F2")),
        Move("+", cells("A1", "B1"), cells("C4", "C6"), cells("E2", "F2")),
    ):
        with pytest.raises(IllegalAction) as exc:
            m.play(0, move)
        for lang in ("fr", "en"):
            assert all(text(u, lang) for u in ui.refusal(exc.value, m, 0))
    with pytest.raises(IllegalAction) as exc:
        m.play(1, Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2")))
    assert text(ui.refusal(exc.value, m, 1)[0]) == "Ce n'est pas ton tour : c'est à Anne."


def test_numbers_dictated_as_words():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "dix en a un plus vingt-neuf en c quatre vers le bas égale trente-neuf en e deux", m, 0)
    assert isinstance(got, Act)
    assert got.action == Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2"))
    got = heard(ui, "ten at a one times two nine at c four equals two hundred ninety", m, 0)
    assert isinstance(got, Act) and got.action.op == "*"
    assert say_all(heard(ui, "où sont les neuf", m, 0)) == "3 fois le 9 : F2, C5 et B7."
    assert say_all(heard(ui, "where are the nines", m, 0), "en") == "3 9s: F2, C5 and B7."


def test_expert_numbers_said_with_their_direction():
    _, ui, m = setup(board_with(A1=1, B1=2, D1=1, F1=2, G1=2, J10=5), expert=True)
    got = heard(ui, "21 en B1 vers la gauche plus 1 en D1 égale 22 en F1", m, 0)
    assert isinstance(got, Act)
    assert got.action == Move("+", cells("D1"), cells("B1", "A1"), cells("F1", "G1"))
    en = heard(ui, "1 at D1 plus 21 at B1 left equals 22", m, 0)
    assert en.action == got.action
    # the standard game does not read backwards
    _, ui, m = setup(board_with(A1=1, B1=2, D1=1, F1=2, G1=2, J10=5))
    assert isinstance(heard(ui, "21 en B1 vers la gauche plus 1 en D1 égale 22 en F1", m, 0), Refuse)


def test_the_short_direction_words_the_companion_says_are_understood():
    """« 29 en C4 bas » is how the companion says a number: typed back, it works."""
    _, ui, m = setup(board_with(**SEED))
    long = heard(ui, "10 en A1 vers la droite plus 29 en C4 vers le bas égale 39 en E2", m, 0)
    short = heard(ui, "10 en A1 droite plus 29 en C4 bas égale 39 en E2 droite", m, 0)
    assert isinstance(short, Act) and short.action == long.action


def test_an_equation_by_cells_alone():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "A1 plus C4 égale E2", m, 0)  # 10 + 29 = 39, or 1 + 2 = 3: one question
    assert isinstance(got, Ask) and say_all(got).startswith("2 lectures possibles")
    assert got.resolve("choix 1").action in (
        Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2")), Move("+", cells("A1"), cells("C4"), cells("E2")))
    got = heard(ui, "A1 droite plus C4 bas égale E2 droite", m, 0)
    assert isinstance(got, Act)
    assert got.action == Move("+", cells("A1", "B1"), cells("C4", "C5"), cells("E2", "F2"))
    assert isinstance(heard(ui, "A1 plus C4 égale J10", m, 0), Refuse)


def test_one_question_for_many_readings_cut_lists_say_so_and_peu_importe_settles_all():
    # many 1s and 2s: "1 + 1 = 2" can be read many ways; one question, a page at a time
    board = {f"{c}{r}": (1 if (r + "ABCDEFGHIJ".index(c)) % 3 else 2) for c in "ABCDEFGHIJ" for r in range(1, 11, 2)}
    _, ui, m = setup(board_with(**board))
    got = heard(ui, "1 plus 1 égale 2", m, 0)
    assert isinstance(got, Ask)
    q = say_all(got)
    n = int(q.split()[4].rstrip(","))
    assert q.startswith(f"Il y en a {n}, voici les 8 premières") and f"pour les {n - 8} autres" in q
    assert q.count("choix ") == 8
    rest = got.resolve("la suite")
    assert isinstance(rest, Ask) and "choix 9 " in say_all(rest)
    assert say_all(rest).startswith(f"Choix 9 à 16 sur {n} : ") and "premières" not in say_all(rest)  # #29
    assert isinstance(got.resolve("peu importe"), Act)  # settles every number at once
    assert isinstance(got.resolve("choix 3"), Act)




def test_a_cell_asked_about_and_zero_never_starts_a_number_when_read_as_numbers():
    _, ui, m = setup(board_with(**SEED, D1=0, E1=4, G1=0))
    assert say_all(heard(ui, "qu'y a-t-il en C4", m, 0)) == "C4 : 2."
    assert say_all(heard(ui, "case B3", m, 0)) == "B3 : vide."
    assert say_all(heard(ui, "what is in C4", m, 0), "en").startswith("C4")
    heard(ui, "en nombres", m, 0)
    line = say_all(heard(ui, "ligne 1", m, 0))
    assert "0, 4 de D1 à E1" in line and "04" not in line


def test_the_vocabulary_is_data_in_both_languages():
    """Every word group 2kissa10 reads exists in French and in English (English complete), both
    tables hold the reading rules, the grammar builds from them (every group a pattern names
    exists, every slot has its reader), and the code names no group the tables lack."""
    import re
    from pathlib import Path

    from companion.games.kissa.phrases import GRAMMAR
    from companion.language import table

    fr, en = table("kissa", "fr"), table("kissa", "en")
    for section in ("words", "direction"):
        assert set(fr[section]) == set(en[section]), section
        assert all(fr[section][k] and en[section][k] for k in fr[section])
    assert fr["read"] == en["read"] and set(GRAMMAR().kinds()) == set(fr["read"])
    package = Path(__file__).parents[2] / "companion" / "games" / "kissa"
    source = "".join((package / f).read_text(encoding="utf-8") for f in ("commands.py", "moves.py", "phrases.py"))
    used = set(re.findall(r'words\("([a-z_]+)"\)', source))
    assert used and used <= set(fr["words"]), used - set(fr["words"])


def test_numbers_said_digit_by_digit_or_in_big_words():
    _, ui, m = setup(board_with(**SEED))
    got = heard(ui, "ten at a one times two nine at c four equals two nine oh", m, 0)
    assert isinstance(got, Act) and got.action.c == cells("A7", "B7", "C7")
    got = heard(ui, "dix en A1 fois vingt-neuf en C4 égale deux cent quatre-vingt-dix", m, 0)
    assert isinstance(got, Act) and got.action.op == "*"
    assert say_all(heard(ui, "deux mille plus un égale deux mille un", m, 0)).startswith("Je ne trouve pas 2000")
