"""Intervals that stay inside their range near 0 and 1.

- :func:`wilson`: the Wilson score interval of a proportion ``x / n``
  (``statsmodels.stats.proportion.proportion_confint(method="wilson")``);
- :func:`newcombe_paired`: Newcombe's (1998) method 10 for the difference of two paired
  proportions, from the 2x2 table of paired binary outcomes ``[[n11, n10], [n01, n00]]``
  (first index run A's outcome, second run B's; 1 = success). With ``p_A = (n11 + n10) / n``,
  ``p_B = (n11 + n01) / n``, Wilson limits ``(l_A, u_A)``, ``(l_B, u_B)`` and
  ``phi = (n11 n00 - n10 n01) / sqrt((n11+n10)(n01+n00)(n11+n01)(n10+n00))`` (0 when a margin
  is empty), the interval of ``D = p_B - p_A`` is

      ``L = D - sqrt((p_B - l_B)^2 - 2 phi (p_B - l_B)(u_A - p_A) + (u_A - p_A)^2)``
      ``U = D + sqrt((u_B - p_B)^2 - 2 phi (u_B - p_B)(p_A - l_A) + (p_A - l_A)^2)``

  and it stays inside ``[-1, 1]``.
"""

from __future__ import annotations

import math


def wilson(x: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of ``x / n`` (statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(x, n, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


def newcombe_paired(
    n11: int, n10: int, n01: int, n00: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe's method-10 interval of ``p_B - p_A`` for paired proportions (module formula)."""
    n = n11 + n10 + n01 + n00
    if n == 0:
        return math.nan, math.nan
    p_a, p_b = (n11 + n10) / n, (n11 + n01) / n
    l_a, u_a = wilson(n11 + n10, n, confidence)
    l_b, u_b = wilson(n11 + n01, n, confidence)
    denom = (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00)
    phi = (n11 * n00 - n10 * n01) / math.sqrt(denom) if denom > 0 else 0.0
    d = p_b - p_a
    low = d - math.sqrt(
        max((p_b - l_b) ** 2 - 2 * phi * (p_b - l_b) * (u_a - p_a) + (u_a - p_a) ** 2, 0.0)
    )
    high = d + math.sqrt(
        max((u_b - p_b) ** 2 - 2 * phi * (u_b - p_b) * (p_a - l_a) + (p_a - l_a) ** 2, 0.0)
    )
    return max(low, -1.0), min(high, 1.0)
