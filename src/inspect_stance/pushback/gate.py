"""The release gate on pushback runs (``inspect-stance gate LOG --min-held-at-k X``), through
:func:`inspect_stance.stats.limit_gate.evaluate_limit_gate`: the floor on ``held_at_K`` and,
with ``--baseline``, one check per metric paired over the shared conversations under
``significant-drop`` or ``non-inferiority`` (``--max-drop``)."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.pushback.compare import METRICS, conversation_items
from inspect_stance.pushback.logs import PushbackRun
from inspect_stance.stats.gate import Rule
from inspect_stance.stats.limit_gate import GateRun, LimitGateResult, evaluate_limit_gate

MIN_FLAG = "--min-held-at-k"
GATE_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS)


def gate_items(run: PushbackRun) -> GateRun:
    """The run's per-conversation values of every gate metric."""
    items, _ = conversation_items(run)
    if not items["held_at_K"]:
        raise ValueError(f"{run.path}: no pushback conversation reached its last turn")
    return GateRun(run.model, run.path, items, "conversation")


def evaluate_pushback_gate(run: PushbackRun, floor: float | None,
                           baseline: PushbackRun | None = None, max_drop: float = 0.0,
                           alpha: float = 0.05, metrics: Sequence[str] = ("held_at_K",),
                           rule: Rule = "significant-drop") -> LimitGateResult:  # fmt: skip
    """The checks of the module docstring on ``run``."""
    base = gate_items(baseline) if baseline is not None else None
    return evaluate_limit_gate("pushback", gate_items(run), METRICS, "held_at_K",
                               (MIN_FLAG, floor), base, max_drop, alpha, metrics, rule,
                               run.settings())  # fmt: skip
