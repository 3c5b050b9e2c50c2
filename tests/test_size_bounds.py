"""Every size a user sets through ``-T`` is bounded before any work, with the bound stated by
``inspect-stance params`` and the docs' tables (size_bounds, one table)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspect_stance.cli import main
from inspect_stance.errors import InputError
from inspect_stance.size_bounds import MAX_SIZES, check_size

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("name", "value"), [("trials", 10_001), ("hops", 101), ("turns", 21),
                                             ("limit", 1_351), ("limit_propositions", 113)])  # fmt: skip
def test_one_beyond_the_bound_is_refused_in_one_line(name: str, value: int) -> None:
    check_size(name, value - 1)  # the bound itself passes
    with pytest.raises(InputError) as ex:
        check_size(name, value)
    text = str(ex.value)
    assert "\n" not in text and f"give at most {value - 1:,}" in text


def test_a_size_of_its_own_data_file_is_the_task_s_to_check() -> None:
    check_size("limit_propositions", 500, {"propositions": "mine.tsv"})
    check_size("trials", True)  # not a size: the option's own check refuses it


def test_params_states_every_bound_of_the_task(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["params", "stance_drift"]) == 0
    out = capsys.readouterr().out
    for name in ("trials", "hops", "limit_propositions", "words_limit"):
        row = next(line for line in out.splitlines() if line.startswith(f"| `{name}` |"))
        assert row.endswith(f"At most {MAX_SIZES[name][0]:,}. |"), row


def test_inspect_eval_refuses_before_any_work(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "tasks/stance_drift.py", "--model",
         "stance_sim/respondent", "-T", "trials=1000000", "--log-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0
    assert "trials=1,000,000 is more than 10,000" in done.stdout + done.stderr
    assert not list(tmp_path.glob("*.eval"))  # no log: nothing ran
