"""`inspect-stance plan` on PReSS logs: `recommended` in --json, the text, one-line errors."""

from __future__ import annotations

import json
import math

import numpy as np

from inspect_stance.cli import main

from .test_compare_runs import rec, write_log  # noqa: TID252


def _log(tmp_path, n: int, seed: int = 0) -> str:
    rng = np.random.default_rng(seed)
    p = rng.beta(1, 1, n)
    records = [rec(f"statement {i}", ["S^L" if rng.random() < p[i] else "U^L" for _ in range(3)])
               for i in range(n)]  # fmt: skip
    return write_log(tmp_path / f"p{n}.eval", "m/x", records)


def test_plan_json_gives_recommended(tmp_path, capsys) -> None:
    path = _log(tmp_path, 19)
    args = ["plan", path, "--json", "--target-se", "0.08", "--max-statements", "300"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    r = out["recommended"]
    assert out["method"] == "press" and r["method"] == "press"
    assert r["calls"] == r["statements"] * 5 * r["argument_sets"]  # 2 arguer + 3 target calls
    assert r["prob_meets_target"] >= 0.8 and r["predicted_se"] < 0.08
    c = out["runs"][0]["components"]
    expected = math.sqrt((c["between_statements"] + c["within_statement"] / r["argument_sets"])
                         / r["statements"])  # fmt: skip
    assert math.isclose(r["predicted_se"], expected, rel_tol=1e-9)
    assert main(["plan", path]) == 0
    text = capsys.readouterr().out
    assert "share stable" in text and "recommended for SE <=" in text


def test_bad_input_is_one_line(tmp_path, capsys) -> None:
    assert main(["plan", _log(tmp_path, 1)]) == 2
    err = capsys.readouterr().err.strip()
    assert "at least 2" in err and len(err.splitlines()) == 1
