"""The ``press`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`PressOptions.parse` turns the task's raw arguments into typed, validated values; the
task, its solver (:func:`inspect_stance.solvers.press.press_generate`) and its scorer
(:func:`inspect_stance.scorers.press.press_scorer`) read this one object. Relative file paths
(statements, arguments, a local NLI model folder) are resolved from the working directory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from inspect_stance.errors import InputError
from inspect_stance.params import FALSE_WORDS, TRUE_WORDS, as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.press.nli import (
    DEFAULT_AGREE_HYPOTHESIS,
    DEFAULT_BATCH_SIZE,
    DEFAULT_DISAGREE_HYPOTHESIS,
    DEFAULT_HYPOTHESIS,
    DEFAULT_NLI_MODEL,
    NLI_MODES,
    NLIMode,
    check_hypothesis_template,
)
from inspect_stance.press.prompts import PERSONAS
from inspect_stance.shards import Shard, parse_shard

Classifier = Literal["nli", "llm"]
CLASSIFIERS: tuple[str, ...] = ("nli", "llm")
DEFAULT_CLASSIFIER_MAX_TOKENS = 64
DEFAULT_ARGUER_MAX_TOKENS = 1024
DEFAULT_DRAWS = 20  # the paper: N = 20 entropy generations; Appendix B: 20 draws per item
PACKAGE_STATEMENTS = "package:press_statements.tsv"


def draw_count(name: str, value: object, minimum: int) -> int:
    """Number of temperature-1 draws: ``true`` -> 20, ``false`` / 0 / None -> 0 (off), an
    integer N >= ``minimum`` -> N; anything else is a one-line InputError."""
    if value is None or value is False:
        return 0
    if value is True:
        return DEFAULT_DRAWS
    if isinstance(value, str) and not value.strip().lstrip("-").isdigit():
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return DEFAULT_DRAWS
        if word in FALSE_WORDS:
            return 0
        raise InputError(
            f"{name} {value!r} is not a count; use -T {name}=20 (or true = 20, false = off)"
        )
    n = as_int(name, value, minimum=0, example=DEFAULT_DRAWS)
    if 0 < n < minimum:
        raise InputError(
            f"{name} {n}; use 0 (off) or an integer >= {minimum} (e.g. -T {name}={DEFAULT_DRAWS})"
        )
    return n


@dataclass(frozen=True)
class PressOptions:
    """The checked parameters of one ``press`` run (see the task's ``Args:``).

    ``statements``, ``arguments`` and ``nli_model`` are resolved paths (``nli_model`` may be a
    hub id, returned as given); ``entropy_samples`` / ``factor_samples`` are draw counts (0 =
    off).
    """

    statements: str | None = None
    argument_sets: int = 3
    arguments: str | None = None
    personas: bool = False
    entropy_samples: int = 0
    factor_samples: int = 0
    classifier: Classifier = "nli"
    nli_mode: NLIMode = "zero_shot"
    nli_model: str = DEFAULT_NLI_MODEL
    nli_device: str | None = None
    nli_batch_size: int = DEFAULT_BATCH_SIZE
    nli_hypothesis: str = DEFAULT_HYPOTHESIS
    nli_agree_hypothesis: str = DEFAULT_AGREE_HYPOTHESIS
    nli_disagree_hypothesis: str = DEFAULT_DISAGREE_HYPOTHESIS
    arguer_max_tokens: int = DEFAULT_ARGUER_MAX_TOKENS
    classifier_max_tokens: int = DEFAULT_CLASSIFIER_MAX_TOKENS
    shard: Shard | None = None

    @classmethod
    def parse(
        cls,
        statements: str | None = None,
        argument_sets: object = 3,
        arguments: str | None = None,
        personas: object = False,
        entropy_samples: object = False,
        factor_samples: object = 0,
        classifier: object = "nli",
        nli_mode: object = "zero_shot",
        nli_model: str = DEFAULT_NLI_MODEL,
        nli_device: str | None = None,
        nli_batch_size: object = DEFAULT_BATCH_SIZE,
        nli_hypothesis: str = DEFAULT_HYPOTHESIS,
        nli_agree_hypothesis: str = DEFAULT_AGREE_HYPOTHESIS,
        nli_disagree_hypothesis: str = DEFAULT_DISAGREE_HYPOTHESIS,
        arguer_max_tokens: object = DEFAULT_ARGUER_MAX_TOKENS,
        classifier_max_tokens: object = DEFAULT_CLASSIFIER_MAX_TOKENS,
        shard: object = None,
    ) -> PressOptions:
        """Check every parameter once; the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError` naming it and the fix."""
        split = parse_shard(shard)
        if classifier not in CLASSIFIERS:
            raise InputError(f"classifier {classifier!r}; use -T classifier=nli or classifier=llm")
        if nli_mode not in NLI_MODES:
            raise InputError(f"nli_mode {nli_mode!r}; use -T nli_mode=zero_shot or three_way")
        k = as_int("argument_sets", argument_sets, example=3)
        with_personas = as_bool("personas", personas)
        batch = as_int("nli_batch_size", nli_batch_size, example=DEFAULT_BATCH_SIZE)
        n_entropy = draw_count("entropy_samples", entropy_samples, minimum=2)
        n_factor = draw_count("factor_samples", factor_samples, minimum=1)
        arguer_tokens = as_int("arguer_max_tokens", arguer_max_tokens, example=1024)
        classifier_tokens = as_int("classifier_max_tokens", classifier_max_tokens, example=64)
        for name, template in (
            ("nli_hypothesis", nli_hypothesis),
            ("nli_agree_hypothesis", nli_agree_hypothesis),
            ("nli_disagree_hypothesis", nli_disagree_hypothesis),
        ):
            check_hypothesis_template(template, name)
        return cls(
            # -T paths are relative to the shell's directory, not tasks/ (inspect_stance.paths)
            statements=user_path(statements) if statements else None,
            argument_sets=k,
            arguments=user_path(arguments) if arguments else None,
            personas=with_personas,
            entropy_samples=n_entropy,
            factor_samples=n_factor,
            classifier="llm" if classifier == "llm" else "nli",
            nli_mode="three_way" if nli_mode == "three_way" else "zero_shot",
            nli_model=user_path(nli_model),
            nli_device=nli_device,
            nli_batch_size=batch,
            nli_hypothesis=nli_hypothesis,
            nli_agree_hypothesis=nli_agree_hypothesis,
            nli_disagree_hypothesis=nli_disagree_hypothesis,
            arguer_max_tokens=arguer_tokens,
            classifier_max_tokens=classifier_tokens,
            shard=split,
        )

    @property
    def persona_list(self) -> tuple[str, ...]:
        """The persona conditions asked: none, or none / left / right with ``personas``."""
        return tuple(PERSONAS) if self.personas else ("none",)

    @property
    def n_draws(self) -> int:
        """Temperature-1 draws generated: max(entropy_samples, factor_samples) (one pool)."""
        return max(self.entropy_samples, self.factor_samples)

    @property
    def needs_nli(self) -> bool:
        """Whether the NLI model is loaded: the NLI classifier or entropy clustering."""
        return self.classifier == "nli" or self.entropy_samples > 0

    def solver_args(self) -> dict[str, Any]:
        """The keyword arguments of ``press_generate`` (plain values, recorded in the log)."""
        return {
            "argument_sets": self.argument_sets,
            "personas": self.personas,
            "entropy_samples": self.entropy_samples,
            "factor_samples": self.factor_samples,
            "arguer_max_tokens": self.arguer_max_tokens,
        }

    def scorer_args(self) -> dict[str, Any]:
        """The keyword arguments of ``press_scorer`` (plain values, so ``inspect score`` can
        rebuild it from the log)."""
        return {
            "classifier": self.classifier,
            "nli_model": self.nli_model,
            "nli_device": self.nli_device,
            "nli_batch_size": self.nli_batch_size,
            "nli_hypothesis": self.nli_hypothesis,
            "nli_mode": self.nli_mode,
            "nli_agree_hypothesis": self.nli_agree_hypothesis,
            "nli_disagree_hypothesis": self.nli_disagree_hypothesis,
            "classifier_max_tokens": self.classifier_max_tokens,
        }

    def metadata(self) -> dict[str, Any]:
        """The task metadata read from the options (``press_*`` keys)."""
        return {
            "press_argument_sets": self.argument_sets,
            "press_personas": self.personas,
            "press_entropy_samples": self.entropy_samples,
            "press_factor_samples": self.factor_samples,
            "press_draws_shared": self.entropy_samples > 0 and self.factor_samples > 0,
            "press_classifier": self.classifier,
            "press_nli_model": self.nli_model,
            "press_nli_mode": self.nli_mode if self.classifier == "nli" else None,
            "press_nli_hypotheses": (
                {"agree": self.nli_agree_hypothesis, "disagree": self.nli_disagree_hypothesis}
                if self.nli_mode == "zero_shot"
                else {"three_way": self.nli_hypothesis}
            ),
            "press_statements": self.statements or PACKAGE_STATEMENTS,
        }
