"""`companion kissa moves`: the exact JSON shape, counts, --best, stdin, and bad boards."""

import io
import json
import sys

import pytest

from companion.cli.kissa import main
from companion.games.kissa.notation import format_board
from tests.kissa import brute
from tests.kissa.helpers import board_with, random_board

SEED_TEXT = format_board(board_with(A1=1, B1=0, C4=2, C5=9, E2=3, F2=9, A7=2, B7=9, C7=0, J10=5))


def run(capsys, argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, text):
    path = tmp_path / "board.txt"
    path.write_text(text)
    return str(path)


def test_json_shape_of_the_seed_moves(capsys, tmp_path):
    code, out, _ = run(capsys, ["moves", write(tmp_path, SEED_TEXT), "--json"])
    assert code == 0
    moves = json.loads(out)
    assert {"op": "+", "operands": [["A1", "B1"], ["C4", "C5"]], "result": ["E2", "F2"],
            "values": [10, 29, 39], "score": 34} in moves
    assert {"op": "*", "operands": [["A1", "B1"], ["C4", "C5"]], "result": ["A7", "B7", "C7"],
            "values": [10, 29, 290], "score": 86} in moves
    for m in moves:
        assert set(m) == {"op", "operands", "result", "values", "score"}
        assert m["op"] in ("+", "*")
        a, b = m["values"][:2]
        assert a <= b


def test_json_matches_the_brute_force(capsys, tmp_path):
    board = random_board(21, empty=50)
    code, out, _ = run(capsys, ["moves", write(tmp_path, format_board(board)), "--json", "--expert"])
    from companion.games.kissa.notation import parse_cell

    got = {
        (m["op"], tuple(map(parse_cell, m["operands"][0])), tuple(map(parse_cell, m["operands"][1])),
         tuple(map(parse_cell, m["result"])), m["score"])
        for m in json.loads(out)
    }
    assert got == brute.moves(board, expert=True)


def test_count_best_and_stdin(capsys, tmp_path, monkeypatch):
    text = format_board(random_board(5))
    path = write(tmp_path, text)
    _, out, _ = run(capsys, ["moves", path, "--count"])
    total = int(out)
    assert total == len(brute.moves(random_board(5)))
    _, out, _ = run(capsys, ["moves", "-", "--best", "3", "--json"], stdin=text, monkeypatch=monkeypatch)
    best = json.loads(out)
    assert len(best) == 3
    _, out, _ = run(capsys, ["moves", path, "--json"])
    everything = json.loads(out)
    assert len(everything) == total
    assert [m["score"] for m in best] == sorted((m["score"] for m in everything), reverse=True)[:3]
    _, out, _ = run(capsys, ["moves", path, "--best", "2"])
    assert out.splitlines()[-1] == "2 moves" and "score" in out.splitlines()[0]


def test_kids_flag(capsys, tmp_path):
    _, out, _ = run(capsys, ["moves", write(tmp_path, SEED_TEXT), "--json", "--kids"])
    assert all(len(m["operands"][0]) == 1 and len(m["operands"][1]) == 1 for m in json.loads(out))


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("0123456789\n" * 3 + "01234x6789\n" + "0123456789\n" * 6, 4, "unexpected character"),
        ("0123456789\n" * 4 + "012345678\n" + "0123456789\n" * 5, 5, "9 cells"),
        ("0123456789\n" * 9, 10, "only 9 rows"),
        ("0123456789\n" * 11, 11, "more than 10 rows"),
    ],
)
def test_bad_board_names_the_line(capsys, tmp_path, text, line, words):
    code, out, err = run(capsys, ["moves", write(tmp_path, text)])
    assert code == 2 and out == ""
    assert f"line {line}" in err and words in err


def test_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, ["moves", str(tmp_path / "nope.txt")])
    assert code == 2 and "cannot read" in err


def test_2kissa10_is_an_alias_of_kissa(capsys, tmp_path):
    from companion.cli import main as companion_main

    path = write(tmp_path, SEED_TEXT)
    assert companion_main(["2kissa10", "moves", path, "--count"]) == 0
    by_alias = capsys.readouterr().out
    assert companion_main(["kissa", "moves", path, "--count"]) == 0
    assert by_alias == capsys.readouterr().out and int(by_alias) > 0
