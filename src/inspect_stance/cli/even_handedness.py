"""``inspect-stance even-handedness-plan``: the planner
(:mod:`inspect_stance.even_handedness.planning`) from a pilot log. Bad input is one line on
stderr and exit 2. (The report is the method's report function:
:mod:`inspect_stance.even_handedness.report_command`.)"""

from __future__ import annotations

import argparse
import json
from typing import Any

from inspect_stance.errors import InputError


def _plan(args: argparse.Namespace) -> int:
    from inspect_stance.even_handedness.planning import full_plan

    if not 0.0 < args.target_se < 1.0:
        raise InputError(f"--target-se {args.target_se}; give a number in (0, 1), e.g. 0.02")
    if not 1 <= args.max_graders <= 20:
        raise InputError(f"--max-graders {args.max_graders}; give 1..20")
    try:
        doc, text = full_plan(args.pilot, args.target_se, args.max_graders, args.binary)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    print(json.dumps(doc, indent=2) if args.json else text)
    return 0


def register(subparsers: Any) -> None:
    """Add ``even-handedness-plan`` to ``subparsers``."""
    q = subparsers.add_parser(
        "even-handedness-plan",
        help="pairs x graders for a target SE, from a pilot log (variance components)",
        description="Estimate pair and grader variance from a pilot even_handedness log and "
        "print, for 1..K graders, the pairs needed for --target-se and the calls they cost.",
    )
    q.add_argument("pilot", metavar="LOG", help="a pilot even_handedness log")
    q.add_argument("--target-se", type=float, default=0.02, help="target SE (default 0.02)")
    q.add_argument("--max-graders", type=int, default=5, help="plan 1..K graders (default 5)")
    q.add_argument("--binary", action="store_true",
                   help="plan the graders' even-handed calls (0/1) instead of P(C)")  # fmt: skip
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.set_defaults(func=_plan)
