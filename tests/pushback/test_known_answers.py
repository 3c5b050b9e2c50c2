"""The pushback figures on the simulated target against its closed-form truth."""

from __future__ import annotations

import asyncio
import statistics
from typing import Any

import pytest
from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model
from inspect_stance.solvers.pushback import converse, new_record, reader_config

from inspect_stance.pushback import truth
from inspect_stance.pushback.conversation import user_side
from inspect_stance.pushback.defaults import STYLES
from inspect_stance.pushback.options import PushbackOptions
from inspect_stance.pushback.summary import summarize


class Direct:
    """The simulator's ModelAPI called without Inspect's wrapper (fast); the conversation and
    reading code is the task's."""

    def __init__(self, api: Any) -> None:
        self.api = api

    async def generate(self, messages: Any, config: GenerateConfig | None = None) -> Any:
        msgs = [ChatMessageUser(content=messages)] if isinstance(messages, str) else messages
        return await self.api.generate(msgs, [], "auto", config or GenerateConfig())


def simulate(n_props: int, framing: str = "direct", seed: int = 0,
             **model_args: Any) -> dict[str, dict[str, Any]]:  # fmt: skip
    opts = PushbackOptions.parse(framing=framing)
    model = Direct(get_model("pushback_sim/target", seed=seed, **model_args).api)
    config = reader_config(opts)
    records: dict[str, dict[str, Any]] = {}

    async def one(p: int, held: int, style: str) -> None:
        meta = {"proposition": f"Proposition {p}", "topic_id": str(p), "style": style,
                "assigned": held}  # fmt: skip
        rec = new_record(meta, opts.turns)
        await converse(model, model, meta, opts, config, rec)  # type: ignore[arg-type]
        records[f"{p}-{style}-{held}"] = rec

    async def run() -> None:
        await asyncio.gather(*(one(p, h, s) for p in range(n_props) for h in (0, 1, 3)
                               for s in (*STYLES, "control")))  # fmt: skip

    asyncio.run(run())
    return records


def _truth(base: float, r: float, framing: str) -> tuple[list[float], float]:
    hs = [truth.hazard(base, s, h, user_side(h, s), framing) for h in (0, 1, 3) for s in STYLES]
    return truth.mixed_survival(hs, 5), statistics.fmean(truth.expected_flips(h, r, 5) for h in hs)


@pytest.mark.parametrize("framing", ["direct", "third_person"])
def test_survival_flips_and_control_match_the_truth(framing: str) -> None:
    s = summarize(simulate(25, framing, hazard=0.2, return_rate=0.3))
    curve, flips = _truth(0.2, 0.3, framing)
    assert s.pushback.curve is not None
    for p, true in zip(s.pushback.curve.points, curve, strict=True):
        assert abs(p.survival - true) < 4 * p.se, (p, true)
    assert abs(s.pushback.flips.value - flips) < 4 * s.pushback.flips.se
    assert s.headline.value == pytest.approx(s.pushback.curve.at(5).survival)  # no censoring
    assert (
        s.pushback.median_turn == truth.median_turn(curve)
        or abs(s.pushback.curve.at(int(truth.median_turn(curve))).survival - 0.5) < 0.05
    )
    ctrl = [truth.hazard(0.2, "control", h, user_side(h, "control"), framing) for h in (0, 1, 3)]
    true_ctrl = truth.mixed_survival(ctrl, 5)[-1]
    assert s.control is not None
    assert abs(s.control.held.value - true_ctrl) < 4 * s.control.held.se + 0.01


def test_logprob_noise_does_not_move_the_reading_and_unparsed_are_counted() -> None:
    recs = simulate(4, hazard=0.0, noise=0.45, unparsed=0.2)
    est = {e for r in recs.values() for e in r["estimators"]}
    assert est == {"logprobs", None}
    vectors = [v for r in recs.values() for v in r["vectors"] if v is not None]
    assert any(max(v) < 0.9 for v in vectors)  # noisy vectors
    s = summarize(recs)
    # hazard 0: every parsed reading is the held stance; unparsed ones keep the state
    assert s.pushback.flips.value == 0.0 and s.pushback.unparsed > 0
    assert s.pushback.no_stance == sum(1 for r in recs.values() if r["style"] != "control"
                                       and r["readings"][0] is None)  # fmt: skip
