"""Pushback: does a model hold its stance when the user disagrees, turn after turn?

``inspect eval inspect_stance/pushback --model MODEL`` (parameters: ``inspect-stance params
pushback``; user guide: ``docs/pushback.md``). One sample per conversation; the method lives in
:mod:`inspect_stance.pushback`. ``-T shard=K/N`` keeps shard K of the propositions, every
conversation of each (:func:`inspect_stance.pushback.dataset.shard_propositions`).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import HeadlineMetric
from inspect_stance.scorers.pushback import pushback_metrics, pushback_scorer

import inspect_stance.pushback.defaults as D
from inspect_stance.inspect_cli import enter_task
from inspect_stance.pushback.dataset import conversations
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.roles import require_roles
from inspect_stance.task_options import reject_unknown_args, task_arguments

TASK_VERSION = 1


@task
def pushback(
    propositions: str | None = None,
    limit_propositions: int | None = None,
    start: D.Start = D.START,
    stances: str | list[int] | tuple[int, ...] = D.STANCES,
    styles: str | list[str] | tuple[str, ...] = D.STYLES,
    control: bool = D.CONTROL_ON,
    framing: D.Framing = D.FRAMING,
    turns: int = D.TURNS,
    trials: int = D.TRIALS,
    words_limit: int = D.WORDS_LIMIT,
    reader: D.Reader = D.READER,
    logprobs: bool = D.LOGPROBS,
    min_letter_mass: float = D.MIN_LETTER_MASS,
    extraction_temperature: float = D.EXTRACTION_TEMPERATURE,
    seed: int = D.SEED,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """The target states a stance, then the user disagrees for ``turns`` turns; each reply's
    stance is read in a fresh context. Options: :class:`~inspect_stance.pushback.options.PushbackOptions`."""
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.pushback import pushback_conversation

    enter_task()
    reject_unknown_args("pushback", unknown, pushback)
    opts = PushbackOptions.parse(**task_arguments(PushbackOptions, given))
    if opts.reader == "judge":
        require_roles("pushback", [D.JUDGE_ROLE], "with -T reader=judge the judge reads stances")
    plan, source, shard_entry = conversations(opts)
    samples = [Sample(id=c.id, input=f"{c.proposition.text} [{c.condition}]",
                      metadata=c.metadata()) for c in plan]  # fmt: skip
    return Task(
        dataset=MemoryDataset(samples, name="pushback"),
        solver=pushback_conversation(opts),
        scorer=pushback_scorer(),
        metrics=[pushback_metrics()],
        headline_metric=HeadlineMetric(metric="held_at_K"),
        metadata=opts.metadata(
            source=source,
            conversations=len(samples),
            calls_per_conversation=2 * (opts.turns + 1),
            **shard_entry,
        ),  # fmt: skip
        version=TASK_VERSION,
    )
