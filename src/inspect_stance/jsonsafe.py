"""JSON-safe values: JSON has no NaN or infinity, so the reports write ``null`` for them."""

from __future__ import annotations

import math
from typing import Any, SupportsFloat


def finite_or_none(x: SupportsFloat) -> float | None:
    """``float(x)``, or None when it is NaN or infinite."""
    v = float(x)
    return v if math.isfinite(v) else None


def json_safe(obj: Any) -> Any:
    """``obj`` with every non-finite float (NaN, +-inf) replaced by None, through dicts, lists
    and tuples (a tuple becomes a list, as ``json.dumps`` writes it); other values unchanged."""
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
