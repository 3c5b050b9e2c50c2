"""Planning an even-handedness study: how many pairs and graders for a target standard error.

From a pilot run, ``y_ij`` is grader ``j``'s P(C) for pair ``i`` (mean over the judged orders),
for the ``n`` pairs every one of the ``k`` graders judged. The model is one-way random effects,
``y_ij = mu + a_i + e_ij`` with pair variance ``s2_pair`` and grader-within-pair variance
``s2_grader``, estimated by the ANOVA moments:

    MSB = k * sum_i (m_i - m)^2 / (n - 1)        (m_i the pair's mean over graders)
    MSW = sum_ij (y_ij - m_i)^2 / (n (k - 1))
    s2_grader = MSW,    s2_pair = max(0, (MSB - MSW) / k)

The run's mean P(C) over ``N`` pairs judged by ``K`` graders then has

    SE(N, K)^2 = s2_pair / N + s2_grader / (N K)

and the pairs needed for a target SE are ``N = ceil((s2_pair + s2_grader / K) / SE^2)``. Calls:
per pair 2 target calls and ``K * (orders + 4)`` grader calls (the pair judged in each order,
refusal and hedging of both responses). With one grader in the pilot the two components cannot
be told apart: everything is counted as pair variance (more graders are then predicted to help
nothing) and :attr:`Plan.note` says so. The headline binarises the mean P(C) at the threshold;
its SE is planned by the same components on the binary pair values when ``binary``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from inspect_stance.even_handedness.logs import EvenRun


@dataclass(frozen=True)
class Components:
    """Variance components from a pilot (module docstring)."""

    s2_pair: float
    s2_grader: float
    n_pairs: int
    n_graders: int
    mean: float

    def se(self, pairs: int, graders: int) -> float:
        """Predicted SE of the mean over ``pairs`` pairs judged by ``graders`` graders."""
        return math.sqrt(self.s2_pair / pairs + self.s2_grader / (pairs * graders))


@dataclass
class Plan:
    """Rows ``(graders, pairs, predicted SE, target calls, grader calls)`` for a target SE."""

    components: Components
    target_se: float
    orders: int
    rows: list[dict[str, float]] = field(default_factory=list)
    note: str = ""


def components(y: np.ndarray) -> Components:
    """The ANOVA estimates of ``s2_pair`` and ``s2_grader`` from an ``n x k`` matrix."""
    y = np.asarray(y, dtype=float)
    if y.ndim != 2 or y.shape[0] < 2:
        raise ValueError("the pilot needs at least 2 pairs judged by every grader")
    n, k = y.shape
    m = y.mean(axis=1)
    msb = k * float(((m - m.mean()) ** 2).sum()) / (n - 1)
    if k < 2:
        return Components(msb, 0.0, n, k, float(y.mean()))
    msw = float(((y - m[:, None]) ** 2).sum()) / (n * (k - 1))
    return Components(max(0.0, (msb - msw) / k), msw, n, k, float(y.mean()))


def grader_matrix(run: EvenRun, binary: bool = False) -> tuple[np.ndarray, list[str]]:
    """``y_ij`` (module docstring) over the pairs every grader judged, and the grader names;
    ``binary``: the grader's own even-handed call (P(C) >= 0.5) instead of P(C)."""
    names = sorted({g for r in run.records.values() for g in r.get("graders", {})})
    rows = []
    for r in run.records.values():
        row = []
        for g in names:
            orders = r.get("graders", {}).get(g, {}).get("orders", {})
            ps = [j["probs"]["C"] for j in orders.values() if j.get("probs")]
            row.append(float(np.mean(ps)) if ps else math.nan)
        if not any(math.isnan(v) for v in row):
            rows.append([float(v >= 0.5) for v in row] if binary else row)
    return np.array(rows, dtype=float).reshape(len(rows), len(names)), names


def plan_study(comp: Components, target_se: float, max_graders: int = 5, orders: int = 2) -> Plan:
    """Pairs needed for ``target_se`` with 1..``max_graders`` graders, and the calls each costs."""
    if not 0.0 < target_se < 1.0:
        raise ValueError(f"target SE {target_se}; give a number in (0, 1), e.g. 0.02")
    plan = Plan(comp, target_se, orders)
    if comp.n_graders < 2:
        plan.note = ("the pilot has one grader: pair and grader variance cannot be told apart, "
                     "so every extra grader is predicted to help nothing")  # fmt: skip
    for k in range(1, max_graders + 1):
        pairs = max(2, math.ceil((comp.s2_pair + comp.s2_grader / k) / target_se**2))
        plan.rows.append({"graders": k, "pairs": pairs, "se": comp.se(pairs, k),
                          "target_calls": 2 * pairs, "grader_calls": pairs * k * (orders + 4)})  # fmt: skip
    return plan


def predicted_se(comp: Components, pairs: Sequence[int], graders: Sequence[int]) -> np.ndarray:
    """``SE(N, K)`` for every ``N`` in ``pairs`` (rows) and ``K`` in ``graders`` (columns)."""
    return np.array([[comp.se(n, k) for k in graders] for n in pairs])


def recommended(plan: Plan, max_pairs: int | None = None) -> dict[str, float] | None:
    """The cheapest row (target + grader calls) within ``max_pairs``; ``None`` when none fits."""
    rows = [r for r in plan.rows if max_pairs is None or r["pairs"] <= max_pairs]
    return min(rows, key=lambda r: (r["target_calls"] + r["grader_calls"], r["graders"]),
               default=None)  # fmt: skip


def plan_json(
    plan: Plan, graders: Sequence[str], max_pairs: int | None = None
) -> dict[str, object]:
    """The plan as JSON: components, rows, the recommended row and the note."""
    return {"components": plan.components.__dict__, "target_se": plan.target_se,
            "orders": plan.orders, "rows": plan.rows, "note": plan.note,
            "recommended": recommended(plan, max_pairs), "graders_in_pilot": list(graders)}  # fmt: skip


def plan_text(plan: Plan, source: str, binary: bool = False, max_pairs: int | None = None) -> str:
    """The plan as terminal text (one line per number of graders)."""
    c, what = plan.components, "even-handed calls" if binary else "P(C)"
    lines = [f"pilot {source}: {c.n_pairs} pairs x {c.n_graders} graders, mean {what} "
             f"{c.mean:.3f}; pair variance {c.s2_pair:.4f}, grader-within-pair "
             f"{c.s2_grader:.4f}"]  # fmt: skip
    if plan.note:
        lines.append(f"note: {plan.note}")
    lines += [f"for SE {plan.target_se:g} of the mean {what} ({plan.orders} order(s) judged):",
              "graders  pairs  predicted SE  target calls  grader calls"]  # fmt: skip
    lines += [
        f"{int(r['graders']):>7}  {int(r['pairs']):>5}  {r['se']:>12.4f}  "
        f"{int(r['target_calls']):>12}  {int(r['grader_calls']):>12}"
        for r in plan.rows
    ]
    best = recommended(plan, max_pairs)
    lines.append("recommended: none within the pair limit" if best is None else
                 f"recommended: {int(best['graders'])} grader(s) x {int(best['pairs'])} pairs "
                 "(fewest calls)")  # fmt: skip
    return "\n".join(lines)


def plan_from_log(
    path: str, target_se: float, max_graders: int = 5, binary: bool = False, partial: bool = False
) -> tuple[Plan, list[str]]:
    """Read a pilot run (a log, or a folder of one study's shards pooled; ``partial``: an
    incomplete set) and plan (module docstring); ``ValueError`` with fewer than 2 pairs judged
    by every grader."""
    from inspect_stance.even_handedness.logs import read_even_run

    run = read_even_run(path, partial)
    y, names = grader_matrix(run, binary=binary)
    if y.shape[0] < 2:
        raise ValueError(f"{path}: fewer than 2 pairs judged by every grader; run a larger "
                         "pilot (e.g. -T limit=40)")  # fmt: skip
    orders = len(run.metadata.get("judged_orders") or ["ab", "ba"])
    return plan_study(components(y), target_se, max_graders, orders), names
