"""Unicode braille for the label's braille line, through liblouis where it is installed.

liblouis is optional (Debian: `liblouis-bin`, `python3-louis`). The Python binding is used
when importable (also from Debian's dist-packages, which a virtualenv does not see), else the
`lou_translate` program; without either, `to_braille` returns None and the label prints a
note instead. Braille printed in ink is not tactile: it needs an embosser or swell paper.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from functools import lru_cache
from typing import Any

#: liblouis tables: Unicode braille output, French computer braille / English UEB grade 1
TABLES = {
    "fr": "unicode.dis,fr-bfu-comp6.utb",
    "en": "unicode.dis,en-ueb-g1.ctb",
}
#: the same tables with North American Braille ASCII output, for embossers (.brf files)
BRF_TABLES = {
    "fr": "en-us-brf.dis,fr-bfu-comp6.utb",
    "en": "en-us-brf.dis,en-ueb-g1.ctb",
}
DEBIAN_BINDING = "/usr/lib/python3/dist-packages/louis/__init__.py"


@lru_cache(maxsize=1)
def _binding() -> Any:
    try:
        import louis  # type: ignore[import-not-found]

        return louis
    except Exception:  # noqa: BLE001 - any failure means "not usable"
        pass
    try:
        spec = importlib.util.spec_from_file_location("louis", DEBIAN_BINDING)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules.setdefault("louis", module)
        return module
    except Exception:  # noqa: BLE001
        return None


def backend() -> str | None:
    """"python" (the liblouis binding), "lou_translate", or None when liblouis is absent."""
    if _binding() is not None:
        return "python"
    if shutil.which("lou_translate"):
        return "lou_translate"
    return None


def to_braille(text: str, lang: str) -> str | None:
    """`text` in Unicode braille (U+2800 block) for `lang`, or None without liblouis."""
    out = _translate(text, TABLES.get(lang, TABLES["en"]))
    return out if out and all(0x2800 <= ord(c) <= 0x28FF for c in out) else None


def to_brf(text: str, lang: str) -> str | None:
    """`text` in Braille ASCII (what embossers print, one cell per character), or None."""
    out = _translate(text, BRF_TABLES.get(lang, BRF_TABLES["en"]))
    return out if out and all(32 <= ord(c) < 96 for c in out) else None


def _translate(text: str, tables: str) -> str | None:
    louis = _binding()
    if louis is not None:
        try:
            return str(louis.translateString(tables.split(","), text))
        except Exception:  # noqa: BLE001 - fall through to the program
            pass
    exe = shutil.which("lou_translate")
    if exe is None:
        return None
    try:
        proc = subprocess.run(
            [exe, "--forward", tables], input=text, capture_output=True, text=True,
            timeout=10, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.rstrip("\n") or None
