"""``inspect-stance label-sample`` on a real prompt-construction log: a stratified random
sample whose filled-in file gives PPI estimates for both methods (the docs' old "every k-th
sample id" advice gave one method only and ``n/a``), warnings on stderr, bad --out first."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.prompt_construction import prompt_construction

from inspect_stance.cli import main


def _sim(name: str, **args):
    return get_model(f"construction_sim/{name}", memoize=False, **args)


@pytest.fixture(scope="module")
def log_path(tiny_inputs, tmp_path_factory) -> str:
    log_dir = tmp_path_factory.mktemp("label_sample_logs")
    (log,) = inspect_eval(
        prompt_construction,
        task_args={
            "topics": str(tiny_inputs["topics"]),
            "writing_templates": str(tiny_inputs["writing"]),
            "templates_per_setting": 2,
            "prompts_per_setting": 2,
            "prompter_cache": False,
        },
        model=_sim("target", topics=str(tiny_inputs["topics"])),
        model_roles={"judges": [_sim("judge_exact")], "prompter": _sim("prompter")},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success"
    return log.location


def test_label_sample_round_trip(log_path, tmp_path, capsys) -> None:
    out = tmp_path / "ids.csv"
    assert main(["label-sample", log_path, "--n", "40", "--seed", "1", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 40 and "wrote 40 sample ids from" in captured.out
    per = Counter((r["setting"], r["method"]) for r in rows)
    strata = int(captured.out.split(" from ")[1].split()[0])
    assert len(per) == min(strata, 40) and max(per.values()) - min(per.values()) <= 1
    assert {r["method"] for r in rows} == {"templated", "generated"}
    if strata * 2 > 40:
        assert "fewer than 2 labels" in captured.err
    for r in rows:
        r["label"] = "3"
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    report = tmp_path / "report"
    assert main(["construction-report", log_path, "--out", str(report),
                 "--human-labels", str(out)]) == 0  # fmt: skip
    text = (report / "construction_report.md").read_text()
    section = text.split("Lean corrected with human labels (PPI)")[1].split("\n## ")[0]
    for method in ("templated", "generated"):  # both methods labelled: a PPI lean for each
        [line] = [x for x in section.splitlines() if f"| lean_{method} |" in x]
        ppi, low, high = line.split(" | ")[3:6]
        assert "n/a" not in (ppi, low, high) and float(low) <= float(ppi) <= float(high), line


def test_bad_out_is_refused_before_any_work(tmp_path, capsys) -> None:
    code = main(["label-sample", str(tmp_path / "missing.eval"), "--n", "5",
                 "--out", str(tmp_path / "nofolder" / "ids.csv")])  # fmt: skip
    assert code == 2 and "folder" in capsys.readouterr().err
