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


def why_none(
    target: Mapping[str, Any],
    designs: list[tuple[str, float]],
    widen: str,
    se_name: str = "SE",
) -> str:
    """Why no design is recommended, to follow ``none within <limits>``: with a target SE, the
    cheapest listed design (``designs``: ``(label, predicted SE)`` in listed order) whose point
    prediction meets it, which then fails only the assurance (the probability, from the pilot's
    sampling error, that the realised SE is below the target), or else the least predicted SE;
    then the flags that widen the search (``widen``)."""
    t = target
    se_target = t.get("target_se")
    assurance = t.get("assurance")
    reason = ""
    if se_target is not None and designs:
        meets = [(label, se) for label, se in designs if se <= se_target]
        if meets and assurance:
            label, se = meets[0]
            reason = (f"{label.strip()} predicts {se_name} {se:.4f}, within {se_target:.4f} on "
                      f"the point prediction, but not with assurance {assurance:g} (its realised "
                      f"{se_name} below the target with probability {assurance:g}, given the "
                      "pilot's sampling error); lower --assurance, or ")  # fmt: skip
        elif not meets:
            label, se = min(designs, key=lambda d: d[1])
            reason = (f"the least predicted {se_name} is {se:.4f} ({label.strip()}), above "
                      f"{se_target:.4f}; ")  # fmt: skip
    elif t.get("detect") is not None:
        reason = f"no listed design has power {t.get('power', 0.8):g}; "
    return f": {reason}widen the search with {widen}"
