"""Kaliko by ear: commands in French and English, readings, building a play step by step,
refusals that say why; every answer renders in both languages (strict catalogs)."""

import pytest

from companion.core import Match
from companion.games.base import Act, Answer, Refuse
from companion.games.kaliko import UI, Rules
from companion.games.kaliko.notation import cell_steps, cell_text, parse_cell
from companion.games.kaliko.rules import Exchange, Pass, Play
from companion.games.kaliko.tiles import NUMBER, identity
from companion.narration import Verbosity, catalog


def render(utts, lang="fr", verbosity=Verbosity.NORMAL):
    cat = catalog(lang, strict=True)
    return [cat.render(u, verbosity) for u in utts]


def parse(ui, line, match, seat):
    """A line taken as the session takes it: read, and the seat's next view kept (the play
    being built, the cursor); the UI itself holds nothing a read changes."""
    intent, ui.views[seat] = ui.read(line, match, seat, ui.views.get(seat))
    return intent


def said(intent, lang="fr"):
    assert isinstance(intent, (Answer, Refuse)), intent
    return " | ".join(render(intent.utterances, lang))


def setup_kf1():
    """KF-1 as a game: start tile A[R,W,B] at the centre, seat 0 holds the two tiles."""
    start = NUMBER[identity("01R 23W 45B")]
    game = Rules(start_tile=start)
    match = Match(game, ["Marie", "Bob"], seed=1)
    a, b = NUMBER[identity("01W 23R 45B")], NUMBER[identity("01B 23B 45R")]
    state = match.state
    seat = state.turn
    hands = [list(h) for h in state.hands]
    bag = list(state.bag)
    for n in (a, b):  # put the two tiles into the player's hand (swap with the bag)
        if n in hands[seat]:
            continue
        for h in hands:
            if n in h:
                h.remove(n)
                h.append(bag.pop(0))
        if n in bag:
            bag.remove(n)
        out = hands[seat].pop()
        bag.append(out)
        hands[seat].insert(0, n)
    from dataclasses import replace

    match.state = replace(
        state, board=((0, 0, "01R 23W 45B"),), hands=tuple(tuple(h) for h in hands), bag=tuple(sorted(bag))
    )
    return game, UI(game), match, seat, a, b


def test_cell_names_are_short_stable_and_unique():
    names = {}
    for q in range(-5, 6):
        for r in range(-5, 6):
            t = cell_text(q, r)
            assert t not in names
            names[t] = (q, r)
            assert parse_cell(t) == (q, r)
            assert len(cell_steps(q, r)) <= 2
    assert cell_text(0, 0) == "0" and cell_text(1, 0) == "3h1" and cell_text(1, -1) == "1h1"


def test_hand_tile_cell_readings_in_both_languages():
    game, ui, match, seat, a, b = setup_kf1()
    text = said(parse(ui, "main", match, seat))
    assert "Ta main, 7 tuiles" in text and "1 : " in text
    assert "Your hand, 7 tiles" in said(parse(ui, "hand", match, seat), "en")
    tile = said(parse(ui, "tuile 1", match, seat))
    assert tile == "1 : rouge de 1 à 11 h, petit arc ; bleu de 3 à 5 h, petit arc ; bleu de 7 à 9 h, petit arc"
    en = said(parse(ui, "tile 1", match, seat), "en")
    assert en == "1: red from 1 to 11, short arc; blue from 3 to 5, short arc; blue from 7 to 9, short arc"
    cell = said(parse(ui, "case", match, seat))
    assert cell.startswith("centre : rouge de 3 à 5 h, petit arc") and "Autour :" in cell
    moved = said(parse(ui, "va 3", match, seat))
    assert moved.startswith("3h1 : vide") and "9 h rouge" in moved
    assert "vont ici" in moved or "va ici" in moved
    assert "3h1: empty" in said(parse(ui, "go 0", match, seat) and parse(ui, "cell 3h1", match, seat), "en")
    assert "(" not in said(parse(ui, "va (1,0)", match, seat))


def test_open_ends_paths_where_bag_scores_board():
    game, ui, match, seat, a, b = setup_kf1()
    ends = said(parse(ui, "bouts rouge", match, seat))
    assert ends == "rouge : 2 bouts : centre à 3 h et centre à 5 h."
    assert said(parse(ui, "ends", match, seat), "en").count("open ends") == 3
    path = said(parse(ui, "chemin 3", match, seat))
    assert path.startswith("Ligne rouge, ouverte : 1 segment, aucun croisement")
    where = said(parse(ui, "où 1", match, seat))
    assert "Tuile 1" in where and "cases possibles" in where
    assert "tuiles dans le sac" in said(parse(ui, "sac", match, seat))
    assert "Marie 0 point" in said(parse(ui, "score", match, seat))
    assert "1 tile down" in said(parse(ui, "board", match, seat), "en")


def test_build_kf1_step_by_step_hear_the_score_then_play():
    game, ui, match, seat, a, b = setup_kf1()
    said(parse(ui, "prends 2", match, seat))
    first = said(parse(ui, "en 3h1", match, seat))
    assert "Tuile 2 en 3h1" in first and "Pas encore légal" in first
    # orient: a red line toward 9 o'clock (facing the start tile's red end)
    said(parse(ui, "rouge 9", match, seat))
    said(parse(ui, "take 1", match, seat))
    second = said(parse(ui, "at 5h1", match, seat), "en")
    if "Legal play" not in second:
        for _ in range(6):
            second = said(parse(ui, "turn", match, seat), "en")
            if "Legal play" in second:
                break
    assert "Legal play: 6 points" in second and "red line, closed, 3 segments." in second
    act = parse(ui, "joue", match, seat)
    assert isinstance(act, Act) and isinstance(act.action, Play)
    events = match.play(seat, act.action)
    assert events[0].data["score"] == 6
    # after the play the draft is empty again
    assert "vide" in said(parse(ui, "brouillon", match, seat))


def test_remove_clear_and_refusals_say_why():
    game, ui, match, seat, a, b = setup_kf1()
    assert isinstance(parse(ui, "en 3h1", match, seat), Refuse)  # no tile taken
    parse(ui, "prends 1", match, seat)
    parse(ui, "en 3h1", match, seat)
    assert "retirée" in said(parse(ui, "retire", match, seat))
    parse(ui, "prends 1", match, seat)
    parse(ui, "en 3h1", match, seat)
    act = parse(ui, "joue", match, seat)
    try:
        match.play(seat, act.action)
    except Exception as exc:  # IllegalAction: no scoring path
        text = " | ".join(render(ui.refusal(exc, match, seat)))
        assert "aucune ligne ne relie deux bouts" in text
        en = " | ".join(render(ui.refusal(exc, match, seat), "en"))
        assert "no line joins two ends" in en
    else:  # pragma: no cover
        raise AssertionError("KF-0 accepted")
    assert "effacé" in said(parse(ui, "efface", match, seat))
    assert isinstance(parse(ui, "centre", match, seat), Answer)


def test_colour_mismatch_refusal_names_the_edge():
    game, ui, match, seat, a, b = setup_kf1()
    from companion.core import IllegalAction

    # A[R,W,B] at 3h1 puts white at 9 o'clock against the start tile's red
    with pytest.raises(IllegalAction) as exc:
        match.check(seat, Play.of([(1, 0, "01R 23W 45B")]))
    assert exc.value.code in ("not_in_hand", "colour_mismatch")
    with pytest.raises(IllegalAction) as exc:
        match.check(seat, Play.of([(1, 0, "01R 23B 45W")]))  # tile a, turned wrongly
    assert exc.value.code == "colour_mismatch"
    assert render(ui.refusal(exc.value, match, seat))[0].startswith("couleurs différentes en 3h1, bord de 9 heures : bleu contre rouge")
    assert "colours differ at 3h1, edge at 9 o'clock: blue against red" in render(ui.refusal(exc.value, match, seat), "en")[0]


def test_exchange_pass_hint_best_and_help():
    game, ui, match, seat, a, b = setup_kf1()
    ex = parse(ui, "échange 1 3", match, seat)
    assert isinstance(ex, Act) and isinstance(ex.action, Exchange) and len(ex.action.tiles) == 2
    assert isinstance(parse(ui, "exchange all", match, seat).action, Exchange)
    assert isinstance(parse(ui, "passe", match, seat).action, Pass)
    hint = said(parse(ui, "indice", match, seat))
    assert "connexion rouge est possible près de" in hint
    best = said(parse(ui, "best", match, seat), "en")
    assert best.startswith("Best play, ") and ("tile 1 at" in best or "tile 2 at" in best)
    assert "joue" in " ".join(render(ui.help(match, seat)))
    assert "Not your turn" in " ".join(render(ui.help(match, 1 - seat), "en"))
    assert parse(ui, "blabla", match, seat) is None
    assert render(ui.status(match, None), "en")[1].startswith(f"{match.players[seat]} to play")


def test_take_a_tile_by_its_description():
    game, ui, match, seat, a, b = setup_kf1()
    # tile 1 (A[B,B,R]) is the first with a blue short arc; tile 2 has a white one
    assert said(parse(ui, "prends blanc petit arc", match, seat)).startswith("Tuile 2 prise")
    assert said(parse(ui, "take blue short", match, seat), "en").startswith("Tile 1 taken")
    assert isinstance(parse(ui, "prends vert", match, seat), Refuse)


def test_the_play_being_built_is_a_value_reading_never_changes():
    import copy

    game, ui, match, seat, a, b = setup_kf1()
    before = copy.deepcopy({k: v for k, v in vars(ui).items() if k != "game"})
    _intent, taken = ui.read("prends 2", match, seat)
    again, view = ui.read("put it at 5h1", match, seat, taken)
    assert isinstance(again, Answer) and [p[:2] for p in view.placed] == [(0, 1)] and view.cursor == (0, 1)
    assert taken.placed == () and taken.selected == match.state.hands[seat][1]  # the view read from is unchanged
    refused, same = ui.read("en 1 h 1 puis 3 h", match, seat, view)
    assert isinstance(refused, Refuse) and same is view  # refused: the same view, nothing changes
    act, end = ui.read("prends 1 ensuite en 3h1 ensuite joue", match, seat)  # a play in one line
    assert isinstance(act, Act) and isinstance(act.action, Play) and len(end.placed) == 1
    assert {k: v for k, v in vars(ui).items() if k != "game"} == before  # the UI holds nothing a read changes
