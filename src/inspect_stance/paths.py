"""Resolving file paths given as task parameters.

``inspect eval tasks/x.py -T file=REL`` builds the task with the working directory set to the
task file's folder, so a relative path typed at the shell would be looked up under ``tasks/``.
:func:`user_path` looks a relative path up in the current directory first, then in the shell's
directory (``$PWD``, which ``os.chdir`` does not change), and returns the first that exists.
"""

from __future__ import annotations

import os
from pathlib import Path

from inspect_stance.errors import InputError

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


def check_out_dir(value: str | Path, flag: str = "--out") -> Path:
    """An output folder a command may create and write into, checked before any work: not an
    existing file, no file among its parents (``--out FILE/sub``), and the nearest existing
    folder above it writable. A one-line :class:`~inspect_stance.errors.InputError` naming the
    path otherwise; the folder itself is created by the writer."""

    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise InputError(
            f"{flag} {path}: is an existing file; give a folder (it is created if missing)"
        )
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(
                    f"{flag} {path}: {parent} is a file, not a folder; give another path"
                )
            if not os.access(parent, os.W_OK | os.X_OK) or not _can_create_in(parent):
                raise InputError(f"{flag} {path}: folder {parent} is not writable")
            break
    if path.is_dir() and (not os.access(path, os.W_OK | os.X_OK) or not _can_create_in(path)):
        raise InputError(f"{flag} {path}: folder is not writable; give another --out")
    return path


def _can_create_in(folder: Path) -> bool:
    """Whether a folder can be created in ``folder`` (one is made and removed): ``os.access``
    alone answers yes for root where nothing can be created (``/proc``, a read-only mount)."""
    import tempfile

    try:
        os.rmdir(tempfile.mkdtemp(prefix=".write-check-", dir=folder))
    except OSError:
        return False
    return True


def check_out_file(value: str | Path, flag: str) -> Path:
    """An output file path: not a folder, in a folder that exists and is writable; a one-line
    :class:`~inspect_stance.errors.InputError` naming the path otherwise."""

    path = Path(value).expanduser()
    if path.is_dir():
        raise InputError(f"{flag} {path}: is a folder; give a file path such as {path}/table.csv")
    parent = path.parent
    if not parent.is_dir():
        what = "is a file, not a folder" if parent.exists() else "does not exist"
        raise InputError(f"{flag} {path}: folder {parent} {what}; create it or give another path")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {path}: folder {parent} is not writable")
    return path
