"""The command layer is one package, and the cores below it never reach up into it.

Every module of the shipped trees outside ``src/inspect_stance/cli/`` is parsed (``ast``, so
imports inside functions count too) and must not import ``inspect_stance.cli`` (or a module
below it) or ``argparse``, nor annotate a parameter with ``argparse.Namespace`` (a core takes
typed arguments; the command builds them from the parsed line). The exceptions are modules that
are themselves ``python -m`` scripts, each listed with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "src" / "inspect_stance" / "cli"
TREES = ("src", "tasks", "solvers", "scorers")

#: modules that parse their own ``python -m`` arguments (and are no command of ``inspect-stance``)
SCRIPTS = {
    "src/inspect_stance/docgen.py": "python -m inspect_stance.docgen regenerates the docs tables",
    "src/inspect_stance/providers/tiny_nli.py": "python -m inspect_stance.providers.tiny_nli "
    "builds the offline NLI model",
}


def core_files() -> list[Path]:
    """Every ``.py`` file of the shipped trees outside the command layer."""
    files = (p for tree in TREES for p in (ROOT / tree).rglob("*.py"))
    return sorted(p for p in files if CLI not in p.parents)


def offences(tree: ast.AST) -> list[str]:
    """What in a module's syntax tree reaches into the command layer or argparse."""
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name == "argparse" or name.startswith("argparse."):
                found.append(f"line {node.lineno}: imports argparse")
            if name == "inspect_stance.cli" or name.startswith("inspect_stance.cli."):
                found.append(f"line {node.lineno}: imports {name}")
        if isinstance(node, ast.arg) and node.annotation is not None:
            if "Namespace" in ast.unparse(node.annotation):
                found.append(f"line {node.lineno}: parameter {node.arg} takes a Namespace")
    return sorted(set(found))


def test_no_core_module_imports_the_command_layer_or_argparse():
    bad = {}
    for path in core_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in SCRIPTS:
            continue
        found = offences(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            bad[rel] = found
    assert not bad, bad


def test_the_scripts_listed_exist_and_still_need_their_exception():
    for rel in SCRIPTS:
        assert offences(ast.parse((ROOT / rel).read_text(encoding="utf-8"))), rel


@pytest.mark.parametrize(
    "source",
    [
        "import argparse",
        "def f():\n    from inspect_stance.cli.compare import cmd_compare",
        "from inspect_stance import cli",
        "def f(args: argparse.Namespace) -> int: ...",
        "def f(args: 'Namespace') -> int: ...",
    ],
)
def test_the_walk_finds_each_kind_of_offence(source):
    assert offences(ast.parse(source))


def test_the_walk_passes_typed_cores():
    assert not offences(ast.parse("from inspect_stance.study import CompareRequest\n"
                                  "def f(request: CompareRequest) -> int: ..."))  # fmt: skip
