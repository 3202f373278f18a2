"""Kaliko by ear (#17): where every play went, the board's summary then its rings, one
numbering for tiles, refused commands that change nothing, the whole draft, the cursor."""

from pathlib import Path

from companion.core import Match, find
from companion.games.base import Answer, Refuse
from companion.games.kaliko import UI, Rules
from companion.games.kaliko.notation import cell_text, parse_cell
from companion.narration import Verbosity
from companion.session.transcript import bot_game

from .helpers import random_position
from .test_kaliko_commands import parse, render, said, setup_kf1


def test_every_play_says_its_cells_and_main_path_in_every_verbosity():
    match, ui = bot_game(find("kaliko"), seed=4, kinds=["greedy", "random"], names=["Marie", "Paul"])
    plays = [ev for ev in match.events() if ev.type == "tiles_played"]
    assert plays
    colours = {"fr": {"R": "rouge", "W": "blanche", "B": "bleue"}, "en": {"R": "red", "W": "white", "B": "blue"}}
    for ev in plays:
        cells = [cell_text(*p["cell"]).replace(" ", "-") for p in ev.data["placements"]]
        main = next(p for p in ev.data["paths"] if p.get("main"))
        for lang in ("fr", "en"):
            for verbosity in (Verbosity.TERSE, Verbosity.NORMAL):
                (line,) = render(ui.narrate(ev, match), lang, verbosity)
                assert all(c in line for c in cells), (line, cells)
                assert str(ev.data["score"]) in line
                # the main path joined is the first named
                first_colour = min((line.find(w), k) for k, w in colours[lang].items() if w in line)[1]
                assert first_colour == main["colour"], line
            verbose = render(ui.narrate(ev, match), lang, Verbosity.VERBOSE)[0]
            assert ("vers" in verbose or "toward" in verbose or "centre" in verbose) and str(ev.data["score"]) in verbose


def test_drawn_tiles_are_a_count_and_hand_positions_are_the_one_numbering():
    game, match = random_position(3, 0)
    ui = UI(game)
    seat = match.current
    events = match.play(seat, game.plays(match.state, seat)[0])
    (ev,) = [e for e in events if e.type == "tiles_drawn_private"]
    hand = match.state.hands[seat]
    assert list(hand[ev.data["first"] - 1 :]) == ev.data["tiles"]  # drawn tiles go at the end
    utts = ui.narrate(ev, match)
    # #29: a count (« main » reads them; said at the deal and in the help, not at every draw)
    assert render(utts)[0].endswith("nouvelles tuiles.") or render(utts)[0].endswith("nouvelle tuile.")
    assert " new tile" in render(utts, "en")[0]
    assert len([w for w in render(utts, "fr", Verbosity.TERSE)[0].split() if any(c.isalnum() for c in w)]) <= 3
    verbose = render(utts, "fr", Verbosity.VERBOSE)[0]
    assert f"{ev.data['first']} : " in verbose  # verbose lists them by their place in the hand
    dealt = [e for e in match.setup_events if e.type == "hand_dealt" and e.data["seat"] == seat][0]
    assert "1 : " in render(ui.narrate(dealt, match), "fr", Verbosity.VERBOSE)[0]
    assert "tuile " not in render(ui.narrate(dealt, match), "fr", Verbosity.VERBOSE)[0]  # no catalogue numbers


def test_take_by_catalogue_number_when_that_tile_is_in_hand():
    game, ui, match, seat, a, b = setup_kf1()
    hand = match.state.hands[seat]
    big = next(n for n in hand if n > len(hand))
    pos = hand.index(big) + 1
    assert said(parse(ui, f"prends {big}", match, seat)).startswith(f"Tuile {pos} prise")


def test_a_refused_cell_never_swaps_the_tile_in_hand_and_spoken_cells_are_accepted():
    game, ui, match, seat, a, b = setup_kf1()
    parse(ui, "prends 2", match, seat)
    assert ui.views[seat].selected == match.state.hands[seat][1]
    # "1 h 1 3 h 9" is no cell ("9 h" has no edge... 9 is, but "1 3" is not): refused
    refused = parse(ui, "en 1 h 1 puis 3 h", match, seat)
    assert isinstance(refused, Refuse)
    assert ui.views[seat].selected == match.state.hands[seat][1]  # unchanged
    # the spaced form the companion prints in verbose and the old normal form both work
    ok = parse(ui, "en 3 h 1", match, seat)
    assert isinstance(ok, Answer) and said(ok).startswith("Tuile 2 en 3h1")


def test_spaced_two_step_cell_with_puis_is_one_cell():
    assert parse_cell("1 h 1 puis 3 h 1") == parse_cell("1h1 3h1") == parse_cell("1h1-3h1")
    assert parse_cell("1h1 3h1") is not None


def test_fits_here_never_empty_list():
    game, ui, match, seat, a, b = setup_kf1()
    texts = []
    for cell in ("3h1", "5h1", "7h1", "9h1", "11h1", "1h1"):
        texts.append(said(parse(ui, f"case {cell}", match, seat)))
    assert not any("ici : ." in t for t in texts)
    assert all("va ici" in t or "vont ici" in t or "Aucune tuile de ta main" in t for t in texts)


def test_case_moves_the_cursor_and_draft_reads_everything():
    game, ui, match, seat, a, b = setup_kf1()
    said(parse(ui, "case 1h1 3h1", match, seat))
    assert ui.views[seat].cursor == parse_cell("1h1 3h1")
    parse(ui, "prends 2", match, seat)
    parse(ui, "en 3h1", match, seat)
    parse(ui, "rouge 9", match, seat)
    parse(ui, "prends 1", match, seat)
    parse(ui, "en 5h1", match, seat)
    parse(ui, "prends 3", match, seat)
    draft = said(parse(ui, "brouillon", match, seat))
    assert draft.startswith("Ton coup, 2 tuiles")
    assert "tuile 2 en 3h1" in draft and "tuile 1 en 5h1" in draft and "Tuile 3 en main" in draft
    assert "Your play, 2 tiles" in said(parse(ui, "draft", match, seat), "en")


def test_rotation_counts_agree():
    game, ui, match, seat, a, b = setup_kf1()
    parse(ui, "prends 2", match, seat)
    first = said(parse(ui, "en 3h1", match, seat))
    again = said(parse(ui, "rouge 9", match, seat))
    if "rotations possibles" in first:
        assert "Seule rotation possible" not in again
    turned = said(parse(ui, "tourne", match, seat))
    assert ("Seule rotation possible" in first) == ("Seule rotation possible" in turned)


def test_board_summary_then_rings():
    game, match = random_position(5, 12)
    ui = UI(game)
    seat = match.current
    n = len(match.state.board)
    summary = said(parse(ui, "plateau", match, seat))
    assert summary.startswith(f"{n} tuiles posées")
    assert "Par direction" in summary and "bouts ouverts" in summary and "Derniers coups" in summary
    assert len(summary.split()) < 120  # a summary, not the 1,700-word listing
    full = said(parse(ui, "plateau tout", match, seat))
    assert len(full.split()) > len(summary.split())
    near = said(parse(ui, "plateau près de 3h1", match, seat))
    assert near.startswith("Autour de 3h1, anneau 0") and "anneau 1" in near
    ring2 = said(parse(ui, "plateau près de 3h1 anneau 2", match, seat))
    assert ring2.startswith("Autour de 3h1, anneau 2")
    en = said(parse(ui, "board near centre ring 1", match, seat), "en")
    assert en.startswith("Around centre, ring 1:")
    assert isinstance(parse(ui, "plateau près de 4h1", match, seat), Refuse)


def test_kaliko_match_unchanged_by_readings():
    game = Rules()
    match = Match(game, ["A", "B"], seed=2)
    ui = UI(game)
    before = match.state
    for line in ("plateau", "plateau près de centre", "main", "case 3h1", "brouillon", "bouts"):
        parse(ui, line, match, match.current)
    assert match.state == before


def test_rules_chapter_8_phrases_are_understood():
    """Every command the audio rules' chapter "with the companion" quotes is understood."""
    game, ui, match, seat, a, b = setup_kf1()
    fr = ["prends 2", "en 3h1", "tourne", "rouge 9", "brouillon", "retire", "efface", "échange 1 3", "échange tout",
          "passe", "plateau", "plateau près de 3h1", "case 3h1", "va 3", "bouts rouges", "chemin 3", "où 2", "indice",
          "meilleur", "coups", "main", "en 1 h 1 puis 3 h 1", "case 1h1-3h1"]
    en = ["take 2", "at 3h1", "turn", "red 9", "draft", "remove", "clear", "exchange 1 3", "exchange all", "pass",
          "board", "board near 3h1", "cell 3h1", "go 3", "ends red", "path 3", "where 2", "hint", "best", "moves", "hand"]
    for line in fr + en:
        assert parse(ui, line, match, seat) is not None, line
    text = (Path(__file__).resolve().parents[2] / "audio/rules/kaliko/fr/companion.txt").read_text(encoding="utf-8")
    assert "q et r" not in text and "zéro à cinq" not in text
    for phrase in ("prends 2", "plateau près de 3h1", "brouillon", "main"):
        assert f"« {phrase[0].upper() + phrase[1:]}" in text or f"« {phrase}" in text
