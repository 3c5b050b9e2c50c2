"""Even-handedness runs compared pair by pair (``inspect-stance compare`` on its logs).

Items are pairs, matched by sample id (``{topic}-{index}``, the same pair in every run); the
topic is the cluster. Per pair:

- ``even_handedness``: the headline's per-pair value (the pair's ``even_handed`` 1/0, or its
  linearised value when the run is corrected for position bias: :mod:`.position`), whose
  mean over the run's pairs is its headline;
- ``p_even``: mean P(C) over graders and judged orders;
- ``refusal_rate`` / ``hedging_rate``: the pair's ``refusal`` / ``hedging`` (1/0; lower is better);
- ``direction``: P(A-better) - P(B-better) in [-1, 1] (no better direction: not ranked).

For every pair of runs and metric, ``delta = b - a`` over the shared pairs with its
topic-clustered interval (:func:`~inspect_stance.even_handedness.clustered.clustered_delta`);
the family's p-values are adjusted together and the runs ranked
(:mod:`inspect_stance.stats.family`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from inspect_stance.even_handedness.clustered import clustered_delta
from inspect_stance.even_handedness.logs import EvenRun, find_even_logs, run_info, topic_of
from inspect_stance.stats.family import (
    CompareResult,
    Comparison,
    MetricSpec,
    RunItems,
    adjust_family,
    overlap_notes,
    rankings,
)
from inspect_stance.stats.multiplicity import Adjust
from inspect_stance.study.protocol import CompareRequest, LoadedRuns

METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("even_handedness"),
    MetricSpec("p_even"),
    MetricSpec("refusal_rate", higher_is_better=False),
    MetricSpec("hedging_rate", higher_is_better=False),
    MetricSpec("direction", value_range=(-1.0, 1.0), rank=False),
)


def pair_items(run: EvenRun, name: str, metrics: Sequence[MetricSpec] = METRICS) -> RunItems:
    """Per metric, ``{sample id: value}`` over the pairs where the value is known
    (:meth:`EvenRun.items`), each pair clustered by its topic (rankings and tied groups read
    the clusters)."""
    items = {m.name: {k: v for k, (_, v) in run.items(m.name).items()} for m in metrics}
    return RunItems(
        name=name, items=items, clusters={sid: topic_of(run, sid) for sid in run.records}
    )


def clustered_comparison(
    a: EvenRun, b: EvenRun, names: tuple[str, str], spec: MetricSpec, confidence: float
) -> Comparison:
    """``delta = b - a`` of ``spec`` over the shared pairs, clustered by topic."""
    ia = pair_items(a, names[0], [spec]).items[spec.name]
    ib = pair_items(b, names[1], [spec]).items[spec.name]
    keys = [k for k in ia if k in ib]
    va, vb = [ia[k] for k in keys], [ib[k] for k in keys]
    res = clustered_delta([y - x for x, y in zip(va, vb, strict=True)],
                          [topic_of(a, k) for k in keys], confidence)  # fmt: skip
    mean = lambda v: sum(v) / len(v) if v else float("nan")  # noqa: E731
    return Comparison(spec.name, names[0], names[1], mean(va), mean(vb), res.delta, res.ci,
                      res.p, res.test, res.n)  # fmt: skip


def compare_even(
    runs: Sequence[EvenRun],
    names: Sequence[str],
    confidence: float = 0.95,
    adjust: Adjust = "holm",
    alpha: float = 0.05,
    metrics: Sequence[MetricSpec] = METRICS,
) -> CompareResult:
    """Every pair of runs x metric, adjusted together; rankings over the shared pairs."""
    items = [pair_items(r, n, metrics) for r, n in zip(runs, names, strict=True)]
    comps = [
        clustered_comparison(ra, rb, (na, nb), spec, confidence)
        for (ra, na), (rb, nb) in itertools.combinations(zip(runs, names, strict=True), 2)
        for spec in metrics
    ]
    comps = adjust_family(comps, adjust)
    info: list[dict[str, Any]] = [
        {"name": n, "source": r.path, "model": r.model, "n_items": len(r.records),
         "n_unparsed": sum(int(x.get("unparsed") or 0) for x in r.records.values())}
        for r, n in zip(runs, names, strict=True)
    ]  # fmt: skip
    notes = ["items are pairs (matched by sample id), clustered by topic; the interval is "
             "cluster-robust over topics"]  # fmt: skip
    notes += overlap_notes(items, metrics[0].name, "pairs")
    return CompareResult("even_handedness", info, comps, rankings(items, metrics, comps, alpha),
                         adjust, alpha, confidence, notes)  # fmt: skip


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The even-handedness runs among ``paths`` (files and folders; the shards of one study
    pooled into one run, an incomplete set with ``request.partial``), one
    :class:`~inspect_stance.runs.RunInfo` each, and what was skipped (``compare``'s reader for
    the study protocol: a ``LoadedRuns``)."""
    runs, skipped = find_even_logs(paths, request.partial)
    return LoadedRuns([*runs], [run_info(r) for r in runs], [skipped] if skipped else [])


def compare_runs(
    runs: Sequence[EvenRun],
    names: Sequence[str],
    metrics: Sequence[MetricSpec],
    request: CompareRequest,
) -> CompareResult:
    """:func:`compare_even` with the request's confidence, adjustment and level."""
    return compare_even(runs, names, request.confidence, request.adjust, request.alpha, metrics)
