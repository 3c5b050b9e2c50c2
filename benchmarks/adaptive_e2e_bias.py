"""End-to-end SPR bias of adaptive trials on the simulated respondent with one-letter answers.

The task runs on ``stance_sim/respondent`` in its known-answer mode (``-M noise=exact``: every
extraction answers from the shipped matrix itself) without logprobs (``-M logprobs=false``:
each trial is one letter, a 0/1 value, the case where stopping biases most), with
``-T adaptive_halfwidth=H``. The log is read back as ``inspect-stance report`` reads it
(:func:`inspect_stance.drift.logs.read_drift_log`, ``exclude``) and each proposition's SPR is
compared with the known SPR (the matrix's mean diagonal):

- ``unbiased``: :meth:`DriftRun.matrices`, the Rao–Blackwell estimate the scorer, ``report``
  and ``compare`` use;
- ``plain``: the mean of the trials run (what they used before).

Bias is the mean over propositions of ``SPR_p - truth`` with its standard error
(``sd / sqrt(P)``, propositions independent); the paired difference of the two estimators has
its own, smaller SE. Calls used is trials run over trials planned.

Usage: ``OMP_NUM_THREADS=1 python benchmarks/adaptive_e2e_bias.py [--propositions 100]
[--trials 40] [--halfwidth 0.1] [--seed 0]``.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path

import numpy as np


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))


def measure(propositions: int, trials: int, halfwidth: float, seed: int) -> dict[str, float]:
    """Run the task once and return the biases (``unbiased``, ``plain``, their SEs)."""
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    from inspect_stance.drift.logs import read_drift_log
    from inspect_stance.drift.simulator import default_transition_path, load_transition

    truth = float(np.mean(np.diag(load_transition(str(default_transition_path())))))
    with tempfile.TemporaryDirectory() as tmp:
        props = Path(tmp) / "props.txt"
        props.write_text("".join(f"We should adopt policy {k}\n" for k in range(propositions)))
        task = stance_drift(
            propositions=str(props), trials=trials, cache=False, adaptive_halfwidth=halfwidth
        )
        [log] = inspect_eval(
            task,
            model="stance_sim/respondent",
            model_args={"noise": "exact", "logprobs": False, "seed": seed},
            log_dir=tmp,
            display="none",
        )
        run = read_drift_log(log.location, "exclude")
    unbiased = np.diagonal(run.matrices("exclude"), axis1=-2, axis2=-1).mean(axis=-1)
    kept = np.where(run.missing_mask[..., None], np.nan, run.probs)
    plain = np.diagonal(np.nanmean(kept, axis=1), axis1=-2, axis2=-1).mean(axis=-1)
    out: dict[str, float] = {"truth": truth, "calls_used": float((~run.missing_mask).mean())}
    for name, x in (("unbiased", unbiased - truth), ("plain", plain - truth)):
        out[name], out[f"{name}_se"] = _mean_se(x)
    out["paired"], out["paired_se"] = _mean_se(unbiased - plain)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--propositions", type=int, default=100)
    ap.add_argument("--trials", type=int, default=40)
    ap.add_argument("--halfwidth", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    start = time.perf_counter()
    r = measure(args.propositions, args.trials, args.halfwidth, args.seed)
    print(
        f"{args.propositions} propositions x 5 stances, at most {args.trials} trials, "
        f"H = {args.halfwidth:g}, one-letter answers, known SPR {r['truth']:.4f}; "
        f"calls used {r['calls_used']:.3f} ({time.perf_counter() - start:.0f} s)"
    )
    print(f"bias unbiased (report/compare now) {r['unbiased']:+.4f} ± {r['unbiased_se']:.4f}")
    print(f"bias plain (mean of trials run)    {r['plain']:+.4f} ± {r['plain_se']:.4f}")
    print(f"unbiased - plain (paired)          {r['paired']:+.4f} ± {r['paired_se']:.4f}")


if __name__ == "__main__":
    main()
