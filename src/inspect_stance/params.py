"""Checking task / scorer parameters, which may arrive as strings (``-T``, config files).

``inspect eval -T name=value`` parses values as YAML, so ``true`` / ``3`` usually arrive typed;
the Python API, ``eval-retry`` task args or a YAML file can still hand over strings such as
``"false"`` or ``"3"``, and ``bool("false")`` is True. These helpers read both forms and raise a
one-line :class:`~inspect_stance.errors.InputError` (a ``ValueError``) naming the parameter and the fix.
"""

from __future__ import annotations

import math

from inspect_stance.errors import InputError

TRUE_WORDS: frozenset[str] = frozenset({"true", "yes", "y", "on", "1"})
FALSE_WORDS: frozenset[str] = frozenset({"false", "no", "n", "off", "0", "none"})


def parse_bool(value: object) -> bool | None:
    """``value`` as a boolean, or None when it is not one: a bool, 0 / 1, or a word of
    :data:`TRUE_WORDS` / :data:`FALSE_WORDS` (any case, surrounding blanks ignored)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    return None


def parse_int(value: object) -> int | None:
    """``value`` as an integer, or None when it is not one: an int (not a bool), an integral
    float, or a string of an integer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def parse_float(value: object) -> float | None:
    """``value`` as a finite float, or None when it is not one: an int or float (not a bool,
    NaN or infinity) or a string of one."""
    x: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        x = float(value)
    elif isinstance(value, str):
        try:
            x = float(value.strip())
        except ValueError:
            x = None
    return x if x is not None and math.isfinite(x) else None


def as_bool(name: str, value: object) -> bool:
    """``value`` as a boolean (:func:`parse_bool`); anything else is a ``ValueError``, an empty
    value too (``-T cache=`` arrives as None: it is not false)."""
    b = None if value is None else parse_bool(value)
    if b is None and (value is None or (isinstance(value, str) and not value.strip())):
        raise InputError(f"{name} is empty; use -T {name}=true or -T {name}=false")
    if b is None:
        raise InputError(
            f"{name} {value!r} is not a boolean; use -T {name}=true or -T {name}=false"
        )
    return b


def as_int(name: str, value: object, minimum: int = 1, example: int = 3) -> int:
    """``value`` as an integer >= ``minimum``: an int, an integral float, or a string of one.

    Booleans and other values are a ``ValueError`` (``... is not an integer; use e.g.
    -T name=example``), as are integers below ``minimum``.
    """
    n = parse_int(value)
    if n is None:
        raise InputError(f"{name} {value!r} is not an integer; use e.g. -T {name}={example}")
    if n < minimum:
        raise InputError(f"{name} {n}; use an integer >= {minimum} (e.g. -T {name}={example})")
    return n
