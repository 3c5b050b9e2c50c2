"""Stance-drift subcommands of ``inspect-stance``: ``report`` and ``human-study``.

- ``inspect-stance report PATH... [--out DIR] [--json] [--threshold 0.95] [--confidence 0.99]
  [--exclude-unparsed] [--hops K] [--per-proposition-heatmaps]`` — see
  :mod:`inspect_stance.drift.report`;
- ``inspect-stance human-study FILE [--json]`` — see :mod:`inspect_stance.drift.human_study`;

Unusable input becomes :class:`inspect_stance.errors.InputError` (one line, exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from inspect_stance.cli.types import add_label_argument, cli_float
from inspect_stance.drift.expand import expand_inputs
from inspect_stance.drift.inputs import load_input


def _input_error(message: str) -> Exception:
    from inspect_stance.errors import InputError

    return InputError(message)  # InputError folds the message onto one line


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=2, allow_nan=False)


def _sorted_inputs(args: argparse.Namespace) -> Any:
    """The inputs sorted by method (:func:`inspect_stance.study.sort_inputs`), or None when
    they cannot be sorted (the stance-drift report then says what is wrong with them).
    ``--strict``: one-line InputError for any input set aside."""
    from inspect_stance.errors import InputError as SharedInputError
    from inspect_stance.study import sort_inputs

    try:
        return sort_inputs(args.paths, strict=args.strict)
    except SharedInputError:
        if args.strict:
            raise
        return None


def _check_report_options(args: argparse.Namespace) -> None:
    """``--threshold``, ``--confidence``, ``--hops`` in range and ``--out`` writable."""
    from inspect_stance.drift.report.analysis import MAX_HOPS

    if not 0.0 <= args.threshold <= 1.0:  # NaN fails too
        raise _input_error(
            f"--threshold {args.threshold} is not a success rate; give a number between 0 and 1 "
            "(default 0.95)"
        )
    if not 0.0 < args.confidence < 1.0:
        raise _input_error(f"--confidence {args.confidence} must be strictly between 0 and 1")
    if not 1 <= args.hops <= MAX_HOPS:
        raise _input_error(
            f"--hops {args.hops} must be between 1 and {MAX_HOPS} (the report computes T^k "
            "for every k up to K)"
        )
    if args.out:
        from inspect_stance.paths import check_out_dir

        check_out_dir(args.out)


def cmd_report(args: argparse.Namespace) -> int:
    """``inspect-stance report``: compute, print (or ``--json``), and write ``--out``; inputs
    holding other methods' runs get one report per method under ``--out DIR/<task>/``
    (:mod:`inspect_stance.cli.report`)."""
    from inspect_stance.drift.report.analysis import build_report, unique_names
    from inspect_stance.drift.report.render import run_json, terminal_summary

    found = _sorted_inputs(args)
    names = [m.name for m in found.methods()] if found is not None else []
    if args.json and not args.out and names and names != ["stance_drift"]:
        from inspect_stance.cli.report import report_json  # every method's headline

        print(_dump(report_json(found, args.partial)))
        return 0
    if args.out and names and names != ["stance_drift"]:  # one report per method present
        from inspect_stance.cli.report import report_methods
        from inspect_stance.runs import parse_labels

        return report_methods(found, args.out, parse_labels(args.label), args.partial)
    inputs = list(args.paths)
    if found is not None and names == ["stance_drift"] and found.differing:
        for line in found.differing:  # settings differ, or an adaptive run beside fixed ones
            print(f"inspect-stance report: {line}", file=sys.stderr)
        inputs = [str(p) for p in found.by_method["stance_drift"]]

    _check_report_options(args)
    policy = "exclude" if args.exclude_unparsed else "failure"
    paths, skipped = expand_inputs(inputs)
    if skipped:
        print(f"inspect-stance report: {skipped}", file=sys.stderr)
    from inspect_stance.drift.shards import pool_shards

    # the shards of one study (-T shard=K/N) are one run
    runs = pool_shards([load_input(p, policy) for p in paths], args.partial)
    reports = [build_report(r, args.threshold, args.confidence, policy, args.hops) for r in runs]
    from inspect_stance.provenance import run_provenance, warn_provenance

    warn_provenance(runs, "inspect-stance report")  # a model changed mid-study?
    from inspect_stance.runs import parse_labels

    unique_names(reports, parse_labels(args.label))
    if args.out:
        from inspect_stance.drift.report.write import write_outputs

        written = write_outputs(reports, args.out, args.per_proposition_heatmaps)
    from inspect_stance.drift.chain.report import report_chains

    chain_text, chains = report_chains(paths, policy, args.out)  # logs of -T hops=K runs
    if args.json:
        pairs = zip(reports, runs, strict=True)
        out = [{**run_json(rep), **run_provenance(run)} for rep, run in pairs]
        from inspect_stance.cli.report import run_headlines

        heads = run_headlines([str(p) for p in paths], args.partial)  # read, not recomputed
        if len(heads) == len(out):  # one per run, in the same order (no .npz among them)
            for run_out, head in zip(out, heads, strict=True):
                run_out["headline"] = head["headline"]
        top = {"headline": heads[0]["headline"]} if len(heads) == len(out) == 1 else {}
        print(_dump({**top, "runs": out, **({"chains": chains} if chains else {})}))
    else:
        print(terminal_summary(reports))
        if chain_text:
            print("\n" + chain_text)
        if args.out:
            print(f"\nwrote {len(written)} files to {args.out} (report.md, CSVs, PNGs)")
    return 0


def cmd_human_study(args: argparse.Namespace) -> int:
    """``inspect-stance human-study``: the reference study's human-extraction analysis."""
    from inspect_stance.drift.human_study import analyse_study, load_study, study_text

    try:
        data = load_study(args.file)
    except ValueError as ex:
        raise _input_error(str(ex)) from ex
    result = analyse_study(data)
    print(_dump(result) if args.json else study_text(result))
    return 0


def register(subparsers: Any) -> None:
    """Add ``report`` and ``human-study`` to ``subparsers``."""
    _register_report(subparsers)
    _register_human_study(subparsers)


def _register_report(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "report",
        help="report on runs of any method (logs or folders; stance-drift .npz arrays too)",
        description="Report on runs: stance-drift logs (.eval/.json) or raw .npz arrays with "
        "probs shaped (propositions, trials, 5, 5) give the stance-drift report; with --out "
        "DIR, inputs holding other methods' logs give one report per method in DIR/<task>/ (the "
        "method's own report command: press-report, construction-report, validation-report, "
        "even-handedness-report), and --html FILE one page with a section per method. "
        "A folder's logs that no method reads, repeats, runs of other settings than the rest of "
        "their method and adaptive runs beside fixed ones are set aside with one line each.",
    )
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="stance_drift logs, .npz files, or folders (other tasks' logs in them are skipped)",
    )
    p.add_argument("--out", metavar="DIR", help="write CSVs, report.md and PNG heatmaps here "
                   "(inputs holding other methods' logs: one report per method in DIR/<task>/)")  # fmt: skip
    p.add_argument("--strict", action="store_true",
                   help="refuse inputs holding a log no method reads (a repeat, a run of other "
                   "settings, an adaptive run beside fixed ones) instead of setting it aside")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument(
        "--threshold",
        type=cli_float,
        default=0.95,
        help="success-rate threshold of the pass rate, between 0 and 1 (default 0.95)",
    )
    p.add_argument(
        "--confidence",
        type=cli_float,
        default=0.99,
        help="one-sided confidence level of the upper bounds (default 0.99)",
    )
    p.add_argument(
        "--exclude-unparsed",
        action="store_true",
        help="drop unparsed/missing trials instead of counting them as failures",
    )
    p.add_argument(
        "--hops", type=int, default=1, metavar="K", help="report T^K and SPR after K hops"
    )
    p.add_argument("--partial", action="store_true",
                   help="report an incomplete set of shards (-T shard=K/N) as the shards given")  # fmt: skip
    p.add_argument("--per-proposition-heatmaps", action="store_true",
                   help="with --out, also write one heatmap per proposition")  # fmt: skip
    add_label_argument(p)
    from inspect_stance.cli.html import add_html_argument, with_html

    add_html_argument(p)
    p.set_defaults(func=with_html(cmd_report, "report", "paths"))


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
