"""Hostile study files: every bad value, repeated key, unbounded size, alias bomb, deep nesting,
path-escaping name, unknown provider, missing file of a later method and unusable log folder is
refused in one line (exit 2) before any work, with no Python exception text; the plan counts
the calls the runs make."""

from __future__ import annotations

import re
import time

import pytest

from inspect_stance.cli import main

BASE = """study: hx
targets:
  a: even_sim/target
roles: {graders: [even_sim/grader]}
methods:
  even_handedness: {args: {limit: 3}}
"""
DRIFT = """study: hx
targets:
  a: stance_sim/respondent
methods:
  stance_drift: {args: {limit_propositions: 2, trials: TRIALS}}
"""
#: what an internal exception looks like on the error line
EXCEPTION_TEXT = re.compile(
    r"Traceback|Error:|Exception|KeyError|RecursionError|MemoryError|OverflowError|"
    r"ValidationError|yaml\.|pydantic|File \""
)


def _refused(tmp_path, capsys, text: str, *words: str, extra: tuple[str, ...] = ("--plan",)):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    start = time.monotonic()
    code = main(["study", str(path), *extra])
    took = time.monotonic() - start
    out = capsys.readouterr()
    err = out.err.strip()
    assert code == 2, (code, out.out[-500:], err)
    assert "\n" not in err and err.startswith("inspect-stance study: error:"), err
    assert not EXCEPTION_TEXT.search(err.removeprefix("inspect-stance study: error:")), err
    for word in words:
        assert word in err, (word, err)
    assert took < 20, took
    assert "planned calls" not in out.out  # refused before the plan
    return err


@pytest.mark.parametrize(
    "value", ["abc", "[1, 2]", ".nan", ".inf", "2024-01-01", "-3", "2.5", "0", "{a: 1}", "true"]
)
def test_a_bad_trials_value_is_one_line_naming_it(tmp_path, capsys, value):
    _refused(tmp_path, capsys, DRIFT.replace("TRIALS", value), "trials")


def test_trials_beyond_the_bound_is_refused(tmp_path, capsys):
    _refused(tmp_path, capsys, DRIFT.replace("TRIALS", "100000000"), "trials", "10,000")


def test_a_million_hops_is_refused_at_once(tmp_path, capsys):
    text = DRIFT.replace("TRIALS", "5").replace("trials: 5", "trials: 5, hops: 1000000")
    _refused(tmp_path, capsys, text, "hops")


@pytest.mark.parametrize(
    ("args", "word"),
    [
        ("limit_propositions: -1, trials: 2", "limit_propositions"),
        ("limit_propositions: 5000, trials: 2", "limit_propositions"),
    ],
)
def test_drift_sizes_out_of_range(tmp_path, capsys, args, word):
    text = DRIFT.replace("limit_propositions: 2, trials: TRIALS", args)
    _refused(tmp_path, capsys, text, word)


def test_even_handedness_limit_beyond_its_pairs_is_refused(tmp_path, capsys):
    _refused(tmp_path, capsys, BASE.replace("limit: 3", "limit: 5000"), "limit", "1,350")


@pytest.mark.parametrize(
    "text",
    [
        BASE.replace("  a: even_sim/target\n", "  a: even_sim/target\n  a: even_sim/target\n"),
        BASE + "methods:\n  even_handedness: {args: {limit: 4}}\n",
        BASE.replace("{limit: 3}", "{limit: 3, limit: 4}"),
        BASE.replace("study: hx", "study: hx\nstudy: hy"),
    ],
    ids=["targets", "methods", "arguments", "top"],
)
def test_repeated_keys_are_refused(tmp_path, capsys, text):
    _refused(tmp_path, capsys, text, "repeated")


def test_an_alias_bomb_is_refused_quickly(tmp_path, capsys):
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, 10)]
    bomb = "\n".join(f"# {x}" for x in []) + "\n".join(lines)
    text = f"{bomb}\n" + BASE.replace("study: hx", "study: *a9")
    _refused(tmp_path, capsys, text, "alias")


def test_deep_nesting_is_refused(tmp_path, capsys):
    text = BASE.replace("study: hx", "study: " + "[" * 5000 + "]" * 5000)
    _refused(tmp_path, capsys, text, "nested")


@pytest.mark.parametrize("name", ["../evil", "a/b", ".hidden", "x" * 100, "''"])
def test_a_study_name_that_leaves_the_log_dir_is_refused(tmp_path, capsys, name):
    _refused(tmp_path, capsys, BASE.replace("study: hx", f"study: {name}"), "study")


@pytest.mark.parametrize("value", ["1e-300", "1e-320"])
def test_a_tiny_target_se_does_not_overflow(tmp_path, capsys, value):
    path = tmp_path / "s.yaml"
    path.write_text(BASE + f"design: {{target_se: {value}}}\n")
    assert main(["study", str(path), "--plan"]) == 0
    assert "limit=1350" in capsys.readouterr().out


def test_two_targets_with_one_folder_name_are_refused(tmp_path, capsys):
    text = BASE.replace(
        "  a: even_sim/target\n", "  team a: even_sim/target\n  team_a: even_sim/target\n"
    )
    _refused(tmp_path, capsys, text, "team_a")


def test_an_unknown_provider_is_refused_before_the_plan(tmp_path, capsys):
    _refused(tmp_path, capsys, BASE.replace("a: even_sim/target", "a: nosuch/target"), "nosuch")
    text = BASE.replace("graders: [even_sim/grader]", "graders: [nosuch/grader]")
    _refused(tmp_path, capsys, text, "roles.graders")


def test_a_missing_file_of_a_later_method_is_refused_before_any_run(tmp_path, capsys):
    text = (
        DRIFT.replace("TRIALS", "2")
        + "  even_handedness: {args: {limit: 2, human_labels: nope.csv}}\n"
    )
    text = text.replace("a: stance_sim/respondent", "a: stance_sim/respondent").replace(
        "methods:", "roles: {graders: [even_sim/grader]}\nmethods:"
    )
    _refused(tmp_path, capsys, text, "nope.csv", extra=("--yes", "--log-dir", str(tmp_path / "L")))
    assert not (tmp_path / "L").exists()


@pytest.mark.parametrize(
    ("key", "value"), [("max_retries", "-1"), ("timeout", "abc"), ("timeout", "99999999")]
)
def test_retries_and_timeout_are_checked(tmp_path, capsys, key, value):
    _refused(tmp_path, capsys, BASE + f"{key}: {value}\n", key)


def test_retries_and_timeout_are_accepted(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(BASE + "max_retries: 2\ntimeout: 30\n")
    assert main(["study", str(path), "--plan"]) == 0


def test_the_plan_counts_one_order_grader_calls(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(BASE.replace("{limit: 3}", "{limit: 3, both_orders: false}"))
    assert main(["study", str(path), "--plan"]) == 0
    # per pair: the pair once, refusal and hedging of each response (4): 5 grader calls
    assert "even_sim/grader 15" in capsys.readouterr().out


def test_a_log_dir_that_is_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    _refused(tmp_path, capsys, BASE, "--log-dir", extra=("--yes", "--log-dir", str(tmp_path / "f")))
    _refused(
        tmp_path,
        capsys,
        BASE,
        "--log-dir",
        extra=("--yes", "--log-dir", str(tmp_path / "f" / "sub")),
    )


def test_a_log_dir_of_another_study_is_refused(tmp_path, capsys):
    import shutil

    from inspect_ai import eval as inspect_eval

    other = tmp_path / "other"
    inspect_eval("inspect_stance/even_handedness", model="even_sim/target",
                 model_roles={"graders": "even_sim/grader"}, task_args={"limit": 1},
                 log_dir=str(other), display="none", metadata={"stance_study": "other"})  # fmt: skip
    assert list(other.glob("*.eval"))
    _refused(
        tmp_path,
        capsys,
        BASE,
        "another" if False else "other",
        extra=("--yes", "--log-dir", str(other)),
    )
    shutil.rmtree(other)


def test_the_docs_list_the_declared_bounds():
    from pathlib import Path

    from inspect_stance.study_file.bounds import bounds_table

    docs = (Path(__file__).resolve().parents[1] / "docs" / "cards.md").read_text()
    block = docs.split("<!-- study-bounds -->\n")[1].split("<!-- /study-bounds -->")[0]
    assert block == bounds_table()


def test_a_limit_beyond_the_pairs_the_filters_leave_is_refused(tmp_path, capsys):
    from inspect_stance.even_handedness.data import select_pairs

    matching = len(select_pairs(None, ["trump"]))
    err = _refused(tmp_path, capsys, BASE.replace("{limit: 3}", "{limit: 1000, topics: trump}"),
                   "limit", f"{matching:,} pairs")  # fmt: skip
    assert "methods.even_handedness.args" in err


def test_an_unknown_topic_of_a_later_method_is_refused_before_any_run(tmp_path, capsys):
    text = (
        DRIFT.replace("TRIALS", "2").replace(
            "methods:", "roles: {graders: [even_sim/grader]}\nmethods:"
        )
        + "  even_handedness: {args: {limit: 2, topics: nosuchtopic}}\n"
    )
    _refused(tmp_path, capsys, text, "nosuchtopic",
             extra=("--yes", "--log-dir", str(tmp_path / "L")))  # fmt: skip
    assert not (tmp_path / "L").exists()


def test_the_plan_counts_the_pairs_the_filters_leave(tmp_path, capsys):
    """Without a limit, and under a design, the plan's pairs are the filters' (not 1,350)."""
    from inspect_stance.even_handedness.data import select_pairs

    matching = len(select_pairs(None, ["trump"]))
    path = tmp_path / "s.yaml"
    path.write_text(BASE.replace("{limit: 3}", "{topics: trump}"))
    assert main(["study", str(path), "--plan"]) == 0
    assert f"{matching} items, " in capsys.readouterr().out
    path.write_text(BASE.replace("{limit: 3}", "{topics: trump}") + "design: {target_se: 1e-4}\n")
    assert main(["study", str(path), "--plan"]) == 0
    out = capsys.readouterr().out
    assert f"limit={matching} " in out and f"{matching} items, " in out, out


def test_a_log_dir_where_nothing_can_be_created_is_refused(tmp_path, capsys):
    """``/proc`` passes ``os.access`` for root, but no folder can be made in it."""
    _refused(tmp_path, capsys, BASE, "--log-dir",
             extra=("--yes", "--log-dir", "/proc/inspect-stance-probe"))  # fmt: skip


@pytest.mark.slow
def test_a_closed_endpoint_ends_within_the_retries(tmp_path, capsys):
    """A provider endpoint that refuses connections: the run ends, unfinished, after
    ``max_retries`` (not retried without end)."""
    text = (
        BASE.replace(
            "a: even_sim/target",
            'a: {model: openai-api/local/x, model_args: {base_url: "http://127.0.0.1:9/v1", '
            "api_key: k}}",
        ).replace("limit: 3", "limit: 1")
        + "max_retries: 1\ntimeout: 5\n"
    )
    path = tmp_path / "s.yaml"
    path.write_text(text)
    start = time.monotonic()
    code = main(
        ["study", str(path), "--yes", "--display", "none", "--log-dir", str(tmp_path / "L")]
    )
    assert code == 2 and time.monotonic() - start < 240
    assert "NOT finished" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "word"),
    [(b"\xff\xfe\x00", "UTF-8"), (b"a: !!python/object:os.system [ls]\n", "cannot read"),
     (b"a: &x [*x]\n", "alias"), (b"study: x\n" + b"#" * 5_000_000, "short")],
)  # fmt: skip
def test_an_unreadable_study_file_is_one_line(tmp_path, capsys, content, word):
    path = tmp_path / "s.yaml"
    path.write_bytes(content)
    assert main(["study", str(path), "--plan"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and word in err and "Traceback" not in err, err


def test_a_folder_for_the_study_file_is_one_line(tmp_path, capsys):
    assert main(["study", str(tmp_path), "--plan"]) == 2
    assert "is a folder" in capsys.readouterr().err
