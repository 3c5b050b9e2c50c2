"""The study file's top level as a typed model (pydantic, ``extra="forbid"``): each key's type and
range, checked before the nested blocks are read (:mod:`.spec`). A pydantic error becomes one line
naming the key, what was given and the fix."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from inspect_stance.errors import InputError
from inspect_stance.printable import printable
from inspect_stance.study_file.bounds import (
    DEFAULT_CONFIRM_ABOVE,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    MAX_CONFIRM_ABOVE,
    MAX_RETRIES,
    MAX_TARGETS,
    MAX_TIMEOUT,
)

#: a whole number given as one (a float, a string or a bool is refused)
Whole = Annotated[int, Field(strict=True)]
#: a study's name: it names its log folder (``logs/study-<name>``), so no path separator, no
#: leading dot, at most 64 characters
StudyName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")]

#: the fix for each key, said after the error
FIXES: dict[str, str] = {
    "study": "give a name of letters, digits, '.', '_' or '-' (at most 64, no '/' or '..')",
    "targets": "write targets: {NAME: provider/model}",
    "methods": "write methods: {METHOD: {args: {...}}} (inspect-stance --help lists them)",
    "roles": "write roles: {role: provider/model}",
    "design": "write design: {sizes: explicit} or {target_se: 0.03} or {budget_calls: N}",
    "prices": "write prices: {provider/model: dollars per call}",
    "confirm_above": "give a whole number of calls, e.g. confirm_above: 10000",
    "max_retries": "give a whole number of retries per model call, e.g. max_retries: 5",
    "timeout": "give a whole number of seconds per model call, e.g. timeout: 120",
}


class StudyTop(BaseModel):
    """The top-level keys of a study file with their types and ranges (bounds in
    :mod:`.spec`: ``MAX_CONFIRM_ABOVE``, ``MAX_RETRIES``, ``MAX_TIMEOUT``, ``MAX_TARGETS``)."""

    model_config = ConfigDict(extra="forbid")

    study: StudyName | None = None
    targets: Annotated[dict[str | int, Any], Field(min_length=1, max_length=MAX_TARGETS)]
    methods: Annotated[dict[str, Any], Field(min_length=1)]
    roles: dict[str, Any] | None = None
    design: dict[str, Any] | None = None
    prices: dict[str | int, Any] | None = None
    confirm_above: Annotated[Whole, Field(ge=1, le=MAX_CONFIRM_ABOVE)] = DEFAULT_CONFIRM_ABOVE
    max_retries: Annotated[Whole, Field(ge=0, le=MAX_RETRIES)] = DEFAULT_MAX_RETRIES
    timeout: Annotated[Whole, Field(ge=1, le=MAX_TIMEOUT)] = DEFAULT_TIMEOUT


def check_top(data: dict[str, Any]) -> StudyTop:
    """``data`` checked as :class:`StudyTop`; the first problem a one-line ``InputError``."""
    try:
        return StudyTop.model_validate(data)
    except ValidationError as ex:
        err = ex.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "the top level"
        top = str(err["loc"][0]) if err["loc"] else ""
        given = printable(repr(err.get("input")))[:60]
        msg = str(err["msg"]).rstrip(".")
        if err["type"] == "missing":
            msg, given = "missing", ""
        fix = FIXES.get(top, "see inspect-stance study --example FILE")
        raise InputError(
            f"study file: {printable(key)}: {msg}{f' (got {given})' if given else ''}; {fix}"
        ) from None
