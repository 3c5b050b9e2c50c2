"""Study planning for prompt construction: variance components of the construction gap.

The headline is the construction gap on the neutral settings, templated minus generated
distance from neutral from the individual judgments (``compare``'s ``gap templated-generated
(judgments)``, :func:`inspect_stance.stats.nested.nested_difference`): per neutral setting
(topic x intent) ``d_b = M(b, templated) - M(b, generated)``, with ``M`` the mean over the
method's prompts of each prompt's mean over its responses of each response's mean ``|score - 3|``
over the judges; the gap is ``mean_b d_b``, tested over settings. The design is settings ``B``
x prompts per method ``n_p`` x responses per prompt ``n_r`` x judges ``n_j``, each method a
nested part with its own prompt, response and judge components, so

    ``SE(gap) = sqrt((sigma_S^2 + sum_method (sigma_P^2 / n_p + sigma_R^2 / (n_p n_r)
    + sigma_J^2 / (n_p n_r n_j))) / B)``,

``sigma_S^2`` the variance of the settings' true gaps. Components: the nested ANOVA / moment
estimates of :mod:`inspect_stance.stats.design` (unbalanced pilots allowed: responses without a
scale judgment and missing prompts drop out). With one response per prompt (the task's
default) the response component is folded into the prompt component, with one judge the judge
component into the response one: more of them are then predicted to buy nothing (conservative);
run the pilot with ``-T responses_per_prompt=2`` to plan responses. The judges are the pilot's
fixed ensemble: ``n_j`` stays the pilot's (a judge's own bias cancels in the gap, so its
within-response spread overstates the judge term: conservative too). A setting averages
responses equally within a prompt, where ``nested_difference`` pools a prompt's judgments; the
two agree when every response has the same number of judgments.

Calls per neutral setting (the solver's, from the run's task arguments): per response, one
target call and ``n_j`` judge calls per judge prompt (``-T judge_prompt`` list, ``+1`` with
``reversed_rubric``); one prompter call per setting for the generated prompts (none with
``prompts_from``); each of the run's user stances (``-T stances``) is a setting of its own on
the same topic x intent, paid alongside (``calls_by_variant["neutral_only"]``: ``-T
stances=neutral``, all the gap needs).

``--target-se X``: the cheapest design whose realised SE is at most ``X`` with probability
``assurance`` (``None``: the point prediction); ``--detect D``: the least settings for a paired t-test over settings to detect a
gap of ``D`` (on the 0..2 distance scale) with ``power``; without a target, the cheapest design
within 10 % of the largest design's SE.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from inspect_stance.construction.controls import parse_judge_prompt
from inspect_stance.construction.labels import NEUTRAL, label_score
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import GENERATED, TEMPLATED, USER_STANCES, parse_choice
from inspect_stance.errors import InputError
from inspect_stance.params import as_bool
from inspect_stance.stats.design import (
    NestedComponents,
    Part,
    check_plan_goal,
    least_units,
    nested_components,
)

DEFAULT_MAX_PROMPTS = 10  #: prompts per method per setting searched unless the pilot has more
DEFAULT_MAX_RESPONSES = 3  #: responses per prompt searched unless the pilot has more
DEFAULT_SE_SLACK = 1.10
MAX_SETTINGS = 1_000_000
MAX_PER_AXIS = 1_000
LEVELS = ("prompt", "response", "judge")
Tree = list[list[list[list[float]]]]  #: setting > prompt > response > judgments


@dataclass(frozen=True)
class ConstructionCalls:
    """Model calls of one neutral setting: ``stances (prompter + 2 n_p n_r (1 + judge_calls))``."""

    judges: int
    judge_calls_per_judge: int
    prompter: int
    stances: int

    def calls(self, settings: int, prompts: int, responses: int, stances: int | None = None
              ) -> int:  # fmt: skip
        """Calls of ``settings`` neutral settings (and their other stances)."""
        per_response = 1 + self.judges * self.judge_calls_per_judge
        per = self.prompter + 2 * prompts * responses * per_response
        return int(settings * (self.stances if stances is None else stances) * per)


def construction_calls(task_args: dict[str, Any], judges: int) -> ConstructionCalls:
    """Calls per neutral setting of a run with ``task_args`` and ``judges`` judges."""

    try:
        sees = as_bool("judge_sees_prompt", task_args.get("judge_sees_prompt", True))
        prompts = parse_judge_prompt(task_args.get("judge_prompt"), sees)
        reverse = as_bool("reversed_rubric", task_args.get("reversed_rubric", False))
        stances = parse_choice(task_args.get("stances"), USER_STANCES, "stances")
    except InputError as ex:
        raise InputError(f"the pilot's task arguments: {ex}") from ex
    prompter = 0 if task_args.get("prompts_from") else 1
    return ConstructionCalls(judges, len(prompts) + int(reverse), prompter, len(stances))


def gap_trees(records: Sequence[Record]) -> tuple[list[str], Tree, Tree]:
    """Neutral settings with both methods scored, and each method's tree of ``|score - 3|``."""
    nested: dict[str, dict[str, dict[str, dict[str, list[float]]]]] = {
        TEMPLATED: defaultdict(lambda: defaultdict(lambda: defaultdict(list))),
        GENERATED: defaultdict(lambda: defaultdict(lambda: defaultdict(list))),
    }
    for r in records:
        if not r.setting.is_neutral or r.method not in nested:
            continue
        for label in r.judge_labels:
            score = label_score(label) if label is not None else None
            if score is not None:
                prompt = r.prompt_text or r.sample_id
                nested[r.method][r.setting.key][prompt][r.sample_id].append(
                    float(abs(score - NEUTRAL))
                )
    keys = [k for k in nested[TEMPLATED] if k in nested[GENERATED]]

    def tree(method: str) -> Tree:
        return [[list(resp.values()) for resp in nested[method][k].values()] for k in keys]

    return keys, tree(TEMPLATED), tree(GENERATED)


def gap_components(records: Sequence[Record], name: str = "") -> NestedComponents:
    """Components of the construction gap; one-line InputError with fewer than 2 neutral
    settings judged under both methods."""
    keys, templated, generated = gap_trees(records)
    if len(keys) < 2:
        raise InputError(
            f"{name or 'the pilot'}: {len(keys)} neutral setting(s) with scale judgments under "
            "both methods; planning the gap needs at least 2 (run the pilot with more topics "
            "or intents, and -T stances including neutral)"
        )
    parts = [Part("templated", templated, LEVELS), Part("generated", generated, LEVELS, -1.0)]
    return nested_components(parts, "setting")


def pilot_design(records: Sequence[Record]) -> tuple[int, int, int]:
    """The pilot's prompts per method per setting, responses per prompt, judges (medians)."""
    _, t, g = gap_trees(records)
    both = t + g
    prompts = [len(s) for s in both]
    responses = [len(p) for s in both for p in s]
    judges = [len(r) for s in both for p in s for r in p]
    return tuple(int(np.median(x)) if x else 1 for x in (prompts, responses, judges))  # type: ignore[return-value]


@dataclass(frozen=True)
class ConstructionDesign:
    """One design: neutral settings x prompts x responses x judges, calls and predicted SE."""

    settings: int
    prompts: int
    responses: int
    judges: int
    calls: int
    predicted_se: float


@dataclass
class PlanResult:
    """What ``plan --json`` prints for a prompt-construction pilot (:func:`plan_json`)."""

    runs: list[dict[str, Any]]
    designs: list[ConstructionDesign]
    recommended: ConstructionDesign | None
    target: dict[str, Any]
    calls: ConstructionCalls


def plan_construction_gap(
    pilot: Sequence[Record],
    task_args: dict[str, Any] | None = None,
    target_se: float | None = None,
    detect: float | None = None,
    assurance: float | None = 0.8,
    alpha: float = 0.05,
    power: float = 0.8,
    max_settings: int | None = None,
    max_prompts: int | None = None,
    max_responses: int | None = None,
    name: str = "",
    source: str = "",
) -> PlanResult:
    """Plan a prompt-construction study from the pilot's records (one run; ``task_args`` its
    task arguments, for the calls): components, designs and the cheapest design meeting
    ``target_se`` (with probability ``assurance``) and/or ``detect``."""
    check_plan_goal(target_se, detect, assurance, 2.0, "a gap in distance from neutral")
    vc = gap_components(pilot, source)
    n_p, n_r, n_j = pilot_design(pilot)
    calls = construction_calls(task_args or {}, n_j)
    max_b = min(max_settings or vc.n_top, MAX_SETTINGS)
    max_p = min(max_prompts or max(n_p, DEFAULT_MAX_PROMPTS), MAX_PER_AXIS)
    max_r = min(max_responses or max(n_r, DEFAULT_MAX_RESPONSES), MAX_PER_AXIS)

    def make(b: int, p: int, r: int) -> ConstructionDesign:
        return ConstructionDesign(b, p, r, n_j, calls.calls(b, p, r), vc.se(b, (p, r, n_j)))

    shown = sorted({p for p in (1, 2, 5, 10, 20, 50) if p <= max_p} | {n_p, max_p})
    designs = [make(max_b, p, r) for r in sorted({1, n_r, max_r}) for p in shown]
    default = target_se is None and detect is None
    largest = vc.se(max_b, (max_p, max_r, n_j))
    goal = {"target_se": DEFAULT_SE_SLACK * largest if default else target_se,
            "assurance": None if default or target_se is None else assurance,
            "detect": detect, "alpha": alpha, "power": power}  # fmt: skip
    best: ConstructionDesign | None = None
    for r in range(1, max_r + 1):
        for p in range(1, max_p + 1):
            b = least_units(vc, (p, r, n_j), max_b, goal, vc.unit_variance((p, r, n_j)))
            cand = None if b is None else make(b, p, r)
            if cand is not None and (best is None or cand.calls <= best.calls):
                best = cand
    target: dict[str, Any] = {**goal, "default_target": default, "max_settings": max_b,
                              "max_prompts": max_p, "max_responses": max_r,
                              "prob_meets_target": None, "predicted_se_range": None}  # fmt: skip
    if best is not None:
        d = (best.prompts, best.responses, best.judges)
        if goal["target_se"] is not None:
            target["prob_meets_target"] = vc.prob_se_below(goal["target_se"], best.settings, d)
        target["predicted_se_range"] = list(vc.se_range(best.settings, d))
    summary = run_summary(vc, calls, (n_p, n_r, n_j), name, source)
    return PlanResult([summary], designs, best, target, calls)


def run_summary(vc: NestedComponents, calls: ConstructionCalls, design: tuple[int, int, int],
                name: str, source: str) -> dict[str, Any]:  # fmt: skip
    """The pilot's figures: settings, design, gap, components, calls."""
    return {
        "name": name,
        "source": source,
        "settings": vc.n_top,
        "prompts": design[0],
        "responses": design[1],
        "judges": design[2],
        "gap": vc.estimate,
        "se": math.sqrt(vc.top_var / vc.n_top),
        "components": {
            "between_settings": vc.between,
            **{n.replace(" ", "_"): float(v) for n, v in zip(vc.level_names, vc.sigma2,
                                                               strict=True)},
            "truncated": list(vc.truncated),
            "not_separable": list(vc.folded),
        },
        "calls": asdict(calls),
    }  # fmt: skip
