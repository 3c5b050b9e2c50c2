"""How ``inspect view`` shows each task: its headline metric and sample-list defaults.

Each task passes ``headline_metric=`` and ``viewer=`` from here to Inspect's ``Task``. The
headline (declared once, in the task's method record) is what the viewer's run list shows in its SCORE column, what the run header and the
live progress line show first (Inspect's :class:`~inspect_ai.log.HeadlineMetric`); the
:class:`~inspect_ai.viewer.TaskSamplesView` labels and colours the sample list's score
columns (a task's own view lives in its task file; the one two tasks share lives here). Only
display settings live here: the metrics themselves are in ``scorers/``.
"""

from __future__ import annotations

from inspect_ai.log import HeadlineMetric
from inspect_ai.viewer import TaskSamplesView, ViewerConfig

from inspect_stance.study.registry import task_headline


def headline(task: str) -> HeadlineMetric:
    """The headline metric ``task`` declares in its method's record
    (:class:`~inspect_stance.study.protocol.TaskHeadline`), as Inspect's ``HeadlineMetric``."""

    spec = task_headline(task)
    if spec is None:
        raise KeyError(f"no method declares a headline for task {task!r}")
    return HeadlineMetric(metric=spec.metric)


def construction_viewer() -> ViewerConfig:
    """Prompt construction / judge validation: the ensemble's label per response."""
    roles = {
        "1": "info",
        "2": "info",
        "3": "good",
        "4": "info",
        "5": "info",
        "refusal": "muted",
        "no_majority": "warn",
        "no_valid_judge": "bad",
        "no_response": "bad",
        "no_prompt": "bad",
    }
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="prompt construction",
            score_labels={"stance_ensemble": "ensemble label"},
            score_color_scales={"stance_ensemble": roles},  # type: ignore[dict-item]
            color_scales_enabled=True,
        )
    )
