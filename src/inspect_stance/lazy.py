"""A package's public names, imported on first use (PEP 562), so that importing the package
stays light: every ``inspect`` command imports the packages its tasks reach, and a public name
list that imported its modules up front would load all of them (tests/test_entry_point.py).

A package lists its names once, as ``_EXPORTS = {name: module}``, and binds
``__getattr__ = lazy_exports(__name__, _EXPORTS)``; ``__all__`` is the sorted names, and an
``if TYPE_CHECKING:`` block imports the same names for type checkers
(tests/test_public_names.py checks the three agree and that each name resolves).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], object]:
    """The module-level ``__getattr__`` of ``package``: ``name`` is read from
    ``exports[name]``'s module (imported then); any other name raises ``AttributeError``, so
    that ``from package import submodule`` still finds a submodule."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
