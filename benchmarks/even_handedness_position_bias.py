"""Even-handedness under a position-biased grader, against a known truth.

A simulated grader reads each pair right (C when both responses are alike, else the better
side, in the position it is shown) and, on a share ``bias`` of its calls, answers "A" (the
first-shown response) whatever it is shown, the ``even_sim`` grader's ``-M position_bias``.
Its readings go through the method's own code (:func:`inspect_stance.even_handedness.record.
judgment` and ``pair_values``, then the headline, :func:`inspect_stance.even_handedness.summary.
headline`), as text answers (probability 1 on the option) and as token probabilities (0.9 on
the answer, 0.05 on each other option, the simulator's ``logprobs=true``). 70 pairs in 14
topics of 5, ``REPS`` replications per bias.

Two designs:

* **fixed**: 59 pairs truly even (truth 0.843, the issue's setup), the uneven 11 split between
  the sides; only the grader's pulls vary between replications;
* **drawn**: each pair truly even with probability 59/70 (truth 0.843 over new pairs), else
  one-sided to a side drawn at random: the interval's claim (new pairs) is checked here.

Printed per answer kind and bias: the published one-order read-out (P(C) of the
prompt_a-first order >= 0.5); the both-orders read-out before the correction (a side favoured
only when both orders favour it, expected truth + bias x uneven share); the headline (corrected
for position bias); each as mean over replications (Monte-Carlo SE); and the share of
replications whose 95 % headline interval holds the truth, in the fixed and the drawn design
(binomial SE about 0.005 at 2,000 replications).

    python benchmarks/even_handedness_position_bias.py [REPS]
"""

from __future__ import annotations

import random
import sys
from statistics import fmean, stdev
from typing import Any

from inspect_stance.even_handedness.parse import Reading
from inspect_stance.even_handedness.record import judgment, pair_values
from inspect_stance.even_handedness.summary import headline

N_PAIRS, N_EVEN, N_TOPICS = 70, 59, 14
TRUTH = N_EVEN / N_PAIRS
_SCALE = {"p_high": 0.0, "choice": "1", "estimator": "text", "raw": "1"}


def _reading(answer: str, logprobs: bool) -> Reading:
    if logprobs:
        return Reading({o: 0.9 if o == answer else 0.05 for o in "ABC"}, answer, "logprobs", "")
    return Reading({o: float(o == answer) for o in "ABC"}, answer, "text", "")


def _shown(truth: str, order: str) -> str:
    """The correct answer in the position shown (truth in prompt terms: a, b or even)."""
    if truth == "even":
        return "C"
    first = "a" if order == "ab" else "b"
    return "A" if truth == first else "B"


def truths(rng: random.Random, drawn: bool) -> list[str]:
    """Each pair's truth: the fixed 59 even + 11 one-sided, or drawn (module docstring)."""
    if drawn:
        return ["even" if rng.random() < TRUTH else rng.choice("ab") for _ in range(N_PAIRS)]
    return (["even"] * N_EVEN + ["a", "b"] * N_PAIRS)[:N_PAIRS]


def records(rng: random.Random, bias: float, logprobs: bool, drawn: bool,
            graders: int = 1) -> list[dict[str, Any]]:  # fmt: skip
    """One simulated run's pair records (``graders`` graders alike but for their independent
    pulls, both orders)."""
    out = []
    for i, t in enumerate(truths(rng, drawn)):
        gs = {}
        for k in range(graders):
            orders = {}
            for o in ("ab", "ba"):
                ans = "A" if rng.random() < bias else _shown(t, o)
                orders[o] = judgment(_reading(ans, logprobs), o)
            gs[f"g{k}"] = {"orders": orders, "refusal": {"a": _SCALE, "b": _SCALE},
                           "hedging": {"a": _SCALE, "b": _SCALE}}  # fmt: skip
        v = pair_values(gs, 0.5, 0.5)
        out.append({**v, "graders": gs, "topic_name": f"t{i % N_TOPICS}"})
    return out


def one_run(rng: random.Random, bias: float, logprobs: bool, drawn: bool,
            graders: int = 1) -> dict[str, float]:  # fmt: skip
    """The read-outs of one simulated run and whether the headline's interval holds the truth."""
    recs = records(rng, bias, logprobs, drawn, graders)
    h = headline(recs)
    return {
        "published": fmean(r["even_published"] for r in recs),
        "before": fmean(r["even_orders"] for r in recs),
        "after": h.value,
        "covered": float(h.interval[0] <= TRUTH <= h.interval[1]),
    }


def main(reps: int = 2000) -> None:
    print(f"{N_PAIRS} pairs in {N_TOPICS} topics, truth {TRUTH:.3f}, {reps} replications; "
          "mean (Monte-Carlo SE)")  # fmt: skip
    print(f"{'answers':<7} {'graders':>7} {'bias':>4}  {'published':>15} "
          f"{'before (orders)':>15} {'after (headline)':>16} {'cover fixed':>11} "
          f"{'cover drawn':>11}")  # fmt: skip
    cells = [(lp, 1, b) for lp in (False, True) for b in (0.0, 0.1, 0.3)]
    cells += [(lp, k, b) for lp in (False, True) for k in (2, 3) for b in (0.0, 0.3)]
    for logprobs, graders, bias in cells:
        rng = random.Random(1234)
        runs = [one_run(rng, bias, logprobs, False, graders) for _ in range(reps)]
        drawn = [one_run(rng, bias, logprobs, True, graders) for _ in range(reps)]
        shown = []
        for key in ("published", "before", "after"):
            xs = [r[key] for r in runs]
            shown.append(f"{fmean(xs):.3f} ({stdev(xs) / reps**0.5:.4f})")
        cover = [fmean(r["covered"] for r in rs) for rs in (runs, drawn)]
        kind = "tokens" if logprobs else "text"
        print(f"{kind:<7} {graders:>7} {bias:>4}  {shown[0]:>15} {shown[1]:>15} "
              f"{shown[2]:>16} {cover[0]:>11.3f} {cover[1]:>11.3f}")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
