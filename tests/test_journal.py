import json

import pytest

from companion.core import Match
from companion.saves import journal as jr
from tests.toygame import Nim

START = {"game": "nim", "options": {}, "players": ["A", "B"], "seats": [None, None], "seed": 1, "lang": "fr"}


def write_game(path, moves):
    with jr.Journal.create(path, START) as j:
        for seat, n in moves:
            j.action(seat, {"take": n})
    return path


def test_round_trip_and_undo(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 2), (0, 3)])
    with jr.Journal.append_to(p) as j:
        j.undo()
    c = jr.read(p)
    assert c.start["game"] == "nim" and c.start["version"] == jr.VERSION
    assert c.actions == [{"seat": 0, "action": {"take": 1}}, {"seat": 1, "action": {"take": 2}}]
    assert not c.finished
    m = Match(Nim(), ["A", "B"], 1)
    m.replay(c.actions)
    assert m.state.pile == 4


def test_truncated_last_line_is_named_and_valid_part_kept(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 2), (0, 3)])
    data = p.read_bytes()
    p.write_bytes(data[:-15])  # power cut in the middle of the last line
    with pytest.raises(jr.JournalError) as exc:
        jr.records(p)
    assert exc.value.code == "damaged" and exc.value.line == 4
    assert len(exc.value.valid) == 3
    backup = jr.recover(p, exc.value.valid)
    assert backup.exists() and jr.read(p).actions[-1] == {"seat": 1, "action": {"take": 2}}


def test_altered_line_fails_its_crc(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1), (1, 2)])
    lines = p.read_text().splitlines()
    lines[1] = lines[1].replace('"take":1', '"take":3')
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(jr.JournalError) as exc:
        jr.records(p)
    assert exc.value.line == 2 and exc.value.code == "damaged"


@pytest.mark.parametrize("content,code", [(b"", "empty"), (b"hello\n", "not_a_journal"), (b'{"a":1}\n', "not_a_journal")])
def test_not_a_journal(tmp_path, content, code):
    p = tmp_path / "x.jsonl"
    p.write_bytes(content)
    with pytest.raises(jr.JournalError) as exc:
        jr.records(p)
    assert exc.value.code == code


def test_missing(tmp_path):
    with pytest.raises(jr.JournalError) as exc:
        jr.records(tmp_path / "none.jsonl")
    assert exc.value.code == "missing"


def test_latest_skips_finished(tmp_path):
    a = write_game(tmp_path / "a.jsonl", [(0, 1)])
    b = write_game(tmp_path / "b.jsonl", [(0, 1)])
    with jr.Journal.append_to(b) as j:
        j.end([1, 0], [0])
    assert jr.latest(tmp_path) == a


def test_every_line_is_json(tmp_path):
    p = write_game(tmp_path / "g.jsonl", [(0, 1)])
    for line in p.read_text().splitlines():
        assert "crc" in json.loads(line)
