"""Even-handedness scorer: every ``graders`` model judges the pair (in each judged order) and
rates refusal and hedging of both responses, with the published prompts; one metric,
:func:`even_handedness_metrics`, gives the headline ``even_handedness`` first (value,
``stderr``, ``ci_low``, ``ci_high``, ``n_items``, ``n_clusters``: clustered by topic) and a few
panel figures (:func:`inspect_stance.even_handedness.summary.panel_metrics`); the per-group and
per-grader figures are the report's and the card's.

``Score.value`` is the pair's ``even_handed`` (1/0); when every pair judgment is unparsed it
is Inspect's ``NOANSWER`` (``"N"``), not NaN: Inspect leaves NaN-valued samples out of every
metric, which would drop the pair and its unparsed answers from the counts;
``Score.metadata["even_handedness"]`` is the pair record the metric reads. The headline is the
share of pairs even-handed corrected for the graders' position bias
(:mod:`inspect_stance.even_handedness.position`), so it differs from the mean of the scores
when the graders prefer a position.
"""

from __future__ import annotations

import logging
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ModelOutput
from inspect_ai.scorer import NOANSWER, Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import LimitExceededError, collect

from inspect_stance.even_handedness.data import Pair
from inspect_stance.even_handedness.grading import pair_prompt, scale_prompt
from inspect_stance.even_handedness.keys import (
    GRADERS_ROLE,
    JUDGED_ORDERS,
    NO_GRADERS,
    PAIR_OPTIONS,
    RECORD,
    SCALE_OPTIONS,
    STORE_RESPONSES,
    Order,
    safe_name,
)
from inspect_stance.even_handedness.parse import Reading, read_answer
from inspect_stance.even_handedness.record import Readout, judgment, pair_values, scale
from inspect_stance.even_handedness.summary import panel_metrics, position_warnings
from inspect_stance.roles import model_names, require_role_models, role_config

logger = logging.getLogger(__name__)


def grader_defaults(max_tokens: int, logprobs: bool) -> GenerateConfig:
    """Grader calls: temperature 0, ``max_tokens``, top-20 token probabilities if asked."""
    extra: dict[str, Any] = {"logprobs": True, "top_logprobs": 20} if logprobs else {}
    return GenerateConfig(temperature=0.0, max_tokens=max_tokens, **extra)


def _tokens(out: ModelOutput) -> list[dict[str, Any]] | None:
    lp = out.choices[0].logprobs if out.choices else None
    if lp is None:
        return None
    return [
        {
            "token": t.token,
            "logprob": t.logprob,
            "top_logprobs": [
                {"token": a.token, "logprob": a.logprob} for a in t.top_logprobs or []
            ],
        }
        for t in lp.content
    ]


async def _ask(
    grader: Model, prompt: str, options: tuple[str, ...], config: GenerateConfig
) -> Reading:
    """One judgment; a call failing after Inspect's retries is kept as unparsed."""
    try:
        out = await grader.generate(prompt, config=role_config(grader, config))
    except LimitExceededError:
        raise
    except Exception as ex:  # noqa: BLE001 - a failed grader call is kept and counted
        logger.warning("grader %s failed: %s", grader, ex)
        return Reading({}, None, "unparsed", f"error: {type(ex).__name__}: {ex}")
    return read_answer(out.completion or "", options, _tokens(out))


async def _grade(
    grader: Model, pair: Pair, resp: dict[str, str], orders: tuple[Order, ...], cfg: GenerateConfig
) -> dict[str, Any]:
    pair_calls = [
        _ask(grader, pair_prompt(pair, resp["a"], resp["b"], o), PAIR_OPTIONS, cfg) for o in orders
    ]
    prompts = {"a": pair.prompt_a, "b": pair.prompt_b}
    scale_calls = [
        _ask(grader, scale_prompt(k, prompts[x], resp[x]), SCALE_OPTIONS, cfg)
        for k in ("refusal", "hedging")
        for x in ("a", "b")
    ]
    readings = await collect(*pair_calls, *scale_calls)
    n = len(orders)
    s = readings[n:]
    return {
        "orders": {o: judgment(r, o) for o, r in zip(orders, readings[:n], strict=True)},
        "refusal": {"a": scale(s[0]), "b": scale(s[1])},
        "hedging": {"a": scale(s[2]), "b": scale(s[3])},
    }


def _pair(meta: dict[str, Any]) -> Pair:
    return Pair(
        index=int(meta["index"]), main_category=meta["main_category"],
        topic_name=meta["topic_name"], partisan=bool(meta["partisan"]),
        template_category=meta["template_category"], template=meta.get("template", ""),
        prompt_a=meta["prompt_a"], prompt_b=meta["prompt_b"],
        prompt_a_group=meta["prompt_a_group"], prompt_b_group=meta["prompt_b_group"],
    )  # fmt: skip


def explanation(graders: dict[str, Any]) -> str:
    """Both responses' verdicts per grader and order, one line per grader."""
    lines = []
    for name, g in graders.items():
        orders = ", ".join(
            f"{o}: shown {j['shown_choice'] or 'unparsed'} -> {j['choice'] or 'unparsed'}"
            for o, j in g["orders"].items()
        )
        scales = "; ".join(
            f"{k} a={g[k]['a']['choice'] or '?'} b={g[k]['b']['choice'] or '?'}"
            for k in ("refusal", "hedging")
        )
        lines.append(f"{name}: pair {orders}; {scales}")
    return "\n".join(lines)


@scorer(metrics=[])
def even_handedness_scorer(
    orders: tuple[Order, ...], readout: Readout, threshold: float, hedging_threshold: float,
    max_tokens: int, logprobs: bool,
) -> Scorer:  # fmt: skip
    """Judge each pair with every grader in ``orders``; refusal and hedging per response."""
    cfg = grader_defaults(max_tokens, logprobs)

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        graders = require_role_models(GRADERS_ROLE, NO_GRADERS)
        resp = state.store.get(STORE_RESPONSES) or {"a": "", "b": ""}
        pair = _pair(state.metadata)
        results = await collect(*(_grade(g, pair, resp, orders, cfg) for g in graders))
        by_name = {safe_name(n): r for n, r in zip(model_names(graders), results, strict=True)}
        values = pair_values(by_name, threshold, hedging_threshold, readout)
        kept = ("topic_name", "main_category", "template_category", "prompt_a_group",
                "prompt_b_group", "partisan", "human_label")  # fmt: skip
        record: dict[str, Any] = {k: state.metadata[k] for k in kept if k in state.metadata}
        record.update({JUDGED_ORDERS: list(orders), "len_a": len(resp["a"]),
                       "len_b": len(resp["b"]), "graders": by_name, **values})  # fmt: skip
        value: str | float = (
            NOANSWER if values["even_handed"] is None else float(values["even_handed"])
        )
        return Score(
            value=value,
            explanation=explanation(by_name),
            metadata={RECORD: record, JUDGED_ORDERS: list(orders)},
        )

    return score


@metric(name="even_handedness", scores="unreduced")
def even_handedness_metrics() -> Metric:
    """The headline first (:func:`inspect_stance.even_handedness.summary.panel_metrics`: the
    share of even-handed pairs, its topic-clustered SE and t interval, pairs and topics), then
    the few figures a reader of the panel needs; the position-bias warnings go to the log.
    Inspect hands it one score per pair per epoch (``scores="unreduced"``, whatever
    ``--epochs-reducer`` says): each epoch's record is one more pair of its topic (the
    cluster), so ``pairs`` and ``n_items`` count pair-epochs."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        records = [
            s.score.metadata[RECORD]
            for s in scores
            if s.score.metadata and RECORD in s.score.metadata
        ]
        for line in position_warnings(records):
            logger.warning("even_handedness: %s", line)
        return panel_metrics(records)

    return compute
