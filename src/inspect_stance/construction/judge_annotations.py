"""Responses with human stance labels, read for the ``judge_validation`` task.

The file needs ``prompt_text``, ``response_text``, ``topic_neutral``, ``topic_pro``,
``topic_con`` and the label column (``1``..``5``/``refusal`` or IssueBench's
``"3 - neutral/ambivalent"`` form); optional ``annot1_label``/``annot2_label`` (individual
annotators, for the human-human ceiling), ``topic_polarity`` (pro/con/neutral), ``cluster_id``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_stance.construction.labels import parse_label
from inspect_stance.construction.settings import NEUTRAL, POLE_A, POLE_B, TEMPLATED, WRITING
from inspect_stance.errors import InputError
from inspect_stance.fingerprint import digest
from inspect_stance.shards import Shard, select, shard_metadata, study_fingerprint

REQUIRED = ("prompt_text", "response_text", "topic_neutral", "topic_pro", "topic_con")
ANNOTATOR_COLUMNS = ("annot1_label", "annot2_label")
POLARITY_TO_STANCE = {"pro": POLE_A, "con": POLE_B, "neutral": NEUTRAL}


def load_annotations(path: str | Path, label_column: str) -> list[dict[str, Any]]:
    """One sample's metadata per data row of an annotation file (see the module docstring), in
    file order (the task names them ``row-0001``...); one-line errors."""
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
    samples: list[dict[str, Any]] = []
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
        samples.append(metadata)
    if not samples:
        raise InputError(f"annotations file {path}: no rows")
    return samples


def shard_rows(
    rows: Sequence[Mapping[str, Any]], shard: Shard | None, settings: Mapping[str, Any]
) -> tuple[list[int], dict[str, Any]]:
    """The 1-based file positions of ``-T shard``'s rows and the task-metadata entry naming
    the shard and its study (:func:`inspect_stance.shards.shard_metadata`; empty unsharded).

    A row's content key is the digest of everything the task reads from it
    (:func:`inspect_stance.fingerprint.digest` of its sample metadata), so the split depends on
    the rows, not on the file's order (:func:`inspect_stance.shards.select`). The study is the
    task, every row's key, ``settings`` (the options but the file and the shard) and the rows'
    order: sample ids are row numbers, so shards of one file reordered are another study (their
    ids would clash when pooled) and are refused as such. Two equal rows cannot be told apart:
    a one-line ``InputError`` when sharding such a file."""

    keys = [digest(dict(row)) for row in rows]
    mine = set(select(keys, str, shard))
    study = study_fingerprint("judge_validation", keys, {**settings, "row_order": digest(keys)})
    keep = [i for i, key in enumerate(keys, start=1) if key in mine]
    return keep, shard_metadata(shard, study, len(keys), len(keep))
