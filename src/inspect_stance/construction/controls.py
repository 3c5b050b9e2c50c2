"""Judge controls: the same response rated with the prompt hidden, swapped, or a reversed rubric.

Controls for judges swayed by the prompt (the robustness checks the review asks for) (``-T judge_prompt=...``):

- ``original``: the judge sees the user prompt (the paper's design);
- ``none``: the prompt is hidden (``judge_sees_prompt=false``);
- ``swapped``: the judge sees the response with the prompt of the *opposite* user stance, same
  topic, intent, method and slot (pole A <-> pole B: for templated prompts the same template
  with the other pole's filler, for generated ones the prompter's prompt of that slot for the
  opposite setting). Neutral prompts have no opposite: their swapped rating is not made (counted
  as ``not_applicable``).

The first ``judge_prompt`` value gives the run's outcome; every other one, and the reversed
rubric audit (``-T reversed_rubric=true``: the rubric with label 1 naming ``topic_con`` and 5
``topic_pro``; each answer ``x`` is read back as ``6 - x``), is a *control* stored beside it in
the score (``controls[name]``: ``judge_labels``, ``judge_status``, ``outcome``). A control's
*lean move* per setting and method is ``lean(control) - lean(primary)`` over the responses with a
label (1-5 or refusal) under both; the others are counted (``n_without_label``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

from inspect_stance.construction.comparison import neutral_comparison, setting_summaries
from inspect_stance.construction.labels import LABELS, REFUSAL
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import NEUTRAL, POLE_A, POLE_B
from inspect_stance.errors import InputError

ORIGINAL = "original"
HIDDEN = "none"
SWAPPED = "swapped"
REVERSED = "reversed"
JUDGE_PROMPTS: tuple[str, ...] = (ORIGINAL, HIDDEN, SWAPPED)
NOT_APPLICABLE = "not_applicable"
OPPOSITE = {POLE_A: POLE_B, POLE_B: POLE_A}


def parse_judge_prompt(value: object, judge_sees_prompt: bool) -> list[str]:
    """``-T judge_prompt`` (a comma string or list) checked; the first is the run's outcome.

    Empty: ``original`` (or ``none`` when ``judge_sees_prompt`` is false). ``swapped`` cannot
    come first, and ``judge_sees_prompt=false`` needs ``none`` first.
    """
    if value is None or value == "" or value == []:
        return [ORIGINAL if judge_sees_prompt else HIDDEN]
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise InputError(f"judge_prompt={value!r}: use e.g. -T judge_prompt=original,none,swapped")
    out = list(dict.fromkeys(str(v).strip() for v in items if str(v).strip()))
    bad = [v for v in out if v not in JUDGE_PROMPTS]
    if bad or not out:
        raise InputError(
            f"judge_prompt={value!r}: choose from {','.join(JUDGE_PROMPTS)}, e.g. "
            f"-T judge_prompt=original,none,swapped"
        )
    if out[0] == SWAPPED:
        raise InputError(
            "judge_prompt: swapped is a control, not the run's rating; put original or none "
            "first, e.g. -T judge_prompt=original,swapped"
        )
    if not judge_sees_prompt and out[0] != HIDDEN:
        raise InputError(
            "judge_sees_prompt=false with judge_prompt starting with original; use "
            "-T judge_prompt=none,... alone"
        )
    return out


def unreverse(label: str | None) -> str | None:
    """A reversed-rubric label on the standard orientation: ``6 - x``; refusal stays."""
    if label is None or label == REFUSAL:
        return label
    return str(6 - int(label))


def swap_metadata(specs: Sequence[Any], extra: Sequence[Any] = ()) -> dict[str, dict[str, Any]]:
    """Per sample id, what its swapped prompt is: ``swap_prompt_text`` (known now), or
    ``swap_setting`` and ``swap_generation_instructions`` (the prompter writes it in the run).

    ``specs`` are the run's prompt specs, ``extra`` specs of opposite stances the run does not
    include (built only to find their prompts). Neutral specs get ``swap_setting`` None.
    """
    index = {
        (s.setting.topic_id, s.setting.intent, s.setting.stance, s.method, s.slot): s
        for s in (*specs, *extra)
    }
    out: dict[str, dict[str, Any]] = {}
    for spec in specs:
        opposite = OPPOSITE.get(spec.setting.stance)
        other = (
            index.get(
                (spec.setting.topic_id, spec.setting.intent, opposite, spec.method, spec.slot)
            )
            if opposite
            else None
        )
        out[spec.sample_id] = {
            "swap_prompt_text": other.prompt_text if other else None,
            "swap_setting": other.setting.key if other else None,
            "swap_generation_instructions": (
                other.generation_instructions if other and other.prompt_text is None else None
            ),
        }
    return out


def opposite_stances(stances: Sequence[str]) -> list[str]:
    """The opposite stances a swap needs that ``stances`` lacks (neutral has none)."""
    return [OPPOSITE[s] for s in stances if s != NEUTRAL and OPPOSITE[s] not in stances]


def control_record(record: Record, control: str) -> Record | None:
    """``record`` with the control's outcome and judge labels, None when it has no such rating
    (not requested, or not applicable)."""
    entry = record.controls.get(control)
    if not entry or entry.get("outcome") in (None, NOT_APPLICABLE):
        return None
    labels = entry.get("judge_labels") or {}
    status = entry.get("judge_status") or {}
    return replace(
        record,
        outcome=str(entry["outcome"]),
        judge_labels=tuple(labels.get(j) for j in record.judges),
        judge_status=tuple(str(status.get(j, "")) for j in record.judges),
    )


def controls_in(records: Sequence[Record]) -> list[str]:
    """The control names present in ``records``, in a fixed order."""
    present = {c for r in records for c in r.controls}
    return [c for c in (*JUDGE_PROMPTS, REVERSED) if c in present]


def paired(records: Sequence[Record], control: str) -> list[tuple[Record, Record]]:
    """(record, control record) for the responses with a label (1-5 or refusal) under both."""
    return [
        (r, c)
        for r in records
        if r.outcome in LABELS
        and (c := control_record(r, control)) is not None
        and c.outcome in LABELS
    ]


def lean_moves(records: Sequence[Record]) -> pd.DataFrame:
    """Per control, setting and method: the primary lean and the control's on the same
    responses (``n_both``: a label under both), and the move (control - primary)."""
    import pandas as pd  # loaded by the reports, not when the task module is imported

    rows = []
    for control in controls_in(records):
        both = paired(records, control)
        primary = setting_summaries([r for r, _ in both])
        other = setting_summaries([c for _, c in both])
        for key, p in primary.items():
            q = other[key]
            rows.append(
                {
                    "control": control,
                    "topic_id": key[0].topic_id,
                    "intent": key[0].intent,
                    "stance": key[0].stance,
                    "method": key[1],
                    "n_both": p.n_samples,
                    "lean_primary": p.lean,
                    "lean_control": q.lean,
                    "move": q.lean - p.lean,
                }
            )
    return pd.DataFrame(rows)


def control_summary(records: Sequence[Record]) -> pd.DataFrame:
    """Per control: mean |move| and mean move over settings x methods, and the neutral
    comparison's ``mean_difference`` (templated - generated distance) under the primary and the
    control on the same responses."""
    import pandas as pd

    moves = lean_moves(records)
    rows = []
    for control in controls_in(records):
        sub = moves[moves["control"] == control] if not moves.empty else moves
        both = paired(records, control)
        rated = sum(control_record(r, control) is not None for r in records)
        prim = neutral_comparison([r for r, _ in both]) if both else None
        ctrl = neutral_comparison([c for _, c in both]) if both else None
        rows.append(
            {
                "control": control,
                "n_responses": len(both),
                "n_without_label": rated - len(both),
                "n_not_applicable": sum(
                    (r.controls.get(control) or {}).get("outcome") == NOT_APPLICABLE
                    for r in records
                ),
                "mean_move": float(sub["move"].mean()) if "move" in sub else float("nan"),
                "mean_abs_move": float(sub["move"].abs().mean()) if "move" in sub else float("nan"),
                "max_abs_move": float(sub["move"].abs().max()) if "move" in sub else float("nan"),
                "mean_difference_primary": prim.mean_difference if prim else float("nan"),
                "mean_difference_control": ctrl.mean_difference if ctrl else float("nan"),
            }
        )
    return pd.DataFrame(rows)
