"""Events: one frozen dataclass per kind of change, per game (issue #23, step 3).

A game declares its event classes in `companion/games/<id>/events.py`; each names its wire
type in `type` and holds typed fields. The JSON form (the `--log` lines, `companion play
--json`, transcripts) is made here and only here, by `Event.to_json` and `event_from_json`:
`{"type": ..., <the fields in declaration order>, "to": [...] only when private}`, the very
form the old `Event(type, data)` had, so logs written before read the same.

Pure: no I/O, no clock, no translation.
"""

from __future__ import annotations

import builtins
import dataclasses
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

PUBLIC = None  # Event.to value for something everyone at the table may hear

# Field metadata: the JSON key when it is not a Python name (« from »), and fields left out
# of the JSON form when they are None (a key some constructions of a type never had).
WIRE = "wire"
OMIT_NONE = "omit_none"
OPTIONAL: Mapping[str, bool] = {OMIT_NONE: True}


def wire(key: str) -> Mapping[str, str]:
    """Metadata for a field whose JSON key is `key` (`field(metadata=wire("from"))`)."""
    return {WIRE: key}


@dataclass(frozen=True)
class Event:
    """A past-tense record of one change of state (`GivenToken`, `GameEnded`...).

    `to` is None for a public event, or the tuple of seats allowed to learn of it (a private
    draw, a secret KIPIRAT); what is private keeps its `to`. Narration, sounds, logs and
    transcripts are all views of events. Subclasses set `type` (the wire name) and add fields.
    """

    type: ClassVar[str] = ""
    to: tuple[int, ...] | None = field(default=PUBLIC, kw_only=True)

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: the whole table, i.e. public only) may learn of this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """The wire form: the type, the fields in declaration order, then `to` when private."""
        out: dict[str, Any] = {"type": self.type}
        out.update(self._fields())
        if self.to is not None:
            out["to"] = list(self.to)
        return out

    @property
    def data(self) -> dict[str, Any]:
        """The wire form's fields alone (no type, no `to`): for code that handles events of
        every kind alike (a log, a test); narrators read the typed fields."""
        return self._fields()

    def _fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, key, omit_none in _layout(type(self)):
            value = getattr(self, name)
            if value is None and omit_none:
                continue
            out[key] = value
        return out


_LAYOUTS: dict[builtins.type[Event], tuple[tuple[str, str, bool], ...]] = {}


def _layout(cls: builtins.type[Event]) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, JSON key, left out when None) of each field but `to`, in declaration order;
    worked out once per class (`dataclasses.fields` each time made `to_json` ten times slower)."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple((f.name, str(f.metadata.get(WIRE, f.name)), bool(f.metadata.get(OMIT_NONE)))
                                       for f in dataclasses.fields(cls) if f.name != "to")
    return layout


class EventDecodeError(ValueError):
    """A JSON object that is not an event of the given kinds."""


def declared(module: ModuleType | str) -> dict[str, builtins.type[Event]]:
    """The event classes a module declares (not those it imports), by wire type.

    The narration test walks these to check that every event type has a narrator, without
    playing a game (issue #23)."""
    mod = sys.modules[module] if isinstance(module, str) else module
    out: dict[str, builtins.type[Event]] = {}
    for value in vars(mod).values():
        if (isinstance(value, builtins.type) and issubclass(value, Event) and value is not Event
                and value.__module__ == mod.__name__):
            if not value.type or value.type in out:
                raise TypeError(f"{value.__name__}: event type {value.type!r} missing or twice")
            out[value.type] = value
    return out


def event_from_json(data: Mapping[str, Any], kinds: Mapping[str, builtins.type[Event]]) -> Event:
    """The event whose wire form is `data` (the inverse of `Event.to_json`)."""
    try:
        cls = kinds[data["type"]]
    except (KeyError, TypeError):
        raise EventDecodeError(f"unknown event type {data.get('type')!r}") from None
    names = {key: name for name, key, _omit in _layout(cls)}
    extra = set(data) - set(names) - {"type", "to"}
    if extra:
        raise EventDecodeError(f"{cls.type}: unknown field(s) {sorted(extra)}")
    kwargs = {names[k]: v for k, v in data.items() if k in names}
    to = data.get("to")
    try:
        return cls(**kwargs, to=None if to is None else tuple(int(s) for s in to))
    except (TypeError, ValueError) as exc:
        raise EventDecodeError(f"{cls.type}: {exc}") from None


@dataclass(frozen=True)
class Undone(Event):
    """The session took back moves (`annule`); the last seat whose move went back. Recorded in
    the log; said by the session core (`core.undone`), not by a game's narrator."""

    type: ClassVar[str] = "undone"
    seat: int


SESSION_EVENTS = declared(__name__)

__all__ = ["OMIT_NONE", "OPTIONAL", "PUBLIC", "SESSION_EVENTS", "WIRE", "Event", "EventDecodeError",
           "Undone", "declared", "event_from_json", "wire"]
