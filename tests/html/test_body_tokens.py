"""The report's tables on the page: changed in markdown-it's token stream (header cells break
after ``_`` and ``/``, one wide row becomes (column, value) rows), with names still escaped."""

from __future__ import annotations

from inspect_stance.html.body import TRANSPOSE_OVER, markdown_html


def _table(heads: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows]) + "\n"


def test_a_header_breaks_after_underscore_and_slash_and_stays_escaped() -> None:
    html = markdown_html(_table(["judge_x/y <script>", "n"], [["1", "2"]]))
    assert "<th>judge_<wbr>x/<wbr>y &lt;script&gt;</th>" in html
    assert "<script>" not in html
    assert "<td>1</td>" in html  # data cells do not break


def test_one_wide_row_is_shown_as_column_value_rows() -> None:
    n = TRANSPOSE_OVER + 1
    heads = [f"col_{i}" for i in range(n)]
    html = markdown_html(_table(heads, [[f"<v{i}>" for i in range(n)]]))
    assert html.count("<tr>") == n and "<thead>" not in html
    assert '<table class="transposed">\n<tbody>\n<tr>\n<th>col_<wbr>0</th>\n<td>&lt;v0&gt;</td>' \
        in html  # fmt: skip


def test_two_rows_or_few_columns_keep_their_table() -> None:
    n = TRANSPOSE_OVER + 1
    wide = markdown_html(_table([f"c{i}" for i in range(n)], [["1"] * n, ["2"] * n]))
    narrow = markdown_html(_table([f"c{i}" for i in range(TRANSPOSE_OVER)],
                                  [["1"] * TRANSPOSE_OVER]))  # fmt: skip
    assert "transposed" not in wide and "transposed" not in narrow
    assert wide.count("<tr>") == 3 and "<thead>" in narrow
