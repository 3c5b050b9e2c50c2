"""The propositions a stance-drift run evaluates.

Default (``-T propositions`` unset): the 114 unique debate topics of Slonim et al. (2021) — IBM
Project Debater "debate speeches", CDLA-Permissive-2.0 — shipped as package data
(``inspect_stance/data/debate_topics.tsv``, see ``DATA_LICENSES.md`` there): 112 evaluated
topics and the 2 in-context exemplar topics (``role == icl_example``), in the reference order.
No network is needed.

``-T propositions=hub`` loads the live hub dataset ``ibm-research/debate_speeches``, config
``opening_speeches``, split ``train`` with ``datasets`` and keeps the unique
``(topic_id, topic)`` pairs in file order; the last two are the exemplars.

A custom set comes from a file: ``.txt`` (one proposition per line), ``.csv`` / ``.tsv`` (a
``topic`` or ``proposition`` column, optional ``topic_id`` and ``role`` columns; rows with
``role == icl_example`` are not evaluated) or ``.jsonl`` (one object per line with the same
keys), read by :func:`inspect_stance.tables.read_table`. A UTF-8 byte-order mark is stripped.
A proposition is one line of text: a line break (a stray quote that swallowed the lines after
it), a NUL byte, or a JSON object/number where text is expected is an error. A repeated
proposition (the same text up to case, whitespace, Unicode normal form and zero-width
characters: :func:`inspect_stance.tables.text_key`) is an error naming both lines, since it
would count one proposition twice and shrink the standard error.

Every problem is a one-line :class:`~inspect_stance.errors.InputError` naming the file and the
fix. ``pandas`` and ``datasets`` are imported inside the functions (this module is imported by
the task module, which Inspect imports in every process).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.paths import HUB as HUB  # the one definition, re-exported for the task
from inspect_stance.tables import read_table, read_text_file, text_cell, text_key

HUB_DATASET = "ibm-research/debate_speeches"
HUB_CONFIG = "opening_speeches"
HUB_SPLIT = "train"
N_EXEMPLAR_TOPICS = 2
TEXT_COLUMNS = ("topic", "proposition")
PACKAGE_TOPICS = "debate_topics.tsv"
EXEMPLAR_ROLE = "icl_example"
BOM = "\ufeff"


@dataclass(frozen=True)
class Proposition:
    """One evaluated proposition with a stable identifier and where it came from."""

    topic_id: str
    text: str
    line: int = 0

    @property
    def key(self) -> str:
        """Content key of the proposition: :func:`proposition_key` of its text."""
        return proposition_key(self.text)


def proposition_key(text: str) -> str:
    """A short content hash of a proposition: the first 8 hex digits of
    ``blake2b(text.strip(), digest_size=4)``.

    Sample ids are built from it, so a sample id names the proposition's text, not its position
    in a file: editing the file between a failed run and ``inspect eval-retry`` cannot make a
    finished sample stand for another proposition.
    """
    return hashlib.blake2b(text.strip().encode("utf-8"), digest_size=4).hexdigest()


def check_unique(props: list[Proposition], source: str) -> list[Proposition]:
    """Raise a one-line error when a proposition (compared by
    :func:`~inspect_stance.tables.text_key`: case, whitespace, Unicode normal form, zero-width
    characters) or a topic id repeats, naming the lines; otherwise return ``props``."""
    seen: dict[str, Proposition] = {}
    for p in props:
        first = seen.setdefault(text_key(p.text), p)
        if first is not p:
            raise InputError(
                f"propositions file {source}: the proposition {p.text!r} appears on lines "
                f"{first.line} and {p.line}; remove the repeat (a repeated proposition counts "
                "twice and shrinks the standard error)"
            )
    ids: dict[str, Proposition] = {}
    for p in props:
        first = ids.setdefault(p.topic_id, p)
        if first is not p:
            raise InputError(
                f"propositions file {source}: topic_id {p.topic_id!r} appears on lines "
                f"{first.line} and {p.line}; give each proposition its own topic_id"
            )
    return props


def unique_topics(rows: Iterable[Mapping[str, Any]]) -> list[Proposition]:
    """Unique ``(topic_id, topic)`` pairs in first-seen order."""
    seen: set[tuple[str, str]] = set()
    out: list[Proposition] = []
    for k, row in enumerate(rows):
        key = (str(row["topic_id"]).strip(), str(row["topic"]).strip())
        if key not in seen:
            seen.add(key)
            out.append(Proposition(topic_id=key[0], text=key[1], line=k + 1))
    return out


def package_topics_path() -> Path:
    """Path of the shipped debate-topics file (``inspect_stance/data/debate_topics.tsv``)."""
    return Path(str(resources.files("inspect_stance.data").joinpath(PACKAGE_TOPICS)))


def load_package_topics() -> tuple[list[Proposition], list[Proposition]]:
    """The shipped debate topics as ``(evaluated, exemplars)``: 112 and 2, reference order."""
    rows = read_table(package_topics_path(), "propositions")
    evaluated = _from_rows(rows, package_topics_path(), keep_exemplars=False)
    exemplars = [
        Proposition(topic_id=str(r["topic_id"]).strip(), text=str(r["topic"]).strip(), line=n)
        for n, r in rows
        if str(r.get("role", "")).strip() == EXEMPLAR_ROLE
    ]
    return evaluated, exemplars


def load_debate_topics(
    path: str = HUB_DATASET,
    name: str | None = HUB_CONFIG,
    split: str = HUB_SPLIT,
    data_files: str | list[str] | None = None,
) -> tuple[list[Proposition], list[Proposition]]:
    """Load the debate topics with ``datasets`` (``-T propositions=hub``); returns
    ``(evaluated, exemplars)``.

    The exemplars are the last ``N_EXEMPLAR_TOPICS`` unique topics. ``path`` / ``name`` /
    ``data_files`` are passed to :func:`datasets.load_dataset`, so a local copy (e.g.
    ``path="csv", data_files="opening_speeches.csv"``) goes through the same code.
    """
    import datasets

    try:
        ds = datasets.load_dataset(path, name, split=split, data_files=data_files)
    except Exception as ex:  # network / hub / file errors all become one line
        raise InputError(
            f"cannot load debate topics from {path!r} ({type(ex).__name__}: "
            f"{str(ex).splitlines()[0] if str(ex) else ''}); leave -T propositions unset to use "
            "the shipped topics, or pass -T propositions=FILE"
        ) from ex
    missing = {"topic_id", "topic"} - set(ds.column_names)
    if missing:
        raise InputError(f"debate topics from {path!r} lack columns {sorted(missing)}")
    topics = unique_topics(ds.select_columns(["topic_id", "topic"]))
    if len(topics) <= N_EXEMPLAR_TOPICS:
        raise InputError(f"debate topics from {path!r}: only {len(topics)} unique topics")
    return topics[:-N_EXEMPLAR_TOPICS], topics[-N_EXEMPLAR_TOPICS:]


def _from_rows(
    rows: list[tuple[int, dict[str, Any]]], path: Path, keep_exemplars: bool = False
) -> list[Proposition]:
    if not rows:
        raise InputError(f"propositions file {path} contains no propositions; add some")
    columns = set().union(*(r.keys() for _, r in rows))
    text_col = next((c for c in TEXT_COLUMNS if c in columns), None)
    if text_col is None:
        raise InputError(
            f"propositions file {path} has no 'topic' or 'proposition' column "
            f"(columns: {', '.join(sorted(columns))}); name the text column 'proposition'"
        )
    out: list[Proposition] = []
    for n, row in rows:
        if not keep_exemplars and str(row.get("role") or "").strip() == EXEMPLAR_ROLE:
            continue
        where = f"propositions file {path}, line {n}"
        text = text_cell(row.get(text_col), where, text_col, required=False)
        if not text:
            continue
        topic_id = _topic_id(row.get("topic_id"), where) or proposition_key(text)
        out.append(Proposition(topic_id=topic_id, text=text, line=n))
    return out


def _topic_id(value: Any, where: str) -> str:
    """A ``topic_id`` cell as text: a JSON integer is accepted (``{"topic_id": 7}``), an object,
    list, float or boolean is an error."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return text_cell(value, where, "topic_id", required=False)


def read_propositions_file(path: str | Path) -> list[Proposition]:
    """Read evaluated propositions from a ``.txt``, ``.csv``, ``.tsv`` or ``.jsonl`` file.

    Text is stripped of a UTF-8 BOM and its whitespace collapsed. A proposition without a
    ``topic_id`` gets its content key (:func:`proposition_key`). Raises a one-line
    :class:`InputError` (naming the file) when the file is missing, not UTF-8, not valid CSV,
    has no recognisable column, holds a non-object JSON line, a proposition with a line break or
    NUL byte or one that is not text, repeats a proposition or a topic id (naming both lines),
    or yields no proposition.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(
            f"propositions file {path} not found; pass an existing .txt/.csv/.tsv/.jsonl file "
            "(relative to the directory you run inspect from)"
        )
    suffix = path.suffix.lower()
    if suffix == ".txt":
        props = []
        for n, line in enumerate(read_text_file(path, "propositions").split("\n"), start=1):
            text = text_cell(line, f"propositions file {path}, line {n}", "line", required=False)
            if text:
                props.append(Proposition(topic_id=proposition_key(text), text=text, line=n))
    elif suffix in (".csv", ".tsv", ".jsonl"):
        props = _from_rows(read_table(path, "propositions"), path)
    else:
        raise InputError(
            f"propositions file {path}: unknown extension {suffix!r}; use .txt, .csv, .tsv or "
            ".jsonl"
        )
    if not props:
        raise InputError(f"propositions file {path} contains no propositions; add some")
    return check_unique(props, str(path))
