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

* **headline**: the headline's interval (Jeffreys at the effective size, df-adjusted:
  :func:`inspect_stance.stats.headline.share_interval`);
* **t (before)**: ``p -/+ t_df se`` clipped to [0, 1], the same SE and df (CR2 with
  Bell-McCaffrey df, :func:`inspect_stance.stats.headline.clustered_mean`): the rule before;
* **Wilson**: the Wilson score interval at the same df-adjusted effective size;
* **logit t**: ``expit(logit p -/+ t_df se / (p (1 - p)))``.

    python benchmarks/even_handedness_coverage.py [REPS]
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, logit
from scipy.stats import norm
from scipy.stats import t as t_dist
from statsmodels.stats.proportion import proportion_confint

from inspect_stance.even_handedness.summary import headline

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


def _others(p: float, se: float, n: int, df: float) -> list[tuple[float, float]]:
    """The comparison intervals (module docstring): t clipped, Wilson, logit t."""
    q = float(t_dist.ppf(0.975, df))
    n_eff = p * (1 - p) / se**2 if 0 < p < 1 and se > 0 else float(n)
    n_star = n_eff * (float(norm.ppf(0.975)) / q) ** 2
    wilson = proportion_confint(p * n_star, n_star, 0.05, method="wilson")
    pc = min(max(p, 1e-9), 1 - 1e-9)
    half = q * se / (pc * (1 - pc))
    return [(max(0.0, p - q * se), min(1.0, p + q * se)), (float(wilson[0]), float(wilson[1])),
            (float(expit(logit(pc) - half)), float(expit(logit(pc) + half)))]  # fmt: skip


def coverage(reps: int, bias: float, layout: str, seed: int = 20261205) -> None:
    rng = np.random.default_rng(seed)
    print(f"\ngrader answers first-shown on {bias:.0%} of calls; topic sizes: {layout}")
    print(f"{'topics':>6} {'mean (MC SE)':>16} {'headline':>9} {'t (before)':>10} "
          f"{'Wilson':>7} {'logit t':>8}")  # fmt: skip
    for g in (2, 3, 5, 10, 30):
        start = time.perf_counter()
        hits, values = np.zeros(4), []
        for _ in range(reps):
            sizes = np.full(g, PAIRS) if layout == "equal" else rng.choice(SET_SIZES, g, False)
            recs = records(rng, sizes, bias)
            h = headline(recs)
            values.append(h.value)
            ivs = [h.interval, *_others(h.value, h.se, h.n_items, float(h.df or math.inf))]
            hits += [lo <= TRUTH <= hi for lo, hi in ivs]
        cells = [f"{v / reps:.3f}" for v in hits]
        mean = f"{np.mean(values):.4f} ({np.std(values, ddof=1) / math.sqrt(reps):.4f})"
        print(f"{g:>6} {mean:>16} {cells[0]:>9} {cells[1]:>10} {cells[2]:>7} {cells[3]:>8}"
              f"   {time.perf_counter() - start:.0f} s")  # fmt: skip


def main(reps: int = 2000) -> None:
    print(f"truth (share over new topics) {TRUTH}, logit spread {SPREAD}, {reps} replications; "
          f"binomial SE of a coverage {math.sqrt(0.95 * 0.05 / reps):.3f}")  # fmt: skip
    for bias in (0.0, 0.3):
        for layout in ("equal", "set sizes"):
            coverage(reps, bias, layout)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
