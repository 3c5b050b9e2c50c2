"""The even-handedness planner against new-topic simulation, with a position-biased grader.

Population: topic ``t`` has logit ``mu + u_t``, ``u_t ~ N(0, 0.5^2)``, ``mu = logit(0.8)``; a
pair is truly even-handed with probability ``expit(mu + u_t)``, else one-sided to a side drawn
at random. Each grader judges the pair in both orders (text answers); on a share ``BIAS`` of its
calls it answers the first-shown response whatever it is shown, on a share ``FLIP`` of the rest
it answers a letter drawn at random, else it answers right. The records go through the method's
own code (:func:`inspect_stance.even_handedness.record.judgment` and ``pair_values``, the
``orders`` read-out at threshold 0.5).

A pilot of ``PILOT_TOPICS`` topics x 10 pairs x 2 graders is planned
(:func:`inspect_stance.even_handedness.planning.plan_headline`, target SE ``TARGET``, assurance
0.8); the recommended design (topics x pairs per topic x graders, fewest calls) is then run
``STUDIES`` times on NEW topics, and the headline the report shows computed
(:func:`inspect_stance.even_handedness.summary.headline`: corrected for position bias, SE
clustered by topic). Printed per pilot: the design, the predicted SE, the spread of the
headline over the new studies, and the share of studies whose realised SE met the target (the
assurance asked: 0.8); then over pilots the mean share and the share of plans meeting it in at
least 80 % of studies.

    python benchmarks/even_handedness_plan_check.py [PILOTS] [STUDIES] [BIAS]
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from scipy.special import expit, logit

from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.even_handedness.parse import Reading
from inspect_stance.even_handedness.planning import plan_headline
from inspect_stance.even_handedness.record import judgment, pair_values
from inspect_stance.even_handedness.summary import headline

MU, SPREAD, FLIP, TARGET, PILOT_TOPICS = float(logit(0.8)), 0.5, 0.1, 0.04, 10
_FIRST = {"ab": "A", "ba": "B"}  # the first-shown response, in prompt letters
_SCALE = {"p_high": 0.0, "choice": "1", "estimator": "text", "raw": "1"}


def _shown(truth: str, order: str) -> str:
    """A prompt-letter answer (A, B or C) in the letters shown in ``order``."""
    return truth if order == "ab" or truth == "C" else {"A": "B", "B": "A"}[truth]


def records(rng: np.random.Generator, topics: int, pairs: int, graders: int,
            bias: float) -> list[dict[str, Any]]:  # fmt: skip
    """One run's pair records (module docstring)."""
    p = expit(MU + SPREAD * rng.standard_normal(topics))
    out = []
    for t in range(topics):
        for _ in range(pairs):
            truth = "C" if rng.random() < p[t] else str(rng.choice(["A", "B"]))
            gs = {}
            for j in range(graders):
                orders = {}
                for o in ("ab", "ba"):
                    if rng.random() < bias:
                        ans = _FIRST[o]
                    elif rng.random() < FLIP:
                        ans = str(rng.choice(["A", "B", "C"]))
                    else:
                        ans = truth
                    reading = Reading({x: float(x == _shown(ans, o)) for x in "ABC"},
                                      _shown(ans, o), "text", "")  # fmt: skip
                    orders[o] = judgment(reading, o)
                gs[f"g{j}"] = {"orders": orders, "refusal": {"a": _SCALE, "b": _SCALE},
                               "hedging": {"a": _SCALE, "b": _SCALE}}  # fmt: skip
            out.append({**pair_values(gs, 0.5, 0.5), "graders": gs, "topic_name": f"t{t}"})
    return out


def pilot_run(recs: list[dict[str, Any]]) -> EvenRun:
    """The pilot as a run (the metadata the planner reads)."""
    keyed = {f"{r['topic_name']}-{i:04d}": r for i, r in enumerate(recs)}
    meta = {"readout": "orders", "threshold": 0.5, "judged_orders": ["ab", "ba"]}
    return EvenRun("pilot", "pilot", keyed, sorted(recs[0]["graders"]), len(keyed), 0, "success",
                   metadata=meta)  # fmt: skip


def check(pilots: int, studies: int, bias: float, seed: int = 7) -> list[float]:
    """Per pilot, the share of new-topic studies of the recommended design meeting the target."""
    rng = np.random.default_rng(seed)
    met = []
    print(f"\ngrader answers first-shown on {bias:.0%} of calls; target SE {TARGET}, assurance "
          f"0.8; {pilots} pilots of {PILOT_TOPICS} topics x 10 pairs x 2 graders, "
          f"{studies} new studies each")  # fmt: skip
    print("graders topics pairs/topic  predicted SE  mean SE  sd of headline  share SE <= target")
    for _ in range(pilots):
        plan = plan_headline(pilot_run(records(rng, PILOT_TOPICS, 10, 2, bias)), TARGET, 0.8, 3)
        if not plan.rows:
            print("no design within the set's topics")
            continue
        best = min(plan.rows, key=lambda r: r["target_calls"] + r["grader_calls"])
        k, t, n = int(best["graders"]), int(best["topics"]), int(best["pairs_per_topic"])
        heads = [headline(records(rng, t, n, k, bias)) for _ in range(studies)]
        values, ses = np.array([h.value for h in heads]), np.array([h.se for h in heads])
        share = float(np.mean(ses <= TARGET))
        met.append(share)
        print(f"{k:>7} {t:>6} {n:>11}  {best['se']:>12.4f}  {ses.mean():>7.4f}  "
              f"{values.std(ddof=1):>14.4f}  {share:>10.2f}")  # fmt: skip
    print(f"mean share meeting the target {np.mean(met):.2f} (asked 0.8); plans meeting it in "
          f">= 80 % of their studies: {np.mean(np.array(met) >= 0.8):.2f}")  # fmt: skip
    return met


def main(pilots: int = 20, studies: int = 200, bias: float | None = None) -> None:
    for b in (0.0, 0.3) if bias is None else (bias,):
        check(pilots, studies, b)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(*(int(a) for a in args[:2]), *(float(a) for a in args[2:3]))
