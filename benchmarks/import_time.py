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
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    n = ap.parse_args().runs
    base = wall(BASE, n)
    full = wall(BASE + "; import inspect_stance._registry", n)
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
    print(f"inspect alone           {base:.3f} s (median of {n})")
    print(f"inspect + entry point   {full:.3f} s")
    print(f"entry point adds        {full - base:.3f} s (target < 0.2 s)")
    print(f"heavy libraries loaded  {probe or 'none'}")


if __name__ == "__main__":
    main()
