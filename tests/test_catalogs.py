"""Every message has a translator comment and a translation in French and English."""

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.narration.catalog import LANGUAGES, LOCALE_DIR

DOMAINS = sorted({p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})


def entries(lang, domain):
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing"
    with path.open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out = {}
    for m in cat:
        if not m.id:
            continue
        mid = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        out[(mid, m.context)] = m
    return out


def fields(text):
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_translated_and_commented(domain):
    cats = {lang: entries(lang, domain) for lang in LANGUAGES}
    ids = {lang: set(c) for lang, c in cats.items()}
    assert ids["fr"] == ids["en"], f"ids differ between fr and en: {ids['fr'] ^ ids['en']}"
    for lang, cat in cats.items():
        for key, m in cat.items():
            assert key[0].startswith(f"{domain}."), f"{key[0]} is not in domain {domain}"
            assert m.auto_comments, f"{lang}:{key} has no translator comment (#.)"
            forms = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
            assert all(f.strip() for f in forms), f"{lang}:{key} has no translation"
            for f in forms:
                list(string.Formatter().parse(f))  # well-formed braces
    for key, m in cats["fr"].items():
        fr = m.string if isinstance(m.string, (list, tuple)) else (m.string,)
        en = cats["en"][key].string
        en = en if isinstance(en, (list, tuple)) else (en,)
        assert set().union(*map(fields, fr)) == set().union(*map(fields, en)), f"{key}: parameters differ"


def test_domains_exist():
    assert "core" in DOMAINS


def test_no_message_id_used_in_code_is_missing():
    """Message ids written literally in the code exist in the catalogs."""
    root = Path(__file__).resolve().parent.parent / "companion"
    known = {k[0] for d in DOMAINS for k in entries("fr", d)}
    pattern = re.compile(r'"((?:core|speech)\.[a-z_.]+[a-z])"')
    missing = set()
    for py in root.rglob("*.py"):
        for mid in pattern.findall(py.read_text(encoding="utf-8")):
            if mid.endswith(".") or mid.count(".") < 1:
                continue
            if mid not in known and not any(k.startswith(mid + ".") for k in known):
                missing.add((py.name, mid))
    assert not missing, f"message ids used but not in a catalog: {sorted(missing)}"


def test_a_catalog_read_from_many_threads_at_once_never_gives_raw_ids():
    # Pages, terminals and the table loop render at the same moment: the first reads of a
    # domain must never see it half-loaded (a second thread got the raw message id).
    import threading

    from companion.narration.catalog import Catalog
    from companion.narration.message import Msg

    for _ in range(5):
        cat = Catalog("fr")
        barrier = threading.Barrier(8)
        got: list[str] = []

        def render(cat: Catalog = cat, barrier: threading.Barrier = barrier, got: list[str] = got) -> None:
            barrier.wait()
            got.append(cat.text(Msg("core.cancelled")))

        threads = [threading.Thread(target=render) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == 8 and not any(g.startswith("core.") for g in got), got
