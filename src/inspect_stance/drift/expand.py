"""The stance-drift runs named by a command's inputs (files and folders)."""

from __future__ import annotations

from pathlib import Path

from inspect_stance.drift.inputs import RUN_WHAT
from inspect_stance.errors import InputError
from inspect_stance.logfile import (
    LOG_SUFFIXES,
    drop_repeated_runs,
    find_task_logs,
    repeated_line,
    unreadable_text,
)


def expand_inputs(paths: list[str]) -> tuple[list[Path], str]:
    """The runs named by ``paths``, in order: ``.npz`` files, and ``stance_drift`` logs found
    with :func:`inspect_stance.logfile.find_task_logs` (a folder may hold other tasks' logs:
    they are skipped and counted); a folder's ``.npz`` files are taken too. The same run given
    twice (a copy of a log: the same eval id; an ``.npz`` of the same content) is kept once
    (:func:`inspect_stance.logfile.drop_repeated_runs`). Returns the run paths and the line
    saying what was skipped or counted once (empty when nothing was). ``InputError`` when a
    named file is not a run or nothing is found."""

    runs: list[Path] = []
    repeated: list[tuple[Path, Path]] = []
    other = 0
    unreadable: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.suffix == ".npz" and not p.is_dir():
            if not p.is_file():
                raise InputError(f"{p}: file not found; pass a stance_drift log or an .npz")
            runs.append(p)
            continue
        if p.is_file() and p.suffix not in LOG_SUFFIXES:
            raise InputError(
                f"{p}: unknown input type; give a stance_drift log (.eval/.json), an .npz or a "
                "folder of them"
            )
        npz = sorted(x for x in p.rglob("*.npz") if x.is_file()) if p.is_dir() else []
        has_logs = not p.is_dir() or any(x.suffix in LOG_SUFFIXES for x in p.rglob("*"))
        found = None
        if has_logs:
            try:
                found = find_task_logs([p], ["stance_drift"], RUN_WHAT)
            except InputError as ex:
                if not (p.is_dir() and npz):  # a folder of .npz files and other tasks' logs
                    raise InputError(str(ex)) from ex
        if found is not None:
            runs += found.paths
            repeated += found.repeated
            other += len(found.skipped_other_task)
            unreadable += found.skipped_unreadable
        elif p.is_dir() and not npz:
            raise InputError(f"no log of a {RUN_WHAT} (or .npz) found in {p}")
        runs += npz
    runs, across = drop_repeated_runs(runs)
    parts = []
    if other:
        parts.append(f"{other} log{'s' if other != 1 else ''} of other tasks")
    if unreadable:
        parts.append(unreadable_text(unreadable))
    lines = [f"skipped {' and '.join(parts)}" if parts else "", repeated_line(repeated + across)]
    return runs, "; ".join(x for x in lines if x)
