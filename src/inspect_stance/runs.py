"""Runs to compare: their identity, their names and the settings that must match.

- **Identity.** A log is identified by its Inspect ``eval_id``; an ``.npz`` by the SHA-256 of its
  bytes (:func:`inspect_stance.logfile.run_identity`). The same run given twice (two paths, or a
  copy) counts once: the log finders drop repeats and say so; :func:`dedupe` checks again.
- **Names** (:func:`run_names`, one scheme for every command and output): the model (a file's
  name for an ``.npz``); where models collide, what sets the colliding runs apart, in this
  order: the task arguments that differ (``model [variant=reversed]``), the ``-M`` model
  arguments that differ (``model [seed=3]``), the host of a differing ``--model-base-url``
  (``model [base_url=host:8000]``, never its credentials); an Inspect tag (``inspect eval --tags
  NAME``) names a run outright; ``--label RUN=NAME`` (``RUN`` a path as given, or its file name)
  overrides everything. Names that still collide get the start of their run identity
  (``m [run 3fa9c2d1]``: the same whatever order the runs are given in) and a note says so.
  Every name has its control characters escaped (:func:`inspect_stance.printable.printable`),
  so no name can break a line, a table or a CI annotation.
- **Settings** (:func:`check_settings`): runs whose settings differ (variant, propositions
  source, estimator, argument fingerprint, rubric threshold: each method says which) measure
  different things; comparing them is refused in one line unless the user allows it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.logfile import run_identity
from inspect_stance.printable import printable

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
    model_args: dict[str, Any] = field(default_factory=dict)
    base_url: str | None = None


#: the model Inspect records for a run without ``--model`` (one that calls only role models)
NO_MODEL = "none/none"


def role_model_names(roles: Any) -> dict[str, list[str]]:
    """Role -> model names of an eval's ``model_roles``: the log header's (role -> a model
    config or a list of them) or ``runs_df``'s JSON of it; ``{}`` when there are none."""
    if isinstance(roles, str):
        roles = json.loads(roles) if roles.startswith("{") else {}
    out: dict[str, list[str]] = {}
    for role, spec in (roles or {}).items():
        specs = spec if isinstance(spec, list | tuple) else ([] if spec is None else [spec])
        out[str(role)] = [str(x.get("model") if isinstance(x, dict) else getattr(x, "model", x))
                          for x in specs]  # fmt: skip
    return out


def measured_model(model: str | None, roles: Any = None, role: str | None = None) -> str:
    """The model a run measured: its ``model``; for a run that called no target model
    (Inspect's ``none/none``) whose task declares the ``role`` it measures
    (:attr:`~inspect_stance.study.protocol.TaskHeadline.subject_role`, such as a judge
    validation's judges) that role's models instead, ``role: model, model`` (``roles``: as
    :func:`role_model_names` takes)."""
    names = role_model_names(roles).get(role or "") if model == NO_MODEL and role else None
    return f"{role}: {', '.join(names)}" if names else str(model)


def log_info(path: str | Path, role: str | None = None) -> RunInfo:
    """The header of an Inspect log: eval id, model, task arguments and tags; ``role``: the
    role the run measures when it calls no target model (:func:`measured_model`)."""
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(path), header_only=True)
    ev = header.eval
    return RunInfo(
        source=str(path),
        run_id=f"eval:{ev.eval_id}",
        model=measured_model(str(ev.model), getattr(ev, "model_roles", None), role),
        task_args=dict(ev.task_args or {}),
        tags=[str(t) for t in (ev.tags or [])],
        model_args=dict(getattr(ev, "model_args", None) or {}),
        base_url=getattr(ev, "model_base_url", None),
    )


def npz_info(path: str | Path) -> RunInfo:
    """An ``.npz`` run: identified by its content (:func:`inspect_stance.logfile.run_identity`);
    no model, arguments or tags."""

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


def url_host(url: str | None) -> str | None:
    """The ``host[:port]`` of a base URL, without user name, password, path or query."""
    if not url:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(url if "//" in url else "//" + url)
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host or None


#: ``-M`` arguments never shown in a name (their values are credentials)
SECRET_WORDS: tuple[str, ...] = ("key", "token", "secret", "password", "auth", "credential")


def _shown(attr: str, name: str) -> bool:
    return attr != "model_args" or not any(w in name.lower() for w in SECRET_WORDS)


def _apart(peers: Sequence[RunInfo], info: RunInfo) -> list[str]:
    """``name=value`` of what differs among ``peers`` (task arguments, then ``-M`` model
    arguments, then the base URL host), as ``info`` has it."""
    parts: list[str] = []
    for attr in ("task_args", "model_args"):
        keys = sorted({a for p in peers for a in getattr(p, attr)})
        for a in (k for k in keys if _shown(attr, k)):
            if len({_fmt(getattr(p, attr).get(a)) for p in peers}) > 1:
                parts.append(f"{a}={_fmt(getattr(info, attr).get(a))}")
    if len({url_host(p.base_url) for p in peers}) > 1:
        parts.append(f"base_url={_fmt(url_host(info.base_url))}")
    return parts


def label_keys(source: str | Path) -> tuple[str, ...]:
    """The ``RUN`` of ``--label RUN=NAME`` that name the run read from ``source``: its path as
    given, its file name, its file name without the suffix."""
    return (str(source), Path(source).name, Path(source).stem)


def label_for(source: str | Path, labels: Mapping[str, str]) -> str | None:
    """The ``--label`` name of the run read from ``source`` (``None``: not labelled)."""
    return next((labels[k] for k in label_keys(source) if k in labels), None)


def _label_for(info: RunInfo, labels: Mapping[str, str]) -> str | None:
    return label_for(info.source, labels)


def check_labels(sources: Sequence[str | Path], labels: Mapping[str, str]) -> None:
    """InputError for a ``--label RUN=NAME`` whose ``RUN`` names none of ``sources``."""
    known = {k for s in sources for k in label_keys(s)}
    unused = sorted(set(labels) - known)
    if unused:
        raise InputError(f"--label {unused[0]}=...: no such run among the inputs")


def labels_of(sources: Sequence[str | Path], labels: Mapping[str, str]) -> dict[str, str]:
    """The labels that name one of ``sources`` (a folder of several methods' runs gives each
    method's report the labels of its own runs)."""
    known = {k for s in sources for k in label_keys(s)}
    return {k: v for k, v in labels.items() if k in known}


def _path_tails(sources: Sequence[str]) -> list[str]:
    """The shortest trailing parts of the paths (``again/a.npz``) that tell them apart."""
    parts = [Path(s).parts for s in sources]
    for n in range(1, max(len(p) for p in parts) + 1):
        tails = ["/".join(p[-n:]) for p in parts]
        if len(set(tails)) == len(tails):
            return tails
    return list(sources)


def _identities(infos: Sequence[RunInfo]) -> list[str]:
    """What tells runs of one name apart: the start of each run identity (an eval id, a content
    hash), else the end of each path."""
    ids = [i.run_id.split(":", 1)[1][:8] if ":" in i.run_id else "" for i in infos]
    if all(ids) and len(set(ids)) == len(ids):
        return ids
    return _path_tails([i.source for i in infos])


def run_names(
    infos: Sequence[RunInfo], labels: Mapping[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """One unique, printable name per run (see the module docstring), and a note per set of runs
    whose names had to be told apart by their run identity."""

    labels = dict(labels or {})
    check_labels([i.source for i in infos], labels)
    base = [i.model or Path(i.source).stem for i in infos]
    names = list(base)
    for k, info in enumerate(infos):
        peers = [infos[j] for j, b in enumerate(base) if b == base[k]]
        apart = _apart(peers, info) if len(peers) > 1 else []
        if apart:
            names[k] = f"{base[k]} [{', '.join(apart)}]"
        if info.tags:
            names[k] = ",".join(info.tags)
        label = _label_for(info, labels)
        if label is not None:
            names[k] = label
    names = [printable(n) for n in names]
    notes: list[str] = []
    for name in sorted({n for n in names if names.count(n) > 1}):
        same = [k for k, n in enumerate(names) if n == name]
        for k, ident in zip(same, _identities([infos[k] for k in same]), strict=True):
            names[k] = f"{name} [run {printable(ident)}]"
        notes.append(
            f"runs alike in model, arguments and tags told apart by their run identity: "
            f"{', '.join(names[k] for k in same)} (name them with --label RUN=NAME)"
        )
    return names, notes


def name_runs(infos: Sequence[RunInfo], labels: Mapping[str, str] | None = None) -> list[str]:
    """The names of :func:`run_names` (without its notes)."""
    return run_names(infos, labels)[0]


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
