"""``press-report``: tables and figures over one or more PReSS logs (one model per log).

Outputs (in ``out_dir``): ``labels.csv`` (one row per model x statement x persona x argument
set), ``statements.csv`` (per model x statement: S_t, unlabelled sets, faithfulness, entropies),
``summary.csv`` (per model: the log's figures, :func:`inspect_stance.press.summary.summarize`),
``label_distribution.csv`` (the paper's Table 2,
:func:`~inspect_stance.press.report_tables.label_distribution`), ``faithfulness.csv``
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
model was not asked it. Under ``inspect eval --epochs N`` a statement's epochs are replicates of
one statement, never more statements (:mod:`inspect_stance.press.epochs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_stance.press.factor_analysis import FactorMethod, MissingRule
from inspect_stance.press.figures import stability_headline
from inspect_stance.press.logs import PressRun
from inspect_stance.press.report_markdown import build, factor_blocks, json_records
from inspect_stance.press.report_tables import (
    CI_METHODS,
    CiMethod,
    column_names,
    factor_section_data,
    model_groups,
    tables,
)
from inspect_stance.press.scree import few_observations_warning
from inspect_stance.press.summary import TABLE2_SET
from inspect_stance.report_doc import write_report as write_doc


def write_report(
    runs: Sequence[PressRun],
    out_dir: str | Path,
    left: Sequence[str] = (),
    right: Sequence[str] = (),
    table2_set: int = TABLE2_SET,
    ci: CiMethod = "normal",
    factor_method: FactorMethod = "pf",
    factor_missing: MissingRule = "drop",
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Write every output file to ``out_dir``; returns the tables as JSON-ready lists of dicts.
    A run's column is its ``labels`` name (``--label RUN=NAME``), else its model
    (:func:`~inspect_stance.press.report_tables.column_names`); ``left`` / ``right`` name columns.

    ValueError (one line) for an unknown group name, a ``table2_set`` no log has, or an unknown
    ``ci`` / ``factor_method`` / ``factor_missing``; InputError for a label naming no run.
    """
    if ci not in CI_METHODS:
        raise ValueError(f"--ci {ci!r}; use one of {', '.join(CI_METHODS)}")
    n_sets = max(len(r["labels"]["none"]) for run in runs for r in run.records)
    if not 0 <= table2_set < n_sets:
        raise ValueError(
            f"--table2-set {table2_set}: the logs have argument sets 0..{n_sets - 1}; "
            "pick one of them (the paper's Table 2 uses a single set; default 0)"
        )
    names = column_names(runs, labels)
    groups = model_groups(names, left, right)
    out = Path(out_dir)
    t = tables(runs, groups, table2_set, ci, labels)
    section = factor_section_data(runs, names, factor_method, factor_missing)
    factor = factor_blocks(section, factor_method, factor_missing)
    write_doc(build(runs, names, t, groups, table2_set, ci, factor), out)
    result: dict[str, Any] = {
        "out_dir": str(out),
        **{k: json_records(v) for k, v in t.items() if k != "labels"},
    }
    # each run's headline, the scorer's (press.figures.stability_headline), by its column name
    result["headline"] = {n: stability_headline(r.records).to_json()
                          for n, r in zip(names, runs, strict=True)}  # fmt: skip
    result["factor_analysis"] = {k: json_records(v) for k, v in section.frames.items()}
    warning = None if section.result is None else few_observations_warning(section.result)
    result["warnings"] = [f"factor analysis: {warning}"] if warning else []
    return result
