"""Judge validation: the ``judges`` ensemble on already-collected responses with human labels.

    inspect eval tasks/judge_validation.py --model-role judges=A,B,C \\
        -T annotations=../shared/data/issuebench/stance_annotations.csv [--limit N]

No target model is called (``--model`` is not needed). The file needs ``prompt_text``,
``response_text``, ``topic_neutral``, ``topic_pro``, ``topic_con`` and the label column
(``1``..``5``/``refusal`` or IssueBench's ``"3 - neutral/ambivalent"`` form); optional
``annot1_label``/``annot2_label`` (individual annotators, for the human-human ceiling),
``topic_polarity`` (pro/con/neutral), ``cluster_id``. Sample ids are ``row-0001``... (data rows).
``-T shard=K/N`` keeps shard K of the rows, split by content (``shard_rows``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.prompt_construction import (
    JUDGE_DEFAULTS,
    judge_configs,
    stance_ensemble,
    validation_agreement,
    validation_headline,
)

import inspect_stance.construction.defaults as D
from inspect_stance.construction.judge_annotations import load_annotations, shard_rows
from inspect_stance.construction.judge_validation_options import JudgeValidationOptions
from inspect_stance.construction.keys import JUDGES_ROLE
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.roles import require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.viewer import construction_viewer, headline

TASK_VERSION = 2  # 2: the paper's rubric threshold (0.75) by default


@task
def judge_validation(
    annotations: str | None = None,
    label_column: str = D.LABEL_COLUMN,
    rubric_threshold: float = D.RUBRIC_THRESHOLD,
    judge_sees_prompt: bool = D.JUDGE_SEES_PROMPT,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Agreement of the ``judges`` ensemble with human stance labels on collected responses.

    Parameters: ``inspect-stance params judge_validation`` (or docs/prompt_construction.md).

    Needs ``--model-role judges=A,B,C`` (checked before any call); no target model is called.
    Judge calls use temperature 0 and ``max_tokens`` 256 unless the role's own config sets them.

    The parameters are declared once, in
    :class:`~inspect_stance.construction.judge_validation_options.JudgeValidationOptions`.
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.judge_validation import collected_response

    enter_task()

    reject_unknown_args("judge_validation", unknown, judge_validation)
    opts = JudgeValidationOptions.parse(**task_arguments(JudgeValidationOptions, given))
    rows = load_annotations(opts.annotations_path, opts.label_column)
    keep, shard_entry = shard_rows(rows, opts.shard, study_settings(opts))
    require_roles("judge_validation", [JUDGES_ROLE], "the judge ensemble under validation")
    samples = [  # ids keep the row's number in the whole file, sharded or not
        Sample(id=f"row-{i:04d}", input=rows[i - 1]["prompt_text"], metadata=rows[i - 1])
        for i in keep
    ]
    return Task(
        dataset=MemoryDataset(samples, name="judge_validation"),
        solver=[collected_response()],
        scorer=stance_ensemble(
            rubric_threshold=opts.rubric_threshold, judge_sees_prompt=opts.judge_sees_prompt
        ),
        metrics=[validation_headline(), validation_agreement(with_outcomes=True)],
        headline_metric=headline("judge_validation"),
        viewer=construction_viewer(),
        model="none/none",
        metadata={**task_metadata(opts, samples), **shard_entry},
        version=TASK_VERSION,
    )


def study_settings(opts: JudgeValidationOptions) -> dict[str, Any]:
    """The options that define the study beside its rows (the file is in the rows' keys)."""
    return {
        "label_column": opts.label_column,
        "rubric_threshold": opts.rubric_threshold,
        "judge_sees_prompt": opts.judge_sees_prompt,
    }


def task_metadata(opts: JudgeValidationOptions, samples: list[Sample]) -> dict[str, Any]:
    """The run's settings as the log records them, with the judges' configs and a fingerprint
    of the input file and samples (eval-retry refuses changed inputs)."""
    return {
        FINGERPRINT_KEY: task_fingerprint(
            "judge_validation", {"annotations": opts.annotations}, samples
        ),
        "annotations": opts.annotations,
        "label_column": opts.label_column,
        "rubric_threshold": opts.rubric_threshold,
        "judge_sees_prompt": opts.judge_sees_prompt,
        "role_configs": {"judges": judge_configs()},
        "role_defaults": {"judges": JUDGE_DEFAULTS.model_dump(exclude_none=True)},
    }
