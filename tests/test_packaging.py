"""The package metadata has ranges, requirements.lock the exact versions ./run setup installs,
and the optional extras are all installed by ./run setup; a command needing a missing extra
says so in one sentence (issue #23, step 5)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = PROJECT["optional-dependencies"]


def lock() -> dict[str, Version]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version)
    return pins


def requirements() -> list[Requirement]:
    return [Requirement(r) for r in PROJECT["dependencies"] + [r for rs in EXTRAS.values() for r in rs]
            if canonicalize_name(Requirement(r).name) != "companion"]


def test_the_metadata_has_ranges_and_the_lock_pins_each_inside_its_range() -> None:
    pins = lock()
    for req in requirements():
        assert not any(s.operator == "==" for s in req.specifier), f"{req}: a range in pyproject.toml, the pin in the lock"
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not pinned in requirements.lock (./run lock)"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req.name}=={pins[name]} is outside {req}"
    assert "cobs" in {canonicalize_name(Requirement(r).name) for r in EXTRAS["dev"]}  # only the tests use it


def test_setup_installs_every_extra_at_the_locked_versions() -> None:
    everything = Requirement(EXTRAS["all"][0])
    assert canonicalize_name(everything.name) == "companion"
    assert everything.extras == set(EXTRAS) - {"all", "dev"}  # a new extra joins `all`
    run = (ROOT / "run").read_text(encoding="utf-8")
    assert re.search(r'pip install --quiet -c "\$LOCK" -e "\.\[all,dev\]"', run)
    assert '"$LOCK"' in run.split("want=$(cat", 1)[1].split("\n", 1)[0]  # a new lock re-installs
    for name, version in lock().items():  # this environment is the lock's
        assert Version(metadata.version(name)) == version, name


BLOCK = """
import sys, importlib.abc
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] == sys.argv[1]:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Missing())
from companion.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_missing_extra_is_one_sentence(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path), "COMPANION_SPEECH": "none",
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    r = subprocess.run([sys.executable, "-c", BLOCK, "aiohttp", "serve", "--port", "0", "--lang", "en"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1] == ('The package aiohttp of the companion\'s “web” extra is missing: '
                                                 'run ./run setup, or pip install "companion[web]".')
