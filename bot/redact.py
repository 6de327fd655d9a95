"""One redaction for everything that leaves the process as text: log lines, error messages the CLI prints,
errors stored in the database (the ledger's ``last_error``, sync errors), ``digest-bot status`` and ``/healthz``.

It removes credentials by shape (URL userinfo, secret-looking query parameters, ``Bearer``/``Basic``
credentials, Slack/GitHub/OpenAI-style tokens) and by value: the secrets this process was configured with
(``remember_env`` reads them from the environment; see ``SECRET_ENV``). Imports nothing from ``bot`` so every
layer may use it.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Mapping
from urllib.parse import quote, unquote

MASK = "***"

# Environment variables whose whole value is a secret.
SECRET_ENV = (
    "GITHUB_TOKEN", "LLM_API_KEY", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "DISCORD_TOKEN",
    "HEALTH_TOKEN", "SLACK_CLIENT_SECRET", "TOKEN_ENCRYPTION_KEY", "REPORTS_SECRET", "GITHUB_WEBHOOK_SECRET",
    "GITHUB_APP_PRIVATE_KEY",
)
# Environment variables holding URLs: only the password (or a lone user, often a token) is secret.
URL_ENV = ("DATABASE_URL", "GITHUB_API_URL", "LLM_BASE_URL", "SLACK_API_URL", "DISCORD_API_URL",
           "DISCORD_GATEWAY_URL")

# Values shorter than this are not redacted by value (a 2-letter "secret" would mask ordinary words);
# inside URLs and tokens the shape rules below still catch them.
MIN_SECRET_CHARS = 4

# scheme://userinfo@ — greedy up to the last "@" of the authority, so a password holding a raw "@" is covered.
_USERINFO = re.compile(r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/\s?#@'\"<>]*(?:@[^/\s?#@'\"<>]*)*)@")
_QUERY = re.compile(
    r"(?P<name>[?&;](?:[\w.-]*?)(?:token|key|secret|password|passwd|pwd|sig|signature|auth|credential)[\w.-]*=)"
    r"[^&;#\s'\"<>]+",
    re.IGNORECASE,
)
# A credential has a digit: "Basic authentication" is prose, "Bearer abc123…" is not.
_AUTH_SCHEME = re.compile(r"\b(?P<scheme>Bearer|Basic)\s+(?=[A-Za-z._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)
_TOKENS = re.compile(
    r"\b(?:"
    r"xox[abposre]-[A-Za-z0-9-]{6,}"  # Slack bot/user/… tokens
    r"|xapp-[A-Za-z0-9-]{6,}"  # Slack app-level tokens
    r"|gh[pousr]_[A-Za-z0-9]{16,}"  # GitHub tokens
    r"|github_pat_[A-Za-z0-9_]{16,}"  # GitHub fine-grained tokens
    r"|sk-[A-Za-z0-9_-]{16,}"  # OpenAI-style API keys (sk-…, sk-proj-…, sk-ant-…)
    r"|[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}"  # Discord bot tokens
    r")"
)


def _mask_userinfo(match: re.Match[str]) -> str:
    user, sep, _password = match["userinfo"].partition(":")
    # user:password -> user:***; a lone user part is often a token itself (https://TOKEN@host) -> ***
    return f"{match['scheme']}{user}:{MASK}@" if sep and user else f"{match['scheme']}{MASK}@"


class Redactor:
    """Masks credentials in text. Thread-safe; ``add`` may be called while other threads redact."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self._lock = threading.Lock()
        self._values: tuple[str, ...] = ()
        self.add(*secrets)

    def add(self, *secrets: str | None) -> None:
        """Remember exact secret values (and their percent-encoded forms, as they appear inside URLs)."""
        found = set(self._values)
        for secret in secrets:
            if not secret or len(secret.strip()) < MIN_SECRET_CHARS:
                continue
            secret = secret.strip()
            found.update(form for form in (secret, quote(secret, safe=""), unquote(secret))
                         if len(form) >= MIN_SECRET_CHARS)
        with self._lock:
            # Longest first, so a secret containing another is masked whole.
            self._values = tuple(sorted(found, key=len, reverse=True))

    def add_env(self, env: Mapping[str, str]) -> None:
        """Remember the secrets of an environment: ``SECRET_ENV`` values and the credentials in ``URL_ENV``."""
        self.add(*(env.get(name) for name in SECRET_ENV))
        for name in URL_ENV:
            self.add(*url_credentials(env.get(name) or ""))

    def __call__(self, text: str) -> str:
        if not text:
            return text
        for value in self._values:
            if value in text:
                text = text.replace(value, MASK)
        text = _USERINFO.sub(_mask_userinfo, text)
        text = _QUERY.sub(lambda m: m["name"] + MASK, text)
        text = _AUTH_SCHEME.sub(lambda m: f"{m['scheme']} {MASK}", text)
        return _TOKENS.sub(MASK, text)


def url_credentials(url: str) -> list[str]:
    """The password in ``url``'s userinfo, found without a URL parser: the URL may be malformed (that is when
    it gets echoed), e.g. a password holding a raw "/" or "@", or a missing "://". A lone user is not kept
    (``postgres://postgres@host`` would mask the word postgres everywhere); the URL rule masks it in URLs."""
    # Drop the scheme, also a mistyped one ("postgres//", "postgres:/"); "user:pw@host" has none to drop.
    rest = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*:?/+", "", url.strip(), count=1)
    before = rest.rpartition("@")[0]
    if not before:
        return []
    delimiter = re.search(r"[/?#]", before)
    if delimiter and ":" not in before[: delimiter.start()]:
        return []  # an "@" in the path or query, not userinfo
    _user, colon, password = before.partition(":")
    return [password] if colon and password else []


_default = Redactor()


def redact(text: str) -> str:
    """Mask credentials in ``text`` with the process-wide redactor."""
    return _default(text)


def remember_secrets(*secrets: str | None) -> None:
    _default.add(*secrets)


def remember_env(env: Mapping[str, str]) -> None:
    """Teach the process-wide redactor this environment's secrets (the CLI does this first thing)."""
    _default.add_env(env)


class RedactingFilter(logging.Filter):
    """A handler filter: formats each record's message (and traceback) once, redacted, so whatever formatter
    the handler uses prints no credential. On a handler it sees records from every logger (third-party
    libraries such as httpx included), unlike a logger's filter."""

    def __init__(self, redactor: Redactor | None = None) -> None:
        super().__init__()
        self._redact = redactor or _default

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: let the handler report it as logging does
            return True
        record.msg, record.args = self._redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self._redact(record.stack_info)
        return True


def install_log_redaction(logger: logging.Logger | None = None, redactor: Redactor | None = None) -> None:
    """Put a ``RedactingFilter`` on every handler of ``logger`` (the root logger by default), once each."""
    target = logger or logging.getLogger()
    for handler in target.handlers:
        if not any(isinstance(existing, RedactingFilter) for existing in handler.filters):
            handler.addFilter(RedactingFilter(redactor))
