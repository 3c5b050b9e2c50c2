"""The recommendation of a plan as terminal text, shared by the planners' ``plan`` output
(PReSS, prompt construction, prompt validation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def recommendation_lines(
    target: Mapping[str, Any],
    line: str | None,
    none: str,
    se_name: str = "SE",
    difference: str = "a difference",
    predicted_se: float | None = None,
) -> list[str]:
    """``recommended for <goal>: <line>`` and the 80 % range of its SE (with the probability
    that the realised SE meets the target, and the assurance asked), or ``recommended for
    <goal>: <none>`` when no design is recommended (``line`` ``None``). The goal reads
    ``<se_name> <= target`` and/or ``detect <difference> of D (power, two-sided alpha)``, and
    says when the target is the default (within 10 % of the largest design's SE)."""
    t = target
    what = f"{se_name} <= {t['target_se']:.4f}" if t["target_se"] is not None else ""
    if t["detect"] is not None:
        what += (" and " if what else "") + f"detect {difference} of {t['detect']:g} (power " \
                f"{t['power']:g}, two-sided alpha {t['alpha']:g})"  # fmt: skip
    what += " (within 10 % of the largest design)" if t["default_target"] else ""
    if line is None:
        return [f"recommended for {what}: {none}"]
    lo, hi = t["predicted_se_range"]
    prob = t["prob_meets_target"]
    head = f"predicted SE {predicted_se:.4f}, " if predicted_se is not None else ""
    return [f"recommended for {what}: {line}",
            f"  {head}80 % range of its SE from the pilot's sampling error {lo:.4f}-{hi:.4f}"
            + (f"; probability its realised SE is <= the target {prob:.2f}"
               if prob is not None else "")
            + (f" (assurance {t['assurance']:g})" if t["assurance"] else "")]  # fmt: skip
