"""2kissa10 said as players speak (issue 24, point 7): « trois plus quatre égale sept », the
values only. The companion finds where those numbers lie: one place is played, two are both
named, many are narrowed as typed, none is « Je ne trouve pas 3 + 4 = 7 sur le plateau. »"""

from companion.core import Match
from companion.games.base import Act, Ask, Refuse
from companion.games.kissa import UI, Rules
from companion.games.kissa.rules import State
from companion.narration import catalog
from tests.kissa.helpers import board_with, random_board


def setup(board):
    game = Rules()
    m = Match(game, ["Anne", "Alain"], seed=1)
    m.state = State(tuple(board), (0, 0), 0, "play", (True,) * 10)
    return UI(game), m


def said(intent, lang="fr"):
    utts = intent.utterances if isinstance(intent, Refuse) else [intent.question]
    return " | ".join(catalog(lang).render(u) for u in utts)


def test_one_place_is_played():
    ui, m = setup(board_with(A1=3, B1=4, E1=7))
    for line in ("trois plus quatre égale sept", "3 and 4 makes 7", "three plus four equals seven"):
        got = ui.parse(line, m, 0)
        assert isinstance(got, Act), line
        m.check(0, got.action)


def test_two_places_are_both_named():
    ui, m = setup(board_with(A1=3, B1=4, E1=7, E5=7))
    got = ui.parse("trois plus quatre égale sept", m, 0)
    assert isinstance(got, Ask)
    q = said(got)
    assert q.count("choix ") == 2 and "E1" in q and "E5" in q


def test_hundreds_are_narrowed():
    ui, m = setup(random_board(4))
    got = ui.parse("un plus un égale deux", m, 0)
    assert isinstance(got, Ask) and "voici les 8 premières" in said(got)
    assert isinstance(got.resolve("peu importe"), Act)


def test_none_says_the_equation_as_said():
    ui, m = setup(board_with(A1=3, B1=4, J10=8))  # no 7 anywhere
    got = ui.parse("trois plus quatre égale sept", m, 0)
    assert isinstance(got, Refuse)
    assert said(got) == "Je ne trouve pas 3 + 4 = 7 sur le plateau."
    assert said(ui.parse("3 plus 4 equals 7", m, 0), "en") == "I cannot find 3 + 4 = 7 on the board."
    # a false equation is still told why
    assert "7" in said(ui.parse("trois plus quatre égale huit", m, 0))
