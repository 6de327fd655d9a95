"""bot/redact.py: credentials by shape and by value, in text and in log records."""

from __future__ import annotations

import io
import logging
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.redact import MASK, RedactingFilter, Redactor, install_log_redaction, url_credentials

GH_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" * 2
SLACK_TOKEN = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx"


@pytest.mark.parametrize(("text", "secret", "kept"), [
    ("GitHub API at https://alice:hunter22@ghe.example/api/v3 is down", "hunter22", "https://alice:***@ghe.example"),
    ("postgresql+psycopg://bob:p@ss:w0rd@db:5432/x", "p@ss", "postgresql+psycopg://bob:***@db:5432/x"),
    (f"cloning https://{GH_TOKEN}@github.com/o/r", GH_TOKEN, "https://***@github.com/o/r"),
    ("GET https://h/x?page=2&access_token=abc123&per_page=9", "abc123", "?page=2&access_token=***&per_page=9"),
    ("https://s3/x?X-Amz-Signature=deadbeef99&api_key=k3y", "deadbeef99", "X-Amz-Signature=***&api_key=***"),
    ("Authorization: Bearer 5up3r.secret-value", "5up3r.secret-value", "Authorization: Bearer ***"),
    ("header Basic YWxhZGRpbjpvcGVuc2VzYW1l1", "YWxhZGRpbjpvcGVuc2VzYW1l1", "header Basic ***"),
    (f"token={SLACK_TOKEN}", SLACK_TOKEN, "token=***"),
    ("app token xapp-1-A0123-456789-abcdef0123", "xapp-1-A0123-456789-abcdef0123", "app token ***"),
    (f"auth failed for {GH_TOKEN}.", GH_TOKEN, "auth failed for ***."),
    ("key github_pat_11AAAAAAA0abcdefghijklmnop_qrs", "github_pat_11AAAAAAA0", "key ***"),
    ("LLM said 401 for sk-proj-AbCdEf0123456789xyz", "sk-proj-AbCdEf0123456789xyz", "LLM said 401 for ***"),
    ("discord MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123", "GhIjKl", "discord ***"),
])
def test_credentials_are_masked_by_shape(text: str, secret: str, kept: str) -> None:
    redacted = Redactor()(text)
    assert secret not in redacted
    assert kept in redacted


@pytest.mark.parametrize("text", [
    "GitHub answered 404 for https://api.github.com/repos/o/r/issues?page=2",
    "Basic authentication is not supported; use a token",
    "the task-runner and disk-usage are fine; mail me at alice@example.com",
    "postgresql+psycopg://db:5432/x",
])
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert Redactor()(text) == text


def test_configured_values_are_masked_wherever_they_appear() -> None:
    redactor = Redactor()
    redactor.add_env({
        "GITHUB_TOKEN": "0123456789abcdef0123456789abcdef01234567",  # a classic token: no recognisable prefix
        "SLACK_SIGNING_SECRET": "8f742231b10e8888abcd99",
        "DATABASE_URL": "postgres//admin:S3cr:t/pw@db/x",  # malformed: no "://", a ":" and a "/" in the password
        "LLM_BASE_URL": "http://u:p%40ss-word@llm/v1",
        "DISCORD_TOKEN": "ab",  # too short to mask by value: "ab" is in ordinary words
    })
    text = ("token 0123456789abcdef0123456789abcdef01234567 secret 8f742231b10e8888abcd99 db S3cr:t/pw "
            "llm p@ss-word and p%40ss-word; absent, about")
    assert redactor(text) == "token *** secret *** db *** llm *** and ***; absent, about"


@pytest.mark.parametrize(("url", "found"), [
    ("postgresql://u:pw1@h/db", ["pw1"]),
    ("postgresql://u:p@ss@h/db", ["p@ss"]),
    ("postgresql://u:pa/ss@h/db", ["pa/ss"]),
    ("postgres//u:Hunter2@h/db", ["Hunter2"]),
    ("postgres:/u:Hun/ter2@h/db", ["Hun/ter2"]),
    ("u:pw9@h/db", ["pw9"]),
    ("postgres://postgres@h/db", []),  # a lone user: masked in URLs by shape, not everywhere by value
    ("https://api.example/x?email=a@b.c", []),
    ("sqlite:///data/x.db", []),
])
def test_url_credentials_finds_passwords_even_in_malformed_urls(url: str, found: list[str]) -> None:
    assert url_credentials(url) == found


@given(
    user=st.text(string.ascii_letters + string.digits, min_size=1, max_size=12),
    password=st.text(string.ascii_letters + string.digits + "!$%^*()_-+=~.@:", min_size=1, max_size=30),
    scheme=st.sampled_from(["https", "http", "postgresql+psycopg", "postgres"]),
)
def test_no_userinfo_password_survives(user: str, password: str, scheme: str) -> None:
    url = f"{scheme}://{user}:{password}@host.example:5432/path?x=1"
    redacted = Redactor()(f"cannot open {url} (refused)")
    assert f":{password}@" not in redacted
    assert redacted.endswith("@host.example:5432/path?x=1 (refused)")


def test_the_log_filter_redacts_messages_arguments_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("test_redact.isolated")
    logger.propagate = False
    logger.addHandler(handler)
    install_log_redaction(logger)
    install_log_redaction(logger)  # idempotent
    assert sum(isinstance(f, RedactingFilter) for f in handler.filters) == 1
    try:
        logger.warning("HTTP Request: GET %s %r", "https://bob:pw-42x@h/x", {"token": SLACK_TOKEN})
        try:
            raise RuntimeError(f"GitHub API at https://bob:pw-42x@h is unreachable with {GH_TOKEN}")
        except RuntimeError:
            logger.exception("sync failed")
    finally:
        logger.removeHandler(handler)
    output = stream.getvalue()
    assert "pw-42x" not in output and SLACK_TOKEN not in output and GH_TOKEN not in output
    assert "https://bob:***@h/x" in output and "Traceback" in output and "RuntimeError: GitHub API at" in output
    assert output.count(MASK) >= 4
