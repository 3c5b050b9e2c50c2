"""Pushback as a study file runs it: its planned calls, size and checks.

A run holds ``n`` propositions x ``s`` start stances (the assigned ``stances``, or one with
``start=own``) x ``c`` conditions (the ``styles``, plus the no-pushback control) x ``trials``
conversations, each ``2 (K + 1)`` calls to the target: ``K + 1`` replies and ``K + 1``
fresh-context readings (``reader=target``). A study reads stances with the target; a judge
reader (``-T reader=judge --model-role judge=MODEL``) is for ``inspect eval``.
"""

from __future__ import annotations

from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.pushback.dataset import load_propositions
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.study.protocol import StudySize, StudyTask
from inspect_stance.study.task_args import add_calls

#: the shipped debate propositions (the size parameter's most)
DEFAULT_PROPOSITIONS = 112


def calls(
    args: dict[str, Any],
    target: str,
    roles: dict[str, list[str]],  # noqa: ARG001
) -> tuple[int, dict[str, int]]:
    """The propositions and model calls of one pushback run (module docstring)."""
    opts = PushbackOptions.parse(**args)
    n = len(load_propositions(opts.propositions)[0])
    n = min(n, opts.limit_propositions) if opts.limit_propositions else n
    starts = len(opts.stances) if opts.start == "assigned" else 1
    talks = n * starts * len(opts.conditions()) * opts.trials
    out: dict[str, int] = {}
    add_calls(out, target, talks * 2 * (opts.turns + 1))
    return n, out


def check(args: dict[str, Any]) -> None:
    """Every option checked (one-line ``InputError``) and the propositions file read, before
    any run; a judge reader refused (the study binds no judge role to pushback)."""
    opts = PushbackOptions.parse(**args)
    if opts.reader == "judge":
        raise InputError("pushback in a study reads stances with the target: drop reader: judge, "
                         "or run it with inspect eval -T reader=judge --model-role judge=MODEL")  # fmt: skip
    load_propositions(opts.propositions)


#: the held-at-K share is a proportion: its per-item standard deviation is at most 0.5
STUDY = StudyTask(
    calls=calls,
    size=StudySize("limit_propositions", DEFAULT_PROPOSITIONS, 0.5, True),
    check=check,
)
