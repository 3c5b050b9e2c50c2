"""A method that declares its report as a function (Method.report) gets its report command
from the registry and is reported by ``report`` with no command module of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspect_stance.cli import build_parser, main
from inspect_stance.errors import InputError
from inspect_stance.study import protocol
from inspect_stance.study.protocol import Method, ReportRequest


@pytest.fixture
def toy_method():
    calls: list[ReportRequest] = []

    def report(request: ReportRequest) -> list[str]:
        if request.labels.get("bad"):
            raise InputError("bad label; use another")
        Path(request.out).mkdir(parents=True, exist_ok=True)
        (Path(request.out) / "report.md").write_text("toy\n")
        calls.append(request)
        return [f"wrote {request.out}"]

    method = Method(name="toy_method", tasks=("toy_task",), report_command="toy-report",
                    report=report, order=999)  # fmt: skip
    protocol._METHODS[method.name] = method
    yield calls
    del protocol._METHODS[method.name]


def test_declared_report_becomes_a_command(toy_method, tmp_path, capsys) -> None:
    log = tmp_path / "a.eval"
    log.write_text("x")
    out = tmp_path / "out"
    assert main(["toy-report", str(log), "--out", str(out), "--label", "a.eval=A",
                 "--partial"]) == 0  # fmt: skip
    [request] = toy_method
    assert request == ReportRequest((str(log),), str(out), {"a.eval": "A"}, True)
    assert (out / "report.md").read_text() == "toy\n"
    assert f"wrote {out}" in capsys.readouterr().out


def test_declared_report_errors_in_one_line(toy_method, tmp_path, capsys) -> None:
    log = tmp_path / "a.eval"
    log.write_text("x")
    assert main(["toy-report", str(log), "--out", str(tmp_path / "o"), "--label", "bad=1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["inspect-stance toy-report: error: bad label; use another"]


def test_methods_without_the_hook_keep_their_own_commands() -> None:
    parser = build_parser()
    choices = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"report", "press-report", "construction-report"} <= set(choices)
