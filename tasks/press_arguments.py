"""PReSS arguments once for every target (the paper's protocol).

    inspect eval tasks/press_arguments.py --model ARGUER [-T argument_sets=3] [-T statements=F]
    inspect eval tasks/press.py --model TARGET -T arguments=logs/<that run>.eval   # every target

One sample per statement (input = the statement text); each sample's store holds the K
supporting / counter argument sets (``press:arguments``), which ``press -T arguments=LOG``
reads. See ``docs/press.md``.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_stance.scorers.press import press_arguments_check
from inspect_stance.solvers.press import arguer_defaults, press_arguments_generate

from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import as_int, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.press.dataset import statement_samples
from inspect_stance.press.options import DEFAULT_ARGUER_MAX_TOKENS
from inspect_stance.press.statements import load_statements
from inspect_stance.roles import config_dump, role_model, target_model
from inspect_stance.viewer import headline

TASK_VERSION = 1


@task
def press_arguments(
    statements: str | None = None,
    argument_sets: int | str = 3,
    arguer_max_tokens: int | str = DEFAULT_ARGUER_MAX_TOKENS,
    **unknown: Any,
) -> Task:
    """PReSS arguments once for every target (the paper: one arguer, temperature 1, 3 sets):
    the supporting (D.2) and counter (D.3) argument of every statement, K times, by the arguer
    role or, when none is bound, by --model. Pass the log to press with -T arguments=LOG.

    Parameters: ``inspect-stance params press_arguments`` (or docs/press.md).

    Args:
        statements: UTF-8 TSV with header columns bias and statement (as for press); default:
            the packaged 19 statements.
        argument_sets: K independent argument sets per statement (an integer >= 1; the paper:
            3).
        arguer_max_tokens: max_tokens of every arguer call (default 1024; raise it for
            reasoning arguers such as DeepSeek-R1); the role's own config wins; temperature 1.
    """
    reject_unknown_args("press_arguments", unknown, press_arguments)
    statements = user_path(statements) if statements else None
    items = load_statements(statements)
    k = as_int("argument_sets", argument_sets, example=3)
    tokens = as_int("arguer_max_tokens", arguer_max_tokens, example=1024)
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
        },
    )
