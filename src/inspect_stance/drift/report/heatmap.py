"""PNG figures of the stance-drift report (matplotlib, non-interactive ``Agg`` backend).

- :func:`transition_heatmap`: a 5x5 transition matrix (rows = initial stance, columns =
  extracted stance, stance labels on both axes), every cell annotated with its mean and SE,
  the diagonal (the stance kept) boxed, next to the identity matrix (perfect preservation) drawn in the same colour scale for
  comparison;
- :func:`spr_vs_hops_plot`: SPR after ``k`` hops against ``k`` (error bars = 1 SE), one line
  per run;
- :func:`pass_rate_curve_plot`: the pass rate over all proposition-initial stance combinations
  against the success-rate threshold 0.50..1.00 (the reference study's Fig. S6A), one line per
  run, its normalised AUC in the legend.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from inspect_stance.plots import (  # noqa: E402
    identical_to,
    legend_label,
    line_style,
    place_legend,
    wrap_label,
)
from inspect_stance.stances import STANCES  # noqa: E402

CMAP = "Blues"


def _panel(
    ax: Any, mean: np.ndarray, se: np.ndarray | None, title: str, y_labels: bool = True
) -> Any:
    """Draw one annotated 5x5 panel; returns the image artist."""
    img = ax.imshow(np.nan_to_num(mean, nan=0.0), cmap=CMAP, vmin=0.0, vmax=1.0)
    ticks = np.arange(len(STANCES))
    ax.set_xticks(ticks, labels=list(STANCES), rotation=35, ha="right")
    ax.set_yticks(ticks, labels=list(STANCES) if y_labels else [])
    ax.set_xlabel("Extracted stance")
    if y_labels:
        ax.set_ylabel("Initial stance")
    ax.set_title(title, fontsize=10)
    for i in range(mean.shape[0]):
        for j in range(mean.shape[1]):
            m = float(mean[i, j])
            if not math.isfinite(m):
                text = "n/a"
            elif se is None:
                text = f"{m:.2f}"
            else:
                s = float(se[i, j])
                text = f"{m:.3f}\n({s:.3f})" if math.isfinite(s) else f"{m:.3f}"
            colour = "white" if math.isfinite(m) and m > 0.6 else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=7.5, color=colour)
    box_diagonal(ax, min(mean.shape))
    return img


#: the edge colour of the boxed diagonal (the stance kept), visible on light and dark cells
DIAGONAL_BOX = "tab:orange"


def box_diagonal(ax: Any, n: int) -> None:
    """Outline the ``n`` diagonal cells (the stance kept), as the page's caption says."""
    from matplotlib.patches import Rectangle

    for i in range(n):
        ax.add_patch(
            Rectangle((i - 0.5, i - 0.5), 1.0, 1.0, fill=False, ec=DIAGONAL_BOX, lw=2.0, zorder=3)
        )


def transition_heatmap(
    mean: np.ndarray,
    se: np.ndarray | None,
    path: str | Path,
    title: str = "Transition matrix",
    se_label: str = "SE over propositions",
) -> Path:
    """Write a heatmap of ``mean`` (annotated ``mean (SE)``) beside the identity; return the path."""
    path = Path(path)
    fig, (ax, ax_id) = plt.subplots(
        1, 2, figsize=(11.0, 5.4), gridspec_kw={"width_ratios": [1.0, 0.62]}, layout="constrained"
    )
    try:
        img = _panel(ax, np.asarray(mean, dtype=np.float64), se, f"mean ({se_label})")
        _panel(ax_id, np.eye(len(STANCES)), None, "identity (perfect preservation)", False)
        fig.colorbar(img, ax=[ax, ax_id], shrink=0.7, label="probability")
        fig.suptitle(wrap_label(title, 100, 2), fontsize=11)
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def spr_vs_hops_plot(curves: Mapping[str, Sequence[Mapping[str, Any]]], path: str | Path) -> Path:
    """Plot SPR after ``k`` hops for each run: the measured hops (``source == "measured"``,
    ``k = 0`` is 1 by definition) as markers with 1-SE error bars joined by the run's line, the
    projected ones (``T^k``) as a thin dotted line without markers, labelled a projection."""
    path = Path(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    try:
        same = identical_to({n: [float(r["spr"]) for r in rows] for n, rows in curves.items()})
        for i, (name, rows) in enumerate(curves.items()):
            style = line_style(i)
            measured = [r for r in rows if r.get("source", "measured") == "measured"]
            ks = [0] + [int(r["k"]) for r in measured]
            spr = [1.0] + [float(r["spr"]) for r in measured]
            se = [0.0] + [_finite_or_0(r["spr_se"]) for r in measured]
            bars = ax.errorbar(
                ks,
                spr,
                yerr=se,
                ms=3.5,
                capsize=2,
                label=legend_label(i, name, same, list(curves)) + " (measured)",
                **style,
            )
            projected = [r for r in rows if r.get("source") == "projected"]
            if projected:
                along = [r for r in measured if r.get("projected_spr") is not None]
                ax.plot(
                    [0] + [int(r["k"]) for r in along + projected],
                    [1.0]
                    + [float(r["projected_spr"]) for r in along]
                    + [float(r["spr"]) for r in projected],
                    ls=":",
                    lw=1.0,
                    color=bars.lines[0].get_color(),
                    label=f"{legend_label(i, name, same, list(curves))} (projection T^k)",
                )
        ax.set_xlabel("hops k (write + read back, repeated)")
        ax.set_ylabel("SPR after k hops (share of stance kept, 0-1)")
        ax.set_ylim(0.0, 1.02)
        ax.grid(alpha=0.3)
        ax.set_title(
            "Stance preservation through repeated AI hops\n(markers: measured, 1 SE; dotted: "
            "projection from the one-hop matrices)",
            fontsize=10,
        )
        place_legend(ax, 2 * len(curves), "upper right")
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def _finite_or_0(x: Any) -> float:
    return float(x) if math.isfinite(float(x)) else 0.0


def pass_rate_curve_plot(
    curves: Mapping[str, tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray, float]],
    path: str | Path,
) -> Path:
    """Plot each run's pass rate against the threshold; ``curves[name] = (thresholds,
    pass rates, AUC)``."""
    path = Path(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    try:
        same = identical_to({n: list(rates) for n, (_, rates, _) in curves.items()})
        for i, (name, (taus, rates, auc)) in enumerate(curves.items()):
            extra = f" (AUC {auc:.3f})" if math.isfinite(auc) else ""
            label = legend_label(i, name, same, list(curves), extra)
            ax.plot(list(taus), list(rates), ms=3.5, label=label, **line_style(i))
        ax.set_xlabel("success-rate threshold (success rate of a proposition x initial stance)")
        ax.set_ylabel("pass rate (share of proposition x initial stance, 0-1)")
        ax.set_xlim(0.48, 1.02)
        ax.set_ylim(0.0, 1.02)
        ax.grid(alpha=0.3)
        ax.set_title("Pass rate against threshold (Fig. S6A)")
        place_legend(ax, len(curves), "lower left")
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path
