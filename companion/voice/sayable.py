"""What may be said now, from the game: `sayable_now(ui, match, seat, lang)`.

When the game's UI has `phrases(match, seat)` (the `companion phrases` contract) its concrete
(phrase, command) pairs and its grammar are used as they are. Until every game has it, a
fallback lists the shared words and, for each legal action of the seat, one spoken form,
kept only when the game's own parser, given that phrase as a typed line in this state,
understands it with that action's command (so a recognised phrase always means what the
list says it means).
"""

from __future__ import annotations

import inspect
from typing import Any

from companion.games.base import Act, Ask, Confirm, action_command

from .grammar import PhraseSet

# One spoken form per shared command (the first is what `companion phrases` would list).
SHARED: dict[str, dict[str, str]] = {
    "en": {"help": "help", "repeat": "repeat", "status": "status", "undo": "undo", "yes": "yes", "no": "no",
           "quit": "quit", "history": "history", "rule": "rule", "autoplay": "play for me"},
    "fr": {"help": "aide", "repeat": "répète", "status": "état", "undo": "annule", "yes": "oui", "no": "non",
           "quit": "quitte", "history": "historique", "rule": "règle", "autoplay": "joue pour moi"},
}

NUMBERS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize "
          "dix-sept dix-huit dix-neuf".split(),
}
TENS = {"en": ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"],
        "fr": ["", "", "vingt", "trente", "quarante", "cinquante", "soixante", "soixante", "quatre-vingt", "quatre-vingt"]}


def number_words(n: int, lang: str) -> str:
    """0..999 in words (« vingt-neuf », "twenty nine"): recognisers hear words, not digits."""
    if n < 20:
        return NUMBERS[lang][n]
    if n >= 100:
        h, rest = divmod(n, 100)
        if lang == "fr":
            head = "cent" if h == 1 else f"{NUMBERS['fr'][h]} cent"
        else:
            head = f"{NUMBERS['en'][h]} hundred"
        return head if rest == 0 else f"{head} {number_words(rest, lang)}"
    t, u = divmod(n, 10)
    if lang == "fr" and t in (7, 9):
        return f"{TENS['fr'][t]}-{'et-' if n == 71 else ''}{NUMBERS['fr'][10 + u]}"
    if u == 0:
        return TENS[lang][t] + ("s" if lang == "fr" and t == 8 else "")
    sep = "-et-" if lang == "fr" and u == 1 and t < 8 else ("-" if lang == "fr" else " ")
    return f"{TENS[lang][t]}{sep}{NUMBERS[lang][u]}"


def sayable_now(ui: Any, match: Any, seat: int, lang: str, *, limit: int = 400) -> PhraseSet:
    """The phrases `seat` may say now. Uses `ui.phrases` when the game has it."""
    phrases = getattr(ui, "phrases", None)
    if callable(phrases):
        params = inspect.signature(phrases).parameters
        got = phrases(match, seat, lang=lang) if "lang" in params else phrases(match, seat)
        concrete = getattr(got, "concrete", None)
        grammar = getattr(got, "grammar", None)
        if concrete is None and isinstance(got, dict):
            concrete, grammar = got.get("concrete", []), got.get("grammar")
        return PhraseSet.build(concrete or [], grammar, lang)
    return PhraseSet.build(fallback_phrases(ui, match, seat, lang, limit=limit), None, lang)


def fallback_phrases(ui: Any, match: Any, seat: int, lang: str, *, limit: int = 400) -> list[tuple[str, str]]:
    """Shared words + one checked spoken form per legal action (at most `limit`, spread)."""
    out = [(text, cmd) for cmd, text in SHARED[lang].items()]
    game = match.game
    legal = match.legal(seat) if not match.over and match.current == seat else []
    seen: set[str] = set()
    tried = 0
    for action in legal:  # 2kissa10 lists tens of thousands, best first: stop early
        tried += 1
        if tried > limit * 20:
            break
        for text in _candidates(game.name, action, match, lang):
            if text in seen:
                continue
            intent = ui.parse(text, match, seat)
            cmd = action_command(game, action)
            if isinstance(intent, (Act, Confirm)) and action_command(game, intent.action) == cmd:
                seen.add(text)
                out.append((text, cmd))
                break
            if isinstance(intent, Ask) and game.name == "kissa":
                seen.add(text)
                out.append((text, "ask"))  # one equation, several places: the game asks which
                break
        if len(out) >= limit + len(SHARED[lang]):
            break
    return out


def _candidates(game: str, action: Any, match: Any, lang: str) -> list[str]:
    """Spoken forms to try for one action (the game's parser decides which ones it takes)."""
    players = list(match.players)
    if game == "kissa" and hasattr(action, "op") and hasattr(action, "c"):
        board = match.state.board

        def value(cells: Any) -> int:
            v = 0
            for c in cells:
                v = v * 10 + board[c]
            return v

        a, b, c = value(action.a), value(action.b), value(action.c)
        if max(a, b, c) > 999:
            return []  # long numbers are listed by the phrases module's grammar, not here
        plus = action.op == "+"
        op = ("plus" if plus else "fois") if lang == "fr" else ("plus" if plus else "times")
        eq = "égale" if lang == "fr" else "equals"
        return [f"{number_words(a, lang)} {op} {number_words(b, lang)} {eq} {number_words(c, lang)}"]
    js = match.game.action_to_json(action)
    if game == "kikoi" and "ask" in js:
        kikoi, _, moment = str(js["token"]).partition("-")
        moment_fr = {"house": "maison", "eat": "mange", "bike": "vélo", "forest": "forêt", "sleep": "dort"}
        who = players[js["ask"]]
        if lang == "fr":
            return [f"je demande {kikoi} {moment_fr.get(moment, moment)} à {who}".replace("  ", " "),
                    f"je demande {kikoi} à {who}"]
        return [f"ask {who} for {kikoi} {moment}".replace("  ", " "), f"ask {who} for {kikoi}"]
    if game == "goodfortune":
        if "push" in js:
            n = int(js["push"])
            return [f"pousse {number_words(n, lang)}" if lang == "fr" else f"push {number_words(n, lang)}"]
        if "place" in js or "end" in js:
            end = js.get("end") or js.get("place")
            word = {"left": "gauche", "right": "droite"}.get(str(end), str(end)) if lang == "fr" else str(end)
            return [word, f"{'pose à' if lang == 'fr' else 'place'} {word}"]
        if js.get("declare") or "declare" in js:
            return ["je déclare", "déclare"] if lang == "fr" else ["declare"]
    if game == "kaliko":
        if js.get("pass"):
            return ["passe" if lang == "fr" else "pass"]
        if "exchange" in js:
            hand = None
            if len(js["exchange"]) >= 5:
                hand = "échange tout" if lang == "fr" else "exchange all"
            return [hand] if hand else []
    if game == "kissa":
        if js.get("type") == "start":
            return ["commencer" if lang == "fr" else "start"]
        if js.get("type") == "declare":
            return ["pas de solution" if lang == "fr" else "no solution"]
    return []
