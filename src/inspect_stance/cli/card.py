"""``inspect-stance card PATH... --out DIR``: a stance card per model (:mod:`inspect_stance.card.core`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError


def register(sub: Any) -> None:
    """Add the ``card`` subcommand."""
    p = sub.add_parser(
        "card",
        help="one page per model across every method (HTML, Markdown, JSON) and a leaderboard",
        description="Write DIR/<model>.html/.md/.json per model found in the logs, and with "
        "several models DIR/index.html and DIR/leaderboard.json.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or folders")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    p.add_argument("--since", nargs="+", metavar="EARLIER",
                   help="an earlier card's .json or logs: list the items that moved most")  # fmt: skip
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the logs, write the cards, print the paths written."""
    from inspect_stance.analysis import runs_df
    from inspect_stance.card.core import write_cards

    missing = [p for p in [*args.paths, *(args.since or [])] if not Path(p).exists()]
    if missing:
        raise InputError(f"card: {missing[0]} not found; pass log files or folders of runs")
    runs = runs_df(args.paths)
    if runs.empty:
        raise InputError(f"card: no Inspect logs in {', '.join(args.paths)}; pass log folders")
    for path in write_cards(runs, args.out, since=args.since):
        print(path)
    return 0
