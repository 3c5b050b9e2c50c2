"""One judged response of the study as a plain record (the unit every statistic works on).

Records are built from Inspect scores (during a run, by the metrics) or from eval logs (by the
report); both go through :func:`record_from_score_metadata`, so a metric and the report always
see the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspect_stance.construction.labels import OUTCOMES, parse_label
from inspect_stance.construction.settings import Setting


@dataclass(frozen=True)
class Record:
    """One response: its setting, method, ensemble outcome, per-judge labels, human label."""

    sample_id: str
    setting: Setting
    method: str
    outcome: str  # a label ("1".."5", "refusal") or a non-label outcome code
    judge_labels: tuple[str | None, ...] = ()  # one per judge, in judge order (None: no answer)
    judge_status: tuple[str, ...] = ()  # parse status per judge ("ok", "out_of_scale", ...)
    judges: tuple[str, ...] = ()  # judge names, same order
    human_label: str | None = None
    model: str = ""
    topic: str = ""  # neutral phrasing, for display
    prompt_text: str | None = None
    slot: int = 0
    replicate: int = 0
    filler_pole: str | None = None  # pole the topic's neutral filler encodes ("none": neither)
    generation_parsed: int | None = None  # generated prompts: how many the prompter's answer gave
    # judge controls (swapped / hidden prompt, reversed rubric): {name: {"judge_labels":
    # {judge: label}, "judge_status": {...}, "outcome": ...}}, see construction.controls
    controls: dict[str, Any] = field(default_factory=dict, compare=False)
    prompter: str | None = None  # the model that wrote a generated prompt
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def record_from_score_metadata(
    sample_id: object, outcome: object, meta: Mapping[str, Any], model: str = ""
) -> Record:
    """A :class:`Record` from a score's metadata (see the scorer).

    The outcome is ``meta["outcome"]`` when present (else the score value ``outcome``).
    """
    outcome_text = str(meta.get("outcome", outcome))
    if outcome_text not in OUTCOMES:
        raise ValueError(f"sample {sample_id}: score value {outcome_text!r} is not a known outcome")
    judges = tuple(str(j) for j in meta.get("judges", ()))
    labels_map = meta.get("judge_labels", {}) or {}
    status_map = meta.get("judge_status", {}) or {}
    human = meta.get("human_label")
    generation = meta.get("generation") or {}
    parsed = generation.get("n_parsed") if isinstance(generation, Mapping) else None
    return Record(
        sample_id=str(sample_id),
        setting=Setting(int(meta["topic_id"]), str(meta["intent"]), str(meta["stance"])),
        method=str(meta["method"]),
        outcome=outcome_text,
        judge_labels=tuple(labels_map.get(j) for j in judges),
        judge_status=tuple(str(status_map.get(j, "")) for j in judges),
        judges=judges,
        human_label=parse_label(human) if human is not None else None,
        model=model,
        topic=str(meta.get("topic_neutral", "")),
        prompt_text=meta.get("prompt_text"),
        slot=int(meta.get("slot", 0)),
        replicate=int(meta.get("replicate", 0)),
        filler_pole=meta.get("filler_pole"),
        generation_parsed=int(parsed) if parsed is not None else None,
        controls=dict(meta.get("controls") or {}),
        prompter=generation.get("prompter") if isinstance(generation, Mapping) else None,
    )
