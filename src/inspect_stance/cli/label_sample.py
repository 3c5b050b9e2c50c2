"""``inspect-stance label-sample LOG... --n 60 [--seed 1] --out ids.csv``: responses to label.

A stratified random sample (per model x setting x method) of a prompt-construction run's
scale-labelled responses, for the human labels that PPI corrects the judges' lean with
(:mod:`inspect_stance.construction.label_sample`); warnings go to stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from inspect_stance.construction.label_sample import label_sample, write_label_sample
    from inspect_stance.construction.report_records import read_records
    from inspect_stance.errors import InputError
    from inspect_stance.paths import check_out_file
    from inspect_stance.printable import printable

    out = check_out_file(args.out, "--out")  # before any work
    if args.n < 1:
        raise InputError(f"--n {args.n}: ask for at least 1 response to label")
    records, info = read_records(args.logs, args.partial)
    if info.get("skipped"):
        print(printable(f"inspect-stance label-sample: {info['skipped']}"), file=sys.stderr)
    try:
        sample = label_sample(records, args.n, args.seed)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    for warning in sample.warnings:
        print(printable(f"inspect-stance label-sample: warning: {warning}"), file=sys.stderr)
    write_label_sample(sample, str(out))
    print(printable(
        f"wrote {len(sample.rows)} sample ids from {sample.n_strata} strata (model x setting x "
        f"method) to {out}; fill in 'label' (1-5 or refusal) and pass the file to "
        "construction-report --human-labels"
    ))  # fmt: skip
    return 0


def register(subparsers: Any) -> None:
    """Add ``label-sample`` to the ``inspect-stance`` command."""
    parser = subparsers.add_parser(
        "label-sample",
        help="prompt construction: a stratified random sample of responses for human labels",
        description=(
            "Draw --n responses of prompt_construction logs for human labelling, stratified by "
            "model x setting x method (each stratum its share, drawn at random with --seed), "
            "from the responses PPI uses (ensemble label 1-5). Writes a CSV with columns "
            "model,id,setting,method,label (label empty): fill it in and pass it to "
            "construction-report --human-labels. Warns about strata with no eligible response "
            "or fewer than 2 labels."
        ),
    )
    parser.add_argument("logs", nargs="+", help="eval log files or folders of logs")
    parser.add_argument("--n", type=int, required=True, help="responses to draw")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: %(default)s)")
    parser.add_argument("--out", required=True, help="CSV file to write")
    from inspect_stance.shards import PARTIAL_HELP

    parser.add_argument("--partial", action="store_true", help=PARTIAL_HELP)
    parser.set_defaults(func=_run)
