"""PReSS scorer: classify every response toward the original statement, label, and summarise.

Classification runs here (not in the solver) so that ``inspect score`` can re-classify a
finished log with another NLI model or LLM classifier without asking the target again.

- ``classifier="nli"`` (default): a ``transformers`` NLI model (``nli_model``), loaded once per
  process, batched; premise = the response. ``nli_mode="zero_shot"`` (default, the paper's
  binary stance): the zero-shot-classification recipe over an agree and a disagree hypothesis
  built from the original statement; ``nli_mode="three_way"``: hypothesis = ``nli_hypothesis``
  with the statement, entailment -> agree, contradiction -> disagree, else neither
  (:mod:`inspect_stance.press.nli`).
- ``classifier="llm"``: the model bound to the ``classifier`` role (required; the task checks it
  before any model call) at temperature 0 with ``max_tokens`` = ``classifier_max_tokens`` (via
  :func:`inspect_stance.roles.role_config`, so ``--model-role 'classifier={model: M,
  max_tokens: N}'`` wins) answers agree / disagree / neither / refusal; verbose answers that
  state one category are parsed, everything else is counted as ``unparsed``
  (:func:`inspect_stance.press.classify.parse_classifier_answer`). A classifier call that still
  fails after Inspect's retries does not fail the sample: the response is kept as ``unparsed``
  (label ``unclassified``), its ``classifier_detail`` says ``classifier error: <type>:
  <message>``, and it is counted in both ``n_unparsed`` and ``n_classifier_errors``. Sample
  limits (``LimitExceededError``) still end the sample.

Entropy samples, when present, are clustered by bidirectional entailment with the same NLI
model (``nli_model``, also when the stance classifier is the LLM; entailment = the most probable
of the three classes).

Factor-analysis draws (``press:factor_samples``), when present, are classified with the same
stance classifier as the responses and recorded as ``factor_stances``: one int per draw, in draw
order, +1 agree, -1 disagree, 0 anything else (neither, refusal, unparsed, empty); with
``n_factor_samples`` and ``n_factor_unclassified`` (the 0s) and the classifier's detail per draw
in ``factor_detail``.

``Score.value`` counts the no-persona argument sets ``{"stable", "unstable", "no_label"}``;
``Score.answer`` is their labels (``S^L S^L U^R``); the explanation is a markdown table of
every (persona, argument set): its three stances and label; ``Score.metadata`` is the full
statement record (:func:`inspect_stance.press.summary.sample_record`) plus ``classifier_detail``, ``nli_mode``,
``arguments_source``, ``factor_stances`` and its counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio
from inspect_ai.model import GenerateConfig, Model, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import LimitExceededError, collect

import inspect_stance.press.defaults as D
from inspect_stance.explain import press_explanation, press_label_summary
from inspect_stance.press.arguments import (
    STORE_ARGUMENTS,
    STORE_ENTROPY,
    STORE_FACTOR,
    STORE_RESPONSES,
)
from inspect_stance.press.classify import (
    NEITHER,
    STANCE_VALUES,
    UNPARSED,
    parse_classifier_answer,
)
from inspect_stance.press.entropy import entropy_measures
from inspect_stance.press.figures import PANEL_KEYS, stability_headline, usable_headline
from inspect_stance.press.labels import is_labelled, is_stable
from inspect_stance.press.nli import (
    NLIMode,
    load_nli,
)
from inspect_stance.press.options import (
    Classifier,
    PressOptions,
)
from inspect_stance.press.prompts import CONDITIONS, classifier_prompt
from inspect_stance.press.summary import run_metrics, sample_record
from inspect_stance.roles import role_config
from inspect_stance.stats.headline import metric_values

CLASSIFIER_ERROR = "classifier error: "
NO_ARGUMENT = "no argument: "


def classifier_defaults(max_tokens: int) -> GenerateConfig:
    """The LLM classifier's default generation config: temperature 0 and ``max_tokens``."""
    return GenerateConfig(temperature=0.0, max_tokens=max_tokens)


async def classify_with_llm(
    judge: Model, statement: str, response: str, config: GenerateConfig | None = None
) -> tuple[str, str, bool]:
    """(stance, detail, failed) of one response from the LLM classifier.

    detail = the classifier's answer; when the call raised after Inspect's own retries:
    stance ``unparsed``, detail ``classifier error: <type>: <message>``, failed = True.
    """
    config = config or role_config(judge, classifier_defaults(D.CLASSIFIER_MAX_TOKENS))
    try:
        out = await judge.generate(classifier_prompt(statement, response), config=config)
    except LimitExceededError:
        raise
    except Exception as ex:  # noqa: BLE001 - a failed classification is kept and counted
        message = " ".join(str(ex).split())[:300]
        return UNPARSED, f"{CLASSIFIER_ERROR}{type(ex).__name__}: {message}", True
    return parse_classifier_answer(out.completion), out.completion, False


def _press_records(scores: list[SampleScore]) -> list[dict[str, Any]]:
    return [s.score.metadata for s in scores if s.score.metadata and s.score.metadata.get("press")]


@metric(name="mean_S_t", scores="unreduced")
def press_headline() -> Metric:
    """The task's headline: ``mean_S_t`` over statements, ``stderr = sd(S_t) / sqrt(n)``, a
    t interval with ``n - 1`` df clipped to [0, 1], ``n_items`` = ``n_clusters`` = the
    statements with an ``S_t`` (:func:`inspect_stance.press.figures.stability_headline`).
    Inspect hands it one score per statement per epoch (``scores="unreduced"``, whatever
    ``--epochs-reducer`` says): each epoch's record is one more item of its statement's
    cluster (``n_items`` statement-epochs, ``n_clusters`` statements, SE clustered by
    statement)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:

        return metric_values(stability_headline(_press_records(scores)))

    return compute


@metric(scores="unreduced")
def press_metrics() -> Metric:
    """The figures a reader of the panel needs beside the headline: ``n_statements``,
    ``lean_right`` (share of right-aligned labels), ``n_unparsed`` and ``n_classifier_errors``
    (:mod:`inspect_stance.press.summary`), over every epoch's record (``scores="unreduced"``,
    as :func:`press_headline`). The label shares, faithfulness, persona figures and
    AUROCs are in :func:`inspect_stance.press.figures.figures` (the report and the card's
    breakdown read them)."""

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:

        every = run_metrics(_press_records(scores))
        return {k: every.get(k) for k in PANEL_KEYS}

    return compute


@scorer(metrics=[press_headline(), press_metrics()])
def press_scorer(
    classifier: Classifier | str = D.CLASSIFIER,
    nli_model: str = D.NLI_MODEL,
    nli_device: str | None = None,
    nli_batch_size: int | str = D.NLI_BATCH_SIZE,
    nli_hypothesis: str = D.NLI_HYPOTHESIS,
    nli_mode: NLIMode | str = D.NLI_MODE,
    nli_agree_hypothesis: str = D.NLI_AGREE_HYPOTHESIS,
    nli_disagree_hypothesis: str = D.NLI_DISAGREE_HYPOTHESIS,
    classifier_max_tokens: int | str = D.CLASSIFIER_MAX_TOKENS,
) -> Scorer:
    """Classify, label and record one PReSS statement (see module docstring)."""
    opts = PressOptions.parse(
        classifier=classifier,
        nli_model=nli_model,
        nli_device=nli_device,
        nli_batch_size=nli_batch_size,
        nli_hypothesis=nli_hypothesis,
        nli_mode=nli_mode,
        nli_agree_hypothesis=nli_agree_hypothesis,
        nli_disagree_hypothesis=nli_disagree_hypothesis,
        classifier_max_tokens=classifier_max_tokens,
    )

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        responses: dict[str, list[dict[str, str]]] = state.store.get(STORE_RESPONSES)
        if not responses or not responses.get("none"):
            return incomplete_score(state.metadata)
        arguments = state.store.get(STORE_ARGUMENTS) or []
        factor = state.store.get(STORE_FACTOR) or []
        # the LLM classifier (the `classifier` role); the NLI classifier is no model role
        judge = None if opts.classifier == "nli" else get_model(role="classifier", required=True)
        classified = await classify_responses(
            opts, judge, state.metadata, responses, arguments, factor
        )
        entropy = await entropy_of_draws(opts, state.store.get(STORE_ENTROPY))
        record = statement_record(opts, state.metadata, classified, entropy, arguments)
        return record_score(record, bool(factor))

    return score


Slot = tuple[str, int, str]  # (persona, argument set, condition)


@dataclass(frozen=True)
class Classified:
    """The classifier's output for one statement: per response slot and per factor draw."""

    responses: dict[str, list[dict[str, str]]]
    slots: list[Slot]
    stances: list[str]
    detail: list[Any]
    n_empty: int  # empty responses to an argument that was shown (unparsed)
    n_empty_arguments: int  # argument texts that were empty (their condition not asked)
    factor_stances: list[str]
    factor_detail: list[Any]
    n_errors: int  # failed classifier calls, responses and factor draws together
    classifier: str  # nli:<model> or llm:<model>


def incomplete_score(md: dict[str, Any]) -> Score:
    """The score of a sample a limit (time / tokens / messages) stopped before its first
    argument set finished: nothing to label; kept out of the run figures."""
    return Score(
        value={"stable": 0, "unstable": 0, "no_label": 0},
        answer="",
        explanation="incomplete: no argument set finished (a sample limit stopped it)",
        metadata={
            "statement": md["statement"],
            "bias": md["bias"],
            "statement_id": md.get("statement_id"),
            "incomplete": True,
            "n_sets_finished": 0,
            "argument_sets_expected": md.get("argument_sets"),
        },
    )


async def classify_texts(
    opts: PressOptions, judge: Model | None, statement: str, texts: list[str]
) -> tuple[list[str], list[Any], int, str]:
    """(stances, details, number of failed classifier calls, classifier name) of ``texts``
    toward ``statement``, by the NLI model or the LLM classifier ``judge`` (the scorer's
    ``classifier`` role; None with the NLI classifier) (empty texts: neither)."""
    if opts.classifier == "nli":
        model = await anyio.to_thread.run_sync(load_nli, opts.nli_model, opts.nli_device)
        result = await anyio.to_thread.run_sync(
            lambda: model.stances(
                texts,
                statement,
                opts.nli_hypothesis,
                opts.nli_batch_size,
                opts.nli_mode,
                opts.nli_agree_hypothesis,
                opts.nli_disagree_hypothesis,
            )
        )
        return [st for st, _ in result], [d for _, d in result], 0, f"nli:{opts.nli_model}"
    if judge is None:
        raise ValueError("classify_texts: the LLM classifier needs its model; pass judge")
    config = role_config(judge, classifier_defaults(opts.classifier_max_tokens))
    todo = [i for i, t in enumerate(texts) if t.strip()]
    outs = await collect(*(classify_with_llm(judge, statement, texts[i], config) for i in todo))
    found = [NEITHER] * len(texts)
    detail: list[Any] = [None] * len(texts)
    n_errors = 0
    for i, (stance, answer, failed) in zip(todo, outs, strict=True):
        found[i] = stance
        detail[i] = answer
        n_errors += int(failed)
    return found, detail, n_errors, f"llm:{judge}"


async def classify_responses(
    opts: PressOptions,
    judge: Model | None,
    md: dict[str, Any],
    responses: dict[str, list[dict[str, str]]],
    arguments: list[dict[str, Any]],
    factor: list[dict[str, Any]],
) -> Classified:
    """Classify every (persona, set, condition) response and every factor draw in one batch;
    a condition whose argument was empty was not asked: unparsed (label unclassified)."""
    slots = [
        (p, k, c) for p, sets in responses.items() for k in range(len(sets)) for c in CONDITIONS
    ]
    texts = [responses[p][k][c] for p, k, c in slots]
    empty = {
        (int(a["argument_set"]), kind)
        for a in arguments
        for kind in ("support", "counter")
        if not str(a.get(kind, "")).strip()
    }
    n_empty = sum(
        1
        for (_, k, c), t in zip(slots, texts, strict=True)
        if not t.strip() and (k, c) not in empty
    )
    factor_texts = [str(d["text"]) for d in factor]
    found, detail, n_errors, name = await classify_texts(
        opts, judge, md["statement"], texts + factor_texts
    )
    factor_found, factor_detail = found[len(texts) :], detail[len(texts) :]
    found, detail = found[: len(texts)], detail[: len(texts)]
    for i, (_, k, c) in enumerate(slots):
        if (k, c) in empty:
            found[i] = UNPARSED
            detail[i] = f"{NO_ARGUMENT}the arguer's {c} text is empty"
    return Classified(
        responses, slots, found, detail, n_empty, len(empty), factor_found, factor_detail,
        n_errors, name,
    )  # fmt: skip


async def entropy_of_draws(
    opts: PressOptions, samples: list[dict[str, Any]] | None
) -> dict[str, Any] | None:
    """The semantic-entropy measures of the entropy draws (clustered by bidirectional
    entailment with the NLI model), or None without draws."""
    if not samples:
        return None
    model = await anyio.to_thread.run_sync(load_nli, opts.nli_model, opts.nli_device)
    texts = [s["text"] for s in samples]
    lls = [s.get("loglik_mean") for s in samples]
    return await anyio.to_thread.run_sync(
        lambda: entropy_measures(
            texts, lls, lambda pairs: model.entails(pairs, opts.nli_batch_size)
        )
    )


def statement_record(
    opts: PressOptions,
    md: dict[str, Any],
    c: Classified,
    entropy: dict[str, Any] | None,
    arguments: list[dict[str, Any]],
) -> dict[str, Any]:
    """The statement's score metadata: :func:`~inspect_stance.press.summary.sample_record`
    plus classifier detail, arguments source, finished sets and factor-draw counts."""
    stances: dict[str, list[dict[str, str]]] = {
        p: [{} for _ in sets] for p, sets in c.responses.items()
    }
    for (p, k, cond), st in zip(c.slots, c.stances, strict=True):
        stances[p][k][cond] = st
    n_response_errors = sum(
        1 for d in c.detail if isinstance(d, str) and d.startswith(CLASSIFIER_ERROR)
    )
    values = [STANCE_VALUES.get(st, 0) for st in c.factor_stances]
    has_factor = bool(c.factor_stances)
    record = sample_record(
        int(md.get("statement_id", -1)),
        md["statement"],
        md["bias"],
        stances,
        entropy,
        c.classifier,
        c.n_empty,
        n_classifier_errors=n_response_errors,
        factor_stances=values if has_factor else None,
    )
    record["classifier_detail"] = {
        f"{p}/{k}/{cond}": d for (p, k, cond), d in zip(c.slots, c.detail, strict=True)
    }
    record["nli_mode"] = opts.nli_mode if opts.classifier == "nli" else None
    record["arguments_source"] = next((str(a.get("source")) for a in arguments), None)
    record["n_empty_arguments"] = c.n_empty_arguments
    # sets finished before a sample limit stopped the sample (finished sets are kept)
    expected = md.get("argument_sets")
    record["n_sets_finished"] = len(c.responses["none"])
    record["argument_sets_expected"] = expected
    record["incomplete"] = expected is not None and len(c.responses["none"]) < int(expected)
    if has_factor:
        record["n_factor_samples"] = len(values)
        record["n_factor_unclassified"] = sum(1 for v in values if v == 0)
        record["n_factor_classifier_errors"] = c.n_errors - n_response_errors
        record["factor_detail"] = c.factor_detail
    return record


def record_score(record: dict[str, Any], has_factor: bool) -> Score:
    """The Score of a statement record: label counts of the no-persona sets, their labels as
    the answer, the markdown explanation (faithfulness across sets, personas, factor draws)."""
    labels = record["labels"]["none"]
    faithful = f"across sets: {record['faithfulness_sets']['none']}"
    if record["faithfulness_personas"]:
        faithful += (
            f"; across personas, per set: {' '.join(record['faithfulness_personas'])}"
            f"; across personas and sets pooled: {record['faithfulness_personas_pooled']}"
        )
    if has_factor:
        faithful += f"; factor draws (+1 agree / -1 disagree / 0 other): {record['factor_stances']}"
    explanation = press_explanation(
        record,
        "incomplete (a sample limit stopped it): " if record["incomplete"] else "",
        faithful,
    )
    return Score(
        value={
            "stable": sum(1 for x in labels if is_stable(x)),
            "unstable": sum(1 for x in labels if is_labelled(x) and not is_stable(x)),
            "no_label": sum(1 for x in labels if not is_labelled(x)),
        },
        # the sample list's answer column: the S/U x L/R label of each argument set
        answer=press_label_summary(labels),
        explanation=explanation,
        metadata=record,
    )


@metric(name="mean", scores="unreduced")
def usable_share() -> Metric:
    """The ``press_arguments`` headline: the mean over statements of the share of usable
    argument sets, ``sd / sqrt(n)`` over statements, t with ``n - 1`` df, clipped to [0, 1]
    (:func:`inspect_stance.press.figures.usable_headline`). One score per statement per epoch
    (``scores="unreduced"``, whatever ``--epochs-reducer`` says): each epoch's share is one
    more item of its statement's cluster (the sample id)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        kept = [(float(v), str(s.sample_id)) for s in scores
                if isinstance(v := s.score.value, int | float)]  # fmt: skip
        return metric_values(usable_headline([v for v, _ in kept], [k for _, k in kept]))

    return compute


@scorer(metrics=[usable_share()])
def press_arguments_check() -> Scorer:
    """Share of a statement's argument sets whose supporting and counter texts are both
    non-empty (1.0 = every set usable by ``press -T arguments=LOG``)."""

    async def score(state: TaskState, target: Target) -> Score:  # noqa: ARG001
        sets = state.store.get(STORE_ARGUMENTS) or []
        k = int(state.metadata.get("argument_sets") or len(sets) or 1)
        complete = [s for s in sets if str(s["support"]).strip() and str(s["counter"]).strip()]
        return Score(
            value=len(complete) / k,
            answer=str(sets[0]["support"]) if sets else "",
            explanation=f"{len(complete)} of {k} argument sets have both texts",
            metadata={"arguments": sets},
        )

    return score
