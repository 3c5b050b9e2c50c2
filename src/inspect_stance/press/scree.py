"""The factor analysis' scree plot and its few-observations warning (Appendix B).

Split from :mod:`.factor_analysis`, which computes the analysis; this module draws and warns.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from inspect_stance.press.factor_analysis import KAISER_THRESHOLD, FactorResult

#: observations per statement below which the factor analysis is called unstable (a common
#: rule of thumb; the paper has 240 observations of 19 statements, about 13 per statement)
MIN_OBSERVATIONS_PER_STATEMENT = 5


def few_observations_warning(result: FactorResult) -> str | None:
    """A warning when the analysis rests on fewer than
    :data:`MIN_OBSERVATIONS_PER_STATEMENT` observations per statement (None otherwise): with
    ``n`` observations at most ``n - 1`` eigenvalues are non-zero, so the scree plot and the
    Kaiser count describe these draws, not a stable structure."""
    n, k = result.n_observations, len(result.statements)
    if n >= MIN_OBSERVATIONS_PER_STATEMENT * k:
        return None
    return (
        f"few observations: {n} for {k} statements (at least "
        f"{MIN_OBSERVATIONS_PER_STATEMENT * k}, {MIN_OBSERVATIONS_PER_STATEMENT} per statement, "
        f"for a stable factor analysis; at most {max(n - 1, 0)} eigenvalues can be non-zero); "
        "read the scree plot and the retained factors as unstable, and add draws or models"
    )


def scree_plot(result: FactorResult, path: Any) -> None:
    """Scree plot: eigenvalue by factor number, with the Kaiser line at 1."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = np.arange(1, len(result.eigenvalues) + 1)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, result.eigenvalues, marker="o", color="#1f4e9c")
    ax.axhline(KAISER_THRESHOLD, color="#b2182b", ls="--", lw=1, label="Kaiser criterion (1)")
    ax.axhline(0.0, color="grey", lw=0.5)
    ax.set_xticks(xs)
    ax.set_xlabel("factor")
    ax.set_ylabel("eigenvalue")
    what = (
        "principal factors (SMC communalities)" if result.method == "pf" else "principal components"
    )
    warning = few_observations_warning(result)
    ax.set_title(
        f"Scree plot: {what}; {result.n_observations} observations, "
        f"{len(result.statements)} statements"
        + ("\nunstable: too few observations (see the report)" if warning else ""),
        fontsize=9,
        color="#b2182b" if warning else "black",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
