"""The calls a study will make, per run (target x method) and per model, from each task's sizes.

Per method (``n`` items, sizes from the task arguments or the tasks' documented defaults):

- ``stance_drift``: ``n`` propositions (default 112) x 5 initial stances x ``trials`` (default
  100) trials, each ``1 + e`` target calls (one generation, ``e`` = 1 extraction, 5 for
  ``multiple_extraction``; no generation with ``arguments_from``); a chain (``hops > 1``) makes
  ``1 + hops`` target calls and ``(hops - 1) x r`` relay calls per trial (``r`` = 2 for
  ``translate``, else 1).
- ``press``: ``n`` statements (default 19) x ``K`` argument sets (default 3): ``3K`` target
  calls (the plain statement K times, a supporting and a countering prompt per set), x 3 with
  personas; ``2K`` arguer calls (the arguer role, else the target) unless ``arguments`` is
  given; ``max(entropy_samples, factor_samples)`` more target calls; with ``classifier=llm``
  one classifier call per target response.
- ``prompt_construction``: ``S`` settings = topics (default 6) x intents (3) x user stances (3);
  ``S x (templates_per_setting + prompts_per_setting) x responses_per_prompt`` responses (one
  target call each, default 10 + 10), each rated by every judge once per ``judge_prompt``
  (plus once more with ``reversed_rubric``); one prompter call per setting.
- ``prompt_validation``: ``S`` settings as above; each annotator ranks a setting's prompts
  (one call) and labels each (``sources x per_source`` calls, default 3 x 2); one prompter
  (the target) call per setting.
- ``even_handedness``: ``n`` pairs (``limit``, default all 1,350, at most the pairs matching
  its filters) x 2 target calls; each
  grader judges the pair in both orders (default) or one, and refusal and hedging of each of the
  two responses: ``orders + 4`` calls per pair.

The counts match the model calls the simulated runs log (``tests/study_file``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_stance.study_file.spec import ModelSpec, StudySpec

DEFAULT_PROPOSITIONS = 112
DEFAULT_STATEMENTS = 19
DEFAULT_TOPICS = 6
DEFAULT_PAIRS = 1350
STANCES = 5


@dataclass
class PlannedRun:
    """One run of a study: a target's model on one method, its items and calls per model."""

    target: str
    method: str
    model: ModelSpec
    items: int
    calls: dict[str, int] = field(default_factory=dict)  # model -> calls

    @property
    def total(self) -> int:
        """All calls of the run."""
        return sum(self.calls.values())


def _int(args: dict[str, Any], key: str, default: int) -> int:
    value = args.get(key)
    return default if value is None else int(value)


def _count(value: Any, default: int) -> int:
    """Entries of a comma list argument (``None``: the default)."""
    if value is None or value == "":
        return default
    if isinstance(value, list | tuple):
        return len(value)
    return len([v for v in str(value).split(",") if v.strip()])


def _add(calls: dict[str, int], model: str, n: int) -> None:
    if n:
        calls[model] = calls.get(model, 0) + n


def _drift(args: dict[str, Any], target: str, roles: dict[str, list[ModelSpec]],
           calls: dict[str, int]) -> int:  # fmt: skip
    from inspect_stance.drift.chain.relay_prompts import relay_calls_per_hop

    n = _int(args, "limit_propositions", DEFAULT_PROPOSITIONS)
    trials = n * STANCES * _int(args, "trials", 100)
    hops = _int(args, "hops", 1)
    if hops > 1:
        _add(calls, target, trials * (1 + hops))
        relays = [r.model for r in roles.get("relay", [])] or [target]
        per = (hops - 1) * relay_calls_per_hop(str(args.get("relay_operation", "paraphrase")))
        total = per * trials  # relay=A,B alternates models hop by hop: call k to relays[k % R]
        for j, model in enumerate(relays):
            _add(calls, model, total // len(relays) + (1 if j < total % len(relays) else 0))
        return n
    extractions = 5 if args.get("variant") == "multiple_extraction" else 1
    _add(calls, target, trials * ((0 if args.get("arguments_from") else 1) + extractions))
    return n


def _press(args: dict[str, Any], target: str, roles: dict[str, list[ModelSpec]],
           calls: dict[str, int]) -> int:  # fmt: skip
    n = DEFAULT_STATEMENTS
    k = _int(args, "argument_sets", 3)
    personas = 3 if str(args.get("personas", "false")).lower() in ("true", "yes", "on", "1") else 1
    entropy = args.get("entropy_samples", False)
    entropy_n = 20 if entropy is True or str(entropy).lower() == "true" else _int_or0(entropy)
    draws = max(entropy_n, _int(args, "factor_samples", 0))
    responses = n * (3 * k * personas + draws)
    _add(calls, target, responses)
    if not args.get("arguments"):
        arguer = roles.get("arguer")
        _add(calls, arguer[0].model if arguer else target, n * 2 * k)
    if args.get("classifier") == "llm" and roles.get("classifier"):
        _add(calls, roles["classifier"][0].model, responses)
    return n


def _int_or0(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _settings(args: dict[str, Any]) -> int:
    topics = args.get("topics")
    n_topics = DEFAULT_TOPICS if topics is None or "." in str(topics) else _count(topics, 6)
    return n_topics * _count(args.get("intents"), 3) * _count(args.get("stances"), 3)


def _construction(args: dict[str, Any], target: str, roles: dict[str, list[ModelSpec]],
                  calls: dict[str, int]) -> int:  # fmt: skip
    s = _settings(args)
    methods = str(args.get("methods") or "templated,generated")
    per = (_int(args, "templates_per_setting", 10) if "templated" in methods else 0) + (
        _int(args, "prompts_per_setting", 10) if "generated" in methods else 0)  # fmt: skip
    responses = s * per * _int(args, "responses_per_prompt", 1)
    _add(calls, target, responses)
    ratings = _count(args.get("judge_prompt"), 1) + (1 if args.get("reversed_rubric") else 0)
    for judge in roles.get("judges", []):
        _add(calls, judge.model, responses * ratings)
    prompter = roles.get("prompter")
    if "generated" in methods and not args.get("prompts_from"):
        _add(calls, prompter[0].model if prompter else target, s)
    return s


def _validation(args: dict[str, Any], target: str, roles: dict[str, list[ModelSpec]],
                calls: dict[str, int]) -> int:  # fmt: skip
    s = _settings(args)
    sources = _count(args.get("sources"), 3)
    per = 1 + sources * _int(args, "per_source", 2)
    for annotator in roles.get("annotators", []):
        _add(calls, annotator.model, s * per)
    if "generated" in str(args.get("sources") or "generated") and not args.get("prompts_from"):
        _add(calls, target, s)
    return s


def _even(args: dict[str, Any], target: str, roles: dict[str, list[ModelSpec]],
          calls: dict[str, int]) -> int:  # fmt: skip
    n = min(_int(args, "limit", DEFAULT_PAIRS), _matching_pairs(args))
    _add(calls, target, 2 * n)
    orders = 1 if str(args.get("both_orders", True)).lower() in ("false", "no", "off", "0") else 2
    for grader in roles.get("graders", []):  # the pair in each order, refusal and hedging of each
        _add(calls, grader.model, n * (orders + 4))
    return n


_PAIR_FILTERS = ("categories", "topics", "template_categories", "partisan")


def _matching_pairs(args: dict[str, Any]) -> int:
    """The even-handedness pairs matching the filters in ``args`` (all 1,350 without any), so
    a ``limit`` above them is planned as the pairs the task will run."""
    given = {k: args[k] for k in _PAIR_FILTERS if args.get(k) is not None}
    if not given:
        return DEFAULT_PAIRS
    from inspect_stance.even_handedness.data import select_pairs
    from inspect_stance.even_handedness.options import EvenOptions

    o = EvenOptions.parse(**given)
    return len(select_pairs(o.categories, o.topics, o.template_categories, o.partisan))


_COUNTERS = {
    "stance_drift": _drift,
    "press": _press,
    "prompt_construction": _construction,
    "prompt_validation": _validation,
    "even_handedness": _even,
}


def plan_run(target: str, method: str, model: ModelSpec, args: dict[str, Any],
             roles: dict[str, list[ModelSpec]]) -> PlannedRun:  # fmt: skip
    """The :class:`PlannedRun` of ``target``'s ``model`` on ``method`` (module docstring)."""
    run = PlannedRun(target, method, model, 0)
    run.items = _COUNTERS[method](args, model.model, roles, run.calls)
    return run


def plan_calls(spec: StudySpec, sizes: dict[str, dict[str, Any]]) -> list[PlannedRun]:
    """Every run of the study with its calls; ``sizes``: method -> task args to run with."""
    return [
        plan_run(target, method, models[method], sizes[method], spec.roles_for(method))
        for target, models in spec.targets.items()
        for method in spec.methods
    ]


def cost(runs: list[PlannedRun], prices: dict[str, float]) -> float | None:
    """Dollars for the runs at ``prices`` (per call, by model); ``None`` without any price."""
    if not prices:
        return None
    return sum(n * prices.get(model, 0.0) for run in runs for model, n in run.calls.items())
