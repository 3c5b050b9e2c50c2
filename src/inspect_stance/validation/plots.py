"""Prompt-validation figures (matplotlib, ``Agg``), from the report's summary table
(rows = figures such as ``mean_rank_real``, columns = annotator groups ``llm`` / ``human``).

- ``realism.png``: mean realism rank per prompt source and annotator group (1 = ranked most
  likely written by a real user), with Kendall's W in the title;
- ``recovery.png``: share of prompts whose intended intent / stance the annotators recovered,
  per source and group.

Absent figures (NaN, e.g. a source not in the run) draw no bar and are labelled ``n/a``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.plots import save_figure

SOURCES: tuple[str, ...] = ("real", "templated", "generated")


def _value(summary: pd.DataFrame, key: str, group: str) -> float:
    if key not in summary.index or group not in summary.columns:
        return math.nan
    v = summary.loc[key, group]
    return float(v) if v is not None and not pd.isna(v) else math.nan


def _bars(ax: Any, summary: pd.DataFrame, keys: list[str], labels: list[str]) -> None:
    """Grouped bars: one group of bars per key, one bar per annotator group; values printed."""
    groups = list(summary.columns)
    width = 0.8 / max(1, len(groups))
    for j, g in enumerate(groups):
        xs = np.arange(len(keys)) + (j - (len(groups) - 1) / 2) * width
        vals = [_value(summary, k, g) for k in keys]
        ax.bar(xs, [0 if math.isnan(v) else v for v in vals], width, label=f"{g} annotators")
        for x, v in zip(xs, vals, strict=True):
            ax.text(x, 0 if math.isnan(v) else v, "n/a" if math.isnan(v) else f"{v:.2f}",
                    ha="center", va="bottom", fontsize=7)  # fmt: skip
    ax.set_xticks(range(len(keys)), labels)
    ax.legend(fontsize=7)


def realism_figure(summary: pd.DataFrame, path: Path) -> Path:
    """Write ``realism.png`` (see the module docstring); returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    _bars(ax, summary, [f"mean_rank_{s}" for s in SOURCES], list(SOURCES))
    w = ", ".join(f"{g} {_value(summary, 'kendall_w', g):.2f}" for g in summary.columns)
    ax.set_title(f"Realism: mean rank per prompt source (Kendall's W: {w})", fontsize=10)
    ax.set_xlabel("prompt source")
    ax.set_ylabel("mean realism rank (1 = most realistic)")
    ax.grid(axis="y", alpha=0.3)
    save_figure(fig, path)
    plt.close(fig)
    return path


def recovery_figure(summary: pd.DataFrame, path: Path) -> Path:
    """Write ``recovery.png`` (see the module docstring); returns the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), sharey=True)
    for ax, field in zip(axes, ("intent", "stance"), strict=True):
        _bars(ax, summary, [f"{field}_accuracy_{s}" for s in SOURCES], list(SOURCES))
        ax.set_title(f"intended {field} recovered", fontsize=10)
        ax.set_xlabel("prompt source")
        ax.set_ylim(0, 1.1)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("share of prompts (0-1)")
    fig.suptitle("Construct clarity: intent and stance recovered by the annotators", fontsize=10)
    save_figure(fig, path)
    plt.close(fig)
    return path
