"""Reading Inspect logs for reports: one pass, without the parts reports never use.

Every report, reuse (``arguments_from``, ``prompts_from``, PReSS ``arguments``) and gate reads
sample metadata, stores and scores only, so the per-sample messages, events and attachments —
most of a log's size — are skipped (``exclude_fields``; ``.json`` logs are read whole).
Streaming sample reads are avoided: they are quadratic in the sample count.

:func:`read_task_log` is the one reader with the one wording of its errors;
:func:`find_task_logs` picks one task's logs out of files and folders (``logs/`` holds every
task's logs by default) and says how many it skipped; it also recognises the same run given
twice (two copies of one log, a log named and also found in a folder: the same eval id) and
keeps it once (:func:`drop_repeated_runs`, which every report command uses).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_stance.errors import InputError
from inspect_stance.printable import printable

if TYPE_CHECKING:
    from inspect_ai.log import EvalLog

SKIP_FIELDS: frozenset[str] = frozenset({"messages", "events", "attachments"})
LOG_SUFFIXES: tuple[str, ...] = (".eval", ".json")


def read_log(path: str | Path) -> EvalLog:
    """The ``EvalLog`` at ``path`` with samples, minus :data:`SKIP_FIELDS`."""
    from inspect_ai.log import read_eval_log

    return read_eval_log(str(path), exclude_fields=set(SKIP_FIELDS))


def epoch_key(sample_id: str, epoch: int) -> str:
    """A sample's record key in a run of ``inspect eval --epochs N``: the sample id in epoch 1,
    ``{id}@e<k>`` in epoch ``k`` (each epoch one more item of the sample's cluster)."""
    return sample_id if epoch <= 1 else f"{sample_id}@e{epoch}"


def sample_of(key: str) -> str:
    """The sample id of a record key :func:`epoch_key` made (``{id}@e<k>`` -> ``id``)."""
    head, sep, tail = key.rpartition("@e")
    return head if sep and tail.isdigit() else key


def epoch_keys(sample_ids: Iterable[str]) -> list[str]:
    """:func:`epoch_key` of each id in turn, its ``k``-th occurrence taken as epoch ``k`` (a
    metric's scores carry no epoch: one per sample per epoch when unreduced)."""
    seen: dict[str, int] = {}
    out = []
    for sid in sample_ids:
        seen[sid] = seen.get(sid, 0) + 1
        out.append(epoch_key(sid, seen[sid]))
    return out


def task_name(name: str) -> str:
    """A task's name without its package: ``inspect_stance/press`` and ``press`` name the same
    task (the one normalisation; :func:`inspect_stance.study.method_of_task` uses it too)."""
    return name.rsplit("/", 1)[-1]


def read_task_log(path: str | Path, tasks: Iterable[str], what: str) -> EvalLog:
    """The log at ``path`` (as :func:`read_log`), checked to be a log of one of ``tasks``.

    Raises a one-line :class:`~inspect_stance.errors.InputError` worded the same way for every
    report: ``log PATH: no such file`` / ``not readable as an Inspect log`` / ``is a log of task
    X, not T``, each ending with ``; pass the .eval log of a <what>``.
    """
    return _checked_log(Path(path), {task_name(t) for t in tasks}, what, header_only=False)


def _checked_log(p: Path, names: set[str], what: str, header_only: bool) -> EvalLog:
    """The log at ``p`` (its header only, or read in one pass by :func:`read_log`), checked to
    be a log of a task in ``names``; the one-line errors of :func:`read_task` otherwise."""
    from inspect_ai.log import read_eval_log

    fix = f"pass the .eval log of a {what}"
    if not p.is_file():
        raise InputError(f"log {p}: no such file; {fix}")
    try:
        log = read_eval_log(str(p), header_only=True) if header_only else read_log(p)
    except Exception as ex:  # noqa: BLE001 - any unreadable file is one input error
        raise InputError(
            f"log {p}: not readable as an Inspect log (corrupt, truncated or not a log); {fix}"
        ) from ex
    task = task_name(str(log.eval.task))
    if task not in names:
        raise InputError(
            f"log {p}: is a log of task {task!r}, not {' or '.join(sorted(names))}; {fix}"
        )
    return log


@dataclass
class FoundLogs:
    """The logs of the wanted tasks among the given paths, and what was passed over."""

    paths: list[Path] = field(default_factory=list)
    skipped_other_task: list[Path] = field(default_factory=list)
    skipped_unreadable: list[Path] = field(default_factory=list)
    #: ``(repeat, first)`` pairs: logs left out as the same run as an earlier one
    repeated: list[tuple[Path, Path]] = field(default_factory=list)

    def repeated_line(self) -> str:
        """One line for stderr naming the runs counted once (:func:`repeated_line`)."""
        return repeated_line(self.repeated)

    def passed_over(self) -> list[str]:
        """The lines saying what was skipped and what was counted once (none when nothing)."""
        return [x for x in (self.skipped_line(), self.repeated_line()) if x]

    def skipped_line(self) -> str:
        """One line for stderr, e.g. ``skipped 3 logs of other tasks and 1 unreadable file
        (logs/a.eval)`` (the unreadable files named, the first five); empty when nothing was
        skipped."""

        parts = []
        if self.skipped_other_task:
            n = len(self.skipped_other_task)
            parts.append(f"{n} log{'s' if n != 1 else ''} of other tasks")
        if self.skipped_unreadable:
            parts.append(unreadable_text(self.skipped_unreadable))
        return f"skipped {' and '.join(parts)}" if parts else ""


def unreadable_text(files: Sequence[Path]) -> str:
    """``N unreadable file(s) (a, b, ...)``: the count and the first five files, escaped."""

    n = len(files)
    shown = ", ".join(printable(str(p)) for p in files[:5])
    more = f" and {n - 5} more" if n > 5 else ""
    return f"{n} unreadable file{'s' if n != 1 else ''} ({shown}{more})"


def find_task_logs(paths: Iterable[str | Path], tasks: Iterable[str], what: str) -> FoundLogs:
    """Expand files and folders (folders: every ``*.eval`` / ``*.json`` below them, sorted,
    with Inspect's shard layout read as Inspect does: :func:`inspect_stance.shards.layout.log_files`)
    and keep the logs of ``tasks``, reading only each log's header.

    A file named explicitly that is not such a log is an error (:func:`read_task_log`'s
    wording); inside a folder, other tasks' logs and unreadable files are skipped and counted.
    Raises when nothing is left.
    """
    from inspect_ai.log import read_eval_log

    names = {task_name(t) for t in tasks}
    found = FoundLogs()
    ids: dict[Path, str] = {}
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            from inspect_stance.shards.layout import log_files

            for f in log_files(p):  # Inspect's shard layout: one log per run
                try:
                    header = read_eval_log(str(f), header_only=True)
                except Exception:  # noqa: BLE001 - an unreadable file in a folder is skipped
                    found.skipped_unreadable.append(f)
                    continue
                if task_name(str(header.eval.task)) in names:
                    found.paths.append(f)
                    ids[f] = _eval_identity(header)
                else:
                    found.skipped_other_task.append(f)
        else:
            header = _checked_log(p, names, what, header_only=True)
            found.paths.append(p)
            ids[p] = _eval_identity(header)
    found.paths, found.repeated = drop_repeated_runs(found.paths, ids)
    if not found.paths:
        extra = f" ({found.skipped_line()})" if found.skipped_line() else ""
        raise InputError(f"no log of a {what} found in {', '.join(map(str, paths))}{extra}")
    return found


def _eval_identity(header: EvalLog) -> str:
    """What makes two logs the same run: the eval id Inspect gives each evaluation (a copy or a
    ``.json`` conversion of a log keeps it; a re-run or an ``eval-retry`` gets a new one)."""
    return f"eval:{header.eval.eval_id}"


def run_identity(path: str | Path) -> str:
    """The identity of a run file: a log's eval id (read from its header), or the content hash
    (SHA-256) of any other file (an ``.npz`` of arrays)."""
    p = Path(path)
    if p.suffix in LOG_SUFFIXES:
        from inspect_ai.log import read_eval_log

        return _eval_identity(read_eval_log(str(p), header_only=True))
    return "sha256:" + hashlib.sha256(p.read_bytes()).hexdigest()


def drop_repeated_runs(
    paths: Sequence[Path], ids: dict[Path, str] | None = None
) -> tuple[list[Path], list[tuple[Path, Path]]]:
    """``paths`` without the runs already given (same :func:`run_identity`; ``ids`` holds the
    identities already known), in order, and the ``(repeat, first)`` pairs left out. The same
    path given twice is a repeat too."""
    known = dict(ids or {})
    first: dict[str, Path] = {}
    kept: list[Path] = []
    repeated: list[tuple[Path, Path]] = []
    for p in paths:
        key = known.get(p) or run_identity(p)
        if key in first:
            repeated.append((p, first[key]))
        else:
            first[key] = p
            kept.append(p)
    return kept, repeated


def repeated_line(repeated: Sequence[tuple[Path, Path]]) -> str:
    """One line for stderr, e.g. ``counted 1 repeated run once: b.eval is the same run as
    a.eval (same eval id)``; empty when nothing repeated (at most three pairs are named)."""
    if not repeated:
        return ""
    n = len(repeated)
    named = "; ".join(f"{a} is the same run as {b}" for a, b in repeated[:3])
    more = f"; and {n - 3} more" if n > 3 else ""
    logs = all(a.suffix in LOG_SUFFIXES for a, _ in repeated)
    why = "same eval id" if logs else "same eval id or file content"
    return f"counted {n} repeated run{'s' if n != 1 else ''} once: {named}{more} ({why})"
