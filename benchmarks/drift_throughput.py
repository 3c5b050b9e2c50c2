"""Harness overhead of the stance-drift task per trial (target: <= 5 ms/trial).

Runs the real task on the simulated respondent (zero latency, so all time is harness time:
Inspect's model API, transcript, logging, our solver and scorer) and prints trials/second and
ms/trial (wall clock; ``benchmarks/harness_cost.py`` measures CPU against a bare Inspect task).
Usage::

    python benchmarks/drift_throughput.py [--propositions 8] [--trials 100] [--variant default]
        [--no-log-realtime] [--no-cache]

Defaults mirror the task's defaults (trial record on, Inspect's realtime log on).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_stance.tasks.stance_drift import stance_drift


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--propositions", type=int, default=8)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--variant", default="default")
    parser.add_argument("--no-log-realtime", action="store_true")
    parser.add_argument("--no-cache", action="store_true", help="turn the trial record off")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        # a cold, private trial record (not the user's)
        os.environ["INSPECT_CACHE_DIR"] = str(Path(tmp) / "cache")
        props = Path(tmp) / "props.txt"
        props.write_text(
            "\n".join(f"Benchmark proposition number {k}" for k in range(args.propositions))
        )
        matrix = Path(tmp) / "T.json"
        matrix.write_text(
            json.dumps([[0.8 if i == j else 0.05 for j in range(5)] for i in range(5)])
        )
        task = stance_drift(
            variant=args.variant,
            trials=args.trials,
            propositions=str(props),
            cache=not args.no_cache,
        )
        n_trials = args.propositions * 5 * args.trials
        start = time.perf_counter()
        logs = inspect_eval(
            task,
            model="stance_sim/respondent",
            model_args={"transition": str(matrix)},
            log_dir=str(Path(tmp) / "logs"),
            display="none",
            log_realtime=not args.no_log_realtime,
            max_connections=1000,
        )
        elapsed = time.perf_counter() - start
        log = logs[0]
        assert log.status == "success", log.error
        size = sum(f.stat().st_size for f in (Path(tmp) / "logs").glob("*.eval"))
    print(
        f"trials={n_trials} variant={args.variant} cache={not args.no_cache} "
        f"log_realtime={not args.no_log_realtime}"
    )
    print(
        f"elapsed_s={elapsed:.2f} trials_per_s={n_trials / elapsed:.1f} "
        f"ms_per_trial={1000 * elapsed / n_trials:.2f} log_mb={size / 1e6:.1f}"
    )
    paper_min = 112 * 5 * 100 * elapsed / n_trials / 60
    print(f"paper-scale harness time (56,000 trials): ~{paper_min:.1f} min")


if __name__ == "__main__":
    main()
