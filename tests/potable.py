"""Writes a domain's French and English .po catalogs from one table (Babel's writer).

Used by the games' message tools (tests/<game>/tools/*_messages.py), which keep every
message of a game in one Python table: id, translator comment, French, English, and the
optional terse and verbose forms. A form that is a pair is a plural (singular, plural).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

Form = str | tuple[str, str]
Entry = tuple[str, str, Form, Form, tuple[Form, Form] | None, tuple[Form, Form] | None]
STAMP = datetime(2026, 11, 29, tzinfo=UTC)
LOCALE = Path(__file__).resolve().parent.parent / "companion" / "locale"


def write_domain(domain: str, title: str, entries: Iterable[Entry], root: Path = LOCALE) -> None:
    entries = list(entries)
    for k, lang in enumerate(("fr", "en")):
        # Fixed header fields: the same table always writes the same bytes.
        cat = Catalog(locale=lang, project="companion", version="0.1", header_comment=f"# {title}",
                      msgid_bugs_address="", creation_date=STAMP, revision_date=STAMP,
                      last_translator="companion", language_team=lang, fuzzy=False)
        for mid, comment, fr, en, terse, verbose in entries:
            _add(cat, mid, (fr, en)[k], comment, None)
            if terse:
                _add(cat, mid, terse[k], f"Terse form of {mid}: short, essential word first.", "terse")
            if verbose:
                _add(cat, mid, verbose[k], f"Verbose form of {mid}.", "verbose")
        path = root / lang / "LC_MESSAGES" / f"{domain}.po"
        with path.open("wb") as fh:
            write_po(fh, cat, width=1000, omit_header=False, no_location=True)


def _add(cat: Catalog, mid: str, form: Form, comment: str, ctxt: str | None) -> None:
    if isinstance(form, tuple):
        cat.add((mid, mid), form, auto_comments=[comment], context=ctxt)
    else:
        cat.add(mid, form, auto_comments=[comment], context=ctxt)
