"""Rendering a comparison family: terminal table, JSON, CSV, markdown and the forest plot, with
the method's own sections (:class:`~inspect_stance.study.protocol.CompareSection`).

Analysis lives in :mod:`inspect_stance.stats` and the per-method ``compare`` modules; this module
only turns their results into text and files.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.markdown import md_table
from inspect_stance.plots import wrap_label
from inspect_stance.stats.family import CompareResult, Comparison, width_ratio
from inspect_stance.stats.ranking import Ranking

if TYPE_CHECKING:
    from inspect_stance.study.protocol import CompareSection


def _f(x: float | None, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:.{digits}f}"


def _p(x: float) -> str:
    if not math.isfinite(x):
        return "-"
    return f"{x:.2g}" if x >= 1e-3 else f"{x:.1e}"


HEADER = ("metric", "a", "b", "value a", "value b", "delta (b-a)", "CI", "p", "p adj", "n")


def rows(comparisons: Sequence[Comparison]) -> list[tuple[str, ...]]:
    """One text row per comparison, in :data:`HEADER` order."""
    return [
        (c.metric, c.run_a, c.run_b, _f(c.a), _f(c.b), _f(c.delta),
         f"[{_f(c.ci[0])}, {_f(c.ci[1])}]", _p(c.p), _p(c.p_adjusted), str(c.n_items))
        for c in comparisons
    ]  # fmt: skip


def section_text(sections: Sequence[CompareSection]) -> list[str]:
    """The method's sections as markdown: ``## title``, then its text."""
    out: list[str] = []
    for s in sections:
        out += ["", f"## {s.title}", "", s.markdown.rstrip("\n")]
    return out


def terminal_table(result: CompareResult, sections: Sequence[CompareSection] = ()) -> str:
    """A fixed-width table of the comparisons, the tests used, rankings and notes, then the
    method's sections."""
    body = [HEADER, *rows(result.comparisons)]
    widths = [max(len(r[k]) for r in body) for k in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in body]
    lines.insert(1, "  ".join("-" * w for w in widths))
    tests = sorted({c.test for c in result.comparisons})
    out = [
        f"{result.method} comparison of {len(result.runs)} runs: "
        + ", ".join(r["name"] for r in result.runs),
        "",
        *lines,
        "",
        f"{_pct(result.confidence)} intervals; p two-sided, adjusted ({result.adjust}) over all "
        f"{len(result.comparisons)} comparisons.",
        *(f"test: {t}" for t in tests),
    ]
    if len(result.runs) >= 3:  # two runs: the ranking is the comparison (it is in --json)
        for metric, rk in result.rankings.items():
            out.append(f"ranking on {metric}: " + ranking_line(rk))
    out += [f"note: {n}" for n in result.notes]
    return "\n".join(out + section_text(sections))


def _pct(c: float) -> str:
    return f"{100 * c:g} %"


def ranking_line(rk: Ranking) -> str:
    """``A (0.71, P(rank 1) 0.91) > B (0.64, P(rank 2) 0.88) = C (0.64, P(rank 2) 0.80); tied
    groups: {B, C}``: each run with its rank by estimate (equal estimates share the better
    rank, joined by ``=``) and the probability of that rank."""
    ranks = rk.ranks or {n: k + 1 for k, n in enumerate(rk.order)}
    line = ""
    for k, n in enumerate(rk.order):
        if k:
            line += " = " if ranks[n] == ranks[rk.order[k - 1]] else " > "
        p = rk.rank_probabilities[n][ranks[n] - 1]
        line += f"{n} ({_f(rk.estimates[n])}, P(rank {ranks[n]}) {p:.2f})"
    tied = "; ".join("{" + ", ".join(g) + "}" for g in rk.tied_groups) or "none"
    return line + f"; tied groups: {tied}"


def to_json(result: CompareResult, sections: Sequence[CompareSection] = ()) -> dict[str, Any]:
    """The JSON document: runs, comparisons (metric, a, b, delta, ci, p, p_adjusted, test,
    n_items, run names), rankings, notes, the method's extra keys, and per key of the method's
    sections the list of their JSON (a key that a document's own key holds is refused)."""
    comps = []
    for c in result.comparisons:
        d = c.to_json()
        d["naive_width_ratio"] = None if math.isnan(width_ratio(c)) else width_ratio(c)
        comps.append(d)
    doc: dict[str, Any] = {
        "method": result.method,
        "runs": result.runs,
        "confidence": result.confidence,
        "alpha": result.alpha,
        "adjust": result.adjust,
        "comparisons": comps,
        "rankings": {m: _ranking_json(r) for m, r in result.rankings.items()},
        "notes": result.notes,
        **result.extra,
    }
    own = set(doc)
    for s in sections:
        if s.key in own:
            raise ValueError(f"a comparison section's key {s.key!r} is the document's own")
        doc.setdefault(s.key, []).append(s.json)
    return doc


def _ranking_json(rk: Ranking) -> dict[str, Any]:
    return {
        "order": rk.order,
        "estimates": rk.estimates,
        "rank_probabilities": rk.rank_probabilities,
        "tied_groups": rk.tied_groups,
        "n_items": rk.n_items,
        "n_resamples": rk.n_resamples,
    }


def markdown(result: CompareResult, sections: Sequence[CompareSection] = ()) -> str:
    """The comparison as a markdown document, then the method's sections."""
    import pandas as pd

    frame = pd.DataFrame(rows(result.comparisons), columns=list(HEADER))
    out = [f"# {result.method} comparison", "", terminal_table(result).split("\n")[0], ""]
    out += [md_table(frame), ""]
    out += [f"- test: {t}" for t in sorted({c.test for c in result.comparisons})]
    out.append(f"- p adjusted ({result.adjust}) over all {len(result.comparisons)} comparisons")
    for metric, rk in result.rankings.items():
        out.append(f"- ranking on {metric}: {ranking_line(rk)}")
    out += [f"- note: {n}" for n in result.notes]
    return "\n".join(out + section_text(sections)) + "\n"


def write_outputs(
    result: CompareResult, out_dir: str | Path, sections: Sequence[CompareSection] = ()
) -> list[Path]:
    """``comparisons.csv``, ``comparison.md`` and ``forest.png`` in ``out_dir``, and each of the
    sections' tables as ``STEM.csv`` (a stem given twice is refused)."""
    import pandas as pd

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame([{**c.to_json(), "ci_low": c.ci[0], "ci_high": c.ci[1]}
                          for c in result.comparisons]).drop(columns=["ci"])  # fmt: skip
    paths = [out / "comparisons.csv", out / "comparison.md", out / "forest.png"]
    tables = [(stem, table) for s in sections for stem, table in s.frames.items()]
    stems = [stem for stem, _ in tables]
    if len(set(stems)) < len(stems) or set(stems) & {"comparisons"}:
        raise ValueError(f"comparison sections' tables need distinct names: {stems}")
    frame.to_csv(paths[0], index=False)
    paths[1].write_text(markdown(result, sections), encoding="utf-8")
    forest_plot(result, paths[2])
    for stem, table in tables:
        paths.append(out / f"{stem}.csv")
        table.to_csv(paths[-1], index=False)
    return paths


def forest_labels(comps: Sequence[Comparison]) -> tuple[list[str], str]:
    """Row labels and the title's line naming the runs: with one pair of runs throughout, the
    rows name the metric and the title the pair (``b - a``); otherwise each row names both."""
    pairs = {(c.run_b, c.run_a) for c in comps}
    if len(pairs) == 1:
        b, a = next(iter(pairs))
        return [c.metric for c in comps], f"b = {b}\na = {a}"
    return [f"{c.metric}: {c.run_b} - {c.run_a}" for c in comps], ""


def forest_plot(result: CompareResult, path: Path) -> None:
    """One row per comparison: the interval, the point, the zero line; rows whose adjusted p is
    at least alpha (statistically tied) shaded. Every label stays inside the saved figure
    (``bbox_inches="tight"``), however long the run names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    comps = result.comparisons
    n = len(comps)
    labels, pair = forest_labels(comps)
    fig, ax = plt.subplots(figsize=(8.5, 1.6 + 0.32 * n))
    for k, c in enumerate(comps):
        y = n - 1 - k
        tied = not (c.p_adjusted < result.alpha)
        if tied:
            ax.axhspan(y - 0.5, y + 0.5, color="0.9", zorder=0)
        color = "0.35" if tied else "tab:red"
        ax.plot([c.ci[0], c.ci[1]], [y, y], color=color, lw=2, zorder=2)
        ax.plot([c.delta], [y], "o", color=color, zorder=3)
    ax.axvline(0.0, color="black", lw=1, ls="--", zorder=1)
    ax.set_yticks(range(n))
    ax.set_yticklabels([wrap_label(x, 70, 2) for x in reversed(labels)], fontsize=8)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlabel(
        f"difference b - a, per-comparison {_pct(result.confidence)} interval (not adjusted)"
    )
    head = (
        f"{result.method}: red = differs, shaded = tied ({result.adjust}-adjusted p >= "
        f"{result.alpha:g} over {n} comparisons)"
    )
    ax.set_title("\n".join([head] + [wrap_label(x, 90, 2) for x in pair.split("\n") if x]),
                 fontsize=9, loc="left")  # fmt: skip
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
