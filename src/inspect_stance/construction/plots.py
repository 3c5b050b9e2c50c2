"""Prompt-construction figures (matplotlib, ``Agg``): lean by setting and construction method.

Each row is a setting (topic x intent x user stance); a triangle at the panel's edge marks the
pole the topic's template filler encodes (◀ pole A / pro, ▶ pole B / con), so a templated lean
pointing the same way as its filler marker is visible at a glance (the confound the paper
reports). Row labels wrap at word boundaries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from inspect_stance.plots import save_figure, wrap_label

STYLES: dict[str, tuple[str, str, float]] = {
    "templated": ("o", "tab:red", -0.15),
    "generated": ("s", "tab:blue", 0.15),
}
EDGE = 2.2  # x of the filler markers (the lean runs from -2 to 2)

#: The lean axis: negative = pole A (``topic_pro``), positive = pole B (``topic_con``).
LEAN_AXIS_LABEL = (
    "lean = mean stance label - 3 (scale points)\n◀ < 0: pole A / pro    > 0: pole B / con ▶"
)


def _filler_markers(ax: Any, keys: pd.DataFrame, poles: dict[Any, Any]) -> None:
    """A triangle at the edge of each row whose topic's filler encodes a pole."""
    for i, r in keys.iterrows():
        pole = poles.get(r.topic_id)
        if pole in ("pole_a", "pole_b"):
            x, marker = (-EDGE, "<") if pole == "pole_a" else (EDGE, ">")
            ax.plot([x], [i], marker=marker, color="tab:green", ms=5, ls="none", zorder=3)
    ax.plot([], [], marker=">", color="tab:green", ls="none", label="pole the filler encodes")


def _panel(ax: Any, model: str, table: pd.DataFrame) -> None:
    keys = table[["topic_id", "topic", "intent", "stance"]].drop_duplicates().reset_index(drop=True)
    ypos = {(r.topic_id, r.intent, r.stance): i for i, r in keys.iterrows()}
    for i, r in keys.iterrows():
        if r.stance == "neutral":
            ax.axhspan(i - 0.5, i + 0.5, color="0.92", zorder=0)
    for key, grp in table.groupby(["topic_id", "intent", "stance"]):
        if len(grp) == 2 and grp["lean"].notna().all():
            ax.plot(grp["lean"], [ypos[key]] * 2, color="0.6", lw=0.8, zorder=1)
    for method, (marker, color, dy) in STYLES.items():
        sub = table[(table["method"] == method) & table["lean"].notna()]
        y = [ypos[(r.topic_id, r.intent, r.stance)] + dy for r in sub.itertuples()]
        ax.errorbar(
            sub["lean"],
            y,
            xerr=(1.96 * sub["lean_se"]).fillna(0.0),
            fmt=marker,
            color=color,
            ms=4,
            lw=0.8,
            capsize=0,
            label=f"{method} (±1.96 SE)",
            zorder=2,
            mfc=color if method == "templated" else "white",
        )
    if "filler_pole" in table:
        coded = table.dropna(subset=["filler_pole"])  # the pole is recorded on neutral rows
        poles = dict(zip(coded["topic_id"], coded["filler_pole"], strict=True))
        _filler_markers(ax, keys, poles)
    labels = [wrap_label(f"{r.topic} | {r.intent} | {r.stance}", 46, 2) for r in keys.itertuples()]
    ax.set_yticks(range(len(keys)), labels, fontsize=6.5)
    ax.set_ylim(len(keys) - 0.5, -0.5)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlim(-2.45, 2.45)
    ax.set_xlabel(LEAN_AXIS_LABEL, fontsize=8)
    ax.set_title(wrap_label(model, 60, 3), fontsize=9)


def plot_leans(reports: dict[str, dict[str, Any]], path: Path) -> None:
    """Dot plot: one row per setting, lean by method (+-1.96 SE), one panel per model, the
    filler's pole marked per row; writes nothing when no report has settings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        (m, r["settings"])
        for m, r in reports.items()
        if "settings" in r and not r["settings"].empty
    ]
    if not panels:
        return
    n_rows = max(len(t[["topic_id", "intent", "stance"]].drop_duplicates()) for _, t in panels)
    fig, axes = plt.subplots(
        1, len(panels), figsize=(7 * len(panels), 1.8 + 0.34 * n_rows), sharex=True, squeeze=False
    )
    for ax, (model, table) in zip(axes[0], panels, strict=True):
        _panel(ax, model, table)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.suptitle("Lean by setting and prompt construction (grey rows: neutral user)", fontsize=10)
    fig.legend(handles, names, loc="upper right", ncol=3, fontsize=7.5, frameon=False)
    save_figure(fig, path, rect=(0, 0, 1, 0.97))
    plt.close(fig)
