"""``inspect-stance card PATH... --out DIR``: a stance card per model (:mod:`inspect_stance.card.core`)."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from inspect_stance.analysis import SetAsideWarning, runs_df
from inspect_stance.errors import InputError
from inspect_stance.paths import check_out_dir
from inspect_stance.printable import printable
from inspect_stance.task_options import task_names


def register(sub: Any) -> None:
    """Add the ``card`` subcommand."""
    p = sub.add_parser(
        "card",
        help="one page per model across every method (HTML, Markdown, JSON) and a leaderboard",
        description="Write DIR/<model>.html/.md/.json per model found in the logs, and with "
        "several models DIR/index.html and DIR/leaderboard.json. A corrupt or unreadable log is "
        "set aside with one line naming it (--strict: refused).",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files or folders")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    p.add_argument("--since", nargs="+", metavar="EARLIER",
                   help="an earlier card's .json or logs: list the items that moved most")  # fmt: skip
    p.add_argument("--strict", action="store_true",
                   help="refuse a corrupt or unreadable log instead of setting it aside")  # fmt: skip
    p.set_defaults(func=run)


def check_since(values: list[str]) -> None:
    """Each ``--since`` value an earlier card's ``.json`` (with ``methods``) or a log file or
    folder: a one-line ``InputError`` naming the first that is neither, before any work."""
    import json

    for value in values:
        path = Path(value)
        if path.is_dir() or path.suffix == ".eval":
            continue
        if not path.exists():
            raise InputError(f"--since {printable(value)}: no such file or folder; pass an "
                             "earlier card's <target>.json or its logs")  # fmt: skip
        if path.suffix != ".json":
            raise InputError(f"--since {printable(value)}: not a card's .json or an Inspect log; "
                             "pass an earlier card's <target>.json or its logs")  # fmt: skip
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as ex:
            why = ex.strerror if isinstance(ex, OSError) and ex.strerror else "not JSON"
            raise InputError(f"--since {printable(value)}: not readable JSON ({why}); pass an "
                             "earlier card's .json") from None  # fmt: skip
        if isinstance(data, dict) and "eval" in data:  # an Inspect .json log
            continue
        methods = data.get("methods") if isinstance(data, dict) else None
        if not isinstance(methods, dict) or not all(
            isinstance(e, dict) and isinstance(e.get("log"), str) for e in methods.values()
        ):
            raise InputError(f"--since {printable(value)}: not a stance card (no methods with "
                             "their logs); pass an earlier card's <target>.json")  # fmt: skip


def _without_foreign(runs: Any, strict: bool) -> Any:
    """``runs`` without the runs of tasks that have no card (not one of the package's tasks), each
    set aside in one line naming its log (``strict``: refused)."""

    if runs.empty:
        return runs
    method = runs["method"].astype(str).str.rsplit("/", n=1).str[-1]
    foreign = ~method.isin(list(task_names()))
    for log, task in zip(runs.loc[foreign, "log"], runs.loc[foreign, "task_name"], strict=True):
        what = f"{str(log).removeprefix('file://')}: a log of task {task!r}, which has no card"
        if strict:
            raise InputError(printable(f"card: {what}; pass only inspect-stance runs"))
        print(printable(f"inspect-stance card: set aside {what}"), file=sys.stderr)
    return runs[~foreign]


def run(args: argparse.Namespace) -> int:
    """Check the paths and outputs, read the logs (setting aside unreadable ones), write the
    cards, print the paths written."""
    from inspect_stance.card.core import write_cards

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise InputError(f"card: {printable(missing[0])} not found; pass log files or folders "
                         "of runs")  # fmt: skip
    out = check_out_dir(args.out, "--out")
    check_since(list(args.since or []))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SetAsideWarning)
        runs = runs_df(args.paths, strict=args.strict)
    for w in caught:
        if issubclass(w.category, SetAsideWarning):
            print(f"inspect-stance card: {w.message}", file=sys.stderr)
    runs = _without_foreign(runs, args.strict)
    if runs.empty:
        raise InputError(f"card: no readable Inspect logs in {printable(', '.join(args.paths))}; "
                         "pass log folders")  # fmt: skip
    try:
        written = write_cards(runs, out, since=args.since)
    except OSError as ex:
        raise InputError(f"card: cannot write to --out {printable(str(out))} "
                         f"({ex.strerror or type(ex).__name__}); give a writable folder") from None  # fmt: skip
    for path in written:
        print(printable(str(path)))
    return 0
