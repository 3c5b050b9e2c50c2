"""Coverage of the even-handedness headline's interval at few topics, fair and biased grader.

Population: topic ``g`` has logit ``MU + u_g``, ``u_g ~ N(0, 0.5^2)``; a pair of the topic is
truly even-handed with probability ``expit(MU + u_g)``, else one-sided to a side drawn at
random; ``MU`` is set so that the share over new topics, ``E[expit(MU + 0.5 Z)]``, is 0.843
(the position-bias benchmark's truth). One grader judges each pair in both orders, reading it
right except on a share ``bias`` of its calls, where it answers the first-shown response
(the ``even_sim`` grader's ``-M position_bias``). Each run goes through the method's own code:
:func:`inspect_stance.even_handedness.summary.headline` (the position correction with ``b^``
estimated, its per-pair linearised values, clustered by topic).

Designs: 2, 3, 5, 10 and 30 topics, either 10 pairs each ("equal") or topic sizes drawn
without replacement from the packaged set's 60 topics (18 to 72 pairs, "set sizes"). Printed:
the mean headline (Monte-Carlo SE) and the coverage of the truth by

* **headline**: the headline's interval (:func:`inspect_stance.stats.headline.clustered_share`:
  the CR2 variance floored at the within-topic one, Satterthwaite df, ``p -/+ t se`` clipped;
  with se 0 the Jeffreys interval at ``n (z / t_{G-1})^2`` pairs); **below/above**: the share
  of runs in which the truth lies below its interval, and above it (0.025 each for an
  equal-tailed interval);
* **Jeffreys (before)**: the rule before: the CR2 variance with Bell-McCaffrey df (the
  within-topic one when every topic has the same share), the Jeffreys interval at the
  effective size ``p (1 - p) / V`` shrunk by ``(z / t_df)^2`` (Korn and Graubard 1998);
* **t CR2**: ``p -/+ t_df se`` clipped to [0, 1] with that CR2 variance and df;
* **Jeffreys, floored**: the Jeffreys interval above with the headline's variance and df.

    python benchmarks/even_handedness_coverage.py [REPS [BIAS LAYOUT]]

(``LAYOUT``: ``equal`` or ``sets``; without them all four designs.)
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit
from scipy.stats import norm
from scipy.stats import t as t_dist
from statsmodels.stats.proportion import proportion_confint

from inspect_stance.even_handedness.position import corrected
from inspect_stance.even_handedness.summary import headline
from inspect_stance.stats.headline import mean_variance

SPREAD, TRUTH, PAIRS = 0.5, 0.843, 10
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(60)
#: the packaged set's topic sizes (60 topics, 1,350 pairs)
SET_SIZES = np.array([18] * 38 + [27] * 19 + [36, 45, 72])


def share(mu: float, sd: float) -> float:
    """``E[expit(mu + sd Z)]``, Z standard normal (Gauss-Hermite)."""
    return float(np.sum(WEIGHTS * expit(mu + sd * NODES)) / math.sqrt(2 * math.pi))


MU = float(brentq(lambda m: share(m, SPREAD) - TRUTH, 0.0, 5.0))
_FIRST = {"ab": "A", "ba": "B"}  # the first-shown response, mapped back to prompt letters


def records(rng: np.random.Generator, sizes: np.ndarray, bias: float) -> list[dict[str, Any]]:
    """One run's pair records (one grader, both orders, text answers mapped back)."""
    topic = np.repeat(np.arange(sizes.size), sizes)
    even = rng.random(topic.size) < expit(MU + SPREAD * rng.standard_normal(sizes.size))[topic]
    side = np.where(even, "C", np.where(rng.random(topic.size) < 0.5, "A", "B"))
    pulled = rng.random((topic.size, 2)) < bias
    out = []
    for i in range(topic.size):
        choice = {o: _FIRST[o] if pulled[i, j] else str(side[i]) for j, o in enumerate(_FIRST)}
        one_sided = choice["ab"] == choice["ba"] != "C"
        out.append({"even_handed": int(not one_sided), "readout": "orders",
                    "topic_name": f"t{topic[i]}",
                    "graders": {"g": {"orders": {o: {"choice": c} for o, c in choice.items()}}}})  # fmt: skip
    return out


def _jeffreys(p: float, var: float, n: int, df: float) -> tuple[float, float]:
    """The Jeffreys interval at the effective size ``p (1 - p) / var`` x ``(z / t_df)^2``."""
    n_eff = p * (1 - p) / var if 0 < p < 1 and var > 0 else float(n)
    n_star = n_eff * (float(norm.ppf(0.975)) / float(t_dist.ppf(0.975, df))) ** 2
    lo, hi = proportion_confint(p * n_star, n_star, 0.05, method="jeffreys")
    return (0.0 if p == 0 else float(lo), 1.0 if p == 1 else float(hi))


def _others(
    recs: list[dict[str, Any]], p: float, var: float, df: float
) -> list[tuple[float, float]]:
    """The comparison intervals (module docstring): Jeffreys (before), t CR2, Jeffreys floored."""
    c = corrected(recs, None)
    mv = mean_variance(c.items, [str(r["topic_name"]) for r in c.records])
    q, se = float(t_dist.ppf(0.975, mv.df)), math.sqrt(mv.var)
    return [_jeffreys(p, mv.var, mv.n_items, mv.df),
            (max(0.0, p - q * se), min(1.0, p + q * se)),
            _jeffreys(p, var, mv.n_items, df)]  # fmt: skip


def coverage(reps: int, bias: float, layout: str, seed: int = 20261205) -> None:
    rng = np.random.default_rng(seed)
    print(f"\ngrader answers first-shown on {bias:.0%} of calls; topic sizes: {layout}")
    print(f"{'topics':>6} {'mean (MC SE)':>16} {'headline':>9} {'below/above':>13} "
          f"{'Jeffreys (before)':>17} {'t CR2':>6} {'Jeffreys, floored':>17}")  # fmt: skip
    for g in (2, 3, 5, 10, 30):
        start = time.perf_counter()
        hits, values, below, above = np.zeros(4), [], 0, 0
        for _ in range(reps):
            sizes = np.full(g, PAIRS) if layout == "equal" else rng.choice(SET_SIZES, g, False)
            recs = records(rng, sizes, bias)
            h = headline(recs)
            values.append(h.value)
            ivs = [h.interval, *_others(recs, h.value, h.se**2, float(h.df or math.inf))]
            hits += [lo <= TRUTH <= hi for lo, hi in ivs]
            below += TRUTH < ivs[0][0]
            above += TRUTH > ivs[0][1]
        cells = [f"{v / reps:.3f}" for v in hits]
        mean = f"{np.mean(values):.4f} ({np.std(values, ddof=1) / math.sqrt(reps):.4f})"
        tails = f"{below / reps:.3f}/{above / reps:.3f}"
        print(f"{g:>6} {mean:>16} {cells[0]:>9} {tails:>13} {cells[1]:>17} {cells[2]:>6} "
              f"{cells[3]:>17}   {time.perf_counter() - start:.0f} s", flush=True)  # fmt: skip


def main(reps: int = 2000, designs: list[tuple[float, str]] | None = None) -> None:
    print(f"truth (share over new topics) {TRUTH}, logit spread {SPREAD}, {reps} replications; "
          f"binomial SE of a coverage {math.sqrt(0.95 * 0.05 / reps):.3f}")  # fmt: skip
    for bias, layout in designs or [(b, lay) for b in (0.0, 0.3) for lay in ("equal", "sets")]:
        coverage(reps, bias, layout)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 2000, [(float(args[1]), args[2])] if len(args) > 2 else None)
