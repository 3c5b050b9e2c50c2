"""The stance-drift report: every figure of the reference study for one or more runs.

Per run (a :class:`~inspect_stance.drift.run.DriftRun` from a log or an ``.npz``), with the
unparsed policy of :mod:`.transition` (``failure`` by default — unparsed and missing trials are
zero vectors, as in the reference study — or ``exclude``):

- success rate by initial stance and SPR, mean (SE over propositions) — :mod:`~inspect_stance.drift.metrics.spr`;
- the five drift-pattern masses and SDR, mean (SE) — :mod:`~inspect_stance.drift.metrics.patterns`;
- the per-stance drift-pattern table of each run (the reference study's supplementary tables
  S5-S10): rows = the five initial stances and their mean ("All stances", Table 2's row),
  columns = success rate and the five pattern masses, mean (SE over propositions); a cell of a
  pattern that cannot occur from that stance (e.g. polarization from Neutral) is ``-``;
- one-sided Student-t upper bounds of each proposition's success rate at ``confidence``,
  uncorrected and Bonferroni-corrected over propositions, and the share of propositions whose
  bound reaches 1, by initial stance — :mod:`~inspect_stance.drift.metrics.confidence`;
- pass rate by initial stance at ``threshold`` and the normalised trapezoid AUC over thresholds
  0.50..1.00 — :mod:`~inspect_stance.drift.metrics.pass_rate`; the pass-rate curve over all proposition-initial stance
  combinations against the threshold (Fig. S6A), CSV and PNG;
- all of the above again for the argmax (temperature-0) re-analysis (each trial's vector replaced
  by a point mass on its most probable stance — :func:`.transition.argmax_trials`);
- multi-hop chains: SPR after ``k`` hops and the stationary distributions — :mod:`~inspect_stance.drift.chain.hops`;
- counts of trials, unparsed trials and missing trials, and the policy that handled them.

The report is split by job: :mod:`.analysis` computes the figures (:func:`build_report`),
:mod:`.frames` lays them out as the CSVs' numeric frames, :mod:`.render` gives the
``--json`` object (:func:`run_json`, exactly the public keys), the terminal tables and the
markdown's blocks, :mod:`.plots` the PNGs' figures, and this module puts them into one
:class:`~inspect_stance.report_doc.Report` (:func:`build`), which
:func:`inspect_stance.report_doc.write_report` writes into ``--out``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pandas as pd

from inspect_stance.drift.report.analysis import RunReport
from inspect_stance.drift.report.frames import (
    hops_frame,
    k_hop_frame,
    pass_curve_frame,
    per_proposition_frame,
    stance_patterns_frame,
    stationary_frame,
    summary_frame,
)
from inspect_stance.drift.report.plots import overview_plots, proposition_heatmaps, run_heatmaps
from inspect_stance.drift.report.render import report_blocks
from inspect_stance.report_doc import Block, Figure, Report, Table


def slug(name: str) -> str:
    """A file-name-safe version of a run name."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_")
    return s or "run"


def file_bases(reports: list[RunReport]) -> list[str]:
    """One file-name base per run, unique even where names differ only in characters that
    :func:`slug` replaces or in case (``a/b``, ``a b``, ``A_B``): a repeat gets ``_2``, ``_3``
    ... (compared case-insensitively, for case-insensitive file systems)."""
    used: set[str] = set()
    bases = []
    for r in reports:
        base = candidate = slug(r.name)
        k = 1
        while candidate.casefold() in used:
            k += 1
            candidate = f"{base}_{k}"
        used.add(candidate.casefold())
        bases.append(candidate)
    return bases


#: the CSVs of ``--out``: file name -> the frame of the runs it holds
CSV_FRAMES: dict[str, Callable[[list[RunReport]], pd.DataFrame]] = {
    "summary.csv": summary_frame,
    "per_proposition.csv": per_proposition_frame,
    "pass_rate_curve.csv": pass_curve_frame,
    "drift_patterns_by_stance.csv": stance_patterns_frame,
    "spr_by_hops.csv": hops_frame,
    "k_hop_matrices.csv": k_hop_frame,
    "stationary.csv": stationary_frame,
}


def build(reports: list[RunReport], per_proposition_heatmaps: bool = False) -> Report:
    """The report of ``reports``: ``report.md`` (no JSON file), the CSVs of
    :data:`CSV_FRAMES`, the heatmaps of each run (with ``per_proposition_heatmaps`` one per
    proposition too, in ``heatmaps_<run>/``) and the plots over all runs."""
    images: dict[str, list[Figure]] = {}
    hidden: list[Block] = [Table(frame(reports), csv=name, shown=False)
                           for name, frame in CSV_FRAMES.items()]  # fmt: skip
    for r, base in zip(reports, file_bases(reports), strict=True):
        if per_proposition_heatmaps:
            files = [f"heatmaps_{base}/proposition_{s:03d}_{slug(t)}.png"
                     for s, t in enumerate(r.run.topic_ids)]  # fmt: skip
            hidden += proposition_heatmaps(r, files)
        key = r.name if r.name not in images else f"{r.name} [{base}]"
        images[key] = run_heatmaps(r, base, key)
    for title, figure in overview_plots(reports).items():
        images[title] = [figure]
    return Report("Stance-drift report", [*hidden, *report_blocks(reports, images)])
