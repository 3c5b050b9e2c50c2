"""Print the functions over 60 lines and the modules over 400 lines in the shipped code.

An AST walk over ``src/``, ``tasks/``, ``solvers/`` and ``scorers/``: a function's length is
``end_lineno - lineno + 1`` of its ``def`` (decorators excluded, nested functions counted on their
own as well as inside their parent); a module's length is its number of lines.

    python benchmarks/code_size.py            # the lists and the two counts
    python benchmarks/code_size.py --max-function 40 --max-module 300
    python benchmarks/code_size.py --no-docstrings   # a function's docstring not counted
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("src", "tasks", "solvers", "scorers")


def python_files() -> list[Path]:
    """Every ``.py`` file below the shipped trees, sorted by path."""
    return sorted(p for tree in TREES for p in (ROOT / tree).rglob("*.py"))


def _docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = node.body[0] if node.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str):
            return (first.end_lineno or first.lineno) - first.lineno + 1
    return 0


def long_functions(path: Path, limit: int, docstrings: bool = True) -> list[tuple[str, int]]:
    """``(qualified name, lines)`` of each function in ``path`` longer than ``limit`` lines
    (without its docstring's lines when ``docstrings`` is false)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    length = (child.end_lineno or child.lineno) - child.lineno + 1
                    if not docstrings:
                        length -= _docstring_lines(child)
                    if length > limit:
                        found.append((name, length))
                walk(child, f"{name}.")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-function", type=int, default=60)
    parser.add_argument("--max-module", type=int, default=400)
    parser.add_argument("--no-docstrings", action="store_true", help="leave docstrings out")
    args = parser.parse_args()
    functions: list[tuple[int, str]] = []
    modules: list[tuple[int, str]] = []
    for path in python_files():
        rel = path.relative_to(ROOT).as_posix()
        n_lines = len(path.read_text(encoding="utf-8").splitlines())
        if n_lines > args.max_module:
            modules.append((n_lines, rel))
        for name, length in long_functions(path, args.max_function, not args.no_docstrings):
            functions.append((length, f"{rel}:{name}"))
    print(f"functions over {args.max_function} lines: {len(functions)}")
    for length, where in sorted(functions, reverse=True):
        print(f"  {length:4d}  {where}")
    print(f"modules over {args.max_module} lines: {len(modules)}")
    for n_lines, rel in sorted(modules, reverse=True):
        print(f"  {n_lines:4d}  {rel}")


if __name__ == "__main__":
    main()
