"""Kaplan-Meier survival in discrete time with a cluster-robust pointwise interval.

Each subject ``i`` has an event time ``T_i`` in ``1..K`` or is followed without an event up to
``C_i`` (censored). With ``R(t)`` subjects at risk at ``t`` (``T_i >= t`` and ``C_i >= t``) and
``d(t)`` events at ``t``, the product-limit estimate is

``S(t) = prod_{u <= t} (1 - d(u) / R(u))``.

Its pointwise standard error is a cluster-robust sandwich on the influence function of
``log S(t)``: subject ``i`` contributes

``phi_i(t) = - sum_{u <= t} (dN_i(u) - Y_i(u) * d(u) / R(u)) / (R(u) - d(u))``

(``dN_i(u)``: its event at ``u``; ``Y_i(u)``: at risk at ``u``), and with ``G`` clusters

``se(S(t)) = S(t) * sqrt( G / (G - 1) * sum_g (sum_{i in g} phi_i(t))^2 )``.

With no censoring ``S(t)`` is the share of subjects without an event by ``t`` and
``S(t) * phi_i(t) = (1{T_i > t} - S(t)) / n`` exactly, so the standard error equals the CR1
clustered standard error of that share (:func:`inspect_stance.stats.headline.clustered_mean`);
with one subject per cluster and no censoring it is Greenwood's ``S sqrt(sum d / (R (R - d)))``
times ``sqrt(n / (n - 1))``.

The interval is the log-minus-log (Kalbfleisch-Prentice) one, built on that standard error by
the delta method: ``v = log(-log S(t))`` has ``se(v) = se(S) / (S |log S|)``, its interval is
``v -/+ t_{G-1} se(v)``, and mapped back

``( S(t)^exp(+t_{G-1} se(v)),  S(t)^exp(-t_{G-1} se(v)) )``,

which lies inside ``(0, 1)`` and is asymmetric near 0 and 1 where ``S -/+ t se`` is not. Where
the standard error is 0 (``S`` is 0 or 1, or no subject's influence varies) the interval is the
point ``(S, S)``. In simulated clustered studies (5 to 40 clusters of 12 subjects, per-turn
hazards 0.03 to 0.45, with and without a log-normal cluster frailty of SD 0.7, 10 000 studies
each) it covered 0.945 to 0.98 at every turn, where ``S -/+ t se`` fell to 0.91 to 0.93 with
the frailty and 5 or 10 clusters; both fall short only with 5 clusters and ``S(t)`` near 1, where most studies see no
event. ``benchmarks/pushback_coverage.py`` checks it on the pushback simulator.

References
----------
Kaplan, E. L. and Meier, P. (1958). Nonparametric estimation from incomplete observations.
JASA 53, 457-481. Lin, D. Y. and Wei, L. J. (1989). The robust inference for the Cox
proportional hazards model. JASA 84, 1074-1078 (the clustered sandwich). Kalbfleisch, J. D.
and Prentice, R. L. (2002). The Statistical Analysis of Failure Time Data, 2nd ed., Wiley,
section 1.4 (the log-minus-log interval). Borgan, O. and Liestol, K. (1990). A note on
confidence intervals and bands for the survival function based on transformations. Scand. J.
Statist. 17, 35-41 (its coverage in small samples against the untransformed interval).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from inspect_stance.stats.headline import interval


@dataclass(frozen=True)
class SurvivalPoint:
    """``S(t)`` at one time with its clustered standard error and interval, the subjects at
    risk and the events at ``t``."""

    time: int
    survival: float
    se: float
    interval: tuple[float, float]
    at_risk: int
    events: int


@dataclass(frozen=True)
class SurvivalCurve:
    """A Kaplan-Meier curve at times ``1..K``, with its clusters' count (``df = G - 1``)."""

    points: tuple[SurvivalPoint, ...]
    n_subjects: int
    n_clusters: int
    confidence: float = 0.95

    def at(self, time: int) -> SurvivalPoint:
        """The point at ``time`` (``1..K``)."""
        return self.points[time - 1]

    def median(self) -> float:
        """The median time: the first ``t`` with ``S(t) <= 0.5`` (``inf`` when the curve stays
        above one half through ``K``)."""
        return next((float(p.time) for p in self.points if p.survival <= 0.5), math.inf)


def loglog_interval(s: float, se: float, df: float | None,
                    confidence: float = 0.95) -> tuple[float, float]:  # fmt: skip
    """The log-minus-log interval of a survival probability ``s`` with standard error ``se``
    (module docstring): :func:`~inspect_stance.stats.headline.interval` of
    ``v = log(-log s)`` with ``se / (s |log s|)`` and ``df``, mapped back by
    ``s = exp(-exp(v))`` (the bounds swap). ``(s, s)`` when ``se`` is 0; ``(NaN, NaN)`` when
    ``se`` is not finite or ``df < 1``."""
    if not (math.isfinite(s) and math.isfinite(se)) or (df is not None and df < 1):
        return (math.nan, math.nan)
    if se == 0.0 or s <= 0.0 or s >= 1.0:
        return (s, s)
    lo, hi = interval(math.log(-math.log(s)), se / (s * abs(math.log(s))), df,
                      (-math.inf, math.inf), confidence)  # fmt: skip
    return (math.exp(-math.exp(hi)), math.exp(-math.exp(lo)))


def kaplan_meier(events: Sequence[int | None], followed: Sequence[int], horizon: int,
                 clusters: Sequence[Hashable] | None = None,
                 confidence: float = 0.95) -> SurvivalCurve:  # fmt: skip
    """The product-limit curve at ``1..horizon`` (module docstring).

    ``events[i]``: subject ``i``'s event time (``None``: no event); ``followed[i]``: the last
    time it was observed (an event time is its last observed time); ``clusters``: its cluster
    (``None``: every subject its own). Fewer than two clusters: NaN standard errors."""
    n = len(events)
    if len(followed) != n:
        raise ValueError(f"{n} event times but {len(followed)} follow-up times")
    keys: list[Hashable] = list(range(n)) if clusters is None else list(clusters)
    if len(keys) != n:
        raise ValueError(f"{n} subjects but {len(keys)} cluster labels")
    last = [e if e is not None else int(f) for e, f in zip(events, followed, strict=True)]
    g_index = {k: j for j, k in enumerate(dict.fromkeys(keys))}
    g = len(g_index)
    phi = [0.0] * n
    surv = 1.0
    points: list[SurvivalPoint] = []
    for t in range(1, horizon + 1):
        at_risk = [i for i in range(n) if last[i] >= t]
        r = len(at_risk)
        d = sum(1 for i in at_risk if events[i] == t)
        if r > 0:
            h = d / r
            surv *= 1.0 - h
            for i in at_risk:  # (R - d) = 0: S is 0 from here on, its SE 0
                if r > d:
                    phi[i] -= ((1.0 if events[i] == t else 0.0) - h) / (r - d)
        totals = [0.0] * g
        for i in range(n):
            totals[g_index[keys[i]]] += phi[i]
        if g < 2:
            se, df = math.nan, None
        else:
            se = surv * math.sqrt(g / (g - 1) * sum(x * x for x in totals))
            df = float(g - 1)
        ci = loglog_interval(surv, se, df, confidence)
        points.append(SurvivalPoint(t, surv, se, ci, r, d))
    return SurvivalCurve(tuple(points), n, g, confidence)
