"""``inspect-stance params TASK``: a task's ``-T`` parameters, defaults and meanings.

The table is generated from the task's options declaration (as the tables in ``docs/*.md`` are,
see :mod:`inspect_stance.docgen`), so it works from an installed wheel without the docs.
"""

from __future__ import annotations

import argparse

from inspect_stance.docgen import _load, documented_tasks, parameter_table


def task_documents() -> dict[str, tuple[str, str]]:
    """Task name -> (its ``module:function`` spec, the document holding its table)."""
    out: dict[str, tuple[str, str]] = {}
    for doc, specs in documented_tasks().items():
        for spec in specs:
            out[spec.rsplit(":", 1)[1]] = (spec, doc)
    return out


def help_epilog() -> str:
    """The ``inspect-stance --help`` footer: where each task's parameters are listed."""
    lines = ["task parameters (inspect eval TASK -T name=value):"]
    for name, (_, doc) in task_documents().items():
        lines.append(f"  {name:<20} {'inspect-stance params ' + name:<42} or {doc}")
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    spec, doc = task_documents()[args.task]
    print(f"{args.task}: -T parameters (also in {doc})\n")
    print(parameter_table(_load(spec)), end="")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``params`` subcommand."""
    p = sub.add_parser(
        "params",
        help="list a task's -T parameters with their defaults and meanings",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    p.add_argument("task", choices=sorted(task_documents()))
    p.set_defaults(func=_run)
