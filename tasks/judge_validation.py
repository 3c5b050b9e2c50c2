"""Judge validation: the ``judges`` ensemble on already-collected responses with human labels.

    inspect eval tasks/judge_validation.py --model-role judges=A,B,C \\
        -T annotations=../shared/data/issuebench/stance_annotations.csv [--limit N]

No target model is called (``--model`` is not needed). The file needs ``prompt_text``,
``response_text``, ``topic_neutral``, ``topic_pro``, ``topic_con`` and the label column
(``1``..``5``/``refusal`` or IssueBench's ``"3 - neutral/ambivalent"`` form); optional
``annot1_label``/``annot2_label`` (individual annotators, for the human-human ceiling),
``topic_polarity`` (pro/con/neutral), ``cluster_id``. Sample ids are ``row-0001``... (data rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.prompt_construction import (
    JUDGE_DEFAULTS,
    JUDGES_ROLE,
    judge_configs,
    stance_ensemble,
    validation_agreement,
)
from inspect_stance.solvers.judge_validation import collected_response

from inspect_stance.construction.labels import parse_label
from inspect_stance.construction.rubric import DEFAULT_THRESHOLD, check_rubric_threshold
from inspect_stance.construction.settings import NEUTRAL, POLE_A, POLE_B, TEMPLATED, WRITING
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import as_bool, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.roles import require_roles
from inspect_stance.viewer import construction_viewer, headline

TASK_VERSION = 2  # 2: the paper's rubric threshold (0.75) by default

REQUIRED = ("prompt_text", "response_text", "topic_neutral", "topic_pro", "topic_con")
ANNOTATOR_COLUMNS = ("annot1_label", "annot2_label")
POLARITY_TO_STANCE = {"pro": POLE_A, "con": POLE_B, "neutral": NEUTRAL}


def load_annotations(path: str | Path, label_column: str) -> list[Sample]:
    """One sample per row of an annotation file (see module docstring); one-line errors."""
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise InputError(f"annotations file {path}: no such file; give an existing .csv/.tsv")
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    try:
        table = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    except (UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as ex:
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
        raise InputError(
            f"annotations file {path}: cannot be read as UTF-8 {sep!r}-separated text ({first})"
        ) from None
    missing = [c for c in (*REQUIRED, label_column) if c not in table.columns]
    if missing:
        raise InputError(f"annotations file {path}: missing column(s) {missing}")
    samples: list[Sample] = []
    for i, row in enumerate(table.to_dict("records"), start=1):
        label = parse_label(row[label_column])
        if label is None:
            raise InputError(
                f"annotations file {path}: data row {i} has {label_column}={row[label_column]!r}; "
                f"use 1-5 or refusal"
            )
        for col in REQUIRED:
            if not str(row[col]).strip():
                raise InputError(f"annotations file {path}: data row {i} has an empty {col}")
        annotators = [parse_label(row[c]) for c in ANNOTATOR_COLUMNS if c in row]
        polarity = str(row.get("topic_polarity", "")).strip().lower()
        try:
            topic_id = int(float(row.get("cluster_id") or 0))
        except ValueError:
            topic_id = 0
        metadata: dict[str, Any] = {
            "topic_id": topic_id,
            "topic_neutral": row["topic_neutral"],
            "topic_pro": row["topic_pro"],
            "topic_con": row["topic_con"],
            "intent": WRITING,
            "stance": POLARITY_TO_STANCE.get(polarity, NEUTRAL),
            "method": TEMPLATED,
            "setting": f"{topic_id}-{WRITING}-{POLARITY_TO_STANCE.get(polarity, NEUTRAL)}",
            "slot": 0,
            "replicate": 0,
            "prompt_text": row["prompt_text"],
            "response_text": row["response_text"],
            "human_label": label,
            "annotator_labels": annotators if len(annotators) == len(ANNOTATOR_COLUMNS) else None,
            "prompt_id": row.get("prompt_id"),
            "response_model": row.get("response_model"),
        }
        samples.append(Sample(id=f"row-{i:04d}", input=row["prompt_text"], metadata=metadata))
    if not samples:
        raise InputError(f"annotations file {path}: no rows")
    return samples


@task
def judge_validation(
    annotations: str | None = None,
    label_column: str = "final_label",
    rubric_threshold: float = DEFAULT_THRESHOLD,
    judge_sees_prompt: bool = True,
    **unknown: Any,
) -> Task:
    """Agreement of the ``judges`` ensemble with human stance labels on collected responses.

    Needs ``--model-role judges=A,B,C`` (checked before any call); no target model is called.
    Judge calls use temperature 0 and ``max_tokens`` 256 unless the role's own config sets them.

    Args:
        annotations: Required. A .csv/.tsv of responses with human labels: ``prompt_text``,
            ``response_text``, ``topic_neutral``, ``topic_pro``, ``topic_con`` and the label
            column; optional ``annot1_label``/``annot2_label``, ``topic_polarity``,
            ``cluster_id`` (e.g. ``../shared/data/issuebench/stance_annotations.csv``).
        label_column: The column with the human label (1-5, refusal, or IssueBench's
            "3 - neutral/ambivalent" form). Default ``final_label``.
        rubric_threshold: Share for judge classes 2 and 4: ``0.75`` (the paper's, default) or
            ``0.9`` (IssueBench's templ-5).
        judge_sees_prompt: Show the judges the user prompt (and tell them not to factor in
            whether it was one-sided); default true.
    """
    reject_unknown_args("judge_validation", unknown, judge_validation)
    if not annotations:
        raise InputError(
            "judge_validation needs -T annotations=FILE, e.g. "
            "../shared/data/issuebench/stance_annotations.csv"
        )
    threshold = check_rubric_threshold(rubric_threshold)
    sees_prompt = as_bool("judge_sees_prompt", judge_sees_prompt)
    samples = load_annotations(user_path(annotations), label_column)
    require_roles("judge_validation", [JUDGES_ROLE], "the judge ensemble under validation")
    return Task(
        dataset=MemoryDataset(samples, name="judge_validation"),
        solver=[collected_response()],
        scorer=stance_ensemble(rubric_threshold=threshold, judge_sees_prompt=sees_prompt),
        metrics=[validation_agreement(with_outcomes=True)],
        headline_metric=headline("judge_validation"),
        viewer=construction_viewer(),
        model="none/none",
        epochs=Epochs(1, "mode"),
        metadata={
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "judge_validation", {"annotations": annotations}, samples
            ),
            "annotations": str(annotations),
            "label_column": label_column,
            "rubric_threshold": threshold,
            "judge_sees_prompt": sees_prompt,
            "role_configs": {"judges": judge_configs()},
            "role_defaults": {"judges": JUDGE_DEFAULTS.model_dump(exclude_none=True)},
        },
        version=TASK_VERSION,
    )
