"""The ``stance_drift`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`DriftOptions.parse` turns the task's raw arguments into typed, validated values; the
task, its dataset (:mod:`inspect_stance.drift.dataset`), its solver arguments and its task
metadata read this one object. The propositions and ``arguments_from`` files are read later,
by the dataset; the ``relay`` model role (``hops`` > 1) is checked by the task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

import inspect_stance.drift.defaults as D
from inspect_stance.drift.adaptive.confseq import AdaptiveRule
from inspect_stance.drift.adaptive.rule import (
    ADAPTIVE_ALPHA,
    ADAPTIVE_MIN_TRIALS,
    ADAPTIVE_WAVE,
    check_halfwidth,
    rule_for,
)
from inspect_stance.drift.chain.relay_prompts import (
    DEFAULT_RELAY_LANGUAGE,
    RELAY_OPERATIONS,
    RelayOperation,
    relay_calls_per_hop,
)
from inspect_stance.drift.extraction import check_min_letter_mass
from inspect_stance.drift.prompts import (
    EXTRACTION_ONLY_VARIANTS,
    MULTIPLE_EXTRACTIONS,
    VARIANTS,
    Variant,
)
from inspect_stance.drift.transition import UNPARSED_POLICIES
from inspect_stance.errors import InputError
from inspect_stance.params import parse_float
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, integer, one_of, option

Unparsed = Literal["failure", "exclude"]
assert set(get_args(Unparsed)) == set(UNPARSED_POLICIES)
assert set(get_args(RelayOperation)) == set(RELAY_OPERATIONS)
#: the longest chain a run may ask for (every hop costs a relay and an extraction per trial)
MAX_HOPS = 100
#: variants a chain (hops > 1) runs: the default and reversed prompts (one extraction per hop)
CHAIN_VARIANTS = ("default", "reversed")
#: the role that relays each later hop of a chain (the chain solver's ``RELAY_ROLE``)
RELAY = "relay"

DEFAULT_EXTRACTION_TEMPERATURE = D.EXTRACTION_TEMPERATURE


def check_temperature(value: object) -> float | None:
    """``-T extraction_temperature``: a number in [0, 2], or ``none`` (provider default)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null")):
        return None
    x = parse_float(value)
    if x is None or not 0.0 <= x <= 2.0:
        raise InputError(
            f"extraction_temperature {value!r} is not a number in [0, 2] or none; use e.g. "
            "-T extraction_temperature=1"
        )
    return x


def check_language(operation: str, language: str | None) -> str | None:
    """``-T relay_language``: a language name other than English, only with
    ``relay_operation=translate``; returned stripped (``None`` when unset)."""
    if language is not None and operation != "translate":
        raise InputError(
            "relay_language applies only to -T relay_operation=translate; drop it or add "
            "-T relay_operation=translate"
        )
    if language is None:
        return None
    language = str(language).strip()
    if not language or not all(c.isalpha() or c in " -" for c in language):
        raise InputError(
            f"relay_language {language!r} is not a language name; use e.g. -T relay_language=German"
        )
    if language.lower() == "english":
        raise InputError(
            "relay_language English is the language the text comes back to; name another "
            "language, e.g. -T relay_language=German"
        )
    return language


def check_chain(
    hops: int, variant: str, operation: str, language: str | None, arguments_from: str | None
) -> str | None:
    """Check the chain parameters (``hops`` > 1); the translation language (``None`` unless
    ``relay_operation=translate``; French when unset)."""
    if hops < 1:
        raise InputError(f"hops must be at least 1 (got {hops}); use e.g. -T hops=3")
    if hops > MAX_HOPS:
        raise InputError(
            f"hops {hops} is more than {MAX_HOPS} (each hop is a model call per trial); use e.g. "
            "-T hops=3"
        )
    if operation not in RELAY_OPERATIONS:
        raise InputError(
            f"unknown relay_operation {operation!r}; use -T relay_operation=NAME, NAME one of "
            f"{', '.join(RELAY_OPERATIONS)}"
        )
    language = check_language(operation, language)
    if hops == 1:
        return None
    if variant not in CHAIN_VARIANTS:
        raise InputError(
            f"variant {variant!r} does not run as a chain; with -T hops > 1 use -T variant="
            f"{' or -T variant='.join(CHAIN_VARIANTS)}"
        )
    if arguments_from:
        raise InputError("arguments_from does not combine with -T hops > 1; drop one of them")
    return (language or DEFAULT_RELAY_LANGUAGE) if operation == "translate" else None


def check_unparsed(name: str, value: object) -> Unparsed:
    """``-T unparsed``: one of ``UNPARSED_POLICIES``."""
    if value not in UNPARSED_POLICIES:
        raise InputError(
            f"unknown unparsed policy {value!r}; use -T unparsed=failure or -T unparsed=exclude"
        )
    return "exclude" if value == "exclude" else "failure"


def check_reuse(variant: object) -> None:
    """``-T arguments_from`` only with a variant whose generation prompt is the default's."""
    if variant not in EXTRACTION_ONLY_VARIANTS:
        raise InputError(
            f"variant {variant!r} changes the generation prompt, so it cannot reuse "
            f"arguments; arguments_from works with {', '.join(EXTRACTION_ONLY_VARIANTS)}"
        )


@dataclass(frozen=True)
class DriftOptions:
    """The checked parameters of one ``stance_drift`` run (declared once, below).

    ``propositions`` and ``arguments_from`` are the values as given (read by the dataset, and
    fingerprinted as given); ``relay_language`` is the checked translation language (``None``
    unless ``relay_operation=translate``); ``adaptive_halfwidth`` is ``None`` for fixed trials.
    """

    variant: Variant = option(
        D.VARIANT,
        "prompt variant: default | reversed (options listed Disagree strongly first) | "
        "multiple_extraction (5 extractions with shuffled options, averaged) | in_context "
        "(the paper's three exemplars; the two exemplar topics are not evaluated) | assertion "
        "| reflection | third_person_reflection.",
        check=one_of(VARIANTS),
    )
    trials: int = option(
        D.TRIALS,
        "trials per (proposition, initial stance), at least 1 (paper: 100).",
        check=integer(example=D.TRIALS),
    )
    words_limit: int = option(
        D.WORDS_LIMIT,
        "maximum words of each generated argument, at least 1 (paper: 100).",
        check=integer(example=D.WORDS_LIMIT),
    )
    propositions: str | None = option(
        None,
        "unset: the 112 evaluation debate topics shipped with the package (IBM Project "
        'Debater, CDLA-Permissive-2.0; no network); "hub": the live hub dataset '
        "ibm-research/debate_speeches through `datasets`; or a .txt (one per line) / .csv / "
        ".tsv (a `topic` or `proposition` column, optional `topic_id` and `role`) / .jsonl "
        "(one object per line) file, relative to the directory you run inspect from. A "
        "repeated proposition is an error.",
    )
    limit_propositions: int | None = option(
        None,
        "evaluate only the first N propositions (N >= 1).",
        check=integer(example=10, optional=True),
    )
    unparsed: Unparsed = option(
        D.UNPARSED,
        '"failure" (unparsed trials count as failures, as in the reference study) or '
        '"exclude" (left out of the means); they are counted either way.',
        check=check_unparsed,
    )
    arguments_from: str | None = option(
        None,
        "an earlier stance_drift log whose arguments are reused (extraction-only variants: "
        "default, reversed, multiple_extraction, assertion); no generation calls.",
    )
    seed: int = option(
        D.SEED,
        "replicate number (>= 0): seeds multiple_extraction's option shuffles and keys the "
        "trial record (another seed = fresh calls, none replayed; the simulated respondent's "
        "answers follow its own -M seed).",
        check=integer(minimum=0, example=D.SEED),
    )
    cache: bool = option(
        D.CACHE,
        "keep a per-sample record of finished generations and trials (JSON lines under "
        "Inspect's cache folder, for a week) that a restarted sample replays: `inspect "
        "eval-retry` of an interrupted run, or a re-run of the same command after a sample "
        "limit, loses and re-pays no finished trial; an identical re-run with the same seed "
        "returns the recorded trials (false: every run calls the model afresh).",
        check=boolean,
    )
    logprobs: bool = option(
        D.LOGPROBS,
        "request top logprobs on extraction calls (the paper's estimator); false for "
        "providers that reject logprob requests (every trial then uses the text estimate). "
        "What came back is recorded per trial and in the `logprobs_returned` metric.",
        check=boolean,
    )
    min_letter_mass: float = option(
        D.MIN_LETTER_MASS,
        "the least probability the five letters must hold among the answer token's top "
        "logprobs (raw, before renormalising) for the logprob estimate; below it the trial "
        "uses the letter parsed from the answer text (frequency estimate), and is unparsed "
        "when the text names no letter (default 0.5: renormalising then at most doubles a "
        "letter's probability; 0 keeps every logprob estimate).",
        check=lambda _, v: check_min_letter_mass(v),
    )
    extraction_temperature: float | None = option(
        D.EXTRACTION_TEMPERATURE,
        "temperature of the extraction calls (default 1: the text fallback is then a draw "
        "from the same distribution the logprob estimate reads; 0 makes it the argmax of "
        "appendix B.2, also available without new calls by re-scoring with "
        'stance_drift_argmax); "none" leaves it to the provider. Generation calls use the '
        "model's own settings (--temperature etc.).",
        check=lambda _, v: check_temperature(v),
    )
    hops: int = option(
        D.HOPS,
        "length of each trial's chain (>= 1; 1 is the one-hop task). Hop 1 is the generation; "
        "each later hop passes the previous hop's text through the `relay` model role "
        "(--model-role relay=MODEL, or relay=A,B to alternate models hop by hop) and the "
        "stance is extracted after every hop; the metrics are then the final hop's, and "
        "`inspect-stance report` shows every hop and the Markov test. Variants default and "
        "reversed only.",
        check=integer(example=3),
    )
    relay_operation: RelayOperation = option(
        D.RELAY_OPERATION,
        "what a relay does to the text (hops > 1): paraphrase | summarise (at most half of "
        "words_limit words) | clarify (edit for clarity) | translate (into relay_language and "
        "back into English: two relay calls per hop).",
        check=one_of(RELAY_OPERATIONS),
    )
    relay_language: str | None = option(
        None,
        "the language of relay_operation=translate (default French).",
    )
    adaptive_halfwidth: float | None = option(
        None,
        "stop a sample's trials early (unset: always `trials`). Trials run in waves of 10 "
        "(the first 10 at least, `trials` at most); after each wave the sample stops once an "
        "anytime-valid 95 % confidence sequence (empirical Bernstein, Waudby-Smith & Ramdas) "
        "for its success rate is at most this far from the mean on either side, or its upper "
        "bound is below 1. A number in (0, 0.5), e.g. 0.05; not with hops > 1. Plan it with "
        "`inspect-stance plan RUN --adaptive-halfwidth H`.",
        check=lambda _, v: check_halfwidth(v),
    )
    shard: Shard | None = option(
        None,
        'run only shard K of N of the propositions ("K/N", e.g. 1/4): a split by content hash '
        "after the propositions are fixed (the same propositions whatever the file's order); "
        "the log records K, N and the study's fingerprint, and `inspect-stance report` pools "
        "the N shards' logs into one run.",
        check=lambda _, v: parse_shard(v),
    )

    @classmethod
    def parse(cls, **raw: object) -> DriftOptions:
        """Check every option once, by keyword (each option's own check, then the checks that
        span several); the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        values = checked_values(cls, raw)
        values["relay_language"] = check_chain(
            values["hops"],
            values["variant"],
            values["relay_operation"],
            values["relay_language"],
            values["arguments_from"],
        )
        if values["adaptive_halfwidth"] is not None and values["hops"] > 1:
            raise InputError(
                "adaptive_halfwidth does not combine with -T hops > 1; drop one of them"
            )
        if values["arguments_from"]:
            check_reuse(values["variant"])
        return cls(**values)

    def adaptive_rule(self) -> AdaptiveRule | None:
        """The early-stopping rule of ``adaptive_halfwidth`` (``None``: fixed trials)."""
        if self.adaptive_halfwidth is None:
            return None
        return rule_for(self.adaptive_halfwidth, self.trials, self.unparsed)

    def relay_calls(self) -> int:
        """Relay-role calls per trial: (hops - 1) x calls per hop (two for translate)."""
        return (self.hops - 1) * relay_calls_per_hop(self.relay_operation)

    def calls_per_trial(self, reuses_arguments: bool) -> int:
        """Model calls per trial: one generation (none with reused arguments) + extractions;
        a chain: 1 + hops (model) + its relay calls."""
        if self.hops > 1:
            return 1 + self.hops + self.relay_calls()
        extractions = MULTIPLE_EXTRACTIONS if self.variant == "multiple_extraction" else 1
        return (0 if reuses_arguments else 1) + extractions

    def chain_metadata(self) -> dict[str, Any]:
        """The chain's task metadata (empty for the one-hop task)."""
        if self.hops == 1:
            return {}
        return {
            "hops": self.hops,
            "relay_operation": self.relay_operation,
            "relay_language": self.relay_language,
            "model_calls_per_trial_by_role": {"model": 1 + self.hops, RELAY: self.relay_calls()},
        }

    def metadata(
        self,
        fingerprint: dict[str, Any],
        n_propositions: int,
        source: str,
        calls_per_trial: int,
        record_format: int,
    ) -> dict[str, Any]:
        """The task metadata read from the options, the dataset and the solver's record format
        (``fingerprint`` is the inputs' fingerprint entry, ``{FINGERPRINT_KEY: ...}``)."""
        return {
            "method": "stance_drift",
            **fingerprint,
            "variant": self.variant,
            "trials": self.trials,
            "words_limit": self.words_limit,
            "unparsed_policy": self.unparsed,
            "n_propositions": n_propositions,
            "propositions_source": source,
            "arguments_from": self.arguments_from,
            "model_calls_per_trial": calls_per_trial,
            "logprobs_requested": self.logprobs,
            "min_letter_mass": self.min_letter_mass,
            "extraction_config": {
                "temperature": self.extraction_temperature,
                "logprobs": self.logprobs,
                "top_logprobs": "max(5, --top-logprobs)" if self.logprobs else None,
            },
            "generation_config": "the model's own (--temperature, --max-tokens ...)",
            "trial_record": f"format {record_format}, seed {self.seed}" if self.cache else None,
            **self.chain_metadata(),
            "adaptive_halfwidth": self.adaptive_halfwidth,
            "adaptive_rule": None
            if self.adaptive_halfwidth is None
            else {
                "min_trials": ADAPTIVE_MIN_TRIALS,
                "wave": ADAPTIVE_WAVE,
                "alpha": ADAPTIVE_ALPHA,
                "sequence": "empirical Bernstein (predictable mixture), two-sided",
            },
        }
