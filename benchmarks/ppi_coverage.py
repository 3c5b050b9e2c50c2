"""Coverage of the PPI lean interval and Dawid-Skene's offset recovery, on simulated judges.

Each replication draws N true stance labels from a known distribution (lean = mean - 3 known),
rates them with three ``construction_sim/judge_biased`` judges (the provider's own
:func:`~inspect_stance.construction.simulator.biased_rating`: exact; offset +1; noise sd
0.8), takes the ensemble label (strict majority, else the median), gives n random responses a
human label (the true one), and checks whether the 95 % interval covers the true lean:

- PPI++ (``ppi_mean``, tuned lambda; the report's), classic PPI (lambda = 1), the human labels
  alone, and the judges alone (mean of the ensemble labels +- 1.96 SE);
- Dawid-Skene's offset of the +1 judge against its realised offset (mean judge - true), for
  ensembles of 3 and 5 judges, all with noise sd 0.4, and for 3 judges with 5 % / 10 % of the
  responses given their true label as gold label (``--ds-reps`` replications of 400);
- the neutral distance difference ``mean(|lean_T| - |lean_G|)`` over ``S`` settings, each lean
  estimate drawn from ``Normal(true lean, se)``: coverage of the true value by the interval in
  use (:func:`~inspect_stance.stats.ppi.distance_difference`) beside the percentiles of
  the plug-in statistic under ``Normal(estimate, se)`` that it replaced, with mean widths.

    python benchmarks/ppi_coverage.py [--reps 400] [--n 40 100] [--big-n 400]
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import numpy as np

from inspect_stance.construction.labels import LABELS, SCORES
from inspect_stance.construction.simulator import biased_rating
from inspect_stance.stats.dawid_skene import fit_dawid_skene
from inspect_stance.stats.ppi import PPIEstimate, distance_difference, ppi_mean

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
        [[str(x) for x in row] for row in ratings],
        [str(k) for k in judges],
        gold=anchors,
        classes=LABELS,
        scores=SCORES,
    )
    return fit.offsets[1] - float(np.mean([row[1] - t for row, t in zip(ratings, y, strict=True)]))


def percentile_interval(t: np.ndarray, t_se: np.ndarray, g: np.ndarray, g_se: np.ndarray,
                        rng: np.random.Generator, draws: int = 4000) -> tuple[float, float]:  # fmt: skip
    """The replaced interval: percentiles of ``mean(|T| - |G|)``, ``T ~ Normal(est, se)``."""
    st = np.abs(rng.normal(t, t_se, (draws, len(t)))) - np.abs(rng.normal(g, g_se, (draws, len(g))))
    low, high = np.quantile(st.mean(axis=1), [0.025, 0.975])
    return float(low), float(high)


def distance_coverage(lean_t: float, lean_g: float, se_t: float, se_g: float, settings: int,
                      reps: int, seed: int = 0) -> dict[str, float]:  # fmt: skip
    """Coverage and mean width of the distance-difference interval, new and replaced."""
    rng = np.random.default_rng(seed)
    truth = abs(lean_t) - abs(lean_g)
    out = {"new": 0.0, "old": 0.0, "new width": 0.0, "old width": 0.0}
    for k in range(reps):
        t, g = rng.normal(lean_t, se_t, settings), rng.normal(lean_g, se_g, settings)
        ests = [
            [PPIEstimate(v, se, v, v, 0, 0, 1.0) for v in x] for x, se in ((t, se_t), (g, se_g))
        ]
        _, low, high = distance_difference(*ests, draws=4000, seed=k)
        o_low, o_high = percentile_interval(
            t, np.full(settings, se_t), g, np.full(settings, se_g), rng
        )
        out["new"] += (low <= truth <= high) / reps
        out["old"] += (o_low <= truth <= o_high) / reps
        out["new width"] += (high - low) / reps
        out["old width"] += (o_high - o_low) / reps
    return out


def edge_replication(rng: np.random.Generator, n: int, big_n: int = 400,
                     accuracy: float = 0.9) -> tuple[float, bool, float]:  # fmt: skip
    """An accurate but biased ensemble: its label is the true one with probability
    ``accuracy``, else one step higher (clipped to 5); ``n`` random responses get a human
    label. (covered, warned, covered before) of classic PPI's 95 % interval of the mean
    label."""
    y = rng.choice(np.arange(1, 6), size=big_n, p=PROBS).astype(float)
    wrong = rng.random(big_n) > accuracy
    f = np.where(wrong, np.minimum(y + 1, 5), y)
    truth = float((np.arange(1, 6) * PROBS).sum())
    mask = np.zeros(big_n, dtype=bool)
    mask[rng.choice(big_n, size=n, replace=False)] = True
    est = ppi_mean(y[mask], f[mask], f[~mask], lam=1.0)
    return (
        float(est.ci_low <= truth <= est.ci_high),
        bool(est.warning),
        old_covers(y[mask], f[mask], f[~mask], truth),
    )


def old_covers(y: np.ndarray, f: np.ndarray, fu: np.ndarray, truth: float) -> float:
    """Whether the interval before (normal quantile, variances with ddof 0) covers."""
    theta = fu.mean() + (y - f).mean()
    se = math.sqrt(fu.var() / len(fu) + (y - f).var() / len(y))
    return float(abs(theta - truth) <= 1.959964 * se)


def edges(reps: int, sizes: tuple[int, ...] = (10, 20, 50), seed: int = 5
          ) -> dict[int, dict[str, float]]:  # fmt: skip
    """Per number of labels: coverage over all replications, the share warned, and coverage
    where no warning was given (module ``--edges``)."""
    rng = np.random.default_rng(seed)
    out = {}
    for n in sizes:
        rows = [edge_replication(rng, n) for _ in range(reps)]
        cov = np.array([c for c, _, _ in rows])
        warned = np.array([w for _, w, _ in rows])
        quiet = cov[~warned]
        out[n] = {"coverage": float(cov.mean()), "warned": float(warned.mean()),
                  "coverage_before": float(np.mean([o for _, _, o in rows])),
                  "coverage_unwarned": float(quiet.mean()) if quiet.size else math.nan,
                  "n_unwarned": int(quiet.size)}  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--n", type=int, nargs="+", default=[40, 100])
    parser.add_argument("--big-n", type=int, nargs="+", default=[400])
    parser.add_argument("--ds-reps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--edges", action="store_true",
                        help="only the accurate-but-biased ensemble at 10/20/50 labels")  # fmt: skip
    args = parser.parse_args()
    if args.edges:
        for n, row in edges(args.reps).items():
            print(
                f"{n} labels: coverage before {row['coverage_before']:.3f}, now "
                f"{row['coverage']:.3f}; warned {row['warned']:.3f}; coverage where no "
                f"warning {row['coverage_unwarned']:.3f} ({row['n_unwarned']} intervals)"
            )
        return
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
    for case in ((0.0, 0.0, 0.1, 0.3, 18), (0.4, 0.1, 0.15, 0.15, 18), (0.4, 0.1, 0.15, 0.15, 1),
                 (0.0, 0.0, 0.1, 0.3, 1), (0.5, 0.5, 0.1, 0.1, 18), (0.0, 0.4, 0.3, 0.1, 18)):  # fmt: skip
        res = distance_coverage(*case, reps=args.reps, seed=args.seed)
        print(f"distance difference, leans {case[0]:g} / {case[1]:g}, se {case[2]:g} / "
              f"{case[3]:g}, {case[4]} settings: coverage {res['new']:.3f} (width "
              f"{res['new width']:.3f}); replaced percentile interval {res['old']:.3f} (width "
              f"{res['old width']:.3f})")  # fmt: skip
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
