"""The stance-drift report: every figure of the reference study for one or more runs.

Per run (a :class:`~inspect_stance.drift.run.DriftRun` from a log or an ``.npz``), with the
unparsed policy of :mod:`.transition` (``failure`` by default — unparsed and missing trials are
zero vectors, as in the reference study — or ``exclude``):

- success rate by initial stance and SPR, mean (SE over propositions) — :mod:`.spr`;
- the five drift-pattern masses and SDR, mean (SE) — :mod:`.patterns`;
- the per-stance drift-pattern table of each run (the reference study's supplementary tables
  S5-S10): rows = the five initial stances and their mean ("All stances", Table 2's row),
  columns = success rate and the five pattern masses, mean (SE over propositions); a cell of a
  pattern that cannot occur from that stance (e.g. polarization from Neutral) is ``-``;
- one-sided Student-t upper bounds of each proposition's success rate at ``confidence``,
  uncorrected and Bonferroni-corrected over propositions, and the share of propositions whose
  bound reaches 1, by initial stance — :mod:`.confidence`;
- pass rate by initial stance at ``threshold`` and the normalised trapezoid AUC over thresholds
  0.50..1.00 — :mod:`.pass_rate`; the pass-rate curve over all proposition-initial stance
  combinations against the threshold (Fig. S6A), CSV and PNG;
- all of the above again for the argmax (temperature-0) re-analysis (each trial's vector replaced
  by a point mass on its most probable stance — :func:`.transition.argmax_trials`);
- multi-hop chains: SPR after ``k`` hops and the stationary distributions — :mod:`.hops`;
- counts of trials, unparsed trials and missing trials, and the policy that handled them.

:func:`run_json` gives the ``--json`` object of one run with exactly the public keys; the
``write_*`` functions produce the terminal tables, CSVs, markdown and PNGs of ``--out``.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from inspect_stance.drift.confidence import bonferroni_level, share_reaching_one, upper_bounds
from inspect_stance.drift.hops import k_hop_matrices, spr_curve, stationary_distributions
from inspect_stance.drift.pass_rate import (
    AUC_THRESHOLDS,
    pass_rate,
    pass_rate_auc,
    pass_rate_curve,
)
from inspect_stance.drift.patterns import (
    PATTERNS,
    drift_patterns,
    drift_patterns_by_stance,
    pattern_stances,
    stance_drift_rate,
)
from inspect_stance.drift.run import DriftRun
from inspect_stance.drift.spr import stance_preservation_rate, success_by_stance
from inspect_stance.drift.transition import (
    FloatArray,
    argmax_trials,
    check_policy,
    diagonal,
    mean_se,
    transition_matrices,
    unparsed_mask,
)
from inspect_stance.jsonsafe import finite_or_none
from inspect_stance.markdown import md_table
from inspect_stance.stances import STANCE_KEYS, STANCES

PATTERN_LABELS: dict[str, str] = {
    "polarization": "Polarization",
    "moderation": "Moderation",
    "moderation_to_neutral": "Moderation to neutral",
    "flipping": "Flipping",
    "deviation_from_neutrality": "Deviation from neutrality",
}
MIN_PLOT_HOPS = 10  # the SPR-vs-hops curve always spans at least this many hops
#: the largest --hops: the curve computes every T^k up to K (at K = 1000 a 5-state chain is at
#: its stationary distribution to machine precision unless it is periodic or nearly reducible)
MAX_HOPS = 1000


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
    probs: np.ndarray, unparsed: str = "failure", threshold: float = 0.95, confidence: float = 0.99
) -> Analysis:
    """Compute every figure of one analysis from per-trial vectors ``(P, T, 5, 5)``."""
    policy = check_policy(unparsed)
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
    main = analyse(run.probs, unparsed, threshold, confidence)
    argmax = analyse(argmax_trials(run.probs), unparsed, threshold, confidence)
    curve = spr_curve(main.matrices, max(hops, MIN_PLOT_HOPS))
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
    )


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
    from inspect_stance.runs import RunInfo, log_info, name_runs

    infos = []
    for rep in reports:
        src = rep.run.source
        info = log_info(src) if src.endswith((".eval", ".json")) else RunInfo(src, src)
        info.model = rep.run.name  # "model / variant"
        infos.append(info)
    for rep, name in zip(reports, name_runs(infos, labels or {}), strict=True):
        rep.run.name = name


# --------------------------------------------------------------------------- JSON


def _finite_list(xs: Any) -> list[float | None]:
    return [finite_or_none(x) for x in np.asarray(xs).ravel()]


def run_json(rep: RunReport) -> dict[str, Any]:
    """The ``--json`` object of one run: the keys listed in ``docs/stance_drift.md``, plus
    ``patterns_by_stance`` / ``patterns_by_stance_se`` (pattern -> 5 values in stance order,
    the S5-S10 tables) and ``pass_rate_curve`` (``thresholds``, pooled ``pass_rate``; Fig. S6A).

    With ``--hops K > 1`` a ``hops`` object is added (opt-in; the default object has only the
    listed keys): ``{"k", "spr", "spr_se", "spr_by_hops", "stationary_mean"}``.
    """
    m, a = rep.main, rep.argmax
    out: dict[str, Any] = {
        "name": rep.name,
        "n_propositions": rep.run.n_propositions,
        "n_trials": rep.run.n_trials,
        "spr": finite_or_none(m.spr),
        "spr_se": finite_or_none(m.spr_se),
        "success_by_stance": _finite_list(m.success),
        "patterns": {name: finite_or_none(m.patterns[name][0]) for name in PATTERNS},
        "sdr": finite_or_none(m.sdr),
        "ci_includes_one": _finite_list(m.ci_includes_one),
        "ci_includes_one_bonferroni": _finite_list(m.ci_includes_one_bonferroni),
        "pass_rate": _finite_list(m.pass_rate),
        "auc": finite_or_none(m.auc),
        "patterns_by_stance": {
            name: _finite_list(m.patterns_by_stance[name][0]) for name in PATTERNS
        },
        "patterns_by_stance_se": {
            name: _finite_list(m.patterns_by_stance[name][1]) for name in PATTERNS
        },
        "pass_rate_curve": {
            "thresholds": _finite_list(AUC_THRESHOLDS),
            "pass_rate": _finite_list(pooled_pass_curve(m)),
        },
        "argmax": {"spr": finite_or_none(a.spr), "success_by_stance": _finite_list(a.success)},
        "unparsed_trials": rep.run.n_unparsed,
        "unparsed_extractions": rep.run.n_unparsed_extractions,
        "label_mismatches": rep.run.n_label_mismatches,
        "missing_values": rep.run.n_missing,
    }
    if rep.hops > 1:
        at_k = rep.hop_curve[rep.hops - 1]
        out["hops"] = {
            "k": rep.hops,
            "spr": finite_or_none(at_k["spr"]),
            "spr_se": finite_or_none(at_k["spr_se"]),
            "spr_by_hops": [finite_or_none(row["spr"]) for row in rep.hop_curve[: rep.hops]],
            "stationary_mean": _finite_list(_nanmean0(rep.stationary)),
        }
    return out


def _nanmean0(arr: np.ndarray) -> FloatArray:
    """Column means ignoring NaN (all-NaN columns stay NaN without a warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(np.nanmean(arr, axis=0), dtype=np.float64)


# --------------------------------------------------------------------------- tables


def _mean_se_cell(mean: float, se: float) -> str:
    if not math.isfinite(mean):
        return "n/a"
    return f"{mean:.3f} ({se:.3f})" if math.isfinite(se) else f"{mean:.3f}"


def _number_cell(x: float) -> str:
    return f"{x:.3f}" if math.isfinite(float(x)) else "n/a"


def _count(n: int | None) -> str:
    """A count for a table cell; ``n/a`` where the source holds no answers (an ``.npz``)."""
    return "n/a" if n is None else str(n)


def policy_text(unparsed: str) -> str:
    """One sentence naming the unparsed/missing-trial policy."""
    if unparsed == "exclude":
        return "unparsed and missing trials excluded (--exclude-unparsed)"
    return "unparsed and missing trials counted as failures (default, as in the reference study)"


def tables(reports: list[RunReport]) -> dict[str, pd.DataFrame]:
    """The report's tables (rows = runs), keyed by title; cells are formatted strings."""
    if not reports:
        return {}
    first = reports[0]
    conf = f"{first.confidence:g}"
    out: dict[str, pd.DataFrame] = {}
    idx = [r.name for r in reports]
    out["Runs"] = pd.DataFrame(
        {
            "propositions": [r.run.n_propositions for r in reports],
            "trials": [r.run.n_trials for r in reports],
            "trial slots": [r.n_trials_total for r in reports],
            "unparsed": [r.run.n_unparsed for r in reports],
            "unparsed extractions": [_count(r.run.n_unparsed_extractions) for r in reports],
            "label mismatches": [_count(r.run.n_label_mismatches) for r in reports],
            "missing": [r.run.n_missing for r in reports],
            "policy": [r.unparsed for r in reports],
        },
        index=idx,
    )
    out["Success rate by initial stance, mean (SE over propositions)"] = pd.DataFrame(
        {
            **{
                STANCES[i]: [
                    _mean_se_cell(r.main.success[i], r.main.success_se[i]) for r in reports
                ]
                for i in range(5)
            },
            "SPR": [_mean_se_cell(r.main.spr, r.main.spr_se) for r in reports],
        },
        index=idx,
    )
    out["SPR and drift patterns, mean (SE)"] = pd.DataFrame(
        {
            "SPR": [_mean_se_cell(r.main.spr, r.main.spr_se) for r in reports],
            **{
                PATTERN_LABELS[p]: [_mean_se_cell(*r.main.patterns[p]) for r in reports]
                for p in PATTERNS
            },
            "SDR": [_mean_se_cell(r.main.sdr, r.main.sdr_se) for r in reports],
        },
        index=idx,
    )
    out[
        f"Share of propositions whose one-sided {conf} upper bound reaches 1 "
        "(uncorrected / Bonferroni over propositions)"
    ] = pd.DataFrame(
        {
            STANCES[i]: [
                f"{_number_cell(r.main.ci_includes_one[i])} / {_number_cell(r.main.ci_includes_one_bonferroni[i])}"
                for r in reports
            ]
            for i in range(5)
        },
        index=idx,
    )
    out[
        f"Pass rate at threshold {first.threshold:g} and AUC (thresholds 0.50..1.00, trapezoid, /0.5)"
    ] = pd.DataFrame(
        {
            **{STANCES[i]: [_number_cell(r.main.pass_rate[i]) for r in reports] for i in range(5)},
            "AUC": [_number_cell(r.main.auc) for r in reports],
        },
        index=idx,
    )
    out["Argmax (temperature-0) re-analysis: success rate by initial stance, SPR, SDR"] = (
        pd.DataFrame(
            {
                **{
                    STANCES[i]: [
                        _mean_se_cell(r.argmax.success[i], r.argmax.success_se[i]) for r in reports
                    ]
                    for i in range(5)
                },
                "SPR": [_mean_se_cell(r.argmax.spr, r.argmax.spr_se) for r in reports],
                "SDR": [_mean_se_cell(r.argmax.sdr, r.argmax.sdr_se) for r in reports],
            },
            index=idx,
        )
    )
    out["Argmax re-analysis: drift patterns, bound shares (Bonferroni), pass rate, AUC"] = (
        pd.DataFrame(
            {
                **{
                    PATTERN_LABELS[p]: [_mean_se_cell(*r.argmax.patterns[p]) for r in reports]
                    for p in PATTERNS
                },
                "reaches 1 (Bonf.)": [
                    " ".join(_number_cell(x) for x in r.argmax.ci_includes_one_bonferroni)
                    for r in reports
                ],
                "pass rate": [
                    " ".join(_number_cell(x) for x in r.argmax.pass_rate) for r in reports
                ],
                "AUC": [_number_cell(r.argmax.auc) for r in reports],
            },
            index=idx,
        )
    )
    k = max(r.hops for r in reports)
    hop_cols: dict[str, list[str]] = {}
    for h in sorted({1, *range(2, k + 1)}):
        hop_cols[f"SPR {h} hop{'s' if h > 1 else ''}"] = [
            _mean_se_cell(r.hop_curve[h - 1]["spr"], r.hop_curve[h - 1]["spr_se"]) for r in reports
        ]
    hop_cols["stationary distribution (mean over propositions, AS..DS)"] = [
        " ".join(_number_cell(x) for x in _nanmean0(r.stationary)) for r in reports
    ]
    hop_cols["unique"] = [
        f"{int(r.stationary_unique.sum())}/{r.run.n_propositions}" for r in reports
    ]
    out["Multi-hop chains: SPR after k hops, stationary distribution"] = pd.DataFrame(
        hop_cols, index=idx
    )
    return out


ALL_STANCES = "All stances"
NOT_A_PATTERN = "-"


def stance_pattern_table(rep: RunReport) -> pd.DataFrame:
    """One run's per-stance drift-pattern table (supplementary tables S5-S10), cells formatted:
    rows = initial stances plus ``All stances`` (the mean over the five, Table 2's row),
    columns = success rate and the five pattern masses, ``mean (SE over propositions)``;
    ``-`` where a pattern has no cells from that stance."""
    m = rep.main
    rows: dict[str, list[str]] = {}
    for i, stance in enumerate(STANCES):
        row = [_mean_se_cell(m.success[i], m.success_se[i])]
        for p in PATTERNS:
            mean, se = m.patterns_by_stance[p]
            row.append(_mean_se_cell(mean[i], se[i]) if i in pattern_stances(p) else NOT_A_PATTERN)
        rows[stance] = row
    rows[ALL_STANCES] = [
        _mean_se_cell(m.spr, m.spr_se),
        *[_mean_se_cell(*m.patterns[p]) for p in PATTERNS],
    ]
    columns = ["Success rate", *[PATTERN_LABELS[p] for p in PATTERNS]]
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


def stance_pattern_title(rep: RunReport) -> str:
    """Title of a run's per-stance drift-pattern table."""
    return f"Drift patterns by initial stance (Tables S5-S10 layout): {rep.name}"


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


def _unparsed_notes(rep: RunReport) -> list[str]:
    """Notes on answers that did not count as written: unparsed extractions of trials that
    still have a vector (``multiple_extraction``: how the policy treated them), and answers
    whose letter and written label disagree."""
    notes = []
    bad, trials = rep.run.n_unparsed_extractions or 0, rep.run.n_unparsed
    if bad:
        how = (
            "left out of their trials' averages (--exclude-unparsed)"
            if rep.unparsed == "exclude"
            else "counted as zero vectors in their trials' averages"
        )
        notes.append(
            f"note: {rep.name}: {bad} extraction answers unparsed ({trials} trials with none "
            f"parsed); {how}."
        )
    if rep.run.n_label_mismatches:
        notes.append(
            f"note: {rep.name}: {rep.run.n_label_mismatches} answers name a letter and a "
            "different stance label (e.g. 'A) Disagree' where A is Neutral); the letter counts."
        )
    return notes


def terminal_summary(reports: list[RunReport]) -> str:
    """The readable terminal summary: one block per table plus the policy line."""
    from inspect_stance.drift.report_planning import planning_notes

    lines = [
        f"Stance-drift report: {len(reports)} run(s); {policy_text(reports[0].unparsed)}.",
    ]
    for rep in reports:
        lines += _unparsed_notes(rep)
        lines += planning_notes(rep.run, rep.name, rep.unparsed)
        if rep.run.n_missing and rep.run.adaptive_halfwidth is None:
            lines.append(
                f"note: {rep.name}: {rep.run.n_missing} trials missing from {rep.run.source} "
                "(errored or unfinished samples); complete the run with `inspect eval-retry`."
            )
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        for title, df in tables(reports).items():
            lines.append("")
            lines.append(title)
            lines.append(df.to_string())
        for rep in reports:
            lines.append("")
            lines.append(stance_pattern_title(rep))
            lines.append(stance_pattern_table(rep).to_string())
    return "\n".join(lines)


# --------------------------------------------------------------------------- files


def slug(name: str) -> str:
    """A file-name-safe version of a run name."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_")
    return s or "run"


def file_bases(reports: list[RunReport]) -> list[str]:
    """One file-name base per run, unique even where names differ only in characters that
    :func:`slug` replaces or in case (``a/b``, ``a b``, ``A_B``): a repeat gets ``_2``, ``_3``
    ... (compared case-insensitively, for case-insensitive file systems)."""
    used: set[str] = set()
    bases = []
    for r in reports:
        base = candidate = slug(r.name)
        k = 1
        while candidate.casefold() in used:
            k += 1
            candidate = f"{base}_{k}"
        used.add(candidate.casefold())
        bases.append(candidate)
    return bases


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
            row[f"stationary_{key}"] = _nanmean0(r.stationary)[i]
        rows.append(row)
    return pd.DataFrame(rows)


def per_proposition_frame(reports: list[RunReport]) -> pd.DataFrame:
    """One row per run x proposition x initial stance: matrix row, success, bounds, argmax."""
    frames = []
    for r in reports:
        p = r.run.n_propositions
        s_idx = np.repeat(np.arange(p), 5)
        i_idx = np.tile(np.arange(5), p)
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
    """SPR and success by stance after ``k`` hops, one row per run x k."""
    rows = []
    for r in reports:
        for h in r.hop_curve:
            row = {"run": r.name, "k": h["k"], "spr": h["spr"], "spr_se": h["spr_se"]}
            for i, key in enumerate(STANCE_KEYS):
                row[f"success_{key}"] = h["success_by_stance"][i]
            rows.append(row)
    return pd.DataFrame(rows)


def k_hop_frame(reports: list[RunReport]) -> pd.DataFrame:
    """Per-proposition ``T^k`` rows for ``k = 1..--hops``."""
    frames = []
    for r in reports:
        p = r.run.n_propositions
        s_idx = np.repeat(np.arange(p), 5)
        i_idx = np.tile(np.arange(5), p)
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


def markdown_report(reports: list[RunReport], images: dict[str, list[str]]) -> str:
    """The markdown report: settings, every table, and links to the PNGs."""
    first = reports[0]
    lines = [
        "# Stance-drift report",
        "",
        f"- runs: {', '.join(f'`{r.name}` ({r.run.source})' for r in reports)}",
        f"- unparsed policy: {policy_text(first.unparsed)}",
        f"- confidence: {first.confidence:g} one-sided (Student t, df = trials - 1); Bonferroni "
        "level 1 - (1 - confidence) / propositions",
        f"- pass-rate threshold: {first.threshold:g}; AUC over thresholds 0.50..1.00 (step 0.05), "
        "trapezoid rule, divided by 0.5",
        f"- hops: {first.hops}",
        "",
    ]
    for title, df in tables(reports).items():
        lines += [f"## {title}", "", md_table(df, index="run"), ""]
    lines += [
        "## Drift patterns by initial stance (supplementary tables S5-S10)",
        "",
        "Mean (SE over propositions); each stance's success rate and pattern masses sum to 1; "
        f"`{NOT_A_PATTERN}`: the pattern has no cells from that stance; "
        f"{ALL_STANCES}: the mean over the five stances (Table 2).",
        "",
    ]
    for rep in reports:
        lines += [
            f"### {rep.name}",
            "",
            md_table(stance_pattern_table(rep), index="initial stance"),
            "",
        ]
    if images:
        lines += ["## Figures", ""]
        for title, paths in images.items():
            lines.append(f"### {title}")
            lines.append("")
            lines += [f"![{title}]({p})" for p in paths]
            lines.append("")
    return "\n".join(lines)


def write_outputs(
    reports: list[RunReport], out_dir: str | Path, per_proposition_heatmaps: bool = False
) -> list[Path]:
    """Write CSVs, the markdown report and PNG heatmaps/plots into ``out_dir``; return paths."""
    from inspect_stance.drift import heatmap

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def csv(df: pd.DataFrame, name: str) -> None:
        path = out / name
        df.to_csv(path, index=False)
        written.append(path)

    csv(summary_frame(reports), "summary.csv")
    csv(per_proposition_frame(reports), "per_proposition.csv")
    csv(pass_curve_frame(reports), "pass_rate_curve.csv")
    csv(stance_patterns_frame(reports), "drift_patterns_by_stance.csv")
    csv(hops_frame(reports), "spr_by_hops.csv")
    csv(k_hop_frame(reports), "k_hop_matrices.csv")
    csv(stationary_frame(reports), "stationary.csv")

    images: dict[str, list[str]] = {}
    for r, base in zip(reports, file_bases(reports), strict=True):
        paths = []
        mean, se = mean_se(r.main.matrices, axis=0)
        p = heatmap.transition_heatmap(
            mean, se, out / f"heatmap_{base}.png", title=f"{r.name}: transition matrix"
        )
        paths.append(p)
        amean, ase = mean_se(r.argmax.matrices, axis=0)
        p = heatmap.transition_heatmap(
            amean, ase, out / f"heatmap_{base}_argmax.png", title=f"{r.name}: argmax re-analysis"
        )
        paths.append(p)
        if r.hops > 1:
            kmean, kse = mean_se(k_hop_matrices(r.main.matrices, r.hops), axis=0)
            p = heatmap.transition_heatmap(
                kmean,
                kse,
                out / f"heatmap_{base}_hops{r.hops}.png",
                title=f"{r.name}: after {r.hops} hops (T^{r.hops})",
            )
            paths.append(p)
        if per_proposition_heatmaps:
            sub = out / f"heatmaps_{base}"
            sub.mkdir(exist_ok=True)
            for s in range(r.run.n_propositions):
                pmean, pse = _trial_mean_se(r.run.probs[s], r.unparsed)
                p = heatmap.transition_heatmap(
                    pmean,
                    pse,
                    sub / f"proposition_{s:03d}_{slug(r.run.topic_ids[s])}.png",
                    title=f"{r.name}: {r.run.propositions[s]}",
                    se_label="SE over trials",
                )
                written.append(p)
        written += paths
        key = r.name if r.name not in images else f"{r.name} [{base}]"
        images[key] = [str(p.relative_to(out)) for p in paths]
    p = heatmap.spr_vs_hops_plot({r.name: r.hop_curve for r in reports}, out / "spr_vs_hops.png")
    written.append(p)
    images["SPR against hops"] = [p.name]
    p = heatmap.pass_rate_curve_plot(
        {r.name: (AUC_THRESHOLDS, pooled_pass_curve(r.main), r.main.auc) for r in reports},
        out / "pass_rate_curve.png",
    )
    written.append(p)
    images["Pass rate against threshold (Fig. S6A)"] = [p.name]
    md = out / "report.md"
    md.write_text(markdown_report(reports, images), encoding="utf-8")
    written.append(md)
    return written


def _trial_mean_se(probs_s: np.ndarray, unparsed: str) -> tuple[FloatArray, FloatArray]:
    """Mean and SE over trials of one proposition's vectors ``(T, 5, 5)`` under the policy."""
    arr = np.asarray(probs_s, dtype=np.float64)
    bad = unparsed_mask(arr[None])[0]
    if unparsed == "failure":
        arr = np.where(bad[..., None], 0.0, arr)
    else:
        arr = np.where(bad[..., None], np.nan, arr)
    return mean_se(arr, axis=0)
