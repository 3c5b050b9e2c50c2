"""Variance components of a nested design by moments, predicted SEs, and their assurance.

A headline that is a mean over independent *top units* (PReSS statements, prompt-construction
settings) of a per-unit value ``y_u``, itself an equal-weight mean over nested replicates
(argument sets; prompts > responses > judges), has ``Var(headline) = V(n) / N`` for ``N`` top
units with

    ``V(n) = sigma_top^2 + sum_l sigma_l^2 / (n_1 ... n_{a(l)})``,

``sigma_l^2`` the variance of level ``l`` within its parent, ``a(l)`` its design axis and
``n_1, n_2, ...`` the replicates per axis (e.g. prompts, responses per prompt, judges per
response). A value that is a sum or difference of independent nested *parts* (the construction
gap: templated minus generated) adds their level terms.

**Estimator (ANOVA / method of moments, unbalanced).** Each unit's mean is the equal-weight
mean of its children's, so its variance given its true value is ``sum_l c_l(u) sigma_l^2`` with
``c(u) = sum_children c(child) / n^2 + e_{a(child)} / n``. Per level, the pooled within-parent
mean square of the children's means ``MS_l = SS_l / df_l`` (``df_l = sum_parents (n - 1)``)
has expectation ``sigma_l^2 + w_l . sigma`` with ``w_l = sum_parents (n - 1) / n sum_children
c(child) / df_l`` (a sample variance of independent values with one mean and variances ``v_i``
has expectation ``mean(v_i)``); the levels are solved from the bottom up (``sigma = Lm MS``,
``Lm`` lower-triangular). At the top, ``S_top = var(y_u)`` (ddof 1) and ``sigma_top^2 = S_top -
mean_u c(u) . sigma``. Balanced, these are the expected-mean-square solutions of the nested
random-effects ANOVA, which REML (statsmodels ``MixedLM``) reproduces when no component is
negative. A negative estimate is reported as 0 and named in ``truncated``; a level whose parents
all hold one child (``df_l = 0``: one response per prompt, one judge) cannot be separated from
its parent: it is folded into it (``sigma_l^2 = 0``, named in ``folded``), which predicts no
gain from more replicates there (conservative).

**The prediction's own sampling error (assurance).** ``V_hat(n) = S_top + a(n) . MS`` with
``a = Lm^T (c(n) - mean_u c(u))`` is a linear combination of mean squares; its sampling
distribution is approximated by a scaled chi-square, ``V_hat ~ V chi^2_d / d``, with ``d = 2
V_hat^2 / Var_jack(V_hat)``: the jackknife variance over top units of the same combination of
the leave-one-unit-out ``S_top`` and mean squares. The jackknife carries what Satterthwaite's
formula (which treats the mean squares as independent chi-squares) misses: the excess kurtosis
of bounded values and the covariance between levels (a 0/1 stable indicator's total variance
is nearly fixed by its mean, so a pilot's between- and within-statement parts move in opposite
directions). A study of ``N`` new units reports ``s^2 ~ V chi^2_m / m``, ``m = 2 / (2 / (N - 1)
+ kappa / N)`` with the pilot's excess kurtosis ``kappa`` of the top values, so ``s^2 / V_hat
~ F(m, d)`` and ``P(realised SE <= X) = F_cdf(N X^2 / V_hat; m, d)``; the central 80 % range of
the true SE is ``SE_hat sqrt(d / chi^2_{d, 0.9 / 0.1})``. This is the stance-drift planner's
model (``drift/plan.py``) with the jackknife in place of its Satterthwaite degrees of freedom.
**Why not a bootstrap over top units:** with 18-19 units (the default PReSS instrument and
construction settings) the bootstrap's distribution of ``s^2`` is the plug-in one, narrower by
about ``(N - 1) / N`` and with percentile intervals that undercover at such ``N``; inverted as a
pivot for the planner's question it met a P = 0.8 target in 0.94 of simulated PReSS studies
(the chi-square with jackknife degrees of freedom: 0.87), and it needs hundreds of re-estimates
per candidate design where the chi-square is closed-form. Both planners are checked by
subsampling (``benchmarks/press_construction_plan_check.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inspect_stance.errors import InputError

Tree = Sequence[Any]  #: a unit: a sequence of child units, or of floats at the lowest level


@dataclass(frozen=True)
class PartMoments:
    """Mean squares of one nested part (levels from the top unit's children down)."""

    ms: np.ndarray  #: (L,) pooled within-parent mean squares
    df: np.ndarray  #: (L,) their degrees of freedom
    w: np.ndarray  #: (L, L) E[MS_l] = sigma_l + w[l] . sigma
    top_means: np.ndarray  #: (N,) each top unit's mean
    top_coef: np.ndarray  #: (N, L) c(u) of each top unit


def _walk(unit: Any, level: int, depth: int, acc: dict[str, Any]) -> tuple[float, np.ndarray]:
    """Mean and ``c`` of ``unit`` at ``level`` (0 = top); accumulates SS, df and w terms."""
    coef = np.zeros(depth)
    if level == depth:
        return float(unit), coef
    kids = [_walk(child, level + 1, depth, acc) for child in unit]
    if not kids:
        raise ValueError("a unit without replicates")
    n = len(kids)
    means = np.array([m for m, _ in kids])
    coefs = np.array([c for _, c in kids])
    coef = coefs.sum(axis=0) / n**2
    coef[level] += 1.0 / n
    acc["ss"][level] += float(((means - means.mean()) ** 2).sum())
    acc["df"][level] += n - 1
    acc["w"][level] += (n - 1) / n * coefs.sum(axis=0)
    return float(means.mean()), coef


def part_moments(units: Sequence[Tree], depth: int) -> PartMoments:
    """:class:`PartMoments` of ``units`` (top units, each nested ``depth`` levels deep)."""
    acc = {"ss": np.zeros(depth), "df": np.zeros(depth), "w": np.zeros((depth, depth))}
    tops = [_walk(u, 0, depth, acc) for u in units]
    df = acc["df"]
    with np.errstate(invalid="ignore", divide="ignore"):
        ms = np.where(df > 0, acc["ss"] / np.maximum(df, 1), 0.0)
        w = np.where(df[:, None] > 0, acc["w"] / np.maximum(df, 1)[:, None], 0.0)
    return PartMoments(
        ms=ms,
        df=df,
        w=w,
        top_means=np.array([m for m, _ in tops]),
        top_coef=np.array([c for _, c in tops]).reshape(len(tops), depth),
    )


def solve_levels(ms: np.ndarray, w: np.ndarray, df: np.ndarray) -> np.ndarray:
    """``Lm`` with ``sigma = Lm @ MS``: bottom-up back-substitution of ``MS_l = sigma_l + w_l .
    sigma`` (levels with ``df_l = 0`` folded: their row is 0)."""
    n = len(ms)
    lm = np.zeros((n, n))
    for level in range(n - 1, -1, -1):
        if df[level] <= 0:
            continue
        row = np.zeros(n)
        row[level] = 1.0
        for lower in range(level + 1, n):
            row -= w[level, lower] * lm[lower]
        lm[level] = row
    return lm


def excess_kurtosis(values: np.ndarray) -> float:
    """Unbiased excess kurtosis of ``values`` (at least -1.5; 0 below 4 values or no spread)."""
    from scipy import stats

    if values.size < 4 or float(np.ptp(values)) == 0.0:
        return 0.0
    return max(float(stats.kurtosis(values, bias=False)), -1.5)


def variance_df(n: int, kappa: float) -> float:
    """Degrees of freedom of the scaled chi-square with the variance of an ``n``-value sample
    variance: ``2 / (2 / (n - 1) + kappa / n)`` (``n - 1`` for normal values), at least 1."""
    inv = 2.0 / (n - 1) + kappa / n
    return max(2.0 / inv, 1.0) if inv > 0 else math.inf


@dataclass(frozen=True)
class NestedComponents:
    """Components of a nested design (module docstring) and the predictions they give.

    ``axes[l]`` is the design axis of level ``l`` (0-based: ``coef_l(n) = 1 / prod(n[:a+1])``).
    """

    level_names: tuple[str, ...]
    axes: tuple[int, ...]
    sigma2: np.ndarray  #: (L,) level components (truncated at 0)
    ms: np.ndarray
    df: np.ndarray
    lm: np.ndarray
    top_values: np.ndarray  #: (N,) per-unit values of the pilot
    top_coef_mean: np.ndarray  #: (L,) mean_u c(u)
    between: float  #: sigma_top^2 (truncated at 0)
    top_var: float  #: S_top
    truncated: tuple[str, ...] = ()
    folded: tuple[str, ...] = ()
    top_name: str = "top"
    kappa: float = field(default=0.0)
    loo: np.ndarray = field(default_factory=lambda: np.zeros((0, 1)))  #: (N, 1 + L)

    @property
    def n_top(self) -> int:
        """Top units in the pilot."""
        return int(self.top_values.size)

    @property
    def estimate(self) -> float:
        """The pilot's headline: the mean of the per-unit values."""
        return float(self.top_values.mean())

    def coef(self, design: Sequence[int]) -> np.ndarray:
        """``coef_l(n) = 1 / (n_1 ... n_{a(l)})`` per level."""
        prods = np.cumprod(np.asarray(design, dtype=float))
        return np.array([1.0 / prods[a] for a in self.axes])

    def unit_variance(self, design: Sequence[int]) -> float:
        """``V(n) = sigma_top^2 + sum_l coef_l(n) sigma_l^2``."""
        return float(self.between + self.coef(design) @ self.sigma2)

    def se(self, n_top: int, design: Sequence[int]) -> float:
        """Predicted ``SE = sqrt(V(n) / N)``."""
        return math.sqrt(self.unit_variance(design) / n_top)

    def pilot_df(self, design: Sequence[int]) -> float:
        """Degrees of freedom of ``V_hat(n) = S_top + a(n) . MS`` (module docstring):
        ``2 V_hat^2 / Var_jack``, the jackknife variance over top units of the same linear
        combination of the leave-one-out ``S_top`` and mean squares (at least 1)."""
        a = self.lm.T @ (self.coef(design) - self.top_coef_mean)
        v = self.unit_variance(design)
        n = self.loo.shape[0]
        if n < 3:
            return 1.0
        loo = self.loo[:, 0] + self.loo[:, 1:] @ a
        var = (n - 1) / n * float(((loo - loo.mean()) ** 2).sum())
        return max(2.0 * v**2 / var, 1.0) if var > 0 else math.inf

    def prob_se_below(self, target: float, n_top: int, design: Sequence[int]) -> float:
        """``P(realised SE <= target) = F_cdf(N target^2 / V_hat; m, d)`` (module docstring)."""
        from scipy import stats

        v = self.unit_variance(design)
        if v <= 0:
            return 1.0
        m = variance_df(n_top, self.kappa)
        return float(stats.f.cdf(n_top * target**2 / v, m, self.pilot_df(design)))

    def se_range(
        self, n_top: int, design: Sequence[int], level: float = 0.8
    ) -> tuple[float, float]:
        """Central ``level`` range of the true SE given the pilot's sampling error:
        ``SE_hat sqrt(d / chi^2_{d, (1 +- level) / 2})``."""
        from scipy import stats

        se = self.se(n_top, design)
        d = self.pilot_df(design)
        if not math.isfinite(d) or se == 0:
            return se, se
        lo = se * math.sqrt(d / stats.chi2.ppf(0.5 + level / 2.0, d))
        hi = se * math.sqrt(d / stats.chi2.ppf(0.5 - level / 2.0, d))
        return lo, hi


@dataclass(frozen=True)
class Part:
    """One nested part of the per-unit value: ``sign`` times the mean of its ``units`` (one per
    top unit, in the same order), with ``levels`` named from the top unit's children down."""

    name: str
    units: Sequence[Tree]
    levels: tuple[str, ...]
    sign: float = 1.0


def _moments(parts: Sequence[Part], keep: Sequence[int]) -> tuple[np.ndarray, list[PartMoments]]:
    moms = [part_moments([p.units[i] for i in keep], len(p.levels)) for p in parts]
    top = sum((p.sign * m.top_means for p, m in zip(parts, moms, strict=True)), np.zeros(len(keep)))
    return top, moms


def nested_components(parts: Sequence[Part], top_name: str) -> NestedComponents:
    """Components (module docstring) of the per-unit value ``sum_part sign * mean``, with the
    leave-one-unit-out mean squares for the jackknife degrees of freedom."""
    n = len(parts[0].units)
    top, moms = _moments(parts, range(n))
    names = [f"{p.name} {lv}".strip() for p in parts for lv in p.levels]
    axes = [a for p in parts for a in range(len(p.levels))]
    ms = np.concatenate([m.ms for m in moms])
    df = np.concatenate([m.df for m in moms])
    size = len(ms)
    lm = np.zeros((size, size))
    coef_mean = np.zeros(size)
    start = 0
    for m in moms:
        k = len(m.ms)
        lm[start : start + k, start : start + k] = solve_levels(m.ms, m.w, m.df)
        coef_mean[start : start + k] = m.top_coef.mean(axis=0)
        start += k
    loo = np.zeros((n, 1 + size))
    for i in range(n):
        t, ms_i = _moments(parts, [j for j in range(n) if j != i])
        loo[i] = [float(np.var(t, ddof=1)) if t.size > 1 else 0.0,
                  *np.concatenate([m.ms for m in ms_i])]  # fmt: skip
    raw = lm @ ms
    top_var = float(np.var(top, ddof=1))
    between_raw = top_var - float(coef_mean @ np.maximum(raw, 0.0))
    truncated = tuple(x for x, v in zip(names, raw, strict=True) if v < 0)
    truncated += (top_name,) if between_raw < 0 else ()
    return NestedComponents(
        level_names=tuple(names), axes=tuple(axes), sigma2=np.maximum(raw, 0.0), ms=ms, df=df,
        lm=lm, top_values=top, top_coef_mean=coef_mean, between=max(between_raw, 0.0),
        top_var=top_var, truncated=truncated,
        folded=tuple(x for x, d in zip(names, df, strict=True) if d <= 0), top_name=top_name,
        kappa=excess_kurtosis(top), loo=loo,
    )  # fmt: skip


def least_n(ok: Callable[[int], bool], most: int, least: int = 2) -> int | None:
    """The least ``n`` in ``least..most`` with ``ok(n)`` (bisection: ``ok`` must be monotone
    in ``n``); ``None`` when ``ok(most)`` is false."""
    if most < least or not ok(most):
        return None
    lo, hi = least - 1, most
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def power_multiplier(n: int, alpha: float, power: float) -> float:
    """``t_{1-alpha/2, n-1} + t_{power, n-1}``: the ``D / SE`` a two-sided t-test over ``n``
    units needs to detect a true difference ``D`` with the given power."""
    from scipy import stats

    df = n - 1
    return float(stats.t.ppf(1.0 - alpha / 2.0, df) + stats.t.ppf(power, df))


def meets_power(unit_var: float, n: int, detect: float, alpha: float, power: float) -> bool:
    """``detect / sqrt(unit_var / n) >= power_multiplier(n)`` (any ``n`` when no variance)."""
    if unit_var <= 0:
        return True
    return detect / math.sqrt(unit_var / n) >= power_multiplier(n, alpha, power)


def least_units(
    vc: NestedComponents,
    design: tuple[int, ...],
    most: int,
    goal: dict[str, Any],
    delta_var: float | None = None,
) -> int | None:
    """The least top-level units ``n >= 2`` (propositions, statements, settings) meeting every
    goal at ``design`` (the counts below the top level); ``None`` when none within ``most``.

    ``goal["target_se"]``: with ``goal["assurance"]`` the least ``n`` whose realised SE is at
    most the target with that probability (:meth:`NestedComponents.prob_se_below`), without it
    the point prediction ``n = ceil(unit_variance(design) / target^2)``. ``goal["detect"]``: the
    least ``n`` at which the paired t-test on per-unit differences of variance ``delta_var``
    detects ``detect`` at ``goal["alpha"]`` with ``goal["power"]`` (:func:`meets_power`).
    """
    need = [2]
    target, assurance = goal["target_se"], goal["assurance"]
    if target is not None:
        if assurance is None:
            n = max(2, math.ceil(vc.unit_variance(design) / target**2 - 1e-12))
            found: int | None = n if n <= most else None
        else:
            found = least_n(lambda b: vc.prob_se_below(target, b, design) >= assurance, most)
        if found is None:
            return None
        need.append(found)
    if goal["detect"] is not None:
        if delta_var is None:
            raise ValueError("detect needs the variance of the per-unit difference")
        var = delta_var
        found = least_n(lambda b: meets_power(var, b, goal["detect"], goal["alpha"],
                                              goal["power"]), most)  # fmt: skip
        if found is None:
            return None
        need.append(found)
    return max(need)


def check_plan_goal(
    target_se: float | None,
    detect: float | None,
    assurance: float | None,
    detect_max: float = 1.0,
    detect_what: str = "a difference of shares",
    correlation: float | None = None,
) -> None:
    """A planner's goal checked before any work, a one-line ``InputError`` for the first bad
    value: ``target_se`` a positive number, ``detect`` in ``(0, detect_max)``, ``assurance`` in
    ``(0, 1)``, ``correlation`` (when given) in ``[-1, 1]``."""

    if target_se is not None and not (math.isfinite(target_se) and target_se > 0):
        raise InputError(f"--target-se {target_se} must be a positive number")
    if detect is not None and not 0.0 < detect < detect_max:
        raise InputError(f"--detect {detect}: {detect_what} is strictly between 0 and "
                         f"{detect_max:g}")  # fmt: skip
    if assurance is not None and not 0.0 < assurance < 1.0:
        raise InputError(f"--assurance {assurance} must be strictly between 0 and 1")
    if correlation is not None and not -1.0 <= correlation <= 1.0:
        raise InputError(f"--correlation {correlation} must be between -1 and 1")
