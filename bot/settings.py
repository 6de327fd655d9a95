"""Configuration files plus environment -> one validated ``Settings``.

Files hold behaviour, the environment holds secrets and deployment facts (``DATABASE_URL``,
``GITHUB_TOKEN``, ``GITHUB_API_URL``). Each file the configuration folder lacks (``digest.toml``,
``topics.toml``) is the packaged default's (``ConfigFiles``; said once at start-up). A configuration that
cannot work stops the process with every problem found at once (``ConfigProblem``: the file, the key, the line
where known, what is wrong and how to fix it), not only the first.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import tomllib
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from importlib import resources
from pathlib import Path
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator
from pydantic_core import PydanticUndefined

from bot.errors import ConfigError
from bot.locales import LOCALES
from bot.redact import Redactor, url_credentials

CONFIG_ENV = "DIGEST_BOT_CONFIG"
DEFAULT_GITHUB_API = "https://api.github.com"
REPO_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def check_timezone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r} (use an IANA name such as Asia/Shanghai)") from None
    return name


def check_hhmm(value: str) -> str:
    match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value.strip())
    if not match:
        raise ValueError(f"must be a time of day HH:MM, got {value!r}")
    return f"{int(match[1]):02d}:{match[2]}"


def check_repo(value: str) -> str:
    value = value.strip()
    if not REPO_RE.match(value) or value.endswith((".git", "/")) or ".." in value:
        raise ValueError(f"must look like OWNER/NAME, got {value!r}")
    return value


def check_repo_pattern(value: str) -> str:
    """An ``[access] repos`` entry: OWNER/NAME, where NAME may hold ``*`` (``my-org/*``, ``my-org/vllm-*``).

    The owner is always spelled out: a wildcard owner would let anyone make the bot read every repository its
    token can see, which is what the allow-list is for."""
    value = value.strip()
    owner, _, name = value.partition("/")
    if "*" in owner:
        raise ValueError(f"the owner must be spelled out (a wildcard owner allows any repository), got {value!r}")
    try:
        check_repo(f"{owner}/{name.replace('*', 'x')}")
    except ValueError:
        raise ValueError(f"must look like OWNER/NAME or OWNER/* (* stands for any part of a name), got {value!r}"
                         ) from None
    return value


def repo_matches(pattern: str, repo: str) -> bool:
    """GitHub names are case-insensitive; ``*`` never crosses the ``/`` (the owner has none)."""
    return fnmatchcase(repo.lower(), pattern.lower()) and repo.count("/") == 1


class DigestSettings(_Strict):
    timezone: str = "Asia/Shanghai"
    post_time: str = "11:05"
    locale: str = "en"
    hot_min_comments: Annotated[int, Field(ge=1)] = 3

    _tz = field_validator("timezone")(check_timezone)
    _time = field_validator("post_time")(check_hhmm)

    @field_validator("locale")
    @classmethod
    def _locale(cls, value: str) -> str:
        if value not in LOCALES:
            raise ValueError(f"must be one of {', '.join(LOCALES)}, got {value!r}")
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


class StoreSettings(_Strict):
    url: str = "sqlite:///data/digest-bot.sqlite3"


class SyncSettings(_Strict):
    interval_minutes: Annotated[int, Field(ge=1, le=1440)] = 15
    lookback_days: Annotated[int, Field(ge=1, le=3650)] = 30
    overlap_seconds: Annotated[int, Field(ge=0, le=86400)] = 120
    max_rate_limit_wait_seconds: Annotated[float, Field(ge=0)] = 900
    timeout_seconds: Annotated[float, Field(gt=0, le=600)] = 30
    max_retries: Annotated[int, Field(ge=0, le=20)] = 5
    # PR details (size, review comments) fetched per sync for key-change candidates, newest first; 0: none.
    pr_details_max: Annotated[int, Field(ge=0, le=5000)] = 200
    # With GitHub webhooks arriving for a repository (one received in the last day), polling only reconciles:
    # every this many minutes instead of interval_minutes.
    reconcile_minutes: Annotated[int, Field(ge=1, le=1440)] = 60


class BotSettings(_Strict):
    logins: list[str] = Field(default_factory=list)


class ChatSettings(_Strict):
    # Who may change a channel's settings: "anyone" in the channel, or "admins" (Slack workspace admins,
    # Discord members with Manage Channels or ``discord_manager_role``).
    channel_settings: str = "anyone"
    discord_manager_role: str | None = None
    max_subscriptions_per_user: Annotated[int, Field(ge=1, le=100)] = 20
    # Fair use (docs/reliability.md): answers and digests asked for in chat are built by a pool of this many
    # threads; one user or channel may have so many in flight and start so many a minute (bot/app/limits.py).
    build_threads: Annotated[int, Field(ge=1, le=64)] = 4
    # Chat answers are built (and rendered) in this many worker processes, out of the web process's GIL, so
    # acks and /healthz stay fast under a burst; 0: in build_threads threads. In-memory SQLite always uses threads.
    build_processes: Annotated[int, Field(ge=0, le=64)] = 1
    heavy_in_flight_per_user: Annotated[int, Field(ge=1, le=1000)] = 2
    heavy_in_flight_per_channel: Annotated[int, Field(ge=1, le=1000)] = 6
    heavy_per_minute_per_user: Annotated[int, Field(ge=1, le=10_000)] = 10
    heavy_per_minute_per_channel: Annotated[int, Field(ge=1, le=10_000)] = 30
    # Heavy work in flight in the whole process: bounds memory (each answer is held until sent) and the queue
    # before the build pool, whoever asks.
    heavy_in_flight_total: Annotated[int, Field(ge=1, le=1000)] = 8

    @field_validator("channel_settings")
    @classmethod
    def _who(cls, value: str) -> str:
        if value not in ("anyone", "admins"):
            raise ValueError(f"must be anyone or admins, got {value!r}")
        return value


class DeliverySettings(_Strict):
    grace_hours: Annotated[float, Field(ge=0, le=48)] = 6  # post a missed digest this long after its time
    # A claimed delivery whose worker died is taken over after this long (see docs/delivery.md).
    lease_seconds: Annotated[float, Field(ge=1, le=3600)] = 120


class EngineSettings(_Strict):
    """The task engine (procrastinate on PostgreSQL, docs/scaling.md): timings of workers and the planner.
    Shorter values make tests run in seconds; the defaults recover from a killed worker within 60 s."""

    # On PostgreSQL with procrastinate installed `digest-bot run` uses the engine; false keeps the single process.
    enabled: StrictBool = True
    concurrency: Annotated[int, Field(ge=1, le=256)] = 32  # tasks one worker runs at once (mostly waiting on I/O)
    heartbeat_seconds: Annotated[float, Field(gt=0, le=300)] = 10  # a worker's heartbeat in the database
    stalled_seconds: Annotated[float, Field(gt=0, le=3600)] = 30  # no heartbeat this long: its tasks re-run
    planner_retry_seconds: Annotated[float, Field(gt=0, le=600)] = 15  # a standby planner tries the lock
    tick_seconds: Annotated[float, Field(gt=0, le=600)] = 10  # the planner looks for stalled tasks
    # The ledger's lease for engine tasks: a killed worker's claim frees this long after its last renewal
    # (renewed every third of it while a delivery works), so the re-run takes the row over.
    lease_seconds: Annotated[float, Field(ge=1, le=3600)] = 20
    shutdown_seconds: Annotated[float, Field(gt=0, le=600)] = 15  # SIGTERM: tasks finish in this; SIGKILL at 30 s
    dm_batch: Annotated[int, Field(ge=1, le=10_000)] = 200  # subscribers per deliver_dms task
    max_attempts: Annotated[int, Field(ge=1, le=50)] = 5  # a task that keeps failing stops after this
    retry_wait_seconds: Annotated[int, Field(ge=1, le=600)] = 2  # exponential backoff base between attempts


class LLMSettings(_Strict):
    """Optional LLM analysis. The endpoint itself comes from the environment (LLM_BASE_URL, LLM_MODEL,
    LLM_API_KEY); these bound what one digest may spend and how long it may wait."""

    enabled: bool = True  # used only when LLM_BASE_URL and LLM_MODEL are set; false turns it off regardless
    timeout_seconds: Annotated[float, Field(gt=0, le=600)] = 30  # one call
    deadline_seconds: Annotated[float, Field(gt=0, le=3600)] = 90  # the whole analysis of one digest
    max_requests: Annotated[int, Field(ge=0, le=1000)] = 16  # per digest
    max_tokens: Annotated[int, Field(ge=0, le=10_000_000)] = 40_000  # per digest, prompt + completion
    max_output_tokens: Annotated[int, Field(ge=16, le=8192)] = 400  # per call
    concurrency: Annotated[int, Field(ge=1, le=64)] = 4  # calls in flight to the endpoint: the upper bound
    # Narrow it when the server's answers show it queues calls (one-at-a-time servers); false: always concurrency.
    measure_concurrency: StrictBool = True
    max_hot: Annotated[int, Field(ge=0, le=50)] = 5  # hot discussions analysed per digest, hottest first
    max_key_changes: Annotated[int, Field(ge=0, le=50)] = 5  # key changes given an impact sentence
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.2
    cache_days: Annotated[int, Field(ge=1, le=3650)] = 30


class RepoSettings(_Strict):
    name: str
    topics: list[str] | None = None  # None: every topic of topics.toml
    topics_file: str | None = None  # extra topics (or overrides by id), relative to the config folder
    # The topics a channel that chose none follows (its chat post leads with them); empty: none, the chat post
    # then has no topic part. A short list: a channel's digest is an editor's page, not 25 sections.
    default_topics: list[str] = Field(default_factory=list)

    _name = field_validator("name")(check_repo)

    @field_validator("default_topics")
    @classmethod
    def _topic_ids(cls, values: list[str]) -> list[str]:
        return list(dict.fromkeys(value.strip().lower() for value in values if value.strip()))


class AccessSettings(_Strict):
    """Which repositories the bot may read besides ``[[repos]]`` (see docs/access.md). Not ``repos.allow``:
    TOML cannot give the ``[[repos]]`` array of tables a key of its own."""

    repos: list[str] = Field(default_factory=list)  # patterns: "my-org/*", "my-org/tool"
    # Any public repository too (GitHub's ``private`` flag is checked first). Strict: a switch that widens what
    # the bot reads is spelled true or false, never "yes".
    allow_public: StrictBool = False

    @field_validator("repos")
    @classmethod
    def _patterns(cls, values: list[str]) -> list[str]:
        return [check_repo_pattern(value) for value in values]


class ReportsSettings(_Strict):
    """The web report pages (docs/reports.md). Off unless ``public`` or ``REPORTS_SECRET`` is set: reports of a
    private repository must never be readable by whoever guesses a URL."""

    # Serve /reports/... to anyone (only for repositories everyone may read); otherwise every link is signed.
    public: StrictBool = False
    days: Annotated[int, Field(ge=1, le=366)] = 60  # days the index lists (within what the store has synced)
    link_days: Annotated[int, Field(ge=1, le=366)] = 30  # how long a signed link stays valid


class FileSettings(_Strict):
    digest: DigestSettings = DigestSettings()
    store: StoreSettings = StoreSettings()
    sync: SyncSettings = SyncSettings()
    bots: BotSettings = BotSettings()
    chat: ChatSettings = ChatSettings()
    delivery: DeliverySettings = DeliverySettings()
    engine: EngineSettings = EngineSettings()
    llm: LLMSettings = LLMSettings()
    access: AccessSettings = AccessSettings()
    reports: ReportsSettings = ReportsSettings()
    repos: list[RepoSettings] = Field(default_factory=list)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)

    file: FileSettings
    config_dir: Path
    database_url: str
    github_api_url: str
    github_token: str | None
    llm_base_url: str | None = None  # LLM_BASE_URL: an OpenAI-compatible API root, e.g. http://host:8000/v1
    llm_model: str | None = None  # LLM_MODEL
    llm_api_key: str | None = None  # LLM_API_KEY (optional: local servers need none)
    reports_secret: str | None = None  # REPORTS_SECRET: signs report links (HMAC)
    public_url: str | None = None  # PUBLIC_URL: the web process's public base URL, for links to report pages
    github_webhook_secret: str | None = None  # GITHUB_WEBHOOK_SECRET: POST /github/webhook is served with it
    github_app_id: str | None = None  # GITHUB_APP_ID: authenticate as a GitHub App (with the private key)
    github_app_private_key: str | None = None  # GITHUB_APP_PRIVATE_KEY: the PEM itself, or a path to it
    github_app_installation_id: int | None = None  # GITHUB_APP_INSTALLATION_ID: else asked per repository
    # The files read: the folder's own, or the packaged default's where the folder has none (``fallbacks``: the
    # names of those, said once at start-up). None: ``config_dir``'s (settings made by hand, in tests).
    digest_file: Path | None = None
    topics_file: Path | None = None
    fallbacks: tuple[str, ...] = ()

    @property
    def llm_enabled(self) -> bool:
        return bool(self.file.llm.enabled and self.llm_base_url and self.llm_model)

    @property
    def reports_mode(self) -> str:
        """How report pages are served: "public", "signed" (REPORTS_SECRET set) or "off"."""
        if self.file.reports.public:
            return "public"
        return "signed" if self.reports_secret else "off"

    @property
    def digest(self) -> DigestSettings:
        return self.file.digest

    @property
    def sync(self) -> SyncSettings:
        return self.file.sync

    @property
    def repos(self) -> list[RepoSettings]:
        return self.file.repos

    @property
    def default_repo(self) -> str | None:
        """The first configured repository: what a channel nobody configured, and the CLI, read."""
        return self.file.repos[0].name if self.file.repos else None

    def allowed_repo(self, repo: str) -> str | None:
        """``repo`` as the bot follows it (its ``[[repos]]`` spelling, else as asked) when the configuration
        allows it: a ``[[repos]]`` entry or an ``[access] repos`` pattern. None otherwise (``allow_public``
        needs GitHub's word: ``bot.app.access``)."""
        for configured in self.file.repos:
            if configured.name.lower() == repo.lower():
                return configured.name
        if any(repo_matches(pattern, repo) for pattern in self.file.access.repos):
            return repo
        return None

    @property
    def digest_path(self) -> Path:
        """The digest.toml in use (the folder's, or the packaged default)."""
        return self.digest_file or self.config_dir / "digest.toml"

    @property
    def topics_path(self) -> Path:
        """The topics.toml in use (the folder's, or the packaged default)."""
        return self.topics_file or self.config_dir / "topics.toml"

    def repo_topics_path(self, repo: RepoSettings) -> Path | None:
        """A repository's own ``topics_file``, relative to the digest.toml that names it."""
        return self.digest_path.parent / repo.topics_file if repo.topics_file else None

    @property
    def bots_key(self) -> str:
        """Changes when the configured bot logins do (cached per-topic counts exclude bots)."""
        joined = "\n".join(sorted(login.lower() for login in self.file.bots.logins))
        return hashlib.sha1(joined.encode("utf-8")).hexdigest()[:12]

    def is_bot(self, login: str | None) -> bool:
        return is_bot_login(login, self.file.bots.logins)

    def secret_values(self) -> list[str]:
        """What the redactor must never let out: tokens, and passwords inside the configured URLs (the store's
        may come from digest.toml, not the environment)."""
        urls = (self.database_url, self.github_api_url, self.llm_base_url or "")
        secrets = (self.github_token, self.llm_api_key, self.reports_secret, self.github_webhook_secret,
                   self.github_app_private_key)
        # A private key's lines too: a log or an error may show a part of it.
        key_lines = [line for line in (self.github_app_private_key or "").splitlines() if len(line.strip()) >= 40]
        return [value for value in secrets if value] + key_lines + [
            password for url in urls for password in url_credentials(url)
        ]


def is_bot_login(login: str | None, extra: list[str] | tuple[str, ...] = ()) -> bool:
    if not login:
        return False
    return login.endswith("[bot]") or login in extra


def packaged_config_dir() -> Path:
    return Path(str(resources.files("digest_bot_config")))


CONFIG_FILES = ("digest.toml", "topics.toml")


@dataclass(frozen=True)
class ConfigFiles:
    """Where the configuration comes from: the folder, and each file in use (the folder's, or the packaged
    default where the folder has none: ``fallbacks``)."""

    folder: Path
    digest: Path
    topics: Path
    fallbacks: tuple[str, ...] = ()


def config_files(explicit: str | Path | None = None, env: Mapping[str, str] = os.environ) -> ConfigFiles:
    """The folder (--config, then $DIGEST_BOT_CONFIG, then ./config, then the packaged defaults) and the files
    in use: each one the folder lacks is the packaged default's. A folder given that does not exist, or holds
    neither file, is an error (a wrong path must not quietly run on the defaults)."""
    packaged = packaged_config_dir()
    folder = packaged
    for candidate in (explicit, env.get(CONFIG_ENV)):
        if candidate:
            path = Path(candidate)
            if path.is_file():
                path = path.parent
            if not path.is_dir():
                raise ConfigError(f"{path}: no such folder, so no digest.toml there (from --config or "
                                  f"${CONFIG_ENV})\n    fix: give the folder that holds digest.toml and/or topics.toml")
            if not any((path / name).is_file() for name in CONFIG_FILES):
                raise ConfigError(f"{path}: no digest.toml there, nor topics.toml (from --config or ${CONFIG_ENV})"
                                  "\n    fix: give the folder that holds them (either one is enough: the other "
                                  "is then the packaged default)")
            folder = path
            break
    else:
        local = Path("config")
        if any((local / name).is_file() for name in CONFIG_FILES):
            folder = local
    used = {name: folder / name if (folder / name).is_file() else packaged / name for name in CONFIG_FILES}
    fallbacks = tuple(name for name in CONFIG_FILES if folder != packaged and used[name] == packaged / name)
    return ConfigFiles(folder, used["digest.toml"], used["topics.toml"], fallbacks)


# --- problems: every one at once, each with its file, key, line and fix ---


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong with the configuration: ``file`` (a path; "" for the environment, whose ``message`` names
    the variable), the dotted ``key``, the ``line`` where known, what is wrong and how to fix it."""

    file: str
    key: str
    message: str
    line: int | None = None
    fix: str = ""

    def __str__(self) -> str:
        where = f"{self.file}: {self.key}: " if self.key else f"{self.file}: " if self.file else ""
        line = f" (line {self.line})" if self.line else ""
        fix = f"\n    fix: {self.fix}" if self.fix else ""
        return f"{where}{self.message}{line}{fix}"


def config_error(problems: Sequence[ConfigProblem]) -> ConfigError:
    """One error listing every problem (the process stops once, with all of them)."""
    if len(problems) == 1:
        return ConfigError(str(problems[0]), tuple(problems))
    listed = "\n".join(f"- {problem}" for problem in problems)
    return ConfigError(f"{len(problems)} problems in the configuration; fix them all, then start again:\n{listed}",
                       tuple(problems))


def problems_of(err: ConfigError) -> list[ConfigProblem]:
    """The problems an error lists; one made of its message when it has none of its own."""
    found = [problem for problem in err.problems if isinstance(problem, ConfigProblem)]
    return found or [ConfigProblem("", "", str(err))]


def load_toml(path: Path) -> tuple[dict[str, Any], list[ConfigProblem]]:
    """The parsed file, or the problem reading it (its line when TOML says where)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, [ConfigProblem(str(path), "", "file not found", fix="create it, or remove what names it")]
    except (OSError, UnicodeDecodeError) as err:
        return {}, [ConfigProblem(str(path), "", f"cannot be read: {err}",
                                  fix="make it a readable UTF-8 text file")]
    try:
        return tomllib.loads(text), []
    except tomllib.TOMLDecodeError as err:
        line = getattr(err, "lineno", None)
        if line is None:
            found = re.search(r"at line (\d+)", str(err))
            line = int(found[1]) if found else None
        return {}, [ConfigProblem(str(path), "", f"not valid TOML: {err}", line,
                                  fix="correct the syntax on that line: text in double quotes, one key = value per "
                                      "line, [table] and [[array]] headers in brackets")]


# Example lines for keys whose default is no example (an empty list, a required value).
EXAMPLES: dict[tuple[str, ...], str] = {
    ("repos", "name"): 'name = "vllm-project/vllm"',
    ("repos", "topics"): 'topics = ["rocm", "qwen"] (ids of topics.toml)',
    ("repos", "default_topics"): 'default_topics = ["rocm", "qwen"] (ids of topics.toml)',
    ("repos", "topics_file"): 'topics_file = "my-topics.toml" (next to digest.toml)',
    ("access", "repos"): 'repos = ["my-org/*", "other-org/tool"]',
    ("bots", "logins"): 'logins = ["mergify", "my-ci-bot"]',
    ("topic", "id"): 'id = "rocm" (lower-case letters, digits and _)',
}


def validation_problems(path: Path, err: ValidationError, model: type[BaseModel],
                        text: str | None = None) -> list[ConfigProblem]:
    """Every problem pydantic found in the file at ``path``, each with its line (from ``text``) and a fix."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
    problems = []
    for error in err.errors():
        loc = tuple(error["loc"])
        key = ".".join(str(part) for part in loc) or "(top level)"
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown key"
        problems.append(ConfigProblem(str(path), key, message, toml_line(text, loc),
                                      _fix(model, loc, error["type"])))
    return problems


def _fix(model: type[BaseModel], loc: tuple[Any, ...], kind: str) -> str:
    names = [part for part in loc if isinstance(part, str)]
    if not names:
        return "check the value against the packaged default file"
    owner, info = _field_at(model, loc)
    name = names[-1]
    if kind == "extra_forbidden":
        known = sorted(owner.model_fields)
        close = difflib.get_close_matches(name, known, n=1)
        hint = f", or spell it {close[0]}" if close else ""
        return f"remove {name}{hint} (the keys here: {', '.join(known)})"
    example = EXAMPLES.get(tuple(names[-2:])) or EXAMPLES.get((names[-1],))
    if example:
        return f"write it like {example}"
    if info is not None and _model_of(info.annotation) is None:
        default = info.get_default(call_default_factory=True)
        if default is not PydanticUndefined and default is not None:
            return f"write it like {name} = {_toml_value(default)} (the default), or leave it out"
    if kind == "missing":
        return f"add {name} = …"
    return f"see {name} in the packaged default file for its form"


def _field_at(model: type[BaseModel], loc: tuple[Any, ...]) -> tuple[type[BaseModel], Any]:
    """The model that holds the last key of ``loc``, and that key's field (None: not a field of it)."""
    owner: type[BaseModel] = model
    info: Any = None
    names = [part for part in loc if isinstance(part, str)]
    for position, name in enumerate(names):
        info = owner.model_fields.get(name)
        if info is None:
            return owner, None
        inner = _model_of(info.annotation)
        if inner is not None and position < len(names) - 1:
            owner = inner
    return owner, info


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``annotation`` (``Model``, ``list[Model]``, ``Model | None``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (list, tuple, types.UnionType, typing.Union, typing.Annotated):
        for argument in typing.get_args(annotation):
            found = _model_of(argument)
            if found is not None:
                return found
    return None


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_ASSIGN = re.compile(rf"^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=")


def _key_parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in re.findall(_KEY_PART, dotted))


def toml_line(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of ``text`` (1-based) that sets the key at ``loc`` (``("digest", "post_time")``, ``("repos", 0,
    "name")``; list indexes count ``[[array]]`` tables), or the nearest enclosing table or key; None when the file
    says nothing of it (a missing key of a table the file does not have)."""
    best: tuple[int, int] | None = None  # (how much of loc it covers, line)
    table: tuple[Any, ...] = ()
    arrays: dict[tuple[Any, ...], int] = {}
    in_string = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
            if in_string:
                continue
        if in_string:
            continue
        header = _HEADER.match(line)
        if header:
            parts = _key_parts(header[2])
            path = _with_indexes(parts, arrays)
            if header[1] == "[[":
                index = arrays.get(parts, -1) + 1
                arrays[parts] = index
                path = (*path, index)
            table = path
            candidate: tuple[Any, ...] = table
        else:
            assign = _ASSIGN.match(line)
            if not assign:
                continue
            candidate = (*table, *_key_parts(assign[1]))
        covered = len(candidate)
        if candidate and tuple(loc[:covered]) == candidate and (best is None or covered > best[0]):
            best = (covered, number)
    return best[1] if best is not None else None


def _with_indexes(parts: tuple[str, ...], arrays: dict[tuple[Any, ...], int]) -> tuple[Any, ...]:
    """A header's path with the index of each enclosing [[array]] (``[repos.x]`` inside the second [[repos]])."""
    path: list[Any] = []
    for position in range(len(parts)):
        path.append(parts[position])
        prefix = parts[: position + 1]
        if prefix in arrays and position < len(parts) - 1:
            path.append(arrays[prefix])
    return tuple(path)


def normalise_database_url(url: str) -> str:
    """Heroku-style ``postgres://`` and plain ``postgresql://`` go through psycopg 3, the one we ship."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _url(name: str, env: Mapping[str, str], redact: Redactor, example: str, *, default: str | None = None,
         problems: list[ConfigProblem]) -> str | None:
    """An http(s) URL from the environment, without its trailing slash; a problem (and the default) if it is
    not one."""
    value = (env.get(name) or "").strip().rstrip("/") or default
    if value is not None and not value.startswith(("https://", "http://")):
        problems.append(ConfigProblem("", "", f"{name} must be an http(s) URL, got {redact(value)!r}",
                                      fix=f"set it like {name}={example}, or unset it"))
        return default
    return value


def load_settings(config: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Settings:
    """The settings of the configuration folder (each file it lacks: the packaged default's) and ``env``.
    Raises one ``ConfigError`` listing every problem of digest.toml and of the environment at once."""
    settings, problems = read_settings(config, env)
    if problems or settings is None:
        raise config_error(problems)
    return settings


def read_settings(config: str | Path | None = None,
                  env: Mapping[str, str] = os.environ) -> tuple[Settings | None, list[ConfigProblem]]:
    """The settings as far as they can be read, and every problem found in digest.toml and the environment.
    None when digest.toml itself cannot be read or validated; with only the environment at fault, settings with
    the defaults in place of what was wrong, so that the rest of the configuration can still be checked (they
    must not run: ``load_settings`` refuses them). A folder that does not exist raises at once."""
    files = config_files(config, env)
    path = files.digest
    raw, problems = load_toml(path)
    file: FileSettings | None = None
    if not problems:
        try:
            file = FileSettings.model_validate(raw)
        except ValidationError as err:
            problems.extend(validation_problems(path, err, FileSettings))
    redact = Redactor()  # these messages echo what was given, minus any credential in it
    redact.add_env(env)
    api_url = _url("GITHUB_API_URL", env, redact, "https://ghe.example.com/api/v3", default=DEFAULT_GITHUB_API,
                   problems=problems) or DEFAULT_GITHUB_API
    llm_url = _url("LLM_BASE_URL", env, redact, "http://127.0.0.1:8000/v1", problems=problems)
    public_url = _url("PUBLIC_URL", env, redact, "https://digest.example.com", problems=problems)
    app: dict[str, Any] = {}
    try:
        app = _github_app(env)
    except ConfigError as err:
        problems.append(ConfigProblem("", "", str(err),
                                      fix="set GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY together (README, GitHub "
                                          "App), or neither"))
    if file is None:
        return None, problems
    return Settings(
        file=file,
        config_dir=files.folder,
        digest_file=files.digest,
        topics_file=files.topics,
        fallbacks=files.fallbacks,
        database_url=normalise_database_url(env.get("DATABASE_URL") or file.store.url),
        github_api_url=api_url,
        github_token=env.get("GITHUB_TOKEN") or None,
        llm_base_url=llm_url,
        llm_model=(env.get("LLM_MODEL") or "").strip() or None,
        llm_api_key=env.get("LLM_API_KEY") or None,
        reports_secret=env.get("REPORTS_SECRET") or None,
        public_url=public_url,
        github_webhook_secret=env.get("GITHUB_WEBHOOK_SECRET") or None,
        **app,
    ), problems


def _github_app(env: Mapping[str, str]) -> dict[str, Any]:
    """GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY (a PEM, or the path of one) [+ GITHUB_APP_INSTALLATION_ID]."""
    app_id = (env.get("GITHUB_APP_ID") or "").strip()
    key = (env.get("GITHUB_APP_PRIVATE_KEY") or "").strip()
    installation = (env.get("GITHUB_APP_INSTALLATION_ID") or "").strip()
    if not app_id and not key:
        return {}
    if not app_id or not key:
        raise ConfigError("a GitHub App needs both GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY")
    if not app_id.isdigit():
        raise ConfigError("GITHUB_APP_ID must be the App's numeric id")
    if installation and not installation.isdigit():
        raise ConfigError("GITHUB_APP_INSTALLATION_ID must be a number")
    if "-----BEGIN" not in key:
        path = Path(key).expanduser()
        try:
            key = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            # Never echo the value: it may be a mangled key.
            raise ConfigError("GITHUB_APP_PRIVATE_KEY is neither a PEM private key nor a readable file") from None
        if "-----BEGIN" not in key:
            raise ConfigError(f"{path}: not a PEM private key (GITHUB_APP_PRIVATE_KEY)")
    return {"github_app_id": app_id, "github_app_private_key": key,
            "github_app_installation_id": int(installation) if installation else None}
