"""Adaptive trials replayed on the reference runs: calls used, coverage, decisions changed.

For every ``.npz`` in ``../shared/data/stance_drift_reference`` and each half-width ``H``, the
adaptive rule of :mod:`inspect_stance.drift.adaptive.confseq` (waves of 10 trials, the first after 10,
at most 100; stop when the two-sided 95 % empirical-Bernstein confidence sequence of the cell's
diagonal values is at most ``H`` on either side of the mean, or its upper bound is below 1) is
replayed over ``--orders`` random orders of each cell's 100 recorded trials
(:func:`inspect_stance.drift.adaptive.replay.replay`). Columns: the share of calls used, the coverage of
the final intervals against the 100-trial mean, the share of (cell, order) whose "reaches 1"
decision (one-sided 99 % Student-t bound, Bonferroni over the 112 propositions, as the paper)
differs from the full-data one when read with the same t bound on the trials used
(``changed_t``) or from the sequence's upper bound (``changed_cs``), the share stopped by each
reason, the mean half-width reached, and the SPR bias against the 100-trial SPR (mean over
orders, with its standard error) of the plain mean of the trials run (``bias plain``) and of the
unbiased Rao–Blackwell estimate the scorer reports (``bias unbiased``,
:mod:`inspect_stance.drift.adaptive.estimate`, ``--draws`` orderings each; ``--draws 0`` skips
it), and the worst cell's bias of each. ``--rule width`` keeps only the half-width rule.

``--coverage`` instead runs the full-size simulation of anytime coverage with a known answer
(the default test tier runs a reduced one): 20,000 paths of 500 values.

Usage: ``OMP_NUM_THREADS=1 python benchmarks/adaptive_replay.py [--orders 1000]
[--halfwidths 0.05,0.1] [--runs gpt_4o_mini,...] [--rule both|width] [--markdown]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from inspect_stance.drift.adaptive.confseq import AdaptiveRule, eb_cs
from inspect_stance.drift.adaptive.replay import replay
from inspect_stance.drift.planning.variance import cell_values
from inspect_stance.drift.run import load_npz

REF = Path(__file__).resolve().parents[2] / "shared" / "data" / "stance_drift_reference"


def coverage_simulation(n_paths: int = 20_000, n: int = 500, alpha: float = 0.05) -> None:
    """Share of paths whose sequence ever excludes the true mean (must be <= alpha)."""
    rng = np.random.default_rng(1)
    worst = 0.0
    for a, b in ((0.7, 0.7), (5.0, 1.0), (1.0, 5.0), (50.0, 50.0)):
        mu = a / (a + b)
        x = rng.beta(a, b, (n_paths, n))
        lo, hi = eb_cs(x, alpha)
        out = float(((lo > mu) | (hi < mu)).any(axis=1).mean())
        worst = max(worst, out)
        print(f"Beta({a}, {b}): mean {mu:.3f}, paths ever excluding it {out:.4f} (alpha {alpha})")
    print(f"largest miscoverage {worst:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--orders", type=int, default=1000)
    ap.add_argument("--draws", type=int, default=32, help="orderings per unbiased estimate")
    ap.add_argument("--halfwidths", default="0.05,0.1")
    ap.add_argument("--runs", default="", help="comma-separated run names (default: all)")
    ap.add_argument("--rule", choices=("both", "width"), default="both")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--ref", type=Path, default=REF, help="folder of the reference runs")
    ap.add_argument("--coverage", action="store_true", help="run the coverage simulation")
    args = ap.parse_args()
    if args.coverage:
        coverage_simulation()
        return
    wanted = {r for r in args.runs.split(",") if r}
    head = [
        "run",
        "H",
        "orders",
        "calls used",
        "coverage",
        "changed_t",
        "changed_cs",
        "stopped below 1",
        "stopped on width",
        "ran to 100",
        "mean half-width",
        "bias plain",
        "bias unbiased",
        "worst cell plain",
        "worst cell unbiased",
        "s",
    ]
    print("| " + " | ".join(head) + " |" if args.markdown else "  ".join(head))
    if args.markdown:
        print("|" + "---|" * len(head))
    for path in sorted(args.ref.glob("*.npz")):
        if wanted and path.stem not in wanted:
            continue
        x = cell_values(load_npz(path).probs)
        for h in (float(v) for v in args.halfwidths.split(",")):
            rule = AdaptiveRule(
                halfwidth=h, max_trials=x.shape[1], stop_below_one=args.rule == "both"
            )
            t0 = time.perf_counter()
            r = replay(x, rule, orders=args.orders, seed=0, chunk=5, draws=args.draws)
            cells = [
                path.stem,
                f"{h:g}",
                str(r.orders),
                f"{r.share_used:.3f}",
                f"{r.coverage:.4f}",
                f"{r.changed_t_bound:.3f}",
                f"{r.changed_cs:.3f}",
                f"{r.reasons.get('below_one', 0.0):.3f}",
                f"{r.reasons.get('halfwidth', 0.0):.3f}",
                f"{r.reasons.get('max_trials', 0.0):.3f}",
                f"{r.mean_halfwidth:.3f}",
                f"{r.bias_plain:+.4f} ± {r.bias_plain_se:.4f}",
                f"{r.bias_unbiased:+.4f} ± {r.bias_unbiased_se:.4f}",
                f"{r.worst_cell_bias_plain:+.3f}",
                f"{r.worst_cell_bias_unbiased:+.3f}",
                f"{time.perf_counter() - t0:.0f}",
            ]
            print(
                "| " + " | ".join(cells) + " |" if args.markdown else "  ".join(cells), flush=True
            )


if __name__ == "__main__":
    main()
