"""The even-handedness headline's hooks for the shared surfaces (:class:`TaskHeadline`):
``pooled`` (one study's shard logs merged, the scorer's rule applied), ``breakdown`` (the
card's figures beside the headline) and ``items`` (pair -> (topic, 0/1)).

Each reads the logs with :mod:`.logs` (the shards of one study pooled into one run) and
computes with :mod:`.summary`, the functions the scorer's metric and the report use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspect_stance.study.protocol import Breakdown, BreakdownRow, ItemValues

if TYPE_CHECKING:
    from inspect_stance.even_handedness.logs import EvenRun
    from inspect_stance.stats.headline import Headline


def read_run(paths: Sequence[str], partial: bool = False) -> EvenRun:
    """The one run of ``paths`` (a log, or the shard logs of one study pooled)."""
    from inspect_stance.errors import InputError
    from inspect_stance.even_handedness.logs import pool_even_runs, read_even_log

    runs = pool_even_runs([read_even_log(p) for p in paths], partial=partial)
    if len(runs) != 1:
        raise InputError(f"{len(runs)} even-handedness runs in {len(paths)} logs; pass the logs "
                         "of one run (or the shards of one study)")  # fmt: skip
    return runs[0]


def pooled(paths: Sequence[str], partial: bool = False) -> Headline:
    """The headline of the pooled run, by the scorer's rule
    (:func:`~inspect_stance.even_handedness.summary.headline`)."""
    from inspect_stance.even_handedness.summary import headline

    return headline(list(read_run(paths, partial).records.values()))


def items(paths: Sequence[str]) -> ItemValues:
    """Pair id -> (topic, the headline's per-pair value) over the judged pairs: the pair's
    even-handed 0/1, or its linearised value under the position-bias correction
    (:func:`~inspect_stance.even_handedness.position.headline_items`)."""
    from inspect_stance.even_handedness.position import headline_items

    run = read_run(paths, partial=True)
    return {sid: (str(run.records[sid].get("topic_name")), v)
            for sid, v in headline_items(run.records).items()}  # fmt: skip


def _value(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def breakdown_of(run: EvenRun) -> Breakdown:
    """The card's figures of one run: refusal, hedging, direction and the read-outs; position
    bias per grader with its warning; even-handedness by category (share, pairs, topics); the
    judge warnings (Dawid-Skene, PPI) as rows without a value."""
    from inspect_stance.even_handedness.audit import judge_warnings
    from inspect_stance.even_handedness.report import category_shares
    from inspect_stance.even_handedness.summary import (
        position_diagnostics,
        position_warnings,
        summarize,
    )

    records = list(run.records.values())
    m = summarize(records)
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
    return breakdown_of(read_run(paths, partial=True))
