"""The words every game shares (help, repeat, undo, status, quit, verbosity, speech rate).

Recognised in French and English, with short aliases, case and accents ignored. A game's
own commands are parsed only when a line is none of these.
"""

from __future__ import annotations

from companion.core.text import fold

GLOBAL: dict[str, tuple[str, ...]] = {
    "help": ("aide", "help", "h", "?", "a l aide", "que puis je faire", "what can i do", "commandes", "commands"),
    "repeat": ("repete", "repeter", "repeat", "r", "encore", "again", "pardon", "quoi", "what"),
    "undo": ("annule", "annuler", "undo", "u", "retour"),
    "status": ("etat", "status", "s", "ou en est on", "where are we", "score", "scores", "qui joue", "whose turn"),
    "quit": ("quitte", "quitter", "quit", "q", "exit", "sortir", "fin", "stop"),
    "yes": ("oui", "yes", "o", "y", "ok", "d accord", "confirme", "confirm", "vas y", "go"),
    "no": ("non", "no", "n", "annule pas", "cancel", "laisse tomber"),
    "terse": ("bref", "breve", "terse", "court", "mode bref", "verbosite breve"),
    "normal": ("normal", "mode normal", "verbosite normale"),
    "verbose": ("detaille", "verbose", "bavard", "mode detaille", "verbosite detaillee"),
    "faster": ("plus vite", "faster", "vite", "accelere"),
    "slower": ("moins vite", "slower", "lentement", "ralentis", "plus lent"),
    "louder": ("plus fort", "louder"),
    "quieter": ("moins fort", "quieter", "plus bas"),
    "history": ("historique", "history", "recap", "resume", "quoi de neuf", "what happened", "dernier", "last"),
    "rule": ("regle", "rule", "la regle", "the rule", "regles", "rules"),
    "autoplay": ("joue pour moi", "joue a ma place", "play for me", "auto"),
    "french": ("francais", "en francais", "french", "langue francaise"),
    "english": ("anglais", "en anglais", "english", "langue anglaise"),
}

_LOOKUP = {alias: name for name, aliases in GLOBAL.items() for alias in aliases}


def global_command(text: str) -> str | None:
    """The shared command `text` names, or None."""
    return _LOOKUP.get(fold(text))
