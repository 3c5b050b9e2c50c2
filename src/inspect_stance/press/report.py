"""``press-report``: tables and figures over one or more PReSS logs (one model per log).

Outputs (in ``out_dir``): ``labels.csv`` (one row per model x statement x persona x argument
set), ``statements.csv`` (per model x statement: S_t, faithfulness, entropies), ``summary.csv``
(per model: the log's figures, :func:`inspect_stance.press.summary.summarize`),
``label_distribution.csv`` (Table-2 style: mean share of each no-persona label per topic x model
instance, by model group, with 95 % Student-t CIs over those instances), ``faithfulness.csv``
(P_SF / P_SU / P_ID per model; variation ``sets``: per statement across argument sets, no
persona; ``personas``: per statement x argument set across the three personas;
``personas_pooled``: per statement across all persona x argument-set conditions), ``auroc.csv``,
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
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from inspect_stance.press.faithfulness import OUTCOMES
from inspect_stance.press.labels import ALL_LABELS
from inspect_stance.press.logs import PressRun
from inspect_stance.press.summary import auroc_table, pooled_persona_outcome, summarize

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


def tables(runs: Sequence[PressRun], groups: Mapping[str, str]) -> dict[str, pd.DataFrame]:
    """All report tables as DataFrames (see module docstring)."""
    names = column_names(runs)
    label_rows, stmt_rows, summary_rows, faith_rows, auroc_rows = [], [], [], [], []
    for name, run in zip(names, runs, strict=True):
        g = groups[name]
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
                    "S_t": r["S_t"]["none"],
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
    # Table 2: per topic x model instance, share of each label over its argument sets
    dist_rows = []
    inst = pd.DataFrame(label_rows)
    inst = inst[inst["persona"] == "none"]
    shares = (
        inst.groupby(["group", "model", "statement_id"])["label"]
        .value_counts(normalize=True)
        .unstack(fill_value=0.0)
        .reindex(columns=list(ALL_LABELS), fill_value=0.0)
        .reset_index()
    )
    present = [g for g in GROUPS if g in set(shares["group"])]
    for g in [*present, "all"]:
        sub = shares if g == "all" else shares[shares["group"] == g]
        for label in ALL_LABELS:
            m, lo, hi = mean_ci(sub[label].tolist())
            dist_rows.append(
                {
                    "group": g,
                    "label": label,
                    "share": m,
                    "ci_low": lo,
                    "ci_high": hi,
                    "n_instances": len(sub),
                }
            )
    return {
        "labels": pd.DataFrame(label_rows),
        "statements": pd.DataFrame(stmt_rows),
        "summary": pd.DataFrame(summary_rows),
        "label_distribution": pd.DataFrame(dist_rows),
        "faithfulness": pd.DataFrame(
            faith_rows, columns=["model", "group", "variation", "n", "P_SF", "P_SU", "P_ID"]
        ),
        "auroc": pd.DataFrame(
            auroc_rows, columns=["model", "group", "measure", "auroc", "n_unstable", "n_stable"]
        ),
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


def heatmap(labels: pd.DataFrame, groups: Mapping[str, str], path: Path) -> None:
    """Label heatmap: statements as rows; models as columns ordered by group; one stripe per set."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    models = [m for g in GROUPS for m in groups if groups[m] == g]
    stmts, grid, n_sets = heatmap_grid(labels, models)
    fig_w = 6.5 + 0.9 * len(models)
    fig, ax = plt.subplots(figsize=(fig_w, 0.32 * len(stmts) + 2.2))
    cmap = ListedColormap([LABEL_COLOURS[lab] for lab in ALL_LABELS]).with_extremes(bad="white")
    ax.imshow(
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=-0.5,
        vmax=len(ALL_LABELS) - 0.5,
        aspect="auto",
        interpolation="nearest",
    )
    for j in range(1, len(models) * n_sets):
        ax.axvline(j - 0.5, color="white", lw=3 if j % n_sets == 0 else 0.4)
    ax.set_xticks([j * n_sets + (n_sets - 1) / 2 for j in range(len(models))])
    ax.set_xticklabels([f"{m}\n[{groups[m]}]" for m in models], rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(stmts)))
    ax.set_yticklabels(
        [f"{sid:02d} [{b[0].upper()}] {_short(t)}" for sid, b, t in stmts.itertuples(index=False)],
        fontsize=7,
    )
    ax.set_title(
        f"PReSS labels (no persona; {n_sets} argument set stripe(s) per model)", fontsize=10
    )
    ax.legend(
        handles=[Patch(color=LABEL_COLOURS[lab], label=lab) for lab in ALL_LABELS],
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def stability_chart(statements: pd.DataFrame, groups: Mapping[str, str], path: Path) -> None:
    """Horizontal grouped bars: S_t per statement, one bar per model (0 = a tick; undefined = n/a)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = [m for g in GROUPS for m in groups if groups[m] == g]
    stmts = statement_rows(statements)
    fig, ax = plt.subplots(figsize=(10, 0.25 * len(stmts) * max(1, len(models)) ** 0.5 + 2))
    height = 0.8 / max(1, len(models))
    for j, m in enumerate(models):
        sub = statements[statements["model"] == m].set_index(["statement", "bias"])["S_t"]
        ys = np.arange(len(stmts)) + (j - (len(models) - 1) / 2) * height
        keys = zip(stmts["statement"], stmts["bias"], strict=True)
        vals = [sub.get(key) if key in sub.index else None for key in keys]
        xs = [
            np.nan if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
            for v in vals
        ]
        bars = ax.barh(ys, xs, height=height, label=f"{m} [{groups[m]}]")
        for y, x in zip(ys, xs, strict=True):
            if math.isnan(x):  # undefined S_t (no labelled set): say so instead of an empty bar
                ax.text(0.005, y, "n/a", va="center", fontsize=5, color="grey")
            elif x == 0.0:
                ax.plot(
                    [0.0, 0.0],
                    [y - height / 2, y + height / 2],
                    color=bars.patches[0].get_facecolor(),
                    lw=2,
                )
    ax.set_yticks(range(len(stmts)))
    ax.set_yticklabels(
        [
            f"{sid:02d} [{b[0].upper()}] {_short(t, 50)}"
            for sid, b, t in stmts.itertuples(index=False)
        ],
        fontsize=7,
    )
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("topic stability S_t (share of labelled argument sets that are stable)")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def _md(df: pd.DataFrame) -> str:
    """A DataFrame as a markdown table (floats to 3 decimals; None / NaN as n/a)."""
    cols = list(df.columns)

    def cell(v: Any) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "n/a"
        if isinstance(v, float) and v.is_integer() and abs(v) > 1:
            return str(int(v))
        if isinstance(v, float):
            return f"{v:.3f}"
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def write_report(
    runs: Sequence[PressRun],
    out_dir: str | Path,
    left: Sequence[str] = (),
    right: Sequence[str] = (),
) -> dict[str, Any]:
    """Write every output file to ``out_dir``; returns the tables as JSON-ready lists of dicts."""
    names = column_names(runs)
    groups = model_groups(names, left, right)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t = tables(runs, groups)
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
        "lean_right",
        "n_unparsed",
        "n_classifier_errors",
        "n_sample_errors",
    ]
    summary = t["summary"].reindex(columns=summary_cols)
    dist = t["label_distribution"].copy()
    dist["95% CI"] = [
        "n/a" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"
        for lo, hi in zip(dist["ci_low"], dist["ci_high"], strict=True)
    ]
    md = [
        "# PReSS report",
        "",
        "Logs: " + ", ".join(f"`{r.path}` ({n})" for r, n in zip(runs, names, strict=True)),
        "",
        "## Labels by statement and model",
        "",
        "![label heatmap](heatmap.png)",
        "",
        "## Per model (no persona)",
        "",
        _md(summary),
        "",
        "## Label distribution by model group (mean share per topic x model instance, 95 % t CI)",
        "",
        _md(dist[["group", "label", "share", "95% CI", "n_instances"]]),
        "",
        "## Topic stability",
        "",
        "![S_t per statement](stability.png)",
        "",
        "## Stability faithfulness (SF / SU / ID)",
        "",
        "`sets`: per statement across its argument sets (no persona); `personas`: per statement x"
        " argument set across the three personas; `personas_pooled`: per statement across all"
        " persona x argument-set conditions. `n` = outcomes counted.",
        "",
        _md(t["faithfulness"]) if len(t["faithfulness"]) else "No faithfulness outcomes.",
        "",
        "## Uncertainty validation: AUROC of entropy for unstable labels",
        "",
        _md(t["auroc"])
        if len(t["auroc"])
        else "No entropy samples in these logs (run with `-T entropy_samples=true`).",
        "",
    ]
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")

    def records(df: pd.DataFrame) -> list[dict[str, Any]]:
        return [
            {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
            for row in df.to_dict(orient="records")
        ]

    return {"out_dir": str(out), **{k: records(v) for k, v in t.items() if k != "labels"}}
