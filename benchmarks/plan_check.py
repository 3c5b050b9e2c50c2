"""Check the planner's predicted SE of SPR against subsampling of every reference run.

For each ``.npz`` in ``../shared/data/stance_drift_reference`` and ``k`` in 5, 10, 20, 50:
draw ``--reps`` subsamples of ``k`` of each cell's 100 trials (without replacement) and compare

- ``pred``: the predicted SE(SPR) of a 112 x k design from the full run's variance components
  (``sqrt((sigma_P^2 + sigma_e^2 / (5 k)) / 112)``, :mod:`inspect_stance.drift.plan`), with
  ``obs``: the SE over propositions that the subsamples themselves give (their mean), i.e. what
  a k-trial study of these propositions reports;
- ``trial_pred``: the predicted SD of SPR from trial noise alone, for a subsample of a finite
  population of 100 trials, ``sqrt(sigma_e^2 (1/k - 1/100) / (5 * 112))``, with ``trial_obs``:
  the SD of SPR over the subsamples;
- ``pilot``: the SE(SPR) of the full 100-trial run predicted from a k-trial pilot (the
  subsample's own components; mean over subsamples) against ``full``, the run's actual SE.

Usage: ``OMP_NUM_THREADS=1 python benchmarks/plan_check.py [--reps 200] [--markdown]``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from inspect_stance.drift.run import load_npz
from inspect_stance.drift.variance import cell_values, decompose

REF = Path(__file__).resolve().parents[2] / "shared" / "data" / "stance_drift_reference"
KS = (5, 10, 20, 50)


def check_run(x: np.ndarray, reps: int, rng: np.random.Generator) -> list[dict[str, float]]:
    """Rows of the table for one run's diagonal values ``x`` shaped ``(P, T, 5)``."""
    p, t, k_st = x.shape
    vc = decompose(x)
    full = math.sqrt(vc.spr_variance(p, t))
    rows = []
    for k in KS:
        sprs, ses, pilots = [], [], []
        for _ in range(reps):
            idx = np.argsort(rng.random(x.shape), axis=1)[:, :k]
            sub = np.take_along_axis(x, idx, axis=1)
            means = sub.mean(axis=(1, 2))
            sprs.append(means.mean())
            ses.append(means.std(ddof=1) / math.sqrt(p))
            pilots.append(math.sqrt(decompose(sub).spr_variance(p, t)))
        rows.append(
            {
                "k": k,
                "pred": math.sqrt(vc.spr_variance(p, k)),
                "obs": float(np.mean(ses)),
                "trial_pred": math.sqrt(vc.within_cell * (1 / k - 1 / t) / (k_st * p)),
                "trial_obs": float(np.std(sprs, ddof=1)),
                "pilot": float(np.mean(pilots)),
                "full": full,
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    head = ["run", "k", "pred", "obs", "obs/pred", "trial_pred", "trial_obs", "pilot", "full"]
    print("| " + " | ".join(head) + " |" if args.markdown else "  ".join(head))
    if args.markdown:
        print("|" + "---|" * len(head))
    worst = 0.0
    for path in sorted(REF.glob("*.npz")):
        x = cell_values(load_npz(path).probs)
        for r in check_run(x, args.reps, rng):
            ratio = r["obs"] / r["pred"]
            worst = max(worst, abs(ratio - 1), abs(r["trial_obs"] / r["trial_pred"] - 1))
            cells = (
                [path.stem, str(r["k"])]
                + [f"{r[c]:.5f}" for c in ("pred", "obs")]
                + [f"{ratio:.3f}"]
                + [f"{r[c]:.5f}" for c in ("trial_pred", "trial_obs", "pilot", "full")]
            )
            print("| " + " | ".join(cells) + " |" if args.markdown else "  ".join(cells))
    print(f"\nlargest relative gap (obs vs pred, trial_obs vs trial_pred): {worst:.3f}")


if __name__ == "__main__":
    main()
