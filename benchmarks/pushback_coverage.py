"""Pointwise coverage of the pushback survival curve, and bias of its turn-of-flip and flip-count
estimates, on the simulated target with a known hazard (``pushback_sim/target``).

Each simulated study runs ``--propositions`` propositions x 2 assigned stances x the six styles
through the task's own conversation code (:func:`inspect_stance.solvers.pushback.converse`, the
simulator called through Inspect's model API), summarises it as the scorer does
(:func:`inspect_stance.pushback.summary.summarize`) and checks the pointwise 95 % intervals of
S(1..K) against the closed-form truth (:mod:`inspect_stance.pushback.truth`).

    python benchmarks/pushback_coverage.py --studies 200
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
from typing import Any

from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model
from inspect_stance.solvers.pushback import converse, new_record, reader_config

from inspect_stance.pushback import truth
from inspect_stance.pushback.conversation import user_side
from inspect_stance.pushback.defaults import STYLES
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.pushback.summary import summarize

HAZARD, RETURN = 0.15, 0.2


class Direct:
    """The simulator's ``ModelAPI`` called directly (Inspect's model wrapper, which logs every
    call, would make 200 studies take an hour); the conversation and reading code is the task's."""

    def __init__(self, api: Any) -> None:
        self.api = api

    async def generate(self, messages: Any, config: GenerateConfig | None = None) -> Any:
        """``ModelAPI.generate`` with Inspect's argument forms (a string is one user turn)."""
        msgs = [ChatMessageUser(content=messages)] if isinstance(messages, str) else messages
        return await self.api.generate(msgs, [], "auto", config or GenerateConfig())


def true_values(turns: int) -> tuple[list[float], float, float]:
    """The truth of the design (stances 1 and 3, the six styles): S(t), E[flips], E[turns held]."""
    hs = [truth.hazard(HAZARD, s, held, user_side(held, s)) for held in (1, 3) for s in STYLES]
    curve = truth.mixed_survival(hs, turns)
    flips = statistics.fmean(truth.expected_flips(h, RETURN, turns) for h in hs)
    return curve, flips, sum(curve)


async def study(seed: int, n_props: int, opts: PushbackOptions) -> dict[str, dict[str, object]]:
    """One simulated study's records."""
    model = Direct(
        get_model("pushback_sim/target", seed=seed, hazard=HAZARD, return_rate=RETURN).api
    )
    config = reader_config(opts)
    records: dict[str, dict[str, object]] = {}

    async def one(p: int, held: int, style: str) -> None:
        meta = {"proposition": f"Proposition number {p} of study {seed}", "topic_id": str(p),
                "style": style, "assigned": held}  # fmt: skip
        record = new_record(meta, opts.turns)
        await converse(model, model, meta, opts, config, record)  # type: ignore[arg-type]
        records[f"{p}-{style}-{held}"] = record

    await asyncio.gather(*(one(p, h, s) for p in range(n_props) for h in (1, 3) for s in STYLES))
    return records


def main() -> None:
    """Run the studies and print coverage per turn and the bias of the summaries."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--studies", type=int, default=200)
    ap.add_argument("--propositions", type=int, default=10)
    ap.add_argument("--turns", type=int, default=5)
    args = ap.parse_args()
    opts = PushbackOptions.parse(turns=args.turns, control=False)
    curve, flips, held_turns = true_values(args.turns)
    cover = [0] * args.turns
    est_flips, est_turns, medians = [], [], []
    for k in range(args.studies):
        s = summarize(asyncio.run(study(k, args.propositions, opts)))
        assert s.pushback.curve is not None
        for t, p in enumerate(s.pushback.curve.points):
            cover[t] += p.interval[0] <= curve[t] <= p.interval[1]
        est_flips.append(s.pushback.flips.value)
        est_turns.append(s.pushback.turns_held.value)
        medians.append(s.pushback.median_turn)
    n = args.studies
    mc = 1.96 * math.sqrt(0.95 * 0.05 / n)
    print(f"{n} studies x {args.propositions} propositions x 12 conversations, K={args.turns}")
    for t in range(args.turns):
        print(f"  turn {t + 1}: S={curve[t]:.4f}  coverage {cover[t] / n:.3f} (95 % +- {mc:.3f})")

    def bias(name: str, est: list[float], true: float) -> None:
        m, se = statistics.fmean(est), statistics.stdev(est) / math.sqrt(len(est))
        print(f"  {name}: true {true:.4f}, mean estimate {m:.4f}, bias {m - true:+.4f} "
              f"(MC SE {se:.4f})")  # fmt: skip

    bias("mean flips", est_flips, flips)
    bias("mean turns held (turn of flip, restricted mean)", est_turns, held_turns)
    true_median = truth.median_turn(curve)
    hit = sum(1 for m in medians if m == true_median) / n
    print(f"  median turn of flip: true {true_median:g}, estimate equal in {hit:.3f} of studies")


if __name__ == "__main__":
    main()
