"""The even-handedness planner against new-topic simulation.

Population: topic ``t`` has logit ``mu + u_t``, ``u_t ~ N(0, 0.5^2)``, ``mu = logit(0.8)``; a
pair is truly even-handed with probability ``expit(mu + u_t)``; each grader's call is the truth
flipped with probability ``FLIP``. A pilot of 10 topics x 10 pairs x 2 graders is planned
(:func:`inspect_stance.even_handedness.planning.plan_headline`, target SE ``TARGET``,
assurance 0.8); the recommended design (topics x pairs per topic x graders) is then run
``STUDIES`` times on new topics, and the headline computed by the scorer's rule
(:func:`inspect_stance.even_handedness.summary.headline`, the pair even-handed when the
graders' mean call >= 0.5). Printed per pilot: the design, the predicted SE, the spread of the
headline over the new studies, and the share of studies whose realised SE met the target
(the assurance asked: 0.8); and over pilots the share of plans that met their target.

    python benchmarks/even_handedness_plan_check.py [PILOTS] [STUDIES]
"""

from __future__ import annotations

import sys

import numpy as np
from scipy.special import expit, logit

from inspect_stance.even_handedness.logs import EvenRun
from inspect_stance.even_handedness.planning import plan_headline
from inspect_stance.even_handedness.summary import headline

MU, SPREAD, FLIP, TARGET = float(logit(0.8)), 0.5, 0.1, 0.04
_SIDE = {"A": 1.0, "B": 0.0, "C": 0.0}
_EVEN = {"A": 0.0, "B": 0.0, "C": 1.0}


def _calls(rng: np.random.Generator, topics: int, pairs: int, graders: int) -> np.ndarray:
    """``(topics, pairs, graders)`` 0/1 even-handed calls."""
    p = expit(MU + SPREAD * rng.standard_normal(topics))[:, None]
    truth = rng.random((topics, pairs)) < p
    flip = rng.random((topics, pairs, graders)) < FLIP
    return (truth[:, :, None] ^ flip).astype(float)


def _pilot(calls: np.ndarray) -> EvenRun:
    recs = {}
    for t, topic in enumerate(calls):
        for i, pair in enumerate(topic):
            graders = {f"g{j}": {"orders": {o: {"probs": _EVEN if c else _SIDE}
                                            for o in ("ab", "ba")}}
                       for j, c in enumerate(pair)}  # fmt: skip
            recs[f"t{t}-{i:04d}"] = {"topic_name": f"t{t}", "graders": graders}
    return EvenRun("pilot", "pilot", recs, [], len(recs), 0, "success", metadata={})


def main(pilots: int = 20, studies: int = 200) -> None:
    rng = np.random.default_rng(7)
    met = []
    print(f"target SE {TARGET}, assurance 0.8; {pilots} pilots x {studies} new studies")
    print("graders topics pairs/topic  predicted SE  sd over studies  share realised SE <= target")
    for _ in range(pilots):
        plan = plan_headline(_pilot(_calls(rng, 10, 10, 2)), TARGET, 0.8, 3)
        if not plan.rows:
            print("no design within the set's topics")
            continue
        best = min(plan.rows, key=lambda r: r["target_calls"] + r["grader_calls"])
        k, t, n = int(best["graders"]), int(best["topics"]), int(best["pairs_per_topic"])
        values, ses = [], []
        for _ in range(studies):
            calls = _calls(rng, t, n, k)
            recs = [{"even_handed": int(calls[a, b].mean() >= 0.5), "topic_name": f"t{a}"}
                    for a in range(t) for b in range(n)]  # fmt: skip
            h = headline(recs)
            values.append(h.value)
            ses.append(h.se)
        share = float(np.mean(np.array(ses) <= TARGET))
        met.append(share)
        print(f"{k:>7} {t:>6} {n:>11}  {best['se']:>12.4f}  {np.std(values, ddof=1):>15.4f}  "
              f"{share:>10.2f}")  # fmt: skip
    print(f"plans meeting the target in >= 80 % of studies: "
          f"{np.mean(np.array(met) >= 0.8):.2f}; mean share {np.mean(met):.2f}")  # fmt: skip


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
