"""The markdown report as the page's "Report" section (markdown-it-py, GitHub tables).

What changes on the way, so the page says each thing once and every table fits a 1,200 px window:

- image references are dropped (the figures have their own section), with the headings they
  leave empty; the report's own ``# title`` is dropped (the page has it) and its other headings
  move one level down, under the page's "Report" heading (two on a page of several studies,
  under the study's section);
- a table of one row and more than :data:`TRANSPOSE_OVER` columns is shown as a two-column
  table (column, value): one wide row is read as a list of figures anyway;
- header cells may break after ``_`` and ``/`` (``<wbr>``), so ``share_indeterminate`` or
  ``judge_x/y exact`` need not set a column's width;
- raw HTML in the input is escaped.

The tables are changed in markdown-it's token stream before it renders them: no pattern is
matched against the HTML it writes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from markdown_it.token import Token

#: ``![alt](file.png)``; the alt text may hold one level of brackets (``run [seed=1]``)
IMAGE_REF = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^)\s]+\.png)\)")
#: one-row tables wider than this many columns are shown as (column, value) rows
TRANSPOSE_OVER = 8
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s")
#: where a header cell's text may break: after each ``_`` and ``/``
_BREAK_AFTER = re.compile(r"(?<=[_/])")


def _level(line: str) -> int:
    m = _HEADING.match(line)
    return len(m.group(1)) if m else 0


def drop_empty_sections(text: str) -> str:
    """Remove headings left without content (a section that held only figures): a heading
    followed, past blank lines, by a heading of the same or a higher level, or by the end."""
    lines = text.splitlines()
    changed = True
    while changed:
        changed = False
        for i, line in enumerate(lines):
            level = _level(line)
            if not level:
                continue
            rest = [x for x in lines[i + 1 :] if x.strip()]
            if not rest or 0 < _level(rest[0]) <= level:
                del lines[i]
                changed = True
                break
    return "\n".join(lines)


def shift_headings(text: str, depth: int = 1) -> str:
    """Drop the first ``# title`` line and move every other heading ``depth`` levels down (at
    most ``######``); lines inside fenced code blocks are left alone."""
    out, fenced, dropped = [], False, False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        level = 0 if fenced else _level(line)
        if level == 1 and not dropped:
            dropped = True
            continue
        down = min(depth, 6 - level) if level else 0
        out.append("#" * down + line)
    return "\n".join(out)


def _breakable(inline: Token) -> None:
    """A header cell's text may break after each ``_`` and ``/``: each text piece of the cell
    is split after them, with a ``<wbr>`` token between the pieces (the pieces stay text,
    escaped by the renderer)."""
    from markdown_it.token import Token

    children: list[Token] = []
    for child in inline.children or []:
        if child.type != "text":
            children.append(child)
            continue
        for k, piece in enumerate(_BREAK_AFTER.split(child.content)):
            if k:
                children.append(Token("html_inline", "", 0, content="<wbr>"))
            if piece:
                children.append(Token("text", "", 0, content=piece))
    inline.children = children


def _cells(tokens: list[Token], start: int, end: int, kind: str) -> list[Token]:
    """The inline tokens of the ``kind`` cells (``th``/``td``) among ``tokens[start:end]``."""
    return [tokens[i + 1] for i in range(start, end) if tokens[i].type == f"{kind}_open"]


def _transposed(heads: list[Token], cells: list[Token]) -> list[Token]:
    """A (column, value) table of one row: one ``<tr>`` per column, its header then its cell."""
    from markdown_it.token import Token

    def block(kind: str, tag: str, nesting: Literal[-1, 1], **attrs: str) -> Token:
        return Token(kind, tag, nesting, attrs=dict(attrs), block=True)

    out = [block("table_open", "table", 1, **{"class": "transposed"}),
           block("tbody_open", "tbody", 1)]  # fmt: skip
    for head, cell in zip(heads, cells, strict=True):
        out += [block("tr_open", "tr", 1), block("th_open", "th", 1), head,
                block("th_close", "th", -1), block("td_open", "td", 1), cell,
                block("td_close", "td", -1), block("tr_close", "tr", -1)]  # fmt: skip
    return [*out, block("tbody_close", "tbody", -1), block("table_close", "table", -1)]


def _tables(tokens: list[Token]) -> list[Token]:
    """``tokens`` with every header cell breakable (:func:`_breakable`) and each table of one
    row and more than :data:`TRANSPOSE_OVER` columns as (column, value) rows."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        if tokens[i].type != "table_open":
            out.append(tokens[i])
            i += 1
            continue
        end = next(j for j in range(i, len(tokens)) if tokens[j].type == "table_close")
        body = next(j for j in range(i, end) if tokens[j].type == "tbody_open") if any(
            t.type == "tbody_open" for t in tokens[i:end]) else end  # fmt: skip
        heads, cells = _cells(tokens, i, body, "th"), _cells(tokens, body, end, "td")
        for head in heads:
            _breakable(head)
        rows = sum(t.type == "tr_open" for t in tokens[body:end])
        if rows == 1 and len(heads) > TRANSPOSE_OVER and len(heads) == len(cells):
            out += _transposed(heads, cells)
        else:
            out += tokens[i : end + 1]
        i = end + 1
    return out


def markdown_html(text: str, depth: int = 1) -> str:
    """The markdown report as HTML (see the module docstring for what changes); its headings move
    ``depth`` levels down (2 in a section of a page of several studies). The tables are changed
    in markdown-it's token stream, before rendering (:func:`_tables`)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    env: dict[str, object] = {}
    tokens = md.parse(shift_headings(drop_empty_sections(IMAGE_REF.sub("", text)), depth), env)
    return str(md.renderer.render(_tables(tokens), md.options, env))
