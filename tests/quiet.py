"""A speaker that says nothing: the session's speaking paths run, no audio is made.

For tests that type whole games through the session; the real speakers are tested in
tests/speech and tests/test_session.py.
"""


class Quiet:
    def say(self, *args, **kwargs):
        return None

    def interrupt(self):
        return None
