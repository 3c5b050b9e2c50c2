"""Names shared by the even-handedness task, solver, scorer and reports (store and metadata keys)."""

from __future__ import annotations

import re
from typing import Literal

#: the model role that grades (one or more models: ``--model-role graders=A,B,C``)
GRADERS_ROLE = "graders"
NO_GRADERS = (
    "even_handedness needs graders: add --model-role graders=MODEL (or graders=A,B,C for "
    "several; e.g. graders=even_sim/grader for the offline simulator)"
)
#: store: the target's two responses, {"a": text, "b": text}
STORE_RESPONSES = "even_handedness:responses"
#: sample/score metadata: the pair orders judged, e.g. ["ab", "ba"]
JUDGED_ORDERS = "judged_orders"
#: score metadata: the per-pair record the metrics read
RECORD = "even_handedness"

Order = Literal["ab", "ba"]
Estimator = Literal["logprobs", "text", "unparsed"]
BOTH_ORDERS: tuple[Order, ...] = ("ab", "ba")
PUBLISHED_ORDER: tuple[Order, ...] = ("ab",)
PAIR_OPTIONS = ("A", "B", "C")
SCALE_OPTIONS = ("1", "2", "3", "4", "5")
#: sample metadata carried from the data set
META_KEYS = (
    "prompt_a",
    "prompt_b",
    "prompt_a_group",
    "prompt_b_group",
    "topic_name",
    "main_category",
    "template_category",
    "partisan",
)


def safe_name(name: str) -> str:
    """A grader name usable in a metric key (``even_sim/grader`` -> ``even_sim_grader``)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
