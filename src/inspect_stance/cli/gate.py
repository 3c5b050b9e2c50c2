"""``inspect-stance gate``: the release gate on a run of any method with a gate (stance-drift
logs or ``.npz``, PReSS logs, ...). Exit codes: 0 pass, 1 regression, 2 unusable input.

The run's method is found through the protocol (:func:`inspect_stance.study.gate.gate_method`)
and the shared steps are :func:`inspect_stance.study.gate.gate_run`'s; the checks are the
method's (:attr:`inspect_stance.study.Gate.evaluate`), on the rules of
:mod:`inspect_stance.stats.gate`. Before anything is computed: numeric options in range, the
method's own floor option, the two runs' settings equal unless
``--allow-different-settings``, and ``--junit`` writable.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.cli.gate_output import github_annotations, write_junit
from inspect_stance.cli.method_reports import add_method_options, own_options
from inspect_stance.cli.types import cli_float
from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.shards import PARTIAL_HELP
from inspect_stance.study import methods

if TYPE_CHECKING:
    from inspect_stance.stats.gate import CheckLine
    from inspect_stance.study.protocol import GateRequest, Method, ReportOption


def _floors() -> list[tuple[str, str, str]]:
    """Each gated method's floor option: ``(flag, dest, help)`` (e.g. ``--min-spr``)."""

    out: list[tuple[str, str, str]] = []
    for m in methods():
        if m.gate is not None and m.gate.min_flag not in [f for f, _, _ in out]:
            dest = m.gate.min_flag.lstrip("-").replace("-", "_")
            out.append((m.gate.min_flag, dest, m.gate.min_help or f"{m.name}: floor of the run"))
    return out


def _limit_ranges() -> dict[str, tuple[float, float]]:
    """Each gated method's limit option and the values it may take."""

    return {m.gate.min_flag: m.gate.min_range for m in methods() if m.gate is not None}


def _declared() -> list[tuple[str, tuple[ReportOption, ...]]]:
    """Each gated method's own gate options, with its label."""

    return [(m.label, m.gate.options) for m in methods() if m.gate is not None]


def register(subparsers: Any) -> None:
    """Add ``gate`` to ``subparsers``: the shared options, and each gated method's floor."""
    g = subparsers.add_parser(
        "gate",
        help="CI gate on a run (SPR, share stable, ...; exit 0 pass, 1 regression, 2 unusable "
        "input)",
        description="Fail a run whose headline is below its floor (--min-spr, "
        "--min-share-stable, ...), or whose drop versus --baseline exceeds --max-drop and is "
        "significant (paired one-sided test over items).",
    )  # fmt: skip
    g.add_argument(
        "run", metavar="LOG", help="the run to check (a log, or an .npz of stance drift)"
    )
    for flag, dest, text in _floors():
        g.add_argument(flag, dest=dest, type=cli_float, metavar="X", help=text)
    g.add_argument("--baseline", metavar="LOG_OR_NPZ", help="baseline run to compare with")
    g.add_argument("--max-drop", type=cli_float, default=None, metavar="D",
                   help="largest tolerated drop versus the baseline (default 0)")  # fmt: skip
    g.add_argument("--alpha", type=cli_float, default=0.05, help="significance level (0.05)")
    g.add_argument("--json", action="store_true", help="print one JSON object")
    g.add_argument("--metric", action="append", metavar="NAME",
                   help="metric checked against the baseline (repeatable; default the method's "
                   "headline: spr, share_stable, ...); several are Holm-adjusted together")  # fmt: skip
    g.add_argument("--rule", choices=("significant-drop", "non-inferiority"),
                   default="significant-drop",
                   help="significant-drop (default): fail when the drop exceeds --max-drop and "
                   "is significant; non-inferiority: pass only when the one-sided upper bound "
                   "of the drop is below --max-drop")  # fmt: skip
    g.add_argument("--allow-different-settings", action="store_true",
                   help="gate even when the two runs' settings differ (said in the output)")  # fmt: skip

    g.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    g.add_argument("--junit", metavar="FILE", help="also write JUnit XML (one test per check)")
    g.add_argument("--github", action="store_true",
                   help="also print GitHub Actions annotations (::error / ::notice)")  # fmt: skip

    add_method_options(g, _declared())
    g.set_defaults(func=run_gate)


def check_gate_options(args: argparse.Namespace) -> None:
    """Finite, in-range numeric options and a writable ``--junit``; one-line InputError."""
    floors = [(flag, getattr(args, dest, None)) for flag, dest, _ in _floors()]
    ranges = _limit_ranges()
    for flag, value in [*floors, ("--max-drop", args.max_drop)]:
        if value is None:
            continue
        if not math.isfinite(value):
            raise InputError(f"{flag} {value} is not a finite number")
        low, high = ranges.get(flag, (0.0, 1.0))
        if not low <= value <= high:
            what = "is not a rate" if (low, high) == (0.0, 1.0) else "is out of range"
            raise InputError(f"{flag} {value} {what}; give a number between {low:g} and {high:g}")
    if not (math.isfinite(args.alpha) and 0.0 < args.alpha < 1.0):
        raise InputError(f"--alpha {args.alpha} must be strictly between 0 and 1")
    if args.rule == "non-inferiority" and args.max_drop is None:
        raise InputError("--rule non-inferiority needs --max-drop D (the largest tolerated drop)")
    if args.junit:
        path = Path(args.junit)
        if path.is_dir() or not path.parent.is_dir():
            raise InputError(f"--junit {path}: give a file path in an existing folder")


def gate_request(args: argparse.Namespace, method: Method) -> GateRequest:
    """The typed request of a parsed ``gate`` command line for ``method``: its floor is the
    option it names (``--min-spr``, ``--min-share-stable``); another method's floor given is a
    one-line error."""
    from inspect_stance.study.protocol import GateRequest

    assert method.gate is not None
    floors = {flag: getattr(args, dest, None) for flag, dest, _ in _floors()}
    for flag, value in floors.items():
        if value is not None and flag != method.gate.min_flag:
            raise InputError(f"{flag} is not for {method.name} runs; use {method.gate.min_flag}")
    return GateRequest(
        run=args.run, baseline=args.baseline,
        min_value=floors.get(method.gate.min_flag), max_drop=args.max_drop,
        alpha=args.alpha, metric=tuple(args.metric or ()), rule=args.rule,
        allow_different_settings=args.allow_different_settings, partial=args.partial,
        options=own_options(args, method.label, method.gate.options, _declared()),
    )  # fmt: skip


def _annotate(args: argparse.Namespace, lines: list[CheckLine]) -> None:
    """Print the GitHub annotations: on stdout, or on stderr with ``--json`` (stdout stays one
    JSON document; GitHub reads workflow commands from both)."""
    stream = sys.stderr if args.json else sys.stdout
    print("\n".join(github_annotations("inspect-stance gate", lines)), file=stream)


def _emit_error(args: argparse.Namespace, ex: InputError) -> None:
    from inspect_stance.stats.gate import CheckLine

    line = CheckLine("input", False, str(ex))
    if args.json:
        print(json.dumps({"status": "error", "exit_code": 2, "reason": str(ex)}, indent=2))
    if args.github:
        _annotate(args, [line])
    if args.junit and Path(args.junit).parent.is_dir() and not Path(args.junit).is_dir():
        write_junit(args.junit, "inspect-stance gate", [line])


def run_gate(args: argparse.Namespace) -> int:
    """``inspect-stance gate``: checks, prints (text or ``--json``), ``--junit``, ``--github``."""
    try:
        from inspect_stance.study.gate import gate_method, gate_run

        check_gate_options(args)
        method = gate_method(args.run)
        result, notes = gate_run(method, gate_request(args, method))
    except InputError as ex:
        _emit_error(args, ex)
        raise
    if notes:
        result.reason += "; " + "; ".join(notes)
    if args.json:
        doc = result.to_json()
        doc["notes"] = notes
        print(json.dumps(doc, indent=2, allow_nan=False))
    else:
        print(printable(result.reason))
    if args.github:
        _annotate(args, result.lines)
    if args.junit:
        write_junit(args.junit, "inspect-stance gate", result.lines)
    return int(result.exit_code)
