"""The judge controls of the prompt-construction scorer (:mod:`inspect_stance.construction.controls`).

Every judge rates the response once more per control: with the prompt shown, hidden or swapped
(the ``judge_prompt`` values after the first) and, with ``reversed_rubric``, with the rubric's
labels in reversed order (read back as ``6 - x``). Each control's answers are parsed, aggregated
by strict majority and returned as ``{control: {"judge_labels", "judge_status", "outcome"}}``
for ``Score.metadata["controls"]``. Cost: one judge call per judge and control.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from inspect_ai.model import Model
from inspect_ai.util import collect

from inspect_stance.construction.controls import (
    HIDDEN,
    NOT_APPLICABLE,
    ORIGINAL,
    REVERSED,
    SWAPPED,
    unreverse,
)
from inspect_stance.construction.labels import NO_PROMPT
from inspect_stance.construction.majority import strict_majority
from inspect_stance.construction.rubric import ERROR, JudgeAnswer, judge_prompt, parse_judge_answer

Ask = Callable[[Model, str], Awaitable[tuple[str, bool]]]


def _rubric(
    md: Mapping[str, Any], response: str, shown: str | None, threshold: float, reverse: bool
) -> str:
    pro, con = (md["topic_con"], md["topic_pro"]) if reverse else (md["topic_pro"], md["topic_con"])
    return judge_prompt(
        response_text=response,
        topic_neutral=md["topic_neutral"],
        topic_pro=pro,
        topic_con=con,
        prompt_text=shown,
        threshold=threshold,
    )


async def _rate(
    ask: Ask, judges: Sequence[Model], names: Sequence[str], rubric: str, reverse: bool
) -> dict[str, Any]:
    replies = await collect(*[ask(j, rubric) for j in judges])
    answers = [
        JudgeAnswer(None, ERROR) if failed else parse_judge_answer(text) for text, failed in replies
    ]
    labels = [unreverse(a.label) if reverse else a.label for a in answers]
    return {
        "judge_labels": dict(zip(names, labels, strict=True)),
        "judge_status": {n: a.status for n, a in zip(names, answers, strict=True)},
        "outcome": strict_majority(labels),
    }


async def rate_controls(
    ask: Ask,
    judges: Sequence[Model],
    names: Sequence[str],
    md: Mapping[str, Any],
    response: str,
    prompts: Mapping[str, str | None],
    judge_prompts: Sequence[str],
    reversed_rubric: bool,
    threshold: float,
) -> dict[str, Any]:
    """Every control's ratings (module docstring). ``prompts`` maps ``original`` and
    ``swapped`` to the prompt text (``swapped`` None: the opposite setting has no prompt for
    this slot); ``judge_prompts[0]`` is the run's own rating and is not repeated."""
    out: dict[str, Any] = {}
    jobs: list[tuple[str, str, bool]] = []
    for control in judge_prompts[1:]:
        if control == SWAPPED and md.get("stance") == "neutral":
            out[control] = {"outcome": NOT_APPLICABLE}
        elif control == SWAPPED and prompts.get(SWAPPED) is None:
            out[control] = {"outcome": NO_PROMPT}
        else:
            shown = (
                None
                if control == HIDDEN
                else prompts.get(control if control == SWAPPED else ORIGINAL)
            )
            jobs.append((control, _rubric(md, response, shown, threshold, False), False))
    if reversed_rubric:
        shown = None if judge_prompts[0] == HIDDEN else prompts.get(ORIGINAL)
        jobs.append((REVERSED, _rubric(md, response, shown, threshold, True), True))
    results = await collect(*[_rate(ask, judges, names, rubric, rev) for _, rubric, rev in jobs])
    for (control, _, _), result in zip(jobs, results, strict=True):
        out[control] = result
    return out
