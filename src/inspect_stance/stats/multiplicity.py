"""Adjusting a family of p-values: Holm (family-wise error, the default) or Benjamini-Hochberg
(false discovery rate), with ``statsmodels.stats.multitest.multipletests``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

Adjust = Literal["holm", "bh"]
ADJUSTMENTS: tuple[str, ...] = ("holm", "bh")
_METHOD = {"holm": "holm", "bh": "fdr_bh"}


def adjust_pvalues(pvalues: Sequence[float], method: Adjust = "holm") -> list[float]:
    """Adjusted p-values of the family (NaN entries stay NaN and are not counted in it)."""
    from statsmodels.stats.multitest import multipletests

    if method not in ADJUSTMENTS:
        raise ValueError(f"unknown adjustment {method!r}; use one of {', '.join(ADJUSTMENTS)}")
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, math.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method=_METHOD[method])[1]
    return [float(x) for x in out]
