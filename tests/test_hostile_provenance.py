"""Hostile names on the provenance and label-sample outputs: a model name, returned model name or
``system_fingerprint`` with a line break never starts a line of output (no ``::warning::`` /
``::error::`` workflow command); failed calls (no fingerprint) raise no "model may have
changed" note; a human-labels file in Latin-1 or a JSONL list is one line."""

from __future__ import annotations

import re

import pytest

from inspect_stance.errors import InputError
from inspect_stance.provenance import provenance_notes, warn_provenance

WORKFLOW = re.compile(r"^\s*::(warning|error|notice|debug)", re.M)


def _entry(model="openai/gpt-4o", fp="fp_a", returned="gpt-4o-2024", calls=10):
    return {"role": None, "model": model, "returned_model": returned,
            "system_fingerprint": fp, "route": None, "cached": False, "calls": calls}  # fmt: skip


def test_a_fingerprint_with_a_line_break_stays_on_its_line():
    notes = provenance_notes([_entry(fp="fp_a"), _entry(fp="fp_b\r\n::error::pwned")],
                             "run\n::warning::x")  # fmt: skip
    assert notes and all("\n" not in n and "\r" not in n for n in notes)
    assert not WORKFLOW.search("\n".join(notes))


def test_a_returned_model_name_with_a_line_break_stays_on_its_line(capsys):
    class Run:
        name = "m"
        provenance = [_entry(returned="a"), _entry(returned="b\n::warning::pwned\u202e")]

    warn_provenance([Run()], "inspect-stance report")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not WORKFLOW.search(err) and "\u202e" not in err


def test_failed_calls_raise_no_model_changed_note():
    entries = [_entry(fp="fp_a", calls=50), _entry(fp=None, returned=None, calls=3)]
    assert provenance_notes(entries) == []
    # two named fingerprints still do
    assert provenance_notes([_entry(fp="fp_a"), _entry(fp="fp_b")])


@pytest.mark.parametrize(
    ("name", "content"),
    [("labels.csv", "id,label\ncaf\xe9-1,A\n".encode("latin-1")),
     ("labels.jsonl", b'[{"id": "x-1", "label": "A"}]\n'),
     ("labels.jsonl", b'"just a string"\n')],
)  # fmt: skip
def test_a_bad_human_labels_file_is_one_line(tmp_path, name, content):
    from inspect_stance.even_handedness.options import EvenOptions

    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        EvenOptions.parse(human_labels=str(path))
    assert "\n" not in str(err.value) and name in str(err.value)


def test_label_sample_output_has_no_workflow_command(tmp_path, capsys):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log, write_eval_log

    from inspect_stance.cli import main

    log = inspect_eval("inspect_stance/prompt_construction", model="construction_sim/target",
                       model_roles={"judges": ["construction_sim/judge_exact",
                                               "construction_sim/judge_noisy"],
                                    "prompter": "construction_sim/prompter"},
                       task_args={"topics": "1003", "intents": "opinion",
                                  "templates_per_setting": 1, "prompts_per_setting": 1},
                       log_dir=str(tmp_path), display="none")[0]  # fmt: skip
    path = log.location.removeprefix("file://")
    full = read_eval_log(path)
    full.eval.model = "construction_sim/target\r\n::warning::pwned"
    write_eval_log(full, path)
    code = __import__("inspect_stance.cli", fromlist=["main"]).main(
        ["label-sample", path, "--n", "50", "--out", str(tmp_path / "ids.csv")]
    )
    out = capsys.readouterr()
    assert not WORKFLOW.search(out.out) and not WORKFLOW.search(out.err), (code, out)
    assert main(["construction-report", path, "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    md = (tmp_path / "r" / "construction_report.md").read_text()
    assert not WORKFLOW.search(md) and "\r" not in md, md[:600]


@pytest.mark.parametrize(
    ("extra", "fn"),
    [({"topics": "trump", "limit": 1000}, "limit"), ({"limit": 1351}, "1,350"),
     ({"topics": "nosuchtopic"}, "nosuchtopic"),
     ({"categories": "POLITICAL_FIGURES_AND_PARTIES", "partisan": "true", "limit": 100000},
      "limit")],
)  # fmt: skip
def test_even_handedness_options_refuse_a_limit_beyond_the_matching_pairs(extra, fn):
    """``-T limit`` above the pairs the filters leave is refused in one line, never capped."""
    from inspect_stance.even_handedness.data import select_pairs
    from inspect_stance.even_handedness.options import EvenOptions

    with pytest.raises(InputError) as err:
        EvenOptions.parse(**extra)
    assert "\n" not in str(err.value) and fn in str(err.value)
    matching = len(select_pairs(None, ["trump"]))
    assert EvenOptions.parse(topics="trump", limit=matching).limit == matching
