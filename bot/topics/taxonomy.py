"""Topics as data (config/topics.toml) and the matcher that says which items belong to one, and why."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.errors import ConfigError
from bot.settings import describe_validation_error, read_toml
from bot.text import body_prose

_ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_TAG_RE = re.compile(r"\[([^\[\]]{1,40})\]")
# Word characters for boundaries: "amd" must not match in "command", "hip" not in "ship".
_WORD = r"0-9A-Za-z\u00C0-\u024F"

LABEL_SCORE = 5
TAG_SCORE = 5
TITLE_SCORE = 3
BODY_SCORE = 1
BODY_MIN_HITS = 2  # a body mention counts only when repeated: bodies wander more than titles
MATCH_THRESHOLD = 2


def normalise_tag(tag: str) -> str:
    return re.sub(r"[\s_]+", " ", tag.strip().lower())


def title_tags(title: str) -> list[str]:
    return [normalise_tag(tag) for tag in _TAG_RE.findall(title)]


def _phrase_pattern(phrase: str) -> str:
    phrase = phrase.strip().lower()
    wildcard = phrase.endswith("*")
    core = re.escape(phrase.rstrip("*")).replace(r"\ ", r"[\s_-]+")
    tail = f"[{_WORD}.]*" if wildcard else ""
    # CJK has no spaces between words: boundaries only make sense around Latin text.
    left = f"(?<![{_WORD}])" if re.match(f"[{_WORD}]", phrase) else ""
    right = f"(?![{_WORD}])" if re.search(f"[{_WORD}*]$", phrase) else ""
    return f"{left}{core}{tail}{right}"


def compile_phrases(phrases: Iterable[str]) -> re.Pattern[str] | None:
    parts = sorted({p for p in phrases if p.strip()}, key=len, reverse=True)
    if not parts:
        return None
    return re.compile("|".join(_phrase_pattern(p) for p in parts), re.IGNORECASE)


class TopicDef(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    name_zh: str | None = None
    labels: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _ID_RE.match(value):
            raise ValueError(f"must be lower-case letters, digits and _ (got {value!r})")
        return value


class TopicsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    topic: list[TopicDef] = Field(default_factory=list)


@dataclass(frozen=True)
class TopicMatch:
    topic_id: str
    score: int
    reasons: tuple[str, ...]

    @property
    def reason(self) -> str:
        return ", ".join(self.reasons)


@dataclass(frozen=True)
class Topic:
    definition: TopicDef

    @property
    def id(self) -> str:
        return self.definition.id

    def display_name(self, locale: str = "en") -> str:
        if locale.startswith("zh") and self.definition.name_zh:
            return self.definition.name_zh
        return self.definition.name

    @cached_property
    def _labels(self) -> frozenset[str]:
        return frozenset(label.lower() for label in self.definition.labels)

    @cached_property
    def _tags(self) -> frozenset[str]:
        return frozenset(normalise_tag(tag) for tag in self.definition.tags)

    @cached_property
    def _keywords(self) -> re.Pattern[str] | None:
        return compile_phrases([*self.definition.keywords, *self.definition.aliases])

    @cached_property
    def _exclude(self) -> re.Pattern[str] | None:
        return compile_phrases(self.definition.exclude)

    def _keyword_hits(self, text: str) -> list[str]:
        if not text or self._keywords is None:
            return []
        if self._exclude is not None:
            text = self._exclude.sub(" ", text)
        return [m.group(0) for m in self._keywords.finditer(text)]

    def match(self, title: str, labels: Sequence[str], body: str = "") -> TopicMatch | None:
        score = 0
        reasons: list[str] = []
        for label in labels:
            if label.lower() in self._labels:
                score += LABEL_SCORE
                reasons.append(f"label {label}")
                break
        for tag in title_tags(title):
            if tag in self._tags:
                score += TAG_SCORE
                reasons.append(f"tag [{tag}]")
                break
        title_hits = self._keyword_hits(_TAG_RE.sub(" ", title))
        if title_hits:
            score += TITLE_SCORE
            reasons.append(f"title: {title_hits[0]}")
        if score < MATCH_THRESHOLD and body:
            body_hits = self._keyword_hits(body)
            if len(body_hits) >= BODY_MIN_HITS:
                score += BODY_SCORE * len(body_hits)
                reasons.append(f"body: {body_hits[0]} ({len(body_hits)}x)")
        if score < MATCH_THRESHOLD:
            return None
        return TopicMatch(self.id, score, tuple(reasons))


@dataclass
class Taxonomy:
    topics: list[Topic] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_id = {topic.id: topic for topic in self.topics}

    def get(self, topic_id: str) -> Topic | None:
        return self._by_id.get(topic_id)

    def ids(self) -> list[str]:
        return [topic.id for topic in self.topics]

    def match(self, title: str, labels: Sequence[str], body: str = "") -> list[TopicMatch]:
        """Every topic the item belongs to; ``body`` is the raw body (templates and code are skipped)."""
        prose = body_prose(body) if body else ""
        found = [topic.match(title, labels, prose) for topic in self.topics]
        return [m for m in found if m is not None]

    def restricted(self, ids: Sequence[str] | None) -> Taxonomy:
        if ids is None:
            return self
        return Taxonomy([topic for topic in self.topics if topic.id in set(ids)])

    @classmethod
    def load(cls, *paths: Path) -> Taxonomy:
        """Later files add topics or replace earlier ones with the same id."""
        merged: dict[str, TopicDef] = {}
        for path in paths:
            try:
                parsed = TopicsFile.model_validate(read_toml(path))
            except ValidationError as err:
                raise ConfigError(describe_validation_error(path, err)) from None
            seen: set[str] = set()
            for definition in parsed.topic:
                if definition.id in seen:
                    raise ConfigError(f"{path}: topic {definition.id!r} is defined twice")
                seen.add(definition.id)
                merged[definition.id] = definition
        return cls([Topic(definition) for definition in merged.values()])
