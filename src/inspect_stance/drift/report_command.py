"""The stance-drift report as its method declares it: the function ``report`` calls for
stance-drift runs (:func:`report`) and the options it adds to ``report`` (:data:`COMMAND`):
``--threshold``, ``--confidence``, ``--exclude-unparsed``, ``--hops K``,
``--per-proposition-heatmaps``. Without ``--out`` it prints only."""

from __future__ import annotations

import json
import sys
from typing import Any

from inspect_stance.drift.command_options import EXCLUDE_UNPARSED
from inspect_stance.errors import InputError
from inspect_stance.study.protocol import ReportCommand, ReportOption, ReportRequest


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=2, allow_nan=False)


def check_options(options: dict[str, Any], out: str) -> None:
    """``threshold``, ``confidence``, ``hops`` in range and ``out`` (if any) writable; one-line
    InputError otherwise."""
    from inspect_stance.drift.report.analysis import MAX_HOPS

    threshold, confidence, hops = options["threshold"], options["confidence"], options["hops"]
    if not 0.0 <= threshold <= 1.0:  # NaN fails too
        raise InputError(f"--threshold {threshold} is not a success rate; give a number between "
                         "0 and 1 (default 0.95)")  # fmt: skip
    if not 0.0 < confidence < 1.0:
        raise InputError(f"--confidence {confidence} must be strictly between 0 and 1")
    if not 1 <= hops <= MAX_HOPS:
        raise InputError(f"--hops {hops} must be between 1 and {MAX_HOPS} (the report computes "
                         "T^k for every k up to K)")  # fmt: skip
    if out:
        from inspect_stance.paths import check_out_dir

        check_out_dir(out)


def report(request: ReportRequest) -> list[str]:
    """The stance-drift report of ``request.paths`` (logs, ``.npz`` arrays or folders; one
    study's shards pooled into one run): the terminal tables, or one JSON object whose runs
    carry the headline their log holds (read, not recomputed); with ``request.out`` also the
    CSVs, ``report.md`` and PNG heatmaps there. Chains (``-T hops=K`` runs) are reported too."""
    from inspect_stance.analysis.run_headlines import run_headlines
    from inspect_stance.drift.chain.report import report_chains
    from inspect_stance.drift.expand import expand_inputs
    from inspect_stance.drift.inputs import load_input
    from inspect_stance.drift.report.analysis import build_report, unique_names
    from inspect_stance.drift.report.render import run_json, terminal_summary
    from inspect_stance.drift.shards import pool_shards
    from inspect_stance.provenance import run_provenance, warn_provenance

    opts = request.options
    check_options(opts, request.out)
    policy = "exclude" if opts["exclude_unparsed"] else "failure"
    paths, skipped = expand_inputs(list(request.paths))
    if skipped:
        print(f"inspect-stance report: {skipped}", file=sys.stderr)
    # the shards of one study (-T shard=K/N) are one run
    runs = pool_shards([load_input(p, policy) for p in paths], request.partial)
    reports = [build_report(r, opts["threshold"], opts["confidence"], policy, opts["hops"])
               for r in runs]  # fmt: skip
    warn_provenance(runs, "inspect-stance report")  # a model changed mid-study?
    unique_names(reports, request.labels)
    chain_text, chains, chain_docs = report_chains(paths, policy)  # -T hops=K runs
    if request.out:
        from inspect_stance.drift.report.write import build
        from inspect_stance.report_doc import Text, write_report

        doc = build(reports, opts["per_proposition_heatmaps"])
        written = write_report(doc.add(Text(chain_text)) if chain_text else doc, request.out)
        for chain_doc in chain_docs:
            write_report(chain_doc, request.out)
    if request.json:
        pairs = zip(reports, runs, strict=True)
        out = [{**run_json(rep), **run_provenance(run)} for rep, run in pairs]
        heads = run_headlines([str(p) for p in paths], request.partial)  # read, not recomputed
        if len(heads) == len(out):  # one per run, in the same order (no .npz among them)
            for run_out, head in zip(out, heads, strict=True):
                run_out["headline"] = head["headline"]
        top = {"headline": heads[0]["headline"]} if len(heads) == len(out) == 1 else {}
        return [_dump({**top, "runs": out, **({"chains": chains} if chains else {})})]
    lines = [terminal_summary(reports)]
    if chain_text:
        lines.append("\n" + chain_text)
    if request.out:
        lines.append(f"\nwrote {len(written)} files to {request.out} (report.md, CSVs, PNGs)")
    return lines


COMMAND = ReportCommand(
    help="stance-drift report (terminal tables; with --out CSVs, report.md and PNG heatmaps)",
    description="Stance-drift logs (.eval/.json) or raw .npz arrays with probs shaped "
    "(propositions, trials, 5, 5).",
    paths_help="stance_drift logs, .npz files, or folders (other tasks' logs in them are skipped)",
    json=True,
    options=(
        ReportOption(
            "--threshold",
            "success-rate threshold of the pass rate, between 0 and 1 (default 0.95)",
            0.95,
            "number",
        ),
        ReportOption(
            "--confidence",
            "one-sided confidence level of the upper bounds (default 0.99)",
            0.99,
            "number",
        ),
        EXCLUDE_UNPARSED,
        ReportOption("--hops", "report T^K and SPR after K hops", 1, "integer", "K"),
        ReportOption(
            "--per-proposition-heatmaps",
            "with --out, also write one heatmap per proposition",
            kind="flag",
        ),
    ),
)
