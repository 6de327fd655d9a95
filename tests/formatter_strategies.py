"""Hypothesis strategies for the formatters: hostile, huge and multilingual digests and query results."""

from __future__ import annotations

import typing
from datetime import UTC, datetime, timedelta

from hypothesis import strategies as st
from msgspec import structs

from bot.model import (
    BUG_KINDS,
    STAT_KEYS,
    Active,
    Activity,
    Analysis,
    AnswerNote,
    AnswerNoteKind,
    Digest,
    DigestItem,
    Evidence,
    Hot,
    InReview,
    InTopic,
    Listed,
    Merged,
    Narrative,
    NewBug,
    QueryMatch,
    QueryResult,
    Reason,
    Section,
    Signal,
    Stats,
    Suggestion,
    TermHit,
    TopicRef,
    Trend,
    Window,
)

START = datetime(2025, 12, 1, 3, 5, tzinfo=UTC)
WINDOW = Window(START, START + timedelta(days=1), "Asia/Shanghai")

# Text that tries to notify, link or restyle on Slack, Discord or Markdown.
INJECTIONS = (
    "@everyone", "@here", "@channel", "@Everyone", "<!channel>", "<!here>", "<!everyone>", "<@U123>",
    "<@!123456789012345678>", "<@&123456789012345678>", "@123456789012345678", "<#123456789012345678>",
    "<!subteam^S1>", "<http://evil|click>", "<https://evil.example>", "[x](http://evil)", "[x](<http://evil>)",
    "](http://evil)", "***", "```", "`", "~~", "__", "_", "*", "||", "\\", "&", "&amp;", "&lt;!channel&gt;",
    "<", ">", "# ", "-# ", "- ", "> ", "1. ", ":smile:", "http://evil.example/a_b", "www.evil.example",
    "<t:1:R>", "</cmd:1>", "<:e:123456789012345678>", "|", "\n", "\r\n", "\t",
)
# Text that is hard to cut or to measure.
UNICODE = (
    "👩‍👩‍👧‍👦", "👍🏽", "🇺🇸", "🇺🇸🇫🇷🇩🇪", "🏳️‍🌈", "❤️", "1️⃣", "e\u0301", "क्षि", "中文标题很长的一段文字",
    "한국어", "עברית", "مرحبا", "\u202e", "\u200f", "\u2066", "\u200b", "\x00", "\x1b[31m", "\x7f",
    "\ud83d", "\u2028", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
)  # no "…" on purpose: every ellipsis in an output is then one the renderer made

# (not the lookalikes Slack text once carried for * _ ~ `: the Slack tests check none appears)
fragment = st.one_of(st.sampled_from(INJECTIONS + UNICODE),
                    st.text(st.characters(exclude_characters="\u2217\u02cd\u223c\u02cb"), max_size=12))
short_text = st.lists(fragment, max_size=6).map("".join)


@st.composite
def long_text(draw: st.DrawFn) -> str:
    """0..10,000 characters: mostly short, sometimes a pattern repeated up to the maximum."""
    base = draw(st.lists(fragment, max_size=10).map("".join))
    if base and draw(st.booleans()):
        base *= draw(st.integers(1, 10_000 // len(base) + 1))
    return base[:10_000]


def good_url(repo: str, number: int, kind: str) -> str:
    return f"https://github.com/{repo}/{'pull' if kind == 'pr' else 'issues'}/{number}"


URL_KINDS = ("good", "ghe", "evil", "other_repo", "empty", "breakout", "wrong_number")


def make_url(style: str, repo: str, number: int, kind: str) -> str:
    path = f"{repo}/{'pull' if kind == 'pr' else 'issues'}/{number}"
    return {
        "good": good_url(repo, number, kind),
        "ghe": f"https://ghe.example.com/{path}",
        "evil": "javascript:alert(1)",
        "other_repo": f"https://github.com/evil/repo/issues/{number}",
        "empty": "",
        "breakout": f"https://github.com/{path}|<!channel>)",
        "wrong_number": f"https://github.com/{repo}/issues/{number + 1}",
    }[style]


counts = st.integers(0, 10**6)
evidence = st.builds(
    Evidence, st.sampled_from(("label", "tag", "title", "body", "body_lead", "author")), short_text, st.integers(0, 12)
)
topic_refs = st.builds(TopicRef, short_text, short_text, st.one_of(st.none(), short_text))
# Every kind of reason, with GitHub's text (labels, tags, the words matched) as hostile as the rest.
reasons: st.SearchStrategy[Reason] = st.one_of(
    st.builds(Hot, counts, counts, counts, st.booleans(), st.booleans()),
    *(st.builds(reason, st.lists(st.one_of(
        st.builds(Signal, st.sampled_from(("tag", "label", "speedup")), short_text),
        st.builds(Signal, st.sampled_from(("bugfix", "breaking", "new_model", "feature", "hardware", "default",
                                           "speedup", "internal"))),
        st.builds(Signal, st.just("fix"), st.sampled_from(BUG_KINDS)),
        st.builds(Signal, st.sampled_from(("comments", "reactions", "areas", "lines", "files", "review_comments")),
                  st.just(""), counts),
    ), max_size=6).map(tuple)) for reason in (Merged, InReview)),
    st.builds(NewBug, st.sampled_from(BUG_KINDS), counts, counts),
    st.builds(InTopic, st.lists(evidence, max_size=4).map(tuple)),
    st.builds(Listed, st.sampled_from(("opened", "closed", "merged", "closed_unmerged"))),
    st.builds(QueryMatch, st.lists(st.one_of(
        st.builds(TermHit, st.sampled_from(("title", "label", "body")), short_text),
        st.builds(TermHit, st.just("topic"), st.just(""), topic_refs, st.lists(evidence, max_size=3).map(tuple)),
    ), max_size=4).map(tuple)),
    st.builds(Active, st.sampled_from(("merged", "closed", "opened", "commented")), counts),
)


def evil_reason(text: str) -> Reason:
    """A reason that carries ``text`` in every place GitHub's own text can be."""
    return QueryMatch((
        TermHit("title", text),
        TermHit("topic", topic=TopicRef(text, text, text),
                evidence=tuple(Evidence(source, text, 2) for source in ("label", "tag", "title", "body", "body_lead"))),
        TermHit("label", text),
    ))


@st.composite
def items(draw: st.DrawFn, repo: str = "o/r") -> DigestItem:
    kind = draw(st.sampled_from(("issue", "pr", "pr", "discussion")))
    return DigestItem(
        number=1,  # renumbered by ``item_lists`` so every item is distinct
        kind=kind,
        title=draw(long_text()),
        url=draw(st.sampled_from(URL_KINDS)),  # a style; ``item_lists`` turns it into a URL
        author=draw(st.one_of(st.sampled_from(("alice", "everyone", "here", "dependabot[bot]", "")), short_text)),
        labels=tuple(draw(st.lists(short_text, max_size=8))),
        summary=draw(long_text()),
        why=draw(st.one_of(st.none(), reasons)),
        state=draw(st.sampled_from(("new", "merged", "closed", "open", "<@U1>"))),
        event_time=draw(st.one_of(st.none(), st.just(START + timedelta(hours=3)))),
        comments_in_window=draw(st.integers(0, 50)),
        streak_days=draw(st.one_of(st.none(), st.integers(1, 15))),
        analysis=draw(st.one_of(st.none(), analyses())),
    )


@st.composite
def analyses(draw: st.DrawFn) -> Analysis:
    """What an LLM might write: anything, up to the analyst's caps (300 a field) and sometimes far beyond."""
    text = st.one_of(short_text, long_text())
    return Analysis(question=draw(text), positions=draw(text), status=draw(text), impact=draw(text))


@st.composite
def narratives(draw: st.DrawFn, sections: list[Section]) -> Narrative:
    trends = []
    for section in sections:
        if section.id.startswith("topic:") and draw(st.booleans()):
            trends.append(Trend(
                topic=section.id.removeprefix("topic:"),
                title=section.title,
                count=len(section.items),
                baseline=draw(st.sampled_from((None, 0.0, 0.5, 3.25, 1e6))),
                window_days=draw(st.sampled_from((1.0, 0.5, 7.0))),
                items=tuple(item.number for item in section.items[:3]),
            ))
    trends += [Trend("ghost", draw(short_text), 5, 1.0, (1, 2, 3))] * draw(st.integers(0, 9))  # no such section
    activity = Activity(
        contributors=draw(st.integers(0, 10**6)),
        first_time_contributors=draw(st.integers(0, 10**6)),
        merge_rate=draw(st.one_of(st.none(), st.floats(0, 100))),
        median_hours_to_merge=draw(st.one_of(st.none(), st.floats(0, 10**5))),
    )
    return Narrative(
        summary=draw(long_text()),
        trends=tuple(trends),
        activity=activity,
        summary_source=draw(st.sampled_from(("template", "llm"))),
    )


@st.composite
def item_lists(draw: st.DrawFn, repo: str, first: int, max_size: int = 600) -> tuple[DigestItem, ...]:
    """Up to ``max_size`` items: a few drawn ones repeated (cheap), numbered ``first``, ``first + 1``, …"""
    pool = draw(st.lists(items(), min_size=1, max_size=4))
    count = draw(st.one_of(st.integers(0, 12), st.integers(0, max_size)))
    made = []
    for offset in range(count):
        template = pool[offset % len(pool)]
        number = first + offset
        url = make_url(template.url, repo, number, template.kind)
        made.append(structs.replace(template, number=number, url=url))
    return tuple(made)


REPOS = ("o/r", "vllm-project/vllm", "o/r_x.y-z", "<!channel>/x", "a/b|c>", "o/[x](http://evil)")
SECTION_IDS = ("topic:rocm", "topic:<@U1>", "hot", "key_changes", "notable")


@st.composite
def digests(draw: st.DrawFn, max_items: int = 600) -> Digest:
    repo = draw(st.sampled_from(REPOS))
    ids = draw(st.lists(st.sampled_from(SECTION_IDS), unique=True, max_size=5))
    sections = []
    for index, section_id in enumerate(ids):
        section_items = draw(item_lists(repo, first=100_000 * (index + 1), max_size=max_items))
        sections.append(Section(section_id, draw(short_text), section_items))
    appendix = {}
    for index, key in enumerate(draw(st.lists(st.sampled_from((*STAT_KEYS, "other")), unique=True))):
        appendix[key] = draw(item_lists(repo, first=1_000_000 * (index + 1), max_size=max_items))
    return Digest(
        repo=repo,
        window=Window(START, START + timedelta(days=1), draw(st.sampled_from(("UTC", "Asia/Shanghai")))),
        stats=Stats(*draw(st.lists(st.integers(0, 10**6), min_size=5, max_size=5))),
        sections=tuple(sections),
        appendix=appendix,
        locale=draw(st.sampled_from(("en", "zh-CN"))),
        daily_activity=tuple(draw(st.lists(st.integers(0, 10**6), max_size=7))),
        narrative=draw(st.one_of(st.none(), narratives(sections))),
        # the reader follows some of its topics (and one it does not have today), in any order
        followed=tuple(draw(st.lists(
            st.sampled_from([*(s.topic for s in sections if s.topic), "ghost"]), unique=True, max_size=3,
        ))),
        thread=draw(st.sampled_from(("short", "full"))),
    )


@st.composite
def query_results(draw: st.DrawFn) -> QueryResult:
    repo = draw(st.sampled_from(REPOS))
    return QueryResult(
        repo=repo,
        query=draw(long_text()),
        window=Window(START, START + timedelta(days=1), "Asia/Shanghai"),
        items=draw(item_lists(repo, first=1, max_size=300)),
        topic=draw(st.one_of(st.none(), short_text)),
        topic_title=draw(st.one_of(st.none(), short_text)),
        suggestions=tuple(draw(st.lists(st.builds(Suggestion, st.sampled_from(("topic", "wider_window", "label")),
                                                  short_text), max_size=4))),
        locale=draw(st.sampled_from(("en", "zh-CN"))),
        reading=draw(st.sampled_from(("all_words", "most_words", "topic"))),
        notes=tuple(draw(st.lists(st.builds(AnswerNote, st.sampled_from(typing.get_args(AnswerNoteKind)), short_text,
                                            short_text), max_size=3))),
    )


def assert_clean_cuts(text: str) -> None:
    """No lone surrogate, and no ellipsis of ours right after half a ZWJ sequence (flags, conjuncts and the
    rest: ``test_formatters_safety`` checks cuts against known clusters)."""
    text.encode("utf-8")  # raises on a lone surrogate
    for index, char in enumerate(text):
        if char != "…" or index == 0:
            continue
        before = text[index - 1]
        assert before != "\u200d", text[max(0, index - 20) : index + 1]


# ------------------------------------------------------------------------------- hand-made, for readability


def item(number: int, title: str = "", kind: str = "issue", state: str = "new", **fields: object) -> DigestItem:
    values: dict = {
        "url": f"https://github.com/o/r/{'pull' if kind == 'pr' else 'issues'}/{number}",
        "author": "alice",
        "labels": ("bug", "rocm"),
        "summary": "The engine crashes on load.",
        "why": Hot(3),
        "event_time": START + timedelta(hours=2),
    }
    values.update(fields)
    return DigestItem(number=number, kind=kind, title=title or f"Crash {number}", state=state, **values)


def small_digest(locale: str = "en") -> Digest:
    """14 hot items (so "…and 4 more" at the default limit), one merged PR, an empty section, a sparkline."""
    hot = tuple(item(n, f"Crash when loading model {n}") for n in range(1, 15))
    merged = (item(20, "[ROCm] Fix fp8", kind="pr", state="merged"),)
    return Digest(
        repo="o/r",
        window=WINDOW,
        stats=Stats(new_issues=14, closed_issues=2, new_prs=3, merged_prs=1, closed_unmerged_prs=0),
        sections=(
            Section("topic:rocm", "ROCm", merged),
            Section("hot", "Hot discussions", hot),
            Section("key_changes", "Key changes", merged),
            Section("notable", "Notable issues", ()),
        ),
        appendix={"new_issues": hot, "closed_issues": hot[:2], "merged_prs": merged},
        locale=locale,
        daily_activity=(1, 3, 0, 7, 2, 5, 4),
    )


def post_digest(locale: str = "en", thread: str = "short") -> Digest:
    """A day where items compete for places in a chat post: #5 is in ROCm (label), hot and notable; #6 in ROCm
    (title only), Quantization (label) and key changes. The reader follows ROCm then Quantization; Qwen is not
    followed."""
    rocm = lambda n, source="tag": InTopic((Evidence(source, "rocm"),))  # noqa: E731
    hot_five = item(5, "[ROCm] fused_moe hangs on MI300X", why=rocm(5, "label"), labels=("rocm",))
    six = item(6, "Faster ROCm fp8 `scaled_mm`", kind="pr", state="merged", why=InTopic((Evidence("title", "ROCm"),)))
    rocm_items = (hot_five, six, *(item(n, f"[ROCm] Item {n}", why=rocm(n)) for n in range(7, 13)))
    quant = (structs.replace(six, why=InTopic((Evidence("label", "quantization"),))),
             item(13, "[Quant] AWQ on gfx942", why=InTopic((Evidence("tag", "quant"),))))
    hot = (structs.replace(hot_five, why=Hot(30, 4)),
           *(item(n, f"Hot thread {n}", why=Hot(40 - n)) for n in (20, 21, 22, 23)))
    key = (structs.replace(six, why=Merged()),
           item(24, "[Model] Add Gemma 4", kind="pr", state="merged", why=Merged()),
           item(25, "[Perf] 2x faster sampler", kind="pr", state="merged", why=Merged()),
           item(26, "[Core] New scheduler", kind="pr", state="open", why=Merged()))
    notable = (structs.replace(hot_five, why=NewBug("hang", 3)),
               item(27, "[Bug] Segfault in tokenizer", why=NewBug("crash")))
    sections = (
        Section.for_topic("rocm", "AMD / ROCm", rocm_items),
        Section.for_topic("quantization", "Quantization", quant),
        Section.for_topic("qwen", "Qwen", (item(20, "Hot thread 20", why=InTopic((Evidence("label", "qwen"),))),)),
        Section.builtin("hot", hot),
        Section.builtin("key_changes", key),
        Section.builtin("notable", notable),
    )
    everything = {entry.number: entry for section in sections for entry in section.items}
    return Digest(
        repo="o/r", window=WINDOW, stats=Stats(new_issues=9, merged_prs=3), sections=sections,
        appendix={"new_issues": tuple(everything[n] for n in (5, 7, 8, 9, 10, 11, 12, 13, 27)),
                  "merged_prs": tuple(everything[n] for n in (6, 24, 25))},
        locale=locale, daily_activity=(1, 3, 0, 7, 2, 5, 4), followed=("rocm", "quantization"),
        thread=thread,  # type: ignore[arg-type]
        narrative=Narrative(summary="Busy day: 9 new issues. `fused_moe` and *ROCm* lead.",
                            trends=(Trend("rocm", "AMD / ROCm", 8, 2.0, (5, 7, 8)),),
                            activity=Activity(contributors=12, first_time_contributors=2, merge_rate=0.5)),
    )
