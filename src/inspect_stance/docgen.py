"""The parameter tables in ``docs/*.md``, generated from each task's options declaration.

A task's options are declared once, as the fields of its options dataclass
(:mod:`inspect_stance.task_options`; the classes are declared by each method record's ``options``); a task
not listed there is documented by its ``@task`` docstring's ``Args:``. Each method document
holds one marked block per task::

    <!-- params: stance_drift -->
    | parameter | default | meaning |
    ...
    <!-- /params -->

``python -m inspect_stance.docgen`` rewrites those blocks in place; ``--check`` exits 1 when a
block is out of date (a test runs the same check). A declared task's signature must agree with
its declaration (names, order, defaults); an undeclared one's every parameter must have an
``Args:`` entry and every entry a parameter, or the generation fails with one line.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_stance import task_options
from inspect_stance.errors import InputError
from inspect_stance.study.registry import methods
from inspect_stance.task_options import options_class


def documented_tasks() -> dict[str, tuple[str, ...]]:
    """Document (relative to the project root) -> the tasks it documents, as
    ``"module:function"``: each method's ``doc`` and the tasks of its ``options``."""

    out: dict[str, tuple[str, ...]] = {}
    for m in methods():
        if m.doc:
            tasks = tuple(f"inspect_stance.tasks.{t}:{t}" for t in m.options)
            out[m.doc] = out.get(m.doc, ()) + tasks
    return out


_BLOCK = re.compile(r"(<!-- params: (?P<name>[a-z_]+) -->\n)(?P<body>.*?)(<!-- /params -->)", re.S)


def _load(spec: str) -> Callable[..., Any]:
    module, name = spec.split(":")
    fn = getattr(importlib.import_module(module), name)
    inner: Callable[..., Any] = getattr(fn, "__wrapped__", fn)
    return inner


def _default(value: Any) -> str:
    if value is inspect.Parameter.empty:
        return "required"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"  # as typed on the command line: -T cache=true
    return f"`{value!r}`" if isinstance(value, str) else f"`{value}`"


def parameter_table(fn: Callable[..., Any]) -> str:
    """Markdown table ``parameter | default | meaning`` of task function ``fn``: from its
    options declaration when it has one (the signature checked against it), else from its
    signature and the ``Args:`` section of its docstring (entries joined onto one line, ``|``
    escaped)."""
    import docstring_parser

    cls = options_class(fn.__name__)
    if cls is not None:
        mismatches = task_options.signature_mismatches(fn, cls)
        if mismatches:
            raise InputError(
                f"{fn.__name__}: signature out of step with {cls.__name__} "
                f"({'; '.join(mismatches)}); declare each option once and match the signature"
            )
        return task_options.parameter_table(cls)

    doc = docstring_parser.parse(inspect.getdoc(fn) or "")
    described = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    params = {
        n: p
        for n, p in inspect.signature(fn).parameters.items()
        if p.kind is not inspect.Parameter.VAR_KEYWORD  # **unknown: rejected, not documented
    }
    missing = [n for n in params if n not in described or not described[n]]
    extra = [n for n in described if n not in params]
    if missing or extra:
        raise InputError(
            f"{fn.__name__}: docstring Args: out of step with the signature "
            f"(undocumented: {', '.join(missing) or '-'}; not parameters: {', '.join(extra) or '-'})"
            "; document every parameter once in the task's Args:"
        )
    rows = ["| parameter | default | meaning |", "| --- | --- | --- |"]
    for name, p in params.items():
        text = described[name].replace("|", "\\|")
        rows.append(f"| `{name}` | {_default(p.default)} | {text} |")
    return "\n".join(rows) + "\n"


def render(doc: str, tasks: dict[str, Callable[..., Any]]) -> str:
    """``doc`` with every ``<!-- params: NAME -->`` block replaced by NAME's table."""

    def repl(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in tasks:
            raise InputError(f"docs block names unknown task {name!r}; known: {', '.join(tasks)}")
        return m.group(1) + parameter_table(tasks[name]) + m.group(4)

    return _BLOCK.sub(repl, doc)


def stale_documents(root: Path, write: bool) -> list[str]:
    """Documents whose parameter blocks differ from the generated ones (rewritten when
    ``write``); a listed document that is missing or holds no block for one of its tasks
    counts as stale."""
    stale = []
    for rel, specs in documented_tasks().items():
        path = root / rel
        # a listed task that fails to import is an error, not a document to skip
        tasks = {spec.split(":")[1]: _load(spec) for spec in specs}
        if not path.is_file():
            stale.append(f"{rel}: missing")
            continue
        text = path.read_text(encoding="utf-8")
        names = {m.group("name") for m in _BLOCK.finditer(text)}
        for name in tasks:
            if name not in names:
                stale.append(f"{rel}: no '<!-- params: {name} -->' block")
        new = render(text, tasks)
        if new != text:
            stale.append(f"{rel}: parameter table out of date")
            if write:
                path.write_text(new, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or with ``--check`` only verify) the parameter tables of ``docs/*.md``."""
    ap = argparse.ArgumentParser(prog="python -m inspect_stance.docgen", description=__doc__)
    ap.add_argument("--root", default=".", help="the project root (default: .)")
    ap.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    args = ap.parse_args(argv)
    stale = stale_documents(Path(args.root), write=not args.check)
    for line in stale:
        print(line, file=sys.stderr)
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    raise SystemExit(main())
