"""What may be said now, as the recogniser needs it: words, a JSGF grammar, and the way back
from a recognised word sequence to exactly one listed phrase.

Input is the contract of `GameUI.phrases(match, seat)`: concrete (phrase, command) pairs
and/or a grammar of templates whose slots are finite lists of spoken strings::

    {"game": "kikoi", "lang": "fr",
     "rules": [{"template": "je demande {token} à {player}", "command": "action"}, ...],
     "slots": {"token": ["le kigliss qui dort", ...], "player": ["Paul", "Zoé"]}}

Words become grammar tokens by folding (lower case, no accents: « Zoé » is the token
``zoe``), with the original spelling kept for espeak-ng; digits are tokens of their own
(``A1`` is ``a 1``), pronounced as espeak-ng reads them.

With one microphone for the table, a player may name themselves first, as typed
(« Paul : mon plateau »): `speakers` lists the names that may come first (the human seats
without a microphone of their own), an optional prefix of every phrase; a name said alone
(« Paul… » then a pause the VAD cuts at) is a phrase too, whose command is `SPEAKER`.
`resolve` gives the listed phrase without the name and, in `Phrase.speaker`, who said it.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")
_SLOT = re.compile(r"\{(\w+)\}")
#: the command of a seat's name said alone: the next utterance is that player's
SPEAKER = "speaker"
#: the command of a line of the whole language that is no listed phrase (read by the grammar)
WHOLE = "said"
#: the command of an answer to the game's question waiting (`PhraseSet.replies`)
REPLY = "reply"


def fold_token(word: str) -> str:
    """``"Zoé"`` -> ``"zoe"``, ``"c’est"`` -> ``"c'est"``: the grammar's spelling of a word."""
    text = unicodedata.normalize("NFKD", word.replace("’", "'").lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("œ", "oe").replace("æ", "ae")


def words_of(text: str) -> list[tuple[str, str]]:
    """The spoken words of a phrase: (grammar token, spelling to pronounce) in order."""
    return [(fold_token(w), w) for w in _WORD.findall(text)]


def tokens_of(text: str) -> tuple[str, ...]:
    return tuple(t for t, _ in words_of(text))


@dataclass(frozen=True)
class Phrase:
    """A recognised phrase: exactly one listed phrase and its command (None: a template's
    line whose command is the rule's)."""

    phrase: str
    command: str | None
    #: the name the speaker said first (« Paul : mon plateau »), spelled as the seat's; None: unnamed
    speaker: str | None = None


@dataclass
class PhraseSet:
    """The phrases of one state, compiled: tokens -> phrase, the JSGF text, the vocabulary."""

    lang: str
    concrete: list[tuple[str, str | None]] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)
    slots: dict[str, list[str]] = field(default_factory=dict)
    #: a wake word every command must start with (noisy tables), e.g. "companion"; None: none
    wake: str | None = None
    #: names a player may say first to name themselves (one microphone for several players)
    speakers: list[str] = field(default_factory=list)
    #: the listed moves are a sample of the legal ones (`Sayable.sampled`): the others are
    #: said through the templates, and a listed one is no likelier than them (`fsg.automaton`)
    sampled: bool = False
    #: when `sampled`: every legal move's tokens, spaced (made when first asked: 2kissa10's
    #: 95,000 take 2 s), for the recogniser's second pass among the legal moves nearest what
    #: it heard
    every_move: Callable[[], Sequence[str]] | None = None
    #: the game's one grammar read on the listener's own replica of the match: a listed phrase
    #: (and the name of the player who said it, or None) -> its typed command, or None (a shared
    #: word, a game without a grammar). Issue 24: what is heard is posted as the command it is.
    read: Callable[[str, str | None], Any] | None = None
    #: the whole well-formed language of the game (issue 24 §3: `Grammar.language`), legal now
    #: or not: word sequences whose ``(name,)`` items are slots, and every value of each slot
    #: (spoken forms). Heard, such a line is read by the game's grammar as typed, so a request
    #: not allowed now is refused with its reason instead of forced onto the nearest legal move;
    #: the listed (legal) phrases stay beside it, likelier (`fsg.WHOLE_SHARE`)
    whole: list[tuple[str | tuple[str], ...]] = field(default_factory=list)
    whole_slots: dict[str, list[str]] = field(default_factory=dict)
    #: a listed move is weighed against the legal moves one slot away, every line as likely as
    #: another, and read back when it stands less than this far above the nearest (the game's
    #: phrases module's `LEGAL_RIVALS`: 2kissa10, whose moves are said through templates that
    #: weigh every cell alike; KIKOI, whose requests differ from others in one name; None: not
    #: weighed; `SphinxRecognizer._rival_margin`)
    legal_rivals: float | None = None
    #: the answers to the game's question waiting for this seat (2kissa10's « which
    #: reading? »: « choix 2 », « 7 en E2 », « peu importe »; `Ask.replies`), listed beside the
    #: game's phrases, that share of what is said (`fsg.REPLY_SHARE`); their command "reply"
    replies: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.by_tokens: dict[tuple[str, ...], Phrase] = {}
        self.spelling: dict[str, str] = {}
        self.wake_tokens = self._learn(self.wake) if self.wake else ()
        self.speaker_tokens: dict[tuple[str, ...], str] = {}
        for name in self.speakers:
            toks = self._learn(name)
            if toks:
                self.speaker_tokens.setdefault(toks, name)
        for phrase, command in self.concrete:
            toks = self._learn(phrase)
            if toks and toks not in self.by_tokens:
                self.by_tokens[toks] = Phrase(phrase, command)
        #: the replies' tokens (a reply that is also a listed phrase keeps that one's command)
        self.reply_tokens: set[tuple[str, ...]] = set()
        for phrase in self.replies:
            toks = self._learn(phrase)
            if toks:
                self.by_tokens.setdefault(toks, Phrase(phrase, REPLY))
                self.reply_tokens.add(toks)
        self._templates: list[tuple[re.Pattern[str], dict[str, Any], list[str]]] = []
        self.slot_tokens: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for name, values in self.slots.items():
            alts = []
            for v in values:
                toks = self._learn(v)
                if toks:
                    alts.append((toks, v))
            self.slot_tokens[name] = alts
        for rule in self.rules:
            pattern, names = self._template_regex(rule["template"])
            if pattern is not None:
                self._templates.append((pattern, rule, names))
        self.whole_tokens: dict[str, list[tuple[str, ...]]] = {
            name: [t for t in (self._learn(v) for v in values) if t] for name, values in self.whole_slots.items()}
        for seq in self.whole:
            for w in seq:
                if isinstance(w, str):
                    self.spelling.setdefault(w, w)
        self._whole_fa: Any = None
        #: the shared filler of this language (« euh », « s'il te plaît », "um", "please"), said
        #: before a phrase or after it (`fsg.FILLER`); empty when the recogniser does not hear it
        self.filler: list[tuple[str, ...]] = []
        from .fsg import FILLER

        if FILLER:
            self.filler = [t for t in (self._learn(f) for f in filler_of(self.lang)) if t]

    @classmethod
    def build(cls, concrete: Iterable[Sequence[Any]] = (), grammar: Mapping[str, Any] | None = None,
              lang: str | None = None, wake: str | None = None, speakers: Sequence[str] = (),
              sampled: bool = False, whole: tuple[list[tuple[str | tuple[str], ...]], dict[str, list[str]]] | None = None,
              replies: Iterable[str] = ()) -> PhraseSet:
        """From concrete pairs and/or the grammar dict (either may be empty), the whole
        language (`Grammar.language`'s sequences and slot values) and a question's replies."""
        g = dict(grammar or {})
        return cls(lang=lang or g.get("lang") or "en",
                   concrete=[(str(p[0]), (str(p[1]) if p[1] is not None else None)) for p in concrete],
                   rules=list(g.get("rules", [])), slots={k: list(v) for k, v in g.get("slots", {}).items()},
                   wake=wake, speakers=list(speakers), sampled=sampled,
                   whole=list(whole[0]) if whole else [], whole_slots=dict(whole[1]) if whole else {},
                   replies=[str(r) for r in replies])

    def _copy(self, wake: str | None, speakers: list[str]) -> PhraseSet:
        return PhraseSet(self.lang, self.concrete, self.rules, self.slots, wake, speakers, self.sampled,
                         self.every_move, self.read, self.whole, self.whole_slots, self.legal_rivals, self.replies)

    def _learn(self, text: str) -> tuple[str, ...]:
        pairs = words_of(text)
        for tok, spelling in pairs:
            self.spelling.setdefault(tok, spelling)
        return tuple(t for t, _ in pairs)

    def _template_regex(self, template: str) -> tuple[re.Pattern[str] | None, list[str]]:
        parts: list[str] = []
        names: list[str] = []
        pos = 0
        for m in _SLOT.finditer(template):
            parts.extend(re.escape(t) for t in self._learn(template[pos:m.start()]))
            name = m.group(1)
            alts = self.slot_tokens.get(name)
            if not alts:
                return None, []
            names.append(name)
            parts.append("(" + "|".join(re.escape(" ".join(t)) for t, _ in
                                        sorted(alts, key=lambda a: -len(a[0]))) + ")")
            pos = m.end()
        parts.extend(re.escape(t) for t in self._learn(template[pos:]))
        if not parts:
            return None, []
        return re.compile("^" + " ".join(parts) + "$"), names

    # ------------------------------------------------------------------ out
    @property
    def vocabulary(self) -> dict[str, str]:
        """token -> spelling, every word the grammar may produce."""
        return dict(self.spelling)

    def __len__(self) -> int:
        return len(self.by_tokens) + len(self._templates)

    def jsgf(self, name: str = "sayable") -> str:
        """The JSGF grammar: one public rule, an alternative per phrase or template."""
        alts = [" ".join(t) for t in self.by_tokens]
        slot_rules = []
        for _rx, rule, _names in self._templates:
            out: list[str] = []
            pos = 0
            template = rule["template"]
            for m in _SLOT.finditer(template):
                out.extend(tokens_of(template[pos:m.start()]))
                out.append(f"<slot_{_rule_name(m.group(1))}>")
                pos = m.end()
            out.extend(tokens_of(template[pos:]))
            alts.append(" ".join(out))
        used = {m.group(1) for _rx, rule, _n in self._templates for m in _SLOT.finditer(rule["template"])}
        for slot in sorted(used):
            vals = sorted({" ".join(t) for t, _ in self.slot_tokens[slot]})
            slot_rules.append(f"<slot_{_rule_name(slot)}> = " + " | ".join(f"( {v} )" for v in vals) + " ;")
        if not alts:
            raise ValueError("nothing sayable: no phrase and no template")
        body = " | ".join(f"( {a} )" for a in sorted(set(alts)))
        if self.whole:
            # the whole language beside the listed phrases (issue 24 §3); JSGF weights ("/w/")
            # make the listed ones likelier, as `fsg.WHOLE_SHARE` does in the automaton
            from .fsg import WHOLE_SHARE

            whole = " | ".join(f"( {' '.join(f'<whole_{_rule_name(w[0])}>' if isinstance(w, tuple) else w for w in seq)} )"
                               for seq in self.whole)
            body = f"/{1 - WHOLE_SHARE:g}/ ( {body} ) | /{WHOLE_SHARE:g}/ ( {whole} )"
            for slot, toks in sorted(self.whole_tokens.items()):
                vals = sorted({" ".join(t) for t in toks})
                slot_rules.append(f"<whole_{_rule_name(slot)}> = " + " | ".join(f"( {v} )" for v in vals) + " ;")
        if self.filler:
            body = f"[ <filler> ] [ <filler> ] ( {body} ) [ <filler> ]"
            slot_rules.append("<filler> = " + " | ".join(f"( {' '.join(f)} )" for f in self.filler) + " ;")
        if self.speaker_tokens:
            # « Paul mon plateau », or « Paul » alone (the VAD cut at the pause after the name)
            body = f"( [ <speaker> ] ( {body} ) ) | <speaker>"
            names = sorted({" ".join(t) for t in self.speaker_tokens})
            slot_rules.insert(0, "<speaker> = " + " | ".join(f"( {n} )" for n in names) + " ;")
        if self.wake_tokens:
            body = " ".join(self.wake_tokens) + f" ( {body} )"
        return "\n".join([f"#JSGF V1.0;\ngrammar {name};", f"public <{name}> = {body} ;", *slot_rules]) + "\n"

    def key(self) -> str:
        """Changes when what is sayable changes (the recogniser recompiles only then)."""
        return hashlib.sha1(self.jsgf().encode("utf-8")).hexdigest()

    def with_wake(self, wake: str | None) -> PhraseSet:
        """The same phrases, each to be said after `wake` (the line is still the phrase)."""
        return self._copy(wake, self.speakers)

    def with_speakers(self, names: Sequence[str]) -> PhraseSet:
        """The same phrases, each may follow one of `names` (the speaker naming themselves)."""
        return self._copy(self.wake, list(names))

    def sentences(self) -> list[str]:
        """Every concrete word sequence the grammar takes, the speakers' prefixes included
        (for a recogniser given a list of sentences, such as vosk)."""
        plain = [" ".join(t) for t in self.by_tokens]
        named = [f"{' '.join(n)} {p}" for n in self.speaker_tokens for p in plain] + [" ".join(n) for n in self.speaker_tokens]
        wake = " ".join(self.wake_tokens)
        return [f"{wake} {p}" if wake else p for p in plain + named]

    def resolve(self, words: str | Sequence[str]) -> Phrase | None:
        """The listed phrase these recognised words are, or None when they are none."""
        toks = tuple(words.split()) if isinstance(words, str) else tuple(words)
        toks = tuple(fold_token(t) for t in toks)
        if self.wake_tokens:
            if toks[: len(self.wake_tokens)] != self.wake_tokens:
                return None
            toks = toks[len(self.wake_tokens):]
        hit = self._resolve(toks)
        if hit is not None or not self.speaker_tokens:
            return hit
        for name_toks, name in self.speaker_tokens.items():
            if toks[: len(name_toks)] != name_toks:
                continue
            rest = toks[len(name_toks):]
            if not rest:
                return Phrase(name, SPEAKER, name)
            hit = self._resolve(rest)
            if hit is not None:
                return Phrase(hit.phrase, hit.command, name)
        return None

    def prefix_length(self, words: Sequence[str], match: Phrase) -> int:
        """How many of the recognised `words` came before `match`'s phrase: the wake word and
        the name the speaker said first (0 without them)."""
        toks = tuple(fold_token(t) for t in words)
        n = len(self.wake_tokens) if self.wake_tokens and toks[: len(self.wake_tokens)] == self.wake_tokens else 0
        if match.speaker is not None:
            for name_toks, name in self.speaker_tokens.items():
                if name == match.speaker and toks[n: n + len(name_toks)] == name_toks:
                    n += len(name_toks)
                    break
        if self.filler and self._resolve_plain(toks[n:]) is None:
            n += self.unfilled(toks[n:])[0]  # « euh » said first, as a name is
        return n

    def _resolve(self, toks: tuple[str, ...]) -> Phrase | None:
        hit = self._resolve_plain(toks)
        if hit is not None or not self.filler:
            return hit
        lead, bare = self.unfilled(toks)
        return self._resolve_plain(bare) if bare != toks else None

    def _resolve_plain(self, toks: tuple[str, ...]) -> Phrase | None:
        hit = self.by_tokens.get(toks)
        if hit is not None:
            return hit
        return self.templated(toks) or self.said(toks)

    def unfilled(self, toks: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
        """(how many filler tokens came first, the words without the (up to two) fillers said
        before them and the one said after): « euh aide s'il te plait » -> (1, aide)."""
        lead = 0
        found = True
        for _twice in range(2):
            if not found:
                break
            found = False
            for f in self.filler:
                if len(f) < len(toks) - lead and toks[lead:lead + len(f)] == f:
                    lead += len(f)
                    found = True
                    break
        bare = toks[lead:]
        for f in self.filler:
            if len(f) < len(bare) and bare[-len(f):] == f:
                bare = bare[:-len(f)]
                break
        return lead, bare

    def said(self, toks: tuple[str, ...]) -> Phrase | None:
        """These words as a line of the whole language (`whole`), spelled as said, or None. Its
        command is `WHOLE`: what it means is the game's grammar's reading of the line."""
        if not self.whole or not toks:
            return None
        if self._whole_fa is None:
            from .fsg import Automaton

            fa = Automaton()
            fa.words(self.whole, fa.start, fa.final, 1.0, self.whole_tokens)
            self._whole_fa = fa
        if not self._whole_fa.accepts(toks):
            return None
        return Phrase(" ".join(self.spelling.get(t, t) for t in toks), WHOLE)

    def templated(self, toks: tuple[str, ...]) -> Phrase | None:
        """The phrase a template makes of these words, or None when no template says them."""
        joined = " ".join(toks)
        for rx, rule, names in self._templates:
            m = rx.match(joined)
            if not m:
                continue
            # in order: a slot may come back (2kissa10's « {number} plus {number} equals
            # {number} »), each time with its own value
            values = [next(v for t, v in self.slot_tokens[name] if " ".join(t) == said)
                      for name, said in zip(names, m.groups(), strict=True)]
            return Phrase(_fill(rule["template"], values), rule.get("command"))
        return None

    def phrases(self) -> list[Phrase]:
        return list(self.by_tokens.values())

    def rivals(self, toks: Sequence[str]) -> list[tuple[str, ...]]:
        """The lines that differ from these words in one slot's value (another token, player,
        cell or number): the whole language's lines and the templates' (issue 24 §3). The
        recogniser decodes the same sound again among them to know whether what it heard as a
        legal move stands clear of another command (`SphinxRecognizer._rival_margin`)."""
        toks = tuple(fold_token(t) for t in toks)
        forms: list[tuple[Sequence[str | tuple[str]], Mapping[str, Sequence[tuple[str, ...]]]]] = [
            (seq, self.whole_tokens) for seq in self.whole]
        template_slots = {n: [t for t, _v in alts] for n, alts in self.slot_tokens.items()}
        forms += [(items, template_slots) for items in self.template_items()]
        out: dict[tuple[str, ...], None] = {}
        for items, slots in forms:
            for spans in _parses(items, toks, slots):
                for name, a, b in spans:
                    for value in slots.get(name, ()):
                        if value != toks[a:b]:
                            out.setdefault(toks[:a] + tuple(value) + toks[b:], None)
        out.pop(toks, None)
        return list(out)

    def template_items(self) -> list[tuple[str | tuple[str], ...]]:
        """Each template as word items, its slots as ``(name,)`` (as `fsg.automaton` compiles them)."""
        out: dict[tuple[str | tuple[str], ...], None] = {}
        for _rx, rule, _names in self._templates:
            parts: list[str | tuple[str]] = []
            pos = 0
            template = rule["template"]
            for m in _SLOT.finditer(template):
                parts.extend(tokens_of(template[pos:m.start()]))
                parts.append((m.group(1),))
                pos = m.end()
            parts.extend(tokens_of(template[pos:]))
            out[tuple(parts)] = None
        return list(out)


def _parses(items: Sequence[str | tuple[str]], toks: tuple[str, ...],
            slots: Mapping[str, Sequence[tuple[str, ...]]]) -> list[list[tuple[str, int, int]]]:
    """Every way `toks` is said by these items: for each, the slots' (name, start, end) spans."""
    literal = {w for w in items if isinstance(w, str)}
    if not literal <= set(toks):
        return []
    found: list[list[tuple[str, int, int]]] = []

    def walk(i: int, j: int, spans: list[tuple[str, int, int]]) -> None:
        if len(found) > 8:
            return
        if i == len(items):
            if j == len(toks):
                found.append(list(spans))
            return
        item = items[i]
        if isinstance(item, str):
            if j < len(toks) and toks[j] == item:
                walk(i + 1, j + 1, spans)
            return
        for value in slots.get(item[0], ()):
            if value and toks[j:j + len(value)] == tuple(value):
                spans.append((item[0], j, j + len(value)))
                walk(i + 1, j + len(value), spans)
                spans.pop()

    walk(0, 0, [])
    return found


def filler_of(lang: str) -> list[str]:
    """The shared filler of `lang` as spelled in its table (« s'il te plaît », "um")."""
    from companion.language.tables import table

    return [str(f) for f in table("shared", lang).get("filler", [])]


def _fill(template: str, values: Sequence[str]) -> str:
    """The template with its slots, in order, replaced by `values`."""
    said = iter(values)
    return _SLOT.sub(lambda _m: next(said), template)


def _rule_name(slot: str) -> str:
    return re.sub(r"\W", "_", slot)
