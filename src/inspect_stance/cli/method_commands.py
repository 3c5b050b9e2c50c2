"""Every method's own further subcommands (:attr:`~inspect_stance.study.protocol.Method.commands`,
each a :class:`~inspect_stance.study.protocol.MethodCommand`), built from the registry:
``NAME INPUT... [options]``, the command's ``run`` called with the inputs and the options'
values, its lines printed. Nothing here names a method."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from inspect_stance.cli.method_reports import add_option, print_lines
from inspect_stance.study.protocol import MethodCommand
from inspect_stance.study.registry import methods


def register(subparsers: Any) -> None:
    """Add every registered method's own commands to ``subparsers``."""
    for method in methods():
        for command in method.commands:
            p = subparsers.add_parser(command.name, help=command.help,
                                      description=command.description)  # fmt: skip
            p.add_argument("inputs", nargs="+" if command.many else None,
                           metavar=command.inputs, help=command.inputs_help)  # fmt: skip
            for option in command.options:
                add_option(p, option)
            p.set_defaults(func=_runner(command))


def _runner(command: MethodCommand) -> Callable[[argparse.Namespace], int]:
    """The command function of ``command``: its lines printed, exit 0."""

    def run(args: argparse.Namespace) -> int:
        inputs = args.inputs if command.many else [args.inputs]
        print_lines(command.run(inputs, {o.dest: getattr(args, o.dest) for o in command.options}))
        return 0

    return run
