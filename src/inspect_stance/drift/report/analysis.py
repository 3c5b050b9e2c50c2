"""The stance-drift report's figures: per-trial vectors in, numbers out (no formatting).

:func:`build_report` computes every figure of one run (a :class:`RunReport`: both analyses
—probabilistic vectors and their argmax, :func:`analyse`— and the multi-hop figures);
:mod:`.frames` lays them out as numeric frames, :mod:`.render` as text.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inspect_stance.drift.chain.hops import spr_curve, stationary_distributions
from inspect_stance.drift.chain.logs import is_chain_log, read_chain_log
from inspect_stance.drift.metrics.confidence import share_reaching_one, upper_bounds
from inspect_stance.drift.metrics.pass_rate import (
    AUC_THRESHOLDS,
    pass_rate,
    pass_rate_auc,
    pass_rate_curve,
)
from inspect_stance.drift.metrics.patterns import (
    drift_patterns,
    drift_patterns_by_stance,
    stance_drift_rate,
)
from inspect_stance.drift.metrics.spr import stance_preservation_rate, success_by_stance
from inspect_stance.drift.run import DriftRun
from inspect_stance.drift.transition import (
    FloatArray,
    argmax_trials,
    check_policy,
    diagonal,
    transition_matrices,
    unparsed_mask,
)
from inspect_stance.runs import RunInfo, log_info, name_runs
from inspect_stance.stats.moments import mean_se

MIN_PLOT_HOPS = 10  # the SPR-vs-hops curve always spans at least this many hops


#: the largest --hops: the curve computes every T^k up to K (at K = 1000 a 5-state chain is at
#: its stationary distribution to machine precision unless it is periodic or nearly reducible)
MAX_HOPS = 1000

#: the row label of the mean over the five initial stances (Table 2's row)
ALL_STANCES = "All stances"


@dataclass
class Analysis:
    """All figures of one analysis (probabilistic vectors or their argmax) of one run."""

    matrices: FloatArray  # (P, 5, 5) per-proposition transition matrices
    spr: float
    spr_se: float
    success: FloatArray  # (5,)
    success_se: FloatArray  # (5,)
    patterns: dict[str, tuple[float, float]]
    sdr: float
    sdr_se: float
    bounds: FloatArray  # (P, 5) uncorrected upper bounds
    bounds_bonferroni: FloatArray  # (P, 5)
    ci_includes_one: FloatArray  # (5,)
    ci_includes_one_bonferroni: FloatArray  # (5,)
    pass_rate: FloatArray  # (5,) at the threshold
    auc_by_stance: FloatArray  # (5,)
    auc: float
    patterns_by_stance: dict[str, tuple[FloatArray, FloatArray]] = field(default_factory=dict)

    @property
    def success_per_proposition(self) -> FloatArray:
        """``T[s, i, i]``, shape ``(P, 5)``."""
        return diagonal(self.matrices)


def analyse(
    probs: np.ndarray,
    unparsed: str = "failure",
    threshold: float = 0.95,
    confidence: float = 0.99,
    matrices: np.ndarray | None = None,
) -> Analysis:
    """Compute every figure of one analysis from per-trial vectors ``(P, T, 5, 5)``;
    ``matrices`` (``(P, 5, 5)``, default: the trials' means) are an adaptive run's unbiased
    estimates (:meth:`~.run.DriftRun.matrices`), the bounds still read the trials."""
    policy = check_policy(unparsed)
    if matrices is None:
        matrices = transition_matrices(probs, policy)
    spr, spr_se = stance_preservation_rate(matrices)
    success, success_se = success_by_stance(matrices)
    sdr, sdr_se = stance_drift_rate(matrices)
    bounds = upper_bounds(probs, confidence, bonferroni=False, unparsed=policy)
    bounds_b = upper_bounds(probs, confidence, bonferroni=True, unparsed=policy)
    succ_prop = diagonal(matrices)
    auc_by_stance, auc = pass_rate_auc(succ_prop)
    return Analysis(
        matrices=matrices,
        spr=spr,
        spr_se=spr_se,
        success=success,
        success_se=success_se,
        patterns=drift_patterns(matrices),
        sdr=sdr,
        sdr_se=sdr_se,
        bounds=bounds,
        bounds_bonferroni=bounds_b,
        ci_includes_one=share_reaching_one(bounds),
        ci_includes_one_bonferroni=share_reaching_one(bounds_b),
        pass_rate=pass_rate(succ_prop, threshold),
        auc_by_stance=auc_by_stance,
        auc=auc,
        patterns_by_stance=drift_patterns_by_stance(matrices),
    )


@dataclass
class RunReport:
    """One run's report: both analyses, multi-hop figures and the settings used."""

    run: DriftRun
    unparsed: str
    threshold: float
    confidence: float
    hops: int
    main: Analysis
    argmax: Analysis
    hop_curve: list[dict[str, Any]] = field(default_factory=list)
    stationary: FloatArray = field(default_factory=lambda: np.zeros((0, 5)))
    stationary_unique: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    #: hops measured in the run (``-T hops=K``; 1 for a one-hop run): the analyses above are of
    #: the last hop, ``hop_curve[:run_hops]`` is measured, the rest projected
    run_hops: int = 1

    @property
    def name(self) -> str:
        """The run's display name."""
        return self.run.name

    @property
    def n_trials_total(self) -> int:
        """Number of trial slots ``P * T * 5``."""
        return int(np.prod(self.run.probs.shape[:3]))


def build_report(
    run: DriftRun,
    threshold: float = 0.95,
    confidence: float = 0.99,
    unparsed: str = "failure",
    hops: int = 1,
) -> RunReport:
    """Compute the full report of ``run``."""
    check_pass_threshold(threshold)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"--confidence {confidence} must be strictly between 0 and 1")
    if not 1 <= hops <= MAX_HOPS:
        raise ValueError(f"--hops {hops} must be between 1 and {MAX_HOPS}")
    main = analyse(run.probs, unparsed, threshold, confidence, run.matrices(unparsed))
    argmax = analyse(
        argmax_trials(run.probs), unparsed, threshold, confidence, run.matrices(unparsed, True)
    )
    run_hops, curve = hop_curve(run, main, unparsed, max(hops, MIN_PLOT_HOPS))
    stationary, unique = stationary_distributions(main.matrices)
    return RunReport(
        run=run,
        unparsed=unparsed,
        threshold=threshold,
        confidence=confidence,
        hops=hops,
        main=main,
        argmax=argmax,
        hop_curve=curve,
        stationary=stationary,
        stationary_unique=unique,
        run_hops=run_hops,
    )


def hop_curve(
    run: DriftRun, main: Analysis, unparsed: str, max_hops: int
) -> tuple[int, list[dict[str, Any]]]:
    """SPR after ``k = 1..max_hops`` hops, each row marked ``source`` ``measured`` or
    ``projected``: for a one-hop run ``k = 1`` is measured and ``k > 1`` is ``mean_s
    mean_i (T_s^k)[i, i]``; for a ``-T hops=K`` log ``k = 1..K`` are the SPR read after each
    hop (``M_k``'s mean diagonal) and ``k > K`` the one-hop
    projection ``M_1^k`` (hop 1's matrices, as the chain report's ``SPR M_1^k``; measured rows
    carry it as ``projected_spr``, so the figure draws the projection from ``k = 0``)."""

    if not run.source.endswith((".eval", ".json")) or not is_chain_log(run.source):
        rows = spr_curve(main.matrices, max_hops)
        for row in rows:
            row["source"] = "measured" if row["k"] == 1 else "projected"
        rows[0]["projected_spr"] = rows[0]["spr"]  # T^1 is the measured matrix
        return 1, rows

    chain = read_chain_log(run.source, unparsed)
    policy = check_policy(unparsed)
    projection = spr_curve(transition_matrices(chain.hop_probs[0], policy), max_hops)
    rows = []
    for k in range(1, chain.n_hops + 1):  # M_k: the matrices read after hop k
        [row] = spr_curve(transition_matrices(chain.hop_probs[k - 1], policy), 1)
        rows.append({**row, "k": k, "source": "measured", "projected_spr": None})
        if k <= len(projection):
            rows[-1]["projected_spr"] = projection[k - 1]["spr"]
    for row in projection[chain.n_hops :]:
        rows.append({**row, "source": "projected"})
    return chain.n_hops, rows


def check_pass_threshold(threshold: float) -> float:
    """A pass-rate threshold must be a number in ``[0, 1]`` (a success rate); ``ValueError``."""
    if not (isinstance(threshold, (int, float)) and 0.0 <= float(threshold) <= 1.0):
        raise ValueError(
            f"--threshold {threshold} is not a success rate; give a number between 0 and 1 "
            "(default 0.95)"
        )
    return float(threshold)


def pooled_pass_curve(an: Analysis, thresholds: np.ndarray = AUC_THRESHOLDS) -> FloatArray:
    """Pass rate over all proposition-initial stance combinations at each threshold (Fig. S6A):
    ``#{(s, i): succ[s, i] > tau} / #{(s, i) defined}``."""
    flat = an.success_per_proposition.reshape(-1, 1)
    return np.asarray(pass_rate_curve(flat, thresholds)[:, 0], dtype=np.float64)


def unique_names(reports: list[RunReport], labels: dict[str, str] | None = None) -> None:
    """Name runs in place as ``compare`` does (:func:`inspect_stance.runs.name_runs`): the model
    and variant; where they collide, the task arguments that differ (``model / default
    [trials=50]``); an Inspect tag names a run outright; ``labels`` (``--label RUN=NAME``)
    override; runs alike in all of these get ``#2``, ``#3``."""

    infos = []
    for rep in reports:
        src = rep.run.source
        info = log_info(src) if src.endswith((".eval", ".json")) else RunInfo(src, src)
        info.model = rep.run.name  # "model / variant"
        infos.append(info)
    for rep, name in zip(reports, name_runs(infos, labels or {}), strict=True):
        rep.run.name = name


def nanmean0(arr: np.ndarray) -> FloatArray:
    """Column means ignoring NaN (all-NaN columns stay NaN without a warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(np.nanmean(arr, axis=0), dtype=np.float64)


def trial_mean_se(probs_s: np.ndarray, unparsed: str) -> tuple[FloatArray, FloatArray]:
    """Mean and SE over trials of one proposition's vectors ``(T, 5, 5)`` under the policy."""
    arr = np.asarray(probs_s, dtype=np.float64)
    bad = unparsed_mask(arr[None])[0]
    if unparsed == "failure":
        arr = np.where(bad[..., None], 0.0, arr)
    else:
        arr = np.where(bad[..., None], np.nan, arr)
    return mean_se(arr, axis=0)
