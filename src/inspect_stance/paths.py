"""Resolving file paths given as task parameters.

``inspect eval tasks/x.py -T file=REL`` builds the task with the working directory set to the
task file's folder, so a relative path typed at the shell would be looked up under ``tasks/``.
:func:`user_path` looks a relative path up in the current directory first, then in the shell's
directory (``$PWD``, which ``os.chdir`` does not change), and returns the first that exists.
"""

from __future__ import annotations

import os
from pathlib import Path

HUB = "hub"


def user_path(value: str | Path) -> str:
    """``value`` resolved as described in the module docstring ("hub" is returned as is).

    A path found nowhere is returned unchanged, so the caller's "no such file" error names it
    as the user typed it.
    """
    text = str(value)
    if text == HUB:
        return text
    path = Path(text).expanduser()
    if path.is_absolute() or path.exists():
        return str(path)
    shell_dir = os.environ.get("PWD")
    if shell_dir:
        candidate = Path(shell_dir) / path
        if candidate.exists():
            return str(candidate)
    return text
