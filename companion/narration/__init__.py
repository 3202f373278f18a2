"""Speech as data, rendered to text in the listener's language at the last moment."""

from .catalog import LANGUAGES, Catalog, MissingMessage, catalog, spell
from .message import (
    Msg,
    Part,
    Pause,
    Priority,
    Raw,
    Spell,
    Utterance,
    Verbosity,
    say,
    secret,
    stand_in,
)

__all__ = [
    "LANGUAGES",
    "Catalog",
    "MissingMessage",
    "Msg",
    "Part",
    "Pause",
    "Priority",
    "Raw",
    "Spell",
    "Utterance",
    "Verbosity",
    "catalog",
    "say",
    "secret",
    "spell",
    "stand_in",
]
