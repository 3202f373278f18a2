"""The compact grammar the recogniser searches (`companion.inputs.voice.fsg`): the same sentences as
the JSGF text, as likely as there, in far fewer states (no audio here)."""

import math
import random
from collections import defaultdict

import pytest

from companion.core import Match, Rng, find
from companion.inputs.voice.fsg import Ends, automaton
from companion.inputs.voice.grammar import PhraseSet, tokens_of
from companion.inputs.voice.pronounce import cmudict, cmudict_path
from companion.inputs.voice.sayable import sayable_now
from companion.session.transcript import load

GRAMMAR = {
    "rules": [{"template": "je demande {token} à {player}", "command": "action"},
              {"template": "je pose {token} à {player}", "command": "action"},
              {"template": "plateau de {player}", "command": "board"}],
    "slots": {"token": ["le kigliss qui dort", "le kimouss qui mange", "le kigliss"], "player": ["Paul", "Zoé", "Chloé"]},
}
CONCRETE = [("aide", "help"), ("répète", "repeat"), ("je demande le kigliss à Paul", "action:x"),
            ("je demande le kigliss à Zoé", "action:y"), ("non", "no")]


def probability(fa, words):
    """The sum over the automaton's paths of the product of their arcs' probabilities."""
    by_src = defaultdict(list)
    for a, b, p, w in fa.arcs:
        by_src[a].append((b, p, w))

    order = _topological(fa)

    def step_eps(weights):  # along null arcs, in topological order
        w = dict(weights)
        for s in order:
            if w.get(s):
                for b, p, word in by_src[s]:
                    if word is None:
                        w[b] = w.get(b, 0.0) + w[s] * p
        return w

    here = step_eps({fa.start: 1.0})
    for word in words:
        nxt = defaultdict(float)
        for s, ws in here.items():
            for b, p, w in by_src[s]:
                if w == word:
                    nxt[b] += ws * p
        here = step_eps(nxt)
    return here.get(fa.final, 0.0)


def _topological(fa):
    indeg = defaultdict(int)
    succ = defaultdict(list)
    for a, b, _p, _w in fa.arcs:
        succ[a].append(b)
        indeg[b] += 1
    order, todo = [], [s for s in range(fa.n) if indeg[s] == 0]
    while todo:
        s = todo.pop()
        order.append(s)
        for b in succ[s]:
            indeg[b] -= 1
            if indeg[b] == 0:
                todo.append(b)
    assert len(order) == fa.n, "the grammar has a cycle"
    return order


def test_every_sentence_and_only_those():
    ps = PhraseSet.build(CONCRETE, GRAMMAR, "fr")
    fa = automaton(ps)
    for phrase, _c in CONCRETE:
        assert fa.accepts(tokens_of(phrase))
    for token in GRAMMAR["slots"]["token"]:
        for player in GRAMMAR["slots"]["player"]:
            assert fa.accepts(tokens_of(f"je pose {token} à {player}"))
            assert fa.accepts(tokens_of(f"je demande {token} à {player}"))
    for said in ("je pose le kigliss", "aide aide", "plateau de", "je pose le kimouss à Paul", "", "plateau de Paul Zoé"):
        assert not fa.accepts(tokens_of(said)), said


@pytest.mark.parametrize("filler", [None, 0.05])
def test_the_probabilities_are_the_jsgf_ones(filler, monkeypatch):
    """Each alternative of the top rule (a listed phrase, a template) is as likely; a slot's
    values are equally likely, whatever their length; every state's ways out sum to 1."""
    from companion.inputs.voice import fsg

    monkeypatch.setattr(fsg, "FILLER", filler)
    ps = PhraseSet.build(CONCRETE, GRAMMAR, "fr")
    fa = automaton(ps)
    # every line goes past two optional fillers before it and one after (`fsg.FILLER`)
    alternatives = (len(CONCRETE) + len(GRAMMAR["rules"])) / (1 - (fsg.FILLER or 0.0)) ** 2
    assert probability(fa, tokens_of("aide")) == pytest.approx(1 / alternatives)
    f = fsg.FILLER or 0.0
    if f:
        plain = 1 / alternatives / (1 - f) ** 2  # « euh » then « aide », then « merci »: two fillers' arcs
        assert probability(fa, tokens_of("euh aide merci")) == pytest.approx(plain * f * (1 - f) * f / len(ps.filler) ** 2)
    assert probability(fa, tokens_of("plateau de Zoé")) == pytest.approx(1 / alternatives / 3)
    assert probability(fa, tokens_of("je pose le kigliss qui dort à Chloé")) == pytest.approx(1 / alternatives / 9)
    # a listed phrase that a template also says has both paths
    assert probability(fa, tokens_of("je demande le kigliss à Paul")) == pytest.approx(1 / alternatives * (1 + 1 / 9))
    out = defaultdict(float)
    for a, _b, p, _w in fa.arcs:
        assert 0 < p <= 1
        out[a] += p
    assert all(total == pytest.approx(1.0) for s, total in out.items() if s != fa.final)
    assert fa.final not in out  # nothing after the end


def test_the_shared_words_are_half_of_what_is_said_however_many_moves():
    """With the shared commands named, their phrases share `SHARED_SHARE` of the probability
    (each as likely as another), the game's phrases and templates the rest."""
    from companion.inputs.voice import fsg

    ps = PhraseSet.build(CONCRETE, GRAMMAR, "fr")
    fa = automaton(ps, {"help", "repeat", "no"})
    share = fsg.SHARED_SHARE
    assert share is not None
    shared = ["aide", "répète", "non"]
    past_filler = (1 - (fsg.FILLER or 0.0)) ** 2  # no filler before the phrase, none after
    assert sum(probability(fa, tokens_of(p)) for p in shared) == pytest.approx(share * past_filler)
    assert probability(fa, tokens_of("aide")) == pytest.approx(share / 3 * past_filler)
    game = (1 - share) / (2 + 3)  # two listed moves and three templates
    assert probability(fa, tokens_of("plateau de Zoé")) == pytest.approx(game / 3 * past_filler)
    # the probabilities raised to a language weight, as create_fsg is given them
    assert all(q == pytest.approx(p ** 6.5) for (*_a, p, _w), (_s, _d, q, *_rest) in zip(fa.arcs, fa.transitions(6.5), strict=True))


def test_speakers_and_the_wake_word():
    from companion.inputs.voice import fsg

    ps = PhraseSet.build(CONCRETE, GRAMMAR, "fr").with_speakers(["Paul", "Zoé"]).with_wake("compagnon")
    fa = automaton(ps)
    assert fa.accepts(tokens_of("compagnon Paul aide"))
    assert fa.accepts(tokens_of("compagnon aide"))
    assert fa.accepts(tokens_of("compagnon Zoé"))  # the name alone: the next utterance is hers
    assert fa.accepts(tokens_of("compagnon Zoé plateau de Chloé"))
    assert not fa.accepts(tokens_of("aide"))
    assert not fa.accepts(tokens_of("compagnon Chloé aide"))
    assert not fa.accepts(tokens_of("compagnon Paul Zoé aide"))
    # half the time no name is said; a name, or a name alone, share the other half
    plain = probability(fa, tokens_of("compagnon aide"))
    assert plain == pytest.approx(0.5 / (len(CONCRETE) + 3) * (1 - (fsg.FILLER or 0.0)) ** 2)
    assert probability(fa, tokens_of("compagnon Paul aide")) == probability(fa, tokens_of("compagnon Zoé aide")) < plain
    assert probability(fa, tokens_of("compagnon Paul")) == pytest.approx(0.125)


def test_a_line_ends_there_only_when_nothing_sayable_goes_on_from_it():
    # the listener ends an utterance sooner after such a line (`Listener.grammar_end_ms`)
    ps = PhraseSet.build(CONCRETE, GRAMMAR, "fr").with_speakers(["Paul", "Zoé"])
    ends = Ends(automaton(ps))
    assert ends.closed(tokens_of("aide"))
    assert ends.closed(tokens_of("Paul aide"))
    assert ends.closed(tokens_of("je demande le kigliss qui dort à Zoé"))  # a template's line, whole
    assert not ends.closed(tokens_of("Paul"))  # the name alone is a line, and « Paul, aide » goes on
    assert not ends.closed(tokens_of("je demande le kigliss"))  # not a line (yet)
    assert not ends.closed(tokens_of("je demande le kigliss à"))
    assert not ends.closed(tokens_of("plateau de"))
    assert not ends.closed(tokens_of("aide Paul"))  # not a line at all
    assert not ends.closed(tokens_of("bonjour"))  # a word the grammar has not
    assert not ends.closed([])
    # a listed phrase that another one continues: « non » alone, « non merci » beside it
    longer = PhraseSet.build([*CONCRETE, ("non merci", "no")], GRAMMAR, "fr")
    e2 = Ends(automaton(longer))
    assert not e2.closed(tokens_of("non")) and e2.closed(tokens_of("non merci"))


def test_the_line_ends_of_every_game_as_in_play():
    """In each game's state as played, the shared words end where they stand alone and the
    names, numbers and requests that may go on do not."""
    from companion.inputs.voice.recognizer import shared_commands

    for gid, lang, whole, going_on in [("kikoi", "en", ["undo", "help", "ask Bot 1 for Kimouss at home"],
                                        ["ask Bot 1 for", "ask Bot 1 for Kimouss", "Paul"]),
                                       ("goodfortune", "fr", ["aide", "j'avance la quatre"], ["j'avance la dix", "j'avance la", "Paul"]),
                                       ("kaliko", "en", ["repeat", "status"], ["exchange 1", "Paul"])]:
        game, ui, _bots = load(find(gid))
        match = Match(game, ["Paul", "Bot 1", "Bot 2"][:game.max_players], 3)
        ps = sayable_now(ui, match, 0, lang).with_speakers(["Paul", "Zoé"])
        ends = Ends(automaton(ps, shared_commands(lang)))
        for line in whole:
            assert ends.closed(tokens_of(line)), (gid, line)
        for line in going_on:
            assert not ends.closed(tokens_of(line)), (gid, line)


def test_what_a_chain_of_null_transitions_reaches_is_one_null_transition_away():
    """pocketsphinx follows one null transition after a word (`fsg.ONE_NULL_HOP`): in the arcs it
    is given (`Automaton.search`), every word a chain of null transitions leads to is one null
    transition away, at the likeliest chain's probability; the grammar's own arcs are unchanged.
    A template that begins with a slot, with speakers and a wake word, is four null transitions in."""
    from companion.inputs.voice import fsg

    grammar = dict(GRAMMAR, rules=[*GRAMMAR["rules"], {"template": "{player} a {token}", "command": "has"}])
    ps = PhraseSet.build(CONCRETE, grammar, "fr").with_speakers(["Paul", "Zoé"]).with_wake("compagnon")
    fa = automaton(ps)
    nulls = defaultdict(list)
    for a, b, p, w in fa.arcs:
        if w is None:
            nulls[a].append((b, p))

    def chains(s, p=1.0, hops=0):  # every state a chain from `s` reaches: (state, probability, hops)
        for b, q in nulls[s]:
            yield b, p * q, hops + 1
            yield from chains(b, p * q, hops + 1)

    search = fa.search()
    assert search[:len(fa.arcs)] == fa.transitions()
    one_hop = {(a, b): p for a, b, p, *w in search if not w}
    longest = 0
    for s in range(fa.n):
        best: dict[int, float] = {}
        for b, p, hops in chains(s):
            best[b] = max(best.get(b, 0.0), p)
            longest = max(longest, hops)
        for b, p in best.items():
            assert one_hop.get((s, b)) == pytest.approx(p), (s, b)
    assert longest >= 4
    # without it, the arcs given are the grammar's alone
    saved = fsg.ONE_NULL_HOP
    try:
        fsg.ONE_NULL_HOP = False
        assert fa.search() == fa.transitions()
    finally:
        fsg.ONE_NULL_HOP = saved


def test_nothing_sayable_is_refused():
    with pytest.raises(ValueError):
        automaton(PhraseSet.build([]))


def test_2kissa10s_whole_grammar_is_small():
    """The real 2kissa10 grammar (every listed move, and equations whose three numbers each
    take hundreds of values): tens of thousands of words in the JSGF text, a few thousand
    states here; every listed phrase, and sampled template sentences, are in it."""
    game, ui, bots = load(find("kissa"))
    match = Match(game, ["Chloé", "Bot"], 5)
    players = [bots["greedy"](game, seat, Rng(5).fork(seat + 1)) for seat in (0, 1)]
    for _ in range(6):  # a few tokens taken: equations of several digits are legal
        match.play(match.current, players[match.current].choose(match.state))
    ps = sayable_now(ui, match, match.current, "en")
    fa = automaton(ps)
    listed = [m.phrase for m in ps.phrases()]
    assert len(listed) > 1000
    jsgf_words = len(ps.jsgf().split())
    assert fa.n < jsgf_words / 5, (fa.n, jsgf_words)
    rnd = random.Random(1)
    for phrase in rnd.sample(listed, 200):
        assert fa.accepts(tokens_of(phrase)), phrase
    numbers = [v for _t, v in ps.slot_tokens["number"]]
    for _ in range(50):
        a, b, c = (rnd.choice(numbers) for _ in range(3))
        said = f"{a} {rnd.choice(['plus', 'times'])} {b} equals {c}"
        # each number in its place (the three were once all made the last one)
        assert fa.accepts(tokens_of(said)) and ps.resolve(tokens_of(said)).phrase == said, said
    assert not fa.accepts(tokens_of(f"{numbers[0]} plus {numbers[1]}"))
    total = math.fsum(p for a, _b, p, _w in fa.arcs if a == fa.start)
    assert total == pytest.approx(1.0)


def test_2kissa10s_legal_moves_listed_or_not_are_heard_as_themselves():
    """At the start 2kissa10 lists 2,000 of some 95,000 legal equations: the list is marked a
    sample, every legal move (listed or not) resolves to its own phrase, and the listed ones
    are no likelier than the others (they are left to the templates)."""
    game, ui, _bots = load(find("kissa"))
    match = Match(game, ["Chloé", "Bot"], 5)
    bots = load(find("kissa"))[2]
    players = [bots["greedy"](game, seat, Rng(5).fork(seat + 1)) for seat in (0, 1)]
    for _ in range(2):
        match.play(match.current, players[match.current].choose(match.state))
    ps = sayable_now(ui, match, match.current, "en")
    full = ui.phrases(match, match.current, "en", limit=10**6)
    moves = [p for p, c in full.concrete if c.startswith("action")]
    assert ps.sampled and not full.sampled and len(moves) > 2000
    for phrase in random.Random(2).sample(moves, 300):
        assert ps.resolve(tokens_of(phrase)).phrase == phrase
    sampled = automaton(ps)
    listed = automaton(PhraseSet.build(ps.concrete, {"rules": ps.rules, "slots": ps.slots}, "en"))
    assert sampled.n < listed.n / 3


def test_the_cmu_dictionary_is_read_in_place():
    """Looked up by halves in the sorted file: the same pronunciations, every variant in order,
    as reading the whole file gives."""
    whole = defaultdict(list)
    with open(cmudict_path(), encoding="utf-8") as fh:
        for line in fh:
            word, _, phones = line.strip().partition(" ")
            whole[word.split("(", 1)[0]].append(phones)
    rnd = random.Random(0)
    words = rnd.sample(sorted(whole), 500) + ["read", "a", "zoe", "a's", "zyuganov", "notaword", "chloe", ""]
    got = cmudict(words)
    assert got["read"] == ("R EH D", "R IY D")
    assert set(got) == {w for w in words if w in whole}
    assert all(got[w] == tuple(whole[w]) for w in got)
