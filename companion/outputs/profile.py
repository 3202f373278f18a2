"""A player's speech profile: rate, volume, voice, language and verbosity, kept in a JSON file.

Default place: `$XDG_CONFIG_HOME/companion/profiles/<name>.json`, or
`~/.config/companion/profiles/<name>.json` when XDG_CONFIG_HOME is not set.
A missing file gives the defaults; a damaged file gives the defaults too, with `problem`
saying what was wrong (the session says it), and is only overwritten by the next change.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion import paths
from companion.narration import Verbosity

from .speech import DEFAULT_RATE, clamp_rate

VERBOSITIES = ("terse", "normal", "verbose")


def profiles_dir() -> Path:
    return paths.config_dir() / "profiles"


def _safe_name(name: str) -> str:
    cleaned = re.sub(r"[^\w.-]+", "_", name.strip(), flags=re.UNICODE).strip("._")
    return cleaned or "default"


@dataclass
class Profile:
    name: str = "default"
    rate: int = DEFAULT_RATE  # words per minute, 80 to 450
    volume: int = 100  # 0 to 100
    voice: str | None = None  # engine voice name for `language` (e.g. "fr-be"); None: default
    language: str = "fr"
    verbosity: str = "normal"
    path: Path | None = field(default=None, compare=False, repr=False)
    problem: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.rate = clamp_rate(self.rate)
        self.volume = max(0, min(100, int(self.volume)))
        if self.verbosity not in VERBOSITIES:
            self.verbosity = "normal"
        if self.language not in ("fr", "en"):
            self.language = "fr"
        if self.voice is not None:
            self.voice = str(self.voice).strip() or None

    @property
    def verbosity_level(self) -> Verbosity:
        return Verbosity[self.verbosity.upper()]

    @verbosity_level.setter
    def verbosity_level(self, level: Verbosity) -> None:
        self.verbosity = Verbosity(level).name.lower()

    @staticmethod
    def default_path(name: str) -> Path:
        return profiles_dir() / f"{_safe_name(name)}.json"

    @classmethod
    def for_player(cls, name: str) -> Profile:
        """The profile of the player `name`, from its default place."""
        prof = cls.load(cls.default_path(name))
        prof.name = name
        return prof

    @classmethod
    def load(cls, path: Path | str) -> Profile:
        path = Path(path)
        stem = path.stem
        if not path.exists():
            return cls(name=stem, path=path)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object")
            known = {f.name for f in fields(cls)} - {"path", "problem"}
            values: dict[str, Any] = {k: v for k, v in raw.items() if k in known}
            values.setdefault("name", stem)
            prof = cls(**values)
        except (OSError, ValueError, TypeError) as exc:
            prof = cls(name=stem)
            prof.problem = f"{path}: {exc}"
        prof.path = path
        return prof

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path", None)
        data.pop("problem", None)
        return data

    def save(self) -> None:
        """Write the file (atomically); a profile without a path is kept in memory only."""
        if self.path is None:
            return
        from companion.saves.files import write_text_atomic

        write_text_atomic(self.path, json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n")
        self.problem = None
