"""The method cores and shared helpers import nothing from Inspect.

Each module under ``src/inspect_stance/`` (outside ``providers/`` and the Inspect-facing modules
listed below) is imported in its own child of a fresh interpreter that has loaded no
``inspect_ai`` module; the child reports every ``inspect_ai`` module then loaded, which must be
none. A second check: no file of the package reaches into Inspect's private modules
(``inspect_ai._*``, ``inspect_ai.<pkg>._*``) except the one adapter.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

#: modules that exist to talk to Inspect (each loads it on import)
INSPECT_FACING = {
    "inspect_stance._registry",  # Inspect's entry point: registers the tasks and providers
    "inspect_stance.inspect_adapter",  # the one home of Inspect's private names
    "inspect_stance.roles",  # reads the model roles Inspect binds while it builds a task
    "inspect_stance.hooks",  # Inspect hooks
    "inspect_stance.press.dataset",  # builds the PReSS tasks' Inspect Samples
    "inspect_stance.drift.dataset",  # builds the stance_drift task's Inspect Samples
    "inspect_stance.viewer",  # the headline metric and sample-list view each Task declares
    # the methods' simulated model providers (Inspect ModelAPIs, declared in Method.providers)
    "inspect_stance.construction.simulator",
    "inspect_stance.drift.relay_simulator",
    "inspect_stance.drift.simulator",
    "inspect_stance.even_handedness.simulator",
    "inspect_stance.press.simulator",
    "inspect_stance.pushback.simulator",
    "inspect_stance.validation.simulator",
}

#: imported before the children fork (heavy, and none of them loads Inspect)
PRELOAD = ["numpy", "scipy.stats", "pandas"]

_CHILD = r"""
import importlib, json, os, sys
for name in sys.argv[2:]:
    importlib.import_module(name)
loaded = [k for k in sys.modules if k == "inspect_ai" or k.startswith("inspect_ai.")]
assert not loaded, f"the parent loaded {loaded[:3]}"
report = {}
for module in json.loads(sys.argv[1]):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            importlib.import_module(module)
            found = sorted(k for k in sys.modules if k == "inspect_ai" or k.startswith("inspect_ai."))
        except BaseException as ex:  # report, don't hide, a module that fails to import
            found = [f"import failed: {type(ex).__name__}: {ex}"]
        os.write(w, json.dumps(found[:5]).encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    os.waitpid(pid, 0)
    report[module] = json.loads(b"".join(chunks) or b'["no report"]')
print(json.dumps(report))
"""


def core_modules() -> list[str]:
    """Every module of the package checked here (outside providers/ and INSPECT_FACING)."""
    names = []
    for path in sorted((SRC / "inspect_stance").rglob("*.py")):
        rel = path.relative_to(SRC).with_suffix("")
        if "providers" in rel.parts or rel.name == "__main__":  # a __main__ runs when imported
            continue
        name = ".".join(rel.parts).removesuffix(".__init__")
        if name not in INSPECT_FACING:
            names.append(name)
    return names


def test_the_list_of_inspect_facing_modules_is_current():
    for name in INSPECT_FACING:
        assert (SRC / Path(*name.split("."))).with_suffix(".py").is_file(), name


def test_core_modules_load_no_inspect_module():
    modules = core_modules()
    assert "inspect_stance.errors" in modules and "inspect_stance.drift.metrics.spr" in modules
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(modules), *PRELOAD],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert set(report) == set(modules)
    offenders = {m: found for m, found in report.items() if found}
    assert not offenders, offenders


_PRIVATE = re.compile(r"^\s*(?:from|import)\s+inspect_ai(?:\.\w+)*\._\w*", re.MULTILINE)


def test_private_inspect_imports_only_in_the_adapter():
    allowed = {SRC / "inspect_stance" / "inspect_adapter.py"}
    trees = [SRC, ROOT / "tasks", ROOT / "solvers", ROOT / "scorers"]
    offenders = [
        f"{path.relative_to(ROOT)}: {m.group(0).strip()}"
        for tree in trees
        for path in sorted(tree.rglob("*.py"))
        if path not in allowed
        for m in _PRIVATE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders
