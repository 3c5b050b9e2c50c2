"""Prompt-construction runs compared (``inspect-stance compare`` on ``prompt_construction`` logs).

Items are setting x method cells (``topic-intent-stance/method``), matched by that key. Per item,
with ``s_i`` the majority scores of its scale-labelled responses (:mod:`.lean`):

- ``lean`` = ``mean(s_i) - 3`` and ``distance`` = ``|lean|`` (overall rows: paired over the
  items both runs have; lower distance ranks better);
- ``distance_neutral (Wilcoxon)``: the paper's test, ``scipy.stats.wilcoxon`` over the neutral
  items' distances (its interval: the paired item-level interval of the mean difference);
- ``distance (judgments)``: the judgment-level test the review asks for: OLS over every
  individual judgment of both runs, ``|score - 3| ~ run + judge + item`` (judge and item fixed
  effects), with cluster-robust standard errors clustered by prompt text (statsmodels; the same
  prompt in both runs is one cluster); the coefficient of ``run`` is the delta;
- ``gap templated-generated (judgments)`` per run: the same model within one run on the neutral
  items, ``|score - 3| ~ templated + judge + setting``, clustered by prompt: the construction
  confound at the judgment level, beside the report's 18-setting Wilcoxon;
- with ``per_setting``: ``lean[item]`` per item, Welch's t over the two runs' responses
  (``scipy.stats.ttest_ind(equal_var=False)``).

Settings that must match: ``rubric_threshold``, ``judge_sees_prompt``, ``reversed_rubric``,
``ensemble`` and the judges.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats

from inspect_stance.construction.labels import NEUTRAL, label_score
from inspect_stance.construction.lean import summarize
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import TEMPLATED
from inspect_stance.stats.family import Comparison, MetricSpec, RunItems
from inspect_stance.stats.paired import paired_delta

SETTING_ARGS: tuple[str, ...] = ("rubric_threshold", "judge_sees_prompt", "reversed_rubric",
                                 "ensemble")  # fmt: skip
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("lean", rank=False, value_range=(-2.0, 2.0)),
    MetricSpec("distance", higher_is_better=False, value_range=(0.0, 2.0)),
)
OLS_TEST = "OLS over judgments, judge + item fixed effects, cluster-robust SE by prompt"
WILCOXON_TEST = "Wilcoxon signed-rank over neutral items (scipy); paired item-level interval"
WELCH_TEST = "Welch t over the setting's responses (scipy.stats.ttest_ind)"


def item_key(rec: Record) -> str:
    """``topic-intent-stance/method`` of a record."""
    return f"{rec.setting.key}/{rec.method}"


def construction_items(records: Sequence[Record], name: str) -> RunItems:
    """Per item lean and distance (items without a scale-labelled response left out)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for r in records:
        groups[item_key(r)].append(r.outcome)
    lean: dict[str, float] = {}
    for key, outcomes in groups.items():
        value = summarize(outcomes).lean
        if math.isfinite(value):
            lean[key] = value
    return RunItems(name, {"lean": lean, "distance": {k: abs(v) for k, v in lean.items()}})


def judgments(records: Sequence[Record]) -> list[tuple[str, str, str, float, bool]]:
    """Every scale judgment: ``(item, judge, prompt, |score - 3|, templated)``."""
    out: list[tuple[str, str, str, float, bool]] = []
    for r in records:
        for judge, label in zip(r.judges, r.judge_labels, strict=False):
            score = label_score(label) if label is not None else None
            if score is not None:
                prompt = r.prompt_text or r.sample_id
                out.append(
                    (item_key(r), judge, prompt, float(abs(score - NEUTRAL)), r.method == TEMPLATED)
                )
    return out


def cluster_ols(y: np.ndarray, effect: np.ndarray, fixed: Sequence[Sequence[str]],
                groups: Sequence[str], confidence: float) -> tuple[float, tuple[float, float], float]:  # fmt: skip
    """Coefficient of ``effect`` in OLS ``y ~ effect + fixed effects``, cluster-robust by
    ``groups`` (statsmodels ``cov_type="cluster"``, Student t with G - 1 degrees of freedom for G
    clusters): estimate, interval, two-sided p. Without
    residual variation the difference is deterministic: the point, and p 0 (non-zero) or 1."""
    import pandas as pd
    import statsmodels.api as sm

    dummies = [pd.get_dummies(pd.Series(list(f)), drop_first=True, dtype=float) for f in fixed]
    x = pd.concat([pd.Series(effect.astype(float), name="effect"), *dummies], axis=1)
    x = sm.add_constant(x, has_constant="add")
    codes = pd.factorize(pd.Series(list(groups)))[0]
    with warnings.catch_warnings():  # fixed-effect dummies may get NaN SEs; "effect" does not
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = sm.OLS(np.asarray(y, dtype=float), x).fit(cov_type="cluster", use_t=True,
                                                         cov_kwds={"groups": codes})  # fmt: skip
        low, high = fit.conf_int(alpha=1 - confidence).loc["effect"]
        est, p = float(fit.params["effect"]), float(fit.pvalues["effect"])
    if not math.isfinite(p):  # no residual variation: a deterministic difference
        est = 0.0 if abs(est) < 1e-12 else est
        return est, (est, est), 1.0 if est == 0.0 else 0.0
    return est, (float(low), float(high)), p


def judgment_comparison(a: Sequence[Record], b: Sequence[Record], names: tuple[str, str],
                        confidence: float) -> Comparison | None:  # fmt: skip
    """``distance (judgments)``: run B minus run A over the items both have (module docstring)."""
    ja, jb = judgments(a), judgments(b)
    shared = {j[0] for j in ja} & {j[0] for j in jb}
    rows = [(*j, 0.0) for j in ja if j[0] in shared] + [(*j, 1.0) for j in jb if j[0] in shared]
    if len({r[2] for r in rows}) < 3:
        return None
    y = np.array([r[3] for r in rows])
    run = np.array([r[5] for r in rows])
    est, ci, p = cluster_ols(y, run, [[r[0] for r in rows], [r[1] for r in rows]],
                             [r[2] for r in rows], confidence)  # fmt: skip
    return Comparison("distance (judgments)", names[0], names[1], float(y[run == 0].mean()),
                      float(y[run == 1].mean()), est, ci, p, OLS_TEST, len(shared))  # fmt: skip


def construction_gap(records: Sequence[Record], name: str, confidence: float) -> Comparison | None:
    """Templated minus generated distance on neutral items, at the judgment level."""
    rows = [j for r, j in _neutral_judgments(records)]
    if len({r[2] for r in rows}) < 3 or len({r[4] for r in rows}) < 2:
        return None
    y = np.array([r[3] for r in rows])
    tpl = np.array([float(r[4]) for r in rows])
    settings = [r[0].split("/")[0] for r in rows]
    est, ci, p = cluster_ols(y, tpl, [settings, [r[1] for r in rows]], [r[2] for r in rows],
                             confidence)  # fmt: skip
    n = len(set(settings))
    return Comparison("gap templated-generated (judgments)", f"{name} generated",
                      f"{name} templated", float(y[tpl == 0].mean()), float(y[tpl == 1].mean()),
                      est, ci, p, OLS_TEST.replace("item", "setting"), n)  # fmt: skip


def _neutral_judgments(records: Sequence[Record]) -> list[tuple[Record, tuple[Any, ...]]]:
    return [(r, j) for r in records if r.setting.is_neutral for j in judgments([r])]


def wilcoxon_comparison(a: RunItems, b: RunItems, confidence: float) -> Comparison | None:
    """The paper's signed-rank test over neutral items' distances, run B vs run A."""
    keys = [k for k in a.items["distance"] if k in b.items["distance"] and "-neutral/" in k]
    if len(keys) < 2:
        return None
    xa = np.array([a.items["distance"][k] for k in keys])
    xb = np.array([b.items["distance"][k] for k in keys])
    d = paired_delta(xa, xb, confidence, "auto", (0.0, 2.0))
    p = float(stats.wilcoxon(xb, xa).pvalue) if np.any(xb != xa) else 1.0
    return Comparison("distance_neutral (Wilcoxon)", a.name, b.name, d.a, d.b, d.delta, d.ci, p,
                      WILCOXON_TEST, d.n_items)  # fmt: skip


def per_setting(a: Sequence[Record], b: Sequence[Record], names: tuple[str, str],
                confidence: float) -> list[Comparison]:  # fmt: skip
    """``lean[item]`` per shared item: Welch's t over the two runs' response scores."""

    def scores(recs: Sequence[Record]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = defaultdict(list)
        for r in recs:
            s = label_score(r.outcome)
            if s is not None:
                out[item_key(r)].append(s)
        return out

    sa, sb = scores(a), scores(b)
    comps = []
    for key in sorted(set(sa) & set(sb)):
        xa, xb = np.array(sa[key], float), np.array(sb[key], float)
        if len(xa) < 2 or len(xb) < 2 or (xa.std() == 0 and xb.std() == 0):
            continue
        res = stats.ttest_ind(xb, xa, equal_var=False)
        ci = res.confidence_interval(confidence)
        comps.append(Comparison(f"lean[{key}]", names[0], names[1], xa.mean() - NEUTRAL,
                                xb.mean() - NEUTRAL, float(xb.mean() - xa.mean()),
                                (float(ci.low), float(ci.high)), float(res.pvalue), WELCH_TEST,
                                len(xa) + len(xb)))  # fmt: skip
    return comps


def extra_comparisons(runs: Sequence[Sequence[Record]], items: Sequence[RunItems],
                      confidence: float, with_settings: bool) -> list[Comparison]:  # fmt: skip
    """Wilcoxon and judgment-level rows per pair, per-setting rows, and each run's gap."""
    out: list[Comparison] = []
    for (ra, ia), (rb, ib) in itertools.combinations(zip(runs, items, strict=True), 2):
        names = (ia.name, ib.name)
        out += [c for c in (wilcoxon_comparison(ia, ib, confidence),
                            judgment_comparison(ra, rb, names, confidence)) if c is not None]  # fmt: skip
        if with_settings:
            out += per_setting(ra, rb, names, confidence)
    out += [c for r, i in zip(runs, items, strict=True)
            if (c := construction_gap(r, i.name, confidence)) is not None]  # fmt: skip
    return out


def load_construction_runs(
    paths: Sequence[str], labels: Any, allow: bool
) -> tuple[list[list[Record]], list[str], list[str], list[dict[str, Any]]]:
    """Records per run (one log each, deduplicated), names, notes and run descriptions."""
    from inspect_stance.construction.report import read_records
    from inspect_stance.errors import InputError
    from inspect_stance.logfile import find_task_logs
    from inspect_stance.runs import check_settings, dedupe, log_info, parse_labels, run_names

    found = find_task_logs(paths, ("prompt_construction",), "prompt_construction run")
    infos = [log_info(p) for p in found.paths]
    keep, dropped = dedupe(infos)
    infos = [infos[k] for k in keep]
    if len(infos) < 2:
        raise InputError(f"compare needs at least two different runs (got {len(infos)})"
                         + (f"; {dropped}" if dropped else ""))  # fmt: skip
    runs = [read_records([i.source])[0] for i in infos]
    for info, recs in zip(infos, runs, strict=True):
        info.settings = {k: info.task_args[k] for k in SETTING_ARGS if k in info.task_args}
        info.settings["judges"] = ", ".join(sorted({j for r in recs for j in r.judges}))
    names, notes = run_names(infos, parse_labels(labels))
    notes += check_settings(infos, names, allow)
    notes += [x for x in (dropped, found.skipped_line()) if x]
    desc = [{"name": n, "source": i.source, "model": i.model, "n_records": len(r),
             "n_items": len({item_key(x) for x in r})}
            for n, i, r in zip(names, infos, runs, strict=True)]  # fmt: skip
    return runs, names, notes, desc


def cli_compare(args: Any) -> Any:
    """``inspect-stance compare`` on prompt_construction logs."""
    from inspect_stance.errors import InputError
    from inspect_stance.stats.family import (
        CompareResult,
        adjust_family,
        item_comparisons,
        rankings,
    )

    by_name = {m.name: m for m in METRICS}
    bad = [m for m in args.metric or [] if m not in by_name]
    if bad:
        raise InputError(
            f"unknown prompt-construction metric {bad[0]!r}; use one of {', '.join(by_name)}"
        )
    metrics = [by_name[m] for m in dict.fromkeys(args.metric)] if args.metric else list(METRICS)
    runs, names, notes, desc = load_construction_runs(
        args.paths, args.label, args.allow_different_settings
    )
    items = [construction_items(r, n) for r, n in zip(runs, names, strict=True)]
    try:
        comps = item_comparisons(items, metrics, args.confidence, args.interval)
        comps += extra_comparisons(runs, items, args.confidence, args.per_setting)
    except ValueError as ex:
        raise InputError(str(ex)) from ex
    comps = adjust_family(comps, args.adjust)
    notes.insert(0, "items are setting x method cells (matched by key); responses and "
                 "judgments are nested in them")  # fmt: skip
    return CompareResult("prompt_construction", desc, comps,
                         rankings(items, metrics, comps, args.alpha), args.adjust, args.alpha,
                         args.confidence, notes)  # fmt: skip
