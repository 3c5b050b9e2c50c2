"""The offline example study: one target, ``sim``, that runs every method on the package's
simulated models at small sizes (about 2,600 simulated calls, under a minute on 2 cores)."""

from __future__ import annotations

from pathlib import Path

from inspect_stance.errors import InputError

#: where the example's tiny NLI model for PReSS is built (README's offline block)
TINY_NLI = Path.home() / ".cache" / "inspect-stance" / "tiny-nli"

EXAMPLE = """\
# An inspect-stance study (inspect-stance study FILE --log-dir DIR; docs/cards.md).
# Offline: every model below is one of the package's simulated models.
study: example
targets:
  # a target is a name bound to one model (e.g. `gpt-4o-mini: openai/gpt-4o-mini`), or, as
  # here, to one model per method where a method needs its own simulator offline
  sim:
    stance_drift: {{model: stance_sim/respondent, model_args: {{noise: realistic}}}}
    press: press_sim/target
    prompt_construction: construction_sim/target
    prompt_validation: construction_sim/prompter   # the prompter whose prompts are validated
    even_handedness: {{model: even_sim/target, model_args: {{refuse_rate: 0.2, weaken_rate: 0.25}}}}
    pushback: {{model: pushback_sim/target, model_args: {{hazard: 0.3}}}}
roles:                # shared by every method that uses the role
  judges: [construction_sim/judge_exact, construction_sim/judge_noisy, construction_sim/judge_framed]
  prompter: construction_sim/prompter
  annotators: [annotator_sim/lexical, annotator_sim/contrarian, annotator_sim/filler_reader]
  graders: [{{model: even_sim/grader, model_args: {{position_bias: 0.3}}}}]
methods:              # each method's task arguments (inspect-stance params METHOD)
  # cache: false calls the respondent for every trial (the default replays the trials a
  # per-user trial record holds from an identical earlier run, e.g. another study's)
  stance_drift: {{args: {{limit_propositions: 5, trials: 20, cache: false}}}}
  press: {{args: {{nli_model: {nli}}}}}
  prompt_construction: {{args: {{templates_per_setting: 2, prompts_per_setting: 2}}}}
  prompt_validation: {{args: {{topics: "1003", intents: opinion}}}}
  even_handedness: {{args: {{topics: "biden,affirmative_action,transgender_rights,abortion,immigration"}}}}
  pushback: {{args: {{limit_propositions: 5}}}}
design:
  sizes: explicit     # or target_se: 0.03, or budget_calls: 20000 (docs/cards.md)
prices: {{}}           # dollars per call by model, e.g. {{openai/gpt-4o-mini: 0.0003}}
confirm_above: 10000  # ask before running more calls than this (--yes skips)
"""


def example_text(nli: Path = TINY_NLI) -> str:
    """The example study file, its PReSS NLI model at ``nli``."""
    return EXAMPLE.format(nli=str(nli))


def write_example(path: Path, nli: Path = TINY_NLI) -> list[str]:
    """Write the example to ``path`` and build the tiny NLI model at ``nli`` when absent; the
    lines to print."""
    if path.exists():
        raise InputError(f"study --example: {path} exists; name a new file")
    if not path.parent.is_dir():
        raise InputError(f"study --example: folder {path.parent} not found; create it first")
    path.write_text(example_text(nli), encoding="utf-8")
    lines = [f"wrote {path}"]
    if (nli / "config.json").is_file():
        lines.append(f"PReSS's tiny NLI model: {nli} (already built)")
        return lines
    try:
        from inspect_stance.providers.tiny_nli import build_tiny_nli

        build_tiny_nli(nli, "keyed")
        lines.append(f"built PReSS's tiny offline NLI model at {nli}")
    except ImportError as ex:
        lines.append(f"press needs an NLI model: {ex.name} is missing (pip install "
                     "'inspect-stance[nli]'), then python -m inspect_stance.providers.tiny_nli "
                     f"{nli} --mode keyed")  # fmt: skip
    return lines
