"""Message catalogs: gettext .po files read with Babel, one domain per part of the program.

Layout: `companion/locale/<lang>/LC_MESSAGES/<domain>.po`, where a message id's prefix
names its domain ("kissa.move_played" lives in `kissa.po`). The msgid is the message id;
the terse and verbose forms are the same msgid with msgctxt "terse" or "verbose", and the
normal form has no context. Every entry carries a translator comment (`#.`), which a test
enforces, together with a translation in every language.
"""

from __future__ import annotations

import gettext
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .message import Msg, Pause, Raw, Spell, Utterance, Verbosity

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
_CONTEXTS = {Verbosity.TERSE: "terse", Verbosity.NORMAL: None, Verbosity.VERBOSE: "verbose"}


class MissingMessage(KeyError):
    """A message id with no entry (or no translation) in the listener's catalog."""


@dataclass
class Entry:
    forms: tuple[str, ...]  # one form, or the plural forms in the catalog's order
    comment: str


@dataclass
class Catalog:
    """All domains of one language, loaded lazily, domain by domain."""

    lang: str
    locale_dir: Path = LOCALE_DIR
    strict: bool = False
    _entries: dict[tuple[str, str | None], Entry] = field(default_factory=dict)
    _loaded: set[str] = field(default_factory=set)
    _plural: Callable[[int], int] = field(default=lambda n: int(n != 1))
    # Pages, terminals and the table loop render from several threads: a domain is marked
    # loaded only once its entries are in, or a second thread would see raw message ids.
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def _load(self, domain: str) -> None:
        if domain in self._loaded:
            return
        with self._lock:
            if domain in self._loaded:
                return
            path = self.locale_dir / self.lang / "LC_MESSAGES" / f"{domain}.po"
            if path.exists():
                for (msgid, ctxt), entry, plural in read_po_entries(path, self.lang):
                    self._entries[(msgid, ctxt)] = entry
                    if plural is not None:
                        self._plural = plural
            self._loaded.add(domain)

    def lookup(self, msg_id: str, verbosity: Verbosity = Verbosity.NORMAL) -> Entry:
        self._load(msg_id.split(".", 1)[0])
        ctxt = _CONTEXTS[verbosity]
        entry = self._entries.get((msg_id, ctxt)) or self._entries.get((msg_id, None))
        if entry is None or not any(entry.forms):
            raise MissingMessage(f"{self.lang}:{msg_id}")
        return entry

    def has(self, msg_id: str) -> bool:
        try:
            self.lookup(msg_id)
        except MissingMessage:
            return False
        return True

    # --- rendering ---------------------------------------------------------------------
    def text(self, msg: Msg, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        try:
            entry = self.lookup(msg.id, verbosity)
        except MissingMessage:
            if self.strict:
                raise
            return msg.id
        params = {k: self._param(v, verbosity) for k, v in msg.params.items()}
        form = entry.forms[0]
        if len(entry.forms) > 1:
            n = int(msg.params.get("n", 0))
            form = entry.forms[min(self._plural(n), len(entry.forms) - 1)]
        try:
            return form.format(**params)
        except (KeyError, IndexError, ValueError) as exc:
            if self.strict:
                raise MissingMessage(f"{self.lang}:{msg.id}: bad parameter {exc}") from exc
            return form

    def _param(self, value: Any, verbosity: Verbosity) -> Any:
        if isinstance(value, Msg):
            return self.text(value, verbosity)
        if isinstance(value, Raw):
            return value.text
        if isinstance(value, (list, tuple)):
            return self.join([self._param(v, verbosity) for v in value])
        return value

    def join(self, items: Iterable[Any]) -> str:
        """A spoken list: "a, b et c" / "a, b and c"."""
        texts = [str(i) for i in items]
        if len(texts) <= 1:
            return "".join(texts)
        conj = self.text(Msg("core.and")) if self.has("core.and") else "&"
        return f"{', '.join(texts[:-1])} {conj} {texts[-1]}"

    def render(self, utt: Utterance, verbosity: Verbosity = Verbosity.NORMAL) -> str:
        """The utterance as one plain line (what is printed)."""
        return " ".join(s for kind, s in self.segments(utt, verbosity) if kind in ("text", "spell"))

    def segments(self, utt: Utterance, verbosity: Verbosity = Verbosity.NORMAL) -> list[tuple[str, Any]]:
        """The utterance as a sequence for the voice (as NVDA passes command sequences):
        ("text", str), ("pause", ms) and ("spell", str: character by character) segments."""
        out: list[tuple[str, Any]] = []
        for part in utt.parts:
            if isinstance(part, Msg):
                out.append(("text", self.text(part, verbosity)))
            elif isinstance(part, Raw):
                out.append(("text", part.text))
            elif isinstance(part, Spell):
                out.append(("spell", spell(part.text)))
            elif isinstance(part, Pause):
                out.append(("pause", part.ms))
        return [s for s in out if s[0] == "pause" or s[1]]


def spell(text: str) -> str:
    """Character by character, word by word: "E5" -> "E, 5"; "Robot 1 240" -> "R, o, b, o,
    t ; 1 ; 2, 4, 0" (speech engines say each character and pause between words, so the
    words stay apart: 1 and 240, not 1240)."""
    return " ; ".join(", ".join(word) for word in text.split())


def read_po_entries(path: Path, lang: str) -> list[tuple[tuple[str, str | None], Entry, Callable[[int], int] | None]]:
    from babel.messages.pofile import read_po  # imported here: Babel is slow to import

    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    plural = gettext.c2py(cat.plural_expr) if cat.plural_expr else None
    out = []
    for message in cat:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        raw = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        forms = tuple(f or "" for f in raw)
        comment = " ".join(message.auto_comments)
        out.append(((msgid, message.context), Entry(forms, comment), plural))
    return out


_CATALOGS: dict[tuple[str, bool], Catalog] = {}


def catalog(lang: str = DEFAULT_LANGUAGE, *, strict: bool = False) -> Catalog:
    """The shared catalog of `lang` (French when the language is unknown). `strict`: its own
    catalog that raises `MissingMessage` on a missing message or parameter (tests, checked
    transcripts) — never the shared one flipped, which every thread renders with."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    key = (lang, strict)
    if key not in _CATALOGS:
        _CATALOGS[key] = Catalog(lang, strict=strict)
    return _CATALOGS[key]
