"""Rendering tables as markdown: one cell format for every report.

Floats print with 3 decimals (values below 1e-3 in 3 significant digits, e.g. p-values),
integral floats above 1 as integers, ``None`` / NaN as ``n/a``, and ``|`` is escaped; integers
(also numpy's) as integers; zero and round-off below ``1e-12`` as ``0.000`` (never ``-0.000``
or ``-1e-17``). :func:`md_table` (markdown) and :func:`text_table` (terminal) both use it.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

from inspect_stance.printable import md_cell

if TYPE_CHECKING:
    import pandas as pd

MISSING = "n/a"
#: below this a float is round-off of 0 (printed as 0.000, without a sign)
ROUND_OFF = 1e-12


def cell(value: Any, digits: int = 3) -> str:
    """One table cell as text (see the module docstring)."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isnan(value):
            return MISSING
        if abs(value) < ROUND_OFF:
            value = 0.0  # also -0.0 and round-off such as -1e-17
        if value.is_integer() and abs(value) > 1:
            return str(int(value))
        if value != 0 and abs(value) < 1e-3:
            return f"{value:.{digits}g}"
        return f"{value:.{digits}f}"
    return md_cell(value)


def md_table(frame: pd.DataFrame, index: str | None = None, digits: int = 3) -> str:
    """``frame`` as a markdown table; with ``index`` the row index is the first column, so
    named."""
    cols = ([index] if index is not None else []) + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    # object dtype first: iterrows would turn a count column's 0 into 0.0 beside float columns
    for name, row in frame.astype(object).iterrows():
        cells = [cell(v, digits) for v in row.to_list()]
        if index is not None:
            cells.insert(0, cell(name, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def text_table(frame: pd.DataFrame, digits: int = 3) -> str:
    """``frame`` for the terminal (``DataFrame.to_string``) with every cell in the
    :func:`cell` format, so terminal and markdown tables print the same numbers."""
    return frame.map(lambda v: cell(v, digits)).to_string()
