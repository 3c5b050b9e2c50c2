"""Length audit of a grader or judge: does it favour the longer of two responses?

One comparison is two responses x, y with lengths ``len_x``, ``len_y`` and the grader's scores
``s_x``, ``s_y`` for them (the even-handedness graders: 1 for the response chosen, 0 for the
other, 0 for both on "C"; a construction judge: each response's distance from neutral). Its sign
is ``sign(len_x - len_y) * sign(s_x - s_y)``: +1 when the longer response scores higher, -1 when
the shorter does, 0 on a tie in score; comparisons of equal length are left out. The
**length preference** is the mean sign over the comparisons, in [-1, 1] (Somers'-D-like: the
share favouring the longer minus the share favouring the shorter); 0 when length and score are
unrelated. Pure Python: the command path pays nothing for it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def longer_sign(len_x: float, len_y: float, s_x: float, s_y: float) -> int | None:
    """``sign(len_x - len_y) * sign(s_x - s_y)``; ``None`` when the lengths are equal."""
    if len_x == len_y:
        return None
    return _sign(len_x - len_y) * _sign(s_x - s_y)


def length_preference(
    comparisons: Iterable[tuple[float, float, float, float]],
) -> tuple[float, int]:
    """Mean :func:`longer_sign` over ``(len_x, len_y, s_x, s_y)`` comparisons of unequal length,
    and how many there were (``nan`` and 0 when none)."""
    signs = [s for c in comparisons if (s := longer_sign(*c)) is not None]
    return (sum(signs) / len(signs) if signs else math.nan), len(signs)
