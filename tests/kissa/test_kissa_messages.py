"""The message table of `tests/kissa/tools/kissa_messages.py` writes exactly the committed
2kissa10 catalogs: a message changed in a .po file and not in the table (or the reverse) fails."""

from tests.kissa.tools import kissa_messages
from tests.potable import incomplete, stale


def test_the_message_table_regenerates_the_committed_catalogs():
    assert stale(kissa_messages.T) == [], "run tests/kissa/tools/kissa_messages.py and review the diff"


def test_every_message_has_french_english_and_a_comment():
    assert incomplete(kissa_messages.T) == []
