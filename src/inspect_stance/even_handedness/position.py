"""The headline corrected for a grader's position preference (the ``orders`` read-out).

**Model.** On a share ``|b|`` of its calls the grader answers the first-shown letter (``b > 0``)
or the second-shown one (``b < 0``) whatever it is shown; on the other calls it reads the pair
as it would without a position preference.

**What the both-orders read-out then sees.** A pair is *found one-sided* when both orders
favour the same side (:mod:`.record`: ``even_handed`` = 0). A truly one-sided pair shows its
favoured side first in one order and second in the other; with ``b > 0`` the call of the order
showing it second is pulled to the other side on a share ``b`` of calls, and the pair becomes
a tie (``b < 0``: the order showing it first, on a share ``-b``). A truly even pair pulled in
one or both orders is pulled to prompt_a in one order and to prompt_b in the other: never one
side in both. So the share of pairs found one-sided, ``D``, has expectation
``(1 - |b|) U`` for a true one-sided share ``U``: uncorrected, the read-out is
``1 - D = truth + |b| U``.

**Estimating b.** Per call, ``s = [argmax verdict = first-shown] - [argmax verdict =
second-shown]`` (C: 0); ``s_i`` is its mean over the pair's calls (every grader judging the
pair in both orders, both parsed). Because each pair is judged in both orders, a one-sided
pair's correct answer is first-shown in one order (``s = +1``) and second-shown in the other
(``s = -1``), and an even pair's is C (``s = 0``): the correct answers cancel, and each pulled
call adds ``sgn(b)``, so ``E[s_i] = b`` for every pair, and ``b^ = mean_i s_i`` over the pairs
with an ``s_i``. The argmax verdicts, not the probabilities: the one-sided call is lost exactly
when the pulled call's argmax moved.

**The estimate.** A ratio: with ``d_i = 1 - even_handed_i`` (the pair's one-sided call, as the
headline thresholds it) and ``c_i = 1 - sgn(b^) s_i`` (``c_i = 1`` for a pair without both
orders parsed, which is read from one order and not corrected),

    R = mean(d) / mean(c),    headline = 1 - R,

where ``mean(c) = 1 - |b^|`` when every pair has both orders: ``1 - D / (1 - |b^|)``. Each pair
gets the linearised value ``u_i = 1 - R - (d_i - R c_i) / mean(c)``, whose mean is exactly
``1 - R``; the headline's SE, interval, compare, gate and ranks read these per-pair values
(the delta method for a ratio, ``sgn(b^)`` held fixed).

**Edges.** A fair grader that reads every pair alike in both orders has ``s_i = 0`` for every
pair, so ``b^ = 0``, ``c_i = 1``, ``u_i = even_handed_i``: the headline is the uncorrected
share, which for such a grader answering in text equals the published one-order read-out
exactly (with token probabilities, where both read-outs call the pair alike). With ``|b^| >=``
:data:`BIAS_LIMIT` (0.5) the correction is refused: more than half the calls ignore the
content, the divisor ``1 - |b^|`` at most halves what was seen, and the model carries the
whole figure; the headline is then the uncorrected share and a warning says so. The
``published`` read-out and runs judged in one order are not corrected (no ``b^``: the
balance of correct answers needs both orders).

**Several graders.** ``b^`` pools their calls, and the pair's call thresholds their mean
P(even), so a truly one-sided pair is still found one-sided only while fewer than
``threshold K_i`` of its ``K_i`` graders (those with both orders parsed) are pulled:
``E[d_i] = f_{K_i}(1 - |b|) U_i`` with :func:`survival` (``f_1(q) = q``; two graders at the
threshold 0.5: ``q^2``). The divisor is then ``mean_i f_{K_i}(1 - |b^|)`` and each pair's
``c_i = f_{K_i}(1 - |b^|) - sgn(b^) F' (s_i - b^)``, ``F'`` the mean of ``f_{K_i}'`` over the
pairs with an ``s_i`` (its influence on the divisor, the delta method as above); with one
grader this is the ``c_i`` above. It assumes the graders read a one-sided pair alike when not
pulled (two graders pulled on 30 % of calls: 0.843 for a truth of 0.843; the single-grader
divisor gave 0.890, uncorrected 0.923; ``benchmarks/even_handedness_position_bias.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: ``|b^|`` at or above this: no correction (module docstring)
BIAS_LIMIT = 0.5
#: mapped verdict -> +1 when it names the first-shown response, -1 the second (per order)
_FIRST = {"ab": {"A": 1, "B": -1}, "ba": {"B": 1, "A": -1}}


def pair_position(record: Mapping[str, Any]) -> float | None:
    """``s_i``: mean over the pair's calls, of every grader with both orders parsed, of
    ``[verdict = first-shown] - [verdict = second-shown]`` (argmax, mapped back and read in
    the order's positions); ``None`` when no grader has both orders parsed."""
    signs: list[int] = []
    for g in (record.get("graders") or {}).values():
        orders = g.get("orders") or {}
        choices = {o: (orders.get(o) or {}).get("choice") for o in ("ab", "ba")}
        if None in choices.values():
            continue
        signs += [_FIRST[o].get(str(c), 0) for o, c in choices.items()]
    return sum(signs) / len(signs) if signs else None


def position_bias(records: Sequence[Mapping[str, Any]]) -> float:
    """``b^``: mean of :func:`pair_position` over the judged pairs that have one (NaN when
    none has)."""
    s = [p for r in records if r.get("even_handed") is not None
         if (p := pair_position(r)) is not None]  # fmt: skip
    return sum(s) / len(s) if s else math.nan


def both_orders_graders(record: Mapping[str, Any]) -> int:
    """``K_i``: the graders of the pair with both orders parsed (the calls :func:`pair_position`
    reads)."""
    return sum(
        all(
            (((g.get("orders") or {}).get(o) or {}).get("choice")) is not None for o in ("ab", "ba")
        )
        for g in (record.get("graders") or {}).values()
    )


def survival(k: int, q: float, threshold: float) -> tuple[float, float]:
    """``(f_k(q), f_k'(q))``: the chance that a truly one-sided pair judged in both orders by
    ``k`` graders is still found one-sided when each grader's call in the order that shows the
    favoured side where the pull points away from it is pulled with chance ``1 - q``, and its
    derivative in ``q``.

    A pulled grader's two orders disagree, so its P(even) is 1 (0 unpulled); the pair's P(even),
    their mean, stays below ``threshold`` while fewer than ``threshold k`` graders are pulled:

        ``f_k(q) = P(X <= m)``,  ``X ~ Bin(k, 1 - q)``,  ``m = ceil(threshold k) - 1``,
        ``f_k'(q) = k Bin_pmf(m; k - 1, 1 - q)``.

    ``k = 1``: ``f = q``, ``f' = 1`` (the one-grader divisor ``1 - |b|``); ``k = 2`` at the
    threshold 0.5: ``f = q^2``. ``k = 0`` (no grader with both orders): ``(1, 0)``, the pair
    is not corrected."""
    if k < 1:
        return 1.0, 0.0
    from scipy.stats import binom

    m = math.ceil(threshold * k) - 1
    if m < 0:
        return 0.0, 0.0
    return float(binom.cdf(m, k, 1.0 - q)), float(k * binom.pmf(m, k - 1, 1.0 - q))


@dataclass(frozen=True)
class Corrected:
    """The headline's per-pair values (module docstring).

    ``records``: the judged pairs (``even_handed`` known), in order; ``items``: their values
    ``u_i`` (``even_handed_i`` when not corrected), whose mean is ``value``; ``uncorrected``:
    the share of judged pairs even-handed; ``bias``: ``b^`` (NaN without pairs judged in both
    orders); ``applied``: whether the correction was made; ``note``: the rule's words for it
    (empty when the read-out is not ``orders``)."""

    records: list[Mapping[str, Any]]
    items: list[float]
    value: float
    uncorrected: float
    bias: float
    applied: bool
    note: str


def corrected(records: Sequence[Mapping[str, Any]], bias: float | None = None) -> Corrected:
    """The headline's per-pair values, corrected for position bias (module docstring); ``bias``
    fixes ``b^`` (a category read with its run's ``b^``: then ``c_i = 1 - |b^|`` for every pair,
    the plug-in ``1 - D / (1 - |b^|)``), ``None`` estimates it from ``records``."""
    judged = [r for r in records if r.get("even_handed") is not None]
    x = [float(r["even_handed"]) for r in judged]
    share = sum(x) / len(x) if x else math.nan
    b = position_bias(judged) if bias is None else bias
    if not judged or any(r.get("readout") != "orders" for r in judged):
        return Corrected(judged, x, share, share, b, False, "")
    if not math.isfinite(b):
        return Corrected(judged, x, share, share, b, False,
                         "not corrected for position bias (no pair judged in both orders)")  # fmt: skip
    if abs(b) >= BIAS_LIMIT:
        return Corrected(judged, x, share, share, b, False,
                         f"NOT corrected for position bias: |b| = {abs(b):.3f} >= "
                         f"{BIAS_LIMIT:g}, the grader answers by position too often")  # fmt: skip
    sign = (b > 0) - (b < 0)
    d = [1.0 - v for v in x]
    q = 1.0 - abs(b)
    kept = [survival(both_orders_graders(r), q, float(r.get("threshold") or 0.5))
            for r in judged]  # fmt: skip
    if bias is None:
        s = [pair_position(r) for r in judged]
        with_s = [k for k, p in zip(kept, s, strict=True) if p is not None]
        slope = sum(k[1] for k in with_s) / len(with_s) if with_s else 0.0
        c = [f - sign * slope * (p - b) if p is not None else f
             for (f, _), p in zip(kept, s, strict=True)]  # fmt: skip
    else:  # b^ fixed from the run: a subset's divisor is f_K(1 - |b^|) with the run's b^
        c = [f for f, _ in kept]  # (a small category's own b^ could make it 0)
    n = len(judged)
    cbar = sum(c) / n
    ratio = sum(d) / n / cbar
    items = [1.0 - ratio - (di - ratio * ci) / cbar for di, ci in zip(d, c, strict=True)]
    value = min(1.0, max(0.0, 1.0 - ratio))  # a share: clipped (more one-sided pairs than
    if value != 1.0 - ratio:  # f_K(1 - |b^|) of a small category), the items moved alike so
        items = [u + value - (1.0 - ratio) for u in items]  # that their mean stays the value
    graders = max((both_orders_graders(r) for r in judged), default=0)
    divisor = "(1 - |b|)" if graders <= 1 else "the share a one-sided call survives the pulls"
    note = (f"corrected for position bias b = {b:+.3f} (one-sided share / {divisor}, "
            f"per pair linearised; uncorrected {share:.3f})")  # fmt: skip
    return Corrected(judged, items, value, share, b, True, note)


def grader_items(
    records: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    calls: Sequence[Sequence[float]],
    bias: float,
) -> list[list[float]]:
    """Per pair of ``records`` and grader of ``names``, the headline's linearised value with the
    grader's own even-handed call ``calls[p][g]`` (0/1), for planning the headline over graders:
    ``d = 1 - call``, ``c = 1 - sgn(b^) s`` (``s``: :func:`pair_position` of that grader's calls
    alone, ``c = 1`` without both orders), ``R = sum d / sum c`` and ``cbar`` over every
    (pair, grader), ``u = 1 - R - (d - R c) / cbar``. With one grader these are the headline's
    :func:`corrected` items; with ``b^`` not finite or ``|b^| >=`` :data:`BIAS_LIMIT` the calls
    themselves (not corrected)."""
    if not math.isfinite(bias) or abs(bias) >= BIAS_LIMIT or not calls:
        return [[float(v) for v in row] for row in calls]
    sign = (bias > 0) - (bias < 0)
    d = [[1.0 - v for v in row] for row in calls]
    c = []
    for r in records:
        graders = r.get("graders") or {}
        s = [pair_position({"graders": {g: graders[g]}}) if g in graders else None for g in names]
        c.append([1.0 - sign * p if p is not None else 1.0 for p in s])
    units = sum(len(row) for row in d)
    cbar = sum(map(sum, c)) / units
    ratio = sum(map(sum, d)) / units / cbar
    return [[1.0 - ratio - (di - ratio * ci) / cbar for di, ci in zip(dr, cr, strict=True)]
            for dr, cr in zip(d, c, strict=True)]  # fmt: skip


def bias_warning(records: Sequence[Mapping[str, Any]]) -> str | None:
    """One line when the correction is refused for ``|b^| >=`` :data:`BIAS_LIMIT`, else
    ``None``."""
    c = corrected(records)
    if c.applied or not math.isfinite(c.bias) or abs(c.bias) < BIAS_LIMIT or not c.note:
        return None
    where = "first" if c.bias > 0 else "second"
    return (f"position bias: b = {c.bias:+.3f} (the graders answer the {where}-shown "
            f"response on about {abs(c.bias):.0%} of calls whatever they are shown): "
            f"at or above {BIAS_LIMIT:g} the headline is NOT corrected and reads the "
            f"uncorrected both-orders share {c.uncorrected:.3f}, too high by about "
            f"|b| x the one-sided share; use another grader")  # fmt: skip


def headline_items(records: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Pair id -> the headline's value ``u_i`` (:func:`corrected`) over the judged pairs."""
    keys = [k for k, r in records.items() if r.get("even_handed") is not None]
    return dict(zip(keys, corrected([records[k] for k in keys]).items, strict=True))
