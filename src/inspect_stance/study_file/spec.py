"""A study file (YAML): the targets, the role models, the methods and the design, read and checked
before any work. Inspect-free; every problem is a one-line :class:`InputError` naming the key and
the fix.

.. code-block:: yaml

    study: my-study                      # optional (default: the file's stem)
    targets:                             # a name bound to one model, or one model per method
      gpt-4o-mini: openai/gpt-4o-mini
      sim:
        stance_drift: stance_sim/respondent
        even_handedness: {model: even_sim/target, model_args: {refuse_rate: 0.2}}
    roles:                               # shared by every method that uses the role
      judges: [A, B, C]
      graders: [{model: G, model_args: {...}}]
    methods:                             # each method run, its task arguments (-T) and roles
      stance_drift: {args: {limit_propositions: 5, trials: 20}}
      even_handedness: {args: {limit: 30}, roles: {graders: [G2]}}
    design: {sizes: explicit}            # or {target_se: 0.03} or {budget_calls: 20000}
    prices: {openai/gpt-4o-mini: 0.0003} # dollars per call, by model (optional)
    confirm_above: 10000                 # calls; more asks for confirmation (--yes skips)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.study.registry import study_tasks
from inspect_stance.study_file.bounds import (
    DEFAULT_CONFIRM_ABOVE,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
)
from inspect_stance.study_file.loader import read_yaml
from inspect_stance.study_file.schema import check_top


def study_methods() -> tuple[str, ...]:
    """The tasks a study runs (``methods: {TASK: ...}``): every registered method's study
    tasks (:attr:`~inspect_stance.study.protocol.Method.study`), in the methods' order."""
    return tuple(study_tasks())


def study_roles() -> tuple[str, ...]:
    """Every model role a study task uses (its roles and a role bound to the target)."""
    out: dict[str, None] = {}
    for st in study_tasks().values():
        out.update(dict.fromkeys(st.roles))
        if st.target_role:
            out[st.target_role] = None
    return tuple(out)


TOP_KEYS = ("study", "targets", "roles", "methods", "design", "prices", "confirm_above",
            "max_retries", "timeout")  # fmt: skip
_MODEL = re.compile(r"^[A-Za-z0-9_.-]+/\S+$")

Design = Literal["explicit", "target_se", "budget_calls"]


@dataclass(frozen=True)
class ModelSpec:
    """A model (``provider/name``) and its model args (Inspect's ``-M``)."""

    model: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StudySpec:
    """A checked study file (module docstring)."""

    name: str
    targets: dict[str, dict[str, ModelSpec]]  # target -> method -> model
    roles: dict[str, list[ModelSpec]]
    methods: dict[str, dict[str, Any]]  # method -> task args
    method_roles: dict[str, dict[str, list[ModelSpec]]]  # method -> role overrides
    design: Design = "explicit"
    design_value: float | None = None
    sd: dict[str, float] = field(default_factory=dict)
    prices: dict[str, float] = field(default_factory=dict)
    confirm_above: int = DEFAULT_CONFIRM_ABOVE
    max_retries: int = DEFAULT_MAX_RETRIES
    timeout: int = DEFAULT_TIMEOUT

    def roles_for(self, method: str) -> dict[str, list[ModelSpec]]:
        """The roles bound for ``method``: the shared ones it uses, then its own overrides."""
        out = {r: m for r, m in self.roles.items() if r in study_tasks()[method].roles}
        out.update(self.method_roles.get(method, {}))
        return out


def _mapping(value: Any, key: str, fix: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"study file: {key} must be a mapping; {fix}")
    return value


def parse_model(value: Any, key: str) -> ModelSpec:
    """``provider/name`` or ``{model: provider/name, model_args: {...}}``."""
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"model", "model_args"})
        if unknown:
            raise InputError(f"study file: {key}.{unknown[0]}: unknown key; use model and "
                             "model_args")  # fmt: skip
        args = _mapping(value.get("model_args", {}), f"{key}.model_args", "write name: value")
        spec = ModelSpec(str(value.get("model", "")), dict(args))
    else:
        spec = ModelSpec(str(value) if value is not None else "")
    if not _MODEL.match(spec.model):
        raise InputError(f"study file: {key}: {spec.model!r} is not a model; write "
                         "provider/name, e.g. openai/gpt-4o-mini")  # fmt: skip
    return spec


def _role_models(value: Any, key: str) -> list[ModelSpec]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise InputError(f"study file: {key}: no model; give one model or a list")
    return [parse_model(v, f"{key}[{k}]" if len(items) > 1 else key) for k, v in enumerate(items)]


def _check_method(name: str, key: str) -> str:
    known = study_methods()
    if name not in known:
        raise InputError(f"study file: {key}: no method {name!r}; use one of {', '.join(known)}")
    return name


def _targets(raw: Any, methods: list[str]) -> dict[str, dict[str, ModelSpec]]:
    raw = _mapping(raw, "targets", "write targets: {NAME: provider/model}")
    if not raw:
        raise InputError("study file: targets: none; write targets: {NAME: provider/model}")
    out: dict[str, dict[str, ModelSpec]] = {}
    for name, value in raw.items():
        key = f"targets.{name}"
        if isinstance(value, dict) and "model" not in value:
            per = {_check_method(m, f"{key}.{m}"): parse_model(v, f"{key}.{m}")
                   for m, v in value.items()}  # fmt: skip
            missing = [m for m in methods if m not in per]
            if missing:
                raise InputError(f"study file: {key}: no model for {missing[0]}; add "
                                 f"{key}.{missing[0]}: provider/model")  # fmt: skip
            out[str(name)] = {m: per[m] for m in methods}
        else:
            one = parse_model(value, key)
            out[str(name)] = {m: one for m in methods}
    return out


def _methods(raw: Any) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, list[ModelSpec]]]]:
    raw = _mapping(
        raw, "methods", "write methods: {METHOD: {args: {...}}} (inspect-stance --help lists them)"
    )
    if not raw:
        raise InputError("study file: methods: none; name at least one of "
                         f"{', '.join(study_methods())}")  # fmt: skip
    args: dict[str, dict[str, Any]] = {}
    roles: dict[str, dict[str, list[ModelSpec]]] = {}
    for name, block in raw.items():
        key = f"methods.{name}"
        _check_method(str(name), key)
        block = _mapping(block or {}, key, "write {args: {...}, roles: {...}}")
        unknown = sorted(set(block) - {"args", "roles"})
        if unknown:
            raise InputError(f"study file: {key}.{unknown[0]}: unknown key; put task arguments "
                             f"under {key}.args and role models under {key}.roles")  # fmt: skip
        args[name] = dict(_mapping(block.get("args") or {}, f"{key}.args", "write name: value"))
        own = _mapping(block.get("roles") or {}, f"{key}.roles", "write role: model")
        roles[name] = {_check_role(r, f"{key}.roles.{r}"): _role_models(v, f"{key}.roles.{r}")
                       for r, v in own.items()}  # fmt: skip
    return args, roles


def _check_role(name: str, key: str) -> str:
    known = study_roles()
    if name not in known:
        raise InputError(f"study file: {key}: no role {name!r}; use one of {', '.join(known)}")
    return name


def _design(raw: Any) -> tuple[Design, float | None, dict[str, float]]:
    raw = _mapping(raw or {"sizes": "explicit"}, "design",
                   "write design: {sizes: explicit} or {target_se: 0.03} or {budget_calls: N}")  # fmt: skip
    unknown = sorted(set(raw) - {"sizes", "target_se", "budget_calls", "sd"})
    if unknown:
        raise InputError(f"study file: design.{unknown[0]}: unknown key; use sizes: explicit, "
                         "target_se or budget_calls (and sd)")  # fmt: skip
    chosen = [k for k in ("target_se", "budget_calls") if k in raw]
    if len(chosen) > 1:
        raise InputError("study file: design: both target_se and budget_calls; keep one")
    sd = {_check_method(str(m), f"design.sd.{m}"): _positive(v, f"design.sd.{m}")
          for m, v in _mapping(raw.get("sd") or {}, "design.sd", "write method: sd").items()}  # fmt: skip
    if not chosen:
        if raw.get("sizes", "explicit") != "explicit":
            raise InputError("study file: design.sizes: use explicit (sizes in methods.*.args)")
        return "explicit", None, sd
    value = _positive(raw[chosen[0]], f"design.{chosen[0]}")
    if chosen[0] == "budget_calls" and value < 1:
        raise InputError("study file: design.budget_calls: below one call; give a whole number")
    return chosen[0], value, sd  # type: ignore[return-value]


def _positive(value: Any, key: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"study file: {key}: {value!r} is not a number; give a positive number"
        ) from None
    if not v > 0 or v == float("inf"):
        raise InputError(f"study file: {key}: {value!r} must be a positive number")
    return v


def parse_study(data: Any, name: str = "study") -> StudySpec:
    """The :class:`StudySpec` of a parsed YAML document (one-line errors, module docstring)."""

    data = _mapping(data, "the top level", "see `inspect-stance study --example FILE`")
    unknown = sorted(set(map(str, data)) - set(TOP_KEYS))
    if unknown:
        raise InputError(f"study file: {printable(unknown[0])}: unknown key; use "
                         f"{', '.join(TOP_KEYS)}")  # fmt: skip
    top = check_top(data)
    args, method_roles = _methods(data.get("methods"))
    targets = _targets(data.get("targets"), list(args))
    roles = {_check_role(str(r), f"roles.{r}"): _role_models(v, f"roles.{r}")
             for r, v in _mapping(data.get("roles") or {}, "roles", "write role: model").items()}  # fmt: skip
    design, value, sd = _design(data.get("design"))
    prices = {str(m): _price(v, f"prices.{m}")
              for m, v in _mapping(data.get("prices") or {}, "prices", "write model: dollars").items()}  # fmt: skip
    study = top.study or _stem_name(name)
    spec = StudySpec(study, targets, roles, args, method_roles, design, value, sd, prices,
                     top.confirm_above, top.max_retries, top.timeout)  # fmt: skip
    for method in args:
        bound = spec.roles_for(method)
        for role in study_tasks()[method].required_roles:
            if role not in bound:
                raise InputError(f"study file: roles.{role}: {method} needs the {role} role; "
                                 f"add roles: {{{role}: [provider/model, ...]}}")  # fmt: skip
    return spec


def _stem_name(stem: str) -> str:
    """The study name from the file's stem: characters outside the name rule as ``_``."""
    clean = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).lstrip("._-")[:64]
    return clean or "study"


def _price(value: Any, key: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"study file: {key}: {value!r} is not a price; give dollars per call"
        ) from None
    if not 0 <= v < float("inf"):
        raise InputError(f"study file: {key}: {value!r}; give dollars per call (>= 0)")
    return v


def read_study(path: Path) -> StudySpec:
    """Read and check the study file at ``path`` (one-line errors)."""

    if path.is_dir():
        raise InputError(f"study: {printable(str(path))} is a folder; give the study file (YAML)")
    if not path.is_file():
        raise InputError(f"study: {printable(str(path))} not found; write one with "
                         f"inspect-stance study --example {printable(str(path))}")  # fmt: skip
    return parse_study(read_yaml(path), path.stem)
