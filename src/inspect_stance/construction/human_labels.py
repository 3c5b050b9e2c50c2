"""Human stance labels for samples of a run (``-T human_labels=FILE``, ``--human-labels``).

A file maps sample ids to labels: CSV / TSV with columns ``id`` (or ``sample_id``) and
``label`` (``1``..``5``, ``refusal``, or IssueBench's ``"3 - neutral/ambivalent"`` form), or
JSON Lines with the same keys. Sample ids repeat across target models, so a file with labels
for several models needs a ``model`` column (the target model as the log names it, e.g.
``openai/gpt-4o-mini``); the report matches on (model, id). A label that is not on the scale
is an error naming the row; ids that match no sample are counted, and a file none of whose ids
match is an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from inspect_stance.construction.labels import parse_label
from inspect_stance.errors import InputError

ID_COLUMNS: tuple[str, ...] = ("id", "sample_id")
MODEL_COLUMN = "model"


def load_model_labels(path: str | Path) -> dict[tuple[str | None, str], str]:
    """``{(model, sample id): label}`` from a human-label file; model is None without a column."""
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise InputError(
            f"human labels file {path}: no such file; give an existing .csv/.tsv/.jsonl"
        )
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"human labels file {path}: not UTF-8 text; save it as UTF-8") from None
    if path.suffix.lower() in {".jsonl", ".json"}:
        rows = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    raise InputError(
                        f"human labels file {path}: line {n} is not JSON; one object per line"
                    ) from None
                if not isinstance(rows[-1], dict):
                    raise InputError(
                        f"human labels file {path}: line {n} is not a JSON object; use "
                        f'{{"id": ..., "label": ...}}'
                    )
        table = pd.DataFrame(rows)
    else:  # the shared reader: a stray quote or a ragged row is one line naming it
        from inspect_stance.tables import read_table

        table = pd.DataFrame([r for _, r in read_table(path, "human labels")], dtype=object)
    id_col = next((c for c in ID_COLUMNS if c in table.columns), None)
    if id_col is None or "label" not in table.columns:
        raise InputError(
            f"human labels file {path}: needs columns 'id' (or 'sample_id') and 'label'"
        )
    models = table[MODEL_COLUMN] if MODEL_COLUMN in table.columns else [None] * len(table)
    out: dict[tuple[str | None, str], str] = {}
    triples = zip(models, table[id_col], table["label"], strict=True)
    for i, (model, sid, raw) in enumerate(triples, start=2):
        label = parse_label(raw)
        if label is None:
            raise InputError(
                f"human labels file {path}: row {i} has label {raw!r}; use 1-5 or refusal"
            )
        if model is not None and not str(model).strip():
            raise InputError(f"human labels file {path}: row {i} has an empty model")
        key = (None if model is None else str(model).strip(), str(sid).strip())
        if key in out and out[key] != label:
            where = f"id {key[1]!r}" + (f" of model {key[0]!r}" if key[0] else "")
            raise InputError(f"human labels file {path}: {where} has two different labels")
        out[key] = label
    if not out:
        raise InputError(f"human labels file {path}: no labels")
    return out


def load_human_labels(path: str | Path) -> dict[str, str]:
    """``{sample id: label}`` for one run (one target model; see module docstring).

    A file whose ``model`` column names more than one model raises a one-line ``ValueError``:
    one eval log holds one target model, so its labels are ambiguous.
    """
    labels = load_model_labels(path)
    models = sorted({m for m, _ in labels if m is not None})
    if len(models) > 1:
        raise InputError(
            f"human labels file {path}: labels for {len(models)} models ({', '.join(models)}); "
            f"pass only this run's model's rows (construction-report matches on model and id)"
        )
    return {sid: label for (_, sid), label in labels.items()}


def match_human_labels(
    labels: dict[str, str], sample_ids: Iterable[str], where: str
) -> tuple[dict[str, str], list[str]]:
    """Labels whose id is a sample id, and the ids that match none (counted, not dropped).

    Raises ``ValueError`` when no id matches: the file belongs to another run or id scheme.
    """
    ids = set(sample_ids)
    matched = {k: v for k, v in labels.items() if k in ids}
    unmatched = sorted(k for k in labels if k not in ids)
    if not matched:
        example = next(iter(sorted(ids)), "?")
        raise InputError(
            f"human labels file {where}: none of its {len(labels)} ids matches a sample id "
            f"(e.g. {unmatched[0]!r} vs sample {example!r}); use the sample ids of this run"
        )
    return matched, unmatched
