"""Detectable difference of a paired item-level test at a given power.

For ``n`` items whose paired differences have standard deviation ``sd``, the one-sided paired
t-test at level ``alpha`` detects with probability ``power`` a mean difference of

    ``mde = d * sd``,  ``d`` solving ``TTestPower().solve_power(nobs=n, alpha, power,
    alternative="larger")`` (statsmodels; the noncentral-t power of the one-sample t-test on
    the differences).
"""

from __future__ import annotations

import functools
import math


def detectable_difference(
    n_items: int, sd_diff: float, alpha: float = 0.05, power: float = 0.8
) -> float:
    """Smallest mean difference the one-sided paired t-test detects with ``power`` (see module)."""
    if n_items < 2 or not math.isfinite(sd_diff):
        return math.nan
    if sd_diff == 0.0:
        return 0.0
    return _effect_size(int(n_items), float(alpha), float(power)) * sd_diff


@functools.lru_cache(maxsize=512)
def _effect_size(n_items: int, alpha: float, power: float) -> float:
    """The standardized effect ``d`` of the module docstring (cached: it depends on ``n``,
    ``alpha`` and ``power`` only)."""
    from statsmodels.stats.power import TTestPower

    d = TTestPower().solve_power(
        effect_size=None, nobs=n_items, alpha=alpha, power=power, alternative="larger"
    )
    return float(d)
