"""What is sayable now: a slot grammar and a bounded concrete list, each phrase with its command.

A game's `phrases` module fills a `Builder` for one state: `rule(template, command)` adds a
template of the grammar, `slot(name, values)` the finite value list of a slot in this state,
`say(phrase, command, template)` one concrete phrase. `build()` makes the `Sayable`: the
shared words first, then every concrete phrase of the game when there are at most `LIMIT`
action phrases, else a sample that keeps at least one phrase of every template.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.core.text import fold

from .tables import groups, spoken

T = TypeVar("T")
LIMIT = 2000
_SLOT = re.compile(r"\{(\w+)\}")


@dataclass
class Sayable:
    """`concrete`: (phrase, command) pairs; `grammar`: JSON-ready templates and slot values;
    `sampled`: the concrete moves are a sample (there were more than the limit), so a move
    not listed may still be legal (said through a template)."""

    concrete: list[tuple[str, str]]
    grammar: dict[str, Any]
    sampled: bool = False

    def to_json(self) -> list[dict[str, str]]:
        return [{"phrase": p, "command": c} for p, c in self.concrete]


def fill(template: str, **values: str) -> str:
    """A template with its slots filled: fill("je demande {token} à {player}", token=..., player=...)."""
    return _SLOT.sub(lambda m: values[m.group(1)], template).strip()


def slots_of(template: str) -> list[str]:
    return _SLOT.findall(template)


def shared_phrases(lang: str) -> list[tuple[str, str]]:
    """The shared words of `lang` as (phrase, command), as written in the table (one-letter
    typing shortcuts left out: they are no speech)."""
    out = []
    for command, phrases in spoken("shared", "words", lang).items():
        for p in phrases:
            if len(fold(p)) > 1:
                out.append((str(p), command))
    return out


def shared_command_of(phrase: str) -> str | None:
    folded = fold(phrase)
    for command, phrases in groups("shared", "words").items():
        if folded in phrases:
            return command
    return None


@dataclass
class Builder:
    game: str
    lang: str
    rules: list[dict[str, str]] = field(default_factory=list)
    slots: dict[str, list[str]] = field(default_factory=dict)
    queries: list[tuple[str, str]] = field(default_factory=list)
    actions: list[tuple[str, str, str]] = field(default_factory=list)  # (phrase, command, template)
    shared: list[tuple[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # more grammar keys (Kaliko's step separator)
    limit: int = LIMIT  # the most moves listed; beyond, a sample
    sampled: bool = False  # some legal moves were left out of the list
    commands: bool = True  # False: a move's command is only "action" (the phrases of 95,000 moves, lighter)

    def sample(self, items: Sequence[T], kind: Callable[[T], Any], kinds: Iterable[Any] | None = None) -> list[T]:
        """At most `limit` of these legal moves, evenly spread with one of every `kind` (all
        of them when there are fewer); remembers when some were left out (`Sayable.sampled`)."""
        if len(items) > self.limit:
            self.sampled = True
        return pick(items, self.limit, kind, kinds)

    def rule(self, template: str, command: str) -> None:
        """A template of the grammar; `command` is "action" for a move, else the query's name."""
        item = {"template": template, "command": command}
        if item not in self.rules:
            self.rules.append(item)

    def slot(self, name: str, values: list[str]) -> None:
        merged = self.slots.setdefault(name, [])
        for v in values:
            if v not in merged:
                merged.append(v)

    def say(self, phrase: str, command: str, template: str | None = None) -> None:
        """One concrete phrase: an action's (command "action:...") or a query's."""
        if command.startswith("action:"):
            self.actions.append((phrase, command if self.commands else "action", template or phrase))
        else:
            self.queries.append((phrase, command))

    def build(self) -> Sayable:
        actions = self.actions
        if len(actions) > self.limit:
            self.sampled = True
            actions = sample_covering(actions, self.limit)
        concrete = [*self.shared, *self.queries, *((p, c) for p, c, _t in actions)]
        concrete = list(dict.fromkeys(concrete))
        grammar = {
            "game": self.game,
            "lang": self.lang,
            "rules": [{"template": p, "command": c} for p, c in self.shared] + self.rules,
            "slots": self.slots,
            **self.extra,
        }
        return Sayable(concrete, grammar, self.sampled)


def sample_covering(items: list[tuple[str, str, str]], limit: int) -> list[tuple[str, str, str]]:
    """At most `limit` (phrase, command, template) items, evenly spread, with at least one of
    every template."""
    return pick(items, limit, lambda item: item[2])


def pick(items: Sequence[T], limit: int, kind: Callable[[T], Any], kinds: Iterable[Any] | None = None) -> list[T]:
    """All `items` when there are at most `limit`, else `limit` of them evenly spread that
    hold an item of every `kind` (a template): a sample that covers every template.

    `items` may be a lazy sequence (2kissa10's move list): only the chosen ones are made.
    When the caller knows the `kinds` there may be, the items are searched only until one of
    each is found; otherwise every item's kind is asked."""
    n = len(items)
    if n <= limit:
        return list(items)
    chosen = {int(k * n / limit) for k in range(limit)}
    seen = {kind(items[i]) for i in chosen}
    wanted = None if kinds is None else set(kinds) - seen
    if wanted is None or wanted:
        for i, item in enumerate(items):
            k = kind(item)
            if k not in seen and (wanted is None or k in wanted):
                seen.add(k)
                chosen.add(i)
                if wanted is not None:
                    wanted.discard(k)
                    if not wanted:
                        break
    return [items[i] for i in sorted(chosen)]
