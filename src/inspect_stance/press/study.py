"""PReSS as a study file runs it: its arguer and classifier roles, planned calls, its fixed item
set and the check of a local NLI model.

``n`` statements (19) x ``K`` argument sets (default 3): ``3K`` target calls (the plain
statement K times, a supporting and a countering prompt per set), x 3 with personas; ``2K``
arguer calls (the arguer role, else the target) unless ``arguments`` is given;
``max(entropy_samples, factor_samples)`` more target calls; with ``classifier=llm`` one
classifier call per target response. A study runs ``press_arguments`` once (the arguer role,
else the first target) and every target's run reads that log (``arguments``), as the paper
gives every model the same arguments: ``2K`` arguer calls per statement, once per study.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_stance.errors import InputError
from inspect_stance.study.protocol import SharedRun, StudySize, StudyTask
from inspect_stance.study.task_args import add_calls, arg_int, arg_int_or0

STATEMENTS = 19


def calls(
    args: dict[str, Any], target: str, roles: dict[str, list[str]]
) -> tuple[int, dict[str, int]]:
    """The statements and model calls of one PReSS run (module docstring)."""
    out: dict[str, int] = {}
    n = STATEMENTS
    k = arg_int(args, "argument_sets", 3)
    personas = 3 if str(args.get("personas", "false")).lower() in ("true", "yes", "on", "1") else 1
    entropy = args.get("entropy_samples", False)
    entropy_n = 20 if entropy is True or str(entropy).lower() == "true" else arg_int_or0(entropy)
    draws = max(entropy_n, arg_int(args, "factor_samples", 0))
    responses = n * (3 * k * personas + draws)
    add_calls(out, target, responses)
    if not args.get("arguments"):
        arguer = roles.get("arguer")
        add_calls(out, arguer[0] if arguer else target, n * 2 * k)
    if args.get("classifier") == "llm" and roles.get("classifier"):
        add_calls(out, roles["classifier"][0], responses)
    return n, out


def arguments_calls(args: dict[str, Any], target: str,
                    roles: dict[str, list[str]]) -> tuple[int, dict[str, int]]:  # fmt: skip
    """The statements and arguer calls of one ``press_arguments`` run: ``2K`` per statement by
    the arguer role (else ``target``)."""
    arguer = roles.get("arguer")
    return STATEMENTS, {
        arguer[0] if arguer else target: STATEMENTS * 2 * arg_int(args, "argument_sets", 3)
    }


def check(args: dict[str, Any]) -> None:
    """A local ``nli_model`` (a path) exists: a one-line ``InputError`` naming how to build the
    offline one otherwise."""
    nli = str(args.get("nli_model") or "")
    if nli.startswith(("/", ".", "~")) and not Path(nli).expanduser().exists():
        raise InputError(f"study file: methods.press.args.nli_model: {nli} not found; build the "
                         "offline one with python -m inspect_stance.providers.tiny_nli "
                         f"{nli} --mode keyed")  # fmt: skip


STUDY = StudyTask(
    roles=("arguer", "classifier"),
    calls=calls,
    size=StudySize(None, STATEMENTS, 0.5, False),
    check=check,
    shared=SharedRun(
        task="press_arguments",
        arg="arguments",
        role="arguer",
        keys=("statements", "argument_sets", "arguer_max_tokens"),
        calls=arguments_calls,
    ),
)
