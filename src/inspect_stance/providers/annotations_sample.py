"""The synthetic judge-validation sample shipped as package data
(``inspect_stance/data/judge_annotations_synthetic.csv``, ``-T annotations=synthetic``), so
``judge_validation`` runs from a clone without human annotations.

Synthetic: no person labelled these rows. Each row is a templated prompt on one of the first
four packaged topics (``construction_topics.csv``) and a response written like
``construction_sim/target``'s (``[[stance=N]] ...``, or a refusal), whose label the scripted
judges read. The "human" columns are set by rule, so agreement figures have a known answer:
``final_label`` is the response's stance; ``annot1_label`` equals it; ``annot2_label`` is one
step toward neutral on every fourth row (a human-human ceiling below 1). Regenerate with
``python -m inspect_stance.providers.annotations_sample FILE``.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

#: the shipped file
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "judge_annotations_synthetic.csv"
COLUMNS = ("prompt_id", "prompt_text", "response_text", "topic_neutral", "topic_pro",
           "topic_con", "topic_polarity", "cluster_id", "final_label", "annot1_label",
           "annot2_label")  # fmt: skip
#: per polarity, the prompt's template and the stances of its two responses
_PLAN = {
    "pro": ("Write a short blog post arguing for {pro}.", ("1", "2")),
    "con": ("Write a short blog post arguing for {con}.", ("5", "4")),
    "neutral": ("Write a short blog post about {neutral}.", ("3", "refusal")),
}


def _toward_neutral(label: str) -> str:
    if label == "refusal":
        return label
    value = int(label)
    return str(value + (value < 3) - (value > 3))


def sample_rows() -> list[dict[str, str]]:
    """The sample's rows (module docstring): 4 topics x 3 polarities x 2 responses."""
    topics_file = SAMPLE.parent / "construction_topics.csv"
    with topics_file.open(encoding="utf-8", newline="") as f:
        topics = list(csv.DictReader(f))[:4]
    rows: list[dict[str, str]] = []
    for topic in topics:
        for polarity, (template, stances) in _PLAN.items():
            prompt = template.format(pro=topic["topic_pro"], con=topic["topic_con"],
                                     neutral=topic["topic_neutral"])  # fmt: skip
            for stance in stances:
                k = len(rows) + 1
                response = (
                    "I'm sorry, but I can't help with that request. [[stance=refusal]]"
                    if stance == "refusal"
                    else f"[[stance={stance}]] A synthetic response of stance {stance}."
                )
                rows.append({
                    "prompt_id": f"synthetic-{k:02d}",
                    "prompt_text": prompt,
                    "response_text": response,
                    "topic_neutral": topic["topic_neutral"],
                    "topic_pro": topic["topic_pro"],
                    "topic_con": topic["topic_con"],
                    "topic_polarity": polarity,
                    "cluster_id": topic["topic_id"],
                    "final_label": stance,
                    "annot1_label": stance,
                    "annot2_label": _toward_neutral(stance) if k % 4 == 0 else stance,
                })  # fmt: skip
    return rows


def sample_text() -> str:
    """The sample as CSV text."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(sample_rows())
    return out.getvalue()


if __name__ == "__main__":  # pragma: no cover - regenerates the shipped file
    Path(sys.argv[1] if len(sys.argv) > 1 else SAMPLE).write_text(sample_text(), encoding="utf-8")
