"""Run a checked, sized study through Inspect's ``eval_set``: one eval set per run (target x
method) in ``LOG_DIR/<target>/<method>/``, so a re-run of the same study resumes (finished runs
are kept, unfinished ones retried) and every run's log records ``stance_study`` and
``stance_target`` in its eval metadata (what ``inspect-stance card`` groups by)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from inspect_stance.card.names import file_stem
from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.calls import SHARED_TARGET, shared_run
from inspect_stance.study_file.spec import ModelSpec, StudySpec

#: the folder under the log folder of the runs a study makes once (``LOG_DIR/_study/<task>``)
SHARED_FOLDER = "_study"
#: roles that take one model (the others take a list)
SINGLE_ROLES = ("prompter", "arguer", "classifier")
Display = Literal["full", "conversation", "rich", "plain", "log", "none"]


@dataclass(frozen=True)
class RunOutcome:
    """One run's folder, whether Inspect finished it, and its log files."""

    target: str
    method: str
    folder: Path
    success: bool
    logs: list[str]


def run_folder(log_dir: Path, target: str, method: str) -> Path:
    """``LOG_DIR/<target as a file name>/<method>``."""
    return log_dir / file_stem(target) / method


def _model(spec: ModelSpec) -> Any:
    """The Inspect model of ``spec``, built here (not in a solver): the study runner is the
    driver that hands models to ``eval_set``, as a script calling ``eval(model=...)`` would, and
    builds every one before the first run so a bad model argument stops the study early."""
    from inspect_ai.model import get_model

    return get_model(
        spec.model, **spec.args
    )  # inspect-evals-lint: ignore[get_model_location] -- the study runner drives eval_set and builds each target and role model before any run (a bad model arg stops the study first); no task resolves a model here


def _roles(roles: dict[str, list[ModelSpec]]) -> dict[str, Any]:
    return {r: _model(ms[0]) if r in SINGLE_ROLES else [_model(m) for m in ms]
            for r, ms in roles.items()}  # fmt: skip


def run_study(spec: StudySpec, args: dict[str, dict[str, Any]], log_dir: Path,
              display: Display | None = None) -> list[RunOutcome]:  # fmt: skip
    """Run every (target, method) with ``args[method]`` as task arguments (module docstring).

    ``prompt_validation``'s prompter role is the target's model: the method validates the
    prompts that model writes. A task's shared run (PReSS's arguments) runs first, once, in
    ``LOG_DIR/_study/<task>/``, and every target's run reads its log.
    """
    built = build_models(spec)  # every model first: a bad model arg stops before any run
    out: list[RunOutcome] = []
    args = {m: dict(a) for m, a in args.items()}
    for method in spec.methods:  # shared runs first: every target's run reads their logs
        found = shared_run(spec, method, args[method])
        if found is None:
            continue
        shared, model_spec = found
        folder = log_dir / SHARED_FOLDER / shared.task
        given = {k: args[method][k] for k in shared.keys if k in args[method]}
        success, logs = _eval_set(spec, shared.task, folder, _model(model_spec), {}, given,
                                  {"stance_study": spec.name, "stance_shared": True}, display,
                                  SHARED_TARGET)  # fmt: skip
        out.append(RunOutcome(SHARED_TARGET, shared.task, folder, success, logs))
        if not success or not logs:
            return out  # the targets' runs need its log: a re-run resumes it
        args[method][shared.arg] = logs[0]
    for (target, method), (model, roles) in built.items():
        folder = run_folder(log_dir, target, method)
        metadata = {"stance_study": spec.name, "stance_target": target}
        success, locations = _eval_set(spec, method, folder, model, roles, args[method],
                                       metadata, display, target)  # fmt: skip
        out.append(RunOutcome(target, method, folder, success, locations))
    return out


def _eval_set(spec: StudySpec, task: str, folder: Path, model: Any, roles: dict[str, Any],
              task_args: dict[str, Any], metadata: dict[str, Any], display: Display | None,
              target: str) -> tuple[bool, list[str]]:  # fmt: skip
    """One eval set of ``task`` in ``folder``: whether it finished and its log locations
    (Inspect's refusal of the folder a one-line ``InputError``)."""
    from inspect_ai import eval_set

    try:
        success, logs = eval_set(
            f"inspect_stance/{task}",
            log_dir=str(folder),
            model=model,
            model_roles=roles,
            task_args=task_args,
            metadata=metadata,
            display=display,
            max_retries=spec.max_retries,
            timeout=spec.timeout,
            retry_attempts=min(spec.max_retries, 10),
        )
    except Exception as ex:
        if type(ex).__name__ != "PrerequisiteError":  # Inspect's refusal of a log folder
            raise
        first = str(ex).strip().splitlines()[0] if str(ex).strip() else ""
        raise InputError(f"study: {target} / {task}: {printable(first)}; give the study "
                         "its own --log-dir or remove the logs it names") from None  # fmt: skip
    # a resumed set names its logs as file: URIs; the tasks read local paths
    return success, [_local(log.location) for log in logs]


def _local(location: str) -> str:
    """A log location as a local path (``file:///p`` and ``file:/p`` as ``/p``)."""
    if location.startswith("file://"):
        return location[len("file://") :]
    return location.removeprefix("file:")


def build_models(spec: StudySpec) -> dict[tuple[str, str], tuple[Any, dict[str, Any]]]:
    """Per (target, method): the target's Inspect model and its role models, built (and so
    checked by their providers) before any run starts; a provider's refusal (a bad model
    argument, a missing API key) is a one-line ``InputError`` naming the target and method."""
    out: dict[tuple[str, str], tuple[Any, dict[str, Any]]] = {}
    for target, models in spec.targets.items():
        for method in spec.methods:
            roles = spec.roles_for(method)
            bound = study_tasks()[method].target_role  # a role the target itself plays
            if bound:
                roles[bound] = [models[method]]
            try:
                out[(target, method)] = (_model(models[method]), _roles(roles))
            except InputError:
                raise
            except Exception as ex:  # noqa: BLE001 - any provider refusal is one input error
                first = str(ex).strip().splitlines()[0] if str(ex).strip() else ""
                raise InputError(f"study file: targets.{target} / {method}: a model could not "
                                 f"be created ({type(ex).__name__}: {printable(first)[:200]}); "
                                 "fix the model, its model_args or its API key") from None  # fmt: skip
    return out
