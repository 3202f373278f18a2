"""Reading mistakes of issue 24 (point 6), through the session: « annule », « non », "cancel"
drop a pending question or read-back and nothing else happens; English "end" quits; « Bruno,
joue pour moi » on Bruno's turn is Bruno asking for autoplay, not a KIKOI request; filler and
politeness cost nothing."""

from __future__ import annotations

import pytest

from companion.core import Match
from companion.games import kikoi
from companion.session import Seat, Session
from companion.session.commands import global_command
from companion.session.inbox import Line
from companion.session.outputs import InputTaken
from tests.toygame import Nim
from tests.toyui import NimUI, TakeOne


def nim(bots=(False, True)):
    game = Nim(pile=7)
    names = ["Marie", "Paul"]
    match = Match(game, names, seed=4)
    seats = [Seat(n, bot=TakeOne(game, i, None) if b else None) for i, (n, b) in enumerate(zip(names, bots, strict=True))]
    lines: list[str] = []
    s = Session("nim", NimUI(game), match, seats, lang="fr", out=lines.append)
    s.start()
    return s, lines


@pytest.mark.parametrize("word", ["annule", "non", "cancel", "never mind"])
def test_a_cancel_word_drops_a_read_back_and_takes_nothing_back(word):
    s, lines = nim()
    s.handle("take 1")  # Marie, then Paul the bot: one move each to take back
    pile = s.match.state.pile
    s.handle("sure 2")
    assert s.core.pending
    s.handle(word)
    assert not s.core.pending and s.match.state.pile == pile  # nothing undone
    assert lines[-1].endswith("D'accord, coup annulé. Rien n'a changé.")


def kikoi_session():
    game = kikoi.Rules()
    match = Match(game, ["Anne", "Bruno", "Chloé"], seed=6)
    lines: list[str] = []
    s = Session("kikoi", kikoi.UI(game), match, [Seat(n) for n in match.players], lang="fr", out=lines.append)
    s.start()
    return s, lines


def taken(s, text, seat=None):
    outs = s.core.handle(Line(text, seat=seat))
    return next(o for o in outs if isinstance(o, InputTaken))


def test_annule_drops_a_kikoi_question():
    s, _lines = kikoi_session()
    seat = s.match.current
    other = s.match.players[(seat + 1) % 3]
    assert taken(s, f"demande à {other} le kigliss").outcome == "ask"  # which moment?
    got = taken(s, "annule")
    assert (got.outcome, got.command) == ("shared", "no") and not s.core.pending
    assert len(s.match.history) == 0


def test_a_name_then_a_shared_word_is_that_player_speaking():
    s, _lines = kikoi_session()
    name = s.match.players[s.match.current]
    got = taken(s, f"{name}, joue pour moi")
    assert got.command == "autoplay" and got.outcome != "not_understood"


def test_english_end_quits_and_filler_costs_nothing():
    assert global_command("end") == "quit"
    assert global_command("euh, s'il te plaît, aide") == "help"
    assert global_command("um, repeat please") == "repeat"
    s, _lines = kikoi_session()
    seat = s.match.current
    other = s.match.players[(seat + 1) % 3]
    got = taken(s, f"{other}, aurais-tu l'obligeance de me donner le Kigliss qui dort ?")
    assert got.outcome in ("act", "refuse") and got.command.startswith("action:")


def test_kaliko_put_it_at_a_cell_places_the_tile_taken_and_the_session_holds_the_play():
    from companion.games import kaliko
    from tests.kaliko.test_kaliko_commands import setup_kf1

    game, ui, match, seat, _a, _b = setup_kf1()
    lines: list[str] = []
    s = Session("kaliko", ui, match, [Seat(n) for n in match.players], lang="en", out=lines.append)
    s.start()
    assert taken(s, "um, take 2 please").command == "take"
    got = taken(s, "put it at 5h1")  # issue 24: read as placing the tile taken at 5h1
    assert (got.outcome, got.command) == ("answer", "here")
    view = s.core.views[seat]
    assert isinstance(view, kaliko.draft.Draft) and [p[:2] for p in view.placed] == [(0, 1)]
    assert not hasattr(ui, "drafts") and ui.read("remove", match, seat, view)[1].placed == ()
    assert s.core.views[seat] is view  # reading a line changed nothing: the session sets the view it takes


def kissa_session(board, lang="fr"):
    from companion.games import kissa
    from companion.games.kissa.rules import State

    game = kissa.Rules()
    match = Match(game, ["Anne", "Alain"], seed=1)
    match.state = State(tuple(board), (0, 0), 0, "play", (True,) * 10)
    lines: list[str] = []
    s = Session("kissa", kissa.UI(game), match, [Seat(n) for n in match.players], lang=lang, out=lines.append)
    s.start()
    return s, lines


@pytest.mark.parametrize(("line", "lang"), [("euh, trois plus quatre égale sept, s'il te plaît", "fr"),
                                            ("um, 3 and 4 makes 7 please", "en"),
                                            ("three plus four equals seven", "en")])
def test_a_2kissa10_equation_of_values_only_is_played_where_it_lies(line, lang):
    from tests.kissa.helpers import board_with

    s, _lines = kissa_session(board_with(A1=3, B1=4, E1=7), lang)
    got = taken(s, line, seat=0)
    assert got.outcome == "act" and got.command.startswith("action:") and len(s.match.history) == 1


def test_a_2kissa10_equation_in_two_places_names_both_and_one_nowhere_says_so():
    from tests.kissa.helpers import board_with

    s, lines = kissa_session(board_with(A1=3, B1=4, E1=7, E5=7))
    s.handle("trois plus quatre égale sept")
    assert "E1" in lines[-1] and "E5" in lines[-1] and lines[-1].count("choix ") == 2
    s.handle("le deuxième")
    assert len(s.match.history) == 1
    s, lines = kissa_session(board_with(A1=3, B1=4, J10=8))
    s.handle("trois plus quatre égale sept")
    assert lines[-1].endswith("Je ne trouve pas 3 + 4 = 7 sur le plateau.") and not s.match.history


def test_a_2kissa10_equation_in_hundreds_of_places_is_narrowed_and_the_seats_view_is_the_sessions():
    from tests.kissa.helpers import random_board

    s, lines = kissa_session(random_board(4))
    s.handle("un plus un égale deux")
    assert "voici les 8 premières" in lines[-1]
    s.handle("la suite")
    assert "Choix 9 à 16 sur " in lines[-1]
    s.handle("peu importe")
    assert len(s.match.history) == 1
    # how a seat hears lines read is its view, held by the session: reading changed nothing else
    s.handle("Anne: en nombres")
    s.handle("Anne: ligne 1")
    assert " de A1 à " in lines[-1]
    s.handle("Alain: ligne 1")
    assert " de A1 à " not in lines[-1] and "Ligne 1 : " in lines[-1]  # Alain: digit by digit
