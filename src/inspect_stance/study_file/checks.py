"""Checks of a study that read the tasks themselves (their parameters and options), Inspect's
model providers and the disk, run before any model call: every task argument is a parameter of
its task and passes the task's own checks (so a bad value or a missing file of a later method is
refused before the first run), every size within its bound (:mod:`.bounds`), each task's own
check of its arguments (:attr:`~inspect_stance.study.protocol.StudyTask.check`: a local model
exists), no two targets share a log folder, every model's provider is known to Inspect, and the
log folder is a folder this study may write (:func:`check_log_dir`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_stance.card.names import file_stem
from inspect_stance.errors import InputError
from inspect_stance.paths import check_out_dir
from inspect_stance.printable import printable
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.bounds import check_sizes
from inspect_stance.study_file.spec import StudySpec
from inspect_stance.task_options import options_class, task_parameters

#: most log files whose headers :func:`check_log_dir` reads
MAX_LOGS_CHECKED = 200


def checked_options(method: str, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` through ``method``'s declared options (:mod:`inspect_stance.task_options`):
    each option's check and the checks across options (files read); the checked values of the
    options given. A one-line ``InputError`` naming ``methods.<method>.args`` otherwise."""
    cls = options_class(method)
    if cls is None:
        return dict(values)
    where = f"study file: methods.{method}.args"
    try:
        opts = cls.parse(**values)
    except InputError as ex:
        raise InputError(f"{where}: {ex}") from None
    except (TypeError, ValueError, OverflowError, OSError, KeyError) as ex:
        first = str(ex).splitlines()[0] if str(ex) else ""
        raise InputError(f"{where}: {type(ex).__name__} {first[:160]}; fix the value (see "
                         f"inspect-stance params {method})") from None  # fmt: skip
    return {k: getattr(opts, k, v) for k, v in values.items()}


def check_study(spec: StudySpec, args: dict[str, dict[str, Any]]) -> None:
    """Raise a one-line InputError for the first problem (module docstring)."""
    for method, values in args.items():
        known = task_parameters(method)
        for key in values:
            if key not in known:
                raise InputError(f"study file: methods.{method}.args.{key}: no such parameter "
                                 f"of {method}; use one of {', '.join(known)}")  # fmt: skip
        if "shard" in values:
            raise InputError(f"study file: methods.{method}.args.shard: a study runs whole; drop "
                             "shard (inspect-stance shard writes a sharded job)")  # fmt: skip
        check_sizes(method, checked_options(method, values))
    tasks = study_tasks()
    for method, values in args.items():
        check = tasks[method].check
        if check is not None:
            check(values)
    stems: dict[str, str] = {}
    for target in spec.targets:
        other = stems.setdefault(file_stem(target).lower(), target)
        if other != target:
            raise InputError(f"study file: targets.{target}: same log folder as {other!r}; "
                             "rename one")  # fmt: skip
    check_providers(spec)


def check_providers(spec: StudySpec) -> None:
    """Every target and role model's provider (``provider/`` of ``provider/name``) is one Inspect
    knows, so a misspelt provider stops the study before its first run."""
    from inspect_stance.inspect_adapter import model_api_names  # Inspect's registry: on call

    known = model_api_names()
    models = [(f"targets.{t}.{m}" if len({s.model for s in ms.values()}) > 1 else f"targets.{t}",
               one.model) for t, ms in spec.targets.items() for m, one in ms.items()]  # fmt: skip
    for method in spec.methods:
        models += [(f"roles.{r}", m.model) for r, ms in spec.roles_for(method).items() for m in ms]
    for key, model in models:
        provider = model.split("/", 1)[0]
        if provider not in known:
            raise InputError(f"study file: {key}: {model!r}: Inspect has no provider "
                             f"{provider!r}; use one of {', '.join(sorted(known)[:12])}, ... "
                             "(or install the provider's package)")  # fmt: skip


def check_log_dir(log_dir: Path, study: str) -> None:
    """``log_dir`` a folder the study may write: not a file, no file among its parents, the
    nearest existing folder writable, and no log in it of another study (or of a run outside
    any study): a one-line ``InputError`` naming it otherwise, before any run."""

    check_out_dir(log_dir, "--log-dir")
    if not log_dir.is_dir():
        return
    from inspect_ai.log import read_eval_log

    logs = sorted(p for p in log_dir.rglob("*") if p.suffix == ".eval" and p.is_file())
    for path in logs[:MAX_LOGS_CHECKED]:
        try:
            meta = read_eval_log(str(path), header_only=True).eval.metadata or {}
        except Exception as ex:  # noqa: BLE001 - any unreadable file is one input error
            raise InputError(f"--log-dir {printable(str(log_dir))}: {printable(str(path))} is "
                             f"not a readable Inspect log ({type(ex).__name__}); remove it or "
                             "give another --log-dir") from None  # fmt: skip
        other = meta.get("stance_study")
        if other != study:
            whose = f"study {other!r}" if other else "a run outside any study"
            raise InputError(f"--log-dir {printable(str(log_dir))}: holds a log of {whose} "
                             f"({printable(path.name)}); give this study its own --log-dir")  # fmt: skip
