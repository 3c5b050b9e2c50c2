"""A release gate over item-level values (Inspect-free): a limit on the run's headline and the
baseline rules of :mod:`inspect_stance.stats.gate`, for a method whose runs are item dicts
(``items[metric][item_key] = value``, as :class:`~inspect_stance.stats.family.RunItems` holds).

Checks, either or both:

- the limit on the headline metric ``h`` (reported with or without a limit; ``NaN`` when the
  run has no item of it): the run's value is the mean of ``items[h]`` over its
  items; a metric where higher is better has a floor (the run fails when the value is below
  it), one where lower is better a ceiling (the run fails when the value is above it);
- ``baseline``: one :class:`~inspect_stance.stats.gate.DropCheck` per metric asked, paired over
  the items both runs share, under the rule chosen, Holm-adjusted over the metrics; with the
  runs' ``clusters`` (item -> topic, statement, ...) the paired test is cluster-robust with
  ``G - 1`` df (:func:`~inspect_stance.stats.paired.clustered_paired_test`).

``ValueError`` for unusable input (a metric not gated, a headline without any item).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from inspect_stance.stats.family import MetricSpec, json_safe
from inspect_stance.stats.gate import CheckLine, DropCheck, Rule, drop_checks

if TYPE_CHECKING:
    from inspect_stance.runs import RunInfo

Items = Mapping[str, Mapping[str, float]]


@dataclass
class LimitGateResult:
    """Outcome of the gate; ``exit_code`` 0 pass / 1 regression."""

    status: str
    exit_code: int
    reason: str
    method: str
    run: str
    source: str
    headline: str
    value: float
    n_items: int
    limit_flag: str | None = None
    limit: float | None = None
    baseline: str | None = None
    max_drop: float | None = None
    alpha: float | None = None
    rule: str | None = None
    checks: list[DropCheck] = field(default_factory=list)
    lines: list[CheckLine] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: the method's settings the items were computed under (PReSS: ``{"persona": ...}``)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-safe dict (NaN -> None); the headline's value also under its own name
        (``"share_stable": 0.61`` beside ``"headline": "share_stable", "value": 0.61``)."""
        out: dict[str, Any] = json_safe(asdict(self))
        out.setdefault(self.headline, out["value"])
        return out


@dataclass(frozen=True)
class GateRun:
    """One run as the gate reads it: its name, its source file and its items per metric."""

    name: str
    source: str
    items: Items
    #: what one item is, in messages (``"pair"``, ``"statement"``; default ``"item"``)
    noun: str = "item"
    #: item key -> its cluster (topic, statement, ...); empty: every item its own cluster
    clusters: Mapping[str, Hashable] = field(default_factory=dict)
    #: what one cluster is, in messages (``"topic"``; default ``"cluster"``)
    cluster: str = "cluster"


def run_name(info: RunInfo) -> str:
    """The run's model, or its file's name when the log names no model (a prompt_validation
    run has annotators and no model: Inspect records ``none/none``)."""
    from pathlib import Path

    if info.model and info.model != "none/none":
        return info.model
    return Path(info.source).name


def limit_check(
    spec: MetricSpec, values: Sequence[float], flag: str, limit: float, noun: str = "item"
) -> CheckLine:
    """The floor (higher is better) or ceiling (lower is better) on ``mean(values)``."""
    value = sum(values) / len(values)
    ok = value >= limit if spec.higher_is_better else value <= limit
    sign = (">=" if ok else "<") if spec.higher_is_better else ("<=" if ok else ">")
    return CheckLine(flag.lstrip("-"), ok, f"{spec.name} {value:.3f} over {len(values)} {noun}s "
                     f"{sign} {flag} {limit:g}")  # fmt: skip


def evaluate_limit_gate(
    method: str,
    run: GateRun,
    specs: Sequence[MetricSpec],
    headline: str,
    limit: tuple[str, float | None],
    baseline: GateRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    metrics: Sequence[str] = (),
    rule: Rule = "significant-drop",
    settings: Mapping[str, Any] | None = None,
) -> LimitGateResult:
    """Apply the checks (module docstring) to ``run``; ``specs`` are the gated metrics,
    ``limit`` the option's flag and value (``None``: no limit), ``metrics`` those checked
    against the baseline (empty: the headline), ``settings`` recorded in the result."""
    flag, value = limit
    if value is None and baseline is None:
        raise ValueError(f"nothing to check: give {flag} X and/or --baseline LOG")
    by_name = {s.name: s for s in specs}
    asked = list(dict.fromkeys(metrics or [headline]))
    bad = [m for m in asked if m not in by_name]
    if bad:
        raise ValueError(f"unknown {method} gate metric {bad[0]!r}; use one of "
                         f"{', '.join(by_name)}")  # fmt: skip
    values = [v for v in run.items.get(headline, {}).values() if math.isfinite(v)]
    if value is not None and not values:
        raise ValueError(f"{run.source}: no {run.noun} with a value of {headline}, which "
                         f"{flag} limits")  # fmt: skip
    lines: list[CheckLine] = []
    if value is not None:
        lines.append(limit_check(by_name[headline], values, flag, value, run.noun))
    checks: list[DropCheck] = []
    if baseline is not None:
        base = {m: dict(baseline.items.get(m, {})) for m in asked}
        mine = {m: dict(run.items.get(m, {})) for m in asked}
        clusters = {**baseline.clusters, **run.clusters} or None
        checks = drop_checks(base, mine, [by_name[m] for m in asked], max_drop, alpha, rule,
                             clusters, run.cluster)  # fmt: skip
        lines += [CheckLine(f"{c.metric} vs baseline", c.passed, c.reason) for c in checks]
    result = _result(method, run, headline, values, limit, baseline, max_drop, alpha, rule,
                     checks, lines)  # fmt: skip
    result.settings = dict(settings or {})
    return result


def _result(method: str, run: GateRun, headline: str, values: Sequence[float],
            limit: tuple[str, float | None], baseline: GateRun | None, max_drop: float,
            alpha: float, rule: Rule, checks: list[DropCheck],
            lines: list[CheckLine]) -> LimitGateResult:  # fmt: skip
    """The verdict: fail when any check fails; the reason lists the failures first."""
    flag, value = limit
    failures = [x.message for x in lines if not x.passed]
    status = "fail" if failures else "pass"
    with_base = baseline is not None
    return LimitGateResult(
        status=status,
        exit_code=1 if failures else 0,
        reason=f"{status.upper()} {run.name}: "
        + "; ".join(failures + [x.message for x in lines if x.passed]),
        method=method,
        run=run.name,
        source=run.source,
        headline=headline,
        value=sum(values) / len(values) if values else math.nan,
        n_items=len(values),
        limit_flag=flag if value is not None else None,
        limit=value,
        baseline=baseline.source if baseline is not None else None,
        max_drop=max_drop if with_base else None,
        alpha=alpha if with_base else None,
        rule=rule if with_base else None,
        checks=checks,
        lines=lines,
        failures=failures,
    )
