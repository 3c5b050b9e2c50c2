"""Strict parsing of the simulated providers' model args (``-M name=value``).

Inspect hands ``-M`` values to a provider's constructor as YAML-parsed values (or strings from
the Python API / eval-retry). Every simulated provider reads them through these helpers, which
raise a one-line :class:`~inspect_stance.errors.InputError` naming the provider, the argument
and the fix, and rejects arguments it does not know instead of ignoring them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.params import parse_bool, parse_float, parse_int


def arg_bool(provider: str, name: str, value: Any) -> bool:
    """``value`` as a bool: a bool, 0/1, or a true/false word (``true``, ``no``, …)."""
    b = parse_bool(value)
    if b is not None:
        return b
    raise InputError(
        f"{provider}: -M {name}={value!r} is not a boolean; use -M {name}=true or -M {name}=false"
    )


def arg_int(
    provider: str, name: str, value: Any, minimum: int | None = None, example: int = 0
) -> int:
    """``value`` as an integer (an int, an integral float or a string of one) >= ``minimum``."""
    n = parse_int(value)
    if n is None:
        raise InputError(
            f"{provider}: -M {name}={value!r} is not an integer; use e.g. -M {name}={example}"
        )
    if minimum is not None and n < minimum:
        raise InputError(
            f"{provider}: -M {name}={n} is below {minimum}; use e.g. -M {name}={example}"
        )
    return n


def arg_float(
    provider: str,
    name: str,
    value: Any,
    low: float | None = None,
    high: float | None = None,
    example: float = 0.0,
) -> float:
    """``value`` as a finite float within ``[low, high]`` (either bound optional)."""
    x = parse_float(value)
    if x is None:
        raise InputError(
            f"{provider}: -M {name}={value!r} is not a number; use e.g. -M {name}={example}"
        )
    if (low is not None and x < low) or (high is not None and x > high):
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        raise InputError(
            f"{provider}: -M {name}={x:g} is outside [{lo}, {hi}]; use e.g. -M {name}={example}"
        )
    return x


def reject_unknown(provider: str, model_args: Mapping[str, Any], known: Iterable[str]) -> None:
    """Raise when ``model_args`` holds an argument the provider does not know (a typo would
    otherwise be ignored silently)."""
    unknown = sorted(set(model_args) - set(known))
    if unknown:
        raise InputError(
            f"{provider}: unknown model argument(s) {', '.join('-M ' + u for u in unknown)}; "
            f"known: {', '.join(sorted(known))}"
        )
