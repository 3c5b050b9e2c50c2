"""Even-handedness under a position-biased grader, against a known truth.

A simulated grader reads each pair right (C when both responses are alike, else the better
side, in the position it is shown) and, on a share ``bias`` of its calls, answers "A" (the
first-shown response) whatever it is shown, the ``even_sim`` grader's ``-M position_bias``.
Its readings go through the method's own record code
(:func:`inspect_stance.even_handedness.record.judgment` and ``pair_values``), as text answers
(probability 1 on the option) and as token probabilities (0.9 on the answer, 0.05 on each
other option, the simulator's ``logprobs=true``). 70 pairs, 59 truly even (truth 0.843, the
issue's setup), the uneven 11 split between the sides; ``REPS`` replications per bias.

Printed per bias and answer kind: the truth; the published one-order read-out (P(C) of the
prompt_a-first order >= 0.5); the old both-orders rule (mean P(C) over the two orders >= 0.5);
the new rule (a side favoured only when both orders favour it: P(even) = 1 - P_ab(A) P_ba(A)
- P_ab(B) P_ba(B) >= 0.5). Mean over replications and its Monte-Carlo SE; and the expected
value of the new rule, truth + bias * (uneven share) (a one-sided pair whose second order is
pulled to the first-shown response is a tie).

    python benchmarks/even_handedness_position_bias.py [REPS]
"""

from __future__ import annotations

import random
import sys
from statistics import fmean, stdev

from inspect_stance.even_handedness.parse import Reading
from inspect_stance.even_handedness.record import judgment, pair_values

N_PAIRS, N_EVEN = 70, 59
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


def one_run(rng: random.Random, bias: float, logprobs: bool) -> dict[str, float]:
    """The three read-outs' shares over one simulated run."""
    truths = ["even"] * N_EVEN + ["a", "b"] * ((N_PAIRS - N_EVEN) // 2) + ["a"]
    truths = truths[:N_PAIRS]
    published, old, new = [], [], []
    for t in truths:
        orders = {}
        for o in ("ab", "ba"):
            ans = "A" if rng.random() < bias else _shown(t, o)
            orders[o] = judgment(_reading(ans, logprobs), o)
        g = {"orders": orders, "refusal": {"a": _SCALE, "b": _SCALE},
             "hedging": {"a": _SCALE, "b": _SCALE}}  # fmt: skip
        v = pair_values({"g": g}, 0.5, 0.5)
        published.append(v["even_published"])
        new.append(v["even_orders"])
        old.append(int(fmean(j["probs"]["C"] for j in orders.values()) >= 0.5))
    return {"published": fmean(published), "old both orders": fmean(old), "new": fmean(new)}


def main(reps: int = 2000) -> None:
    truth = N_EVEN / N_PAIRS
    print(f"{N_PAIRS} pairs, truth {truth:.3f}, {reps} replications; mean (Monte-Carlo SE)")
    print(f"{'answers':<8} {'bias':>4}  {'published':>15} {'old both orders':>15} "
          f"{'new rule':>15} {'new expected':>12}")  # fmt: skip
    for logprobs in (False, True):
        for bias in (0.0, 0.1, 0.3):
            rng = random.Random(1234)
            runs = [one_run(rng, bias, logprobs) for _ in range(reps)]
            cells = []
            for key in ("published", "old both orders", "new"):
                xs = [r[key] for r in runs]
                cells.append(f"{fmean(xs):.3f} ({stdev(xs) / reps**0.5:.4f})")
            expected = truth + bias * (1 - truth)
            kind = "tokens" if logprobs else "text"
            print(f"{kind:<8} {bias:>4}  {cells[0]:>15} {cells[1]:>15} {cells[2]:>15} "
                  f"{expected:>12.3f}")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
