"""A method that declares its report as a function (Method.report) gets its report command
from the registry and is reported by ``report`` with no command module of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspect_stance.cli import build_parser, main
from inspect_stance.errors import InputError
from inspect_stance.study import protocol
from inspect_stance.study.protocol import Method, ReportCommand, ReportOption, ReportRequest


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


def test_every_method_declares_its_report_and_keeps_its_command() -> None:
    """Every registered method's report is a function; its own command is still there."""
    from inspect_stance.study.registry import methods

    parser = build_parser()
    choices = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    for method in methods():
        assert method.report is not None, f"{method.name} declares no report function"
        assert method.report_command in choices


OPTIONS = (
    ReportOption("--level", "a number", 0.5, "number"),
    ReportOption("--steps", "an integer", 1, "integer", "K"),
    ReportOption("--strict-mode", "a flag", kind="flag"),
    ReportOption("--tag", "repeatable", kind="repeat"),
    ReportOption("--human-file", "a text"),
)


@pytest.fixture
def optioned_method():
    """A toy method whose report command has options of every kind and prints JSON."""
    calls: list[ReportRequest] = []

    def report(request: ReportRequest) -> list[str]:
        calls.append(request)
        return ["{}" if request.json else "text"]

    cli = ReportCommand("toy report", "The toy report.", out="toy_out", json=True, options=OPTIONS)
    method = Method(name="toy_opts", tasks=("toy_opts_task",), report_command="toy-opts-report",
                    report=report, report_cli=cli, order=999)  # fmt: skip
    protocol._METHODS[method.name] = method
    yield calls, method
    del protocol._METHODS[method.name]


def test_the_alias_passes_its_own_options_by_dest(optioned_method, tmp_path, capsys) -> None:
    calls, _ = optioned_method
    log = tmp_path / "a.eval"
    log.write_text("x")
    argv = ["toy-opts-report", str(log), "--out", str(tmp_path / "o"), "--level", "0.25",
            "--steps", "3", "--strict-mode", "--tag", "a", "--tag", "b", "--json"]  # fmt: skip
    assert main(argv) == 0
    [request] = calls
    assert request.json is True
    assert request.options == {"level": 0.25, "steps": 3, "strict_mode": True,
                               "tag": ["a", "b"], "human_file": None}  # fmt: skip
    assert capsys.readouterr().out.strip() == "{}"


def test_the_alias_fills_in_the_defaults(optioned_method, tmp_path, monkeypatch) -> None:
    """Without options the request carries the declared defaults, which are also what
    ``report`` passes over several methods' logs (``ReportCommand.defaults``)."""
    calls, method = optioned_method
    log = tmp_path / "a.eval"
    log.write_text("x")
    monkeypatch.chdir(tmp_path)
    assert main(["toy-opts-report", str(log)]) == 0
    [request] = calls
    expected = {"level": 0.5, "steps": 1, "strict_mode": False, "tag": None, "human_file": None}
    assert request.options == expected == method.report_cli.defaults()
    assert request.out == "toy_out" and request.json is False


def test_report_over_several_methods_calls_each_report_function(optioned_method, tmp_path,
                                                                capsys) -> None:  # fmt: skip
    """``report`` writes each method present by its function, given its labels, ``--partial``
    and its options' defaults; a method whose report raises says so in one line and the other
    reports are still written."""
    from inspect_stance.cli.report import write_methods
    from inspect_stance.study.inputs import SortedInputs

    calls, _ = optioned_method
    log_a, log_b = tmp_path / "a.eval", tmp_path / "b.eval"

    def broken(request: ReportRequest) -> list[str]:
        raise RuntimeError("boom\nsecond line")

    other = Method(name="toy_broken", tasks=("toy_broken_task",), report_command="broken-report",
                   report=broken, order=998)  # fmt: skip
    protocol._METHODS[other.name] = other
    try:
        found = SortedInputs({"toy_opts": [log_a], "toy_broken": [log_b]})
        code, written = write_methods(found, tmp_path / "out", {"a.eval": "A"}, partial=True)
    finally:
        del protocol._METHODS[other.name]
    assert code == 2 and [w.method.name for w in written] == ["toy_opts"]
    [request] = calls
    assert request == ReportRequest((str(log_a),), str(tmp_path / "out" / "toy_opts_task"),
                                    {"a.eval": "A"}, True, False,
                                    {"level": 0.5, "steps": 1, "strict_mode": False, "tag": None,
                                     "human_file": None})  # fmt: skip
    err = capsys.readouterr().err
    assert "inspect-stance broken-report: internal error (boom); this is a bug" in err
    assert "RuntimeError" not in err
    assert "toy_broken report not written (exit 2)" in err
