"""``inspect-stance label-sample LOG... --n 60 [--seed 1] --out ids.csv``: responses to label.

A stratified random sample (per model x setting x method) of a prompt-construction run's
scale-labelled responses, for the human labels that PPI corrects the judges' lean with
(:mod:`inspect_stance.construction.label_sample`), declared as a command of the method
(:class:`~inspect_stance.study.protocol.MethodCommand`); warnings go to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.paths import check_out_file
from inspect_stance.printable import printable
from inspect_stance.shards import PARTIAL_HELP
from inspect_stance.study.protocol import MethodCommand, ReportOption


def label_sample_command(inputs: Sequence[str], options: dict[str, Any]) -> list[str]:
    """Draw ``--n`` responses of the logs ``inputs`` and write them to ``--out`` (checked
    before any work); the line saying what was written."""
    from inspect_stance.construction.label_sample import label_sample, write_label_sample
    from inspect_stance.construction.report_records import read_records

    out = check_out_file(options["out"], "--out")  # before any work
    if options["n"] < 1:
        raise InputError(f"--n {options['n']}: ask for at least 1 response to label")
    records, info = read_records(list(inputs), options["partial"])
    if info.get("skipped"):
        print(printable(f"inspect-stance label-sample: {info['skipped']}"), file=sys.stderr)
    try:
        sample = label_sample(records, options["n"], options["seed"])
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    for warning in sample.warnings:
        print(printable(f"inspect-stance label-sample: warning: {warning}"), file=sys.stderr)
    write_label_sample(sample, str(out))
    return [f"wrote {len(sample.rows)} sample ids from {sample.n_strata} strata (model x "
            f"setting x method) to {out}; fill in 'label' (1-5 or refusal) and pass the file "
            "to construction-report --human-labels"]  # fmt: skip


COMMAND = MethodCommand(
    name="label-sample",
    help="prompt construction: a stratified random sample of responses for human labels",
    description=(
        "Draw --n responses of prompt_construction logs for human labelling, stratified by "
        "model x setting x method (each stratum its share, drawn at random with --seed), "
        "from the responses PPI uses (ensemble label 1-5). Writes a CSV with columns "
        "model,id,setting,method,label (label empty): fill it in and pass it to "
        "construction-report --human-labels. Warns about strata with no eligible response "
        "or fewer than 2 labels."
    ),
    inputs="logs",
    inputs_help="eval log files or folders of logs",
    run=label_sample_command,
    many=True,
    options=(
        ReportOption("--n", "responses to draw", kind="integer", required=True),
        ReportOption("--seed", "random seed (default: %(default)s)", 0, "integer"),
        ReportOption("--out", "CSV file to write", required=True),
        ReportOption("--partial", PARTIAL_HELP, kind="flag"),
    ),
)
