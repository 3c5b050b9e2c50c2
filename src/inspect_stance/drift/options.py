"""The ``stance_drift`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`DriftOptions.parse` turns the task's raw arguments into typed, validated values; the
task, its dataset (:mod:`inspect_stance.drift.dataset`), its solver arguments and its task
metadata read this one object. The propositions and ``arguments_from`` files are read later,
by the dataset; the ``relay`` model role (``hops`` > 1) is checked by the task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

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
from inspect_stance.drift.extraction import DEFAULT_MIN_LETTER_MASS, check_min_letter_mass
from inspect_stance.drift.prompts import (
    EXTRACTION_ONLY_VARIANTS,
    MULTIPLE_EXTRACTIONS,
    VARIANTS,
    Variant,
)
from inspect_stance.drift.transition import UNPARSED_POLICIES
from inspect_stance.errors import InputError
from inspect_stance.params import as_bool, as_int, parse_float
from inspect_stance.shards import Shard, parse_shard

Unparsed = Literal["failure", "exclude"]
assert set(get_args(Unparsed)) == set(UNPARSED_POLICIES)
assert set(get_args(RelayOperation)) == set(RELAY_OPERATIONS)
#: the longest chain a run may ask for (every hop costs a relay and an extraction per trial)
MAX_HOPS = 100
#: variants a chain (hops > 1) runs: the default and reversed prompts (one extraction per hop)
CHAIN_VARIANTS = ("default", "reversed")
#: the role that relays each later hop of a chain (the chain solver's ``RELAY_ROLE``)
RELAY = "relay"

DEFAULT_EXTRACTION_TEMPERATURE = 1.0


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


def check_choices(variant: object, unparsed: object) -> None:
    """``-T variant`` one of ``VARIANTS``, ``-T unparsed`` one of ``UNPARSED_POLICIES``."""
    if variant not in VARIANTS:
        raise InputError(
            f"unknown variant {variant!r}; use -T variant=NAME, NAME one of {', '.join(VARIANTS)}"
        )
    if unparsed not in UNPARSED_POLICIES:
        raise InputError(
            f"unknown unparsed policy {unparsed!r}; use -T unparsed=failure or -T unparsed=exclude"
        )


def check_adaptive(value: object, hops: int) -> float | None:
    """``-T adaptive_halfwidth`` (:func:`~inspect_stance.drift.adaptive.rule.check_halfwidth`), only
    with the one-hop task."""
    halfwidth = check_halfwidth(value)
    if halfwidth is not None and hops > 1:
        raise InputError("adaptive_halfwidth does not combine with -T hops > 1; drop one of them")
    return halfwidth


def check_reuse(variant: object) -> None:
    """``-T arguments_from`` only with a variant whose generation prompt is the default's."""
    if variant not in EXTRACTION_ONLY_VARIANTS:
        raise InputError(
            f"variant {variant!r} changes the generation prompt, so it cannot reuse "
            f"arguments; arguments_from works with {', '.join(EXTRACTION_ONLY_VARIANTS)}"
        )


@dataclass(frozen=True)
class DriftOptions:
    """The checked parameters of one ``stance_drift`` run (see the task's ``Args:``).

    ``propositions`` and ``arguments_from`` are the values as given (read by the dataset, and
    fingerprinted as given); ``relay_language`` is the checked translation language (``None``
    unless ``relay_operation=translate``); ``adaptive_halfwidth`` is ``None`` for fixed trials.
    """

    variant: Variant = "default"
    trials: int = 100
    words_limit: int = 100
    propositions: str | None = None
    limit_propositions: int | None = None
    unparsed: Unparsed = "failure"
    arguments_from: str | None = None
    seed: int = 0
    cache: bool = True
    logprobs: bool = True
    min_letter_mass: float = DEFAULT_MIN_LETTER_MASS
    extraction_temperature: float | None = DEFAULT_EXTRACTION_TEMPERATURE
    hops: int = 1
    relay_operation: RelayOperation = "paraphrase"
    relay_language: str | None = None
    adaptive_halfwidth: float | None = None
    shard: Shard | None = None

    @classmethod
    def parse(
        cls,
        variant: object = "default",
        trials: object = 100,
        words_limit: object = 100,
        propositions: str | None = None,
        limit_propositions: object = None,
        unparsed: object = "failure",
        arguments_from: str | None = None,
        seed: object = 0,
        cache: object = True,
        logprobs: object = True,
        min_letter_mass: object = DEFAULT_MIN_LETTER_MASS,
        extraction_temperature: object = DEFAULT_EXTRACTION_TEMPERATURE,
        hops: object = 1,
        relay_operation: object = "paraphrase",
        relay_language: str | None = None,
        adaptive_halfwidth: object = None,
        shard: object = None,
    ) -> DriftOptions:
        """Check every parameter once; the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        check_choices(variant, unparsed)
        split = parse_shard(shard)
        # -T values may arrive as strings (Python API, eval-retry): parse them once, strictly
        n_trials = as_int("trials", trials, example=100)
        n_words = as_int("words_limit", words_limit, example=100)
        n_seed = as_int("seed", seed, minimum=0, example=0)
        use_cache = as_bool("cache", cache)
        use_logprobs = as_bool("logprobs", logprobs)
        temperature = check_temperature(extraction_temperature)
        mass = check_min_letter_mass(min_letter_mass)
        n_hops = as_int("hops", hops, example=3)
        operation = str(relay_operation)
        language = check_chain(n_hops, str(variant), operation, relay_language, arguments_from)
        halfwidth = check_adaptive(adaptive_halfwidth, n_hops)
        limit = (
            None
            if limit_propositions is None
            else as_int("limit_propositions", limit_propositions, example=10)
        )
        if arguments_from:
            check_reuse(variant)
        return cls(
            variant=variant,  # type: ignore[arg-type]  # checked against VARIANTS above
            trials=n_trials,
            words_limit=n_words,
            propositions=propositions,
            limit_propositions=limit,
            unparsed="exclude" if unparsed == "exclude" else "failure",
            arguments_from=arguments_from,
            seed=n_seed,
            cache=use_cache,
            logprobs=use_logprobs,
            min_letter_mass=mass,
            extraction_temperature=temperature,
            hops=n_hops,
            relay_operation=operation,  # type: ignore[arg-type]  # checked by check_chain
            relay_language=language,
            adaptive_halfwidth=halfwidth,
            shard=split,
        )

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
