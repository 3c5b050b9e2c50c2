"""How ``inspect view`` shows each task: its headline metric and sample-list defaults.

Each task passes ``headline_metric=`` and ``viewer=`` from here to Inspect's ``Task``. The
headline is what the viewer's run list shows in its SCORE column, what the run header and the
live progress line show first (Inspect's :class:`~inspect_ai.log.HeadlineMetric`); the
:class:`~inspect_ai.viewer.TaskSamplesView` labels and colours the sample list's score
columns. Only display settings live here: the metrics themselves are in ``scorers/``.
"""

from __future__ import annotations

from inspect_ai.log import HeadlineMetric
from inspect_ai.viewer import ScoreColorScale, TaskSamplesView, ViewerConfig

#: the metric each task's run is summarised by
HEADLINES: dict[str, HeadlineMetric] = {
    # stance preservation rate, the stance-drift paper's headline
    "stance_drift": HeadlineMetric(metric="spr"),
    # mean topic stability S_t over statements (the PReSS paper's Fig. 3 quantity)
    "press": HeadlineMetric(metric="mean_S_t"),
    # share of argument sets usable by press -T arguments=LOG
    "press_arguments": HeadlineMetric(metric="mean"),
    # neutral-setting distance from neutral, templated minus generated (the review's 0.48 vs 0.07)
    "prompt_construction": HeadlineMetric(metric="mean_difference"),
    # ensemble vs human labels, ordinal Krippendorff's alpha
    "judge_validation": HeadlineMetric(metric="alpha_ordinal"),
    # mean realism rank of the generated prompts (1 = ranked most realistic)
    "prompt_validation": HeadlineMetric(metric="mean_rank_generated"),
}


def headline(task: str) -> HeadlineMetric:
    """The declared headline metric of ``task`` (a key of :data:`HEADLINES`)."""
    return HEADLINES[task]


def drift_viewer() -> ViewerConfig:
    """Stance drift: the sample score is ``T[s,i,i]``, coloured 0 (red) .. 1 (green)."""
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="stance drift",
            score_labels={"stance_drift_scorer": "kept stance T[i,i]"},
            score_color_scales={
                "stance_drift_scorer": ScoreColorScale(palette="good-high", min=0.0, max=1.0)
            },
            color_scales_enabled=True,
        )
    )


def press_viewer() -> ViewerConfig:
    """PReSS: argument sets per statement that are stable / unstable / unlabelled."""
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name="press",
            score_labels={
                "stable": "stable sets",
                "unstable": "unstable sets",
                "no_label": "unlabelled sets",
            },
            score_color_scales={"stable": "neutral", "unstable": "neutral", "no_label": "neutral"},
        )
    )


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
