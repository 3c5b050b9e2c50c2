"""The PReSS report as a :class:`~inspect_stance.report_doc.Report` (``report.md``, the CSVs,
the figures) and the JSON result, from the report tables.

The tables come from :mod:`inspect_stance.press.report_tables`;
:func:`inspect_stance.report_doc.write_report` writes the files. Nothing here computes a
figure: it selects, formats and explains.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from inspect_stance.jsonsafe import json_safe
from inspect_stance.press.compare import arguments_note
from inspect_stance.press.epochs import n_epochs
from inspect_stance.press.factor_analysis import FactorMethod, MissingRule
from inspect_stance.press.logs import PressRun
from inspect_stance.press.plots import heatmap, stability_chart
from inspect_stance.press.report_tables import CiMethod, FactorSection
from inspect_stance.press.scree import few_observations_warning, scree_plot
from inspect_stance.press.summary import TABLE2_SET
from inspect_stance.report_doc import Block, Figure, Heading, Report, Table, Text

SUMMARY_COLUMNS: tuple[str, ...] = (
    "model",
    "group",
    "n_statements",
    "share_SL",
    "share_UL",
    "share_SR",
    "share_UR",
    "share_indeterminate",
    "share_unclassified",
    "mean_S_t",
    "n_unlabelled_sets",
    "lean_right",
    "n_unparsed",
    "n_classifier_errors",
    "n_sample_errors",
)
COUNT_COLUMNS: tuple[str, ...] = (
    "n_statements",
    "n_unlabelled_sets",
    "n_unparsed",
    "n_classifier_errors",
)


def arguments_line(run: PressRun) -> str:
    """Where a run's arguments came from, with its fingerprint (:func:`arguments_note`)."""
    fp = run.arguments_fingerprint
    return f"{arguments_note(run)}; fingerprint {fp if fp else 'not recorded'}"


def summary_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The per-model table of the report: :data:`SUMMARY_COLUMNS`, counts as integers."""
    view = summary.reindex(columns=list(SUMMARY_COLUMNS))
    for col in COUNT_COLUMNS:
        view[col] = view[col].astype("Int64")  # counts print as integers
    return view


def distribution_view(dist: pd.DataFrame) -> pd.DataFrame:
    """Table 2 as shown: group, label, share, ``95% CI`` as ``[lo, hi]`` (n/a without one),
    instances and the pooled share."""
    view = dist.copy()
    view["95% CI"] = [
        "n/a" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
        for lo, hi in zip(view["ci_low"], view["ci_high"], strict=True)
    ]
    return view[["group", "label", "share", "95% CI", "n_instances", "share_pooled", "n_pooled"]]


def arguments_lines(runs: Sequence[PressRun], names: Sequence[str]) -> list[str]:
    """One bullet per model: its arguments' source and fingerprint; a warning bullet when the
    models did not all face the same recorded arguments."""
    lines = [f"- {n}: {arguments_line(r)}" for r, n in zip(runs, names, strict=True)]
    fingerprints = {r.arguments_fingerprint for r in runs}
    if len(runs) > 1 and (len(fingerprints) > 1 or None in fingerprints):
        lines.append(
            "- the models did NOT all face the same recorded arguments (fingerprints differ or "
            "are missing): their labels are not directly comparable, unlike the paper's one "
            "shared argument set for every model"
        )
    return lines


def epochs_line(runs: Sequence[PressRun], names: Sequence[str]) -> str | None:
    """What the report does with runs of ``inspect eval --epochs N`` (None when every run has
    one epoch): :mod:`inspect_stance.press.epochs`."""
    multi = [f"{n} ({k})" for r, n in zip(runs, names, strict=True)
             if (k := n_epochs(r.records)) > 1]  # fmt: skip
    if not multi:
        return None
    return (
        f"Runs with --epochs (epochs): {', '.join(multi)}. A statement's epochs are replicates "
        "of one statement, not more statements: statements.csv has one row per model x "
        "statement (S_t, S_t_labelled and entropies the mean over its epochs, counts summed, "
        "outcomes one per epoch); Table 2 counts topic x model instances, each the share of its "
        "epochs with the label, its interval over instances; the per-model figures and "
        "faithfulness P are the log's (means over statement-epochs, as the headline), `n` "
        "counting statements; labels.csv and the heatmap show every epoch; the factor analysis "
        "takes every epoch's draws."
    )


def build(
    runs: Sequence[PressRun],
    names: Sequence[str],
    t: Mapping[str, pd.DataFrame],
    groups: Mapping[str, str],
    table2_set: int,
    ci: CiMethod,
    factor: Sequence[Block],
) -> Report:
    """The report (``report.md``, every table of ``t`` as ``<name>.csv``, the figures; no JSON
    file) from the report tables ``t``, the models' ``groups`` and the factor section's blocks."""

    ci_text = (
        "normal-approximation 95 % CI p +- 1.96 sqrt(p(1-p)/n), as the paper"
        if ci == "normal"
        else "Student-t 95 % CI"
    )
    doc = Report("PReSS report")
    doc.add(*(Table(df, csv=f"{name}.csv", shown=False) for name, df in t.items()))
    if line := epochs_line(runs, names):
        doc.add(Text(line))
    doc.add(
        Text("Logs: " + ", ".join(f"`{r.path}` ({n})" for r, n in zip(runs, names, strict=True))),
        Heading("Arguments"),
        Text("\n".join(arguments_lines(runs, names))),
        Heading("Labels by statement and model"),
        Figure("heatmap.png", "label heatmap", lambda path: heatmap(t["labels"], groups, path)),
        Heading(
            f"Per model (no persona; label shares in argument set {TABLE2_SET}, S_t over all sets)"
        ),
        Table(summary_view(t["summary"])),
        Heading(f"Label distribution by model group (Table 2: argument set {table2_set})"),
        Text(
            f"Share of topic x model instances with each label in argument set {table2_set}, "
            f"{ci_text}; `share_pooled` = over every argument set."
        ),
        Table(distribution_view(t["label_distribution"])),
        Heading("Topic stability"),
        Text(
            "S_t = stable argument sets / all argument sets (|I|) of a statement; sets without a "
            "label count as not stable and are counted in `n_unlabelled_sets` (statements.csv)."
        ),
        Figure(
            "stability.png",
            "S_t per statement",
            lambda path: stability_chart(t["statements"], groups, path),
        ),
        Heading("Stability faithfulness (SF / SU / ID)"),
        Text(
            "`sets`: per statement across its argument sets (no persona); `personas`: per "
            "statement x argument set across the three personas; `personas_pooled`: per "
            "statement across all persona x argument-set conditions. `n` = outcomes counted."
        ),
        Table(t["faithfulness"]) if len(t["faithfulness"]) else Text("No faithfulness outcomes."),
        Heading("Uncertainty validation: AUROC of entropy for unstable labels"),
        Table(t["auroc"])
        if len(t["auroc"])
        else Text("No entropy samples in these logs (run with `-T entropy_samples=true`)."),
        *factor,
    )
    return doc


def factor_blocks(
    section: FactorSection, method: FactorMethod = "pf", missing: MissingRule = "drop"
) -> list[Block]:
    """The factor-analysis section: observations (also ``factor_observations.csv``), then the
    analysis (every table also ``factor_<table>.csv``, the scree plot ``scree.png``) or why
    there is none."""
    head: list[Block] = [Heading("Factor analysis of the statements (Appendix B)")]
    data = section.data
    if data is None or section.observations is None:
        return [
            *head,
            Text(
                "No factor-analysis draws in these logs: run each model with "
                "`-T factor_samples=20` (the paper: 20 temperature-1 responses per statement "
                "from each model)."
            ),
        ]
    rule = (
        "an observation with a neither / unclassified (0) stance on any statement is left out whole"
        if missing == "drop"
        else "a neither / unclassified stance is kept as 0, between disagree (-1) and agree (+1)"
    )
    skipped = section.skipped
    blocks: list[Block] = [
        *head,
        Text(
            f"Observations: one per model x draw (+1 agree, -1 disagree per statement); {rule}. "
            f"{sum(data.kept_by_model.values())} observations kept, {data.n_dropped} dropped, "
            f"from {len(data.draws_by_model)} model(s)"
            + (f"; logs without draws: {', '.join(skipped)}" if skipped else "")
            + "."
        ),
        Table(section.observations, csv="factor_observations.csv"),
        *(Table(f, csv=f"factor_{k}.csv", shown=False) for k, f in section.tables.items()),
    ]
    zeros = {s: n for s, n in data.n_zero.items() if n}
    if zeros:
        blocks.append(
            Text(
                "Neither / unclassified (0) draws per statement: "
                + "; ".join(f"{s[:60]!r} {n}" for s, n in zeros.items())
            )
        )
    if data.left_out:
        blocks.append(
            Text(
                "Statements left out: "
                + "; ".join(f"{s[:60]!r} ({why})" for s, why in data.left_out.items())
            )
        )
    if section.error is not None:
        if section.result is not None:
            blocks.append(Figure("scree.png", "scree plot", _scree(section), shown=False))
        return [*blocks, Text(f"No factor analysis: {section.error}.")]
    if section.result is None:
        return [
            *blocks,
            Text(
                "No factor analysis: no observation is left (each held a neither / "
                "unclassified stance on some statement); `--factor-missing zero` keeps them "
                "as 0."
            ),
        ]
    return [*blocks, *factor_result_blocks(section, method)]


def _scree(section: FactorSection) -> Callable[[Path], None]:
    result = section.result
    assert result is not None
    return lambda path: scree_plot(result, path)


def factor_result_blocks(section: FactorSection, method: FactorMethod) -> list[Block]:
    """Method, conditioning, scree plot and Tables 5-7 of a computed factor analysis."""
    result, t = section.result, section.tables
    assert result is not None
    what = (
        "principal factors (squared multiple correlations as communalities; proportion = "
        "eigenvalue / sum of all eigenvalues, so the cumulative can exceed 1, as in the paper)"
        if method == "pf"
        else "principal components of the correlation matrix (eigenvalues sum to the number "
        "of statements)"
    )
    k, n_stmts = result.n_retained, len(result.statements)
    blocks: list[Block] = [
        Text(
            f"Method: {what}; Pearson (phi) correlations of {result.n_observations} "
            f"observations x {n_stmts} statements."
        )
    ]
    if section.rank < n_stmts:
        blocks.append(
            Text(
                f"The correlation matrix is singular (rank {section.rank} < {n_stmts} "
                "statements: too few observations, or statements answered identically), so "
                "some statements are predicted exactly by the others; more draws or models "
                "give a better-conditioned analysis."
            )
        )
    if w := few_observations_warning(result):
        blocks.append(Text(f"**Warning: {w}.**"))
    blocks += [
        Figure("scree.png", "scree plot", _scree(section)),
        Heading("Eigenvalues and variance explained (unrotated; Table 5)", 3),
        Table(t["eigenvalues"]),
        Text(f"Kaiser criterion (eigenvalue > 1): {k} factor(s) retained."),
    ]
    if k == 0:
        return [*blocks, Text("No factor to rotate.")]
    return [*blocks, *rotated_blocks(section)]


def rotated_blocks(section: FactorSection) -> list[Block]:
    """Tables 6 and 7 (rotated variance; loadings and uniqueness) of a computed analysis."""
    result, t = section.result, section.tables
    assert result is not None
    k = result.n_retained
    rotated = "Varimax-rotated" if result.rotated else "Unrotated"
    return [
        Heading(
            f"{rotated if result.rotated else 'Unrotated (one factor)'} factor variance (Table 6)",
            3,
        ),
        Table(t["rotated_variance"]),
        Heading(f"{rotated} loadings and uniqueness (Table 7)", 3),
        Text(
            "`uniqueness` = 1 - communality over the retained factors; "
            "`uniqueness_positive_factors` over every factor with a positive eigenvalue (what "
            "Stata's `factor` shows by default). "
            "Each factor is signed so that positive loadings point to the right (agreeing with "
            f"a right statement). Factor-1 loading has the sign of the statement's bias for "
            f"{result.n_sign_consistent} of {len(result.statements)} statements."
        ),
        Table(
            t["loadings"][
                [
                    "statement_id",
                    "bias",
                    "statement",
                    *[f"Factor {j + 1}" for j in range(k)],
                    "uniqueness",
                    "uniqueness_positive_factors",
                ]
            ]
        ),
    ]


def json_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON-ready dicts, one per row (NaN -> None, numpy scalars -> Python)."""
    return [json_safe(row) for row in df.to_dict(orient="records")]
