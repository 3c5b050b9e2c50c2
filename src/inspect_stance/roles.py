"""Model roles: checked before the first model call, and given a bounded generation config.

Inspect applies eval-level generation settings (``--max-tokens``, ``--temperature`` …) only to
``--model``; a role bound with ``--model-role NAME=MODEL`` gets its own config, which is empty
unless the role is bound with Inspect's YAML/JSON form
(``--model-role 'judges={model: openai/gpt-4o, max_tokens: 64}'``). :func:`role_config`
fills each field the role's own config leaves unset from a task's documented defaults, so every
role call carries a bounded ``max_tokens`` on the wire while the user's per-role settings win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from inspect_ai.model import GenerateConfig, Model, model_roles

from inspect_stance.errors import InputError
from inspect_stance.scrub import scrub


def require_roles(task: str, roles: Iterable[str], why: str = "") -> None:
    """Raise a one-line :class:`InputError` at task build time when a role is not bound.

    Called from a ``@task`` function (Inspect initialises the eval's roles before it builds
    tasks), so a missing role fails before the first model call.
    """
    bound = model_roles()
    for role in roles:
        if role not in bound:
            raise InputError(
                f"{task} needs the model role {role!r}{f' ({why})' if why else ''}; "
                f"add --model-role {role}=PROVIDER/MODEL"
            )


def role_config(model: Model, defaults: GenerateConfig) -> GenerateConfig:
    """The generation config for one role call: ``defaults`` for every field that the role
    model's own config (``--model-role NAME={model: …, max_tokens: …}``) leaves unset.

    Passed as ``model.generate(..., config=role_config(model, defaults))``; Inspect merges the
    call's config over the model's, so only the unset fields change.
    """
    own = model.config.model_dump(exclude_none=True)
    merged = defaults.model_dump(exclude_none=True)
    merged.update(own)
    return GenerateConfig(**merged)


def role_models(role: str) -> list[Model]:
    """The models bound to ``role`` as a list: ``--model-role judges=A,B,C`` gives three, a
    single model one, an unbound role none."""
    bound = model_roles().get(role)
    if isinstance(bound, list):
        return bound
    return [] if bound is None else [bound]


def require_role_models(role: str, missing: str) -> list[Model]:
    """:func:`role_models` of ``role``, or a one-line :class:`InputError` saying ``missing``
    (the problem and the ``--model-role`` that fixes it) when none is bound."""
    models = role_models(role)
    if not models:
        raise InputError(missing)
    return models


def model_names(models: Sequence[Model]) -> list[str]:
    """Unique display names ``provider/model`` of a role's models, in order; a repeated model
    gets ``#2``, ``#3`` ... (two identical judges stay two judges)."""
    names: list[str] = []
    for model in models:
        base = str(model)
        name, k = base, 2
        while name in names:
            name, k = f"{base}#{k}", k + 1
        names.append(name)
    return names


def role_model(role: str) -> Model | None:
    """The model bound to ``role`` while Inspect builds the task (None when unbound)."""
    bound = role_models(role)
    return bound[0] if bound else None


def target_model() -> Model | None:
    """The model under test while Inspect builds the task (None outside an eval).

    Reads Inspect's active model (set before tasks are built) without constructing one.
    """
    from inspect_stance.inspect_adapter import active_model

    return active_model()


def config_dump(model: Model | None, defaults: GenerateConfig) -> dict[str, Any]:
    """The generation config a role's calls will carry (defaults under the role's own), for
    the log: scrubbed of credentials (``extra_headers`` values, credential-named fields)."""

    config = role_config(model, defaults) if model is not None else defaults
    return dict(scrub(config.model_dump(exclude_none=True)))
