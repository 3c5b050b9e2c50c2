"""The even-handedness report (:mod:`.report`) as a :class:`~inspect_stance.report_doc.Report`:
``report.md``, ``report.json`` and the per-category figure ``by_category.png`` (matplotlib,
imported when drawing), written by :func:`inspect_stance.report_doc.write_report`."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.even_handedness.report import (
    GROUPS_SHOWN,
    TOPICS_SHOWN,
    _agreement_rows,
    _f,
    _grader_rows,
    _headline_rows,
    run_figures,
)
from inspect_stance.plots import save_figure
from inspect_stance.printable import md_cell, md_text, printable
from inspect_stance.report_doc import Block, Figure, Heading, Report, Table, Text
from inspect_stance.report_doc import write_report as write_doc

HEADLINE = ("run", "model", "pairs", "even-handedness", "95 % interval", "SE (headline)",
            "SE plain", "SE topic-clustered", "topics", "uncorrected", "position bias b",
            "published read-out", "flip rate",
            "first shown", "refusal", "hedging", "direction", "unparsed", "PPI-corrected",
            "Dawid-Skene")  # fmt: skip


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]], empty: str = "") -> Block:
    """``rows`` (cells formatted, or integers) as a table; ``empty``: the text instead when
    there are none (else an empty table)."""
    import pandas as pd

    if not rows and empty:
        return Text(empty)
    return Table(pd.DataFrame([list(r) for r in rows], columns=[md_cell(h) for h in header]))


def build(names: Sequence[str], figs: Sequence[dict[str, Any]]) -> Report:
    """The report of the runs ``names`` with their figures ``figs``
    (:func:`~inspect_stance.even_handedness.report.run_figures`)."""
    doc = Report("Even-handedness report", payload=dict(zip(names, figs, strict=True)))
    doc.add(Text(
           "Share of pairs judged even-handed, by the run's read-out (orders: a side counts as "
           "favoured only when both orders favour it, a verdict that flips with the order is a "
           "tie, and the share is corrected for the graders' position bias b, the mean over "
           "calls of [verdict = first shown] - [verdict = second shown]: 1 - (share one-sided) "
           "/ (1 - |b|), not corrected at |b| >= 0.5; uncorrected: the share before it; "
           "published: P(C) with prompt_a shown first). The interval and the headline SE "
           "follow one rule: SE clustered by topic, never below the within-topic one, t with "
           "Satterthwaite df (fewer with fewer topics), clipped to [0, 1] (the rule line "
           "below); SE plain and "
           "SE topic-clustered are shown beside it. Flip rate: share of pairs whose verdict "
           "changes with the order; first shown: share of A/B verdicts naming the first-shown "
           "response (0.5: no position preference). Refusal and hedging: share of responses. "
           "Direction > 0: prompt_a's side helped more. By category: share [95 % interval] by the "
           "same rule."),
           _table(HEADLINE, _headline_rows(names, figs)))  # fmt: skip
    doc.add(Text("\n".join(f"- {md_text(n)}: {md_text(f['headline']['rule'])}"
                           for n, f in zip(names, figs, strict=True))))  # fmt: skip
    warn = [f"- {md_text(n)}: {md_text(w)}" for n, f in zip(names, figs, strict=True)
            for w in f["warnings"]]  # fmt: skip
    if warn:
        doc.add(Heading("Warnings"), Text("\n".join(warn)))
    cats = sorted({c for f in figs for c in f["categories"]})
    doc.add(Heading("By category"),
            Figure("by_category.png", "even-handedness by category",
                   lambda path: draw_categories(names, figs, path)),
            _table(["category", *names], [[c, *(_cat(f, c) for f in figs)] for c in cats]))  # fmt: skip
    for n, f in zip(names, figs, strict=True):
        rows = [[t, _f(s), k] for t, s, k in f["topics"][:TOPICS_SHOWN]]
        doc.add(Heading(f"Least even-handed topics: {md_text(n)}"),
                _table(["topic", "even-handedness", "pairs"], rows,
                       "No pair has a parsed judgment."))  # fmt: skip
    grader_rows = [r for n, f in zip(names, figs, strict=True) for r in _grader_rows(n, f)]
    doc.add(Heading("Graders: position, length, accuracy, family"), Text(
            "flip rate: share of pairs whose label (mapped back) changes with the order; first "
            "shown: share of A/B answers naming the first-shown dialogue (0.5 = no position "
            "bias); length preference: share choosing the longer minus the shorter response."),
            _table(["run", "grader", "flip rate", "first shown", "length preference",
                    "Dawid-Skene accuracy", "family", "same family as target"], grader_rows))  # fmt: skip
    agree = [r for n, f in zip(names, figs, strict=True) for r in _agreement_rows(n, f)]
    doc.add(Heading("Agreement among graders"),
            _table(["run", "graders", "statistic", "value"], agree,
                   "One grader per run: no agreement to measure."))  # fmt: skip
    for kind in ("refusal", "hedging"):
        doc.add(Heading(f"{kind.capitalize()} by side (largest differences)"),
                _table(["run", "group a", "group b", "pairs", "rate a", "rate b", "a - b",
                        "McNemar p", "paired t p", "topic-clustered p"], _group_rows(names, figs, kind),
                       f"No pair has both {kind} readings."))  # fmt: skip
    return doc


def _cat(f: dict[str, Any], c: str) -> str:
    v = f["categories"].get(c)
    if v is None:
        return "n/a"
    return (f"{_f(v[0])} [{_f(v[5])}, {_f(v[6])}] (n={v[2]}, {v[4]} "
            f"topic{'s' if v[4] != 1 else ''})")  # fmt: skip


def _group_rows(names: Sequence[str], figs: Sequence[dict[str, Any]], kind: str) -> list[list[Any]]:
    rows = []
    for n, f in zip(names, figs, strict=True):
        top = sorted(f["groups"][kind], key=lambda r: -abs(r["difference"]))[:GROUPS_SHOWN]
        rows += [[n, r["group_a"], r["group_b"], r["pairs"], _f(r["rate_a"]), _f(r["rate_b"]),
                  _f(r["difference"]), _f(r["mcnemar_p"]), _f(r["t_p"]), _f(r["p"])]
                 for r in top]  # fmt: skip
    return rows


def draw_categories(names: Sequence[str], figs: Sequence[dict[str, Any]], path: Path) -> None:
    """Bars of even-handedness per category and run, with the headline's 95 % interval
    (clustered by topic; over the category's own pairs with one topic)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cats = sorted({c for f in figs for c in f["categories"]})
    width = 0.8 / max(1, len(figs))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(cats) + 2), 4.5))
    for k, (n, f) in enumerate(zip(names, figs, strict=True)):
        nan = math.nan
        vals = [f["categories"].get(c, (nan, nan, 0, nan, 0, nan, nan)) for c in cats]
        err = [[max(0.0, v[0] - v[5]) if math.isfinite(v[5]) else 0.0 for v in vals],
               [max(0.0, v[6] - v[0]) if math.isfinite(v[6]) else 0.0 for v in vals]]  # fmt: skip
        ax.bar([i + k * width for i in range(len(cats))], [v[0] for v in vals], width,
               yerr=err, capsize=3, label=printable(n))  # fmt: skip
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(cats))])
    ax.set_xticklabels([printable(c).replace("_", " ").lower() for c in cats], rotation=30,
                       ha="right", fontsize=8)  # fmt: skip
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of pairs even-handed")
    ax.set_title("Even-handedness by category\n(error bars: 95 % interval clustered by topic)")
    ax.legend(fontsize=8)

    save_figure(fig, path)
    plt.close(fig)


def write_report(runs: Sequence[EvenRun], names: Sequence[str], out: Path) -> list[Path]:
    """Write the report of ``runs`` (named ``names``) under ``out``; the files written."""
    figs = [run_figures(r) for r in runs]
    for n, f in zip(names, figs, strict=True):
        for line in f["warnings"]:
            print(f"warning: {printable(n)}: {printable(line)}", file=sys.stderr)
    return write_doc(build(names, figs), out)
