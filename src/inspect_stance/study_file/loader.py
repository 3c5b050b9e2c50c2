"""The study file's YAML, read safely: PyYAML's safe loader, with a key repeated in one mapping
refused, nesting deeper than :data:`MAX_DEPTH` refused, and the document's size *with its aliases
expanded* bounded by :data:`MAX_NODES` (an alias bomb, ``a: &a [x, x]`` / ``b: &b [*a, *a]`` ...,
is a few lines that expand to billions of nodes). Every problem is a one-line
:class:`~inspect_stance.errors.InputError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError

#: most bytes a study file may have
MAX_BYTES = 1_000_000
#: most YAML nodes (scalars, lists, mappings) once aliases are expanded
MAX_NODES = 100_000
#: deepest nesting of lists and mappings
MAX_DEPTH = 30


def _count(node: Any, depth: int, seen: dict[int, int], where: str) -> int:
    """Nodes under ``node`` with aliases expanded (shared nodes counted once per use; memoized
    per node so the walk itself stays linear in the file)."""
    import yaml

    if depth > MAX_DEPTH:
        raise InputError(f"{where}: nested deeper than {MAX_DEPTH} levels; a study file is a few "
                         "levels deep (see inspect-stance study --example FILE)")  # fmt: skip
    key = id(node)
    if key in seen:
        return seen[key]
    seen[key] = MAX_NODES + 1  # a node that contains itself (a recursive alias) is too big
    if isinstance(node, yaml.MappingNode):
        children = [c for pair in node.value for c in pair]
    elif isinstance(node, yaml.SequenceNode):
        children = list(node.value)
    else:
        children = []
    total = 1
    for child in children:
        total += _count(child, depth + 1, seen, where)
        if total > MAX_NODES:
            raise InputError(f"{where}: more than {MAX_NODES:,} values once its aliases (*name) "
                             "are expanded; write the values out or drop the aliases")  # fmt: skip
    seen[key] = total
    return total


def _check_keys(node: Any, where: str) -> None:
    """Refuse a key repeated within one mapping (YAML would keep the last one silently)."""
    import yaml

    stack = [node]
    done: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in done:
            continue
        done.add(id(n))
        if isinstance(n, yaml.MappingNode):
            keys: dict[str, int] = {}
            for k, v in n.value:
                if isinstance(k, yaml.ScalarNode):
                    line = k.start_mark.line + 1
                    if k.value in keys:
                        raise InputError(f"{where}: line {line}: key {k.value!r} repeated (first "
                                         f"on line {keys[k.value]}); keep one")  # fmt: skip
                    keys[k.value] = line
                stack += [k, v]
        elif isinstance(n, yaml.SequenceNode):
            stack += n.value


def load_yaml(text: str, where: str) -> Any:
    """The document in ``text`` (module docstring); ``where`` names it in errors."""
    import yaml

    if len(text) > MAX_BYTES:
        raise InputError(f"{where}: over {MAX_BYTES:,} characters; a study file is short")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise InputError(f"{where}: nested too deeply; a study file is a few levels deep") from None
    except yaml.YAMLError as ex:
        first = str(ex).splitlines()[0] if str(ex) else type(ex).__name__
        raise InputError(f"{where}: not YAML ({first}); fix the syntax") from None
    if node is None:
        return None
    _count(node, 0, {}, where)
    _check_keys(node, where)
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(node)
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as ex:
        first = str(ex).splitlines()[0] if str(ex) else type(ex).__name__
        raise InputError(f"{where}: a value YAML cannot read ({first}); fix it") from None
    finally:
        loader.dispose()


def read_yaml(path: Path) -> Any:
    """The YAML document of the file at ``path`` (module docstring)."""
    try:
        if path.stat().st_size > 4 * MAX_BYTES:  # before reading it: a study file is short
            raise InputError(f"study file {path}: over {MAX_BYTES:,} characters; a study file "
                             "is short")  # fmt: skip
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"study file {path}: not UTF-8 text; save it as UTF-8") from None
    except OSError as ex:
        raise InputError(f"study file {path}: cannot be read ({ex.strerror}); check it") from None
    return load_yaml(text, f"study file {path}")
