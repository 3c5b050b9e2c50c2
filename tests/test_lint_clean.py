"""Inspect's eval linter (``inspect-evals-lint``, the ``single-eval`` preset set in pyproject.toml)
passes, and passes only by the suppressions listed here, each with its reason.

``.ci/run`` runs the command line; this test also fails on what the command line lets through
(exit 0): a suppression comment without a reason (a ``suppression_syntax`` warning) and a new
suppression nobody listed below. It lints what ``.ci/run`` lints: src/inspect_stance (the
evaluation) and the Inspect layer in tasks/, solvers/ and scorers/ (helper packages; each is
named by a file in it, as ``--task`` takes it). Slow tier: the linter reads every file of the
package (about 25 s of CPU).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# one file of each package .ci/run lints (its --task arguments), with the package's name and kind
PACKAGES = {
    "src/inspect_stance/__init__.py": ("inspect_stance", "eval"),
    "tasks/__init__.py": ("tasks", "helper"),
    "solvers/__init__.py": ("solvers", "helper"),
    "scorers/__init__.py": ("scorers", "helper"),
}
# (rule, file) of every finding the repository suppresses; each comment or per-file-ignores
# entry says why (inspect_adapter.py: the public API Inspect 0.3.285 lacks)
SUPPRESSED = {
    ("main_file", "src/inspect_stance/inspect_stance.py"),  # tasks live in tasks/ (pyproject)
    ("private_api_imports", "src/inspect_stance/inspect_adapter.py"),
    ("get_model_location", "src/inspect_stance/study_file/runner.py"),
    # a Flow task factory binds a role's model before Flow creates the task
    ("get_model_location", "src/inspect_stance/study_file/flow.py"),
    # the import of inspect_stance itself (the layer ships inside it), at its first site per
    # package; test_only_inspect_stance_is_taken_for_undeclared checks nothing else is hidden
    ("external_dependencies", "tasks/even_handedness.py"),
    ("external_dependencies", "solvers/even_handedness.py"),
    ("external_dependencies", "scorers/construction_controls.py"),
}
# the warnings left, as (rule, file): none (PLW1514, the one curated ruff rule, is on:
# pyproject [tool.ruff.lint]). Every @metric runs through Inspect's epoch handling in a test
# that imports pytest_inspect_evals.metrics (custom_metric_tests): the metrics that read score
# metadata take every epoch (scores="unreduced"), so --epochs N counts each epoch
WARNINGS: set[tuple[str, str]] = set()


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run():
    lint = pytest.importorskip("inspect_evals_lint")
    run = lint.lint_task_files(ROOT, list(PACKAGES), lint.load_config(ROOT))
    assert [(p.name, p.kind) for p in run.packages] == list(PACKAGES.values())
    return run


def _diagnostics(run) -> list:
    return [d for package in run.packages for d in package.diagnostics]


def _where(d) -> tuple[str, str]:
    return d.rule.name, Path(d.file).resolve().relative_to(ROOT).as_posix()


def test_ci_lints_these_packages():
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert ci.count("--task ") == len(PACKAGES)
    for file in PACKAGES:
        assert f"--task {file}" in ci, file


def test_every_rule_met(run):
    failing = [f"{d.rule.code} {_where(d)}: {d.message}" for d in _diagnostics(run)
               if d.severity == "error" and not d.suppressed]  # fmt: skip
    assert run.passed() and not failing, failing


def test_only_the_listed_suppressions(run):
    assert {_where(d) for d in _diagnostics(run) if d.suppressed} == SUPPRESSED


def test_only_inspect_stance_is_taken_for_undeclared(run):
    hidden = [d.message for d in _diagnostics(run)
              if d.suppressed and d.rule.name == "external_dependencies"]  # fmt: skip
    assert hidden and all("package 'inspect_stance'" in m for m in hidden), hidden


def test_no_unexpected_warning(run):
    warned = {(d.rule.name, _where(d)[1]) for d in _diagnostics(run) if d.status == "warn"}
    assert not {w for w in warned if w[0] == "suppression_syntax"}, "a comment gives no reason"
    assert warned == WARNINGS, warned
