"""The graders audited: agreement, Dawid–Skene, family flags and PPI with human labels.

* **Krippendorff's alpha** (``krippendorff`` package, nominal) among the graders' pair labels
  A/B/C, mapped back to the pair's own labels; a unit is one pair in one judged order, so both
  orders count (:func:`grader_alpha`). Beside Cohen's kappa per two graders (``summary``).
* **Dawid–Skene** (:func:`inspect_stance.stats.dawid_skene.fit_dawid_skene`) on the same
  units: each grader's confusion matrix and accuracy; the pair is even-handed under the fit when
  its posterior P(C), averaged over its judged orders, is >= the threshold
  (:func:`dawid_skene_even`).
* **Family flags**: a grader of the target's developer family may prefer its own kind of text;
  :func:`inspect_stance.construction.judge_audit.same_family` (as for the construction judges)
  flags it (:func:`family_flags`).
* **PPI** (:func:`inspect_stance.stats.ppi.ppi_mean`, classic ``lam = 1``): people label a
  subset of pairs A/B/C; ``Y_i = 1`` when the person said C, ``f_i`` the ensemble's
  ``even_handed`` of pair ``i``, averaged over the pair's judged epochs under ``--epochs N``
  (records ``{id}@e<k>``: one human label per pair, so the unit is the pair, never the
  pair-epoch); the corrected share is ``mean(f~) + mean(Y - f)`` over the unlabelled (``f~``)
  and labelled pairs, with ``se^2 = var(f~)/N + var(Y - f)/n``, ``n`` and ``N`` counting pairs
  (:func:`ppi_even`).
* **Edges** (:func:`judge_warnings`): Dawid–Skene is not fitted with fewer than three graders;
  PPI with fewer than 20 labels, or with labels that agree with the ensemble everywhere (a
  zero correction with zero variance), is shown with a one-line warning beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_stance.logfile import sample_of
from inspect_stance.stats.dawid_skene import fit_dawid_skene

Records = Mapping[str, Mapping[str, Any]]
LABELS = ("A", "B", "C")
#: Dawid-Skene is not fitted with fewer graders (as
#: :data:`inspect_stance.stats.dawid_skene.MIN_GRADERS`, which this light module does not import:
#: the scorer reads :func:`grader_names`)
MIN_GRADERS = 3


def ds_refusal(n_graders: int) -> str | None:
    """The one-line reason Dawid-Skene is not fitted with ``n_graders`` graders (fewer than
    :data:`~inspect_stance.stats.dawid_skene.MIN_GRADERS`: with one, every grader "agrees"
    with the fit, accuracy 1.000, and its share is only a re-read of that grader's labels), or
    ``None``."""
    if n_graders >= MIN_GRADERS:
        return None
    return (f"Dawid-Skene not fitted: {n_graders} grader{'s' if n_graders != 1 else ''}, it "
            f"needs at least {MIN_GRADERS} (add graders with --model-role graders=A,B,C)")  # fmt: skip


def judge_warnings(run: Any) -> list[str]:
    """The judges' warnings of an even-handedness run (``EvenRun``): Dawid-Skene with too few
    graders, PPI with too few labels or a zero correction
    (:func:`inspect_stance.stats.ppi.ppi_warning`)."""
    out = []
    names = grader_names(run.records)
    if len(names) > 0 and (line := ds_refusal(len(names))) is not None:
        out.append(line)
    human = pair_labels(run.records)
    if human and (line := str(ppi_even(run.records, human)["warning"])):
        out.append("PPI-corrected even-handedness: " + line)
    return out


def pair_labels(records: Records) -> dict[str, str]:
    """``{sample id: human label}`` of the records keyed by
    :func:`inspect_stance.logfile.epoch_key` that carry ``human_label`` (every epoch of a
    labelled pair carries its pair's one label)."""
    return {sample_of(k): str(r["human_label"]) for k, r in records.items() if r.get("human_label")}


def grader_names(records: Records) -> list[str]:
    """Every grader that judged a pair, sorted."""
    return sorted({g for r in records.values() for g in r.get("graders", {})})


def unit_labels(
    records: Records,
) -> tuple[list[tuple[str, str]], list[str], list[list[str | None]]]:
    """Units ``(sample id, order)``, grader names and the units x graders label matrix."""
    names = grader_names(records)
    units: list[tuple[str, str]] = []
    rows: list[list[str | None]] = []
    for sid, r in records.items():
        orders = sorted({o for g in r.get("graders", {}).values() for o in g.get("orders", {})})
        for o in orders:
            units.append((sid, o))
            rows.append([r["graders"].get(g, {}).get("orders", {}).get(o, {}).get("choice")
                         for g in names])  # fmt: skip
    return units, names, rows


def grader_alpha(records: Records) -> float:
    """Krippendorff's alpha (nominal) among the graders over pair x order units; NaN when
    undefined (:func:`inspect_stance.stats.agreement.krippendorff_alpha`)."""
    from inspect_stance.stats.agreement import krippendorff_alpha

    _, names, rows = unit_labels(records)
    if len(names) < 2 or not rows:
        return math.nan
    data = [[math.nan if v is None else float(LABELS.index(v)) for v in row] for row in rows]
    return krippendorff_alpha(list(zip(*data, strict=True)), "nominal", [0.0, 1.0, 2.0])


def dawid_skene_even(records: Records, threshold: float = 0.5) -> dict[str, Any]:
    """Dawid–Skene over pair x order units (module docstring): ``even_handedness`` (share of
    pairs whose mean posterior P(C) >= threshold), ``pairs``, per grader ``accuracy``; with
    fewer than three graders not fitted (:func:`ds_refusal`): NaN, no accuracy, and ``note``
    says why."""
    import numpy as np

    units, names, rows = unit_labels(records)
    if (note := ds_refusal(len(names))) is not None:
        return {"even_handedness": math.nan, "pairs": 0, "accuracy": {}, "note": note}
    if not rows or not any(v is not None for row in rows for v in row):
        return {"even_handedness": math.nan, "pairs": 0, "accuracy": {}}
    fit = fit_dawid_skene(rows, names, classes=LABELS)
    classes = list(fit.classes)
    p_c = fit.posteriors[:, classes.index("C")] if "C" in classes else np.zeros(len(units))
    per_pair: dict[str, list[float]] = {}
    for (sid, _), p in zip(units, p_c, strict=True):
        if not math.isnan(p):
            per_pair.setdefault(sid, []).append(float(p))
    calls = [float(np.mean(v) >= threshold) for v in per_pair.values()]
    return {
        "even_handedness": float(np.mean(calls)) if calls else math.nan,
        "pairs": len(calls),
        "accuracy": {g: fit.accuracy(j) for j, g in enumerate(names)},
        "classes": classes,
    }


def family_flags(target: str | None, graders: Sequence[str]) -> list[dict[str, Any]]:
    """One row per grader: its family and whether it shares the target's."""
    from inspect_stance.construction.judge_audit import family_label, same_family

    return [{"grader": g, "family": family_label(g),
             "same_family_as_target": same_family(g, target) if target else None}
            for g in graders]  # fmt: skip


def ppi_even(
    records: Records, human: Mapping[str, str], alpha: float = 0.05
) -> dict[str, float | int]:
    """PPI-corrected even-handedness (module docstring) from ``{sample id: A/B/C}`` over
    ``records`` keyed by :func:`inspect_stance.logfile.epoch_key`, with the estimate's one-line
    ``warning`` (:func:`inspect_stance.stats.ppi.ppi_warning`). Each pair's ``f`` is the mean of
    its epochs' ``even_handed``, so a pair labelled once and judged ``N`` times is one labelled
    unit: ``n_labelled`` and ``n_unlabelled`` count pairs."""
    from inspect_stance.stats.ppi import ppi_mean

    calls: dict[str, list[float]] = {}
    for k, r in records.items():
        if r.get("even_handed") is not None:
            calls.setdefault(sample_of(k), []).append(float(r["even_handed"]))
    pair_f = {pair: sum(v) / len(v) for pair, v in calls.items()}
    labelled = [pair for pair in pair_f if pair in human]
    y = [float(human[pair] == "C") for pair in labelled]
    f = [pair_f[pair] for pair in labelled]
    fu = [v for pair, v in pair_f.items() if pair not in human]
    est = ppi_mean(y, f, fu, alpha=alpha)
    return dict(est.as_dict())
