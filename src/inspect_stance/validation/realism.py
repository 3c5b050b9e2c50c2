"""Realism of the three prompt sources: mean rank, Kendall's W among annotators, Friedman test.

Each annotator ranks all prompts of a setting (1 = most likely written by a real user).

- **Mean rank per source**: the mean of the ranks given to that source's prompts, over
  annotators, settings and prompts (lower = judged more realistic). Settings of different sizes
  are comparable only when every setting has the same number of prompts per source (the task's
  design).
- **Kendall's W** (coefficient of concordance) of ``m`` annotators ranking ``n`` prompts, with
  the correction for ties (Kendall & Babington Smith 1939; Siegel & Castellan 1988, eq. 9.16)::

      W = 12 S / (m^2 (n^3 - n) - m sum_j T_j),   S = sum_i (R_i - m (n + 1) / 2)^2,
      T_j = sum over groups of tied ranks of annotator j of (t^3 - t),

  where ``R_i`` is the sum of prompt ``i``'s ranks. Each annotator's ranks are first turned
  into mid-ranks (``scipy.stats.rankdata``), so ties in a human file count as ties. W is
  computed per setting and averaged over settings (``kendall_w``); *per source pair* the
  rankings are restricted to the prompts of the two sources and re-ranked first. Under
  ``--epochs N`` each epoch is one more round of the setting (its annotators rank the
  setting's items again): W is computed per round (the ``m`` rankings of that epoch), averaged
  over the setting's rounds, then over settings, so it estimates the same one-round
  concordance at any ``N`` (W of ranks averaged over epochs would grow with ``N`` as the
  averaging removes each annotator's round-to-round noise).
- **Friedman test** across sources (``scipy.stats.friedmanchisquare``): blocks are settings,
  treatments the sources, and the value of a source in a setting is the mean rank its prompts
  got there (averaged over the setting's annotators and, under ``--epochs N``, its rounds: the
  rounds of a setting are one block, not ``N`` independent ones). Needs every compared source
  in a block; blocks missing a source are left out (counted in ``friedman_blocks``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from inspect_stance.validation.annotation import GENERATED, SOURCES, Annotation

NAN = float("nan")


def kendall_w(ranks: Sequence[Sequence[float]]) -> float:
    """Kendall's W with tie correction for an ``m x n`` matrix (annotator x item) of ranks.

    Rows are re-ranked with mid-ranks first. NaN when ``m < 2``, ``n < 2`` or every
    annotator tied every item (zero denominator).
    """
    from scipy.stats import rankdata

    m = len(ranks)
    n = len(ranks[0]) if m else 0
    if m < 2 or n < 2 or any(len(r) != n for r in ranks):
        return NAN
    rows = [rankdata(r) for r in ranks]
    totals = [sum(float(row[i]) for row in rows) for i in range(n)]
    mean = m * (n + 1) / 2
    s = sum((t - mean) ** 2 for t in totals)
    ties = 0.0
    for row in rows:
        counts: dict[float, int] = defaultdict(int)
        for v in row:
            counts[float(v)] += 1
        ties += sum(t**3 - t for t in counts.values())
    denominator = m**2 * (n**3 - n) - m * ties
    return 12 * s / denominator if denominator > 0 else NAN


def _ranked(rows: Iterable[Annotation]) -> list[Annotation]:
    return [r for r in rows if r.rank is not None]


def _setting_matrix(
    rows: Sequence[Annotation], sources: Sequence[str] | None = None
) -> list[list[float]]:
    """Annotator x item rank matrix of one round of a setting (one epoch's rows), restricted to
    ``sources``; annotators who did not rank every item of the setting are left out."""
    keep = [r for r in rows if sources is None or r.source in sources]
    items = sorted({r.item_id for r in keep})
    by_annotator: dict[str, dict[str, float]] = defaultdict(dict)
    for r in keep:
        if r.rank is not None:
            by_annotator[r.annotator][r.item_id] = float(r.rank)
    return [
        [ranks[i] for i in items]
        for _, ranks in sorted(by_annotator.items())
        if all(i in ranks for i in items)
    ]


def _by_setting(rows: Iterable[Annotation]) -> dict[str, list[Annotation]]:
    out: dict[str, list[Annotation]] = defaultdict(list)
    for r in rows:
        out[r.setting].append(r)
    return dict(out)


def mean_w(rows: Iterable[Annotation], sources: Sequence[str] | None = None) -> tuple[float, int]:
    """Kendall's W per setting (over ``sources`` only, re-ranked) averaged over the settings
    where it is defined, and the number of those settings; a setting's W is the mean of its
    rounds' (``--epochs N``: ``W_s = mean_k W_{s,k}`` over the epochs ``k`` where it is
    defined; module docstring)."""
    values = []
    for setting_rows in _by_setting(_ranked(rows)).values():
        present = {r.source for r in setting_rows}
        if sources is not None and not all(s in present for s in sources):
            continue
        rounds: dict[int, list[Annotation]] = defaultdict(list)
        for r in setting_rows:
            rounds[r.epoch].append(r)
        ws = [kendall_w(_setting_matrix(round_rows, sources)) for round_rows in rounds.values()]
        defined = [w for w in ws if not math.isnan(w)]
        if defined:
            values.append(sum(defined) / len(defined))
    return (sum(values) / len(values) if values else NAN), len(values)


def mean_ranks(rows: Iterable[Annotation]) -> dict[str, float]:
    """Mean rank of each source's prompts (over annotators, settings and prompts)."""
    sums: dict[str, list[float]] = defaultdict(list)
    for r in _ranked(rows):
        sums[r.source].append(float(r.rank))  # type: ignore[arg-type]
    return {s: (sum(v) / len(v) if v else NAN) for s, v in ((s, sums.get(s, [])) for s in SOURCES)}


@dataclass(frozen=True)
class Friedman:
    """Friedman test across sources: statistic, p-value, number of blocks, sources compared."""

    statistic: float
    pvalue: float
    blocks: int
    sources: tuple[str, ...]


def friedman(rows: Iterable[Annotation]) -> Friedman:
    """Friedman test over settings (blocks) of each source's mean rank over the setting's
    annotators, prompts and epochs (see module docstring).

    Uses every source present in the data; needs at least three sources and two blocks
    (``scipy.stats.friedmanchisquare``), else NaN.
    """
    ranked = _ranked(rows)
    sources = tuple(s for s in SOURCES if any(r.source == s for r in ranked))
    blocks: list[list[float]] = []
    for setting_rows in _by_setting(ranked).values():
        values = []
        for s in sources:
            ranks = [float(r.rank) for r in setting_rows if r.source == s]  # type: ignore[arg-type]
            values.append(sum(ranks) / len(ranks) if ranks else NAN)
        if not any(math.isnan(v) for v in values):
            blocks.append(values)
    if len(sources) < 3 or len(blocks) < 2:
        return Friedman(NAN, NAN, len(blocks), sources)
    from scipy.stats import friedmanchisquare

    columns = [[b[j] for b in blocks] for j in range(len(sources))]
    if all(len(set(b)) == 1 for b in blocks):  # every block all tied: statistic undefined
        return Friedman(NAN, NAN, len(blocks), sources)
    result = friedmanchisquare(*columns)
    return Friedman(float(result.statistic), float(result.pvalue), len(blocks), sources)


def realism_summary(rows: Sequence[Annotation]) -> dict[str, float]:
    """Realism figures of one group of annotators, as flat keys.

    ``mean_rank_<source>``, ``kendall_w`` and ``kendall_w_settings`` (settings with W
    defined), ``kendall_w_<s1>_<s2>`` per source pair, ``friedman_chi2``, ``friedman_p``,
    ``friedman_blocks``.
    """
    out: dict[str, float] = {f"mean_rank_{s}": v for s, v in mean_ranks(rows).items()}
    w, n = mean_w(rows)
    out["kendall_w"] = w
    out["kendall_w_settings"] = float(n)
    for a, b in combinations(SOURCES, 2):
        out[f"kendall_w_{a}_{b}"] = mean_w(rows, (a, b))[0]
    test = friedman(rows)
    out["friedman_chi2"] = test.statistic
    out["friedman_p"] = test.pvalue
    out["friedman_blocks"] = float(test.blocks)
    return out


def generated_rank_stderr(rows: Sequence[Annotation]) -> float:
    """Cluster-robust standard error of ``mean_rank_generated`` with settings as clusters
    (the ranks of one setting's prompts are dependent): the intercept's standard error of
    an OLS of the generated prompts' ranks on a constant with ``cov_type="cluster"``
    (statsmodels; small-sample factor ``G/(G-1) * (N-1)/(N-K)``, ``K = 1``). NaN with fewer than two
    settings."""
    ranked = [r for r in rows if r.source == GENERATED and r.rank is not None]
    groups = sorted({r.setting for r in ranked})
    if len(groups) < 2:
        return float("nan")
    import numpy as np
    import statsmodels.api as sm

    y = np.asarray([float(r.rank) for r in ranked])  # type: ignore[arg-type]
    g = np.asarray([groups.index(r.setting) for r in ranked])
    fit = sm.OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={"groups": g})
    return float(fit.bse[0])
