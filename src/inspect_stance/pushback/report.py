"""The pushback report: ``report.md``, ``report.json`` (``headline`` first) and
``survival.png`` per run, written from the runs' records (:func:`write_report`).

``inspect-stance pushback-report LOG... --out DIR`` (and ``report``) run it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial as bind
from pathlib import Path
from typing import Any

from inspect_stance.plots import save_figure
from inspect_stance.printable import printable
from inspect_stance.pushback.logs import PushbackRun, find_pushback_logs, run_info
from inspect_stance.pushback.summary import Condition, Summary, summarize
from inspect_stance.report_doc import Block, Figure, Heading, Report, Text
from inspect_stance.report_doc import write_report as write_doc
from inspect_stance.runs import dedupe, run_names
from inspect_stance.stats.headline import Headline

SURVIVAL_PNG = "survival.png"


def _ci(h: Headline, pct: bool = True) -> str:
    f = (lambda x: f"{100 * x:.0f}") if pct else (lambda x: f"{x:.2f}")
    v = f"{100 * h.value:.0f} %" if pct else f"{h.value:.2f}"
    lo, hi = h.interval
    return v if math.isnan(lo) else f"{v} [{f(lo)}, {f(hi)}]"


def reading(s: Summary) -> str:
    """The card's sentence: holds its stance through K turns in v of conversations [ci]."""
    return (f"holds its stance through {s.horizon} turns of disagreement in "
            f"{_ci(s.headline)} of conversations")  # fmt: skip


def _row(name: str, c: Condition) -> str:
    med = "> K" if math.isinf(c.median_turn) else f"{c.median_turn:g}"
    return (f"| {name} | {c.held.n_items} | {_ci(c.held)} | {med} | {_ci(c.flips, False)} | "
            f"{_ci(c.turns_held, False)} | {_ci(c.shift, False)} | {c.unparsed} |")  # fmt: skip


def blocks(run: PushbackRun, name: str, s: Summary) -> list[Block]:
    """One run's section: its heading, log, reading, the table by condition, the survival
    table and the figure."""

    head = ("| conversations | n | held at K | median turn of flip | flips | turns held | "
            "final shift | unparsed |\n|---|---|---|---|---|---|---|---|")  # fmt: skip
    rows = [_row("pushback (all styles)", s.pushback)]
    rows += [_row("control (no pushback)", s.control)] if s.control is not None else []
    rows += [_row(f"style: {k}", v) for k, v in s.by_style.items()]
    rows += [_row(f"held stance: {k}", v) for k, v in s.by_start.items()]
    curve = s.pushback.curve
    surv = "" if curve is None else "\n".join(
        f"| {p.time} | {p.survival:.3f} | [{p.interval[0]:.3f}, {p.interval[1]:.3f}] | "
        f"{p.at_risk} | {p.events} |" for p in curve.points)  # fmt: skip
    return [
        Heading(printable(name)),
        Text(f"Log: {printable(Path(run.path).name)}"),
        Text(f"The model {reading(s)} ({s.headline.rule})."),
        Text("\n".join([head, *rows])),
        Text("Survival of the held stance (pushback conversations), clustered by proposition:"),
        Text("| turn | S(t) | 95 % interval | at risk | flips |\n|---|---|---|---|---|\n" + surv),
    ]


def plot_survival(summaries: Sequence[tuple[str, Summary]], path: Path) -> None:
    """The survival figure: per run the pushback curve (solid) and the control (dashed), steps
    with their pointwise 95 % intervals as bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for k, (name, s) in enumerate(summaries):
        color = f"C{k}"
        for cond, style, label in ((s.pushback, "-", name), (s.control, "--", f"{name} (control)")):
            if cond is None or cond.curve is None:
                continue
            t: list[float] = [0.0] + [float(p.time) for p in cond.curve.points]
            y = [1.0] + [p.survival for p in cond.curve.points]
            lo = [1.0] + [p.interval[0] for p in cond.curve.points]
            hi = [1.0] + [p.interval[1] for p in cond.curve.points]
            # the last turn's step drawn half a turn wide, so S(K) shows as a step
            t, y, lo, hi = t + [t[-1] + 0.5], y + y[-1:], lo + lo[-1:], hi + hi[-1:]
            ax.step(t, y, where="post", linestyle=style, color=color, label=label)
            ax.fill_between(
                t, lo, hi, step="post", color=color, alpha=0.15 if style == "-" else 0.07
            )
    ax.set_xticks(range(max(s.horizon for _, s in summaries) + 1))
    ax.set_xlabel("user turns of disagreement")
    ax.set_ylabel("share still holding its stance")
    ax.set_ylim(0, 1.02)
    ax.set_title("Survival of the held stance")
    ax.legend(fontsize=8)
    save_figure(fig, path)
    plt.close(fig)


def write_report(paths: Sequence[str], out: str | Path, labels: dict[str, str] | None = None,
                 partial: bool = False) -> dict[str, Any]:  # fmt: skip
    """Read the pushback runs among ``paths`` (the shards of one study pooled; ``partial``: an
    incomplete set too) and write the report into ``out`` (runs named by
    :func:`inspect_stance.runs.run_names` with ``labels``); returns the JSON written
    (``headline``: the first run's) and prints what was set aside."""

    runs, skipped = find_pushback_logs(paths, partial)
    infos = [run_info(r) for r in runs]
    keep, dropped = dedupe(infos)
    runs, infos = [runs[k] for k in keep], [infos[k] for k in keep]
    names, notes = run_names(infos, labels or {})
    summaries = [(n, summarize(r.records)) for r, n in zip(runs, names, strict=True)]
    notes = [x for x in (*notes, skipped, dropped) if x]
    data = {"headline": summaries[0][1].headline.to_json(),
            "runs": [{"name": n, "source": r.path, "model": r.model, "reading": reading(s),
                      **s.to_json()} for r, (n, s) in zip(runs, summaries, strict=True)],
            "notes": notes}  # fmt: skip
    figure = Figure(SURVIVAL_PNG, "survival", bind(plot_survival, summaries))
    doc = Report("Pushback report", payload=data)
    for r, (n, s) in zip(runs, summaries, strict=True):
        # every run's section shows the one figure (all runs' curves)
        doc.add(*blocks(r, n, s), figure)
    doc.add(*(Text(x) for x in notes))
    write_doc(doc, out)
    return data
