"""What an installed inspect-stance adds to every ``inspect`` process.

Inspect imports each plugin's entry point (``inspect_stance._registry``) at start-up. This
prints the median wall time of a fresh interpreter that imports Inspect's public modules, with
and without the entry point, and the difference (target: < 0.2 s), plus the heavy libraries the
entry point pulls in (there should be none).

    python benchmarks/import_time.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

BASE = (
    "import inspect_ai, inspect_ai.model, inspect_ai.scorer, inspect_ai.solver, inspect_ai.dataset"
)
HEAVY = (
    "pandas",
    "scipy",
    "krippendorff",
    "matplotlib",
    "statsmodels",
    "transformers",
    "torch",
    "datasets",
)


def wall(code: str, runs: int) -> float:
    """Median wall time of a fresh interpreter running ``code``."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def entry_point_cost(runs: int) -> list[float]:
    """Seconds the entry-point import itself takes, timed inside fresh interpreters that have
    already imported Inspect (what Inspect's plugin loading pays); one figure per run."""
    probe = (
        BASE + "; import time; t0 = time.perf_counter(); import inspect_stance._registry; "
        "print(time.perf_counter() - t0)"
    )
    return [
        float(
            subprocess.run(
                [sys.executable, "-c", probe], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    n = ap.parse_args().runs
    costs = entry_point_cost(n)
    base = wall(BASE, n)
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            BASE + "; import sys; before = set(sys.modules); "
            "import inspect_stance._registry; "
            f"print(' '.join(sorted(m for m in {HEAVY!r} if m in sys.modules and m not in before)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"inspect alone (wall)    {base:.3f} s (median of {n} fresh interpreters)")
    print(
        f"entry point import      {statistics.median(costs):.3f} s median, "
        f"{min(costs):.3f}-{max(costs):.3f} s range (target < 0.2 s)"
    )
    print(f"heavy libraries loaded  {probe or 'none'}")


if __name__ == "__main__":
    main()
