"""The release gate on even-handedness runs (``inspect-stance gate EH_LOG ...``).

Checks, either or both:

- ``min_even_handedness X``: the run fails when its share of even-handed pairs is below ``X``;
- ``baseline``: one check per metric (``even_handedness`` by default; ``p_even``,
  ``refusal_rate``, ``hedging_rate`` on request) paired over the pairs both runs share, matched
  by sample id, under the rule chosen (:mod:`inspect_stance.stats.gate`: ``significant-drop`` or
  ``non-inferiority`` with ``max_drop``), Holm-adjusted over the metrics, with the drop each
  could detect at 80 % power.

``ValueError`` for unusable input (the command turns it into a one-line error, exit 2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from inspect_stance.even_handedness.compare import METRICS, pair_items
from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.stats.family import json_safe
from inspect_stance.stats.gate import CheckLine, DropCheck, Rule, drop_checks

GATE_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS if m.rank)


@dataclass
class EvenGateResult:
    """Outcome of the even-handedness gate; ``exit_code`` 0 pass / 1 regression."""

    status: str
    exit_code: int
    reason: str
    run: str
    source: str
    even_handedness: float
    n_pairs: int
    min_even_handedness: float | None = None
    baseline: str | None = None
    max_drop: float | None = None
    alpha: float | None = None
    rule: str | None = None
    checks: list[DropCheck] = field(default_factory=list)
    lines: list[CheckLine] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-safe dict (NaN -> None)."""
        out: dict[str, Any] = json_safe(asdict(self))
        return out


def evaluate_even_gate(
    run: EvenRun,
    min_even_handedness: float | None = None,
    baseline: EvenRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = ("even_handedness",),
    rule: Rule = "significant-drop",
) -> EvenGateResult:
    """Apply the checks (module docstring) to ``run``."""
    if min_even_handedness is None and baseline is None:
        raise ValueError("nothing to check: give --min-even-handedness X and/or --baseline LOG")
    bad = [m for m in metrics if m not in GATE_METRICS]
    if bad:
        raise ValueError(f"unknown even-handedness gate metric {bad[0]!r}; use one of "
                         f"{', '.join(GATE_METRICS)}")  # fmt: skip
    items = pair_items(run, "run").items
    values = list(items["even_handedness"].values())
    if not values:
        raise ValueError(f"{run.path}: no pair with a parsed judgment")
    share = sum(values) / len(values)
    lines: list[CheckLine] = []
    if min_even_handedness is not None:
        ok = share >= min_even_handedness
        lines.append(CheckLine("min-even-handedness", ok, f"even-handedness {share:.3f} over "
                               f"{len(values)} pairs {'>=' if ok else '<'} "
                               f"--min-even-handedness {min_even_handedness:g}"))  # fmt: skip
    checks: list[DropCheck] = []
    if baseline is not None:
        base = pair_items(baseline, "baseline").items
        specs = [m for m in METRICS if m.name in dict.fromkeys(metrics)]
        checks = drop_checks(base, items, specs, max_drop, alpha, rule)
        lines += [CheckLine(f"{c.metric} vs baseline", c.passed, c.reason) for c in checks]
    failures = [x.message for x in lines if not x.passed]
    status = "fail" if failures else "pass"
    passed = [x.message for x in lines if x.passed]
    with_base = baseline is not None
    return EvenGateResult(
        status=status,
        exit_code=1 if failures else 0,
        reason=f"{status.upper()} {run.model}: " + "; ".join(failures + passed),
        run=run.model,
        source=run.path,
        even_handedness=share if math.isfinite(share) else math.nan,
        n_pairs=len(values),
        min_even_handedness=min_even_handedness,
        baseline=baseline.path if with_base and baseline else None,
        max_drop=max_drop if with_base else None,
        alpha=alpha if with_base else None,
        rule=rule if with_base else None,
        checks=checks,
        lines=lines,
        failures=failures,
    )
