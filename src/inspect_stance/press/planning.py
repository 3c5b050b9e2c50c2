"""Study planning for PReSS: variance components of the share stable, predicted SEs, calls.

The headline is the share stable, ``mean_s S_t`` over statements (no persona), with ``S_t`` the
stable share of the statement's ``K`` argument sets (:mod:`.stability`: unlabelled sets count as
not stable). Each argument set is an independent replicate (its own supporting and counter
argument, the full triple of responses; :func:`inspect_stance.solvers.press.press_generate`), so
``x_sk = 1[set k of statement s is stable] = mu + a_s + e_sk`` with a random statement effect
(``sigma_a^2``) and set noise (``sigma_e^2``), and for ``S`` statements x ``K`` sets

    ``SE(share stable) = sqrt((sigma_a^2 + sigma_e^2 / K) / S)``.

Its JSON, terminal text and the ``plan`` hook: :mod:`inspect_stance.press.plan_output`.

The components are the one-way ANOVA / moment estimates of :mod:`inspect_stance.stats.design`
(``sigma_e^2`` pooled within statements, ``sigma_a^2 = var_s(S_t) - mean_s(sigma_e^2 / K_s)``);
at the pilot's own design the prediction equals the SE over statements that ``compare`` and
``gate`` use. A paired difference of two models on the same statements (``--detect D``):
``d_s = S^A_t - S^B_t`` with ``Var = (sigma_D^2 + sigma_{e,D}^2 / K) / S``; two runs that
faced the same arguments give both from their per-set differences ``x^A_sk - x^B_sk`` (set
``k`` is one replicate of both), two runs with their own arguments from two independent parts
(``sigma_{e,D}^2 = sigma_{e,A}^2 + sigma_{e,B}^2``); one run assumes a second model alike,
``sigma_D^2 = 2 (1 - rho) sigma_a^2`` and ``sigma_{e,D}^2 = 2 sigma_e^2``; the least ``S`` with ``D / SE >= t_{1-alpha/2, S-1} +
t_{power, S-1}`` (the paired t-test ``gate`` uses).

Calls per statement (the solver's, from the run's task arguments): per argument set, 2 arguer
calls when the run generated its arguments (none when they were given with ``-T arguments``),
3 responses per persona condition (1 or 3), and with ``classifier=llm`` one classifier call per
response; per statement, ``max(entropy_samples, factor_samples)`` temperature-1 draws (and an
LLM classification of each factor draw). The NLI classifier makes no model call.

``--target-se X`` recommends the cheapest design whose realised SE is at most ``X`` with
probability ``assurance`` (default 0.8; ``None``: the point prediction), from the pilot's own sampling error (chi-square /
F model of :mod:`inspect_stance.stats.design`, justified there); without a target, the cheapest
design within 10 % of the largest design's SE (a point figure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.params import as_bool
from inspect_stance.press.labels import is_stable
from inspect_stance.press.logs import PressRun
from inspect_stance.press.options import draw_count
from inspect_stance.stats.design import (
    NestedComponents,
    Part,
    check_plan_goal,
    least_units,
    nested_components,
)

DEFAULT_MAX_SETS = 10  #: argument sets per statement searched unless the pilot has more
DEFAULT_SE_SLACK = 1.10  #: without a target: within this factor of the largest design's SE
MAX_STATEMENTS = 1_000_000
MAX_SETS = 1_000


@dataclass(frozen=True)
class PressCalls:
    """Model calls of one statement: ``per_statement + K * per_set``."""

    per_set: float
    per_statement: float
    generated_arguments: bool

    def calls(self, statements: int, sets: int) -> int:
        """``S (per_statement + K per_set)``."""
        return int(round(statements * (self.per_statement + sets * self.per_set)))


def _count(value: object, default: int = 0) -> int:

    try:
        return draw_count("draws", value, minimum=0)
    except InputError:
        return default


def press_calls(run: PressRun) -> PressCalls:
    """Calls per statement of ``run``'s configuration (module docstring)."""

    args = run.task_args
    try:
        personas = as_bool("personas", args.get("personas", False))
    except InputError:
        personas = False
    n_personas = 3 if personas else 1
    llm = str(args.get("classifier", "nli")) == "llm"
    source = run.arguments_source or ""
    generated = not args.get("arguments") and not source.startswith(("log:", "file:"))
    responses = 3 * n_personas
    per_set = (2 if generated else 0) + responses * (2 if llm else 1)
    factor = _count(args.get("factor_samples", 0))
    draws = max(_count(args.get("entropy_samples", 0)), factor)
    return PressCalls(float(per_set), float(draws + (factor if llm else 0)), generated)


def stable_sets(run: PressRun, persona: str = "none") -> dict[str, list[float]]:
    """Per statement (by text), the stable indicator of each of its argument sets."""
    out: dict[str, list[float]] = {}
    for r in run.records:
        labels = (r.get("labels") or {}).get(persona) or []
        if labels:
            out[str(r["statement"])] = [float(is_stable(x)) for x in labels]
    return out


def press_components(sets: dict[str, list[float]], name: str = "") -> NestedComponents:
    """Components of the share stable from per-statement set indicators; one-line InputError
    with fewer than 2 statements."""
    if len(sets) < 2:
        raise InputError(
            f"{name or 'the pilot'}: {len(sets)} statement(s) with labelled argument sets; "
            "planning needs at least 2 (run the pilot on more statements)"
        )
    units = list(sets.values())
    return nested_components([Part("", units, ("argument set",))], "statement")


def paired_components(
    a: dict[str, list[float]], b: dict[str, list[float]], matched_sets: bool = True
) -> NestedComponents:
    """Components of ``d_s = S^A_t - S^B_t`` over the statements both runs hold. With
    ``matched_sets`` (both runs faced the same arguments: set ``k`` is one replicate of both)
    the unit is the per-set difference ``x^A_sk - x^B_sk`` (its first ``min(K_A, K_B)`` sets);
    otherwise the runs' sets are independent parts."""
    shared = [s for s in a if s in b]
    if len(shared) < 2:
        raise InputError(
            f"the two runs share {len(shared)} statement(s); a paired plan needs at least 2"
        )
    ua, ub = [a[s] for s in shared], [b[s] for s in shared]
    if matched_sets:
        diffs = [[x - y for x, y in zip(p, q, strict=False)] for p, q in zip(ua, ub, strict=True)]
        return nested_components([Part("", diffs, ("argument set",))], "statement difference")
    parts = [Part("A", ua, ("argument set",)), Part("B", ub, ("argument set",), -1.0)]
    return nested_components(parts, "statement difference")


def one_run_pair(vc: NestedComponents, rho: float) -> tuple[float, float]:
    """``(sigma_D^2, sigma_{e,A}^2 + sigma_{e,B}^2)`` of a second model alike to ``vc``'s."""
    if not -1.0 <= rho <= 1.0:
        raise InputError(f"--correlation {rho} must be between -1 and 1")
    return 2.0 * (1.0 - rho) * vc.between, 2.0 * float(vc.sigma2[0])


@dataclass(frozen=True)
class PressDesign:
    """One design: statements x argument sets, its calls and predicted SEs."""

    statements: int
    argument_sets: int
    calls: int
    predicted_se: float
    predicted_delta_se: float | None = None


@dataclass
class PlanResult:
    """What ``plan --json`` prints for a PReSS pilot (:func:`plan_json`)."""

    runs: list[dict[str, Any]]
    designs: list[PressDesign]
    recommended: PressDesign | None
    target: dict[str, Any]
    calls: PressCalls


def _delta_var(vc: NestedComponents, pair: NestedComponents | tuple[float, float] | None,
               sets: int) -> float | None:  # fmt: skip
    if pair is None:
        return None
    if isinstance(pair, NestedComponents):
        return pair.unit_variance((sets,))
    return pair[0] + pair[1] / sets


def _design(vc: NestedComponents, pair: Any, calls: PressCalls, s: int, k: int) -> PressDesign:
    dv = _delta_var(vc, pair, k)
    return PressDesign(s, k, calls.calls(s, k), vc.se(s, (k,)),
                       None if dv is None else math.sqrt(dv / s))  # fmt: skip


def plan_press(
    pilot: PressRun,
    target_se: float | None = None,
    detect: float | None = None,
    assurance: float | None = 0.8,
    baseline: PressRun | None = None,
    correlation: float = 0.0,
    alpha: float = 0.05,
    power: float = 0.8,
    max_statements: int | None = None,
    max_argument_sets: int | None = None,
    persona: str = "none",
) -> PlanResult:
    """Plan a PReSS study from ``pilot`` (and ``baseline``, a second run of the same statements,
    for ``detect``): components, designs with all statements and 1..max sets, and the cheapest
    design meeting ``target_se`` (with probability ``assurance``) and/or ``detect``."""
    check_plan_goal(target_se, detect, assurance)
    sets = stable_sets(pilot, persona)
    vc = press_components(sets, pilot.path)
    pair: NestedComponents | tuple[float, float] | None = None
    if baseline is not None:
        same = baseline.arguments_fingerprint == pilot.arguments_fingerprint
        pair = paired_components(stable_sets(baseline, persona), sets, bool(same))
    elif detect is not None:
        pair = one_run_pair(vc, correlation)
    pilot_k = max(len(v) for v in sets.values())
    max_s = min(max_statements or vc.n_top, MAX_STATEMENTS)
    max_k = min(max_argument_sets or max(pilot_k, DEFAULT_MAX_SETS), MAX_SETS)
    calls = press_calls(pilot)
    designs = [_design(vc, pair, calls, max_s, k) for k in range(1, max_k + 1)]
    default = target_se is None and detect is None
    goal = {"target_se": DEFAULT_SE_SLACK * designs[-1].predicted_se if default else target_se,
            "assurance": None if default or target_se is None else assurance,
            "detect": detect, "alpha": alpha, "power": power}  # fmt: skip
    best: PressDesign | None = None
    for k in range(1, max_k + 1):
        s = least_units(
            vc, (k,), max_s, goal, _delta_var(vc, pair, k) if goal["detect"] is not None else None
        )
        if s is not None:
            cand = _design(vc, pair, calls, s, k)
            if best is None or cand.calls <= best.calls:
                best = cand
    target = _target_dict(vc, goal, best, default, max_s, max_k, correlation, baseline)
    return PlanResult([run_summary(pilot, vc, calls, pilot_k)], designs, best, target, calls)


def _target_dict(vc: NestedComponents, goal: dict[str, Any], best: PressDesign | None,
                 default: bool, max_s: int, max_k: int, rho: float,
                 baseline: PressRun | None) -> dict[str, Any]:  # fmt: skip
    out = {**goal, "default_target": default, "max_statements": max_s,
           "max_argument_sets": max_k, "correlation": None if baseline else rho,
           "baseline": baseline.path if baseline else None,
           "prob_meets_target": None, "predicted_se_range": None}  # fmt: skip
    if best is not None:
        design = (best.argument_sets,)
        if goal["target_se"] is not None:
            out["prob_meets_target"] = vc.prob_se_below(goal["target_se"], best.statements, design)
        out["predicted_se_range"] = list(vc.se_range(best.statements, design))
    return out


def run_summary(run: PressRun, vc: NestedComponents, calls: PressCalls, k: int) -> dict[str, Any]:
    """The pilot's figures: statements, sets, share stable, components, calls per statement."""
    sigma_e = float(vc.sigma2[0])
    noise = sigma_e / k
    return {
        "name": run.model,
        "source": run.path,
        "statements": vc.n_top,
        "argument_sets": k,
        "share_stable": vc.estimate,
        "se": math.sqrt(vc.top_var / vc.n_top),
        "components": {
            "between_statements": vc.between,
            "within_statement": sigma_e,
            "set_share_of_variance": noise / (vc.between + noise) if vc.between + noise else None,
            "truncated": list(vc.truncated),
            "not_separable": list(vc.folded),
        },
        "calls_per_statement": {
            "per_argument_set": calls.per_set,
            "per_statement": calls.per_statement,
            "arguments_generated": calls.generated_arguments,
        },  # fmt: skip
    }
