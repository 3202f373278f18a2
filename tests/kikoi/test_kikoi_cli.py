"""`companion kikoi ...`: the JSON shapes of tokens, token, bots and replay."""

from __future__ import annotations

import json

from companion.cli.kikoi import main


def run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_tokens_json(capsys):
    code, out = run(capsys, "tokens", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 28
    assert rows[0] == {"id": "kimouss-house", "kikoi": "kimouss", "moment": "house", "red": False}
    assert rows[-1] == {"id": "kipirat", "kikoi": None, "moment": None, "red": True}


def test_token_words(capsys):
    code, out = run(capsys, "token", "le", "KIGLISS", "qui", "dort", "--json")
    assert code == 0 and json.loads(out) == {"input": "le KIGLISS qui dort", "tokens": ["kigliss-sleep"]}
    code, out = run(capsys, "token", "bonjour")
    assert code == 1 and out.strip() == "no token"


def test_bots_json_days_add_up(capsys):
    code, out = run(capsys, "bots", "--seed", "4", "--games", "3", "--json", "--option", "red_tokens=false")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["seed"] for r in recs] == [4, 5, 6]
    for r in recs:
        assert r["scores"] == [len(d) for d in r["days"]] and r["winners"]
        assert set(r) == {"seed", "bots", "scores", "winners", "days", "reason", "actions"}


def test_replay_checks_a_physical_game(tmp_path, capsys):
    deal = [("kiboss-house", 0), ("kigliss-eat", 0), ("kigratt-house", 0),
            ("kiboss-sleep", 1), ("kigratt-eat", 1), ("kiboucle-house", 1),
            ("kimouss-sleep", 2), ("kigratt-bike", 2), ("kiboucle-eat", 2),
            ("kimouss-house", 3), ("kigratt-forest", 3), ("kiboucle-bike", 3)]
    actions = [{"seat": s, "action": {"drew": t}} for t, s in deal]
    actions += [{"seat": 0, "action": {"reds": "in"}},  # RULES KI-3: the table puts the red tokens in
                {"seat": 0, "action": {"ask": 1, "token": "kiboss-sleep"}},
                {"seat": 1, "action": {"reply": "give"}},
                {"seat": 2, "action": {"pirate": False}}, {"seat": 3, "action": {"pirate": False}}]
    rec = {"players": ["A", "B", "C", "D"], "seed": 1, "options": {"physical": True}, "actions": actions}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    code, out = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(out) == {"ok": True, "actions": 17, "over": False, "to_act": 0,
                                             "scores": [0, 0, 0, 0], "winners": []}
    rec["actions"][14] = {"seat": 1, "action": {"reply": "refuse"}}
    path.write_text(json.dumps(rec))
    code, out = run(capsys, "replay", str(path), "--json")
    assert code == 1 and json.loads(out) == {"ok": False, "index": 14, "seat": 1,
                                             "action": {"reply": "refuse"}, "reason": "must_give"}


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["bots", "--bots", "memory,wizard,random"]) == 2
