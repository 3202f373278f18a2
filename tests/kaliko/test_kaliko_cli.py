"""`companion kaliko tiles|score|best`: the exact JSON shapes of the issue."""

import json

from companion.cli.kaliko import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, out


def test_tiles_json(capsys):
    code, out = run(capsys, "tiles", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 85
    assert rows[0] == {"number": 1, "tile": "01B 23B 45B"}
    assert [r["number"] for r in rows] == list(range(1, 86))


def _pos(tmp_path, pattern, play):
    p = tmp_path / "pos.json"
    p.write_text(json.dumps({
        "pattern": [{"cell": list(c), "tile": t} for c, t in pattern],
        "play": [{"cell": list(c), "tile": t} for c, t in play],
    }))
    return str(p)


KF2_OLD = [((0, 0), "01W 24R 35R")]
KF4_PLAY = [((-1, 1), "01B 23B 45R"), ((-1, 0), "01R 23B 45W"), ((0, -1), "01R 23W 45B"), ((1, -1), "01W 23R 45W")]


def test_score_json_kf4(capsys, tmp_path):
    code, out = run(capsys, "score", _pos(tmp_path, KF2_OLD, KF4_PLAY), "--json")
    assert code == 0
    assert json.loads(out) == {
        "legal": True,
        "reason": None,
        "score": 18,
        "paths": [{"colour": "R", "segments": 6, "crossings": 1, "closed": True, "score": 18, "main": True}],
    }


def test_score_json_variant_and_illegal(capsys, tmp_path):
    pos = _pos(tmp_path, KF2_OLD, KF4_PLAY[:2])
    code, out = run(capsys, "score", pos, "--json", "--crossings-new-tiles-only")
    assert json.loads(out)["score"] == 4
    pos = _pos(tmp_path, [((0, 0), "01R 23W 45B")], [((1, 0), "01W 23R 45B")])
    code, out = run(capsys, "score", pos, "--json")
    assert json.loads(out) == {"legal": False, "reason": "no_scoring_path", "score": 0, "paths": []}
    pos = _pos(tmp_path, [((0, 0), "01R 23W 45B")], [((1, 0), "01R 23W 45B")])
    code, out = run(capsys, "score", pos, "--json")
    assert json.loads(out)["reason"] == "colour_mismatch"


def test_best_json_and_text(capsys, tmp_path):
    pos = _pos(tmp_path, KF2_OLD, [])
    hand = ";".join(t for _, t in KF4_PLAY)
    code, out = run(capsys, "best", pos, "--hand", hand, "--json")
    data = json.loads(out)
    assert code == 0 and data["legal"] and data["score"] >= 18
    assert set(data) == {"legal", "score", "play", "paths"}
    assert all(set(p) == {"cell", "tile", "number"} for p in data["play"])
    code, out = run(capsys, "best", pos, "--hand", hand, "--json", "--all")
    listed = json.loads(out)
    assert listed["score"] == data["score"] and listed["count"] == len(listed["plays"]) >= 1
    assert listed["plays"][0]["score"] == data["score"]
    code, out = run(capsys, "best", pos, "--hand", hand)
    assert out.startswith("best:")


def test_bad_input_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"pattern": [{"cell": [0, 0], "tile": "01R 23W"}]}')
    assert main(["score", str(bad)]) == 2
    assert "pattern" in capsys.readouterr().err
