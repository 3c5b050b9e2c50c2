"""Shared figure helpers for the report PNGs (matplotlib): labels that wrap at word boundaries,
zero-height bars that stay visible, line plots in which identical runs stay distinguishable, and
a save that keeps every label inside the image without a console warning.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

LINE_STYLES: tuple[str, ...] = ("-", "--", "-.", ":")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*")


def wrap_label(text: str, width: int = 40, max_lines: int = 2) -> str:
    """``text`` wrapped at word boundaries into at most ``max_lines`` lines of ``width``
    characters; what does not fit ends the last line with an ellipsis after a whole word."""
    lines = textwrap.wrap(" ".join(str(text).split()), width=width) or [""]
    if len(lines) <= max_lines:
        return "\n".join(lines)
    kept = lines[:max_lines]
    last = textwrap.shorten(" ".join(lines[max_lines - 1 :]), width=width, placeholder=" …")
    return "\n".join([*kept[:-1], last])


def save_figure(fig: Any, path: Any, dpi: int = 130, rect: Any = None) -> None:
    """Lay ``fig`` out and write it to ``path`` with every title, label and legend inside the
    image (``bbox_inches="tight"`` grows the canvas to what is drawn). ``tight_layout`` only
    spaces the panels; when long names leave it no room it would print "Tight layout not
    applied" on the console of a report command: that warning is dropped, as the saved image
    holds the labels anyway. ``rect`` is ``tight_layout``'s (room kept for a suptitle or a
    figure legend)."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Tight layout not applied", category=UserWarning)
        fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", pad_inches=0.15)


def line_style(index: int) -> dict[str, Any]:
    """Matplotlib keyword arguments giving the ``index``-th line its own dash and marker, so that
    overlapping lines are told apart in the legend (colour alone repeats after 10 lines)."""
    return {
        "linestyle": LINE_STYLES[index % len(LINE_STYLES)],
        "marker": MARKERS[index % len(MARKERS)],
    }


def identical_to(curves: Mapping[str, Sequence[float]]) -> dict[str, str]:
    """For each curve equal (within 1e-12, NaN = NaN) to an earlier one: the earlier one's name."""
    out: dict[str, str] = {}
    seen: list[tuple[str, np.ndarray]] = []
    for name, values in curves.items():
        arr = np.asarray(values, dtype=np.float64)
        for first, other in seen:
            if other.shape == arr.shape and np.allclose(arr, other, atol=1e-12, equal_nan=True):
                out[name] = first
                break
        else:
            seen.append((name, arr))
    return out


def legend_label(
    index: int, name: str, same: Mapping[str, str], names: Sequence[str], extra: str = ""
) -> str:
    """The ``index``-th legend entry, numbered; a curve identical to an earlier one names that
    one's number (it is drawn exactly under it)."""
    label = f"{index + 1}. {name}{extra}"
    if name in same:
        label += f" (same curve as {list(names).index(same[name]) + 1})"
    return label


def place_legend(ax: Any, n: int, loc: str = "best") -> None:
    """A legend for ``n`` entries: inside for up to three, below the axes (off the data) for
    more, in columns past 12 entries."""
    if n <= 3:
        ax.legend(fontsize=7, loc=loc)
    else:
        ax.legend(
            fontsize=6.5,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.14),
            ncol=1 + n // 12,
            frameon=False,
        )


def mark_zero_bars(
    ax: Any, positions: Sequence[float], values: Sequence[float], colour: Any, size: float = 0.4
) -> None:
    """Draw a visible marker and a ``0`` label where a horizontal bar has value 0 (a bar of
    width 0 draws nothing); ``positions`` are the bars' y centres."""
    for y, x in zip(positions, values, strict=True):
        if x == 0.0:
            ax.plot([0.0], [y], marker="|", markersize=10 * size + 4, mew=2.5, color=colour)
            ax.text(0.012, y, "0", va="center", ha="left", fontsize=6, color=colour)
