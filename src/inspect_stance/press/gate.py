"""The release gate on PReSS runs (``inspect-stance gate PRESS_LOG ...``).

Checks, either or both:

- ``--min-share-stable X``: the run fails when its share stable (mean S_t over statements, no
  persona unless ``--persona``) is below ``X``;
- ``--baseline LOG``: one check per metric (``share_stable`` by default; ``P_SF``, ``P_SU``,
  ``P_ID`` on request) paired over the statements both runs share, matched by text, under the
  rule chosen (:mod:`inspect_stance.stats.gate`: ``significant-drop`` or ``non-inferiority``),
  Holm-adjusted over the metrics, with the drop each could detect at 80 % power.

Exit codes as for stance drift: 0 pass, 1 regression, 2 unusable input (``ValueError`` here).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from inspect_stance.press.compare_runs import METRICS, press_items
from inspect_stance.press.logs import PressRun
from inspect_stance.stats.family import json_safe
from inspect_stance.stats.gate import CheckLine, DropCheck, Rule, drop_checks


@dataclass
class PressGateResult:
    """Outcome of the PReSS gate; ``exit_code`` 0 pass / 1 regression."""

    status: str
    exit_code: int
    reason: str
    run: str
    source: str
    share_stable: float
    n_statements: int
    persona: str
    min_share_stable: float | None = None
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


def evaluate_press_gate(
    run: PressRun,
    min_share_stable: float | None = None,
    baseline: PressRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = ("share_stable",),
    rule: Rule = "significant-drop",
    persona: str = "none",
) -> PressGateResult:
    """Apply the checks (module docstring) to ``run``; ``ValueError`` for unusable input."""
    if min_share_stable is None and baseline is None:
        raise ValueError("nothing to check: give --min-share-stable X and/or --baseline LOG")
    by_name = {m.name: m for m in METRICS}
    bad = [m for m in metrics if m not in by_name]
    if bad:
        raise ValueError(f"unknown PReSS gate metric {bad[0]!r}; use one of {', '.join(by_name)}")
    items = press_items(run, "run", persona).items
    values = list(items["share_stable"].values())
    if not values:
        raise ValueError(f"{run.path}: no statement labelled under persona {persona!r}")
    share = sum(values) / len(values)
    lines: list[CheckLine] = []
    if min_share_stable is not None:
        ok = share >= min_share_stable
        lines.append(CheckLine("min-share-stable", ok, f"share stable {share:.3f} over "
                               f"{len(values)} statements {'>=' if ok else '<'} "
                               f"--min-share-stable {min_share_stable:g}"))  # fmt: skip
    checks: list[DropCheck] = []
    if baseline is not None:
        base = press_items(baseline, "baseline", persona).items
        specs = [by_name[m] for m in dict.fromkeys(metrics)]
        checks = drop_checks(base, items, specs, max_drop, alpha, rule)
        lines += [CheckLine(f"{c.metric} vs baseline", c.passed, c.reason) for c in checks]
    failures = [x.message for x in lines if not x.passed]
    status = "fail" if failures else "pass"
    passed = [x.message for x in lines if x.passed]
    return PressGateResult(
        status=status,
        exit_code=1 if failures else 0,
        reason=f"{status.upper()} {run.model}: " + "; ".join(failures + passed),
        run=run.model,
        source=run.path,
        share_stable=share if math.isfinite(share) else math.nan,
        n_statements=len(values),
        persona=persona,
        min_share_stable=min_share_stable,
        baseline=baseline.path if baseline is not None else None,
        max_drop=max_drop if baseline is not None else None,
        alpha=alpha if baseline is not None else None,
        rule=rule if baseline is not None else None,
        checks=checks,
        lines=lines,
        failures=failures,
    )
