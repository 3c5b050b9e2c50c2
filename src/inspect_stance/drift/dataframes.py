"""Stance drift's own dataframe for a notebook: :func:`trials_df`, one row per trial: ``eval_id``,
``model``, ``sample_id``, ``id``, ``epoch``, ``proposition``, ``topic_id``, ``initial_stance``
(0..4, stance order Agree strongly .. Disagree strongly), ``initial_stance_key``, ``trial``,
``estimator`` (``logprobs`` / ``frequency`` / None for an unparsed trial), ``unparsed``,
``extracted`` (the most probable stance), ``p_<stance>`` (the extracted distribution), ``kept``
(``p`` of the initial stance). ``eval_id`` and ``sample_id`` are Inspect's, as in
:mod:`inspect_stance.analysis` (``runs_df``, ``items_df``), whose log reading it shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_stance.analysis import LogPaths, _read
from inspect_stance.drift.logs import TASK_NAME, TRIALS_KEY
from inspect_stance.stances import STANCE_KEYS

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai.log import EvalLog


def trials_df(logs: LogPaths) -> pd.DataFrame:
    """One row per stance-drift trial (module docstring); logs of other tasks are skipped."""
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for _path, log in _read(logs):
        if log.eval.task.split("/")[-1] != TASK_NAME:
            continue
        for sample in log.samples or []:
            rows.extend(_trial_rows(log, sample))
    columns = [
        "eval_id", "model", "sample_id", "id", "epoch", "proposition", "topic_id",
        "initial_stance", "initial_stance_key", "trial", "estimator", "unparsed", "extracted",
        *(f"p_{k}" for k in STANCE_KEYS), "kept",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def _trial_rows(log: EvalLog, sample: Any) -> list[dict[str, Any]]:
    meta = sample.metadata or {}
    stance = int(meta.get("initial_stance", -1))
    out = []
    for rec in (sample.store or {}).get(TRIALS_KEY) or []:
        probs = rec.get("probs")
        unparsed = bool(rec.get("unparsed")) or probs is None
        row: dict[str, Any] = {
            "eval_id": log.eval.eval_id,
            "model": log.eval.model,
            "sample_id": sample.uuid,
            "id": sample.id,
            "epoch": sample.epoch,
            "proposition": meta.get("proposition"),
            "topic_id": meta.get("topic_id"),
            "initial_stance": stance,
            "initial_stance_key": STANCE_KEYS[stance] if 0 <= stance < len(STANCE_KEYS) else None,
            "trial": int(rec.get("trial", 0)),
            "estimator": None if unparsed else rec.get("estimator"),
            "unparsed": unparsed,
            "extracted": None if unparsed else STANCE_KEYS[int(rec["extracted"])],
        }
        for i, key in enumerate(STANCE_KEYS):
            row[f"p_{key}"] = None if unparsed else float(probs[i])
        row["kept"] = None if unparsed or stance < 0 else float(probs[stance])
        out.append(row)
    return out
