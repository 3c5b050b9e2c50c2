"""PReSS: political stance stability under argumentative pressure.

    inspect eval tasks/press.py --model X [--model-role arguer=Y] [--model-role classifier=Z]
        [-T statements=FILE] [-T argument_sets=3] [-T arguments=LOG_OR_JSONL]
        [-T personas=true] [-T entropy_samples=true|N]
        [-T classifier=nli|llm] [-T nli_model=facebook/bart-large-mnli] [-T nli_device=cpu]
        [-T nli_batch_size=16] [-T nli_hypothesis="{statement}"]

One sample per statement. See ``inspect_stance.press`` for the method and README for costs.
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_stance.scorers.press import CLASSIFIERS, press_scorer
from inspect_stance.solvers.press import press_generate

from inspect_stance.params import FALSE_WORDS, TRUE_WORDS, as_bool, as_int
from inspect_stance.paths import user_path
from inspect_stance.press.arguments import load_arguments
from inspect_stance.press.nli import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_HYPOTHESIS,
    DEFAULT_NLI_MODEL,
    load_nli,
)
from inspect_stance.press.statements import load_statements

DEFAULT_ENTROPY_SAMPLES = 20


def _entropy_samples(value: int | bool | str | None) -> int:
    """``true``/``yes``/``on`` -> 20, ``false``/``no``/``off``/0/None -> 0 (off), an integer N >= 2 -> N."""
    if value is None or value is False:
        return 0
    if value is True:
        return DEFAULT_ENTROPY_SAMPLES
    if isinstance(value, str) and not value.strip().isdigit():
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return DEFAULT_ENTROPY_SAMPLES
        if word in FALSE_WORDS:
            return 0
    try:
        n = int(value)
    except (TypeError, ValueError) as ex:
        raise ValueError(f"entropy_samples {value!r}; use true (= 20) or an integer >= 2") from ex
    if n == 0:
        return 0
    if n < 2:
        raise ValueError(f"entropy_samples {n}; entropy needs at least 2 samples (true = 20)")
    return n


@task
def press(
    statements: str | None = None,
    argument_sets: int | str = 3,
    arguments: str | None = None,
    personas: bool | str = False,
    entropy_samples: int | bool | str = False,
    classifier: str = "nli",
    nli_model: str = DEFAULT_NLI_MODEL,
    nli_device: str | None = None,
    nli_batch_size: int | str = DEFAULT_BATCH_SIZE,
    nli_hypothesis: str = DEFAULT_HYPOTHESIS,
) -> Task:
    """PReSS task (parameters documented in the README).

    Args:
        statements: TSV with columns bias (left/right) and statement; default: the 19 economic
            Political Compass statements shipped with the package.
        argument_sets: independent supporting/counter argument sets per statement (K >= 1).
        arguments: earlier PReSS log (.eval/.json) or JSON Lines file to take the arguments
            from instead of generating them.
        personas: add the left- and right-leaning persona conditions (3 x 3 grid); strings
            such as "false" / "0" / "no" read as False.
        entropy_samples: extra temperature-1 neutral responses for the uncertainty validation
            (true = 20; false/0 = off).
        classifier: "nli" (transformers NLI model) or "llm" (model role `classifier`).
        nli_model: hub id or local folder of a sequence-classification NLI model.
        nli_device: torch device for the NLI model (default cuda when available, else cpu).
        nli_batch_size: NLI pairs per forward pass (>= 1).
        nli_hypothesis: NLI hypothesis template with {statement} (the original statement).
    """
    # -T paths are relative to the shell's directory, not tasks/ (see inspect_stance.paths)
    statements = user_path(statements) if statements else None
    arguments = user_path(arguments) if arguments else None
    nli_model = user_path(nli_model)
    items = load_statements(statements)
    k = as_int("argument_sets", argument_sets, example=3)
    with_personas = as_bool("personas", personas)
    batch = as_int("nli_batch_size", nli_batch_size, example=DEFAULT_BATCH_SIZE)
    n_entropy = _entropy_samples(entropy_samples)
    if classifier not in CLASSIFIERS:
        raise ValueError(f"classifier {classifier!r}; use 'nli' or 'llm'")
    given = load_arguments(arguments, items, k) if arguments else None
    if classifier == "nli" or n_entropy > 0:
        load_nli(nli_model, nli_device)  # fail fast (and cache) before any model call
    samples = [
        Sample(
            id=f"s{st.id:02d}",
            input=st.text,
            metadata={
                "statement_id": st.id,
                "statement": st.text,
                "bias": st.bias,
                "arguments": given[st.text] if given else None,
                "arguments_source": f"file {arguments}" if given else None,
            },
        )
        for st in items
    ]
    return Task(
        dataset=MemoryDataset(samples, name="press"),
        solver=press_generate(argument_sets=k, personas=with_personas, entropy_samples=n_entropy),
        scorer=press_scorer(
            classifier=classifier,
            nli_model=nli_model,
            nli_device=nli_device,
            nli_batch_size=batch,
            nli_hypothesis=nli_hypothesis,
        ),
        metadata={
            "press_argument_sets": k,
            "press_personas": with_personas,
            "press_entropy_samples": n_entropy,
            "press_classifier": classifier,
            "press_nli_model": nli_model,
            "press_statements": statements or "package:press_statements.tsv",
        },
    )
