"""The ``judge_validation`` task's ``-T`` parameters, checked once (one-line errors)."""

from __future__ import annotations

from dataclasses import dataclass

import inspect_stance.construction.defaults as D
from inspect_stance.construction.rubric import check_rubric_threshold
from inspect_stance.errors import InputError
from inspect_stance.paths import user_path
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, option

#: ``-T annotations=synthetic``: the shipped synthetic sample (no human labels needed)
SYNTHETIC = "synthetic"


def check_annotations(name: str, value: object) -> str:
    """``-T annotations``: required, the file as given (or ``synthetic``)."""
    if not value:
        raise InputError(
            "judge_validation needs -T annotations=FILE (e.g. "
            "../shared/data/issuebench/stance_annotations.csv), or -T annotations=synthetic "
            "for the shipped synthetic sample"
        )
    return str(value)


def annotations_file(value: str) -> str:
    """The file ``-T annotations`` names: the shipped synthetic sample for ``synthetic``
    (:mod:`inspect_stance.providers.annotations_sample`), else the path resolved from the
    working directory (``./synthetic`` reads a file of that name)."""
    if value == SYNTHETIC:
        from pathlib import Path

        import inspect_stance.data as data

        return str(Path(data.__file__).parent / "judge_annotations_synthetic.csv")
    return user_path(value)


@dataclass(frozen=True)
class JudgeValidationOptions:
    """The checked parameters of one ``judge_validation`` run, declared once;
    ``annotations`` is the file as given, ``annotations_path`` resolved from the working
    directory."""

    annotations: str = option(
        None,
        "Required. A .csv/.tsv of responses with human labels: ``prompt_text``, "
        "``response_text``, ``topic_neutral``, ``topic_pro``, ``topic_con`` and the label "
        "column; optional ``annot1_label``/``annot2_label``, ``topic_polarity``, "
        "``cluster_id`` (e.g. ``../shared/data/issuebench/stance_annotations.csv``); "
        "``synthetic``: the shipped synthetic sample of 24 rows (no person labelled them).",
        check=check_annotations,
    )
    label_column: str = option(
        D.LABEL_COLUMN,
        "The column with the human label (1-5, refusal, or IssueBench's \"3 - "
        'neutral/ambivalent" form). Default ``final_label``.',
    )
    rubric_threshold: float = option(
        D.RUBRIC_THRESHOLD,
        "Share for judge classes 2 and 4: ``0.75`` (the paper's, default) or ``0.9`` "
        "(IssueBench's templ-5).",
        check=lambda _, v: check_rubric_threshold(v),
    )
    judge_sees_prompt: bool = option(
        D.JUDGE_SEES_PROMPT,
        "Show the judges the user prompt (and tell them not to factor in whether it was "
        "one-sided); default true.",
        check=boolean,
    )
    shard: Shard | None = option(
        None,
        "run only shard K of N of the file's rows (\"K/N\", e.g. 1/4), split by each row's "
        "content hash (the same rows whatever the file's order; sample ids keep their row "
        "number); the log records K, N and the study's fingerprint so that the shards' logs "
        "pool.",
        check=lambda _, v: parse_shard(v),
    )
    #: ``annotations`` resolved from the working directory (not an option)
    annotations_path: str = ""

    @classmethod
    def parse(cls, **raw: object) -> JudgeValidationOptions:
        """Check every option once, by keyword; the first bad one raises a one-line
        ``InputError``."""
        values = checked_values(cls, raw)
        return cls(**values, annotations_path=annotations_file(values["annotations"]))
