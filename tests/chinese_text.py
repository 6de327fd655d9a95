"""What zh-CN output may hold besides Chinese, and the tools to check it (``tests/test_chinese.py``,
``tests/test_reasons.py``).

Two checks:
- ``english_words``: Latin words that are ours, i.e. not an allowed technical term. Callers first take out
  GitHub's own text, either by replacing it with Greek placeholders before rendering (``greek_digest``: no
  Latin letter is GitHub's then) or by listing the words GitHub's text holds (``github_words``).
- ``stray_spaces``: a space between two Chinese characters, or next to full-width punctuation. A space between
  Chinese and Latin letters or digits is the style (the reference writes "新 Issue 26"), so it is allowed; Greek
  placeholders count as Latin here, which lets GitHub's text sit next to ours as real Latin text would.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from typing import Any

from hypothesis import strategies as st
from msgspec import structs

from bot.model import (
    BUG_KINDS,
    Active,
    Analysis,
    Digest,
    DigestItem,
    Evidence,
    Hot,
    InReview,
    InTopic,
    ItemFacts,
    Listed,
    Merged,
    NewBug,
    QueryMatch,
    QueryResult,
    Reason,
    Signal,
    TermHit,
    TopicRef,
)

# Technical terms Chinese engineers write in English, the topic names' proper nouns and our kinds of item.
_TERMS = """
    PR Issue ID bug OOM AI API CI KV cache TP MoE CUDA Graph torch compile OpenAI PD
    AMD ROCm NVIDIA CPU ARM TPU XPU Qwen DeepSeek Llama Gemma Mistral gpt oss GLM MiniMax Kimi
    v
"""  # v: a version's prefix, as in "v0.11.1"
TECHNICAL_TERMS = frozenset(_TERMS.split())
# Time zones are names, kept as the configuration spells them.
TIME_ZONES = frozenset({"Asia", "Shanghai", "Europe", "Berlin", "UTC"})
# Names of products, kept as they are spelt.
PRODUCTS = frozenset({"GitHub", "Slack", "Discord"})
# Command syntax the notices teach (also inside Chinese sentences): command names, options and value formats.
_COMMANDS = """
    digest post show help subscribe unsubscribe subscriptions channel mute unmute for me all at tz time repo
    locale topics thread short full why owner name OWNER NAME label author is issue pr open closed
    merged bot dependabot repos toml
    yesterday last week since h d w HH MM YYYY DD IANA en zh CN invite sync rocm qwen hangs
"""
COMMAND_WORDS = frozenset(_COMMANDS.split())

URL = re.compile(r"https?://[^\s|>)\]\"']+")
CODE = re.compile(r"`[^`\n]*`")
LATIN_WORD = re.compile(r"(?<![0-9])[A-Za-z]+")  # "30d", "1.8x": a number's unit, not a word
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_FULL_WIDTH_PUNCTUATION = "\u3000-\u303f\uff00-\uffef\u201c\u201d\u2026"
_WORD = f"{_HAN}A-Za-z0-9\u03b1-\u03c9"  # Greek placeholders stand for GitHub's Latin text
_SPACE = "[ \u00a0\t]+"
# Between two Chinese characters; between a word or a closing bracket and full-width punctuation; between
# full-width punctuation and a word. Layout marks keep their spaces ("- ……另有 3 项", "）· 合并率").
STRAY_SPACE = re.compile(
    f"[{_HAN}]{_SPACE}[{_HAN}]|[{_WORD})\\]]{_SPACE}[{_FULL_WIDTH_PUNCTUATION}]"
    f"|[{_FULL_WIDTH_PUNCTUATION}]{_SPACE}[{_WORD}(\\[]"
)


def readable(text: str, *, github: Iterable[str] = ()) -> str:
    """``text`` as a reader reads it: entities decoded, links and the given GitHub strings (a repository's
    name) replaced by a Greek placeholder."""
    text = URL.sub("ω", html.unescape(text))
    for value in sorted(github, key=len, reverse=True):
        if value:
            text = text.replace(value, "ω")  # Greek: stands for Latin text, as the placeholders do
    return text


def english_words(text: str, *, allowed: Iterable[str] = (), github: Iterable[str] = ()) -> list[str]:
    """The Latin words of ``text`` that are neither technical terms, time zones nor ``allowed`` (compared
    case-insensitively for ``allowed``, which callers fill with GitHub's words)."""
    allow = {word.lower() for word in allowed}
    text = readable(text, github=github)
    found = []
    for match in LATIN_WORD.finditer(text):
        word = match.group()
        if word in TECHNICAL_TERMS or word in TIME_ZONES or word in PRODUCTS or word.lower() in allow:
            continue
        cut = text.startswith("…", match.end())  # a long title cut in the middle of one of its words
        if cut and any(other.lower().startswith(word.lower()) for other in (*allow, *TECHNICAL_TERMS, *PRODUCTS)):
            continue
        found.append(word)
    return found


def stray_spaces(text: str, *, github: Iterable[str] = ()) -> list[str]:
    """Each place where a space sits between two Chinese characters or next to full-width punctuation."""
    return STRAY_SPACE.findall(readable(text, github=github))


# ------------------------------------------------------------------------------------------------ payloads

_TEXT_KEYS = frozenset({"text", "content", "title", "description", "name", "value", "footer", "fallback"})


def payload_texts(payload: Any) -> Iterator[str]:
    """Every text a reader sees in a Slack or Discord payload (not URLs, block types or ids)."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if isinstance(value, str):
                if key in _TEXT_KEYS:
                    yield value
            else:
                yield from payload_texts(value)
    elif isinstance(payload, list | tuple):
        for value in payload:
            yield from payload_texts(value)


# -------------------------------------------------------------------------------------------- GitHub's text


def github_words(answer: Digest | QueryResult) -> set[str]:
    """The Latin words of every GitHub text an answer carries: titles, logins, labels, bodies' summaries, the
    values its reasons quote, an LLM's analysis, the query a person typed."""
    found: set[str] = set()
    texts: list[str] = [answer.repo]
    if isinstance(answer, QueryResult):
        texts.append(answer.query)
    for item in _items(answer):
        texts += [item.title, item.author, item.summary, *item.labels, *_reason_values(item.why)]
        if item.facts is not None:  # what the body says: an error line, hardware, models, versions, a figure
            facts = item.facts
            texts += [facts.error, *facts.hardware, facts.version, facts.worked_in, *facts.models, *facts.parallel,
                      facts.figure, facts.first_reply, facts.sentence]
        if item.analysis is not None:
            texts += [item.analysis.question, item.analysis.positions, item.analysis.status, item.analysis.impact]
    for text in texts:
        found.update(word.lower() for word in LATIN_WORD.findall(text or ""))
    return found


def _items(answer: Digest | QueryResult) -> Iterator[DigestItem]:
    if isinstance(answer, QueryResult):
        yield from answer.items
        return
    for section in answer.sections:
        yield from section.items
    for items in answer.appendix.values():
        yield from items


def _reason_values(why: Reason | None) -> list[str]:
    match why:
        case Merged(signals=signals):
            return [signal.value for signal in signals]
        case InTopic(evidence=evidence):
            return [found.value for found in evidence]
        case QueryMatch(terms=terms):
            return [term.value for term in terms] + [found.value for term in terms for found in term.evidence]
        case _:
            return []


GREEK = "αβγδεζηθικλμνξοπρστυφχψω"


def greek(number: int) -> str:
    """A placeholder for one GitHub text: Greek letters, so neither a Latin word nor a Chinese character."""
    letters = []
    number = abs(number)
    while True:
        number, digit = divmod(number, len(GREEK))
        letters.append(GREEK[digit])
        if not number:
            return "".join(letters)


def greek_item(item: DigestItem) -> DigestItem:
    """``item`` with every GitHub text (title, login, labels, summary, the values its reason quotes) Greek, and
    an LLM analysis so that its headings are rendered too."""
    return structs.replace(
        item,
        title=greek(item.number),
        author=greek(item.number + 1),
        labels=tuple(greek(k) for k in range(len(item.labels))),
        summary=greek(item.number + 2) if item.summary else "",
        why=greek_reason(item.why),
        facts=greek_facts(item.facts),
        analysis=Analysis(question="αα", positions="ββ", status="γγ", impact="δδ"),
    )


def greek_facts(facts: ItemFacts | None) -> ItemFacts | None:
    """GitHub's text in an item's facts Greek (numbers, sizes and flags are ours to word: they stay)."""
    if facts is None:
        return None
    return structs.replace(
        facts, error="ερ" if facts.error else "", hardware=tuple("χ" for _ in facts.hardware),
        models=tuple("μ" for _ in facts.models), parallel=tuple("π" for _ in facts.parallel),
        version="1.2" if facts.version else "", worked_in="1.1" if facts.worked_in else "",
        figure="φ" if facts.figure else "", first_reply="ρ" if facts.first_reply else "",
        sentence="σ" if facts.sentence else "",
    )


def greek_reason(why: Reason | None) -> Reason | None:
    match why:
        case Merged(signals=signals) | InReview(signals=signals):
            return type(why)(tuple(structs.replace(s, value="ζ" if s.value else "") for s in signals))
        case InTopic(evidence=evidence):
            return InTopic(_greek_evidence(evidence))
        case QueryMatch(terms=terms):
            return QueryMatch(tuple(
                structs.replace(term, value="η" if term.value else "", evidence=_greek_evidence(term.evidence))
                for term in terms
            ))
        case Hot() | NewBug() | Listed() | Active() | None:
            return why
    raise AssertionError(f"a kind of reason this test does not know: {why!r}")


def _greek_evidence(evidence: tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    return tuple(structs.replace(found, value="θ") for found in evidence)


def greek_digest(digest: Digest) -> Digest:
    """``digest`` with GitHub's text Greek everywhere: what stays Latin in its rendering is ours."""
    sections = tuple(
        structs.replace(section, items=tuple(greek_item(item) for item in section.items))
        for section in digest.sections
    )
    appendix = {key: tuple(greek_item(item) for item in items) for key, items in digest.appendix.items()}
    return structs.replace(digest, sections=sections, appendix=appendix)


def greek_query(result: QueryResult) -> QueryResult:
    """``result`` with the query and its items' GitHub text Greek (suggestions are ours: they stay)."""
    return structs.replace(result, query="λμ", items=tuple(greek_item(item) for item in result.items))


# --------------------------------------------------------------------------------------- strategies

GREEK_TEXT = st.text(st.characters(min_codepoint=0x3B1, max_codepoint=0x3C9), min_size=1, max_size=4)
EVIDENCE = st.builds(Evidence, st.sampled_from(("label", "tag", "title", "body", "body_lead")), GREEK_TEXT,
                     st.integers(0, 9))
TOPICS = st.sampled_from([TopicRef("rocm", "AMD / ROCm", "AMD / ROCm"),
                          TopicRef("moe", "Mixture of Experts", "MoE 混合专家"),
                          TopicRef("performance", "Performance", "性能")])


def greek_reasons() -> st.SearchStrategy[Reason]:
    """Reasons of every kind whose GitHub text is Greek: every Latin letter in their words is ours."""
    return st.one_of(
        st.builds(Hot, st.integers(0, 999), st.integers(0, 999), st.integers(0, 99), st.booleans(), st.booleans()),
        *(st.builds(reason, st.lists(st.one_of(
            st.builds(Signal, st.sampled_from(("tag", "label", "speedup")), GREEK_TEXT),
            st.builds(Signal, st.sampled_from(("bugfix", "breaking", "new_model", "feature", "hardware", "default",
                                               "speedup", "internal"))),
            st.builds(Signal, st.just("fix"), st.sampled_from(BUG_KINDS)),
            st.builds(Signal, st.sampled_from(("comments", "reactions", "areas", "lines", "files",
                                               "review_comments")), st.just(""), st.integers(0, 99)),
        ), max_size=5).map(tuple)) for reason in (Merged, InReview)),
        st.builds(NewBug, st.sampled_from(BUG_KINDS), st.integers(0, 99), st.integers(0, 99)),
        st.builds(InTopic, st.lists(EVIDENCE, min_size=1, max_size=4).map(tuple)),
        st.builds(Listed, st.sampled_from(("opened", "closed", "merged", "closed_unmerged"))),
        st.builds(QueryMatch, st.lists(st.one_of(
            st.builds(TermHit, st.sampled_from(("title", "label", "body")), GREEK_TEXT),
            st.builds(TermHit, st.just("topic"), st.just(""), TOPICS,
                      st.lists(EVIDENCE, min_size=1, max_size=3).map(tuple)),
        ), min_size=1, max_size=4).map(tuple)),
        st.builds(Active, st.sampled_from(("merged", "closed", "opened", "commented")), st.integers(0, 99)),
    )
