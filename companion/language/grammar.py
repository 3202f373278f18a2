"""One grammar per game, read both ways: lines into typed commands, and back into words.

A game's reading rules are data, in its phrase tables (`<lang>/<game>.json`, key ``"read"``):
an object from a command's kind to its patterns, in the order they are tried (the first kind
that reads a line wins)::

    "read": {"where": ["<where> {number}", "<question> {number}"],
             "push":  ["<push>? {tile}"]}

A pattern is words separated by spaces:

* ``word`` a word (folded: case and accents ignored), ``a|b`` one of several words;
* ``<group>`` any phrase of the game's word group (``"words"`` of the same table: « main de
  Fatma », « jeu de tuiles »...), every language at once;
* ``{slot}`` a value read by the slot's `Reader` (a number in digits or words, a player by
  name or close spelling, a name of the game's lists such as a charm or an end);
* any of them followed by ``?``: optional; ``+``: one or more (a slot's values then a tuple);
  ``*``: none or more.

Filler costs nothing: the words of the shared ``"filler"`` list (« euh », « s'il te plaît »,
"please", « aurais-tu l'obligeance de »...) and of the game's ``filler`` group may come
anywhere between the pattern's words. `Grammar.read` gives every reading of the first kind that
reads the line: one (a command), several (an ambiguity: the caller asks which), or none. The
same patterns compile to the recogniser's word sequences (`sequences`), so what is heard is
what is read. Free forms the patterns cannot hold (2kissa10's « 10 + 29 = 39 ») are a game's
notation readers, which return the same commands.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.core.text import fold

from .reading import close_match, number_at, player_spans
from .tables import cached, groups, languages, table, words

#: what a slot reader may look at besides the words: the match's players, the seat speaking
Context = Mapping[str, Any]


class Reader(Protocol):
    """Reads a slot's value from the words at `i`: every (end, value) it can take."""

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]: ...


class Sayable(Protocol):
    """A slot reader that can list its values for the recogniser (issue 24 §3): the canonical
    spoken forms it reads, in `lang` (what the companion says: a player hears it and says it
    back), every one of the game's, legal now or not."""

    def values(self, ctx: Context, lang: str) -> list[str]: ...


#: the most numbers a `Number` slot lists for the recogniser when its range is not bounded
MAX_SAID_NUMBERS = 1000


@dataclass(frozen=True)
class Number:
    """A whole number from `lo` to `hi`, in digits or words (« vingt et un », "21")."""

    lo: int = 0
    hi: int = 10**9
    #: the numbers the recogniser hears (a game's tiles: 1..90); None: `lo`..`hi`, or
    #: `ctx["numbers"]` (a state's own, such as the numbers on a 2kissa10 board)
    said: tuple[int, int] | None = None

    def values(self, ctx: Context, lang: str) -> list[str]:
        """Digits: the recogniser's lexicon says them in `lang` (« 21 » is « vingt et un »)."""
        if "numbers" in ctx:
            return [str(n) for n in ctx["numbers"] if self.lo <= n <= self.hi]
        lo, hi = self.said or (self.lo, self.hi)
        return [str(n) for n in range(lo, hi + 1)] if hi - lo < MAX_SAID_NUMBERS else []

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        value, used = number_at(tokens, i)
        if used and self.lo <= value <= self.hi:
            yield i + used, value


@dataclass(frozen=True)
class Names:
    """One of a table's named values (an object of value -> phrases, every language: a
    charm, an end), said exactly or, for a word of five letters or more, closely spelt."""

    game: str
    key: str

    def values(self, ctx: Context, lang: str) -> list[str]:
        """Every value's canonical phrase (the first), as written in `lang`'s table."""
        from .tables import spoken

        return [str(ps[0] if isinstance(ps, list) else ps) for ps in spoken(self.game, self.key, lang).values() if ps]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        found = False
        for value, phrases in groups(self.game, self.key).items():
            for p in phrases:
                ws = p.split()
                if list(tokens[i:i + len(ws)]) == ws:
                    found = True
                    yield i + len(ws), value
        if not found and i < len(tokens) and len(tokens[i]) >= 5:
            single = _singles(self.game, self.key)
            got = close_match(tokens[i], list(single), cutoff=85)
            if got is not None:
                yield i + 1, single[got]


@cached
def _singles(game: str, key: str) -> dict[str, str]:
    return {p: v for v, ps in groups(game, key).items() for p in ps if " " not in p}


@dataclass(frozen=True)
class Player:
    """A player by name, « joueur 2 » or a close spelling (`ctx["players"]`); `ctx["known"]`
    lists the game's own words, never taken for a misspelt name."""

    def values(self, ctx: Context, lang: str) -> list[str]:
        return [str(n) for n in ctx.get("players", ())]

    def spans(self, tokens: Sequence[str], i: int, ctx: Context) -> Iterable[tuple[int, Any]]:
        players = ctx.get("players", ())
        seen = set()
        for a, b, seat in player_spans(" ".join(tokens[i:]), players, ctx.get("known", ())):
            if a == 0:
                seen.add((i + b, seat))
                yield i + b, seat
        for seat, name in enumerate(players):  # « Bot 2 » said « bot two »
            end = _name_with_numbers(fold(name).split(), tokens, i)
            if end is not None and (end, seat) not in seen:
                yield end, seat


def _name_with_numbers(name: Sequence[str], tokens: Sequence[str], i: int) -> int | None:
    """Where a name whose words hold a number ends when said from `i` with it in words."""
    if not any(w.isdecimal() for w in name):
        return None
    j = i
    for w in name:
        if w.isdecimal():
            value, used = number_at(tokens, j)
            if not used or value != int(w):
                return None
            j += used
        elif j < len(tokens) and tokens[j] == w:
            j += 1
        else:
            return None
    return j


# --- patterns --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Part:
    """One element of a pattern: `words` (alternative word sequences) or a `slot`."""

    words: tuple[tuple[str, ...], ...] = ()
    slot: str | None = None
    optional: bool = False
    repeat: bool = False
    group: str | None = None  # the word group it came from (« <push> »), for compiling


def parse_pattern(pattern: str, game: str, lang: str | None = None) -> tuple[Part, ...]:
    """``"<push>? {tile}"`` -> its parts (words folded, groups looked up in every language, or
    in `lang`'s table first: the recogniser hears one language)."""
    out = []
    for item in pattern.split():
        optional = item[-1] in "?*"
        repeat = item[-1] in "+*"
        item = item.rstrip("?*+")
        if item.startswith("{") and item.endswith("}"):
            out.append(Part(slot=item[1:-1], optional=optional, repeat=repeat))
        elif item.startswith("<") and item.endswith(">"):
            name = item[1:-1]
            phrases = (groups(game, "words", lang).get(name) if lang else None) or groups(game, "words").get(name)
            if not phrases:
                raise ValueError(f"{game}: no word group {name!r} in pattern {pattern!r}")
            out.append(Part(tuple(tuple(p.split()) for p in phrases), optional=optional, repeat=repeat, group=name))
        else:
            alts = tuple(tuple(fold(a).split()) for a in item.split("|"))
            out.append(Part(alts, optional=optional, repeat=repeat))
    return tuple(out)


@dataclass(frozen=True)
class Rule:
    kind: str
    pattern: str
    parts: tuple[Part, ...]
    #: for each word part the line cannot do without, its alternatives as word sets: a line
    #: lacking every alternative of one of them cannot read as this rule (tried before matching)
    needs: tuple[tuple[frozenset[str], ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        needs = tuple(tuple(frozenset(alt) for alt in p.words) for p in self.parts
                      if p.slot is None and not p.optional and p.words)
        object.__setattr__(self, "needs", needs)

    def may_read(self, words: frozenset[str]) -> bool:
        """Whether a line of these words could read as this rule (never False when it can)."""
        return all(any(alt <= words for alt in alts) for alts in self.needs)


@dataclass(frozen=True)
class Reading:
    """One way a line reads: the rule's kind and the slots' values."""

    kind: str
    values: tuple[tuple[str, Any], ...]

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.values).get(name, default)


@dataclass
class Grammar:
    """A game's reading rules (every language), its slot readers and its filler."""

    game: str
    rules: list[Rule]
    readers: dict[str, Reader]
    filler: tuple[tuple[str, ...], ...] = ()
    #: template key -> kind: the canonical templates read as patterns too (`build`)
    templates: Mapping[str, str] = field(default_factory=dict)
    _by_kind: dict[str, list[Rule]] | None = field(default=None, repr=False)
    _filler_index: dict[str, list[tuple[str, ...]]] | None = field(default=None, repr=False)

    def read(self, text: str, ctx: Context | None = None) -> list[Reading]:
        """Every reading of the first kind (in the rules' order) that reads all of `text`'s
        words, filler aside, with the fewest words skipped as filler and the most slots read;
        [] when none does. Reading changes nothing."""
        tokens = tuple(fold(text).split())
        if not tokens:
            return []
        ctx = ctx or {}
        present = frozenset(tokens)
        for kind, rules in self._kinds().items():
            found: dict[tuple[tuple[str, Any], ...], int] = {}
            for rule in rules:
                if not rule.may_read(present):
                    continue
                for values, skipped in self._match(rule.parts, tokens, ctx):
                    found[values] = min(skipped, found.get(values, skipped))
            if found:
                # the fewest words taken as filler, then the most slots read: a word read as
                # meaning beats the same word skipped (« ma » is both filler and « mine »)
                best = min((n, -len(v)) for v, n in found.items())
                return [Reading(kind, v) for v, n in found.items() if (n, -len(v)) == best]
        return []

    def kinds(self) -> list[str]:
        return list(dict.fromkeys(r.kind for r in self.rules))

    def _kinds(self) -> dict[str, list[Rule]]:
        if self._by_kind is None:
            self._by_kind = {}
            for rule in self.rules:
                self._by_kind.setdefault(rule.kind, []).append(rule)
        return self._by_kind

    def _filler_at(self) -> dict[str, list[tuple[str, ...]]]:
        if self._filler_index is None:
            self._filler_index = {}
            for f in self.filler:
                self._filler_index.setdefault(f[0], []).append(f)
        return self._filler_index

    def _skips(self, tokens: Sequence[str], j: int) -> list[tuple[int, int]]:
        """Where the words may go on from `j` past any filler, with the filler words skipped
        ((j, 0) first)."""
        out, todo = {j: 0}, [j]
        index = self._filler_at()
        while todo:
            k = todo.pop()
            for f in index.get(tokens[k], ()) if k < len(tokens) else ():
                if tuple(tokens[k:k + len(f)]) == f and k + len(f) not in out:
                    out[k + len(f)] = out[k] + len(f)
                    todo.append(k + len(f))
        return list(out.items())

    def _match(self, parts: Sequence[Part], tokens: Sequence[str], ctx: Context) -> list[tuple[tuple[tuple[str, Any], ...], int]]:
        """Every way `parts` read all of `tokens`: (slot values, words skipped as filler)."""
        results: list[tuple[tuple[tuple[str, Any], ...], int]] = []
        memo: set[tuple[int, int, tuple[tuple[str, Any], ...], tuple[Any, ...] | None, int]] = set()

        def go(k: int, j: int, values: tuple[tuple[str, Any], ...], reps: tuple[Any, ...] | None, n: int) -> None:
            # `reps`: the values read so far by the repeated slot `parts[k]` (None: not begun);
            # `n`: the words skipped as filler so far
            for j2, skipped in self._skips(tokens, j):
                n2 = n + skipped
                key = (k, j2, values, reps, n2)
                if key in memo:
                    continue
                memo.add(key)
                if k == len(parts):
                    if j2 == len(tokens):
                        results.append((values, n2))
                    continue
                part = parts[k]
                if part.optional and reps is None:
                    go(k + 1, j2, values, None, n2)
                if part.slot is not None:
                    reader = self.readers[part.slot]
                    for end, value in reader.spans(tokens, j2, ctx):
                        if end <= j2:
                            continue
                        if part.repeat:
                            got = (*(reps or ()), value)
                            go(k, end, values, got, n2)
                            go(k + 1, end, (*values, (part.slot, got)), None, n2)
                        else:
                            go(k + 1, end, (*values, (part.slot, value)), None, n2)
                else:
                    for alt in part.words:
                        if tuple(tokens[j2:j2 + len(alt)]) == alt:
                            if part.repeat:
                                go(k, j2 + len(alt), values, (), n2)
                            go(k + 1, j2 + len(alt), values, None, n2)

        go(0, 0, (), None, 0)
        return results

    # --- the other way: the recogniser's word sequences --------------------------------------
    def sequences(self, kind: str | None = None, rules: Sequence[Rule] | None = None) -> list[tuple[str | tuple[str], ...]]:
        """The rules' word sequences for `fsg.Automaton.words`, slots as ``(name,)`` items
        (their values given apart): what the recogniser may hear is what `read` reads,
        filler aside (a repeated part is said once)."""
        out: dict[tuple[str | tuple[str], ...], None] = {}
        for rule in self.rules if rules is None else rules:
            if kind is not None and rule.kind != kind:
                continue
            choices: list[list[tuple[str | tuple[str], ...]]] = []
            for part in rule.parts:
                alts: list[tuple[str | tuple[str], ...]] = [((part.slot,),)] if part.slot else list(part.words)
                if part.optional:
                    alts = [(), *alts]
                choices.append(alts)
            for combo in itertools.product(*choices):
                seq = tuple(w for piece in combo for w in piece)
                if seq:
                    out[seq] = None
        return list(out)

    def rules_of(self, lang: str) -> list[Rule]:
        """The rules of one language's table (its ``"read"`` patterns and read templates), its
        word groups of that language: what a recogniser of `lang` compiles."""
        own = table(self.game, lang)
        patterns: dict[str, list[str]] = {}
        for kind, ps in own.get("read", {}).items():
            for p in [ps] if isinstance(ps, str) else ps:
                patterns.setdefault(kind, []).append(p)
        for key, kind in self.templates.items():
            p = own.get("templates", {}).get(key)
            if isinstance(p, str) and p not in patterns.setdefault(kind, []):
                patterns[kind].append(p)
        return [Rule(kind, p, parse_pattern(p, self.game, lang)) for kind, ps in patterns.items() for p in ps]

    def language(self, lang: str, ctx: Context, kinds: Iterable[str] | None = None,
                 ) -> tuple[list[tuple[str | tuple[str], ...]], dict[str, list[str]]]:
        """The whole well-formed language of `lang` for the recogniser (issue 24 §3): every
        rule's word sequences, slots as ``(name,)`` items, and every value of each slot
        (`Sayable.values`: every token, player, number in range...), legal now or not. A rule
        whose slot cannot list its values is left out (it is still read when typed). `kinds`:
        only these kinds' rules (a game heard whole in part)."""
        rules = self.rules_of(lang)
        if kinds is not None:
            wanted = set(kinds)
            rules = [r for r in rules if r.kind in wanted]
        values: dict[str, list[str]] = {}
        keep = []
        for rule in rules:
            slots = {p.slot for p in rule.parts if p.slot is not None}
            for name in slots - set(values):
                lister = getattr(self.readers[name], "values", None)
                values[name] = list(dict.fromkeys(lister(ctx, lang))) if callable(lister) else []
            if all(values[n] for n in slots):
                keep.append(rule)
        seqs = self.sequences(rules=keep)
        used = {w[0] for seq in seqs for w in seq if isinstance(w, tuple)}
        return seqs, {n: v for n, v in values.items() if n in used}


@cached
def shared_filler() -> tuple[tuple[str, ...], ...]:
    """The shared filler of every language, longest first (« s'il te plaît », "please")."""
    return tuple(sorted({tuple(p.split()) for p in words("shared", "filler")}, key=len, reverse=True))


def strip_filler(text: str) -> str:
    """The folded line without its shared filler (« euh aide » -> « aide »)."""
    tokens = fold(text).split()
    out: list[str] = []
    i = 0
    fill = shared_filler()
    while i < len(tokens):
        for f in fill:
            if tuple(tokens[i:i + len(f)]) == f:
                i += len(f)
                break
        else:
            out.append(tokens[i])
            i += 1
    return " ".join(out)


def build(game: str, readers: Mapping[str, Reader], templates: Mapping[str, str] | None = None) -> Grammar:
    """The grammar of `game` from its tables' ``"read"`` patterns, every language (the first
    language's order of kinds, the others' patterns after), with its and the shared filler.
    `templates` (template key -> kind): the canonical ``"templates"`` that are read as
    patterns too, so that a language of tables only (« mi petas {token} de {player} ») is
    read as it is listed."""
    by_kind: dict[str, list[str]] = {}
    for lang in languages():
        for kind, patterns in table(game, lang).get("read", {}).items():
            for p in [patterns] if isinstance(patterns, str) else patterns:
                if p not in by_kind.setdefault(kind, []):
                    by_kind[kind].append(p)
    for lang in languages():
        own = table(game, lang).get("templates", {})
        for key, kind in (templates or {}).items():
            p = own.get(key)
            if isinstance(p, str) and p not in by_kind.setdefault(kind, []):
                by_kind[kind].append(p)
    rules = [Rule(kind, p, parse_pattern(p, game)) for kind, ps in by_kind.items() for p in ps]
    for rule in rules:
        for part in rule.parts:
            if part.slot is not None and part.slot not in readers:
                raise ValueError(f"{game}: pattern {rule.pattern!r} has no reader for {{{part.slot}}}")
    own = tuple(tuple(p.split()) for p in groups(game, "words").get("filler", ()))
    filler = tuple(sorted(set(own) | set(shared_filler()), key=len, reverse=True))
    return Grammar(game, rules, dict(readers), filler, dict(templates or {}))


def grammar_of(game: str, readers: Callable[[], Mapping[str, Reader]],
               templates: Mapping[str, str] | None = None) -> Callable[[], Grammar]:
    """A memoised builder of the game's grammar (rebuilt when the tables' folders change)."""

    @cached
    def made() -> Grammar:
        return build(game, readers(), templates)

    return made
