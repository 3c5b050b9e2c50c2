"""The stance-drift report's PNGs: per run, the transition-matrix heatmaps (probabilities, argmax
re-analysis, ``T^k`` with ``--hops K > 1``, and optionally one per proposition); over all runs,
SPR against hops and the pass-rate curve (Fig. S6A). The drawing itself is :mod:`.heatmap`'s."""

from __future__ import annotations

from pathlib import Path

from inspect_stance.drift.chain.hops import k_hop_matrices
from inspect_stance.drift.metrics.pass_rate import AUC_THRESHOLDS
from inspect_stance.drift.report.analysis import RunReport, pooled_pass_curve, trial_mean_se
from inspect_stance.stats.moments import mean_se


def run_heatmaps(r: RunReport, out: Path, base: str) -> list[Path]:
    """The mean (SE over propositions) transition-matrix heatmaps of one run: probabilities,
    argmax re-analysis and, with ``--hops K > 1``, ``T^K``."""
    import inspect_stance.drift.report.heatmap as heatmap

    # a chain's analyses are of its last measured hop: the title says so
    at = f" at hop {r.run_hops} (initial stance to the final reading)" if r.run_hops > 1 else ""
    mean, se = mean_se(r.main.matrices, axis=0)
    paths = [
        heatmap.transition_heatmap(
            mean, se, out / f"heatmap_{base}.png", title=f"{r.name}: transition matrix{at}"
        )
    ]
    amean, ase = mean_se(r.argmax.matrices, axis=0)
    paths.append(
        heatmap.transition_heatmap(
            amean,
            ase,
            out / f"heatmap_{base}_argmax.png",
            title=f"{r.name}: argmax re-analysis{at}",
        )
    )
    if r.hops > 1:
        kmean, kse = mean_se(k_hop_matrices(r.main.matrices, r.hops), axis=0)
        paths.append(
            heatmap.transition_heatmap(
                kmean,
                kse,
                out / f"heatmap_{base}_hops{r.hops}.png",
                title=f"{r.name}: projected after {r.hops} hops (T^{r.hops}, not measured)",
            )
        )
    return paths


def proposition_heatmaps(r: RunReport, paths: list[Path]) -> list[Path]:
    """One heatmap per proposition (mean, SE over trials under the run's unparsed policy), the
    ``s``-th drawn to ``paths[s]``."""
    import inspect_stance.drift.report.heatmap as heatmap

    written = []
    for s, path in enumerate(paths):
        pmean, pse = trial_mean_se(r.run.probs[s], r.unparsed)
        written.append(
            heatmap.transition_heatmap(
                pmean,
                pse,
                path,
                title=f"{r.name}: {r.run.propositions[s]}",
                se_label="SE over trials",
            )
        )
    return written


def overview_plots(reports: list[RunReport], out: Path) -> dict[str, Path]:
    """The plots over all runs, keyed by their markdown title: SPR against hops and the pooled
    pass rate against the threshold (Fig. S6A)."""
    import inspect_stance.drift.report.heatmap as heatmap

    hops = heatmap.spr_vs_hops_plot({r.name: r.hop_curve for r in reports}, out / "spr_vs_hops.png")
    curve = heatmap.pass_rate_curve_plot(
        {r.name: (AUC_THRESHOLDS, pooled_pass_curve(r.main), r.main.auc) for r in reports},
        out / "pass_rate_curve.png",
    )
    return {"SPR against hops": hops, "Pass rate against threshold (Fig. S6A)": curve}
