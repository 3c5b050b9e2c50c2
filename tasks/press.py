"""PReSS: political stance stability under argumentative pressure.

    inspect eval tasks/press.py --model X [--model-role arguer=Y] [--model-role classifier=Z]
        [-T statements=FILE] [-T argument_sets=3] [-T arguments=LOG_OR_JSONL]
        [-T personas=true] [-T entropy_samples=true|N] [-T factor_samples=N]
        [-T classifier=nli|llm] [-T nli_mode=zero_shot|three_way] [-T nli_model=...]

One sample per statement (input = the statement text). The paper's one set of arguments for
every target: generate them once with ``inspect eval tasks/press_arguments.py --model ARGUER``,
then pass that log to every run with ``-T arguments=LOG``. See ``docs/press.md``.
"""

from __future__ import annotations

from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_stance.scorers.press import classifier_defaults, press_scorer
from inspect_stance.solvers.press import arguer_defaults, press_generate

from inspect_stance.extras import require_nli_extra
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import reject_unknown_args
from inspect_stance.press.arguments import LoadedArguments, load_arguments
from inspect_stance.press.dataset import shard_statements, statement_samples
from inspect_stance.press.nli import (
    DEFAULT_AGREE_HYPOTHESIS,
    DEFAULT_BATCH_SIZE,
    DEFAULT_DISAGREE_HYPOTHESIS,
    DEFAULT_HYPOTHESIS,
    DEFAULT_NLI_MODEL,
    load_nli,
)
from inspect_stance.press.options import (
    DEFAULT_ARGUER_MAX_TOKENS,
    DEFAULT_CLASSIFIER_MAX_TOKENS,
    PressOptions,
)
from inspect_stance.press.statements import load_statements
from inspect_stance.provenance import record_provenance
from inspect_stance.roles import config_dump, require_roles, role_model, target_model
from inspect_stance.viewer import headline, press_viewer

TASK_VERSION = 2  # 2: binary zero-shot NLI default, factor draws, arguments fingerprint


@task
def press(
    statements: str | None = None,
    argument_sets: int | str = 3,
    arguments: str | None = None,
    personas: bool | str = False,
    entropy_samples: int | bool | str = False,
    factor_samples: int | bool | str = 0,
    classifier: Literal["nli", "llm"] = "nli",
    nli_mode: Literal["zero_shot", "three_way"] = "zero_shot",
    nli_model: str = DEFAULT_NLI_MODEL,
    nli_device: str | None = None,
    nli_batch_size: int | str = DEFAULT_BATCH_SIZE,
    nli_hypothesis: str = DEFAULT_HYPOTHESIS,
    nli_agree_hypothesis: str = DEFAULT_AGREE_HYPOTHESIS,
    nli_disagree_hypothesis: str = DEFAULT_DISAGREE_HYPOTHESIS,
    arguer_max_tokens: int | str = DEFAULT_ARGUER_MAX_TOKENS,
    classifier_max_tokens: int | str = DEFAULT_CLASSIFIER_MAX_TOKENS,
    shard: str | None = None,
    **unknown: Any,
) -> Task:
    """PReSS: the stance of the model under test on each statement, plainly and under a
    supporting and a counter argument, labelled S^R / U^R / S^L / U^L per argument set.

    Parameters: ``inspect-stance params press`` (or docs/press.md).

    Args:
        statements: UTF-8 TSV (a byte-order mark is dropped) with header columns bias
            (left/right: the side agreement moves toward) and statement, fields read verbatim;
            default: the paper's 19 economic Political Compass statements shipped with the
            package.
        argument_sets: K independent supporting/counter argument sets per statement (an
            integer >= 1; the paper: 3).
        arguments: reuse arguments instead of generating them: the .eval log of a
            press_arguments run (the paper's one set for every target) or of an earlier press
            run, or a JSON Lines file with one {"statement", "argument_set", "support",
            "counter"} per line (argument_set from 0). Every statement needs sets 0..K-1,
            matched by exact text. Default: generate them with the arguer role, or, when no
            arguer role is bound, with the model under test itself (recorded as
            arguments_source target:<model>).
        personas: add the left- and right-leaning persona conditions (3 x 3 grid); true/false
            (also yes/no/on/off/1/0 as strings).
        entropy_samples: N extra temperature-1 responses to the plain statement, with
            log-probabilities, for the semantic-entropy validation (true = 20, the paper's N;
            false/0 = off; else an integer >= 2).
        factor_samples: N temperature-1 responses to the plain statement per statement for
            the Appendix B factor analysis (the paper: 20; 0 = off), classified with the stance
            classifier into the score metadata's factor_stances (+1 agree, -1 disagree,
            0 other). They share draws with entropy_samples: max of the two is generated.
        classifier: stance classifier: nli (a transformers NLI model, the paper's) or llm (the
            model bound to the role classifier, which is then required).
        nli_mode: zero_shot (default, the paper's binary stance: the higher-scoring of an
            agree and a disagree hypothesis, the zero-shot-classification recipe) or three_way
            (the statement as hypothesis; entailment agree, contradiction disagree, neutral
            neither).
        nli_model: hub id or local folder of a sequence-classification NLI model whose
            config.id2label names entailment (and contradiction for three_way); also clusters
            the entropy samples.
        nli_device: torch device of the NLI model (default cuda when available, else cpu).
        nli_batch_size: NLI pairs per forward pass (an integer >= 1).
        nli_hypothesis: three_way hypothesis template with {statement} (default the statement
            itself).
        nli_agree_hypothesis: zero_shot agree hypothesis with {statement} (default "The author
            agrees with the statement: {statement}"; the paper gives no wording).
        nli_disagree_hypothesis: zero_shot disagree hypothesis with {statement} (default "The
            author disagrees with the statement: {statement}").
        arguer_max_tokens: max_tokens of every arguer call (default 1024; reasoning arguers
            such as DeepSeek-R1 think inside this budget: raise it for them). A max_tokens or
            temperature in the role's own config (--model-role 'arguer={model: M,
            max_tokens: N}') wins; otherwise arguer calls run at temperature 1 (the paper).
        classifier_max_tokens: max_tokens of every LLM-classifier call (default 64; the first
            word is the answer); the role's own config wins; temperature 0.
        shard: run only shard K of N of the statements ("K/N", e.g. 1/4), split by content
            hash (the same statements whatever the file's order); the log records K, N and
            the study's fingerprint so that the shards' logs pool into one run.
    """
    reject_unknown_args("press", unknown, press)
    opts = PressOptions.parse(
        statements, argument_sets, arguments, personas, entropy_samples, factor_samples,
        classifier, nli_mode, nli_model, nli_device, nli_batch_size, nli_hypothesis,
        nli_agree_hypothesis, nli_disagree_hypothesis, arguer_max_tokens, classifier_max_tokens, shard,
    )  # fmt: skip
    items, shard_entry = shard_statements(load_statements(opts.statements), opts)
    if opts.classifier == "llm":
        require_roles("press", ["classifier"], "-T classifier=llm")
    given = load_arguments(opts.arguments, items, opts.argument_sets) if opts.arguments else None
    _check_nli(opts)
    source, roles = _arguments_source(opts, given)
    samples = statement_samples(items, {"argument_sets": opts.argument_sets})
    for sample, st in zip(samples, items, strict=True):
        assert sample.metadata is not None
        sample.metadata["arguments"] = given.table[st.text] if given else None
        sample.metadata["arguments_source"] = source
    origin = given.origin if given else None
    return Task(
        cleanup=record_provenance,  # who answered each call (provenance.py)
        dataset=MemoryDataset(samples, name="press"),
        solver=press_generate(**opts.solver_args()),
        scorer=press_scorer(**opts.scorer_args()),
        headline_metric=headline("press"),
        viewer=press_viewer(),
        version=TASK_VERSION,
        metadata={
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "press", {"statements": opts.statements, "arguments": opts.arguments}, samples
            ),
            **opts.metadata(),
            "press_role_configs": roles,
            "arguments_source": source,
            "arguments_origin": origin,
            "arguments_by_target": source.startswith("target:")
            or bool(origin and origin.startswith("target:")),
            "arguments_fingerprint": given.fingerprint if given else None,
            **shard_entry,
        },
    )


def _check_nli(opts: PressOptions) -> None:
    """Before any model call, when the NLI classifier or entropy clustering needs it: the NLI
    extra installed and the NLI model loaded (once, cached) with the classes the mode needs."""
    if not opts.needs_nli:
        return
    require_nli_extra(
        "press",
        "the NLI stance classifier (-T classifier=nli, the default)"
        if opts.classifier == "nli"
        else "entropy clustering (-T entropy_samples)",
    )
    # entropy clustering needs only the entailment class, as zero-shot does
    mode = opts.nli_mode if opts.classifier == "nli" else "zero_shot"
    load_nli(opts.nli_model, opts.nli_device).check_mode(mode)


def _arguments_source(
    opts: PressOptions, given: LoadedArguments | None
) -> tuple[str, dict[str, Any]]:
    """(``arguments_source``, role configs of the run): given arguments keep their source;
    generated ones name the arguer role (``arguer:<model>``) or the model under test
    (``target:<model>``); the LLM classifier's config when ``classifier=llm``."""
    roles: dict[str, Any] = {}
    if given is not None:
        source = given.source
    else:
        arguer, target = role_model("arguer"), target_model()
        source = f"arguer:{arguer}" if arguer is not None else f"target:{target or '(--model)'}"
        roles["arguer"] = config_dump(arguer or target, arguer_defaults(opts.arguer_max_tokens))
    if opts.classifier == "llm":
        roles["classifier"] = config_dump(
            role_model("classifier"), classifier_defaults(opts.classifier_max_tokens)
        )
    return source, roles
