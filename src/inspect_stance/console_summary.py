"""The compact end-of-run line of each of the package's tasks, printed under Inspect's own panel.

Inspect's end-of-run panel (``inspect_ai._display.core.results.task_scores``) prints every
metric of every scorer as ``f"{value:.3f}"``: a count shows as ``500.000`` and no metric can
carry a direction or an interval. Each task's scorer writes its headline once, as the values
of :func:`inspect_stance.stats.headline.metric_values` (the value, ``stderr``, ``ci_low``,
``ci_high``, ``n_items``, ``n_clusters``), and the method declares which metric that is
(:class:`inspect_stance.study.protocol.TaskHeadline`). This line reads it back
(:func:`inspect_stance.study.registry.headline_of_metrics`), never recomputing it:

``press: mean_S_t 0.667 [0.550, 0.780] (95 % interval over 19 statements; higher is
better) · n statements 19 · n unparsed 0``

the declared headline metric, its value and interval as the scorer wrote them, the count of
clusters the interval rests on (and of items when they differ), the direction, and the task's
declared counts as integers. It is printed by an Inspect hook at the end of the run
(``on_run_end``, :class:`inspect_stance.hooks.CompactSummary`), after Inspect's results panel.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_stance.logfile import task_name
from inspect_stance.study.registry import headline_of_metrics, task_headline


def _plural(noun: str, n: int) -> str:
    return noun if n == 1 else f"{noun}s"


def summary_line(task: str, metrics: dict[str, float]) -> str | None:
    """The compact line of ``task`` from its log's metrics (module docstring); ``None`` for a
    task no registered method declares a headline for, or a run without metrics."""

    spec = task_headline(task)
    if spec is None or not metrics:
        return None
    short = task_name(task)
    h = headline_of_metrics(task, metrics)
    if h is None:
        head = f"{short}: {spec.metric} missing from the log ({spec.better} is better)"
    else:
        head = f"{short}: {spec.metric} {h.value:.3f}"
        lo, hi = h.interval
        if math.isfinite(lo) and math.isfinite(hi):
            over = f"{h.n_clusters:,} {_plural(spec.cluster, h.n_clusters)}"
            if h.n_items != h.n_clusters:
                over += f", {h.n_items:,} {_plural(spec.item, h.n_items)}"
            head += f" [{lo:.3f}, {hi:.3f}] (95 % interval over {over};"
        else:
            head += " (no interval;"
        head += f" {spec.better} is better)"
    parts = [head]
    parts += [f"{c.replace('_', ' ')} {int(round(metrics[c])):,}" for c in spec.counts
              if c in metrics and math.isfinite(metrics[c])]  # fmt: skip
    return " · ".join(parts)


def log_metrics(log: Any) -> tuple[str, dict[str, float]]:
    """The task name of a finished log and its metrics in order (the first scorer wins a name,
    so the headline, the first metric of the first scorer, keeps its ``stderr``)."""
    results = getattr(log, "results", None)
    task = str(getattr(getattr(log, "eval", None), "task", ""))
    if results is None or not results.scores:
        return task, {}
    out: dict[str, float] = {}
    for score in results.scores:
        for name, metric in score.metrics.items():
            out.setdefault(name, float(metric.value))
    return task, out
