"""Removing credentials from what the package writes (trial records, log metadata, messages).

Every value the package writes that came from a user's model settings goes through
:func:`scrub` first. It removes what can carry a credential:

- a URL's userinfo (``http://user:PASSWORD@host/v1`` -> ``http://host/v1``) and the values of
  its query parameters whose names look like credentials (``?token=...`` -> ``?token=REDACTED``);
- the value of any mapping entry whose name looks like a credential (``api_key``, ``token``,
  ``secret``, ``password``, ``Authorization``, ``x-api-key``, ``aws_*`` ...);
- every value of a mapping named like a header set (``headers``, ``default_headers``,
  ``extra_headers``): header values are where providers put keys, so their names are kept and
  their values are not;
- in free text, Authorization header values, bearer tokens and ``sk-...`` keys, and a
  ``(name, value)`` pair whose name looks like a credential;
- in URLs written without a scheme (``host:8000/v1?token=...``, ``//user:pw@host``,
  ``user:pw@host``), the userinfo and the credential-named parameters' values.

A name "looks like a credential" when one of its words (split at ``_``, ``-``, ``.``, blanks
and camelCase) is in :data:`CREDENTIAL_WORDS`, or it starts with ``aws_``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "REDACTED"

#: words that make a setting's name a credential's name (``max_tokens`` is not: ``tokens``)
CREDENTIAL_WORDS: frozenset[str] = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "authorization",
        "credential",
        "credentials",
        "cookie",
        "signature",
        "sig",
        "bearer",
        "jwt",
    }
)

_WORD_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>]+")
#: an Authorization header's value, a bearer token, an OpenAI-style ``sk-`` key in free text
_TEXT_SECRETS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(authorization\s*[:=]\s*)(?:(?:bearer|basic|token)\s+)?[^\s\"',;]+"),
     rf"\g<1>{REDACTED}"),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), rf"\g<1>{REDACTED}"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), REDACTED),
)  # fmt: skip
#: userinfo in a URL written without a scheme: ``//user:pw@host``, ``//token@host``,
#: ``user:pw@host`` (a bare ``name@host`` without ``//`` or ``:`` is left: it reads as an address)
_BARE_USERINFO = re.compile(
    r"(?:(?<=//)[^\s/@\"'<>]+|(?<![^\s\"'(=,])[^\s/@:\"'<>]+:[^\s/@\"'<>]*)@(?=[A-Za-z0-9\[])"
)
#: a ``name=value`` query / fragment parameter anywhere in text (a URL without a scheme)
_QUERY_PARAM = re.compile(r"([?&#;])([^=&\s#;\"'<>?]+)=([^&\s#;\"'<>]*)")


def is_credential_name(name: str) -> bool:
    """Whether a setting / header / query-parameter name names a credential (module docstring)."""
    if name.lower().startswith("aws_"):
        return True
    words = {w.lower() for w in _WORD_SPLIT.split(name) if w}
    return bool(words & CREDENTIAL_WORDS)


def scrub_url(url: str) -> str:
    """``url`` without userinfo and with credential-named query values replaced by REDACTED.

    Text that does not parse as a URL with a host is returned unchanged.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return url
    if not parts.scheme or host is None:
        return url
    netloc = host if ":" not in host else f"[{host}]"
    if port is not None:
        netloc = f"{netloc}:{port}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, REDACTED if is_credential_name(k) else v) for k, v in pairs])
    fragment = parts.fragment
    if "=" in fragment:  # OAuth-style ``#access_token=...``
        pairs = parse_qsl(fragment, keep_blank_values=True)
        fragment = urlencode([(k, REDACTED if is_credential_name(k) else v) for k, v in pairs])
    return urlunsplit((parts.scheme, netloc, parts.path, query, fragment))


def scrub_text(text: str) -> str:
    """``text`` with every URL in it scrubbed by :func:`scrub_url`, and Authorization header
    values, bearer tokens and ``sk-...`` keys replaced by REDACTED."""
    for pattern, repl in _TEXT_SECRETS:
        text = pattern.sub(repl, text)
    if "://" in text:
        text = _URL.sub(lambda m: scrub_url(m.group(0)), text)
    if "@" in text:
        text = _BARE_USERINFO.sub("", text)
    if "=" in text:
        text = _QUERY_PARAM.sub(_redact_param, text)
    return text


def _redact_param(match: re.Match[str]) -> str:
    """A ``?name=value`` match with the value replaced by REDACTED when ``name`` names a
    credential (:func:`is_credential_name`)."""
    sep, name, value = match.groups()
    return f"{sep}{name}={REDACTED if is_credential_name(name) else value}"


def scrub(value: Any) -> Any:
    """A copy of ``value`` (nested mappings, lists, tuples, strings) without credentials.

    Mapping entries named like credentials become REDACTED; header mappings keep their names
    and lose their values; URLs inside strings are scrubbed (:func:`scrub_url`). Other values
    are returned as they are.
    """
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            name = str(k)
            if is_credential_name(name):
                out[k] = REDACTED
            elif "header" in name.lower() and isinstance(v, Mapping):
                out[k] = dict.fromkeys(v, REDACTED)
            else:
                out[k] = scrub(v)
        return out
    if isinstance(value, list | tuple):
        if len(value) == 2 and isinstance(value[0], str) and is_credential_name(value[0]):
            pair = [value[0], REDACTED]  # a (name, value) pair
            return pair if isinstance(value, list) else tuple(pair)
        items = [scrub(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value
