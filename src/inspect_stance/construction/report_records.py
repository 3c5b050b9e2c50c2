"""Reading ``prompt_construction`` and ``judge_validation`` logs into report records.

Each log is read in one pass (:func:`inspect_stance.logfile.read_task_log`); every scored
sample becomes a :class:`~inspect_stance.construction.records.Record` of its *run group*
(target model x rubric threshold x whether the judges saw the prompt, :func:`run_group`), and
a human-labels file can replace the records' human labels (:func:`attach_human_labels`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspect_stance.construction.human_labels import load_model_labels
from inspect_stance.construction.records import Record, record_from_score_metadata
from inspect_stance.errors import InputError
from inspect_stance.logfile import epoch_key, find_task_logs, read_task_log, task_name
from inspect_stance.printable import printable
from inspect_stance.runs import check_labels, label_for
from inspect_stance.shards.layout import group_logs

SCORER = "stance_ensemble"
TASKS = ("prompt_construction", "judge_validation")
WHAT = "prompt_construction or judge_validation run"


class ReportInputError(InputError):
    """Unusable report input (turned into the CLI's one-line error)."""


def run_group(model: str, threshold: object, sees_prompt: object) -> str:
    """The report's name for a run group: the model, and the rubric threshold and prompt
    visibility when they are not the defaults, e.g. ``openai/gpt-4o [threshold 0.9]``."""
    tags = []
    if threshold is not None and float(threshold) != 0.75:  # type: ignore[arg-type]
        tags.append(f"threshold {float(threshold):g}")  # type: ignore[arg-type]
    if sees_prompt is False:
        tags.append("prompt hidden")
    return f"{model} [{', '.join(tags)}]" if tags else model


def read_records(
    paths: Sequence[str | Path], partial: bool = False, labels: Mapping[str, str] | None = None
) -> tuple[list[Record], dict[str, Any]]:
    """Records of every scored sample in the logs, and counts of what could not be used.

    Folders are searched for this task's logs; other tasks' logs and unreadable files in them
    are skipped and counted (``info["skipped"]``, a line for stderr). A sample scored over
    several epochs gives one record per epoch (id suffix ``@e<k>``). ``Record.model`` is the
    run group (:func:`run_group`), ``extra`` holds the model, task, threshold and prompt
    visibility. Raises :class:`ReportInputError` for unusable logs and the same sample id of
    one run group appearing in two logs (pass only the retried log). The shards of one study
    (``-T shard=K/N``, or Inspect's shard layout) are one run: their records join one run group;
    shards that do not pool are refused in one line, an incomplete set unless ``partial``
    (its group then named ``model (1 of 2 shards)``; :func:`inspect_stance.shards.layout.group_logs`).
    A log named by ``labels`` (``--label RUN=NAME``: :func:`inspect_stance.runs.label_for`) is
    the run group ``NAME`` instead; a label naming no log is a one-line error.
    """

    try:
        found = find_task_logs(paths, TASKS, WHAT)
    except InputError as ex:
        raise ReportInputError(str(ex)) from ex
    records: list[Record] = []
    info: dict[str, Any] = {
        "logs": [],
        "errored_samples": 0,
        "unscored_samples": 0,
        "skipped": "; ".join(x for x in (found.skipped_line(), found.repeated_line()) if x),
        "skipped_other_task": len(found.skipped_other_task),
        "skipped_unreadable": len(found.skipped_unreadable),
    }
    seen: dict[tuple[str, str], str] = {}
    try:
        check_labels(found.paths, labels or {})
        groups, suffix = group_logs(found.paths, partial)
    except InputError as ex:
        raise ReportInputError(str(ex)) from ex
    for path in (p for g in groups for p in g):  # a shard's superseded attempts left out
        label = label_for(path, labels or {})
        records.extend(_log_records(path, info, seen, suffix.get(path, ""), label))
    if not records:
        raise ReportInputError("the logs have no scored prompt-construction samples")
    return records, info


def _log_records(
    path: str | Path,
    info: dict[str, Any],
    seen: dict[tuple[str, str], str],
    suffix: str = "",
    label: str | None = None,
) -> list[Record]:
    """The records of one log; its entry and its unusable samples are counted in ``info``,
    each (task:run group, sample id) in ``seen`` (a second log with one raises); ``suffix``
    names a partial set of shards after the model; ``label`` (``--label``) names its run group."""
    try:
        log = read_task_log(path, TASKS, WHAT)
    except InputError as ex:
        raise ReportInputError(str(ex)) from ex
    task = task_name(str(log.eval.task))
    # judge validation calls no target; group its records under the task name
    model = ("judge_validation" if task == "judge_validation" else log.eval.model) + suffix
    info["logs"].append({"path": str(path), "task": task, "model": model, "status": log.status})
    records: list[Record] = []
    for sample in log.samples or []:
        if sample.error is not None:
            info["errored_samples"] += 1
            continue
        score = (sample.scores or {}).get(SCORER)
        if score is None or not score.metadata:
            info["unscored_samples"] += 1
            continue
        sid = epoch_key(str(sample.id), sample.epoch)
        threshold = score.metadata.get("rubric_threshold")
        sees = score.metadata.get("judge_sees_prompt")
        group = run_group(model, threshold, sees) if label is None else printable(label)
        key = (f"{task}:{group}", sid)
        if key in seen:
            raise ReportInputError(
                f"log {path}: sample {sid} of {group} is also in {seen[key]}; pass one log "
                f"per model, task and rubric (after eval-retry, the retried log)"
            )
        seen[key] = str(path)
        rec = record_from_score_metadata(sid, score.value, score.metadata, model=group)
        extra = {
            "task": task,
            "target_model": model,
            "rubric_threshold": threshold,
            "judge_sees_prompt": sees,
            # the run's -T ensemble (its headline's outcomes: construction.figures)
            "ensemble": (log.eval.task_args or {}).get("ensemble") or "majority",
            # the response the judges rated, for the length audit (None: no text in the log)
            "response_chars": len(sample.output.completion) if sample.output.completion else None,
        }
        records.append(replace(rec, extra=extra))
    return records


def attach_human_labels(
    records: list[Record], path: str | Path
) -> tuple[list[Record], dict[str, int]]:
    """Records with the file's human labels (replacing any from the run), and match counts.

    Labels are matched on (model, sample id) when the file has a ``model`` column, else on the
    sample id alone, which is only allowed when the logs hold one model (sample ids repeat
    across target models). Labels matching no sample are counted; a file none of whose labels
    match raises :class:`ReportInputError`.
    """
    try:
        labels = load_model_labels(path)
    except ValueError as ex:
        raise ReportInputError(str(ex)) from ex
    by_model = any(m is not None for m, _ in labels)

    def target(r: Record) -> str:
        return str(r.extra.get("target_model", r.model))

    if not by_model:
        models = sorted({target(r) for r in records})
        if len(models) > 1:
            raise ReportInputError(
                f"human labels file {path}: the logs hold {len(models)} models "
                f"({', '.join(models)}) with the same sample ids; add a 'model' column naming "
                f"each label's target model"
            )

    def key(r: Record) -> tuple[str | None, str]:
        return (target(r) if by_model else None, r.sample_id)

    keys = {key(r) for r in records}
    matched = {k for k in labels if k in keys}
    if not matched:
        if by_model:
            models = sorted({target(r) for r in records})
            raise ReportInputError(
                f"human labels file {path}: none of its {len(labels)} (model, id) pairs matches "
                f"a sample in the logs; name models as the logs do ({', '.join(models)})"
            )
        raise ReportInputError(
            f"human labels file {path}: none of its {len(labels)} ids matches a sample id in the logs"
        )
    out = [replace(r, human_label=labels.get(key(r))) for r in records]
    return out, {
        "human_labels": len(labels),
        "matched": len(matched),
        "unmatched": len(labels) - len(matched),
    }
