"""``/digest …`` text -> a command, the same on Slack, Discord and the CLI.

    (empty) | <query>                  the digest, or an answer (see bot/topics/query.py)
    post [<query>]                     post the channel's digest in the channel
    subscribe <query> [at HH:MM] [tz Area/City]
    subscribe <query> live             a DM within a minute of each new matching issue or PR
    unsubscribe <query> [live] | all
    channel alert [<query> | off [<query>]]   the same in the channel: add one, list (alone), turn off
    subscriptions
    channel                            show the channel's settings
    channel repo o/r | time HH:MM | tz Area/City | locale en|zh-CN | topics a,b|all | thread short|full
                                       (several at once; topics: the ones followed; thread full: the whole
                                       appendix in a post's thread)
    mute [<topic> [24h|3d|7d|2w]] [for me]   leave a topic out of the channel's digests (or, for me / in a DM,
                                             out of your daily DMs); no duration: until unmuted; alone: list
    unmute <topic> | all [for me]
    why 123 | why #123                 why item 123 is where it is in today's digest (or is not there)
    help
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

from msgspec import Struct, field

from bot.model import THREAD_MODES
from bot.settings import LOCALES, check_hhmm, check_repo, check_timezone
from bot.topics.query import Query, clean_text, parse_query, tokenize

# The notices (43 dataclasses, ~20 ms of a one-shot command's start-up) load when text is refused, not to parse
# a query that says what it means.
if TYPE_CHECKING:
    from bot.app.notices import Invalid, Problem

# A command's query is parsed once, by the command (``Ask.query``, ``Subscribe.parsed``...), the first time it
# is asked for, and passed down as it is: the service, its worker processes and the search never parse the text
# again. Platforms that build commands from typed options (Discord) get the same.


class Ask(Struct, frozen=True, dict=True):  # dict: room for its cached_property
    text: str  # empty: the digest; else a query

    @cached_property
    def query(self) -> Query:
        """``text`` parsed, once (``bot.topics.query.parse_query``)."""
        return parse_query(self.text)


class Post(Struct, frozen=True, dict=True):  # dict: room for its cached_property
    text: str = ""

    @cached_property
    def query(self) -> Query:
        return parse_query(self.text)


class Subscribe(Struct, frozen=True, dict=True):  # dict: room for its cached_property
    query: str
    at: str | None = None
    tz: str | None = None
    live: bool = False  # "live": new matching items as they arrive, not a daily DM

    @cached_property
    def parsed(self) -> Query:
        """``query`` parsed, once."""
        return parse_query(self.query)


class Unsubscribe(Struct, frozen=True):
    query: str | None  # None: all
    live: bool = False  # "<query> live": the live alert only


class ChannelAlert(Struct, frozen=True, dict=True):  # dict: room for its cached_property
    """``channel alert <query>`` (add), ``channel alert`` (list), ``channel alert off [<query>]`` (remove; no
    query: all)."""

    query: str | None = None
    off: bool = False

    @cached_property
    def parsed(self) -> Query | None:
        """``query`` parsed, once (None: no query)."""
        return parse_query(self.query) if self.query is not None else None


class ListSubscriptions(Struct, frozen=True):
    pass


class ShowChannel(Struct, frozen=True):
    pass


class ConfigureChannel(Struct, frozen=True):
    changes: dict[str, object] = field(default_factory=dict)  # repo, post_time, timezone, locale, topics


class Mute(Struct, frozen=True):
    topic: str  # as typed: an id, alias or query word; the handler resolves it against the taxonomy
    duration: timedelta | None = None  # None: until unmuted
    personal: bool = False  # "for me": the user's daily DMs, not the channel's digests


class Unmute(Struct, frozen=True):
    topic: str | None  # None: all
    personal: bool = False


class ListMutes(Struct, frozen=True):
    personal: bool = False


class Help(Struct, frozen=True):
    topic: str | None = None


class Why(Struct, frozen=True):
    """``why 123``: why item 123 is where it is in today's digest, or why it is not there."""

    number: int


Command: TypeAlias = ("Ask | Post | Subscribe | Unsubscribe | ListSubscriptions | ShowChannel | ConfigureChannel"
                      " | Mute | Unmute | ListMutes | Help | Why | ChannelAlert | Invalid")

SUBSCRIBE_USAGE = "/digest subscribe rocm at 09:00 tz Asia/Shanghai"
CHANNEL_USAGE = "/digest channel repo vllm-project/vllm time 11:05 tz Asia/Shanghai locale zh-CN topics rocm,qwen"
MUTE_USAGE = "/digest mute rocm 7d   or   /digest mute rocm for me"
UNMUTE_USAGE = "/digest unmute rocm   or   /digest unmute all"
UNSUBSCRIBE_USAGE = "/digest unsubscribe rocm   or   /digest unsubscribe all"
WHY_USAGE = "/digest why 123"
_ITEM = re.compile(r"#?(\d{1,9})")  # GitHub numbers fit in 9 digits
CHANNEL_KEYS = {"repo": "repo", "time": "post_time", "at": "post_time", "tz": "timezone", "timezone": "timezone",
                "locale": "locale", "lang": "locale", "language": "locale", "topics": "topics", "thread": "thread"}


def parse_command(text: str) -> Command:
    cleaned = clean_text(text or "").strip()
    tokens = tokenize(cleaned)
    if not tokens:
        return Ask("")
    verb, rest = tokens[0].lower(), tokens[1:]
    if verb in ("help", "-h", "--help", "?"):
        return Help(rest[0].lower() if rest else None)
    if verb == "post":
        return Post(" ".join(rest))
    if verb == "subscribe":
        return _subscribe(rest)
    if verb == "unsubscribe":
        if not rest:
            return _invalid("say_unsubscribe", UNSUBSCRIBE_USAGE)
        words, live = _live(rest)
        joined = " ".join(words)
        return Unsubscribe(None if joined.lower() == "all" and not live else joined, live=live)
    if verb == "subscriptions":
        return ListSubscriptions()
    if verb == "channel":
        return _channel(rest)
    if verb == "mute":
        return _mute(rest)
    if verb == "unmute":
        return _unmute(rest)
    if verb == "why":
        return why_command(" ".join(rest))
    return Ask(cleaned)


def why_command(text: str) -> Why | Invalid:
    """``why``'s argument: one item number, with or without ``#``. Shared with Discord's typed option."""
    found = _ITEM.fullmatch(text.strip())
    if found is None:
        return _invalid("say_why", WHY_USAGE, text.strip()[:40])
    return Why(int(found[1]))


def _for_me(tokens: list[str]) -> tuple[list[str], bool]:
    """Tokens without a trailing "for me", and whether it was there."""
    if len(tokens) >= 2 and tokens[-2].lower() == "for" and tokens[-1].lower() == "me":
        return tokens[:-2], True
    return tokens, False


def _mute(tokens: list[str]) -> Command:
    words, personal = _for_me(tokens)
    words = [word for word in words if word.strip()]  # an empty quoted phrase ("") names no topic
    if not words:
        return ListMutes(personal)
    duration = None
    last = parse_query(words[-1])  # the query grammar's windows: 24h, 3d, 7d, 2w (at most a year)
    if last.window is not None:
        if last.window.kind != "relative" or last.window.amount is None:
            return _invalid("not_a_duration", MUTE_USAGE, words[-1])
        duration, words = last.window.amount, words[:-1]
    elif len(words) > 1 and last.notes:  # "0d", "x:y": not a topic word either
        return _invalid("not_a_duration", MUTE_USAGE, words[-1])
    if not words:
        return _invalid("say_mute", MUTE_USAGE)
    return Mute(" ".join(words), duration, personal)


def _unmute(tokens: list[str]) -> Command:
    words, personal = _for_me(tokens)
    if not words:
        return _invalid("say_unmute", UNMUTE_USAGE)
    joined = " ".join(words)
    return Unmute(None if joined.lower() == "all" else joined, personal)


def _subscribe(tokens: list[str]) -> Command:
    at = tz = None
    words: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index].lower()
        if token in ("at", "tz", "timezone") and index + 1 < len(tokens):
            value = tokens[index + 1]
            try:
                if token == "at":
                    at = check_hhmm(value)
                else:
                    tz = check_timezone(value)
            except ValueError:
                return _invalid("bad_time" if token == "at" else "bad_timezone", SUBSCRIBE_USAGE, value, token)
            index += 2
            continue
        words.append(tokens[index])
        index += 1
    words, live = _live(words)
    if not words:
        return _invalid("say_subscribe", SUBSCRIBE_USAGE)
    return Subscribe(" ".join(words), at=at, tz=tz, live=live)


def _live(tokens: list[str]) -> tuple[list[str], bool]:
    """Tokens without a trailing "live" (when something is left before it), and whether it was there."""
    if len(tokens) >= 2 and tokens[-1].lower() == "live":
        return tokens[:-1], True
    return tokens, False


def live_suffix(text: str) -> tuple[str, bool]:
    """``text`` without a trailing "live" word, and whether it had one (Discord's query option)."""
    words, live = _live(tokenize(clean_text(text).strip()))
    return (" ".join(words), True) if live else (text, False)


def _channel(tokens: list[str]) -> Command:
    if not tokens:
        return ShowChannel()
    if tokens[0].lower() == "alert":
        rest = tokens[1:]
        if rest and rest[0].lower() == "off":
            joined = " ".join(rest[1:])
            return ChannelAlert(None if not joined or joined.lower() == "all" else joined, off=True)
        return ChannelAlert(" ".join(rest) or None)
    changes: dict[str, object] = {}
    index = 0
    while index < len(tokens):
        key = CHANNEL_KEYS.get(tokens[index].lower())
        if key is None:
            return _invalid("unknown_setting", CHANNEL_USAGE, tokens[index])
        if index + 1 >= len(tokens):
            return _invalid("needs_value", CHANNEL_USAGE, tokens[index])
        value = tokens[index + 1]
        try:
            changes[key] = channel_setting(key, value)
        except ValueError:
            return _invalid(_setting_problem(key), CHANNEL_USAGE, value, tokens[index])
        index += 2
    return ConfigureChannel(changes)


# --- validators, shared with the platforms whose commands arrive as typed options (Discord) ---

DURATION_HINT = "24h, 3d, 7d, 2w"


def channel_setting(key: str, value: str) -> object:
    """One ``channel`` setting's value, checked as the text grammar checks it. ``key`` is a value of
    ``CHANNEL_KEYS`` (repo, post_time, timezone, locale, topics, thread). Raises ValueError (``SETTING_PROBLEMS[key]``
    names the problem for a reply)."""
    if key == "repo":
        return check_repo(value)
    if key == "post_time":
        return check_hhmm(value)
    if key == "timezone":
        return check_timezone(value)
    if key == "locale":
        return check_locale(value)
    if key == "topics":
        return check_topics(value)
    if key == "thread":
        return check_thread(value)
    raise ValueError(f"unknown channel setting {key!r}")


def check_locale(value: str) -> str:
    """``en``, ``zh-CN``, or a language alone (``zh``), in any case: the locale's canonical name."""
    for locale in LOCALES:
        if value.lower() == locale.lower() or value.lower() == locale.split("-")[0].lower():
            return locale
    raise ValueError(f"must be one of {', '.join(LOCALES)}")


def check_topics(value: str) -> tuple[str, ...] | None:
    """Topic ids separated by commas (lower-cased, without repeats), or None for ``all``."""
    topics = [part.strip().lower() for part in value.split(",") if part.strip()]
    if not topics:
        raise ValueError("list topic ids separated by commas, or all")
    return None if topics == ["all"] else tuple(dict.fromkeys(topics))


def check_thread(value: str) -> str:
    """What a posted digest's thread carries: ``short`` (the counts, linked to GitHub's searches) or ``full``
    (the complete appendix too), in any case."""
    if value.lower() in THREAD_MODES:
        return value.lower()
    raise ValueError(f"must be one of {', '.join(THREAD_MODES)}")


def check_duration(value: str) -> timedelta:
    """A mute's duration: one word the query grammar reads as a relative window (24h, 3d, 7d, 2w; at most a
    year), as ``mute <topic> <duration>`` takes it. Raises ValueError (the reply: ``not_a_duration``)."""
    words = value.split()
    window = parse_query(words[0]).window if len(words) == 1 else None
    if window is None or window.kind != "relative" or window.amount is None:
        raise ValueError(f"“{value.strip()}” is not a duration ({DURATION_HINT})")
    return window.amount


def subcommand_word(text: str) -> str | None:
    """The subcommand ``text`` starts with (``post``, ``help``, …), lower-cased; None when it is a query."""
    command = parse_command(text)
    if isinstance(command, Ask):
        return None
    return tokenize(clean_text(text).strip())[0].lower()


def _invalid(problem: Problem, usage: str, *values: str) -> Invalid:
    from bot.app.notices import Invalid

    return Invalid(problem, usage, *values)


def _setting_problem(key: str) -> Problem:
    from bot.app.notices import SETTING_PROBLEMS

    return SETTING_PROBLEMS[key]
