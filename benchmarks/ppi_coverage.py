"""Coverage of the PPI lean interval and Dawid-Skene's offset recovery, on simulated judges.

Each replication draws N true stance labels from a known distribution (lean = mean - 3 known),
rates them with three ``construction_sim/judge_biased`` judges (the provider's own
:func:`~inspect_stance.providers.construction_sim.biased_rating`: exact; offset +1; noise sd
0.8), takes the ensemble label (strict majority, else the median), gives n random responses a
human label (the true one), and checks whether the 95 % interval covers the true lean:

- PPI++ (``ppi_mean``, tuned lambda; the report's), classic PPI (lambda = 1), the human labels
  alone, and the judges alone (mean of the ensemble labels +- 1.96 SE);
- Dawid-Skene's offset of the +1 judge against its realised offset (mean judge - true), for
  ensembles of 3 and 5 judges, all with noise sd 0.4, and for 3 judges with 5 % / 10 % of the
  responses given their true label as gold label (``--ds-reps`` replications of 400).

    python benchmarks/ppi_coverage.py [--reps 400] [--n 40 100] [--big-n 400]
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import numpy as np

from inspect_stance.construction.dawid_skene import fit_dawid_skene
from inspect_stance.construction.ppi import ppi_mean
from inspect_stance.providers.construction_sim import biased_rating

PROBS = np.array([0.2, 0.35, 0.3, 0.1, 0.05])
JUDGES = ((0.0, 0.0), (1.0, 0.0), (0.0, 0.8))  # (offset, noise sd)


def ensemble(row: list[int]) -> int:
    label, count = Counter(row).most_common(1)[0]
    return label if 2 * count > len(row) else int(np.median(row))


def replication(rng: np.random.Generator, r: int, n: int, big_n: int) -> dict[str, float]:
    true_lean = float((np.arange(1, 6) * PROBS).sum()) - 3
    y = rng.choice(np.arange(1, 6), size=big_n, p=PROBS)
    ratings = [
        [
            biased_rating(int(t), off, sd, 97 * r + k, f"{r}:{i}")
            for k, (off, sd) in enumerate(JUDGES)
        ]
        for i, t in enumerate(y)
    ]
    f = np.array([ensemble(row) for row in ratings], dtype=float)
    mask = np.zeros(big_n, dtype=bool)
    mask[rng.choice(big_n, size=n, replace=False)] = True
    out: dict[str, float] = {}
    for name, lam in (("ppi++", None), ("ppi", 1.0), ("humans only", 0.0)):
        est = ppi_mean(y[mask], f[mask], f[~mask], lam=lam).shifted(3.0)
        out[name] = float(est.ci_low <= true_lean <= est.ci_high)
        out[name + " width"] = est.ci_high - est.ci_low
    m, se = f.mean() - 3, f.std(ddof=1) / math.sqrt(big_n)
    out["judges only"] = float(abs(m - true_lean) <= 1.96 * se)
    out["judges only width"] = 2 * 1.96 * se
    return out


def ds_offset_error(r: int, judges: tuple[tuple[float, float], ...], gold: float = 0.0) -> float:
    """Dawid-Skene's offset of judge 1 minus its realised offset, 400 responses; a share
    ``gold`` of them (at random) with their true label as gold label."""
    rng = np.random.default_rng(r)
    y = rng.choice(np.arange(1, 6), size=400, p=PROBS)
    anchors = [str(t) if rng.random() < gold else None for t in y] if gold else None
    ratings = [
        [
            biased_rating(int(t), off, sd, 97 * r + k, f"{r}:{i}")
            for k, (off, sd) in enumerate(judges)
        ]
        for i, t in enumerate(y)
    ]
    fit = fit_dawid_skene(
        [[str(x) for x in row] for row in ratings], [str(k) for k in judges], gold=anchors
    )
    return fit.offsets[1] - float(np.mean([row[1] - t for row, t in zip(ratings, y, strict=True)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--n", type=int, nargs="+", default=[40, 100])
    parser.add_argument("--big-n", type=int, nargs="+", default=[400])
    parser.add_argument("--ds-reps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"true lean {float((np.arange(1, 6) * PROBS).sum()) - 3:+.2f}; {args.reps} replications")
    for big_n in args.big_n:
        for n in args.n:
            if n >= big_n:
                continue
            rng = np.random.default_rng(args.seed)
            rows = [replication(rng, r, n, big_n) for r in range(args.reps)]
            mean = {k: float(np.mean([x[k] for x in rows])) for k in rows[0]}
            print(f"N={big_n} responses, n={n} human-labelled:")
            for name in ("ppi", "ppi++", "humans only", "judges only"):
                width = mean[name + " width"]
                print(f"  {name:12s} coverage {mean[name]:.3f}  mean width {width:.3f}")
    for n_judges, gold in ((3, 0.0), (5, 0.0), (3, 0.05), (3, 0.1)):
        judges = ((0.0, 0.4), (1.0, 0.4)) + ((0.0, 0.4),) * (n_judges - 2)
        err = np.array([ds_offset_error(r, judges, gold) for r in range(args.ds_reps)])
        print(
            f"Dawid-Skene, {n_judges} judges (one +1), {gold:.0%} gold labels: offset minus "
            f"realised offset: mean {err.mean():+.3f}, max |.| {np.abs(err).max():.3f} "
            f"({args.ds_reps} replications)"
        )


if __name__ == "__main__":
    main()
