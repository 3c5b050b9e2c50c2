"""Paired-prompts political even-handedness, judged in both orders by one or more graders.

    inspect eval tasks/even_handedness.py --model TARGET --model-role graders=A,B,C

One sample per pair of the packaged set (1,350 pairs, CC BY 4.0), id ``{topic}-{index}``. The
method lives in :mod:`inspect_stance.even_handedness`, the user guide in
``docs/even_handedness.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import HeadlineMetric
from inspect_stance.scorers.even_handedness import even_handedness_metrics, even_handedness_scorer
from inspect_stance.solvers.even_handedness import pair_responses

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.data import Pair, select_pairs
from inspect_stance.even_handedness.defaults import (
    GRADER_MAX_TOKENS,
    HEDGING_CALIBRATED,
    TARGET_MAX_TOKENS,
    THRESHOLD,
)
from inspect_stance.even_handedness.keys import (
    BOTH_ORDERS,
    GRADERS_ROLE,
    JUDGED_ORDERS,
    PUBLISHED_ORDER,
)
from inspect_stance.params import as_bool, as_int, parse_float, reject_unknown_args
from inspect_stance.providers.even_sim import even_sim as even_sim  # registers the simulator
from inspect_stance.roles import require_roles

TASK_VERSION = 1


def _names(name: str, value: str | list[str] | None) -> list[str] | None:
    if value is None or value == "":
        return None
    items = value if isinstance(value, list) else str(value).split(",")
    out = [str(v).strip() for v in items if str(v).strip()]
    if not out:
        raise InputError(f"{name} is empty; give comma-separated names or omit it")
    return out


def _unit(name: str, value: object) -> float:
    x = parse_float(value)
    if x is None or not 0.0 < x < 1.0:
        raise InputError(f"{name} {value!r}; use a number in (0, 1), e.g. -T {name}=0.5")
    return x


def _sample(p: Pair, orders: tuple[str, ...]) -> Sample:
    meta = {
        "index": p.index,
        "prompt_a": p.prompt_a,
        "prompt_b": p.prompt_b,
        "prompt_a_group": p.prompt_a_group,
        "prompt_b_group": p.prompt_b_group,
        "topic_name": p.topic_name,
        "main_category": p.main_category,
        "template_category": p.template_category,
        "template": p.template,
        "partisan": p.partisan,
        JUDGED_ORDERS: list(orders),
    }
    return Sample(id=p.sample_id, input=p.prompt_a, metadata=meta)


@task
def even_handedness(
    categories: str | list[str] | None = None,
    topics: str | list[str] | None = None,
    template_categories: str | list[str] | None = None,
    partisan: bool | str | None = None,
    limit: int | None = None,
    both_orders: bool = True,
    threshold: float = THRESHOLD,
    hedging_threshold: float = THRESHOLD,
    grader_logprobs: bool = True,
    max_tokens: int = TARGET_MAX_TOKENS,
    grader_max_tokens: int = GRADER_MAX_TOKENS,
    **unknown: Any,
) -> Task:
    """Does the target help both sides of a political request alike (Shen et al., 2025)?

    Parameters: ``inspect-stance params even_handedness`` (or docs/even_handedness.md).

    Needs ``--model-role graders=MODEL`` (one or more: ``graders=A,B,C``), checked before the
    first model call. Grader calls use temperature 0 and request top-20 token probabilities.

    Args:
        categories: Comma-separated main categories (e.g. ``POLITICAL_FIGURES_AND_PARTIES``);
            default all.
        topics: Comma-separated topic names (e.g. ``trump``); default all.
        template_categories: Comma-separated template categories (``reasoning``,
            ``formal_writing``, ``narratives``, ``analysis``, ``question_opinion``,
            ``question_analytical``, ``humor``); default all.
        partisan: Only partisan (true) or non-partisan (false) pairs; default both.
        limit: The first N matching pairs; default all 1,350.
        both_orders: Judge each pair with prompt_a shown first and again with prompt_b shown
            first, labels mapped back (default true); false is the published single order.
        threshold: Probability at which P(C), P(refusal) and P(hedging) count as yes (the
            published 0.5).
        hedging_threshold: The hedging threshold: 0.5 (published) or 0.1 (the published
            calibration for graders read from token probabilities).
        grader_logprobs: Ask graders for token probabilities and read P(option) from them
            where returned (default true); otherwise the parsed answer counts as probability 1.
        max_tokens: Target response limit per prompt. Default 1024.
        grader_max_tokens: Grader answer limit. Default 64.
    """
    reject_unknown_args("even_handedness", unknown, even_handedness)
    part = None if partisan is None or partisan == "" else as_bool("partisan", partisan)
    n = None if limit is None else as_int("limit", limit)
    pairs = select_pairs(
        _names("categories", categories),
        _names("topics", topics),
        _names("template_categories", template_categories),
        part,
        n,
    )
    orders = BOTH_ORDERS if as_bool("both_orders", both_orders) else PUBLISHED_ORDER
    thr, hthr = _unit("threshold", threshold), _unit("hedging_threshold", hedging_threshold)
    require_roles("even_handedness", [GRADERS_ROLE], "the graders that judge each pair")
    return Task(
        dataset=MemoryDataset([_sample(p, orders) for p in pairs], name="even_handedness"),
        solver=pair_responses(as_int("max_tokens", max_tokens)),
        scorer=even_handedness_scorer(
            orders,
            thr,
            hthr,
            as_int("grader_max_tokens", grader_max_tokens),
            as_bool("grader_logprobs", grader_logprobs),
        ),  # fmt: skip
        metrics=[even_handedness_metrics()],
        headline_metric=HeadlineMetric(metric="even_handedness"),
        metadata={
            JUDGED_ORDERS: list(orders),
            "threshold": thr,
            "hedging_threshold": hthr,
            "hedging_calibrated": HEDGING_CALIBRATED,
            "pairs": len(pairs),
        },
        version=TASK_VERSION,
    )
