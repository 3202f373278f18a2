"""What a braille display shows and what its keys do (`companion.inputs.braille.view`, no I/O),
with liblouis' real tables: French and English, contracted or not, 14 to 80 cells."""

from __future__ import annotations

import pytest

from companion.inputs.braille.render import back, table_of, text_cells
from companion.inputs.braille.snapshot import _shortened, info_from_json, info_json
from companion.inputs.braille.view import ALERT_CELL, OFFER_CELL, Info, Key, View

from .display import read_cells


def shown(view: View) -> str:
    cells, _ = view.frame()
    return read_cells(cells[view.status_width + 1 if view.status_width else 0:], view.lang, view.contracted)


@pytest.mark.parametrize(("lang", "contracted", "text"), [
    ("fr", False, "C'est à toi, Anne : 12 points."),
    ("fr", True, "C'est à toi, Anne : 12 points."),
    ("en", False, "Your turn, Anne: 12 points."),
    ("en", True, "Your turn, Anne: 12 points."),
])
def test_both_languages_contracted_or_not_read_back(lang: str, contracted: bool, text: str) -> None:
    cells = text_cells(text, lang, contracted)
    assert back(cells, lang, contracted) == text
    if contracted:  # abrégé / grade 2 is shorter than the uncontracted line
        assert len(cells) < len(text_cells(text, lang, False))
    assert table_of(lang, contracted).startswith(lang)


@pytest.mark.parametrize("width", [14, 20, 40, 80])
def test_every_width_shows_the_whole_line_by_panning(width: int) -> None:
    v = View(width)
    v.info = Info(turn="Bruno", score=7)
    text = "Bruno demande à Chloé le Kigratt qui dort ; Chloé ne l'a pas, Bruno pioche."
    v.add(text)
    assert len(v.frame()[0]) == width
    read: list[str] = []
    for _ in range(40):
        read.append(shown(v))
        if v.win >= len(v.windows(v.current)) - 1:
            break
        v.press(Key("next"))
    assert " ".join(" ".join(read).split()) == text
    if width < 20:
        assert v.status_width == 0  # no room: the « état » key says it
        assert v.press(Key("status")) == "état"
    else:
        status = read_cells(v.frame()[0][: v.status_width])
        assert status.startswith("B7")  # Bruno to play, my score 7


def test_newest_stays_until_a_key_and_alert_stays_until_routing() -> None:
    v = View(40)
    v.add("Première ligne.")
    v.add("Deuxième ligne.")
    assert shown(v) == "Première ligne." and v.unread == 1  # not pushed away
    v.press(Key("next"))
    assert shown(v) == "Deuxième ligne." and v.unread == 0
    v.add("Troisième.")
    assert shown(v) == "Deuxième ligne."  # no key pressed on it yet
    v.press(Key("next"))
    v.press(Key("prev_line"))
    v.press(Key("next_line"))
    v.add("À toi, Anne.", alert=True, offers=(("oui", "oui"), ("non", "non")))
    assert shown(v).startswith("[!] À toi, Anne. | oui | non")
    v.add("Bruno parle.")
    v.press(Key("prev"))
    v.press(Key("next"))
    v.add("Encore.")
    assert "[!]" in shown(v), "an alert stays"
    cells, acts = v.frame()
    at = cells.index(bytes([OFFER_CELL])[0])
    assert cells[v.status_width + 1] == ALERT_CELL
    assert v.press(Key("route", n=at)) == "oui"  # a choice is played by its routing key
    assert shown(v) == "Bruno parle."  # and the reading goes on where it stopped


def test_routing_on_words_builds_the_typed_line_and_typing_posts_it() -> None:
    v = View(40, "fr")
    v.add("Ligne 3 : 16 589 42 7.")
    cells, acts = v.frame()
    n16 = next(i for i, a in enumerate(acts) if a == ("word", "16"))
    n42 = next(i for i, a in enumerate(acts) if a == ("word", "42"))
    assert v.press(Key("route", n=n16)) is None
    assert v.typing and v.typed == "16 "
    for ch in "+ ":
        v.press(Key("char", text=ch))
    v.press(Key("escape"))
    assert v.typed == "" and not v.typing
    v.press(Key("route", n=n16))
    v.press(Key("char", text="+"))
    v.press(Key("prev"))  # back to the history, the typed line kept
    v.press(Key("route", n=n42))
    assert v.typed == "16 + 42 "
    v.press(Key("backspace"))
    assert v.press(Key("enter")) == "16 + 42"
    assert v.press(Key("enter")) is None  # nothing typed, nothing sent


def test_keys_ask_for_status_repeat_help_in_the_seat_language() -> None:
    assert [View(40, "fr").press(Key(k)) for k in ("status", "repeat", "help")] == ["état", "répète", "aide"]
    assert [View(40, "en").press(Key(k)) for k in ("status", "repeat", "help")] == ["status", "repeat", "help"]


def test_turn_alert_expires_with_its_turn() -> None:
    v = View(40)
    v.add("À toi.", alert=True, offers=(("a", "a"),), key=(3, 0, 0))
    v.add("Tu as joué.")
    assert v.current.holding
    v.expire((4, 0, 0))
    assert not v.entries[0].holding and shown(v) == "Tu as joué."


def test_choices_lose_the_words_they_share_and_travel_as_json() -> None:
    assert _shortened(["je demande le Kigratt à Bruno", "je demande le Kiboss à Chloé"]) == ["Kigratt à Bruno",
                                                                                         "Kiboss à Chloé"]
    info = Info(turn="Anne", mine=True, asked=False, score=3, offers=(("a", "je a"),), key=(1, 0, 0))
    assert info_from_json(info_json(info)) == info
    assert info_from_json("garbage") == Info()
    assert info_from_json({"score": "x"}) == Info()
