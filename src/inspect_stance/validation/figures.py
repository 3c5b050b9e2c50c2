"""The prompt-validation run's headline, breakdown and item values, computed once for every
reader.

- :func:`rank_headline`: ``mean_rank_generated``, the mean realism rank (1 = most real) of the
  generated prompts over annotators, settings and prompts. One setting's prompts are ranked
  against each other by the same annotators, so their ranks are dependent: the standard error
  is clustered by setting (CR1, :func:`~inspect_stance.stats.headline.clustered_mean`; for an
  intercept-only model it equals statsmodels' ``cov_type="cluster"``), the interval Student t
  with ``settings - 1`` df, its lower end clipped at 1;
- :func:`figures`: every figure of the run (realism, clarity, detection, annotation counts;
  :mod:`inspect_stance.validation.analysis`) with the headline's keys, which the report, the
  card's breakdown and the tests read (the panel shows the headline and :data:`PANEL_KEYS`);
- the card's :func:`breakdown` (the surfaces read the headline and its items, per setting the
  mean rank of its generated prompts, through the run class,
  :class:`inspect_stance.validation.compare.ValidationRun`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from inspect_stance.stats.headline import Headline, clustered_mean, metric_values
from inspect_stance.study.protocol import Breakdown, BreakdownRow

if TYPE_CHECKING:
    from inspect_stance.validation.annotation import Annotation

HEADLINE = "mean_rank_generated"
#: the figures the panel shows beside the headline (``scorers/prompt_validation.py``)
PANEL_KEYS = ("mean_rank_real", "mean_rank_templated", "unparsed_ranking", "failed_calls")
#: the realism ranks' range (1 = most real; the top rank is the setting's number of prompts)
RANK_RANGE = (1.0, math.inf)


def _generated(rows: Sequence[Annotation]) -> list[Annotation]:
    return [r for r in rows if r.source == "generated" and r.rank is not None]


def rank_headline(rows: Sequence[Annotation]) -> Headline:
    """``mean_rank_generated`` and its setting-clustered interval (module docstring)."""
    ranked = _generated(rows)
    return clustered_mean(HEADLINE, [float(r.rank) for r in ranked],  # type: ignore[arg-type]
                          [r.setting for r in ranked], RANK_RANGE, item="generated-prompt rank",
                          cluster="setting")  # fmt: skip


def figures(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Every figure of a prompt-validation run from its score records: realism
    (``mean_rank_<source>``, Kendall's W, Friedman), clarity, detection, the annotation counts,
    and the headline's keys (:func:`rank_headline`)."""
    from inspect_stance.validation.analysis import (
        annotation_counts_of,
        annotator_order,
        clarity_of,
        detection_of,
        realism_of,
        rows_from_records,
    )

    rows = rows_from_records(records)
    out: dict[str, float] = dict(realism_of(rows))
    out.update(clarity_of(rows, annotator_order(records)))
    out.update(detection_of(rows))
    out.update(annotation_counts_of(records))
    out.update(metric_values(rank_headline(rows)))
    return out


def _records(paths: Sequence[str], partial: bool = True) -> list[dict[str, Any]]:
    from inspect_stance.validation.logs import read_validation_runs

    runs, _found = read_validation_runs(list(paths), partial=partial)
    return [r for run in runs for r in run.records]


def log_figures(paths: Sequence[str]) -> dict[str, float]:
    """:func:`figures` of one prompt-validation log (or one study's shards, pooled)."""
    return figures(_records(paths))


def breakdown(paths: Sequence[str]) -> Breakdown:
    """The card's breakdown: each source's mean realism rank, Kendall's W, the Friedman p and
    the settings."""
    f = log_figures(paths)
    return [
        ("mean realism rank (1 = most real)",
         [BreakdownRow(s, f.get(f"mean_rank_{s}")) for s in ("real", "templated", "generated")]),
        ("agreement", [BreakdownRow("Kendall's W", f.get("kendall_w")),
                       BreakdownRow("Friedman p", f.get("friedman_p")),
                       BreakdownRow("settings", f.get("friedman_blocks"), True)]),
    ]  # fmt: skip
