"""``inspect-stance study FILE``: check a study file, print its planned calls (and cost), ask
above ``confirm_above`` calls, run it through Inspect's ``eval_set``; ``--example FILE`` writes
the offline example (:mod:`inspect_stance.study_file`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.printable import printable


def register(sub: Any) -> None:
    """Add the ``study`` subcommand."""
    p = sub.add_parser(
        "study",
        help="run a study file (targets, role models, methods, design) through inspect eval-set",
        description="Check FILE, print the planned calls (and cost with prices), ask before "
        "running more than confirm_above calls, then run every target on every method with "
        "Inspect's eval_set into --log-dir (re-running resumes). --example FILE writes an "
        "offline example. See docs/cards.md.",
    )
    p.add_argument("file", type=Path, metavar="FILE", help="the study file (YAML)")
    p.add_argument("--example", action="store_true", help="write the offline example to FILE")
    p.add_argument("--log-dir", type=Path, metavar="DIR",
                   help="the study's log folder (default logs/study-<name>)")  # fmt: skip
    p.add_argument("--yes", action="store_true", help="run without asking, whatever the calls")
    p.add_argument("--plan", action="store_true", help="print the plan and stop")
    p.add_argument("--flow", type=Path, metavar="OUT",
                   help="print the plan, write the study as an Inspect Flow spec (Python) to OUT "
                   "and stop; run it with flow run OUT (docs/flow.md)")  # fmt: skip
    p.add_argument("--display", choices=("full", "rich", "plain", "log", "none"),
                   help="Inspect's progress display")  # fmt: skip
    p.set_defaults(func=run)


def plan_lines(spec: Any, runs: list[Any], notes: list[str]) -> list[str]:
    """The printed plan: one line per run, the totals, the cost when prices are given."""
    from inspect_stance.study_file.calls import cost

    lines = [f"study {spec.name}: {len(runs)} runs"]
    lines += [f"  design: {n}" for n in notes]
    for r in runs:
        per = ", ".join(f"{m} {n:,}" for m, n in r.calls.items())
        lines.append(f"  {r.target} / {r.method}: {r.items:,} items, {r.total:,} calls ({per})")
    total = sum(r.total for r in runs)
    dollars = cost(runs, spec.prices)
    lines.append(
        f"planned calls: {total:,}" + ("" if dollars is None else f"; cost ${dollars:,.2f}")
    )
    return [printable(line) for line in lines]


def _confirm(total: int, limit: int, yes: bool) -> bool:
    if yes or total <= limit:
        return True
    if not sys.stdin or not sys.stdin.isatty():
        raise InputError(f"study: {total:,} calls planned, above confirm_above {limit:,}, and "
                         "no terminal to ask; pass --yes to run them")  # fmt: skip
    answer = input(f"Run {total:,} calls? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def _write_flow(args: argparse.Namespace, spec: Any, task_args: dict[str, Any]) -> int:
    """Write the study's Flow spec to ``args.flow``; its log folder (``--log-dir``, default
    ``logs/study-<name>``) written relative to the spec's folder, as Flow resolves it."""
    import os

    from inspect_stance.study_file.flow import flow_python, write_flow

    log_dir = args.log_dir or Path("logs") / f"study-{spec.name}"
    in_spec = Path(os.path.relpath(log_dir.resolve(), args.flow.resolve().parent)).as_posix()
    text = flow_python(spec, task_args, in_spec, str(args.file), shown_log_dir=str(log_dir))
    write_flow(args.flow, text)
    print(printable(f"wrote {args.flow}: {len(spec.targets) * len(spec.methods)} Flow tasks, "
                    f"logs to {log_dir}"))  # fmt: skip
    print(printable(f"run it: flow run {args.flow}; then inspect-stance card {log_dir} "
                    f"--out {log_dir}/cards"))  # fmt: skip
    from inspect_stance.study_file.calls import shared_run

    for method in spec.methods:  # Flow runs the tasks side by side: no run before the others
        found = shared_run(spec, method, task_args[method])
        if found is not None:
            shared = found[0]
            print(printable(f"note: under Flow each target's {method} run makes its own "
                            f"{shared.task} (the plan above counts one); run {shared.task} "
                            f"once and set methods.{method}.args.{shared.arg} to its log to "
                            "share it"))  # fmt: skip
    return 0


def run(args: argparse.Namespace) -> int:
    """Write the example, or check, plan, confirm and run the study."""
    if args.example:
        from inspect_stance.study_file.example import write_example

        for line in write_example(args.file):
            print(line)
        print(f"run it: inspect-stance study {args.file} --log-dir logs/study-example")
        return 0
    from inspect_stance.study_file.bounds import check_total
    from inspect_stance.study_file.calls import plan_calls
    from inspect_stance.study_file.checks import check_log_dir, check_study
    from inspect_stance.study_file.design import sizes
    from inspect_stance.study_file.spec import read_study

    spec = read_study(args.file)
    sizing = sizes(spec)
    check_study(spec, sizing.args)
    runs = plan_calls(spec, sizing.args)
    check_total(sum(r.total for r in runs), len(runs))
    log_dir = args.log_dir or Path("logs") / f"study-{spec.name}"
    if not args.plan:
        check_log_dir(log_dir, spec.name)  # before the plan: an output checked before any work
    for line in plan_lines(spec, runs, sizing.notes):
        print(line)
    if args.flow is not None:
        return _write_flow(args, spec, sizing.args)
    if args.plan:
        return 0
    if not _confirm(sum(r.total for r in runs), spec.confirm_above, args.yes):
        print("study: not run")
        return 0
    from inspect_stance.study_file.runner import run_study

    outcomes = run_study(spec, sizing.args, log_dir, args.display)
    unfinished = [o for o in outcomes if not o.success]
    for o in outcomes:
        print(printable(f"{o.target} / {o.method}: {'done' if o.success else 'NOT finished'} "
                        f"-> {o.folder}"))  # fmt: skip
    print(f"cards: inspect-stance card {log_dir} --out {log_dir}/cards")
    if unfinished:
        print(f"study: {len(unfinished)} run(s) not finished; run the same command again to "
              "resume them", file=sys.stderr)  # fmt: skip
        return 2
    return 0
