"""The even-handedness report as its method declares it: the function ``report`` and
``even-handedness-report`` call (:func:`report`) and the command's help (:data:`COMMAND`)."""

from __future__ import annotations

from pathlib import Path

from inspect_stance.study.protocol import ReportCommand, ReportRequest


def report(request: ReportRequest) -> list[str]:
    """The report of ``request.paths`` written to ``request.out``
    (:func:`inspect_stance.even_handedness.report_write.write_report`): one run per log (one
    study's shards pooled), a repeated run counted once, the runs named as ``compare`` names
    them; the lines say what was passed over and which files were written."""
    from inspect_stance.even_handedness.logs import find_even_logs, run_info
    from inspect_stance.even_handedness.report_write import write_report
    from inspect_stance.runs import dedupe, run_names

    runs, skipped = find_even_logs(list(request.paths), request.partial)
    infos = [run_info(r) for r in runs]
    keep, dropped = dedupe(infos)
    runs, infos = [runs[k] for k in keep], [infos[k] for k in keep]
    names, notes = run_names(infos, request.labels)
    lines = [f"even-handedness-report: {line}" for line in [*notes, skipped, dropped] if line]
    written = write_report(runs, names, Path(request.out))
    return [*lines, f"wrote {', '.join(p.name for p in written)} to {request.out}"]


COMMAND = ReportCommand(
    help="even-handedness tables, per-category figure, topics, graders, agreement",
    description="Headline with topic-clustered SE, per-category figure, least even-handed "
    "topics, position flips and length preference per grader, agreement (Cohen's kappa, "
    "Krippendorff's alpha, Dawid-Skene), refusal/hedging by side. Folders are searched for "
    "even_handedness logs; other tasks' logs are skipped and counted. The shards of one study "
    "(-T shard=K/N) are pooled into one run.",
    paths_help="even_handedness logs or folders",
    out="even_handedness_report",
)
