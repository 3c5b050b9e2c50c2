"""Building the study's prompt list, and saving / reusing prompts across target models.

Each *prompt spec* is one sample: a setting, a method, a prompt slot and a response replicate.
Templated specs carry their filled prompt; generated specs carry either a reused prompt (from
``prompts_from``) or the instructions for the generator, which writes all prompts of a setting
in one call during the run.

Reuse (``prompts_from``): a prompts file (CSV / JSONL with ``topic_id, intent, stance, method,
slot, prompt_text``; ``inspect-stance construction-report`` writes one as ``prompts.csv``) or an
eval log of this task. Every prompt found for a requested setting is used, in slot order, so all
target models compared see exactly the same prompts; templated settings missing from the file
are built from templates as usual, generated settings missing from it are an error.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_stance.construction.generation import generator_instructions
from inspect_stance.construction.settings import (
    GENERATED,
    INTENTS,
    METHODS,
    TEMPLATED,
    USER_STANCES,
    Setting,
    sample_id,
)
from inspect_stance.construction.templates import Template, fill, stable_seed
from inspect_stance.construction.topics import Topic
from inspect_stance.errors import InputError
from inspect_stance.logfile import read_task_log

if TYPE_CHECKING:
    import pandas as pd

PROMPT_COLUMNS: tuple[str, ...] = ("topic_id", "intent", "stance", "method", "slot", "prompt_text")

PromptKey = tuple[Setting, str]  # (setting, method)


@dataclass(frozen=True)
class PromptSpec:
    """One sample of the study (see module docstring)."""

    sample_id: str
    setting: Setting
    method: str
    slot: int
    replicate: int
    topic: Topic
    prompt_text: str | None  # None: the generator writes it during the run
    template_id: str | None = None
    template_text: str | None = None
    generation_instructions: str | None = None
    prompt_source: str = ""  # "template", "prompts_from", "generator"


def select_seeds(topic: Topic, k: int, seed: int, setting: Setting) -> list[str]:
    """Up to ``k`` of the topic's real user prompts, drawn reproducibly per setting."""
    import numpy as np

    seeds = list(topic.seeds)
    if k <= 0 or not seeds:
        return []
    if k >= len(seeds):
        return seeds
    rng = np.random.default_rng(stable_seed(seed, setting.key, "seeds"))
    return [seeds[i] for i in sorted(rng.choice(len(seeds), size=k, replace=False).tolist())]


def build_specs(
    *,
    topics: Sequence[Topic],
    intents: Sequence[str],
    stances: Sequence[str],
    methods: Sequence[str],
    templates: dict[str, list[Template]],
    prompts_per_setting: int,
    responses_per_prompt: int,
    reused: dict[PromptKey, dict[int, str]] | None = None,
    seeds_per_setting: int = 6,
    seed: int = 0,
) -> list[PromptSpec]:
    """Every sample of a run, in setting order (topic, intent, stance), templated first.

    ``templates[intent]`` are the (already sampled) templates for that intent. Generated
    prompts come from ``reused`` when given, else each generated spec carries the generator
    instructions for its setting.
    """
    if prompts_per_setting < 1:
        raise InputError(f"prompts_per_setting must be at least 1 (got {prompts_per_setting})")
    if responses_per_prompt < 1:
        raise InputError(f"responses_per_prompt must be at least 1 (got {responses_per_prompt})")
    specs: list[PromptSpec] = []
    for topic in topics:
        for intent in intents:
            for stance in stances:
                setting = Setting(topic.topic_id, intent, stance)
                for method in methods:
                    specs.extend(
                        _setting_specs(
                            topic,
                            setting,
                            method,
                            templates,
                            prompts_per_setting,
                            responses_per_prompt,
                            reused,
                            seeds_per_setting,
                            seed,
                        )
                    )
    return specs


def _setting_specs(
    topic: Topic,
    setting: Setting,
    method: str,
    templates: dict[str, list[Template]],
    prompts_per_setting: int,
    responses_per_prompt: int,
    reused: dict[PromptKey, dict[int, str]] | None,
    seeds_per_setting: int,
    seed: int,
) -> list[PromptSpec]:
    out: list[PromptSpec] = []
    reused_prompts = (reused or {}).get((setting, method))
    if reused_prompts is not None:
        texts: list[tuple[int, str | None, Template | None]] = [
            (slot, p, None) for slot, p in sorted(reused_prompts.items())
        ]
        source = "prompts_from"
    elif method == TEMPLATED:
        filler = topic.filler(setting.stance)
        texts = [(i, fill(t.text, filler), t) for i, t in enumerate(templates[setting.intent])]
        source = "template"
    else:
        if reused is not None:
            raise InputError(
                f"prompts_from has no generated prompts for setting {setting.key}; generate "
                f"them (run without prompts_from) or drop that topic/intent/stance"
            )
        texts = [(i, None, None) for i in range(prompts_per_setting)]
        source = "generator"
    instructions = None
    if source == "generator":
        seeds = select_seeds(topic, seeds_per_setting, seed, setting)
        instructions = generator_instructions(
            topic, setting.intent, setting.stance, prompts_per_setting, seeds
        )
    for slot, text, template in texts:
        for replicate in range(responses_per_prompt):
            out.append(
                PromptSpec(
                    sample_id=sample_id(setting, method, slot, replicate),
                    setting=setting,
                    method=method,
                    slot=slot,
                    replicate=replicate,
                    topic=topic,
                    prompt_text=text,
                    template_id=template.template_id if template else None,
                    template_text=template.text if template else None,
                    generation_instructions=instructions,
                    prompt_source=source,
                )
            )
    return out


def _prompts_table_from_log(path: Path) -> pd.DataFrame:
    import pandas as pd

    log = read_task_log(path, ("prompt_construction",), "prompt_construction run (prompts_from)")
    rows = []
    for sample in log.samples or []:
        meta = sample.metadata or {}
        if "method" not in meta or "topic_id" not in meta:
            continue
        text = (sample.store or {}).get("construction:prompt") or meta.get("prompt_text")
        if not text or int(meta.get("replicate", 0)) != 0:
            continue
        rows.append(
            {
                "topic_id": int(meta["topic_id"]),
                "intent": meta["intent"],
                "stance": meta["stance"],
                "method": meta["method"],
                "slot": int(meta.get("slot", 0)),
                "prompt_text": text,
            }
        )
    if not rows:
        raise InputError(f"prompts_from {path}: the log has no prompt-construction prompts")
    return pd.DataFrame(rows)


def load_prompts(path: str | Path) -> dict[PromptKey, dict[int, str]]:
    """Prompts to reuse, ``{(setting, method): {slot: text}}``, from a prompts file or an eval log.

    Slot numbers are kept, so a reused prompt keeps its sample id.

    A file without a ``method`` column holds generated prompts. Raises one-line ``InputError``s
    (``prompts_from FILE: row N: ...``, N counting data rows from 1) for lines that are not
    JSON objects, missing columns, unknown intents / stances / methods, a ``topic_id`` or
    ``slot`` that is not a whole number, and duplicate slots.
    """
    import pandas as pd

    path = Path(path)
    if not path.exists():
        raise InputError(f"prompts_from {path}: no such file; give a log or a .csv/.jsonl file")
    suffix = path.suffix.lower()
    if suffix in {".csv", ".tsv", ".jsonl"}:
        try:
            path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"prompts_from {path}: not UTF-8 text; save it as UTF-8") from None
    if suffix in {".eval"} or (suffix == ".json" and _looks_like_log(path)):
        table = _prompts_table_from_log(path)
    elif suffix == ".jsonl":
        table = _jsonl_table(path)
    elif suffix in {".csv", ".tsv"}:
        table = pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", keep_default_na=False)
    else:
        raise InputError(
            f"prompts_from {path}: use an eval log (.eval/.json) or a .csv/.jsonl file"
        )
    if "method" not in table.columns:
        table = table.assign(method=GENERATED)
    missing = [c for c in PROMPT_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(f"prompts_from {path}: missing column(s) {missing}")
    out: dict[PromptKey, dict[int, str]] = defaultdict(dict)
    for i, row in enumerate(table.itertuples(index=False), start=1):
        if row.intent not in INTENTS or row.stance not in USER_STANCES or row.method not in METHODS:
            raise InputError(
                f"prompts_from {path}: row {i} has intent/stance/method "
                f"{row.intent!r}/{row.stance!r}/{row.method!r}; allowed: {INTENTS}, "
                f"{USER_STANCES}, {METHODS}"
            )
        text = str(row.prompt_text)
        if not text.strip():
            raise InputError(f"prompts_from {path}: row {i} has an empty prompt_text")
        topic_id = _whole(row.topic_id, "topic_id", path, i)
        slot = _whole(row.slot, "slot", path, i)
        key = (Setting(topic_id, str(row.intent), str(row.stance)), str(row.method))
        if slot in out[key] and out[key][slot] != text:
            raise InputError(
                f"prompts_from {path}: two prompts for {key[0].key} {key[1]} slot {slot}"
            )
        out[key][slot] = text
    return {k: dict(sorted(v.items())) for k, v in out.items()}


def _jsonl_table(path: Path) -> pd.DataFrame:
    """A JSON Lines prompts file as a table; row N (data rows) that is not a JSON object is an error."""
    import pandas as pd

    rows = []
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for i, line in enumerate(lines, start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as ex:
            raise InputError(f"prompts_from {path}: row {i}: not valid JSON ({ex.msg})") from None
        if not isinstance(row, dict):
            raise InputError(f"prompts_from {path}: row {i}: not a JSON object")
        rows.append(row)
    return pd.DataFrame(rows)


def _whole(value: object, column: str, path: Path, row: int) -> int:
    """``value`` as an int (``3``, ``"3"``, ``3.0``); anything else is a one-line error."""
    try:
        number = float(str(value).strip())
    except ValueError:
        number = float("nan")
    if not number.is_integer():
        raise InputError(
            f"prompts_from {path}: row {row}: {column} {value!r} is not a whole number"
        )
    return int(number)


def _looks_like_log(path: Path) -> bool:
    with path.open("rb") as f:
        head = f.read(4096)
    return b'"eval"' in head and b'"version"' in head
