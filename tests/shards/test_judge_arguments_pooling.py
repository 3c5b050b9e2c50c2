"""``-T shard=K/N`` on ``judge_validation`` (rows of the annotations file) and on
``press_arguments`` (statements): the split depends on the content, not on the input's order,
and the readers of their logs pool the shards into the unsharded run (``construction-report``'s
judge part, ``runs_df``; ``press -T arguments=DIR``), or refuse one shard alone in one line.

The scripted judges (``construction_sim``) read the stance marker in each response, and the
scripted arguer (``press_sim/arguer``) writes each statement's arguments from its text, so a
pooled run must equal the unsharded one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_stance.tasks.judge_validation import judge_validation
from inspect_stance.tasks.press_arguments import press_arguments

from inspect_stance.cli import main
from inspect_stance.errors import InputError

HEAD = "prompt_text,response_text,topic_neutral,topic_pro,topic_con,final_label,annot1_label,annot2_label,cluster_id"
# marker the judges read, human label, second annotator; 12 rows over 3 clusters
ROWS = [("1", "1", "1"), ("2", "3", "3"), ("3", "3", "3"), ("5", "4", "5"), ("refusal",) * 3,
        ("4", "1", "1"), ("2", "2", "2"), ("4", "4", "5"), ("1", "2", "2"), ("5", "5", "5"),
        ("3", "2", "3"), ("4", "5", "4")]  # fmt: skip


def _annotations(path: Path, order: list[int]) -> str:
    lines = [HEAD]
    for i in order:
        marker, final, second = ROWS[i]
        lines.append(f"Write about topic {i}.,[[stance={marker}]] Text {i}.,it,it good,it bad,"
                     f"{final},{final},{second},{i % 3}")  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _judges() -> list:
    return [get_model(f"construction_sim/judge_{k}", memoize=False)
            for k in ("exact", "plus_one", "neutral")]  # fmt: skip


@pytest.fixture(scope="module")
def judge_logs(tmp_path_factory) -> list[str]:
    """whole, 1/2, 2/2, and 2/2 of the same rows in reversed file order."""
    root = tmp_path_factory.mktemp("judge_shards")
    path = _annotations(root / "a.csv", list(range(len(ROWS))))
    reversed_path = _annotations(root / "r.csv", list(reversed(range(len(ROWS)))))
    out = []
    for args in ({}, {"shard": "1/2"}, {"shard": "2/2"}):
        (log,) = inspect_eval(judge_validation, task_args={"annotations": path, **args},
                              model_roles={"judges": _judges()}, log_dir=str(root / "logs"),
                              display="none")  # fmt: skip
        assert log.status == "success"
        out.append(str(log.location))
    (log,) = inspect_eval(judge_validation,
                          task_args={"annotations": reversed_path, "shard": "2/2"},
                          model_roles={"judges": _judges()}, log_dir=str(root / "reversed"),
                          display="none")  # fmt: skip
    out.append(str(log.location))
    return out


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _contents(log: str) -> set[str]:
    from inspect_ai.log import read_eval_log

    return {str(s.metadata["response_text"]) for s in read_eval_log(log).samples}


def test_judge_rows_split_by_content_whatever_the_file_order(judge_logs, tmp_path):
    from inspect_ai.log import read_eval_log

    whole, one, two, two_reversed = judge_logs
    assert not _contents(one) & _contents(two)
    assert _contents(one) | _contents(two) == _contents(whole)
    assert _contents(two_reversed) == _contents(two)
    meta = [read_eval_log(p, header_only=True).eval.metadata for p in judge_logs]
    assert "shard" not in meta[0]
    assert meta[1]["shard"]["study"] == meta[2]["shard"]["study"]
    assert meta[1]["shard"]["items"] + meta[2]["shard"]["items"] == len(ROWS)
    # sample ids are row numbers, so a reordered file is another study (ids would clash)
    assert meta[3]["shard"]["study"] != meta[2]["shard"]["study"]
    twice = tmp_path / "twice.csv"
    _annotations(twice, [0, 1, 1])
    with pytest.raises(InputError, match="share a content key"):
        judge_validation(annotations=str(twice), shard="1/2")


def test_construction_report_pools_the_judge_shards(judge_logs, capsys, tmp_path):
    whole, one, two, reordered = judge_logs
    a = _json(capsys, ["construction-report", whole, "--json", "--out", str(tmp_path / "a")])
    b = _json(capsys, ["construction-report", two, one, "--json", "--out", str(tmp_path / "b")])
    assert list(a["models"]) == list(b["models"]) == ["judge_validation"]
    assert a["models"] == b["models"]
    assert a["judges"] == b["judges"]
    for name in ("agreement.csv", "prompts.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert main(["construction-report", one, "--out", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err.strip()
    assert "1 of 2 shards of study" in err and "--partial" in err and "\n" not in err
    c = _json(capsys, ["construction-report", one, "--partial", "--json",
                       "--out", str(tmp_path / "d")])  # fmt: skip
    assert list(c["models"]) == ["judge_validation (1 of 2 shards)"]
    assert main(["construction-report", one, reordered, "--out", str(tmp_path / "e")]) == 2
    assert "different studies" in capsys.readouterr().err


def test_judge_runs_df_row_of_the_shards_is_the_unsharded_row(judge_logs):
    from inspect_stance.analysis import runs_df

    whole, one, two, _ = judge_logs
    df = runs_df([whole, one, two])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert p["shards"] == "2 of 2" and p["pool_note"] is None
    assert p["n_items"] == w["n_items"] == len(ROWS)
    assert p["headline_value"] == pytest.approx(w["headline_value"], abs=1e-9)


@pytest.fixture(scope="module")
def argument_logs(tmp_path_factory) -> dict[str, str]:
    """The packaged 19 statements' arguments (2 sets): whole and shards 1/2, 2/2 in a folder."""
    root = tmp_path_factory.mktemp("argument_shards")
    out = {}
    for name, args in (("whole", {}), ("one", {"shard": "1/2"}), ("two", {"shard": "2/2"})):
        (log,) = inspect_eval(
            press_arguments(argument_sets=2, **args),
            model=get_model("press_sim/arguer", memoize=False),
            log_dir=str(root / ("whole" if name == "whole" else "study")),
            display="none",
        )
        assert log.status == "success"
        out[name] = str(log.location)
    out["folder"] = str(root / "study")
    return out


def test_press_arguments_split_by_statement_text_whatever_the_order():
    from inspect_stance.press.dataset import shard_statements
    from inspect_stance.press.options import PressArgumentsOptions, PressOptions
    from inspect_stance.press.statements import load_statements

    items = load_statements(None)
    parts = [shard_statements(items, PressArgumentsOptions.parse(shard=f"{k}/2"),
                              "press_arguments") for k in (1, 2)]  # fmt: skip
    again, meta = shard_statements(items[::-1], PressArgumentsOptions.parse(shard="2/2"),
                                   "press_arguments")  # fmt: skip
    texts = [{st.text for st in p[0]} for p in parts]
    assert not texts[0] & texts[1] and texts[0] | texts[1] == {st.text for st in items}
    assert {st.text for st in again} == texts[1]
    assert meta["shard"]["study"] == parts[0][1]["shard"]["study"] == parts[1][1]["shard"]["study"]
    # the same statements as press's shard K (one split rule), but another study
    press_two, press_meta = shard_statements(items, PressOptions.parse(shard="2/2"))
    assert {st.text for st in press_two} == texts[1]
    assert press_meta["shard"]["study"] != meta["shard"]["study"]


def test_press_reads_the_shards_folder_as_the_whole_arguments(argument_logs, tmp_path):
    from inspect_stance.press.arguments import load_arguments
    from inspect_stance.press.statements import load_statements

    items = load_statements(None)
    whole = load_arguments(argument_logs["whole"], items, 2)
    pooled = load_arguments(argument_logs["folder"], items, 2)
    assert pooled.table == whole.table and pooled.fingerprint == whole.fingerprint
    assert pooled.source == f"log:{argument_logs['folder']}"
    assert pooled.origin == whole.origin is not None
    with pytest.raises(InputError, match=r"shard 1/2 of a study.*-T arguments=DIR"):
        load_arguments(argument_logs["one"], items, 2)
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    shutil.copy(argument_logs["two"], lonely)
    with pytest.raises(InputError, match="holds 1 of 2 shards of one study; add the missing"):
        load_arguments(str(lonely), items, 2)
    shutil.copy(argument_logs["whole"], lonely)
    with pytest.raises(InputError, match="holds 2 runs"):
        load_arguments(str(lonely), items, 2)


def test_press_arguments_runs_df_row_of_the_shards_is_the_unsharded_row(argument_logs):
    from inspect_stance.analysis import runs_df

    df = runs_df([argument_logs["whole"], argument_logs["one"], argument_logs["two"]])
    assert len(df) == 2
    w, p = df.iloc[0], df.iloc[1]
    assert p["shards"] == "2 of 2" and p["n_items"] == w["n_items"] == 19
    assert p["headline_value"] == pytest.approx(w["headline_value"], abs=1e-9)


def test_press_shards_given_copies_of_one_arguments_folder_are_one_study(argument_logs, tmp_path):
    from inspect_stance.press.dataset import shard_statements
    from inspect_stance.press.options import PressOptions
    from inspect_stance.press.statements import load_statements

    items = load_statements(None)
    copy = tmp_path / "copy"  # another machine's copy: other file times
    copy.mkdir()
    for log in Path(argument_logs["folder"]).iterdir():
        shutil.copy(log, copy / f"renamed-{log.name}")
    one = shard_statements(items, PressOptions.parse(arguments=argument_logs["folder"],
                                                     shard="1/2"))[1]  # fmt: skip
    two = shard_statements(items, PressOptions.parse(arguments=str(copy), shard="2/2"))[1]
    assert one["shard"]["study"] == two["shard"]["study"]
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(argument_logs["whole"], other)  # the same arguments from the unsharded run
    same = shard_statements(items, PressOptions.parse(arguments=str(other), shard="2/2"))[1]
    assert same["shard"]["study"] == one["shard"]["study"]
