"""CI gate on the stance preservation rate (``inspect-stance gate``).

Two checks, either or both:

- ``--min-spr X``: the run fails when its SPR (see :mod:`~inspect_stance.drift.metrics.spr`) is below ``X``;
- ``--baseline RUN --max-drop D``: the run fails when its SPR *drop* versus the baseline exceeds
  ``D`` **and** the drop is statistically significant.

The comparison is paired over the propositions the two runs share, matched by proposition text.
For each shared proposition ``s`` the difference is ``d_s = SPR_s(baseline) - SPR_s(run)`` with
``SPR_s = mean_i T[s, i, i]``; the drop is ``mean_s d_s``. Significance is the **paired one-sided
t-test** ``scipy.stats.ttest_rel(baseline, run, alternative="greater")`` (H0: mean difference
<= 0, H1: the baseline's SPR is higher), compared with ``alpha`` (default 0.05). Per-proposition
SPRs average 5 x trials vectors, so their differences are close to normal by the CLT and the
t-test is the natural paired test here (the report's bounds use the same Student-t reasoning).
When every difference is identical the t statistic is undefined; the test then returns
``p = 0`` for a positive constant drop and ``p = 1`` otherwise (a deterministic difference).

Proposition sets: one run's propositions must contain the other's (a run on
``limit_propositions=N`` against a full baseline compares over its ``N`` propositions); sets
where each run has propositions the other lacks ("mixed" sets), or fewer than two shared
propositions, are unusable input.

A run with incomplete samples (stopped by ``--time-limit`` / ``--token-limit`` /
``--working-limit``, see :attr:`~inspect_stance.drift.run.DriftRun.incomplete_samples`) is
unusable input: its SPR rests on fewer trials than planned.

Several metrics (``metrics``: ``spr``, ``success_<stance>``, ``pattern_<name>``, see
:mod:`.compare`) and the non-inferiority rule: :mod:`inspect_stance.stats.gate` (one check per
metric, Holm-adjusted together, with the drop each could detect at 80 % power). The paired
t-test above is the ``significant-drop`` rule on ``spr``.

Exit codes: 0 pass, 1 regression, 2 unusable input (raised as ``ValueError`` here; the CLI
converts it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from inspect_stance.drift.compare import drift_items, select_metrics
from inspect_stance.drift.metrics.spr import per_proposition_spr, stance_preservation_rate
from inspect_stance.drift.run import DriftRun
from inspect_stance.jsonsafe import json_safe
from inspect_stance.stats.gate import CheckLine, DropCheck, Rule, drop_checks
from inspect_stance.stats.paired import clustered_paired_test

PAIRED_TEST = "paired one-sided t-test (scipy.stats.ttest_rel, alternative='greater')"


@dataclass
class PairedDrop:
    """Result of the paired comparison of a run with its baseline."""

    n_shared: int
    baseline_spr: float
    run_spr: float
    drop: float
    drop_se: float
    t_statistic: float
    p_value: float
    test: str = PAIRED_TEST


@dataclass
class GateResult:
    """Outcome of the gate; ``exit_code`` 0 pass / 1 regression."""

    status: str
    exit_code: int
    reason: str
    run: str
    source: str
    spr: float
    spr_se: float
    n_propositions: int
    min_spr: float | None = None
    baseline: str | None = None
    max_drop: float | None = None
    alpha: float | None = None
    comparison: PairedDrop | None = None
    failures: list[str] = field(default_factory=list)
    rule: str | None = None
    checks: list[DropCheck] = field(default_factory=list)
    #: (name, passed, message) of every check, for JUnit / GitHub output
    lines: list[CheckLine] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-safe dict (NaN -> None)."""
        return json_safe(asdict(self))


def shared_propositions(run: DriftRun, baseline: DriftRun) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(run_idx, baseline_idx)`` of the shared propositions, matched by text.

    ``ValueError`` naming the files when a run repeats a proposition or when the sets are mixed
    (each has propositions the other lacks).
    """
    for r in (run, baseline):
        if len(set(r.propositions)) != len(r.propositions):
            raise ValueError(
                f"{r.source}: propositions repeat; cannot pair them with the other run"
            )
    a = {p: k for k, p in enumerate(run.propositions)}
    b = {p: k for k, p in enumerate(baseline.propositions)}
    only_a = set(a) - set(b)
    only_b = set(b) - set(a)
    if only_a and only_b:
        raise ValueError(
            f"{baseline.source}: proposition set differs from {run.source} "
            f"({len(only_a)} only in the run, {len(only_b)} only in the baseline, "
            f"{len(set(a) & set(b))} shared); compare runs on the same propositions "
            "(or one a subset of the other)"
        )
    shared = [p for p in run.propositions if p in b]
    return np.array([a[p] for p in shared], dtype=int), np.array([b[p] for p in shared], dtype=int)


def paired_drop(baseline_spr: np.ndarray, run_spr: np.ndarray) -> PairedDrop:
    """Paired one-sided t-test of ``mean(baseline - run) > 0`` over propositions: the
    release gate's test (:func:`inspect_stance.stats.paired.clustered_paired_test`, every
    proposition its own cluster, which is ``scipy.stats.ttest_rel``).

    NaN pairs (propositions without a usable SPR in either run) are dropped.
    """
    base = np.asarray(baseline_spr, dtype=np.float64)
    cand = np.asarray(run_spr, dtype=np.float64)
    ok = ~(np.isnan(base) | np.isnan(cand))
    base, cand = base[ok], cand[ok]
    n = int(base.size)
    if n < 2:
        raise ValueError(f"only {n} shared propositions with a usable SPR; need at least 2")
    test = clustered_paired_test(base - cand, None, alternative="greater")
    return PairedDrop(
        n_shared=n,
        baseline_spr=float(base.mean()),
        run_spr=float(cand.mean()),
        drop=test.delta,
        drop_se=test.se,
        t_statistic=test.statistic,
        p_value=test.p,
    )


def _check_options(min_spr: float | None, baseline: DriftRun | None, max_drop: float,
                   alpha: float) -> None:  # fmt: skip
    if min_spr is None and baseline is None:
        raise ValueError("nothing to check: give --min-spr X and/or --baseline RUN --max-drop D")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"--alpha {alpha} must be strictly between 0 and 1")
    if not 0.0 <= max_drop <= 1.0:
        raise ValueError(f"--max-drop {max_drop} must be between 0 and 1 (a drop of a rate)")
    if min_spr is not None and not 0.0 <= min_spr <= 1.0:
        raise ValueError(f"--min-spr {min_spr} is not a rate; give a number between 0 and 1")


def _check_complete(*runs: DriftRun | None) -> None:
    for r in runs:
        if r is not None and r.incomplete_samples:
            raise ValueError(
                f"{r.source}: incomplete run ({r.incomplete_samples} samples stopped by a sample "
                f"limit, {r.n_missing} missing trials); re-run the same command (the trial "
                "record replays finished trials) with a larger --time-limit / --token-limit "
                "before gating"
            )


def _baseline_checks(run: DriftRun, baseline: DriftRun, metrics: Sequence[str], max_drop: float,
                     alpha: float, unparsed: str, rule: Rule) -> tuple[PairedDrop, list[DropCheck]]:  # fmt: skip
    """The SPR paired drop (today's test) and one check per metric over shared propositions."""

    idx_run, idx_base = shared_propositions(run, baseline)
    if idx_run.size < 2:
        raise ValueError(
            f"{baseline.source}: shares {idx_run.size} propositions with {run.source}; "
            "need at least 2 to compare"
        )
    comparison = paired_drop(
        per_proposition_spr(baseline.matrices(unparsed))[idx_base],
        per_proposition_spr(run.matrices(unparsed))[idx_run],
    )
    specs = select_metrics(metrics)
    base_items = drift_items(baseline, "baseline", unparsed).items
    run_items = drift_items(run, "run", unparsed).items
    return comparison, drop_checks(base_items, run_items, specs, max_drop, alpha, rule)


def evaluate_gate(
    run: DriftRun,
    min_spr: float | None = None,
    baseline: DriftRun | None = None,
    max_drop: float = 0.0,
    alpha: float = 0.05,
    unparsed: str = "failure",
    metrics: Sequence[str] = ("spr",),
    rule: Rule = "significant-drop",
) -> GateResult:
    """Apply the gate's checks to ``run``; ``ValueError`` for unusable input."""
    _check_options(min_spr, baseline, max_drop, alpha)
    _check_complete(run, baseline)
    matrices = run.matrices(unparsed)
    spr, spr_se = stance_preservation_rate(matrices)
    if not math.isfinite(spr):
        raise ValueError(f"{run.source}: no usable trial, SPR undefined")
    lines: list[CheckLine] = []
    if min_spr is not None:
        ok = spr >= min_spr
        lines.append(CheckLine("min-spr", ok, f"SPR {spr:.3f} (SE {spr_se:.3f}) "
                               f"{'>=' if ok else '<'} --min-spr {min_spr:g}"))  # fmt: skip
    comparison: PairedDrop | None = None
    checks: list[DropCheck] = []
    if baseline is not None:
        comparison, checks = _baseline_checks(run, baseline, metrics, max_drop, alpha, unparsed,
                                              rule)  # fmt: skip
        shared = comparison.n_shared
        if shared < run.n_propositions or shared < baseline.n_propositions:
            part = (f"; over {shared} shared propositions (the run has {run.n_propositions}, "
                    f"the baseline {baseline.n_propositions})")  # fmt: skip
            checks = [replace(c, reason=c.reason + part) for c in checks]
        lines += [CheckLine(f"{c.metric} vs baseline", c.passed, c.reason) for c in checks]
    failures = [x.message for x in lines if not x.passed]
    notes = [x.message for x in lines if x.passed]
    status = "fail" if failures else "pass"
    return GateResult(
        status=status,
        exit_code=1 if failures else 0,
        reason=f"{status.upper()} {run.name}: " + "; ".join(failures + notes),
        run=run.name,
        source=run.source,
        spr=spr,
        spr_se=spr_se,
        n_propositions=run.n_propositions,
        min_spr=min_spr,
        baseline=baseline.source if baseline is not None else None,
        max_drop=max_drop if baseline is not None else None,
        alpha=alpha if baseline is not None else None,
        comparison=comparison,
        failures=failures,
        rule=rule if baseline is not None else None,
        checks=checks,
        lines=lines,
    )
