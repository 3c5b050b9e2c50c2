"""The package's only imports from Inspect's private modules, each where Inspect has no public API.

Inspect may move a private name in any release; keeping them here means one file to mend, and
``tests/test_core_inspect_free.py`` checks that no other module reaches into ``inspect_ai._*``
or ``inspect_ai.<pkg>._*``. Importing this module loads Inspect: only Inspect-facing code
(tasks, solvers, scorers, providers) imports it. :func:`parse_task_args` is the one exception:
it re-implements a private Inspect rule with public parts (PyYAML), checked against Inspect's.

Each private import carries an ``inspect-evals-lint`` suppression (``private_api_imports``)
whose reason names the public API Inspect lacks; ``inspect-evals-lint --preset single-eval
--all`` (run by ``.ci/run``) fails on any private import without one.
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model


def active_model() -> Model | None:
    """The model under test while Inspect builds a task or runs a sample (None outside an eval).

    Why private: the public ``get_model()`` falls back to ``INSPECT_EVAL_MODEL`` (constructing a
    model) or raises when no eval is active; reading the active one without side effects has no
    public accessor in Inspect 0.3.
    """
    from inspect_ai.model._model import (
        active_model as _active_model,
    )  # inspect-evals-lint: ignore[private_api_imports] -- Inspect 0.3.285 exports no side-effect-free accessor of the active model: public get_model() builds one from INSPECT_EVAL_MODEL or raises outside an eval

    return _active_model()


def bind_model_roles(roles: dict[str, Model | list[Model]]) -> None:
    """Bind ``roles`` as the model roles a task sees while it is created (``model_roles()``).

    Why private: ``inspect eval --model-role`` binds them before creating a task, but a
    creator of tasks outside ``eval`` (Inspect Flow's task factories) has no public setter.
    """
    from inspect_ai.model._model import (
        init_model_roles,
    )  # inspect-evals-lint: ignore[private_api_imports] -- Inspect 0.3.285 has no public setter of the model roles a task sees while it is created; eval binds them itself, but Inspect Flow 0.14 creates each task before binding its roles

    init_model_roles(roles)


def active_generate_config() -> GenerateConfig:
    """The eval-level generation config in force (``--temperature``, ``--max-connections`` ...).

    Why private: Inspect merges it into the ``--model``'s calls inside ``Model.generate`` and
    exposes no public accessor; a solver that records or sizes its calls must read it here.
    """
    from inspect_ai.model._generate_config import (
        active_generate_config as _active_config,
    )  # inspect-evals-lint: ignore[private_api_imports] -- Inspect 0.3.285 exports no accessor of the eval-level GenerateConfig (--temperature, --max-connections) that Model.generate merges in

    return _active_config()


def parse_task_args(args: list[str]) -> dict[str, object]:
    """``-T NAME=VALUE`` strings parsed as ``inspect eval`` parses them.

    The rule of Inspect 0.3.285's CLI (``parse_cli_args``, not exported): a string without
    ``=`` is skipped; the name is the text before the first ``=`` with ``-`` read as ``_``; the
    value is the rest read as YAML, and a string value holding commas becomes the list of its
    comma-separated parts. ``tests/test_lint_task_args.py`` checks this against Inspect's own
    parser, so a written job definition stays identical to the command line.
    """
    import yaml

    out: dict[str, object] = {}
    for arg in args:
        name, sep, raw = arg.partition("=")
        if not sep:
            continue
        value = yaml.safe_load(raw)
        if isinstance(value, str):
            parts = value.split(",")
            value = parts if len(parts) > 1 else parts[0]
        out[name.replace("-", "_")] = value
    return out


def shard_set_listing(shards_dir: str) -> object:
    """Inspect's own listing of a ``<name>.shards`` folder (its shards with their attempts,
    ``current`` the attempt Inspect would read), as ``inspect_ai.log`` lists it.

    Why private: the walk (``inspect_ai.log._shards._walk.list_shard_set``) and its async file
    system are not exported; reading the layout any other way could disagree with Inspect.
    """
    import anyio
    from inspect_ai._util.asyncfiles import (
        AsyncFilesystem,
    )  # inspect-evals-lint: ignore[private_api_imports] -- list_shard_set takes Inspect's async file system, which Inspect 0.3.285 does not export
    from inspect_ai.log._shards._walk import (
        list_shard_set,
    )  # inspect-evals-lint: ignore[private_api_imports] -- Inspect 0.3.285 exports no listing of a <name>.shards set (shards, attempts in Inspect's order); reading the layout any other way could disagree with Inspect

    async def listing() -> object:
        async with AsyncFilesystem() as fs:
            return await list_shard_set(fs, shards_dir)

    return anyio.run(listing)


def model_api_names() -> set[str]:
    """The providers (the ``provider`` of ``provider/model``) Inspect knows: its own and those
    of installed packages' entry points."""
    import inspect_ai.model  # noqa: F401 - registers Inspect's own providers
    from inspect_ai._util.entrypoints import (
        ensure_entry_points,
    )  # inspect-evals-lint: ignore[private_api_imports] -- Inspect 0.3.285 exports no list of the model providers it knows; a study checks every provider before its first run
    from inspect_ai._util.registry import (
        registry_find,
        registry_unqualified_name,
    )  # inspect-evals-lint: ignore[private_api_imports] -- as above: the provider registry is not exported

    ensure_entry_points()
    return {registry_unqualified_name(i) for i in registry_find(lambda i: i.type == "modelapi")}
