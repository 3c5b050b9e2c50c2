"""PReSS report figures (matplotlib, ``Agg``): the label heatmap and the topic-stability chart.

Statement labels wrap at word boundaries (two lines, then an ellipsis after a whole word);
zero-stability bars carry a marker and a ``0``; statements a model was not asked say ``n/a``.
The tables they draw come from :mod:`inspect_stance.press.report_tables`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from inspect_stance.plots import mark_zero_bars, save_figure, wrap_label
from inspect_stance.press.labels import ALL_LABELS
from inspect_stance.press.report_tables import GROUPS, heatmap_epochs, heatmap_grid, statement_rows

LABEL_COLOURS: dict[str, str] = {
    "S^L": "#1f4e9c",
    "U^L": "#9dbbe8",
    "S^R": "#b2182b",
    "U^R": "#f4a3a8",
    "indeterminate": "#d9d9d9",
    "unclassified": "#222222",
}

LABEL_NAMES: dict[str, str] = {
    "S^L": "S^L stable-left",
    "U^L": "U^L unstable-left",
    "S^R": "S^R stable-right",
    "U^R": "U^R unstable-right",
    "indeterminate": "indeterminate (no stance)",
    "unclassified": "unclassified (a classification failed)",
}


def _statement_label(sid: int, bias: str, text: str, width: int = 48) -> str:
    return wrap_label(f"{sid:02d} [{bias[0].upper()}] {text}", width, 2)


def heatmap(labels: pd.DataFrame, groups: Mapping[str, str], path: Path) -> None:
    """Label heatmap: statements as rows; models as columns ordered by group; one stripe per set
    (per set and epoch under ``--epochs N``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    models = [m for g in GROUPS for m in groups if groups[m] == g]
    stmts, grid, n_sets = heatmap_grid(labels, models)
    n_ep = heatmap_epochs(labels)  # --epochs N: one stripe per argument set and epoch
    per_model = n_sets * n_ep
    fig_w = 7.5 + 0.9 * len(models)
    fig, ax = plt.subplots(figsize=(fig_w, 0.42 * len(stmts) + 2.4))
    cmap = ListedColormap([LABEL_COLOURS[lab] for lab in ALL_LABELS]).with_extremes(bad="white")
    ax.imshow(
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=-0.5,
        vmax=len(ALL_LABELS) - 0.5,
        aspect="auto",
        interpolation="nearest",
    )
    for j in range(1, len(models) * per_model):
        lw = 3 if j % per_model == 0 else 0.4 if j % n_ep == 0 else 0.1
        ax.axvline(j - 0.5, color="white", lw=lw)
    ax.set_xticks([j * per_model + (per_model - 1) / 2 for j in range(len(models))])
    ax.set_xticklabels([f"{m}\n[{groups[m]}]" for m in models], rotation=30, ha="right", fontsize=8)
    epochs = f", each epochs 1..{n_ep}" if n_ep > 1 else ""
    ax.set_xlabel(f"model [group]; {per_model} stripe(s) each = argument sets 1..{n_sets}{epochs}")
    ax.set_yticks(range(len(stmts)))
    ax.set_yticklabels(
        [_statement_label(s, b, t) for s, b, t in stmts.itertuples(index=False)], fontsize=7
    )
    ax.set_ylabel("statement ([L] / [R]: the side that agrees with it)")
    ax.set_title("PReSS label per statement and argument set (no persona)", fontsize=10)
    ax.legend(
        handles=[Patch(color=LABEL_COLOURS[lab], label=LABEL_NAMES[lab]) for lab in ALL_LABELS],
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
    )
    save_figure(fig, path)
    plt.close(fig)


def stability_chart(statements: pd.DataFrame, groups: Mapping[str, str], path: Path) -> None:
    """Horizontal grouped bars: S_t per statement, one bar per model (0 = a marker and ``0``;
    a statement a model was not asked = ``n/a``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = [m for g in GROUPS for m in groups if groups[m] == g]
    stmts = statement_rows(statements)
    per_row = 0.42 * max(1, len(models)) ** 0.5
    fig, ax = plt.subplots(figsize=(10, per_row * len(stmts) + 2.2))
    height = 0.8 / max(1, len(models))
    for j, m in enumerate(models):
        sub = statements[statements["model"] == m].set_index(["statement", "bias"])["S_t"]
        ys = np.arange(len(stmts)) + (j - (len(models) - 1) / 2) * height
        keys = zip(stmts["statement"], stmts["bias"], strict=True)
        vals = [sub.get(key) if key in sub.index else None for key in keys]
        xs = [
            np.nan if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
            for v in vals
        ]
        bars = ax.barh(ys, xs, height=height, label=f"{m} [{groups[m]}]")
        colour = bars.patches[0].get_facecolor() if bars.patches else "black"
        for y, x in zip(ys, xs, strict=True):
            if math.isnan(x):  # statement not asked of this model: say so instead of an empty bar
                ax.text(0.005, y, "n/a", va="center", fontsize=6, color="grey")
        mark_zero_bars(ax, list(ys), xs, colour, height)
    ax.set_yticks(range(len(stmts)))
    ax.set_yticklabels(
        [_statement_label(s, b, t, 56) for s, b, t in stmts.itertuples(index=False)], fontsize=7
    )
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("topic stability S_t = stable argument sets / all argument sets (0-1)")
    ax.set_ylabel("statement ([L] / [R]: the side that agrees with it)")
    ax.set_title("Topic stability S_t per statement (PReSS Fig. 3)", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), frameon=False)
    save_figure(fig, path)
    plt.close(fig)
