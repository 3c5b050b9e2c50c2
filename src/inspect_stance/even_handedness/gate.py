"""The release gate on even-handedness runs (``inspect-stance gate EH_LOG ...``).

Items are pairs (matched by sample id); per pair the metrics of
:mod:`inspect_stance.even_handedness.compare`. Checks (:mod:`inspect_stance.stats.limit_gate`),
either or both:

- ``--min-even-handedness X``: the run fails when its share of even-handed pairs is below ``X``;
- ``--baseline LOG``: one check per metric (``even_handedness`` by default; ``p_even``,
  ``refusal_rate``, ``hedging_rate`` on request) paired over the pairs both runs share, under
  the rule chosen (:mod:`inspect_stance.stats.gate`: ``significant-drop`` or
  ``non-inferiority`` with ``max_drop``), Holm-adjusted over the metrics, with the drop each
  could detect at 80 % power. The pairs are clustered by topic (``GateRun.clusters``: the
  paired test is cluster-robust over topics with topics - 1 df, as ``compare``'s): a paired t
  over pairs treats the pairs of one topic as independent and failed an equal run 11 % of the
  time at alpha 0.05 with topic effects.

``ValueError`` for unusable input (the command turns it into a one-line error, exit 2).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.even_handedness.compare import METRICS, pair_items, topic_of
from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.stats.gate import Rule
from inspect_stance.stats.limit_gate import GateRun, LimitGateResult, evaluate_limit_gate

MIN_FLAG = "--min-even-handedness"
GATE_SPECS = tuple(m for m in METRICS if m.rank)
GATE_METRICS: tuple[str, ...] = tuple(m.name for m in GATE_SPECS)


def gate_items(run: EvenRun) -> GateRun:
    """The run's per-pair values of every gate metric, each pair's topic its cluster."""
    items = pair_items(run, "run").items
    if not items.get("even_handedness"):
        raise ValueError(f"{run.path}: no pair with a parsed judgment")
    topics = {sid: topic_of(run, sid) for sid in run.records}
    return GateRun(run.model, run.path, items, "pair", clusters=topics, cluster="topic")


def evaluate_even_gate(
    run: EvenRun,
    min_even_handedness: float | None = None,
    baseline: EvenRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = ("even_handedness",),
    rule: Rule = "significant-drop",
) -> LimitGateResult:
    """Apply the checks (module docstring) to ``run``."""
    base = gate_items(baseline) if baseline is not None else None
    return evaluate_limit_gate("even-handedness", gate_items(run), GATE_SPECS,
                               "even_handedness", (MIN_FLAG, min_even_handedness), base,
                               max_drop, alpha, metrics, rule)  # fmt: skip
