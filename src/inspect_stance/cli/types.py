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
