"""Study planning for prompt validation: variance components of the neutral leaning.

The headline is the gate's ``neutral_leaning_generated`` (:mod:`inspect_stance.validation.gate`):
per neutral setting ``b`` (topic x intent) ``Y_b``, the share of the annotators' parsed side
answers on its generated prompts that name a side; the headline ``mean_b Y_b`` is tested over
settings. With ``y_bpa = 1[annotator a names a side on generated prompt p of setting b]``, for
``B`` neutral settings x ``n_p`` generated prompts (``-T per_source``) x ``n_a`` answers per
prompt, answers nested in prompts and prompts in settings:

    ``SE(leaning) = sqrt((sigma_S^2 + sigma_P^2 / n_p + sigma_A^2 / (n_p n_a)) / B)``.

**Annotators are the pilot's ensemble**, not a design variable: the gate's figure is these
annotators' reading, its SE taken over settings for them. An annotator's own bias ``alpha_a``
is the same in every setting and no part of that SE, so each answer is first centred by it,
``y - (mean_a - mean)`` over the pilot (the headline is unchanged when every prompt has every
annotator's answer); left in, it would be spread within prompts and, where it outweighs the
prompt variance, truncated into too large an SE. A setting-by-annotator effect stays within
prompts (``sigma_A^2`` estimates ``sigma_SA^2 + sigma_E^2``, ``sigma_P^2`` loses and
``sigma_S^2`` gains ``sigma_SA^2 / n_a``): at the pilot's ``n_a`` the two cancel and the
prediction is unbiased for any ``B`` and ``n_p``; another ``n_a`` would need annotators drawn
alike from a population, so ``n_a`` stays the pilot's (one annotator: the answer component is
folded into the prompt one).

Components: the nested ANOVA / moment estimates of :mod:`inspect_stance.stats.design` on the
centred answers (unbalanced pilots allowed: unparsed answers and missing prompts drop out).
Balanced, with ``m_bp`` a prompt's mean over its answers and ``m_b`` the setting's mean:
``sigma_A^2 = MS_A = sum (y_bpa - m_bp)^2 / (B n_p (n_a - 1))``, ``sigma_P^2 = MS_P - MS_A /
n_a`` with ``MS_P = sum (m_bp - m_b)^2 / (B (n_p - 1))``, ``sigma_S^2 = var_b(m_b) - sigma_P^2
/ n_p - sigma_A^2 / (n_p n_a)`` (a negative estimate reported as 0). A setting's value is here
the mean of its prompts' means, where the gate pools its answers: equal when every prompt has
the same number of parsed answers.

Calls per neutral setting (the solver's; the run's task arguments): per annotator one ranking
call (with at least 2 prompts) and one label call per prompt, ``n_src n_p`` prompts for the
run's ``n_src`` sources (a real-prompt shortfall not deducted); one prompter call when the run
writes its generated prompts (none with ``prompts_from``); times the run's user stances (each
a setting on the same topic x intent). ``calls_by_variant``: ``as_run``, ``neutral_only``
(``-T stances=neutral``) and ``headline_only`` (and ``-T sources=generated``).

``--target-se X``: the cheapest design whose realised SE is at most ``X`` with probability
``assurance`` (``None``: the point prediction); ``--detect D``: the least settings for a paired
t-test over settings to detect a difference ``D`` from a second run alike (``--correlation``
``rho`` of the runs' setting leanings: ``Var(d_b) = 2 (1 - rho) sigma_S^2 + 2 (sigma_P^2 / n_p
+ sigma_A^2 / (n_p n_a))``); without a target, the cheapest design within 10 % of the largest
design's SE.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from inspect_stance.construction.settings import NEUTRAL, USER_STANCES, parse_choice
from inspect_stance.errors import InputError
from inspect_stance.stats.design import NestedComponents, Part, check_plan_goal, least_units
from inspect_stance.stats.design import nested_components as _nested
from inspect_stance.validation.annotation import GENERATED, NO_SIDE, SOURCES, Annotation

DEFAULT_MAX_PROMPTS = 10  #: generated prompts per setting searched unless the pilot has more
DEFAULT_SE_SLACK = 1.10
MAX_SETTINGS = 1_000_000
MAX_PROMPTS = 1_000
LEVELS = ("prompt", "answer")
Tree = list[list[list[float]]]  #: setting > generated prompt > annotators' answers (0/1)


@dataclass(frozen=True)
class ValidationCalls:
    """Model calls of one neutral setting: ``stances (prompter + n_a (ranking + n_src n_p))``."""

    annotators: int
    sources: int
    prompter: int
    stances: int

    def calls(self, settings: int, prompts: int, stances: int | None = None,
              sources: int | None = None) -> int:  # fmt: skip
        """Calls of ``settings`` neutral settings at ``prompts`` per source (and the settings of
        the other stances); ``stances`` / ``sources`` override the run's counts."""
        items = (self.sources if sources is None else sources) * prompts
        per = self.prompter + self.annotators * (int(items >= 2) + items)
        return int(settings * (self.stances if stances is None else stances) * per)


def validation_calls(task_args: dict[str, Any], annotators: int) -> ValidationCalls:
    """Calls per neutral setting of a run with ``task_args`` and ``annotators`` annotators."""
    try:
        stances = parse_choice(task_args.get("stances"), USER_STANCES, "stances")
        sources = parse_choice(task_args.get("sources"), SOURCES, "sources")
    except (InputError, ValueError) as ex:
        raise InputError(f"the pilot's task arguments: {ex}") from ex
    prompter = int(GENERATED in sources and not task_args.get("prompts_from"))
    return ValidationCalls(annotators, len(sources), prompter, len(stances))


def leaning_tree(rows: Sequence[Annotation], centred: bool = True) -> tuple[list[str], Tree]:
    """Settings with a parsed side answer on an intended-neutral generated prompt, and per
    setting and prompt the answers ``1[side named]`` (the gate's rows); ``centred``: less
    each annotator's own bias ``mean_a - mean`` over the pilot (module docstring)."""
    nested: dict[str, dict[str, list[tuple[str, float]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r.source == GENERATED and r.intended_stance == NEUTRAL and r.side:
            nested[r.setting][r.item_id].append((r.annotator, float(r.side != NO_SIDE)))
    answers = [a for s in nested.values() for p in s.values() for a in p]
    bias: dict[str, float] = defaultdict(float)
    if centred and answers:
        grand = float(np.mean([y for _, y in answers]))
        for name in {a for a, _ in answers}:
            bias[name] = float(np.mean([y for a, y in answers if a == name])) - grand
    keys = list(nested)
    return keys, [[[y - bias[a] for a, y in p] for p in nested[k].values()] for k in keys]


def leaning_components(rows: Sequence[Annotation], name: str = "") -> NestedComponents:
    """Components of the neutral leaning (centred answers); one-line InputError with fewer
    than 2 settings."""
    keys, tree = leaning_tree(rows)
    if len(keys) < 2:
        raise InputError(
            f"{name or 'the pilot'}: {len(keys)} neutral setting(s) with a parsed side answer "
            "on a generated prompt; planning the neutral leaning needs at least 2 (run the "
            "pilot with more topics or intents, -T stances including neutral and -T sources "
            "including generated)"
        )
    return _nested([Part("", tree, LEVELS)], "setting")


def leaning(rows: Sequence[Annotation]) -> float:
    """The pilot's headline as the gate computes it: per setting the share of its answers
    naming a side, the mean over settings."""
    _, tree = leaning_tree(rows, centred=False)
    return float(np.mean([np.mean([y for p in s for y in p]) for s in tree]))


def pilot_design(rows: Sequence[Annotation]) -> tuple[int, int]:
    """The pilot's generated prompts per neutral setting and answers per prompt (medians)."""
    _, tree = leaning_tree(rows)
    prompts = [len(s) for s in tree]
    answers = [len(p) for s in tree for p in s]
    return tuple(int(np.median(x)) if x else 1 for x in (prompts, answers))  # type: ignore[return-value]


@dataclass(frozen=True)
class ValidationDesign:
    """One design: neutral settings x prompts per source x annotators, calls and SEs."""

    settings: int
    prompts: int
    annotators: int
    calls: int
    predicted_se: float
    predicted_delta_se: float | None = None


@dataclass
class PlanResult:
    """What ``plan --json`` prints for a prompt-validation pilot (:func:`plan_json`)."""

    runs: list[dict[str, Any]]
    designs: list[ValidationDesign]
    recommended: ValidationDesign | None
    target: dict[str, Any]
    calls: ValidationCalls
    reason: str = ""  #: why no design is recommended (empty when one is)


def delta_variance(vc: NestedComponents, design: tuple[int, int], rho: float) -> float:
    """Per-setting variance of the difference from a second run alike: ``2 (1 - rho)
    sigma_S^2 + 2 (sigma_P^2 / n_p + sigma_A^2 / (n_p n_a))``."""
    within = vc.unit_variance(design) - vc.between
    return 2.0 * (1.0 - rho) * vc.between + 2.0 * within


def plan_validation_leaning(
    pilot: Sequence[Annotation],
    task_args: dict[str, Any] | None = None,
    annotators: int | None = None,
    target_se: float | None = None,
    detect: float | None = None,
    assurance: float | None = 0.8,
    correlation: float = 0.0,
    alpha: float = 0.05,
    power: float = 0.8,
    max_settings: int | None = None,
    max_prompts: int | None = None,
    name: str = "",
    source: str = "",
) -> PlanResult:
    """Plan a prompt-validation study from the pilot's annotation rows (one run; ``task_args``
    its task arguments and ``annotators`` its annotator count, for the calls; default the
    answers per prompt): components, designs and the cheapest design meeting ``target_se``
    (with probability ``assurance``) and/or ``detect``."""
    check_plan_goal(target_se, detect, assurance, correlation=correlation)
    vc = leaning_components(pilot, source)
    n_p, n_a = pilot_design(pilot)
    calls = validation_calls(task_args or {}, annotators or n_a)
    max_b = min(max_settings or vc.n_top, MAX_SETTINGS)
    max_p = min(max_prompts or max(n_p, DEFAULT_MAX_PROMPTS), MAX_PROMPTS)

    def make(b: int, p: int) -> ValidationDesign:
        dv = delta_variance(vc, (p, n_a), correlation) if detect is not None else None
        return ValidationDesign(b, p, calls.annotators, calls.calls(b, p), vc.se(b, (p, n_a)),
                                None if dv is None else math.sqrt(dv / b))  # fmt: skip

    shown = sorted({p for p in (1, 2, 5, 10, 20, 50) if p <= max_p} | {n_p, max_p})
    designs = [make(max_b, p) for p in shown]
    default = target_se is None and detect is None
    largest = vc.se(max_b, (max_p, n_a))
    goal = {"target_se": DEFAULT_SE_SLACK * largest if default else target_se,
            "assurance": None if default or target_se is None else assurance,
            "detect": detect, "correlation": correlation, "alpha": alpha,
            "power": power}  # fmt: skip
    best: ValidationDesign | None = None
    for p in range(1, max_p + 1):
        b = least_units(vc, (p, n_a), max_b, goal, delta_variance(vc, (p, n_a), correlation))
        cand = None if b is None else make(b, p)
        if cand is not None and (best is None or cand.calls < best.calls):
            best = cand
    summary = run_summary(vc, calls, (n_p, n_a), leaning(pilot), (name, source))
    reason = "" if best is not None else _reason(goal, max_b, max_p, largest)
    if summary["note"]:  # every design would be predicted SE 0: nothing to recommend
        best, reason = None, summary["note"]
    target = _target(vc, goal, best, n_a, {"default_target": default, "max_settings": max_b,
                                           "max_prompts": max_p})  # fmt: skip
    return PlanResult([summary], designs, best, target, calls, reason)


def _target(vc: NestedComponents, goal: dict[str, Any], best: ValidationDesign | None,
            n_a: int, bounds: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    out = {**goal, **bounds, "prob_meets_target": None, "predicted_se_range": None}
    if best is not None:
        d = (best.prompts, n_a)
        if goal["target_se"] is not None:
            out["prob_meets_target"] = vc.prob_se_below(goal["target_se"], best.settings, d)
        out["predicted_se_range"] = list(vc.se_range(best.settings, d))
    return out


def _reason(goal: dict[str, Any], max_b: int, max_p: int, largest: float) -> str:
    """One line: why no design within the bounds reaches the goal."""
    what = []
    if goal["target_se"] is not None:
        sure = f" with probability {goal['assurance']:g}" if goal["assurance"] else ""
        what.append(f"SE <= {goal['target_se']:.4g}{sure}")
    if goal["detect"] is not None:
        what.append(f"power {goal['power']:g} to detect {goal['detect']:g}")
    return (f"no design within {max_b} neutral settings x {max_p} prompts per source reaches "
            f"{' and '.join(what)} (the largest: predicted SE {largest:.4f}); allow more "
            "settings with --max-settings (more topics or intents)")  # fmt: skip


def run_summary(vc: NestedComponents, calls: ValidationCalls, design: tuple[int, int],
                estimate: float, label: tuple[str, str]) -> dict[str, Any]:  # fmt: skip
    """The pilot's figures: its ``(name, source)``, settings, design, leaning (``estimate``),
    components, calls."""
    flat = vc.top_var == 0 and not vc.sigma2.any()
    return {
        "name": label[0],
        "source": label[1],
        "settings": vc.n_top,
        "prompts": design[0],
        "answers_per_prompt": design[1],
        "annotators": calls.annotators,
        "neutral_leaning_generated": estimate,
        "se": math.sqrt(vc.top_var / vc.n_top),
        "components": {
            "between_settings": vc.between,
            "prompt": float(vc.sigma2[0]),
            "answer": float(vc.sigma2[1]),
            "truncated": list(vc.truncated),
            "not_separable": list(vc.folded),
        },
        "calls": asdict(calls),
        "note": ("the pilot's answers do not vary beyond each annotator's own bias, so every "
                 "design is predicted SE 0: no spread to plan from; run a larger or more "
                 "varied pilot") if flat else "",
    }  # fmt: skip
