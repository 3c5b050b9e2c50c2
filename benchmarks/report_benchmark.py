"""Time the full stance-drift report on a paper-size run (112 propositions x 100 trials).

Full report = load the run, both analyses (probabilities and argmax), confidence bounds, pass
rates, multi-hop figures, terminal tables, every CSV, the markdown report and the aggregate
heatmaps (``write_outputs`` without per-proposition heatmaps). Each part runs in a fresh child
process so its wall time and peak resident memory (``ru_maxrss``, including the interpreter and
imports) are its own.

Parts:
- ``npz``: the reference ``gpt_4o_mini.npz`` (or ``--npz PATH``);
- ``log``: an Inspect ``stance_drift`` log of the same size. Give one with ``--log PATH``, or let
  the script make it once with the simulated respondent (``stance_sim/respondent``, logprobs on,
  56,000 trials; several minutes) into ``--log-dir`` (default ``/tmp/inspect_stance_bench_log``)
  and reuse it on later runs.

Usage: ``OMP_NUM_THREADS=1 python benchmarks/report_benchmark.py [--skip-log]``.
Targets (issue 3): under 10 s for the ``.npz`` and under 60 s for the log, memory under 2 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DEFAULT_NPZ = SHARED / "stance_drift_reference" / "gpt_4o_mini.npz"
N_PROPS, TRIALS = 112, 100


def run_part(path: str) -> dict[str, float]:
    """(child process) Time the full report of one input; returns seconds and peak RSS."""
    t0 = time.perf_counter()
    from inspect_stance.drift.inputs import load_input
    from inspect_stance.drift.report.analysis import build_report
    from inspect_stance.drift.report.render import terminal_summary
    from inspect_stance.drift.report.write import write_outputs

    t_import = time.perf_counter() - t0
    t1 = time.perf_counter()
    run = load_input(path)
    t_load = time.perf_counter() - t1
    report = build_report(run)
    text = terminal_summary([report])
    with tempfile.TemporaryDirectory() as out:
        files = write_outputs([report], out)
    total = time.perf_counter() - t0
    return {
        "seconds_total": total,
        "seconds_imports": t_import,
        "seconds_load": t_load,
        "seconds_compute_and_write": total - t_import - t_load,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "files": len(files),
        "summary_chars": len(text),
        "shape": list(run.probs.shape),
    }


def find_log(log_dir: Path) -> Path | None:
    """The newest complete 112 x 100 stance_drift log in ``log_dir``, if any."""
    from inspect_ai.log import read_eval_log

    for path in sorted(log_dir.glob("*.eval"), reverse=True):
        header = read_eval_log(str(path), header_only=True)
        if header.status == "success" and header.eval.task_args.get("trials") == TRIALS:
            return path
    return None


def make_log(log_dir: Path) -> Path:
    """(child process) Run stance_drift on the simulated respondent at 112 x 100 trials."""
    import numpy as np
    from inspect_ai import eval as inspect_eval
    from inspect_stance.tasks.stance_drift import stance_drift

    log_dir.mkdir(parents=True, exist_ok=True)
    if DEFAULT_NPZ.is_file():  # ground truth: the reference run's mean matrix
        with np.load(DEFAULT_NPZ) as d:
            truth = np.nan_to_num(d["probs"]).mean(axis=(0, 1))
    else:
        truth = np.full((5, 5), 0.075) + np.eye(5) * 0.625
    truth = truth / truth.sum(axis=1, keepdims=True)
    (log_dir / "transition.json").write_text(json.dumps(truth.tolist()))
    props = log_dir / "propositions.txt"
    props.write_text(
        "".join(f"Benchmark proposition {k} should be adopted\n" for k in range(N_PROPS))
    )
    t0 = time.perf_counter()
    logs = inspect_eval(
        stance_drift(propositions=str(props), trials=TRIALS, cache=False),
        model="stance_sim/respondent",
        model_args={"transition": str(log_dir / "transition.json"), "seed": 0},
        log_dir=str(log_dir),
        log_realtime=False,
        display="none",
    )
    print(f"made the log in {time.perf_counter() - t0:.1f} s", flush=True)
    return Path(logs[0].location)


def child(path: str) -> dict[str, float]:
    """Run :func:`run_part` in a fresh interpreter and parse its JSON line."""
    proc = subprocess.run(
        [sys.executable, __file__, "--child", path], capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--npz", default=str(DEFAULT_NPZ))
    parser.add_argument("--log", help="an existing 112 x 100 stance_drift log")
    parser.add_argument("--log-dir", default="/tmp/inspect_stance_bench_log")
    parser.add_argument("--skip-log", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--make-log", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_part(args.child)))
        return 0
    if args.make_log:
        print(make_log(Path(args.make_log)))
        return 0
    if not Path(args.npz).is_file():
        print(f"no input at {args.npz}; pass --npz PATH (a (112, 100, 5, 5) probs array)")
        return 2
    parts = {"npz": args.npz}
    if not args.skip_log:
        log = args.log or find_log(Path(args.log_dir))
        if log is None:  # made in a child so that its memory does not count against the parts
            print(f"making a 112 x 100 log in {args.log_dir} (several minutes) ...", flush=True)
            proc = subprocess.run(
                [sys.executable, __file__, "--make-log", args.log_dir],
                capture_output=True,
                text=True,
                check=True,
            )
            print(proc.stdout.strip().splitlines()[-2], flush=True)
            log = proc.stdout.strip().splitlines()[-1]
        parts["log"] = str(log)
    for name, path in parts.items():
        res = child(path)
        print(
            f"{name:>4}: {res['seconds_total']:.2f} s total (imports {res['seconds_imports']:.2f} s, "
            f"load {res['seconds_load']:.2f} s, compute + write {res['seconds_compute_and_write']:.2f}"
            f" s), peak RSS {res['peak_rss_mb']:.0f} MB, {res['files']} files, probs "
            f"{tuple(res['shape'])} <- {path}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
