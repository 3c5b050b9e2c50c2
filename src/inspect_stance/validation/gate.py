"""The release gate on prompt_validation runs (``inspect-stance gate VALIDATION_LOG ...``).

Items are settings (``topic-intent-stance``), as in :mod:`inspect_stance.validation.compare`,
with its metrics per prompt source ``s`` (real, templated, generated): ``mean_rank_<s>``
(realism, lower is better), ``intent_accuracy_<s>``, ``stance_accuracy_<s>`` (clarity, higher
is better) and ``neutral_leaning_<s>`` (detection, lower is better).

The headline is ``neutral_leaning_generated``: on the settings whose intended user stance is
neutral, the share of the annotators' side answers on the generated prompts that name a side.
Generated prompts are the method's answer to the templated fillers that leak a side, so a
neutral generated prompt read as taking a side is the regression the study exists to catch;
the share is a rate with a fixed best value (0), unlike the mean rank, which depends on how many
prompts a setting ranks together.

Checks (:mod:`inspect_stance.stats.limit_gate`): ``--max-neutral-leaning X`` fails a run whose
mean ``neutral_leaning_generated`` over its neutral settings is above ``X``; ``--baseline``
checks each metric asked (default the headline) paired over the shared settings under the rule
chosen. ``ValueError`` for unusable input.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.stats.gate import Rule
from inspect_stance.stats.limit_gate import GateRun, LimitGateResult, evaluate_limit_gate, run_name
from inspect_stance.validation.compare import METRICS, ValidationRun, validation_items

MAX_FLAG = "--max-neutral-leaning"
HEADLINE = "neutral_leaning_generated"
GATE_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS if m.rank)


def gate_items(run: ValidationRun) -> GateRun:
    """The run's metrics per setting (:func:`~inspect_stance.validation.compare.validation_items`)."""
    items = validation_items(run, run_name(run.info)).items
    return GateRun(run_name(run.info), run.info.source, items)


def evaluate_validation_gate(
    run: ValidationRun,
    max_neutral_leaning: float | None = None,
    baseline: ValidationRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = (),
    rule: Rule = "significant-drop",
) -> LimitGateResult:
    """Apply the checks (module docstring) to ``run``."""
    base = gate_items(baseline) if baseline is not None else None
    specs = [m for m in METRICS if m.rank]
    return evaluate_limit_gate("prompt-validation", gate_items(run), specs, HEADLINE,
                               (MAX_FLAG, max_neutral_leaning), base, max_drop, alpha, metrics,
                               rule)  # fmt: skip
