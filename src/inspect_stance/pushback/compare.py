"""Pushback runs compared conversation by conversation (``inspect-stance compare`` on its logs).

Items are the pushback conversations reaching ``K`` (control left out), matched by sample id
(``{topic_id}-{style}-{stance}-{trial}``); the proposition is the cluster. Per conversation:
``held_at_K`` (1/0, the headline's item value), ``flips``, ``turns_held`` and ``final_shift``.
For each pair of runs and metric, ``delta = b - a`` is the mean of the paired differences with
its proposition-clustered standard error (:func:`inspect_stance.stats.headline.clustered_mean`:
CR1, t with ``G - 1`` df) and ``p = 2 P(t_{G-1} > |delta / se|)``; the family's p-values are
adjusted together and the runs ranked (:mod:`inspect_stance.stats.family`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from inspect_stance.pushback.logs import (
    PushbackRun,
    conversation_values,
    find_pushback_logs,
    run_info,
)
from inspect_stance.stats.family import (
    CompareResult,
    Comparison,
    MetricSpec,
    RunItems,
    adjust_family,
    overlap_notes,
    rankings,
)
from inspect_stance.stats.headline import clustered_mean
from inspect_stance.study.protocol import CompareRequest, LoadedRuns

METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("held_at_K"),
    MetricSpec("turns_held", value_range=(0.0, 5.0)),
    MetricSpec("flips", higher_is_better=False, value_range=(0.0, 5.0)),
    MetricSpec("final_shift", higher_is_better=False, value_range=(-4.0, 4.0)),
)


def conversation_items(run: PushbackRun, metrics: Sequence[MetricSpec] = METRICS
                       ) -> tuple[dict[str, dict[str, float]], dict[str, str]]:  # fmt: skip
    """Per metric, ``{conversation id: value}``, and each conversation's proposition
    (:func:`inspect_stance.pushback.logs.conversation_values`)."""
    return conversation_values(run, [m.name for m in metrics])


def paired(a: PushbackRun, b: PushbackRun, names: tuple[str, str], spec: MetricSpec,
           confidence: float) -> Comparison:  # fmt: skip
    """``delta = b - a`` of ``spec`` over the shared conversations, clustered by proposition."""
    from scipy.stats import t as student_t

    (ia, ca), (ib, _) = conversation_items(a, [spec]), conversation_items(b, [spec])
    va, vb = ia[spec.name], ib[spec.name]
    keys = [k for k in va if k in vb]
    lo, hi = spec.value_range
    h = clustered_mean(spec.name, [vb[k] - va[k] for k in keys], [ca[k] for k in keys],
                       (lo - hi, hi - lo), confidence, "conversation", "proposition")  # fmt: skip
    p = (2 * float(student_t.sf(abs(h.value / h.se), h.df))
         if h.df and h.se > 0 else (1.0 if h.value == 0 else math.nan))  # fmt: skip
    mean = lambda v: sum(v) / len(v) if v else math.nan  # noqa: E731
    return Comparison(spec.name, names[0], names[1], mean([va[k] for k in keys]),
                      mean([vb[k] for k in keys]), h.value, h.interval, p,
                      f"paired t, clustered by proposition ({h.n_clusters})", len(keys))  # fmt: skip


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The pushback runs among ``paths`` (the shards of one study pooled; ``request.partial``:
    an incomplete set too), one RunInfo each, and what was skipped."""
    runs, skipped = find_pushback_logs(paths, request.partial)
    return LoadedRuns(list(runs), [run_info(r) for r in runs], [skipped] if skipped else [])


def compare_runs(runs: Sequence[PushbackRun], names: Sequence[str],
                 metrics: Sequence[MetricSpec], request: CompareRequest) -> CompareResult:  # fmt: skip
    """Every pair of runs x metric (module docstring), adjusted together; rankings."""
    pairs = itertools.combinations(zip(runs, names, strict=True), 2)
    comps = [paired(ra, rb, (na, nb), spec, request.confidence)
             for (ra, na), (rb, nb) in pairs for spec in metrics]  # fmt: skip
    comps = adjust_family(comps, request.adjust)
    items = [
        RunItems(n, conversation_items(r, metrics)[0]) for r, n in zip(runs, names, strict=True)
    ]
    info: list[dict[str, Any]] = [{"name": n, "source": r.path, "model": r.model,
                                   "n_items": len(items[k].items[metrics[0].name])}
                                  for k, (r, n) in enumerate(zip(runs, names, strict=True))]  # fmt: skip
    notes = ["items are pushback conversations (matched by sample id), clustered by "
             "proposition; t with propositions - 1 df"]  # fmt: skip
    notes += overlap_notes(items, metrics[0].name, "conversations")
    return CompareResult("pushback", info, comps, rankings(items, metrics, comps, request.alpha),
                         request.adjust, request.alpha, request.confidence, notes)  # fmt: skip
