"""Issue 24 §3: the recogniser's grammar holds the game's whole well-formed language, legal now
or not, the legal moves likelier; a request not allowed now is heard as said and refused with
the typed reason, never played as another move. Replayed through `companion play --voice-input`
with recordings made for the test (espeak-ng)."""


import numpy as np

from companion.core import Match, find
from companion.games.kikoi.commands import Said
from companion.games.kikoi.rules import ASK
from companion.inputs.voice import fsg, synth
from companion.inputs.voice.grammar import WHOLE
from companion.inputs.voice.sayable import sayable_now, shared_commands
from companion.inputs.voice.sources import write_wav
from companion.session.transcript import load
from tests.voice.by_voice import play_recording, voice_inputs
from tests.voice.needs import need_voice

NAMES = ["Marie", "Bot 1", "Bot 2"]
# a right legal request whose sound stands close to a held token's line (bench/voice_whole_language.py
# state 5: margin 4.2, the free phones 2 edits nearer the line said)
SEED_CLOSE, SAID_CLOSE, TOKEN_CLOSE = 5, "ask Bot 1 for Kimouss eating", 1


def _marie_asks(seed=3):
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, NAMES, seed)
    while not (match.current == 0 and match.state.phase == ASK):
        match.play(match.current, match.legal(match.current)[0])
    return ui, match


def test_the_compiled_grammar_of_a_kikoi_state_holds_an_illegal_request():
    ui, match = _marie_asks()
    held = next(t for t in match.state.boards[0] if t < 25)
    from companion.games.kikoi.phrases import token_name

    illegal = f"ask Bot 2 for {token_name(held, 'en')}"
    ps = sayable_now(ui, match, 0, "en")
    assert illegal not in {m.phrase for m in ps.phrases()}  # not listed: not legal now
    words = illegal.lower().split()
    fa = fsg.automaton(ps, shared_commands("en"))
    assert fa.accepts(words)  # in the recogniser's search graph
    assert fa.accepts("ask bot 1 for the kikonk".split())  # a red token, never asked for
    heard = ps.resolve(words)
    assert heard is not None and heard.command == WHOLE and heard.phrase == illegal
    command = ps.read(heard.phrase, None)  # read by the game's grammar, as typed
    assert isinstance(command, Said) and command.player == 2
    assert ui.handle(command, match, 0)[0] is not None  # the session refuses it with its reason
    # every token of the game and every player is in it, in French too
    fr = sayable_now(ui, match, 0, "fr")
    assert len(fr.whole_slots["token"]) == 28 and fr.whole_slots["player"] == NAMES
    assert fsg.automaton(fr, shared_commands("fr")).accepts("demande a marie le kigliss qui dort".split()) or \
        fsg.automaton(fr, shared_commands("fr")).accepts("je demande le kigliss qui dort a marie".split())


def test_good_fortune_hears_every_tile_number_and_charm():
    game, ui, _bots = load(find("goodfortune"))
    match = Match(game, ["Marie", "Bot"], 3)
    ps = sayable_now(ui, match, 0, "en")
    assert {str(n) for n in range(1, 22)} <= set(ps.whole_slots["tile"])
    assert "12 evil eye" in ps.whole_slots["tile"]
    fa = fsg.automaton(ps, shared_commands("en"))
    assert fa.accepts("where is twenty one".split())  # a question, in its listed form
    # questions are not heard whole: their loose forms took real talk for « where is 11 »
    assert "number" not in ps.whole_slots and not fa.accepts("tell is 11".split())


def test_by_voice_an_illegal_kikoi_request_is_refused_with_the_typed_reason_and_a_legal_one_played(tmp_path):
    need_voice()
    gap = synth.silence(1.0)
    said = ["ask Bot 2 for Kigliss sleeping",  # Marie holds it (seed 3): refused, never another token
            "ask Marie for Kigliss at home",   # herself: refused
            "ask Bot 1 for Kigliss at home",   # legal: played
            "end game", "yes"]
    wav = tmp_path / "marie.wav"
    write_wav(wav, np.concatenate([np.concatenate([synth.utterance(t, "en-us", 160).astype(np.int16), gap])
                                   for t in said]))
    out, records, _code = play_recording(tmp_path, "kikoi", wav, seed=3, bots=2)
    voice = voice_inputs(records)
    first, second, third = voice[:3]
    # heard as said, refused as typed: the typed reason, never played as another token
    assert first["heard"] == "ask bot 2 for kigliss sleeping", voice
    assert first["outcome"] == "refuse" and first["command"] == 'action:{"ask":2,"token":"kigliss-sleep"}', voice
    assert "You already have Kigliss sleeping on your board." in out
    assert second["outcome"] == "refuse" and second["command"] == 'action:{"ask":0,"token":"kigliss-house"}', voice
    assert "You cannot ask yourself: choose another player." in out
    acted = [i for i in voice if i["outcome"] == "act"]
    assert [i["command"] for i in acted] == ['action:{"ask":1,"token":"kigliss-house"}'], voice
    assert third["outcome"] == "act" and "Marie asks Bot 1 for Kigliss at home." in out, voice


def test_by_voice_a_2kissa10_equation_said_by_its_values_plays_its_one_place(tmp_path):
    """Issue 24 §7: « 10 plus 15 equals 25 » (values only) lies in one place on seed 1's board:
    heard as said (the board's values are in the recogniser's grammar), read by the grammar as
    typed, and that one move played."""
    need_voice()
    gap = synth.silence(1.0)
    said = ["10 plus 15 equals 25", "end game", "yes"]
    wav = tmp_path / "marie.wav"
    write_wav(wav, np.concatenate([np.concatenate([synth.utterance(t, "en-us", 160).astype(np.int16), gap])
                                   for t in said]))
    # until the three lines are taken: « end game » may come out under the talk floor here
    # (0.07), and the game then waited for its 240 s timeout
    out, records, _code = play_recording(tmp_path, "kissa", wav, seed=1, bots=1,
                                         until=lambda rs: len(voice_inputs(rs)) >= len(said))
    voice = voice_inputs(records)
    move = 'action:{"op":"+","operands":[["I5","J5"],["E6","E7"]],"result":["A3","B3"],"type":"move"}'
    assert voice[0]["heard"] == "10 plus 15 equals 25", voice
    assert voice[0]["command"] == move and voice[0]["outcome"] == "act", voice
    assert "Marie: 10 at I5 plus 15 at E6 down equals 25 at A3." in out, out
    assert [i["command"] for i in voice if i["outcome"] == "act"] == [move], voice


def test_2kissa10_hears_equations_by_their_values_bounded_to_the_board():
    from companion.games.kissa.phrases import heard_context

    game, ui, _bots = load(find("kissa"))
    match = Match(game, ["Marie", "Bot"], 1)
    values = set(heard_context(match, 0)["numbers"])
    ps = sayable_now(ui, match, 0, "en")
    assert set(ps.whole_slots["a"]) == {str(v) for v in values}  # every value on the board, no other
    fa = fsg.automaton(ps, shared_commands("en"))
    assert fa.accepts("10 plus 15 equals 25".split()) and fa.accepts("25 equals 10 plus 15".split())
    absent = next(n for n in range(1000) if n not in values)
    assert not fa.accepts(f"{absent} times 1 equals {absent}".split())  # not on the board: not heard
    heard = ps.resolve("10 plus 15 equals 25".split())
    assert heard is not None and heard.command == WHOLE
    assert ps.read(heard.phrase, None) == ui.command("10 plus 15 equals 25", match, 0)  # read as typed


def test_kaliko_hears_a_tile_put_on_a_taken_cell():
    game, ui, _bots = load(find("kaliko"))
    match = Match(game, ["Marie", "Bot"], 3)
    while match.current != 0:
        match.play(match.current, match.legal(match.current)[0])
    ps = sayable_now(ui, match, 0, "en")
    assert "centre" not in {m.phrase.split()[-1] for m in ps.phrases()}  # the centre is taken: not listed
    heard = ps.resolve("put 1 at centre".split())
    assert heard is not None and heard.command == WHOLE
    assert ps.read(heard.phrase, None) == ui.command("put 1 at centre", match, 0)


def test_every_line_the_recogniser_hears_whole_is_read_by_the_grammar():
    """What is heard is what is read: each line of the whole language (a random value in each
    slot), in both languages and every game heard whole, resolves and reads as a command."""
    import random

    from companion.inputs.voice.grammar import tokens_of

    rng = random.Random(1)
    for gid, names in (("kikoi", NAMES), ("goodfortune", ["Marie", "Bot"]), ("kissa", ["Marie", "Bot"]),
                       ("kaliko", ["Marie", "Bot"])):
        game, ui, _bots = load(find(gid))
        match = Match(game, names, 1)
        while match.current != 0:
            match.play(match.current, match.legal(match.current)[0])
        for lang in ("en", "fr"):
            ps = sayable_now(ui, match, 0, lang)
            assert ps.whole, (gid, lang)
            for seq in rng.sample(ps.whole, min(200, len(ps.whole))):
                words = [t for w in seq for t in (tokens_of(rng.choice(ps.whole_slots[w[0]])) if isinstance(w, tuple) else (w,))]
                heard = ps.resolve(words)
                assert heard is not None, (gid, lang, words)
                assert ui.command(heard.phrase, match, 0) is not None, (gid, lang, heard.phrase)


def test_a_request_not_legal_now_heard_as_a_close_legal_move_is_heard_as_said_and_refused():
    """Issue 24 §3: « Kiboss eating », held by Marie (seed 2), sounds like « Kigliss eating »,
    legal and so weighted likelier: heard first as the legal move, it stands too close to the
    line said (decoded again with no prior: `SphinxRecognizer._rival_margin`), and the free
    phones stand nearer the line said, so that line is taken (then refused, as typed), with
    the confidence of a corrected line; never another move."""
    need_voice()
    from companion.inputs.voice.recognizer import (
        CORRECTED_CONFIDENCE,
        RIVAL_MARGIN,
        RIVAL_TAKEN_EDITS,
        SphinxRecognizer,
    )

    ui, match = _marie_asks(seed=2)
    ps = sayable_now(ui, match, 0, "en")
    rivals = ps.rivals("ask bot 2 for kigliss eating".split())
    assert ("ask", "bot", "2", "for", "kiboss", "eating") in rivals and ("ask", "marie", "for", "kigliss", "eating") in rivals
    rec = SphinxRecognizer("en")
    rec.set_phrases(ps)
    r = rec.recognize(synth.utterance("ask Bot 2 for Kiboss eating", "en-us", 160, None, seed=7))
    # this sound is heard first as the legal move (so the check has something to do); heard as
    # said at once one day, the case no longer tries the check: choose another voice or seed
    assert rec.last_rival is not None, ("heard as said at once: this case no longer exercises the rival check", r)
    assert rec.last_rival < RIVAL_MARGIN and rec.last_rival_edits is not None and rec.last_rival_edits >= RIVAL_TAKEN_EDITS, (
        r, rec.last_rival, rec.last_rival_edits)
    assert rec.last_rival_taken and r.line == "ask Bot 2 for Kiboss eating", r
    assert r.confidence <= CORRECTED_CONFIDENCE, r
    assert ui.command(r.line, match, 0) is not None  # read as the request said, refused by its handler


def test_a_right_legal_move_close_to_a_line_not_legal_now_is_read_back_not_replaced():
    """The other side of the rival check: a legal request said right whose sound stands close to
    a held token's line (margin under `RIVAL_MARGIN`) but whose free phones do not stand nearer
    that line is kept, and read back (confidence capped), never turned into a refusal."""
    need_voice()
    from companion.inputs.voice.recognizer import (
        CORRECTED_CONFIDENCE,
        RIVAL_MARGIN,
        SphinxRecognizer,
    )

    ui, match = _marie_asks(seed=SEED_CLOSE)
    ps = sayable_now(ui, match, 0, "en")
    rec = SphinxRecognizer("en")
    rec.set_phrases(ps)
    r = rec.recognize(synth.utterance(SAID_CLOSE, "en-us", 160, None, seed=TOKEN_CLOSE))
    assert r.line == SAID_CLOSE, r
    assert rec.last_rival is not None and rec.last_rival < RIVAL_MARGIN, ("no longer close to a rival: choose another", rec.last_rival)
    assert not rec.last_rival_taken and r.confidence <= CORRECTED_CONFIDENCE, (r, rec.last_rival_edits)



def test_through_the_live_listener_a_held_token_close_to_a_legal_one_is_never_played(tmp_path):
    """Issue 24 §5, the defect of stop 34: « ask Bot 2 for Kiboss eating » (Marie holds it, seed
    2; en-us, synth seed 7) said at the very start of the recording, through the live listener
    (its VAD and streamed decode), stood 6.3 above its rival « … Kiboss eating » (decoded again
    with no prior) and was heard as « … Kigliss eating » at 0.90 and played. `RIVAL_MARGIN`,
    fitted through the listener (bench/voice_whole_language.py --listener), reads it back; « no »
    drops it; the game ends by voice; no request is ever played, and the input log keeps the
    margin (only the number: the rival's words would tell what Marie holds)."""
    need_voice()
    gap = synth.silence(1.0)
    ask = synth.utterance("ask Bot 2 for Kiboss eating", "en-us", 160, None, seed=7).astype(np.int16)
    wav = tmp_path / "marie.wav"
    write_wav(wav, np.concatenate([ask, gap] + [np.concatenate([synth.utterance(t, "en-us", 160).astype(np.int16), gap])
                                               for t in ("no", "end game", "yes")]))
    out, records, code = play_recording(tmp_path, "kikoi", wav, seed=2, bots=2)
    voice = voice_inputs(records)
    first = voice[0]
    assert first["heard"].startswith("ask bot 2 for"), voice
    assert first["outcome"] in ("confirm", "refuse"), voice  # read back, or heard as said and refused
    assert isinstance(first.get("rival_margin"), float), first
    assert set(first) <= {"type", "source", "seat", "text", "outcome", "command", "heard", "confidence",
                          "rival_margin"}, first  # the margin alone, never the rival's words
    assert not any(r.get("type") == "asked" and r["asker"] == 0 for r in records), voice  # Marie asked nothing
    assert voice[-1]["heard"] == "yes" and "Goodbye" in out and code == 0, (voice, out, code)


def test_french_robot_1_and_robot_2_are_heard_apart_by_voices_never_fitted_on():
    """« à Robot 1 » and « à Robot 2 » differ by one short number word heard through the English
    acoustic model: fr+f5 and fr+Andy, voices no weight or variant is fitted on, heard every
    « Robot 1 » as « Robot 2 » (18 of 18 each) until « 1 » was also ER (`pronounce.VARIANTS`,
    chosen on the fitting voices); without it 4 of these 8 are heard with the other robot."""
    need_voice()
    from companion.games.kikoi.phrases import token_name
    from companion.inputs.voice.recognizer import SphinxRecognizer
    from companion.narration import Msg, catalog

    names = ["Marie"] + [catalog("fr").text(Msg("core.bot_name", n=n)) for n in (1, 2)]
    game, ui, _bots = load(find("kikoi"))
    match = Match(game, names, 3)
    while not (match.current == 0 and match.state.phase == ASK):
        match.play(match.current, match.legal(match.current)[0])
    ps = sayable_now(ui, match, 0, "fr")
    rec = SphinxRecognizer("fr")
    rec.set_phrases(ps)
    held = [t for t in match.state.boards[0] if t < 25][:2]
    heard = right = 0
    for voice in ("fr+f5", "fr+Andy"):
        for token in held:
            for bot in (1, 2):
                said = f"je demande {token_name(token, 'fr')} à Robot {bot}"
                r = rec.recognize(synth.utterance(said, voice, 160), chunk=480)
                heard += 1
                right += r.line is not None and r.line.endswith(f"Robot {bot}")
    assert right >= heard - 1, f"{right} of {heard} heard with the robot said"
