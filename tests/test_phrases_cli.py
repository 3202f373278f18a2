"""`companion phrases GAME`: the concrete list (--json) and the grammar (--grammar) of a new game
or of a saved one's state."""

from __future__ import annotations

import json
import random

from companion.cli import main
from companion.core import Match
from companion.games import goodfortune, kikoi
from companion.saves import journal as jr


def run(capsys, *argv):
    rc = main(["phrases", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_new_game_concrete_list_and_grammar(capsys):
    rc, out, _ = run(capsys, "kikoi", "--json")
    assert rc == 0
    listed = json.loads(out)
    assert listed[0] == {"phrase": "aide", "command": "help"}
    assert all(set(item) == {"phrase", "command"} for item in listed)
    game = kikoi.Rules()
    match = Match(game, ["Marie", "Paul", "Zoé"], 1)
    assert listed == kikoi.UI(game).phrases(match, match.current, "fr").to_json()

    rc, out, _ = run(capsys, "5 kikoi", "--lang", "en", "--grammar")
    grammar = json.loads(out)
    assert rc == 0 and grammar["game"] == "kikoi" and grammar["lang"] == "en"
    assert {"template": "ask {player} for {token}", "command": "action"} in grammar["rules"]
    assert grammar["slots"]["player"] and grammar["slots"]["token"]


def test_saved_game_state_and_seat(tmp_path, capsys):
    game = goodfortune.Rules()
    names = ["Marie", "Paul"]
    match = Match(game, names, 9)
    path = tmp_path / "gf.jsonl"
    rng = random.Random(9)
    with jr.Journal.create(path, {"game": "goodfortune", "options": {}, "players": names, "seats": [None, None],
                                  "seed": 9, "lang": "fr"}) as j:
        for _ in range(5):
            seat = match.current
            action = rng.choice(match.legal(seat))
            match.play(seat, action)
            j.action(seat, game.action_to_json(action))
    for seat, name in enumerate(names):
        rc, out, _ = run(capsys, "goodfortune", "--journal", str(path), "--seat", name.lower(), "--json")
        assert rc == 0
        assert json.loads(out) == goodfortune.UI(game).phrases(match, seat, "fr").to_json()

    rc, _out, err = run(capsys, "goodfortune", "--journal", str(path), "--seat", "Zoé")
    assert rc == 2 and "Zoé" in err
    rc, _out, err = run(capsys, "kikoi", "--journal", str(path))
    assert rc == 2 and "goodfortune" in err
    rc, _out, err = run(capsys, "goodfortune", "--journal", str(tmp_path / "none.jsonl"))
    assert rc == 2 and err.strip() == f"companion phrases: Le fichier de partie {tmp_path / 'none.jsonl'} n'existe pas."
    rc, _out, err = run(capsys, "goodfortune", "--lang", "en", "--journal", str(tmp_path / "none.jsonl"))
    assert rc == 2 and "does not exist" in err  # the errors speak the language asked


def test_options_and_bad_input(capsys):
    rc, out, _ = run(capsys, "goodfortune", "-o", "physical=true", "--json")
    listed = json.loads(out)
    assert rc == 0 and {"phrase": "vingt et un", "command": 'action:{"declare":21,"left":null}'} in listed
    assert run(capsys, "nogame")[0] == 2
    assert run(capsys, "kikoi", "--lang", "xx")[0] == 2
    assert run(capsys, "kikoi", "-o", "nonsense")[0] == 2
    rc, _out, err = run(capsys, "nogame")
    assert err.strip() == "companion phrases: je ne connais pas le jeu « nogame » (companion games les liste)."
    rc, _out, err = run(capsys, "kikoi", "--lang", "en", "-o", "nonsense")
    assert err.strip() == "companion phrases: option “nonsense”: KEY=VALUE is needed, for example -o physical=true."
