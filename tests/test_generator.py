"""The synthetic vLLM-like tracker: determinism, GitHub-shaped payloads, consistency and realism."""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from datetime import UTC, datetime, timedelta, timezone
from itertools import islice

import pytest

from bot.demo.generator import SampleRepo, generate_repo

END = datetime(2025, 12, 2, 3, 5, tzinfo=UTC)
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
BOTS = ("dependabot[bot]", "github-actions[bot]", "mergify[bot]", "pre-commit-ci[bot]")

# The product's topic sections are tested against the sample, so each group must show up in titles.
# A trailing * allows more letters/digits (qwen* matches Qwen3); otherwise matches are on word boundaries.
TOPIC_GROUPS: dict[str, list[str]] = {
    "rocm": ["amd", "rocm", "hip", "mi300x", "mi325x", "mi355x", "gfx942", "gfx950", "gfx1100", "aiter",
             "rdna*"],
    "cuda": ["cuda", "nvidia", "blackwell", "hopper", "b200", "gb200", "h100", "sm90", "sm100"],
    "hardware": ["cpu", "arm", "aarch64", "tpu", "xpu", "gaudi", "hpu", "neuron"],
    "quantization": ["fp8", "mxfp4", "nvfp4", "awq", "gptq", "int4", "int8", "modelopt", "quark",
                     "bitsandbytes"],
    "moe": ["moe", "fused_moe", "expert parallel"],
    "spec_decode": ["eagle", "eagle3", "mtp", "n-gram", "suffix decoding", "draft model"],
    "multimodal": ["vision", "image", "audio", "video", "omni", "vlm", "qwen2.5-vl"],
    "models": ["qwen*", "deepseek*", "llama*", "gemma*", "mistral*", "gpt-oss*", "glm*", "minimax*", "kimi*"],
    "kernels": ["flashinfer", "flash-attention", "flashattention", "fa3", "triton", "cutlass", "mla"],
    "compile": ["torch.compile", "cuda graph*", "cudagraph*"],
    "distributed": ["tensor parallel", "tp", "pipeline parallel", "pp", "ep", "dp", "ray",
                    "disaggregated prefill", "p/d", "kv connector", "lmcache", "nixl", "offloading"],
    "frontend": ["openai", "chat completions", "responses api", "realtime", "websocket", "tool calling",
                 "structured output*", "guided decoding", "xgrammar", "reasoning parser"],
    "scheduler": ["prefix caching", "chunked prefill", "block manager", "preemption", "kv cache"],
    "ci_build": ["ci", "docker*", "wheel*", "build", "pre-commit"],
    "docs": ["doc", "docs", "documentation"],
    "performance": ["throughput", "latency", "ttft", "benchmark", "regression"],
    "stability": ["hang*", "deadlock", "stuck", "crash*", "segfault", "illegal memory access", "cuda error",
                  "oom", "out of memory", "nan", "wrong output", "accuracy drop", "regression"],
}
# Failure families every day of the window must bring fresh reports of.
DAILY_FAMILIES = {
    "hang": ["hang*", "stuck", "deadlock", "卡住", "卡死"],
    "crash": ["crash*", "segfault", "illegal memory access", "oom", "out of memory", "enginedeaderror",
              "device-side assert"],
    "regression": ["regression"],
    "wrong output": ["wrong output", "gibberish", "accuracy", "nan", "incorrect output", "repeated",
                     "batch invariance", "garbage output"],
}


def _rx(aliases: list[str]) -> re.Pattern[str]:
    parts = []
    for alias in aliases:
        tail = r"[a-z0-9]*" if alias.endswith("*") else r"(?![a-z0-9])"
        parts.append(r"(?<![a-z0-9])" + re.escape(alias.rstrip("*")) + tail)
    return re.compile("|".join(parts), re.IGNORECASE)


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _number(comment: dict) -> int:
    return int(comment["issue_url"].rsplit("/", 1)[1])


@pytest.fixture(scope="module")
def sample() -> SampleRepo:
    return generate_repo(end=END)  # the default size, as `digest-bot demo` uses it


@pytest.fixture(scope="module")
def small() -> SampleRepo:
    return generate_repo(end=END, days=3, seed=7)


# ---- determinism, shape --------------------------------------------------------------------------------


def test_same_arguments_same_output_and_seed_matters() -> None:
    a = generate_repo(end=END, days=2, items_per_day=60, comments_per_day=200, seed=3)
    b = generate_repo(end=END, days=2, items_per_day=60, comments_per_day=200, seed=3)
    c = generate_repo(end=END, days=2, items_per_day=60, comments_per_day=200, seed=4)
    assert a == b
    assert json.dumps(a.issues) == json.dumps(b.issues)
    assert [i["title"] for i in a.issues] != [i["title"] for i in c.issues]
    assert a.full_name == "vllm-project/vllm"


def test_json_serialisable(small: SampleRepo) -> None:
    assert json.loads(json.dumps(small.issues)) == small.issues
    assert json.loads(json.dumps(small.comments)) == small.comments


def test_issue_payload_shape(small: SampleRepo) -> None:
    api, web = "https://api.github.com/repos/vllm-project/vllm", "https://github.com/vllm-project/vllm"
    reaction_keys = {"url", "total_count", "+1", "-1", "laugh", "hooray", "confused", "heart", "rocket",
                     "eyes"}
    for issue in small.issues:
        n = issue["number"]
        is_pr = "pull_request" in issue
        assert issue["url"] == f"{api}/issues/{n}"
        assert issue["html_url"] == f"{web}/{'pull' if is_pr else 'issues'}/{n}"
        assert {"login", "id", "type", "html_url"} <= issue["user"].keys()
        assert issue["user"]["type"] in ("User", "Bot")
        assert issue["state"] in ("open", "closed")
        assert issue["author_association"] in (
            "MEMBER", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "NONE", "COLLABORATOR")
        assert isinstance(issue["locked"], bool) and isinstance(issue["assignees"], list)
        assert isinstance(issue["comments"], int) and isinstance(issue["id"], int)
        assert issue["body"] is None or isinstance(issue["body"], str)
        assert set(issue["reactions"]) == reaction_keys
        assert issue["reactions"]["total_count"] == sum(
            v for k, v in issue["reactions"].items() if k not in ("url", "total_count"))
        for label in issue["labels"]:
            assert {"id", "name", "color", "description"} <= label.keys()
            assert re.fullmatch(r"[0-9a-f]{6}", label["color"])
        for key in ("created_at", "updated_at"):
            assert TIME_RE.match(issue[key])
        assert issue["closed_at"] is None or TIME_RE.match(issue["closed_at"])
        if is_pr:
            pr = issue["pull_request"]
            assert issue["state_reason"] is None and isinstance(issue["draft"], bool)
            assert pr["url"] == f"{api}/pulls/{n}" and pr["html_url"] == f"{web}/pull/{n}"
            assert pr["diff_url"] == f"{web}/pull/{n}.diff" and pr["patch_url"] == f"{web}/pull/{n}.patch"
            assert pr["merged_at"] is None or TIME_RE.match(pr["merged_at"])
        else:
            assert issue["state_reason"] in (None, "completed", "not_planned")
            assert (issue["state_reason"] is None) == (issue["state"] == "open")


def test_comment_payload_shape(small: SampleRepo) -> None:
    api = "https://api.github.com/repos/vllm-project/vllm"
    numbers = {i["number"] for i in small.issues}
    for c in small.comments:
        cid = c["id"]
        assert c["url"] == f"{api}/issues/comments/{cid}"
        assert c["html_url"].endswith(f"/{_number(c)}#issuecomment-{cid}")
        assert c["issue_url"].startswith(f"{api}/issues/") and _number(c) in numbers
        assert TIME_RE.match(c["created_at"]) and TIME_RE.match(c["updated_at"])
        assert isinstance(c["body"], str) and c["body"]
        assert {"login", "id", "type", "html_url"} <= c["user"].keys()
        assert c["reactions"]["url"] == f"{api}/issues/comments/{cid}/reactions"


def test_no_nested_object_is_shared(small: SampleRepo) -> None:
    # Consumers may mutate what they receive (the fake GitHub bumps counters); sharing would leak changes.
    seen: set[int] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict | list):
            assert id(value) not in seen
            seen.add(id(value))
            for child in value.values() if isinstance(value, dict) else value:
                walk(child)

    walk(small.issues)
    walk(small.comments)


def test_custom_urls_and_names() -> None:
    repo = generate_repo(owner="acme", name="serve", end=END, days=1, items_per_day=20, comments_per_day=40,
                         api_url="https://ghe.example.com/api/v3/", html_url="https://ghe.example.com")
    assert repo.full_name == "acme/serve"
    api = "https://ghe.example.com/api/v3/repos/acme/serve/issues/"
    assert all(i["url"].startswith(api) for i in repo.issues)
    assert all(i["html_url"].startswith("https://ghe.example.com/acme/serve/") for i in repo.issues)
    assert all(c["issue_url"].startswith(api) for c in repo.comments)


def test_naive_end_is_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        generate_repo(end=datetime(2025, 12, 2))  # naive on purpose


def test_zero_days_is_empty() -> None:
    repo = generate_repo(end=END, days=0)
    assert repo.issues == [] and repo.comments == []


# ---- consistency ---------------------------------------------------------------------------------------


def _check_consistency(repo: SampleRepo, end: datetime) -> None:
    numbers = [i["number"] for i in repo.issues]
    assert numbers == sorted(set(numbers)), "numbers unique, items sorted by number"
    created = [_t(i["created_at"]) for i in repo.issues]
    assert created == sorted(created), "numbers increase with created_at"
    ids = [c["id"] for c in repo.comments]
    assert ids == sorted(set(ids)), "comment ids unique and sorted"
    assert [_t(c["created_at"]) for c in repo.comments] == sorted(_t(c["created_at"]) for c in repo.comments)
    assert len({i["id"] for i in repo.issues}) == len(repo.issues)
    assert len({i["node_id"] for i in repo.issues} | {c["node_id"] for c in repo.comments}) == len(
        repo.issues) + len(repo.comments)

    by_number: dict[int, list[dict]] = {}
    for c in repo.comments:
        by_number.setdefault(_number(c), []).append(c)
        assert _t(c["created_at"]) <= _t(c["updated_at"]) < end
    for issue in repo.issues:
        mine = by_number.get(issue["number"], [])
        assert issue["comments"] == len(mine)
        opened, updated = _t(issue["created_at"]), _t(issue["updated_at"])
        assert all(_t(c["created_at"]) > opened for c in mine)
        assert updated < end and opened < end
        closed = _t(issue["closed_at"]) if issue["closed_at"] else None
        assert (closed is not None) == (issue["state"] == "closed")
        latest = max([opened, *(_t(c["updated_at"]) for c in mine), *([closed] if closed else [])])
        assert updated >= latest
        if closed:
            assert closed >= opened
        merged = (issue.get("pull_request") or {}).get("merged_at")
        if merged:
            assert issue["state"] == "closed" and abs((_t(merged) - closed).total_seconds()) <= 5
            assert _t(merged) >= opened and issue["draft"] is False


def test_consistency_default_size(sample: SampleRepo) -> None:
    _check_consistency(sample, END)


def test_consistency_with_odd_end_and_other_seed() -> None:
    # A non-UTC zone and sub-second precision: still nothing at or after `end`.
    end = datetime(2025, 6, 1, 9, 30, 15, 500_000, tzinfo=timezone(timedelta(hours=8)))
    repo = generate_repo(end=end, days=4, items_per_day=90, comments_per_day=500, seed=11)
    _check_consistency(repo, end)


def test_older_items_active_in_window(sample: SampleRepo) -> None:
    start = END - timedelta(days=14)
    old = [i for i in sample.issues if _t(i["created_at"]) < start]
    assert len(old) > 100
    assert all(_t(i["updated_at"]) >= start for i in old), "older items are only here because they moved"
    closed_in_window = [i for i in old if i["closed_at"] and _t(i["closed_at"]) >= start]
    assert any("pull_request" in i and i["pull_request"]["merged_at"] for i in closed_in_window)
    assert any("pull_request" not in i for i in closed_in_window)
    in_window = Counter(_number(c) for c in sample.comments if _t(c["created_at"]) >= start)
    assert any(in_window[i["number"]] >= 10 for i in old), "a hot old thread"
    assert any(_t(i["created_at"]) < start - timedelta(days=90) for i in old), "stale-bot territory"


# ---- scale and mix -------------------------------------------------------------------------------------


def _assert_scale(repo: SampleRepo, days: int, items: int, comments: int) -> None:
    start = END - timedelta(days=days)
    n_items = sum(1 for i in repo.issues if start <= _t(i["created_at"]) < END)
    n_comments = sum(1 for c in repo.comments if start <= _t(c["created_at"]) < END)
    assert abs(n_items - days * items) <= 0.2 * days * items
    assert abs(n_comments - days * comments) <= 0.2 * days * comments


def test_scale_default_size(sample: SampleRepo) -> None:
    _assert_scale(sample, 14, 150, 600)


@pytest.mark.parametrize(
    ("days", "items", "comments"), [(3, 40, 400), (2, 300, 300), (5, 20, 20), (1, 500, 80)]
)
def test_scale_arguments_are_honoured(days: int, items: int, comments: int) -> None:
    repo = generate_repo(end=END, days=days, items_per_day=items, comments_per_day=comments, seed=days)
    _assert_scale(repo, days, items, comments)


def test_pr_issue_mix_and_outcomes(sample: SampleRepo) -> None:
    prs = [i for i in sample.issues if "pull_request" in i]
    assert 0.55 <= len(prs) / len(sample.issues) <= 0.65
    merged = [p for p in prs if p["pull_request"]["merged_at"]]
    closed_unmerged = [p for p in prs if p["state"] == "closed" and not p["pull_request"]["merged_at"]]
    open_prs = [p for p in prs if p["state"] == "open"]
    assert 0.45 <= len(merged) / len(prs) <= 0.7
    assert 0.05 <= len(closed_unmerged) / len(prs) <= 0.2
    assert open_prs and any(p["draft"] for p in open_prs)
    issues = [i for i in sample.issues if "pull_request" not in i]
    reasons = Counter(i["state_reason"] for i in issues)
    assert reasons["completed"] > 0 and reasons["not_planned"] > 0 and reasons[None] > len(issues) / 3


def test_activity_rhythm(sample: SampleRepo) -> None:
    start = END - timedelta(days=14)
    per_day = Counter(_t(i["created_at"]).date() for i in sample.issues if _t(i["created_at"]) >= start)
    full = [d for d in per_day if start.date() < d < END.date()]
    weekday = statistics.mean(per_day[d] for d in full if d.weekday() < 5)
    weekend = statistics.mean(per_day[d] for d in full if d.weekday() >= 5)
    assert weekday > 1.6 * weekend
    hours = Counter(_t(c["created_at"]).hour for c in sample.comments)
    # Asia mornings and US working hours are busier than the lull between them (same number of hours).
    assert sum(hours[h] for h in (1, 2, 3, 17, 18, 19)) > 1.5 * sum(hours[h] for h in (10, 11, 12))


def test_heavy_tailed_threads_and_reactions(sample: SampleRepo) -> None:
    counts = [i["comments"] for i in sample.issues]
    assert statistics.median(counts) <= 3
    assert sum(1 for c in counts if c <= 3) > len(counts) / 2
    hot = [i for i in sample.issues if i["comments"] >= 15]
    assert 5 <= len(hot) <= len(counts) / 10
    assert max(counts) <= 120
    reactions = [i["reactions"]["total_count"] for i in sample.issues]
    assert statistics.median(reactions) == 0 and max(reactions) >= 20
    # Hot threads are concentrated: most of their comments fall within two days, yet some span several.
    times: dict[int, list[datetime]] = {}
    for c in sample.comments:
        times.setdefault(_number(c), []).append(_t(c["created_at"]))
    spans = [(max(times[i["number"]]) - min(times[i["number"]])).total_seconds() / 86400 for i in hot]
    assert statistics.median(spans) <= 3 and max(spans) >= 2


# ---- people and bots -----------------------------------------------------------------------------------


def test_people_population_and_heavy_tail(sample: SampleRepo) -> None:
    users = [i["user"] for i in sample.issues] + [c["user"] for c in sample.comments]
    humans = {u["login"] for u in users if u["type"] == "User"}
    assert 300 <= len(humans) <= 800
    assert all(not login.endswith("[bot]") for login in humans)
    authors = Counter(
        i["user"]["login"] for i in sample.issues if "pull_request" in i and i["user"]["type"] == "User")
    top = sum(n for _, n in authors.most_common(len(authors) // 20))
    assert top > 0.2 * sum(authors.values()), "a few people author a large share of PRs"
    assert authors.most_common(1)[0][1] < 0.1 * sum(authors.values())


def test_bots(sample: SampleRepo) -> None:
    users = {u["login"]: u for u in [i["user"] for i in sample.issues] + [c["user"] for c in sample.comments]}
    for login in BOTS:
        assert users[login]["type"] == "Bot"
        assert "/apps/" in users[login]["html_url"]
    dependabot = [i for i in sample.issues if i["user"]["login"] == "dependabot[bot]"]
    assert dependabot and all(i["title"].startswith("Bump ") for i in dependabot)
    assert all("ci/build" in {lb["name"] for lb in i["labels"]} for i in dependabot)
    assert any(i["pull_request"]["merged_at"] for i in dependabot)
    bodies = [c["body"] for c in sample.comments if c["user"]["login"] == "github-actions[bot]"]
    assert any(b.startswith("👋 Hi! Thank you for contributing to the vLLM project.") for b in bodies)
    assert any("automatically marked as stale" in b for b in bodies)
    conflicts = [c for c in sample.comments if c["body"].startswith("This pull request has merge conflicts")]
    assert conflicts and all(c["user"]["login"] == "mergify[bot]" for c in conflicts)
    by_number = {i["number"]: i for i in sample.issues}
    stale_closed = [
        by_number[_number(c)] for c in sample.comments
        if c["user"]["login"] == "github-actions[bot]" and "has been automatically closed" in c["body"]
    ]
    assert any(i["state_reason"] == "not_planned" for i in stale_closed)
    assert all(i["state"] == "closed" and "stale" in {lb["name"] for lb in i["labels"]} for i in stale_closed)


# ---- text realism --------------------------------------------------------------------------------------


def test_every_topic_group_has_titles(sample: SampleRepo) -> None:
    titles = [i["title"] for i in sample.issues]
    for group, aliases in TOPIC_GROUPS.items():
        assert len(list(islice(filter(_rx(aliases).search, titles), 3))) == 3, group


def test_every_listed_keyword_appears(sample: SampleRepo) -> None:
    titles = [i["title"] for i in sample.issues]
    aliases = [a for group in TOPIC_GROUPS.values() for a in group]
    missing = [a for a in aliases if not any(_rx([a]).search(t) for t in titles)]
    assert not missing


def test_topic_groups_in_a_small_sample(small: SampleRepo) -> None:
    titles = [i["title"] for i in small.issues]
    for group, aliases in TOPIC_GROUPS.items():
        assert any(_rx(aliases).search(t) for t in titles), group


def test_hard_negatives_present(sample: SampleRepo) -> None:
    text = " ".join(i["title"] for i in sample.issues).lower()
    for word in ("command line", "relationship", "on-chip", "harmony", "dpo", "llama.cpp", "ollama", "array"):
        assert word in text, word
    # They contain aliases as substrings only: a word-boundary matcher must not fire on them.
    assert not _rx(["amd"]).search("add a command line option")
    assert not _rx(["hip"]).search("relationship on-chip shipping")


def test_titles_look_like_vllm(sample: SampleRepo) -> None:
    prs = [i["title"] for i in sample.issues if "pull_request" in i]
    issues = [i["title"] for i in sample.issues if "pull_request" not in i]
    assert sum(1 for t in prs if t.startswith("[")) > 0.85 * len(prs)
    assert sum(1 for t in prs if re.match(r"^\[[^\]]+\]\[[^\]]+\]", t)) > 0.1 * len(prs), "several tags"
    prefixes = Counter(m.group(0) for t in issues if (m := re.match(r"^\[[A-Za-z ]+\]: ", t)))
    for prefix in ("[Bug]: ", "[Feature]: ", "[Usage]: ", "[RFC]: ", "[Performance]: ", "[Installation]: ",
                   "[Doc]: ", "[New Model]: "):
        assert prefixes[prefix] > 0, prefix
    assert not any(re.search(r"\{\w+\}", t) for t in prs + issues), "unfilled slot"
    assert len(set(prs + issues)) > 0.99 * len(prs + issues), "a real tracker rarely repeats a title"
    upgrades = [m.groups() for t in issues if (m := re.search(r"from (v[\w.]+) to (v[\w.]+)", t))]
    assert upgrades and all(old != new for old, new in upgrades)


def test_daily_fresh_stability_reports(sample: SampleRepo) -> None:
    start = END - timedelta(days=14)
    by_day: dict[object, list[dict]] = {}
    for i in sample.issues:
        opened = _t(i["created_at"])
        if "pull_request" not in i and start <= opened:
            by_day.setdefault(opened.date(), []).append(i)
    days = [d for d in by_day if start.date() < d < END.date()]
    assert len(days) == 13
    for day in days:
        for family, words in DAILY_FAMILIES.items():
            assert any(_rx(words).search(i["title"]) for i in by_day[day]), (day, family)
    stability = _rx(TOPIC_GROUPS["stability"])
    assert sum(1 for i in sample.issues if stability.search(i["title"]) and i["comments"] >= 15) >= 3


def test_templates_in_bodies(sample: SampleRepo) -> None:
    pr_bodies = [i["body"] for i in sample.issues if "pull_request" in i and i["user"]["type"] == "User"]
    assert any(b is None for b in pr_bodies)
    full = [b for b in pr_bodies if b and "## Purpose" in b]
    assert len(full) > 0.7 * len(pr_bodies)
    checklist = "Essential Elements of an Effective PR Description Checklist"
    assert all("## Test Plan" in b and checklist in b for b in full)
    header = "<!-- markdownlint-disable -->\nPLEASE FILL IN THE PR DESCRIPTION HERE"
    assert any(b.startswith(header) for b in full)
    assert any(re.search(r"^FIX #\d+$", b, re.M) for b in full)
    assert any("- [x]" in b for b in full) and any("- [ ]" in b for b in full)
    bugs = [i["body"] for i in sample.issues if i["title"].startswith("[Bug]: ") and i["body"]]
    assert all("### 🐛 Describe the bug" in b for b in bugs)
    assert all("<summary>The output of <code>python collect_env.py</code></summary>" in b for b in bugs)
    assert any("Traceback (most recent call last)" in b for b in bugs)
    assert all("- [x] Make sure you already searched for relevant issues" in b for b in bugs)
    feature = next(i["body"] for i in sample.issues if i["title"].startswith("[Feature]: "))
    assert "### 🚀 The feature, motivation and pitch" in feature and "### Alternatives" in feature
    usage = next(i["body"] for i in sample.issues if i["title"].startswith("[Usage]: "))
    assert "### How would you like to use vllm" in usage


def test_unicode_and_adversarial_strings_are_rare_but_present(sample: SampleRepo) -> None:
    titles = [i["title"] for i in sample.issues]
    cjk = [t for t in titles if re.search(r"[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]", t)]
    rtl = [t for t in titles if re.search(r"[\u0590-\u05ff\u0600-\u06ff]", t)]
    emoji = [t for t in titles if re.search(r"[\U0001F300-\U0001FAFF\u26a1\u2728]", t)]
    tricky = re.compile(r"@everyone|<!channel>|<@U\d+>|<script>|\|\|\w+\|\||@here")
    adversarial = [t for t in titles if tricky.search(t)]
    assert len(cjk) >= 5 and rtl and len(emoji) >= 5
    assert 1 <= len(adversarial) < 0.01 * len(titles)
    assert any(len(t) > 200 for t in titles)
    assert any("<script>" in (i["body"] or "") for i in sample.issues)
    assert any(re.search(r"[\u4e00-\u9fff]", c["body"]) for c in sample.comments)


# ---- pull request details and the daily showcase of key changes ----------------------------------------


WIDE_REFACTOR = r"^\[Refactor\] (Unify rotary|Share the MoE router|Move Llama|Consolidate weight loading)"


def test_every_pr_has_deterministic_details_shaped_by_its_kind(sample: SampleRepo) -> None:
    prs = {i["number"]: i for i in sample.issues if "pull_request" in i}
    pulls = {p["number"]: p for p in sample.pulls}
    assert set(pulls) == set(prs) and [p["number"] for p in sample.pulls] == sorted(pulls)
    again = generate_repo(end=END)
    assert again.pulls == sample.pulls
    for pull in sample.pulls:
        assert pull["additions"] >= 0 and pull["deletions"] >= 0 and pull["changed_files"] >= 1
        assert pull["changed_files"] <= max(1, pull["additions"] + pull["deletions"]) and pull["commits"] >= 1
        if prs[pull["number"]]["state"] == "closed":
            assert pull["requested_reviewers"] == []

    def lines(pattern: str) -> list[int]:
        rx = re.compile(pattern, re.IGNORECASE)
        return [pulls[n]["additions"] + pulls[n]["deletions"] for n, i in prs.items() if rx.search(i["title"])]

    typos, models = lines(r"\btypo\b"), lines(r"\[(new )?model\]")
    kernels, wide = lines(r"\[kernel\]"), lines(WIDE_REFACTOR)
    assert typos and all(1 <= n <= 5 for n in typos)
    assert statistics.median(models) > 500 and max(models) > 1500
    assert statistics.median(kernels) > 300
    wide_files = [pulls[n]["changed_files"] for n, i in prs.items()
                  if re.search(WIDE_REFACTOR, i["title"])]
    assert wide and statistics.median(wide) > 400 and min(wide_files) >= 10


def test_each_whole_day_shows_the_key_changes_ranking_must_get_right(sample: SampleRepo) -> None:
    prs = [i for i in sample.issues if "pull_request" in i]
    titles = {i["title"] for i in prs}
    assert {"[Refactor] Remove useless syncwarp",
            "[Refactor] Unify rotary embedding across Llama, Qwen, DeepSeek and Gemma models",
            "[Perf] Fused MoE routing: 1.8x faster decode for DeepSeek-V3 on H200"} <= titles
    start = END - timedelta(days=14)
    for day in range(14):
        lo, hi = start + timedelta(days=day), start + timedelta(days=day + 1)
        merged = [i["title"] for i in prs
                  if i["pull_request"]["merged_at"] and lo <= _t(i["pull_request"]["merged_at"]) < hi]
        opened = [i for i in prs if i["state"] == "open" and lo <= _t(i["created_at"]) < hi]
        assert any("useless" in t or "unused" in t or "redundant" in t or "dead code" in t for t in merged), day
        assert any(re.match(WIDE_REFACTOR, t) for t in merged), day
        assert any(t.startswith("[Perf]") and re.search(r"\d(\.\d)?x|\d+%", t) for t in merged), day
        big = [i for i in opened if re.match(r"\[(New )?Model\]", i["title"]) and not i.get("draft")]
        assert big and any(i["comments"] > 0 for i in big), day


def test_long_samples_number_the_showcase_again_rather_than_repeat_it() -> None:
    long = generate_repo(end=END, days=40, items_per_day=40, comments_per_day=40)
    showcase = [i["title"] for i in long.issues if re.match(WIDE_REFACTOR, i["title"])]
    assert len(showcase) >= 30 and len(set(showcase)) == len(showcase)
    assert any(title.endswith("[10/N]") for title in showcase)
