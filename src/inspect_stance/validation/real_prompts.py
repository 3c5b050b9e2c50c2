"""Real user prompts for the prompt-validation study, filtered to the study's topics.

Sources (task parameter ``real_prompts``):

- ``issuebench`` (default): the real user prompts IssueBench clustered under each topic
  (``top_prompts`` / ``random_prompts`` of its ``issues`` table; they come from WildChat,
  LMSYS-Chat-1M, ShareGPT and other chat logs). When this run's generator writes prompts, each
  topic's prompts are split once into two disjoint halves (:func:`split_issuebench`): one half
  are the real prompts, the other the generator's seeds, so no generated prompt was written
  from a real prompt it is ranked against. (Prompts reused with ``prompts_from`` were written
  from seeds this run cannot know.)
- ``hub:NAME`` (e.g. ``hub:allenai/WildChat-1M``, ``hub:lmsys/lmsys-chat-1m``): a hub dataset
  of chat logs read with ``datasets`` (streaming, split ``train``, the first ``real_limit``
  rows); the first user turn of ``conversation`` is the prompt, rows whose ``language`` is not
  English are skipped, and prompts are assigned to topics by keywords (below). Gated datasets
  need ``huggingface-cli login`` first.
- a file (``.csv`` / ``.tsv`` / ``.jsonl`` / ``.json`` / ``.parquet``, read with ``pandas``)
  with a ``prompt_text`` (or ``prompt``) column, or a ``conversation`` column in the
  WildChat / LMSYS format; optional ``topic_id`` (else keywords assign the topic), and optional
  ``intent`` (writing / information / opinion) and ``stance`` (neutral / pole_a / pole_b): a
  labelled prompt goes only to its own setting and counts in the clarity figures; an
  unlabelled prompt can fill any setting of its topic and counts for realism only.

Keyword filter: a topic's keywords are the alphabetic words of three or more letters in its
neutral phrasing, minus :data:`STOPWORDS`; a keyword matches a word of the prompt that starts
with the keyword's first five letters (case-insensitive; "invasion" matches "invading",
"Ukraine" matches "Ukrain"); a prompt is about the topic when at least half of the keywords
(rounded up) match. A prompt matching several topics goes to each.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_stance.construction.templates import stable_seed
from inspect_stance.construction.topics import Topic
from inspect_stance.errors import InputError
from inspect_stance.validation.annotation import INTENT_LABELS, STANCES

ISSUEBENCH = "issuebench"
HUB_PREFIX = "hub:"
DEFAULT_LIMIT = 20_000
STEM = 5
STOPWORDS: frozenset[str] = frozenset(
    {
        "the",
        "and",
        "for",
        "with",
        "about",
        "current",
        "impact",
        "ethics",
        "relations",
        "issue",
        "debate",
        "its",
        "their",
        "between",
    }
)
_BUILDERS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "json", ".parquet": "parquet"}
TEXT_COLUMNS: tuple[str, ...] = ("prompt_text", "prompt")


@dataclass(frozen=True)
class RealPrompt:
    """A real user prompt, its topic, and its intent / stance labels when the file has them."""

    text: str
    topic_id: int
    intent: str | None = None
    stance: str | None = None


def topic_keywords(topic: Topic) -> list[str]:
    """Keyword stems of a topic (see the module docstring)."""
    words = re.findall(r"[A-Za-z]+", topic.neutral.lower())
    stems = [w[:STEM] for w in words if len(w) >= 3 and w not in STOPWORDS]
    return list(dict.fromkeys(stems))


def about(text: str, stems: Sequence[str]) -> bool:
    """True when at least half (rounded up) of ``stems`` start a word of ``text``."""
    if not stems:
        return False
    words = re.findall(r"[a-z]+", text.lower())
    hits = sum(any(w.startswith(s) for w in words) for s in stems)
    return hits >= math.ceil(len(stems) / 2)


def first_user_turn(conversation: Any) -> str | None:
    """The first user message of a WildChat / LMSYS ``conversation`` (list of role/content)."""
    if isinstance(conversation, str):
        return conversation
    for turn in conversation or []:
        if isinstance(turn, dict) and turn.get("role") in ("user", "human"):
            content = turn.get("content")
            return str(content) if content is not None else None
    return None


def _by_keywords(texts: Iterable[str], topics: Sequence[Topic]) -> dict[int, list[RealPrompt]]:
    keywords = {t.topic_id: topic_keywords(t) for t in topics}
    out: dict[int, list[RealPrompt]] = defaultdict(list)
    for text in texts:
        for topic_id, stems in keywords.items():
            if about(text, stems):
                out[topic_id].append(RealPrompt(text, topic_id))
    return dict(out)


def _label(value: Any, allowed: Sequence[str], column: str, where: str, row: int) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value).strip()
    if not text:
        return None
    if text not in allowed:
        raise InputError(
            f"real_prompts {where}: row {row} has {column} {text!r}; use one of "
            f"{', '.join(allowed)} or leave it empty"
        )
    return text


def _read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a local file (pandas: no cache files are written)."""
    import pandas as pd

    suffix = path.suffix.lower()
    if suffix not in _BUILDERS:
        raise InputError(
            f"real_prompts {path}: unknown file type {path.suffix!r}; use .csv, .tsv, .json, "
            f".jsonl or .parquet, 'issuebench' or hub:NAME"
        )
    try:
        if suffix in (".csv", ".tsv"):
            table = pd.read_csv(
                path, sep="\t" if suffix == ".tsv" else ",", dtype=str, keep_default_na=False
            )
        elif suffix == ".parquet":
            table = pd.read_parquet(path)
        else:
            table = pd.read_json(path, lines=suffix == ".jsonl", dtype=False)
    except Exception as ex:  # noqa: BLE001 - any unreadable file is one input error
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
        raise InputError(f"real_prompts {path}: cannot be read ({first})") from ex
    rows: list[dict[str, Any]] = table.to_dict("records")
    return rows


def _from_file(path: Path, topics: Sequence[Topic]) -> dict[int, list[RealPrompt]]:
    rows = _read_rows(path)
    if not rows:
        raise InputError(f"real_prompts {path}: no rows; give real user prompts, one per row")
    columns = set(rows[0])
    text_col = next((c for c in TEXT_COLUMNS if c in columns), None)
    if text_col is None and "conversation" not in columns:
        raise InputError(
            f"real_prompts {path}: needs a prompt_text (or prompt) column or a WildChat/LMSYS "
            f"conversation column"
        )
    ids = {t.topic_id for t in topics}
    keywords = {t.topic_id: topic_keywords(t) for t in topics}
    out: dict[int, list[RealPrompt]] = defaultdict(list)
    for i, row in enumerate(rows, start=1):
        raw = row[text_col] if text_col else first_user_turn(row.get("conversation"))
        missing = raw is None or (isinstance(raw, float) and math.isnan(raw))
        text = "" if missing else str(raw).strip()
        if not text:
            continue
        intent = _label(row.get("intent"), INTENT_LABELS, "intent", str(path), i)
        stance = _label(row.get("stance"), STANCES, "stance", str(path), i)
        topic_value = row.get("topic_id")
        if topic_value is not None and str(topic_value).strip() not in ("", "nan", "None"):
            try:
                topic_id = int(float(str(topic_value)))
            except ValueError:
                raise InputError(
                    f"real_prompts {path}: row {i} has topic_id {topic_value!r}; use a whole "
                    f"number or leave it empty (then keywords assign the topic)"
                ) from None
            if topic_id in ids:
                out[topic_id].append(RealPrompt(text, topic_id, intent, stance))
            continue
        for topic_id, stems in keywords.items():
            if about(text, stems):
                out[topic_id].append(RealPrompt(text, topic_id, intent, stance))
    return dict(out)


def _from_hub(name: str, topics: Sequence[Topic], limit: int) -> dict[int, list[RealPrompt]]:
    from datasets import load_dataset

    try:
        stream = load_dataset(name, split="train", streaming=True)
        texts: list[str] = []
        for k, row in enumerate(stream):
            if k >= limit:
                break
            language = row.get("language")
            if language is not None and str(language).lower() not in ("english", "en"):
                continue
            text = first_user_turn(row.get("conversation"))
            if text and text.strip():
                texts.append(text.strip())
    except Exception as ex:  # noqa: BLE001 - network / access problems become one line
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
        raise InputError(
            f"real_prompts hub:{name}: cannot be read ({first}); log in with huggingface-cli "
            f"login for gated datasets, or pass a local file"
        ) from ex
    return _by_keywords(texts, topics)


def load_real_prompts(
    source: str, topics: Sequence[Topic], limit: int = DEFAULT_LIMIT
) -> dict[int, list[RealPrompt]]:
    """Real prompts per topic id, in source order, duplicates removed (see module docstring)."""
    if source == ISSUEBENCH:
        found = {t.topic_id: [RealPrompt(s, t.topic_id) for s in t.seeds] for t in topics}
    elif source.startswith(HUB_PREFIX):
        found = _from_hub(source[len(HUB_PREFIX) :], topics, limit)
    else:
        path = Path(source)
        if not path.is_file():
            raise InputError(
                f"real_prompts {source}: no such file; pass a .csv/.jsonl file, 'issuebench' "
                f"or hub:NAME"
            )
        found = _from_file(path, topics)
    out: dict[int, list[RealPrompt]] = {}
    for topic_id, prompts in found.items():
        seen: dict[tuple[str, str | None, str | None], RealPrompt] = {}
        for p in prompts:
            seen.setdefault((p.text, p.intent, p.stance), p)
        out[topic_id] = list(seen.values())
    return out


def split_issuebench(topic: Topic, seed: int) -> tuple[list[str], list[str]]:
    """A topic's IssueBench prompts split into (real prompts, generator seeds): shuffled with
    ``numpy.random.default_rng(stable_seed(seed, topic_id, "split"))``, even positions real,
    odd positions seeds (a single prompt stays real)."""
    import numpy as np

    prompts = list(topic.seeds)
    rng = np.random.default_rng(stable_seed(seed, topic.topic_id, "split"))
    shuffled = [prompts[i] for i in rng.permutation(len(prompts))]
    return shuffled[0::2], shuffled[1::2]


def real_for_setting(
    prompts: Sequence[RealPrompt],
    intent: str,
    stance: str,
    k: int,
    seed: int,
    setting_key: str,
    exclude: Iterable[str] = (),
) -> list[RealPrompt]:
    """Up to ``k`` real prompts of a setting, drawn reproducibly.

    Prompts labelled for this setting (every label they have matches its intent / stance)
    come first; unlabelled prompts fill the rest; prompts labelled for another setting and texts in
    ``exclude`` (the setting's generator seeds) are never used. The draw uses
    ``numpy.random.default_rng(stable_seed(seed, setting_key, "real"))``.
    """
    import numpy as np

    banned = set(exclude)
    own = [
        p
        for p in prompts
        if (p.intent is not None or p.stance is not None)
        and p.intent in (None, intent)
        and p.stance in (None, stance)
        and p.text not in banned
    ]
    free = [p for p in prompts if p.intent is None and p.stance is None and p.text not in banned]
    rng = np.random.default_rng(stable_seed(seed, setting_key, "real"))
    chosen: list[RealPrompt] = []
    for pool in (own, free):
        need = k - len(chosen)
        if need <= 0:
            break
        if len(pool) <= need:
            chosen.extend(pool)
        else:
            idx = sorted(rng.choice(len(pool), size=need, replace=False).tolist())
            chosen.extend(pool[i] for i in idx)
    return chosen
