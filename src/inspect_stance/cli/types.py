"""Argument types of the command line (argparse ``type=`` callables)."""

from __future__ import annotations

import argparse


def cli_float(text: str) -> float:
    """A command-line option's number: ``float(text)``; argparse's usage error
    ``'TEXT' is not a number`` otherwise (ranges are checked by the command)."""
    try:
        return float(text)
    except ValueError as ex:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from ex


LABEL_HELP = (
    "name a run (RUN: its path as given or file name); default: the model, then the settings "
    "that differ, or an Inspect tag"
)


def add_label_argument(parser: argparse.ArgumentParser, help: str = LABEL_HELP) -> None:
    """Add ``--label RUN=NAME`` (repeatable) to a report command: the run's name in the report
    and on its ``--html`` page (:func:`inspect_stance.runs.run_names`'s scheme)."""
    parser.add_argument("--label", action="append", metavar="RUN=NAME", help=help)
