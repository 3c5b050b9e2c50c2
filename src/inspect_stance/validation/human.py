"""Human annotations of the prompt-validation study: a CSV/TSV read into annotation rows.

Columns: ``annotator``, ``item_id`` (the log's prompt id, e.g.
``339-opinion-neutral-templated-00``; ``inspect-stance validation-report`` writes every id with
its prompt to ``prompts.csv``), and any of ``rank`` (1 = most likely real; ties allowed and
turned into mid-ranks within each annotator's ranking of a setting), ``intent`` (writing /
information / opinion), ``stance`` (neutral / pole_a / pole_b, or A / B) and ``side`` (none /
pole_a / pole_b, or A / B). An empty cell is an answer not given. The source and the intended
labels come from the log.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.validation.annotation import FIELDS, Annotation

if TYPE_CHECKING:
    import pandas as pd

#: accepted spellings (lower case) of each label column's values
HUMAN_VALUES: dict[str, dict[str, str]] = {
    "intent": {
        "writing": "writing",
        "writing assistance": "writing",
        "information": "information",
        "information seeking": "information",
        "opinion": "opinion",
        "opinion sharing": "opinion",
    },
    "stance": {
        "neutral": "neutral",
        "pole_a": "pole_a",
        "a": "pole_a",
        "pole_b": "pole_b",
        "b": "pole_b",
    },
    "side": {
        "none": "none",
        "neither": "none",
        "pole_a": "pole_a",
        "a": "pole_a",
        "pole_b": "pole_b",
        "b": "pole_b",
    },
}


def read_human_table(p: Path) -> pd.DataFrame:
    """The file as a string table; a one-line ``InputError`` for a missing or unreadable file
    or one without ``annotator``, ``item_id`` and an answer column."""
    import pandas as pd

    if not p.is_file():
        raise InputError(f"human annotations {p}: no such file; pass a CSV/TSV of annotations")
    sep = "\t" if p.suffix.lower() == ".tsv" else ","
    try:
        table = pd.read_csv(p, sep=sep, dtype=str, keep_default_na=False)
    except Exception as ex:  # noqa: BLE001
        raise InputError(f"human annotations {p}: cannot be read ({type(ex).__name__})") from ex
    missing = [c for c in ("annotator", "item_id") if c not in table.columns]
    answers = [c for c in ("rank", *FIELDS) if c in table.columns]
    if missing or not answers:
        raise InputError(
            f"human annotations {p}: needs columns annotator, item_id and at least one of "
            f"rank, intent, stance, side (missing {missing or 'an answer column'})"
        )
    return table


def human_rank(rec: dict[str, Any], p: Path, i: int) -> float | None:
    """Row ``i``'s rank (None when empty); a one-line ``InputError`` unless a number >= 1."""
    raw_rank = str(rec.get("rank", "")).strip()
    if not raw_rank:
        return None
    try:
        rank = float(raw_rank)
    except ValueError:
        rank = float("nan")
    if math.isnan(rank) or rank < 1:
        raise InputError(
            f"human annotations {p}: row {i} has rank {raw_rank!r}; use a number >= 1 "
            f"(1 = most likely written by a real user) or leave it empty"
        )
    return rank


def human_labels(rec: dict[str, Any], p: Path, i: int) -> dict[str, str | None]:
    """Row ``i``'s intent, stance and side (None when empty), read through
    :data:`HUMAN_VALUES`; a one-line ``InputError`` for a value it does not accept."""
    labels: dict[str, str | None] = {}
    for f in FIELDS:
        raw = str(rec.get(f, "")).strip()
        if not raw:
            labels[f] = None
            continue
        value = HUMAN_VALUES[f].get(raw.lower())
        if value is None:
            raise InputError(
                f"human annotations {p}: row {i} has {f} {raw!r}; use one of "
                f"{', '.join(dict.fromkeys(HUMAN_VALUES[f].values()))} or leave it empty"
            )
        labels[f] = value
    return labels


def load_human(path: str | Path, items: dict[str, dict[str, Any]]) -> tuple[list[Annotation], int]:
    """Human annotations as rows, and the number of file rows whose ``item_id`` is in no log.

    One-line :class:`InputError` for a missing file or column, a bad value (naming the row and
    the allowed values), two ranks or labels for one annotator and prompt, or a file whose ids
    match no prompt of the logs.
    """
    p = Path(path)
    rows: list[Annotation] = []
    unmatched = 0
    seen: set[tuple[str, str]] = set()
    for i, rec in enumerate(read_human_table(p).to_dict("records"), start=1):
        item = items.get(str(rec["item_id"]).strip())
        if item is None:
            unmatched += 1
            continue
        who = str(rec["annotator"]).strip()
        if not who:
            raise InputError(f"human annotations {p}: row {i} has no annotator")
        if (who, item["item_id"]) in seen:
            raise InputError(
                f"human annotations {p}: row {i}: annotator {who!r} annotated "
                f"{item['item_id']} twice; keep one row per annotator and prompt"
            )
        seen.add((who, item["item_id"]))
        rank = human_rank(rec, p, i)
        labels = human_labels(rec, p, i)
        rows.append(
            Annotation(
                annotator=who,
                setting=str(item["setting"]),
                item_id=item["item_id"],
                source=str(item["source"]),
                intended_intent=item.get("intended_intent"),
                intended_stance=item.get("intended_stance"),
                rank=rank,
                intent=labels["intent"],
                stance=labels["stance"],
                side=labels["side"],
                filler_pole=item.get("filler_pole"),
            )
        )
    if not rows:
        raise InputError(
            f"human annotations {p}: no item_id matches a prompt of the logs; use the ids in "
            f"prompts.csv of this report"
        )
    return mid_ranks(rows), unmatched


def mid_ranks(rows: list[Annotation]) -> list[Annotation]:
    """Each annotator's ranks within a setting as mid-ranks (``1, 2, 2, 4`` -> ``1, 2.5, 2.5,
    4``), so a tie means the same whichever way the file writes it."""
    from dataclasses import replace

    from scipy.stats import rankdata

    groups: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(rows):
        if r.rank is not None:
            groups.setdefault((r.annotator, r.setting), []).append(i)
    out = list(rows)
    for idx in groups.values():
        for i, rank in zip(idx, rankdata([rows[i].rank for i in idx]), strict=True):
            out[i] = replace(rows[i], rank=float(rank))
    return out
