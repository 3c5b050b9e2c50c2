"""Check the planner's predicted SE of SPR against subsampling of every reference run.

For each ``.npz`` in ``../shared/data/stance_drift_reference`` and ``k`` in 5, 10, 20, 50:
draw ``--reps`` subsamples of ``k`` of each cell's 100 trials (without replacement) and compare

- ``pred``: the predicted SE(SPR) of a 112 x k design from the full run's variance components
  (``sqrt((sigma_P^2 + sigma_e^2 / (5 k)) / 112)``, :mod:`inspect_stance.drift.planning.design`), with
  ``obs``: the SE over propositions that the subsamples themselves give (their mean), i.e. what
  a k-trial study of these propositions reports;
- ``trial_pred``: the predicted SD of SPR from trial noise alone, for a subsample of a finite
  population of 100 trials, ``sqrt(sigma_e^2 (1/k - 1/100) / (5 * 112))``, with ``trial_obs``:
  the SD of SPR over the subsamples;
- ``pilot``: the SE(SPR) of the full 100-trial run predicted from a k-trial pilot (the
  subsample's own components; mean over subsamples) against ``full``, the run's actual SE.

``--assurance`` instead checks the recommendation itself, treating each run's 112 propositions
as the population: a pilot of ``--pilot`` propositions drawn with replacement (all 100 trials)
plans the cheapest design (``T <= 20``) for a target SE of 0.8 times the run's own, first as a
point prediction and then with ``--assurance P``; a study of that design is then drawn (its
propositions with replacement, its trials without) and its realised SE compared with the target.
The share of (pilot, study) draws meeting the target should be about 0.5 for the point
prediction and about ``P`` with the assurance.

Usage: ``OMP_NUM_THREADS=1 python benchmarks/plan_check.py [--reps 200] [--markdown]
[--assurance 0.8 --pilot 56 --runs gpt_4o_mini,...] [--ref DIR]``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from inspect_stance.drift.planning.design import cheapest
from inspect_stance.drift.planning.variance import cell_values, decompose
from inspect_stance.drift.run import load_npz

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


def assurance_check(
    x: np.ndarray, reps: int, pilot: int, assurance: float, rng: np.random.Generator
) -> dict[str, float]:
    """Shares of (pilot, study) draws whose realised SE(SPR) meets the target, for the point
    prediction and with ``assurance`` (see the module docstring), and the mean calls of each."""
    p, t, _ = x.shape
    target = 0.8 * decompose(x).proposition_means.std(ddof=1) / math.sqrt(p)
    met: dict[str, list[bool]] = {"point": [], "assured": []}
    calls: dict[str, list[int]] = {"point": [], "assured": []}
    for _ in range(reps):
        vc = decompose(x[rng.integers(0, p, pilot)])
        for name, a in (("point", None), ("assured", assurance)):
            d = cheapest(vc, 2.0, 100_000, 20, target_se=target, assurance=a)
            assert d is not None
            rows = x[rng.integers(0, p, d.propositions)]
            idx = np.argsort(rng.random(rows.shape), axis=1)[:, : d.trials]
            means = np.take_along_axis(rows, idx, axis=1).mean(axis=(1, 2))
            met[name].append(means.std(ddof=1) / math.sqrt(d.propositions) <= target)
            calls[name].append(d.calls)
    return {
        "target": target,
        **{f"met_{k}": float(np.mean(v)) for k, v in met.items()},
        **{f"calls_{k}": float(np.mean(v)) for k, v in calls.items()},
    }


def main_assurance(args: argparse.Namespace) -> None:
    """The ``--assurance`` table (see the module docstring)."""
    rng = np.random.default_rng(0)
    wanted = {r for r in args.runs.split(",") if r}
    print(f"pilot {args.pilot} propositions, {args.reps} draws, assurance {args.assurance}")
    print("run  target  met(point)  met(assured)  calls(point)  calls(assured)")
    for path in sorted(args.ref.glob("*.npz")):
        if wanted and path.stem not in wanted:
            continue
        r = assurance_check(
            cell_values(load_npz(path).probs), args.reps, args.pilot, args.assurance, rng
        )
        se = math.sqrt(r["met_assured"] * (1 - r["met_assured"]) / args.reps)
        print(
            f"{path.stem}  {r['target']:.5f}  {r['met_point']:.3f}  {r['met_assured']:.3f} "
            f"(± {se:.3f})  {r['calls_point']:,.0f}  {r['calls_assured']:,.0f}",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--assurance", type=float, help="check the recommendation at this P")
    ap.add_argument("--pilot", type=int, default=56, help="pilot propositions (--assurance)")
    ap.add_argument("--runs", default="", help="comma-separated run names (default: all)")
    ap.add_argument("--ref", type=Path, default=REF, help="folder of the reference runs")
    args = ap.parse_args()
    if args.assurance is not None:
        main_assurance(args)
        return
    rng = np.random.default_rng(0)
    head = ["run", "k", "pred", "obs", "obs/pred", "trial_pred", "trial_obs", "pilot", "full"]
    print("| " + " | ".join(head) + " |" if args.markdown else "  ".join(head))
    if args.markdown:
        print("|" + "---|" * len(head))
    worst = 0.0
    for path in sorted(args.ref.glob("*.npz")):
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
