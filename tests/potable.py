"""Writes a domain's French and English .po catalogs from one table (Babel's writer).

Used by the games' message tools (tests/<game>/tools/*_messages.py), which keep every
message of a game in one Python table: id, translator comment, French, English, and the
optional terse and verbose forms. A form that is a pair is a plural (singular, plural).
A terse or verbose form may carry its own translator comment, the same in both languages
or a pair (French catalog's, English catalog's); an entry marked `gap` follows one
more empty line (a section break kept from a hand-edited catalog). Each tool exposes
`catalogs()` (the bytes its table writes) and `path(lang)`, so that a test can check the
table against the committed catalogs (`stale`, `incomplete`); run as a script, it writes
them.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

Form = str | tuple[str, str]
Comment = str | tuple[str, str]  # one for both catalogs, or (French, English)
Entry = tuple[str, str, Form, Form, tuple[Form, Form] | None, tuple[Form, Form] | None]
LANGS = ("fr", "en")
STAMP = datetime(2026, 11, 29, tzinfo=UTC)
LOCALE = Path(__file__).resolve().parent.parent / "companion" / "locale"


class Table:
    """One domain's messages, in catalog order."""

    def __init__(self, domain: str, title: str, root: Path = LOCALE) -> None:
        self.domain, self.title, self.root = domain, title, root
        self.entries: list[Entry] = []
        self.comments: dict[tuple[str, str], Comment] = {}  # (id, "terse" or "verbose") -> its own comment
        self.gaps: set[str] = set()  # ids whose entry follows one more empty line (a section break)

    def m(self, mid: str, comment: str, fr: Form, en: Form,
          terse: tuple[Form, Form] | None = None, verbose: tuple[Form, Form] | None = None,
          terse_comment: Comment | None = None, verbose_comment: Comment | None = None,
          gap: bool = False) -> None:
        self.entries.append((mid, comment, fr, en, terse, verbose))
        if terse_comment:
            self.comments[(mid, "terse")] = terse_comment
        if verbose_comment:
            self.comments[(mid, "verbose")] = verbose_comment
        if gap:
            self.gaps.add(mid)

    def path(self, lang: str) -> Path:
        return self.root / lang / "LC_MESSAGES" / f"{self.domain}.po"

    def catalogs(self) -> dict[str, bytes]:
        """The two catalogs this table writes: fixed header fields (the same table always
        writes the same bytes), no blank line at the end."""
        out = {}
        for k, lang in enumerate(LANGS):
            cat = Catalog(locale=lang, project="companion", version="0.1", header_comment=f"# {self.title}",
                          msgid_bugs_address="", creation_date=STAMP, revision_date=STAMP,
                          last_translator="companion", language_team=lang, fuzzy=False)
            for mid, comment, fr, en, terse, verbose in self.entries:
                _add(cat, mid, (fr, en)[k], comment, None)
                if terse:
                    default = f"Terse form of {mid}: short, essential word first."
                    _add(cat, mid, terse[k], _pick(self.comments.get((mid, "terse"), default), k), "terse")
                if verbose:
                    default = f"Verbose form of {mid}."
                    _add(cat, mid, verbose[k], _pick(self.comments.get((mid, "verbose"), default), k), "verbose")
            buf = io.BytesIO()
            write_po(buf, cat, width=1000, omit_header=False, no_location=True)
            out[lang] = self._gapped(buf.getvalue().rstrip(b"\n") + b"\n")
        return out

    def write(self) -> None:
        for lang, data in self.catalogs().items():
            self.path(lang).write_bytes(data)

    def _gapped(self, data: bytes) -> bytes:
        # Babel separates entries by one empty line and has none inside one (width=1000).
        blocks = data.split(b"\n\n")
        for i, block in enumerate(blocks):
            lines = block.split(b"\n")
            mids = [ln[len(b'msgid "'):-1].decode() for ln in lines if ln.startswith(b'msgid "')]
            if mids and mids[0] in self.gaps and not any(ln.startswith(b"msgctxt ") for ln in lines):
                blocks[i] = b"\n" + block
        return b"\n\n".join(blocks)


def stale(table: Table) -> list[str]:
    """The languages whose committed catalog is not, byte for byte, what the table writes."""
    return [lang for lang, data in table.catalogs().items() if table.path(lang).read_bytes() != data]


def incomplete(table: Table) -> list[str]:
    """The ids that are repeated, outside the domain, or lack a comment, French or English
    (in any form)."""
    seen: set[str] = set()
    out = []
    for mid, comment, fr, en, terse, verbose in table.entries:
        forms = [fr, en, *(terse or ()), *(verbose or ())]
        if mid in seen or not mid.startswith(f"{table.domain}.") or not comment or not all(forms):
            out.append(mid)
        seen.add(mid)
    return out


def _pick(comment: Comment, k: int) -> str:
    return comment if isinstance(comment, str) else comment[k]


def _add(cat: Catalog, mid: str, form: Form, comment: str, ctxt: str | None) -> None:
    if isinstance(form, tuple):
        cat.add((mid, mid), form, auto_comments=[comment], context=ctxt)
    else:
        cat.add(mid, form, auto_comments=[comment], context=ctxt)
