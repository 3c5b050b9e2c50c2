"""No import circle among the package's modules, and the layers import only downwards.

The graph is read from the source with ``ast``: every ``import`` / ``from ... import`` of an
``inspect_stance`` module anywhere in a file (at the top or inside a function: an import
deferred to dodge a circle is still a circle). ``tasks/``, ``solvers/`` and ``scorers/`` are
read as the ``inspect_stance.tasks`` / ``.solvers`` / ``.scorers`` packages they install as.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the circles and layer breaks still in the tree, each to be removed (the tests fail when one
#: is gone, so that the list shrinks, and when a new one appears)
KNOWN_CIRCLES: list[list[str]] = []
KNOWN_SOLVER_TO_SCORER: set[tuple[str, str]] = set()
PACKAGES = {
    "inspect_stance": ROOT / "src" / "inspect_stance",
    "inspect_stance.tasks": ROOT / "tasks",
    "inspect_stance.solvers": ROOT / "solvers",
    "inspect_stance.scorers": ROOT / "scorers",
}


def modules() -> dict[str, Path]:
    """Module name -> file, for every module of the package."""
    out: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            out.setdefault(name, path)
    return out


def _imported(node: ast.AST, current: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = current.split(".")
            base = base[: len(base) - node.level + (1 if is_package else 0)]
            prefix = ".".join([*base, node.module] if node.module else base)
        else:
            prefix = node.module or ""
        # `from pkg import name`: name may be a submodule or an attribute of pkg
        return [prefix, *(f"{prefix}.{a.name}" for a in node.names)]
    return []


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (a name resolved to its longest module)."""
    mods = modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for target in _imported(node, name, path.name == "__init__.py"):
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name and target != "inspect_stance":
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_known_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_deferred_and_cross_layer_imports():
    graph = import_graph()
    assert "inspect_stance.errors" in graph["inspect_stance.params"]
    assert "inspect_stance.solvers.stance_drift" in graph["inspect_stance.tasks.stance_drift"]


def test_no_import_circle():
    assert cycles(import_graph()) == KNOWN_CIRCLES


def test_no_task_imports_another_task():
    graph = import_graph()
    bad = {
        (m, t)
        for m, targets in graph.items()
        if m.startswith("inspect_stance.tasks.")
        for t in targets
        if t.startswith("inspect_stance.tasks.")
    }
    assert not bad, bad


def test_solvers_do_not_import_scorers():
    graph = import_graph()
    bad = {
        (m, t)
        for m, targets in graph.items()
        if m.startswith("inspect_stance.solvers.")
        for t in targets
        if t.startswith("inspect_stance.scorers.")
    }
    assert bad == KNOWN_SOLVER_TO_SCORER


def test_the_core_imports_no_task_solver_or_scorer():
    layers = ("inspect_stance.tasks", "inspect_stance.solvers", "inspect_stance.scorers")
    graph = import_graph()
    bad = {
        (m, t)
        for m, targets in graph.items()
        if not m.startswith(layers) and m != "inspect_stance._registry"
        for t in targets
        if t.startswith(layers)
    }
    assert not bad, bad
