"""The stance-drift report's text: the ``--json`` object, the formatted tables, the terminal
summary and the markdown report. :class:`~.analysis.RunReport` in, text and plain data
out; nothing here computes a figure or writes a file."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.drift.figures import spr_headline
from inspect_stance.drift.metrics.pass_rate import AUC_THRESHOLDS
from inspect_stance.drift.metrics.patterns import PATTERNS, pattern_stances
from inspect_stance.drift.report.analysis import (
    ALL_STANCES,
    RunReport,
    nanmean0,
    pooled_pass_curve,
)
from inspect_stance.drift.report.planning import planning_notes
from inspect_stance.jsonsafe import finite_or_none
from inspect_stance.markdown import cell, text_table
from inspect_stance.report_doc import Block, Figure, FigureRow, Heading, Table, Text
from inspect_stance.stances import STANCES

PATTERN_LABELS: dict[str, str] = {
    "polarization": "Polarization",
    "moderation": "Moderation",
    "moderation_to_neutral": "Moderation to neutral",
    "flipping": "Flipping",
    "deviation_from_neutrality": "Deviation from neutrality",
}

NOT_A_PATTERN = "-"


def _finite_list(xs: Any) -> list[float | None]:
    return [finite_or_none(x) for x in np.asarray(xs).ravel()]


def run_json(rep: RunReport) -> dict[str, Any]:
    """The ``--json`` object of one run: the keys listed in ``docs/stance_drift.md``, plus
    ``patterns_by_stance`` / ``patterns_by_stance_se`` (pattern -> 5 values in stance order,
    the S5-S10 tables) and ``pass_rate_curve`` (``thresholds``, pooled ``pass_rate``; Fig. S6A).

    With ``--hops K > 1`` a ``hops`` object is added (opt-in; the default object has only the
    listed keys): ``{"k", "spr", "spr_se", "spr_by_hops", "source_by_hops", "stationary_mean"}``
    (``source_by_hops``: ``measured`` for a hop the run made, ``projected`` for ``T^k``).
    """
    m, a = rep.main, rep.argmax
    out: dict[str, Any] = {
        "name": rep.name,
        "n_propositions": rep.run.n_propositions,
        "n_trials": rep.run.n_trials,
        "spr": finite_or_none(m.spr),
        "spr_se": finite_or_none(m.spr_se),
        "success_by_stance": _finite_list(m.success),
        "patterns": {name: finite_or_none(m.patterns[name][0]) for name in PATTERNS},
        "sdr": finite_or_none(m.sdr),
        "ci_includes_one": _finite_list(m.ci_includes_one),
        "ci_includes_one_bonferroni": _finite_list(m.ci_includes_one_bonferroni),
        "pass_rate": _finite_list(m.pass_rate),
        "auc": finite_or_none(m.auc),
        "patterns_by_stance": {
            name: _finite_list(m.patterns_by_stance[name][0]) for name in PATTERNS
        },
        "patterns_by_stance_se": {
            name: _finite_list(m.patterns_by_stance[name][1]) for name in PATTERNS
        },
        "pass_rate_curve": {
            "thresholds": _finite_list(AUC_THRESHOLDS),
            "pass_rate": _finite_list(pooled_pass_curve(m)),
        },
        "argmax": {"spr": finite_or_none(a.spr), "success_by_stance": _finite_list(a.success)},
        "unparsed_trials": rep.run.n_unparsed,
        "unparsed_extractions": rep.run.n_unparsed_extractions,
        "label_mismatches": rep.run.n_label_mismatches,
        "missing_values": rep.run.n_missing,
        "trials_replayed": rep.run.n_replayed,
        "replayed_recorded_from": rep.run.replayed_since,
        # the scorer's headline over the same matrices (drift.figures.spr_headline)
        "headline": spr_headline(m.matrices).to_json(),
    }
    if rep.hops > 1:
        at_k = rep.hop_curve[rep.hops - 1]
        out["hops"] = {
            "k": rep.hops,
            "spr": finite_or_none(at_k["spr"]),
            "spr_se": finite_or_none(at_k["spr_se"]),
            "spr_by_hops": [finite_or_none(row["spr"]) for row in rep.hop_curve[: rep.hops]],
            "source_by_hops": [row["source"] for row in rep.hop_curve[: rep.hops]],
            "stationary_mean": _finite_list(nanmean0(rep.stationary)),
        }
    return out


def _mean_se_cell(mean: float, se: float) -> str:
    if not math.isfinite(mean):
        return "n/a"
    return f"{cell(mean)} ({cell(se)})" if math.isfinite(se) else cell(mean)


def _number_cell(x: float) -> str:
    return cell(float(x)) if math.isfinite(float(x)) else "n/a"


def _count(n: int | None) -> str:
    """A count for a table cell; ``n/a`` where the source holds no answers (an ``.npz``)."""
    return "n/a" if n is None else str(n)


def policy_text(unparsed: str) -> str:
    """One sentence naming the unparsed/missing-trial policy."""
    if unparsed == "exclude":
        return "unparsed and missing trials excluded (--exclude-unparsed)"
    return "unparsed and missing trials counted as failures (default, as in the reference study)"


#: a table of :func:`tables`: its title and its columns, one cell per run
Columns = tuple[str, dict[str, list[Any]]]


def _runs_table(reports: list[RunReport]) -> Columns:
    return "Runs", {
        "propositions": [r.run.n_propositions for r in reports],
        "trials": [r.run.n_trials for r in reports],
        "trial slots": [r.n_trials_total for r in reports],
        "unparsed": [r.run.n_unparsed for r in reports],
        "unparsed extractions": [_count(r.run.n_unparsed_extractions) for r in reports],
        "label mismatches": [_count(r.run.n_label_mismatches) for r in reports],
        "missing": [r.run.n_missing for r in reports],
        "replayed": [r.run.n_replayed for r in reports],
        "policy": [r.unparsed for r in reports],
    }


def _success_columns(reports: list[RunReport], argmax: bool) -> dict[str, list[Any]]:
    """Success rate by initial stance and SPR, ``mean (SE)``, of one analysis."""
    ans = [r.argmax if argmax else r.main for r in reports]
    return {
        **{
            STANCES[i]: [_mean_se_cell(a.success[i], a.success_se[i]) for a in ans]
            for i in range(5)
        },
        "SPR": [_mean_se_cell(a.spr, a.spr_se) for a in ans],
    }


def _success_table(reports: list[RunReport]) -> Columns:
    title = "Success rate by initial stance, mean (SE over propositions)"
    return title, _success_columns(reports, argmax=False)


def _patterns_table(reports: list[RunReport]) -> Columns:
    return "SPR and drift patterns, mean (SE)", {
        "SPR": [_mean_se_cell(r.main.spr, r.main.spr_se) for r in reports],
        **{
            PATTERN_LABELS[p]: [_mean_se_cell(*r.main.patterns[p]) for r in reports]
            for p in PATTERNS
        },
        "SDR": [_mean_se_cell(r.main.sdr, r.main.sdr_se) for r in reports],
    }


def _bounds_table(reports: list[RunReport]) -> Columns:
    title = (
        f"Share of propositions whose one-sided {reports[0].confidence:g} upper bound reaches 1 "
        "(uncorrected / Bonferroni over propositions)"
    )
    return title, {
        STANCES[i]: [
            f"{_number_cell(r.main.ci_includes_one[i])} / "
            f"{_number_cell(r.main.ci_includes_one_bonferroni[i])}"
            for r in reports
        ]
        for i in range(5)
    }


def _pass_table(reports: list[RunReport]) -> Columns:
    title = (
        f"Pass rate at threshold {reports[0].threshold:g} and AUC "
        "(thresholds 0.50..1.00, trapezoid, /0.5)"
    )
    return title, {
        **{STANCES[i]: [_number_cell(r.main.pass_rate[i]) for r in reports] for i in range(5)},
        "AUC": [_number_cell(r.main.auc) for r in reports],
    }


def _argmax_success_table(reports: list[RunReport]) -> Columns:
    title = "Argmax (temperature-0) re-analysis: success rate by initial stance, SPR, SDR"
    return title, {
        **_success_columns(reports, argmax=True),
        "SDR": [_mean_se_cell(r.argmax.sdr, r.argmax.sdr_se) for r in reports],
    }


def _argmax_rest_table(reports: list[RunReport]) -> Columns:
    title = "Argmax re-analysis: drift patterns, bound shares (Bonferroni), pass rate, AUC"
    return title, {
        **{
            PATTERN_LABELS[p]: [_mean_se_cell(*r.argmax.patterns[p]) for r in reports]
            for p in PATTERNS
        },
        "reaches 1 (Bonf.)": [
            " ".join(_number_cell(x) for x in r.argmax.ci_includes_one_bonferroni) for r in reports
        ],
        "pass rate": [" ".join(_number_cell(x) for x in r.argmax.pass_rate) for r in reports],
        "AUC": [_number_cell(r.argmax.auc) for r in reports],
    }


def _hops_table(reports: list[RunReport]) -> Columns:
    k = max(max(r.hops, r.run_hops) for r in reports)
    cols: dict[str, list[Any]] = {}
    for h in range(1, k + 1):
        sources = {r.hop_curve[h - 1]["source"] for r in reports}
        label = f"SPR hop {h}" + (f" ({sources.pop()})" if len(sources) == 1 else "")
        cols[label] = [
            _mean_se_cell(r.hop_curve[h - 1]["spr"], r.hop_curve[h - 1]["spr_se"])
            + ("" if "(" in label else f" {r.hop_curve[h - 1]['source']}")
            for r in reports
        ]
    cols["stationary distribution (mean over propositions, AS..DS)"] = [
        " ".join(_number_cell(x) for x in nanmean0(r.stationary)) for r in reports
    ]
    cols["unique"] = [f"{int(r.stationary_unique.sum())}/{r.run.n_propositions}" for r in reports]
    return (
        "Multi-hop chains: SPR after k hops (measured where the run has the hop, else "
        "projected from the one-hop matrices), stationary distribution"
    ), cols


TABLES = (
    _runs_table,
    _success_table,
    _patterns_table,
    _bounds_table,
    _pass_table,
    _argmax_success_table,
    _argmax_rest_table,
    _hops_table,
)


def tables(reports: list[RunReport]) -> dict[str, pd.DataFrame]:
    """The report's tables (rows = runs), keyed by title; cells are formatted strings."""
    if not reports:
        return {}
    idx = [r.name for r in reports]
    out: dict[str, pd.DataFrame] = {}
    for table in TABLES:
        title, columns = table(reports)
        out[title] = pd.DataFrame(columns, index=idx)
    return out


def stance_pattern_table(rep: RunReport) -> pd.DataFrame:
    """One run's per-stance drift-pattern table (supplementary tables S5-S10), cells formatted:
    rows = initial stances plus ``All stances`` (the mean over the five, Table 2's row),
    columns = success rate and the five pattern masses, ``mean (SE over propositions)``;
    ``-`` where a pattern has no cells from that stance."""
    m = rep.main
    rows: dict[str, list[str]] = {}
    for i, stance in enumerate(STANCES):
        row = [_mean_se_cell(m.success[i], m.success_se[i])]
        for p in PATTERNS:
            mean, se = m.patterns_by_stance[p]
            row.append(_mean_se_cell(mean[i], se[i]) if i in pattern_stances(p) else NOT_A_PATTERN)
        rows[stance] = row
    rows[ALL_STANCES] = [
        _mean_se_cell(m.spr, m.spr_se),
        *[_mean_se_cell(*m.patterns[p]) for p in PATTERNS],
    ]
    columns = ["Success rate", *[PATTERN_LABELS[p] for p in PATTERNS]]
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


def stance_pattern_title(rep: RunReport) -> str:
    """Title of a run's per-stance drift-pattern table."""
    return f"Drift patterns by initial stance (Tables S5-S10 layout): {rep.name}"


def _unparsed_notes(rep: RunReport) -> list[str]:
    """Notes on answers that did not count as written: unparsed extractions of trials that
    still have a vector (``multiple_extraction``: how the policy treated them), and answers
    whose letter and written label disagree."""
    notes = []
    bad, trials = rep.run.n_unparsed_extractions or 0, rep.run.n_unparsed
    if bad:
        how = (
            "left out of their trials' averages (--exclude-unparsed)"
            if rep.unparsed == "exclude"
            else "counted as zero vectors in their trials' averages"
        )
        notes.append(
            f"note: {rep.name}: {bad} extraction answers unparsed ({trials} trials with none "
            f"parsed); {how}."
        )
    if rep.run.n_label_mismatches:
        notes.append(
            f"note: {rep.name}: {rep.run.n_label_mismatches} answers name a letter and a "
            "different stance label (e.g. 'A) Disagree' where A is Neutral); the letter counts."
        )
    return notes


def terminal_summary(reports: list[RunReport]) -> str:
    """The readable terminal summary: one block per table plus the policy line."""

    lines = [
        f"Stance-drift report: {len(reports)} run(s); {policy_text(reports[0].unparsed)}.",
    ]
    for rep in reports:
        lines += _unparsed_notes(rep)
        if rep.run.replay_note:
            lines.append(f"note: {rep.name}: {rep.run.replay_note}.")
        lines += planning_notes(rep.run, rep.name, rep.unparsed)
        if rep.run.n_missing and rep.run.adaptive_halfwidth is None:
            lines.append(
                f"note: {rep.name}: {rep.run.n_missing} trials missing from {rep.run.source} "
                "(errored or unfinished samples); complete the run with `inspect eval-retry`."
            )
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        for title, df in tables(reports).items():
            lines.append("")
            lines.append(title)
            lines.append(text_table(df))
        for rep in reports:
            lines.append("")
            lines.append(stance_pattern_title(rep))
            lines.append(text_table(stance_pattern_table(rep)))
    return "\n".join(lines)


def report_blocks(reports: list[RunReport], images: dict[str, list[Figure]]) -> list[Block]:
    """The markdown report's blocks: settings, every table, and the figures of ``images``
    (a section per title, its figures side by side)."""
    first = reports[0]
    settings = [
        f"- runs: {', '.join(f'`{r.name}` ({r.run.source})' for r in reports)}",
        f"- unparsed policy: {policy_text(first.unparsed)}",
        f"- confidence: {first.confidence:g} one-sided (Student t, df = trials - 1); Bonferroni "
        "level 1 - (1 - confidence) / propositions",
        f"- pass-rate threshold: {first.threshold:g}; AUC over thresholds 0.50..1.00 (step 0.05), "
        "trapezoid rule, divided by 0.5",
        "- hops measured in the run: "
        + ", ".join(f"{r.run_hops} (`{r.name}`)" for r in reports)
        + "; the tables are of the last measured hop",
        f"- `--hops` {first.hops}: SPR after more hops than measured is a projection from the "
        "one-hop matrices (T^k), marked `projected`",
        *[f"- replayed (`{r.name}`): {r.run.replay_note}" for r in reports if r.run.replay_note],
    ]
    blocks: list[Block] = [Text("\n".join(settings))]
    for title, df in tables(reports).items():
        blocks += [Heading(title), Table(df, index="run")]
    blocks += [
        Heading("Drift patterns by initial stance (supplementary tables S5-S10)"),
        Text(
            "Mean (SE over propositions); each stance's success rate and pattern masses sum to "
            f"1; `{NOT_A_PATTERN}`: the pattern has no cells from that stance; "
            f"{ALL_STANCES}: the mean over the five stances (Table 2)."
        ),
    ]
    for rep in reports:
        blocks += [Heading(rep.name, 3), Table(stance_pattern_table(rep), index="initial stance")]
    if images:
        blocks.append(Heading("Figures"))
        for title, figures in images.items():
            blocks += [Heading(title, 3), FigureRow(tuple(figures))]
    return blocks
