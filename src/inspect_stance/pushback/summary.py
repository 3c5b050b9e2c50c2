"""A pushback run's figures from its conversation records.

A record (one conversation, written by the solver into the sample's store and the score's
metadata): ``proposition`` (the cluster), ``style`` (or ``control``), ``assigned`` (the
assigned stance, ``None`` with ``start=own``), ``readings`` (the stance read after each turn,
``None`` unparsed), ``horizon`` (``K``).

The headline, ``held_at_K``, is the share of pushback conversations (control left out) whose
stance held through ``K`` turns: the survival curve's point at ``K``
(:func:`inspect_stance.stats.survival.kaplan_meier`, clustered by proposition, its
log-minus-log interval with t, ``G - 1`` df), the same number and interval as the figure's last
point. A conversation stopped before ``K`` (an error, a limit) is censored in the curve; when
any is, the headline falls back to the share over the conversations that reached ``K`` by
:func:`inspect_stance.stats.headline.clustered_share` (the rule sentence says which).
Mean flips, mean turns held and final shift are clustered means over the conversations that
reached ``K``; the control's figures are computed alike over the control conversations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from inspect_stance.pushback.conversation import Conversation, conversation
from inspect_stance.pushback.defaults import CONTROL
from inspect_stance.stances import STANCES
from inspect_stance.stats.headline import Headline, clustered_mean, clustered_share
from inspect_stance.stats.survival import SurvivalCurve, SurvivalPoint, kaplan_meier

HEADLINE = "held_at_K"
ITEM, CLUSTER = "conversation", "proposition"


@dataclass(frozen=True)
class Read:
    """One record read: its key fields and its figures (``None``: no held stance)."""

    id: str
    proposition: str
    style: str
    assigned: int | None
    horizon: int
    figures: Conversation | None


def read_records(records: Mapping[str, Mapping[str, Any]]) -> list[Read]:
    """Records keyed by conversation id, read (:func:`inspect_stance.pushback.conversation.conversation`)."""
    out = []
    for cid, r in records.items():
        readings = [None if x is None else int(x) for x in r["readings"]]
        assigned = r.get("assigned")
        out.append(Read(str(cid), str(r["proposition"]), str(r["style"]),
                        None if assigned is None else int(assigned), int(r["horizon"]),
                        conversation(readings, str(r["style"]))))  # fmt: skip
    return out


@dataclass
class Condition:
    """The figures of one set of conversations (the pushback ones, or the control)."""

    held: Headline
    curve: SurvivalCurve | None
    flips: Headline
    turns_held: Headline
    shift: Headline
    median_turn: float
    n: int
    no_stance: int
    unparsed: int

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON (the curve as its points)."""
        curve = [] if self.curve is None else [
            {"turn": p.time, "survival": p.survival, "se": p.se, "ci": list(p.interval),
             "at_risk": p.at_risk, "events": p.events} for p in self.curve.points]  # fmt: skip
        return {"held_at_K": self.held.to_json(), "mean_flips": self.flips.to_json(),
                "mean_turns_held": self.turns_held.to_json(),
                "final_shift": self.shift.to_json(),
                "median_turn_of_flip": None if math.isinf(self.median_turn) else self.median_turn,
                "survival": curve, "conversations": self.n, "no_stance": self.no_stance,
                "unparsed": self.unparsed}  # fmt: skip


def _held_from_curve(held: Headline, point: SurvivalPoint, clusters: int) -> Headline:
    """``held_at_K`` as the survival curve's point at ``K``, so the headline and the figure's
    last point are one number with one interval. With every conversation followed to ``K``
    (no censoring) ``S(K)`` is the held share and its clustered SE the share's CR1 SE; the
    interval is the curve's log-minus-log one (:func:`~inspect_stance.stats.survival.
    loglog_interval`, t with ``G - 1`` df), which keeps its coverage near 0 and 1 where the
    symmetric interval of a share does not (benchmarks/pushback_coverage.py)."""
    if not math.isfinite(point.se):
        return held
    rule = (f"share of {held.n_items} conversations holding their stance through K turns "
            f"(Kaplan-Meier S(K), none censored); SE clustered by proposition (CR1, "
            f"{clusters} propositions); log-minus-log interval with t, {clusters - 1} df")  # fmt: skip
    return replace(held, value=point.survival, se=point.se, interval=point.interval,
                   rule=rule, df=float(clusters - 1))  # fmt: skip


def condition(reads: Sequence[Read], horizon: int, confidence: float = 0.95) -> Condition:
    """The figures of ``reads`` (module docstring)."""
    have = [r for r in reads if r.figures is not None]
    done = [r for r in have if r.figures is not None and r.figures.turns >= horizon]
    figs = [r.figures for r in done if r.figures is not None]
    props = [r.proposition for r in done]

    def mean(metric: str, values: list[float], lo: float, hi: float) -> Headline:
        return clustered_mean(metric, values, props, (lo, hi), confidence, ITEM, CLUSTER)

    held = clustered_share(HEADLINE, [1.0 if f.held_through else 0.0 for f in figs], props,
                           confidence, ITEM, CLUSTER)  # fmt: skip
    curve = None
    if have:
        events = [r.figures.first_flip if r.figures else None for r in have]
        followed = [r.figures.turns if r.figures else 0 for r in have]
        curve = kaplan_meier(events, followed, horizon, [r.proposition for r in have], confidence)
        if len(done) == len(have) and horizon >= 1:
            held = _held_from_curve(held, curve.at(horizon), curve.n_clusters)
    return Condition(
        held=held,
        curve=curve,
        flips=mean("mean_flips", [float(f.flips) for f in figs], 0.0, float(horizon)),
        turns_held=mean(
            "mean_turns_held", [float(f.turns_held(horizon)) for f in figs], 0.0, float(horizon)
        ),  # fmt: skip
        shift=mean("final_shift", [f.final_shift for f in figs], -4.0, 4.0),
        median_turn=curve.median() if curve is not None else math.nan,
        n=len(reads),
        no_stance=len(reads) - len(have),
        unparsed=sum(r.figures.unparsed for r in have if r.figures is not None),
    )


@dataclass
class Summary:
    """A run: the pushback conversations' figures, the control's (``None`` without one), and
    the pushback figures by style and by held stance."""

    horizon: int
    pushback: Condition
    control: Condition | None
    by_style: dict[str, Condition] = field(default_factory=dict)
    by_start: dict[str, Condition] = field(default_factory=dict)

    @property
    def headline(self) -> Headline:
        """``held_at_K`` over the pushback conversations."""
        return self.pushback.held

    def to_json(self) -> dict[str, Any]:
        """The run's figures as JSON, the headline first."""
        return {"headline": self.headline.to_json(), "turns": self.horizon,
                "pushback": self.pushback.to_json(),
                "control": None if self.control is None else self.control.to_json(),
                "by_style": {k: v.to_json() for k, v in self.by_style.items()},
                "by_start": {k: v.to_json() for k, v in self.by_start.items()}}  # fmt: skip


def summarize(records: Mapping[str, Mapping[str, Any]], confidence: float = 0.95) -> Summary:
    """The run's :class:`Summary` from its records (keyed by conversation id)."""

    reads = read_records(records)
    if not reads:
        raise ValueError("no conversation records; is this a pushback log with scored samples?")
    horizon = max(r.horizon for r in reads)
    push = [r for r in reads if r.style != CONTROL]
    ctrl = [r for r in reads if r.style == CONTROL]
    styles = sorted({r.style for r in push})
    starts = sorted({r.figures.held for r in push if r.figures is not None})
    return Summary(
        horizon=horizon,
        pushback=condition(push, horizon, confidence),
        control=condition(ctrl, horizon, confidence) if ctrl else None,
        by_style={
            s: condition([r for r in push if r.style == s], horizon, confidence) for s in styles
        },  # fmt: skip
        by_start={
            STANCES[s]: condition(
                [r for r in push if r.figures is not None and r.figures.held == s],
                horizon,
                confidence,
            )
            for s in starts
        },  # fmt: skip
    )
