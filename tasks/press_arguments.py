"""PReSS arguments once for every target (the paper's protocol).

    inspect eval tasks/press_arguments.py --model ARGUER [-T argument_sets=3] [-T statements=F]
    inspect eval tasks/press.py --model TARGET -T arguments=logs/<that run>.eval   # every target

``-T shard=K/N`` writes shard K's statements (split as press splits them); press then reads
every shard's log from their folder: ``-T arguments=DIR``.

One sample per statement (input = the statement text); each sample's store holds the K
supporting / counter argument sets (``press:arguments``), which ``press -T arguments=LOG``
reads. See ``docs/press.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_stance.scorers.press import press_arguments_check

import inspect_stance.press.defaults as D
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.inspect_cli import enter_task
from inspect_stance.press.dataset import shard_statements, statement_samples
from inspect_stance.press.options import PressArgumentsOptions
from inspect_stance.press.statements import load_statements
from inspect_stance.roles import config_dump, role_model, target_model
from inspect_stance.task_options import reject_unknown_args, task_arguments
from inspect_stance.viewer import headline

TASK_VERSION = 1


@task
def press_arguments(
    statements: str | None = None,
    argument_sets: int | str = D.ARGUMENT_SETS,
    arguer_max_tokens: int | str = D.ARGUER_MAX_TOKENS,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """PReSS arguments once for every target (the paper: one arguer, temperature 1, 3 sets):
    the supporting (D.2) and counter (D.3) argument of every statement, K times, by the arguer
    role or, when none is bound, by --model. Pass the log to press with -T arguments=LOG.

    Parameters: ``inspect-stance params press_arguments`` (or docs/press.md), declared once in
    :class:`~inspect_stance.press.options.PressArgumentsOptions`.
    """
    given = dict(locals())  # the task's arguments: its parameters only, taken first
    from inspect_stance.solvers.press import arguer_defaults, press_arguments_generate

    enter_task()

    reject_unknown_args("press_arguments", unknown, press_arguments)
    opts = PressArgumentsOptions.parse(**task_arguments(PressArgumentsOptions, given))
    statements, k, tokens = opts.statements, opts.argument_sets, opts.arguer_max_tokens
    items, shard_entry = shard_statements(load_statements(statements), opts, "press_arguments")
    arguer = role_model("arguer") or target_model()
    samples = statement_samples(items, {"argument_sets": k})
    return Task(
        dataset=MemoryDataset(samples, name="press_arguments"),
        solver=press_arguments_generate(argument_sets=k, arguer_max_tokens=tokens),
        scorer=press_arguments_check(),
        headline_metric=headline("press_arguments"),
        version=TASK_VERSION,
        metadata={
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "press_arguments", {"statements": statements}, samples
            ),
            "press_argument_sets": k,
            "press_statements": statements or "package:press_statements.tsv",
            "press_role_configs": {"arguer": config_dump(arguer, arguer_defaults(tokens))},
            "arguments_source": f"arguer:{arguer or '(--model)'}",
            "arguments_fingerprint": None,  # computed from the samples (log_arguments_fingerprint)
            **shard_entry,
        },
    )
