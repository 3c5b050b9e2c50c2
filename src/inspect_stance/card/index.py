"""The index page of several targets: per method, the targets best first with their rank (equal
values share one; a target ``compare`` would not compare with the others is "set apart", with
why), value and 95 % interval, the probability of each rank and the tied groups (:mod:`.ranks`),
and a dot-and-interval figure (a PNG embedded as a data URI)."""

from __future__ import annotations

import base64
import io
from typing import Any

from inspect_stance.card.names import card_stems
from inspect_stance.card.render import _page, esc


def interval_figure(method: str, metric: str, rows: list[dict[str, Any]], direction: str) -> str:
    """A dot-and-interval PNG (base64) of ``rows`` (best first, drawn top down)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    for y, r in enumerate(rows):
        lo, hi = r["ci"]
        if lo is not None and hi is not None:  # no interval (one cluster): the dot alone
            ax.plot([lo, hi], [y, y], color="#1f77b4", lw=2)
        ax.plot([r["value"]], [y], "o", color="#1f77b4")
    ax.set_yticks(range(len(rows)), [r["model"] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel(f"{metric} ({direction} is better)")
    ax.set_title(f"{method}: {metric}\nwith 95 % interval, best at the top", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _rank_cell(row: dict[str, Any], position: int) -> str:
    """The row's rank (equal values share one), or "set apart" for a target compare would not
    compare with the ranked ones."""
    if row.get("set_apart"):
        return "set apart"
    return str(row.get("rank") or position)


def _ranking_html(ranking: dict[str, Any] | None, why: str) -> str:
    if ranking is None:
        return f"<p class='muted'>No rank probabilities: {esc(why)}</p>"
    n = len(ranking["order"])
    head = "".join(f"<th>P(rank {k})</th>" for k in range(1, n + 1))
    rows = "".join(
        f"<tr><td>{esc(t)}</td>"
        + "".join(f"<td>{p:.2f}</td>" for p in ranking["rank_probabilities"][t])
        + "</tr>"
        for t in ranking["order"]
    )
    groups = "; ".join(", ".join(g) for g in ranking["tied_groups"]) or "none"
    clusters = ranking.get("n_clusters") or ranking["n_items"]
    return (f"<table><tr><th>target</th>{head}</tr>{rows}</table><p>Tied groups (no pair "
            f"differs at 5 %, Holm-adjusted, over {ranking['n_items']:,} shared items in "
            f"{clusters:,} clusters, cluster-robust): {esc(groups)}</p>")  # fmt: skip


def _interval_cell(ci: list[float | None]) -> str:
    """``[lo, hi]`` to three decimals, or ``no interval`` where the run has none."""
    lo, hi = ci
    return "no interval" if lo is None or hi is None else f"[{lo:.3f}, {hi:.3f}]"


def index_html(cards: dict[str, dict[str, Any]], board: dict[str, dict[str, Any]]) -> str:
    """The index page (module docstring); ``board``: method -> leaderboard entry."""
    stems = card_stems(c["target"] for c in cards.values())
    links = "".join(f"<li><a href='{esc(stems[c['target']])}.html'>{esc(c['target'])}</a></li>"
                    for c in cards.values())  # fmt: skip
    parts = [f"<h1>Stance cards</h1><ul>{links}</ul>"]
    for method, entry in board.items():
        rows = entry["targets"]
        table = "".join(
            f"<tr><td>{_rank_cell(r, k)}</td><td>{esc(r['model'])}</td><td>{r['value']:.3f}</td>"
            f"<td>{_interval_cell(r['ci'])}</td></tr>"
            for k, r in enumerate(rows, 1)
        )
        apart = entry.get("set_apart") or {}
        apart_html = "".join(f"<p class='muted'>{esc(t)} is not ranked: {esc(why)}</p>"
                             for t, why in apart.items())  # fmt: skip
        png = interval_figure(method, entry["metric"], rows, entry["better"])
        parts.append(
            f"<h2>{esc(method)}: {esc(entry['metric'])} ({esc(entry['better'])} is better)</h2>"
            f"<table><tr><th>#</th><th>target</th><th>value</th><th>95 % interval</th></tr>"
            f"{table}</table><img alt='{esc(method)} dot-and-interval' "
            f"src='data:image/png;base64,{png}'><p class='muted'>Dots: each target's headline; "
            "lines: its 95 % interval (a dot alone: an interval of zero width); sorted best first.</p>"
            + apart_html
            + _ranking_html(entry.get("ranking"), entry.get("ranking_note", ""))
        )
    return _page("Stance cards", "".join(parts))
