"""Rankings and gates on clustered items, against simulators with a known answer.

Generative model (one replication): ``m`` targets, ``G`` clusters (topics, statements) with
``k`` items each. Item ``i`` of cluster ``g`` scores 1 for target ``t`` with probability
``expit(a + mu_t + u_{t,g} + v_g + e_i)``: ``mu_t`` the target's true effect, ``v_g`` a cluster
effect shared by all targets (``N(0, 0.5)``), ``u_{t,g}`` a target x cluster effect
(``N(0, spread)``, "models doing better on some topics than others"), ``e_i`` an item effect
(``N(0, 0.5)``). With ``binary=False`` the item value is the mean of ``trials`` Bernoulli draws
(stance drift's per-proposition SPR). The true ordering over new clusters is the ordering of
``mu`` (the expected score is increasing in ``mu_t``).

Figures, old (items as independent units: the item bootstrap, the item-level paired t) beside
new (:mod:`inspect_stance.stats.ranking`, :func:`~inspect_stance.stats.paired.clustered_paired_test`):

- **tied groups of equal targets** (``mu`` all 0): the share of replications in which two of
  them land in different tied groups (target <= 0.05);
- **rank-1 calibration**: ``mu_t ~ N(0, tau)``; every stated P(rank 1) binned by 0.2, beside
  the share of those in which the target is truly best (target: within 0.05 of the bin's mean);
- **gate sizes**: a run equal to its baseline fails ``significant-drop`` (target <= 0.05); a
  run whose true drop is exactly the limit passes ``non-inferiority`` (target ~ 0.05);
- **PReSS McNemar row**: 19 statements x 10 argument sets, statement stability with a model x
  statement effect, equal models: the size of the instance-level McNemar row (old) and the
  statement-clustered row (new).

Run: ``OMP_NUM_THREADS=1 python benchmarks/ranking_calibration.py [--reps N] [--processes 4]
[--no-old]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from inspect_stance.stats.family import MetricSpec  # noqa: E402
from inspect_stance.stats.gate import drop_checks  # noqa: E402
from inspect_stance.stats.paired import clustered_paired_test  # noqa: E402
from inspect_stance.stats.ranking import rank_runs, tied_groups  # noqa: E402


def holm(p: list[float]) -> list[float]:
    """Holm-adjusted p-values (what ``stats.multiplicity.adjust_pvalues(p, "holm")`` gives,
    without statsmodels' per-call garbage collection, which dominates a simulation's time)."""
    order = np.argsort(p)
    m = len(p)
    out = np.empty(m)
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[k]))
        out[k] = running
    return out.tolist()


def pairwise_p(names: list[str], x: np.ndarray, clusters: list[int] | None
               ) -> dict[frozenset[str], float]:  # fmt: skip
    """Every pair's two-sided paired test, Holm: clustered (``clusters``) or over items
    (``None``, the tests before)."""
    pairs = list(itertools.combinations(range(x.shape[1]), 2))
    raw = []
    for i, j in pairs:
        p = clustered_paired_test(x[:, j] - x[:, i], clusters).p
        raw.append(1.0 if math.isnan(p) else p)
    return {frozenset((names[i], names[j])): p for (i, j), p in zip(pairs, holm(raw), strict=True)}


def simulate(rng: np.random.Generator, mu: np.ndarray, clusters: int, per: int,
             spread: float = 0.5, binary: bool = True, trials: int = 10,
             base: float = 0.5) -> tuple[np.ndarray, list[int]]:  # fmt: skip
    """``(values, cluster labels)``: an ``(items, targets)`` matrix of item values (module
    docstring) and each item's cluster."""
    m = len(mu)
    v = rng.normal(0, 0.5, clusters)
    u = rng.normal(0, spread, (clusters, m))
    labels = np.repeat(np.arange(clusters), per)
    e = rng.normal(0, 0.5, clusters * per)
    logit = base + mu[None, :] + u[labels] + v[labels, None] + e[:, None]
    p = 1 / (1 + np.exp(-logit))
    if binary:
        return (rng.random(p.shape) < p).astype(float), labels.tolist()
    return rng.binomial(trials, p) / trials, labels.tolist()


def old_rank_probabilities(x: np.ndarray, n_resamples: int = 2000, seed: int = 0) -> np.ndarray:
    """The rank probabilities before: items resampled as independent units."""
    n, m = x.shape
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, n, size=(n_resamples, n))].mean(axis=1)
    ranks = stats.rankdata(-means, method="min", axis=1)
    return np.stack([(ranks == r).mean(axis=0) for r in range(1, m + 1)], axis=1)


def split(groups: list[list[str]], names: list[str]) -> bool:
    """Whether two of ``names`` are not together in one tied group."""
    return not any(set(names) <= set(g) for g in groups)


def tie_error(reps: int, m: int = 4, clusters: int = 12, per: int = 10, spread: float = 0.5,
              seed: int = 1) -> dict[str, float]:  # fmt: skip
    """Share of replications splitting equal targets into different tied groups."""
    rng = np.random.default_rng(seed)
    names = [f"t{k}" for k in range(m)]
    old = new = 0
    for _ in range(reps):
        x, labels = simulate(rng, np.zeros(m), clusters, per, spread)
        est = x.mean(axis=0)
        order = [names[k] for k in np.argsort(-est, kind="stable")]
        old += split(tied_groups(order, pairwise_p(names, x, None)), names)
        new += split(tied_groups(order, pairwise_p(names, x, labels)), names)
    return {"old": old / reps, "new": new / reps}


def calibration_draws(reps: int, m: int = 4, clusters: int = 12, per: int = 10,
                      spread: float = 0.5, tau: float = 0.3, binary: bool = True, seed: int = 2,
                      old: bool = True) -> tuple[dict[str, list[float]], list[float]]:  # fmt: skip
    """Every stated P(rank 1), old and new, and whether that target is truly best."""
    rng = np.random.default_rng(seed)
    names = [f"t{k}" for k in range(m)]
    stated: dict[str, list[float]] = {"old": [], "new": []}
    right: list[float] = []
    for r in range(reps):
        mu = rng.normal(0, tau, m)
        x, labels = simulate(rng, mu, clusters, per, spread, binary)
        best = int(np.argmax(mu))
        if old:
            stated["old"] += list(old_rank_probabilities(x, seed=r)[:, 0])
        rk = rank_runs(names, x, {}, True, n_resamples=2000, seed=r, clusters=labels)
        stated["new"] += [rk.rank_probabilities[n][0] for n in names]
        right += [float(k == best) for k in range(m)]
    return stated, right


def bins(stated: dict[str, list[float]], right: list[float]
         ) -> dict[str, list[tuple[float, float, int]]]:  # fmt: skip
    """Per bin of stated P(rank 1) (width 0.2): (mean stated, share truly best, count)."""
    truth = np.array(right)
    out: dict[str, list[tuple[float, float, int]]] = {}
    for key, values in stated.items():
        if not values:
            continue
        s = np.array(values)
        rows = []
        for lo in np.arange(0, 1.0, 0.2):
            inside = (s >= lo) & ((s < lo + 0.2) if lo < 0.8 else (s <= 1.0))
            if inside.any():
                rows.append((float(s[inside].mean()), float(truth[inside].mean()),
                             int(inside.sum())))  # fmt: skip
        out[key] = rows
    return out


def calibration(reps: int, **kw: Any) -> dict[str, list[tuple[float, float, int]]]:
    """Per bin of stated P(rank 1) (width 0.2): (mean stated, share truly best, count)
    (:func:`calibration_draws`' options)."""
    return bins(*calibration_draws(reps, **kw))


def _calibration_chunk(args: tuple[int, int, dict[str, Any]]
                       ) -> tuple[dict[str, list[float]], list[float]]:  # fmt: skip
    reps, seed, kw = args
    return calibration_draws(reps, seed=seed, **kw)


def pooled_calibration(reps: int, processes: int, **kw: Any
                       ) -> dict[str, list[tuple[float, float, int]]]:  # fmt: skip
    """:func:`calibration` over ``processes`` worker processes, each with its own seed."""
    from multiprocessing import Pool

    chunks = [(len(part), 100 + k, kw)
              for k, part in enumerate(np.array_split(np.arange(reps), processes))]  # fmt: skip
    with Pool(processes) as pool:
        parts = pool.map(_calibration_chunk, chunks)
    stated: dict[str, list[float]] = {"old": [], "new": []}
    right: list[float] = []
    for st, r in parts:
        for key in stated:
            stated[key] += st[key]
        right += r
    return bins(stated, right)


def gate_rates(reps: int, clusters: int = 12, per: int = 10, spread: float = 0.5,
               max_drop: float = 0.05, seed: int = 3) -> dict[str, float]:  # fmt: skip
    """Failure rate of an equal run (significant-drop) and pass rate of a run exactly at the
    limit (non-inferiority), old (items independent) and new (clustered)."""
    rng = np.random.default_rng(seed)
    spec = [MetricSpec("m")]
    out = {"sig_old": 0.0, "sig_new": 0.0, "ni_old": 0.0, "ni_new": 0.0}
    for _ in range(reps):
        x, labels = simulate(rng, np.zeros(2), clusters, per, spread, binary=False)
        keys = [str(i) for i in range(x.shape[0])]
        clusters_of = dict(zip(keys, labels, strict=True))
        base = {"m": dict(zip(keys, x[:, 0], strict=True))}
        run = {"m": dict(zip(keys, x[:, 1], strict=True))}
        at_limit = {"m": {k: v - max_drop for k, v in run["m"].items()}}
        for tag, cl in (("old", None), ("new", clusters_of)):
            sig = drop_checks(base, run, spec, 0.0, 0.05, "significant-drop", cl)[0]
            ni = drop_checks(base, at_limit, spec, max_drop, 0.05, "non-inferiority", cl)[0]
            out[f"sig_{tag}"] += (not sig.passed) / reps
            out[f"ni_{tag}"] += ni.passed / reps
    return out


def mcnemar_size(reps: int, statements: int = 19, sets: int = 10, spread: float = 1.0,
                 seed: int = 4) -> dict[str, float]:  # fmt: skip
    """Size of the McNemar row at 5 % for two equal models with a model x statement effect:
    old (exact McNemar over statement x set instances) and new (the statement-clustered row)."""
    from statsmodels.stats.contingency_tables import mcnemar

    from inspect_stance.stats.paired import clustered_paired_test

    rng = np.random.default_rng(seed)
    old = new = 0
    labels = np.repeat(np.arange(statements), sets)
    for _ in range(reps):
        base = rng.normal(0, 1, statements)
        q = 1 / (1 + np.exp(-(base[:, None] + rng.normal(0, spread, (statements, 2)))))
        a = rng.random((statements, sets)) < q[:, [0]]
        b = rng.random((statements, sets)) < q[:, [1]]
        n10, n01 = int((a & ~b).sum()), int((~a & b).sum())
        n11 = int((a & b).sum())
        n00 = a.size - n11 - n10 - n01
        p = 1.0 if n10 + n01 == 0 else mcnemar([[n11, n10], [n01, n00]], exact=True).pvalue
        old += p < 0.05
        d = (b.astype(float) - a.astype(float)).ravel()
        new += clustered_paired_test(d, labels.tolist()).p < 0.05
    return {"old": old / reps, "new": new / reps}


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-9) / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="worker processes for the rank-1 calibration (at most 4 is polite)",
    )
    parser.add_argument(
        "--no-old",
        action="store_true",
        help="skip the item bootstrap's rank-1 probabilities (the slow part)",
    )
    args = parser.parse_args()
    n = args.reps
    tie = tie_error(n)
    print(f"equal targets split into different tied groups (4 targets, 12 topics x 10 pairs, "
          f"topic spread 0.5; {n} reps): old {tie['old']:.3f} new {tie['new']:.3f} "
          f"(+- {_se(tie['new'], n):.3f}; target <= 0.05)")  # fmt: skip
    for label, kw in (("even-handedness-like: 4 targets, 12 topics x 10 pairs, binary",
                       {"clusters": 12, "per": 10}),
                      ("stance-drift-like: 4 targets, 40 propositions, 10 trials",
                       {"clusters": 40, "per": 1, "binary": False, "spread": 0.3}),
                      ("stance-drift-like: 4 targets, 12 propositions, 10 trials",
                       {"clusters": 12, "per": 1, "binary": False, "spread": 0.3})):  # fmt: skip
        kw["old"] = not args.no_old
        cal = pooled_calibration(n, max(1, args.processes), **kw)
        print(f"rank-1 calibration, {label} (tau 0.3; {n} reps): stated -> truly best (count)")
        for key, rows in cal.items():
            text = "; ".join(f"{s:.2f} -> {t:.2f} ({c})" for s, t, c in rows)
            print(f"  {key}: {text}")
    g = gate_rates(n)
    print(f"gate, 12 topics x 10 items, topic spread 0.5 ({n} reps): significant-drop fails an "
          f"equal run: old {g['sig_old']:.3f} new {g['sig_new']:.3f}; non-inferiority passes a "
          f"run at the limit: old {g['ni_old']:.3f} new {g['ni_new']:.3f} (targets <= 0.05, "
          f"~0.05; +- {_se(0.05, n):.3f})")  # fmt: skip
    mc = mcnemar_size(n)
    print(
        f"PReSS McNemar row, 19 statements x 10 sets, model x statement effect ({n} reps): "
        f"size old {mc['old']:.3f} new {mc['new']:.3f} (target <= 0.05)"
    )


if __name__ == "__main__":
    main()
