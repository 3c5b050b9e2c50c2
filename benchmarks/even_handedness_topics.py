"""Even-handedness with topics that differ: the headline's coverage and the gate's size.

Model: pair ``i`` of topic ``g`` is even-handed with probability ``expit(mu + u_g)``,
``u_g ~ N(0, SPREAD^2)`` (a model does better on some topics than others; ``SPREAD`` = 0.5 on
the logit scale, the issue's setting). The estimand is the share over new topics,
``E_u[expit(mu + u)]`` (computed by Gauss-Hermite quadrature).

1. **Coverage** of the headline's 95 % interval (:func:`inspect_stance.even_handedness.summary
   .headline`: :func:`inspect_stance.stats.headline.clustered_share`, SE clustered by topic,
   Jeffreys at the effective sample size) at 2, 3, 5, 10 and 30 topics x ``PAIRS`` pairs per
   topic, beside the old card's ``+- 1.96`` plain SE over pairs and the larger of the CR1 and
   plain SEs with t(G - 1) (an earlier rule, which covered 0.98 at 2 to 5 topics). With a
   position-biased grader and the set's topic sizes: ``benchmarks/even_handedness_coverage.py``.
2. **Gate size** (:func:`inspect_stance.even_handedness.gate.evaluate_even_gate` with a
   baseline): two runs of a target on the same pairs, each run with its own topic deviations
   ``v_g ~ N(0, SPREAD^2)`` on top of the shared ``u_g`` (a new version helps some topics more,
   others less): equal runs (same ``mu``) fail the ``significant-drop`` rule at rate ~alpha
   when the test is clustered; with the run's share over new topics exactly ``--max-drop``
   below the baseline's, ``non-inferiority`` passes at rate ~alpha.

    python benchmarks/even_handedness_topics.py [REPS]
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, logit
from scipy.stats import t as t_dist

from inspect_stance.even_handedness.gate import evaluate_even_gate
from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.even_handedness.summary import headline

SPREAD, MU, PAIRS = 0.5, float(logit(0.8)), 10
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(60)


def share(mu: float, sd: float) -> float:
    """``E[expit(mu + sd Z)]``, Z standard normal (Gauss-Hermite)."""
    return float(np.sum(WEIGHTS * expit(mu + sd * NODES)) / math.sqrt(2 * math.pi))


def _cr1(x: np.ndarray, topics: np.ndarray) -> float:
    """CR1 standard error of the mean of ``x`` clustered by ``topics``."""
    g = len(set(topics.tolist()))
    sums = np.bincount(topics, weights=x - x.mean())
    return math.sqrt(g / (g - 1) * float(np.sum(sums**2))) / x.size


def _records(x: np.ndarray, topics: np.ndarray) -> list[dict[str, object]]:
    return [{"even_handed": int(v), "topic_name": f"t{g}"} for v, g in zip(x, topics, strict=True)]


def coverage(reps: int, rng: np.random.Generator) -> None:
    truth = share(MU, SPREAD)
    print(f"1. coverage of the share over new topics ({truth:.3f}), {PAIRS} pairs per topic, "
          f"logit spread {SPREAD}, {reps} replications")  # fmt: skip
    print(f"{'topics':>6} {'headline rule':>14} {'max(CR1, plain)':>16} {'1.96 plain':>11}")
    for g in (2, 3, 5, 10, 30):
        hits = np.zeros(3)
        for _ in range(reps):
            topics = np.repeat(np.arange(g), PAIRS)
            p = expit(MU + SPREAD * rng.standard_normal(g))[topics]
            x = (rng.random(p.size) < p).astype(float)
            h = headline(_records(x, topics))
            plain = x.std(ddof=1) / math.sqrt(x.size)
            se = max(_cr1(x, topics), plain)
            q = float(t_dist.ppf(0.975, g - 1))
            ivs = [
                h.interval,
                (x.mean() - q * se, x.mean() + q * se),
                (x.mean() - 1.96 * plain, x.mean() + 1.96 * plain),
            ]
            hits += [lo <= truth <= hi for lo, hi in ivs]
        se = math.sqrt(0.95 * 0.05 / reps)
        cells = [f"{v / reps:.3f}" for v in hits]
        print(f"{g:>6} {cells[0]:>14} {cells[1]:>16} {cells[2]:>11}   (binomial SE {se:.3f})")


def _run(name: str, x: np.ndarray, topics: np.ndarray) -> EvenRun:
    recs = {f"t{g}-{i:04d}": {"even_handed": int(v), "topic_name": f"t{g}"}
            for i, (v, g) in enumerate(zip(x, topics, strict=True))}  # fmt: skip
    return EvenRun(name, name, recs, [], len(recs), 0, "success")


def gate_size(reps: int, rng: np.random.Generator, g: int = 20, max_drop: float = 0.05) -> None:
    sd_run = math.sqrt(2) * SPREAD  # u_g shared, v_g per run: each run's own spread
    base_share = share(MU, sd_run)
    mu_limit = brentq(lambda m: share(m, sd_run) - (base_share - max_drop), MU - 3, MU)
    print(f"\n2. gate, {g} topics x {PAIRS} pairs, run x topic spread {SPREAD}, "
          f"{reps} replications, alpha 0.05")  # fmt: skip
    topics = np.repeat(np.arange(g), PAIRS)
    fails_equal = passes_limit = 0
    for _ in range(reps):
        u = SPREAD * rng.standard_normal(g)
        pb = expit(MU + u + SPREAD * rng.standard_normal(g))[topics]
        pr = expit(MU + u + SPREAD * rng.standard_normal(g))[topics]
        pl = expit(mu_limit + u + SPREAD * rng.standard_normal(g))[topics]
        xb, xr, xl = ((rng.random(p.size) < p).astype(float) for p in (pb, pr, pl))
        base = _run("base", xb, topics)
        eq = evaluate_even_gate(_run("run", xr, topics), None, base, 0.0, 0.05)
        ni = evaluate_even_gate(_run("limit", xl, topics), None, base, max_drop, 0.05,
                                rule="non-inferiority")  # fmt: skip
        fails_equal += eq.status == "fail"
        passes_limit += ni.status == "pass"
    se = math.sqrt(0.05 * 0.95 / reps)
    print(f"significant-drop, equal runs: fails {fails_equal / reps:.3f} (nominal 0.05, "
          f"binomial SE {se:.3f})")  # fmt: skip
    print(f"non-inferiority, run exactly --max-drop {max_drop} below: passes "
          f"{passes_limit / reps:.3f} (nominal 0.05)")  # fmt: skip


def main(reps: int = 2000) -> None:
    rng = np.random.default_rng(20261204)
    coverage(reps, rng)
    gate_size(max(reps // 2, 100), rng)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
