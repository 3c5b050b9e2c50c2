"""Topic (issue) selection for the prompt-construction study.

A topic is an issue with three phrasings used as template fillers: ``topic_neutral`` (user
stance *neutral*), ``topic_pro`` (*pole A*) and ``topic_con`` (*pole B*); the pole its neutral
filler encodes (``filler_pole``: ``pole_a``, ``pole_b`` or ``none``; empty when not coded); and
real user prompts that IssueBench clustered under the issue (``top_prompts``,
``random_prompts``), used as seeds for LLM-generated prompts.

Default topics (:data:`DEFAULT_TOPIC_IDS`, shipped as ``inspect_stance/data/construction_topics.csv``,
so a default run needs neither the hub nor ``../shared``): the paper's six are three contested
policy issues and three geopolitical conflicts, of which its review names three, with two of
their neutral fillers. Those three come first in each group; the other three are IssueBench
issues (largest non-excluded clusters with two-sided pro/con phrasings):

- 1001 the climate change and the appropriate policy response (paper's filler; pole A = climate
  urgency as in the paper's Tables 5 and 9; the filler reads as an assertion of severity:
  encodes pole A; seeds from IssueBench issue 387)
- 68 the ethics of abortion (IssueBench; filler encodes no pole)
- 85 the impact of immigration (IssueBench; filler encodes no pole)
- 1002 the US and Israeli strikes on Iran (paper's topic; pole A = the strikes being justified;
  the paper reads the filler as siding against the striker: encodes pole B; seeds from
  IssueBench issue 316, Iran's politics)
- 1003 the Russian invasion and action in Ukraine (paper's filler; pole A = justified, as in
  IssueBench issue 339; the paper reads the filler as a presupposition that the invasion is
  unjustified: encodes pole B; seeds from 339)
- 18 the 2023 Israeli invasion of Gaza (IssueBench; "invasion" read as the paper reads it for
  Russia: encodes pole B)

The paper's own topics get ids 1001-1003, outside IssueBench's range, because their phrasings
differ from any IssueBench issue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.construction.issuebench import (
    ISSUE_COLUMNS,
    PACKAGE_TOPICS,
    load_table,
    parse_prompt_list,
    read_package_csv,
)
from inspect_stance.construction.settings import POLE_A, POLE_B
from inspect_stance.errors import InputError
from inspect_stance.tables import TABLE_SUFFIXES, read_table, text_cell, text_key

if TYPE_CHECKING:
    import pandas as pd

POLICY_TOPIC_IDS: tuple[int, ...] = (1001, 68, 85)
CONFLICT_TOPIC_IDS: tuple[int, ...] = (1002, 1003, 18)
DEFAULT_TOPIC_IDS: tuple[int, ...] = POLICY_TOPIC_IDS + CONFLICT_TOPIC_IDS
FILLER_POLE_COLUMN = "filler_pole"
NO_POLE = "none"  # the neutral filler encodes neither pole
FILLER_POLES: tuple[str, ...] = ("pole_a", "pole_b", NO_POLE)


@dataclass(frozen=True)
class Topic:
    """One issue with its three filler phrasings, the pole its neutral filler encodes, and real
    user prompts (generation seeds)."""

    topic_id: int
    neutral: str
    pro: str
    con: str
    seeds: tuple[str, ...] = field(default=())
    filler_pole: str | None = None  # "pole_a", "pole_b", "none"; None: not coded

    def filler(self, stance: str) -> str:
        """The filler phrase for a user stance: neutral -> neutral, pole_a -> pro, pole_b -> con."""

        if stance == POLE_A:
            return self.pro
        if stance == POLE_B:
            return self.con
        return self.neutral


def default_topics() -> list[Topic]:
    """The six default topics, from the packaged ``construction_topics.csv``, in their order."""
    table = read_package_csv(PACKAGE_TOPICS)
    by_id = {t.topic_id: t for t in topics_from_table(table, f"package data {PACKAGE_TOPICS}")}
    return [by_id[i] for i in DEFAULT_TOPIC_IDS]


def parse_filler_pole(value: object, where: str) -> str | None:
    """A ``filler_pole`` cell: ``pole_a`` / ``pole_b`` / ``none``, or None when empty."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in ("", "nan"):
        return None
    if text not in FILLER_POLES:
        raise InputError(
            f"{where}: filler_pole {value!r} is not one of {', '.join(FILLER_POLES)} "
            f"(or empty when not coded)"
        )
    return text


def _parse_topic_ids(topics: object) -> list[int] | None:
    """Topic ids from a ``-T topics=`` value (int, "68,59", list); None when it is a file path."""
    if isinstance(topics, bool):
        raise InputError(f"topics={topics!r}: give topic ids like 68,85 or a topics file")
    if isinstance(topics, int):
        return [topics]
    if isinstance(topics, str):
        if Path(topics).suffix.lower() in {".csv", ".tsv", ".json", ".jsonl", ".parquet"}:
            return None
        parts = [p.strip() for p in topics.split(",") if p.strip()]
    elif isinstance(topics, Sequence):
        parts = [str(p).strip() for p in topics if str(p).strip()]
    else:
        raise InputError(f"topics={topics!r}: give topic ids like 68,85 or a topics file")
    ids: list[int] = []
    for part in parts:
        try:
            ids.append(int(part))
        except ValueError:
            raise InputError(
                f"topics: {part!r} is not a topic id; give topic_id values like 1001,68 or the "
                f"path of a topics file (.csv/.tsv/.jsonl)"
            ) from None
    if not ids:
        raise InputError("topics: empty list; give topic ids like 1001,68 or a topics file")
    if len(set(ids)) != len(ids):
        raise InputError(f"topics: duplicate topic id in {ids}; name each topic once")
    return ids


def _topic_from_row(row: Any, seed_columns: Sequence[str], where: str = "topics") -> Topic:
    seeds: list[str] = []
    for col in seed_columns:
        if col in row.index:
            seeds.extend(parse_prompt_list(row[col]))
    # keep order, drop duplicates
    unique = tuple(dict.fromkeys(s.strip() for s in seeds if s.strip()))
    return Topic(
        topic_id=int(float(str(row["topic_id"]).strip())),
        neutral=str(row["topic_neutral"]).strip(),
        pro=str(row["topic_pro"]).strip(),
        con=str(row["topic_con"]).strip(),
        seeds=unique,
        filler_pole=parse_filler_pole(row.get(FILLER_POLE_COLUMN), where),
    )


SEED_COLUMNS: tuple[str, ...] = ("top_prompts", "random_prompts")


def topics_from_table(table: pd.DataFrame, where: str) -> list[Topic]:
    """Every row of a topics table (columns as IssueBench ``issues``, optional ``filler_pole``)
    as a :class:`Topic`; one-line :class:`InputError` for missing columns, empty phrasings,
    a ``topic_id`` that is not a whole number, a bad ``filler_pole`` and duplicate ids."""
    import pandas as pd

    missing = [c for c in ISSUE_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(
            f"topics file {where}: missing column(s) {missing}; it needs "
            f"{', '.join(ISSUE_COLUMNS)} (optional {FILLER_POLE_COLUMN}, top_prompts)"
        )
    out: list[Topic] = []
    for i, (_, row) in enumerate(table.iterrows(), start=1):
        for col in ISSUE_COLUMNS[1:]:
            if pd.isna(row[col]) or not str(row[col]).strip():
                raise InputError(f"topics file {where}: data row {i} has an empty {col}")
        try:
            number = float(str(row["topic_id"]).strip())
        except ValueError:
            number = float("nan")
        if not number.is_integer():
            raise InputError(
                f"topics file {where}: data row {i} has topic_id {row['topic_id']!r}; "
                f"use a whole number"
            )
        out.append(_topic_from_row(row, SEED_COLUMNS, f"topics file {where}: data row {i}"))
    ids = [t.topic_id for t in out]
    if len(set(ids)) != len(ids):
        raise InputError(f"topics file {where}: duplicate topic_id values; give each topic once")
    seen: dict[str, int] = {}
    for t in out:
        first = seen.setdefault(text_key(t.neutral), t.topic_id)
        if first != t.topic_id:
            raise InputError(
                f"topics file {where}: topics {first} and {t.topic_id} have the same "
                f"topic_neutral {t.neutral!r} (up to case, Unicode form and zero-width "
                "characters); give each topic once"
            )
    return out


def _read_topics_table(path: Path) -> pd.DataFrame:
    """A ``.csv`` / ``.tsv`` / ``.jsonl`` topics file through the shared reader
    (:func:`inspect_stance.tables.read_table`), its three phrasings checked to be one line of
    text each (a stray quote, a NUL byte, a JSON object or number are one-line errors); other
    types (``.json``, ``.parquet``) through pandas."""
    import pandas as pd

    if path.suffix.lower() not in TABLE_SUFFIXES:
        return load_table(path, "topics")
    rows = read_table(path, "topics")
    for n, row in rows:
        for col in ISSUE_COLUMNS[1:]:
            if col in row:
                row[col] = text_cell(row[col], f"topics file {path}, line {n}", col, False)
        if isinstance(row.get("topic_id"), (dict, list)):
            raise InputError(
                f"topics file {path}, line {n}: topic_id is a JSON "
                f"{type(row['topic_id']).__name__}; use a whole number"
            )
    return pd.DataFrame([row for _, row in rows], dtype=object)


def load_topics_file(path: str | Path) -> tuple[list[Topic], list[str]]:
    """Topics of a ``-T topics=FILE`` file, and the ids of rows skipped as excluded upstream.

    Rows with ``tag_exclude == 1`` are skipped and returned as ids (the task counts them in its
    metadata); a file whose every row is excluded raises a one-line ``InputError`` naming them.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise InputError(f"topics file {path}: no such file; give an existing .csv/.tsv/.jsonl")
    table = _read_topics_table(path)
    if table.empty:
        raise InputError(f"topics file {path}: no rows; add at least one topic")
    excluded: list[str] = []
    if "tag_exclude" in table.columns:
        flag = pd.to_numeric(table["tag_exclude"], errors="coerce").fillna(0) == 1
        excluded = [str(x) for x in table.loc[flag, "topic_id"]]
        if excluded and len(excluded) == len(table):
            raise InputError(
                f"topics file {path}: every topic is excluded upstream (tag_exclude == 1): ids "
                f"{', '.join(excluded)}; clear tag_exclude or choose other topics"
            )
        table = table[~flag]
    return topics_from_table(table, str(path)), excluded


def select_topics(topics: object, issues: pd.DataFrame | None = None) -> list[Topic]:
    """The topics for a run.

    ``topics`` is None (the six defaults, :func:`default_topics`), topic ids (``"1001,68"``, an
    int or a list), or the path of a file with the IssueBench ``issues`` columns (then every row
    not excluded upstream is used, see :func:`load_topics_file`, and ``issues`` is not needed).
    Ids are looked up in ``issues`` (from :func:`load_issues`) when given, else among the
    packaged default topics; an unknown id or one that IssueBench excludes
    (``tag_exclude == 1``) raises a one-line :class:`InputError`.
    """
    if topics is None:
        return default_topics()
    ids = _parse_topic_ids(topics)
    if ids is None:
        return load_topics_file(str(topics))[0]
    if issues is None:
        known = {t.topic_id: t for t in default_topics()}
        for topic_id in ids:
            if topic_id not in known:
                raise InputError(
                    f"topics: topic id {topic_id} is not one of the packaged topics "
                    f"({', '.join(str(i) for i in DEFAULT_TOPIC_IDS)}); add -T issues=hub (or "
                    f"-T issues=FILE) to look it up in IssueBench's issues"
                )
        return [known[i] for i in ids]
    by_id = {int(r["topic_id"]): r for _, r in issues.iterrows()}
    out: list[Topic] = []
    for topic_id in ids:
        if topic_id not in by_id:
            raise InputError(
                f"topics: unknown topic id {topic_id}; use a topic_id of the issues table "
                f"(e.g. {', '.join(str(i) for i in list(by_id)[:6])})"
            )
        row = by_id[topic_id]
        if bool(row.get("excluded", False)):
            raise InputError(
                f"topics: topic id {topic_id} ({row['topic_neutral']}) is excluded upstream "
                f"(tag_exclude == 1); choose another topic"
            )
        out.append(_topic_from_row(row, SEED_COLUMNS, f"issues row {topic_id}"))
    return out


def apply_seed_file(topics: Sequence[Topic], path: str | Path) -> list[Topic]:
    """Replace the seeds of the topics listed in a seed file (CSV/TSV: ``topic_id``, ``prompt``).

    Topics absent from the file keep their IssueBench seeds; a file that names no topic of the
    run, or lacks the columns, raises a one-line ``ValueError``.
    """
    from dataclasses import replace

    path = Path(path)
    if not path.is_file():
        raise InputError(f"seed_prompts file {path}: no such file; give an existing .csv/.tsv")
    rows = read_table(path, "seed_prompts")  # the shared reader: a stray quote is one line
    if not rows or any("topic_id" not in r or "prompt" not in r for _, r in rows):
        raise InputError(f"seed_prompts file {path}: needs columns 'topic_id' and 'prompt'")
    seeds: dict[int, list[str]] = {}
    for i, row in rows:
        tid = row["topic_id"]
        try:
            key = int(str(tid).strip())
        except ValueError:
            raise InputError(
                f"seed_prompts file {path}: row {i} has topic_id {tid!r}; use a whole number"
            ) from None
        where = f"seed_prompts file {path}, line {i}"
        prompt = text_cell(row["prompt"], where, "prompt", required=False, multiline=True)
        if prompt:
            seeds.setdefault(key, []).append(prompt)
    ids = {t.topic_id for t in topics}
    if not ids & set(seeds):
        raise InputError(
            f"seed_prompts file {path}: names none of this run's topics {sorted(ids)}; "
            f"use their topic_id values"
        )
    return [
        replace(t, seeds=tuple(dict.fromkeys(seeds[t.topic_id]))) if t.topic_id in seeds else t
        for t in topics
    ]
