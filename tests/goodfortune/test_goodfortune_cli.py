"""`companion goodfortune score|deck`: exact JSON, errors with exit 2, deck files, guided entry."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.goodfortune import main
from companion.games.goodfortune import Rules
from companion.games.goodfortune.deck import DeckError, synthetic
from companion.games.goodfortune.deckentry import DeckEntry, run
from companion.games.goodfortune.deckfile import dumps, load, parse_text
from companion.narration import catalog

BLOG = ["12:neko+clover:4", "neko+scarab:3", "neko+mati:2", "horseshoe+fatima:2", "horseshoe+clover:2",
        "ganesh+scarab:4"]


def score_cli(monkeypatch, capsys, payload: str, *extra: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(payload))
    rc = main(["score", "-", *extra])
    out, err = capsys.readouterr()
    return rc, out, err


def test_score_json_blog_example(monkeypatch, capsys):
    rc, out, _ = score_cli(monkeypatch, capsys, json.dumps(BLOG), "--json")
    assert rc == 0
    assert json.loads(out) == {"score": 39, "groups": [
        {"charm": "neko", "tiles": BLOG[:3], "dice": 9, "points": 27},
        {"charm": "horseshoe", "tiles": BLOG[3:5], "dice": 4, "points": 8},
        {"charm": "ganesh", "tiles": BLOG[5:], "dice": 4, "points": 4}]}


def test_score_json_tie_break_33_tiles_as_given(monkeypatch, capsys):
    tiles = ["1:Clover+horseshoe:3", " clover+scarab:1", "horseshoe+ganesh:4", "horseshoe+mati:2", "clover+neko:2"]
    rc, out, _ = score_cli(monkeypatch, capsys, json.dumps(tiles), "--json")
    data = json.loads(out)
    assert rc == 0 and data["score"] == 33
    assert data["groups"][0] == {"charm": "horseshoe", "tiles": [tiles[0], tiles[2], tiles[3]], "dice": 9, "points": 27}
    assert data["groups"][1] == {"charm": "clover", "tiles": [tiles[1], tiles[4]], "dice": 3, "points": 6}


def test_score_empty_collection(monkeypatch, capsys):
    rc, out, _ = score_cli(monkeypatch, capsys, "[]", "--json")
    assert rc == 0 and json.loads(out) == {"score": 0, "groups": []}


@pytest.mark.parametrize("payload", [
    "not json", "{}", '{"tiles": []}', "[12]", '["12:neko+neko:3"]', '["neko+dragon:2"]', '["neko+clover:5"]',
    '["neko+clover:0"]', '["22:neko+clover:1"]', '["0:neko+clover:1"]', '["3:neko+clover:1", "3:mati+clover:2"]',
    '["neko clover 3"]', '[null]',
])
def test_score_invalid_input_exit_2_with_a_reason(monkeypatch, capsys, payload):
    rc, out, err = score_cli(monkeypatch, capsys, payload, "--json")
    assert rc == 2 and out == "" and err.startswith("error: ") and len(err) > 15


def test_score_text_output_french(monkeypatch, capsys):
    rc, out, _ = score_cli(monkeypatch, capsys, json.dumps(BLOG))
    assert rc == 0
    assert "maneki-neko : 3 tuiles, dés 9, 27 points" in out and out.strip().endswith("Score : 39 points.")


def test_score_file_and_missing_file(tmp_path, capsys):
    f = tmp_path / "c.json"
    f.write_text(json.dumps(BLOG))
    assert main(["score", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 39
    assert main(["score", str(tmp_path / "none.json"), "--json"]) == 2


def test_score_through_the_companion_command():
    # the installed `companion` command itself: a broken import fails here, never skips (issue 25)
    proc = subprocess.run([str(Path(sys.executable).with_name("companion")), "goodfortune", "score", "-", "--json"],
                          input=json.dumps(BLOG), capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["score"] == 39


# --- deck files ------------------------------------------------------------------------------------
def test_deck_file_round_trip_json_and_text(tmp_path):
    d = synthetic()
    mine = parse_text(dumps(d).replace('"synthetic"', '"ma boite"'), "x")
    assert mine.name == "ma boite" and mine.tiles == d.tiles
    text = "# my copy\nname: grenier\n" + "\n".join(str(t) for t in reversed(d.tiles))
    f = tmp_path / "grenier.txt"
    f.write_text(text)
    deck = load(str(f))
    assert deck.name == "grenier" and deck.tiles == d.tiles and not deck.synthetic
    game = Rules(deck=str(f))
    assert game.deck.name == "grenier"


def test_deck_file_errors(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("\n".join(str(t) for t in synthetic().tiles[:20]) + "\n21:clover+fatima:2\n")
    with pytest.raises(DeckError) as exc:
        load(str(f))
    assert "pair_twice" in {c for c, _ in exc.value.problems}
    with pytest.raises(DeckError):
        parse_text(dumps(synthetic()), "x")  # the name "synthetic" is reserved
    with pytest.raises(DeckError):
        load(str(tmp_path / "missing.json"))
    assert main(["deck", "check", str(f)]) == 2
    with pytest.raises(ValueError):
        Rules(deck=str(f))


def test_deck_show_synthetic_says_synthetic(capsys):
    assert main(["deck", "show", "synthetic", "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "Synthetic" in out[0] and "not the publisher" in out[0]
    assert out[1] == "1 (clover and hand of Fatima, die 2)" and len(out) == 22


# --- guided entry ------------------------------------------------------------------------------------
def _lines_for(deck) -> list[str]:
    names = {"clover": "trèfle", "horseshoe": "fer à cheval", "fatima": "main de Fatma", "neko": "maneki-neko",
             "ganesh": "Ganesh", "mati": "oeil grec", "scarab": "scarabée"}
    return [f"{names[t.charms[0]]} et {names[t.charms[1]]}, dé {t.die}" for t in deck.tiles]


def test_guided_entry_spoken_lines_with_checks_and_undo():
    d = synthetic()
    e = DeckEntry("grenier")
    cat = catalog("fr")
    said = [cat.text(m) for m in e.feed("trèfle")]
    assert "deux charmes" in said[0]
    said = [cat.text(m) for m in e.feed("trèfle et main de fatma, 7")]
    assert "1 à 4" in said[0]
    said = [cat.text(m) for m in e.feed("trèfle et trèfle 2")]
    assert "différents" in said[0]
    lines = _lines_for(d)
    e.feed(lines[0])
    said = [cat.text(m) for m in e.feed("main de Fatma et trèfle, 3")]  # same pair again
    assert "déjà la 1" in said[0]
    e.feed("2:clover+mati:4")
    assert e.tiles[-1].die == 4
    said = [cat.text(m) for m in e.feed("annule")]
    assert said[0].startswith("Annulé") and len(e.tiles) == 1
    said = [cat.text(m) for m in e.feed("5:clover+mati:1")]
    assert "tuile 2" in said[0]
    for line in lines[1:20]:
        e.feed(line)
    said = [cat.text(m) for m in e.feed("liste")]
    assert said[0].startswith("Reste 1 paire")
    assert "il reste trèfle et Ganesh" in cat.text(e.prompt())
    e.feed("trois")  # the last pair is known: the die alone is enough
    assert e.done and e.deck().tiles == d.tiles


def test_guided_entry_hears_the_shared_words_of_the_tables_in_either_language():
    """Issue 24: the entry's undo / help / repeat / quit are the shared words of
    language/<lang>/shared.json, « liste » its own table's (goodfortune.json, deck_entry)."""
    e = DeckEntry("grenier")
    e.feed("clover+mati:4")
    assert len(e.tiles) == 1
    first = [m.id for m in e.feed("undo")]
    assert first[0] == "goodfortune.entry.undone" and not e.tiles
    assert [m.id for m in e.feed("annuler")][0] == "goodfortune.entry.nothing_to_undo"
    assert [m.id for m in e.feed("what can I do")][0] == "goodfortune.entry.help"
    assert [m.id for m in e.feed("paires libres")][0] == "goodfortune.entry.free_pairs"
    assert e.feed("répète") == [e.prompt()]
    assert not e.quit and e.feed("end game") and e.quit


def test_guided_entry_run_saves_resumes_and_loads(tmp_path):
    d = synthetic()
    lines = _lines_for(d)
    path = tmp_path / "grenier.json"
    feed = iter(lines[:5] + ["quitte"])
    out: list[str] = []
    assert run(str(path), None, "fr", lambda _p: next(feed), out.append) == 1
    assert not path.exists() and (tmp_path / "grenier.json.partial").exists()
    feed = iter(lines[5:])
    out = []
    assert run(str(path), None, "en", lambda _p: next(feed), out.append) == 0
    assert "Resuming: 5 tiles" in out[1]
    assert out[-1].startswith("Tile deck saved in")
    assert load(str(path)).tiles == d.tiles and not (tmp_path / "grenier.json.partial").exists()


def test_guided_entry_stops_cleanly_at_end_of_input(tmp_path):
    feed = iter(["trèfle et scarabée 3"])

    def reader(_p: str) -> str:
        return next(feed)  # StopIteration is not EOFError: wrap

    def eof_reader(_p: str) -> str:
        try:
            return reader(_p)
        except StopIteration:
            raise EOFError from None

    out: list[str] = []
    assert run(str(tmp_path / "d.json"), "d", "fr", eof_reader, out.append) == 1
    assert out[-1].startswith("Arrêt. 1 tuile gardée")
    assert run(str(tmp_path / "synthetic.json"), None, "fr", eof_reader, out.append) == 2


# --- the JSON answer against a second, plain implementation ---------------------------------------
CANON = ["clover", "horseshoe", "fatima", "neko", "ganesh", "mati", "scarab"]


def reference(strings: list[str]) -> dict:
    """A deliberately naive re-implementation of GF-12/13 with GFA-5 (best branch, first in
    canonical order among equal totals), written from docs/rules.md, to cross-check the CLI."""
    tiles = []
    for s in strings:
        body = s.strip().split(":")
        charms, die = body[-2], int(body[-1])
        a, b = (c.strip().lower() for c in charms.split("+"))
        tiles.append((s, a, b, die))

    def best(rest):
        if not rest:
            return 0, []
        stats = {}
        for c in CANON:
            mine = [t for t in rest if c in (t[1], t[2])]
            if mine:
                stats[c] = (len(mine), sum(t[3] for t in mine))
        top = max(stats.values())
        result = None
        for c in CANON:
            if stats.get(c) == top:
                group = [t for t in rest if c in (t[1], t[2])]
                sub_total, sub_groups = best([t for t in rest if t not in group])
                here = len(group) * sum(t[3] for t in group) + sub_total
                if result is None or here > result[0]:
                    g = {"charm": c, "tiles": [t[0] for t in group], "dice": sum(t[3] for t in group),
                         "points": len(group) * sum(t[3] for t in group)}
                    result = (here, [g] + sub_groups)
        return result

    total, groups = best(tiles)
    return {"score": total, "groups": groups}


def test_score_json_equals_a_plain_reimplementation():
    import random

    from companion.cli.goodfortune import score_json

    r = random.Random(2026)
    pairs = [(a, b) for i, a in enumerate(CANON) for b in CANON[i + 1:]]
    for _ in range(400):
        k = r.randint(0, 10)
        numbers = r.sample(range(1, 22), k)
        strings = []
        for n in numbers:
            a, b = r.choice(pairs)
            if r.random() < 0.5:
                a, b = b, a
            die = r.randint(1, 4) if r.random() < 0.7 else r.choice([2, 2, 3])  # many ties
            strings.append(f"{n}:{a}+{b}:{die}" if r.random() < 0.6 else f"{a}+{b}:{die}")
        assert score_json(json.dumps(strings)) == reference(strings), strings


def test_a_deck_entered_once_is_used_from_then_on(tmp_path, capsys):
    d = synthetic()
    path = tmp_path / "grenier.json"
    feed = iter(_lines_for(d))
    out: list[str] = []
    assert Rules().deck.synthetic  # nothing chosen yet: the synthetic deck
    assert run(str(path), None, "fr", lambda _p: next(feed), out.append, make_default=True) == 0
    assert out[-1].startswith("C'est désormais le jeu de tuiles de toutes tes parties")
    game = Rules()
    assert game.deck.name == "grenier" and not game.deck.synthetic
    assert Rules(deck="synthetic").deck.synthetic
    assert main(["deck", "show", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"] == "grenier"
    assert main(["deck", "use", "synthetic", "--lang", "en"]) == 0
    assert "synthetic" in capsys.readouterr().out
    assert Rules().deck.synthetic
    assert main(["deck", "use", str(path)]) == 0
    assert Rules().deck.name == "grenier"
    path.write_text("broken")
    with pytest.raises(DeckError) as exc:
        Rules()
    assert exc.value.problems[0][0] == "default" and "deck use" in exc.value.problems[0][1]
    assert main(["deck", "use", str(tmp_path / "missing.json")]) == 2


# --- a physical table scores the real box's tiles, never the synthetic deck unasked (#17) ---------------
def test_a_physical_game_without_an_owners_deck_says_how_to_enter_it(tmp_path):
    from companion.games.goodfortune import table_options
    from companion.games.goodfortune.deckfile import NeedsOwnerDeck, save, set_default
    from companion.narration import catalog

    with pytest.raises(NeedsOwnerDeck) as exc:
        table_options({"physical": "true"}, 2)
    fr = catalog("fr").text(exc.value.msg)
    en = catalog("en").text(exc.value.msg)
    assert "companion goodfortune deck new" in fr and "-o deck=synthetic" in fr
    assert "companion goodfortune deck new" in en and "-o deck=synthetic" in en
    assert isinstance(exc.value, ValueError) and "deck new" in str(exc.value)
    # the synthetic deck asked for by name, a deck file, or the companion's own deal: no question
    for options in ({"physical": "true", "deck": "synthetic"}, {"physical": "false"}, {}):
        assert table_options(options, 2) == options
    # once the owner's deck is entered (and made the default), a physical game starts with it
    from companion.games.goodfortune.deck import make_deck

    path = tmp_path / "mine.json"
    save(make_deck("mine", synthetic().tiles), path)
    set_default(path)
    assert table_options({"physical": "true"}, 2) == {"physical": "true"}


def test_deck_entry_of_numbers_only_says_what_a_tile_needs():
    from companion.games.goodfortune.deckentry import DeckEntry
    from companion.narration import catalog

    entry = DeckEntry("mine")
    said = [catalog("fr").text(m) for m in entry.feed("1 2 3 4 5 6 7 8 9")]
    assert said == ["Je n'ai entendu aucun charme : dis les deux charmes de la tuile, puis son dé, "
                    "par exemple « trèfle et scarabée, 3 ».", "Tuile 1 : ses deux charmes et son dé ?"]
    assert entry.tiles == []
    said = [catalog("en").text(m) for m in entry.feed("clover 3")]
    assert said[0] == "Two charms are needed; I heard 1: clover." and entry.tiles == []
