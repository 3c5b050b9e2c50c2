"""The stance-drift report's CSV frames: a :class:`~.analysis.RunReport` in, numeric
frames out (one row per run, per proposition, per hop, ...); nothing here formats or writes."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.drift.chain.hops import k_hop_matrices
from inspect_stance.drift.metrics.confidence import bonferroni_level
from inspect_stance.drift.metrics.pass_rate import AUC_THRESHOLDS, pass_rate
from inspect_stance.drift.metrics.patterns import PATTERNS, pattern_stances
from inspect_stance.drift.report.analysis import (
    ALL_STANCES,
    RunReport,
    nanmean0,
    pooled_pass_curve,
)
from inspect_stance.stances import STANCE_KEYS, STANCES


def cell_index(n_propositions: int) -> tuple[np.ndarray, np.ndarray]:
    """Proposition and initial-stance indices of the ``P * 5`` cells, proposition-major:
    ``s = 0,0,0,0,0,1,...`` and ``i = 0,1,2,3,4,0,...``."""
    return np.repeat(np.arange(n_propositions), 5), np.tile(np.arange(5), n_propositions)


def summary_frame(reports: list[RunReport]) -> pd.DataFrame:
    """One numeric row per run (the per-model CSV)."""
    rows = []
    for r in reports:
        row: dict[str, Any] = {
            "run": r.name,
            "source": r.run.source,
            "model": r.run.model,
            "variant": r.run.variant,
            "n_propositions": r.run.n_propositions,
            "n_trials": r.run.n_trials,
            "unparsed_trials": r.run.n_unparsed,
            "unparsed_extractions": r.run.n_unparsed_extractions,
            "label_mismatches": r.run.n_label_mismatches,
            "missing_values": r.run.n_missing,
            "unparsed_policy": r.unparsed,
            "confidence": r.confidence,
            "bonferroni_level": bonferroni_level(r.confidence, r.run.n_propositions),
            "threshold": r.threshold,
        }
        for prefix, an in (("", r.main), ("argmax_", r.argmax)):
            row[f"{prefix}spr"] = an.spr
            row[f"{prefix}spr_se"] = an.spr_se
            for i, key in enumerate(STANCE_KEYS):
                row[f"{prefix}success_{key}"] = an.success[i]
                row[f"{prefix}success_{key}_se"] = an.success_se[i]
            for p in PATTERNS:
                row[f"{prefix}{p}"] = an.patterns[p][0]
                row[f"{prefix}{p}_se"] = an.patterns[p][1]
            row[f"{prefix}sdr"] = an.sdr
            row[f"{prefix}sdr_se"] = an.sdr_se
            for i, key in enumerate(STANCE_KEYS):
                row[f"{prefix}ci_includes_one_{key}"] = an.ci_includes_one[i]
                row[f"{prefix}ci_includes_one_bonferroni_{key}"] = an.ci_includes_one_bonferroni[i]
                row[f"{prefix}pass_rate_{key}"] = an.pass_rate[i]
                row[f"{prefix}auc_{key}"] = an.auc_by_stance[i]
            row[f"{prefix}auc"] = an.auc
        for i, key in enumerate(STANCE_KEYS):
            row[f"stationary_{key}"] = nanmean0(r.stationary)[i]
        rows.append(row)
    return pd.DataFrame(rows)


def per_proposition_frame(reports: list[RunReport]) -> pd.DataFrame:
    """One row per run x proposition x initial stance: matrix row, success, bounds, argmax."""
    frames = []
    for r in reports:
        s_idx, i_idx = cell_index(r.run.n_propositions)
        d: dict[str, Any] = {
            "run": r.name,
            "proposition_index": s_idx,
            "topic_id": np.asarray(r.run.topic_ids, dtype=object)[s_idx],
            "proposition": np.asarray(r.run.propositions, dtype=object)[s_idx],
            "initial_stance": np.asarray(STANCES, dtype=object)[i_idx],
        }
        for j, key in enumerate(STANCE_KEYS):
            d[f"p_{key}"] = r.main.matrices[s_idx, i_idx, j]
        d["success"] = r.main.success_per_proposition[s_idx, i_idx]
        # one-sided t upper bounds of the success rate, unclipped (they exceed 1 near 1, and are
        # compared with 1 as the paper does), and the same clipped to the rate's range [0, 1]
        d["upper_bound_t_unclipped"] = r.main.bounds[s_idx, i_idx]
        d["upper_bound_t_unclipped_bonferroni"] = r.main.bounds_bonferroni[s_idx, i_idx]
        d["upper_bound_clipped"] = np.minimum(r.main.bounds[s_idx, i_idx], 1.0)
        d["upper_bound_clipped_bonferroni"] = np.minimum(
            r.main.bounds_bonferroni[s_idx, i_idx], 1.0
        )
        d["reaches_one"] = r.main.bounds[s_idx, i_idx] >= 1.0
        d["reaches_one_bonferroni"] = r.main.bounds_bonferroni[s_idx, i_idx] >= 1.0
        d["passes_threshold"] = r.main.success_per_proposition[s_idx, i_idx] > r.threshold
        d["argmax_success"] = r.argmax.success_per_proposition[s_idx, i_idx]
        d["argmax_upper_bound_t_unclipped_bonferroni"] = r.argmax.bounds_bonferroni[s_idx, i_idx]
        d["unparsed_trials"] = r.run.unparsed_mask.sum(axis=1)[s_idx, i_idx]
        for key in ("unparsed_extractions", "label_mismatches"):
            counts = getattr(r.run, key)
            d[key] = None if counts is None else counts.sum(axis=1)[s_idx, i_idx]
        d["missing_trials"] = r.run.missing_mask.sum(axis=1)[s_idx, i_idx]
        frames.append(pd.DataFrame(d))
    return pd.concat(frames, ignore_index=True)


def hops_frame(reports: list[RunReport]) -> pd.DataFrame:
    """SPR and success by stance after ``k`` hops, one row per run x k; ``source`` says
    whether the row is ``measured`` (a hop the run made) or ``projected`` (``T^k``)."""
    rows = []
    for r in reports:
        for h in r.hop_curve:
            row = {"run": r.name, "k": h["k"], "source": h["source"]}
            row |= {"spr": h["spr"], "spr_se": h["spr_se"]}
            for i, key in enumerate(STANCE_KEYS):
                row[f"success_{key}"] = h["success_by_stance"][i]
            rows.append(row)
    return pd.DataFrame(rows)


def k_hop_frame(reports: list[RunReport]) -> pd.DataFrame:
    """Per-proposition ``T^k`` rows for ``k = 1..--hops``."""
    frames = []
    for r in reports:
        s_idx, i_idx = cell_index(r.run.n_propositions)
        for k in range(1, r.hops + 1):
            tk = k_hop_matrices(r.main.matrices, k)
            d: dict[str, Any] = {
                "run": r.name,
                "k": k,
                "proposition_index": s_idx,
                "topic_id": np.asarray(r.run.topic_ids, dtype=object)[s_idx],
                "initial_stance": np.asarray(STANCES, dtype=object)[i_idx],
            }
            for j, key in enumerate(STANCE_KEYS):
                d[f"p_{key}"] = tk[s_idx, i_idx, j]
            frames.append(pd.DataFrame(d))
    return pd.concat(frames, ignore_index=True)


def stationary_frame(reports: list[RunReport]) -> pd.DataFrame:
    """Per-proposition stationary distribution and whether it is unique."""
    frames = []
    for r in reports:
        d: dict[str, Any] = {
            "run": r.name,
            "proposition_index": np.arange(r.run.n_propositions),
            "topic_id": r.run.topic_ids,
            "proposition": r.run.propositions,
        }
        for j, key in enumerate(STANCE_KEYS):
            d[f"pi_{key}"] = r.stationary[:, j]
        d["unique"] = r.stationary_unique
        frames.append(pd.DataFrame(d))
    return pd.concat(frames, ignore_index=True)


def pass_curve_frame(reports: list[RunReport]) -> pd.DataFrame:
    """Pass rate by stance and over all combinations (``pass_rate_all``, Fig. S6A) at every AUC
    threshold, for both analyses."""
    rows = []
    for r in reports:
        for label, an in (("probabilities", r.main), ("argmax", r.argmax)):
            succ = an.success_per_proposition
            pooled = pooled_pass_curve(an)
            for k, t in enumerate(AUC_THRESHOLDS):
                row: dict[str, Any] = {"run": r.name, "analysis": label, "threshold": float(t)}
                for i, key in enumerate(STANCE_KEYS):
                    row[f"pass_rate_{key}"] = pass_rate(succ, float(t))[i]
                row["pass_rate_all"] = pooled[k]
                rows.append(row)
    return pd.DataFrame(rows)


def stance_patterns_frame(reports: list[RunReport]) -> pd.DataFrame:
    """The per-stance drift-pattern tables as numbers, one row per run x initial stance (and an
    ``All stances`` row per run); a pattern's columns are empty where it has no cells."""
    rows = []
    for r in reports:
        m = r.main
        for i, stance in enumerate([*STANCES, ALL_STANCES]):
            row: dict[str, Any] = {"run": r.name, "initial_stance": stance}
            if i < len(STANCES):
                row["success"], row["success_se"] = m.success[i], m.success_se[i]
            else:
                row["success"], row["success_se"] = m.spr, m.spr_se
            for p in PATTERNS:
                mean, se = m.patterns_by_stance[p]
                if i == len(STANCES):
                    row[p], row[f"{p}_se"] = m.patterns[p]
                elif i in pattern_stances(p):
                    row[p], row[f"{p}_se"] = mean[i], se[i]
                else:
                    row[p], row[f"{p}_se"] = math.nan, math.nan
            rows.append(row)
    return pd.DataFrame(rows)
