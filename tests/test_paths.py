"""-T file parameters are relative to the shell's directory even though Inspect chdirs to tasks/."""

from __future__ import annotations

from inspect_stance.paths import user_path


def test_relative_path_found_from_shell_directory(tmp_path, monkeypatch):
    (tmp_path / "tasks").mkdir()
    (tmp_path / "props.txt").write_text("We should do A\n")
    monkeypatch.setenv("PWD", str(tmp_path))
    monkeypatch.chdir(tmp_path / "tasks")  # what `inspect eval tasks/x.py` does
    assert user_path("props.txt") == str(tmp_path / "props.txt")
    # found nowhere: returned as typed, so the caller's error names it
    assert user_path("absent.txt") == "absent.txt"
    # hub ids stay hub ids
    assert user_path("facebook/bart-large-mnli") == "facebook/bart-large-mnli"
