"""The PReSS run's headline, breakdown and item values, computed once for every reader.

- :func:`stability_headline`: ``mean_S_t``, the mean over statements of each statement's topic
  stability ``S_t`` (stable argument sets / sets, no persona), with ``se = sd(S_t) / sqrt(n)``
  and a Student t interval with ``n - 1`` df clipped to ``[0, 1]``: each statement faces its own
  argument sets, so the statements are the items and the independent units;
- :func:`figures`: every run-level figure (:func:`inspect_stance.press.summary.run_metrics`)
  with the headline's keys, which the report, the card's breakdown and the tests read (the
  panel shows the headline and :data:`PANEL_KEYS` only);
- :func:`usable_headline`: the ``press_arguments`` task's headline, the mean over statements of
  the share of argument sets with both texts;
- the :class:`~inspect_stance.study.protocol.TaskHeadline` hooks :func:`pooled_headline`,
  :func:`breakdown`, :func:`items` (and :func:`pooled_usable` for ``press_arguments``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_stance.press.stability import stability_headline
from inspect_stance.stats.headline import Headline, clustered_share
from inspect_stance.study.protocol import Breakdown, BreakdownRow, ItemValues

#: the figures the panel shows beside the headline (``scorers/press.py``)
PANEL_KEYS = ("n_statements", "lean_right", "n_unparsed", "n_classifier_errors")
#: the ``press_arguments`` task's headline metric (its scorer's ``mean``)
USABLE = "mean"


def figures(records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """Every run-level PReSS figure (:func:`inspect_stance.press.summary.run_metrics`) with
    the headline's keys (:func:`stability_headline`) over them."""
    from inspect_stance.press.summary import run_metrics
    from inspect_stance.stats.headline import metric_values

    out: dict[str, float | None] = dict(run_metrics(records))
    out.update(metric_values(stability_headline(records)))
    return out


def _records(paths: Sequence[str], partial: bool = True) -> list[dict[str, Any]]:
    from inspect_stance.press.logs import pool_press_runs, read_press_log

    runs = pool_press_runs([read_press_log(p) for p in paths], partial=partial)
    return [r for run in runs for r in run.records]


def log_figures(paths: Sequence[str]) -> dict[str, float | None]:
    """:func:`figures` of one PReSS log (or one study's shard logs, pooled)."""
    return figures(_records(paths))


def pooled_headline(paths: Sequence[str], partial: bool) -> Headline:
    """The headline of one study's shard logs: the shards pooled
    (:func:`inspect_stance.press.logs.pool_press_runs`; ``partial``: an incomplete set) and
    :func:`stability_headline` over their statements."""
    return stability_headline(_records(paths, partial))


def breakdown(paths: Sequence[str]) -> Breakdown:
    """The card's breakdown: the PReSS label shares (of statements, argument set 0), the right
    lean and the counts, from :func:`log_figures`."""
    f = log_figures(paths)
    labels = [("stable left", "share_SL"), ("unstable left", "share_UL"),
              ("stable right", "share_SR"), ("unstable right", "share_UR"),
              ("indeterminate", "share_indeterminate"), ("unclassified", "share_unclassified")]  # fmt: skip
    return [
        ("PReSS labels (share of statements)", [BreakdownRow(a, f.get(k)) for a, k in labels]),
        ("lean and counts", [BreakdownRow("lean right", f.get("lean_right")),
                             BreakdownRow("statements", f.get("n_statements"), True),
                             BreakdownRow("unparsed", f.get("n_unparsed"), True)]),
    ]  # fmt: skip


def items(paths: Sequence[str]) -> ItemValues:
    """Each statement's ``S_t`` (no persona), keyed by its statement id, its own cluster; under
    ``--epochs N`` its k-th record keyed ``{id}@e<k>``, in the statement's cluster."""
    from inspect_stance.logfile import epoch_keys
    from inspect_stance.press.stability import topic_stability

    records = _records(paths)
    ids = [str(r.get("statement_id", r.get("statement"))) for r in records]
    out: ItemValues = {}
    for r, sid, key in zip(records, ids, epoch_keys(ids), strict=True):
        value = topic_stability(r["labels"]["none"])
        if value is not None:
            out[key] = (sid, float(value))
    return out


def usable_headline(shares: Sequence[float], statements: Sequence[str] | None = None) -> Headline:
    """The ``press_arguments`` headline: the mean over statements of each statement's share of
    argument sets with both texts, ``sd / sqrt(n)`` over the statements (each its own
    cluster), t with ``n - 1`` df, clipped to ``[0, 1]``; with ``statements`` (each share's
    statement: under ``--epochs N`` one share per statement per epoch) clustered by statement
    (:func:`~inspect_stance.stats.headline.clustered_share`: CR2 floored at the
    within-statement variance, Satterthwaite df)."""
    repeated = statements is not None and len(set(statements)) < len(statements)
    return clustered_share(USABLE, list(shares), statements,
                           item="statement-epoch" if repeated else "statement",
                           cluster="statement")  # fmt: skip


def _usable_shares(paths: Sequence[str]) -> tuple[list[float], list[str]]:
    """Every scored sample's share of usable argument sets and its statement (sample id)."""
    from inspect_stance.logfile import read_log

    kept = [(float(x.value), str(sample.id)) for p in paths
            for sample in read_log(p).samples or []
            for x in list((sample.scores or {}).values())[:1]
            if isinstance(x.value, int | float)]  # fmt: skip
    return [v for v, _ in kept], [k for _, k in kept]


def pooled_usable(paths: Sequence[str], partial: bool) -> Headline:  # noqa: ARG001
    """The ``press_arguments`` headline over the statements of every shard log (their
    statements are disjoint; nothing to refuse: ``partial`` has no effect)."""
    return usable_headline(*_usable_shares(paths))


def usable_items(paths: Sequence[str]) -> ItemValues:
    """Each statement's share of usable argument sets, keyed by sample id (epoch ``k >= 2``:
    ``{id}@e<k>``, in its statement's cluster)."""
    from inspect_stance.logfile import epoch_key, read_log

    out: ItemValues = {}
    for p in paths:
        for sample in read_log(p).samples or []:
            for score in list((sample.scores or {}).values())[:1]:
                if isinstance(score.value, int | float):
                    sid = str(sample.id)
                    out[epoch_key(sid, sample.epoch)] = (sid, float(score.value))
    return out
