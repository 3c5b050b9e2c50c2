"""Planning an even-handedness study: how many topics, pairs and graders for a target SE.

**The headline** (:func:`plan_headline`, the plan ``plan`` recommends from): the share of
even-handed pairs corrected for position bias, with its SE clustered by topic, planned over
topics x pairs per topic x graders from the nested variance components of each grader's value
of the headline (:func:`topic_units`), with assurance (the probability the realised SE meets
the target), as the other planners do (:mod:`inspect_stance.stats.design`).

**The mean P(C)** (the table below it, for reference; it plans a different number):

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

from inspect_stance.even_handedness.logs import EvenRun, read_even_run
from inspect_stance.even_handedness.position import corrected, grader_items
from inspect_stance.even_handedness.record import grader_p_even, grader_p_published
from inspect_stance.stats.design import NestedComponents, Part, least_units, nested_components


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

    run = read_even_run(path, partial)
    y, names = grader_matrix(run, binary=binary)
    if y.shape[0] < 2:
        raise ValueError(f"{path}: fewer than 2 pairs judged by every grader; run a larger "
                         "pilot (e.g. -T limit=40)")  # fmt: skip
    orders = len(run.metadata.get("judged_orders") or ["ab", "ba"])
    return plan_study(components(y), target_se, max_graders, orders), names


#: the packaged pair set's topics: the most a plan can use
SET_TOPICS = 60


@dataclass
class HeadlinePlan:
    """The headline share planned over topics x pairs per topic x graders (:func:`plan_headline`).

    ``rows``: per number of graders, the least topics (at ``pairs_per_topic``) whose realised
    SE meets the target with probability ``assurance``, the predicted SE and that probability,
    and the calls; ``vc``: the nested components (topic, pair within topic, grader within pair).
    """

    vc: NestedComponents
    target_se: float
    assurance: float | None
    pairs_per_topic: int
    orders: int
    rows: list[dict[str, float]] = field(default_factory=list)
    note: str = ""


def topic_units(run: EvenRun) -> tuple[list[list[list[float]]], list[str]]:
    """Per topic, per pair every grader judged, each grader's value of the headline, and the
    grader names: the grader's own even-handed call (0/1) by the run's read-out
    (:func:`~inspect_stance.even_handedness.record.grader_p_even` or ``grader_p_published`` at
    the run's threshold), corrected for position bias as the headline is
    (:func:`~inspect_stance.even_handedness.position.grader_items`, with the run's ``b^`` when
    the headline's correction applies)."""

    names = sorted({g for r in run.records.values() for g in r.get("graders", {})})
    threshold = float(run.metadata.get("threshold") or 0.5)
    read = grader_p_published if run.metadata.get("readout") == "published" else grader_p_even
    kept, calls = [], []
    for r in run.records.values():
        ps = [read(r.get("graders", {}).get(g, {}).get("orders", {})) for g in names]
        if names and all(p is not None for p in ps):
            kept.append(r)
            calls.append([float(p >= threshold) for p in ps if p is not None])
    corr = corrected(list(run.records.values()))
    values = grader_items(kept, names, calls, corr.bias if corr.applied else math.nan)
    by_topic: dict[str, list[list[float]]] = {}
    for r, row in zip(kept, values, strict=True):
        by_topic.setdefault(str(r.get("topic_name")), []).append(row)
    return list(by_topic.values()), names


def plan_headline(
    run: EvenRun,
    target_se: float,
    assurance: float | None = 0.8,
    max_graders: int = 5,
    max_topics: int = SET_TOPICS,
) -> HeadlinePlan:
    """Topics needed for the headline's SE (clustered by topic) to meet ``target_se``.

    The headline is the mean over topics of the topic's share when topics hold equally many
    pairs; with ``y_tpg`` grader ``g``'s value of the headline on pair ``p`` of topic ``t``
    (:func:`topic_units`: its even-handed call, corrected for position bias as the headline
    is) the
    nested model ``y = mu + a_t + b_tp + e_tpg`` gives ``Var(headline) = (s2_topic +
    s2_pair / n + s2_grader / (n K)) / T`` for ``T`` topics of ``n`` pairs judged by ``K``
    graders (:func:`inspect_stance.stats.design.nested_components`: ANOVA moments, jackknife
    degrees of freedom for the assurance). The pair's call with ``K`` graders is the mean of
    their calls here; the headline thresholds that mean, which this linear model approximates
    (exact with one grader). ``n`` is the pilot's median pairs per topic. A pilot with one
    grader cannot separate grader from pair variance (folded: more graders predicted to help
    nothing); the note says so.
    """

    if not 0.0 < target_se < 1.0:
        raise ValueError(f"target SE {target_se}; give a number in (0, 1), e.g. 0.02")
    units, names = topic_units(run)
    if len(units) < 3:
        raise ValueError(f"{run.path}: {len(units)} topics with pairs every grader judged; the "
                         "topic plan needs a pilot over at least 3 topics")  # fmt: skip
    vc = nested_components([Part("", units, ("pair", "grader"))], "topic")
    per_topic = int(np.median([len(u) for u in units]))
    orders = len(run.metadata.get("judged_orders") or ["ab", "ba"])
    plan = HeadlinePlan(vc, target_se, assurance, per_topic, orders)
    if len(names) < 2:
        plan.note = ("the pilot has one grader: pair and grader variance cannot be told apart, "
                     "so every extra grader is predicted to help nothing")  # fmt: skip
    goal = {"target_se": target_se, "assurance": assurance, "detect": None}
    for k in range(1, max_graders + 1):
        design = (per_topic, k)
        topics = least_units(vc, design, max_topics, goal)
        if topics is None:
            continue
        pairs = topics * per_topic
        plan.rows.append({
            "graders": k, "topics": topics, "pairs_per_topic": per_topic, "pairs": pairs,
            "se": vc.se(topics, design), "p_se_below": vc.prob_se_below(target_se, topics, design),
            "target_calls": 2 * pairs, "grader_calls": pairs * k * (orders + 4),
        })  # fmt: skip
    return plan


def headline_plan_json(plan: HeadlinePlan, max_pairs: int | None = None) -> dict[str, object]:
    """The topic plan as JSON: components, rows and the cheapest row within ``max_pairs``."""
    rows = [r for r in plan.rows if max_pairs is None or r["pairs"] <= max_pairs]
    best = min(rows, key=lambda r: (r["target_calls"] + r["grader_calls"], r["graders"]),
               default=None)  # fmt: skip
    vc = plan.vc
    return {"components": {"topic": vc.between, "pair": float(vc.sigma2[0]),
                           "grader": float(vc.sigma2[1]), "topics": vc.n_top,
                           "mean": vc.estimate, "folded": list(vc.folded),
                           "truncated": list(vc.truncated)},
            "target_se": plan.target_se, "assurance": plan.assurance,
            "pairs_per_topic": plan.pairs_per_topic, "rows": plan.rows,
            "recommended": best, "note": plan.note}  # fmt: skip


def headline_plan_text(plan: HeadlinePlan, max_pairs: int | None = None) -> str:
    """The topic plan as terminal text (one line per number of graders)."""
    vc = plan.vc
    sure = (f"with probability {plan.assurance:g}" if plan.assurance is not None
            else "as a point prediction")  # fmt: skip
    lines = [f"the headline (share even-handed, clustered by topic): pilot {vc.n_top} topics, "
             f"share {vc.estimate:.3f}; variance between topics {vc.between:.4f}, pairs within "
             f"a topic {vc.sigma2[0]:.4f}, graders within a pair {vc.sigma2[1]:.4f}",
             f"for SE {plan.target_se:g} {sure}, {plan.pairs_per_topic} pairs per topic:",
             "graders  topics  pairs  predicted SE  P(SE <= target)  target calls  grader calls"]  # fmt: skip
    if plan.note:
        lines.insert(1, f"note: {plan.note}")
    lines += [f"{int(r['graders']):>7}  {int(r['topics']):>6}  {int(r['pairs']):>5}  "
              f"{r['se']:>12.4f}  {r['p_se_below']:>15.2f}  {int(r['target_calls']):>12}  "
              f"{int(r['grader_calls']):>12}" for r in plan.rows]  # fmt: skip
    if not plan.rows:
        lines.append(f"no design within the set's {SET_TOPICS} topics reaches the target")
    best = headline_plan_json(plan, max_pairs)["recommended"]
    lines.append("recommended: none within the pair limit" if not isinstance(best, dict) else
                 f"recommended: {int(best['graders'])} grader(s) x {int(best['topics'])} topics "
                 f"x {int(best['pairs_per_topic'])} pairs (fewest calls)")  # fmt: skip
    return "\n".join(lines)


def full_plan(
    path: str,
    target_se: float,
    max_graders: int = 5,
    binary: bool = False,
    partial: bool = False,
    assurance: float | None = 0.8,
    max_pairs: int | None = None,
) -> tuple[dict[str, object], str]:
    """The plan of a pilot as JSON and text: the headline's topic plan first (``recommended``
    is its cheapest row; ``None`` when the pilot spans fewer than 3 topics or no design within
    the set's topics reaches the target), then the mean-P(C) plan for reference (``rows``,
    ``components``, ``p_c_recommended``). ``ValueError`` for an unusable pilot or target."""

    plan, names = plan_from_log(path, target_se, max_graders, binary, partial)
    doc = plan_json(plan, names, max_pairs)
    doc["p_c_recommended"] = doc.pop("recommended")
    run = read_even_run(path, partial)
    try:
        hp = plan_headline(run, target_se, assurance, max_graders)
    except ValueError as ex:
        doc["headline"] = {"note": str(ex)}
        doc["recommended"] = None
        head = f"the headline: no topic plan ({ex})"
    else:
        doc["headline"] = headline_plan_json(hp, max_pairs)
        doc["recommended"] = doc["headline"]["recommended"]  # type: ignore[index]
        head = headline_plan_text(hp, max_pairs)
    text = head + "\n\nfor reference, the mean P(C) over pairs (not the headline):\n"
    return doc, text + plan_text(plan, path, binary, max_pairs)
