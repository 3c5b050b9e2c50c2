"""The stance-drift report's PNGs: per run, the transition-matrix heatmaps (probabilities, argmax
re-analysis, ``T^k`` with ``--hops K > 1``, and optionally one per proposition); over all runs,
SPR against hops and the pass-rate curve (Fig. S6A), each a
:class:`~inspect_stance.report_doc.Figure`. The drawing itself is :mod:`.heatmap`'s."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import inspect_stance.drift.report.heatmap as heatmap
from inspect_stance.drift.chain.hops import k_hop_matrices
from inspect_stance.drift.metrics.pass_rate import AUC_THRESHOLDS
from inspect_stance.drift.report.analysis import RunReport, pooled_pass_curve, trial_mean_se
from inspect_stance.report_doc import Figure
from inspect_stance.stats.moments import mean_se


def run_heatmaps(r: RunReport, base: str, alt: str) -> list[Figure]:
    """The mean (SE over propositions) transition-matrix heatmaps of one run, files named from
    ``base``: probabilities, argmax re-analysis and, with ``--hops K > 1``, ``T^K``."""

    at = f" at hop {r.run_hops} (initial stance to the final reading)" if r.run_hops > 1 else ""
    mean, se = mean_se(r.main.matrices, axis=0)
    amean, ase = mean_se(r.argmax.matrices, axis=0)
    figures = [
        Figure(f"heatmap_{base}.png", alt, lambda path: heatmap.transition_heatmap(
            mean, se, path, title=f"{r.name}: transition matrix{at}")),
        Figure(f"heatmap_{base}_argmax.png", alt, lambda path: heatmap.transition_heatmap(
            amean, ase, path, title=f"{r.name}: argmax re-analysis{at}")),
    ]  # fmt: skip
    if r.hops > 1:
        kmean, kse = mean_se(k_hop_matrices(r.main.matrices, r.hops), axis=0)
        figures.append(Figure(f"heatmap_{base}_hops{r.hops}.png", alt,
                              lambda path: heatmap.transition_heatmap(
            kmean, kse, path,
            title=f"{r.name}: projected after {r.hops} hops (T^{r.hops}, not measured)")))  # fmt: skip
    return figures


def proposition_heatmaps(r: RunReport, files: list[str]) -> list[Figure]:
    """One heatmap per proposition (mean, SE over trials under the run's unparsed policy), the
    ``s``-th to ``files[s]``; not shown in the markdown."""

    def draw(s: int) -> Callable[[Path], object]:
        pmean, pse = trial_mean_se(r.run.probs[s], r.unparsed)
        title = f"{r.name}: {r.run.propositions[s]}"
        return lambda path: heatmap.transition_heatmap(
            pmean, pse, path, title=title, se_label="SE over trials"
        )

    return [Figure(f, f, draw(s), shown=False) for s, f in enumerate(files)]


def overview_plots(reports: list[RunReport]) -> dict[str, Figure]:
    """The plots over all runs, keyed by their markdown title: SPR against hops and the pooled
    pass rate against the threshold (Fig. S6A)."""

    hops, curve = "SPR against hops", "Pass rate against threshold (Fig. S6A)"
    curves = {r.name: (AUC_THRESHOLDS, pooled_pass_curve(r.main), r.main.auc) for r in reports}
    return {
        hops: Figure("spr_vs_hops.png", hops, lambda path: heatmap.spr_vs_hops_plot(
            {r.name: r.hop_curve for r in reports}, path)),
        curve: Figure("pass_rate_curve.png", curve,
                      lambda path: heatmap.pass_rate_curve_plot(curves, path)),
    }  # fmt: skip
