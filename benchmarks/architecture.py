"""Architecture figures of the tree (issue "one number, one road"): lines of code outside tests,
imports of the package's own modules made inside functions, imports from shared code up into a
method's package, method/task names written in shared code, and unused lazy facades.

    python benchmarks/architecture.py [ROOT]

Shared code: every module of ``src/inspect_stance`` outside the method packages (those holding
a ``method.py``). An import "runs back up" when a shared module imports a method package.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "inspect_stance"
METHODS = sorted(p.parent.name for p in SRC.glob("*/method.py"))
TASK_NAMES = ("stance_drift", "press_arguments", "press", "prompt_construction",
              "judge_validation", "prompt_validation", "even_handedness", "pushback")  # fmt: skip
NAME_RE = re.compile(r"""["']({})["']""".format("|".join(TASK_NAMES)))


def code_files() -> list[Path]:
    out = []
    for folder in ("src", "tasks", "solvers", "scorers"):
        out += sorted((ROOT / folder).rglob("*.py"))
    return out


def is_shared(path: Path) -> bool:
    try:
        rel = path.relative_to(SRC)
    except ValueError:
        return False
    return rel.parts[0] not in METHODS


def own_imports(tree: ast.AST) -> list[tuple[ast.AST, str, bool]]:
    """(node, module, inside a function) for every import of an inspect_stance module."""
    out: list[tuple[ast.AST, str, bool]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith(
                "inspect_stance"
            ):
                out.append((child, child.module or "", inside))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("inspect_stance"):
                        out.append((child, alias.name, inside))
            walk(child, inside)

    walk(tree, False)
    return out


def main() -> None:
    files = code_files()
    lines = sum(len(p.read_text().splitlines()) for p in files)
    local = 0
    upward: list[str] = []
    named: list[str] = []
    for p in files:
        text = p.read_text()
        tree = ast.parse(text)
        for node, module, inside in own_imports(tree):
            local += inside
            parts = module.split(".")
            if is_shared(p) and len(parts) > 1 and parts[1] in METHODS:
                upward.append(f"{p.relative_to(ROOT)}:{node.lineno} -> {module}")  # type: ignore[attr-defined]
        if is_shared(p):
            for i, line in enumerate(text.splitlines(), 1):
                if NAME_RE.search(line):
                    named.append(f"{p.relative_to(ROOT)}:{i}")
    print(f"lines of code outside tests: {lines:,} in {len(files)} files")
    print(f"imports of the package's own modules inside functions: {local}")
    print(f"imports running back up (shared -> method package): {len(upward)}")
    for u in upward:
        print(f"  {u}")
    shared_files = sorted({n.split(":")[0] for n in named})
    print(f"method/task names in shared code: {len(named)} lines in {len(shared_files)} files")
    for f in shared_files:
        print(f"  {f}: {sum(n.startswith(f + ':') for n in named)}")


if __name__ == "__main__":
    main()
