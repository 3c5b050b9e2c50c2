"""Registers the methods' simulated model providers with Inspect, without importing them.

Each method declares its providers in its record (:attr:`inspect_stance.study.protocol.Method.
providers`: Inspect provider name -> ``"module:Class"``). Inspect imports the package's entry
point in every ``inspect`` command, so each provider is registered by a factory that imports its
class only when Inspect creates a model of that provider (as Inspect's own providers do):
``numpy`` and the simulators' tables load on first use, not at start-up
(``tests/test_entry_point.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import ModelAPI, modelapi

from inspect_stance.study.protocol import resolve
from inspect_stance.study.registry import methods


def _factory(target: str) -> Callable[[], type[ModelAPI]]:
    """A factory returning the class ``target`` (``"module:Class"``), imported when called."""

    def load() -> type[ModelAPI]:
        cls = resolve(target)
        if not (isinstance(cls, type) and issubclass(cls, ModelAPI)):
            raise TypeError(f"model provider {target} is not a ModelAPI class")
        return cls

    return load


def register_providers() -> list[str]:
    """Register every provider the registered methods declare; the names registered, sorted
    (a name two methods declare is refused)."""
    owner: dict[str, str] = {}
    for method in methods():
        for name, target in method.providers.items():
            if name in owner and owner[name] != method.name:
                raise ValueError(f"model provider {name} is already {owner[name]}'s")
            owner[name] = method.name
            modelapi(name=name)(_factory(target))
    return sorted(owner)
