"""The compact end-of-run line of each of the package's tasks, printed under Inspect's own panel.

Inspect's end-of-run panel (``inspect_ai._display.core.results.task_scores``) prints every
metric of every scorer as ``f"{value:.3f}"``: a count shows as ``500.000`` and no metric can
carry a direction or an interval, whatever its definition (metric values are floats and the
format is fixed). What a metric definition can do is already done: the headline is each task's
first metric, with its standard error beside it under Inspect's name ``stderr``. So the
package adds one line per finished task, through an Inspect hook (``on_task_end``,
:class:`inspect_stance.hooks.CompactSummary`):

``stance_drift: spr 0.603 [0.563, 0.644] (95 % interval; higher is better) · trials 500 ·
unparsed 0``

the headline, its normal 95 % interval ``value -/+ 1.96 stderr``, the direction, and the
task's counts as integers. The hook is registered when one of the package's tasks is created
(a hook registered at import would make Inspect print a "hooks enabled" banner on every run).
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054
#: per task: the headline's better direction and the counts shown
TASKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "stance_drift": ("higher", ("trials", "unparsed")),  # replays: hooks.ReplayNotice
    "press": ("higher", ("n_statements", "n_unparsed", "n_classifier_errors")),
    "prompt_construction": ("lower", ("n_pairs", "no_majority", "judge_unparsable")),
    "prompt_validation": ("lower", ("friedman_blocks", "unparsed_ranking", "failed_calls")),
    "even_handedness": ("higher", ("pairs", "unparsed")),
}


def summary_line(task: str, metrics: dict[str, float]) -> str | None:
    """The compact line of ``task`` from its metrics in order (module docstring); ``None`` for
    another package's task or a run without metrics."""
    short = task.rsplit("/", 1)[-1]
    if short not in TASKS or not metrics:
        return None
    direction, counts = TASKS[short]
    name, value = next(iter(metrics.items()))
    se = metrics.get("stderr")
    head = f"{short}: {name} {value:.3f}"
    if se is not None and math.isfinite(se) and math.isfinite(value):
        head += f" [{value - Z95 * se:.3f}, {value + Z95 * se:.3f}] (95 % interval;"
    else:
        head += " (no standard error;"
    parts = [f"{head} {direction} is better)"]
    parts += [f"{c.replace('_', ' ')} {int(round(metrics[c])):,}" for c in counts if c in metrics]
    return " · ".join(parts)


def log_metrics(log: Any) -> tuple[str, dict[str, float]]:
    """The task name of a finished log and its metrics in order (the first scorer wins a name)."""
    results = getattr(log, "results", None)
    task = str(getattr(getattr(log, "eval", None), "task", ""))
    if results is None or not results.scores:
        return task, {}
    out: dict[str, float] = {}
    for score in results.scores:
        for name, metric in score.metrics.items():
            out.setdefault(name, float(metric.value))
    return task, out
