"""Calls per second of one stance-drift study run as 1, 2 and 4 shard processes.

Each shard is its own ``inspect eval tasks/stance_drift.py -T shard=K/N`` process against the
simulated respondent (zero latency: all time is Inspect's and the package's), all N started at
once. Two rates are printed per N: over the whole wall time (process start-up included) and
over the span the evals ran (earliest ``stats.started_at`` to latest ``completed_at`` of the
shards' logs). With 2 cores, N > 2 processes share the cores, so the rate stops growing.
Usage::

    python benchmarks/shard_throughput.py [--propositions 20] [--trials 10] [--shards 1 2 4]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

ROOT = Path(__file__).resolve().parents[1]


def run_shards(n: int, props: Path, trials: int, tmp: Path) -> tuple[float, float, int]:
    """(wall seconds, eval-span seconds, model calls) of a study run as ``n`` processes."""
    log_dir = tmp / f"logs{n}"
    env = {**os.environ, "INSPECT_CACHE_DIR": str(tmp / "cache"), "OMP_NUM_THREADS": "1"}
    base = [sys.executable, "-m", "inspect_ai", "eval", "tasks/stance_drift.py"]
    base += ["--model", "stance_sim/respondent", "--log-dir", str(log_dir), "--display", "none"]
    base += ["-T", f"propositions={props}", "-T", f"trials={trials}", "-T", "cache=false"]
    start = time.perf_counter()
    procs = [
        subprocess.Popen([*base, *(["-T", f"shard={k}/{n}"] if n > 1 else [])], env=env, cwd=ROOT)
        for k in range(1, n + 1)
    ]
    if any(p.wait() != 0 for p in procs):
        raise SystemExit(f"a shard process of N={n} failed")
    wall = time.perf_counter() - start
    logs = [read_eval_log(info.name) for info in list_eval_logs(str(log_dir))]
    begun = min(datetime.fromisoformat(x.stats.started_at) for x in logs)
    ended = max(datetime.fromisoformat(x.stats.completed_at) for x in logs)
    calls = sum(
        len((s.store or {}).get("trials") or []) * int(x.eval.metadata["model_calls_per_trial"])
        for x in logs
        for s in x.samples or []
    )
    return wall, (ended - begun).total_seconds(), calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--propositions", type=int, default=20)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        props = tmp / "props.txt"
        props.write_text(
            "\n".join(f"Benchmark proposition number {k}" for k in range(args.propositions))
        )
        print(f"cores: {os.cpu_count()}; study: {args.propositions} propositions x 5 stances x "
              f"{args.trials} trials, 2 calls per trial")  # fmt: skip
        print(f"{'N':>3} {'calls':>7} {'wall s':>7} {'calls/s (wall)':>15} "
              f"{'eval s':>7} {'calls/s (eval)':>15}")  # fmt: skip
        for n in args.shards:
            wall, span, calls = run_shards(n, props, args.trials, tmp)
            print(f"{n:>3} {calls:>7} {wall:>7.1f} {calls / wall:>15.0f} {span:>7.1f} "
                  f"{calls / span:>15.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
