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
from inspect_stance.scorers.press import (
    CLASSIFIERS,
    DEFAULT_CLASSIFIER_MAX_TOKENS,
    classifier_defaults,
    press_scorer,
)
from inspect_stance.solvers.press import (
    DEFAULT_ARGUER_MAX_TOKENS,
    arguer_defaults,
    press_generate,
)

from inspect_stance.errors import InputError
from inspect_stance.extras import require_nli_extra
from inspect_stance.fingerprint import FINGERPRINT_KEY, task_fingerprint
from inspect_stance.params import FALSE_WORDS, TRUE_WORDS, as_bool, as_int, reject_unknown_args
from inspect_stance.paths import user_path
from inspect_stance.press.arguments import load_arguments
from inspect_stance.press.dataset import statement_samples
from inspect_stance.press.nli import (
    DEFAULT_AGREE_HYPOTHESIS,
    DEFAULT_BATCH_SIZE,
    DEFAULT_DISAGREE_HYPOTHESIS,
    DEFAULT_HYPOTHESIS,
    DEFAULT_NLI_MODEL,
    NLI_MODES,
    check_hypothesis_template,
    load_nli,
)
from inspect_stance.press.statements import load_statements
from inspect_stance.roles import config_dump, require_roles, role_model, target_model
from inspect_stance.viewer import headline, press_viewer

TASK_VERSION = 2  # 2: binary zero-shot NLI default, factor draws, arguments fingerprint
DEFAULT_DRAWS = 20  # the paper: N = 20 entropy generations; Appendix B: 20 draws per item


def _draw_count(name: str, value: object, minimum: int) -> int:
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
    **unknown: Any,
) -> Task:
    """PReSS: the stance of the model under test on each statement, plainly and under a
    supporting and a counter argument, labelled S^R / U^R / S^L / U^L per argument set.

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
    """
    reject_unknown_args("press", unknown, press)
    # -T paths are relative to the shell's directory, not tasks/ (see inspect_stance.paths)
    statements = user_path(statements) if statements else None
    arguments = user_path(arguments) if arguments else None
    nli_model = user_path(nli_model)
    if classifier not in CLASSIFIERS:
        raise InputError(f"classifier {classifier!r}; use -T classifier=nli or classifier=llm")
    if nli_mode not in NLI_MODES:
        raise InputError(f"nli_mode {nli_mode!r}; use -T nli_mode=zero_shot or three_way")
    items = load_statements(statements)
    k = as_int("argument_sets", argument_sets, example=3)
    with_personas = as_bool("personas", personas)
    batch = as_int("nli_batch_size", nli_batch_size, example=DEFAULT_BATCH_SIZE)
    n_entropy = _draw_count("entropy_samples", entropy_samples, minimum=2)
    n_factor = _draw_count("factor_samples", factor_samples, minimum=1)
    arguer_tokens = as_int("arguer_max_tokens", arguer_max_tokens, example=1024)
    classifier_tokens = as_int("classifier_max_tokens", classifier_max_tokens, example=64)
    for name, template in (
        ("nli_hypothesis", nli_hypothesis),
        ("nli_agree_hypothesis", nli_agree_hypothesis),
        ("nli_disagree_hypothesis", nli_disagree_hypothesis),
    ):
        check_hypothesis_template(template, name)
    if classifier == "llm":
        require_roles("press", ["classifier"], "-T classifier=llm")
    given = load_arguments(arguments, items, k) if arguments else None
    if classifier == "nli" or n_entropy > 0:
        require_nli_extra(
            "press",
            "the NLI stance classifier (-T classifier=nli, the default)"
            if classifier == "nli"
            else "entropy clustering (-T entropy_samples)",
        )
        # fail fast (and cache) before any model call; entropy clustering needs only the
        # entailment class, as zero-shot does
        load_nli(nli_model, nli_device).check_mode(nli_mode if classifier == "nli" else "zero_shot")

    target = target_model()
    arguer = role_model("arguer")
    roles: dict[str, Any] = {}
    if given is not None:
        source, fingerprint, origin = given.source, given.fingerprint, given.origin
    else:
        source = f"arguer:{arguer}" if arguer is not None else f"target:{target or '(--model)'}"
        fingerprint, origin = None, None
        roles["arguer"] = config_dump(arguer or target, arguer_defaults(arguer_tokens))
    if classifier == "llm":
        roles["classifier"] = config_dump(
            role_model("classifier"), classifier_defaults(classifier_tokens)
        )
    samples = statement_samples(items, {"argument_sets": k})
    for sample, st in zip(samples, items, strict=True):
        assert sample.metadata is not None
        sample.metadata["arguments"] = given.table[st.text] if given else None
        sample.metadata["arguments_source"] = source
    return Task(
        dataset=MemoryDataset(samples, name="press"),
        solver=press_generate(
            argument_sets=k,
            personas=with_personas,
            entropy_samples=n_entropy,
            factor_samples=n_factor,
            arguer_max_tokens=arguer_tokens,
        ),
        scorer=press_scorer(
            classifier=classifier,
            nli_model=nli_model,
            nli_device=nli_device,
            nli_batch_size=batch,
            nli_hypothesis=nli_hypothesis,
            nli_mode=nli_mode,
            nli_agree_hypothesis=nli_agree_hypothesis,
            nli_disagree_hypothesis=nli_disagree_hypothesis,
            classifier_max_tokens=classifier_tokens,
        ),
        headline_metric=headline("press"),
        viewer=press_viewer(),
        version=TASK_VERSION,
        metadata={
            # input files and samples by content: eval-retry refuses changed inputs
            FINGERPRINT_KEY: task_fingerprint(
                "press", {"statements": statements, "arguments": arguments}, samples
            ),
            "press_argument_sets": k,
            "press_personas": with_personas,
            "press_entropy_samples": n_entropy,
            "press_factor_samples": n_factor,
            "press_draws_shared": n_entropy > 0 and n_factor > 0,
            "press_classifier": classifier,
            "press_nli_model": nli_model,
            "press_nli_mode": nli_mode if classifier == "nli" else None,
            "press_nli_hypotheses": (
                {"agree": nli_agree_hypothesis, "disagree": nli_disagree_hypothesis}
                if nli_mode == "zero_shot"
                else {"three_way": nli_hypothesis}
            ),
            "press_statements": statements or "package:press_statements.tsv",
            "press_role_configs": roles,
            "arguments_source": source,
            "arguments_origin": origin,
            "arguments_by_target": source.startswith("target:")
            or bool(origin and origin.startswith("target:")),
            "arguments_fingerprint": fingerprint,
        },
    )
