"""Size and power of the chains' Markov test (inspect_stance.drift.chain.markov), by simulation.

Chains of 3 hops with exact readings: hop 1 reads the initial stance ``i``, hop 2
``x ~ R[i]``, hop 3 ``y = i`` with probability ``pull`` (memory) else ``y ~ R[x]``. ``pull=0``
is a Markov chain: the share of replications with p < 0.05 is the test's size (nominal 0.05);
``pull > 0`` gives its power. ``R`` is the simulated respondent's shipped matrix.

``--reader noisy`` reads every text through a reader that is not one-hot (a text of stance
``z`` is read as the vector ``Q[z]``, ``Q = 0.7 I + 0.075`` off the diagonal, as a logprob
reader does); the table then gives the size and power of the reading-noise-corrected test and,
beside it, of the uncorrected one (``rownorm(J)``, "Markov in the readings"), which rejects an
exactly Markov relay almost always.

    python benchmarks/chain_markov_test.py [--reps 200] [--boot 500] [--reader exact|noisy]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from inspect_stance.drift.chain.markov import analyse_chain
from inspect_stance.drift.simulator import load_transition

#: the noisy reader's reading matrix (rows: the text's stance; columns: the reading)
NOISY_READER = 0.625 * np.eye(5) + 0.075


def simulate(
    r: np.ndarray,
    pull: float,
    n_props: int,
    n_trials: int,
    seed: int,
    reader: np.ndarray | None = None,
) -> np.ndarray:
    """``hop_probs`` (3, P, T, 5, 5) of one-hot readings, or read through ``reader`` (see the
    module docstring)."""
    rng = np.random.default_rng(seed)
    cum = np.cumsum(r, axis=1)
    out = np.zeros((3, n_props, n_trials, 5, 5))
    u = rng.random((n_props, n_trials, 5, 3))
    for s in range(n_props):
        for t in range(n_trials):
            for i in range(5):
                x = min(int(np.searchsorted(cum[i], u[s, t, i, 0])), 4)
                y = (
                    i
                    if u[s, t, i, 1] < pull
                    else min(int(np.searchsorted(cum[x], u[s, t, i, 2])), 4)
                )
                out[0, s, t, i, i] = out[1, s, t, i, x] = out[2, s, t, i, y] = 1
    if reader is not None:
        out = out @ reader  # a one-hot stance times Q: the reading vector Q[z]
    return out


def size_and_power(
    r: np.ndarray,
    pull: float,
    n_props: int,
    n_trials: int,
    reps: int,
    boot: int,
    reader: np.ndarray | None,
    correct: bool = True,
) -> tuple[float, float, float]:
    """Share of replications with p < 0.05, median D_3 and median dSPR_3."""
    p, d, ds = [], [], []
    for rep in range(reps):
        probs = simulate(r, pull, n_props, n_trials, seed=rep, reader=reader)
        res = analyse_chain(probs, [None, "r", "r"], n_boot=boot, seed=rep, correct_reading=correct)
        test = res.hops[2].test
        assert test is not None
        p.append(test.p_value)
        d.append(test.distance)
        ds.append(test.spr_difference)
    return float(np.mean(np.asarray(p) < 0.05)), float(np.median(d)), float(np.median(ds))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--boot", type=int, default=500)
    ap.add_argument("--reader", choices=("exact", "noisy"), default="exact")
    args = ap.parse_args()
    r = load_transition(None)
    reader = NOISY_READER if args.reader == "noisy" else None
    print("| propositions | trials | pull | share p < 0.05 | median D_3 | median dSPR_3 |"
          + (" uncorrected: share p < 0.05 |" if reader is not None else ""))  # fmt: skip
    print("|---|---|---|---|---|---|" + ("---|" if reader is not None else ""))
    for n_props, n_trials in ((10, 10), (30, 10), (50, 20)):
        for pull in (0.0, 0.1, 0.5):
            start = time.perf_counter()
            share, d, ds = size_and_power(r, pull, n_props, n_trials, args.reps, args.boot, reader)
            extra = ""
            if reader is not None:
                raw = size_and_power(
                    r, pull, n_props, n_trials, args.reps, args.boot, reader, correct=False
                )
                extra = f" {raw[0]:.3f} |"
            print(
                f"| {n_props} | {n_trials} | {pull} | {share:.3f} | {d:.3f} | {ds:+.3f} |{extra}"
                f"  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
