"""Harness cost of the stance-drift task's defaults against a bare Inspect task (CPU, paired).

Both tasks run in the same process on the simulated respondent (zero latency, so all time is
harness time) with Inspect's realtime log on, the same samples (one per proposition x initial
stance, its trials inside the sample) and the same model calls per trial: one generation call
with the verbatim generation prompt and one extraction call with the verbatim extraction prompt,
logprobs requested at temperature 1.

- **bare**: a plain Inspect task: a solver that makes those calls and keeps nothing, a scorer
  that returns 1, no cache;
- **stance_drift**: the task with its defaults (trial record on, logprob extraction, per-trial
  store records, the drift scorer and metrics). ``--also-no-cache`` adds ``-T cache=false``.

Runs alternate for ``--rounds`` rounds, the order reversed every other round (bare first, then
last, ...), and report each pair's CPU seconds (``time.process_time``: all threads of this
process) and ratio, the median ratio and the ratio of the totals. The target of issue 9 is a
ratio of at most 1.2. Usage::

    python benchmarks/harness_cost.py [--propositions 4] [--trials 100] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from inspect_ai import Epochs, Task, task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_stance.tasks.stance_drift import stance_drift

from inspect_stance.drift.dataset import build_samples
from inspect_stance.drift.prompts import extraction_prompt, generation_prompt
from inspect_stance.drift.propositions import read_propositions_file


@solver
def bare_trials(trials: int) -> Any:
    """The same calls as a stance-drift trial, nothing kept."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:  # noqa: ARG001
        model = get_model()
        prop = state.metadata["proposition"]
        stance = int(state.metadata["initial_stance"])
        config = GenerateConfig(logprobs=True, top_logprobs=5, temperature=1.0)

        async def trial() -> None:
            out = await model.generate(generation_prompt(prop, stance))
            await model.generate(extraction_prompt(prop, out.completion), config=config)

        async with anyio.create_task_group() as tg:
            for _ in range(trials):
                tg.start_soon(trial)
        return state

    return solve


@scorer(metrics=[mean()])
def one() -> Any:
    """A constant score."""

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        return Score(value=1.0)

    return score


def _bare(propositions: str, trials: int) -> Task:
    """A bare Inspect task making the stance-drift calls."""
    samples = build_samples(read_propositions_file(propositions), "default")
    return Task(
        dataset=MemoryDataset(samples), solver=bare_trials(trials), scorer=one(), epochs=Epochs(1)
    )


# registered without decorator syntax, so `inspect list tasks` (which reads @task decorators)
# in a checkout lists the package's tasks only, not this benchmark's
bare = task(name="bare")(_bare)


def _run(make: Any, log_dir: Path, model_args: dict[str, Any]) -> float:
    start = time.process_time()
    [log] = inspect_eval(
        make(),
        model="stance_sim/respondent",
        model_args=model_args,
        log_dir=str(log_dir),
        display="none",
        log_realtime=True,
        max_connections=1000,
    )
    elapsed = time.process_time() - start
    assert log.status == "success", log.error
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--propositions", type=int, default=4)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--also-no-cache", action="store_true")
    args = parser.parse_args()
    n_trials = args.propositions * 5 * args.trials

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["INSPECT_CACHE_DIR"] = str(root / "cache")  # a cold, private cache
        props = root / "props.txt"
        props.write_text(
            "\n".join(f"Benchmark proposition number {k}" for k in range(args.propositions))
        )
        matrix = root / "T.json"
        matrix.write_text(
            json.dumps([[0.8 if i == j else 0.05 for j in range(5)] for i in range(5)])
        )
        variants: dict[str, Any] = {
            "bare": lambda: bare(str(props), args.trials),
            # a fresh seed per round: the trial record starts cold, as on a first run
            "stance_drift": None,
        }
        if args.also_no_cache:
            variants["stance_drift_no_cache"] = None
        times: dict[str, list[float]] = {k: [] for k in variants}
        # warm-up of both tasks (imports, registry, first-call paths) outside the measurement
        _run(variants["bare"], root / "warm", {"transition": str(matrix)})
        _run(
            lambda: stance_drift(trials=10, propositions=str(props), seed=10_000),
            root / "warm",
            {"transition": str(matrix)},
        )
        for r in range(args.rounds):
            # alternate the order (ABBA...), so that drift within the process (memory, caches)
            # does not favour whichever task runs first
            order = list(variants) if r % 2 == 0 else list(reversed(list(variants)))
            for name in order:
                if name == "bare":
                    make = variants["bare"]
                else:
                    cache = name == "stance_drift"

                    def make(cache: bool = cache, seed: int = r) -> Task:
                        return stance_drift(
                            trials=args.trials, propositions=str(props), seed=seed, cache=cache
                        )

                t = _run(make, root / f"{name}-{r}", {"transition": str(matrix)})
                times[name].append(t)
                print(f"round {r} {name}: cpu_s={t:.2f} ms_per_trial={1000 * t / n_trials:.2f}")
    print(f"trials per run: {n_trials} ({args.propositions} propositions x 5 x {args.trials})")
    for name in variants:
        if name == "bare":
            continue
        ratios = [a / b for a, b in zip(times[name], times["bare"], strict=True)]
        print(
            f"{name} / bare: paired ratios {', '.join(f'{x:.3f}' for x in ratios)}; "
            f"median {statistics.median(ratios):.3f}; "
            f"totals {sum(times[name]):.2f} / {sum(times['bare']):.2f} s = "
            f"{sum(times[name]) / sum(times['bare']):.3f}"
        )


if __name__ == "__main__":
    main()
