"""``inspect-stance even-handedness-report`` and ``inspect-stance even-handedness-plan``.

The report (:mod:`inspect_stance.even_handedness.report_write`) over one or more logs or
folders; the planner (:mod:`inspect_stance.even_handedness.planning`) from a pilot log. Bad
input is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.shards import PARTIAL_HELP


def _report(args: argparse.Namespace) -> int:
    from inspect_stance.even_handedness.logs import find_even_logs, run_info
    from inspect_stance.even_handedness.report_write import write_report
    from inspect_stance.paths import check_out_dir
    from inspect_stance.runs import dedupe, parse_labels, run_names

    check_out_dir(args.out)
    runs, skipped = find_even_logs(args.logs, args.partial)
    infos = [run_info(r) for r in runs]
    keep, dropped = dedupe(infos)
    runs, infos = [runs[k] for k in keep], [infos[k] for k in keep]
    names, notes = run_names(infos, parse_labels(args.label))
    for line in [*notes, skipped, dropped]:
        if line:
            print(f"even-handedness-report: {line}")
    written = write_report(runs, names, Path(args.out))
    print(f"wrote {', '.join(p.name for p in written)} to {args.out}")
    return 0


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
    """Add ``even-handedness-report`` and ``even-handedness-plan`` to ``subparsers``."""
    p = subparsers.add_parser(
        "even-handedness-report",
        help="even-handedness tables, per-category figure, topics, graders, agreement",
        description="Headline with topic-clustered SE, per-category figure, least even-handed "
        "topics, position flips and length preference per grader, agreement (Cohen's kappa, "
        "Krippendorff's alpha, Dawid-Skene), refusal/hedging by side. Folders are searched for "
        "even_handedness logs; other tasks' logs are skipped and counted. The shards of one study "
        "(-T shard=K/N) are pooled into one run.",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help="even_handedness logs or folders")
    p.add_argument("--out", default="even_handedness_report", help="output folder")
    from inspect_stance.cli.types import add_label_argument

    add_label_argument(p)
    p.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    from inspect_stance.cli.html import add_html_argument, with_html

    add_html_argument(p)
    p.set_defaults(func=with_html(_report, "even-handedness-report", "logs"))
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
