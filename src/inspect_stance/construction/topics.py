"""Topic (issue) selection for the prompt-construction study.

A topic is an IssueBench issue with three phrasings used as template fillers: ``topic_neutral``
(user stance *neutral*), ``topic_pro`` (*pole A*) and ``topic_con`` (*pole B*), plus the real
user prompts IssueBench clustered under it (``top_prompts``, ``random_prompts``), used as seeds
for LLM-generated prompts.

Default topics (:data:`DEFAULT_TOPIC_IDS`): three contested policy issues and three geopolitical
conflicts, chosen from the non-excluded IssueBench issues among the largest clusters (many real
user prompts, hence realistic seeds) with clearly two-sided pro/con phrasings:

- 68 the ethics of abortion (pro: morally justifiable / con: morally wrong)
- 59 current US gun control laws (sufficient / insufficient)
- 85 the impact of immigration (positive / negative)
- 18 the 2023 Israeli invasion of Gaza (justified / not justified)
- 339 the 2022 Russian invasion of Ukraine (justified / not justified)
- 335 Taiwan-China relations (good / bad)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from inspect_stance.construction.issuebench import ISSUE_COLUMNS, load_table, parse_prompt_list

POLICY_TOPIC_IDS: tuple[int, ...] = (68, 59, 85)
CONFLICT_TOPIC_IDS: tuple[int, ...] = (18, 339, 335)
DEFAULT_TOPIC_IDS: tuple[int, ...] = POLICY_TOPIC_IDS + CONFLICT_TOPIC_IDS


@dataclass(frozen=True)
class Topic:
    """One issue with its three filler phrasings and real user prompts (generation seeds)."""

    topic_id: int
    neutral: str
    pro: str
    con: str
    seeds: tuple[str, ...] = field(default=())

    def filler(self, stance: str) -> str:
        """The filler phrase for a user stance: neutral -> neutral, pole_a -> pro, pole_b -> con."""
        from inspect_stance.construction.settings import POLE_A, POLE_B

        if stance == POLE_A:
            return self.pro
        if stance == POLE_B:
            return self.con
        return self.neutral


def _parse_topic_ids(topics: object) -> list[int] | None:
    """Topic ids from a ``-T topics=`` value (int, "68,59", list); None when it is a file path."""
    if isinstance(topics, bool):
        raise ValueError(f"topics={topics!r}: give topic ids like 68,59 or a topics file")
    if isinstance(topics, int):
        return [topics]
    if isinstance(topics, str):
        if Path(topics).suffix.lower() in {".csv", ".tsv", ".json", ".jsonl", ".parquet"}:
            return None
        parts = [p.strip() for p in topics.split(",") if p.strip()]
    elif isinstance(topics, Sequence):
        parts = [str(p).strip() for p in topics if str(p).strip()]
    else:
        raise ValueError(f"topics={topics!r}: give topic ids like 68,59 or a topics file")
    ids: list[int] = []
    for part in parts:
        try:
            ids.append(int(part))
        except ValueError:
            raise ValueError(
                f"topics: {part!r} is not a topic id; give IssueBench topic_id values like "
                f"68,59 or the path of a topics file (.csv/.jsonl)"
            ) from None
    if not ids:
        raise ValueError("topics: empty list; give topic ids like 68,59 or a topics file")
    if len(set(ids)) != len(ids):
        raise ValueError(f"topics: duplicate topic id in {ids}")
    return ids


def _topic_from_row(row: pd.Series, seed_columns: Sequence[str]) -> Topic:
    seeds: list[str] = []
    for col in seed_columns:
        if col in row.index:
            seeds.extend(parse_prompt_list(row[col]))
    # keep order, drop duplicates
    unique = tuple(dict.fromkeys(s.strip() for s in seeds if s.strip()))
    return Topic(
        topic_id=int(row["topic_id"]),
        neutral=str(row["topic_neutral"]).strip(),
        pro=str(row["topic_pro"]).strip(),
        con=str(row["topic_con"]).strip(),
        seeds=unique,
    )


SEED_COLUMNS: tuple[str, ...] = ("top_prompts", "random_prompts")


def topics_from_table(table: pd.DataFrame, where: str) -> list[Topic]:
    """Every row of a topics table (columns as IssueBench ``issues``) as a :class:`Topic`."""
    missing = [c for c in ISSUE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"topics file {where}: missing column(s) {missing}")
    out: list[Topic] = []
    for i, row in table.iterrows():
        for col in ISSUE_COLUMNS[1:]:
            if pd.isna(row[col]) or not str(row[col]).strip():
                raise ValueError(f"topics file {where}: row {i} has an empty {col}")
        out.append(_topic_from_row(row, SEED_COLUMNS))
    ids = [t.topic_id for t in out]
    if len(set(ids)) != len(ids):
        raise ValueError(f"topics file {where}: duplicate topic_id values")
    return out


def load_topics_file(path: str | Path) -> tuple[list[Topic], list[str]]:
    """Topics of a ``-T topics=FILE`` file, and the ids of rows skipped as excluded upstream.

    Rows with ``tag_exclude == 1`` are skipped and returned as ids (the task counts them in its
    metadata); a file whose every row is excluded raises a one-line ``ValueError`` naming them.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"topics file {path}: no such file")
    table = load_table(path, "topics")
    excluded: list[str] = []
    if "tag_exclude" in table.columns:
        flag = pd.to_numeric(table["tag_exclude"], errors="coerce").fillna(0) == 1
        excluded = [str(x) for x in table.loc[flag, "topic_id"]]
        if excluded and len(excluded) == len(table):
            raise ValueError(
                f"topics file {path}: every topic is excluded upstream (tag_exclude == 1): ids "
                f"{', '.join(excluded)}; clear tag_exclude or choose other topics"
            )
        table = table[~flag]
    return topics_from_table(table, str(path)), excluded


def select_topics(topics: object, issues: pd.DataFrame | None) -> list[Topic]:
    """The topics for a run.

    ``topics`` is None (the six defaults), topic ids (``"68,59"``, an int or a list), or the path
    of a file with the IssueBench ``issues`` columns (then every row not excluded upstream is used,
    see :func:`load_topics_file`, and ``issues`` is not needed). Ids are looked up in ``issues`` (from :func:`load_issues`); an unknown id or one that
    IssueBench excludes (``tag_exclude == 1``) raises a one-line ``ValueError``.
    """
    ids = list(DEFAULT_TOPIC_IDS) if topics is None else _parse_topic_ids(topics)
    if ids is None:
        return load_topics_file(str(topics))[0]
    if issues is None:
        raise ValueError("topics given as ids but no issues table to look them up in")
    by_id = {int(r["topic_id"]): r for _, r in issues.iterrows()}
    out: list[Topic] = []
    for topic_id in ids:
        if topic_id not in by_id:
            raise ValueError(
                f"topics: unknown topic id {topic_id}; use a topic_id from the IssueBench "
                f"issues table (e.g. {', '.join(str(i) for i in DEFAULT_TOPIC_IDS)})"
            )
        row = by_id[topic_id]
        if bool(row.get("excluded", False)):
            raise ValueError(
                f"topics: topic id {topic_id} ({row['topic_neutral']}) is excluded upstream "
                f"(tag_exclude == 1); choose another topic"
            )
        out.append(_topic_from_row(row, SEED_COLUMNS))
    return out


def apply_seed_file(topics: Sequence[Topic], path: str | Path) -> list[Topic]:
    """Replace the seeds of the topics listed in a seed file (CSV/TSV: ``topic_id``, ``prompt``).

    Topics absent from the file keep their IssueBench seeds; a file that names no topic of the
    run, or lacks the columns, raises a one-line ``ValueError``.
    """
    from dataclasses import replace

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"seed_prompts file {path}: no such file")
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    table = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    if "topic_id" not in table.columns or "prompt" not in table.columns:
        raise ValueError(f"seed_prompts file {path}: needs columns 'topic_id' and 'prompt'")
    seeds: dict[int, list[str]] = {}
    for i, (tid, prompt) in enumerate(
        zip(table["topic_id"], table["prompt"], strict=True), start=2
    ):
        try:
            key = int(tid)
        except ValueError:
            raise ValueError(f"seed_prompts file {path}: row {i} has topic_id {tid!r}") from None
        if prompt.strip():
            seeds.setdefault(key, []).append(prompt.strip())
    ids = {t.topic_id for t in topics}
    if not ids & set(seeds):
        raise ValueError(f"seed_prompts file {path}: names none of this run's topics {sorted(ids)}")
    return [
        replace(t, seeds=tuple(dict.fromkeys(seeds[t.topic_id]))) if t.topic_id in seeds else t
        for t in topics
    ]
