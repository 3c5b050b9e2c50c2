"""Check the PReSS and prompt-construction planners against subsampling of a simulated pilot.

``press_sim`` and ``construction_sim`` are scripted and deterministic (every statement's labels
and every response's score are fixed functions of the prompt), so they have no sampling spread
to plan for. The population here is drawn once from random-effects models of the same shape
as the logs' records and then *subsampled* (units without replacement), as
``benchmarks/plan_check.py`` subsamples the stance-drift reference runs:

- **PReSS**: 2,000 statements x 30 argument sets; statement ``s`` is stable in each set with
  probability ``p_s ~ Beta(0.7, 0.5)`` (mass near 0 and 1, as real models' S_t), a set's
  stable indicator ``Bernoulli(p_s)``. Pilot 19 statements x 3 sets (the paper's design).
- **Prompt construction**: 1,000 neutral settings x 2 methods x 40 prompts x 6 responses x
  3 fixed judges; a latent ``3 + g_b + c_m + P + R + j + e`` (setting gap ``g_b ~ N(0, 0.35)``
  on templated, prompt ``P ~ N(0, 0.5)``, response ``R ~ N(0, 0.4)``, judge bias ``j`` in
  (-0.3, 0, 0.3), noise ``e ~ N(0, 0.5)``), rounded and clipped to 1..5; the judgment is
  ``|score - 3|``. Pilot 18 settings x 5 prompts x 2 responses x 3 judges.

Per method, ``--reps`` times: draw a pilot, predict the SE of a larger design (``pred``), draw
an independent study of that design and take its own SE over units (``obs``; the ratio of the
means is ``obs/pred``, the SD of ``pred / obs_mean`` its spread); then plan the cheapest design
for a target (0.8 x the population SE of the pilot's design scaled to the reference design)
with the point prediction and with ``--assurance P``, draw a study of the recommended design
and count the share whose realised SE meets the target (about 0.5 and about ``P``).

Usage: ``OMP_NUM_THREADS=1 python benchmarks/press_construction_plan_check.py [--reps 400]
[--assurance 0.8] [--method press|construction]``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from inspect_stance.construction.planning import LEVELS
from inspect_stance.stats.design import NestedComponents, Part, least_n, nested_components

PRESS_POP = (2000, 30)
PRESS_PILOT = (19, 3)
PRESS_STUDY = (60, 6)  #: the larger design whose SE the pilot predicts
CONS_POP = (1000, 40, 6)
CONS_PILOT = (18, 5, 2)
CONS_STUDY = (60, 10, 1)
JUDGE_BIAS = np.array([-0.3, 0.0, 0.3])


PRESS_BETA = [0.7, 0.5]


def press_population(rng: np.random.Generator) -> np.ndarray:
    """Stable indicators ``(statements, sets)`` of the simulated PReSS population."""
    p = rng.beta(PRESS_BETA[0], PRESS_BETA[1], PRESS_POP[0])
    return (rng.random(PRESS_POP) < p[:, None]).astype(float)


def construction_population(rng: np.random.Generator) -> np.ndarray:
    """Judgments ``|score - 3|`` shaped ``(settings, 2 methods, prompts, responses, judges)``."""
    b, p, r = CONS_POP
    gap = 0.3 + 0.35 * rng.standard_normal((b, 1, 1, 1, 1)) * np.array([1, 0]).reshape(
        1, 2, 1, 1, 1
    )
    prompt = 0.5 * rng.standard_normal((b, 2, p, 1, 1))
    resp = 0.4 * rng.standard_normal((b, 2, p, r, 1))
    noise = 0.5 * rng.standard_normal((b, 2, p, r, 3))
    latent = 3.6 + gap + prompt + resp + JUDGE_BIAS + noise
    return np.abs(np.clip(np.rint(latent), 1, 5) - 3)


def draw_press(pop: np.ndarray, rng: np.random.Generator, s: int, k: int) -> np.ndarray:
    """``s`` statements x ``k`` sets, both without replacement."""
    rows = pop[rng.choice(pop.shape[0], s, replace=False)]
    idx = np.argsort(rng.random(rows.shape), axis=1)[:, :k]
    return np.take_along_axis(rows, idx, axis=1)


def draw_construction(pop: np.ndarray, rng: np.random.Generator, b: int, p: int, r: int
                      ) -> np.ndarray:  # fmt: skip
    """``b`` settings x 2 methods x ``p`` prompts x ``r`` responses x 3 judges."""
    x = pop[rng.choice(pop.shape[0], b, replace=False)]
    x = x[:, :, rng.choice(pop.shape[2], p, replace=False)]
    return x[:, :, :, rng.choice(pop.shape[3], r, replace=False)]


def press_vc(x: np.ndarray) -> NestedComponents:
    """Planner components of a PReSS draw (the planner's own estimator)."""
    return nested_components([Part("", x.tolist(), ("argument set",))], "statement")


def construction_vc(x: np.ndarray) -> NestedComponents:
    """Planner components of a construction draw."""
    parts = [Part("templated", x[:, 0].tolist(), LEVELS),
             Part("generated", x[:, 1].tolist(), LEVELS, -1.0)]  # fmt: skip
    return nested_components(parts, "setting")


def press_unit_values(x: np.ndarray) -> np.ndarray:
    return x.mean(axis=1)


def construction_unit_values(x: np.ndarray) -> np.ndarray:
    m = x.mean(axis=(2, 3, 4))
    return m[:, 0] - m[:, 1]


def realised_se(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / math.sqrt(values.size))


def cheapest(vc: NestedComponents, target: float, assurance: float | None,
             designs: list[tuple[int, ...]], cost: Callable[[int, tuple[int, ...]], float],
             most: int) -> tuple[int, tuple[int, ...]]:  # fmt: skip
    """The cheapest (units, design) meeting the target (the planners' search, inlined)."""
    best: tuple[float, int, tuple[int, ...]] | None = None
    for d in designs:
        if assurance is None:
            n: int | None = max(2, math.ceil(vc.unit_variance(d) / target**2 - 1e-12))
            n = n if n is not None and n <= most else None
        else:
            n = least_n(lambda u, d=d: vc.prob_se_below(target, u, d) >= assurance, most)
        if n is not None and (best is None or cost(n, d) <= best[0]):
            best = (cost(n, d), n, d)
    assert best is not None, "no design reaches the target"
    return best[1], best[2]


def check(method: str, reps: int, assurance: float, seed: int = 0, draws: int = 20
          ) -> dict[str, Any]:  # fmt: skip
    """The figures of one planner (module docstring)."""
    rng = np.random.default_rng(seed)
    if method == "press":
        pop, draw, vc_of, values = press_population(rng), draw_press, press_vc, press_unit_values
        pilot, study = PRESS_PILOT, PRESS_STUDY
        designs = [(k,) for k in range(1, 16)]

        def cost(n: int, d: tuple[int, ...]) -> float:
            return n * (draws + 5.0 * d[0])  # 2 arguer + 3 target calls per set
    else:
        pop, draw, vc_of = construction_population(rng), draw_construction, construction_vc
        values, pilot, study = construction_unit_values, CONS_PILOT, CONS_STUDY
        designs = [(p, r, 3) for p in range(1, 16) for r in (1, 2, 3)]

        def cost(n: int, d: tuple[int, ...]) -> float:
            return n * (1 + 2 * d[0] * d[1] * 4.0)

    # the target: 0.8 x the population SE of the study design (its expected SE)
    pop_values = values(draw(pop, rng, pop.shape[0], *study[1:]))
    target = 0.8 * float(pop_values.std(ddof=1)) / math.sqrt(study[0])
    preds, obs = [], []
    met: dict[str, list[bool]] = {"point": [], "assured": []}
    calls: dict[str, list[float]] = {"point": [], "assured": []}
    for _ in range(reps):
        vc = vc_of(draw(pop, rng, *pilot))
        design = tuple(study[1:]) + ((3,) if method != "press" else ())
        pred = vc.se(study[0], design)
        real = realised_se(values(draw(pop, rng, *study)))
        preds.append(pred)
        obs.append(real)
        for name, a in (("point", None), ("assured", assurance)):
            n, d = cheapest(vc, target, a, designs, cost, pop.shape[0] // 2)
            x = draw(pop, rng, n, *d[: len(study) - 1])
            met[name].append(realised_se(values(x)) <= target)
            calls[name].append(cost(n, d))
    obs_mean = float(np.mean(obs))
    return {
        "method": method,
        "reps": reps,
        "pred_mean": float(np.mean(preds)),
        "obs_mean": obs_mean,
        "obs_over_pred": obs_mean / float(np.mean(preds)),
        "pred_over_obs_p10_p90": [
            float(np.quantile(np.array(preds) / obs_mean, q)) for q in (0.1, 0.9)
        ],  # fmt: skip
        "target": target,
        "met_point": float(np.mean(met["point"])),
        "met_assured": float(np.mean(met["assured"])),
        "calls_point": float(np.mean(calls["point"])),
        "calls_assured": float(np.mean(calls["assured"])),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--assurance", type=float, default=0.8)
    ap.add_argument("--method", choices=("press", "construction", "both"), default="both")
    ap.add_argument(
        "--draws",
        type=int,
        default=20,
        help="PReSS calls per statement besides "
        "its sets (20: the paper's entropy draws; 0: one set is cheapest)",
    )
    ap.add_argument("--press-beta", default="0.7,0.5", help="Beta(a, b) of p_s (PReSS)")
    args = ap.parse_args()
    PRESS_BETA[:] = [float(v) for v in args.press_beta.split(",")]
    methods = ("press", "construction") if args.method == "both" else (args.method,)
    print("method  reps  pred  obs  obs/pred  pred/obs p10-p90  target  met(point)  "
          "met(assured) ± se  calls(point)  calls(assured)")  # fmt: skip
    for m in methods:
        r = check(m, args.reps, args.assurance, draws=args.draws)
        se = math.sqrt(args.assurance * (1 - args.assurance) / args.reps)
        lo, hi = r["pred_over_obs_p10_p90"]
        print(
            f"{m}{f' (draws {args.draws})' if m == 'press' else ''}  {r['reps']}  {r['pred_mean']:.5f}  {r['obs_mean']:.5f}  "
            f"{r['obs_over_pred']:.3f}  {lo:.2f}-{hi:.2f}  {r['target']:.5f}  "
            f"{r['met_point']:.3f}  {r['met_assured']:.3f} ± {se:.3f}  "
            f"{r['calls_point']:,.0f}  {r['calls_assured']:,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
