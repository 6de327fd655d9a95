"""Evaluation days for the editorial ranking (issue #13, docs/editorial.md "Labelling a day by hand").

    python bench/editorial_days.py build    # writes tests/data/editorial/days/<day-id>.json
    python bench/editorial_days.py views    # writes tests/data/editorial/views/<day-id>.md (labelling views)
    python bench/editorial_days.py all      # both

A day is one daily window (24 h ending 11:05 Asia/Shanghai = 03:05 UTC) of one repository, kept as the
GitHub REST payloads the real sync reads: ``issues`` (``GET /repos/{o}/{r}/issues``), ``comments``
(``GET /repos/{o}/{r}/issues/comments``) and ``pulls`` (``GET /repos/{o}/{r}/pulls/{n}``, for the PR sizes).

Two sources:

- *generator* days: ``bot.demo.generator.generate_repo`` with seeds and end dates the ranking was not tuned on,
  plus PR details from ``pull_details`` (the generator does not emit them);
- *hand* days: written here as data, modelled on how vLLM's tracker reads (``hand_days``).

This file never looks at how the bot ranks: the days are written to the policy (docs/editorial.md), and the
labelling views show facts only, in item-number order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "editorial"
DAYS_DIR = DATA / "days"
VIEWS_DIR = DATA / "views"
REPO = "vllm-project/vllm"
API = "https://api.github.com"
HTML = "https://github.com"
TIMEZONE = "Asia/Shanghai"
DAY = timedelta(days=1)
MAX_FIXTURE_BYTES = 1_500_000
HISTORY_BODY_LIMIT = 1_500  # bodies of items not active in the window are cut here (the window's stay whole)

# --------------------------------------------------------------------------------------------------------
# Time and payload helpers shared by both sources.


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def issue_number(comment: dict[str, Any]) -> int:
    return int(str(comment["issue_url"]).rstrip("/").rsplit("/", 1)[1])


def window_of(day: dict[str, Any]) -> tuple[datetime, datetime]:
    end = parse(day["end"])
    return end - DAY, end


def active_numbers(issues: list[dict], comments: list[dict], start: datetime, end: datetime) -> set[int]:
    """Items something happened to in ``[start, end)``: opened, closed, merged, commented or updated."""
    lo, hi = iso(start), iso(end)

    def inside(stamp: str | None) -> bool:
        return stamp is not None and lo <= stamp < hi

    active = {issue_number(c) for c in comments if inside(c["created_at"])}
    for item in issues:
        merged = (item.get("pull_request") or {}).get("merged_at")
        if any(inside(s) for s in (item["created_at"], item.get("closed_at"), merged, item["updated_at"])):
            active.add(int(item["number"]))
    return active


_DETAILS = re.compile(r"<details>.*?</details>\s*", re.DOTALL)


def compact_body(body: str | None) -> str:
    """A history item's body: without its collapsed blocks (environment dumps, checklists), at most ~1500
    characters, so its own prose survives the cut."""
    return _DETAILS.sub("", body or "")[:HISTORY_BODY_LIMIT]


def _reactions(reactions: dict[str, Any] | None) -> dict[str, int]:
    reactions = reactions or {}
    kept = {"total_count": int(reactions.get("total_count") or 0), "+1": int(reactions.get("+1") or 0)}
    for key, value in reactions.items():
        if key not in ("url", "total_count", "+1") and isinstance(value, int) and value:
            kept[key] = value
    return kept


def _user(user: dict[str, Any] | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"login": user["login"], "type": user.get("type", "User")}


def compact_issue(item: dict[str, Any], *, whole: bool) -> dict[str, Any]:
    """The fields the sync reads (and a labeller may want), in GitHub's shape."""
    out: dict[str, Any] = {
        "html_url": item["html_url"],
        "number": item["number"],
        "title": item["title"],
        "user": _user(item.get("user")),
        "author_association": item.get("author_association", "NONE"),
        "labels": [{"name": label["name"]} for label in item.get("labels") or []],
        "state": item["state"],
        "state_reason": item.get("state_reason"),
        "created_at": item["created_at"],
        "updated_at": item["updated_at"],
        "closed_at": item.get("closed_at"),
        "comments": item.get("comments", 0),
        "reactions": _reactions(item.get("reactions")),
        "body": item.get("body") if whole else compact_body(item.get("body")),
    }
    pull = item.get("pull_request")
    if pull is not None:
        out["draft"] = bool(item.get("draft"))
        out["pull_request"] = {"url": pull["url"], "html_url": pull["html_url"], "merged_at": pull.get("merged_at")}
    return out


def compact_comment(comment: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": comment["id"],
        "issue_url": comment["issue_url"],
        "user": _user(comment.get("user")),
        "author_association": comment.get("author_association", "NONE"),
        "body": comment.get("body", ""),
        "created_at": comment["created_at"],
        "updated_at": comment["updated_at"],
        "reactions": _reactions(comment.get("reactions")),
    }


# --------------------------------------------------------------------------------------------------------
# PR details (GET /repos/{o}/{r}/pulls/{n}): the generator does not emit them, so a deterministic guess from
# the title's kind. Ranges are (additions low, high, deletions share low, high, files low, high).

_SIZE_RULES: tuple[tuple[re.Pattern[str], tuple[int, int, float, float, int, int]], ...] = (
    (re.compile(r"^(bump|build\(deps\))|dependabot", re.I), (1, 4, 1.0, 1.0, 1, 2)),
    (re.compile(r"typo|spelling|\[doc|docs?\b|readme|docstring|comment", re.I), (1, 40, 0.2, 0.9, 1, 3)),
    (re.compile(r"remove (unused|dead|deprecated)|clean ?up|\bunused\b", re.I), (5, 80, 2.0, 8.0, 1, 8)),
    (re.compile(r"\[ci|\[build|\btests?\b|flaky|skip ", re.I), (4, 160, 0.1, 0.8, 1, 6)),
    (re.compile(r"\[model\]|support .* model|new model|add .*(support|model)", re.I), (250, 1600, 0.02, 0.2, 4, 18)),
    (re.compile(r"\[kernel|cutlass|triton|fused_moe|aiter|gemm|mla|attention backend|deepgemm|pallas", re.I),
     (150, 2400, 0.05, 0.5, 3, 22)),
    (re.compile(r"refactor|rename|move ", re.I), (60, 900, 0.6, 1.3, 3, 30)),
    (re.compile(r"\[perf|speed|faster|throughput|latency", re.I), (30, 500, 0.1, 0.6, 1, 8)),
    (re.compile(r"\[frontend|api|\[v1|\[core|scheduler|feature|support", re.I), (60, 700, 0.1, 0.5, 2, 12)),
    (re.compile(r"\[bugfix|fix", re.I), (3, 120, 0.1, 0.8, 1, 5)),
)
_DEFAULT_SIZE = (10, 300, 0.1, 0.7, 1, 6)


def pull_details(item: dict[str, Any]) -> dict[str, Any]:
    """A plausible ``GET /pulls/{n}`` object for a PR payload: same PR, same numbers, every run."""
    title = item["title"]
    seed = int.from_bytes(hashlib.sha256(f"{item['number']}:{title}".encode()).digest()[:8], "big")
    rng = random.Random(seed)
    low, high, del_low, del_high, files_low, files_high = next(
        (rule for pattern, rule in _SIZE_RULES if pattern.search(title)), _DEFAULT_SIZE)
    # Log-uniform inside the range: most changes sit at the small end of their kind.
    additions = round(low * (high / low) ** rng.random())
    deletions = round(additions * rng.uniform(del_low, del_high))
    files = min(files_high, max(files_low, round(files_low + (files_high - files_low) * (additions / high) ** 0.5)))
    commits = max(1, min(40, round(1 + additions / rng.uniform(40, 160))))
    return pull_object(item, additions=additions, deletions=deletions, changed_files=files, commits=commits,
                       review_comments=max(0, round(int(item.get("comments") or 0) * rng.uniform(0.2, 1.2))))


def pull_object(item: dict[str, Any], *, additions: int, deletions: int, changed_files: int, commits: int,
                review_comments: int) -> dict[str, Any]:
    merged_at = item["pull_request"].get("merged_at")
    return {  # the fields of GET /pulls/{n} that the digest can use
        "number": item["number"],
        "state": item["state"],
        "draft": bool(item.get("draft")),
        "updated_at": item["updated_at"],
        "merged_at": merged_at,
        "merged": merged_at is not None,
        "review_comments": review_comments,
        "commits": commits,
        "additions": additions,
        "deletions": deletions,
        "changed_files": changed_files,
    }


# --------------------------------------------------------------------------------------------------------
# Generator days.


@dataclass(frozen=True)
class GeneratorDay:
    day_id: str
    seed: int
    end: datetime
    items_per_day: int
    comments_per_day: int
    history_days: int = 2  # kept before the window (8 are generated: older items still move in it)


# Not seed 0 or 1 with the demo's end (2025-12-02): those are the days the ranking is tuned on.
GENERATOR_DAYS: tuple[GeneratorDay, ...] = (
    GeneratorDay("gen-s11-2025-10-08", 11, datetime(2025, 10, 8, 3, 5, tzinfo=UTC), 95, 380),
    GeneratorDay("gen-s23-2025-10-22", 23, datetime(2025, 10, 22, 3, 5, tzinfo=UTC), 95, 380),
    GeneratorDay("gen-s37-2025-11-06", 37, datetime(2025, 11, 6, 3, 5, tzinfo=UTC), 85, 340),
    GeneratorDay("gen-s52-2025-11-16", 52, datetime(2025, 11, 16, 3, 5, tzinfo=UTC), 80, 300),  # a Sunday
    GeneratorDay("gen-s68-2025-12-17", 68, datetime(2025, 12, 17, 3, 5, tzinfo=UTC), 95, 380),
    GeneratorDay("gen-s90-2026-01-21", 90, datetime(2026, 1, 21, 3, 5, tzinfo=UTC), 90, 360),
    # Added after the key-change rules were revised (docs/editorial.md): labelled by people who had seen neither
    # the ranking nor its results, so these four are held out for every section, key changes included.
    GeneratorDay("gen-s113-2026-02-18", 113, datetime(2026, 2, 18, 3, 5, tzinfo=UTC), 95, 380),
    GeneratorDay("gen-s127-2026-03-11", 127, datetime(2026, 3, 11, 3, 5, tzinfo=UTC), 90, 360),
    GeneratorDay("gen-s149-2026-04-02", 149, datetime(2026, 4, 2, 3, 5, tzinfo=UTC), 85, 340),
    GeneratorDay("gen-s181-2026-04-26", 181, datetime(2026, 4, 26, 3, 5, tzinfo=UTC), 75, 300),  # a Sunday
)


def generator_day(spec: GeneratorDay) -> dict[str, Any]:
    from bot.demo.generator import generate_repo  # only `build` needs it

    owner, name = REPO.split("/")
    sample = generate_repo(owner=owner, name=name, end=spec.end, days=8,
                           items_per_day=spec.items_per_day, comments_per_day=spec.comments_per_day, seed=spec.seed)
    start = spec.end - DAY
    active = active_numbers(sample.issues, sample.comments, start, spec.end)
    # The window's items whole, with all their comments; of the rest, what moved in the previous
    # ``spec.history_days`` days (opened, closed or commented: "busy yesterday too"), bodies cut.
    kept = active | active_numbers(sample.issues, sample.comments, start - spec.history_days * DAY, start)
    since = iso(start - spec.history_days * DAY)
    comments = [compact_comment(c) for c in sample.comments
                if issue_number(c) in active or (issue_number(c) in kept and c["created_at"] >= since)]
    items = [item for item in sample.issues if int(item["number"]) in kept]
    issues = [compact_issue(item, whole=int(item["number"]) in active) for item in items]
    pulls = [pull_details(item) for item in items if "pull_request" in item]
    return day_payload(spec.day_id, spec.end, "generator", issues, comments, pulls)


def day_payload(day_id: str, end: datetime, source: str, issues: list[dict], comments: list[dict],
                pulls: list[dict]) -> dict[str, Any]:
    return {
        "id": day_id,
        "repo": REPO,
        "end": iso(end),
        "timezone": TIMEZONE,
        "source": source,
        "issues": sorted(issues, key=lambda i: i["number"]),
        "comments": sorted(comments, key=lambda c: c["id"]),
        "pulls": sorted(pulls, key=lambda p: p["number"]),
    }


# --------------------------------------------------------------------------------------------------------
# Hand-written days: a small vocabulary for writing a day as data. Times are hours after the window's start
# (negative: before it; the window is [0, 24)).


@dataclass(frozen=True)
class Person:
    login: str
    association: str = "CONTRIBUTOR"  # OWNER | MEMBER | COLLABORATOR | CONTRIBUTOR | NONE | FIRST_TIME_CONTRIBUTOR
    bot: bool = False


@dataclass
class Said:
    at: float
    who: str
    text: str
    reactions: int = 0


@dataclass
class Hand:
    number: int
    pr: bool
    title: str
    by: str
    at: float
    body: str
    labels: tuple[str, ...] = ()
    merged: float | None = None
    closed: float | None = None
    reason: str | None = None  # an issue's state_reason when closed: completed | not_planned | duplicate
    draft: bool = False
    reactions: int = 0
    size: tuple[int, int, int] | None = None  # additions, deletions, changed files (PRs); None: guessed
    talk: list[Said] = field(default_factory=list)
    association: str | None = None  # this item's own, when it differs from the person's (first PR)


@dataclass
class HandDay:
    day_id: str
    end: datetime
    people: dict[str, Person]
    items: list[Hand]
    note: str = ""

    @property
    def start(self) -> datetime:
        return self.end - DAY

    def moment(self, hours: float) -> datetime:
        return self.start + timedelta(seconds=round(hours * 3600))


def says(*lines: tuple[Any, ...]) -> list[Said]:
    """``(at, who, text)`` or ``(at, who, text, reactions)`` tuples as comments."""
    return [Said(*line) for line in lines]


_BEFORE_SUBMITTING = (
    "### Before submitting a new issue...\n\n"
    "- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the bottom right "
    "corner of the [documentation page](https://docs.vllm.ai/en/latest/), which can answer lots of frequently "
    "asked questions."
)

_PR_CHECKLIST = (
    "---\n<details>\n<summary> Essential Elements of an Effective PR Description Checklist </summary>\n\n"
    "- [x] The purpose of the PR, such as \"Fix some issue (link existing issues this PR will resolve)\".\n"
    "- [x] The test plan, such as providing test command.\n"
    "- [x] The test results, such as pasting the results comparison before and after, or e2e results\n"
    "- [ ] (Optional) The necessary documentation update, such as updating `supported_models.md` and `examples` "
    "for a new model.\n"
    "- [ ] (Optional) Release notes update. If your change is user facing, please update the release notes draft."
    "\n</details>"
)


def collect_env(gpu: str = "NVIDIA H100 80GB HBM3", count: int = 8, version: str = "0.11.2",
                torch: str = "2.9.0+cu128", hw: str = "cuda") -> str:
    """A shortened ``python collect_env.py`` dump, folded as the issue template folds it."""
    rocm = hw == "rocm"
    gpus = "\n".join(f"GPU {i}: {gpu}" for i in range(count)) if count else "N/A"
    lines = [
        "==============================", "        System Info", "==============================",
        "OS                           : Ubuntu 22.04.5 LTS (x86_64)",
        "GCC version                  : (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0",
        "==============================", "       PyTorch Info", "==============================",
        f"PyTorch version              : {torch}",
        f"CUDA used to build PyTorch   : {'N/A' if rocm else '12.8'}",
        f"ROCM used to build PyTorch   : {'7.0.51831' if rocm else 'N/A'}",
        "==============================", "      Python Environment", "==============================",
        "Python version               : 3.12.11 (main, Jun  4 2025, 08:56:18) [GCC 11.4.0] (64-bit runtime)",
        "==============================", "       CUDA / GPU Info", "==============================",
        f"Is CUDA available            : {bool(count)}",
        f"GPU models and configuration : \n{gpus}",
        f"Nvidia driver version        : {'N/A' if rocm else '570.172.08'}",
        "==============================", "Versions of relevant libraries", "==============================",
        "[pip3] numpy==2.2.6", f"[pip3] torch=={torch.split('+')[0]}", "[pip3] transformers==4.57.3",
        "[pip3] triton==3.5.0",
        "==============================", "         vLLM Info", "==============================",
        f"vLLM Version                 : {version}",
        f"vLLM Build Flags:\n  CUDA Archs: Not Set; ROCm: {'Enabled' if rocm else 'Disabled'}",
    ]
    dump = "\n".join(lines)
    return (f"<details>\n<summary>The output of <code>python collect_env.py</code></summary>\n\n```text\n{dump}\n```\n"
            "\n</details>\n")


def bug(prose: str, *, env: str | None = None, repro: str = "", log: str = "") -> str:
    parts = ["### Your current environment", env or collect_env(), "### 🐛 Describe the bug", prose.strip()]
    if repro:
        parts.append(f"```bash\n{repro.strip()}\n```")
    if log:
        parts.append(f"```text\n{log.strip()}\n```")
    return "\n\n".join([*parts, _BEFORE_SUBMITTING])


def usage(prose: str, *, env: str | None = None, code: str = "") -> str:
    parts = ["### Your current environment", env or "```text\nThe output of `python collect_env.py`\n```",
             "### How would you like to use vllm", prose.strip()]
    if code:
        parts.append(f"```python\n{code.strip()}\n```")
    return "\n\n".join([*parts, _BEFORE_SUBMITTING])


def feature(pitch: str, *, alternatives: str = "_No response_") -> str:
    return "\n\n".join(["### 🚀 The feature, motivation and pitch", pitch.strip(), "### Alternatives", alternatives,
                        "### Additional context", "_No response_", _BEFORE_SUBMITTING])


def rfc(motivation: str, proposal: str, cc: str = "") -> str:
    return "\n\n".join(["### Motivation.", motivation.strip(), "### Proposed Change.", proposal.strip(),
                        "### Feedback Period.", "One week.", "### CC List.", cc or "_No response_",
                        "### Any Other Things.", "_No response_", _BEFORE_SUBMITTING])


def performance(report: str, *, env: str | None = None) -> str:
    return "\n\n".join(["### Proposal to improve performance", "_No response_",
                        "### Report of performance regression", report.strip(),
                        "### Misc discussion on performance", "_No response_",
                        "### Your current environment (if you think it is necessary)", env or collect_env(),
                        _BEFORE_SUBMITTING])


def installation(prose: str, *, command: str = "pip install vllm", log: str = "", env: str | None = None) -> str:
    parts = ["### Your current environment", env or collect_env(), "### How you are installing vllm",
             f"```sh\n{command}\n```", prose.strip()]
    if log:
        parts.append(f"```text\n{log.strip()}\n```")
    return "\n\n".join([*parts, _BEFORE_SUBMITTING])


def doc_issue(prose: str, fix: str = "_No response_") -> str:
    return "\n\n".join(["### 📚 The doc issue", prose.strip(), "### Suggest a potential alternative/fix", fix,
                        _BEFORE_SUBMITTING])


def ci_failure(test: str, prose: str, log: str = "") -> str:
    parts = ["### Name of failing test", f"`{test}`", "### Basic information",
             "- [ ] Flaky test\n- [x] Can reproduce locally\n- [ ] Caused by external libraries (e.g. bug in "
             "`transformers`)", "### 🧪 Describe the failing test", prose.strip()]
    if log:
        parts.append(f"```text\n{log.strip()}\n```")
    return "\n\n".join(parts)


def change(purpose: str, test: str = "Existing CI.", result: str = "CI green.", *, fixes: str = "") -> str:
    head = ("<!-- markdownlint-disable -->\nPLEASE FILL IN THE PR DESCRIPTION HERE ENSURING ALL CHECKLIST ITEMS "
            "(AT THE BOTTOM) HAVE BEEN CONSIDERED.")
    purpose = purpose.strip() + (f"\n\nFIX {fixes}" if fixes else "")
    return "\n\n".join([head, "## Purpose", purpose, "## Test Plan", test.strip(), "## Test Result", result.strip(),
                        _PR_CHECKLIST])


def bump(package: str, old: str, new: str) -> str:
    return (f"Bumps [{package}](https://github.com/{package}) from {old} to {new}.\n<details>\n<summary>Release "
            f"notes</summary>\n<p><em>Sourced from {package}'s releases.</em></p>\n</details>\n\n[![Dependabot "
            "compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score)]"
            "\n\nDependabot will resolve any conflicts with this PR as long as you don't alter it yourself.")


# Automation that real PRs attract. Written here once; ``hand_payloads`` adds it where a PR asks for it.
WELCOME = (
    "👋 Hi! Thank you for contributing to the vLLM project.\n\n💬 Join our developer Slack to discuss your PR in "
    "#pr-reviews, coordinate on features in #feat- channels, or join special interest groups in #sig- channels."
    "\n\nPRs do not trigger a full CI run by default. Only `fastcheck` CI runs, a small and essential subset of "
    "tests to catch errors quickly. To run the full suite, add the `ready` label or ask a maintainer to.\n\n🚀"
)
REVIEW_BOT_SUMMARY = (
    "## Summary of Changes\n\nHello @{author}, I'm the code review assistant. I have read this pull request and "
    "here is a summary to help reviewers get up to speed.\n\n### Highlights\n\n* **{title}**: the change as "
    "described in the PR body.\n\n<details>\n<summary>Using the assistant</summary>\n\nComment `/review` to "
    "ask for a new review.\n</details>"
)
REBASE = ("This pull request has merge conflicts that must be resolved before it can be merged. Please rebase the PR, "
          "@{author}.")
STALE = ("This issue has been automatically marked as stale because it has not had any activity within 90 days. "
         "It will be automatically closed if no further activity occurs within 30 days. Leave a comment if you "
         "feel this issue should remain open. Thank you!")
DOCS_PREVIEW = "Documentation preview: https://vllm--{number}.org.readthedocs.build/en/{number}/"

BOTS: dict[str, Person] = {
    login: Person(login, "NONE", bot=True)
    for login in ("github-actions[bot]", "mergify[bot]", "dependabot[bot]", "gemini-code-assist[bot]")
}


def _user_payload(person: Person) -> dict[str, Any]:
    return {"login": person.login, "type": "Bot" if person.bot else "User"}


def _reaction_counts(total: int, pr: bool) -> dict[str, int]:
    if not total:
        return {"total_count": 0, "+1": 0}
    if pr:
        rocket, heart = round(total * 0.4), round(total * 0.25)
        counts = {"+1": total - rocket - heart, "rocket": rocket, "heart": heart}
    else:
        eyes = total // 6
        counts = {"+1": total - eyes, "eyes": eyes}
    return {"total_count": total, **{key: value for key, value in counts.items() if value}}


def _automation(item: Hand, people: dict[str, Person]) -> list[Said]:
    """What bots say on a PR as on vLLM: a welcome to non-maintainers, a review summary, a docs preview."""
    if not item.pr or people[item.by].bot:
        return []
    said = []
    if people[item.by].association not in ("MEMBER", "OWNER", "COLLABORATOR"):
        said.append(Said(item.at + 0.01, "github-actions[bot]", WELCOME))
    said.append(Said(item.at + 0.05, "gemini-code-assist[bot]",
                     REVIEW_BOT_SUMMARY.format(author=item.by, title=item.title)))
    if "[Doc" in item.title:
        said.append(Said(item.at + 0.02, "mergify[bot]", DOCS_PREVIEW.format(number=item.number)))
    return said


def hand_payloads(day: HandDay) -> dict[str, Any]:
    people = {**BOTS, **day.people}
    numbers = [item.number for item in day.items]
    if len(numbers) != len(set(numbers)):
        raise ValueError(f"{day.day_id}: duplicate item numbers")
    rows: list[tuple[datetime, int, int, Hand, Said]] = []
    for item in day.items:
        talk = sorted([*item.talk, *_automation(item, people)], key=lambda s: s.at)
        for seq, said in enumerate(talk):
            if said.who not in people:
                raise ValueError(f"{day.day_id} #{item.number}: unknown person {said.who!r}")
            if said.at < item.at or said.at >= 24:
                raise ValueError(f"{day.day_id} #{item.number}: comment at {said.at} outside [{item.at}, 24)")
            rows.append((day.moment(said.at), item.number, seq, item, said))
    rows.sort(key=lambda row: row[:3])
    base = 3_400_000_000 + int((day.start - datetime(2025, 1, 1, tzinfo=UTC)).total_seconds())
    comments: list[dict[str, Any]] = []
    last_said: dict[int, datetime] = {}
    said_count: dict[int, int] = {}
    for index, (moment, number, _, _item, said) in enumerate(rows):
        cid = base + 37 * index
        person = people[said.who]
        comments.append({
            "id": cid,
            "issue_url": f"{API}/repos/{REPO}/issues/{number}",
            "user": _user_payload(person),
            "author_association": person.association,
            "body": said.text,
            "created_at": iso(moment),
            "updated_at": iso(moment),
            "reactions": _reaction_counts(said.reactions, False),
        })
        last_said[number] = moment
        said_count[number] = said_count.get(number, 0) + 1
    issues = [_hand_issue(day, item, people, last_said.get(item.number), said_count.get(item.number, 0))
              for item in day.items]
    pulls = [_hand_pull(item, issue, people) for item, issue in zip(day.items, issues, strict=True) if item.pr]
    return day_payload(day.day_id, day.end, "hand", issues, comments, pulls)


def _hand_issue(day: HandDay, item: Hand, people: dict[str, Person], last_said: datetime | None,
                n_comments: int) -> dict[str, Any]:
    if item.by not in people:
        raise ValueError(f"{day.day_id} #{item.number}: unknown author {item.by!r}")
    for hours in (item.at, item.merged, item.closed):
        if hours is not None and hours >= 24:
            raise ValueError(f"{day.day_id} #{item.number}: an event at {hours} h is after the window's end")
    ended = item.merged if item.merged is not None else item.closed
    if ended is not None and ended < item.at:
        raise ValueError(f"{day.day_id} #{item.number}: closed before it was opened")
    created = day.moment(item.at)
    closed = day.moment(ended) if ended is not None else None
    updated = max(moment for moment in (created, closed, last_said) if moment is not None)
    kind = "pull" if item.pr else "issues"
    person = people[item.by]
    payload: dict[str, Any] = {
        "url": f"{API}/repos/{REPO}/issues/{item.number}",
        "html_url": f"{HTML}/{REPO}/{kind}/{item.number}",
        "number": item.number,
        "title": item.title,
        "user": _user_payload(person),
        "author_association": item.association or person.association,
        "labels": [{"name": name} for name in item.labels],
        "state": "closed" if closed is not None else "open",
        "state_reason": None if item.pr or closed is None else (item.reason or "completed"),
        "created_at": iso(created),
        "updated_at": iso(updated),
        "closed_at": iso(closed) if closed is not None else None,
        "comments": n_comments,
        "reactions": _reaction_counts(item.reactions, item.pr),
        "body": item.body,
    }
    if item.pr:
        payload["draft"] = item.draft and closed is None
        payload["pull_request"] = {
            "url": f"{API}/repos/{REPO}/pulls/{item.number}",
            "html_url": f"{HTML}/{REPO}/pull/{item.number}",
            "merged_at": iso(day.moment(item.merged)) if item.merged is not None else None,
        }
    return payload


def _hand_pull(item: Hand, issue: dict[str, Any], people: dict[str, Person]) -> dict[str, Any]:
    if item.size is None:
        return pull_details(issue)
    additions, deletions, files = item.size
    reviewers = [s for s in item.talk if s.who != item.by and not people[s.who].bot]
    return pull_object(issue, additions=additions, deletions=deletions, changed_files=files,
                       commits=max(1, min(60, 1 + additions // 150)), review_comments=round(1.5 * len(reviewers)))


# --------------------------------------------------------------------------------------------------------
# Labelling views: the facts an editor looks at, in item-number order, with no ranking.

_PURPOSE = re.compile(r"^#{1,6}\s*Purpose\s*$(.*?)(?=^#{1,6}\s|\Z)", re.MULTILINE | re.DOTALL | re.IGNORECASE)
_HUMAN_ROLES = ("OWNER", "MEMBER", "COLLABORATOR")


@dataclass
class DayFacts:
    """One day's payloads, indexed for the views (and for the harness's sanity checks)."""

    day: dict[str, Any]
    is_bot: Any  # Callable[[str], bool]
    start: datetime = field(init=False)
    end: datetime = field(init=False)
    items: dict[int, dict[str, Any]] = field(init=False)
    pulls: dict[int, dict[str, Any]] = field(init=False)
    in_window: dict[int, list[dict[str, Any]]] = field(init=False)

    def __post_init__(self) -> None:
        self.start, self.end = window_of(self.day)
        self.items = {int(i["number"]): i for i in self.day["issues"]}
        self.pulls = {int(p["number"]): p for p in self.day.get("pulls", [])}
        self.in_window = {}
        for comment in self.day["comments"]:
            if self.inside(comment["created_at"]):
                self.in_window.setdefault(issue_number(comment), []).append(comment)

    def inside(self, stamp: str | None) -> bool:
        return stamp is not None and iso(self.start) <= stamp < iso(self.end)

    def bot(self, user: dict[str, Any] | None) -> bool:
        return user is not None and (user.get("type") == "Bot" or bool(self.is_bot(user.get("login"))))

    def who(self, user: dict[str, Any] | None, association: str | None = None) -> str:
        login = (user or {}).get("login") or "ghost"
        if self.bot(user):
            return f"{login} (bot)"
        return f"{login} ({association})" if association else login

    def human_comments(self, number: int) -> list[dict[str, Any]]:
        return [c for c in self.in_window.get(number, []) if not self.bot(c.get("user"))]

    @staticmethod
    def merged_at(item: dict[str, Any]) -> str | None:
        return (item.get("pull_request") or {}).get("merged_at")

    def state(self, item: dict[str, Any]) -> str:
        if "pull_request" in item:
            if self.merged_at(item):
                return "merged"
            if item["state"] == "closed":
                return "closed unmerged"
            return "open (draft)" if item.get("draft") else "open"
        if item["state"] == "closed":
            return f"closed ({item.get('state_reason') or 'completed'})"
        return "open"

    def kind(self, item: dict[str, Any]) -> str:
        return "PR" if "pull_request" in item else "issue"


def _labels(item: dict[str, Any]) -> str:
    names = [label["name"] for label in item.get("labels") or []]
    return ", ".join(names) if names else "-"


def _reactions_text(reactions: dict[str, Any] | None) -> str:
    reactions = reactions or {}
    total = int(reactions.get("total_count") or 0)
    if not total:
        return "0"
    parts = [f"{key} {value}" for key, value in reactions.items() if key != "total_count" and value]
    return f"{total} ({', '.join(parts)})"


def _one_line(text: str, limit: int) -> str:
    from bot.text import truncate

    return truncate(re.sub(r"\s+", " ", text).strip(), limit)


def _purpose(body: str | None) -> str:
    from bot.text import body_prose

    match = _PURPOSE.search(body or "")
    return body_prose(match.group(1) if match else body) or "(no prose)"


def render_view(day: dict[str, Any], is_bot: Any) -> str:
    from bot.text import body_prose

    facts = DayFacts(day, is_bot)
    start, end = facts.start, facts.end
    lines = [
        f"# Labelling view: {day['id']} ({day['repo']}, {day['source']} day)",
        "",
        f"Window: {iso(start)} .. {iso(end)} (UTC), i.e. the 24 h ending 11:05 {day['timezone']}.",
        "",
        "Pick from docs/editorial.md alone (the policy's \"Labelling a day by hand\"): the 3 hot discussions, the 5",
        "key changes and the 5 notable new bugs, best first (fewer where fewer qualify), and write them to",
        f"`tests/data/editorial/labels/<your-name>/{day['id']}.json` as",
        '`{"hot": [n, ...], "key_changes": [n, ...], "notable": [n, ...]}`.',
        "Lists are in item-number order: the order says nothing. Bots are marked (bot); their comments never count",
        "as discussion. Associations: OWNER/MEMBER/COLLABORATOR are maintainers.",
        "",
    ]
    lines += _section_discussed(facts)
    lines += _section_changes(facts)
    lines += _section_new_issues(facts, body_prose)
    return "\n".join(lines).rstrip() + "\n"


def _section_discussed(facts: DayFacts) -> list[str]:
    lines = ["## (a) Items with human comments in the window", ""]
    for number in sorted(facts.in_window):
        human = facts.human_comments(number)
        item = facts.items.get(number)
        if not human or item is None:
            continue
        bots = len(facts.in_window[number]) - len(human)
        commenters: dict[str, str] = {}
        for comment in human:
            commenters.setdefault(comment["user"]["login"], comment.get("author_association") or "NONE")
        author = (item.get("user") or {}).get("login")
        people = ", ".join(f"{login} ({role}{', the author' if login == author else ''})"
                           for login, role in commenters.items())
        new = " (opened in the window)" if facts.inside(item["created_at"]) else f" (opened {item['created_at'][:10]})"
        lines += [
            f"### #{number} [{facts.kind(item)}, {facts.state(item)}] {item['title']}",
            f"- labels: {_labels(item)}",
            f"- author: {facts.who(item.get('user'), item.get('author_association'))}{new}",
            f"- comments in window: {len(human)} human" + (f" + {bots} bot" if bots else ""),
            f"- distinct human commenters in window ({len(commenters)}): {people}",
            f"- reactions on the item: {_reactions_text(item.get('reactions'))}; on its window comments: "
            f"{sum(int((c.get('reactions') or {}).get('total_count') or 0) for c in human)}",
            f"- state at window end: {facts.state(item)}",
            "",
        ]
    return lines


def _section_changes(facts: DayFacts) -> list[str]:
    lines = ["## (b) PRs merged in the window, or open and active in it", ""]
    for number, item in sorted(facts.items.items()):
        if "pull_request" not in item:
            continue
        merged = facts.inside(facts.merged_at(item))
        active = facts.inside(item["created_at"]) or number in facts.in_window
        if not (merged or (item["state"] == "open" and active)):
            continue
        pull = facts.pulls.get(number)
        size = (f"+{pull['additions']} -{pull['deletions']}, {pull['changed_files']} files, {pull['commits']} commits"
                if pull else "unknown")
        human = len(facts.human_comments(number))
        lines += [
            f"### #{number} [{facts.state(item)}] {item['title']}",
            f"- labels: {_labels(item)}",
            f"- author: {facts.who(item.get('user'), item.get('author_association'))}; opened {item['created_at']}"
            + (f"; merged {facts.merged_at(item)}" if merged else ""),
            f"- draft: {'yes' if item.get('draft') else 'no'}; merged in window: {'yes' if merged else 'no'}",
            f"- size: {size}",
            f"- comments: {item.get('comments', 0)} in all, {human} human in the window"
            + (f"; review comments {pull['review_comments']}" if pull else "")
            + f"; reactions {_reactions_text(item.get('reactions'))}",
            f"- purpose: {_one_line(_purpose(item.get('body')), 300)}",
            "",
        ]
    return lines


def _section_new_issues(facts: DayFacts, body_prose: Any) -> list[str]:
    lines = ["## (c) Issues opened in the window", ""]
    for number, item in sorted(facts.items.items()):
        if "pull_request" in item or not facts.inside(item["created_at"]):
            continue
        lines += [
            f"### #{number} [{facts.state(item)}] {item['title']}",
            f"- labels: {_labels(item)}",
            f"- author: {facts.who(item.get('user'), item.get('author_association'))}; opened {item['created_at']}",
            f"- reactions: {_reactions_text(item.get('reactions'))}; comments in window: "
            f"{len(facts.in_window.get(number, []))}",
            f"- prose: {_one_line(body_prose(item.get('body')) or '(none)', 400)}",
        ]
        for comment in facts.in_window.get(number, []):
            who = facts.who(comment.get("user"), comment.get("author_association"))
            lines.append(f"  - {comment['created_at'][11:16]} {who}: {_one_line(comment.get('body') or '', 120)}")
        lines.append("")
    return lines


# --------------------------------------------------------------------------------------------------------
# Command line.


def all_days() -> list[tuple[str, Any]]:
    """(day id, a function building its payload), generator days first."""
    days: list[tuple[str, Any]] = [(spec.day_id, lambda spec=spec: generator_day(spec)) for spec in GENERATOR_DAYS]
    days += [(day.day_id, lambda day=day: hand_payloads(day)) for day in hand_days()]
    return days


def write_json(path: Path, payload: dict[str, Any]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    # One item or comment per line: diffs of a rebuilt day stay readable.
    for key in ('"issues":[', '"comments":[', '"pulls":['):
        text = text.replace(key, key + "\n")
    text = text.replace('},{"url"', '},\n{"url"').replace('},{"id"', '},\n{"id"')
    path.write_text(text + "\n", encoding="utf-8")
    return len(text.encode())


def build(only: Iterable[str] = ()) -> None:
    wanted = set(only)
    for day_id, make in all_days():
        if wanted and day_id not in wanted:
            continue
        payload = make()
        size = write_json(DAYS_DIR / f"{day_id}.json", payload)
        start, end = window_of(payload)
        active = active_numbers(payload["issues"], payload["comments"], start, end)
        print(f"{day_id}: {len(payload['issues'])} items ({len(active)} active in the window), "
              f"{len(payload['comments'])} comments, {len(payload['pulls'])} PR details, {size / 1e6:.2f} MB")
        if size > MAX_FIXTURE_BYTES:
            print(f"  warning: {day_id} is over {MAX_FIXTURE_BYTES / 1e6:.1f} MB", file=sys.stderr)


def views() -> None:
    from bot.settings import load_settings

    settings = load_settings(ROOT / "config", env={})
    for path in sorted(DAYS_DIR.glob("*.json")):
        day = json.loads(path.read_text(encoding="utf-8"))
        text = render_view(day, settings.is_bot)
        out = VIEWS_DIR / f"{path.stem}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(text.splitlines())} lines")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("build", "views", "all"))
    parser.add_argument("--day", action="append", default=[], help="build only this day (repeatable)")
    args = parser.parse_args(argv)
    if args.command in ("build", "all"):
        build(args.day)
    if args.command in ("views", "all"):
        views()
    return 0


# --------------------------------------------------------------------------------------------------------
# The hand-written days (data).


def pull(number: int, title: str, by: str, at: float, purpose: str, *, test: str = "Existing CI.",
      result: str = "CI green.", fixes: str = "", labels: tuple[str, ...] = (), merged: float | None = None,
      closed: float | None = None, draft: bool = False, size: tuple[int, int, int] | None = None,
      react: int = 0, talk: Iterable[tuple[Any, ...]] = (), association: str | None = None,
      body: str | None = None) -> Hand:
    """A pull request in vLLM's PR template."""
    return Hand(number, True, title, by, at, body if body is not None else change(purpose, test, result, fixes=fixes),
                labels=labels, merged=merged, closed=closed, draft=draft, reactions=react, size=size,
                talk=says(*talk), association=association)


def issue(number: int, title: str, by: str, at: float, body: str, *, labels: tuple[str, ...] = (),
      closed: float | None = None, reason: str | None = None, react: int = 0,
      talk: Iterable[tuple[Any, ...]] = (), association: str | None = None) -> Hand:
    """An issue (its body from one of the template helpers above)."""
    return Hand(number, False, title, by, at, body, labels=labels, closed=closed, reason=reason, reactions=react,
                talk=says(*talk), association=association)


def _people(*groups: tuple[str, Iterable[str]]) -> dict[str, Person]:
    return {login: Person(login, association) for association, logins in groups for login in logins}


PEOPLE = _people(
    ("MEMBER", ("aurelien-m", "jiayi-xu", "mgrant", "noor-ali", "pkowalski", "chenyu-z", "sbhatt-vllm")),
    ("COLLABORATOR", ("dsouza-r", "hyeonwoo-k", "emilyt", "rvoss-amd", "ohara-k")),
    ("CONTRIBUTOR", ("tjiang-amd", "mkaur-amd", "pchen-amd", "akumar-intel", "nv-sgupta", "bwtran", "felixhaus",
                     "okonkwo-d", "shreya-ml", "vtomasz", "yuki-n", "marco-bianchi", "tensorsmith", "cwl-dev",
                     "lin-pengfei", "gdimitrov", "raghav-s", "fzhou-ml", "iglesias-j", "wenbo-h", "sofia-pl",
                     "amdteam-ci", "kvcache-lab", "li-hao-qw", "ruslan-b")),
    ("NONE", ("wangxm-ai", "jdoe42", "ptrq", "sakura-dev", "alexkr", "mehmet-o", "dataminer88", "zhangsan-nlp",
              "lucia-r", "infra-sre-bob", "kevinh", "rgarcia-ops", "qwen-user-77", "ntt-yamada", "deepfry-ai",
              "miles-w", "gpu-poor-dev", "chen-jl", "liuyang1998", "bob-the-sre", "anh-nguyen", "k8s-herder",
              "thanh-le", "oksana-v", "pedro-mlops", "zzq-infer", "maria-s", "tomh", "ivan-petrov-ml",
              "hpc-admin-ut", "emma-w", "yifan-dev", "dr-ramos", "ks-cho", "xiaoming-w")),
    ("FIRST_TIME_CONTRIBUTOR", ("newbie-pat", "hchoi-first", "lwong-first", "dmytro-first")),
)


def hand_days() -> list[HandDay]:
    return [_day_a(), _day_b(), _day_c(), _day_d()]


# --- Day A: an ordinary busy Monday-Tuesday (Beijing), a new model family and a day-0 crash ----------------

def _day_a() -> HandDay:
    h200 = collect_env("NVIDIA H200", 8, "0.11.2")
    mi300 = collect_env("AMD Instinct MI300X", 8, "0.11.2+rocm700", "2.9.0+rocm7.0", "rocm")
    items = [
        # --- earlier items that move today ---
        issue(29112, "[RFC]: Turn on async scheduling by default in V1", "mgrant", -40, rfc(
            "Async scheduling (`--async-scheduling`) overlaps the scheduler's CPU work with the GPU forward. It "
            "has been opt-in since v0.10.2 and is used in production by several teams. Keeping it opt-in means "
            "most users never see the 5-15% throughput it brings on small models.",
            "1. Default `async_scheduling=True` for decoder-only models on CUDA and ROCm.\n2. Keep the flag to "
            "turn it off.\n3. Fall back automatically for pipeline parallel and for structured output until "
            "they are supported.", "@jiayi-xu @chenyu-z @aurelien-m"),
          labels=("RFC",), react=23, talk=[
              (-30, "jiayi-xu", "+1 in principle. What about spec decode? EAGLE does not support it yet."),
              (-28, "mgrant", "Spec decode would fall back, like PP. I'll add it to the list."),
              (-20, "felixhaus", "We run it in production on H100 since 0.11.0, no issues and +9% throughput."),
              (-12, "raghav-s", "We saw a rare ordering bug with n>1 sampling, see #28802. Is that fixed?"),
              (-6, "chenyu-z", "#28802 was fixed in #28950."),
              (0.8, "aurelien-m", "I am worried about the default changing silently: people comparing "
                                  "benchmarks across versions will see different numbers. Can we log it at "
                                  "startup?", 4),
              (1.5, "mgrant", "Yes, a one-line INFO at startup saying async scheduling is on and how to turn it "
                              "off."),
              (3.2, "tensorsmith", "What happens with `--enable-prompt-embeds`? That path has its own "
                                   "scheduling quirks."),
              (4.0, "chenyu-z", "Prompt embeds work with it, tested in tests/v1/e2e/test_async_scheduling.py."),
              (9.5, "kvcache-lab", "For P/D disaggregation the connector's async load needs a small change, "
                                   "otherwise we lose overlap. Happy to do it."),
              (13.0, "pkowalski", "Fine by me as long as structured output falls back cleanly; we had a "
                                  "regression there in 0.10.2.", 2),
              (15.1, "dsouza-r", "ROCm results on MI300X: +6% on Llama-3.1-8B, neutral on DeepSeek-R1. No "
                                 "objection."),
              (17.6, "mgrant", "Implementation in #29450. Planning to merge after the v0.12.0 branch cut."),
              (19.0, "felixhaus", "🚀 great"),
              (21.3, "jiayi-xu", "Approved the RFC. Let's keep the fallback list in the docs."),
          ]),
        issue(29205, "[Bug]: Qwen3-Next-80B-A3B gives gibberish after a few hundred tokens with prefix caching on "
                 "v0.11.2", "qwen-user-77", -20, bug(
            "With `--enable-prefix-caching` (the default) the second request that shares a long system prompt "
            "produces nonsense after 200-400 tokens. Turning prefix caching off fixes it. Same model was fine "
            "on v0.11.0.", env=h200,
            repro="vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct -tp 4 --max-model-len 65536",
            log="...the the the )))) 给给给 ]]]] ....."),
          labels=("bug",), react=11, talk=[
              (-16, "li-hao-qw", "Thanks, we can reproduce. It looks related to the mamba state cache with "
                                 "prefix caching."),
              (-10, "zzq-infer", "Same here on H20 x8."),
              (-4, "hyeonwoo-k", "Hybrid models cache the conv/ssm state per block; the hit path does not "
                                 "restore it. Investigating."),
              (2.0, "li-hao-qw", "Narrowed it down: only when the shared prefix is not a multiple of the block "
                                 "size."),
              (5.5, "qwen-user-77", "Confirmed, with a 1024-token prefix it is fine, 1000 breaks."),
              (8.0, "hyeonwoo-k", "The fix needs the KV cache spec refactor in #29414; a smaller patch for "
                                  "0.11.3 is coming."),
              (11.2, "chen-jl", "遇到同样的问题 (same problem), 关掉 prefix caching 就正常了."),
              (16.0, "zzq-infer", "Any ETA for the patch? We pinned 0.11.0 for now."),
              (19.4, "hyeonwoo-k", "Tomorrow, with a test."),
          ]),
        pull(29150, "[V1][P/D] NIXL connector: support heterogeneous TP between prefill and decode instances",
          "kvcache-lab", -70,
          "Prefill and decode instances must currently use the same tensor parallel size. This lets a TP=8 "
          "prefill instance hand KV blocks to TP=2 decode instances (and the reverse) by splitting and merging "
          "heads at transfer time. Needed for the cheaper decode-heavy layouts people ask for in #27710.",
          test="tests/v1/kv_connector/nixl_integration with 1P(TP8)+2D(TP2) and 1P(TP2)+1D(TP4)",
          result="GSM8K on Llama-3.3-70B: 0.932 (same TP) vs 0.931 (heterogeneous). TTFT unchanged.",
          labels=("kv-connector", "v1"), size=(1840, 310, 21), react=16, talk=[
              (-40, "aurelien-m", "Thanks! First pass: the head-splitting should live in the connector, not "
                                  "the worker."),
              (-20, "kvcache-lab", "Moved it. Also added MLA support (no head split needed there)."),
              (3.0, "dsouza-r", "Does this handle the case where decode TP > prefill TP and num_kv_heads < "
                                "decode TP? e.g. Llama-3.3-70B with 8 KV heads on TP16."),
              (6.5, "kvcache-lab", "Good catch, it replicates heads in that case; added a test."),
              (12.0, "aurelien-m", "Ran it on our 2-node setup: works. A few nits left inline."),
              (18.0, "kvcache-lab", "Nits addressed."),
              (20.0, "dsouza-r", "LGTM from my side, @aurelien-m for the final approval."),
          ]),
        pull(29177, "[Model] Add support for Mistral Large 3 (MLA attention + MoE)", "marco-bianchi", -52,
          "Adds Mistral Large 3 (675B total, 41B active; MLA attention, 128 experts, top-4 routing). Reuses the "
          "DeepSeek-V3 MLA and fused MoE paths; adds the Mistral tokenizer mode and the tool parser changes.",
          test="lm_eval gsm8k, tool-calling e2e with mistral parser, TP8 and TP8+EP on H200",
          result="GSM8K 0.951 (reference 0.953). Tool-calling tests pass.",
          labels=("new-model", "ready"), merged=9.5, size=(1420, 36, 14), react=31, talk=[
              (-30, "jiayi-xu", "Looks good. Please add it to supported_models.md."),
              (-20, "marco-bianchi", "Done."),
              (8.9, "jiayi-xu", "LGTM, thanks for the day-0 work."),
              (12.0, "sakura-dev", "Works with FP8 weights on 8xH200 as well 🎉"),
          ]),
        pull(29263, "[Perf] Overlap output processing with the next step's forward in AsyncLLM", "chenyu-z", -26,
          "Detokenization and output processing ran on the critical path between two forward passes. They now "
          "run on a separate thread while the GPU works on the next step.",
          test="vllm bench serve, Llama-3.1-8B-Instruct on 1xH100, ShareGPT, 1000 prompts, request rate inf",
          result="Throughput 41.3 -> 58.9 req/s (1.43x). TPOT p50 12.1 ms -> 9.4 ms (-22%). "
                 "Qwen3-30B-A3B TP2: 1.18x. No change in outputs (greedy, 200 prompts).",
          labels=("performance", "ready", "v1"), merged=15.2, size=(386, 122, 7), react=18, talk=[
              (-20, "mgrant", "Nice numbers. Does it change anything with n>1?"),
              (-18, "chenyu-z", "No, outputs are emitted in the same order; test added."),
              (14.8, "pkowalski", "LGTM 🚀"),
          ]),
        pull(29301, "[Frontend] Default `--max-num-batched-tokens` to 8192 for chunked prefill on GPUs with "
                 ">= 70 GiB", "noor-ali", -18,
          "The default of 2048 leaves a lot of prefill throughput on the table on H100/H200/B200/MI300X. The "
          "new default is 8192 on devices with at least 70 GiB of memory and stays 2048 elsewhere. Users who "
          "set the flag are unaffected. Logged at startup.",
          test="vllm bench serve on H100 with Llama-3.1-8B and Qwen3-32B",
          result="Prefill-heavy workload (input 4k, output 128): throughput +31%, TTFT p99 -40%. Decode-heavy: "
                 "unchanged.",
          labels=("ready", "frontend"), merged=12.0, size=(64, 18, 4), react=9, talk=[
              (-10, "aurelien-m", "This changes benchmark numbers for everyone; please add a release note."),
              (-8, "noor-ali", "Added to the release notes draft."),
          ]),
        issue(28890, "[Bug]: max_loras > 1 slowly leaks GPU memory with many distinct adapters", "mehmet-o", -900,
          bug("Serving 40 LoRA adapters with max_loras=4, GPU memory grows ~200 MB per hour until OOM."),
          labels=("bug", "stale"), talk=[(-700, "bwtran", "Can you share the script?"),
                                         (5.0, "github-actions[bot]", STALE)]),
        issue(28711, "[Feature]: Ascend NPU support in the main repository", "liuyang1998", -1200,
          feature("Please support Ascend NPUs in the main repo instead of a plugin."),
          labels=("feature request", "stale"), react=12, talk=[
              (5.0, "github-actions[bot]", STALE),
              (9.0, "liuyang1998", "Still interested. The plugin lags behind releases."),
          ]),
        issue(29330, "[Usage]: vllm serve pods restart with exit code 137 on Kubernetes", "k8s-herder", -10, usage(
            "Our vLLM pods (Qwen3-8B, 1x L40S, 32 GiB memory limit) restart every few hours with exit code "
            "137. How much host memory does vLLM need?"),
          labels=("usage",), talk=[
              (-9, "k8s-herder", "Forgot to say: image vllm/vllm-openai:v0.11.2."),
              (1.0, "k8s-herder", "Raised the limit to 48 GiB, it lasted longer but still restarted."),
              (2.5, "k8s-herder", "Could it be the CPU swap space? We use the default --swap-space."),
              (4.0, "bwtran", "137 is the OOM killer. Host memory grows with --swap-space (4 GiB per GPU by "
                              "default) plus the tokenizer and the prefix cache metadata. Try --swap-space 0."),
              (6.0, "k8s-herder", "Trying --swap-space 0 now."),
              (10.0, "k8s-herder", "6 hours stable so far."),
              (22.0, "k8s-herder", "Stable for 16 hours. Is this documented somewhere? Happy to write a doc PR."),
          ]),
        pull(29370, "[CI/Build] Split the entrypoints test job into 3 shards", "sbhatt-vllm", -8,
          "The entrypoints job takes 55 minutes; three shards bring it under 20.", labels=("ci/build", "ready"),
          merged=3.0),
        pull(29355, "[Bugfix] Fix ValueError when `stop` is an empty list", "sofia-pl", -12,
          "`stop=[]` raised `ValueError: max() arg is an empty sequence` in the detokenizer.", fixes="#29310",
          labels=("ready",), merged=20.0, talk=[
              (1.0, "mergify[bot]", REBASE.format(author="sofia-pl")),
              (2.0, "sofia-pl", "Rebased."),
              (7.0, "mergify[bot]", REBASE.format(author="sofia-pl")),
              (8.0, "github-actions[bot]", "This pull request has been automatically marked ready: CI passed."),
              (19.5, "mergify[bot]", "Merge queue: this pull request is queued for merge."),
          ]),
        pull(29290, "[ROCm][Kernel] AITER fused MoE for block-scaled FP8 weights on MI355X", "tjiang-amd", -28,
          "Routes block-scaled FP8 MoE layers (DeepSeek-V3/R1, Qwen3-235B FP8) to AITER's fused MoE kernel on "
          "gfx950. Enabled with VLLM_ROCM_USE_AITER=1 (default on for MI355X).",
          test="DeepSeek-R1 FP8 on 8x MI355X, vllm bench serve, concurrency 64, input 1k / output 1k",
          result="Output throughput 2,870 -> 3,960 tok/s (+38%). GSM8K 0.955 -> 0.956.",
          labels=("rocm", "ready"), merged=7.0, size=(712, 95, 9), react=12, talk=[
              (-20, "rvoss-amd", "Tested on our MI355X nodes, numbers match."),
              (6.5, "dsouza-r", "LGTM."),
          ]),
        issue(29340, "[Bug]: gpt-oss-120b streaming tool calls: `arguments` is sometimes not valid JSON",
          "deepfry-ai", -9, bug(
            "About 1 in 50 streamed tool calls has `arguments` that does not parse: a missing closing brace. "
            "Non-streaming is fine.", env=h200),
          labels=("bug", "tool-calling"), react=5, talk=[
              (3.0, "emma-w", "Also seeing this with the openai tool parser, roughly the same rate."),
              (8.5, "emilyt", "The harmony parser drops the last delta when it arrives with the finish "
                              "reason. I'll send a fix."),
              (12.0, "deepfry-ai", "Thanks! Happy to test."),
          ]),
        # --- opened in the window: pull requests ---
        pull(29402, "[Bugfix] Fix illegal memory access in FlashInfer MLA decode under CUDA graphs", "nv-sgupta", 1.0,
          "The MLA decode wrapper kept a pointer to a workspace buffer that CUDA graph capture re-allocates "
          "when the batch size bucket changes; after enough replays it read freed memory. The buffer is now "
          "allocated once at the largest bucket.", fixes="#29401",
          test="The repro from #29401: DeepSeek-V3.2-Exp TP8 on H200, 3 h of load at concurrency 256",
          result="No illegal memory access in 3 h (before: crash after ~40 min to 2 h).",
          labels=("bug", "ready"), merged=18.5, size=(46, 12, 3), react=10, talk=[
              (9.0, "pkowalski", "Verified on 8xH200 with the repro from #29401, no IMA after 3h."),
              (18.0, "pkowalski", "Merging, thanks for the quick turnaround."),
          ]),
        pull(29405, "[Doc] Fix typo in the LoRA serving guide", "newbie-pat", 1.5,
          "`--max-lora-rank` was spelled `--max-lora-ranks`.", labels=("documentation",), merged=6.0,
          size=(1, 1, 1), association="FIRST_TIME_CONTRIBUTOR"),
        pull(29407, "[Misc] Remove unused `get_max_shared_memory_bytes` helper", "vtomasz", 2.0,
          "Not called anywhere since the Triton attention refactor.", merged=8.0, size=(0, 38, 2)),
        pull(29409, "[CI] Mark test_eagle_correctness as flaky on L4", "sbhatt-vllm", 2.3,
          "Fails ~5% of runs on L4 with a numerical tolerance error; tracked in #29380.", labels=("ci/build",),
          merged=3.1, size=(4, 1, 1)),
        pull(29411, "Bump actions/checkout from 4 to 5", "dependabot[bot]", 3.0, "",
          body=bump("actions/checkout", "4", "5"), labels=("dependencies", "github_actions"), merged=11.0),
        pull(29413, "[Misc] Rename `vllm/utils/func.py` to `vllm/utils/func_utils.py`", "ruslan-b", 3.5,
          "Avoids the name clash with the `func` module in tests. Pure rename, no behaviour change.",
          merged=14.0, size=(120, 118, 23)),
        pull(29414, "[Core] Refactor KV cache spec handling for hybrid models (Qwen3-Next, Gemma 3, Llama 4, "
                 "gpt-oss)", "hyeonwoo-k", 4.0,
          "Sliding-window, mamba and full-attention layers each carried their own spec and block bookkeeping. "
          "This unifies them behind one `KVCacheSpec` interface so prefix caching restores every layer type. "
          "Prerequisite for fixing #29205.",
          test="tests/v1/core, tests/models for the four families, prefix caching e2e",
          result="All pass; no change in memory footprint.",
          labels=("v1",), size=(930, 610, 17), react=6, talk=[
              (10.0, "jiayi-xu", "Big one. Can we split out the mamba part?"),
              (12.5, "hyeonwoo-k", "The mamba part is what fixes #29205, but I can split the renames."),
              (20.0, "chenyu-z", "Reviewing the scheduler side now."),
          ]),
        pull(29416, "[Kernel] FP8 FlashAttention 3 for Blackwell (SM100)", "nv-sgupta", 5.0,
          "WIP: FA3 FP8 forward for SM100. Not ready for review.", draft=True, size=(2100, 80, 16)),
        pull(29418, "[Frontend] Support `reasoning_effort` in /v1/chat/completions for gpt-oss", "emilyt", 5.5,
          "gpt-oss models accept low/medium/high reasoning effort. The chat completions endpoint now passes "
          "`reasoning_effort` through to the harmony system message (the Responses API already did).",
          test="tests/entrypoints/openai/test_gpt_oss.py", result="Pass.",
          labels=("frontend", "gpt-oss", "ready"), merged=22.0, size=(240, 30, 6), react=8, talk=[
              (15.0, "aurelien-m", "Please document the default (medium)."),
              (16.0, "emilyt", "Done."),
          ]),
        pull(29420, "[Bugfix] Qwen3-VL: fix wrong image position ids when a prompt mixes video and images",
          "li-hao-qw", 6.0,
          "The MRoPE positions for images after a video were offset by the video's temporal patches, so the "
          "model described the wrong image.",
          test="New test with 1 video + 2 images", result="Outputs match the HF reference.",
          labels=("qwen", "multi-modality", "ready"), merged=19.0, size=(58, 14, 2), react=4),
        pull(29423, "[ROCm][CI] Re-enable the distributed tests on MI325X", "amdteam-ci", 6.5,
          "The RCCL hang that disabled them is fixed in ROCm 7.0.2.", labels=("rocm", "ci/build"),
          merged=13.0, size=(22, 40, 3)),
        pull(29425, "[ROCm] Fix the gfx950 build with ROCm 7.1 (hipcc warning treated as error)", "pchen-amd", 7.0,
          "ROCm 7.1's hipcc warns on an implicit conversion in the custom all-reduce kernel.",
          labels=("rocm",), merged=16.0, size=(9, 3, 1)),
        pull(29427, "[Model] Add ERNIE-4.5-VL-28B-A3B", "wenbo-h", 7.5,
          "Adds the ERNIE-4.5-VL MoE vision-language model (image and video input) with its processor.",
          test="tests/models/multimodal/generation with the HF reference", result="Outputs match on 20 prompts.",
          labels=("new-model", "multi-modality"), size=(1250, 20, 11), react=7, talk=[
              (14.0, "hyeonwoo-k", "Thanks. The vision encoder can reuse Qwen2.5-VL's window attention?"),
              (17.0, "wenbo-h", "Mostly; the patch merger differs. I'll factor out the shared part."),
          ]),
        pull(29429, "[Spec Decode] EAGLE-3 for Llama 4 Maverick", "fzhou-ml", 8.0,
          "Adds the EAGLE-3 draft head for Llama 4 Maverick (MoE target). Decode speed-up 1.7x at batch 1 and "
          "1.3x at batch 16 on 8xH100 with the public draft checkpoint; acceptance length 3.1.",
          test="tests/v1/spec_decode, MT-Bench acceptance", result="Acceptance 3.1, outputs identical (greedy).",
          labels=("speculative-decoding", "llama"), size=(420, 35, 6), react=9, talk=[
              (13.0, "mgrant", "Nice. Does it work with async scheduling on?"),
              (15.5, "fzhou-ml", "Falls back to sync scheduling for now, as for EAGLE on other models."),
              (21.0, "raghav-s", "Tried it on 8xH200: 1.65x at batch 1 for us."),
          ]),
        pull(29431, "[Bugfix] Avoid torch.compile recompilation when `max_num_seqs` is not a power of two",
          "raghav-s", 9.0,
          "The last CUDA graph bucket was not marked dynamic; a batch of exactly max_num_seqs recompiled.",
          labels=("torch.compile", "ready"), merged=20.5, size=(31, 9, 2)),
        pull(29433, "[Misc] Clean up logging in the model loader", "gdimitrov", 9.5,
          "Fewer duplicated INFO lines when loading sharded checkpoints.", merged=15.0, size=(25, 40, 3)),
        pull(29434, "[Doc] Add a page on disaggregated prefill with NIXL", "kvcache-lab", 10.0,
          "A how-to for running 1P+1D with the NIXL connector, with the heterogeneous TP option from #29150.",
          labels=("documentation",), size=(180, 0, 3)),
        pull(29436, "[Hardware][Intel GPU] Enable FP8 KV cache on XPU", "akumar-intel", 11.0,
          "FP8 (e5m2) KV cache on Intel Data Center GPU Max via the XPU attention backend.",
          labels=("intel-gpu",), size=(210, 40, 5), talk=[(20.0, "ohara-k", "Will review tomorrow.")]),
        pull(29438, "[Bugfix] Fix the API server stalling after clients cancel streams", "jiayi-xu", 14.5,
          "When a client disconnected while its output was being sent, the output handler held the request "
          "lock while awaiting the engine; a second cancellation then waited on the same lock forever.",
          fixes="#29410", test="New stress test: 200 streams, half cancelled at random",
          result="No stall in 50 runs (before: stalls within 2-3 runs).",
          labels=("bug", "frontend"), size=(64, 18, 3), react=6, talk=[
              (16.0, "alexkr", "Tested the branch on our staging: no stall after 4 hours."),
              (18.0, "noor-ali", "LGTM, one nit about the timeout."),
          ]),
        pull(29440, "[CI/Build] Cache the FlashInfer JIT kernels across CI jobs", "sbhatt-vllm", 15.0,
          "Saves ~6 minutes per GPU job.", labels=("ci/build", "ready"), merged=21.0, size=(88, 12, 4)),
        pull(29442, "[Frontend] Deprecate `--disable-log-requests` in favour of `--enable-log-requests`",
          "noor-ali", 15.5,
          "Request logging is now off by default (it was on, and logged every prompt). `--disable-log-requests` "
          "still works and warns; it will be removed in v0.13.",
          labels=("frontend", "ready"), merged=23.0, size=(45, 22, 5), react=5),
        pull(29444, "[Bugfix] Work around the tokenizer stall on stream cancellation", "yuki-n", 16.0,
          "A timeout around the tokenizer call so a cancelled stream cannot block forever.", closed=19.0,
          size=(20, 2, 1), talk=[(18.8, "jiayi-xu", "Thanks, but #29438 fixes the root cause; closing in favour "
                                                   "of it.")]),
        pull(29446, "[Test] Regression test for empty `stop` lists", "sofia-pl", 16.5,
          "Follow-up to #29355.", merged=22.5, size=(40, 0, 1)),
        pull(29448, "[Perf] Vectorize the top-k/top-p sampler on CPU", "akumar-intel", 17.0,
          "Uses AVX-512 for the sort in the CPU sampler.", labels=("cpu",), size=(150, 60, 3)),
        pull(29450, "[V1] Turn on async scheduling by default for decoder-only models", "mgrant", 17.5,
          "Implements #29112: async scheduling is on by default; pipeline parallel, spec decode and structured "
          "output fall back to sync scheduling. A startup log line says so and how to turn it off.",
          test="tests/v1/e2e, tests/entrypoints", result="Pass.", labels=("v1",), size=(35, 12, 4), talk=[
              (19.0, "chenyu-z", "Please also update the docs page on scheduling."),
              (20.5, "mgrant", "Will do after the branch cut."),
          ]),
        pull(29452, "[Quantization] Support ModelOpt NVFP4 checkpoints for Qwen3-235B-A22B on B200", "nv-sgupta", 18.0,
          "Loads ModelOpt NVFP4 MoE checkpoints (Qwen3-235B-A22B, Qwen3-30B-A3B) on Blackwell with the CUTLASS "
          "FP4 grouped GEMM.", test="GSM8K", result="0.938 (BF16 0.941).",
          labels=("quantization", "ready"), merged=23.5, size=(340, 42, 7), react=3),
        pull(29454, "[Misc] Fix comment typos in scheduler.py", "lwong-first", 18.5, "Typos in comments only.",
          size=(3, 3, 1), association="FIRST_TIME_CONTRIBUTOR"),
        pull(29456, "Bump torch from 2.9.0 to 2.9.1 in /requirements", "dependabot[bot]", 19.0, "",
          body=bump("pytorch/pytorch", "2.9.0", "2.9.1"), labels=("dependencies",)),
        pull(29458, "[Bugfix][ROCm] Fix garbage output from AITER MLA when max_model_len > 64k", "mkaur-amd", 19.5,
          "AITER MLA decode used a 16-bit page index, which wraps past 65,536 tokens.",
          labels=("rocm",), size=(18, 6, 2), talk=[(22.0, "rvoss-amd", "Good find. Can you add a long-context "
                                                                       "test?")]),
        pull(29460, "[Chore] Update CODEOWNERS for spec decode", "aurelien-m", 20.0, "Adds @fzhou-ml.",
          merged=20.4, size=(4, 2, 1)),
        pull(29462, "[Frontend] Support `json_schema` response_format in /v1/responses", "shreya-ml", 21.0,
          "The Responses API ignored `text.format` with a JSON schema; it now maps to structured output.",
          labels=("frontend",), size=(260, 25, 6)),
        pull(29464, "[Kernel] Tune fused_moe configs for Qwen3-30B-A3B on H20", "cwl-dev", 22.0,
          "New tuned config JSON files for H20 (E=128, N=768), from benchmark_moe.py.",
          size=(820, 0, 4)),
        pull(29466, "[Bugfix] Fix Whisper transcription of 8 kHz mp3 input", "okonkwo-d", 22.5,
          "Resample to 16 kHz before the feature extractor.", fixes="#29437", size=(22, 4, 2)),
        pull(29468, "[Misc] Remove unused imports across vllm/model_executor", "tensorsmith", 23.0,
          "ruff F401 cleanup.", merged=23.8, size=(0, 64, 19)),
        # --- opened in the window: issues ---
        issue(29401, "[Bug]: DeepSeek-V3.2-Exp on 8xH200 dies with `CUDA error: an illegal memory access was "
                 "encountered` after ~2h under load", "infra-sre-bob", 0.5, bug(
            "Serving DeepSeek-V3.2-Exp with TP=8 and the default CUDA graphs. Under steady load (concurrency "
            "~200) the engine dies after 40 minutes to 2 hours. All requests fail afterwards and the server "
            "has to be restarted.", env=h200,
            repro="vllm serve deepseek-ai/DeepSeek-V3.2-Exp -tp 8 --max-model-len 65536",
            log="(EngineCore_DP0 pid=1431) ERROR ... RuntimeError: CUDA error: an illegal memory access was "
                "encountered\n(APIServer pid=1) ERROR ... EngineDeadError: EngineCore encountered an issue."),
          labels=("bug", "deepseek"), closed=18.6, react=14, talk=[
              (2.1, "zzq-infer", "Same here on H20 x8, roughly every hour."),
              (3.0, "miles-w", "+1, we see it too with CUDA graphs on. --enforce-eager avoids it but is slow."),
              (4.2, "pkowalski", "Thanks. Can you all confirm it only happens with FlashInfer MLA (the default "
                                 "on Hopper for this model)?"),
              (5.0, "infra-sre-bob", "Yes: with VLLM_ATTENTION_BACKEND=FLASHMLA it ran 6 hours without a crash."),
              (8.0, "nv-sgupta", "Root cause found (workspace re-allocated during graph capture), fix in #29402."),
              (18.55, "infra-sre-bob", "Confirmed fixed with #29402, 3 hours clean."),
          ]),
        issue(29403, "[Bug]: MI300X TP=4 Qwen3-235B-A22B sits at 'Capturing CUDA graphs' forever", "ntt-yamada", 1.2,
          bug("With TP=4 on 4x MI300X the server never finishes startup: the last log line is 'Capturing CUDA "
              "graphs (mixed prefill-decode, PIECEWISE)' at 60% and GPU utilisation drops to 0. TP=8 works.",
              env=mi300, repro="vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4"),
          labels=("bug", "rocm"), react=3, talk=[
              (4.0, "tjiang-amd", "Can you run with NCCL_DEBUG=INFO and HIP_LAUNCH_BLOCKING=1 and share the "
                                  "tail of the log?"),
              (9.0, "ntt-yamada", "Log attached. It stops inside the custom all-reduce during capture."),
              (13.5, "rvoss-amd", "Looks like the custom all-reduce IPC buffer on 4 GPUs; try "
                                  "--disable-custom-all-reduce while we look."),
          ]),
        issue(29408, "[Usage]: How do I fix 'ValueError: max seq len (131072) is larger than the maximum number of "
                 "tokens that can be stored in KV cache' for Qwen3-32B?", "sakura-dev", 2.8,
          usage("Serving Qwen3-32B on 2x A100 80GB with TP=2, I get the error above at startup. What should I "
                "change?"),
          labels=("usage",), closed=5.0, talk=[
              (3.5, "bwtran", "Lower --max-model-len (e.g. 65536) or raise --gpu-memory-utilization to 0.95; "
                              "131072 tokens of KV cache do not fit next to the weights."),
              (4.9, "sakura-dev", "Thanks, 65536 works."),
          ]),
        issue(29410, "[Bug]: API server stops answering after a few clients cancel their streams", "alexkr", 4.0, bug(
            "After 3-5 clients close their connection in the middle of a streamed response, the server accepts "
            "new requests but never answers any of them. GPU is idle. py-spy shows the output handler and the "
            "request handler both waiting on the same asyncio lock. Happens on 0.11.1 and 0.11.2.",
            env=collect_env("NVIDIA A100-SXM4-80GB", 1, "0.11.2")),
          labels=("bug",), react=9, talk=[
              (7.0, "jiayi-xu", "I can reproduce, it is a lock ordering problem in the output handler. Fix "
                                "coming."),
              (9.5, "oksana-v", "We've been seeing this in production for a week, thought it was our proxy!"),
              (14.6, "jiayi-xu", "Fix in #29438."),
          ]),
        issue(29415, "[Feature]: Report prefix cache hit tokens per request in `usage`", "pedro-mlops", 4.5, feature(
            "We bill internal teams per token and want to discount cached tokens, like the OpenAI API's "
            "`prompt_tokens_details.cached_tokens`."),
          labels=("feature request",), react=5, talk=[
              (10.0, "noor-ali", "Good idea, we have the number already. PR welcome; "
                                 "`prompt_tokens_details.cached_tokens` is the right field."),
              (11.0, "pedro-mlops", "I'll give it a try."),
          ]),
        issue(29417, "[Bug]: gpt-oss-120b keeps repeating the same paragraph after ~4k tokens with fp8 KV cache",
          "dataminer88", 5.2, bug(
            "With `--kv-cache-dtype fp8`, long answers (over ~4k tokens) start repeating one paragraph until "
            "max_tokens. With the default KV cache dtype the same prompts are fine.", env=h200,
            repro="vllm serve openai/gpt-oss-120b --kv-cache-dtype fp8 -tp 2"),
          labels=("bug", "gpt-oss"), react=6, talk=[
              (11.0, "emilyt", "Which attention backend? FlashInfer or Triton?"),
              (12.5, "dataminer88", "FlashInfer (default). With TRITON_ATTN it does not happen."),
          ]),
        issue(29419, "[Bug]: Llama-3.3-70B-Instruct breaks with pipeline_parallel_size=2 on v0.11.2 (fine on "
                 "v0.11.0)", "rgarcia-ops", 6.2, bug(
            "Two nodes, TP=4 and PP=2. On v0.11.2 the first request fails and the server exits; the same "
            "command worked on v0.11.0.", repro="vllm serve meta-llama/Llama-3.3-70B-Instruct -tp 4 -pp 2",
            log="AssertionError: intermediate_tensors is None on rank 4"),
          labels=("bug",), react=2, talk=[
              (15.0, "chenyu-z", "Likely the async scheduling change for PP; can you try "
                                 "--no-async-scheduling?"),
          ]),
        issue(29421, "[Bug]: OOM loading Gemma 3 27B on 2x L40S with max_model_len 32768", "gpu-poor-dev", 7.1, bug(
            "torch.OutOfMemoryError: CUDA out of memory while loading google/gemma-3-27b-it on 2x L40S (48 GB) "
            "with TP=2 and max_model_len 32768.", env=collect_env("NVIDIA L40S", 2, "0.11.2")),
          labels=("bug",), talk=[
              (12.0, "bwtran", "The vision encoder's profiling run needs a lot of memory at 32k; try "
                               "--limit-mm-per-prompt '{\"image\": 2}' or a lower max_model_len."),
          ]),
        issue(29424, "[Bug]: typo in the error message for an invalid --kv-cache-dtype", "hchoi-first", 8.3,
          bug("The message says 'Unsuported kv cache dtype'.", env="N/A"), labels=("bug",),
          association="FIRST_TIME_CONTRIBUTOR"),
        issue(29426, "[Bug]: `vllm bench serve` prints a negative mean TTFT with --request-rate inf", "ks-cho", 9.0,
          bug("Mean TTFT is reported as -3.2 ms when all requests are sent at once."), labels=("bug",)),
        issue(29428, "[Bug]: Qwen2.5-72B-Instruct-AWQ 在 4x RTX 4090 上输出乱码", "zhangsan-nlp", 9.8, bug(
            "升级到 v0.11.2 之后，Qwen2.5-72B-Instruct-AWQ 的输出全是乱码（重复的符号和无意义的字）。"
            "v0.11.0 上同样的命令完全正常。After upgrading to v0.11.2 the output is garbled.",
            env=collect_env("NVIDIA GeForce RTX 4090", 4, "0.11.2"),
            repro="vllm serve Qwen/Qwen2.5-72B-Instruct-AWQ -tp 4 --quantization awq_marlin"),
          labels=("bug", "qwen"), react=3, talk=[
              (11.0, "chen-jl", "同样的问题，降级到 0.11.0 就正常了。"),
              (13.0, "li-hao-qw", "Does it happen with --quantization awq (not marlin)?"),
              (14.0, "zhangsan-nlp", "用 awq 就正常，只有 awq_marlin 有问题。"),
          ]),
        issue(29430, "[Usage]: 如何在两台机器上用 Ray 部署 DeepSeek-R1（每台 8 卡 H20）？", "xiaoming-w", 10.5, usage(
            "按照文档启动 Ray 集群后，`vllm serve` 报错 `ray.exceptions.RaySystemError`。"
            "请问多机部署的正确步骤是什么？"),
          labels=("usage",), talk=[
              (11.5, "lin-pengfei", "两台机器的 NCCL_SOCKET_IFNAME 要设置成同一个网卡，"
                                     "另外 -tp 8 -pp 2。"),
              (13.0, "xiaoming-w", "设置之后可以启动了，谢谢！"),
          ]),
        issue(29432, "[Bug]: Engine core died: `RuntimeError: NCCL error: unhandled system error` with DP=2 across "
                 "two nodes", "hpc-admin-ut", 12.5, bug(
            "Data parallel across two nodes (DP=2, TP=8 each). The engine dies at the first request.",
            log="RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled "
                "system error"),
          labels=("bug",), talk=[
              (19.0, "dsouza-r", "Usually an InfiniBand setup issue; can you share NCCL_DEBUG=INFO output?"),
          ]),
        issue(29435, "[Installation]: pip install vllm==0.11.2 on GH200 (aarch64) builds from source and fails",
          "tomh", 14.0, installation(
            "pip downloads the sdist instead of a wheel and the build fails.", command="pip install vllm==0.11.2",
            log="error: subprocess-exited-with-error ... CMake Error: CUDA_HOME not set"),
          labels=("installation",), talk=[
              (16.0, "bwtran", "Use `--extra-index-url https://download.pytorch.org/whl/cu128`; the aarch64 "
                               "wheel needs the matching torch."),
              (18.0, "tomh", "That worked, thanks."),
          ]),
        issue(29437, "[Bug]: Whisper-large-v3 transcription returns 500 for 8 kHz mp3 files", "maria-s", 13.0,
          bug("/v1/audio/transcriptions returns Internal Server Error for telephone-quality mp3 (8 kHz)."),
          labels=("bug",), talk=[(22.6, "okonkwo-d", "Fix in #29466.")]),
        issue(29439, "[Performance]: Qwen3-30B-A3B decode ~25% slower on v0.11.2 than v0.11.0 (H100, TP=2)",
          "anh-nguyen", 14.8, performance(
            "Same command, same hardware. Output throughput at concurrency 32: 4,210 tok/s on v0.11.0, 3,150 "
            "tok/s on v0.11.2. TPOT p50 7.6 ms -> 10.2 ms."),
          labels=("performance",), react=7, talk=[
              (17.0, "chenyu-z", "Thanks for the numbers. Bisecting now."),
              (19.0, "raghav-s", "Same on H200: about 20% slower."),
              (23.0, "chenyu-z", "Bisected to the fused_moe config lookup change (#29001): it falls back to "
                                 "the default config for E=128 on H100. Fix tomorrow."),
          ]),
        issue(29441, "[Bug]: prefix cache hit rate drops to 0% after upgrading to v0.11.2", "ivan-petrov-ml", 15.0,
          bug("Our chat workload had a 60% prefix cache hit rate on 0.11.0; on 0.11.2 the metric says 0% and "
              "TTFT doubled. Model: Llama-3.1-8B-Instruct."),
          labels=("bug",), react=4, talk=[
              (20.0, "hyeonwoo-k", "Do you set a custom `--hash-algo`? The default changed to sha256_cbor."),
              (21.0, "ivan-petrov-ml", "No, defaults. Will try to make a small repro."),
          ]),
        issue(29443, "[Usage]: CUDA out of memory when running two vLLM servers on one A100 80GB", "emma-w", 16.0,
          usage("I want to serve two 7B models on one GPU. The second server fails with CUDA out of memory. How "
                "do I split the memory?")),
        issue(29445, "[Feature]: Ascend 910B in the official Docker images", "liuyang1998", 16.8,
          feature("Please publish an image with the Ascend plugin preinstalled."), labels=("feature request",),
          talk=[(20.0, "sakura-dev", "+1")]),
        issue(29447, "[Bug]: Kimi-K2-Thinking: reasoning_content is empty when streaming", "yifan-dev", 17.2, bug(
            "Non-streaming responses have reasoning_content; streamed ones have it empty and the reasoning ends "
            "up in content.", repro="vllm serve moonshotai/Kimi-K2-Thinking -tp 8 --reasoning-parser kimi_k2"),
          labels=("bug",), react=4),
        issue(29449, "[Doc]: The Docker deployment page still passes --model to vllm serve", "thanh-le", 18.2,
          doc_issue("`vllm serve --model X` warns that --model is deprecated; the docs should use the "
                    "positional argument."), labels=("documentation",)),
        issue(29451, "[CI Failure]: entrypoints/openai tests time out on main since #29370", "sbhatt-vllm", 18.8,
          ci_failure("tests/entrypoints/openai", "Shard 2 times out after 45 minutes since the split."),
          labels=("ci-failure",), closed=21.0, talk=[
              (19.5, "mgrant", "The shard got all the slow tool-calling tests; rebalance?"),
              (20.9, "sbhatt-vllm", "Rebalanced and the JIT cache from #29440 helps; green again."),
          ]),
        issue(29422, "[RFC]: Deprecate the `guided_decoding_backend` request field", "aurelien-m", 7.8, rfc(
            "Structured output is configured per server since v0.10; the per-request field is ignored but "
            "still accepted, which confuses users.", "Warn in v0.12, remove in v0.13."),
          labels=("RFC",), talk=[
              (15.0, "pkowalski", "+1"),
              (16.5, "shreya-ml", "Some clients still send it; please keep accepting and ignoring it."),
          ]),
    ]
    return HandDay("hand-a-2025-11-25", datetime(2025, 11, 25, 3, 5, tzinfo=UTC), PEOPLE, items,
                   note="an ordinary weekday: a new model family, a day-0 crash and its fix, a hot RFC")


# --- Day B: release day (v0.12.0): a release thread, post-release breakage, a breaking removal -------------

def _day_b() -> HandDay:
    b200 = collect_env("NVIDIA B200", 8, "0.12.0", "2.9.0+cu130")
    h100 = collect_env("NVIDIA H100 80GB HBM3", 8, "0.12.0")
    items = [
        # --- earlier items that move today ---
        issue(30120, "[Release]: v0.12.0 release tracker", "aurelien-m", -96,
              "Tracking the v0.12.0 release. Branch cut on Dec 5. Blockers go here.\n\n- [x] #30071 FlashInfer "
              "0.5.3\n- [x] #30102 CUDA 13 wheels\n- [ ] release notes", labels=("release",), react=14, talk=[
                  (-50, "jiayi-xu", "#30150 should go in: it fixes the Qwen3-Next prefix caching bug."),
                  (-30, "aurelien-m", "Cherry-picked."),
                  (-6, "pkowalski", "RC2 passes the full nightly suite."),
                  (1.0, "aurelien-m", "v0.12.0 is out: wheels on PyPI, images on Docker Hub. Thanks all! 🎉", 22),
                  (2.5, "wangxm-ai", "The CUDA 12.8 wheel is missing on PyPI? pip picks the CUDA 13 one."),
                  (3.1, "aurelien-m", "PyPI gets the CUDA 13 wheel by default now (release notes); the cu128 "
                                      "wheel is on our wheel index."),
                  (4.0, "infra-sre-bob", "Our nodes have driver 550: the default wheel fails with 'CUDA driver "
                                         "version is insufficient'. This will hit a lot of people."),
                  (5.2, "gpu-poor-dev", "Same. Please at least make the error message point to the cu128 wheel."),
                  (6.0, "pkowalski", "Fair. We'll add a check at import that names the right wheel."),
                  (9.0, "k8s-herder", "Docker image v0.12.0 also needs driver >= 580."),
                  (12.5, "mgrant", "Docs updated with a compatibility table; import check in #30331."),
                  (16.0, "dataminer88", "Thanks for the quick reaction."),
              ]),
        pull(30150, "[Bugfix] Restore the mamba state on prefix cache hits for hybrid models", "hyeonwoo-k", -70,
             "Fixes gibberish from Qwen3-Next and other hybrid models when a shared prefix is not block aligned.",
             fixes="#29205", labels=("bug", "ready"), merged=-20, size=(210, 60, 6)),
        pull(30208, "[Core] Remove the deprecated `--task` flag (use `--runner` and `--convert`)", "noor-ali", -30,
             "`--task` was deprecated in v0.10 and has warned since. This removes it: `vllm serve --task embed` now "
             "fails with a message pointing to `--runner pooling`. Breaking for scripts that still pass it.",
             test="tests/entrypoints, tests/models/language/pooling", result="Pass.",
             labels=("ready",), merged=10.0, size=(140, 620, 31), react=4, talk=[
                 (-20, "shreya-ml", "Lots of tutorials still use --task embed. Can we keep an alias for one more "
                                    "release?"),
                 (-18, "noor-ali", "It has warned for 4 releases. The error message says exactly what to use."),
                 (2.0, "emilyt", "I agree with removing it; the message is clear."),
                 (9.8, "aurelien-m", "Merging for v0.12.1 notes."),
             ]),
        issue(30190, "[Bug]: Gemma 3 27B with sliding window produces repeated text beyond 8k context",
              "oksana-v", -40, bug(
                  "Beyond ~8k tokens of context the answers loop on a sentence. Below 8k they are fine. The sliding "
                  "window is 1024 for local layers.", env=h100),
              labels=("bug",), react=5, talk=[
                  (-30, "yifan-dev", "Same with gemma-3-12b-it."),
                  (-12, "hyeonwoo-k", "Which attention backend? FlashInfer's sliding window path had a bug fixed "
                                      "in 0.5.3."),
                  (3.0, "oksana-v", "FlashInfer, and 0.12.0 (with FlashInfer 0.5.3) still loops."),
                  (7.0, "hyeonwoo-k", "Reproduced, it's the KV cache manager freeing blocks still in the window "
                                      "for the global layers. Working on it."),
                  (20.0, "ivan-petrov-ml", "Also seeing it with Gemma 3n."),
              ]),
        pull(30230, "[Kernel] CUTLASS MLA decode for Blackwell with FP8 KV cache", "nv-sgupta", -26,
             "A CUTLASS MLA decode kernel for SM100 with FP8 KV cache. DeepSeek-R1 decode on 8xB200: TPOT p50 "
             "21.4 ms -> 14.9 ms at concurrency 64 (1.44x).", test="tests/kernels/attention/test_cutlass_mla.py",
             result="Pass; GSM8K 0.957.", labels=("ready", "deepseek"), merged=13.5, size=(1730, 140, 14),
             react=15, talk=[(12.0, "pkowalski", "LGTM, impressive."), (13.0, "zzq-infer", "🚀")]),
        issue(30244, "[Usage]: How to serve a LoRA adapter trained with PEFT on Qwen3-VL?", "anh-nguyen", -22,
              usage("Loading my adapter gives `ValueError: target module visual.blocks.0.attn.qkv is not "
                    "supported`."),
              labels=("usage",), talk=[
                  (-20, "anh-nguyen", "I also tried --enable-lora with max_lora_rank 64."),
                  (1.0, "anh-nguyen", "Same error on 0.12.0."),
                  (3.0, "anh-nguyen", "Is LoRA on the vision tower supported at all?"),
                  (8.0, "anh-nguyen", "Found #28830, looks like it is not. Any plans?"),
                  (10.0, "anh-nguyen", "Workaround: merged the vision adapter into the weights; LM adapter "
                                       "loads fine."),
              ]),
        pull(30251, "[CI] Retry flaky HF downloads in the model tests", "sbhatt-vllm", -18,
             "Wraps snapshot_download in 3 retries.", labels=("ci/build", "ready"), merged=1.5, size=(30, 4, 2),
             talk=[(0.5, "mergify[bot]", REBASE.format(author="sbhatt-vllm")),
                   (0.9, "mergify[bot]", "Merge queue: queued.")]),
        issue(30262, "[Bug]: DeepSeek-V3.2 with DP=8 + EP: the server freezes once a DP rank gets no requests",
              "ruslan-b", -15, bug(
                  "With --data-parallel-size 8 --enable-expert-parallel, when traffic is low and one DP rank gets "
                  "no request for ~30 s, all ranks stop making progress. No error, GPU at 0%."),
              labels=("bug", "deepseek"), react=8, talk=[
                  (-10, "kvcache-lab", "Dummy batches should keep idle ranks in step; maybe the wave counter?"),
                  (2.0, "chenyu-z", "Yes, the idle rank misses the wave change when the last request finishes "
                                    "on another rank. Can reproduce with DP=2."),
                  (6.0, "ruslan-b", "Thanks. Happy to test a patch on 8xH200."),
                  (23.7, "chenyu-z", "Patch in #30370."),
              ]),
        # --- opened in the window: pull requests ---
        pull(30302, "[Release] Bump version to 0.12.1.dev", "aurelien-m", 0.6, "Post-release bump.", merged=0.9,
             size=(1, 1, 1)),
        pull(30305, "[Model] Add GLM-4.6V (vision-language, MoE)", "li-hao-qw", 1.2,
             "Adds GLM-4.6V: the GLM-4.6 MoE language model with a vision encoder. Image and video inputs, "
             "tool calling with the glm45 parser, reasoning parser.",
             test="tests/models/multimodal with HF reference; MMMU val subset", result="MMMU 0.681 (reported 0.686).",
             labels=("new-model", "multi-modality", "ready"), merged=20.0, size=(1510, 40, 13), react=19, talk=[
                 (8.0, "hyeonwoo-k", "LGTM after the processor cache fix."),
             ]),
        pull(30307, "[Doc] Fix a broken link in the quantization index", "lwong-first", 1.8,
             "The AutoRound link 404s.", labels=("documentation",), merged=5.0, size=(1, 1, 1),
             association="FIRST_TIME_CONTRIBUTOR"),
        pull(30309, "[Misc] Remove unused `VLLM_USE_V1` references from the examples", "vtomasz", 2.2,
             "V0 is gone; the env var does nothing.", merged=7.5, size=(0, 26, 9)),
        pull(30311, "[Perf] Fuse the top-k/top-p sampler into one Triton kernel", "raghav-s", 3.0,
             "The sampler did a full sort of the vocabulary per step. A fused Triton kernel does a partial "
             "top-k then top-p. Sampling time per step on H100 with batch 256 and vocab 152k: 1.9 ms -> 0.35 "
             "ms; end-to-end throughput +7% on Qwen3-8B with top_p=0.95.",
             test="tests/v1/sample, distribution test against torch (KS test)", result="Pass.",
             labels=("performance", "ready"), merged=16.0, size=(520, 190, 6), react=12, talk=[
                 (9.0, "mgrant", "Please double check determinism with a seed."),
                 (11.0, "raghav-s", "Seeded runs are identical; test added."),
             ]),
        pull(30313, "Bump the python-packages group with 3 updates", "dependabot[bot]", 3.5, "",
             body=bump("huggingface/transformers", "4.57.3", "4.57.4"), labels=("dependencies",)),
        pull(30315, "[ROCm] Build the ROCm 7.1 image for v0.12.0", "amdteam-ci", 4.0,
             "Release image for ROCm 7.1 (MI300X/MI325X/MI355X).", labels=("rocm", "ci/build"), merged=9.0,
             size=(40, 20, 3)),
        pull(30318, "[Bugfix] Check the CUDA driver version at import and name the matching wheel", "pkowalski", 6.5,
             "The CUDA 13 default wheel fails on drivers < 580 with an opaque error. vLLM now checks the driver at "
             "import and says which wheel to install (cu128) and how.",
             test="Unit test with a mocked driver version", result="Pass.", labels=("ready",), merged=14.0,
             size=(70, 4, 3), react=11),
        pull(30320, "[Frontend] `/v1/responses`: support background mode", "shreya-ml", 7.0,
             "Adds `background: true` to the Responses API: the request returns at once and is polled with "
             "GET /v1/responses/{id}.", test="tests/entrypoints/openai/test_responses.py", result="Pass.",
             labels=("frontend",), size=(610, 30, 8), react=6, talk=[
                 (15.0, "noor-ali", "Where are background results kept and for how long?"),
                 (17.0, "shreya-ml", "In memory with a TTL (default 10 min, configurable)."),
             ]),
        pull(30322, "[Misc] Fix typos in vllm/config/cache.py docstrings", "dmytro-first", 8.0, "Docstring typos.",
             merged=12.0, size=(4, 4, 1), association="FIRST_TIME_CONTRIBUTOR"),
        pull(30324, "[CI/Build] Build and test the cu128 wheel in the release pipeline", "sbhatt-vllm", 9.0,
             "So the cu128 wheel is built and smoke-tested for every release.", labels=("ci/build",),
             merged=18.0, size=(95, 10, 3)),
        pull(30326, "[Hardware][TPU] Support Qwen3-30B-A3B MoE on TPU v6e", "ohara-k", 10.0,
             "MoE on TPU through the Pallas grouped matmul.", labels=("tpu",), size=(680, 90, 9),
             talk=[(18.0, "iglesias-j", "Works on v6e-8, 1.2k tok/s at batch 64.")]),
        pull(30328, "[V1] Deprecate `--num-scheduler-steps`", "mgrant", 11.0,
             "Multi-step scheduling was removed with V0; the flag now warns and does nothing.",
             merged=19.5, size=(20, 8, 3)),
        pull(30331, "[Doc] CUDA driver compatibility table for the wheels and images", "mgrant", 12.0,
             "Which wheel and which image for which driver.", labels=("documentation",), merged=12.8,
             size=(60, 4, 2)),
        pull(30333, "[Bugfix] Fix `min_tokens` being ignored with stop strings", "yuki-n", 13.0,
             "A stop string inside the first min_tokens tokens still stopped generation.", fixes="#30290",
             labels=("ready",), merged=21.0, size=(28, 6, 2)),
        pull(30335, "[Kernel] DeepGEMM FP8 MoE for DP+EP decode on Hopper", "kvcache-lab", 14.0,
             "Uses DeepGEMM's masked grouped GEMM for the decode phase with DeepEP low-latency all-to-all. "
             "DeepSeek-V3 with DP8+EP on 8xH200: output throughput +24% at concurrency 512.",
             test="tests/kernels/moe, e2e with DeepEP", result="Pass.",
             labels=("deepseek", "performance"), size=(1380, 220, 15), react=8, talk=[
                 (16.0, "chenyu-z", "Can this land after the fix for #30262? Both touch the DP "
                                    "wave logic."),
                 (17.5, "kvcache-lab", "Sure, will rebase."),
                 (21.0, "pkowalski", "Benchmarks reproduced on our cluster: +22%."),
             ]),
        pull(30337, "[Bugfix] Gemma 3: keep global-layer KV blocks alive beyond the sliding window",
             "hyeonwoo-k", 15.0,
             "The hybrid KV cache manager freed blocks of global-attention layers once they left the local "
             "window, so long contexts attended to recycled blocks.", fixes="#30190",
             test="Long-context e2e for gemma-3-27b-it (16k)", result="No repetition; matches HF.",
             labels=("bug",), size=(85, 30, 3), talk=[(20.5, "oksana-v", "Tested: fixed for us.")]),
        pull(30339, "[Misc] Rename `SamplingMetadata` fields for clarity", "gdimitrov", 16.0,
             "Internal rename, no behaviour change.", size=(180, 176, 14)),
        pull(30341, "[Frontend] Make `--enable-auto-tool-choice` the default when a tool parser is given",
             "emilyt", 16.5,
             "Users who pass --tool-call-parser almost always want auto tool choice; it is now on by default "
             "in that case.", labels=("frontend", "tool-calling"), size=(30, 10, 3), talk=[
                 (18.0, "noor-ali", "This changes behaviour for people who want only named tool choice. Flag "
                                    "to turn it off?"),
                 (19.0, "emilyt", "`--no-enable-auto-tool-choice` works, I'll document it."),
             ]),
        pull(30343, "[CI] Skip the TPU job on docs-only changes", "sbhatt-vllm", 17.0, "Saves TPU minutes.",
             labels=("ci/build",), merged=17.6, size=(6, 1, 1)),
        pull(30345, "[Quantization] Online MXFP4 quantization of MoE weights on MI355X", "tjiang-amd", 18.0,
             "Quantize BF16 MoE weights to MXFP4 at load time on gfx950 (`--quantization mxfp4`).",
             labels=("rocm", "quantization"), draft=True, size=(460, 40, 7)),
        pull(30347, "[Bugfix] Fix the Responses API dropping `instructions` on the second turn", "wenbo-h", 19.0,
             "`previous_response_id` lost the instructions.", labels=("frontend",), size=(24, 5, 2)),
        pull(30349, "[Misc] Clean up stale TODOs in the model runner", "tensorsmith", 20.0, "Comments only.",
             merged=22.0, size=(0, 30, 2)),
        pull(30351, "[Spec Decode] Support EAGLE-3 with async scheduling", "fzhou-ml", 21.0,
             "Speculative decoding with EAGLE-3 no longer falls back to sync scheduling.",
             labels=("speculative-decoding",), size=(390, 120, 8)),
        pull(30353, "[Chore] Update the PR template wording", "aurelien-m", 22.0, "Template text.",
             merged=22.5, size=(6, 6, 1)),
        # --- opened in the window: issues ---
        issue(30301, "[Bug]: v0.12.0 docker image fails to start: `libcudart.so.13: cannot open shared object "
                     "file`", "k8s-herder", 1.5, bug(
            "vllm/vllm-openai:v0.12.0 on nodes with driver 550 exits immediately.",
            log="ImportError: libcudart.so.13: cannot open shared object file: No such file or directory"),
              labels=("bug",), react=21, closed=13.0, reason="completed", talk=[
                  (2.0, "infra-sre-bob", "Same, all our clusters are on 550."),
                  (2.4, "pedro-mlops", "+1"),
                  (2.9, "chen-jl", "same here"),
                  (3.3, "aurelien-m", "The v0.12.0 image needs driver >= 580 (CUDA 13). Use "
                                      "vllm/vllm-openai:v0.12.0-cu128 until you upgrade the driver."),
                  (5.0, "k8s-herder", "The -cu128 tag works. Please put it in the release notes."),
                  (12.9, "mgrant", "Documented in #30331. Closing."),
              ]),
        issue(30303, "[Bug]: Illegal instruction (core dumped) on import with the v0.12.0 CPU wheel on older "
                     "Xeons", "hpc-admin-ut", 2.0, bug(
            "`import vllm` crashes with 'Illegal instruction (core dumped)' on Xeon E5-2690 v4 (no AVX-512).",
            env=collect_env("", 0, "0.12.0+cpu", "2.9.0+cpu", "cpu")),
              labels=("bug", "cpu"), react=4, talk=[
                  (6.0, "akumar-intel", "The CPU wheel now requires AVX-512; we should fail with a message. Will "
                                        "fix."),
              ]),
        issue(30306, "[Bug]: Qwen3-235B-A22B-Instruct-2507 answers are cut off: `finish_reason` is `stop` after "
                     "a few tokens since 0.12.0", "qwen-user-77", 3.0, bug(
            "Since upgrading to 0.12.0, about a third of answers stop after 3-10 tokens with finish_reason "
            "'stop'. On 0.11.2 the same prompts give full answers.", env=h100,
            repro="vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8"),
              labels=("bug", "qwen"), react=9, talk=[
                  (5.0, "zzq-infer", "Also seeing short answers, only with the new fused sampler?"),
                  (6.5, "raghav-s", "0.12.0 doesn't have the fused sampler yet. Does it happen with "
                                    "temperature 0?"),
                  (7.0, "qwen-user-77", "Only with temperature > 0 and top_k=20."),
                  (10.0, "li-hao-qw", "Looks like generation_config's stop token ids now include <|im_end|> and "
                                      "<|endoftext|> twice... investigating."),
              ]),
        issue(30308, "[Usage]: How to get logprobs for the prompt tokens with the OpenAI client?", "tomh", 3.5,
              usage("I get `TypeError: create() got an unexpected keyword argument 'prompt_logprobs'`."),
              labels=("usage",), closed=6.0, talk=[
                  (5.5, "bwtran", "Pass it via extra_body={'prompt_logprobs': 1}."),
                  (5.9, "tomh", "Works, thanks!"),
              ]),
        issue(30310, "[Bug]: `vllm serve` with `--task embed` no longer works", "maria-s", 4.2, bug(
            "After upgrading, `vllm serve BAAI/bge-m3 --task embed` fails with 'unrecognized arguments: --task'.",
            env="N/A"), labels=("bug",), closed=5.8, reason="not_planned", talk=[
                (5.5, "noor-ali", "`--task` was removed after 4 releases of warnings; use `--runner pooling`. See "
                                  "the v0.12.0 release notes."),
                (5.7, "maria-s", "Ok, thanks."),
            ]),
        issue(30312, "[Bug]: Engine core crashes with `CUBLAS_STATUS_EXECUTION_FAILED` on B200 for Llama-3.1-405B "
                     "FP8", "miles-w", 5.0, bug(
            "On 8xB200 with the FP8 checkpoint the engine core dies after a few minutes of load.", env=b200,
            log="RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling cublasLtMatmul"),
              labels=("bug",), react=3, talk=[
                  (12.0, "nv-sgupta", "Can you try with VLLM_USE_FLASHINFER_MOE_FP8=0 and "
                                      "VLLM_DISABLE_CUTLASS_SCALED_MM=1 to narrow it?"),
              ]),
        issue(30314, "[Feature]: Publish cu128 wheels on PyPI as well", "gpu-poor-dev", 5.5, feature(
            "Many clusters can't upgrade the driver. A `vllm-cu128` package on PyPI would help."),
              labels=("feature request",), react=17, talk=[
                  (6.0, "infra-sre-bob", "+1, the extra index URL is a pain in locked-down environments."),
                  (7.2, "alexkr", "+1"),
                  (8.0, "aurelien-m", "PyPI size limits make this hard; we're discussing it with PyPI."),
                  (11.0, "lucia-r", "What about a `vllm[cu128]` extra that pulls the right torch?"),
                  (14.0, "mgrant", "Extras can't switch the wheel itself. Keeping this open."),
              ]),
        issue(30316, "[Bug]: GLM-4.5-Air tool calls come back as plain text inside `content`", "sofia-pl", 6.0,
              bug("With --tool-call-parser glm45 and streaming, tool calls appear as raw XML in content instead "
                  "of tool_calls."), labels=("bug", "tool-calling"), talk=[
                  (13.0, "li-hao-qw", "Streaming path of glm45 doesn't handle the new template; fix soon."),
              ]),
        issue(30317, "[Usage]: vLLM 0.12.0 多卡推理时显存占用比 0.11 高很多，怎么设置？", "liuyang1998", 7.3,
              usage("同样的模型和参数，0.12.0 每张卡多占了 6GB 显存，导致 OOM。需要调整哪些参数？"),
              labels=("usage",), talk=[
                  (9.0, "lin-pengfei", "0.12 默认开启了更大的 CUDA graph 捕获范围，可以设置 "
                                       "--max-cudagraph-capture-size 256。"),
              ]),
        issue(30319, "[Bug]: Throughput on Llama-3.1-8B dropped ~15% on v0.12.0 vs v0.11.2 (A100)",
              "ivan-petrov-ml", 8.0, performance(
                  "Offline benchmark, 1000 ShareGPT prompts on 1xA100: 29.8 req/s on v0.11.2, 25.3 req/s on "
                  "v0.12.0."),
              labels=("performance",), react=3, talk=[
                  (15.0, "chenyu-z", "Is this with the cu128 wheel? A100 + CUDA 13 builds miss some tuned "
                                     "kernels."),
                  (16.0, "ivan-petrov-ml", "Yes cu128. Will try the default wheel after the driver upgrade."),
              ]),
        issue(30321, "[Bug]: Whisper returns an empty transcription for audio longer than 30 s", "dr-ramos", 9.5,
              bug("For files longer than 30 s, /v1/audio/transcriptions returns `{\"text\": \"\"}`."),
              labels=("bug",), react=2),
        issue(30323, "[Feature]: `vllm bench serve --percentile-metrics` should include ITL p99.9", "ks-cho", 10.5,
              feature("For SLO tracking we need p99.9."), labels=("feature request",)),
        issue(30325, "[Bug]: Potential race? Requests with the same `request_id` overwrite each other's output",
              "alexkr", 11.5, bug(
                  "Two concurrent requests with the same custom request_id (sent by a retrying proxy) get each "
                  "other's tokens, mixed. Expected: the second one rejected."),
              labels=("bug",), react=4, talk=[
                  (14.0, "jiayi-xu", "We should reject duplicate ids; a random suffix is added only for the "
                                     "internal id. Will look."),
              ]),
        issue(30327, "[Installation]: Building from source with CUDA 12.6 fails on v0.12.0", "thanh-le", 12.0,
              installation("CMake error: CUDA 12.8 or newer is required.", command="pip install -e .",
                           log="CMake Error at CMakeLists.txt:95: CUDA >= 12.8 required"),
              labels=("installation",), talk=[
                  (15.0, "sbhatt-vllm", "12.8 is the minimum since v0.11.1; please upgrade the toolkit."),
              ]),
        issue(30329, "[Doc]: Release notes do not mention that `--task` was removed", "shreya-ml", 12.2,
              doc_issue("It's only in the PR description."), labels=("documentation",), closed=14.0,
              talk=[(13.9, "aurelien-m", "Added, thanks.")]),
        issue(30330, "[Bug]: Kimi-K2 outputs only `!!!!!!!!` with DP=2 on v0.12.0", "deepfry-ai", 13.0, bug(
            "With data parallel 2 (TP=8 each) every answer is a long run of exclamation marks. DP=1 is fine.",
            repro="vllm serve moonshotai/Kimi-K2-Instruct-0905 -tp 8 -dp 2"),
              labels=("bug",), react=6, talk=[
                  (16.0, "kvcache-lab", "Is EP on? The DP+EP path changed in 0.12."),
                  (16.5, "deepfry-ai", "No EP."),
                  (19.0, "yuki-n", "Same on H20, DP=2, garbage output."),
              ]),
        issue(30332, "[RFC]: Drop CUDA 12.8 wheels after v0.13", "sbhatt-vllm", 13.5, rfc(
            "Maintaining two CUDA builds doubles release CI time.", "Keep cu128 through v0.13, then CUDA 13 only."),
              labels=("RFC",), react=2, talk=[
                  (14.0, "infra-sre-bob", "-1. Driver upgrades take months in regulated environments."),
                  (14.5, "gpu-poor-dev", "-1 for the same reason."),
                  (15.0, "bob-the-sre", "Strong -1: our provider is on 550 until mid-2026."),
                  (16.0, "sbhatt-vllm", "Understood. What would be an acceptable timeline?"),
                  (16.7, "infra-sre-bob", "Twelve months after the CUDA 13 default at least."),
                  (18.0, "pkowalski", "Let's decide based on download stats per wheel."),
                  (19.5, "k8s-herder", "Please keep cu128 images too, not only wheels."),
                  (22.0, "mgrant", "Agree with data-driven; we'll publish the stats next week."),
              ]),
        issue(30334, "[Bug]: Prometheus metric `vllm:num_requests_running` is stuck at 1 after an abort",
              "pedro-mlops", 14.5, bug("After aborting a request, the gauge stays at 1 forever."),
              labels=("bug",)),
        issue(30336, "[Usage]: Which attention backend is used on RTX 5090?", "gpu-poor-dev", 15.5,
              usage("The log says FLASHINFER but the docs say FLASH_ATTN for SM120."), labels=("usage",)),
        issue(30338, "[Bug]: MiniMax-M2 crashes with `RuntimeError: shape mismatch` when max_num_seqs > 256",
              "zzq-infer", 17.0, bug(
                  "Startup succeeds, the first batch above 256 sequences raises RuntimeError: shape mismatch in "
                  "the lightning attention kernel and the engine dies."),
              labels=("bug",), react=2),
        issue(30340, "[CI Failure]: v1/e2e fails on B200 after FlashInfer 0.5.3", "pkowalski", 18.0,
              ci_failure("tests/v1/e2e/test_spec_decode.py", "Numerical mismatch on B200 only."),
              labels=("ci-failure",)),
        issue(30342, "[Feature]: Return reasoning tokens count in usage for reasoning models", "lucia-r", 19.5,
              feature("OpenAI returns `completion_tokens_details.reasoning_tokens`."),
              labels=("feature request",), react=6),
        issue(30344, "[Bug]: gpt-oss-20b on RTX 4090 fails with `Unsupported quantization: mxfp4`", "xiaoming-w",
              21.0, bug("MXFP4 should work on Ada per the docs, but startup fails."),
              labels=("bug", "gpt-oss")),
        issue(30346, "[Usage]: 是否支持在 910B 上运行 Qwen3-VL？", "chen-jl", 22.0,
              usage("请问 vLLM 0.12 是否支持昇腾 910B 上跑 Qwen3-VL？"), labels=("usage",)),
        pull(30355, "[Bugfix] Reject duplicate request ids in the API server", "jiayi-xu", 22.8,
             "A second in-flight request with the same request_id now gets a 400 instead of sharing outputs.",
             fixes="#30325", labels=("bug", "frontend"), size=(40, 6, 3)),
        pull(30357, "[ROCm][CI] Pin the AITER commit for the v0.12.1 images", "amdteam-ci", 23.0,
             "Reproducible ROCm images.", labels=("rocm", "ci/build"), merged=23.6, size=(2, 2, 1)),
        pull(30359, "[Bugfix] Fail with a clear message on CPUs without AVX-512", "akumar-intel", 23.1,
             "Instead of 'Illegal instruction', say which CPU features the CPU wheel needs.", fixes="#30303",
             labels=("cpu",), size=(35, 2, 2)),
        pull(30361, "[Model] bge-m3: return sparse and ColBERT outputs", "okonkwo-d", 23.2,
             "The pooling runner can now return bge-m3's lexical weights and multi-vector outputs.",
             size=(300, 20, 5)),
        pull(30363, "Bump docker/build-push-action from 5 to 6", "dependabot[bot]", 23.3, "",
             body=bump("docker/build-push-action", "5", "6"), labels=("dependencies", "github_actions")),
        issue(30365, "[Bug]: LoRA adapters with `modules_to_save` fail to load", "tomh", 23.4,
              bug("`KeyError: 'base_model.model.lm_head.modules_to_save.default.weight'` on load."),
              labels=("bug",)),
        issue(30367, "[Bug]: `vllm chat` exits with UnicodeDecodeError on WSL", "emma-w", 23.5,
              bug("Typing a non-ASCII character in `vllm chat` on WSL2 exits the client."), labels=("bug",)),
        pull(30370, "[Bugfix] Keep idle DP ranks in step when the last request finishes on another rank",
             "chenyu-z", 23.55,
             "Idle ranks missed the wave change and waited forever; they now get the wave from the coordinator.",
             fixes="#30262", test="New DP=2 test with one idle rank", result="No freeze in 100 runs.",
             labels=("bug",), size=(120, 35, 4)),
    ]
    return HandDay("hand-b-2025-12-09", datetime(2025, 12, 9, 3, 5, tzinfo=UTC), PEOPLE, items,
                   note="release day: a release thread, post-release breakage, a breaking removal, a wheel debate")


# --- Day C: a vendor-heavy day (AMD/ROCm): an accuracy bug on MI355X, a plugin RFC, kernel work ------------

def _day_c() -> HandDay:
    mi355 = collect_env("AMD Instinct MI355X", 8, "0.13.0+rocm710", "2.9.1+rocm7.1", "rocm")
    mi300 = collect_env("AMD Instinct MI300X", 8, "0.13.0+rocm710", "2.9.1+rocm7.1", "rocm")
    h20 = collect_env("NVIDIA H20", 8, "0.13.0", "2.9.1+cu129")
    items = [
        # --- earlier items that move today ---
        issue(32210, "[Bug]: DeepSeek-R1 FP8 on MI355X: GSM8K drops from 0.95 to 0.21 with AITER MLA", "ntt-yamada",
              -30, bug(
                  "With VLLM_ROCM_USE_AITER=1 (default on MI355X since v0.13.0) DeepSeek-R1 answers are mostly "
                  "wrong: GSM8K 0.21. With VLLM_ROCM_USE_AITER_MLA=0 it is 0.95. Outputs look fluent but the "
                  "numbers are wrong.", env=mi355,
                  repro="lm_eval --model local-completions --tasks gsm8k --num_fewshot 5 ..."),
              labels=("bug", "rocm"), react=16, talk=[
                  (-26, "tjiang-amd", "Thanks for the report. Which AITER commit is in your image?"),
                  (-25, "ntt-yamada", "The one in rocm/vllm:v0.13.0 (aiter 0.1.7)."),
                  (-12, "hpc-admin-ut", "Same on 8xMI355X with DeepSeek-V3-0324: 0.24."),
                  (-5, "mkaur-amd", "Reproduced. Only with max_num_seqs > 128, the MLA decode kernel picks a "
                                    "split-k config that overflows."),
                  (1.5, "rvoss-amd", "Can we disable that config in vLLM until the AITER fix is released?"),
                  (2.2, "mkaur-amd", "Yes, a one-line guard; PR soon."),
                  (3.0, "dsouza-r", "Please add a GSM8K accuracy check for MI355X to the nightly; this should "
                                    "have been caught."),
                  (4.5, "amdteam-ci", "Nightly accuracy job for DeepSeek-R1 on MI355X added to the AMD CI "
                                      "pipeline."),
                  (6.0, "ntt-yamada", "Tested the guard from the branch: GSM8K 0.953 👍", 3),
                  (9.0, "zzq-infer", "Is the fix going into a v0.13.1?"),
                  (11.0, "aurelien-m", "Yes, it's on the v0.13.1 list."),
                  (20.0, "hpc-admin-ut", "Confirmed on V3-0324 too, thanks all."),
              ]),
        issue(32188, "[RFC]: Move the ROCm platform out of tree as a plugin", "sbhatt-vllm", -50, rfc(
            "ROCm code paths are spread across the tree and CI on AMD hardware often blocks unrelated PRs. A "
            "platform plugin (like the TPU and Ascend ones) would let AMD release on their own cadence.",
            "1. Define the remaining platform hooks.\n2. Move vllm/platforms/rocm.py and the ROCm kernels to "
            "vllm-rocm.\n3. Keep AMD CI as a required check for the hooks only.", "@rvoss-amd @tjiang-amd"),
              labels=("RFC", "rocm"), react=9, talk=[
                  (-40, "rvoss-amd", "We'd prefer to stay in tree: users expect `pip install vllm` to work on "
                                     "ROCm, and most kernels are shared Triton code."),
                  (-30, "tjiang-amd", "Agree with @rvoss-amd, the AITER integration touches the model code."),
                  (1.0, "pkowalski", "The CI pain is real though: 20% of main's red runs last month were ROCm "
                                     "jobs."),
                  (2.0, "rvoss-amd", "Most were capacity, which is fixed with the new MI325X pool."),
                  (4.0, "jiayi-xu", "Middle ground: keep it in tree but make the ROCm jobs non-blocking for PRs "
                                    "that don't touch ROCm paths?"),
                  (5.5, "sbhatt-vllm", "That's doable with path filters."),
                  (7.0, "mkaur-amd", "+1 to the middle ground."),
                  (8.0, "gdimitrov", "As a user on MI300X: please keep it in tree, plugins lag behind."),
                  (12.0, "aurelien-m", "Let's do the path-filter approach and revisit in 3 months."),
                  (14.0, "sbhatt-vllm", "Updated the RFC accordingly."),
              ]),
        pull(32230, "[ROCm][Quantization] MXFP4 MoE for gpt-oss via AITER on MI355X", "pchen-amd", -28,
             "gpt-oss-120b and gpt-oss-20b use AITER's MXFP4 MoE kernel on gfx950 instead of dequantizing to "
             "BF16. gpt-oss-120b on 1xMI355X: output throughput 2.1x at concurrency 32 (1,310 -> 2,760 tok/s), "
             "TTFT p50 -35%.", test="GPQA diamond, AIME25 with the reference settings",
             result="GPQA 0.79 (BF16 path 0.79); AIME25 0.92.", labels=("rocm", "gpt-oss", "ready"),
             merged=8.0, size=(680, 70, 9), react=14, talk=[
                 (-20, "dsouza-r", "Please gate it on gfx950 only."),
                 (-18, "pchen-amd", "Done."),
                 (7.5, "dsouza-r", "LGTM."),
             ]),
        pull(32250, "[ROCm][Perf] Tune the Triton unified attention for MI300X prefill", "mkaur-amd", -20,
             "New block sizes for prefill on gfx942.", labels=("rocm",), size=(150, 40, 3), talk=[
                 (-18, "mkaur-amd", "Benchmarks on Llama-3.1-70B TP8: prefill +11%."),
                 (-10, "mkaur-amd", "Updated after review: also +8% for Qwen3-32B."),
                 (1.0, "mkaur-amd", "Added numbers for 128k context: +14%."),
                 (3.5, "mkaur-amd", "Fixed the unit test on gfx90a."),
                 (7.0, "mkaur-amd", "CI green except unrelated spec decode flake."),
                 (15.0, "rvoss-amd", "LGTM, thanks."),
             ]),
        issue(32266, "[Bug]: gfx1201 (Radeon RX 9070 XT): `HIP error: invalid device function` at startup",
              "gpu-poor-dev", -12, bug(
                  "vLLM built from source with ROCm 7.1 for gfx1201 fails on the first forward pass.",
                  log="torch.AcceleratorError: HIP error: invalid device function"),
              labels=("bug", "rocm"), react=5, talk=[
                  (2.0, "pchen-amd", "gfx1201 isn't in the default PYTORCH_ROCM_ARCH of the build; set "
                                     "PYTORCH_ROCM_ARCH=gfx1201 and rebuild."),
                  (5.0, "gpu-poor-dev", "Rebuilt with that: now it starts but crashes in the custom paged "
                                        "attention kernel."),
                  (8.0, "pchen-amd", "The custom paged attention has no RDNA4 path yet; use "
                                     "VLLM_ROCM_CUSTOM_PAGED_ATTN=0 for now. Will add one."),
              ]),
        pull(32280, "[Model] Add Kimi-Linear-48B-A3B (hybrid linear attention)", "li-hao-qw", -18,
             "Adds Kimi-Linear: KDA linear attention layers interleaved with MLA, MoE MLP. Reuses the mamba "
             "state cache manager.", test="tests/models/language with the HF reference",
             result="Outputs match on 30 prompts; MMLU-Pro 0.73.", labels=("new-model", "ready"), merged=14.0,
             size=(1320, 60, 12), react=17, talk=[(13.0, "hyeonwoo-k", "LGTM 🚀")]),
        # --- opened in the window: pull requests ---
        pull(32402, "[ROCm][Bugfix] Guard the AITER MLA split-k config that corrupts outputs for large batches",
             "mkaur-amd", 2.5,
             "AITER's MLA decode picked a split-k configuration whose partial sums overflowed for "
             "max_num_seqs > 128 on gfx950, giving wrong answers. vLLM now caps the split until AITER ships the "
             "fix.", fixes="#32210", test="GSM8K DeepSeek-R1 on 8xMI355X, max_num_seqs 256",
             result="0.953 (before 0.21).", labels=("rocm", "bug", "ready"), merged=12.0, size=(14, 2, 1),
             react=9, talk=[(11.5, "rvoss-amd", "LGTM, critical for v0.13.1.")]),
        pull(32404, "[CI/Build][ROCm] Make ROCm jobs non-blocking for PRs that don't touch ROCm paths",
             "sbhatt-vllm", 13.0, "Implements the middle ground agreed in #32188.",
             labels=("ci/build", "rocm"), size=(60, 10, 2), talk=[
                 (15.0, "rvoss-amd", "Please include vllm/model_executor/layers/fused_moe in the filter."),
                 (16.0, "sbhatt-vllm", "Added."),
             ]),
        pull(32406, "[Spec Decode] Suffix decoding for agentic and repetitive workloads", "fzhou-ml", 1.0,
             "Adds suffix decoding (a draft-model-free method that matches the prompt and earlier outputs with "
             "a suffix tree). On SWE-bench agent traces with Qwen3-Coder-30B-A3B: 2.3x decode speed-up at batch "
             "1, 1.6x at batch 8; no change to outputs (greedy).", test="tests/v1/spec_decode",
             result="Pass; acceptance length 4.7 on the traces.", labels=("speculative-decoding", "ready"),
             merged=21.0, size=(870, 30, 10), react=21, talk=[
                 (6.0, "mgrant", "Very nice. Does it need `arctic-inference`?"),
                 (7.0, "fzhou-ml", "Optional dependency; vLLM raises a clear error if missing."),
                 (20.5, "mgrant", "Approved."),
             ]),
        pull(32408, "[Core] Turn on prefix caching for hybrid (mamba) models by default", "hyeonwoo-k", 3.0,
             "Prefix caching for Qwen3-Next, Kimi-Linear, Granite 4.0-H and other hybrids was opt-in since its "
             "fixes in v0.12. It is now on by default like for other models (`--no-enable-prefix-caching` turns "
             "it off). Multi-turn chat TTFT p50 on Qwen3-Next: -48%.",
             labels=("ready",), merged=18.0, size=(26, 14, 3), react=7, talk=[
                 (10.0, "chenyu-z", "Please note it in the release notes, memory use changes slightly."),
             ]),
        pull(32410, "[Doc] Fix the AITER env var names on the ROCm install page", "newbie-pat", 3.5,
             "VLLM_ROCM_USE_AITER_MHA was spelled VLLM_ROCM_AITER_MHA.", labels=("documentation", "rocm"),
             merged=9.0, size=(3, 3, 1)),
        pull(32412, "[Misc] Remove unused `is_hip()` shim", "vtomasz", 4.0, "Use current_platform.is_rocm().",
             merged=10.5, size=(2, 24, 6)),
        pull(32414, "[Kernel][ROCm] FP8 per-token-group quant kernel for gfx942/gfx950", "tjiang-amd", 4.5,
             "A HIP kernel for per-token-group FP8 quant (block-scaled models), 1.8x faster than the Triton "
             "one on MI300X.", labels=("rocm",), size=(420, 10, 5), talk=[
                 (9.0, "dsouza-r", "Numbers for DeepSeek-V3 end to end?"),
                 (12.0, "tjiang-amd", "+4% output throughput at concurrency 64."),
             ]),
        pull(32416, "Bump actions/upload-artifact from 4 to 6", "dependabot[bot]", 5.0, "",
             body=bump("actions/upload-artifact", "4", "6"), labels=("dependencies", "github_actions"),
             merged=16.0),
        pull(32418, "[Bugfix] Qwen3-Coder tool parser: handle `null` parameter values", "wenbo-h", 5.5,
             "Parameters with value null were emitted as the string 'null'.", fixes="#32405",
             labels=("tool-calling",), merged=19.0, size=(30, 6, 2)),
        pull(32420, "[Hardware][Intel GPU] Support MoE models on XPU with the SYCL grouped GEMM",
             "akumar-intel", 6.0, "Qwen3-30B-A3B and gpt-oss-20b on Intel Arc Pro B60.",
             labels=("intel-gpu",), size=(760, 80, 9), talk=[(17.0, "ohara-k", "Reviewing.")]),
        pull(32422, "[Misc] Move the ROCm env vars to vllm/envs/rocm.py", "gdimitrov", 6.5,
             "Pure move, no behaviour change.", labels=("rocm",), merged=15.5, size=(140, 136, 5)),
        pull(32424, "[ROCm][CI] Add the nightly GSM8K accuracy job for MI355X", "amdteam-ci", 7.0,
             "The job that would have caught #32210.", labels=("rocm", "ci/build"), merged=11.0, size=(80, 0, 2)),
        pull(32426, "[Bugfix] Fix RDNA4 paged attention fallback", "pchen-amd", 9.5,
             "Use the Triton path on gfx12 instead of the custom kernel.", fixes="#32266",
             labels=("rocm",), merged=20.0, size=(12, 3, 1)),
        pull(32428, "[Frontend] Add `--max-log-len` to truncate logged prompts", "shreya-ml", 10.0,
             "Prompts in request logs are truncated to this many characters.", labels=("frontend",),
             size=(40, 6, 3)),
        pull(32430, "[Model] Support Qwen3-VL in the pooling runner (multimodal embeddings)", "li-hao-qw", 11.0,
             "Image and text embeddings from Qwen3-VL-Embedding.", labels=("qwen", "multi-modality"),
             draft=True, size=(520, 30, 7)),
        pull(32432, "[Perf][ROCm] Enable HIP graphs for the sampler on MI300X", "rvoss-amd", 12.5,
             "Captures the sampler in the decode graph. TPOT p50 -6% on Llama-3.1-8B.", labels=("rocm",),
             size=(90, 30, 3)),
        pull(32434, "[CI] Fix a flaky LoRA test by fixing the seed", "raghav-s", 13.5, "Seeded.",
             labels=("ci/build",), merged=14.2, size=(2, 1, 1)),
        pull(32436, "[Bugfix] Fix PP=2 with Llama 4 on ROCm: send the right intermediate tensors",
             "iglesias-j", 15.0, "The MoE shared expert output was not passed to the next stage.",
             fixes="#32413", labels=("rocm",), size=(26, 8, 2), talk=[
                 (19.0, "tjiang-amd", "Confirmed it fixes PP=2 on 2x4 MI300X."),
             ]),
        pull(32438, "[Misc] Typo fixes in the scheduler docstrings", "lwong-first", 16.0, "Typos.",
             merged=22.0, size=(5, 5, 2)),
        pull(32440, "[Quantization] Quark: load MXFP4 and FP8 checkpoints with per-layer mixed precision",
             "pchen-amd", 17.0,
             "Quark can export models where some layers are MXFP4 and others FP8; vLLM now loads them (MI355X "
             "and MI300X via emulation).", labels=("rocm", "quantization"), size=(380, 40, 6), talk=[
                 (20.0, "mkaur-amd", "Tested with the Quark DeepSeek-R1 mixed checkpoint: GSM8K 0.948."),
             ]),
        pull(32442, "[Bugfix] Fix OOM during profiling with 128k max_model_len on ROCm", "mkaur-amd", 19.0,
             "The profiling run allocated the full attention scratch for 128k tokens.", fixes="#32417",
             labels=("rocm",), size=(18, 4, 1)),
        pull(32444, "[Chore] Bump the minimum ROCm to 6.4", "rvoss-amd", 20.5,
             "ROCm 6.3 builds have been broken for a month.", labels=("rocm", "ci/build"), size=(10, 30, 4)),
        pull(32446, "[Core] Refactor the platform interface: fewer `is_rocm()` checks in model code",
             "sbhatt-vllm", 22.0,
             "Adds platform hooks for attention backend choice and quant kernel choice so models stop checking "
             "the platform. Touches 14 model files.", size=(460, 520, 22), talk=[
                 (23.0, "rvoss-amd", "Thanks, this is what we asked for in #32188."),
             ]),
        # --- opened in the window: issues ---
        issue(32401, "[Bug]: Is there a deadlock in custom all-reduce with TP=8 on MI325X when graphs are "
                     "captured?", "iglesias-j", 0.5, bug(
                  "Under load, every few hours all 8 workers sit at 100% CPU inside the custom all-reduce "
                  "barrier and no request completes. --disable-custom-all-reduce avoids it.", env=mi300),
              labels=("bug", "rocm"), react=4, talk=[
                  (3.0, "rvoss-amd", "Known on ROCm 7.0 with IPC handles reused after a graph replay; does "
                                     "ROCm 7.1 help?"),
                  (8.0, "iglesias-j", "Still stuck on 7.1, after 5 hours."),
                  (10.0, "hpc-admin-ut", "Seeing the same freeze on MI300X, TP=8."),
              ]),
        issue(32403, "[Usage]: How to enable AITER kernels on MI250X?", "ks-cho", 1.8,
              usage("Setting VLLM_ROCM_USE_AITER=1 on MI250X fails with 'No module named aiter'."),
              labels=("usage", "rocm"), closed=6.0, talk=[
                  (4.0, "pchen-amd", "AITER supports gfx942 and gfx950 only; MI250X (gfx90a) uses the Triton "
                                     "and custom kernels."),
                  (5.9, "ks-cho", "Understood, thanks."),
              ]),
        issue(32405, "[Bug]: Qwen3-Coder-480B tool calls have `null` where arguments should be", "deepfry-ai", 2.0,
              bug("Streaming tool calls: `arguments` comes back as null for about one in ten calls.",
                  env=h20), labels=("bug", "tool-calling"), react=3, talk=[
                  (5.6, "wenbo-h", "Fix in #32418."),
              ]),
        issue(32407, "[Bug]: Prefill ~3x slower on MI300X since v0.13.0", "gdimitrov", 3.2, performance(
            "Llama-3.1-70B TP=8, input 8k: TTFT p50 480 ms on v0.12.0, 1,450 ms on v0.13.0. Decode unchanged.",
            env=mi300),
              labels=("performance", "rocm"), react=5, talk=[
                  (5.0, "mkaur-amd", "v0.13.0 switched the default attention backend on gfx942 to the Triton "
                                     "unified attention; #32250 tunes it. Can you try "
                                     "VLLM_ATTENTION_BACKEND=ROCM_AITER_FA meanwhile?"),
                  (9.0, "gdimitrov", "With ROCM_AITER_FA: 470 ms. So it's the backend choice."),
                  (11.0, "rvoss-amd", "We'll switch the default back for gfx942 in v0.13.1."),
              ]),
        issue(32409, "[Bug]: 使用 Quark 量化的 Qwen3-32B 在 MI308X 上加载失败", "zhangsan-nlp", 4.0, bug(
            "用 AMD Quark 导出的 FP8 Qwen3-32B 在 MI308X 上加载时报错 KeyError: 'input_scale'。",
            env=mi300, log="KeyError: 'model.layers.0.self_attn.qkv_proj.input_scale'"),
              labels=("bug", "rocm", "quantization"), talk=[
                  (7.0, "pchen-amd", "Quark 0.10 的导出格式改了，#32440 会支持。暂时可以用 Quark 0.9 导出。"),
                  (8.0, "zhangsan-nlp", "好的，谢谢！"),
              ]),
        issue(32411, "[Bug]: DeepSeek-V3.2 engine dies with `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION` on "
                     "MI355X", "hpc-admin-ut", 5.0, bug(
                  "After 20-60 minutes of load the engine core crashes.", env=mi355,
                  log=":0:rocdevice.cpp:3020: Callback: Queue aborting with error : "
                      "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond the "
                      "largest legal address. code: 0x29"),
              labels=("bug", "rocm"), react=6, talk=[
                  (8.5, "tjiang-amd", "Is this with the sparse MLA indexer from AITER? Please try "
                                      "VLLM_ROCM_USE_AITER_SPARSE_MLA=0."),
                  (12.0, "hpc-admin-ut", "With that it survived 3 hours."),
                  (13.0, "ntt-yamada", "We hit this too on MI355X, same workaround works."),
              ]),
        issue(32413, "[Bug]: Llama-4-Scout errors out when pipeline parallel is 2 on ROCm", "thanh-le", 6.0,
              bug("2 nodes x 4 MI300X, -tp 4 -pp 2: the first request fails with a shape mismatch in the second "
                  "stage.", env=mi300), labels=("bug", "rocm"), talk=[
                  (15.2, "iglesias-j", "Fix in #32436."),
              ]),
        issue(32415, "[Feature]: FP8 KV cache for MLA models on MI300X", "okonkwo-d", 7.5,
              feature("DeepSeek models on MI300X can't use fp8 KV cache with AITER MLA."),
              labels=("feature request", "rocm"), react=4, talk=[
                  (13.0, "tjiang-amd", "On the AITER roadmap for Q1."),
              ]),
        issue(32417, "[Bug]: OOM at startup with max_model_len 131072 on MI300X (192 GB)", "sofia-pl", 8.5,
              bug("Llama-3.1-8B with max_model_len 131072 OOMs during the profiling run on a 192 GB MI300X."),
              labels=("bug", "rocm"), talk=[(19.1, "mkaur-amd", "Fix in #32442.")]),
        issue(32419, "[Bug]: gpt-oss-120b on H20: answers end abruptly mid-sentence with `finish_reason: length` "
                     "far below max_tokens", "xiaoming-w", 9.0, bug(
                  "With max_tokens 8192 answers stop after ~1,000 tokens with finish_reason 'length'.", env=h20),
              labels=("bug", "gpt-oss"), react=2, talk=[
                  (14.0, "emilyt", "Do you pass max_completion_tokens too? The smaller one wins."),
                  (15.0, "xiaoming-w", "No. Only max_tokens."),
              ]),
        issue(32421, "[Usage]: Error `RuntimeError: No HIP GPUs are available` in Docker", "lucia-r", 10.5,
              usage("Running the rocm/vllm image I get 'No HIP GPUs are available'."), labels=("usage", "rocm"),
              closed=13.0, talk=[
                  (12.0, "amdteam-ci", "Add --device=/dev/kfd --device=/dev/dri --group-add video."),
                  (12.9, "lucia-r", "That was it."),
              ]),
        issue(32423, "[Bug]: MiniCPM-V 4.5 returns an empty string for images larger than 4k x 4k", "yifan-dev",
              11.5, bug("The response content is '' for large images; smaller ones work."),
              labels=("bug", "multi-modality")),
        issue(32425, "[Performance]: MI355X vs B200 for DeepSeek-R1: what throughput should I expect?",
              "rgarcia-ops", 12.0, performance(
                  "We measure 3,900 tok/s on 8xMI355X vs 5,200 on 8xB200 at concurrency 64. Is this expected?"),
              labels=("performance", "rocm"), talk=[
                  (14.0, "rvoss-amd", "With #32414 and the MXFP4 path you should see ~4,600; FP8 MLA isn't "
                                      "tuned yet."),
                  (16.0, "rgarcia-ops", "Thanks, will retest after v0.13.1."),
              ]),
        issue(32427, "[Bug]: `vllm serve` ignores `--served-model-name` in /v1/models when multiple names are "
                     "given", "pedro-mlops", 14.0, bug("Only the first name is listed."), labels=("bug",)),
        issue(32429, "[Installation]: rocm/vllm-dev image: `pip install -e .` fails with hipcc not found",
              "maria-s", 15.5, installation("Building inside the dev image fails.", command="pip install -e .",
                                            log="FileNotFoundError: hipcc"),
              labels=("installation", "rocm")),
        issue(32431, "[Bug]: Kimi-Linear-48B-A3B fails with TP=4: `num_heads must be divisible by tp_size`",
              "qwen-user-77", 16.5, bug("The model added yesterday fails to start with TP=4."),
              labels=("bug",), talk=[(18.0, "li-hao-qw", "KDA layers have 12 heads; TP=2 or 3 for now. Will add "
                                                         "head padding.")]),
        issue(32433, "[Doc]: The ROCm Docker page doesn't mention MI355X", "newbie-pat", 18.0,
              doc_issue("Only MI300X/MI325X are listed."), labels=("documentation", "rocm")),
        issue(32435, "[Feature]: Suffix decoding with EAGLE as fallback", "raghav-s", 21.5,
              feature("Combine suffix decoding with a draft model for prompts with no repetition."),
              labels=("feature request", "speculative-decoding")),
        issue(32437, "[Bug]: Qwen3-Next outputs become repetitive after turning on prefix caching by default?",
              "chen-jl", 22.5, bug(
                  "Built main after #32408: multi-turn answers start repeating the previous turn's last "
                  "sentence. With --no-enable-prefix-caching it's fine."),
              labels=("bug", "qwen"), react=2, talk=[
                  (23.0, "hyeonwoo-k", "Thanks for testing main. Looking now."),
              ]),
        issue(32439, "[Usage]: 如何在 MI300X 上开启 FP8 KV cache？", "liuyang1998", 23.0,
              usage("请问 MI300X 上用 --kv-cache-dtype fp8 需要什么条件？"), labels=("usage", "rocm")),
        pull(32455, "[Bugfix] List every `--served-model-name` in /v1/models", "okonkwo-d", 23.1,
             "All served names are listed, not only the first.", fixes="#32427", size=(15, 3, 2)),
        pull(32456, "[Frontend] Report usage in every streamed chunk with `continuous_usage_stats`", "shreya-ml",
             23.15, "Honour stream_options.continuous_usage_stats for chat completions.", labels=("frontend",),
             merged=23.8, size=(50, 10, 3)),
        pull(32457, "[Misc] Remove unused `tokenizer_revision` plumbing in the LLM class", "ruslan-b", 23.2,
             "Dead since the tokenizer refactor.", merged=23.85, size=(4, 30, 3)),
        pull(32458, "Bump torch from 2.9.1 to 2.10.0", "dependabot[bot]", 23.25, "",
             body=bump("pytorch/pytorch", "2.9.1", "2.10.0"), labels=("dependencies",)),
        pull(32459, "[CI/Build] Run the ROCm MoE smoke test on MI355X for PRs touching fused_moe", "amdteam-ci",
             23.3, "A 10-minute MI355X job.", labels=("ci/build", "rocm"), size=(20, 2, 1)),
        pull(32460, "[Bugfix] Qwen3-Next: don't reuse the mamba state across turns with prefix caching",
             "hyeonwoo-k", 23.4, "The state of the previous turn's last block was reused.", fixes="#32437",
             labels=("qwen",), size=(30, 8, 2)),
        issue(32461, "[Bug]: Segfault in the tokenizer with 200 concurrent requests to Kimi-K2", "miles-w", 23.5,
              bug("The API server process dies with 'Segmentation fault (core dumped)' in the fast tokenizer "
                  "under 200 concurrent requests."), labels=("bug",)),
        issue(32462, "[Usage]: Which vLLM version supports MI355X officially?", "anh-nguyen", 23.6,
              usage("The docs list MI300X only."), labels=("usage", "rocm")),
        pull(32463, "[Doc] Add MI355X to the ROCm Docker page", "newbie-pat", 23.7, "Lists MI355X.",
             fixes="#32433", labels=("documentation", "rocm"), size=(6, 1, 1), association="CONTRIBUTOR"),
        issue(32464, "[Feature]: `vllm bench serve` option to replay a real traffic trace", "ks-cho", 23.8,
              feature("Replay timestamps from a JSONL trace instead of a Poisson process."),
              labels=("feature request",)),
        issue(31840, "[Bug]: Gaudi: HPU graph compile stuck for Llama-3.1-70B", "hpc-admin-ut", -500,
              bug("Compile never finishes."), labels=("bug", "stale"), talk=[
                  (4.0, "github-actions[bot]", STALE)]),
        issue(31702, "[Feature]: ROCm support for bitsandbytes 4-bit", "sakura-dev", -700,
              feature("bnb 4-bit on MI300X."), labels=("feature request", "rocm", "stale"), talk=[
                  (4.0, "github-actions[bot]", STALE)]),
    ]
    return HandDay("hand-c-2026-01-15", datetime(2026, 1, 15, 3, 5, tzinfo=UTC), PEOPLE, items,
                   note="a vendor-heavy day: an AMD accuracy bug and its guard, a plugin RFC, kernels, ROCm bugs")


# --- Day D: a quiet weekend: few merges, bot sweeps, one person's long thread, a users' feature thread ------

_STALE_SWEEP: tuple[tuple[int, str, str, str], ...] = (
    (29044, "[Bug]: Phi-3-small fails with block sparse attention", "ptrq", "bug"),
    (29102, "[Usage]: How to use beam search with the OpenAI server?", "jdoe42", "usage"),
    (29187, "[Feature]: Support for Jamba-1.5 tool calling", "alexkr", "feature request"),
    (29233, "[Bug]: `vllm serve` prints a warning about `max_num_batched_tokens` on every start", "tomh", "bug"),
    (29318, "[Usage]: Serving on Jetson Orin", "anh-nguyen", "usage"),
    (29360, "[Feature]: Return the sampling seed in the response", "pedro-mlops", "feature request"),
    (29391, "[Bug]: Benchmark script crashes with --dataset-name sonnet", "ks-cho", "bug"),
    (29412, "[Installation]: Can't build on Fedora 41 with GCC 14", "oksana-v", "installation"),
    (29051, "[Bug]: Structured output with outlines is slow for large enums", "lucia-r", "bug"),
    (29077, "[Usage]: Multi-LoRA with adapters of different ranks", "jdoe42", "usage"),
    (29129, "[Feature]: OpenTelemetry spans for the engine core", "infra-sre-bob", "feature request"),
    (29160, "[Bug]: Docs search box does nothing on mobile", "emma-w", "bug"),
    (29245, "[Usage]: Deploying behind Triton Inference Server", "rgarcia-ops", "usage"),
    (29281, "[Feature]: Per-request priority in the OpenAI server", "pedro-mlops", "feature request"),
    (29302, "[Bug]: usage.prompt_tokens is wrong for multimodal prompts", "dr-ramos", "bug"),
    (29377, "[Installation]: ppc64le build fails with VSX errors", "hpc-admin-ut", "installation"),
)


def _day_d() -> HandDay:
    l4 = collect_env("NVIDIA L4", 1, "0.14.0", "2.10.0+cu129")
    rtx3090 = collect_env("NVIDIA GeForce RTX 3090", 2, "0.14.0", "2.10.0+cu129")
    h20 = collect_env("NVIDIA H20", 8, "0.14.0", "2.10.0+cu129")
    stale = [issue(number, title, who, -1400 + 60 * index, bug("See title.") if kind == "bug" else
                   usage("See title.") if kind == "usage" else feature("See title.") if kind == "feature request"
                   else installation("See title."), labels=(kind, "stale"),
                   closed=2.0 if index % 2 else None, reason="not_planned",
                   talk=[(-900 + 50 * index, "github-actions[bot]", STALE),
                         (2.0, "github-actions[bot]", "This issue has been automatically closed due to inactivity. "
                                                      "Please feel free to reopen if you feel it is still "
                                                      "relevant.")]
                   if index % 2 else [(1.5, "github-actions[bot]", STALE)])
             for index, (number, title, who, kind) in enumerate(_STALE_SWEEP)]
    items = [
        *stale,
        # --- earlier items that move today ---
        issue(34010, "[Bug]: gpt-oss-120b gives wrong answers with async scheduling on H20 (TP=8)",
              "xiaoming-w", -20, bug(
                  "With async scheduling (default since v0.13) about 5% of answers on our eval set are wrong or "
                  "truncated JSON; with --no-async-scheduling the eval score is back to normal (AIME25 0.91 vs "
                  "0.78).", env=h20),
              labels=("bug", "gpt-oss"), react=8, talk=[
                  (-14, "zzq-infer", "We see a similar drop on H20 with Qwen3-235B."),
                  (-3, "chen-jl", "Also H20 here, async scheduling off fixes it."),
                  (2.0, "xiaoming-w", "Only H20, not H100, on the same image. Maybe the slower H20 changes the "
                                      "timing?"),
                  (4.0, "mgrant", "Thanks all. The common factor seems to be structured output + async "
                                  "scheduling: do your evals use response_format?"),
                  (5.0, "xiaoming-w", "Yes, json_schema."),
                  (6.5, "zzq-infer", "Yes, we do too."),
                  (9.0, "mgrant", "Then it's the grammar bitmask being applied one step late. Reproduced; fix "
                                  "early next week."),
                  (10.0, "chen-jl", "谢谢！周末还在处理 🙏"),
              ]),
        issue(34055, "[Feature]: Apple Silicon (Metal) backend", "maria-s", -30, feature(
            "Many developers use Macs. A Metal backend (even slow) would help local development."),
              labels=("feature request",), react=41, talk=[
                  (-20, "emma-w", "+1, would love this."),
                  (1.0, "tomh", "+1. MLX is fast on M3 Max, a backend wrapping MLX kernels?"),
                  (3.0, "yifan-dev", "There's a community plugin (vllm-metal) that works for small models."),
                  (5.0, "dr-ramos", "+1 for official support."),
                  (8.0, "maria-s", "@yifan-dev thanks, the plugin works for Qwen3-8B on my M2."),
                  (11.0, "anh-nguyen", "+1"),
                  (15.0, "oksana-v", "Would be great for CI on Mac runners too."),
              ]),
        pull(34060, "[Bugfix] Fix NaN logits with FP8 KV cache on Ada (L4, L40S)", "raghav-s", -10,
             "The FP8 KV cache scale was read before being initialised on SM89, producing NaN logits for "
             "Llama-3.1-8B and Qwen3-8B.", fixes="#34021", test="New test on L4", result="No NaNs.",
             labels=("bug", "ready"), merged=3.0, size=(22, 5, 2), talk=[
                 (2.5, "pkowalski", "LGTM, merging so Monday's nightly has it."),
             ]),
        pull(34066, "[Model] Add Step-3.5-VL", "wenbo-h", -40,
             "Adds the Step-3.5 vision-language model (MoE, image input).", test="HF reference comparison",
             result="Match on 20 prompts.", labels=("new-model", "multi-modality"), size=(980, 20, 9), talk=[
                 (6.0, "hyeonwoo-k", "Reviewed, two comments on the processor. Otherwise looks good."),
                 (12.0, "wenbo-h", "Addressed."),
             ]),
        issue(34072, "[Bug]: vLLM 0.14.0 hangs at startup on 2x RTX 3090 with TP=2", "gpu-poor-dev", -6, bug(
            "With TP=2 on two RTX 3090 (no NVLink) startup stops after 'Loading weights took 8.1 s'.",
            env=rtx3090), labels=("bug",), talk=[
                (-5, "gpu-poor-dev", "NCCL_P2P_DISABLE=1 doesn't help."),
                (0.5, "gpu-poor-dev", "py-spy dump: both workers are in ncclCommInitRank."),
                (1.5, "gpu-poor-dev", "v0.13.0 works with the same command."),
                (3.0, "gpu-poor-dev", "NCCL 2.27.7 in 0.14.0 vs 2.27.3 in 0.13.0. Pinning 2.27.3 works!"),
                (5.0, "gpu-poor-dev", "Also works with NCCL_CUMEM_ENABLE=0 on 2.27.7."),
                (9.0, "kevinh", "Same setup, same hang, NCCL_CUMEM_ENABLE=0 fixes it for me too."),
                (12.0, "gpu-poor-dev", "Filed upstream in NCCL too."),
                (20.0, "gpu-poor-dev", "Anyone from the team? Should vLLM set NCCL_CUMEM_ENABLE=0 for consumer "
                                       "GPUs?"),
            ]),
        # --- opened in the window: pull requests ---
        pull(34101, "Bump actions/setup-python from 5 to 6", "dependabot[bot]", 0.5, "",
             body=bump("actions/setup-python", "5", "6"), labels=("dependencies", "github_actions")),
        pull(34102, "Bump pytest from 8.3.5 to 8.4.2 in /requirements", "dependabot[bot]", 0.6, "",
             body=bump("pytest-dev/pytest", "8.3.5", "8.4.2"), labels=("dependencies",)),
        pull(34103, "Bump ruff from 0.14.4 to 0.14.8", "dependabot[bot]", 0.7, "",
             body=bump("astral-sh/ruff", "0.14.4", "0.14.8"), labels=("dependencies",)),
        pull(34105, "[Doc] Fix the broken anchor in the structured outputs page", "lwong-first", 1.5,
             "Anchor typo.", labels=("documentation",), size=(1, 1, 1), association="FIRST_TIME_CONTRIBUTOR"),
        pull(34107, "[Misc] Set NCCL_CUMEM_ENABLE=0 by default on consumer GPUs without NVLink",
             "gpu-poor-dev", 21.0,
             "Works around the NCCL 2.27.7 init hang in #34072 for GeForce cards with TP>1.", fixes="#34072",
             size=(25, 2, 2), association="FIRST_TIME_CONTRIBUTOR"),
        pull(34109, "[Bugfix] Return every choice for n>1 when streaming", "dmytro-first", 5.0,
             "With stream=true and n=2 the second choice was dropped.", fixes="#34104", size=(30, 8, 2),
             association="FIRST_TIME_CONTRIBUTOR"),
        pull(34111, "[Frontend] Add `--enable-log-outputs` to log generated text", "tensorsmith", 7.0,
             "Logs outputs next to the request log, truncated by --max-log-len.", labels=("frontend",),
             size=(70, 8, 3)),
        pull(34113, "[Misc] Remove unused `BatchedTensorInputs` alias", "vtomasz", 8.0, "Unused since 0.11.",
             merged=9.5, size=(0, 6, 2)),
        pull(34115, "[Kernel] Tune fused_moe for Qwen3-30B-A3B on RTX 4090", "cwl-dev", 9.5,
             "Tuned configs for SM89.", size=(410, 0, 2)),
        pull(34117, "[Bugfix] Apply the grammar bitmask on the right step with async scheduling", "mgrant", 13.0,
             "With async scheduling the structured output bitmask for step t was computed from step t-2's "
             "tokens when the GPU step was slow (seen on H20), so constrained outputs could violate the schema "
             "or be wrong.", fixes="#34010", test="New test with an artificial GPU delay",
             result="Schema-valid outputs in 10k requests; AIME25 with json_schema back to 0.91 on H20.",
             labels=("bug", "structured-output"), size=(95, 30, 4), react=6, talk=[
                 (16.0, "xiaoming-w", "Tested on our H20 cluster: fixed. Thank you!"),
                 (18.0, "chenyu-z", "LGTM, let's merge Monday after the nightly."),
             ]),
        pull(34119, "[CI] Retry the Docker Hub login in the release job", "sbhatt-vllm", 14.0, "Flaky login.",
             labels=("ci/build",), merged=14.3, size=(6, 1, 1)),
        pull(34121, "[Hardware][CPU] Support Qwen3 MoE on Arm (Graviton4) with oneDNN", "lin-pengfei", 16.0,
             "MoE on aarch64 CPU via oneDNN ukernels.", labels=("cpu",), size=(480, 40, 7)),
        pull(34123, "[Model] Support Olmo-3 reward model in the pooling runner", "okonkwo-d", 17.0,
             "Adds the reward head.", size=(120, 5, 3)),
        pull(34125, "[Misc] Fix typos in the env var docs", "newbie-pat", 19.0, "Typos.", merged=22.0,
             size=(4, 4, 1), association="CONTRIBUTOR"),
        pull(34127, "[Perf] Avoid a host sync in the logprobs path", "raghav-s", 22.0,
             "Removes a .item() call. TPOT -3% with logprobs=5.", labels=("performance",), size=(18, 9, 1)),
        # --- opened in the window: issues ---
        issue(34104, "[Bug]: Streaming with n=2 returns only one choice", "ptrq", 1.0,
              bug("With stream=true and n=2, only index 0 ever appears in the chunks."), labels=("bug",),
              talk=[(5.1, "dmytro-first", "Fix in #34109.")]),
        issue(34106, "[Bug]: Can't load a model from a local path", "thanh-le", 2.2,
              bug("`vllm serve ./my-model` says 'repository not found'."), labels=("bug",), closed=4.0,
              reason="completed", talk=[
                  (3.0, "bwtran", "The folder has no config.json; it's a LoRA adapter, not a model. Use "
                                  "--lora-modules."),
                  (3.9, "thanh-le", "Right, my mistake. Thanks."),
              ]),
        issue(34108, "[Bug]: API server RSS grows ~1 GB per hour under sustained load", "bob-the-sre", 4.0, bug(
            "Serving Llama-3.1-8B at ~50 req/s the API server process grows from 2 GB to 14 GB in 12 hours, "
            "then the pod is OOM-killed. Engine core memory is flat.", env=collect_env("NVIDIA H100", 1, "0.14.0")),
              labels=("bug",), react=5, talk=[
                  (10.0, "k8s-herder", "We see the same slope on 0.14.0, not on 0.13.0."),
              ]),
        issue(34110, "[Usage]: vllm serve 报错 `ValueError: Unknown quantization method: gguf`", "zzq-infer", 6.0,
              usage("加载 GGUF 模型时报这个错，是否需要额外安装？"), labels=("usage",), talk=[
                  (8.0, "lin-pengfei", "需要 pip install gguf，并且用 --tokenizer 指定原模型的 tokenizer。"),
              ]),
        issue(34112, "[Bug]: Qwen3-8B returns empty `content` when `enable_thinking` is false and a tool is "
                     "given", "sakura-dev", 7.5, bug(
                  "The response has content '' and no tool call, for about half of the prompts."),
              labels=("bug", "qwen"), react=2),
        issue(34114, "[Feature]: Allow `--max-model-len auto` to pick the largest length that fits", "ks-cho",
              9.0, feature("Today I have to binary search max_model_len by hand."),
              labels=("feature request",), react=6, talk=[
                  (11.0, "tensorsmith", "+1, there is `-1` for some backends already?"),
              ]),
        issue(34116, "[Bug]: Llama-3.2-11B-Vision: repeated tokens after the first image when batching 8 images",
              "dr-ramos", 10.5, bug("Batched requests with one image each produce repeated tokens for all but the "
                                    "first request."), labels=("bug", "multi-modality")),
        issue(34118, "[Usage]: How to run vLLM with 2 GPUs of different types (A100 + A10)?", "kevinh", 12.0,
              usage("Is heterogeneous TP supported?"), labels=("usage",)),
        issue(34120, "[Bug]: `vllm bench serve` crashes with `--dataset-name hf` and a private dataset",
              "ks-cho", 13.5, bug("401 from the Hub even with HF_TOKEN set."), labels=("bug",)),
        issue(34122, "[Doc]: Spec decode page still mentions V0 flags", "newbie-pat", 15.0,
              doc_issue("`--speculative-model` was replaced by `--speculative-config`."),
              labels=("documentation",)),
        issue(34021, "[Bug]: Llama-3.1-8B outputs NaN logits with FP8 KV cache on L4", "okonkwo-d", -12, bug(
            "With --kv-cache-dtype fp8 on an L4 all logprobs are NaN and the output is '!!!!'.", env=l4),
              labels=("bug",), closed=3.1, talk=[
                  (-9, "raghav-s", "Reproduced on L40S, fix in #34060."),
                  (3.1, "okonkwo-d", "Works on main, thanks!"),
              ]),
        issue(34124, "[Bug]: Engine core dies with `CUDA error: misaligned address` on GH200 with DeepSeek-V2-Lite",
              "hpc-admin-ut", 18.0, bug(
                  "Startup succeeds; the first long prompt (8k) kills the engine.",
                  log="RuntimeError: CUDA error: misaligned address"),
              labels=("bug",), react=1),
        issue(34126, "[Installation]: uv pip install vllm resolves torch 2.10 CPU on Linux aarch64", "tomh", 20.0,
              installation("On GH200, uv picks the CPU torch wheel.", command="uv pip install vllm"),
              labels=("installation",)),
        pull(34129, "[Bugfix] Fix image offsets for batched Llama-3.2-Vision requests", "iglesias-j", 23.0,
             "Cross-attention masks used the first request's image offsets for the whole batch.", fixes="#34116",
             labels=("multi-modality",), size=(40, 12, 2)),
        pull(34130, "[Misc] Add type hints to vllm/sampling_params.py", "ruslan-b", 11.0, "Typing only.",
             size=(140, 90, 1)),
        pull(34131, "Bump the minor-and-patch group with 5 updates", "dependabot[bot]", 0.8, "",
             body=bump("pypa/setuptools", "80.9.0", "80.10.1"), labels=("dependencies",)),
        issue(34132, "[Bug]: Gemma 3 27B function calling returns Python code instead of JSON", "lucia-r", 14.5,
              bug("With the pythonic tool parser the model's calls come back as code in content."),
              labels=("bug", "tool-calling")),
        issue(34133, "[Feature]: Load and unload LoRA adapters at runtime through the API", "pedro-mlops", 15.5,
              feature("Restarting the server to add an adapter interrupts traffic."),
              labels=("feature request",), talk=[
                  (16.5, "bwtran", "This exists: set VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 and use "
                                   "/v1/load_lora_adapter."),
                  (17.0, "pedro-mlops", "Oh! Didn't find it in the docs, thanks."),
              ]),
        issue(34134, "[Bug]: Mistral tool parser raises IndexError when `tools` is an empty list", "alexkr", 16.5,
              bug("`tools: []` with the mistral parser raises IndexError and returns 500."), labels=("bug",)),
        pull(34135, "[Frontend] Accept `max_completion_tokens` in /v1/completions", "shreya-ml", 17.5,
             "Alias of max_tokens, as in the chat endpoint.", labels=("frontend",), size=(12, 2, 2)),
        issue(34136, "[Usage]: Settings for 1M-token context with Qwen2.5-7B-Instruct-1M on 8xH100?",
              "ivan-petrov-ml", 19.5, usage("What max_num_batched_tokens and chunked prefill settings?"),
              labels=("usage",)),
        pull(34137, "[Bugfix] Pass HF_TOKEN to private datasets in `vllm bench`", "ks-cho", 20.5,
             "The Hub call ignored the token.", fixes="#34120", size=(6, 1, 1)),
        issue(34138, "[Bug]: Worker processes survive Ctrl-C with TP=4", "bob-the-sre", 21.5,
              bug("After Ctrl-C, three VllmWorker processes keep holding GPU memory."), labels=("bug",)),
        issue(34128, "[Usage]: 如何限制每个请求的最大图片数量？", "xiaoming-w", 22.5,
              usage("多模态模型如何限制每个请求最多 2 张图片？"), labels=("usage",), talk=[
                  (23.0, "lin-pengfei", "用 --limit-mm-per-prompt '{\"image\": 2}'。"),
              ]),
    ]
    return HandDay("hand-d-2026-02-08", datetime(2026, 2, 8, 3, 5, tzinfo=UTC), PEOPLE, items,
                   note="a quiet weekend: few merges, bot sweeps, one person's long thread, a users' feature thread")


if __name__ == "__main__":
    raise SystemExit(main())
