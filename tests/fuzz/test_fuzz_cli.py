"""Hostile files into every game's command-line tool (issue #16, 6): one clear line on stderr
and a non-zero exit for every bad file, never a traceback, never a bad file accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.goodfortune import main as goodfortune
from companion.cli.kaliko import main as kaliko
from companion.cli.kikoi import main as kikoi
from companion.cli.kissa import main as kissa

BOARD = "\n".join("0123456789" for _ in range(10)) + "\n"

# tool -> argv around the file
TOOLS = {
    "kaliko score": (kaliko, ["score"], []),
    "kaliko best": (kaliko, ["best"], ["--hand", "1;2"]),
    "goodfortune score": (goodfortune, ["score"], []),
    "goodfortune deck check": (goodfortune, ["deck", "check"], []),
    "goodfortune deck show": (goodfortune, ["deck", "show"], []),
    "kissa moves": (kissa, ["moves"], ["--count"]),
    "kikoi replay": (kikoi, ["replay"], []),
}

HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "not utf-8": b"\xff\xfe\xfa garbage \x80\n",
    "utf-16": "[1, 2]".encode("utf-16"),
    "binary": bytes(range(256)) * 4,
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "nested object": b'{"a":' * 5000 + b"1" + b"}" * 5000,
    "huge number": b'{"pattern": [{"cell": [1' + b"0" * 5000 + b', 0], "tile": "x"}], "play": []}',
    "huge float": b"[1e99999]",
    "top level list": b"[1, 2, 3]",
    "top level string": b'"hello"',
    "top level number": b"12",
    "nan": b"[NaN]",
    "huge": b"[" + b'"1:clover+fatima:2",' * 200_000 + b'"x"]',
    "text": b"bonjour tout le monde\n",
}


def run(capsys, tool: str, path: Path) -> tuple[int, str, str]:
    fn, before, after = TOOLS[tool]
    try:
        code = fn([*before, str(path), *after])
    except SystemExit as exc:  # argparse refusals
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("tool", sorted(TOOLS))
@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_every_hostile_file_is_refused_in_one_clear_line(tool, kind, tmp_path, capsys):
    path = tmp_path / "in.json"
    path.write_bytes(HOSTILE[kind])
    code, out, err = run(capsys, tool, path)
    assert code != 0, (tool, kind, out)
    assert err.strip() or out.strip(), (tool, kind)
    assert "Traceback" not in err


@pytest.mark.parametrize("content", [
    "{}",
    '{"pattern": [], "play": []}',
    '{"pattern": [{"cell": [true, false], "tile": "01R 23W 45B"}], "play": [{"cell": [1, 0], "tile": "01R 23W 45B"}]}',
    '{"pattern": [{"cell": [1e40, 0], "tile": "01R 23W 45B"}], "play": [{"cell": [1, 0], "tile": "01R 23W 45B"}]}',
    '{"pattern": [{"cell": [10000000000000000000000000000000000000000, 0], "tile": "01R 23W 45B"}], "play": []}',
    '{"pattern": [{"cell": ["0", "0"], "tile": "01R 23W 45B"}], "play": [{"cell": [1, 0], "tile": "01R 23W 45B"}]}',
])
def test_kaliko_score_refuses_what_it_used_to_accept(content, tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(content)
    code, _out, err = run(capsys, "kaliko score", path)
    assert code == 2 and err.strip()


def test_kaliko_best_refuses_a_hand_beyond_seven_tiles(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text('{"pattern": []}')
    for hand in (";".join(str(n) for n in range(1, 17)), ";".join(str(n) for n in range(1, 86)), "１;２", "1;1"):
        assert kaliko(["best", str(path), "--hand", hand]) == 2
        assert capsys.readouterr().err.strip()


@pytest.mark.parametrize("digits", ["٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "0123456789"[:9] + "²"])
def test_kissa_refuses_digits_that_are_not_0_to_9(digits, tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text(BOARD.replace("0123456789", digits, 1), encoding="utf-8")
    code, _out, err = run(capsys, "kissa moves", path)
    assert code == 2 and "line 1" in err


@pytest.mark.parametrize("record", [
    {"players": "abc", "actions": []},
    {"players": ["A", "B", "C"], "seed": True, "actions": []},
    {"players": ["A", "B", "C"], "seed": "7", "actions": []},
    {"players": [1, 2, 3], "actions": []},
    {"players": ["A", "B", "C"], "actions": {"a": 1}},
    {"players": ["A", "B", "C"], "options": [1], "actions": []},
])
def test_kikoi_replay_refuses_wrong_types(record, tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    code, _out, err = run(capsys, "kikoi replay", path)
    assert code == 2 and err.strip()


def test_kikoi_replay_bad_records_are_named(tmp_path, capsys):
    path = tmp_path / "r.json"
    for action in ([1], {"seat": True, "action": {"pass": True}}, {"seat": 0, "action": "ask"}, {"seat": 9, "action": {}}):
        path.write_text(json.dumps({"players": ["A", "B", "C"], "actions": [action]}))
        code, out, _err = run(capsys, "kikoi replay", path)
        assert code == 1 and "refused" in out


# --------------------------------------------------------------------------- random files
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
shaped = st.fixed_dictionaries({}, optional={
    "pattern": json_values, "play": json_values, "players": json_values, "seed": json_values,
    "actions": json_values, "options": json_values, "name": json_values, "tiles": json_values})
files = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    shaped.map(lambda v: json.dumps(v).encode()),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=files, tool=st.sampled_from(sorted(TOOLS)))
def test_random_files_never_crash_a_tool(data, tool, tmp_path_factory, capsys):
    path = tmp_path_factory.mktemp("fuzz") / "in"
    path.write_bytes(data)
    code, out, err = run(capsys, tool, path)
    assert code in (0, 1, 2)
    if code == 2:
        assert err.strip()


def test_kikoi_bots_refuses_unbounded_work(capsys):
    assert kikoi(["bots", "--games", "1" + "0" * 12]) == 2
    assert "--games" in capsys.readouterr().err
