"""Read stance-drift Inspect logs (``.eval`` / ``.json``) into arrays, in one pass.

Each sample of a ``stance_drift`` log is one (proposition, initial stance) pair; its per-trial
records are in ``sample.store["trials"]`` (see :mod:`inspect_stance.solvers.stance_drift`).
Samples are read once with :func:`inspect_ai.log.read_eval_log`, skipping events, messages and
attachments (streaming sample reads are quadratic in the sample count).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from inspect_stance.drift.run import DriftRun
from inspect_stance.stances import N_STANCES

TASK_NAME = "stance_drift"
TRIALS_KEY = "trials"
_SKIP_FIELDS = {"messages", "events", "attachments"}


def _is_drift_task(name: str | None) -> bool:
    return bool(name) and str(name).split("/")[-1] == TASK_NAME


def _read(path: Path) -> Any:
    from inspect_ai.log import read_eval_log

    if not path.is_file():
        raise ValueError(f"{path}: file not found")
    try:
        header = read_eval_log(str(path), header_only=True)
    except Exception as ex:
        raise ValueError(f"{path}: not a readable Inspect log ({type(ex).__name__})") from ex
    if not _is_drift_task(header.eval.task):
        raise ValueError(
            f"{path}: a log of task {header.eval.task!r}, not of {TASK_NAME}; give a stance_drift log"
        )
    return read_eval_log(str(path), exclude_fields=_SKIP_FIELDS)


def read_trial_records(path: str | Path) -> dict[str, list[dict[str, Any]]]:
    """Per-sample trial records of a stance-drift log, keyed by sample id (all epochs)."""
    log = _read(Path(path))
    out: dict[str, list[dict[str, Any]]] = {}
    for sample in log.samples or []:
        records = (sample.store or {}).get(TRIALS_KEY) or []
        out.setdefault(str(sample.id), []).extend(records)
    return out


def read_drift_log(path: str | Path) -> DriftRun:
    """A :class:`DriftRun` from a stance-drift log.

    ``probs[s, t, i]`` is trial ``t``'s stance-order vector (all-NaN when unparsed);
    propositions are ordered by their index in the run; a trial with no record (errored or
    absent sample) is NaN and marked in ``missing``. Epochs beyond the first append trials.
    """
    path = Path(path)
    log = _read(path)
    meta = log.eval.task_args or {}
    task_meta = log.eval.metadata or {}
    n_trials_cfg = int(meta.get("trials", task_meta.get("trials", 0)) or 0)
    variant = str(meta.get("variant", task_meta.get("variant", "default")))
    props: dict[str, tuple[int, str]] = {}
    cells: list[tuple[str, int, int, list[float] | None]] = []
    estimators: dict[str, int] = {}
    max_trial = 0
    for sample in log.samples or []:
        smeta = sample.metadata or {}
        if "topic_id" not in smeta or "initial_stance" not in smeta:
            raise ValueError(f"{path}: sample {sample.id} lacks stance-drift metadata")
        topic = str(smeta["topic_id"])
        props.setdefault(
            topic,
            (int(smeta.get("proposition_index", len(props))), str(smeta.get("proposition", topic))),
        )
        stance = int(smeta["initial_stance"])
        epoch_offset = (int(sample.epoch or 1) - 1) * max(n_trials_cfg, 1)
        for rec in (sample.store or {}).get(TRIALS_KEY) or []:
            t = int(rec["trial"]) + epoch_offset
            max_trial = max(max_trial, t + 1)
            cells.append((topic, stance, t, rec.get("probs")))
            key = rec.get("estimator") or "unparsed"
            estimators[key] = estimators.get(key, 0) + 1
    if not props:
        raise ValueError(f"{path}: the log has no samples")
    n_epochs = int(log.eval.config.epochs or 1)
    T = max(max_trial, n_trials_cfg * n_epochs)
    order = sorted(props, key=lambda k: props[k][0])
    index = {topic: k for k, topic in enumerate(order)}
    probs = np.full((len(order), T, N_STANCES, N_STANCES), np.nan)
    missing = np.ones((len(order), T, N_STANCES), dtype=bool)
    for topic, stance, t, vec in cells:
        s = index[topic]
        missing[s, t, stance] = False
        if vec is not None:
            probs[s, t, stance] = vec
    model = log.eval.model
    return DriftRun(
        name=f"{model} / {variant}",
        probs=probs,
        propositions=[props[k][1] for k in order],
        topic_ids=order,
        source=str(path),
        model=model,
        variant=variant,
        missing=missing,
        estimator_counts=estimators,
    )
