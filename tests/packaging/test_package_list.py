"""Every importable package of the source tree is in pyproject's hand-written package list.

The list is explicit (the package-dir mapping of solvers/, scorers/ and tasks/ needs it), so a new
subpackage that is not added works in an editable install and is missing from a built wheel.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_source_package_is_listed_in_pyproject():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    src = ROOT / "src"
    found = {
        ".".join(init.parent.relative_to(src).parts)
        for init in src.rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set(), (
        f"packages missing from pyproject.toml: {sorted(found - listed)}"
    )
