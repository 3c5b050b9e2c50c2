"""The ``judge_validation`` task's ``-T`` parameters, checked once (one-line errors)."""

from __future__ import annotations

from dataclasses import dataclass

from inspect_stance.construction.rubric import DEFAULT_THRESHOLD, check_rubric_threshold
from inspect_stance.errors import InputError
from inspect_stance.params import as_bool
from inspect_stance.paths import user_path


@dataclass(frozen=True)
class JudgeValidationOptions:
    """The checked parameters of one ``judge_validation`` run (see the task's ``Args:``);
    ``annotations`` is the file as given, ``annotations_path`` resolved from the working
    directory."""

    annotations: str
    annotations_path: str
    label_column: str
    rubric_threshold: float
    judge_sees_prompt: bool

    @classmethod
    def parse(
        cls,
        annotations: str | None = None,
        label_column: str = "final_label",
        rubric_threshold: object = DEFAULT_THRESHOLD,
        judge_sees_prompt: object = True,
    ) -> JudgeValidationOptions:
        """Check every parameter once; the first bad one raises a one-line ``InputError``."""
        if not annotations:
            raise InputError(
                "judge_validation needs -T annotations=FILE, e.g. "
                "../shared/data/issuebench/stance_annotations.csv"
            )
        return cls(
            annotations=str(annotations),
            annotations_path=user_path(annotations),
            label_column=label_column,
            rubric_threshold=check_rubric_threshold(rubric_threshold),
            judge_sees_prompt=as_bool("judge_sees_prompt", judge_sees_prompt),
        )
