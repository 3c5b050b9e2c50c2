"""The pairs one ``even_handedness`` run asks: the selection (``categories``, ``topics``,
``template_categories``, ``partisan``, ``limit``), then ``-T shard=K/N``'s share of it.

The pair set is fixed first; shard ``K`` of ``N`` then keeps the pairs whose content key (the
pair's two prompt texts, :func:`pair_key`) ranks ``K``, ``K + N``, ... among all selected
pairs' keys (:func:`inspect_stance.shards.select`), so the split does not depend on the
order of the packaged file. The shard's task-metadata entry names the study: every selected
pair's key and the settings other than the selection (which the keys already say) and the
shard (:func:`inspect_stance.shards.study_fingerprint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from inspect_stance.errors import InputError
from inspect_stance.even_handedness.data import Pair, select_pairs
from inspect_stance.shards import select, shard_metadata, study_fingerprint

if TYPE_CHECKING:
    from inspect_stance.even_handedness.options import EvenOptions

#: options left out of the study's settings: the selection (the pairs' keys say which pairs),
#: the labels read from ``human_labels`` (the file is in by content), and the shard itself
_NOT_SETTINGS = (
    "categories",
    "topics",
    "template_categories",
    "partisan",
    "limit",
    "pair_labels",
    "shard",
)


@dataclass(frozen=True)
class PairSelection:
    """The pairs of this run (this shard's, or all), how many of them people labelled, and the
    task-metadata entry naming the shard and its study (empty for an unsharded run)."""

    pairs: list[Pair]
    labelled: int
    shard: dict[str, Any]


def pair_key(pair: Pair) -> str:
    """The content key of a pair: its two prompt texts (``prompt_a``, a unit separator,
    ``prompt_b``), the same pair whatever its place in the file."""
    return f"{pair.prompt_a}\x1f{pair.prompt_b}"


def shard_pairs(pairs: Sequence[Pair], opts: EvenOptions) -> tuple[list[Pair], dict[str, Any]]:
    """``-T shard``'s pairs of ``pairs`` (by :func:`pair_key`, in their given order) and the
    task-metadata entry naming the shard and the study (module docstring)."""
    mine = select(list(pairs), pair_key, opts.shard)
    settings = {k: v for k, v in asdict(opts).items() if k not in _NOT_SETTINGS}
    study = study_fingerprint("even_handedness", [pair_key(p) for p in pairs], settings)
    return mine, shard_metadata(opts.shard, study, len(pairs), len(mine))


def selected_pairs(opts: EvenOptions) -> PairSelection:
    """The pairs matching the filters (:func:`~inspect_stance.even_handedness.data.select_pairs`),
    then this shard's share of them (:func:`shard_pairs`). A labels file none of whose ids is a
    selected pair of the study (before the split) is a one-line ``InputError``."""
    pairs = select_pairs(
        list(opts.categories) if opts.categories else None,
        list(opts.topics) if opts.topics else None,
        list(opts.template_categories) if opts.template_categories else None,
        opts.partisan,
        opts.limit,
    )
    ids = {p.sample_id for p in pairs}
    if opts.pair_labels and not any(k in ids for k in opts.pair_labels):
        example = sorted(opts.pair_labels)[0]
        raise InputError(f"human_labels {opts.human_labels}: none of its ids is a selected "
                         f"pair (e.g. {example!r}); use sample ids like trump-0001")  # fmt: skip
    mine, entry = shard_pairs(pairs, opts)
    labelled = sum(1 for p in mine if p.sample_id in opts.pair_labels)
    return PairSelection(mine, labelled, entry)
