"""``inspect-stance compare RUN...``: paired comparisons of runs of one method.

Inputs are logs of one method (``stance_drift``, ``press``, ``prompt_construction`` or
``prompt_validation``; any registered method with a comparer), or ``.npz`` runs for stance drift; a folder contributes its method's logs (``--method`` picks one
when a folder holds several methods' logs). The method is found and asked for its comparison
through the method protocol (:mod:`inspect_stance.study`). See ``docs/comparing_models.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from inspect_stance.cli.html import add_html_argument, with_html
from inspect_stance.cli.method_reports import add_method_options, own_options
from inspect_stance.cli.types import cli_float
from inspect_stance.errors import InputError
from inspect_stance.paths import check_out_dir
from inspect_stance.printable import printable, printable_lines
from inspect_stance.shards import PARTIAL_HELP
from inspect_stance.stats.multiplicity import ADJUST_HELP, ADJUSTMENTS
from inspect_stance.study import method_named, methods, sort_inputs

if TYPE_CHECKING:
    from inspect_stance.study.protocol import CompareRequest, Method


def _comparable() -> list[Any]:

    return [m for m in methods() if m.comparer is not None]


def detect_method(paths: list[str], method: str) -> str:
    """The method of the inputs: ``--method``, else the one method whose runs the files and
    folders hold (sorted by :func:`inspect_stance.study.sort_inputs`)."""
    if method != "auto":
        return method

    comparable = {m.name for m in _comparable()}
    found: list[str] = []
    for path in paths:  # one input at a time: the method's reader reports a bad one
        try:
            methods = sort_inputs([path]).methods()
        except InputError:
            continue
        found += [m.name for m in methods if m.name in comparable and m.name not in found]
    if not found:
        tasks = ", ".join(t for m in _comparable() for t in m.tasks)
        raise InputError(f"no run of {tasks} found in {', '.join(paths)}; pass their .eval "
                         "logs (or .npz runs for stance drift)")  # fmt: skip
    if len(found) > 1:
        raise InputError(
            f"the inputs hold runs of several methods ({', '.join(sorted(found))}); pass one "
            "method's runs or choose with --method"
        )
    return found[0]


def check_options(args: argparse.Namespace) -> None:
    """Range checks of the numeric options, and of ``--out``; one-line InputError each."""
    for flag, value in (("--confidence", args.confidence), ("--alpha", args.alpha)):
        if not (math.isfinite(value) and 0.0 < value < 1.0):
            raise InputError(f"{flag} {value} must be strictly between 0 and 1")
    if args.out:
        check_out_dir(args.out, "--out")


def zero_spread_notes(comparisons: Any) -> list[str]:
    """A note per comparison whose interval has zero width (every item's difference the same):
    its p and interval are exact, not estimated; the runs may be repeats of one deterministic
    model."""
    out = []
    for c in comparisons:
        low, high = c.ci
        if math.isfinite(low) and math.isfinite(high) and high - low <= 1e-9:
            out.append(f"{c.metric} {c.run_a} vs {c.run_b}: every item's difference is "
                       f"{c.delta:.3f} (zero variance), so its interval and p are exact; check "
                       "that the runs are not repeats of one deterministic run")  # fmt: skip
    return out


def compare_request(args: argparse.Namespace, method: Method) -> CompareRequest:
    """The typed request of a parsed ``compare`` command line for ``method`` (with the values of
    its own compare options)."""
    from inspect_stance.study.protocol import CompareRequest

    own = method.comparer.options if method.comparer else ()
    declared = [(m.label, m.comparer.options) for m in _comparable()]
    return CompareRequest(
        paths=tuple(args.paths), label=tuple(args.label or ()), metric=tuple(args.metric or ()),
        confidence=args.confidence, interval=args.interval, adjust=args.adjust, alpha=args.alpha,
        allow_different_settings=args.allow_different_settings,
        partial=getattr(args, "partial", False),
        options=own_options(args, method.label, own, declared),
    )  # fmt: skip


def cmd_compare(args: argparse.Namespace) -> int:
    """Compute, print (table or ``--json``), and write ``--out``."""
    from inspect_stance.cli.compare_render import terminal_table, to_json, write_outputs
    from inspect_stance.study.compare import compare_runs

    check_options(args)
    method = method_named(detect_method(args.paths, args.method))
    result, sections, input_lines = compare_runs(method, compare_request(args, method))
    result.notes += zero_spread_notes(result.comparisons)
    for line in input_lines:
        print(printable(f"inspect-stance compare: {line}"), file=sys.stderr)
    written = write_outputs(result, args.out, sections) if args.out else []
    if args.out:  # the items that moved most, item by item (card/moved.py), in comparison.md
        from inspect_stance.card.moved import moved_report

        moved = moved_report(args.paths, method.name, [str(r.get("name")) for r in result.runs])
        with open(f"{args.out}/comparison.md", "a", encoding="utf-8") as md:
            md.write(f"\n{moved}" if moved else "")
    if args.json:
        print(json.dumps(to_json(result, sections), indent=2, allow_nan=False))
    else:
        print(printable_lines(terminal_table(result, sections)))
        if written:
            print(f"\nwrote {', '.join(p.name for p in written)} to {args.out}")
    return 0


def register(subparsers: Any) -> None:
    """Add ``compare`` to ``subparsers``."""
    c = subparsers.add_parser(
        "compare",
        help="paired comparison of runs of one method (deltas, intervals, adjusted p, ranks)",
        description="Compare runs of one method ("
        + ", ".join(f"{m.tasks[0]} logs{' or .npz' if m.npz else ''}" for m in _comparable())
        + ") item by item: deltas (b - a) with clustered intervals, p-values adjusted over the "
        "family, rank probabilities and tied groups.",
    )
    c.add_argument("paths", nargs="+", metavar="RUN", help="logs, .npz runs or folders")
    methods = ("auto", *(name for m in _comparable() for name in (m.name, *m.aliases)))
    c.add_argument("--method", choices=methods, default="auto", help="method of the runs")
    c.add_argument("--label", action="append", metavar="RUN=NAME", help="name a run")
    c.add_argument("--metric", action="append", metavar="NAME", help="compare only these")

    c.add_argument("--adjust", choices=ADJUSTMENTS, default="holm", help=ADJUST_HELP)
    c.add_argument("--alpha", type=cli_float, default=0.05, help="level of the tied groups")
    c.add_argument("--confidence", type=cli_float, default=0.95, help="interval level (0.95)")
    c.add_argument("--interval", choices=("auto", "t", "bootstrap"), default="auto",
                   help="paired t over items, cluster bootstrap, or auto (default)")  # fmt: skip
    c.add_argument("--allow-different-settings", action="store_true",
                   help="compare runs whose settings differ (said in the output)")  # fmt: skip

    add_method_options(c, [(m.label, m.comparer.options) for m in _comparable()])

    c.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.add_argument("--out", metavar="DIR", help="write comparisons.csv, comparison.md, "
                   "forest.png and the method's own tables as CSV")  # fmt: skip

    add_html_argument(c)
    c.set_defaults(func=with_html(cmd_compare, "compare", "paths"))
