"""The user's folders, found in one place, on platformdirs (issue #23).

platformdirs honours `XDG_DATA_HOME`, `XDG_CONFIG_HOME`, `XDG_STATE_HOME` and
`XDG_RUNTIME_DIR` on Linux, and gives `~/.local/share`, `~/.config`, `~/.local/state` when
they are not set — the folders the companion used before it asked platformdirs. Nothing is
created here: each caller makes the folder it writes, with the mode it needs (the runtime
folder's safety checks stay in `companion.inputs.terminal.runtime_folder`).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import platformdirs

APP = "companion"


def data_dir() -> Path:
    """Saves, paired tokens, voice models, the default deck: `$XDG_DATA_HOME/companion`."""
    return Path(platformdirs.user_data_dir(APP, ensure_exists=False))


def config_dir() -> Path:
    """Speech profiles, rule-reading positions: `$XDG_CONFIG_HOME/companion`."""
    return Path(platformdirs.user_config_dir(APP, ensure_exists=False))


def state_dir() -> Path:
    """What a run leaves behind for the next, the logs: `$XDG_STATE_HOME/companion`."""
    return Path(platformdirs.user_state_dir(APP, ensure_exists=False))


def log_dir() -> Path:
    """The logs: `log` in the state folder on Linux (platformdirs' `user_log_dir`)."""
    return Path(platformdirs.user_log_dir(APP, ensure_exists=False))


def cache_dir() -> Path:
    """`$XDG_CACHE_HOME/companion`: the sockets' folder when the runtime folder is unsafe."""
    return Path(platformdirs.user_cache_dir(APP, ensure_exists=False))


def runtime_dir() -> Path:
    """`companion` in `$XDG_RUNTIME_DIR`; without it, platformdirs' fallback
    (/tmp/runtime-<uid>), whose warning is silenced here: the caller checks the folder.
    Raises OSError (with `filename`) when platformdirs refuses another user's fallback."""
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR (SSH, containers)
        warnings.simplefilter("ignore")
        return Path(platformdirs.user_runtime_dir(APP, ensure_exists=False))


__all__ = ["APP", "cache_dir", "config_dir", "data_dir", "log_dir", "runtime_dir", "state_dir"]
