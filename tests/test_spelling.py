"""Spelling (a second « répète ») keeps the words apart (#17): "Robot 1 240" is not "1240"."""

from companion.narration import spell


def test_spelling_keeps_spaces_between_words():
    assert spell("Robot 1 240") == "R, o, b, o, t ; 1 ; 2, 4, 0"
    assert spell("E5") == "E, 5"
    assert spell("  a  b ") == "a ; b"
    assert spell("") == ""
