"""Reuse the arguments of an earlier stance-drift run (``-T arguments_from=LOG``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def arguments_from_log(path: Path, sample_ids: Sequence[str], trials: int) -> dict[str, list[str]]:
    """Arguments of an earlier ``stance_drift`` log, keyed by sample id, ``trials`` per sample.

    Trials are matched by proposition (topic id), initial stance (the sample id encodes both)
    and trial index. A log that does not cover every requested sample and trial is an error.
    """
    from inspect_stance.drift.logs import read_trial_records

    records = read_trial_records(path)
    out: dict[str, list[str]] = {}
    missing: list[str] = []
    for sid in sample_ids:
        by_trial = {int(r["trial"]): r.get("argument") for r in records.get(sid, [])}
        args = [by_trial.get(t) for t in range(trials)]
        if any(a is None for a in args):
            missing.append(sid)
            continue
        out[sid] = [str(a) for a in args]
    if missing:
        raise ValueError(
            f"arguments_from log {path} does not cover {len(missing)} of {len(sample_ids)} "
            f"(proposition, stance) samples with {trials} trials (first: {missing[0]}); use a "
            "log of the same propositions with at least as many trials"
        )
    return out
