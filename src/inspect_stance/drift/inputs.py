"""Reading a stance-drift run from a file: the one dispatch on file type.

An Inspect log (``.eval`` / ``.json``) goes to :func:`inspect_stance.drift.logs.read_drift_log`,
a raw probability array (``.npz``) to :func:`inspect_stance.drift.run.load_npz`; every error is a
one-line :class:`~inspect_stance.errors.InputError` naming the file.
"""

from __future__ import annotations

from pathlib import Path

from inspect_stance.drift.logs import read_drift_log
from inspect_stance.drift.run import DriftRun, load_npz
from inspect_stance.errors import InputError
from inspect_stance.logfile import LOG_SUFFIXES, find_task_logs

#: what a report command reads, in the shared log-finding wording
RUN_WHAT = "stance_drift run"


def load_run(path: str | Path, unparsed: str = "failure") -> DriftRun:
    """Load a run from an Inspect log (``.eval`` / ``.json``) or a raw ``.npz``.

    ``unparsed`` only matters for logs of ``multiple_extraction`` runs, where it decides how a
    trial's unparsed extractions enter its vector (see ``trial_vector``).
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: file not found")
    if path.suffix == ".npz":
        _check_real(path)
        try:
            return load_npz(path)
        except InputError:
            raise
        except ValueError as ex:
            raise InputError(str(ex)) from ex
    if path.suffix in (".eval", ".json"):
        return read_drift_log(path, unparsed)
    raise InputError(f"{path}: unknown input type; give an Inspect log (.eval/.json) or an .npz")


def _check_real(path: Path) -> None:
    """An ``.npz`` whose arrays hold complex numbers is refused (probabilities are real)."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            bad = [k for k in data.files if np.iscomplexobj(data[k])]
    except Exception as ex:  # not an npz at all: load_npz says so in its words
        del ex
        return
    if bad:
        raise InputError(
            f"{path}: array {bad[0]!r} holds complex numbers; an .npz run holds real "
            "probabilities (float64)"
        )


def load_input(path: str | Path, unparsed: str = "failure") -> DriftRun:
    """Load a log or ``.npz`` run; unusable input -> ``InputError`` naming the file (a log is
    first checked with the shared reader's wording: missing, unreadable, another task's log)."""
    if Path(path).suffix in LOG_SUFFIXES:
        find_task_logs([path], ["stance_drift"], RUN_WHAT)  # its InputError names the file
    try:
        return load_run(path, unparsed)
    except InputError:
        raise
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    except Exception as ex:  # a corrupt log: inspect's reader raises many exception types
        first = str(ex).splitlines()[0] if str(ex) else ""
        raise InputError(f"{path}: cannot read ({type(ex).__name__}: {first})") from ex
