"""Each method package's ``__init__`` lists its public names, imports none of its modules, and
its three lists agree: ``_EXPORTS`` (name -> module), ``__all__`` and the type checkers'
``if TYPE_CHECKING:`` imports (see :mod:`inspect_stance.lazy`)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

PACKAGES = [
    "inspect_stance.drift",
    "inspect_stance.drift.adaptive",
    "inspect_stance.drift.chain",
    "inspect_stance.drift.metrics",
    "inspect_stance.drift.planning",
    "inspect_stance.drift.report",
    "inspect_stance.press",
    "inspect_stance.construction",
    "inspect_stance.validation",
]


def _type_checking_imports(package: str) -> dict[str, str]:
    """Name -> module of the ``from M import N as N`` lines under ``if TYPE_CHECKING:``."""
    tree = ast.parse((SRC / package.replace(".", "/") / "__init__.py").read_text())
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                for alias in imp.names:
                    assert alias.asname == alias.name, f"{package}: {alias.name} not re-exported"
                    out[alias.name] = imp.module
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_public_names_agree_and_resolve(package: str) -> None:
    mod = importlib.import_module(package)
    exports = mod._EXPORTS
    assert exports, f"{package} lists no public name"
    assert sorted(mod.__all__) == sorted(exports)
    assert _type_checking_imports(package) == exports
    folder = SRC / package.replace(".", "/")
    submodules = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir()}
    for name, module in exports.items():
        assert name not in submodules, f"{package}.{name} is also a submodule's name"
        assert module.startswith(package + "."), f"{package}.{name} comes from {module}"
        assert getattr(mod, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = mod.no_such_name


def test_importing_a_package_imports_none_of_its_modules() -> None:
    code = (
        "import sys, importlib\n"
        f"for p in {PACKAGES!r}:\n"
        "    importlib.import_module(p)\n"
        f"print(sorted(m for m in sys.modules if m.startswith('inspect_stance.') "
        f"and m not in {PACKAGES!r} and m not in ('inspect_stance.lazy',)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
