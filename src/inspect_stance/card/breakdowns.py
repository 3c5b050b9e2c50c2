"""The key breakdowns of each method's headline, read from the run's own metrics.

- ``stance_drift``: the drift patterns (shares of trials: polarisation, moderation, moderation
  to neutral, flipping) and the kept share per initial stance;
- ``press``: the PReSS labels (shares of statements: stable / unstable left or right,
  indeterminate, unclassified) and the right lean;
- ``prompt_construction``: the construction gap (each method's distance from neutral, their
  difference, the Wilcoxon p, the pairs) and each method's refusal rate and lean;
- ``prompt_validation``: each source's mean realism rank, Kendall's W and the Friedman p;
- ``even_handedness``: refusal and hedging rates, direction, and even-handedness by category
  (every ``even_handedness_<category>`` metric present).

Counts (``n_*``, pairs, trials ...) are integers and print as such.
"""

from __future__ import annotations

import math
from typing import Any

#: per method: groups of (label, metric) shown on the card
BREAKDOWNS: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {
    "stance_drift": [
        (
            "drift patterns (share of trials)",
            [
                ("polarisation", "polarization"),
                ("moderation", "moderation"),
                ("moderation to neutral", "moderation_to_neutral"),
                ("flipping", "flipping"),
            ],
        ),
        (
            "kept, by initial stance",
            [
                (k.replace("_", " "), f"success_{k}")
                for k in ("agree_strongly", "agree", "neutral", "disagree", "disagree_strongly")
            ],
        ),
        (
            "trials",
            [
                ("trials", "trials"),
                ("unparsed", "unparsed"),
                ("replayed from the trial record (no model call)", "trials_replayed"),
            ],
        ),
    ],  # fmt: skip
    "press": [
        (
            "PReSS labels (share of statements)",
            [
                ("stable left", "share_SL"),
                ("unstable left", "share_UL"),
                ("stable right", "share_SR"),
                ("unstable right", "share_UR"),
                ("indeterminate", "share_indeterminate"),
                ("unclassified", "share_unclassified"),
            ],
        ),
        (
            "lean and counts",
            [
                ("lean right", "lean_right"),
                ("statements", "n_statements"),
                ("unparsed", "n_unparsed"),
            ],
        ),
    ],  # fmt: skip
    "prompt_construction": [
        (
            "construction gap",
            [
                ("templated: distance from neutral", "distance_templated"),
                ("generated: distance from neutral", "distance_generated"),
                ("difference", "mean_difference"),
                ("Wilcoxon p", "wilcoxon_p"),
                ("pairs", "n_pairs"),
            ],
        ),
        (
            "refusals and lean",
            [
                ("refusal rate, templated", "refusal_rate_templated"),
                ("refusal rate, generated", "refusal_rate_generated"),
                ("lean, templated", "lean_templated"),
                ("lean, generated", "lean_generated"),
            ],
        ),
    ],  # fmt: skip
    "prompt_validation": [
        (
            "mean realism rank (1 = most real)",
            [
                ("real", "mean_rank_real"),
                ("templated", "mean_rank_templated"),
                ("generated", "mean_rank_generated"),
            ],
        ),
        (
            "agreement",
            [
                ("Kendall's W", "kendall_w"),
                ("Friedman p", "friedman_p"),
                ("settings", "friedman_blocks"),
            ],
        ),
    ],  # fmt: skip
    "even_handedness": [
        (
            "rates",
            [
                ("refusal rate", "refusal_rate"),
                ("hedging rate", "hedging_rate"),
                ("direction", "direction"),
                ("refusal difference", "refusal_diff"),
                ("pairs", "pairs"),
                ("unparsed", "unparsed"),
            ],
        ),
    ],  # fmt: skip
}
#: metrics that are counts
COUNTS = {"trials", "unparsed", "trials_replayed", "n_statements", "n_unparsed", "n_pairs", "pairs",
          "friedman_blocks"}  # fmt: skip
CATEGORY_PREFIX = "even_handedness_"


def log_metrics(log_path: str) -> tuple[dict[str, float], dict[str, Any]]:
    """Every metric of the run's scores (``name -> value``; the first scorer wins a name) and
    the run's task arguments."""
    from inspect_ai.log import read_eval_log

    header = read_eval_log(log_path, header_only=True)
    out: dict[str, float] = {}
    for score in header.results.scores if header.results else []:
        for name, metric in score.metrics.items():
            out.setdefault(name, float(metric.value))
    return out, dict(header.eval.task_args or {})


def _category_group(metrics: dict[str, float]) -> tuple[str, list[tuple[str, str]]] | None:
    names = sorted(m for m in metrics if m.startswith(CATEGORY_PREFIX)
                   and not m.startswith(f"{CATEGORY_PREFIX}tc_"))  # fmt: skip
    if not names:
        return None
    return ("even-handedness by category",
            [(n.removeprefix(CATEGORY_PREFIX).replace("_", " "), n) for n in names])  # fmt: skip


def breakdown(method: str, metrics: dict[str, float]) -> list[dict[str, Any]]:
    """The method's breakdown groups present in ``metrics``: ``[{title, rows: [[label, value,
    is_count]]}]``; a metric not in the run is left out (its group too, when empty)."""
    groups = list(BREAKDOWNS.get(method, []))
    if method == "even_handedness" and (cat := _category_group(metrics)) is not None:
        groups.append(cat)
    out = []
    for title, rows in groups:
        present = [[label, metrics[m], m in COUNTS] for label, m in rows if m in metrics]
        if present:
            out.append({"title": title, "rows": present})
    return out


def value_text(value: float | None, is_count: bool = False) -> str:
    """A metric value as text: counts as integers, others to three decimals."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{int(round(value)):,}" if is_count else f"{value:.3f}"


def main_pattern(metrics: dict[str, float]) -> str | None:
    """The stance-drift pattern with the largest share (``None`` when no trial drifted)."""
    patterns = {label: metrics.get(m, 0.0) for label, m in BREAKDOWNS["stance_drift"][0][1]}
    label, share = max(patterns.items(), key=lambda kv: kv[1])
    return label if share > 0 else None
