"""Prompt-construction runs compared (``inspect-stance compare`` on ``prompt_construction`` logs).

Items are setting x method cells (``topic-intent-stance/method``), matched by that key. Per item,
with ``s_i`` the majority scores of its scale-labelled responses (:mod:`.lean`):

- ``lean`` = ``mean(s_i) - 3`` and ``distance`` = ``|lean|`` (overall rows: paired over the
  items both runs have; lower distance ranks better);
- ``distance_neutral (Wilcoxon)``: the paper's test, ``scipy.stats.wilcoxon`` over the neutral
  items' distances (its interval: the paired item-level interval of the mean difference);
- ``distance (judgments)``: from every individual judgment ``|score - 3|`` of both runs, averaged
  per prompt, then per setting and run over the shared items; the delta is the mean over
  settings of run B minus run A, with the paired t over settings
  (:func:`inspect_stance.stats.nested.nested_difference`: the settings, not the judgments,
  prompts or items, are the independent units, since a model's lean on a setting is shared by
  its two methods' items; so the size holds with one prompt per item);
- ``gap templated-generated (judgments)`` per run: the same within one run on the neutral
  settings, templated minus generated, paired t over settings: the construction confound from
  the judgments, beside the report's 18-setting Wilcoxon;
- with ``per_setting``: ``lean[item]`` per item, Welch's t over the two runs' responses
  (``scipy.stats.ttest_ind(equal_var=False)``); cells whose responses do not vary in either
  run get the exact difference and an exact permutation p (:func:`per_setting`).

Settings that must match: ``rubric_threshold``, ``judge_sees_prompt``, ``reversed_rubric``,
``ensemble`` and the judges.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from inspect_stance.construction.compare_options import PER_SETTING
from inspect_stance.construction.figures import HEADLINE, group_headline, group_items
from inspect_stance.construction.keys import JUDGES_ROLE
from inspect_stance.construction.labels import NEUTRAL, label_score
from inspect_stance.construction.lean import summarize
from inspect_stance.construction.records import Record
from inspect_stance.construction.report_records import read_records
from inspect_stance.construction.settings import TEMPLATED
from inspect_stance.logfile import find_task_logs
from inspect_stance.runs import RunInfo, dedupe, log_info
from inspect_stance.shards.layout import group_logs
from inspect_stance.stats.family import (
    CompareResult,
    Comparison,
    MetricSpec,
    RunItems,
    adjust_family,
    item_comparisons,
    rankings,
)
from inspect_stance.stats.headline import Headline
from inspect_stance.stats.nested import nested_difference, nested_test_line
from inspect_stance.stats.paired import paired_delta
from inspect_stance.study.protocol import CompareRequest, ItemValues, LoadedRuns, items_of

SETTING_ARGS: tuple[str, ...] = ("rubric_threshold", "judge_sees_prompt", "reversed_rubric",
                                 "ensemble")  # fmt: skip
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("lean", rank=False, value_range=(-2.0, 2.0)),
    MetricSpec("distance", higher_is_better=False, value_range=(0.0, 2.0)),
)

WILCOXON_TEST = "Wilcoxon signed-rank over neutral items (scipy); paired item-level interval"
WELCH_TEST = "Welch t over the setting's responses (scipy.stats.ttest_ind)"
EXACT_CELL_TEST = ("zero variance in both runs' responses: the difference is exact for them "
                   "(interval = the point); p: exact permutation test (scipy)")  # fmt: skip
FEW_CELL_TEST = "fewer than 2 scored responses in a run: the difference, no test"


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
    rows = [(*j, False) for j in ja if j[0] in shared] + [(*j, True) for j in jb if j[0] in shared]
    res = nested_difference([r[3] for r in rows], [r[5] for r in rows],
                            [r[0].split("/")[0] for r in rows], [r[2] for r in rows],
                            confidence, (0.0, 2.0))  # fmt: skip
    if res is None:
        return None
    return Comparison("distance (judgments)", names[0], names[1], res.a, res.b, res.delta,
                      res.ci, res.p, nested_test_line("setting", res.n_items), res.n_items)  # fmt: skip


def construction_gap(records: Sequence[Record], name: str, confidence: float) -> Comparison | None:
    """Templated minus generated distance on neutral items, from the judgments, over settings."""
    rows = [j for r, j in _neutral_judgments(records)]
    res = nested_difference([r[3] for r in rows], [r[4] for r in rows],
                            [r[0].split("/")[0] for r in rows], [r[2] for r in rows],
                            confidence, (0.0, 2.0))  # fmt: skip
    if res is None:
        return None
    return Comparison("gap templated-generated (judgments)", f"{name} generated",
                      f"{name} templated", res.a, res.b, res.delta, res.ci, res.p,
                      nested_test_line("setting", res.n_items), res.n_items)  # fmt: skip


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
    """``lean[item]`` per shared item, one row each: Welch's t over the two runs' response
    scores; when neither run's responses vary, the difference of the means is exact for these
    responses (the interval is that point) and p is the exact permutation test's (share of the
    splits of the pooled scores whose ``|mean difference|`` is at least the observed one,
    ``scipy.stats.permutation_test``); a run with fewer than 2 scores: the difference, no test."""

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
        delta = float(xb.mean() - xa.mean())
        ci, p, test = _cell_test(xa, xb, delta, confidence)
        comps.append(Comparison(f"lean[{key}]", names[0], names[1], xa.mean() - NEUTRAL,
                                xb.mean() - NEUTRAL, delta, ci, p, test,
                                len(xa) + len(xb)))  # fmt: skip
    return comps


def _cell_test(xa: np.ndarray, xb: np.ndarray, delta: float,
               confidence: float) -> tuple[tuple[float, float], float, str]:  # fmt: skip
    if len(xa) < 2 or len(xb) < 2:
        return (math.nan, math.nan), math.nan, FEW_CELL_TEST
    if xa.std() == 0 and xb.std() == 0:
        if delta == 0:
            return (0.0, 0.0), 1.0, EXACT_CELL_TEST
        res = stats.permutation_test((xb, xa), lambda x, y: np.mean(x) - np.mean(y),
                                     permutation_type="independent", n_resamples=9999,
                                     random_state=0)  # fmt: skip
        return (delta, delta), float(res.pvalue), EXACT_CELL_TEST
    res = stats.ttest_ind(xb, xa, equal_var=False)
    ci = res.confidence_interval(confidence)
    return (float(ci.low), float(ci.high)), float(res.pvalue), WELCH_TEST


def per_setting_note(comps: Sequence[Comparison]) -> str:
    """The note for ``--per-setting`` when it gives no row (else empty)."""
    if any(c.metric.startswith("lean[") for c in comps):
        return ""
    return ("--per-setting: no setting x method cell has a scored response in both runs, so "
            "there is no per-setting row")  # fmt: skip


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


def _pooled_info(info: RunInfo, n_logs: int) -> RunInfo:
    """A run's info; for shards pooled into one run (``n_logs`` > 1) without the ``shard``
    task argument, so that the run is named and checked as one."""
    if n_logs > 1:
        info.task_args = {k: v for k, v in info.task_args.items() if k != "shard"}
    return info


@dataclass
class ConstructionRun:
    """One prompt_construction log: its identity and settings, and its records."""

    info: RunInfo
    records: list[Record]

    def settings(self) -> dict[str, Any]:
        """The settings that must match (:data:`SETTING_ARGS` and the judges)."""
        return self.info.settings

    def items(self, metric: str) -> ItemValues:
        """Item -> (item, value) of ``metric`` (``compare``'s items, each its own cluster); for
        the headline's metric (``mean_difference``) the values the headline averages, each
        pair in its topic's cluster (:func:`.figures.group_items`)."""
        if metric == HEADLINE:
            return group_items(self.records)
        found = construction_items(self.records, str(self.info.model))
        return items_of(found.items.get(metric, {}), found.clusters)

    def headline(self) -> Headline:
        """The run's headline by the scorer's rule (:func:`.figures.group_headline`)."""
        return group_headline(self.records)


def load_construction(paths: Sequence[str | Path], partial: bool = False) -> ConstructionRun:
    """The run of one log or of one study's shard logs pooled (their records read together,
    :func:`inspect_stance.construction.report_records.read_records`; ``partial``: an
    incomplete set too) with its settings (:data:`SETTING_ARGS` and the judges): ``compare``'s
    run, and the :attr:`~inspect_stance.study.protocol.TaskHeadline.load` of
    ``prompt_construction`` and ``judge_validation``."""
    info = _pooled_info(log_info(paths[0], JUDGES_ROLE), len(paths))
    recs = read_records(list(paths), partial)[0]
    info.settings = {k: info.task_args[k] for k in SETTING_ARGS if k in info.task_args}
    info.settings["judges"] = ", ".join(sorted({j for r in recs for j in r.judges}))
    return ConstructionRun(info, recs)


def read_runs(paths: Sequence[str], request: CompareRequest) -> LoadedRuns:
    """The prompt_construction runs among ``paths`` (files and folders; the shards of one study
    pooled into one run, an incomplete set with ``request.partial``), with their settings
    (:data:`SETTING_ARGS` and the judges), and the lines saying what was skipped or counted
    once."""
    found = find_task_logs(paths, ("prompt_construction",), "prompt_construction run")
    keep, dropped = dedupe([log_info(p, JUDGES_ROLE) for p in found.paths])  # a repeat once
    # the shards of one study (-T shard=K/N, Inspect's shard layout) are one run
    groups, _suffix = group_logs([found.paths[k] for k in keep], request.partial)
    runs = [load_construction(group, request.partial) for group in groups]
    skipped = found.passed_over() + ([dropped] if dropped else [])
    return LoadedRuns([*runs], [r.info for r in runs], skipped)


def compare_runs(
    runs: Sequence[ConstructionRun],
    names: Sequence[str],
    metrics: Sequence[MetricSpec],
    request: CompareRequest,
) -> CompareResult:
    """Every pair x metric over setting x method items, the Wilcoxon and judgment-level rows,
    each run's gap (and with ``--per-setting`` one row per shared cell), adjusted
    together; rankings."""
    confidence, alpha, adjust = request.confidence, request.alpha, request.adjust
    per_setting_rows = bool(request.options.get(PER_SETTING.dest, PER_SETTING.value))
    records = [r.records for r in runs]
    items = [construction_items(r, n) for r, n in zip(records, names, strict=True)]
    comps = item_comparisons(items, metrics, confidence, request.interval)
    comps += extra_comparisons(records, items, confidence, per_setting_rows)
    comps = adjust_family(comps, adjust)
    notes = ["items are setting x method cells (matched by key); responses and judgments are "
             "nested in them"]  # fmt: skip
    if per_setting_rows and (note := per_setting_note(comps)):
        notes.append(note)
    desc = [{"name": n, "source": r.info.source, "model": r.info.model,
             "n_records": len(r.records), "n_items": len({item_key(x) for x in r.records})}
            for n, r in zip(names, runs, strict=True)]  # fmt: skip
    return CompareResult("prompt_construction", desc, comps,
                         rankings(items, metrics, comps, alpha), adjust, alpha, confidence,
                         notes)  # fmt: skip
