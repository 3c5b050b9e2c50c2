"""A study file as an `Inspect Flow <https://meridianlabs-ai.github.io/inspect_flow/>`_ spec
(``inspect-stance study FILE --flow OUT``): the same runs, run by ``flow run OUT``.

Every (target, method) becomes one Flow task: ``name: inspect_stance/<method>``, the target's
model (``{name, model_args}``), its role models (``model_roles``; the single-model roles as one
model, a task's target role, such as the prompter whose prompts are validated, the target's
model, as :mod:`.runner` binds them), the sized task arguments (``args``, Inspect's ``-T``) and ``tags: [stance_target=<target>]``. The
study's name goes into every run's eval metadata (``options.metadata.stance_study``); the
target goes into a tag because Flow's per-task ``metadata`` would replace the task's own.
``inspect-stance card`` and ``runs_df`` read either (:func:`study_labels`).

The spec is Python (:func:`flow_python`): our tasks check, and record, their role models when
they are created, and Flow 0.14 binds ``model_roles`` only for the run, after creating the task;
so every task with roles is created by :func:`task_factory`, which binds them first.

Importing this module loads neither Inspect nor ``inspect_flow`` (the factory loads Inspect when
Flow calls it; the tests read the spec back with Flow's own loader).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.spec import ModelSpec, StudySpec

#: roles that take one model (the others take a list); as :data:`.runner.SINGLE_ROLES`
SINGLE_ROLES = ("prompter", "arguer", "classifier")
#: the tag that names a run's study target in a Flow run (``stance_target=<name>``)
TARGET_TAG = "stance_target="


def _model(spec: ModelSpec) -> str | dict[str, Any]:
    """A Flow model: the bare name, or ``{name, model_args}``."""
    return {"name": spec.model, "model_args": dict(spec.args)} if spec.args else spec.model


def _roles(roles: dict[str, list[ModelSpec]]) -> dict[str, Any]:
    return {r: _model(ms[0]) if r in SINGLE_ROLES else [_model(m) for m in ms]
            for r, ms in roles.items()}  # fmt: skip


def flow_spec(spec: StudySpec, args: dict[str, dict[str, Any]], log_dir: str) -> dict[str, Any]:
    """The Flow spec (a YAML-ready mapping) of a checked, sized study (module docstring):
    ``log_dir``, ``options.metadata`` and one task per target x method, in the order
    ``inspect-stance study`` runs them."""
    tasks: list[dict[str, Any]] = []
    for target, models in spec.targets.items():
        for method in spec.methods:
            roles = spec.roles_for(method)
            bound = study_tasks()[method].target_role  # a role the target itself plays
            if bound:
                roles[bound] = [models[method]]
            task: dict[str, Any] = {
                "name": f"inspect_stance/{method}",
                "model": _model(models[method]),
            }
            if roles:
                task["model_roles"] = _roles(roles)
            if args.get(method):
                task["args"] = dict(args[method])
            task["tags"] = [f"{TARGET_TAG}{target}"]
            tasks.append(task)
    return {
        "log_dir": log_dir,
        "options": {"metadata": {"stance_study": spec.name}},
        "tasks": tasks,
    }


def flow_python(spec: StudySpec, args: dict[str, dict[str, Any]], log_dir: str, source: str,
                shown_log_dir: str | None = None) -> str:  # fmt: skip
    """:func:`flow_spec` as a Python Flow spec (``flow run`` takes the file's last value), headed
    by a comment naming the study file it came from; :func:`with_roles` binds the role models
    while each task is created (module docstring). ``log_dir`` is written into the spec (Flow
    resolves it from the spec's folder); ``shown_log_dir`` (default ``log_dir``) is the folder
    the comment's card command reads."""
    import pprint

    shown = shown_log_dir or log_dir
    body = pprint.pformat(flow_spec(spec, args, log_dir), indent=1, width=96, sort_dicts=False)
    return (
        f"# Inspect Flow spec of study {spec.name!r}, written by "
        f"`inspect-stance study {source} --flow`.\n"
        "# Run: flow run THIS_FILE   (pip install 'inspect-stance[flow]'); then\n"
        f"#      inspect-stance card {shown} --out {shown}/cards\n"
        "# `inspect-stance study` prints the planned calls and cost and asks before a large run;\n"
        "# `flow run --dry-run` counts the tasks only. docs/flow.md.\n"
        "from inspect_flow import FlowSpec\n\n"
        "from inspect_stance.study_file.flow import with_roles\n\n"
        f"FlowSpec.model_validate(with_roles(\n{body}\n))\n"
    )


def _build(model: str | dict[str, Any]) -> Any:
    from inspect_ai.model import get_model

    if isinstance(model, dict):
        return get_model(
            model["name"], **dict(model.get("model_args") or {})
        )  # inspect-evals-lint: ignore[get_model_location] -- a Flow task factory binds a role's model before Flow creates the task (no solver or scorer exists yet)
    return get_model(
        model
    )  # inspect-evals-lint: ignore[get_model_location] -- as above: the role's model is bound before the task is created


def task_factory(name: str, roles: dict[str, Any]) -> Any:
    """A Flow task factory: creates task ``name`` (``inspect_stance/<method>``) with ``roles``
    bound as Inspect's model roles while it is created, as ``inspect eval --model-role`` binds
    them (the tasks check their roles and record the role models' settings when created; Flow
    0.14 binds ``model_roles`` only for the run). Flow passes the task arguments."""
    import importlib

    method = name.split("/", 1)[1]

    def create(**task_args: Any) -> Any:
        from inspect_stance.inspect_adapter import bind_model_roles  # Inspect: on call

        built = {r: [_build(m) for m in v] if isinstance(v, list) else _build(v)
                 for r, v in roles.items()}  # fmt: skip
        bind_model_roles(built)
        try:
            module = importlib.import_module(f"inspect_stance.tasks.{method}")
            return getattr(module, method)(**task_args)
        finally:
            bind_model_roles({})

    return create


def with_roles(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` (:func:`flow_spec`) with a :func:`task_factory` on every task that has roles."""
    out = dict(spec)
    out["tasks"] = [
        {**t, "factory": task_factory(t["name"], t["model_roles"])} if t.get("model_roles") else t
        for t in spec["tasks"]
    ]
    return out


def write_flow(path: Path, text: str) -> None:
    """Write the spec to ``path`` (a ``.py`` file, which Flow runs for its spec)."""

    if path.suffix != ".py":
        raise InputError(f"study --flow: {path}: the spec is Python; name the file "
                         f"{path.with_suffix('.py')}")  # fmt: skip
    if not path.parent.is_dir():
        raise InputError(f"study --flow: folder {path.parent} not found; create it first")
    path.write_text(text, encoding="utf-8")


def study_labels(metadata: dict[str, Any] | None, tags: list[str] | None) -> dict[str, str]:
    """A run's study labels: ``stance_study`` and ``stance_target`` from its eval metadata
    (``inspect-stance study``), the target else from a ``stance_target=<name>`` tag (a Flow
    run of :func:`flow_spec`); absent labels are left out."""
    out = {k: str(v) for k, v in (metadata or {}).items()
           if k in ("stance_study", "stance_target") and v}  # fmt: skip
    if "stance_target" not in out:
        for tag in tags or []:
            if str(tag).startswith(TARGET_TAG) and len(str(tag)) > len(TARGET_TAG):
                out["stance_target"] = str(tag)[len(TARGET_TAG) :]
                break
    return out
