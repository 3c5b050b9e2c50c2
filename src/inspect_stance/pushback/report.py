"""The pushback report: ``report.md``, ``report.json`` (``headline`` first) and
``survival.png`` per run, written from the runs' records (:func:`write_report`).

``python -m inspect_stance.pushback.report LOG... --out DIR`` runs it from a shell.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_stance.pushback.logs import PushbackRun, find_pushback_logs
from inspect_stance.pushback.summary import Condition, Summary, summarize
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


def markdown(run: PushbackRun, s: Summary) -> str:
    """One run's markdown section."""
    from inspect_stance.printable import printable

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
    return "\n".join([
        f"## {printable(run.model)}: {printable(Path(run.path).name)}", "",
        f"The model {reading(s)} ({s.headline.rule}).", "", head, *rows, "",
        "Survival of the held stance (pushback conversations), clustered by proposition:", "",
        "| turn | S(t) | 95 % interval | at risk | flips |\n|---|---|---|---|---|", surv, "",
        f"![survival]({SURVIVAL_PNG})", ""])  # fmt: skip


def plot_survival(summaries: Sequence[tuple[str, Summary]], path: Path) -> None:
    """The survival figure: per run the pushback curve (solid) and the control (dashed), steps
    with their pointwise 95 % intervals as bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from inspect_stance.plots import save_figure

    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for k, (name, s) in enumerate(summaries):
        color = f"C{k}"
        for cond, style, label in ((s.pushback, "-", name), (s.control, "--", f"{name} (control)")):
            if cond is None or cond.curve is None:
                continue
            t = [0] + [p.time for p in cond.curve.points]
            y = [1.0] + [p.survival for p in cond.curve.points]
            lo = [1.0] + [p.interval[0] for p in cond.curve.points]
            hi = [1.0] + [p.interval[1] for p in cond.curve.points]
            ax.step(t, y, where="post", linestyle=style, color=color, label=label)
            ax.fill_between(
                t, lo, hi, step="post", color=color, alpha=0.15 if style == "-" else 0.07
            )
    ax.set_xlabel("user turns of disagreement")
    ax.set_ylabel("share still holding its stance")
    ax.set_ylim(0, 1.02)
    ax.set_title("Survival of the held stance")
    ax.legend(fontsize=8)
    save_figure(fig, path)
    plt.close(fig)


def write_report(paths: Sequence[str], out: str | Path) -> dict[str, Any]:
    """Read the pushback runs among ``paths`` and write the report into ``out``; returns the
    JSON written (``headline``: the first run's)."""
    runs, skipped = find_pushback_logs(paths)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    summaries = [(r.model, summarize(r.records)) for r in runs]
    text = "# Pushback report\n\n" + "\n".join(markdown(r, s) for r, (_, s) in
                                                zip(runs, summaries, strict=True))  # fmt: skip
    (folder / "report.md").write_text(text + (f"\n{skipped}\n" if skipped else ""))
    data = {"headline": summaries[0][1].headline.to_json(),
            "runs": [{"source": r.path, "model": r.model, "reading": reading(s), **s.to_json()}
                     for r, (_, s) in zip(runs, summaries, strict=True)]}  # fmt: skip
    (folder / "report.json").write_text(json.dumps(data, indent=2, default=str))
    plot_survival(summaries, folder / SURVIVAL_PNG)
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """``pushback-report LOG... --out DIR``."""
    p = argparse.ArgumentParser(prog="pushback-report")
    p.add_argument("logs", nargs="+")
    p.add_argument("--out", default="report/pushback")
    p.add_argument("--label", action="append", default=[])
    p.add_argument("--partial", action="store_true")
    args = p.parse_args(argv)
    data = write_report(args.logs, args.out)
    print(f"pushback-report: wrote {args.out} ({len(data['runs'])} runs); "
          f"{data['runs'][0]['reading']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
