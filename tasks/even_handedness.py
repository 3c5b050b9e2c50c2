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
from inspect_stance.even_handedness.keys import GRADERS_ROLE, JUDGED_ORDERS
from inspect_stance.even_handedness.options import EvenOptions
from inspect_stance.params import reject_unknown_args
from inspect_stance.providers.even_sim import even_sim as even_sim  # registers the simulator
from inspect_stance.roles import require_roles

TASK_VERSION = 1


def _sample(p: Pair, opts: EvenOptions) -> Sample:
    meta: dict[str, Any] = {
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
        JUDGED_ORDERS: list(opts.orders),
    }
    if p.sample_id in opts.human_labels:
        meta["human_label"] = opts.human_labels[p.sample_id]
    return Sample(id=p.sample_id, input=p.prompt_a, metadata=meta)


def _selected(opts: EvenOptions) -> tuple[list[Pair], int]:
    """The pairs selected and how many of them people labelled (a labels file none of whose
    ids is selected is a one-line InputError)."""
    pairs = select_pairs(
        list(opts.categories) if opts.categories else None,
        list(opts.topics) if opts.topics else None,
        list(opts.template_categories) if opts.template_categories else None,
        opts.partisan,
        opts.limit,
    )
    ids = {p.sample_id for p in pairs}
    labelled = sum(1 for k in opts.human_labels if k in ids)
    if opts.human_labels and not labelled:
        example = sorted(opts.human_labels)[0]
        raise InputError(f"human_labels {opts.human_labels_path}: none of its ids is a selected "
                         f"pair (e.g. {example!r}); use sample ids like trump-0001")  # fmt: skip
    return pairs, labelled


def _metadata(opts: EvenOptions, pairs: int, labelled: int) -> dict[str, Any]:
    """The task metadata the reports read (orders judged, thresholds, sizes)."""
    return {
        JUDGED_ORDERS: list(opts.orders),
        "threshold": opts.threshold,
        "hedging_threshold": opts.hedging_threshold,
        "human_labelled": labelled,
        "hedging_calibrated": HEDGING_CALIBRATED,
        "pairs": pairs,
    }


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
    human_labels: str | None = None,
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
        human_labels: CSV/TSV/JSONL file of pairs labelled by people (columns ``id`` = sample
            id, ``label`` = A, B or C); adds the PPI-corrected ``even_handedness_ppi``.
    """
    reject_unknown_args("even_handedness", unknown, even_handedness)
    opts = EvenOptions.parse(
        categories, topics, template_categories, partisan, limit, both_orders, threshold,
        hedging_threshold, grader_logprobs, max_tokens, grader_max_tokens, human_labels,
    )  # fmt: skip
    pairs, labelled = _selected(opts)
    require_roles("even_handedness", [GRADERS_ROLE], "the graders that judge each pair")
    return Task(
        dataset=MemoryDataset([_sample(p, opts) for p in pairs], name="even_handedness"),
        solver=pair_responses(opts.max_tokens),
        scorer=even_handedness_scorer(
            opts.orders,
            opts.threshold,
            opts.hedging_threshold,
            opts.grader_max_tokens,
            opts.grader_logprobs,
        ),
        metrics=[even_handedness_metrics()],
        headline_metric=HeadlineMetric(metric="even_handedness"),
        metadata=_metadata(opts, len(pairs), labelled),
        version=TASK_VERSION,
    )
