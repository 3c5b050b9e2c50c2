"""Shared code names no method: a method or task name as a string outside the method's own
package (and ``study/builtin.py``, which lists the package's methods) is a per-method table or
branch that a new method would have to edit.

The walk reads every module under ``src/inspect_stance/`` but the methods' packages and counts,
per file, the lines holding a string (docstrings aside) that names a method or task as a whole
word. A file not in :data:`ALLOWED` fails on its first such line; a file in it fails when it
holds more lines than allowed (a new table) and when it holds fewer (the allowance shrinks with
the code, so nothing hides behind a stale entry).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "inspect_stance"
NAMES = ("stance_drift", "press", "prompt_construction", "judge_validation",
         "prompt_validation", "even_handedness", "press_arguments", "pushback")  # fmt: skip
NAMED = re.compile(r"(?<![\w])(" + "|".join(sorted(NAMES, key=len, reverse=True)) + r")(?![\w])")
#: the methods' own packages
OWN = {"drift", "press", "construction", "validation", "even_handedness", "pushback"}

#: file -> (lines naming a method, why it is not moved yet). Issue 32 moves every one of these
#: into a field of the method's record; each entry goes when its file is converted.
ALLOWED: dict[str, tuple[int, str]] = {
    "study_file/example.py": (2, "the example study file names its methods (product text)"),
}


def _docstrings(tree: ast.Module) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def offenders(src: Path = SRC) -> dict[str, list[int]]:
    """``file -> lines`` holding a string (docstrings aside) naming a method or task, in the
    modules under ``src`` outside the methods' packages and ``study/builtin.py``."""
    out: dict[str, list[int]] = {}
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel.split("/")[0] in OWN or rel == "study/builtin.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        lines = {node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and id(node) not in skip and NAMED.search(node.value)}  # fmt: skip
        if lines:
            out[rel] = sorted(lines)
    return out


def test_the_walk_finds_a_name_and_passes_a_docstring_over(tmp_path):
    """The walk itself can fail: a table naming a task is found, a docstring naming one is not,
    and a word that only contains a name (``pressure``) is not."""
    (tmp_path / "shared.py").write_text(
        '"""Reads press logs."""\nTABLE = {"press": 1}\nX = "pressure"\n', encoding="utf-8"
    )
    (tmp_path / "press").mkdir()
    (tmp_path / "press" / "own.py").write_text('NAME = "press"\n', encoding="utf-8")
    assert offenders(tmp_path) == {"shared.py": [2]}


def test_shared_code_names_no_method_beyond_what_is_allowed():
    found = Counter({f: len(lines) for f, lines in offenders().items()})
    new = {f: offenders()[f][:5] for f in found if f not in ALLOWED}
    assert not new, f"method or task names in shared code (file: lines): {new}"
    grown = {f: (n, ALLOWED[f][0]) for f, n in found.items() if n > ALLOWED[f][0]}
    assert not grown, f"more lines naming a method than allowed (file: (now, allowed)): {grown}"
    shrunk = {f: (found.get(f, 0), n) for f, (n, _why) in ALLOWED.items() if found.get(f, 0) < n}
    assert not shrunk, f"fewer lines than allowed: lower ALLOWED (file: (now, allowed)): {shrunk}"
