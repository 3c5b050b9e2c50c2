"""The propositions a stance-drift run evaluates.

Default: the 114 debate topics of Slonim et al. (2021) — IBM Project Debater "debate speeches",
hub dataset ``ibm-research/debate_speeches``, config ``opening_speeches``, split ``train`` —
as the unique ``(topic_id, topic)`` pairs in file order; the last two are the in-context
exemplar topics and are not evaluated, the other 112 are.

A custom set comes from a file: ``.txt`` (one proposition per line), ``.csv`` / ``.tsv`` (a
``topic`` or ``proposition`` column, optional ``topic_id`` and ``role`` columns; rows with
``role == icl_example`` are not evaluated) or ``.jsonl`` (objects with the same keys).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

HUB_DATASET = "ibm-research/debate_speeches"
HUB_CONFIG = "opening_speeches"
HUB_SPLIT = "train"
N_EXEMPLAR_TOPICS = 2
TEXT_COLUMNS = ("topic", "proposition")


@dataclass(frozen=True)
class Proposition:
    """One evaluated proposition with a stable identifier."""

    topic_id: str
    text: str


def unique_topics(rows: Iterable[Mapping[str, Any]]) -> list[Proposition]:
    """Unique ``(topic_id, topic)`` pairs in first-seen order."""
    seen: set[tuple[str, str]] = set()
    out: list[Proposition] = []
    for row in rows:
        key = (str(row["topic_id"]).strip(), str(row["topic"]).strip())
        if key not in seen:
            seen.add(key)
            out.append(Proposition(topic_id=key[0], text=key[1]))
    return out


def load_debate_topics(
    path: str = HUB_DATASET,
    name: str | None = HUB_CONFIG,
    split: str = HUB_SPLIT,
    data_files: str | list[str] | None = None,
) -> tuple[list[Proposition], list[Proposition]]:
    """Load the debate topics with ``datasets`` (cached); returns ``(evaluated, exemplars)``.

    The exemplars are the last ``N_EXEMPLAR_TOPICS`` unique topics. ``path`` / ``name`` /
    ``data_files`` are passed to :func:`datasets.load_dataset`, so a local copy (e.g.
    ``path="csv", data_files="opening_speeches.csv"``) goes through the same code.
    """
    import datasets

    try:
        ds = datasets.load_dataset(path, name, split=split, data_files=data_files)
    except Exception as ex:  # network / hub / file errors all become one line
        raise ValueError(
            f"cannot load debate topics from {path!r} ({type(ex).__name__}: "
            f"{str(ex).splitlines()[0] if str(ex) else ''}); pass -T propositions=FILE to use "
            "a local file"
        ) from ex
    missing = {"topic_id", "topic"} - set(ds.column_names)
    if missing:
        raise ValueError(f"debate topics from {path!r} lack columns {sorted(missing)}")
    topics = unique_topics(ds.select_columns(["topic_id", "topic"]))
    if len(topics) <= N_EXEMPLAR_TOPICS:
        raise ValueError(f"debate topics from {path!r}: only {len(topics)} unique topics")
    return topics[:-N_EXEMPLAR_TOPICS], topics[-N_EXEMPLAR_TOPICS:]


def read_propositions_file(path: str | Path) -> list[Proposition]:
    """Read evaluated propositions from a ``.txt``, ``.csv``, ``.tsv`` or ``.jsonl`` file.

    Raises ``ValueError`` (one line, naming the file) when the file is missing, unreadable, has
    no recognisable column, or yields no proposition.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"propositions file {path} not found; pass an existing file")
    suffix = path.suffix.lower()
    try:
        if suffix == ".txt":
            lines = path.read_text(encoding="utf-8").splitlines()
            texts = [line.strip() for line in lines if line.strip()]
            props = [Proposition(topic_id=str(k), text=t) for k, t in enumerate(texts)]
        elif suffix in (".csv", ".tsv", ".jsonl"):
            if suffix == ".jsonl":
                records = [
                    json.loads(line)
                    for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip()
                ]
                frame = pd.DataFrame.from_records(records)
            else:
                frame = pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", dtype=str)
            props = _from_frame(frame, path)
        else:
            raise ValueError(
                f"propositions file {path}: unknown extension {suffix!r}; use .txt, .csv, .tsv "
                "or .jsonl"
            )
    except (UnicodeDecodeError, json.JSONDecodeError, pd.errors.ParserError) as ex:
        raise ValueError(f"propositions file {path} is unreadable: {ex}") from ex
    except pd.errors.EmptyDataError as ex:
        raise ValueError(f"propositions file {path} is empty; add propositions") from ex
    if not props:
        raise ValueError(f"propositions file {path} contains no propositions")
    ids = [p.topic_id for p in props]
    if len(set(ids)) != len(ids):
        raise ValueError(f"propositions file {path}: duplicate topic_id values")
    return props


def _from_frame(frame: pd.DataFrame, path: Path) -> list[Proposition]:
    cols = {c.lower().strip(): c for c in frame.columns}
    text_col = next((cols[c] for c in TEXT_COLUMNS if c in cols), None)
    if text_col is None:
        raise ValueError(
            f"propositions file {path} has no 'topic' or 'proposition' column "
            f"(columns: {', '.join(map(str, frame.columns))})"
        )
    if "role" in cols:
        frame = frame[frame[cols["role"]].fillna("eval").str.strip() != "icl_example"]
    frame = frame[frame[text_col].notna() & (frame[text_col].astype(str).str.strip() != "")]
    if "topic_id" in cols:
        ids = frame[cols["topic_id"]].astype(str).str.strip().tolist()
    else:
        ids = [str(k) for k in range(len(frame))]
    texts = frame[text_col].astype(str).str.strip().tolist()
    return [Proposition(topic_id=i, text=t) for i, t in zip(ids, texts, strict=True)]
