"""What is sayable now as a compact finite-state grammar, for pocketsphinx's FSG search.

The JSGF text of `PhraseSet.jsgf` says the same, but pocketsphinx compiles it by copying every
alternative and every slot reference into its own chain of states: 2kissa10's grammar (some
2,300 listed moves, and equations whose three numbers each take 900 values) became hundreds of
thousands of states, 31 s to compile and 600 MB (measured, docs/voice.md). Here each list of
word sequences — the listed phrases, each slot's values, the speakers' names — is a minimal
acyclic automaton: sequences share their common beginnings and their common endings, as in a
dictionary's DAWG. The language is the JSGF's, word for word; so are the priors: every
alternative of the top rule is as likely as the others (listed phrases, templates), a slot's
values are equally likely, whatever their length (each arc's probability is the share of the
sequences that go through it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .grammar import PhraseSet

#: the share of the shared words (help, repeat, status…) among what is said, whatever the
#: number of moves beside them; None: every phrase and template as likely as another, as in
#: the JSGF text, where 2kissa10's 2,000 listed equations made « help » 1 in 2,300 and it was
#: heard as a cell (« A2 »). Measured on 120 2kissa10, Good Fortune and KIKOI utterances
#: (bench/voice_accuracy.py's, half shared words, clean and at 10 dB): noisy shared words in
#: 2kissa10 16 against 14 of 20 right, nothing else changed, 2 against 3 of 48 sentences that
#: are no command taken.
SHARED_SHARE: float | None = 0.5

#: how many times likelier a listed phrase (a legal move now) is than any one line of the whole
#: well-formed language (`PhraseSet.whole`: every token, player, number of the game, legal now
#: or not). Each line of the whole language has the same weight, however many there are (the
#: automaton's arcs there are not normalised: spread over its 30,000 KIKOI lines as a share,
#: a legal move was 10^4 times likelier, and « Kiboss », held, was heard as « Kigliss », legal,
#: in 11 of 36 tries). Measured with bench/voice_whole_language.py (docs/voice.md).
WHOLE_ODDS = 3.0
#: the weight of the whole language in the JSGF text (`PhraseSet.jsgf`, for benchmarks)
WHOLE_SHARE = 0.3

#: the share of the answers to the game's question waiting (`PhraseSet.replies`: « choix 2 »,
#: « 7 en E2 », « peu importe »), whatever the number of moves beside them: just asked, the
#: player most likely answers; the rest keep their shares of what is left
REPLY_SHARE = 0.5

#: the shared filler (« euh », « s'il te plaît », "um", "please": the table's ``filler``) heard
#: before a phrase (up to two: states of their own, `_lead_into`) and after it (one), each
#: filler this likely; None: not heard (the decoder's own noise fillers take a hesitation).
#: Off (measured 2026-12-02, docs/voice.md « Filler »): at 0.05 the lines said with filler are
#: heard (« um, X » 9 -> 30 of 32 held-out, « X please » 22 -> 32) and plain ones as often, but
#: the grammar path's score per frame (the confidence's ``llr``) falls by about 3 on the same
#: sound: pocketsphinx scores against the best senone of those its search keeps active, and the
#: filler words keep more of them active. « end game » said right came out at 0.065, under the
#: listener's talk floor (0.08; 0.17 without), and the whole game by voice did not end.
#: To turn on with the grammar decoder scoring every senone (``compallsen``: the same llr with
#: or without the arcs, measured) and every confidence refitted on that.
FILLER: float | None = None
#: the plain path past the filler arcs keeps 1 - FILLER (a proper distribution) or 1
NORMALISE_FILLER = True
#: one filler after the phrase too
TRAILING_FILLER = True

#: the search graph given to pocketsphinx (`Automaton.search`) reaches in one null transition
#: what a chain of them reaches: pocketsphinx follows a single null transition after each word
#: and closes none of a grammar made by `create_fsg`, so a phrase that begins with a slot
#: (2kissa10's « 3 plus 4 égale 7 », entered start → speaker → body → line → slot: four null
#: transitions) could only be entered with a silence word between each two, and French
#: values-only equations were heard as « ligne 8 » or « état », which the same sound fits
#: worse (docs/voice.md, 2026-12-03)
ONE_NULL_HOP = True

#: where the listed moves are a sample (2kissa10), every line of the templates (the moves said
#: through them, legal or not) weighs what one listed phrase weighs, `WHOLE_ODDS` times what a
#: line of the whole language weighs, instead of a share of one alternative spread over its
#: slots' values (« 1 en F1 fois 9 en A4 égale 9 en H9 »: 1 in 349³ of a template's share):
#: with `ONE_NULL_HOP` the values-only equations of the whole language, flat, outweighed every
#: full-form move, and « 1 en F1 fois 9 en A4 égale 9 en H9 » was heard « 27 fois 914 egal 280 »
SAMPLED_FLAT = True

#: (from state, to state, probability, word); word None: an empty (null) transition
Arc = tuple[int, int, float, "str | None"]


@dataclass
class Automaton:
    """States 0..n-1, one start and one final state, weighted arcs."""

    start: int = 0
    final: int = 1
    n: int = 2
    arcs: list[Arc] = field(default_factory=list)

    def state(self) -> int:
        self.n += 1
        return self.n - 1

    def arc(self, src: int, dst: int, prob: float, word: str | None = None) -> None:
        self.arcs.append((src, dst, prob, word))

    def transitions(self, lw: float = 1.0) -> list[tuple[int, int, float] | tuple[int, int, float, str]]:
        """As `pocketsphinx.Decoder.create_fsg` takes them, each probability raised to the
        language weight `lw`: create_fsg takes the logarithm of what it is given as it is,
        where pocketsphinx's JSGF compile multiplies it by the decoder's `lw` (6.5)."""
        return [(a, b, p ** lw) if w is None else (a, b, p ** lw, w) for a, b, p, w in self.arcs]

    def search(self, lw: float = 1.0) -> list[tuple[int, int, float] | tuple[int, int, float, str]]:
        """The arcs pocketsphinx searches (`transitions`), with `ONE_NULL_HOP` the null
        closure's shortcuts beside them: the same best path, each way into a word one null
        transition long (the likeliest chain's probability, so Viterbi's choice is unchanged)."""
        extra = [(a, b, p ** lw) for a, b, p, _w in self.null_closure()] if ONE_NULL_HOP else []
        return [*self.transitions(lw), *extra]

    def null_closure(self) -> list[Arc]:
        """The null transitions a path of two or more of them makes, each from its first state
        to its last straight, at the likeliest such path's probability. pocketsphinx follows one
        null transition after each word (its own closure is not run on a grammar made by
        `create_fsg`): a second one had to wait for a silence word, so optional parts (the
        filler, a speaker's name) and phrases that begin with a slot cost the path a silence's
        penalty or were not entered at all. Given to pocketsphinx beside the arcs (`search`,
        `ONE_NULL_HOP`; measured 2026-12-03, docs/voice.md); with the filler on it had lowered
        the lines heard exactly in babble at 10 dB (bench/voice_accuracy.py --n 40: fitted
        15 -> 9 of 61, held-out 23 -> 12 of 99, 2026-12-02)."""
        nulls: dict[int, list[tuple[int, float]]] = {}
        for a, b, p, w in self.arcs:
            if w is None:
                nulls.setdefault(a, []).append((b, p))
        memo: dict[int, dict[int, tuple[float, int]]] = {}

        def reach(s: int, seen: frozenset[int]) -> dict[int, tuple[float, int]]:
            if s in memo:
                return memo[s]
            out: dict[int, tuple[float, int]] = {}
            for t, p in nulls.get(s, ()):
                if t in seen:  # a cycle of null transitions: not followed round
                    continue
                for u, (q, hops) in [(t, (1.0, 0)), *reach(t, seen | {t}).items()]:
                    if u not in out or p * q > out[u][0]:
                        out[u] = (p * q, hops + 1)
            memo[s] = out
            return out

        extra: list[Arc] = []
        for s in list(nulls):
            extra.extend((s, u, p, None) for u, (p, hops) in reach(s, frozenset({s})).items() if hops > 1)
        return extra

    def words(self, seqs: Iterable[Sequence[str | tuple[str]]], src: int, dst: int, prob: float = 1.0,
              slots: Mapping[str, Sequence[Sequence[str]]] | None = None, flat: bool = False) -> None:
        """Any one of `seqs` from `src` to `dst` (entered with `prob`), each equally likely,
        as a minimal acyclic automaton. An item ``(name,)`` is a slot: any one of
        ``slots[name]``, each equally likely (templates that differ in one word share the
        rest, so a long slot is copied once where it is the same future). `flat`: every
        sequence, its slots' values included, has the weight `prob` itself (not a share of it)."""
        root = _minimal(_trie(seqs))
        if root.count == 0:
            return
        ids: dict[int, int] = {}

        def sid(node: _Node) -> int:
            if id(node) not in ids:
                ids[id(node)] = self.state()
            return ids[id(node)]

        self.arc(src, sid(root), prob)
        done: set[int] = set()
        todo = [root]
        while todo:
            node = todo.pop()
            if id(node) in done:
                continue
            done.add(id(node))
            if node.final:
                self.arc(sid(node), dst, 1.0 if flat else 1.0 / node.count)
            for word, child in node.children.items():
                share = 1.0 if flat else child.count / node.count
                if isinstance(word, tuple):
                    assert slots is not None
                    self.words(slots[word[0]], sid(node), sid(child), share, flat=flat)
                else:
                    self.arc(sid(node), sid(child), share, word)
                todo.append(child)

    def accepts(self, words: Sequence[str]) -> bool:
        """Whether this word sequence goes from start to final (for tests and checks)."""
        return Ends(self).accepts(words)


class Ends:
    """Where a line of the automaton ends with nothing sayable after it: `closed(words)`, for
    the listener to end an utterance sooner (`Listener.grammar_end_ms`: « end game », heard
    whole, needs no more silence to be sure it is over; « Paul », « vingt », « ask Bot 2 for »
    may go on). The arcs are kept by state in numpy arrays (12 bytes an arc), not the automaton's
    tuples. `ignore`: words that are no continuation (the filler after a phrase, when heard)."""

    def __init__(self, fa: Automaton, ignore: Iterable[str] = ()) -> None:
        import numpy as np

        self.start, self.final = fa.start, fa.final
        self.ids: dict[str, int] = {}
        src = np.fromiter((a for a, _b, _p, _w in fa.arcs), np.int32, len(fa.arcs))
        dst = np.fromiter((b for _a, b, _p, _w in fa.arcs), np.int32, len(fa.arcs))
        word = np.fromiter((-1 if w is None else self.ids.setdefault(w, len(self.ids)) for _a, _b, _p, w in fa.arcs),
                           np.int32, len(fa.arcs))
        order = np.argsort(src, kind="stable")
        self.dst, self.word = dst[order], word[order]
        self.offsets = np.searchsorted(src[order], np.arange(fa.n + 1)).astype(np.int32)
        skip = [self.ids[w] for w in ignore if w in self.ids]
        going_on = (word >= 0) & ~np.isin(word, skip)
        self.goes_on = np.zeros(fa.n, bool)
        self.goes_on[src[going_on]] = True

    def _next(self, states: set[int], wid: int) -> set[int]:
        out: set[int] = set()
        for s in states:
            lo, hi = self.offsets[s], self.offsets[s + 1]
            out.update(self.dst[lo:hi][self.word[lo:hi] == wid].tolist())
        return out

    def _closure(self, states: set[int]) -> set[int]:
        out, todo = set(states), list(states)
        while todo:
            for t in self._next({todo.pop()}, -1):
                if t not in out:
                    out.add(t)
                    todo.append(t)
        return out

    def reached(self, words: Sequence[str]) -> set[int]:
        """The states `words` lead to from the start (none: the automaton has not them)."""
        here = self._closure({self.start})
        for w in words:
            wid = self.ids.get(w)
            if wid is None:
                return set()
            here = self._closure(self._next(here, wid))
            if not here:
                return here
        return here

    def accepts(self, words: Sequence[str]) -> bool:
        """`words` go from the start to the end."""
        return self.final in self.reached(words)

    def closed(self, words: Sequence[str]) -> bool:
        """`words` go from the start to the end, and from where they lead no word goes on."""
        here = self.reached(words)
        return self.final in here and not any(self.goes_on[s] for s in here)


class _Node:
    __slots__ = ("children", "count", "final")

    def __init__(self) -> None:
        self.final = False
        self.children: dict[str | tuple[str], _Node] = {}
        self.count = 0


def _trie(seqs: Iterable[Sequence[str | tuple[str]]]) -> _Node:
    root = _Node()
    for seq in seqs:
        node = root
        for word in seq:
            node = node.children.setdefault(word, _Node())
        node.final = True
    return root


def _minimal(root: _Node) -> _Node:
    """Merge the nodes whose futures are the same (bottom-up, by signature): the minimal
    automaton of the trie's sequences. Counts (sequences from a node on) are set."""
    register: dict[tuple[object, ...], _Node] = {}
    order: list[_Node] = []
    todo = [(root, False)]
    while todo:  # post-order without recursion: phrases may be long
        node, seen = todo.pop()
        if seen:
            order.append(node)
            continue
        todo.append((node, True))
        todo.extend((c, False) for c in node.children.values())
    for node in order:
        node.children = {w: register[_signature(c)] for w, c in sorted(node.children.items(), key=lambda wc: repr(wc[0]))}
        node.count = int(node.final) + sum(c.count for c in node.children.values())
        register.setdefault(_signature(node), node)
    return register[_signature(root)]


def _signature(node: _Node) -> tuple[object, ...]:
    return (node.final, tuple((w, id(c)) for w, c in node.children.items()))


def _is_move(ps: PhraseSet, toks: tuple[str, ...]) -> bool:
    command = ps.by_tokens[toks].command
    return command is not None and command.startswith("action")


def automaton(ps: PhraseSet, shared_commands: frozenset[str] | set[str] = frozenset()) -> Automaton:
    """The phrase set's grammar: [wake] ( [speaker] ( phrase | template… ) | speaker ).
    With `SHARED_SHARE`, the phrases whose command is one of `shared_commands` (help, repeat,
    status…) are said that share of the time, whatever the number of moves beside them."""

    fa = Automaton()
    here = fa.start
    if ps.wake_tokens:
        after = fa.state()
        fa.words([ps.wake_tokens], here, after)
        here = after
    body, end = fa.state(), fa.final
    if ps.speaker_tokens:
        named, alone = fa.state(), fa.state()
        fa.arc(here, named, 0.5)
        fa.words(ps.speaker_tokens, here, alone, 0.5)
        fa.arc(alone, end, 0.5)  # « Paul » alone: the VAD cut at the pause after the name
        fa.arc(alone, body, 0.5)
        fa.arc(named, body, 1.0)
    else:
        fa.arc(here, body, 1.0)
    lead: list[int] = []
    if FILLER and ps.filler:
        # « euh, s'il te plaît, aide merci »: up to two fillers before the phrase, one after
        # (no cycle: a plain phrase keeps its probability, and the automaton stays acyclic).
        # The fillers lead to states of their own, `lead`, that get a copy of the phrases' first
        # words (`_lead_into`, once the phrases are there): the plain path has no null
        # transition more than without filler (the old optional arcs' one made pocketsphinx
        # split the leading silence in two: `Automaton.null_closure`)
        one, two = fa.state(), fa.state()
        lead = [one, two]
        if TRAILING_FILLER:
            end = fa.state()
            fa.arc(end, fa.final, 1.0 - FILLER if NORMALISE_FILLER else 1.0)
            fa.words(ps.filler, end, fa.final, FILLER)
    templates = dict.fromkeys(ps.template_items())  # each template's words, its slots as (name,)
    concrete = [t for t in ps.by_tokens if t]
    if ps.sampled:
        # the listed moves are a sample (2kissa10 lists 2,000 of 95,000 legal equations at the
        # start): listed, they were 10^9 times likelier than the other legal moves, said through
        # the templates, so a player's move was heard as a listed one. They are said through the
        # templates alone, as likely as any other move (and 9,500 word arcs fewer).
        concrete = [t for t in concrete if not _is_move(ps, t) or ps.templated(t) is None]
    alternatives = len(concrete) + len(templates)
    if not alternatives:
        raise ValueError("nothing sayable: no phrase and no template")
    replies = [t for t in concrete if t in ps.reply_tokens]
    if replies and len(replies) < alternatives:
        concrete = [t for t in concrete if t not in ps.reply_tokens]
        alternatives -= len(replies)
        others = 1.0 - REPLY_SHARE
    else:
        replies, others = [], 1.0
    shared = [t for t in concrete if ps.by_tokens[t].command in shared_commands]
    if SHARED_SHARE is None or not shared or len(shared) == alternatives:
        shared_share = 0.0
        groups = [(concrete, [], len(concrete) / alternatives), ([], list(templates), len(templates) / alternatives)]
    else:
        shared_share = SHARED_SHARE
        game = [t for t in concrete if ps.by_tokens[t].command not in shared_commands]
        rest = len(game) + len(templates)
        groups = [(shared, [], SHARED_SHARE), (game, [], (1 - SHARED_SHARE) * len(game) / rest),
                  ([], list(templates), (1 - SHARED_SHARE) * len(templates) / rest)]
    groups = [(p, r, share * others) for p, r, share in groups] + ([(replies, [], REPLY_SHARE)] if replies else [])
    slots: dict[str, list[tuple[str, ...]]] = {name: [t for t, _v in alts] for name, alts in ps.slot_tokens.items()}
    # what one listed phrase of the game weighs (the shared words apart)
    line = (1 - shared_share) * others / max(1, alternatives - (len(shared) if shared_share else 0))
    if ps.whole:
        # issue 24 §3: what is said is heard as said, legal or not; a listed phrase (legal
        # now) `WHOLE_ODDS` times likelier than one line of the whole language
        whole = [tuple((f"whole:{w[0]}",) if isinstance(w, tuple) else w for w in seq) for seq in ps.whole]
        slots.update({f"whole:{n}": v for n, v in ps.whole_tokens.items()})
        fa.words(whole, body, end, line / WHOLE_ODDS, slots, flat=True)
    flat_rules = bool(ps.sampled and SAMPLED_FLAT)
    # the legal moves of a sample are said through the templates alone (`SAMPLED_FLAT`)
    for phrases, rules, share in groups:
        if phrases:
            fa.words(phrases, body, end, share)
        if rules:
            fa.words(rules, body, end, line if flat_rules else share, slots, flat=flat_rules)
    if lead:
        _lead_into(fa, body, lead)
        _filler_chain(fa, ps.filler, body, lead[0], FILLER or 0.0)
        _filler_chain(fa, ps.filler, lead[0], lead[1], FILLER or 0.0)
    return fa


def _filler_chain(fa: Automaton, filler: Sequence[Sequence[str]], src: int, dst: int, prob: float) -> None:
    """Any one filler from `src` to `dst` by word transitions alone (a null one would wait for
    a silence word: `Automaton.null_closure`)."""
    for f in filler:
        here = src
        for k, word in enumerate(f):
            nxt = dst if k == len(f) - 1 else fa.state()
            fa.arc(here, nxt, prob / len(filler) if k == 0 else 1.0, word)
            here = nxt


def _lead_into(fa: Automaton, body: int, lead: list[int]) -> None:
    """Each of the `lead` states (after a filler said first) goes on as `body` does: a copy of
    every word transition that leaves `body` or a state its null transitions reach, at the
    probability of the way there (the rest of each phrase is shared)."""
    closure = {t: p for s, t, p, w in fa.null_closure() if s == body}
    closure.update({t: p for s, t, p, w in fa.arcs if s == body and w is None and p > closure.get(t, 0.0)})
    closure[body] = 1.0
    first = [(b, closure[a] * p, w) for a, b, p, w in fa.arcs if w is not None and a in closure]
    # a proper distribution (NORMALISE_FILLER): a filler said is FILLER of what leaves the
    # states before the second filler, the plain way the rest (the JSGF text's weights)
    keep = 1.0 - FILLER if FILLER and NORMALISE_FILLER else 1.0
    fa.arcs[:] = [(a, b, p * keep, w) if a == body else (a, b, p, w) for a, b, p, w in fa.arcs]
    for k, state in enumerate(lead):
        fa.arcs.extend((state, b, p * (keep if k < len(lead) - 1 else 1.0), w) for b, p, w in first)
