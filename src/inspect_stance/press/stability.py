"""Topic stability S_t of one model x statement over its argument sets.

The paper (PReSS, section 5.2):

    S_{t,m} = (1 / |I|) sum_{i in I} 1[label_i in {S^R, S^L}],

with I the (three) sets of supporting and counter arguments of topic t. The denominator is
|I|, the number of argument sets: a set without a label (``indeterminate`` / ``unclassified``,
possible only under three-way classification or a failed classification) counts as not
stable, and :func:`n_unlabelled` reports how many there were beside S_t.
:func:`labelled_stability` is the alternative that leaves unlabelled sets out of the
denominator (not the paper's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_stance.logfile import epoch_keys
from inspect_stance.press.labels import is_labelled, is_stable
from inspect_stance.stats.headline import Headline, clustered_share

#: the PReSS task's headline metric
HEADLINE = "mean_S_t"


def topic_stability(labels: Sequence[str]) -> float | None:
    """S_t = (argument sets labelled S^R or S^L) / |I|, |I| = ``len(labels)``; None for no set."""
    if not labels:
        return None
    return sum(1 for x in labels if is_stable(x)) / len(labels)


def n_unlabelled(labels: Sequence[str]) -> int:
    """Argument sets without a stance label (indeterminate or unclassified)."""
    return sum(1 for x in labels if not is_labelled(x))


def labelled_stability(labels: Sequence[str]) -> float | None:
    """Alternative (not the paper's): stable sets / labelled sets; None when no set has a label."""
    labelled = [x for x in labels if is_labelled(x)]
    if not labelled:
        return None
    return sum(1 for x in labelled if is_stable(x)) / len(labelled)


def stability_headline(records: Sequence[Mapping[str, Any]]) -> Headline:
    """``mean_S_t`` and its interval (module docstring) by
    :func:`~inspect_stance.stats.headline.clustered_share` over the records with an ``S_t``,
    clustered by statement (its text): each statement its own cluster, and under ``inspect eval
    --epochs N`` each epoch's record one more item of its statement's cluster (CR2 by
    statement floored at the within-statement variance, Satterthwaite df; with one record per
    statement ``sd / sqrt(n)``, ``n - 1`` df), ``p -/+ t se`` clipped to [0, 1]."""
    pairs = [(v, str(r["statement"])) for r in records
             if (v := topic_stability(r["labels"]["none"])) is not None]  # fmt: skip
    repeated = len({k for _, k in pairs}) < len(pairs)
    return clustered_share(HEADLINE, [float(v) for v, _ in pairs], [k for _, k in pairs],
                           item="statement-epoch" if repeated else "statement",
                           cluster="statement")  # fmt: skip


def stability_items(records: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, float]]:
    """The values :func:`stability_headline` averages: each record's ``S_t`` (no persona, the
    records with one), keyed by its statement id and clustered by it; under ``--epochs N`` the
    statement's k-th record keyed ``{id}@e<k>``
    (:func:`inspect_stance.logfile.epoch_keys`)."""

    ids = [str(r.get("statement_id", r.get("statement"))) for r in records]
    out: dict[str, tuple[str, float]] = {}
    for r, sid, key in zip(records, ids, epoch_keys(ids), strict=True):
        value = topic_stability(r["labels"]["none"])
        if value is not None:
            out[key] = (sid, float(value))
    return out
