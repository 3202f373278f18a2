"""Typed events (issue #23, step 3): every game declares its events as frozen dataclasses in
`events.py`, each narrated through its `narration.NARRATORS` table — checked by walking the
classes, not by playing; the JSON form is the one the code had before (hashes recorded from
the golden journals with the `Event(type, data)` code), made and read in one place."""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

import companion
from companion.core import (
    GAMES,
    SESSION_EVENTS,
    Event,
    EventDecodeError,
    Undone,
    declared,
    event_from_json,
    find,
)
from companion.session.transcript import journal_game

ROOT = Path(__file__).resolve().parent.parent
WIRE = json.loads((ROOT / "tests" / "events_wire.json").read_text(encoding="utf-8"))


def events_of(entry: Any) -> dict[str, type[Event]]:
    return declared(importlib.import_module(entry.module().__name__ + ".events"))


def narration_of(entry: Any) -> Any:
    return importlib.import_module(entry.module().__name__ + ".narration")


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_every_event_type_of_every_game_has_a_narrator(entry):
    kinds = events_of(entry)
    assert kinds, f"{entry.name} declares no event"
    table = narration_of(entry).NARRATORS
    missing = sorted(t for t, cls in kinds.items() if cls not in table)
    assert not missing, f"{entry.name}: no narrator for {missing}"
    foreign = [cls.__name__ for cls in table if cls not in kinds.values()]
    assert not foreign, f"{entry.name}: narrators for events it does not declare: {foreign}"
    assert all(callable(fn) for fn in table.values())


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_events_are_frozen_dataclasses_with_typed_fields(entry):
    for name, cls in events_of(entry).items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, name
        hints = {f.name: f.type for f in dataclasses.fields(cls)}
        assert hints.pop("to") is not None
        assert all(t not in ("Any", Any) for t in hints.values()), f"{name}: a field typed Any"
        assert cls.__doc__ is None or "Event(" not in cls.__doc__


def test_event_types_are_unique_per_game_and_undo_is_the_sessions():
    assert SESSION_EVENTS == {"undone": Undone}
    for entry in GAMES:
        assert "undone" not in events_of(entry)


def _calls_to_event(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Event"]


def test_nothing_builds_an_untyped_event():
    """The base class is never built: each event is of a declared type (no `Event("x", {...})`)."""
    package = Path(companion.__file__).parent
    found = {str(p.relative_to(package)): lines for p in package.rglob("*.py") if (lines := _calls_to_event(p))}
    assert not found


@pytest.mark.parametrize("journal", sorted(WIRE), ids=lambda p: p.split("/", 1)[1])
def test_the_json_form_of_events_is_the_one_written_before(journal):
    """Every event of each golden game, as `--log` writes it, is byte for byte what the code
    wrote before events were typed; and it reads back to the same typed event."""
    match, _ui = journal_game(ROOT / journal)
    kinds = events_of(find(journal.split("/")[1]))  # tests/<game>/golden/...
    events = match.events()
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in events]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    assert len(lines) == WIRE[journal]["events"]
    assert hashlib.sha256(data).hexdigest() == WIRE[journal]["sha256"]
    for ev in events:
        assert type(ev) is kinds[ev.type]
        again = event_from_json(json.loads(json.dumps(ev.to_json())), kinds)
        assert again == ev and again.to == ev.to
        assert ev.data == {k: v for k, v in ev.to_json().items() if k not in ("type", "to")}


def test_private_events_keep_their_seats_in_the_json_form():
    from companion.games.kikoi.events import EVENTS, TokenDrawn

    ev = TokenDrawn(seat=2, token="kigliss-sleep", to=(2,))
    assert ev.to_json() == {"type": "token_drawn", "seat": 2, "token": "kigliss-sleep", "to": [2]}
    assert ev.visible_to(2) and not ev.visible_to(1) and not ev.visible_to(None)
    assert event_from_json(ev.to_json(), EVENTS) == ev
    with pytest.raises(dataclasses.FrozenInstanceError):
        ev.seat = 1  # type: ignore[misc]


def test_wire_names_and_keys_left_out_convert_both_ways():
    from companion.games.goodfortune.events import EVENTS, MedallionPassed, TileDeclared
    from companion.games.kaliko.events import EVENTS as KALIKO
    from companion.games.kaliko.events import TilesDrawn

    passed = MedallionPassed(from_=0, seat=1, face="large", passed=True, flipped=True)
    assert list(passed.to_json()) == ["type", "from", "seat", "face", "passed", "flipped"]
    assert event_from_json(passed.to_json(), EVENTS) == passed
    line = TileDeclared(zone="line", seat=0, tile="x", count=1)
    central = TileDeclared(zone="central", tile="x", count=2, left=None)
    assert list(line.to_json()) == ["type", "zone", "seat", "tile", "count"]
    assert central.to_json() == {"type": "tile_declared", "zone": "central", "tile": "x", "count": 2, "left": None}
    assert [event_from_json(e.to_json(), EVENTS) for e in (line, central)] == [line, central]
    drawn = TilesDrawn(seat=0, n=3, bag=10)
    assert "left" not in drawn.to_json() and TilesDrawn(seat=0, n=3, bag=10, left=2).to_json()["left"] == 2
    assert event_from_json(drawn.to_json(), KALIKO) == drawn


@pytest.mark.parametrize("bad", [
    {"type": "no_such_event"},
    {"seat": 1},
    {"type": "undone", "seat": 1, "extra": 2},
    {"type": "undone"},
])
def test_a_json_object_that_is_no_event_is_one_decode_error(bad):
    with pytest.raises(EventDecodeError):
        event_from_json(bad, SESSION_EVENTS)
    assert issubclass(EventDecodeError, ValueError)
