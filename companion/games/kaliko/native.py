"""The Kaliko play finder compiled by mypyc (issue 26), and the guard that it is never stale.

`./run setup` calls `native.main(["build"])`: paths.py and finder.py
are joined into one top-level module whose name holds the sha256 of the sources it was built
from (finder.py, paths.py, and the scoring.py and tiles.py they call), and mypyc compiles it
into `_native/` beside this file. At import, finder.py asks `load()` for the module of the
sources as they are now: a finder edited since the build finds no module of its name and the
pure Python finder runs (`STATUS` says why; bench/kaliko_best.py prints it). A machine
without a C compiler or Python's headers builds nothing and plays with the pure finder.
`COMPANION_PURE=1` in the environment keeps the pure finder (the tests compare both).

The compiled module is the same source, so the same walk: same plays, same node counts (the
bots' work budget), only faster.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
OUT = HERE / "_native"
SOURCES = ("paths.py", "finder.py")  # joined in this order (finder imports paths)
JUDGES = ("scoring.py", "tiles.py")  # called from the compiled code: part of its name too
RECIPE = 1  # bump when `joined` changes what it writes
TWIN = "# --- the compiled twin (native.py); not compiled itself ---"
STATUS = "pure Python (not loaded yet)"


def digest() -> str:
    """The name of the compiled module for the sources as they are now."""
    h = hashlib.sha256(f"recipe {RECIPE} {sys.implementation.cache_tag}\n".encode())
    for name in SOURCES + JUDGES:
        h.update(name.encode() + b"\0" + (HERE / name).read_bytes() + b"\0")
    return "kaliko_native_" + h.hexdigest()[:20]


def joined() -> str:
    """paths.py then finder.py as one module: relative imports made absolute, finder's
    import of paths and its twin-loading tail dropped (one module: no mypyc shared lib)."""
    out = ["from __future__ import annotations\n"]
    for name in SOURCES:
        text = (HERE / name).read_text(encoding="utf-8").split(TWIN)[0]
        text = text.replace("from __future__ import annotations\n", "")
        text = re.sub(r"^from \.paths import .*$", "", text, flags=re.M)
        text = re.sub(r"^(\s*)from \.(\w+) import", r"\1from companion.games.kaliko.\2 import", text, flags=re.M)
        out.append(text)
    return "\n".join(out)


def load() -> ModuleType | None:
    """The compiled finder built from exactly these sources, or None (and `STATUS` why)."""
    global STATUS
    if os.environ.get("COMPANION_PURE", "0") not in ("", "0"):
        STATUS = "pure Python (COMPANION_PURE is set)"
        return None
    try:
        name = digest()
    except OSError as err:
        STATUS = f"pure Python (sources unreadable: {err})"
        return None
    path = OUT / (name + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    if not path.exists():
        STATUS = "pure Python (no compiled finder for these sources: ./run setup builds it)"
        return None
    if getattr(sys.modules.get(name), "__file__", None) == str(path):
        STATUS = f"compiled by mypyc ({path.name})"
        return sys.modules[name]
    try:
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loader.exec_module(module)
    except Exception as err:  # a damaged build: the pure finder is the same search
        sys.modules.pop(name, None)
        STATUS = f"pure Python (the compiled finder did not load: {type(err).__name__})"
        return None
    STATUS = f"compiled by mypyc ({path.name})"
    return module


def pure_copy() -> ModuleType:
    """finder.py run as pure Python under another name (its functions see its own classes)."""
    name = "companion.games.kaliko.finder_pure"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / "finder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def build(out: Path = OUT) -> str | None:
    """Compile the finder for the sources as they are now into `out`; None when done (or
    already there), else the one sentence saying why not. Older builds are removed."""
    name = digest()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = out / (name + suffix)
    if target.exists():
        return None
    cc = sysconfig.get_config_var("CC") or "cc"
    if shutil.which(cc.split()[0]) is None:
        return f"no C compiler ({cc.split()[0]}): the Kaliko finder stays pure Python"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers in {include} (python3-dev): the Kaliko finder stays pure Python"
    repo = HERE.parent.parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / f"{name}.py").write_text(joined(), encoding="utf-8")
        env = dict(os.environ, MYPYPATH=str(repo))
        done = subprocess.run([sys.executable, "-m", "mypyc", "--ignore-missing-imports",
                               "--follow-imports=silent", f"{name}.py"], cwd=tmp, env=env,
                              capture_output=True, text=True)
        built = Path(tmp) / (name + suffix)
        if done.returncode != 0 or not built.exists():
            last = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
            return f"mypyc could not build the Kaliko finder ({last[0][:200]}): it stays pure Python"
        out.mkdir(exist_ok=True)
        for old in out.glob("kaliko_native_*" + suffix):  # this Python's older builds only: another
            old.unlink()                                   # venv's beside them stay
        shutil.copy(built, out / (name + ".tmp"))
        os.replace(out / (name + ".tmp"), target)  # never a half-written module under its name
    return None


def main(argv: list[str]) -> int:
    if argv[:1] != ["build"]:
        print("usage: native.main([\"build\"])", file=sys.stderr)
        return 2
    there = (OUT / (digest() + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))).exists()
    why = build()
    if why is not None:
        print(why, file=sys.stderr)
        return 1
    if not there:  # a second ./run setup says nothing
        print(f"Kaliko finder compiled: {OUT / digest()}", file=sys.stderr)
    return 0

