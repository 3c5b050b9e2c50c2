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
- the card's :func:`breakdown`, and :class:`ArgumentsRun`, the ``press_arguments`` run the
  surfaces read (the ``press`` run: :class:`inspect_stance.press.logs.PressRun`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_stance.logfile import epoch_key, read_log
from inspect_stance.press.stability import stability_headline
from inspect_stance.stats.headline import Headline, clustered_share, metric_values
from inspect_stance.study.protocol import Breakdown, BreakdownRow, ItemValues

#: the figures the panel shows beside the headline (``scorers/press.py``)
PANEL_KEYS = ("n_statements", "lean_right", "n_unparsed", "n_classifier_errors")
#: the ``press_arguments`` task's headline metric (its scorer's ``mean``)
USABLE = "mean"


def figures(records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
    """Every run-level PReSS figure (:func:`inspect_stance.press.summary.run_metrics`) with
    the headline's keys (:func:`stability_headline`) over them."""
    from inspect_stance.press.summary import run_metrics

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


@dataclass
class ArgumentsRun:
    """A ``press_arguments`` run as the surfaces read it (a :class:`Run` of the helper task):
    each scored sample's share of usable argument sets, with its statement (the sample id) and
    epoch. ``headline()``: :func:`usable_headline` over the shares; ``items(metric)``: the
    shares keyed by sample id (epoch ``k >= 2``: ``{id}@e<k>``, in its statement's cluster)."""

    task_args: dict[str, Any]
    #: (statement, epoch, share) per scored sample
    shares: list[tuple[str, int, float]]

    def settings(self) -> dict[str, Any]:
        """Its task arguments (a shard's without ``shard``)."""
        return {k: v for k, v in self.task_args.items() if k != "shard"}

    def items(self, metric: str) -> ItemValues:
        """Statement -> (statement, share) of the headline's metric (``{}`` for another)."""

        if metric != USABLE:
            return {}
        return {epoch_key(sid, epoch): (sid, v) for sid, epoch, v in self.shares}

    def headline(self) -> Headline:
        """:func:`usable_headline` over every share, clustered by statement."""
        return usable_headline([v for _, _, v in self.shares], [k for k, _, _ in self.shares])

    @classmethod
    def merge(cls, shards: Sequence[ArgumentsRun], partial: bool = False) -> ArgumentsRun:  # noqa: ARG003
        """One study's shards as one run: their shares together (their statements are
        disjoint; nothing to refuse, so ``partial`` has no effect)."""
        return cls(shards[0].settings(), [x for s in shards for x in s.shares])


def load_arguments(paths: Sequence[str], partial: bool = False) -> ArgumentsRun:
    """The ``press_arguments`` run of one log or of one study's shard logs
    (:meth:`ArgumentsRun.merge`): the task's
    :attr:`~inspect_stance.study.protocol.TaskHeadline.load`."""

    runs = []
    for p in paths:
        log = read_log(p)
        shares = [(str(sample.id), sample.epoch, float(x.value)) for sample in log.samples or []
                  for x in list((sample.scores or {}).values())[:1]
                  if isinstance(x.value, int | float)]  # fmt: skip
        runs.append(ArgumentsRun(dict(log.eval.task_args or {}), shares))
    return ArgumentsRun.merge(runs, partial)
