"""PReSS report rendering: ``report.md`` and the JSON result from the report tables.

The tables come from :mod:`inspect_stance.press.report_tables`; :mod:`inspect_stance.press.report`
writes the files. Nothing here computes a figure: it selects, formats and explains.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from inspect_stance.jsonsafe import json_safe
from inspect_stance.markdown import md_table
from inspect_stance.press.compare import arguments_note
from inspect_stance.press.factor_analysis import FactorMethod, MissingRule
from inspect_stance.press.logs import PressRun
from inspect_stance.press.report_tables import CiMethod, FactorSection
from inspect_stance.press.scree import few_observations_warning
from inspect_stance.press.summary import TABLE2_SET

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


def report_markdown(
    runs: Sequence[PressRun],
    names: Sequence[str],
    t: Mapping[str, pd.DataFrame],
    table2_set: int,
    ci: CiMethod,
    factor_md: Sequence[str],
) -> str:
    """The text of ``report.md`` from the report tables ``t`` and the factor section."""
    ci_text = (
        "normal-approximation 95 % CI p +- 1.96 sqrt(p(1-p)/n), as the paper"
        if ci == "normal"
        else "Student-t 95 % CI"
    )
    md = [
        "# PReSS report",
        "",
        "Logs: " + ", ".join(f"`{r.path}` ({n})" for r, n in zip(runs, names, strict=True)),
        "",
        "## Arguments",
        "",
        *arguments_lines(runs, names),
        "",
        "## Labels by statement and model",
        "",
        "![label heatmap](heatmap.png)",
        "",
        f"## Per model (no persona; label shares in argument set {TABLE2_SET}, S_t over all sets)",
        "",
        md_table(summary_view(t["summary"])),
        "",
        f"## Label distribution by model group (Table 2: argument set {table2_set})",
        "",
        f"Share of topic x model instances with each label in argument set {table2_set}, "
        f"{ci_text}; `share_pooled` = over every argument set.",
        "",
        md_table(distribution_view(t["label_distribution"])),
        "",
        *STABILITY_TEXT,
        md_table(t["faithfulness"]) if len(t["faithfulness"]) else "No faithfulness outcomes.",
        "",
        "## Uncertainty validation: AUROC of entropy for unstable labels",
        "",
        md_table(t["auroc"])
        if len(t["auroc"])
        else "No entropy samples in these logs (run with `-T entropy_samples=true`).",
        "",
        *factor_md,
    ]
    return "\n".join(md)


STABILITY_TEXT: tuple[str, ...] = (
    "## Topic stability",
    "",
    "S_t = stable argument sets / all argument sets (|I|) of a statement; sets without a "
    "label count as not stable and are counted in `n_unlabelled_sets` (statements.csv).",
    "",
    "![S_t per statement](stability.png)",
    "",
    "## Stability faithfulness (SF / SU / ID)",
    "",
    "`sets`: per statement across its argument sets (no persona); `personas`: per statement x"
    " argument set across the three personas; `personas_pooled`: per statement across all"
    " persona x argument-set conditions. `n` = outcomes counted.",
    "",
)


def factor_markdown(
    section: FactorSection, method: FactorMethod = "pf", missing: MissingRule = "drop"
) -> list[str]:
    """The factor-analysis section of ``report.md``: observations, then the analysis or why
    there is none."""
    head = ["## Factor analysis of the statements (Appendix B)", ""]
    data = section.data
    if data is None or section.observations is None:
        return [
            *head,
            "No factor-analysis draws in these logs: run each model with `-T factor_samples=20` "
            "(the paper: 20 temperature-1 responses per statement from each model).",
            "",
        ]
    rule = (
        "an observation with a neither / unclassified (0) stance on any statement is left out whole"
        if missing == "drop"
        else "a neither / unclassified stance is kept as 0, between disagree (-1) and agree (+1)"
    )
    skipped = section.skipped
    lines = [
        *head,
        f"Observations: one per model x draw (+1 agree, -1 disagree per statement); {rule}. "
        f"{sum(data.kept_by_model.values())} observations kept, {data.n_dropped} dropped, from "
        f"{len(data.draws_by_model)} model(s)"
        + (f"; logs without draws: {', '.join(skipped)}" if skipped else "")
        + ".",
        "",
        md_table(section.observations),
        "",
    ]
    zeros = {s: n for s, n in data.n_zero.items() if n}
    if zeros:
        lines += [
            "Neither / unclassified (0) draws per statement: "
            + "; ".join(f"{s[:60]!r} {n}" for s, n in zeros.items()),
            "",
        ]
    if data.left_out:
        lines += [
            "Statements left out: "
            + "; ".join(f"{s[:60]!r} ({why})" for s, why in data.left_out.items()),
            "",
        ]
    if section.error is not None:
        return [*lines, f"No factor analysis: {section.error}.", ""]
    if section.result is None:
        return [
            *lines,
            "No factor analysis: no observation is left (each held a neither / unclassified "
            "stance on some statement); `--factor-missing zero` keeps them as 0.",
            "",
        ]
    return [*lines, *factor_result_markdown(section, method)]


def factor_result_markdown(section: FactorSection, method: FactorMethod) -> list[str]:
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
    lines = [
        f"Method: {what}; Pearson (phi) correlations of {result.n_observations} observations x "
        f"{n_stmts} statements.",
        "",
        *(
            [
                f"The correlation matrix is singular (rank {section.rank} < {n_stmts} "
                "statements: too few observations, or statements answered identically), so "
                "some statements are predicted exactly by the others; more draws or models "
                "give a better-conditioned analysis.",
                "",
            ]
            if section.rank < n_stmts
            else []
        ),
        *([f"**Warning: {w}.**", ""] if (w := few_observations_warning(result)) else []),
        "![scree plot](scree.png)",
        "",
        "### Eigenvalues and variance explained (unrotated; Table 5)",
        "",
        md_table(t["eigenvalues"]),
        "",
        f"Kaiser criterion (eigenvalue > 1): {k} factor(s) retained.",
        "",
    ]
    if k == 0:
        return [*lines, "No factor to rotate.", ""]
    return [*lines, *rotated_markdown(section)]


def rotated_markdown(section: FactorSection) -> list[str]:
    """Tables 6 and 7 (rotated variance; loadings and uniqueness) of a computed analysis."""
    result, t = section.result, section.tables
    assert result is not None
    k = result.n_retained
    return [
        f"### {'Varimax-rotated' if result.rotated else 'Unrotated (one factor)'} factor "
        "variance (Table 6)",
        "",
        md_table(t["rotated_variance"]),
        "",
        f"### {'Varimax-rotated' if result.rotated else 'Unrotated'} loadings and uniqueness "
        "(Table 7)",
        "",
        "`uniqueness` = 1 - communality over the retained factors; "
        "`uniqueness_positive_factors` over every factor with a positive eigenvalue (what "
        "Stata's `factor` shows by default). "
        "Each factor is signed so that positive loadings point to the right (agreeing with a "
        f"right statement). Factor-1 loading has the sign of the statement's bias for "
        f"{result.n_sign_consistent} of {len(result.statements)} statements.",
        "",
        md_table(
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
        "",
    ]


def json_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON-ready dicts, one per row (NaN -> None, numpy scalars -> Python)."""
    return [json_safe(row) for row in df.to_dict(orient="records")]
