"""What players can say, as data, and the readers every game shares.

* `tables`: the phrase tables (`companion/language/<lang>/<name>.json`), per language, for the
  shared words (`shared.json`) and per game (`kikoi.json`, `goodfortune.json`...);
* `reading`: one number reader (digits and words), places in a list (« le deuxième », « le
  dernier »), yes/no/cancel, players by name or number, close-enough matching of names;
* `sayable`: what is sayable now (`Sayable`: a slot grammar and a concrete list).

This package imports only the pure core: the games and the session use it.
"""

from __future__ import annotations

from .reading import (
    LAST,
    close_match,
    find_players,
    is_ordinal,
    number_at,
    number_spans,
    number_word,
    numbers_in,
    ordinal,
    player_spans,
    read_number,
    strip_players,
    yes_no,
)
from .sayable import (
    LIMIT,
    Builder,
    Sayable,
    fill,
    pick,
    sample_covering,
    shared_command_of,
    shared_phrases,
    slots_of,
)
from .tables import TableError, cached, extra_dir, groups, languages, spoken, table, words

__all__ = [
    "LAST",
    "LIMIT",
    "Builder",
    "Sayable",
    "TableError",
    "cached",
    "close_match",
    "extra_dir",
    "fill",
    "find_players",
    "is_ordinal",
    "groups",
    "languages",
    "number_at",
    "number_spans",
    "number_word",
    "numbers_in",
    "ordinal",
    "player_spans",
    "pick",
    "read_number",
    "sample_covering",
    "shared_command_of",
    "shared_phrases",
    "slots_of",
        "spoken",
    "strip_players",
    "table",
    "words",
    "yes_no",
]
