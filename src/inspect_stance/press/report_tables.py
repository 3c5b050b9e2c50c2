"""PReSS report analysis: the report's tables from PReSS runs (data in, DataFrames out).

No formatting here: :mod:`inspect_stance.press.report_markdown` lays these tables out as a
report, :mod:`inspect_stance.press.plots` draws them and :mod:`inspect_stance.press.report` has
the files written (the tables and their columns are listed in that module's docstring).

Statements are matched across logs by their text (not their position in the statements file),
so logs run on different statement files give one row per distinct statement.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd
from scipy import stats

from inspect_stance.press.compare import arguer_is_target
from inspect_stance.press.epochs import epoch_mean, n_epochs, statement_epochs
from inspect_stance.press.factor_analysis import (
    FactorData,
    FactorMethod,
    FactorResult,
    MissingRule,
    factor_analysis,
    factor_observations,
    factor_tables,
)
from inspect_stance.press.faithfulness import OUTCOMES
from inspect_stance.press.labels import ALL_LABELS
from inspect_stance.press.logs import PressRun
from inspect_stance.press.stability import labelled_stability, n_unlabelled, topic_stability
from inspect_stance.press.summary import TABLE2_SET, auroc_table, pooled_persona_outcome, summarize
from inspect_stance.printable import printable
from inspect_stance.runs import check_labels, label_for

CiMethod = Literal["normal", "t"]
CI_METHODS: tuple[str, ...] = get_args(CiMethod)

GROUPS: tuple[str, ...] = ("left", "right", "ungrouped")
ENTROPY_COLUMNS: tuple[str, ...] = (
    "semantic_entropy_discrete",
    "semantic_entropy",
    "naive_entropy",
    "string_entropy",
    "n_clusters",
)


def column_names(runs: Sequence[PressRun], labels: Mapping[str, str] | None = None) -> list[str]:
    """One column name per run: its ``--label`` name (``RUN=NAME``, RUN the log's path as given
    or its file name: :func:`inspect_stance.runs.label_for`), else the model name; suffixed
    ' (2)', ' (3)' ... when repeated. InputError for a label that names no run."""

    labels = labels or {}
    check_labels([run.path for run in runs], labels)
    names: list[str] = []
    for run in runs:
        label = label_for(run.path, labels)
        base = run.model if label is None else printable(label)
        name, n = base, 2
        while name in names:
            name = f"{base} ({n})"
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
    """Share p (the mean) of the ``values`` in [0, 1], one per instance, and its two-sided CI,
    clipped to [0, 1].

    ``normal`` (the paper's, default): the normal-approximation (Wald) interval
    p +- z_{(1+level)/2} sqrt(v / n), v = p (1 - p) - (1/n) sum_i x_i (1 - x_i) the variance of
    the values (ddof 0): p (1 - p) for 0/1 values, which reproduces every cell of the paper's
    Table 2 (e.g. 57 of 152 instances: 37.5 +- 7.7); for an instance's share of its epochs
    (``--epochs N``) the variance between instances, the epochs varying within them. ``t``:
    :func:`mean_ci` (Student t on the values, sample standard deviation). NaN bounds for an
    empty list (normal) or fewer than 2 values (t).
    At a share of 0 or 1 both have no width (p (1 - p) = 0, s = 0), so there the exact
    Clopper-Pearson interval is given: ``[0, 1 - ((1 - level) / 2) ** (1 / n)]`` for 0 of n
    (0.176 for 0 of 19), its mirror for n of n.
    """
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n and float(np.mean(x)) in (0.0, 1.0):  # Wald and t have no width at 0/n and n/n
        return _exact_at_the_edge(int(round(float(np.sum(x)))), n, level)
    if method == "t":
        return mean_ci(values, level)
    if n == 0:
        return math.nan, math.nan, math.nan
    p = float(np.mean(x))
    variance = max(0.0, p * (1 - p) - float(np.mean(x * (1 - x))))  # p (1 - p) for 0/1 values
    half = float(stats.norm.ppf((1 + level) / 2)) * math.sqrt(variance / n)
    return p, max(0.0, p - half), min(1.0, p + half)


def _exact_at_the_edge(x: int, n: int, level: float) -> tuple[float, float, float]:
    """Share ``x / n`` (``x`` 0 or ``n``) and its Clopper-Pearson interval (statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(x, n, alpha=1 - level, method="beta")
    return x / n, float(np.nan_to_num(lo, nan=0.0)), float(np.nan_to_num(hi, nan=1.0))


def label_distribution(
    labels: pd.DataFrame, argument_set: int = TABLE2_SET, ci: CiMethod = "normal"
) -> pd.DataFrame:
    """The paper's Table 2: share of each label over the no-persona topic x model instances of a
    group (left / right / ungrouped / all), in ONE argument set (``argument_set``, default the
    first: "using a single set of supporting- and counter-arguments"), with its 95 % CI
    (:func:`share_ci`); ``share_pooled`` / ``n_pooled``: the same share over every argument set
    (topic x model x set instances, x epoch under ``--epochs N``), without a CI (the sets of one
    topic are not independent).

    Within a group the instances are pooled (share = count / n), which equals the mean of the
    per-model shares when every model answered the same statements. Under ``--epochs N``
    (``labels`` with an ``epoch`` column) a topic x model instance is still one instance: its
    value is the share of its epochs with the label, the share is the mean over instances and
    ``n_instances`` counts instances (:mod:`inspect_stance.press.epochs`).
    """
    df = labels[labels["persona"] == "none"]
    single = df[df["argument_set"] == argument_set]
    rows = []
    present = [g for g in GROUPS if g in set(df["group"])]
    for g in [*present, "all"]:
        one = single if g == "all" else single[single["group"] == g]
        pool = df if g == "all" else df[df["group"] == g]
        for label in ALL_LABELS:
            values = instance_shares(one, label)
            share, lo, hi = share_ci(values, method=ci)
            rows.append(
                {
                    "group": g,
                    "label": label,
                    "argument_set": argument_set,
                    "share": share,
                    "ci_low": lo,
                    "ci_high": hi,
                    "n_instances": len(values),
                    "share_pooled": float((pool["label"] == label).mean()) if len(pool) else None,
                    "n_pooled": len(pool),
                }
            )
    return pd.DataFrame(rows)


def instance_shares(labels: pd.DataFrame, label: str) -> list[float]:
    """Per topic x model instance (rows of ``labels``), 1.0 when labelled ``label`` else 0.0;
    under ``--epochs N`` (an ``epoch`` column) the share of the instance's epochs so labelled,
    instances in the order they first appear."""
    hit = (labels["label"] == label).astype(float)
    if "epoch" not in labels.columns:
        return [float(x) for x in hit]
    by = hit.groupby([labels["model"], labels["statement"]], sort=False)
    return [float(x) for x in by.mean()]


def tables(
    runs: Sequence[PressRun],
    groups: Mapping[str, str],
    table2_set: int = TABLE2_SET,
    ci: CiMethod = "normal",
    labels: Mapping[str, str] | None = None,
) -> dict[str, pd.DataFrame]:
    """All report tables as DataFrames (see :mod:`inspect_stance.press.report`); runs named by
    :func:`column_names`. Under ``--epochs N`` (any run with several records of a statement)
    ``labels`` has an ``epoch`` column and ``statements`` one row per model x statement over its
    epochs (:func:`statement_row`)."""
    names = column_names(runs, labels)
    multi = any(n_epochs(run.records) > 1 for run in runs)
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
        for recs in statement_epochs(run.records).values():
            for epoch, r in enumerate(recs, 1):
                label_rows += label_rows_of(name, g, r, epoch if multi else None)
            stmt_rows.append(statement_row(name, g, recs, multi))
        fig = summarize(run.records)
        summary_rows.append(
            {"model": name, "group": g, "log": run.path, "n_sample_errors": run.n_errors, **fig}
        )
        faith_rows += faithfulness_rows(name, g, run, fig)
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


def label_rows_of(
    name: str, group: str, r: Mapping[str, Any], epoch: int | None = None
) -> list[dict[str, Any]]:
    """One row per persona x argument set of a statement record: its three stances and label
    (and its ``epoch`` when given)."""
    rows = []
    for p in r["personas"]:
        for k, label in enumerate(r["labels"][p]):
            s = r["stances"][p][k]
            rows.append(
                {
                    "model": name,
                    "group": group,
                    "statement_id": r["statement_id"],
                    "bias": r["bias"],
                    "statement": r["statement"],
                    **({} if epoch is None else {"epoch": epoch}),
                    "persona": p,
                    "argument_set": k,
                    "neutral": s["neutral"],
                    "support": s["support"],
                    "counter": s["counter"],
                    "label": label,
                }
            )
    return rows


def statement_row(
    name: str, group: str, records: Sequence[Mapping[str, Any]], with_epochs: bool = False
) -> dict[str, Any]:
    """The statements.csv row of a statement's records (one per epoch; one without
    ``--epochs``), no persona: ``labels`` (epochs separated by `` | ``), ``S_t``,
    ``S_t_labelled`` and the entropies as the mean over epochs of each epoch's value
    (:func:`~inspect_stance.press.epochs.epoch_mean`), ``n_unlabelled_sets`` and ``n_unparsed``
    summed over epochs, the faithfulness outcomes one per epoch (space-separated; the persona
    ones per set, epochs separated by `` | ``); ``epochs`` (the records) when ``with_epochs``."""
    r = records[0]
    sets = [rec["labels"]["none"] for rec in records]
    ents = [rec.get("entropy") or {} for rec in records]
    pooled = [pooled_persona_outcome(rec) for rec in records if rec["faithfulness_personas"]]
    return {
        "model": name,
        "group": group,
        "statement_id": r["statement_id"],
        "bias": r["bias"],
        "statement": r["statement"],
        **({"epochs": len(records)} if with_epochs else {}),
        "labels": " | ".join(" ".join(ls) for ls in sets),
        "S_t": epoch_mean([topic_stability(ls) for ls in sets]),
        "n_unlabelled_sets": sum(n_unlabelled(ls) for ls in sets),
        "S_t_labelled": epoch_mean([labelled_stability(ls) for ls in sets]),
        "faithfulness_sets": " ".join(rec["faithfulness_sets"]["none"] for rec in records),
        "faithfulness_personas": " | ".join(" ".join(rec["faithfulness_personas"] or [])
                                            for rec in records),
        "faithfulness_personas_pooled": " ".join(pooled) if pooled else None,
        **{k: epoch_mean([e.get(k) for e in ents]) for k in ENTROPY_COLUMNS},
        "n_unparsed": sum(rec.get("n_unparsed", 0) for rec in records),
    }  # fmt: skip


def faithfulness_rows(
    name: str, group: str, run: PressRun, fig: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """P_SF / P_SU / P_ID of a run per variation (sets, personas, personas_pooled) present in
    its summary ``fig``; ``n`` = outcomes counted (statements, statement x set, statements).
    Under ``--epochs N`` the P are the summary's, means over statement-epochs (the headline's
    rule), and ``n`` still counts statements (x sets), not epochs."""
    rows = []
    with_personas = statement_epochs(r for r in run.records if r["faithfulness_personas"])
    n_of = {
        "sets": len(statement_epochs(run.records)),  # statements
        "personas": sum(len(rs[0]["faithfulness_personas"]) for rs in with_personas.values()),
        "personas_pooled": len(with_personas),  # statements
    }
    for variation in ("sets", "personas", "personas_pooled"):
        if fig.get(f"P_SF_{variation}") is None:
            continue
        rows.append(
            {
                "model": name,
                "group": group,
                "variation": variation,
                "n": n_of[variation],
                **{f"P_{o}": fig[f"P_{o}_{variation}"] for o in OUTCOMES},
            }
        )
    return rows


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
    text, :func:`statement_rows`), model ``models[m]``, argument set k; NaN where absent. Under
    ``--epochs N`` (an ``epoch`` column, E = :func:`heatmap_epochs`) one stripe per set and
    epoch: grid[i, (m * K + k) * E + e - 1].
    """
    df = labels[labels["persona"] == "none"]
    stmts = statement_rows(df)
    n_sets = int(df["argument_set"].max()) + 1
    n_ep = heatmap_epochs(labels)
    code = {lab: i for i, lab in enumerate(ALL_LABELS)}
    grid = np.full((len(stmts), len(models) * n_sets * n_ep), np.nan)
    keys = zip(stmts["statement"], stmts["bias"], strict=True)
    row_of = {key: i for i, key in enumerate(keys)}
    for rec in df.itertuples():
        j = list(models).index(rec.model) * n_sets + int(rec.argument_set)
        j = j * n_ep + int(getattr(rec, "epoch", 1)) - 1
        grid[row_of[(rec.statement, rec.bias)], j] = code[rec.label]
    return stmts, grid, n_sets


def heatmap_epochs(labels: pd.DataFrame) -> int:
    """Epochs per argument set in the heatmap: the largest ``epoch`` (1 without the column)."""
    return int(labels["epoch"].max()) if "epoch" in labels.columns and len(labels) else 1


@dataclass(frozen=True)
class FactorSection:
    """The Appendix-B factor analysis of a report: what was computed, or why not.

    ``data`` None: no log carries ``factor_stances``; ``result`` None with ``data`` set: no
    observation left, or ``error`` (the analysis' ValueError message); ``tables``: the
    eigenvalue, rotated-variance and loadings tables (:func:`factor_tables`).
    """

    data: FactorData | None
    observations: pd.DataFrame | None = None
    skipped: list[str] = field(default_factory=list)
    result: FactorResult | None = None
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    error: str | None = None
    rank: int = 0  # rank of the correlation matrix

    @property
    def frames(self) -> dict[str, pd.DataFrame]:
        """Every table of the section: ``factor_observations`` and the analysis tables."""
        obs = {} if self.observations is None else {"factor_observations": self.observations}
        return {**obs, **self.tables}


def factor_section_data(
    runs: Sequence[PressRun],
    names: Sequence[str],
    method: FactorMethod = "pf",
    missing: MissingRule = "drop",
) -> FactorSection:
    """Observations per model (draws, kept, dropped) and the factor analysis of the runs."""
    data = factor_observations(
        [(n, r.records) for n, r in zip(names, runs, strict=True)], missing=missing
    )
    if data is None:
        return FactorSection(None)
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
    if data.matrix.shape[0] == 0:
        return FactorSection(data, obs, skipped)
    try:
        result = factor_analysis(data, method)
    except ValueError as ex:
        return FactorSection(data, obs, skipped, error=str(ex))
    rank = int(np.linalg.matrix_rank(result.correlation))
    return FactorSection(data, obs, skipped, result, factor_tables(result), rank=rank)
