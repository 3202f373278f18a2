"""Kaliko at a physical table (`-o physical=true`): the players lay the real tiles and tell the
companion the tiles they draw from the real bag; it keeps the board, checks, scores and asks for
the next draw. Whole games typed line by line through the session, in French and English, the
refusals of a tile that is not in the bag (nothing half-applied), a resume from the journal."""

from __future__ import annotations

import json
import random

import pytest

from companion.core import Match
from companion.games.base import Act, Refuse
from companion.games.kaliko import UI, Rules
from companion.games.kaliko.finder import best_play
from companion.games.kaliko.phrases import play_steps
from companion.games.kaliko.rules import DEAL, DRAW, PLAY, START, Drew, Play, packed_board
from companion.games.kaliko.tiles import ORIENTED, TILES, cell_qr
from companion.session import Seat, Session
from tests.quiet import Quiet
from tests.test_cli import run

NAMES = ["Marie", "Paul"]
WORDS = {
    "fr": {"draw": "tire", "exchange": "échange tout", "pass": "passe", "hand": "main", "bag": "sac"},
    "en": {"draw": "drew", "exchange": "exchange all", "pass": "pass", "hand": "hand", "bag": "bag"},
}
COLOUR = {"fr": {"R": "rouge", "W": "blanc", "B": "bleu"}, "en": {"R": "red", "W": "white", "B": "blue"}}
CLOCK = (3, 5, 7, 9, 11, 1)


def spoken_tile(number: int, lang: str) -> str:
    """A tile said by its colours and hours as it lies (« rouge 3 5 blanc 7 9 bleu 11 1 »)."""
    segs = TILES[number - 1].split()
    return " ".join(f"{COLOUR[lang][s[2]]} {CLOCK[int(s[0])]} {CLOCK[int(s[1])]}" for s in segs)


def table(lang: str, seed: int = 1, **options):
    rules = Rules(physical=True, **options)
    match = Match(rules, NAMES, seed)
    ui = UI(rules)
    lines: list[str] = []
    session = Session("kaliko", ui, match, [Seat(n) for n in NAMES], lang=lang, speaker=Quiet(), out=lines.append)
    return rules, ui, match, session, lines


def tell_draws(session, match, rng, lang, lines):
    """The player to move tells the tiles they drew: one, several at once, or by colours."""
    state = match.state
    k = rng.randint(1, state.owed)
    tiles = rng.sample(sorted(state.bag), k)
    if k == 1 and rng.random() < 0.4:
        line = spoken_tile(tiles[0], lang)
    else:
        line = f"{WORDS[lang]['draw']} " + " ".join(str(t) for t in tiles)
    seat = match.current
    before = {s: list(h) for s, h in enumerate(state.hands)}
    session.handle(line)
    if state.phase == START:
        assert match.state.board[0][2] == TILES[tiles[0] - 1]
    else:
        assert list(match.state.hands[seat]) == before[seat] + tiles, (line, lines[-3:])


def play_turn(session, ui, match, rng, lang):
    """The player to move plays the best play of up to 3 tiles in words, else exchanges or passes."""
    seat = match.current
    state = match.state
    best = best_play(packed_board(state.board), list(state.hands[seat]), False, False, max_tiles=3)
    if best is not None:
        play = Play(tuple(sorted((*cell_qr(c), ORIENTED[ot]) for c, ot in best.placements)))
        steps = play_steps(ui, match, seat, play, lang)
        before = match.state.scores[seat]
        session.handle(" ; ".join(steps))
        assert match.state.scores[seat] == before + best.score
    elif len(state.bag) >= len(state.hands[seat]) and rng.random() < 0.7:
        session.handle(WORDS[lang]["exchange"])
        assert match.state.phase == DRAW and match.state.returning
    else:
        session.handle(WORDS[lang]["pass"])


def whole_game(lang: str, seed: int, hand_size: int = 3):
    rules, ui, match, session, lines = table(lang, seed, hand_size=hand_size)
    session.start()
    rng = random.Random(seed)
    assert match.state.phase == START
    for _ in range(400):
        if match.over:
            break
        if match.state.phase != PLAY:
            tell_draws(session, match, rng, lang, lines)
        else:
            play_turn(session, ui, match, rng, lang)
    assert match.over, lines[-10:]
    return rules, match, lines


@pytest.mark.parametrize(("lang", "seed"), [("fr", 1), ("en", 2)])
def test_a_whole_physical_game_typed(lang, seed):
    rules, match, lines = whole_game(lang, seed)
    text = "\n".join(lines)
    assert ("avec les vraies tuiles" if lang == "fr" else "with the real tiles") in lines[0]
    assert match.events()[-1].type == "game_ended"
    # every tile is somewhere, once: on the board, in a hand or still in the bag
    seen = [t for h in match.state.hands for t in h] + list(match.state.bag)
    assert len(match.state.board) + len(seen) == 85 and len(set(seen)) == len(seen)
    # the journal replays it: the same board, hands and scores
    again = Match(rules, NAMES, seed)
    again.replay(json.loads(json.dumps(match.actions_json())))
    assert rules.state_to_json(again.state) == rules.state_to_json(match.state)
    # a told tile is read back to its owner only (private lines carry the owner's name)
    noted = "Not" if lang == "fr" else "Noted"
    told = [line for line in lines if noted in line]
    assert told and all(line.startswith(("[Marie]", "[Paul]")) for line in told)
    assert ("tire" if lang == "fr" else "draw") in text


def test_the_draw_prompts_and_the_table_hears_only_counts():
    rules, ui, match, session, lines = table("fr", 3, hand_size=7)
    session.start()
    assert lines[-1] == "Marie, tire la tuile de départ, pose-la au centre et dis laquelle : son numéro ou ses couleurs."
    session.handle("tire 5")
    assert "Tuile de départ au centre" in lines[-2] and lines[-1] == "Marie, tire 7 tuiles et dis-les."
    assert match.state.phase == DEAL and match.state.owed == 7
    session.handle("12 40 3")
    assert lines[-3] == "Marie pioche 3, sac 81." and lines[-1] == "Marie, tire 4 tuiles et dis-les."
    session.handle("rouge 3 5 blanc 7 9 bleu 11 1")  # the start tile, by its colours: refused
    assert lines[-2] == "[Marie] Cette tuile est déjà sur le plateau : centre. Rien n'est noté."
    assert lines[-1].startswith("[Marie] Dis les 4 tuiles tirées")
    session.handle("main")
    assert lines[-4] == "[Marie] Ta main, 3 tuiles :"


@pytest.mark.parametrize(("line", "said"), [
    ("tire 12", "Cette tuile n'est pas dans le sac : elle est déjà posée ou dans une main. Rien n'est noté."),
    ("tire 30 12", "La tuile 2 de ta liste n'est pas dans le sac : elle est déjà posée ou dans une main. Rien n'est noté."),
    ("tire 90", "Il n'y a pas de tuile 90 : elles vont de 1 à 85. Rien n'est noté."),
    ("tire 30 30", "La même tuile est dite deux fois. Rien n'est noté."),
    ("tire 30 31 32", "Tu as dit 3 tuiles, il n'en faut que 2. Rien n'est noté."),
    ("joue", "D'abord, tire 2 tuiles et dis-les."),
    ("prends 1", "D'abord, tire 2 tuiles et dis-les."),
    ("rouge 3 5 blanc 7 9 bleu 11 1", "Cette tuile est déjà sur le plateau : centre. Rien n'est noté."),
    ("tire bleu rouge", "Je n'ai reconnu aucune tuile. Rien n'est noté."),
])
def test_a_told_tile_that_cannot_be_drawn_is_refused_and_nothing_changes(line, said):
    rules, ui, match, session, lines = table("fr", 1, start_tile=5, hand_size=2)
    session.start()
    assert match.state.phase == DEAL
    session.handle("12 40")  # Marie's hand
    paul = match.current
    assert paul == 1 and match.state.owed == 2
    before = json.dumps(rules.state_to_json(match.state))
    n = len(lines)
    session.handle(line)
    assert json.dumps(rules.state_to_json(match.state)) == before
    assert f"[Paul] {said}" in lines[n:], lines[n:]
    # the refusal never names the tile that is in Marie's hand
    assert not any("12" in x for x in lines[n:] if "Paul" in x and "tuile 12" in x)


def test_mirror_tiles_said_by_colours_ask_for_hours():
    rules, ui, match, session, lines = table("fr", 1, start_tile=85)
    session.start()
    intent = ui.parse("rouge petit arc blanc grand arc bleu grand arc", match, match.current)
    assert isinstance(intent, Refuse)
    assert "2 tuiles ont ces couleurs" in " ".join(str(p) for u in intent.utterances for p in u.parts) or intent.utterances
    intent = ui.parse("01B 23R 45W", match, match.current)
    assert isinstance(intent, Act) and intent.action == Drew((5,))


def test_chance_lists_the_bag_and_told_reads_ids_and_words():
    rules, ui, match, session, lines = table("en", 1)
    seat = match.current
    outcomes = ui.chance(match, seat)
    assert len(outcomes) == 85
    assert ui.told("42", match, seat).action == Drew((42,))
    assert ui.told(spoken_tile(42, "en"), match, seat).action == Drew((42,))
    assert ui.told("hand", match, seat) is None
    match.play(seat, Drew((42,)))
    assert ui.told("42", match, match.current).action == Drew((42,))  # refused by the rules, with the reason


def test_bots_are_refused_at_a_physical_table(tmp_path):
    r = run(tmp_path, "play", "kaliko", "-o", "physical=true", "--players", "Marie", "--bots", "1")
    assert r.returncode == 2 and "pas de robot" in r.stderr
    r = run(tmp_path, "play", "kaliko", "-o", "physical=peut-être", "--players", "Marie,Paul")
    assert r.returncode == 2
    assert r.stderr.strip() == "Variante refusée : physical ne peut pas valoir « peut-être ». Valeurs possibles : oui, non."
    r = run(tmp_path, "play", "kaliko", "-o", "fizzical=true", "--players", "Marie,Paul")
    assert r.returncode == 2 and "aucune variante ne s'appelle fizzical" in r.stderr and "physical" in r.stderr


def test_resume_mid_game_from_the_journal(tmp_path):
    typed = "tire 5\n12 40 3\n30 31 32\nmain\nquitte\n"
    r = run(tmp_path, "play", "kaliko", "-o", "physical=true", "-o", "hand_size=3", "--players", "Marie,Paul",
            "--seed", "1", input=typed)
    assert r.returncode == 0, r.stderr
    assert "Marie pioche 3, sac 81." in r.stdout and "Paul pioche 3, sac 78." in r.stdout
    saves = list((tmp_path / "data").rglob("*kaliko*.jsonl"))
    assert len(saves) == 1
    r = run(tmp_path, "resume", str(saves[0]), input="sac\nMarie: main\nquitte\n")
    assert r.returncode == 0, r.stderr
    assert "Partie reprise après 3 coups." in r.stdout
    assert "À Marie de jouer." in r.stdout and "78 dans le sac." in r.stdout
    assert "\n78 tuiles dans le sac.\n" in r.stdout  # the bag is public: said to the table
    # two humans at one screen, no private channel: Marie's hand is not said aloud
    assert "Ta main" not in r.stdout and "Je ne peux pas te le dire ici" in r.stdout


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_what_is_sayable_while_drawing_is_understood_as_listed(lang):
    from tests.test_phrases_sayable import understood

    rules, ui, match, session, lines = table(lang, 4, hand_size=3)
    for _step in range(3):  # the start tile, then each hand
        seat = match.current
        sayable = ui.phrases(match, seat, lang)
        draws = [(p, c) for p, c in sayable.concrete if c.startswith("action:")]
        assert len(draws) == len(match.state.bag)
        assert {"template": "tire {tiles}" if lang == "fr" else "drew {tiles}", "command": "action"} in sayable.grammar["rules"]
        for phrase, command in draws[:20]:
            kind, got = understood(ui, phrase, match, seat, lang)
            assert got == command and kind == "act", (phrase, kind, got)
        for phrase, command in [p for p in sayable.concrete if not p[1].startswith("action:")]:
            kind, got = understood(ui, phrase, match, seat, lang)  # a reading (« chemin 1 » on an empty board: refused)
            assert got == command and kind in ("shared", "answer", "refuse"), (phrase, kind, got)
        match.play(seat, Drew(tuple(sorted(match.state.bag)[: match.state.owed])))


def test_undo_takes_back_the_tiles_just_told():
    rules, ui, match, session, lines = table("fr", 1, start_tile=5, hand_size=3)
    session.start()
    session.handle("12 40")
    before = json.dumps(rules.state_to_json(match.state))
    session.handle("3")
    assert match.current == 1 and match.state.hands[0] == (12, 40, 3)
    session.handle("Marie: annule")
    assert json.dumps(rules.state_to_json(match.state)) == before
    assert lines[-1] == "Marie, tire 1 tuile et dis-la."
    session.handle("tire 4")
    assert match.state.hands[0] == (12, 40, 4) and match.current == 1


def test_telling_out_of_turn_or_without_a_draw_is_refused_with_the_reason():
    rules, ui, match, session, lines = table("fr", 1, hand_size=3)
    session.start()
    session.handle("Paul: tire 12")
    assert lines[-1] == "[Paul] Ce n'est pas ton tour : c'est à Marie de jouer." and match.state.phase == START
    session.handle("état")
    assert lines[-1].endswith("tire la tuile de départ, pose-la au centre et dis laquelle : son numéro ou ses couleurs.")
    held = Rules(hand_size=3)  # the companion holds the bag: nothing is told
    m = Match(held, NAMES, 1)
    intent = UI(held).parse("tire 12", m, m.current)
    assert isinstance(intent, Act)
    with pytest.raises(Exception, match="nothing_to_draw"):
        m.play(m.current, intent.action)


def test_a_tile_tag_on_the_reader_is_named():
    from companion.games.kaliko.narration import tok
    from companion.narration import catalog

    assert catalog("fr").text(tok("5")).startswith("tuile 5 : rouge de 7 à 9 h, petit arc")
    with pytest.raises(ValueError):
        tok("86")


@pytest.mark.parametrize("seed", [0, 1])
def test_random_physical_playouts_keep_the_contract(seed):
    """The conformance suite's playout on a physical table: random told draws and moves, views
    that hide hands, JSON round trips, stale actions refused, the journal replays the game."""
    from tests.conformance import random_playout

    match = random_playout(Rules(physical=True, hand_size=3), 2 + seed, seed, check_every=3)
    assert any(isinstance(step.action, Drew) for step in match.history)


# --- the token reader: a tile laid on it is told like a typed one (GameUI.told) -------------------
def test_tiles_laid_on_the_token_reader_are_told_until_the_hands_are_dealt():
    """Tags `kaliko:N` (companion reader write) laid one by one on a reader bound to the table:
    the start tile, then each hand in turn, the same moves as typed numbers, nothing said twice."""
    from companion.inputs.reader.events import TokenPlaced
    from companion.inputs.reader.play import ReaderPlay
    from companion.session.inbox import Device

    rules, ui, match, session, lines = table("fr")
    session.core.extend(ReaderPlay.bound([("reader:test", None)]))
    typed_rules = Rules(physical=True)
    typed = Match(typed_rules, NAMES, 1)
    rng = random.Random(5)
    k = 0
    while match.state.phase in (START, DEAL):
        seat = match.current
        tile = rng.choice(sorted(match.state.bag))
        assert str(tile) in ui.chance(match, seat)
        session.loop.feed(Device(TokenPlaced("reader:test", k % 4, f"{k:08x}", f"kaliko:{tile}"), "reader:test"))
        typed.play(seat, UI(typed_rules).told(str(tile), typed, seat).action)
        k += 1
    assert match.state.phase == PLAY and match.state == typed.state
    assert all(len(h) == rules.config["hand_size"] for h in match.state.hands)
    assert k == 1 + len(NAMES) * rules.config["hand_size"]
