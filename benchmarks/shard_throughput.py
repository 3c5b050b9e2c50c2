"""Calls per second of one stance-drift study run as 1, 2 and 4 shard processes.

Each shard is its own ``inspect eval tasks/stance_drift.py -T shard=K/N`` process, all N
started at once, on two routes: ``sim``, the simulated respondent (zero latency: all time is
Inspect's and the package's), and ``server``, the local OpenAI-compatible test server
(``tests/wire/openai_server.py``, its own process, ``--latency`` per call) through Inspect's
``openai-api/`` provider over HTTP. Per N: the rate over the whole wall time (process start-up
included), over the span the evals ran (earliest ``stats.started_at`` to latest
``completed_at`` of the shards' logs), and the harness CPU per call (user + system time of the
shard processes / calls, less each process's start-up: the CPU of a 10-call run), whose
inverse is one process's ceiling in calls/s. With 2 cores,
N > 2 processes share the cores, so the rate stops growing. Usage::

    python benchmarks/shard_throughput.py [--propositions 20] [--trials 10] [--shards 1 2 4]
        [--routes sim server] [--latency 0.05] [--connections 50]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_shards(
    n: int, props: Path, trials: int, tmp: Path, route: str, args: argparse.Namespace
) -> tuple[float, float, int, float]:
    """(wall seconds, eval-span seconds, model calls, harness CPU seconds) of a study run as
    ``n`` processes on ``route``."""
    log_dir = tmp / f"logs-{route}-{n}"
    tmp.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "INSPECT_CACHE_DIR": str(tmp / "cache"), "OMP_NUM_THREADS": "1",
           "LOCAL_BASE_URL": f"http://127.0.0.1:{args.port}/v1", "LOCAL_API_KEY": "benchmark"}  # fmt: skip
    model = "stance_sim/respondent" if route == "sim" else "openai-api/local/bench"
    base = [sys.executable, "-m", "inspect_ai", "eval", "tasks/stance_drift.py"]
    base += ["--model", model, "--log-dir", str(log_dir), "--display", "none"]
    base += ["--max-connections", str(args.connections)]
    base += ["-T", f"propositions={props}", "-T", f"trials={trials}", "-T", "cache=false"]
    cpu = _children_cpu()
    start = time.perf_counter()
    procs = [
        subprocess.Popen([*base, *(["-T", f"shard={k}/{n}"] if n > 1 else [])], env=env, cwd=ROOT)
        for k in range(1, n + 1)
    ]
    if any(p.wait() != 0 for p in procs):
        raise SystemExit(f"a shard process of N={n} failed")
    wall = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    logs = [read_eval_log(info.name) for info in list_eval_logs(str(log_dir))]
    begun = min(datetime.fromisoformat(x.stats.started_at) for x in logs)
    ended = max(datetime.fromisoformat(x.stats.completed_at) for x in logs)
    calls = sum(
        len((s.store or {}).get("trials") or []) * int(x.eval.metadata["model_calls_per_trial"])
        for x in logs
        for s in x.samples or []
    )
    return wall, (ended - begun).total_seconds(), calls, cpu


def _start_server(tmp: Path, latency: float) -> tuple[subprocess.Popen[str], int]:
    """The local test server in its own process; its port."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "wire" / "openai_server.py"), "--tokenizer-cache",
         str(tmp / "tokenizer"), "--latency", str(latency)],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"),
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"the test server did not start: {line!r}")
    return proc, int(line.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--propositions", type=int, default=20)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--routes", nargs="+", choices=("sim", "server"), default=["sim", "server"])
    parser.add_argument("--latency", type=float, default=0.05, help="server: seconds per call")
    parser.add_argument("--connections", type=int, default=50, help="--max-connections")
    args = parser.parse_args()
    args.port = 0
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        props = tmp / "props.txt"
        props.write_text(
            "\n".join(f"Benchmark proposition number {k}" for k in range(args.propositions))
        )
        print(f"cores: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}; study: "
              f"{args.propositions} propositions x 5 stances x {args.trials} trials, 2 calls "
              f"per trial; --max-connections {args.connections}; server latency {args.latency} s")  # fmt: skip
        print(f"{'route':>6} {'N':>3} {'calls':>7} {'wall s':>7} {'calls/s (wall)':>15} "
              f"{'eval s':>7} {'calls/s (eval)':>15} {'CPU ms/call':>12} {'ceiling/proc':>13}")  # fmt: skip
        for route in args.routes:
            server = None
            if route == "server":
                server, args.port = _start_server(tmp, args.latency)
            try:
                one = tmp / "one.txt"
                one.write_text("Benchmark start-up proposition\n")
                *_, base_calls, base_cpu = run_shards(1, one, 1, tmp / "base", route, args)
                for n in args.shards:
                    wall, span, calls, cpu = run_shards(n, props, args.trials, tmp, route, args)
                    # each process's start-up CPU (a 1-proposition, 1-trial run) left out
                    ms = 1000 * (cpu - n * base_cpu) / (calls - n * base_calls)
                    print(f"{route:>6} {n:>3} {calls:>7} {wall:>7.1f} {calls / wall:>15.0f} "
                          f"{span:>7.1f} {calls / span:>15.0f} {ms:>12.1f} {1000 / ms:>13.0f}",
                          flush=True)  # fmt: skip
            finally:
                if server is not None:
                    server.kill()
                    server.wait()


if __name__ == "__main__":
    main()
