"""``inspect-stance human-study FILE [--json]``: the reference study's human-extraction
analysis (:mod:`inspect_stance.drift.human_study`). Unusable input is one line, exit 2. (The
stance-drift report is the method's report function, on ``report``:
:mod:`inspect_stance.cli.report`.)"""

from __future__ import annotations

import argparse
import json
from typing import Any

from inspect_stance.errors import InputError


def cmd_human_study(args: argparse.Namespace) -> int:
    """``inspect-stance human-study``: the reference study's human-extraction analysis."""
    from inspect_stance.drift.human_study import analyse_study, load_study, study_text

    try:
        data = load_study(args.file)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    result = analyse_study(data)
    print(json.dumps(result, indent=2, allow_nan=False) if args.json else study_text(result))
    return 0


def register(subparsers: Any) -> None:
    """Add ``human-study`` to ``subparsers``."""
    _register_human_study(subparsers)


def _register_human_study(subparsers: Any) -> None:
    h = subparsers.add_parser(
        "human-study",
        help="human-extraction study: human vs model stance labels of generated arguments",
        description="Analyse a table with initial_stance, rater_* labels (A-E) and optional "
        "ai_votes_A..ai_votes_E counts.",
    )
    h.add_argument("file", metavar="FILE", help=".tsv / .csv study table")
    h.add_argument("--json", action="store_true", help="print one JSON object")
    h.set_defaults(func=cmd_human_study)
