"""Checks of a study that read the tasks themselves (their parameters) and the disk, run before
any model call: every task argument is a parameter of its task, a local NLI model exists, and
no two targets share a log folder."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

from inspect_stance.card.names import file_stem
from inspect_stance.errors import InputError
from inspect_stance.study_file.spec import StudySpec


def task_parameters(method: str) -> list[str]:
    """The ``-T`` parameters of ``method``'s task (its function's signature)."""
    module = importlib.import_module(f"inspect_stance.tasks.{method}")
    return list(inspect.signature(getattr(module, method)).parameters)


def check_study(spec: StudySpec, args: dict[str, dict[str, Any]]) -> None:
    """Raise a one-line InputError for the first problem (module docstring)."""
    for method, values in args.items():
        known = task_parameters(method)
        for key in values:
            if key not in known:
                raise InputError(f"study file: methods.{method}.args.{key}: no such parameter "
                                 f"of {method}; use one of {', '.join(known)}")  # fmt: skip
    nli = str(args.get("press", {}).get("nli_model") or "")
    if nli.startswith(("/", ".", "~")) and not Path(nli).expanduser().exists():
        raise InputError(f"study file: methods.press.args.nli_model: {nli} not found; build the "
                         "offline one with python -m inspect_stance.providers.press_sim tiny-nli "
                         f"{nli} --mode keyed")  # fmt: skip
    stems: dict[str, str] = {}
    for target in spec.targets:
        other = stems.setdefault(file_stem(target), target)
        if other != target:
            raise InputError(f"study file: targets.{target}: same log folder as {other!r}; "
                             "rename one")  # fmt: skip
