"""Prediction-powered inference (PPI) for a mean: graders' labels corrected by human labels.

Angelopoulos, Bates, Fannjiang, Jordan & Zrnic (2023), "Prediction-powered inference",
Science 382; power tuning (PPI++): Angelopoulos, Duchi & Zrnic (2023), arXiv:2311.01453.

``n`` items have a human label ``Y_i`` and the ensemble's label ``f_i``; ``N`` other items
have only the ensemble's ``f~_i`` (the two sets are disjoint). The estimate of the
mean human label and its normal interval are

    theta = lam * mean(f~) + mean(Y - lam * f)
    se^2  = lam^2 * var(f~) / N + var(Y - lam * f) / n   (ddof 0 for f~, ddof 1 for Y - lam f)
    CI    = theta +- t_{1 - alpha/2, n - 1} * se

(Student t with ``n - 1`` df: the correction's variance is estimated from the ``n`` labels, the
larger part of ``se`` when labels are few), with a one-line ``warning`` (:func:`ppi_warning`)
when fewer than 20 labels are given or the correction is the same for every label (its
variance then estimated as zero). With an accurate but biased ensemble
(``benchmarks/ppi_coverage.py --edges``) the intervals given without a warning covered 0.986
(20 labels) and 0.953 (50 labels).

``lam = 1`` is classic PPI (unbiased for any graders; the default here and in the report);
``lam = 0`` the human labels alone; ``lam=None`` the PPI++ tuned ``lam = cov(Y, f) / ((1 +
n/N) * var(f, f~))`` (``cov`` with ddof 0 over the labelled set, ``var`` with ddof 1 over both
sets), clipped to [0, 1] (``ppi_py.ppi_mean_ci``'s default). Classic PPI is the default because
its interval kept its coverage better in ``benchmarks/ppi_coverage.py`` (with 100 human labels
of 400 items: 0.948 vs PPI++'s 0.938 over 400 replications; PPI++'s is narrower). These are ppi-python's formulas; it is not a dependency because it pulls
numba/llvmlite and scikit-learn (about 260 MB); a test checks these functions against
``ppi_py`` when it is installed.

A shifted mean (:meth:`PPIEstimate.shifted`, e.g. a mean label minus the scale's midpoint)
has the mean's interval shifted. A difference of two means estimated on disjoint items has
``se^2 = se_1^2 + se_2^2`` (:func:`difference`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import norm
from scipy.stats import t as t_dist

DEFAULT_ALPHA = 0.05


@dataclass(frozen=True)
class PPIEstimate:
    """A PPI mean (or difference) with its interval and the sizes behind it."""

    estimate: float
    se: float
    ci_low: float
    ci_high: float
    n_labelled: int
    n_unlabelled: int
    lam: float
    #: one line when an assumption of the interval fails (:func:`ppi_warning`), else ""
    warning: str = ""

    def shifted(self, by: float) -> PPIEstimate:
        """The same estimate minus ``by`` (e.g. a mean label minus the scale's midpoint)."""
        return PPIEstimate(
            self.estimate - by,
            self.se,
            self.ci_low - by,
            self.ci_high - by,
            self.n_labelled,
            self.n_unlabelled,
            self.lam,
            self.warning,
        )

    def as_dict(self) -> dict[str, float | int]:
        """Plain dict of the fields."""
        return asdict(self)


NAN_ESTIMATE = PPIEstimate(math.nan, math.nan, math.nan, math.nan, 0, 0, math.nan)


def tuned_lambda(y: np.ndarray, f: np.ndarray, f_unlabelled: np.ndarray) -> float:
    """PPI++'s power-tuning weight for a mean (module docstring), clipped to [0, 1]."""
    n, big_n = len(y), len(f_unlabelled)
    cov = float(np.mean((y - y.mean()) * (f - f.mean())))
    var = float(np.var(np.concatenate([f, f_unlabelled]), ddof=1))
    if var <= 0:
        return 0.0
    return float(min(1.0, max(0.0, cov / ((1 + n / big_n) * var))))


def ppi_mean(
    y: Sequence[float],
    f: Sequence[float],
    f_unlabelled: Sequence[float],
    alpha: float = DEFAULT_ALPHA,
    lam: float | None = 1.0,
) -> PPIEstimate:
    """PPI estimate and ``1 - alpha`` interval of the mean human label.

    Parameters
    ----------
    y, f : sequence of float
        The human and the ensemble's label of each labelled item (same order).
    f_unlabelled : sequence of float
        The ensemble's labels of the other items.
    alpha : float
        One minus the interval's confidence.
    lam : float or None
        The weight of the ensemble: 1 classic PPI, 0 the human labels alone, ``None`` PPI++'s
        tuned weight (:func:`tuned_lambda`).

    Returns
    -------
    PPIEstimate
        ``theta = lam mean(f~) + mean(Y - lam f)``, ``se`` and the Student-t interval with
        ``n - 1`` df (module docstring), the sizes, and a one-line ``warning`` where the
        interval is not to be trusted (:func:`ppi_warning`).

    Notes
    -----
    Needs ``n >= 2`` (else every number is NaN); with ``N = 0`` it is the human labels' mean
    and its interval (``lam = 0``).

    References
    ----------
    Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I. and Zrnic, T. (2023).
    Prediction-powered inference. Science 382(6671), 669-674.
    """
    ya, fa, fu = (np.asarray(v, dtype=float) for v in (y, f, f_unlabelled))
    if len(ya) != len(fa):
        raise ValueError("y and f must pair the same labelled items; give one f per y")
    n, big_n = len(ya), len(fu)
    if n < 2:
        return PPIEstimate(math.nan, math.nan, math.nan, math.nan, n, big_n, math.nan)
    if big_n == 0:  # every item has a human label: their mean, lam = 0
        lam = 0.0
        fu = np.zeros(1)
    weight = tuned_lambda(ya, fa, fu) if lam is None else float(lam)
    rect = ya - weight * fa
    theta = weight * float(fu.mean()) + float(rect.mean())
    se = math.sqrt(weight**2 * float(fu.var()) / len(fu) + float(rect.var(ddof=1)) / n)
    q = float(t_dist.ppf(1 - alpha / 2, n - 1))
    warning = ppi_warning(ya, fa, weight)
    return PPIEstimate(theta, se, theta - q * se, theta + q * se, n, big_n, weight, warning)


#: fewer human labels than this: the interval is reported with a warning
MIN_LABELS = 20


def ppi_warning(y: np.ndarray, f: np.ndarray, lam: float = 1.0) -> str:
    """One line saying why the PPI interval of ``y`` corrected from ``f`` is not to be trusted,
    or "" (``benchmarks/ppi_coverage.py --edges``: an accurate but biased ensemble):

    - fewer than :data:`MIN_LABELS` human labels;
    - the correction ``Y - lam f`` is the same for every labelled item (people and the
      ensemble agree everywhere): the correction and its variance are estimated as zero.

    A rule on the number of disagreements was tried and dropped: it is correlated with the
    correction's error, so the intervals it let through covered 0.84 at 20 labels.
    """
    n = int(len(y))
    notes = []
    if n < MIN_LABELS:
        notes.append(f"only {n} human labels (fewer than {MIN_LABELS})")
    rect = np.asarray(y, dtype=float) - lam * np.asarray(f, dtype=float)
    if lam == 0.0:  # the human labels alone: nothing is corrected
        pass
    elif n >= 2 and float(np.ptp(rect)) == 0.0:
        notes.append(f"people and the ensemble agree on all {n} labelled items, so the "
                     "correction and its variance are zero")  # fmt: skip
    if not notes:
        return ""
    return ("PPI interval unreliable: " + "; ".join(notes) + "; label more items at random "
            "before reading it")  # fmt: skip


def difference(a: PPIEstimate, b: PPIEstimate, alpha: float = DEFAULT_ALPHA) -> PPIEstimate:
    """``a - b`` for estimates on disjoint items: ``se = sqrt(se_a^2 + se_b^2)``."""
    theta = a.estimate - b.estimate
    se = math.sqrt(a.se**2 + b.se**2)
    z = float(norm.ppf(1 - alpha / 2))
    return PPIEstimate(
        theta,
        se,
        theta - z * se,
        theta + z * se,
        a.n_labelled + b.n_labelled,
        a.n_unlabelled + b.n_unlabelled,
        math.nan,
        "; ".join(dict.fromkeys(w for w in (a.warning, b.warning) if w)),
    )


def distance_difference(
    first: Sequence[PPIEstimate],
    second: Sequence[PPIEstimate],
    alpha: float = DEFAULT_ALPHA,
    draws: int = 20_000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """Mean over paired groups of ``|mu_1| - |mu_2|`` from per-group PPI estimates, with a
    conservative ``1 - alpha`` interval that holds near 0 as well as away from it.

    Parameters
    ----------
    first, second : sequence of PPIEstimate
        One estimate per group in each (same length, paired by position, finite).
    alpha : float
        One minus the interval's confidence.
    draws, seed : int
        Monte Carlo draws for the quantiles, and their seed.

    Returns
    -------
    tuple of float
        ``(D^, low, high)``; NaN when there is no pair or the lengths differ.

    Notes
    -----
    The distance ``|mu|`` is not smooth at 0: near 0 ``|estimate|`` is biased upward by about
    ``0.8 se``, so percentiles of the plug-in statistic under ``Normal(estimate, se^2)`` do not
    cover (0.02 when both means are 0 with unequal SEs). Instead, with ``e = estimate - mu ~
    Normal(0, se^2)`` independent across groups and sequences, each term's error ``X = |mu +
    e| - |mu|`` satisfies ``X <= |e|`` (equality at 0) and ``-X`` is stochastically at most
    ``Normal(0, se^2)`` (reached far from 0), whatever ``mu``. So the error of ``D^ =
    mean(|est_1| - |est_2|)`` is, above, at most ``U = mean_s |e_1,s| + mean_s z_2,s`` and,
    below, at most ``L = mean_s z_1,s + mean_s |e_2,s|`` in distribution (``z ~ Normal(0,
    se^2)``); with ``q_U``, ``q_L`` their ``1 - alpha/2`` quantiles over ``draws`` draws, the
    interval ``[D^ - q_U, D^ + q_L]`` covers with probability at least ``1 - alpha`` for any
    means (conservative: it allows for the upward bias at 0 whether or not a mean is near 0).

    References
    ----------
    Angelopoulos et al. (2023), as :func:`ppi_mean`, for the per-group estimates.
    """
    t_mu = np.array([e.estimate for e in first])
    t_se = np.array([e.se for e in first])
    g_mu = np.array([e.estimate for e in second])
    g_se = np.array([e.se for e in second])
    if len(t_mu) == 0 or len(t_mu) != len(g_mu):
        return math.nan, math.nan, math.nan
    rng = np.random.default_rng(seed)
    e_t = rng.normal(0.0, t_se, size=(draws, len(t_mu)))
    e_g = rng.normal(0.0, g_se, size=(draws, len(g_mu)))
    q_u = float(np.quantile(np.abs(e_t).mean(axis=1) + e_g.mean(axis=1), 1 - alpha / 2))
    q_l = float(np.quantile(e_t.mean(axis=1) + np.abs(e_g).mean(axis=1), 1 - alpha / 2))
    est = float((np.abs(t_mu) - np.abs(g_mu)).mean())
    return est, est - q_u, est + q_l
