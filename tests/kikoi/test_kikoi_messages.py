"""The message table of `tests/kikoi/tools/kikoi_messages.py` writes exactly the committed
Les 5 KIKOI catalogs: a message changed in a .po file and not in the table (or the reverse) fails."""

from tests.kikoi.tools import kikoi_messages
from tests.potable import incomplete, stale


def test_the_message_table_regenerates_the_committed_catalogs():
    assert kikoi_messages.catalogs().keys() == {"fr", "en"}
    assert stale(kikoi_messages.T) == [], "run tests/kikoi/tools/kikoi_messages.py and review the diff"


def test_every_message_has_french_english_and_a_comment_and_a_unique_id():
    assert len(kikoi_messages.M) > 100
    assert incomplete(kikoi_messages.T) == []
