"""The ``inspect-stance`` console command.

Every subcommand lives in a module of this package (``inspect_stance.cli.report``,
``inspect_stance.cli.compare``, ``inspect_stance.cli.card`` ...); every module exposes
``register(subparsers)`` that adds parsers whose ``func(args) -> int`` returns the exit code.

Exit codes: 0 success / pass, 1 a gate failed (regression), 2 unusable input or any other
error (one line on stderr; ``INSPECT_STANCE_DEBUG=1`` re-raises with a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# unusable input (exit 2, its one-line message on stderr) is the package's one error class, so
# an error raised anywhere below a subcommand needs no conversion
from inspect_stance.errors import InputError, internal_error_text
from inspect_stance.printable import printable

SUBCOMMAND_MODULES: tuple[str, ...] = (
    "inspect_stance.cli.report",  # every method's logs; the registered methods' report options
    "inspect_stance.cli.gate",
    "inspect_stance.cli.plan",
    "inspect_stance.cli.compare",
    "inspect_stance.cli.params",
    "inspect_stance.cli.card",
    "inspect_stance.cli.study",
    "inspect_stance.cli.shard",
    "inspect_stance.cli.method_reports",  # each method's own report command (an alias)
    "inspect_stance.cli.method_commands",  # each method's own further commands
)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every method's subcommands registered."""
    parser = argparse.ArgumentParser(
        prog="inspect-stance",
        description="Reports, gates and studies for inspect-stance evaluation logs.",
        epilog=importlib.import_module("inspect_stance.cli.params").help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as ex:
        print(printable(f"inspect-stance {args.command}: error: {ex}"), file=sys.stderr)
        return 2
    except Exception as ex:  # never exit 1 (= "regression" for the gate) on an unexpected error
        if os.environ.get("INSPECT_STANCE_DEBUG"):
            raise
        if isinstance(ex, OSError) and ex.strerror:  # a path the checks did not foresee
            where = f"{ex.filename}: " if ex.filename else ""
            print(printable(f"inspect-stance {args.command}: error: {where}{ex.strerror}; "
                            "check the path and its permissions"), file=sys.stderr)  # fmt: skip
            return 2
        print(printable(internal_error_text(args.command, ex)), file=sys.stderr)
        return 2
