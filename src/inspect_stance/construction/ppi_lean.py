"""The lean corrected with human labels: prediction-powered estimates beside the judges' own.

For one group of responses (a setting x method, or a method over all settings), the population
is the responses whose ensemble outcome is a scale label (the judges-only lean's responses).
Those with a human scale label are the labelled set (``Y`` = human score, ``f`` = ensemble
score), those without a human label the unlabelled set (``f~``); responses a human labelled
``refusal`` are left out and counted (``n_human_refusal``). The PPI lean is
:func:`inspect_stance.stats.ppi.ppi_mean` (classic PPI, 95 %) minus 3; it needs at least
two labelled responses, else it is n/a (with none unlabelled it is the human labels' mean). The
estimand is the mean stance a person would give those responses; the interval is valid when the
labelled responses are a random sample of the group's (label a random subset per setting and
method, e.g. every k-th sample id, not a hand-picked one).

The templated-generated difference is reported two ways: ``lean_difference`` = PPI lean of all
templated minus all generated responses (disjoint sets, ``se^2 = se_T^2 + se_G^2``), and
``distance_difference`` = mean over neutral settings with a PPI lean for both methods of
``|lean_T| - |lean_G|`` (the paper's headline statistic) with a conservative interval that
holds near neutral, where ``|estimate|`` is biased upward
(:func:`inspect_stance.stats.ppi.distance_difference`), beside the judges' own.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import pandas as pd

from inspect_stance.construction.comparison import neutral_comparison
from inspect_stance.construction.labels import NEUTRAL, REFUSAL, label_score
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import GENERATED, METHODS, TEMPLATED, Setting
from inspect_stance.stats.ppi import PPIEstimate, difference, distance_difference, ppi_mean


def ppi_lean(records: Sequence[Record]) -> tuple[PPIEstimate, float, int]:
    """PPI lean of one group, the judges-only lean, and ``n_human_refusal`` (docstring)."""
    scored = [r for r in records if label_score(r.outcome) is not None]
    y, f, fu, refused = [], [], [], 0
    for r in scored:
        judge = float(label_score(r.outcome) or 0)
        if r.human_label is None:
            fu.append(judge)
        elif r.human_label == REFUSAL:
            refused += 1
        else:
            y.append(float(label_score(r.human_label) or 0))
            f.append(judge)
    judges = sum(f + fu) / len(f + fu) - NEUTRAL if f or fu else math.nan
    return ppi_mean(y, f, fu).shifted(NEUTRAL), judges, refused


def _row(est: PPIEstimate, judges: float, refused: int) -> dict[str, Any]:
    return {
        "judges_lean": judges,
        "ppi_lean": est.estimate,
        "ppi_ci_low": est.ci_low,
        "ppi_ci_high": est.ci_high,
        "ppi_se": est.se,
        "n_labelled": est.n_labelled,
        "n_unlabelled": est.n_unlabelled,
        "n_human_refusal": refused,
        "ppi_warning": est.warning,
    }


def ppi_setting_table(records: Sequence[Record]) -> pd.DataFrame:
    """One row per setting x method with a human label: judges-only and PPI lean."""
    groups: dict[tuple[Setting, str], list[Record]] = defaultdict(list)
    for r in records:
        groups[(r.setting, r.method)].append(r)
    rows = []
    for (setting, method), recs in sorted(groups.items()):
        if not any(r.human_label is not None for r in recs):
            continue
        rows.append(
            {
                "topic_id": setting.topic_id,
                "intent": setting.intent,
                "stance": setting.stance,
                "method": method,
                **_row(*ppi_lean(recs)),
            }
        )
    return pd.DataFrame(rows)


def ppi_summary(records: Sequence[Record]) -> dict[str, Any]:
    """Per method (all settings) the PPI lean, the templated-generated lean difference, and the
    neutral distance difference (module docstring), each beside the judges' estimate."""
    if not any(r.human_label is not None for r in records):
        return {}
    out: dict[str, Any] = {}
    per_method: dict[str, PPIEstimate] = {}
    for method in METHODS:
        est, judges, refused = ppi_lean([r for r in records if r.method == method])
        per_method[method] = est
        out[method] = _row(est, judges, refused)
    if TEMPLATED in per_method and GENERATED in per_method:
        d = difference(per_method[TEMPLATED], per_method[GENERATED])
        out["lean_difference"] = {
            "judges": out[TEMPLATED]["judges_lean"] - out[GENERATED]["judges_lean"],
            "ppi": d.estimate,
            "ppi_ci_low": d.ci_low,
            "ppi_ci_high": d.ci_high,
            "ppi_se": d.se,
            "n_labelled": d.n_labelled,
            "ppi_warning": d.warning,
        }
    pairs: list[tuple[PPIEstimate, PPIEstimate]] = []
    neutral = [r for r in records if r.setting.is_neutral]
    keys = sorted({r.setting for r in neutral})
    for s in keys:
        t = ppi_lean([r for r in neutral if r.setting == s and r.method == TEMPLATED])[0]
        g = ppi_lean([r for r in neutral if r.setting == s and r.method == GENERATED])[0]
        if math.isfinite(t.estimate) and math.isfinite(g.estimate):
            pairs.append((t, g))
    dist, low, high = distance_difference([p[0] for p in pairs], [p[1] for p in pairs])
    out["distance_difference"] = {
        "judges": neutral_comparison(records).mean_difference,
        "ppi": dist,
        "ppi_ci_low": low,
        "ppi_ci_high": high,
        "n_settings": len(pairs),
        "n_neutral_settings": len(keys),
        "n_labelled": sum(t.n_labelled + g.n_labelled for t, g in pairs),
        "ppi_warning": "; ".join(
            dict.fromkeys(w for t, g in pairs for w in (t.warning, g.warning) if w)
        ),  # fmt: skip
    }
    return out


def ppi_values(records: Sequence[Record]) -> dict[str, float]:
    """:func:`ppi_summary` as metric values: ``ppi_lean_<method>`` with ``_low`` / ``_high``
    (95 %), and ``ppi_distance_difference`` with ``_low`` / ``_high``; empty without labels."""
    summary = ppi_summary(records)
    out: dict[str, float] = {}
    for method in METHODS:
        if method in summary:
            s = summary[method]
            out[f"ppi_lean_{method}"] = float(s["ppi_lean"])
            out[f"ppi_lean_{method}_low"] = float(s["ppi_ci_low"])
            out[f"ppi_lean_{method}_high"] = float(s["ppi_ci_high"])
    if "distance_difference" in summary:
        d = summary["distance_difference"]
        out["ppi_distance_difference"] = float(d["ppi"])
        out["ppi_distance_difference_low"] = float(d["ppi_ci_low"])
        out["ppi_distance_difference_high"] = float(d["ppi_ci_high"])
    return out
