"""Text from a run (model names, Inspect tags, ``--label`` values, file names) made safe to print.

A control character in a name would otherwise reach the terminal as itself: a line feed starts a
new line (``\\n::warning::x`` on stdout is a workflow command to a CI system), ESC starts a
terminal escape sequence, and both break markdown tables and XML. :func:`printable` writes each
such character as its Python escape (``\\n``, ``\\x1b``, ``\\u2028``), so the name stays one
readable line and distinct names stay distinct.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories written as escapes: controls, format characters (e.g. bidirectional
#: overrides), line and paragraph separators.
ESCAPED_CATEGORIES: frozenset[str] = frozenset({"Cc", "Cf", "Zl", "Zp"})


def printable(text: str) -> str:
    """``text`` with every character of :data:`ESCAPED_CATEGORIES` written as its escape
    (``"a\\nb"`` becomes ``"a\\\\nb"``); other text unchanged."""
    if text.isprintable():
        return text
    return "".join(
        c.encode("unicode_escape").decode("ascii")
        if unicodedata.category(c) in ESCAPED_CATEGORIES
        else c
        for c in text
    )


def printable_lines(text: str) -> str:
    """``text`` whose own line breaks are kept (a multi-line table) and every other control
    character escaped: each line through :func:`printable`."""
    return "\n".join(printable(line) for line in text.split("\n"))


#: Markdown's live syntax in a name, each written as text: HTML (``<``, ``>``, ``&`` as entities)
#: and the characters of links, images, code spans and table cells (backslash-escaped)
_MD_ESCAPES: dict[str, str] = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\\": "\\\\",
    "[": "\\[",
    "]": "\\]",
    "`": "\\`",
    "|": "\\|",
}


def md_text(text: object) -> str:
    """``text`` safe inside Markdown (a heading, a list item, a table cell): :func:`printable`,
    then HTML written as entities (``<script>`` shows as text, no tag) and the link, image,
    code-span and cell syntax backslash-escaped (``[x](javascript:...)`` shows as text, no
    link)."""
    return "".join(_MD_ESCAPES.get(c, c) for c in printable(str(text)))


def md_cell(text: object) -> str:
    """``text`` safe in a Markdown table cell that may also hold the report's own figures
    (``0.41 [0.35, 0.47]``): :func:`printable`, then HTML written as entities (``&``, ``<``,
    ``>``), a link's ``](`` written ``\\](`` (``[x](javascript:...)`` shows as text) and ``|``
    written ``\\|``; an interval's brackets stay as they are."""
    out = "".join(_MD_ESCAPES.get(c, c) if c in "&<>|" else c for c in printable(str(text)))
    return out.replace("](", "\\](")


def html_text(text: object) -> str:
    """``text`` safe in HTML text and quoted attributes: :func:`printable`, then
    ``html.escape`` (``& < > " '``)."""
    import html

    return html.escape(printable(str(text)))


def annotation_text(text: object) -> str:
    """``text`` safe in a line of terminal or CI output (a GitHub workflow command reads
    ``::warning::`` only at the start of a line): :func:`printable`, one line."""
    return printable(str(text))
