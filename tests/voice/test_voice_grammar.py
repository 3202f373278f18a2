"""What is sayable, compiled for the recogniser and back (no audio here)."""

import pytest

from companion.core import Match, find
from companion.games.base import Act, Confirm, action_command
from companion.inputs.voice.grammar import PhraseSet, fold_token, words_of
from companion.inputs.voice.pronounce import ipa_to_cmu
from companion.inputs.voice.sayable import sayable_now
from companion.session.transcript import load

GRAMMAR = {
    "game": "kikoi", "lang": "fr",
    "rules": [{"template": "je demande {token} à {player}", "command": "action"},
              {"template": "aide", "command": "help"}],
    "slots": {"token": ["le kigliss qui dort", "le kimouss qui mange"], "player": ["Paul", "Zoé", "Chloé"]},
}


def test_words_fold_and_keep_their_spelling():
    assert fold_token("Zoé") == "zoe" and fold_token("c’est") == "c'est"
    assert words_of("A1, Zoé !") == [("a", "A"), ("1", "1"), ("zoe", "Zoé")]


def test_concrete_phrases_resolve_to_exactly_the_listed_phrase():
    ps = PhraseSet.build([("Répète", "repeat"), ("je demande kigliss à Zoé", "action:x")], None, "fr")
    assert ps.resolve("repete").phrase == "Répète"
    hit = ps.resolve(["je", "demande", "kigliss", "a", "zoe"])
    assert hit.phrase == "je demande kigliss à Zoé" and hit.command == "action:x"
    assert ps.resolve("je demande kigliss") is None
    jsgf = ps.jsgf()
    assert "public <sayable> =" in jsgf and "( repete )" in jsgf and "zoe" in jsgf


def test_templates_with_slots_compile_and_rebuild_the_phrase():
    ps = PhraseSet.build([], GRAMMAR)
    assert ps.lang == "fr"
    jsgf = ps.jsgf()
    assert "<slot_token>" in jsgf and "<slot_player> = ( chloe ) | ( paul ) | ( zoe ) ;" in jsgf
    hit = ps.resolve("je demande le kigliss qui dort a zoe")
    assert hit.phrase == "je demande le kigliss qui dort à Zoé" and hit.command == "action"
    assert ps.resolve("je demande le kigliss qui dort a marie") is None
    assert ps.resolve("aide").command == "help"


def test_the_key_changes_only_with_what_is_sayable():
    a = PhraseSet.build([("help", "help"), ("push four", "action:4")])
    b = PhraseSet.build([("help", "help"), ("push four", "action:4")])
    c = PhraseSet.build([("help", "help"), ("push five", "action:5")])
    assert a.key() == b.key() != c.key()
    with pytest.raises(ValueError):
        PhraseSet.build([]).jsgf()


def test_ipa_maps_to_the_cmu_phone_set():
    assert ipa_to_cmu("zɔˈe") == ("Z", "AO", "EY")
    assert ipa_to_cmu("kˈɪɡlɪs") == ("K", "IH", "G", "L", "IH", "S")
    assert ipa_to_cmu("nˈɔ̃") == ("N", "OW", "N")
    assert ipa_to_cmu("ʁepˈɛt") == ("R", "EY", "P", "EH", "T")
    assert ipa_to_cmu("tʃˈɜːtʃ") == ("CH", "ER", "CH")


@pytest.mark.parametrize("game_name,players", [("kikoi", ["Chloé", "Paul", "Zoé"]), ("goodfortune", ["Chloé", "Paul"]),
                                               ("kaliko", ["Chloé", "Paul"]), ("kissa", ["Chloé", "Paul"])])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_phrase_the_game_lists_is_recognisable_back_to_itself(game_name, players, lang):
    # What the recogniser hears (folded words, digits as words) maps back to exactly the
    # listed phrase, hence to the command `companion phrases` gives for it.
    game, ui, _ = load(find(game_name))
    match = Match(game, players, 3)
    seat = match.current
    pairs = ui.phrases(match, seat, lang=lang).concrete
    moves = [(p, c) for p, c in pairs if c.startswith("action:")]
    assert moves, "at least one move is sayable"
    for phrase, command in moves[:20]:
        intent = ui.parse(phrase, match, seat)
        assert isinstance(intent, (Act, Confirm)) and action_command(game, intent.action) == command, phrase
    ps = sayable_now(ui, match, seat, lang)
    sample = pairs[:: max(1, len(pairs) // 150)]
    assert all(ps.resolve(" ".join(t for t, _ in words_of(p))).phrase == p for p, _ in sample)


def test_sayable_now_prefers_the_games_own_phrases():
    class Sayable:
        concrete = [("aide", "help")]
        grammar = GRAMMAR

    class UI:
        def phrases(self, match, seat, lang="fr"):
            assert lang == "fr"
            return Sayable()

    ps = sayable_now(UI(), None, 0, "fr")
    assert ps.resolve("aide").command == "help"
    assert ps.resolve("je demande le kimouss qui mange a chloe").phrase == "je demande le kimouss qui mange à Chloé"


def test_a_wake_word_must_come_first_and_is_not_part_of_the_line(monkeypatch):
    from companion.inputs.voice import fsg

    monkeypatch.setattr(fsg, "FILLER", None)  # the JSGF text without the filler's optional parts
    ps = PhraseSet.build([("help", "help"), ("push four", "action:4")]).with_wake("companion")
    assert "public <sayable> = companion ( ( help ) | ( push four ) ) ;" in ps.jsgf()
    assert ps.resolve("companion push four").phrase == "push four"
    assert ps.resolve("push four") is None


def test_a_speaker_may_name_themselves_first_or_alone(monkeypatch):
    from companion.inputs.voice import fsg

    monkeypatch.setattr(fsg, "FILLER", None)  # the JSGF text without the filler's optional parts
    from companion.inputs.voice.grammar import SPEAKER

    ps = PhraseSet.build([("mon plateau", "board"), ("pousse quatre", "action:4")], None, "fr").with_speakers(["Paul", "Zoé"])
    jsgf = ps.jsgf()
    assert "( [ <speaker> ] ( ( mon plateau ) | ( pousse quatre ) ) ) | <speaker>" in jsgf
    assert "<speaker> = ( paul ) | ( zoe ) ;" in jsgf
    named = ps.resolve("zoe mon plateau")
    assert (named.phrase, named.command, named.speaker) == ("mon plateau", "board", "Zoé")
    assert ps.resolve("mon plateau").speaker is None
    alone = ps.resolve("paul")
    assert (alone.phrase, alone.command, alone.speaker) == ("Paul", SPEAKER, "Paul")
    assert ps.resolve("marie mon plateau") is None and ps.resolve("paul zoe") is None
    assert ps.key() != PhraseSet.build([("mon plateau", "board"), ("pousse quatre", "action:4")], None, "fr").key()
    # a wake word still comes first; the names keep their spelling for espeak-ng
    woke = ps.with_wake("compagnon")
    assert woke.resolve("compagnon paul pousse quatre").speaker == "Paul" and woke.resolve("paul pousse quatre") is None
    assert ps.vocabulary["zoe"] == "Zoé"
    assert "zoe mon plateau" in ps.sentences() and "paul" in ps.sentences()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_yes_word_sounds_like_a_no_word(lang):
    """« oui » and « non » decide whether a read-back move is played: no word for one may be a
    phone away from a word for the other in what the recogniser hears (measured: English "go",
    a yes, was heard as "no" in 4 of 4 utterances of it; it is no longer a yes)."""
    from companion.inputs.voice.pronounce import Lexicon
    from companion.language.tables import groups, words
    from tests.voice.needs import need_voice

    need_voice()
    said = groups("shared", "words", lang)
    yes, no = list(said["yes"]), list(said["no"]) + list(words("shared", "cancel", lang))
    prons = Lexicon(lang).pronounce(dict(t for w in yes + no for t in words_of(w)))

    def phones(phrase):
        return [p for tok, _ in words_of(phrase) for p in prons[tok][0].split()]

    def distance(a, b):
        row = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            prev, row[0] = row[0], i
            for j, y in enumerate(b, 1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
        return row[-1]

    close = [(y, n) for y in yes for n in no if len(y) > 1 and len(n) > 1 and distance(phones(y), phones(n)) < 2]
    assert not close, close


def test_a_capital_letter_alone_is_said_by_its_name():
    """« A2 », « column A »: the letter A, never the article's schwa (which fits any short
    sound: « help » was heard as « A2 »); the article keeps both of CMUdict's pronunciations."""
    from companion.inputs.voice.pronounce import Lexicon

    assert Lexicon("en").pronounce({"a": "A", "b": "B"}) == {"a": ("EY",), "b": ("B IY",)}
    assert Lexicon("en").pronounce({"a": "a"}) == {"a": ("AH", "EY")}


def test_a_slot_that_comes_back_takes_each_value_in_its_place():
    ps = PhraseSet.build([], {"rules": [{"template": "{player} gives {token} to {player}", "command": "action"}],
                              "slots": {"player": ["Paul", "Zoé"], "token": ["Kigliss"]}}, "fr")
    assert ps.resolve("paul gives kigliss to zoe").phrase == "Paul gives Kigliss to Zoé"


def test_the_rivals_of_a_line_differ_from_it_in_one_slot_value():
    ps = PhraseSet.build([("je demande le kigliss qui dort à Paul", "action:x")], GRAMMAR,
                         whole=([("je", "demande", ("token",), "a", ("player",))],
                                {"token": ["le kigliss qui dort", "le kiboss qui dort"], "player": ["Paul", "Zoé"]}))
    rivals = set(ps.rivals("je demande le kigliss qui dort a paul".split()))
    assert ("je", "demande", "le", "kiboss", "qui", "dort", "a", "paul") in rivals  # another token (whole language)
    assert ("je", "demande", "le", "kigliss", "qui", "dort", "a", "zoe") in rivals  # another player
    assert ("je", "demande", "le", "kimouss", "qui", "mange", "a", "paul") in rivals  # the template's other token
    assert ("je", "demande", "le", "kigliss", "qui", "dort", "a", "paul") not in rivals  # never itself
    assert len(rivals) == 4  # and Chloé, of the template
    assert ps.rivals("aide".split()) == []  # no slot: no rival


def test_the_shared_filler_may_come_before_and_after_a_phrase_and_is_not_part_of_the_line(monkeypatch):
    from companion.inputs.voice import fsg

    monkeypatch.setattr(fsg, "FILLER", 0.05)  # as in play
    ps = PhraseSet.build([("aide", "help"), ("pousse quatre", "action:4")], None, "fr")
    fa = fsg.automaton(ps)
    for said in ("euh aide", "euh s'il te plait aide merci", "pousse quatre s'il te plait", "aide"):
        assert fa.accepts(said.split()), said
        assert ps.resolve(said.split()).phrase in ("aide", "pousse quatre"), said
    assert ps.prefix_length("euh s'il te plait aide".split(), ps.resolve("euh s'il te plait aide".split())) == 4
    assert not fa.accepts("aide merci merci".split())  # one after the phrase
    assert not fa.accepts("euh".split()) and ps.resolve(["euh"]) is None  # filler alone is nothing
    assert ("um",) not in ps.filler  # the session's language only
    assert "[ <filler> ] [ <filler> ] ( ( aide ) | ( pousse quatre ) ) [ <filler> ]" in ps.jsgf()
    monkeypatch.setattr(fsg, "FILLER", None)
    off = PhraseSet.build([("aide", "help")], None, "fr")
    assert not off.filler and not fsg.automaton(off).accepts("euh aide".split())
