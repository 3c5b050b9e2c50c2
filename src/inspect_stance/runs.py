"""Runs to compare: their identity, their names and the settings that must match.

- **Identity.** A log is identified by its Inspect ``eval_id``; an ``.npz`` by the SHA-256 of its
  bytes (:func:`inspect_stance.logfile.run_identity`). The same run given twice (two paths, or a
  copy) counts once: the log finders drop repeats and say so; :func:`dedupe` checks again.
- **Names** (:func:`name_runs`): the model; where models collide, the model and the task
  arguments that differ between the colliding runs (``model [variant=reversed]``); an Inspect
  tag (``inspect eval --tags NAME``) names a run outright; ``--label RUN=NAME`` (``RUN`` a path
  as given, or its file name) overrides everything. Names that still collide get ``#2``, ``#3``.
- **Settings** (:func:`check_settings`): runs whose settings differ (variant, propositions
  source, estimator, argument fingerprint, rubric threshold: each method says which) measure
  different things; comparing them is refused in one line unless the user allows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError

ALLOW_FLAG = "--allow-different-settings"


@dataclass
class RunInfo:
    """What the comparison layer knows of one run's source."""

    source: str
    run_id: str
    model: str | None = None
    task_args: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)


def log_info(path: str | Path) -> RunInfo:
    """The header of an Inspect log: eval id, model, task arguments and tags."""
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(path), header_only=True)
    ev = header.eval
    return RunInfo(
        source=str(path),
        run_id=f"eval:{ev.eval_id}",
        model=str(ev.model),
        task_args=dict(ev.task_args or {}),
        tags=[str(t) for t in (ev.tags or [])],
    )


def npz_info(path: str | Path) -> RunInfo:
    """An ``.npz`` run: identified by its content (:func:`inspect_stance.logfile.run_identity`);
    no model, arguments or tags."""
    from inspect_stance.logfile import run_identity

    return RunInfo(source=str(path), run_id=run_identity(path))


def dedupe(infos: Sequence[RunInfo]) -> tuple[list[int], str]:
    """Indices of the runs to keep (first occurrence of each identity) and a line saying what
    was dropped (empty when nothing was)."""
    seen: dict[str, str] = {}
    keep: list[int] = []
    dropped: list[str] = []
    for k, info in enumerate(infos):
        if info.run_id in seen:
            dropped.append(f"{info.source} (same run as {seen[info.run_id]})")
            continue
        seen[info.run_id] = info.source
        keep.append(k)
    line = f"counted once: {'; '.join(dropped)}" if dropped else ""
    return keep, line


def parse_labels(values: Sequence[str] | None) -> dict[str, str]:
    """``RUN=NAME`` options as a mapping; InputError for a value without ``=`` or a name."""
    out: dict[str, str] = {}
    for value in values or []:
        run, sep, name = value.rpartition("=")
        if not sep or not run or not name.strip():
            raise InputError(f"--label {value!r}: give RUN=NAME (RUN a path as given)")
        out[run] = name.strip()
    return out


def _fmt(value: Any) -> str:
    return "default" if value is None else str(value)


def name_runs(infos: Sequence[RunInfo], labels: Mapping[str, str] | None = None) -> list[str]:
    """One unique name per run (see the module docstring)."""
    labels = dict(labels or {})
    base = [i.model or Path(i.source).stem for i in infos]
    names = list(base)
    for k, info in enumerate(infos):
        peers = [j for j, b in enumerate(base) if b == base[k]]
        if len(peers) > 1:
            keys = sorted({a for j in peers for a in infos[j].task_args})
            differ = [
                a for a in keys
                if len({_fmt(infos[j].task_args.get(a)) for j in peers}) > 1
            ]  # fmt: skip
            if differ:
                names[k] = (
                    f"{base[k]} [{', '.join(f'{a}={_fmt(info.task_args.get(a))}' for a in differ)}]"
                )
        if info.tags:
            names[k] = ",".join(info.tags)
        for key in (info.source, Path(info.source).name, Path(info.source).stem):
            if key in labels:
                names[k] = labels[key]
                break
    unused = set(labels) - {
        key for i in infos for key in (i.source, Path(i.source).name, Path(i.source).stem)
    }
    if unused:
        raise InputError(f"--label {sorted(unused)[0]}=...: no such run among the inputs")
    seen: dict[str, int] = {}
    for k, n in enumerate(names):
        seen[n] = seen.get(n, 0) + 1
        if seen[n] > 1:
            names[k] = f"{n} #{seen[n]}"
    return names


def check_settings(
    infos: Sequence[RunInfo], names: Sequence[str], allow: bool = False
) -> list[str]:
    """Lines naming each setting that differs between runs; InputError (one line) unless
    ``allow``. Settings that a run does not record (e.g. an ``.npz``) are not compared."""
    keys = sorted({k for i in infos for k in i.settings})
    notes: list[str] = []
    for key in keys:
        known = [
            (n, i.settings[key]) for n, i in zip(names, infos, strict=True) if key in i.settings
        ]
        if len({_fmt(v) for _, v in known}) > 1:
            shown = ", ".join(f"{n}: {_fmt(v)}" for n, v in known)
            notes.append(f"{key} differs ({shown})")
    if notes and not allow:
        raise InputError(
            f"the runs measure different things: {'; '.join(notes)}; compare runs with the same "
            f"settings, or pass {ALLOW_FLAG} to compare anyway"
        )
    return [f"settings differ (compared anyway, {ALLOW_FLAG}): {n}" for n in notes]
