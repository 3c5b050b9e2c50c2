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
"""

from __future__ import annotations

import re

#: ``![alt](file.png)``; the alt text may hold one level of brackets (``run [seed=1]``)
IMAGE_REF = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^)\s]+\.png)\)")
#: one-row tables wider than this many columns are shown as (column, value) rows
TRANSPOSE_OVER = 8
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s")
_TABLE = re.compile(r"<table>\n<thead>\n<tr>\n(.*?)</tr>\n</thead>\n<tbody>\n<tr>\n(.*?)</tr>\n"
                    r"</tbody>\n</table>", re.S)  # fmt: skip
_CELL = re.compile(r"<(th|td)[^>]*>(.*?)</\1>", re.S)


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


def _breakable(cell: str) -> str:
    """Header text with ``<wbr>`` after each ``_`` and ``/`` outside tags."""
    parts = re.split(r"(<[^>]+>|&[a-z#0-9]+;)", cell)
    return "".join(
        p if p.startswith(("<", "&")) else p.replace("_", "_<wbr>").replace("/", "/<wbr>")
        for p in parts
    )


def _transpose(m: re.Match[str]) -> str:
    heads = [c.group(2) for c in _CELL.finditer(m.group(1))]
    cells = [c.group(2) for c in _CELL.finditer(m.group(2))]
    if len(heads) <= TRANSPOSE_OVER or len(heads) != len(cells):
        return m.group(0)
    rows = "".join(
        f"<tr>\n<th>{h}</th>\n<td>{v}</td>\n</tr>\n" for h, v in zip(heads, cells, strict=True)
    )
    return f'<table class="transposed">\n<tbody>\n{rows}</tbody>\n</table>'


def markdown_html(text: str, depth: int = 1) -> str:
    """The markdown report as HTML (see the module docstring for what changes); its headings move
    ``depth`` levels down (2 in a section of a page of several studies)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    html = str(md.render(shift_headings(drop_empty_sections(IMAGE_REF.sub("", text)), depth)))
    html = _TABLE.sub(_transpose, html)
    return re.sub(r"(<th[^>]*>)(.*?)(</th>)", lambda m: m[1] + _breakable(m[2]) + m[3], html)
