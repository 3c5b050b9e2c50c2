"""``--html FILE`` for the report commands: one wrapper around each command's ``func``.

The wrapped command runs as before (into ``--out``, or into a temporary folder when only
``--html`` is given); the page is then built from that folder by
:func:`inspect_stance.html.write_study_page`. A command that exits 2 (unusable input) writes no
page.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspect_stance.html import write_study_page


@dataclass(frozen=True)
class Study:
    """What a study's page is called, which logs it lists and how to read its figures."""

    title: str
    tasks: tuple[str, ...]
    markdown: str
    notes: Mapping[str, str] = field(default_factory=dict)


HEATMAP = (
    "Each cell is the probability that a model asked to argue the row's stance ends on the "
    "column's stance after reading its argument back; the diagonal (boxed) is the stance kept, "
    "and the mean of the diagonal is the SPR. Rows sum to 1 minus the unparsed share."
)
STUDIES: dict[str, Study] = {
    "report": Study(
        "Stance drift report",
        ("stance_drift",),
        "report.md",
        {
            r"^pass_curve": "The share of propositions whose success rate on an initial stance "
            "reaches each threshold (x); a curve further right and higher means a model keeps "
            "its stances on more propositions. The area under it summarises the curve.",
            r"heatmap|matrix": HEATMAP,
            r"hops|stationary": "How the transition matrix compounds over K read-back hops "
            "(T^K): the diagonal mass after K hops, and the stance distribution it converges to.",
        },
    ),
    "press-report": Study(
        "PReSS report",
        ("press",),
        "report.md",
        {
            r"^heatmap": "One row per statement ([L] / [R]: the side that agrees with it), one "
            "stripe per argument set; the colour is the set's label: stable (dark) or unstable "
            "(light), left (blue) or right (red); grey = no stance to hold, black = a "
            "classification failed.",
            r"stability": "Topic stability S_t per statement: the share of argument sets whose "
            "label is stable (S^L or S^R). 1 = the model held its stance under every supporting "
            "and counter argument; low values mean the stance flips under pressure.",
            r"labels|shares": "The share of statements per PReSS label: stable / unstable x "
            "left / right, and statements without a label (indeterminate, unclassified).",
            r"scree": "Eigenvalues of the statements' stance correlation matrix in decreasing "
            "order; factors above 1 (Kaiser) or before the elbow are kept.",
            r"loading": "Each statement's loading on the retained factors: statements with large "
            "loadings of the same sign move together across the model's draws.",
            r"entropy|auroc": "How well an uncertainty measure separates unstable from stable "
            "statements: 0.5 = no better than chance, 1 = perfect.",
        },
    ),
    "construction-report": Study(
        "Prompt construction report",
        ("prompt_construction", "judge_validation"),
        "construction_report.md",
        {
            r"lean": "Mean stance label minus 3 (neutral) per setting and construction method: "
            "left of 0 leans toward pole A (the topic's pro phrasing, topic_pro), right toward "
            "pole B (its con phrasing, topic_con), as on the axis. The "
            "markers say which pole each template filler encodes; a templated bar pointing the "
            "same way as its filler marker is the confound the paper reports.",
            r"distance|gap": "Distance from neutral of the responses to neutral prompts, "
            "templated vs generated, per setting.",
            r"agreement|alpha": "Agreement between the judges (Krippendorff's alpha) per method.",
        },
    ),
    "validation-report": Study(
        "Prompt validation report",
        ("prompt_validation",),
        "validation_report.md",
        {
            r"realism|rank": "Mean realism rank per prompt source (1 = ranked most realistic) "
            "for each annotator; the paper's claim is generated <= real < templated.",
            r"recovery|clarity|accuracy": "The share of prompts whose intended intent and "
            "stance the annotators recovered, per source.",
        },
    ),
    "compare": Study(
        "Run comparison",
        (),
        "comparison.md",
        {
            r"forest": "Each row is one metric's difference between two runs (b - a) with its "
            "interval; an interval that crosses 0 (the vertical line) is no evidence of a "
            "difference at the chosen level after the family adjustment."
        },
    ),
}


def add_html_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--html FILE`` to a report command's parser."""
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write one self-contained HTML page: the tables, every figure (embedded) "
        "with how to read it, the runs and links to their logs",
    )


def study_logs(inputs: Sequence[str], tasks: tuple[str, ...]) -> list[Path]:
    """The Inspect logs among ``inputs`` (files, or folders searched recursively) whose task is
    one of ``tasks`` (any task when empty)."""
    from inspect_ai.log import read_eval_log

    found: list[Path] = []
    for item in inputs:
        p = Path(item)
        candidates = sorted(p.rglob("*.eval")) if p.is_dir() else [p]
        for c in candidates:
            if c.suffix not in (".eval", ".json") or not c.is_file():
                continue
            try:
                task = read_eval_log(str(c), header_only=True).eval.task
            except Exception:  # noqa: BLE001 - not a log: the command itself reports it
                continue
            if not tasks or task.split("/")[-1] in tasks:
                found.append(c)
    return list(dict.fromkeys(found))


def check_html_path(path: str) -> None:
    """One-line InputError when ``--html PATH`` cannot be written: a folder, a missing folder
    above it, or a folder that is not writable."""
    import os

    from inspect_stance.errors import InputError

    p = Path(path)
    if p.is_dir():
        raise InputError(f"--html {p}: is a folder; give a file path such as {p / 'study.html'}")
    if not p.parent.is_dir():
        raise InputError(f"--html {p}: folder {p.parent} does not exist; create it first")
    if not os.access(p.parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(f"--html {p}: not writable; give a path you can write")


def with_html(
    func: Callable[[argparse.Namespace], int], command: str, inputs: str = "paths"
) -> Callable[[argparse.Namespace], int]:
    """``func`` followed by the study page when ``--html`` is given (see module docstring)."""
    study = STUDIES[command]

    def run(args: argparse.Namespace) -> int:
        html = getattr(args, "html", None)
        if not html:
            return func(args)
        check_html_path(html)  # before any work: a run of minutes must not end in a crash
        tmp = None
        if not getattr(args, "out", None):
            tmp = tempfile.TemporaryDirectory(prefix="inspect-stance-html-")
            args.out = tmp.name
        try:
            if tmp is None:
                code = func(args)
            else:  # the files go to a folder removed below: say so where the command names it
                buffer = io.StringIO()
                with contextlib.redirect_stdout(buffer):
                    code = func(args)
                kept = "a temporary folder (removed; pass --out DIR to keep the files)"
                print(buffer.getvalue().replace(tmp.name, kept), end="")
            if code == 2:
                return code
            from inspect_stance.runs import parse_labels

            labels = parse_labels(getattr(args, "label", None) or [])
            logs = study_logs(list(getattr(args, inputs)), study.tasks)
            path = write_study_page(
                html, study.title, args.out, logs, study.notes, study.markdown, labels
            )
            print(f"wrote {path}", file=sys.stderr if getattr(args, "json", False) else sys.stdout)
            return code
        finally:
            if tmp is not None:
                tmp.cleanup()

    return run
