"""Input fingerprints: what they record, what a change looks like, and that the tasks record one.

The digests are checked against ``hashlib`` directly; the change line against hand-made
fingerprints; a press_arguments run (the cheapest task to run) records the statements file's
SHA-256 and a digest per sample.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import get_model
from inspect_stance.tasks.press_arguments import press_arguments

from inspect_stance.fingerprint import (
    FINGERPRINT_KEY,
    fingerprint_changes,
    input_fingerprint,
)
from inspect_stance.press.statements import load_statements


def test_files_by_content_and_samples_by_id_and_input(tmp_path: Path):
    f = tmp_path / "p.txt"
    f.write_bytes(b"We should ban x\n")
    samples = [Sample(id="a", input="x"), Sample(id="b", input="y")]
    fp = input_fingerprint({"propositions": str(f), "source": "hub", "none": None}, samples)
    assert fp["files"] == {
        "propositions": "sha256:" + hashlib.sha256(b"We should ban x\n").hexdigest(),
        "source": "hub",
        "none": None,
    }
    assert fp["samples"] == 2 and set(fp["sample_digests"]) == {"a", "b"}
    assert fingerprint_changes(fp, input_fingerprint({**fp["files"]}, samples)) is None


def test_the_change_line_names_files_and_samples(tmp_path: Path):
    f = tmp_path / "p.txt"
    f.write_text("one\n")
    old = input_fingerprint({"propositions": str(f)}, [Sample(id="a", input="x")])
    f.write_text("two\n")
    new = input_fingerprint(
        {"propositions": str(f)}, [Sample(id="a", input="changed"), Sample(id="c", input="z")]
    )
    assert fingerprint_changes(old, new) == (
        "changed input file(s): propositions; 1 sample(s) added (c); 1 sample(s) changed (a)"
    )


def test_press_arguments_records_its_fingerprint(tmp_path: Path):
    items = load_statements(None)[:2]
    path = tmp_path / "two.tsv"
    path.write_text("bias\tstatement\n" + "".join(f"{s.bias}\t{s.text}\n" for s in items))
    [log] = inspect_eval(
        press_arguments,
        task_args={"statements": str(path), "argument_sets": 1},
        model=get_model("press_sim/arguer", statements=str(path), memoize=False),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    fp = log.eval.metadata[FINGERPRINT_KEY]
    assert fp["files"]["statements"] == "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    assert fp["samples"] == 2 and set(fp["sample_digests"]) == set(log.eval.dataset.sample_ids)
