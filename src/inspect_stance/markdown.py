"""Rendering tables as markdown: one cell format for every report.

Floats print with 3 decimals (values below 1e-3 in 3 significant digits, e.g. p-values),
integral floats above 1 as integers, ``None`` / NaN as ``n/a``, and ``|`` is escaped.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from inspect_stance.printable import printable

if TYPE_CHECKING:
    import pandas as pd

MISSING = "n/a"


def cell(value: Any, digits: int = 3) -> str:
    """One table cell as text (see the module docstring)."""
    if value is None:
        return MISSING
    if isinstance(value, float):
        if math.isnan(value):
            return MISSING
        if value.is_integer() and abs(value) > 1:
            return str(int(value))
        if value != 0 and abs(value) < 1e-3:
            return f"{value:.{digits}g}"
        return f"{value:.{digits}f}"
    return printable(str(value)).replace("|", "\\|")


def md_table(frame: pd.DataFrame, index: str | None = None, digits: int = 3) -> str:
    """``frame`` as a markdown table; with ``index`` the row index is the first column, so
    named."""
    cols = ([index] if index is not None else []) + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for name, row in frame.iterrows():
        cells = [cell(v, digits) for v in row.to_list()]
        if index is not None:
            cells.insert(0, cell(name, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
