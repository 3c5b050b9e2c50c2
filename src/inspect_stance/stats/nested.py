"""A difference of two conditions when observations are nested in clusters inside blocks.

Judgments sit in prompts (clusters), prompts in settings or items (blocks); the condition
(templated vs generated, run A vs run B) is fixed within a cluster. Observations of one cluster
are not independent, and with one or two clusters per condition and block a cluster-robust
regression with block fixed effects has too few effective clusters for its small-sample
correction (it counts observations, not clusters), so it over-rejects. Here the blocks are the
independent units:

    m(b, c, k) = mean of y over the observations of cluster k in block b under condition c
    M(b, c)    = mean over the clusters k of m(b, c, k)           (each cluster weighs the same)
    d(b)       = M(b, 1) - M(b, 0)                                for blocks with both conditions
    delta      = mean_b d(b)

with the paired interval and p over the blocks of
:func:`inspect_stance.stats.paired.paired_delta` (``auto``: Student t with ``n - 1`` degrees
of freedom for ``n`` blocks, clipped to the range a difference can take). Its size holds
whatever the number of clusters per block, because the ``d(b)`` are independent across blocks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from inspect_stance.stats.paired import MIN_T_ITEMS, PairedDelta, paired_delta

NESTED_TEST = ("judgments averaged per prompt, then per {block} and condition; paired t over "
               "{block}s (n - 1 df)")  # fmt: skip


def block_means(y: Sequence[float], condition: Sequence[bool], block: Sequence[str],
                cluster: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:  # fmt: skip
    """``M(b, 0)``, ``M(b, 1)`` and the block keys, for blocks with both conditions (in the
    order of first appearance)."""
    sums: dict[tuple[str, bool, str], list[float]] = defaultdict(list)
    for v, c, b, k in zip(y, condition, block, cluster, strict=True):
        sums[(b, bool(c), k)].append(float(v))
    per: dict[tuple[str, bool], list[float]] = defaultdict(list)
    for (b, c, _k), vs in sums.items():
        per[(b, c)].append(float(np.mean(vs)))
    keys = [b for b in dict.fromkeys(block) if (b, False) in per and (b, True) in per]
    m0 = np.array([np.mean(per[(b, False)]) for b in keys], dtype=np.float64)
    m1 = np.array([np.mean(per[(b, True)]) for b in keys], dtype=np.float64)
    return m0, m1, keys


def nested_difference(y: Sequence[float], condition: Sequence[bool], block: Sequence[str],
                      cluster: Sequence[str], confidence: float = 0.95,
                      value_range: tuple[float, float] = (0.0, 1.0)) -> PairedDelta | None:  # fmt: skip
    """``delta = mean_b (M(b, 1) - M(b, 0))`` and its interval over blocks (module docstring);
    None with fewer than 2 blocks that have both conditions."""
    m0, m1, keys = block_means(y, condition, block, cluster)
    if len(keys) < 2:
        return None
    return paired_delta(m0, m1, confidence, "auto", value_range)


def nested_test_line(block: str, n_blocks: int) -> str:
    """The test line of a :func:`nested_difference` over ``n_blocks`` blocks named ``block``;
    with fewer than 10 it says that few blocks make the interval wide."""
    line = NESTED_TEST.format(block=block)
    if n_blocks < MIN_T_ITEMS:
        line += f", clipped to the range: fewer than {MIN_T_ITEMS} {block}s make the interval wide"
    return line
