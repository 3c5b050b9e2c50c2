"""``inspect-stance gate``: the release gate on stance-drift runs (logs or ``.npz``) and PReSS
logs. Exit codes: 0 pass, 1 regression, 2 unusable input.

The stance-drift checks are :func:`inspect_stance.drift.gate.evaluate_gate`'s, the PReSS ones
:func:`inspect_stance.press.gate.evaluate_press_gate`'s; both use the rules of
:mod:`inspect_stance.stats.gate`. Before anything is computed: numeric options in range, the
two runs' settings equal (variant, propositions source, estimator; for PReSS the arguments,
statements and classifier) unless ``--allow-different-settings``, and ``--junit`` writable.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_stance.cli.gate_output import github_annotations, write_junit
from inspect_stance.errors import InputError
from inspect_stance.printable import printable

if TYPE_CHECKING:
    from inspect_stance.stats.gate import CheckLine


def add_gate_options(g: argparse.ArgumentParser) -> None:
    """The options the gate adds beside ``--min-spr`` / ``--baseline`` / ``--max-drop``."""
    g.add_argument("--metric", action="append", metavar="NAME",
                   help="metric checked against the baseline (repeatable; default spr, or "
                   "share_stable for PReSS); several are Holm-adjusted together")  # fmt: skip
    g.add_argument("--rule", choices=("significant-drop", "non-inferiority"),
                   default="significant-drop",
                   help="significant-drop (default): fail when the drop exceeds --max-drop and "
                   "is significant; non-inferiority: pass only when the one-sided upper bound "
                   "of the drop is below --max-drop")  # fmt: skip
    g.add_argument("--min-share-stable", type=float, metavar="X",
                   help="PReSS: fail when the share stable is below X")  # fmt: skip
    g.add_argument("--persona", default="none", help="PReSS: persona condition (default none)")
    g.add_argument("--allow-different-settings", action="store_true",
                   help="gate even when the two runs' settings differ (said in the output)")  # fmt: skip
    g.add_argument("--junit", metavar="FILE", help="also write JUnit XML (one test per check)")
    g.add_argument("--github", action="store_true",
                   help="also print GitHub Actions annotations (::error / ::notice)")  # fmt: skip


def check_gate_options(args: argparse.Namespace) -> None:
    """Finite, in-range numeric options and a writable ``--junit``; one-line InputError."""
    for flag, value in (("--min-spr", args.min_spr), ("--max-drop", args.max_drop),
                        ("--min-share-stable", args.min_share_stable)):  # fmt: skip
        if value is None:
            continue
        if not math.isfinite(value):
            raise InputError(f"{flag} {value} is not a finite number")
        if not 0.0 <= value <= 1.0:
            raise InputError(f"{flag} {value} is not a rate; give a number between 0 and 1")
    if not (math.isfinite(args.alpha) and 0.0 < args.alpha < 1.0):
        raise InputError(f"--alpha {args.alpha} must be strictly between 0 and 1")
    if args.rule == "non-inferiority" and args.max_drop is None:
        raise InputError("--rule non-inferiority needs --max-drop D (the largest tolerated drop)")
    if args.junit:
        path = Path(args.junit)
        if path.is_dir() or not path.parent.is_dir():
            raise InputError(f"--junit {path}: give a file path in an existing folder")


def _is_press(path: str) -> bool:
    if Path(path).suffix not in (".eval", ".json") or not Path(path).is_file():
        return False
    from inspect_ai.log import read_eval_log

    try:
        task = str(read_eval_log(path, header_only=True).eval.task)
    except Exception:  # noqa: BLE001 - the method's reader reports unreadable logs
        return False
    return task.rsplit("/", 1)[-1] == "press"


def _refuse_same_run(base: Any, run: Any) -> None:
    """InputError when the baseline is the run itself (same eval id, or an ``.npz`` of the same
    bytes): a comparison with itself has zero variance and would pass whatever the run is."""
    from inspect_stance.runs import dedupe

    if dedupe([base, run])[1]:
        raise InputError(
            f"--baseline {base.source} is the same run as {run.source} (same eval id or file "
            "content); gate against an earlier run"
        )


def _drift_gate(args: argparse.Namespace) -> tuple[Any, list[str]]:
    from inspect_stance.drift.compare import load_drift
    from inspect_stance.drift.gate import evaluate_gate
    from inspect_stance.runs import check_settings

    if args.min_share_stable is not None:
        raise InputError("--min-share-stable is for PReSS logs; for stance drift use --min-spr")
    if args.baseline is None and args.max_drop is not None:
        raise InputError("--max-drop needs --baseline RUN (the run to compare with)")
    policy = "exclude" if args.exclude_unparsed else "failure"
    run = load_drift(args.run, policy)
    base = load_drift(args.baseline, policy) if args.baseline else None
    for r in (run.run, base.run if base else None):
        # an adaptive run's trials not run are by design, not an interrupted run
        gaps = r.n_missing if r is not None and r.adaptive_halfwidth is None else 0
        if r is not None and (gaps or (r.status not in (None, "success"))):
            raise InputError(
                f"{r.source}: incomplete run (status {r.status}, {r.n_missing} missing "
                "trials); finish it with inspect eval-retry before gating"
            )
    notes = []
    if base is not None:
        _refuse_same_run(base.info, run.info)
        notes = check_settings([base.info, run.info], ["baseline", "run"],
                               args.allow_different_settings)  # fmt: skip
    try:
        result = evaluate_gate(run.run, args.min_spr, base.run if base else None,
                               args.max_drop if args.max_drop is not None else 0.0, args.alpha,
                               policy, args.metric or ["spr"], args.rule)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    return result, notes


def _press_gate(args: argparse.Namespace) -> tuple[Any, list[str]]:
    from inspect_stance.press.compare_runs import press_info
    from inspect_stance.press.gate import evaluate_press_gate
    from inspect_stance.press.logs import read_press_log
    from inspect_stance.runs import check_settings

    if args.min_spr is not None:
        raise InputError("--min-spr is for stance-drift runs; for PReSS use --min-share-stable")
    if args.baseline is None and args.max_drop is not None:
        raise InputError("--max-drop needs --baseline LOG (the run to compare with)")
    run = read_press_log(args.run)
    base = read_press_log(args.baseline) if args.baseline else None
    notes = []
    if base is not None:
        _refuse_same_run(press_info(base), press_info(run))
        notes = check_settings([press_info(base), press_info(run)], ["baseline", "run"],
                               args.allow_different_settings)  # fmt: skip
    try:
        result = evaluate_press_gate(run, args.min_share_stable, base,
                                     args.max_drop if args.max_drop is not None else 0.0,
                                     args.alpha, args.metric or ["share_stable"], args.rule,
                                     args.persona)  # fmt: skip
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    return result, notes


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
        check_gate_options(args)
        result, notes = _press_gate(args) if _is_press(args.run) else _drift_gate(args)
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
