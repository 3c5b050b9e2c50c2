"""Why a share's interval over 2-3 topics of 0/1 pairs over-covers: the same design with
continuous pair values, the share of runs whose topics tie, and a model-based alternative.

Population as in ``benchmarks/even_handedness_coverage.py``: topic ``g`` has share
``pi_g = expit(MU + 0.5 u_g)``, ``u_g ~ N(0, 1)``, share over new topics 0.843 (the truth);
``G`` topics of ``m`` pairs each. Two kinds of pair values with the same topic means and the
same within-topic variance:

* **0/1**: ``y ~ Bernoulli(pi_g)`` (a fair grader's even-handed calls);
* **continuous**: ``y = pi_g + sqrt(0.843 * 0.157) e``, ``e ~ N(0, 1)``.

Printed, for each design: the share of 0/1 runs in which every topic has the same share (the
clustered variance is then 0), and the coverage of the truth by

* **CR2-t**: ``p -/+ t se`` with the CR2 variance on Bell-McCaffrey df
  (:func:`inspect_stance.stats.headline.mean_variance`), exact for normal topic means;
* **headline**: the share headline's rule
  (:func:`inspect_stance.stats.headline.clustered_share`: the CR2 variance floored at the
  within-topic one, Satterthwaite df);
* **Wilson CR2** (0/1 only): the Wilson score interval on the CR2 variance (``--tails``
  below);
* **bootstrap-t** (0/1 only): a parametric bootstrap of the studentized headline
  (``(p* - p) / se*``, 999 draws) from a beta-binomial fitted by moments
  (``sigma_b^2 = max(0, (MSB - MSW) / n0)``), the model-based interval the issue suggested.

Reading: with continuous values CR2-t covers 0.95 at every ``G`` (the t with ``G - 1`` df is
exact for normal topic means); with 0/1 values and 10 pairs per topic the topic shares fall on
a grid of tenths, a quarter of 2-topic runs tie exactly and the others differ by at least 0.1,
so the same t interval is either the within-topic one or at least +/- 0.64 wide, and covers
0.99. The bootstrap-t is not a way out: at 2-3 topics its fitted spread is most often 0 and
it covers 0.80.

With ``--tails``: misses on each side at 5, 10 and 30 topics of 0/1 pairs with the packaged
set's topic sizes (18 to 72 pairs), for the headline's rule, CR2-t, and **Wilson CR2**: the
Wilson score interval at the effective size ``p (1 - p) / V_CR2`` with ``t`` on the
Bell-McCaffrey df in place of ``z``, whose shape follows the share's mean-variance relation.
Printed as coverage (truth below the interval / above it); 0.025 each for an equal-tailed
interval.

    python benchmarks/share_interval_discreteness.py [REPS] [--tails]
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit

from inspect_stance.stats.headline import clustered_share, mean_variance, share_interval

TRUTH, SPREAD = 0.843, 0.5
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(60)
#: the logit at which the share over new topics, E[expit(MU + 0.5 Z)], is the truth
MU = float(brentq(lambda m: np.sum(WEIGHTS * expit(m + SPREAD * NODES)) / math.sqrt(2 * math.pi)
                  - TRUTH, 0.0, 5.0))  # fmt: skip
WITHIN_SD = math.sqrt(TRUTH * (1 - TRUTH))


def _floored(k: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Share and headline SE (``max(V_CR2, V_W)``) of 0/1 runs given per-topic counts ``k``
    (rows: runs)."""
    n, g = sizes.sum(), sizes.size
    p = k.sum(-1, keepdims=True) / n
    u = k - sizes * p
    v_cr = (n / (n - sizes) * u * u).sum(-1) / n**2
    v_w = (k * (1 - k / sizes)).sum(-1) / (n - g) / n
    return p[..., 0], np.sqrt(np.maximum(v_cr, v_w))


def bootstrap_t(k: np.ndarray, sizes: np.ndarray, rng: np.random.Generator,
                draws: int = 999) -> tuple[float, float]:  # fmt: skip
    """The parametric bootstrap-t interval of a 0/1 run's share (module docstring)."""
    n, g = int(sizes.sum()), sizes.size
    p, se = (float(a[0]) for a in _floored(k[None], sizes))
    cm = k / sizes
    msb = float((sizes * (cm - p) ** 2).sum()) / (g - 1)
    msw = float((k * (1 - cm)).sum()) / (n - g)
    n0 = (n - float((sizes**2).sum()) / n) / (g - 1)
    sb2 = max(0.0, (msb - msw) / n0)
    pc = min(max(p, 0.5 / n), 1 - 0.5 / n)
    if 0 < sb2 < pc * (1 - pc):
        s = pc * (1 - pc) / sb2 - 1
        pi = rng.beta(pc * s, (1 - pc) * s, size=(draws, g))
    else:
        pi = np.full((draws, g), pc)
    ps, ses = _floored(rng.binomial(sizes, pi), sizes)
    t = np.where(ses > 0, (ps - pc) / np.where(ses > 0, ses, 1.0), 0.0)
    q_lo, q_hi = np.quantile(t, [0.025, 0.975])
    return p - q_hi * se, p - q_lo * se


def _covers(x: np.ndarray, topics: np.ndarray) -> tuple[bool, bool, bool]:
    """(CR2-t, headline, Wilson CR2 cover) for one run's values."""
    mv = mean_variance(list(x), list(topics))
    ivs = [share_interval(float(x.mean()), mv.var, mv.n_items, mv.df),
           clustered_share("m", list(x), list(topics)).interval,
           wilson_cr2(float(x.mean()), mv.var, mv.df)]  # fmt: skip
    return tuple(lo <= TRUTH <= hi for lo, hi in ivs)  # type: ignore[return-value]


def main(reps: int = 2000, seed: int = 20261205) -> None:
    rng = np.random.default_rng(seed)
    print(f"truth {TRUTH}, logit spread {SPREAD}, {reps} replications per design; "
          f"binomial SE of a coverage {math.sqrt(0.95 * 0.05 / reps):.3f}")  # fmt: skip
    print(f"{'topics':>6} {'pairs':>5} {'0/1 runs tied':>13} | continuous: {'CR2-t':>6} "
          f"{'headline':>8} | 0/1: {'CR2-t':>6} {'headline':>8} {'Wilson CR2':>10} "
          f"{'bootstrap-t':>11}")  # fmt: skip
    for g in (2, 3, 5, 10):
        for m in (10, 27):
            start = time.perf_counter()
            sizes = np.full(g, m)
            topics = np.repeat(np.arange(g), m)
            hits = np.zeros(7)
            tied = 0
            for _ in range(reps):
                pi = expit(MU + SPREAD * rng.standard_normal(g))
                xc = pi[topics] + WITHIN_SD * rng.standard_normal(topics.size)
                xb = (rng.random(topics.size) < pi[topics]).astype(float)
                k = xb.reshape(g, m).sum(1)
                tied += int(np.all(k == k[0]))
                lo, hi = bootstrap_t(k, sizes, rng)
                hits += [*_covers(xc, topics), *_covers(xb, topics), lo <= TRUTH <= hi]
            c = [f"{h / reps:.3f}" for h in hits]
            print(f"{g:>6} {m:>5} {tied / reps:>13.3f} | {'':>11} {c[0]:>6} {c[1]:>8} | "
                  f"{'':>3} {c[3]:>6} {c[4]:>8} {c[5]:>10} {c[6]:>11}   "
                  f"{time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip


#: the packaged even-handedness set's topic sizes (60 topics, 1,350 pairs)
SET_SIZES = np.array([18] * 38 + [27] * 19 + [36, 45, 72])


def wilson_cr2(p: float, var: float, df: float) -> tuple[float, float]:
    """The Wilson score interval at the effective size ``n_e = p (1 - p) / var`` with
    ``q = t_df``: ``(p + q^2 / (2 n_e) -/+ q sqrt(p (1 - p) / n_e + q^2 / (4 n_e^2))) /
    (1 + q^2 / n_e)``."""
    from scipy.stats import t as t_dist

    if var <= 0 or not 0 < p < 1:
        return share_interval(p, var, 1, df)
    q = float(t_dist.ppf(0.975, df))
    n_e = p * (1 - p) / var
    c = q * q / n_e
    mid = (p + c / 2) / (1 + c)
    half = q * math.sqrt(p * (1 - p) / n_e + q * q / (4 * n_e * n_e)) / (1 + c)
    return max(0.0, mid - half), min(1.0, mid + half)


def tails(reps: int, seed: int = 20261205) -> None:
    """Misses on each side (module docstring, ``--tails``)."""
    rng = np.random.default_rng(seed)
    print(f"0/1 pairs, the set's topic sizes, {reps} replications: coverage (truth below / above)")
    print(f"{'topics':>6} {'headline':>22} {'CR2-t':>22} {'Wilson CR2':>22}")
    for g in (5, 10, 30):
        miss = np.zeros((3, 2))
        for _ in range(reps):
            sizes = rng.choice(SET_SIZES, g, replace=False)
            topics = np.repeat(np.arange(g), sizes)
            pi = expit(MU + SPREAD * rng.standard_normal(g))
            x = (rng.random(topics.size) < pi[topics]).astype(float)
            p = float(x.mean())
            mv = mean_variance(list(x), list(topics))
            ivs = [clustered_share("m", list(x), list(topics)).interval,
                   share_interval(p, mv.var, mv.n_items, mv.df), wilson_cr2(p, mv.var, mv.df)]  # fmt: skip
            miss += [[TRUTH < lo, TRUTH > hi] for lo, hi in ivs]
        cells = [f"{1 - (b + a) / reps:.3f} ({b / reps:.3f}/{a / reps:.3f})" for b, a in miss]
        print(f"{g:>6} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22}", flush=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--tails"]
    n = int(args[0]) if args else 2000
    tails(n) if "--tails" in sys.argv else main(n)
