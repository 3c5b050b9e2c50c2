"""One cell format for every report table (markdown and terminal): no ``-0.000``, no
round-off such as ``-1e-17``, integers as integers; and the PReSS factor analysis warns
when it rests on too few observations (a scree plot of 4 draws was drawn without one)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from inspect_stance.markdown import cell, md_table, text_table
from inspect_stance.press.factor_analysis import FactorData, factor_analysis
from inspect_stance.press.report_markdown import factor_result_blocks
from inspect_stance.press.report_tables import FactorSection
from inspect_stance.press.scree import few_observations_warning
from inspect_stance.report_doc import Report


@pytest.mark.parametrize(
    ("value", "text"),
    [(-0.0, "0.000"), (-1e-17, "0.000"), (3e-13, "0.000"), (np.float64(-0.0), "0.000"),
     (np.int64(500), "500"), (500, "500"), (500.0, "500"), (0.25, "0.250"), (-0.25, "-0.250"),
     (2e-5, "2e-05"), (np.float32(0.5), "0.500"), (float("nan"), "n/a"), (None, "n/a"),
     (True, "True")],
)  # fmt: skip
def test_cell(value: object, text: str) -> None:
    assert cell(value) == text


def test_terminal_and_markdown_tables_print_the_same_cells() -> None:
    frame = pd.DataFrame({"n": [500, 0], "share": [-0.0, 0.1234], "p": [2e-5, -1e-17]})
    md_rows = [line.strip("| ").split(" | ") for line in md_table(frame).splitlines()[2:]]
    # a count column stays integers beside float columns (0, not 0.000)
    assert md_rows == [["500", "0.000", "2e-05"], ["0", "0.123", "0.000"]]
    text = text_table(frame)
    assert "-0.000" not in text and "e-17" not in text and "500" in text and "0.123" in text
    assert "500.0" not in text  # pandas' own float format would give 500.000 / 0.000 mixes


def _data(n_obs: int, n_stmts: int) -> FactorData:
    rng = np.random.default_rng(0)
    m = rng.choice([-1.0, 1.0], size=(n_obs, n_stmts))
    return FactorData(
        matrix=m,
        statements=[f"s{k}" for k in range(n_stmts)],
        biases=["right" if k % 2 else "left" for k in range(n_stmts)],
        statement_ids=list(range(n_stmts)),
        models=["m"] * n_obs,
        draws_by_model={"m": n_obs},
        kept_by_model={"m": n_obs},
    )


def test_few_observations_are_warned_in_the_report() -> None:
    few = factor_analysis(_data(4, 7))
    warning = few_observations_warning(few)
    assert warning is not None and "4 for 7 statements" in warning and "at most 3" in warning
    assert few_observations_warning(factor_analysis(_data(240, 19))) is None
    from inspect_stance.press.factor_analysis import factor_tables

    tables = factor_tables(few)
    section = FactorSection(data=_data(4, 7), result=few, tables=tables, rank=3)
    text = Report(None, factor_result_blocks(section, "pf")).markdown()
    assert f"**Warning: {warning}.**" in text
    assert text.index("Warning") < text.index("![scree plot]")
