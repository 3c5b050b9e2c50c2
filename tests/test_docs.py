"""The docs stay in step with the code: parameter tables come from the tasks' docstrings."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from inspect_stance import docgen
from inspect_stance.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def test_parameter_tables_are_generated_from_the_task_docstrings():
    stale = docgen.stale_documents(ROOT, write=False)
    assert stale == [], f"run `python -m inspect_stance.docgen` ({stale})"


def test_every_task_documents_every_parameter_once():
    checked = 0
    for specs in docgen.documented_tasks().values():
        for spec in specs:
            fn = docgen._load(spec)  # a task module that fails to import fails the test
            checked += 1
            table = docgen.parameter_table(fn)
            for name, p in inspect.signature(fn).parameters.items():
                if p.kind is inspect.Parameter.VAR_KEYWORD:  # **unknown: rejected, not a parameter
                    assert f"| `{name}` |" not in table
                else:
                    assert f"| `{name}` |" in table
    assert checked == sum(len(specs) for specs in docgen.documented_tasks().values()) >= 6


def test_a_documented_task_that_fails_to_import_is_an_error(monkeypatch):
    monkeypatch.setattr(
        docgen, "documented_tasks",
        lambda: {"docs/stance_drift.md": ("inspect_stance.tasks.no_such:task",)},
    )  # fmt: skip
    with pytest.raises(ModuleNotFoundError):
        docgen.stale_documents(ROOT, write=False)


def test_an_undocumented_parameter_is_an_error():
    def task_like(trials: int = 3, seed: int = 0) -> None:
        """A task.

        Args:
            trials: trials per sample.
        """

    with pytest.raises(InputError, match="undocumented: seed"):
        docgen.parameter_table(task_like)


def test_table_rows_hold_default_and_the_whole_description():
    def task_like(variant: str = "default", limit: int | None = None) -> None:
        """A task.

        Args:
            variant: default | reversed, the option
                order.
            limit: first N only.
        """

    table = docgen.parameter_table(task_like)
    assert "| `variant` | `'default'` | default \\| reversed, the option order. |" in table
    assert "| `limit` | — | first N only. |" in table
