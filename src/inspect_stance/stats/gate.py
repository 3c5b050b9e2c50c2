"""The release gate's checks of a run against its baseline, one per metric (Inspect-free).

For metric ``m`` and the items ``k`` both runs share, the *drop* is the paired mean worsening
``drop = mean_k w_k`` with ``w_k = base_k - run_k`` (a metric where higher is better) or
``run_k - base_k`` (lower is better). Items may be clustered (topics, statements,
propositions: ``clusters``, item -> cluster): ``se`` is then the cluster-robust standard
error of the mean drop and every t below has its degrees of freedom ``df`` (CR2 with
Bell-McCaffrey df; with ``G`` clusters of equal size, the CR1 with ``G - 1``:
:func:`~inspect_stance.stats.paired.clustered_paired_test`); without clusters every item is
its own cluster, ``se = sd(w) / sqrt(n)`` and ``G = n``. Two rules:

- ``significant-drop`` (the default): the check fails when ``drop > D`` **and** the one-sided
  paired t-test of ``drop > 0`` (``T = drop / se`` on ``df``; unclustered, exactly
  ``scipy.stats.ttest_rel(..., alternative="greater")``) is significant;
- ``non-inferiority``: the check passes only when the run is shown to be no worse than the
  baseline by ``D`` or more: H0 ``drop >= D`` is rejected, ``p_NI = F_t((drop - D) / se; df)``
  (``F_t`` the Student-t CDF). With one metric this is exactly: *the upper end of the one-sided
  ``1 - alpha`` interval of the drop, ``drop + t_{1-alpha, df} se``, is below ``D``*.

Several metrics are one family: the p-values of the rule in use are Holm-adjusted
(family-wise error rate ``alpha``) before they are compared with ``alpha``.

Power: ``detectable_drop`` is the drop the one-sided test at level ``alpha`` would detect with
80 % power at this run's size and spread (:func:`~inspect_stance.stats.power.detectable_difference`),
so a pass on a small run is not read as safety.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from inspect_stance.stats.family import MetricSpec, paired_arrays
from inspect_stance.stats.multiplicity import adjust_pvalues
from inspect_stance.stats.paired import clustered_paired_test
from inspect_stance.stats.power import detectable_difference

Rule = Literal["significant-drop", "non-inferiority"]
RULES: tuple[str, ...] = ("significant-drop", "non-inferiority")
POWER = 0.8


@dataclass(frozen=True)
class CheckLine:
    """One check of a gate: its name, outcome and one-line message."""

    name: str
    passed: bool
    message: str


@dataclass
class DropCheck:
    """One metric's check against the baseline."""

    metric: str
    n_shared: int
    baseline: float
    run: float
    drop: float
    drop_se: float
    t_statistic: float
    p_value: float  # one-sided, H1: drop > 0
    upper_bound: float  # one-sided (1 - alpha) upper bound of the drop
    p_noninferiority: float  # H0: drop >= D
    p_adjusted: float  # Holm over the metrics, of the rule's p
    detectable_drop: float  # at 80 % power
    rule: str
    max_drop: float
    alpha: float
    passed: bool
    reason: str
    n_clusters: int = 0  # the independent clusters the test counts (= n_shared unclustered)


def _worsening(spec: MetricSpec, base: np.ndarray, run: np.ndarray) -> np.ndarray:
    return base - run if spec.higher_is_better else run - base


def _one(spec: MetricSpec, base: np.ndarray, run: np.ndarray, max_drop: float,
         alpha: float, clusters: Sequence[Hashable] | None = None,
         cluster: str = "cluster") -> tuple[float, ...]:  # fmt: skip
    """``(drop, se, t, p_drop, upper, p_ni, mde, base mean, run mean, n, G)`` of one metric."""
    ok = ~(np.isnan(base) | np.isnan(run))
    base, run = base[ok], run[ok]
    keys = None if clusters is None else [k for k, good in zip(clusters, ok, strict=True) if good]
    n = int(base.size)
    if n < 2:
        raise ValueError(f"{spec.name}: only {n} shared items with a value; need at least 2")
    w = _worsening(spec, base, run)
    drop_test = clustered_paired_test(w, keys, 1 - 2 * alpha, "greater", 0.0, cluster)
    g = drop_test.n_clusters
    if g < 2:
        raise ValueError(f"{spec.name}: the {n} shared items lie in {g} {cluster}; a clustered "
                         f"test needs at least 2 {cluster}s")  # fmt: skip
    ni_test = clustered_paired_test(w, keys, 1 - 2 * alpha, "less", max_drop, cluster)
    drop, se = drop_test.delta, drop_test.se
    if se == 0.0:
        t = math.inf if drop > 0 else (-math.inf if drop < 0 else math.nan)
        p_drop, p_ni, upper = (0.0 if drop > 0 else 1.0), (0.0 if drop < max_drop else 1.0), drop
    else:
        t = drop / se
        p_drop, p_ni = drop_test.p, ni_test.p
        upper = drop + float(stats.t.ppf(1 - alpha, drop_test.df)) * se
    # the detectable drop of the test with G - 1 df: the paired t over G cluster units whose
    # "sd" makes sd / sqrt(G) the clustered SE
    mde = detectable_difference(g, se * math.sqrt(g), alpha, POWER)
    return drop, se, t, p_drop, upper, p_ni, mde, float(base.mean()), float(run.mean()), n, g


def drop_checks(
    baseline: Mapping[str, Mapping[str, float]],
    run: Mapping[str, Mapping[str, float]],
    metrics: Sequence[MetricSpec],
    max_drop: float = 0.0,
    alpha: float = 0.05,
    rule: Rule = "significant-drop",
    clusters: Mapping[str, Hashable] | None = None,
    cluster: str = "cluster",
) -> list[DropCheck]:
    """One :class:`DropCheck` per metric, Holm-adjusted together (module docstring).

    ``clusters``: item key -> its cluster (topic, statement, proposition); an item missing
    from it is its own cluster. ``None``: every item its own cluster (the paired t-test)."""
    if rule not in RULES:
        raise ValueError(f"unknown gate rule {rule!r}; use one of {', '.join(RULES)}")
    raw = []
    for spec in metrics:
        b, r = paired_arrays(baseline[spec.name], run[spec.name])
        keys = None
        if clusters is not None:
            shared = [k for k in baseline[spec.name] if k in run[spec.name]]
            keys = [clusters.get(k, ("item", k)) for k in shared]
        raw.append(_one(spec, b, r, max_drop, alpha, keys, cluster))
    key = 5 if rule == "non-inferiority" else 3
    ps = [x[key] for x in raw]
    adjusted = ps if len(ps) == 1 else adjust_pvalues(ps, "holm")  # one metric: Holm is p
    out = []
    for spec, x, p_adj in zip(metrics, raw, adjusted, strict=True):
        drop, se, t, p_drop, upper, p_ni, mde, bm, rm, n, g = x
        if rule == "non-inferiority":
            passed = p_adj < alpha
            verdict = "shown" if passed else "NOT shown"
            reason = (f"{spec.name}: drop {drop:.3f} (one-sided {100 * (1 - alpha):g} % upper "
                      f"bound {upper:.3f}) vs --max-drop {max_drop:g}: non-inferiority {verdict} "
                      f"(Holm p {p_adj:.3g})")  # fmt: skip
        else:
            passed = not (drop > max_drop and p_adj < alpha)
            sig = "significant" if p_adj < alpha else "not significant"
            reason = (f"{spec.name}: drop {drop:.3f} ({bm:.3f} -> {rm:.3f}, {sig}, Holm p "
                      f"{p_adj:.3g}) {'>' if drop > max_drop else '<='} --max-drop {max_drop:g}")  # fmt: skip
        if passed:
            over = f"{int(n)} items" + (f" in {int(g)} {cluster}s" if g < n else "")
            reason += f"; could detect a drop of {mde:.3f} at 80 % power over {over}"
        if se == 0.0:
            reason += (f"; every item's difference is {drop:.3f} (zero variance): the test is "
                       "degenerate, check that the two runs are really different runs")  # fmt: skip
        out.append(DropCheck(spec.name, int(n), bm, rm, drop, se, t, p_drop, upper, p_ni, p_adj,
                             mde, rule, max_drop, alpha, passed, reason, int(g)))  # fmt: skip
    return out
