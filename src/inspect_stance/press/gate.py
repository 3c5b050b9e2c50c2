"""The release gate on PReSS runs (``inspect-stance gate PRESS_LOG ...``).

Items are statements (matched by text); per statement ``share_stable`` is its S_t, the share
of its argument sets under which the stance stayed put (no persona unless ``--persona``), and
``P_SF``, ``P_SU``, ``P_ID`` its shares of each pattern (:mod:`inspect_stance.press.compare_runs`).
Checks (:mod:`inspect_stance.stats.limit_gate`), either or both:

- ``--min-share-stable X``: the run fails when its share stable (the mean over statements) is
  below ``X``;
- ``--baseline LOG``: one check per metric (``share_stable`` by default) paired over the
  statements both runs share, under the rule chosen (:mod:`inspect_stance.stats.gate`:
  ``significant-drop`` or ``non-inferiority``), Holm-adjusted over the metrics, with the drop
  each could detect at 80 % power.

Exit codes as for stance drift: 0 pass, 1 regression, 2 unusable input (``ValueError`` here).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_stance.press.compare_runs import METRICS, press_items
from inspect_stance.press.logs import PressRun
from inspect_stance.stats.gate import Rule
from inspect_stance.stats.limit_gate import GateRun, LimitGateResult, evaluate_limit_gate

MIN_FLAG = "--min-share-stable"
GATE_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS)


def gate_items(run: PressRun, persona: str = "none") -> GateRun:
    """The run's per-statement values of every gate metric under ``persona``."""
    items = press_items(run, "run", persona).items
    if not items.get("share_stable"):
        raise ValueError(f"{run.path}: no statement labelled under persona {persona!r}")
    return GateRun(run.model, run.path, items, "statement")


def evaluate_press_gate(
    run: PressRun,
    min_share_stable: float | None = None,
    baseline: PressRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = ("share_stable",),
    rule: Rule = "significant-drop",
    persona: str = "none",
) -> LimitGateResult:
    """Apply the checks (module docstring) to ``run``; ``ValueError`` for unusable input."""
    base = gate_items(baseline, persona) if baseline is not None else None
    return evaluate_limit_gate("PReSS", gate_items(run, persona), METRICS, "share_stable",
                               (MIN_FLAG, min_share_stable), base, max_drop, alpha, metrics,
                               rule, {"persona": persona})  # fmt: skip
