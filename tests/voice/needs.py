"""The real parts voice tests need: espeak-ng (to make speech) and pocketsphinx.

On a user's machine without them the tests skip; under CI=true they fail instead."""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest


def need_voice() -> None:
    missing = [name for name, ok in (("espeak-ng", shutil.which("espeak-ng") is not None),
                                     ("pocketsphinx", importlib.util.find_spec("pocketsphinx") is not None),
                                     ("webrtcvad", importlib.util.find_spec("webrtcvad") is not None)) if not ok]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"missing under CI: {', '.join(missing)} (./run setup installs them)")
        pytest.skip(f"needs {', '.join(missing)}")
