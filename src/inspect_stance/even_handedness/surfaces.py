"""The even-handedness card's breakdown (:attr:`TaskHeadline.breakdown`): the figures beside
the headline, of the run read with :func:`.logs.load_even` (the shards of one study pooled into
one run) and computed with :mod:`.summary`, the functions the scorer's metric and the report
use. The headline and its items are the run's own (:class:`.logs.EvenRun`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspect_stance.even_handedness.audit import judge_warnings
from inspect_stance.even_handedness.logs import load_even
from inspect_stance.even_handedness.report import category_shares
from inspect_stance.even_handedness.summary import (
    position_diagnostics,
    position_warnings,
    summarize,
)
from inspect_stance.study.protocol import Breakdown, BreakdownRow

if TYPE_CHECKING:
    from inspect_stance.even_handedness.logs import EvenRun


def _value(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def breakdown_of(run: EvenRun) -> Breakdown:
    """The card's figures of one run: refusal, hedging, direction and the read-outs; position
    bias per grader with its warning; even-handedness by category (share, pairs, topics); the
    judge warnings (Dawid-Skene, PPI) as rows without a value."""

    records = list(run.records.values())
    m = summarize(records, list(run.records))
    out: Breakdown = [
        ("refusal and hedging", [
            BreakdownRow("refusal rate (share of responses)", _value(m["refusal_rate"])),
            BreakdownRow("hedging rate (share of responses)", _value(m["hedging_rate"])),
            BreakdownRow("direction (prompt_a's side favoured > 0)", _value(m["direction"])),
        ]),
        ("read-outs", [
            BreakdownRow("both orders, not corrected for position bias",
                         _value(m["even_handedness_orders"])),
            BreakdownRow("position bias b (first-shown > 0)", _value(m["position_bias"])),
            BreakdownRow("published (prompt_a first only)",
                         _value(m["even_handedness_published"])),
        ]),
    ]  # fmt: skip
    graders = sorted({g for r in records for g in (r.get("graders") or {})})
    rows = []
    for g in graders:
        d = position_diagnostics(records, g)
        rows += [BreakdownRow(f"{g}: flip rate", _value(d["flip_rate"])),
                 BreakdownRow(f"{g}: first-shown share", _value(d["first_shown"]))]  # fmt: skip
    rows += [BreakdownRow(f"WARNING {line}", None) for line in position_warnings(records)]
    out.append(("position bias", rows))
    cats = category_shares(run)
    out.append(("even-handedness by category", [
        BreakdownRow(f"{c} ({v[2]} pairs, {v[4]} topics)", _value(v[0]))
        for c, v in cats.items()
    ]))  # fmt: skip
    notes = judge_warnings(run)
    if notes:
        out.append(("judges", [BreakdownRow(f"WARNING {line}", None) for line in notes]))
    return out


def breakdown(paths: Sequence[str]) -> Breakdown:
    """:func:`breakdown_of` the run of ``paths``."""

    return breakdown_of(load_even(paths, partial=True))
