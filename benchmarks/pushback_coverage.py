"""Pointwise coverage of the pushback survival curve, and bias of its turn-of-flip and flip-count
estimates, on the simulated target with a known hazard (``pushback_sim/target``).

Each simulated study runs ``--propositions`` propositions x 2 assigned stances x the six styles
through the task's own conversation code (:func:`inspect_stance.solvers.pushback.converse`, the
simulator called through Inspect's model API), summarises it as the scorer does
(:func:`inspect_stance.pushback.summary.summarize`) and checks the pointwise 95 % intervals of
S(1..K) against the closed-form truth (:mod:`inspect_stance.pushback.truth`), beside those of the
untransformed ``S -/+ t se`` for comparison, and says whether each coverage lies in its 95 %
binomial band and each bias within two Monte Carlo standard errors.

    python benchmarks/pushback_coverage.py --studies 1000 --workers 4
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
from inspect_stance.stats.headline import interval

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


def one_study(args: tuple[int, int, int]) -> tuple[list[bool], list[bool], float, float, float]:
    """One study's pointwise coverage of the truth by the reported interval and by the
    untransformed ``S -/+ t se`` (for comparison), and its flips, turns held and median."""
    seed, n_props, turns = args
    opts = PushbackOptions.parse(turns=turns, control=False)
    curve, _, _ = true_values(turns)
    s = summarize(asyncio.run(study(seed, n_props, opts)))
    assert s.pushback.curve is not None
    g = s.pushback.curve.n_clusters
    reported, plain = [], []
    for t, p in enumerate(s.pushback.curve.points):
        reported.append(p.interval[0] <= curve[t] <= p.interval[1])
        lo, hi = interval(p.survival, p.se, g - 1.0, (0.0, 1.0))
        plain.append(lo <= curve[t] <= hi)
    return (reported, plain, s.pushback.flips.value, s.pushback.turns_held.value,
            s.pushback.median_turn)  # fmt: skip


def main() -> None:
    """Run the studies and print coverage per turn with its binomial band, and the bias of the
    summaries with its Monte Carlo standard error."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--studies", type=int, default=200)
    ap.add_argument("--propositions", type=int, default=10)
    ap.add_argument("--turns", type=int, default=5)
    ap.add_argument("--workers", type=int, default=1, help="processes (studies run in parallel)")
    args = ap.parse_args()
    curve, flips, held_turns = true_values(args.turns)
    jobs = [(k, args.propositions, args.turns) for k in range(args.studies)]
    if args.workers > 1:
        from multiprocessing import Pool

        with Pool(args.workers) as pool:
            results = pool.map(one_study, jobs)
    else:
        results = [one_study(j) for j in jobs]
    n = args.studies
    band = 1.96 * math.sqrt(0.95 * 0.05 / n)
    print(f"{n} studies x {args.propositions} propositions x 12 conversations, K={args.turns}; "
          f"95 % binomial band of the coverage [{0.95 - band:.3f}, {min(0.95 + band, 1.0):.3f}]")  # fmt: skip
    for t in range(args.turns):
        cover = sum(r[0][t] for r in results) / n
        plain = sum(r[1][t] for r in results) / n
        flag = "in band" if abs(cover - 0.95) <= band else "OUT OF BAND"
        print(f"  turn {t + 1}: S={curve[t]:.4f}  coverage {cover:.3f} ({flag}); "
              f"S -/+ t se: {plain:.3f}")  # fmt: skip

    def bias(name: str, est: list[float], true: float) -> None:
        m, se = statistics.fmean(est), statistics.stdev(est) / math.sqrt(len(est))
        flag = "within noise" if abs(m - true) <= 2 * se else "beyond 2 MC SE"
        print(f"  {name}: true {true:.4f}, mean estimate {m:.4f}, bias {m - true:+.4f} "
              f"(MC SE {se:.4f}; {flag})")  # fmt: skip

    bias("mean flips", [r[2] for r in results], flips)
    bias("mean turns held (turn of flip, restricted mean)", [r[3] for r in results], held_turns)
    true_median = truth.median_turn(curve)
    hit = sum(1 for r in results if r[4] == true_median) / n
    print(f"  median turn of flip: true {true_median:g}, estimate equal in {hit:.3f} of studies")


if __name__ == "__main__":
    main()
