"""Names on cards: escaped for text, HTML and JSON, and made safe as file names."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escape_name(name: str) -> str:
    """``name`` with control characters written as ``\\xNN`` (safe in text, HTML, JSON)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(name))


def file_stem(name: str) -> str:
    """A file name for model ``name``: escaped, ``/`` and other unsafe characters as ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", escape_name(name)).strip("._") or "model"
