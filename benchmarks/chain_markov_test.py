"""Size and power of the chains' Markov test (inspect_stance.drift.chain), by simulation.

Chains of 3 hops with exact readings: hop 1 reads the initial stance ``i``, hop 2
``x ~ R[i]``, hop 3 ``y = i`` with probability ``pull`` (memory) else ``y ~ R[x]``. ``pull=0``
is a Markov chain: the share of replications with p < 0.05 is the test's size (nominal 0.05);
``pull > 0`` gives its power. ``R`` is the simulated respondent's shipped matrix.

    python benchmarks/chain_markov_test.py [--reps 200] [--boot 500]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from inspect_stance.drift.chain import analyse_chain
from inspect_stance.providers.stance_sim import load_transition


def simulate(r: np.ndarray, pull: float, n_props: int, n_trials: int, seed: int) -> np.ndarray:
    """``hop_probs`` (3, P, T, 5, 5) of one-hot readings (see the module docstring)."""
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
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--boot", type=int, default=500)
    args = ap.parse_args()
    r = load_transition(None)
    print("| propositions | trials | pull | share p < 0.05 | median D_3 | median dSPR_3 |")
    print("|---|---|---|---|---|---|")
    for n_props, n_trials in ((10, 10), (30, 10), (50, 20)):
        for pull in (0.0, 0.1, 0.5):
            start = time.perf_counter()
            p, d, ds = [], [], []
            for rep in range(args.reps):
                probs = simulate(r, pull, n_props, n_trials, seed=rep)
                test = analyse_chain(probs, [None, "r", "r"], n_boot=args.boot, seed=rep).hops[2]
                assert test.test is not None
                p.append(test.test.p_value)
                d.append(test.test.distance)
                ds.append(test.test.spr_difference)
            share = float(np.mean(np.asarray(p) < 0.05))
            print(
                f"| {n_props} | {n_trials} | {pull} | {share:.3f} | {np.median(d):.3f} | "
                f"{np.median(ds):+.3f} |  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
