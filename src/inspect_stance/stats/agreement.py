"""Agreement among coders: Krippendorff's alpha, NaN where it is undefined.

numpy and ``krippendorff`` are imported when alpha is computed: the scorers' modules import
this one, and the ``inspect`` entry point loads no numpy (``tests/test_entry_point.py``).

The one wrapper of the ``krippendorff`` package every reader of graders, judges or annotators
calls; the callers code their labels (a stance scale, three choices, ...) as numbers first.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    import numpy as np

Level = Literal["nominal", "ordinal", "interval", "ratio"]

#: fewer labels from people than this: agreement with them is reported with a warning
MIN_HUMAN_LABELS = 20


def krippendorff_alpha(
    data: np.ndarray | Sequence[Sequence[float]],
    level: Level = "nominal",
    value_domain: Sequence[float] | None = None,
) -> float:
    """Krippendorff's alpha of a coders x units matrix of numeric codes.

    Parameters
    ----------
    data : array of shape (coders, units)
        One row per coder, one column per unit; ``NaN`` where a coder gave no value.
    level : {"nominal", "ordinal", "interval", "ratio"}
        The metric of the differences between values.
    value_domain : sequence of float, optional
        Every value the codes may take (the ordinal metric weighs a disagreement by the
        values between, including values nobody gave); default the values observed.

    Returns
    -------
    float
        ``alpha = 1 - D_o / D_e`` with ``D_o`` the observed and ``D_e`` the expected
        disagreement over pairable values; ``NaN`` when undefined.

    Notes
    -----
    Undefined (``NaN``): fewer than two coders, no unit with two values, or one value only
    among the pairable units (``D_e = 0``).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    https://repository.upenn.edu/asc_papers/43
    """
    import krippendorff
    import numpy as np

    arr = np.asarray(data, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.shape[1] == 0:
        return math.nan
    pairable = np.sum(~np.isnan(arr), axis=0) >= 2
    if not pairable.any():
        return math.nan
    if len(np.unique(arr[:, pairable][~np.isnan(arr[:, pairable])])) < 2:
        return math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = krippendorff.alpha(
            reliability_data=arr,
            level_of_measurement=cast(Any, level),
            value_domain=None if value_domain is None else list(value_domain),
        )
    return float(value)


def too_few_human_labels(n: int, minimum: int = MIN_HUMAN_LABELS) -> str:
    """One line when agreement with people rests on fewer than ``minimum`` labels, else ""."""
    if n >= minimum:
        return ""
    return (f"only {n} human labels (fewer than {minimum}): the agreement figures rest on too "
            "few to read")  # fmt: skip
