"""Slack Block Kit output: every payload valid and within limits, GitHub's text exact, nothing live from GitHub."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import structs
from slack_sdk.models.blocks import Block

from bot.model import Analysis, Digest, Evidence, Hot, InTopic, QueryResult, Section, Stats, Suggestion
from bot.model.edition import edit
from formatters.safety import one_line, text_size, valid_repo
from formatters.slack_blocks import render_slack_digest, render_slack_query
from tests.formatter_strategies import (
    INJECTIONS,
    UNICODE,
    WINDOW,
    assert_clean_cuts,
    digests,
    evil_reason,
    item,
    post_digest,
    query_results,
    short_text,
    small_digest,
)

TRY = (Suggestion("topic", "rocm"), Suggestion("wider_window", "7d"))  # what an empty answer suggests


# The only links we make: an https GitHub(-Enterprise) page of an issue or PR of the repository, or one of its
# issue/PR searches (the appendix's counts).
ITEM_LINK = r"https://(?:github\.com|ghe\.example\.com)/{repo}/(?:issues|pull)/[0-9]+"
SEARCH_LINK = r"https://(?:github\.com|ghe\.example\.com)/{repo}/(?:issues|pulls)\?q=[A-Za-z0-9%+._-]+"
LOOKALIKES = "\u2217\u02cd\u223c\u02cb"  # what Slack text used to carry instead of * _ ~ `


def inline_elements(payload: dict) -> list[dict]:
    """Every inline element of the payload's rich text blocks."""
    found = []
    for block in payload["blocks"]:
        if block["type"] != "rich_text":
            continue
        for part in block["elements"]:
            sections = part["elements"] if part["type"] == "rich_text_list" else [part]
            for section in sections:
                assert section["type"] == "rich_text_section"
                found += section["elements"]
    return found


def rich_lines(payload: dict) -> list[str]:
    """What Slack displays of each rich text line (a heading, a bullet): its elements' text, concatenated."""
    lines = []
    for block in payload["blocks"]:
        if block["type"] != "rich_text":
            continue
        for part in block["elements"]:
            sections = part["elements"] if part["type"] == "rich_text_list" else [part]
            lines += ["".join(element["text"] for element in section["elements"]) for section in sections]
    return lines


def text_objects(payload: dict) -> list[tuple[str, str]]:
    """(type, text) of the mrkdwn and plain_text Slack shows: fallback, header, section text and fields, context."""
    found = [("mrkdwn", payload["text"])]
    for block in payload["blocks"]:
        if block["type"] == "rich_text":
            continue
        for part in (block.get("text"), *block.get("fields", ()), *block.get("elements", ())):
            if isinstance(part, dict):
                found.append((part["type"], part["text"]))
    return found


def texts(payload: dict) -> list[str]:
    return [text for _, text in text_objects(payload)] + rich_lines(payload)


def links(payload: dict) -> list[str]:
    return [element["url"] for element in inline_elements(payload) if element["type"] == "link"]


def check_payload(payload: dict) -> None:
    assert set(payload) == {"text", "blocks", "unfurl_links", "unfurl_media"}
    assert 0 < len(payload["text"]) <= 300
    blocks = payload["blocks"]
    assert 0 < len(blocks) <= 50
    for block in blocks:
        parsed = Block.parse(block)
        assert parsed is not None and parsed.type == block["type"], block
        parsed.validate_json()  # raises SlackObjectFormationError on a broken block
        if block["type"] == "section":
            assert "text" in block or "fields" in block
            if "text" in block:
                assert 0 < len(block["text"]["text"]) <= 3000
            assert len(block.get("fields", ())) <= 10
            assert all(0 < len(field["text"]) <= 2000 for field in block.get("fields", ()))
        if block["type"] == "header":
            assert 0 < len(block["text"]["text"]) <= 150
        if block["type"] == "context":
            assert 0 < len(block["elements"]) <= 10
        if block["type"] == "rich_text":
            assert block["elements"] and all(part["elements"] for part in block["elements"])
            size = sum(text_size(e["text"]) + len(e.get("url", "")) for e in inline_elements({"blocks": [block]}))
            assert size <= 3000
    for block in blocks:  # ours are always verbatim: Slack must not link or mention on its own
        for part in (block.get("text"), *block.get("fields", ()), *block.get("elements", ())):
            if isinstance(part, dict) and part["type"] == "mrkdwn":
                assert part["verbatim"] is True
    for element in inline_elements(payload):
        assert element["type"] in ("text", "link") and element["text"], element  # Slack refuses empty text
    size = sum(text_size(text) for _, text in text_objects(payload))
    size += sum(text_size(e["text"]) + len(e.get("url", "")) for e in inline_elements(payload))
    assert size <= 8000
    json.dumps(payload)


def check_safe(payload: dict, repo: str) -> None:
    """mrkdwn and plain text carry no live markup of GitHub's; rich text carries no element but text and our
    links (a user, channel, broadcast or usergroup mention is an element of its own in rich text, and we make
    none), and GitHub's text there is shown as is."""
    ours = re.compile("|".join(pattern.format(repo=re.escape(repo)) for pattern in (ITEM_LINK, SEARCH_LINK)))
    for url in links(payload):
        assert ours.fullmatch(url), url
    for kind, text in text_objects(payload):
        assert_clean_cuts(text)
        assert "<" not in text, text  # so no <!channel>, <@U…>, <!subteam^…>, <url|text> of GitHub's
        assert not re.search(r"@(everyone|here|channel)", text, re.IGNORECASE), text
        assert "://" not in text, text  # no URL from GitHub for Slack to link
        if kind == "mrkdwn":  # plain_text shows "&" as is; in mrkdwn every "&" must be an entity we wrote
            assert not re.search(r"&(?!amp;|lt;|gt;)", text), text
    for line in rich_lines(payload):
        assert_clean_cuts(line)
        assert not set(LOOKALIKES) & set(line), line


def all_text(payloads: list[dict]) -> str:
    return "\n".join(text for payload in payloads for text in texts(payload))


def numbers(payload: dict) -> list[int]:
    """The items a payload shows, by the linked (or bare) number that starts each bullet, in order."""
    found = []
    for block in payload["blocks"]:
        for part in block.get("elements", ()) if block["type"] == "rich_text" else ():
            for line in part["elements"] if part["type"] == "rich_text_list" else ():
                first = line["elements"][0]["text"]
                if re.fullmatch(r"#\d+", first):
                    found.append(int(first[1:]))
    return found


# ----------------------------------------------------------------------------------------- the chat post


def test_the_channel_message_is_the_digest_and_the_thread_has_three_replies() -> None:
    payloads = render_slack_digest(post_digest())
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    channel, replies = payloads[0], payloads[1:]
    head = all_text([channel])
    assert channel["blocks"][0]["type"] == "header" and "o/r daily digest" in channel["blocks"][0]["text"]["text"]
    assert "2025-12-01 11:05 → 2025-12-02 11:05 (Asia/Shanghai)" in head and "▂▄▁█▃▆▅" in head
    assert channel["blocks"][2]["fields"][0]["text"] == "*New issues*\n9"
    assert "📝 Busy day: 9 new issues. `fused_moe` and *ROCm* lead." in head  # the summary, exact
    lines = rich_lines(channel)
    order = [lines.index(h) for h in ("🏷️ AMD / ROCm · 4 of 8", "🏷️ Quantization (2)", "🔥 Hot discussions · 4 of 5",
                                      "🛠️ Key changes (4)", "⚠️ Notable issues (2)")]
    assert order == sorted(order)  # counts, summary, followed topics, hot, key changes, notable
    assert "#20 Hot thread 20 — 20 new comments" in lines  # why it is hot, in one line
    assert "#5 [ROCm] fused_moe hangs on MI300X — hang · 30 new comments" in lines  # what else it is
    assert "#13 [Quant] AWQ on gfx942 — new issue" in lines  # a topic's item says what happened to it
    assert "#26 [Core] New scheduler — in review" in lines and "#24 [Model] Add Gemma 4 — merged" in lines
    assert "#27 [Bug] Segfault in tokenizer — crash" in lines
    assert "also here: #5 (in AMD / ROCm)" in lines  # hot and notable point at #5's one entry
    assert "Qwen" not in head  # not followed: one line in the thread's topic index, no section
    assert "🧵 In the thread" in head
    assert len(replies) == 3  # the followed topics' next entries, themes and activity, the appendix
    assert numbers(replies[0]) == [9, 10] and rich_lines(replies[0])[0] == "🏷️ AMD / ROCm (continued)"
    assert rich_lines(replies[0])[-1] == "…and 2 more"
    assert "12 contributors" in all_text([replies[1]]) and "Other topics: Qwen 1" in rich_lines(replies[1])
    assert [p["text"] for p in replies] == [f"o/r daily digest, part {n} of 3" for n in (1, 2, 3)]


def test_each_item_appears_once_where_it_ranks_best() -> None:
    payloads = render_slack_digest(post_digest())
    shown = [number for payload in payloads[:-1] for number in numbers(payload)]  # the appendix lists counts only
    assert sorted(shown) == sorted(set(shown))  # once in the whole post
    channel = numbers(payloads[0])
    # #5 ranks first in ROCm, hot and notable: its entry is in the reader's topic; hot takes its next three
    assert channel[:3] == [5, 7, 8] and channel[3:5] == [6, 13]  # #6: first in Quantization, second in ROCm
    assert channel[5:8] == [20, 21, 22] and channel[8:11] == [24, 25, 26] and channel[11:] == [27]


def test_no_why_lines_in_the_post() -> None:
    text = all_text(render_slack_digest(post_digest()))
    for debug in ("label rocm", "tag [rocm]", "title: ROCm", "new bug:", "merged:"):
        assert debug not in text, debug


def test_the_appendix_links_each_count_to_its_github_search() -> None:
    appendix = render_slack_digest(post_digest())[-1]
    lines = rich_lines(appendix)
    assert lines[1:] == ["New issues: 9", "Closed issues: 0", "New PRs: 0", "Merged PRs: 3", "Closed unmerged PRs: 0"]
    urls = links(appendix)
    assert urls[0] == ("https://github.com/o/r/issues?q=is%3Aissue+created%3A"
                       "2025-12-01T03%3A05%3A00Z..2025-12-02T03%3A05%3A00Z")
    queries = [parse_qs(urlsplit(url).query)["q"][0] for url in urls]
    assert queries == [
        f"{what} 2025-12-01T03:05:00Z..2025-12-02T03:05:00Z".replace(" 2025", "2025")
        for what in ("is:issue created:", "is:issue closed:", "is:pr created:", "is:pr merged:",
                     "is:pr is:unmerged closed:")
    ]
    assert [urlsplit(url).path for url in urls] == ["/o/r/issues"] * 2 + ["/o/r/pulls"] * 3


def test_the_full_thread_setting_adds_every_appendix_item() -> None:
    short, full = render_slack_digest(post_digest()), render_slack_digest(post_digest(thread="full"))
    assert short[:3] == full[:3]  # same channel message, topics and trends
    for payload in full:
        check_payload(payload)
        check_safe(payload, "o/r")
    appendix = all_text(full[3:])
    assert "Full appendix · New issues (9)" in appendix and "Full appendix · Closed issues (0)" in appendix
    assert sorted(number for payload in full[3:] for number in numbers(payload)) == sorted(
        [5, 7, 8, 9, 10, 11, 12, 13, 27, 6, 24, 25])
    assert render_slack_digest(post_digest(thread="full"), thread="short") == short  # the parameter wins


def test_titles_read_exactly_as_on_github() -> None:
    payloads = render_slack_digest(post_digest())
    elements = [e["text"] for payload in payloads for e in inline_elements(payload)]
    assert "[ROCm] fused_moe hangs on MI300X" in elements and "Faster ROCm fp8 `scaled_mm`" in elements
    assert not any(set(LOOKALIKES) & set(text) for payload in payloads for text in texts(payload))


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("en", ["daily digest", "Hot discussions", "Key changes", "Appendix", "New issues", "3 new comments"]),
        ("zh-CN", ["开发动态报告", "高热度讨论", "重点技术变更", "附录", "新 Issue", "3 条新评论"]),
    ],
)
def test_small_digest_reads_well_in_both_locales(locale: str, names: list[str]) -> None:
    payloads = render_slack_digest(small_digest(locale))
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    everything = all_text(payloads)
    for name in names:
        assert name in everything, name
    channel = payloads[0]
    assert numbers(channel) == [1, 2, 3, 20]  # top 3 hot; #20 is a key change (no followed topic here)
    assert len(payloads) == 3  # no followed topic: the topic index (ROCm), then the appendix
    assert "ROCm 1" in all_text([payloads[1]])


def test_locale_and_timezone_parameters_override_the_digest() -> None:
    payloads = render_slack_digest(small_digest("en"), locale="zh-CN", timezone="UTC")
    text = all_text(payloads)
    assert "高热度讨论" in text and "Hot discussions" not in text
    assert "2025-12-01 03:05 → 2025-12-02 03:05 (UTC)" in text


def test_empty_digest_still_has_a_headline_and_an_appendix() -> None:
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=())
    payloads = render_slack_digest(digest)
    assert len(payloads) == 2
    for payload in payloads:
        check_payload(payload)
    text = all_text(payloads)
    assert "No hot discussions" in text and "New issues: 0" in text and "Activity" not in text


def test_injection_in_every_field_comes_out_inert_and_exact() -> None:
    evil = "<!channel> <!here> @everyone <@U123> <!subteam^S1> <http://evil|click> *bold* _it_ ~s~ `c` & ```"
    bad = item(
        7, evil, author="<@U1>", labels=(evil,), summary=evil, why=evil_reason(evil), url="http://evil.example/o/r/issues/7"
    )
    digest = structs.replace(small_digest(), sections=(Section("hot", evil, (bad,)),),
                                 appendix={"new_issues": (bad,)}, thread="full")
    payloads = render_slack_digest(digest)
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    assert "https://github.com/o/r/issues/7" in links(payloads[0])  # our own link, not the item's URL
    assert evil in [e["text"] for e in inline_elements(payloads[0])]  # shown as it is, in a text element
    assert any(line.startswith(f"#7 {evil} · @<@U1>") for line in rich_lines(payloads[-1]))


def test_links_only_to_the_repository() -> None:
    ghe = item(1, url="https://GHE.example.com/o/r/pull/1", kind="pr")
    other = item(2, url="https://github.com/evil/r/issues/2")
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(Section("hot", "", (ghe, other)),))
    payloads = render_slack_digest(digest)
    urls = [url for payload in payloads for url in links(payload)]
    assert "https://ghe.example.com/o/r/pull/1" in urls and "https://github.com/o/r/issues/2" in urls
    assert not any("evil" in url for url in urls)
    assert all(url.startswith("https://ghe.example.com/o/r/") for url in links(payloads[-1]))  # searches too
    no_repo = structs.replace(digest, repo="not a repo")
    assert not [url for payload in render_slack_digest(no_repo) for url in links(payload)]


def test_when_the_channel_message_is_full_it_shows_fewer_items_never_a_cut_title() -> None:
    long = "長い标题 fused_moe " * 14  # 252 characters: as long as GitHub allows
    tagged = InTopic((Evidence("tag", "t"),))
    topics = tuple(
        Section.for_topic(f"t{k}", f"Topic {k}", tuple(item(100 * k + n, f"{long}{n}", why=tagged) for n in range(12)))
        for k in range(1, 13)
    )
    hot = Section.builtin("hot", tuple(item(n, f"{long}{n}", why=Hot(9)) for n in range(1, 6)))
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(), sections=(*topics, hot),
                    followed=tuple(f"t{k}" for k in range(1, 13)))
    payloads = render_slack_digest(digest)
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
    channel = payloads[0]
    assert 0 < len(numbers(channel)) < 3 + 12 * 3  # fewer items than the editor's page would show …
    titles = [e["text"] for e in inline_elements(channel) if e["text"].startswith(long)]
    assert titles and all(re.fullmatch(re.escape(long) + r"\d+", title) for title in titles)  # … all whole
    assert len(payloads) <= 4  # still one message per part of the thread
    # the post is the page's top part: entries of the page, each once, the channel message's fewer than the post's
    posted = [n for payload in payloads[:-1] for n in numbers(payload)]
    page = {n for section in edit(digest).sections() for n in section.entries}
    assert len(posted) == len(set(posted)) and set(posted) <= page and len(posted) < len(page)
    in_thread = [e["text"] for p in payloads[1:] for e in inline_elements(p) if e["text"].startswith(long)]
    assert all(re.fullmatch(re.escape(long) + r"\d+", title) for title in in_thread)


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=150, deadline=None)
@given(st.one_of(short_text, st.lists(st.sampled_from(INJECTIONS + UNICODE), max_size=12).map("".join)))
def test_a_hostile_title_is_shown_exactly_and_makes_no_element_of_its_own(title: str) -> None:
    """What Slack displays of an item line (its elements' text) is the title as GitHub shows it: the same
    characters, on one line (no control or bidi-override character), never restyled; and nothing in it becomes a
    mention, broadcast, usergroup or foreign link."""
    hot = structs.replace(item(7, why=Hot(3)), title=title)
    digest = Digest(repo="o/r", window=WINDOW, stats=Stats(new_issues=1), sections=(Section.builtin("hot", (hot,)),),
                    appendix={"new_issues": (hot,)}, thread="full")
    payloads = render_slack_digest(digest)
    shown = one_line(title) or "(no title)"
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, "o/r")
        for element in inline_elements(payload):
            if element["type"] == "link":
                assert element["url"] == "https://github.com/o/r/issues/7" or "/o/r/" in element["url"]
    channel_lines = [line for line in rich_lines(payloads[0]) if line.startswith("#7 ")]
    assert channel_lines == [f"#7 {shown} — 3 new comments"]
    appendix_lines = [line for line in rich_lines(payloads[-1]) if line.startswith("#7 ")]
    assert appendix_lines == [f"#7 {shown} · @alice · bug, rocm · 12-01 13:05"]
    if title == one_line(title) and title:
        assert f"#7 {title} — 3 new comments" in channel_lines  # a one-line title: itself, exactly


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(digests())
def test_any_digest_renders_within_limits_safely_and_completely(digest: Digest) -> None:
    payloads = render_slack_digest(digest, section_limit=10)
    for payload in payloads:
        check_payload(payload)
        check_safe(payload, digest.repo)
    shown = [number for payload in payloads[:-1] for number in numbers(payload)]
    if digest.thread == "short":
        assert len(payloads) <= 4  # the channel message and at most three replies
        assert sorted(shown) == sorted(set(shown))  # each item once in the post
    else:
        text = all_text(payloads[1:])
        for items in digest.appendix.values():  # every appendix item
            for entry in items:
                assert f"#{entry.number} " in text, entry.number
    appendix = next(payload for payload in payloads[1:]
                    if any(line.startswith("📎") for line in rich_lines(payload)[:1]))
    counts = rich_lines(appendix)[1:6]
    assert [re.split("[:：] ?", line)[-1] for line in counts] == [str(v) for v in digest.stats.as_dict().values()]
    assert len(links(appendix)) >= (5 if valid_repo(digest.repo) else 0)


# -------------------------------------------------------------------------------------------- queries


def test_query_groups_in_order_with_more_per_group() -> None:
    found = (
        item(1, kind="pr", state="merged"), item(2, state="new"), item(3, kind="pr", state="new"),
        item(4, state="open"), item(5, state="closed"), item(6, kind="pr", state="closed"), item(7, state="new"),
    )
    result = QueryResult(repo="o/r", query="rocm", window=WINDOW, items=found, topic_title="ROCm")
    (payload,) = render_slack_query(result, limit=4)
    check_payload(payload)
    check_safe(payload, "o/r")
    text = all_text([payload])
    order = [text.index(name) for name in ("New issues (2)", "New PRs (1)", "Merged PRs (1)", "Active (1)",
                                           "Closed issues (1)", "Closed PRs (1)")]
    assert order == sorted(order)
    assert numbers(payload) == [2, 3, 1, 4]
    # #7 under new issues; #5 and #6, whose groups show nothing, in one line after the groups (no heading)
    assert text.count("…and 1 more") == 1 and "…and 2 more: Closed issues (1), Closed PRs (1)" in text
    assert "4 of 7 items" in text and "Topic: ROCm" in text
    line = "#2 Crash 2 — new issue · by @alice · 🏷️ bug, rocm\n↳ The engine crashes on load. · 3 new comments"
    assert line in text


def test_query_with_no_results_says_so_with_window_and_suggestions() -> None:
    result = QueryResult(
        repo="o/r", query="<!channel> rocm", window=WINDOW, items=(), suggestions=TRY,
        locale="zh-CN",
    )
    (payload,) = render_slack_query(result)
    check_payload(payload)
    check_safe(payload, "o/r")
    text = all_text([payload])
    assert "没有与“<!channel> rocm”匹配的内容" in text  # exact, in a text element: nobody is notified
    assert "2025-12-01 11:05 至 2025-12-02 11:05" in text
    assert "主题 rocm · 放宽时间范围，例如 7d" in text


def test_a_big_query_answer_is_still_one_message() -> None:
    long_reason = InTopic((Evidence("body", "z" * 500),))
    found = tuple(item(n, "x" * 5000, summary="y" * 5000, why=long_reason) for n in range(1, 400))
    result = QueryResult(repo="o/r", query="q", window=WINDOW, items=found)
    (payload,) = render_slack_query(result, limit=400)
    check_payload(payload)
    shown = len(numbers(payload))
    assert 0 < shown < 399 and f"…and {399 - shown} more" in all_text([payload])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(query_results())
def test_any_query_answer_is_one_valid_safe_message(result: QueryResult) -> None:
    payloads = render_slack_query(result, limit=10)
    assert len(payloads) == 1
    check_payload(payloads[0])
    check_safe(payloads[0], result.repo)
    shown = len(numbers(payloads[0]))
    hidden = sum(int(n) for n in re.findall(r"(?:and|另有) (\d+) (?:more|项)", all_text(payloads)))
    assert shown + hidden == len(result.items) and shown <= 10  # nothing vanishes without a count


def test_the_llms_analysis_reaches_the_chat_reader_in_one_line_and_the_page_in_full() -> None:
    """Each hot discussion and key change shown in the post carries its accepted analysis, one line (🤖)."""
    from formatters.discord_embeds import render_discord_digest
    from formatters.html import render_html

    digest = post_digest()
    said = {20: Analysis(question="Is the fix safe?", positions="@bob wants a flag", status="Waiting for a repro."),
            24: Analysis(impact="Gemma 4 serves out of the box.")}
    sections = tuple(structs.replace(section, items=tuple(
        structs.replace(i, analysis=said.get(i.number)) if section.kind in ("hot", "key_changes") else i
        for i in section.items)) for section in digest.sections)
    digest = structs.replace(digest, sections=sections)
    lines = rich_lines(render_slack_digest(digest)[0])
    assert "#20 Hot thread 20 — 20 new comments\n🤖 Waiting for a repro." in lines
    assert "#24 [Model] Add Gemma 4 — merged\n🤖 Gemma 4 serves out of the box." in lines
    discord = " ".join(e.get("description", "") for e in render_discord_digest(digest)[0]["embeds"])
    assert "\n   🤖 Waiting for a repro." in discord and "\n   🤖 Gemma 4 serves out of the box." in discord
    page = render_html(digest)
    for text in ("Is the fix safe?", "@bob wants a flag", "Waiting for a repro.", "Gemma 4 serves out of the box."):
        assert text in page, text
