"""Per-judge audits: the reversed-order rubric, and judges of the target's or prompter's family.

**Order audit** (``-T reversed_rubric=true``). Every judge also rates each response with the
rubric's labels reversed (label 1 = exclusively ``topic_con``); its answer ``x`` is read back as
``6 - x``. For a judge, over the responses it rated on the scale under both rubrics:
``flip_rate`` = share whose read-back label differs from its original label, ``mean_shift`` =
mean(read-back - original). A judge is flagged when ``flip_rate > 0.2``: a judge reading the
labels' meaning gives the same stance under both orders (at temperature 0 nearly always), one
that answers by position does not.

**Family audit.** A judge of the target's (or prompter's) family may prefer its own kind of
text (self-preference). The family of a model name ``provider/.../model`` is its *series*, the
first run of letters of the last path segment, lower case (``gpt-4o-mini`` -> ``gpt``,
``claude-3-5-haiku`` -> ``claude``, ``Llama-3.1-8B`` -> ``llama``; ``o1``/``o3``/``o4`` and
``chatgpt`` count as ``gpt``), with the provider as vendor unless it only serves others'
models (``openai-api``, ``vllm``, ``hf``, ``ollama``, ``together``, ``openrouter``, ``groq``,
``azureai``, ``bedrock``, ``sglang``, ...): ``openai/gpt-4o-mini`` -> ``openai gpt``,
``vllm/meta-llama/Llama-3.1-8B`` -> ``llama``. Two models share a family when their series are
equal and their vendors are equal or either is unknown. Every judge gets the lean with and
without it (strict majority of the other judges), per method over all settings, and the neutral
comparison's ``mean_difference`` with and without it; same-family judges are flagged (n/a
when the logs do not name the target or the prompter: a run reusing prompts names none).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from inspect_stance.construction.comparison import method_counts, neutral_comparison
from inspect_stance.construction.controls import REVERSED, control_record
from inspect_stance.construction.labels import label_score
from inspect_stance.construction.majority import strict_majority
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import METHODS
from inspect_stance.stats.length_audit import length_preference

FLIP_FLAG = 0.2
ROUTERS = frozenset(
    {
        "openai-api",
        "vllm",
        "sglang",
        "hf",
        "ollama",
        "together",
        "openrouter",
        "groq",
        "fireworks",
        "azureai",
        "bedrock",
        "llama-cpp-python",
        "transformer_lens",
        "cf",
        "perplexity",
    }
)
SERIES_ALIASES = {"o": "gpt", "chatgpt": "gpt"}


def model_family(name: str) -> tuple[str | None, str]:
    """``(vendor, series)`` of a model name (module docstring); ``#2`` suffixes are ignored."""
    parts = name.split("#")[0].strip().split("/")
    provider = parts[0].lower() if len(parts) > 1 else None
    match = re.match(r"[a-z]+", parts[-1].lower())
    series = match.group(0) if match else parts[-1].lower()
    series = SERIES_ALIASES.get(series, series)
    vendor = None if provider in ROUTERS else provider
    return vendor, series


def family_label(name: str) -> str:
    """The family as text, e.g. ``openai gpt``."""
    vendor, series = model_family(name)
    return f"{vendor} {series}" if vendor else series


def same_family(a: str | None, b: str | None) -> bool:
    """True when both names are given and share a family (module docstring)."""
    if not a or not b:
        return False
    (va, sa), (vb, sb) = model_family(a), model_family(b)
    return sa == sb and (va is None or vb is None or va == vb)


def without_judge(records: Sequence[Record], judge: int) -> list[Record]:
    """Records whose outcome is the strict majority of the other judges (unrated kept)."""
    out = []
    for r in records:
        if not r.judge_labels:
            out.append(r)
            continue
        rest = [x for k, x in enumerate(r.judge_labels) if k != judge]
        out.append(replace(r, outcome=strict_majority(rest)))
    return out


def _leans(records: Sequence[Record]) -> dict[str, float]:
    counts = method_counts(records)
    out = {f"lean_{m}": counts[m].lean if m in counts else math.nan for m in METHODS}
    out["mean_difference"] = neutral_comparison(records).mean_difference
    return out


def family_audit(
    records: Sequence[Record], target: str | None, prompter: str | None
) -> list[dict[str, object]]:
    """One row per judge: family, same-family flags, leans with and without the judge."""
    rated = [r for r in records if r.judge_labels]
    if not rated:
        return []
    names = rated[0].judges
    base = _leans(records)
    rows: list[dict[str, object]] = []
    for j, name in enumerate(names):
        loo = _leans(without_judge(records, j)) if len(names) > 1 else {}
        row: dict[str, object] = {
            "judge": name,
            "family": family_label(name),
            # None (n/a) when the log does not name the model (e.g. prompts_from runs)
            "same_family_as_target": same_family(name, target) if target else None,
            "same_family_as_prompter": same_family(name, prompter) if prompter else None,
        }
        for key, value in base.items():
            row[f"{key}_with"] = value
            row[f"{key}_without"] = loo.get(key, math.nan)
        rows.append(row)
    return rows


def reversal_audit(records: Sequence[Record]) -> list[dict[str, object]]:
    """One row per judge: ``n_both``, ``flip_rate``, ``mean_shift``, ``flagged`` (docstring)."""
    pairs = [(r, c) for r in records if (c := control_record(r, REVERSED)) is not None]
    if not pairs:
        return []
    names = pairs[0][0].judges
    rows: list[dict[str, object]] = []
    for j, name in enumerate(names):
        diffs = []
        for r, c in pairs:
            a = label_score(r.judge_labels[j] or "") if j < len(r.judge_labels) else None
            b = label_score(c.judge_labels[j] or "") if j < len(c.judge_labels) else None
            if a is not None and b is not None:
                diffs.append(b - a)
        n = len(diffs)
        flip = sum(d != 0 for d in diffs) / n if n else math.nan
        rows.append(
            {
                "judge": name,
                "n_both": n,
                "flip_rate": flip,
                "mean_shift": sum(diffs) / n if n else math.nan,
                "flagged": bool(n and flip > FLIP_FLAG),
            }
        )
    return rows


def length_audit(records: Sequence[Record]) -> list[dict[str, object]]:
    """Per judge: its length preference (:mod:`inspect_stance.stats.length_audit`) over every
    two responses of one setting (topic x intent x stance) that it placed on the scale, scored
    by their distance from neutral ``|label - 3|``, and the comparisons (responses of equal
    length left out). > 0: the judge rates the longer response further from neutral. Responses
    without their text in the log (``extra["response_chars"]`` None) are left out."""
    from collections import defaultdict
    from itertools import combinations

    judges = list(dict.fromkeys(j for r in records for j in r.judges))
    rows: list[dict[str, object]] = []
    for judge in judges:
        by_setting: dict[object, list[tuple[float, float]]] = defaultdict(list)
        for r in records:
            n = r.extra.get("response_chars")
            if judge not in r.judges or n is None:
                continue
            label = r.judge_labels[r.judges.index(judge)]
            score = label_score(label) if label is not None else None
            if score is not None:
                by_setting[r.setting].append((float(n), abs(score - 3.0)))
        pref, n_comp = length_preference(
            (x[0], y[0], x[1], y[1])
            for items in by_setting.values()
            for x, y in combinations(items, 2)
        )
        rows.append({"judge": judge, "length_preference": pref, "comparisons": n_comp})
    return rows
