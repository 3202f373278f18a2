"""Phrase tables as data: `companion/language/<lang>/<name>.json`, read with importlib.resources.

`shared.json` holds the words every game shares (help, repeat, yes, no...), the number words
and how to name a player; `<game>.json` a game's vocabulary and its command templates. A
language is a folder: a third language is a folder of JSON files, no code (`extra_dir` adds
one from anywhere, for a user's own tables or a test).

Every parser reads the tables of every language at once (players mix languages freely);
the phrase lists it gets are folded with `companion.core.fold`. Readers built from the
tables are memoised with `cached` and forgotten when the set of folders changes.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterator
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from companion.core.text import fold

F = TypeVar("F", bound=Callable[..., Any])

_EXTRA: list[Path] = []
_CACHES: list[Any] = []


class TableError(ValueError):
    """A phrase table that is not valid JSON of the expected shape; says which file."""


def cached(fn: F) -> F:
    """Memoise a reader built from the tables; cleared when `extra_dir` changes the folders."""
    wrapped = functools.lru_cache(maxsize=None)(fn)
    _CACHES.append(wrapped)
    return wrapped  # type: ignore[return-value]


def _clear() -> None:
    for c in _CACHES:
        c.cache_clear()


@contextlib.contextmanager
def extra_dir(path: Path) -> Iterator[None]:
    """Use the tables under `path` (`path/<lang>/<name>.json`) beside the package's own."""
    _EXTRA.append(Path(path))
    _clear()
    try:
        yield
    finally:
        _EXTRA.remove(Path(path))
        _clear()


def _roots() -> list[Traversable | Path]:
    return [resources.files("companion.language"), *_EXTRA]


def _order(lang: str) -> tuple[int, str]:
    return ({"fr": 0, "en": 1}.get(lang, 2), lang)


@cached
def languages() -> tuple[str, ...]:
    """Every language with a shared table: French, English, then any other in name order."""
    found: set[str] = set()
    for root in _roots():
        if not root.is_dir():
            continue
        for entry in root.iterdir():
            if entry.is_dir() and entry.joinpath("shared.json").is_file():
                found.add(entry.name)
    return tuple(sorted(found, key=_order))


@cached
def table(name: str, lang: str) -> dict[str, Any]:
    """The table `name` of `lang` (later folders override earlier keys); {} when none."""
    out: dict[str, Any] = {}
    for root in _roots():
        f = root.joinpath(lang, f"{name}.json")
        if not f.is_file():
            continue
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise TableError(f"{lang}/{name}.json: {exc}") from exc
        if not isinstance(data, dict):
            raise TableError(f"{lang}/{name}.json: not an object")
        out.update(data)
    return out


def _folded(items: Any) -> tuple[str, ...]:
    if isinstance(items, str):
        items = [items]
    out = dict.fromkeys(f for f in (fold(str(x)) for x in items) if f)
    return tuple(out)


@cached
def groups(name: str, key: str, lang: str | None = None) -> dict[str, tuple[str, ...]]:
    """`table[key]`, an object of lists (concept -> phrases), folded; every language merged
    (in language order, duplicates dropped) when `lang` is None."""
    out: dict[str, tuple[str, ...]] = {}
    for lg in languages() if lang is None else (lang,):
        section = table(name, lg).get(key, {})
        if not isinstance(section, dict):
            raise TableError(f"{lg}/{name}.json: {key} is not an object")
        for concept, items in section.items():
            out[concept] = tuple(dict.fromkeys(out.get(concept, ()) + _folded(items)))
    return out


@cached
def words(name: str, key: str, lang: str | None = None) -> tuple[str, ...]:
    """`table[key]`, a list of phrases, folded; every language merged when `lang` is None."""
    out: tuple[str, ...] = ()
    for lg in languages() if lang is None else (lang,):
        out += _folded(table(name, lg).get(key, []))
    return tuple(dict.fromkeys(out))


def spoken(name: str, key: str, lang: str) -> Any:
    """`table[key]` of one language as written (not folded): canonical spoken forms,
    templates. What the language lacks comes from English (then French): an object is
    completed key by key, so a new language may start with a few templates."""
    value = table(name, lang).get(key)
    fallback = table(name, "en").get(key, table(name, "fr").get(key))
    if isinstance(value, dict) and isinstance(fallback, dict):
        return {**fallback, **value}
    if value is not None:
        return value
    if fallback is not None:
        return fallback
    raise TableError(f"{lang}/{name}.json: no {key}")
