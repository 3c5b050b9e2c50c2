"""PNG figures of the stance-drift report (matplotlib, non-interactive ``Agg`` backend).

- :func:`transition_heatmap`: a 5x5 transition matrix (rows = initial stance, columns =
  extracted stance, stance labels on both axes), every cell annotated with its mean and SE,
  next to the identity matrix (perfect preservation) drawn in the same colour scale for
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
    return img


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
        fig.suptitle(title if len(title) < 110 else title[:107] + "...", fontsize=11)
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def spr_vs_hops_plot(curves: Mapping[str, Sequence[Mapping[str, Any]]], path: str | Path) -> Path:
    """Plot SPR after ``k`` hops (mean +- SE) for each run; ``k = 0`` is 1 by definition."""
    path = Path(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    try:
        for name, rows in curves.items():
            ks = [0] + [int(r["k"]) for r in rows]
            spr = [1.0] + [float(r["spr"]) for r in rows]
            se = [0.0] + [float(r["spr_se"]) if math.isfinite(r["spr_se"]) else 0.0 for r in rows]
            ax.errorbar(ks, spr, yerr=se, marker="o", ms=3.5, capsize=2, label=name)
        ax.set_xlabel("hops k (write + read back, repeated)")
        ax.set_ylabel("SPR after k hops")
        ax.set_ylim(0.0, 1.02)
        ax.grid(alpha=0.3)
        ax.set_title("Stance preservation through repeated AI hops")
        if len(curves) <= 15:
            ax.legend(fontsize=7, loc="upper right")
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def pass_rate_curve_plot(
    curves: Mapping[str, tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray, float]],
    path: str | Path,
) -> Path:
    """Plot each run's pass rate against the threshold; ``curves[name] = (thresholds,
    pass rates, AUC)``."""
    path = Path(path)
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    try:
        for name, (taus, rates, auc) in curves.items():
            label = f"{name} (AUC {auc:.3f})" if math.isfinite(auc) else name
            ax.plot(list(taus), list(rates), marker="o", ms=3.5, label=label)
        ax.set_xlabel("success-rate threshold")
        ax.set_ylabel("pass rate (share of proposition x initial stance)")
        ax.set_xlim(0.48, 1.02)
        ax.set_ylim(0.0, 1.02)
        ax.grid(alpha=0.3)
        ax.set_title("Pass rate against threshold")
        if len(curves) <= 15:
            ax.legend(fontsize=7, loc="lower left")
        fig.savefig(path, dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path
