"""The job definition of one study split into N shards (``inspect-stance shard``).

Three forms, each for one of the package's tasks that take ``-T shard=K/N``, its other task
arguments, the model and the model roles:

- :func:`eval_commands`: one ``inspect eval`` command line per shard (run them as separate
  processes or jobs: each shard has its own process, so the study passes one process's CPU
  ceiling);
- :func:`eval_set_script`: a Python file calling ``inspect_ai.eval_set`` on the N shard tasks
  (one process; ``eval_set`` retries failed shards and skips finished ones; also the input of
  Inspect Steward, which runs each task in its own worker);
- :func:`hawk_config`: a Hawk eval-set config (``hawk eval-set FILE`` on a cluster, ``hawk
  local eval-set FILE`` on one machine), its ``tasks`` the N shard tasks of the package, its
  ``models`` and ``model_roles`` the models.

Every shard of one definition records the same study (:func:`inspect_stance.shards.study_fingerprint`),
so ``inspect-stance report LOG_DIR`` pools them.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from inspect_stance.errors import InputError
from inspect_stance.params import parse_int
from inspect_stance.printable import printable
from inspect_stance.shards import SHARD_KEY
from inspect_stance.study.registry import methods
from inspect_stance.task_options import options_class, task_parameters

JobFormat = Literal["commands", "eval-set", "hawk"]
FORMATS: tuple[str, ...] = ("commands", "eval-set", "hawk")
#: the pip specifier of this package in a Hawk config (a wheel path or git URL works too)
PACKAGE = "inspect-stance"
#: most shards of one job (each shard is a process or task; more is a typo, not a study)
MAX_SHARDS = 1_000


def sharded_tasks() -> tuple[str, ...]:
    """The tasks that take ``-T shard=K/N``: every registered method's
    :attr:`~inspect_stance.study.protocol.Method.shard_tasks`, in the methods' order."""
    return tuple(t for m in methods() for t in m.shard_tasks)


@dataclass(frozen=True)
class ShardJob:
    """A study split into ``n`` shards: the task, its arguments, the model, the roles (role ->
    one or more models) and the log folder."""

    task: str
    n: int
    model: str
    task_args: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, list[str]] = field(default_factory=dict)
    log_dir: str = "logs/study"
    package: str = PACKAGE

    def shard_args(self, k: int) -> dict[str, Any]:
        """The task arguments of shard ``k`` (1-based)."""
        return {**self.task_args, SHARD_KEY: f"{k}/{self.n}"}


def make_job(
    task: str,
    n: int,
    model: str,
    task_args: Mapping[str, Any] | None = None,
    roles: Mapping[str, Sequence[str]] | None = None,
    log_dir: str = "logs/study",
    package: str = PACKAGE,
) -> ShardJob:
    """A checked :class:`ShardJob`: a task of :func:`sharded_tasks` (``inspect_stance/`` prefix
    allowed), ``n >= 1``, no ``shard`` among the task arguments (the job sets it), every task
    argument one the task takes; one-line ``InputError`` otherwise."""
    name = task.rsplit("/", 1)[-1]
    sharded = sharded_tasks()
    if name not in sharded:
        raise InputError(f"task {task!r} does not take -T shard; use one of {', '.join(sharded)}")
    if n < 1:
        raise InputError(f"--shards {n}: give the number of shards, 1 or more (e.g. --shards 4)")
    if n > MAX_SHARDS:
        raise InputError(f"--shards {n:,}: more than {MAX_SHARDS:,}; give at most {MAX_SHARDS:,} "
                         "(a task has fewer items than that per shard)")  # fmt: skip
    args = {str(k): _plain(v) for k, v in (task_args or {}).items()}
    for what, text in [("--model", model), ("--log-dir", log_dir), ("--package", package),
                       *((f"-T {k}", _t_value(v)) for k, v in args.items()),
                       *((f"--model-role {r}", ",".join(m)) for r, m in (roles or {}).items())]:  # fmt: skip
        if not text.isprintable():
            raise InputError(f"{what}: {printable(text)!s} holds a control character (a line "
                             "break would split a command); remove it")  # fmt: skip
    if SHARD_KEY in args:
        raise InputError("-T shard is set by the job for each shard; leave it out")
    known = task_parameters(name)
    unknown = sorted(set(args) - set(known))
    if unknown:
        raise InputError(
            f"-T {unknown[0]}: {name} has no such option; see inspect-stance params {name}"
        )
    _check_sizes(args)
    _check_options(name, args)
    if not model.strip():
        raise InputError(
            "--model is empty; give the model under test, e.g. --model openai/gpt-4o-mini"
        )
    return ShardJob(
        name, n, model, args, {r: list(m) for r, m in (roles or {}).items()}, log_dir, package
    )


def _check_options(task: str, args: Mapping[str, Any]) -> None:
    """The task's own option check (its options class's ``parse``, as ``inspect eval`` runs it:
    a limit beyond the items its filters leave, an unknown topic), so a job the task would
    refuse is refused before it is written."""
    cls = options_class(task)
    if cls is not None:
        cls.parse(**args)


def _check_sizes(args: Mapping[str, Any]) -> None:
    """Each size among ``args`` at most its bound (:data:`inspect_stance.study_file.bounds.MAX_SIZES`,
    the same bounds as a study file's), so a job of a huge size is refused before it is written."""
    from inspect_stance.study_file.bounds import DATA_FILE_OF, MAX_SIZES

    for key, value in args.items():
        n = parse_int(value) if key in MAX_SIZES else None
        if n is None or (DATA_FILE_OF.get(key) and args.get(DATA_FILE_OF[key])):
            continue
        most, what = MAX_SIZES[key]
        if n > most:
            raise InputError(f"-T {key}={n:,}: more than {most:,} ({what}); give at most {most:,}")


def _plain(value: Any) -> Any:
    """A task argument as a value every form writes and reads back: strings, numbers, booleans,
    ``None``, and lists/dicts of them; anything else (a date YAML read from ``-T x=2024-01-01``)
    as its text (``2024-01-01``), which is what ``inspect eval -T`` would pass on."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    iso = getattr(value, "isoformat", None)
    return str(iso()) if callable(iso) else str(value)


def _t_value(value: Any) -> str:
    """A ``-T`` value as Inspect's command line parses it back (YAML scalars, lists joined)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_t_value(v) for v in value)
    return str(value)


def eval_commands(job: ShardJob) -> list[str]:
    """One ``inspect eval`` command line per shard, quoted for a POSIX shell."""
    lines = []
    for k in range(1, job.n + 1):
        argv = ["inspect", "eval", f"inspect_stance/{job.task}", "--model", job.model]
        for key, value in job.shard_args(k).items():
            argv += ["-T", f"{key}={_t_value(value)}"]
        for role, models in job.roles.items():
            argv += ["--model-role", f"{role}={','.join(models)}"]
        argv += ["--log-dir", job.log_dir]
        lines.append(shlex.join(argv))
    return lines


def eval_set_script(job: ShardJob) -> str:
    """A Python file running the N shard tasks with ``inspect_ai.eval_set``."""
    roles = {r: (m[0] if len(m) == 1 else m) for r, m in job.roles.items()}
    return "\n".join(
        [
            f'"""{job.task} in {job.n} shards (written by inspect-stance shard)."""',
            "",
            "from inspect_ai import eval_set",
            "",
            f"from inspect_stance.tasks.{job.task} import {job.task}",
            "",
            f"N = {job.n}",
            f"ARGS = {job.task_args!r}",
            "",
            'if __name__ == "__main__":',
            "    eval_set(",
            f'        [{job.task}(**ARGS, shard=f"{{k}}/{{N}}") for k in range(1, N + 1)],',
            f"        model={job.model!r},",
            f"        model_roles={roles!r},",
            f"        log_dir={job.log_dir!r},",
            "        max_tasks=N,",
            "    )",
            "",
        ]
    )


def hawk_config(job: ShardJob, name: str | None = None) -> dict[str, Any]:
    """A Hawk eval-set config (a dict; :func:`to_yaml` writes it): the package's N shard tasks,
    the model (``package: inspect-ai``, its provider prefix in the name) and each role's
    models."""

    many = sorted(r for r, m in job.roles.items() if len(m) > 1)
    if many:
        raise InputError(
            f"--model-role {many[0]}: Hawk binds one model per role (hawk 3.7.2's model_roles); "
            "give the role one model, or use --format eval-set or commands for several"
        )

    def models(names: Sequence[str]) -> dict[str, Any]:
        return {"package": "inspect-ai", "items": [{"name": m} for m in names]}

    config: dict[str, Any] = {
        "name": name or f"{job.task.replace('_', '-')}-{job.n}-shards",
        "tasks": [
            {
                "package": job.package,
                "name": "inspect_stance",
                "items": [
                    {"name": job.task, "args": job.shard_args(k)} for k in range(1, job.n + 1)
                ],
            }
        ],
        "models": [models([job.model])],
    }
    if job.roles:
        config["model_roles"] = {role: models(m) for role, m in job.roles.items()}
    return config


def to_yaml(config: Mapping[str, Any]) -> str:
    """``config`` as YAML (block style, keys in the order given)."""
    import importlib

    yaml: Any = importlib.import_module("yaml")  # PyYAML, an Inspect dependency (untyped)
    return yaml.safe_dump(dict(config), sort_keys=False, default_flow_style=False)


def render(job: ShardJob, form: JobFormat) -> str:
    """The job definition in ``form`` (:data:`FORMATS`) as text."""
    if form == "commands":
        return "\n".join(eval_commands(job)) + "\n"
    if form == "eval-set":
        return eval_set_script(job)
    return to_yaml(hawk_config(job))
