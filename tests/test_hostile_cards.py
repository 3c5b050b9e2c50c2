"""Hostile names and files on ``card`` and the dataframes: a target, model or tag carrying HTML,
a javascript: link, control or bidirectional characters is written as text in every card
file; two names mapping to one file name get two files; a corrupt log is set aside with one line
naming it (``--strict`` refuses); ``--out`` and ``--since`` are checked before any work; a later
unfinished run never replaces a finished one silently; ``runs_df`` redacts a base URL's password
and ``items_df`` keeps per-item values unrounded."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inspect_stance.cli import main

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "evil\u202etxt.exe\u200b",
    "a\r\n::warning::pwned",
]


def _eval(log_dir: Path, target: str, limit: int = 2, **kw) -> Path:
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval("inspect_stance/even_handedness", model="even_sim/target",
                        model_roles={"graders": "even_sim/grader"}, task_args={"limit": limit},
                        log_dir=str(log_dir), display="none",
                        metadata={"stance_study": "hx", "stance_target": target}, **kw)  # fmt: skip
    return Path(logs[0].location.removeprefix("file://"))


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hostile-logs")
    for name in [*HOSTILE, "team a", "team_a", "x" * 400]:
        _eval(d, name)
    return d


def _one_line(err: str) -> str:
    err = err.strip()
    assert "\n" not in err, err
    assert not re.search(r"Traceback|KeyError|EOCD|BadZipFile|Error:", err.split("error:")[-1]), err
    return err


def test_no_live_markup_or_raw_bidi_in_any_card_file(logs, tmp_path, capsys):
    out = tmp_path / "cards"
    assert main(["card", str(logs), "--out", str(out)]) == 0
    md = "".join(p.read_text() for p in out.glob("*.md"))
    html = "".join(p.read_text() for p in out.glob("*.html"))
    for text in (md, html):
        assert "<script" not in text and "<img src=x" not in text and "\u202e" not in text
        assert "\u200b" not in text and "\r" not in text
        assert not re.search(r"^::warning::", text, re.M)
    assert "](javascript:" not in md.replace("\\]", "")  # the link syntax is escaped
    assert "\\[x\\](javascript:alert(1))" in md
    assert "&lt;script&gt;" in md
    for p in out.iterdir():
        assert p.name.isprintable() and len(p.name) < 120, p.name


def test_two_names_with_one_file_name_get_two_cards(logs, tmp_path, capsys):
    out = tmp_path / "cards"
    assert main(["card", str(logs), "--out", str(out)]) == 0
    targets = {json.loads(p.read_text())["target"] for p in out.glob("*.json")
               if p.name != "leaderboard.json"}  # fmt: skip
    assert {"team a", "team_a", "x" * 400} <= targets
    assert len(targets) == len(HOSTILE) + 3


def test_a_corrupt_log_is_set_aside_naming_it(logs, tmp_path, capsys):
    import shutil

    d = tmp_path / "mixed"
    shutil.copytree(logs, d)
    bad = d / "2026-01-01T00-00-00+00-00_even-handedness_corrupt.eval"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    assert main(["card", str(d), "--out", str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    assert bad.name in err and "set aside" in err
    assert main(["card", str(d), "--out", str(tmp_path / "c2"), "--strict"]) == 2
    assert bad.name in _one_line(capsys.readouterr().err)


def test_runs_df_sets_aside_a_corrupt_log_naming_it(logs, tmp_path):
    import shutil

    from inspect_stance.analysis import SetAsideWarning, runs_df

    d = tmp_path / "mixed"
    shutil.copytree(logs, d)
    bad = d / "2026-01-01T00-00-00+00-00_even-handedness_corrupt.eval"
    bad.write_bytes(b"garbage")
    with pytest.warns(SetAsideWarning, match=re.escape(bad.name)):
        df = runs_df(d)
    assert len(df) == len(HOSTILE) + 3


@pytest.mark.parametrize("where", ["file", "under-file"])
def test_an_unusable_out_is_refused_first(logs, tmp_path, capsys, where):
    (tmp_path / "f").write_text("x")
    out = tmp_path / "f" if where == "file" else tmp_path / "f" / "sub"
    assert main(["card", str(logs), "--out", str(out)]) == 2
    assert "--out" in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize("content", ["{}", "[1, 2]", '{"methods": 3}', "not json"])
def test_since_on_anything_but_a_card_is_one_line(logs, tmp_path, capsys, content):
    earlier = tmp_path / "earlier.json"
    earlier.write_text(content)
    assert main(["card", str(logs), "--out", str(tmp_path / "c"), "--since", str(earlier)]) == 2
    assert "--since" in _one_line(capsys.readouterr().err)


def test_since_on_a_text_file_is_one_line(logs, tmp_path, capsys):
    earlier = tmp_path / "notes.txt"
    earlier.write_text("hello")
    assert main(["card", str(logs), "--out", str(tmp_path / "c"), "--since", str(earlier)]) == 2
    _one_line(capsys.readouterr().err)


def test_a_later_unfinished_run_does_not_replace_a_finished_one(tmp_path, capsys):
    from inspect_ai.log import read_eval_log, write_eval_log

    d = tmp_path / "runs"
    first = _eval(d, "t", limit=3)
    log = read_eval_log(str(first))
    log.status = "error"
    log.eval.eval_id = "later-failed"
    log.eval.run_id = "later-failed-run"
    log.eval.created = "2099-01-01T00:00:00+00:00"
    write_eval_log(log, str(d / "2099-01-01T00-00-00+00-00_even-handedness_failed.eval"))
    out = tmp_path / "c"
    assert main(["card", str(d), "--out", str(out)]) == 0
    card = json.loads((out / "t.json").read_text())
    entry = card["methods"]["even_handedness"]
    assert Path(entry["log"]).name == first.name
    assert any("did not finish" in n for n in entry["notes"])


def test_runs_df_redacts_a_base_url_password(tmp_path):
    from inspect_ai.log import read_eval_log, write_eval_log

    from inspect_stance.analysis import runs_df

    path = _eval(tmp_path, "t")
    log = read_eval_log(str(path))
    log.eval.model_base_url = "https://user:s3cret@example.com/v1"
    log.eval.model_args = {"api_key": "sk-hidden", "base_url": "https://u:pw2@h.example/v1"}
    write_eval_log(log, str(path))
    text = runs_df(tmp_path).to_csv()
    assert "s3cret" not in text and "sk-hidden" not in text and "pw2" not in text


def test_items_df_values_are_unrounded(tmp_path):
    from inspect_ai import eval as inspect_eval

    from inspect_stance.analysis import items_df

    log = inspect_eval("inspect_stance/stance_drift", model="stance_sim/respondent",
                       model_args={"noise": "realistic"},
                       task_args={"limit_propositions": 2, "trials": 3}, log_dir=str(tmp_path),
                       display="none")[0]  # fmt: skip
    df = items_df(log.location)
    rows = {s.uuid: s.scores["stance_drift_scorer"].metadata for s in log.samples}
    checked = 0
    for r in df[df["score"] == "stance_drift_scorer"].itertuples():
        meta = rows[r.sample_id]
        if meta.get("row") is not None:
            assert r.value == meta["row"][meta["initial_stance"]]
            checked += 1
    assert checked


def test_a_foreign_task_log_is_set_aside_naming_it(tmp_path, capsys):
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import match

    log = inspect_eval(Task(dataset=[Sample(input="hi", target="hi")], scorer=match(),
                            name="foreign"), model="mockllm/model", log_dir=str(tmp_path / "F"),
                       display="none")[0]  # fmt: skip
    _eval(tmp_path / "F", "t")
    assert main(["card", str(tmp_path / "F"), "--out", str(tmp_path / "c")]) == 0
    name = Path(log.location).name
    assert name in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "c").glob("*.json")] == ["t.json"]
    assert main(["card", str(tmp_path / "F"), "--out", str(tmp_path / "c2"), "--strict"]) == 2
    assert name in _one_line(capsys.readouterr().err)


def test_an_out_where_nothing_can_be_created_is_refused_before_reading(tmp_path, capsys):
    """``/proc`` passes ``os.access`` for root, but no folder can be made in it: refused
    first, in one line (no set-aside line of the corrupt log before it)."""
    _eval(tmp_path, "t", limit=1)
    (tmp_path / "2026-01-01T00-00-00+00-00_even-handedness_bad.eval").write_bytes(b"PK\x03\x04")
    assert main(["card", str(tmp_path), "--out", "/proc/inspect-stance-probe"]) == 2
    assert "--out" in _one_line(capsys.readouterr().err)


def test_a_missing_since_names_the_flag(logs, tmp_path, capsys):
    missing = tmp_path / "nope.json"
    assert main(["card", str(logs), "--out", str(tmp_path / "c"), "--since", str(missing)]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "--since" in err and "nope.json" in err


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not a zip", b"\x00\xff" * 100])
@pytest.mark.parametrize("command", ["report", "even-handedness-report", "label-sample"])
def test_a_report_on_an_unreadable_log_names_no_exception(tmp_path, capsys, command, content):
    bad = tmp_path / "bad.eval"
    bad.write_bytes(content)
    extra = ["--n", "5", "--out", str(tmp_path / "s.csv")] if command == "label-sample" else []
    assert main([command, str(bad), *extra]) == 2
    err = _one_line(capsys.readouterr().err)
    assert "bad.eval" in err and not re.search(r"[A-Z]\w*(Error|Exception)\b", err), err


def test_report_markdown_carries_no_live_markup_from_a_tag(tmp_path, capsys):
    """Run names come from Inspect tags: the report's Markdown writes them as text."""
    for tag in ("<script>alert(1)</script>", "[x](javascript:alert(1))"):
        _eval(tmp_path / "L", "t", tags=[tag, "\u202e"])
    out = tmp_path / "r"
    assert main(["report", str(tmp_path / "L"), "--out", str(out)]) == 0
    md = "".join(p.read_text() for p in out.rglob("*.md"))
    assert "<script" not in md and "<img src=x" not in md and "\u202e" not in md
    assert "](javascript:" not in md.replace("\\]", "")
    assert "&lt;script&gt;" in md


def test_a_markdown_cell_is_inert_and_keeps_interval_brackets():
    from inspect_stance.markdown import cell

    assert (
        cell("<b>x</b> [x](javascript:a) a|b") == "&lt;b&gt;x&lt;/b&gt; [x\\](javascript:a) a\\|b"
    )
    assert cell("0.41 [0.35, 0.47]") == "0.41 [0.35, 0.47]"
    assert cell("a\r\n::warning::x") == "a\\r\\n::warning::x"
