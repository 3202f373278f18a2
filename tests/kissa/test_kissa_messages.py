"""The message table of `tests/kissa/tools/kissa_messages.py` writes exactly the committed
2kissa10 catalogs: a message changed in a .po file and not in the table (or the reverse) fails."""

from tests.kissa.tools import kissa_messages


def test_the_message_table_regenerates_the_committed_catalogs():
    for lang, data in kissa_messages.catalogs().items():
        committed = kissa_messages.path(lang).read_bytes()
        assert data == committed, f"{lang}: run tests/kissa/tools/kissa_messages.py and review the diff"


def test_every_message_has_french_english_and_a_comment():
    ids = [entry[0] for entry in kissa_messages.M]
    assert len(ids) == len(set(ids))
    for mid, comment, fr, en, _terse, _verbose in kissa_messages.M:
        assert mid.startswith("kissa.") and comment and fr and en, mid
