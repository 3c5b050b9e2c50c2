"""The ``press`` task's ``-T`` parameters, checked once (one-line errors).

:meth:`PressOptions.parse` turns the task's raw arguments into typed, validated values; the
task, its solver (:func:`inspect_stance.solvers.press.press_generate`) and its scorer
(:func:`inspect_stance.scorers.press.press_scorer`) read this one object. Relative file paths
(statements, arguments, a local NLI model folder) are resolved from the working directory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import inspect_stance.press.defaults as D
from inspect_stance.errors import InputError
from inspect_stance.params import FALSE_WORDS, TRUE_WORDS, as_int
from inspect_stance.paths import user_path
from inspect_stance.press.nli import (
    NLI_MODES,
    NLIMode,
    check_hypothesis_template,
)
from inspect_stance.press.prompts import PERSONAS
from inspect_stance.shards import Shard, parse_shard
from inspect_stance.task_options import boolean, checked_values, file_path, integer, option

Classifier = Literal["nli", "llm"]
CLASSIFIERS: tuple[str, ...] = ("nli", "llm")
DEFAULT_CLASSIFIER_MAX_TOKENS = D.CLASSIFIER_MAX_TOKENS
DEFAULT_ARGUER_MAX_TOKENS = D.ARGUER_MAX_TOKENS
DEFAULT_DRAWS = D.DRAWS
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


def check_classifier(name: str, value: object) -> Classifier:
    """``-T classifier``: ``nli`` or ``llm``."""
    if value not in CLASSIFIERS:
        raise InputError(f"classifier {value!r}; use -T classifier=nli or classifier=llm")
    return "llm" if value == "llm" else "nli"


def check_nli_mode(name: str, value: object) -> NLIMode:
    """``-T nli_mode``: ``zero_shot`` or ``three_way``."""
    if value not in NLI_MODES:
        raise InputError(f"nli_mode {value!r}; use -T nli_mode=zero_shot or three_way")
    return "three_way" if value == "three_way" else "zero_shot"


def check_template(name: str, value: object) -> str:
    """An NLI hypothesis template (:func:`~inspect_stance.press.nli.check_hypothesis_template`)."""
    check_hypothesis_template(str(value), name)
    return str(value)


@dataclass(frozen=True)
class PressOptions:
    """The checked parameters of one ``press`` run (declared once, below).

    ``statements``, ``arguments`` and ``nli_model`` are resolved paths (``nli_model`` may be a
    hub id, returned as given); ``entropy_samples`` / ``factor_samples`` are draw counts (0 =
    off).
    """

    statements: str | None = option(
        None,
        "UTF-8 TSV (a byte-order mark is dropped) with header columns bias (left/right: the "
        "side agreement moves toward) and statement, fields read verbatim; default: the "
        "paper's 19 economic Political Compass statements shipped with the package.",
        check=file_path,
    )
    argument_sets: int = option(
        D.ARGUMENT_SETS,
        "K independent supporting/counter argument sets per statement (an integer >= 1; the "
        "paper: 3).",
        check=integer(example=D.ARGUMENT_SETS),
    )
    arguments: str | None = option(
        None,
        "reuse arguments instead of generating them: the .eval log of a press_arguments run "
        "(the paper's one set for every target; a sharded one: the folder of its shards' "
        "logs) or of an earlier press run, or a JSON Lines "
        'file with one {"statement", "argument_set", "support", "counter"} per line '
        "(argument_set from 0). Every statement needs sets 0..K-1, matched by exact text. "
        "Default: generate them with the arguer role, or, when no arguer role is bound, with "
        "the model under test itself (recorded as arguments_source target:<model>).",
        check=file_path,
    )
    personas: bool = option(
        D.PERSONAS,
        "add the left- and right-leaning persona conditions (3 x 3 grid); true/false (also "
        "yes/no/on/off/1/0 as strings).",
        check=boolean,
    )
    entropy_samples: int = option(
        D.ENTROPY_SAMPLES,
        "N extra temperature-1 responses to the plain statement, with log-probabilities, for "
        "the semantic-entropy validation (true = 20, the paper's N; false/0 = off; else an "
        "integer >= 2).",
        check=lambda n, v: draw_count(n, v, minimum=2),
    )
    factor_samples: int = option(
        D.FACTOR_SAMPLES,
        "N temperature-1 responses to the plain statement per statement for the Appendix B "
        "factor analysis (the paper: 20; 0 = off), classified with the stance classifier into "
        "the score metadata's factor_stances (+1 agree, -1 disagree, 0 other). They share "
        "draws with entropy_samples: max of the two is generated.",
        check=lambda n, v: draw_count(n, v, minimum=1),
    )
    classifier: Classifier = option(
        D.CLASSIFIER,
        "stance classifier: nli (a transformers NLI model, the paper's) or llm (the model "
        "bound to the role classifier, which is then required).",
        check=check_classifier,
    )
    nli_mode: NLIMode = option(
        D.NLI_MODE,
        "zero_shot (default, the paper's binary stance: the higher-scoring of an agree and a "
        "disagree hypothesis, the zero-shot-classification recipe) or three_way (the "
        "statement as hypothesis; entailment agree, contradiction disagree, neutral neither).",
        check=check_nli_mode,
    )
    nli_model: str = option(
        D.NLI_MODEL,
        "hub id or local folder of a sequence-classification NLI model whose config.id2label "
        "names entailment (and contradiction for three_way); also clusters the entropy "
        "samples.",
        check=lambda _, v: user_path(str(v)),
    )
    nli_device: str | None = option(
        None,
        "torch device of the NLI model (default cuda when available, else cpu).",
    )
    nli_batch_size: int = option(
        D.NLI_BATCH_SIZE,
        "NLI pairs per forward pass (an integer >= 1).",
        check=integer(example=D.NLI_BATCH_SIZE),
    )
    nli_hypothesis: str = option(
        D.NLI_HYPOTHESIS,
        "three_way hypothesis template with {statement} (default the statement itself).",
        check=check_template,
    )
    nli_agree_hypothesis: str = option(
        D.NLI_AGREE_HYPOTHESIS,
        'zero_shot agree hypothesis with {statement} (default "The author agrees with the '
        'statement: {statement}"; the paper gives no wording).',
        check=check_template,
    )
    nli_disagree_hypothesis: str = option(
        D.NLI_DISAGREE_HYPOTHESIS,
        'zero_shot disagree hypothesis with {statement} (default "The author disagrees with '
        'the statement: {statement}").',
        check=check_template,
    )
    arguer_max_tokens: int = option(
        D.ARGUER_MAX_TOKENS,
        "max_tokens of every arguer call (default 1024; reasoning arguers such as DeepSeek-R1 "
        "think inside this budget: raise it for them). A max_tokens or temperature in the "
        "role's own config (--model-role 'arguer={model: M, max_tokens: N}') wins; otherwise "
        "arguer calls run at temperature 1 (the paper).",
        check=integer(example=D.ARGUER_MAX_TOKENS),
    )
    classifier_max_tokens: int = option(
        D.CLASSIFIER_MAX_TOKENS,
        "max_tokens of every LLM-classifier call (default 64; the first word is the answer); "
        "the role's own config wins; temperature 0.",
        check=integer(example=D.CLASSIFIER_MAX_TOKENS),
    )
    shard: Shard | None = option(
        None,
        'run only shard K of N of the statements ("K/N", e.g. 1/4), split by content hash '
        "(the same statements whatever the file's order); the log records K, N and the "
        "study's fingerprint so that the shards' logs pool into one run.",
        check=lambda _, v: parse_shard(v),
    )

    @classmethod
    def parse(cls, **raw: object) -> PressOptions:
        """Check every option once, by keyword (each option's own check); the first bad one
        raises a one-line :class:`~inspect_stance.errors.InputError` naming it and the fix.
        ``statements``, ``arguments`` and ``nli_model`` come back resolved from the working
        directory (``-T`` paths are relative to the shell's directory, not ``tasks/``)."""
        return cls(**checked_values(cls, raw))

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


@dataclass(frozen=True)
class PressArgumentsOptions:
    """The checked parameters of one ``press_arguments`` run."""

    statements: str | None = option(
        None,
        "UTF-8 TSV with header columns bias and statement (as for press); default: the "
        "packaged 19 statements.",
        check=file_path,
    )
    argument_sets: int = option(
        D.ARGUMENT_SETS,
        "K independent argument sets per statement (an integer >= 1; the paper: 3).",
        check=integer(example=D.ARGUMENT_SETS),
    )
    arguer_max_tokens: int = option(
        D.ARGUER_MAX_TOKENS,
        "max_tokens of every arguer call (default 1024; raise it for reasoning arguers such "
        "as DeepSeek-R1); the role's own config wins; temperature 1.",
        check=integer(example=D.ARGUER_MAX_TOKENS),
    )
    shard: Shard | None = option(
        None,
        'write only shard K of N of the statements\' arguments ("K/N", e.g. 1/4), split by '
        "content hash as press splits them; the log records K, N and the study's fingerprint. "
        "press reads the shards together from their folder: -T arguments=DIR.",
        check=lambda _, v: parse_shard(v),
    )

    @classmethod
    def parse(cls, **raw: object) -> PressArgumentsOptions:
        """Check every option once, by keyword; the first bad one raises a one-line
        :class:`~inspect_stance.errors.InputError`."""
        return cls(**checked_values(cls, raw))
