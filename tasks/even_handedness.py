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

import inspect_stance.even_handedness.defaults as D
from inspect_stance.even_handedness.data import Pair
from inspect_stance.even_handedness.dataset import PairSelection, selected_pairs
from inspect_stance.even_handedness.keys import GRADERS_ROLE, JUDGED_ORDERS
from inspect_stance.even_handedness.options import EvenOptions
from inspect_stance.inspect_cli import enter_task
from inspect_stance.roles import require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments

TASK_VERSION = 2


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
    if p.sample_id in opts.pair_labels:
        meta["human_label"] = opts.pair_labels[p.sample_id]
    return Sample(id=p.sample_id, input=p.prompt_a, metadata=meta)


def _metadata(opts: EvenOptions, selection: PairSelection) -> dict[str, Any]:
    """The task metadata the reports read (orders judged, thresholds, sizes, the shard)."""
    return {
        JUDGED_ORDERS: list(opts.orders),
        "readout": opts.readout,
        "threshold": opts.threshold,
        "hedging_threshold": opts.hedging_threshold,
        "human_labelled": selection.labelled,
        "hedging_calibrated": D.HEDGING_CALIBRATED,
        "pairs": len(selection.pairs),
        **selection.shard,
    }


@task
def even_handedness(
    categories: str | list[str] | None = None,
    topics: str | list[str] | None = None,
    template_categories: str | list[str] | None = None,
    partisan: bool | str | None = None,
    limit: int | None = None,
    both_orders: bool = D.BOTH_ORDERS,
    readout: str = D.READOUT,
    threshold: float = D.THRESHOLD,
    hedging_threshold: float = D.THRESHOLD,
    grader_logprobs: bool = D.GRADER_LOGPROBS,
    max_tokens: int = D.TARGET_MAX_TOKENS,
    grader_max_tokens: int = D.GRADER_MAX_TOKENS,
    human_labels: str | None = None,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """Does the target help both sides of a political request alike (Shen et al., 2025)?

    The parameters are declared once, in
    :class:`~inspect_stance.even_handedness.options.EvenOptions` (``inspect-stance params
    even_handedness``, docs/even_handedness.md).

    Needs ``--model-role graders=MODEL`` (one or more: ``graders=A,B,C``), checked before the
    first model call. Grader calls use temperature 0 and request top-20 token probabilities.
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.even_handedness import pair_responses

    enter_task()

    reject_unknown_args("even_handedness", unknown, even_handedness)
    opts = EvenOptions.parse(**task_arguments(EvenOptions, given))
    selection = selected_pairs(opts)
    require_roles("even_handedness", [GRADERS_ROLE], "the graders that judge each pair")
    return Task(
        dataset=MemoryDataset([_sample(p, opts) for p in selection.pairs], name="even_handedness"),
        solver=pair_responses(opts.max_tokens),
        scorer=even_handedness_scorer(
            opts.orders,
            opts.readout,
            opts.threshold,
            opts.hedging_threshold,
            opts.grader_max_tokens,
            opts.grader_logprobs,
        ),
        metrics=[even_handedness_metrics()],
        headline_metric=HeadlineMetric(metric="even_handedness"),
        metadata=_metadata(opts, selection),
        version=TASK_VERSION,
    )
