"""``inspect-stance shard TASK --shards N --model M [-T k=v] [--model-role r=M] [--format F]``:
write the job definition of one study in N shards (:mod:`inspect_stance.shards.jobs`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.shards.jobs import FORMATS, PACKAGE, make_job, render, sharded_tasks


def register(sub: Any) -> None:
    """Add the ``shard`` subcommand."""

    p = sub.add_parser(
        "shard",
        help="write the eval-set / Hawk job definition of one study split into N shards",
        description="Write the definition of a study split into N shards (-T shard=K/N): "
        "'commands' (one inspect eval per shard, to run as separate processes), 'eval-set' (a "
        "Python file calling inspect_ai.eval_set; also Inspect Steward's input) or 'hawk' (a "
        "Hawk eval-set config with the model roles). inspect-stance report LOG_DIR pools the "
        "shards' logs.",
    )
    p.add_argument("task", metavar="TASK", help=f"one of {', '.join(sharded_tasks())}")
    p.add_argument("--shards", type=int, required=True, metavar="N", help="number of shards")
    p.add_argument("--model", required=True, help="the model under test, e.g. openai/gpt-4o")
    p.add_argument("-T", dest="task_args", action="append", default=[], metavar="NAME=VALUE",
                   help="a task argument, as inspect eval -T takes it")  # fmt: skip
    p.add_argument("--model-role", dest="roles", action="append", default=[],
                   metavar="ROLE=MODEL[,MODEL]", help="a model role, as inspect eval takes it")  # fmt: skip
    p.add_argument("--format", choices=FORMATS, default="commands", help="definition to write")
    p.add_argument("--log-dir", default="logs/study", help="the shards' log folder")
    p.add_argument("--package", default=PACKAGE,
                   help="hawk: the pip specifier of this package (a wheel path or git URL)")  # fmt: skip
    p.add_argument("--out", type=Path, metavar="FILE", help="write to FILE (default: stdout)")
    p.set_defaults(func=run)


def _roles(values: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for value in values:
        role, sep, models = value.partition("=")
        names = [m.strip() for m in models.split(",") if m.strip()]
        if not sep or not role.strip() or not names:
            raise InputError(
                f"--model-role {value!r}: give ROLE=MODEL[,MODEL] (e.g. judges=a/b,c/d)"
            )
        out[role.strip()] = names
    return out


def run(args: argparse.Namespace) -> int:
    """Check the arguments (one-line errors), then write the definition."""
    from inspect_stance.inspect_adapter import parse_task_args

    bad = [t for t in args.task_args if "=" not in t]
    if bad:
        raise InputError(f"-T {bad[0]!r}: give NAME=VALUE (e.g. -T trials=100)")
    if args.out is not None:
        from inspect_stance.paths import check_out_file

        check_out_file(args.out, "--out")  # a folder, a missing or unwritable folder: refused
    job = make_job(args.task, args.shards, args.model, parse_task_args(list(args.task_args)),
                   _roles(args.roles), args.log_dir, args.package)  # fmt: skip
    text = render(job, args.format)
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as ex:
            raise InputError(f"--out {args.out}: cannot be written ({ex.strerror}); give a "
                             "writable file") from None  # fmt: skip
        print(f"wrote {args.out} ({job.n} shards of {job.task})")
    return 0
