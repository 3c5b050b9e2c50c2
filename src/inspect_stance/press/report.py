"""``press-report``: tables and figures over one or more PReSS logs (one model per log).

Outputs (in ``out_dir``): ``labels.csv`` (one row per model x statement x persona x argument
set), ``statements.csv`` (per model x statement: S_t, unlabelled sets, faithfulness, entropies),
``summary.csv`` (per model: the log's figures, :func:`inspect_stance.press.summary.summarize`),
``label_distribution.csv`` (the paper's Table 2, :func:`label_distribution`), ``faithfulness.csv``
(P_SF / P_SU / P_ID per model; variation ``sets``: per statement across argument sets, no
persona; ``personas``: per statement x argument set across the three personas;
``personas_pooled``: per statement across all persona x argument-set conditions), ``auroc.csv``,
``arguments.csv`` (per model: arguments_source, fingerprint, whether the arguer was the model
under test), the factor analysis of Appendix B when the logs carry ``factor_stances``
(``factor_eigenvalues.csv``, ``factor_rotated_variance.csv``, ``factor_loadings.csv``,
``factor_observations.csv``, ``scree.png``; :mod:`inspect_stance.press.factor_analysis`),
``heatmap.png`` (statements as rows, models as columns grouped left / right / ungrouped, one
stripe per argument set), ``stability.png`` (S_t per statement and model) and ``report.md``.

Statements are matched across logs by their text (not their position in the statements file),
so logs run on different statement files give one row per distinct statement, blank where a
model was not asked it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy import stats

from inspect_stance.jsonsafe import json_safe
from inspect_stance.markdown import md_table
from inspect_stance.press.compare import arguer_is_target
from inspect_stance.press.factor_analysis import (
    FactorMethod,
    MissingRule,
    factor_analysis,
    factor_observations,
    factor_tables,
    scree_plot,
)
from inspect_stance.press.faithfulness import OUTCOMES
from inspect_stance.press.labels import ALL_LABELS
from inspect_stance.press.logs import PressRun
from inspect_stance.press.stability import labelled_stability, n_unlabelled, topic_stability
from inspect_stance.press.summary import TABLE2_SET, auroc_table, pooled_persona_outcome, summarize

CiMethod = Literal["normal", "t"]
CI_METHODS: tuple[str, ...] = ("normal", "t")

GROUPS: tuple[str, ...] = ("left", "right", "ungrouped")
LABEL_COLOURS: dict[str, str] = {
    "S^L": "#1f4e9c",
    "U^L": "#9dbbe8",
    "S^R": "#b2182b",
    "U^R": "#f4a3a8",
    "indeterminate": "#d9d9d9",
    "unclassified": "#222222",
}


def column_names(runs: Sequence[PressRun]) -> list[str]:
    """One column name per run: the model name, suffixed ' (2)', ' (3)' ... when repeated."""
    names: list[str] = []
    for run in runs:
        name, n = run.model, 2
        while name in names:
            name = f"{run.model} ({n})"
            n += 1
        names.append(name)
    return names


def model_groups(names: Sequence[str], left: Sequence[str], right: Sequence[str]) -> dict[str, str]:
    """Group (left / right / ungrouped) of each column name; ValueError for unknown or doubled names."""
    unknown = [m for m in [*left, *right] if m not in names]
    if unknown:
        raise ValueError(
            f"--left/--right name(s) {unknown} match no log's model; models are {list(names)}"
        )
    both = set(left) & set(right)
    if both:
        raise ValueError(
            f"model(s) {sorted(both)} given in both --left and --right; put each in one group"
        )
    return {m: "left" if m in left else "right" if m in right else "ungrouped" for m in names}


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """Mean and two-sided Student-t CI: mean +- t_{(1+level)/2, n-1} * s / sqrt(n), clipped to [0, 1].

    The values are shares, so the interval is clipped to [0, 1]. NaN bounds for fewer than two
    values; a zero-width interval when all values are equal.
    """
    x = np.asarray(values, dtype=np.float64)
    m = float(np.mean(x)) if len(x) else math.nan
    if len(x) < 2:
        return m, math.nan, math.nan
    sem = float(stats.sem(x))
    if sem == 0.0:
        return m, m, m
    lo, hi = stats.t.interval(level, df=len(x) - 1, loc=m, scale=sem)
    return m, max(0.0, float(lo)), min(1.0, float(hi))


def share_ci(
    values: Sequence[float], level: float = 0.95, method: CiMethod = "normal"
) -> tuple[float, float, float]:
    """Share p of the 0/1 ``values`` and its two-sided CI, clipped to [0, 1].

    ``normal`` (the paper's, default): the normal-approximation (Wald) interval
    p +- z_{(1+level)/2} sqrt(p (1 - p) / n), which reproduces every cell of the paper's Table 2
    (e.g. 57 of 152 instances: 37.5 +- 7.7); ``t``: :func:`mean_ci` (Student t on the values,
    sample standard deviation). NaN bounds for an empty list (normal) or fewer than 2 values (t).
    """
    if method == "t":
        return mean_ci(values, level)
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    p = float(np.mean(x))
    half = float(stats.norm.ppf((1 + level) / 2)) * math.sqrt(p * (1 - p) / n)
    return p, max(0.0, p - half), min(1.0, p + half)


def label_distribution(
    labels: pd.DataFrame, argument_set: int = TABLE2_SET, ci: CiMethod = "normal"
) -> pd.DataFrame:
    """The paper's Table 2: share of each label over the no-persona topic x model instances of a
    group (left / right / ungrouped / all), in ONE argument set (``argument_set``, default the
    first: "using a single set of supporting- and counter-arguments"), with its 95 % CI
    (:func:`share_ci`); ``share_pooled`` / ``n_pooled``: the same share over every argument set
    (topic x model x set instances), without a CI (the sets of one topic are not independent).

    Within a group the instances are pooled (share = count / n), which equals the mean of the
    per-model shares when every model answered the same statements.
    """
    df = labels[labels["persona"] == "none"]
    single = df[df["argument_set"] == argument_set]
    rows = []
    present = [g for g in GROUPS if g in set(df["group"])]
    for g in [*present, "all"]:
        one = single if g == "all" else single[single["group"] == g]
        pool = df if g == "all" else df[df["group"] == g]
        for label in ALL_LABELS:
            share, lo, hi = share_ci((one["label"] == label).astype(float).tolist(), method=ci)
            rows.append(
                {
                    "group": g,
                    "label": label,
                    "argument_set": argument_set,
                    "share": share,
                    "ci_low": lo,
                    "ci_high": hi,
                    "n_instances": len(one),
                    "share_pooled": float((pool["label"] == label).mean()) if len(pool) else None,
                    "n_pooled": len(pool),
                }
            )
    return pd.DataFrame(rows)


def tables(
    runs: Sequence[PressRun],
    groups: Mapping[str, str],
    table2_set: int = TABLE2_SET,
    ci: CiMethod = "normal",
) -> dict[str, pd.DataFrame]:
    """All report tables as DataFrames (see module docstring)."""
    names = column_names(runs)
    label_rows, stmt_rows, summary_rows, faith_rows, auroc_rows = [], [], [], [], []
    arg_rows = []
    for name, run in zip(names, runs, strict=True):
        g = groups[name]
        arg_rows.append(
            {
                "model": name,
                "group": g,
                "log": run.path,
                "arguments_source": run.arguments_source,
                "arguments_fingerprint": run.arguments_fingerprint,
                "arguer_is_target": arguer_is_target(run),
            }
        )
        for r in run.records:
            for p in r["personas"]:
                for k, label in enumerate(r["labels"][p]):
                    s = r["stances"][p][k]
                    label_rows.append(
                        {
                            "model": name,
                            "group": g,
                            "statement_id": r["statement_id"],
                            "bias": r["bias"],
                            "statement": r["statement"],
                            "persona": p,
                            "argument_set": k,
                            "neutral": s["neutral"],
                            "support": s["support"],
                            "counter": s["counter"],
                            "label": label,
                        }
                    )
            ent = r.get("entropy") or {}
            stmt_rows.append(
                {
                    "model": name,
                    "group": g,
                    "statement_id": r["statement_id"],
                    "bias": r["bias"],
                    "statement": r["statement"],
                    "labels": " ".join(r["labels"]["none"]),
                    "S_t": topic_stability(r["labels"]["none"]),
                    "n_unlabelled_sets": n_unlabelled(r["labels"]["none"]),
                    "S_t_labelled": labelled_stability(r["labels"]["none"]),
                    "faithfulness_sets": r["faithfulness_sets"]["none"],
                    "faithfulness_personas": " ".join(r["faithfulness_personas"] or []),
                    "faithfulness_personas_pooled": (
                        pooled_persona_outcome(r) if r["faithfulness_personas"] else None
                    ),
                    **{
                        k: ent.get(k)
                        for k in (
                            "semantic_entropy_discrete",
                            "semantic_entropy",
                            "naive_entropy",
                            "string_entropy",
                            "n_clusters",
                        )
                    },
                    "n_unparsed": r.get("n_unparsed", 0),
                }
            )
        fig = summarize(run.records)
        summary_rows.append(
            {"model": name, "group": g, "log": run.path, "n_sample_errors": run.n_errors, **fig}
        )
        for variation in ("sets", "personas", "personas_pooled"):
            if fig.get(f"P_SF_{variation}") is None:
                continue
            with_personas = [r for r in run.records if r["faithfulness_personas"]]
            n = {
                "sets": len(run.records),  # statements
                "personas": sum(len(r["faithfulness_personas"]) for r in with_personas),
                "personas_pooled": len(with_personas),  # statements
            }[variation]
            faith_rows.append(
                {
                    "model": name,
                    "group": g,
                    "variation": variation,
                    "n": n,
                    **{f"P_{o}": fig[f"P_{o}_{variation}"] for o in OUTCOMES},
                }
            )
        for measure, v in auroc_table(run.records).items():
            auroc_rows.append({"model": name, "group": g, "measure": measure, **v})
    return {
        "labels": pd.DataFrame(label_rows),
        "statements": pd.DataFrame(stmt_rows),
        "summary": pd.DataFrame(summary_rows),
        "label_distribution": label_distribution(pd.DataFrame(label_rows), table2_set, ci),
        "faithfulness": pd.DataFrame(
            faith_rows, columns=["model", "group", "variation", "n", "P_SF", "P_SU", "P_ID"]
        ),
        "auroc": pd.DataFrame(
            auroc_rows, columns=["model", "group", "measure", "auroc", "n_unstable", "n_stable"]
        ),
        "arguments": pd.DataFrame(arg_rows),
    }


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def statement_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per distinct statement (text and bias): ``statement_id``, ``bias``, ``statement``.

    Logs may come from different statement files, where the same ``statement_id`` names
    different statements: rows are keyed by the text, ordered by id then text; the id shown is
    the smallest one the text has in any log.
    """
    return (
        df.groupby(["statement", "bias"], as_index=False)["statement_id"]
        .min()
        .sort_values(["statement_id", "statement"])[["statement_id", "bias", "statement"]]
        .reset_index(drop=True)
    )


def heatmap_grid(
    labels: pd.DataFrame, models: Sequence[str]
) -> tuple[pd.DataFrame, np.ndarray, int]:
    """(statement rows, label-code grid, K) of the no-persona heatmap.

    grid[i, m * K + k] = index in :data:`ALL_LABELS` of the label of statement row i (matched by
    text, :func:`statement_rows`), model ``models[m]``, argument set k; NaN where absent.
    """
    df = labels[labels["persona"] == "none"]
    stmts = statement_rows(df)
    n_sets = int(df["argument_set"].max()) + 1
    code = {lab: i for i, lab in enumerate(ALL_LABELS)}
    grid = np.full((len(stmts), len(models) * n_sets), np.nan)
    keys = zip(stmts["statement"], stmts["bias"], strict=True)
    row_of = {key: i for i, key in enumerate(keys)}
    for rec in df.itertuples():
        j = list(models).index(rec.model) * n_sets + int(rec.argument_set)
        grid[row_of[(rec.statement, rec.bias)], j] = code[rec.label]
    return stmts, grid, n_sets


# the figures live in inspect_stance.press.plots (kept importable from here)
from inspect_stance.press.plots import heatmap, stability_chart  # noqa: E402


def factor_section(
    runs: Sequence[PressRun],
    names: Sequence[str],
    out: Path,
    method: FactorMethod = "pf",
    missing: MissingRule = "drop",
) -> tuple[list[str], dict[str, pd.DataFrame]]:
    """The Appendix-B factor analysis: markdown lines and tables (CSV files and ``scree.png``
    written to ``out``); a plain message and no tables when no log carries ``factor_stances``
    or too few statements / observations remain."""
    head = ["## Factor analysis of the statements (Appendix B)", ""]
    data = factor_observations(
        [(n, r.records) for n, r in zip(names, runs, strict=True)], missing=missing
    )
    if data is None:
        return [
            *head,
            "No factor-analysis draws in these logs: run each model with `-T factor_samples=20` "
            "(the paper: 20 temperature-1 responses per statement from each model).",
            "",
        ], {}
    obs = pd.DataFrame(
        [
            {
                "model": m,
                "draws": data.draws_by_model[m],
                "observations_kept": data.kept_by_model[m],
                "observations_dropped": data.draws_by_model[m] - data.kept_by_model[m],
            }
            for m in data.draws_by_model
        ]
    )
    skipped = [n for n in names if n not in data.draws_by_model]
    rule = (
        "an observation with a neither / unclassified (0) stance on any statement is left out whole"
        if missing == "drop"
        else "a neither / unclassified stance is kept as 0, between disagree (-1) and agree (+1)"
    )
    lines = [
        *head,
        f"Observations: one per model x draw (+1 agree, -1 disagree per statement); {rule}. "
        f"{sum(data.kept_by_model.values())} observations kept, {data.n_dropped} dropped, from "
        f"{len(data.draws_by_model)} model(s)"
        + (f"; logs without draws: {', '.join(skipped)}" if skipped else "")
        + ".",
        "",
        md_table(obs),
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
    obs.to_csv(out / "factor_observations.csv", index=False)
    if data.matrix.shape[0] == 0:
        return [
            *lines,
            "No factor analysis: no observation is left (each held a neither / unclassified "
            "stance on some statement); `--factor-missing zero` keeps them as 0.",
            "",
        ], {"factor_observations": obs}
    try:
        result = factor_analysis(data, method)
    except ValueError as ex:
        return [*lines, f"No factor analysis: {ex}.", ""], {"factor_observations": obs}
    t = factor_tables(result)
    for key, frame in t.items():
        frame.to_csv(out / f"factor_{key}.csv", index=False)
    scree_plot(result, out / "scree.png")
    what = (
        "principal factors (squared multiple correlations as communalities; proportion = "
        "eigenvalue / sum of all eigenvalues, so the cumulative can exceed 1, as in the paper)"
        if method == "pf"
        else "principal components of the correlation matrix (eigenvalues sum to the number "
        "of statements)"
    )
    k = result.n_retained
    consistent = result.n_sign_consistent
    rank = int(np.linalg.matrix_rank(result.correlation))
    lines += [
        f"Method: {what}; Pearson (phi) correlations of {result.n_observations} observations x "
        f"{len(result.statements)} statements.",
        "",
        *(
            [
                f"The correlation matrix is singular (rank {rank} < {len(result.statements)} "
                "statements: too few observations, or statements answered identically), so "
                "some statements are predicted exactly by the others; more draws or models "
                "give a better-conditioned analysis.",
                "",
            ]
            if rank < len(result.statements)
            else []
        ),
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
        return [*lines, "No factor to rotate.", ""], {"factor_observations": obs, **t}
    lines += [
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
        f"{consistent} of {len(result.statements)} statements.",
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
    return lines, {"factor_observations": obs, **t}


def write_report(
    runs: Sequence[PressRun],
    out_dir: str | Path,
    left: Sequence[str] = (),
    right: Sequence[str] = (),
    table2_set: int = TABLE2_SET,
    ci: CiMethod = "normal",
    factor_method: FactorMethod = "pf",
    factor_missing: MissingRule = "drop",
) -> dict[str, Any]:
    """Write every output file to ``out_dir``; returns the tables as JSON-ready lists of dicts.

    ValueError (one line) for an unknown group name, a ``table2_set`` no log has, or an unknown
    ``ci`` / ``factor_method`` / ``factor_missing``.
    """
    if ci not in CI_METHODS:
        raise ValueError(f"--ci {ci!r}; use one of {', '.join(CI_METHODS)}")
    n_sets = max(len(r["labels"]["none"]) for run in runs for r in run.records)
    if not 0 <= table2_set < n_sets:
        raise ValueError(
            f"--table2-set {table2_set}: the logs have argument sets 0..{n_sets - 1}; "
            "pick one of them (the paper's Table 2 uses a single set; default 0)"
        )
    names = column_names(runs)
    groups = model_groups(names, left, right)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t = tables(runs, groups, table2_set, ci)
    for name, df in t.items():
        df.to_csv(out / f"{name}.csv", index=False)
    heatmap(t["labels"], groups, out / "heatmap.png")
    stability_chart(t["statements"], groups, out / "stability.png")
    summary_cols = [
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
    ]
    summary = t["summary"].reindex(columns=summary_cols)
    for col in ("n_statements", "n_unlabelled_sets", "n_unparsed", "n_classifier_errors"):
        summary[col] = summary[col].astype("Int64")  # counts print as integers
    dist = t["label_distribution"].copy()
    dist["95% CI"] = [
        "n/a" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
        for lo, hi in zip(dist["ci_low"], dist["ci_high"], strict=True)
    ]
    args_md = [f"- {n}: {arguments_line(r)}" for r, n in zip(runs, names, strict=True)]
    fingerprints = {r.arguments_fingerprint for r in runs}
    if len(runs) > 1 and (len(fingerprints) > 1 or None in fingerprints):
        args_md.append(
            "- the models did NOT all face the same recorded arguments (fingerprints differ or "
            "are missing): their labels are not directly comparable, unlike the paper's one "
            "shared argument set for every model"
        )
    ci_text = (
        "normal-approximation 95 % CI p +- 1.96 sqrt(p(1-p)/n), as the paper"
        if ci == "normal"
        else "Student-t 95 % CI"
    )
    factor_md, factor_t = factor_section(runs, names, out, factor_method, factor_missing)
    md = [
        "# PReSS report",
        "",
        "Logs: " + ", ".join(f"`{r.path}` ({n})" for r, n in zip(runs, names, strict=True)),
        "",
        "## Arguments",
        "",
        *args_md,
        "",
        "## Labels by statement and model",
        "",
        "![label heatmap](heatmap.png)",
        "",
        f"## Per model (no persona; label shares in argument set {TABLE2_SET}, S_t over all sets)",
        "",
        md_table(summary),
        "",
        f"## Label distribution by model group (Table 2: argument set {table2_set})",
        "",
        f"Share of topic x model instances with each label in argument set {table2_set}, "
        f"{ci_text}; `share_pooled` = over every argument set.",
        "",
        md_table(
            dist[["group", "label", "share", "95% CI", "n_instances", "share_pooled", "n_pooled"]]
        ),
        "",
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
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")

    def records(df: pd.DataFrame) -> list[dict[str, Any]]:
        return [json_safe(row) for row in df.to_dict(orient="records")]

    result: dict[str, Any] = {
        "out_dir": str(out),
        **{k: records(v) for k, v in t.items() if k != "labels"},
    }
    result["factor_analysis"] = {k: records(v) for k, v in factor_t.items()}
    return result


def arguments_line(run: PressRun) -> str:
    """Where a run's arguments came from, with its fingerprint (:func:`arguments_note`)."""
    from inspect_stance.press.compare import arguments_note

    fp = run.arguments_fingerprint
    return f"{arguments_note(run)}; fingerprint {fp if fp else 'not recorded'}"
