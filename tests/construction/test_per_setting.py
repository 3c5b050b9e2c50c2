"""``compare --per-setting``: a row for every shared cell, also when the responses have no
spread (the difference is then exact, said in the test line), and a note when there is none."""

from __future__ import annotations

import math

import pytest

from inspect_stance.construction.compare import per_setting, per_setting_note
from inspect_stance.construction.records import Record
from inspect_stance.construction.settings import Setting


def _recs(scores: list[int], stance: str = "neutral") -> list[Record]:
    s = Setting(1, "writing", stance)
    return [Record(f"id{k}", s, "templated", str(v)) for k, v in enumerate(scores)]


def test_zero_spread_cells_that_differ_give_a_row():
    (row,) = per_setting(_recs([1, 1, 1]), _recs([2, 2, 2]), ("A", "B"), 0.95)
    assert row.delta == 1.0 and row.ci == (1.0, 1.0)
    assert "zero variance" in row.test
    # exact permutation test: 2 of the C(6, 3) = 20 splits are as extreme
    assert row.p == pytest.approx(2 / 20)


def test_identical_zero_spread_cells_give_a_row_with_p_one():
    (row,) = per_setting(_recs([3, 3]), _recs([3, 3, 3]), ("A", "B"), 0.95)
    assert row.delta == 0.0 and row.p == 1.0


def test_a_cell_with_one_response_gives_a_row_without_a_test():
    (row,) = per_setting(_recs([3]), _recs([2, 4]), ("A", "B"), 0.95)
    assert row.delta == 0.0 and math.isnan(row.p) and "fewer than 2" in row.test


def test_welch_rows_unchanged_with_spread():
    (row,) = per_setting(_recs([1, 2, 3]), _recs([2, 3, 5]), ("A", "B"), 0.95)
    assert row.delta == pytest.approx(4 / 3) and row.ci[0] < row.delta < row.ci[1]
    assert "Welch" in row.test


def test_no_shared_cell_is_said():
    rows = per_setting(_recs([1, 2]), _recs([2, 3], stance="pro"), ("A", "B"), 0.95)
    assert rows == []
    assert "no setting x method cell" in per_setting_note(rows)
    assert per_setting_note(per_setting(_recs([1, 2]), _recs([2, 3]), ("A", "B"), 0.95)) == ""
