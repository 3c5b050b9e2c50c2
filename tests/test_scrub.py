"""The one credential scrubber: URLs, credential-named settings, header sets."""

from __future__ import annotations

import pytest

from inspect_stance.scrub import REDACTED, is_credential_name, scrub, scrub_url


@pytest.mark.parametrize(
    ("url", "clean"),
    [
        ("http://user:PASSWORD@127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
        ("https://key@api.example.com/v1", "https://api.example.com/v1"),
        (
            "https://h.example/v1?token=T0K&api-version=2024-06-01",
            f"https://h.example/v1?token={REDACTED}&api-version=2024-06-01",
        ),
        ("https://h.example/v1?sig=abc&code=1", f"https://h.example/v1?sig={REDACTED}&code=1"),
        ("http://[::1]:9/v1", "http://[::1]:9/v1"),
        ("not a url", "not a url"),
    ],
)
def test_scrub_url(url, clean):
    assert scrub_url(url) == clean


@pytest.mark.parametrize(
    ("name", "credential"),
    [
        ("api_key", True),
        ("apiKey", True),
        ("x-api-key", True),
        ("Authorization", True),
        ("access_token", True),
        ("aws_secret_access_key", True),
        ("aws_region", True),
        ("password", True),
        ("max_tokens", False),
        ("temperature", False),
        ("transition", False),
        ("monkey", False),
    ],
)
def test_credential_names(name, credential):
    assert is_credential_name(name) is credential


def test_scrub_nested_settings():
    args = {
        "api_key": "sk-1",
        "default_headers": {"X-Trace": "t", "Authorization": "Bearer b"},
        "client": {"base_url": "http://u:p@h:1/v1", "timeout": 3},
        "stop": ["a", "b"],
        "max_tokens": 7,
    }
    assert scrub(args) == {
        "api_key": REDACTED,
        "default_headers": {"X-Trace": REDACTED, "Authorization": REDACTED},
        "client": {"base_url": "http://h:1/v1", "timeout": 3},
        "stop": ["a", "b"],
        "max_tokens": 7,
    }
    assert args["api_key"] == "sk-1", "the input is not changed"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("https://h.example/cb#access_token=S3CRETvalue&state=1", "S3CRETvalue"),
        ("header Authorization: Bearer S3CRETvalue.abc-def", "S3CRETvalue"),
        ("-H 'Authorization: Basic dXNlcjpTM0NSRVR2YWx1ZQ=='", "dXNlcjpTM0NSRVR2YWx1ZQ"),
        ("key sk-proj-S3CRETvalue0123456789abcdef in a message", "S3CRETvalue"),
        ([("api_key", "S3CRETvalue")], "S3CRETvalue"),
        ("host.example:8000/v1?token=S3CRETvalue", "S3CRETvalue"),
        ("127.0.0.1:8000/v1?x=1&api_key=S3CRETvalue", "S3CRETvalue"),
        ("//user:S3CRETvalue@host.example/v1", "S3CRETvalue"),
        ("//S3CRETvalue@host.example/v1", "S3CRETvalue"),
        ("user:S3CRETvalue@127.0.0.1:8000/v1", "S3CRETvalue"),
    ],
)
def test_credentials_in_free_text_fragments_and_pairs(text, secret):
    """A token in a URL fragment, an Authorization header value or an OpenAI-style key written
    into a message, and a credential given as a (name, value) pair, do not survive."""
    assert secret not in str(scrub(text))
