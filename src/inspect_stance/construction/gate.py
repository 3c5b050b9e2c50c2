"""The release gate on prompt_construction runs (``inspect-stance gate CONSTRUCTION_LOG ...``).

Items are setting x method cells (``topic-intent-stance/method``), as in
:mod:`inspect_stance.construction.compare`; per item, ``distance = |lean|`` with ``lean`` the
mean majority score of its scale-labelled responses minus 3 (0 to 2, lower is better: the
target's answers sit nearer neutral). Gate metrics:

- ``distance_neutral`` (the headline): the distance over the neutral settings' items, the
  quantity of the report's ``distance_templated`` / ``distance_generated`` (a prompt without a
  user stance should get an answer without a side);
- ``distance``: over every item (the compare metric).

Checks (:mod:`inspect_stance.stats.limit_gate`): ``--max-distance X`` fails a run whose mean
``distance_neutral`` over its neutral items is above ``X``; ``--baseline`` checks each metric's
paired worsening ``run_k - base_k`` over the shared items under the rule chosen.
``ValueError`` for unusable input.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.construction.compare import ConstructionRun, construction_items
from inspect_stance.stats.family import MetricSpec
from inspect_stance.stats.gate import Rule
from inspect_stance.stats.limit_gate import GateRun, LimitGateResult, evaluate_limit_gate, run_name

MAX_FLAG = "--max-distance"
GATE_SPECS: tuple[MetricSpec, ...] = (
    MetricSpec("distance_neutral", higher_is_better=False, value_range=(0.0, 2.0)),
    MetricSpec("distance", higher_is_better=False, value_range=(0.0, 2.0)),
)
GATE_METRICS: tuple[str, ...] = tuple(s.name for s in GATE_SPECS)


def gate_items(run: ConstructionRun) -> GateRun:
    """The run's ``distance`` per item and ``distance_neutral`` per neutral item."""
    distance = construction_items(run.records, run_name(run.info)).items["distance"]
    neutral = {k: v for k, v in distance.items() if "-neutral/" in k}
    return GateRun(run_name(run.info), run.info.source,
                   {"distance": distance, "distance_neutral": neutral})  # fmt: skip


def evaluate_construction_gate(
    run: ConstructionRun,
    max_distance: float | None = None,
    baseline: ConstructionRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = (),
    rule: Rule = "significant-drop",
) -> LimitGateResult:
    """Apply the checks (module docstring) to ``run``."""
    base = gate_items(baseline) if baseline is not None else None
    return evaluate_limit_gate("prompt-construction", gate_items(run), GATE_SPECS,
                               "distance_neutral", (MAX_FLAG, max_distance), base, max_drop,
                               alpha, metrics, rule)  # fmt: skip
