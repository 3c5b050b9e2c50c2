"""Adjusting a family of p-values, with ``statsmodels.stats.multitest.multipletests``:

- ``holm``: Holm (family-wise error, the default; valid under any dependence);
- ``bh``: Benjamini-Hochberg (false discovery rate), guaranteed only when the p-values are
  independent or positively dependent (PRDS). The comparisons of one ``compare`` family share
  their items (every pair of runs and every metric is computed on the same propositions or
  settings), so their dependence is not known to be positive;
- ``by``: Benjamini-Yekutieli, the false discovery rate under any dependence: BH's adjusted
  p-values times ``c(m) = sum_{i=1..m} 1/i`` for ``m`` tests (capped at 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

Adjust = Literal["holm", "bh", "by"]
ADJUSTMENTS: tuple[str, ...] = ("holm", "bh", "by")
_METHOD = {"holm": "holm", "bh": "fdr_bh", "by": "fdr_by"}
#: what each adjustment controls, for help texts
ADJUST_HELP = ("p-value adjustment over the family: holm (family-wise error, any dependence; "
               "default), bh (false discovery rate, guaranteed only under positive dependence, "
               "which comparisons sharing their items need not have), by (Benjamini-Yekutieli: "
               "false discovery rate under any dependence)")  # fmt: skip


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
