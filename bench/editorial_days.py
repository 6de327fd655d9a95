"""Evaluation days for the editorial ranking (issue #13, docs/editorial.md "Labelling a day by hand").

    python bench/editorial_days.py build    # writes tests/data/editorial/days/<day-id>.json
    python bench/editorial_days.py views    # writes tests/data/editorial/views/<day-id>.md (labelling views)
    python bench/editorial_days.py all      # both
    python bench/editorial_days.py all --day 'real-*'   # only the days whose id matches (repeatable)

Rebuild only the days you change: the generator has changed since the first six ``gen-*`` days were stored, so
a bare ``build`` rewrites them differently (the views are rebuilt from the stored JSON and stay the same).

A day is one daily window (24 h ending 11:05 Asia/Shanghai = 03:05 UTC) of one repository, kept as the
GitHub REST payloads the real sync reads: ``issues`` (``GET /repos/{o}/{r}/issues``), ``comments``
(``GET /repos/{o}/{r}/issues/comments``) and ``pulls`` (``GET /repos/{o}/{r}/pulls/{n}``, for the PR sizes).

Two sources:

- *generator* days: ``bot.demo.generator.generate_repo`` with seeds and end dates the ranking was not tuned on,
  plus PR details from ``pull_details`` (the generator does not emit them);
- *hand* days: written here as data, modelled on how vLLM's tracker reads (``hand_days``: 60-70 items each;
  ``real_days``: a busy weekday's full size and mix, 110-140 items each).

This file never looks at how the bot ranks: the days are written to the policy (docs/editorial.md), and the
labelling views show facts only, in item-number order.
"""

from __future__ import annotations

import argparse
import fnmatch
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
                torch: str = "2.9.0+cu128", hw: str = "cuda", *, transformers: str = "4.57.3", triton: str = "3.5.0",
                cuda: str = "12.8") -> str:
    """A shortened ``python collect_env.py`` dump, folded as the issue template folds it."""
    rocm = hw == "rocm"
    gpus = "\n".join(f"GPU {i}: {gpu}" for i in range(count)) if count else "N/A"
    lines = [
        "==============================", "        System Info", "==============================",
        "OS                           : Ubuntu 22.04.5 LTS (x86_64)",
        "GCC version                  : (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0",
        "==============================", "       PyTorch Info", "==============================",
        f"PyTorch version              : {torch}",
        f"CUDA used to build PyTorch   : {'N/A' if rocm else cuda}",
        f"ROCM used to build PyTorch   : {'7.0.51831' if rocm else 'N/A'}",
        "==============================", "      Python Environment", "==============================",
        "Python version               : 3.12.11 (main, Jun  4 2025, 08:56:18) [GCC 11.4.0] (64-bit runtime)",
        "==============================", "       CUDA / GPU Info", "==============================",
        f"Is CUDA available            : {bool(count)}",
        f"GPU models and configuration : \n{gpus}",
        f"Nvidia driver version        : {'N/A' if rocm else '570.172.08'}",
        "==============================", "Versions of relevant libraries", "==============================",
        "[pip3] numpy==2.2.6", f"[pip3] torch=={torch.split('+')[0]}", f"[pip3] transformers=={transformers}",
        f"[pip3] triton=={triton}",
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
    days += [(day.day_id, lambda day=day: hand_payloads(day)) for day in [*hand_days(), *real_days()]]
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
    """Writes every day, or only those whose id matches one of ``only`` (exact ids or shell patterns such as
    ``real-*``): the generator days depend on the generator's code, so rebuilding only the days one changed keeps
    the others byte-identical."""
    wanted = list(only)
    for day_id, make in all_days():
        if wanted and not any(fnmatch.fnmatchcase(day_id, pattern) for pattern in wanted):
            continue
        payload = make()
        size = write_json(DAYS_DIR / f"{day_id}.json", payload)
        start, end = window_of(payload)
        active = active_numbers(payload["issues"], payload["comments"], start, end)
        print(f"{day_id}: {len(payload['issues'])} items ({len(active)} active in the window), "
              f"{len(payload['comments'])} comments, {len(payload['pulls'])} PR details, {size / 1e6:.2f} MB")
        if size > MAX_FIXTURE_BYTES:
            print(f"  warning: {day_id} is over {MAX_FIXTURE_BYTES / 1e6:.1f} MB", file=sys.stderr)


def views(only: Iterable[str] = ()) -> None:
    from bot.settings import load_settings

    wanted = list(only)
    settings = load_settings(ROOT / "config", env={})
    for path in sorted(DAYS_DIR.glob("*.json")):
        if wanted and not any(fnmatch.fnmatchcase(path.stem, pattern) for pattern in wanted):
            continue
        day = json.loads(path.read_text(encoding="utf-8"))
        text = render_view(day, settings.is_bot)
        out = VIEWS_DIR / f"{path.stem}.md"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(text.splitlines())} lines")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("build", "views", "all"))
    parser.add_argument("--day", action="append", default=[],
                        help="only this day: an id or a shell pattern such as 'real-*' (repeatable)")
    args = parser.parse_args(argv)
    if args.command in ("build", "all"):
        build(args.day)
    if args.command in ("views", "all"):
        views(args.day)
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


def real_days() -> list[HandDay]:
    """The real-size days (E..H), written after the others: ``build --day 'real-*'`` builds only them."""
    return [_day_e(), _day_f(), _day_g(), _day_h()]


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


# --------------------------------------------------------------------------------------------------------
# Real-size days (E..H): written as the hand days are, but at a busy weekday's full size and mix (~110-140
# items touched: ~25 new issues, ~80 new PRs, ~40 merged, ~15 closed unmerged, older items commented on),
# modelled on how vLLM's tracker reads in 2026. Written to the policy (docs/editorial.md), never to the
# ranking code: which items are serious, strong or hot follows what editors said they look for (user-visible
# breakage and model/feature enablement over refactors and deprecations), in the many ways people word them.

REAL_PEOPLE: dict[str, Person] = {**PEOPLE, **_people(
    ("OWNER", ("rkessler",)),
    ("MEMBER", ("hliu-vllm", "rzhang-infra", "dvolkov", "mei-lin")),
    ("COLLABORATOR", ("gshah-nv", "mzheng-rh", "yhuang-amd", "jwong-tpu", "lzhang-xpu")),
    ("CONTRIBUTOR", ("zai-lwen", "moonshot-kai", "amir-h", "jpark-ml", "fp4-forge", "ethan-c", "nikolai-s",
                     "patel-ankit", "runze-w", "ggomez-dev", "hanna-k", "tpu-mhall", "xin-ma", "bshah-rh",
                     "felipe-r", "kwang-hw", "sjoshi-amd", "vkrish-amd", "dz-deepep", "lmcache-ops", "minimax-yq",
                     "tencent-hunyuan-dev", "openbmb-zx", "baidu-ernie-dev", "ibm-granite-tk", "nvidia-nemo-ab",
                     "meituan-longcat", "mistral-pb", "google-gemma-rs", "microsoft-phi-ly")),
    ("NONE", ("ops-jmiller", "wu-shaoqi", "cloud-ml-ana", "rtx-hobbyist", "llm-platform-kr", "b-anderson",
              "sde-priya", "haoran-z", "mlops-tom", "nlp-lab-sjtu", "chen-wei-88", "ai-infra-mx", "yuto-s",
              "gabriel-f", "dev-amelia", "junhao-l", "kubeflow-jo", "lena-b", "m-rossi", "inference-sam", "zoe-t",
              "park-jh", "omar-k", "arjun-m", "tuan-v", "olga-p", "finetune-fan", "jetson-nano-guy", "hw-lab-ysu",
              "fintech-llm-ops", "quant-trader-ml", "edu-cluster-admin", "agent-builder-99", "rag-shop-dev",
              "sglang-migrant", "vivek-n", "hiro-t", "nadia-a", "claire-d", "stefan-k", "li-ming-ai",
              "zhou-yuqi", "wang-lei-infra", "sun-hao-ml", "dong-xy", "fang-zh", "ravi-p", "kim-sj",
              "ahmed-s", "lucas-m", "sara-g", "tom-b", "ana-r", "yusuf-o", "meng-q")),
    ("FIRST_TIME_CONTRIBUTOR", ("ines-moreau", "rohit-bh", "k-yamamoto", "sven-lind", "daniyar-t", "pham-quang",
                                "ella-ng", "matteo-g", "chloe-w", "farid-n", "joao-p", "minh-t")),
)}

CLOSED_STALE = ("This issue has been automatically closed due to inactivity. Please feel free to reopen if you feel it "
                "is still relevant. Thank you!")
CLOSED_STALE_PR = ("This pull request has been automatically closed due to inactivity. Please feel free to reopen if "
                   "you intend to continue working on it. Thank you!")
STALE_PR = ("This pull request has been automatically marked as stale because it has not had any activity within 90 "
            "days. It will be automatically closed if no further activity occurs within 14 days. Leave a comment if "
            "you feel this pull request should remain open. Thank you!")
READY = "This pull request has been automatically marked ready: the `ready` label was added and full CI passed."
QUEUED = "Merge queue: this pull request is queued for merge."
FAILED_CHECKS = ("⚠️ The sha of the head commit of this PR conflicts with #{other}. Mergify cannot evaluate rules on "
                 "this PR. ⚠️")
PRE_COMMIT = ("pre-commit failed: `ruff` reformatted 2 files and `mypy` reported 1 error. Run `pre-commit run "
              "--all-files` locally and push the result.")


def dep(number: int, at: float, package: str, old: str, new: str, *, path: str = "", merged: float | None = None,
        closed: float | None = None, labels: tuple[str, ...] = ("dependencies",),
        talk: Iterable[tuple[Any, ...]] = ()) -> Hand:
    """A dependabot bump."""
    name = package if "github_actions" in labels else package.rsplit("/", 1)[-1]  # as dependabot titles them
    title = f"Bump {name} from {old} to {new}" + (f" in {path}" if path else "")
    return pull(number, title, "dependabot[bot]", at, "", body=bump(package, old, new), labels=labels, merged=merged,
                closed=closed, talk=talk)


def stale_issues(rows: Iterable[tuple[int, str, str, str, float]], *, notice: float, close: float) -> list[Hand]:
    """Old issues the stale bot sweeps in the window: ``(number, title, author, kind, opened)`` rows; every other one
    was already marked stale a month ago and is closed now, the rest are marked stale now."""
    out = []
    for index, (number, title, who, kind, opened) in enumerate(rows):
        body = (bug("See title.") if kind == "bug" else usage("See title.") if kind == "usage" else
                feature("See title.") if kind == "feature request" else installation("See title."))
        if index % 2:
            out.append(issue(number, title, who, opened, body, labels=(kind, "stale"), closed=close,
                             reason="not_planned", talk=[(-720.0, "github-actions[bot]", STALE),
                                                         (close, "github-actions[bot]", CLOSED_STALE)]))
        else:
            out.append(issue(number, title, who, opened, body, labels=(kind, "stale"),
                             talk=[(notice, "github-actions[bot]", STALE)]))
    return out


def gpu_env(gpu: str, count: int, version: str, *, torch: str = "2.10.0+cu129", cuda: str = "12.9",
            transformers: str = "5.1.0", triton: str = "3.5.1") -> str:
    return collect_env(gpu, count, version, torch, transformers=transformers, triton=triton, cuda=cuda)


def rocm_env(gpu: str, count: int, version: str, *, torch: str = "2.10.0+rocm7.1", transformers: str = "5.1.0") -> str:
    return collect_env(gpu, count, version, torch, "rocm", transformers=transformers, triton="3.5.1")


# --- Day E: the week after v0.16.0: upgrade regressions, GLM-5 day-0 support, a transport and a default land ----

_STALE_E: tuple[tuple[int, str, str, str, float], ...] = (
    (28411, "[Bug]: Phi-4-multimodal fails to load the audio encoder with LoRA enabled", "dr-ramos", "bug", -2400),
    (28530, "[Usage]: Best settings for Llama-3.1-405B-FP8 on 8xH100 with long prompts", "mlops-tom", "usage", -2350),
    (28677, "[Feature]: Expose the scheduler queue length per priority in /metrics", "kubeflow-jo", "feature request",
     -2300),
    (28702, "[Bug]: `vllm bench throughput` ignores --seed for the random dataset", "ks-cho", "bug", -2290),
    (28815, "[Installation]: Building from source on Rocky Linux 9 fails at cmake with CUDA 12.9", "edu-cluster-admin",
     "installation", -2250),
    (28990, "[Feature]: Allow per-request LoRA scaling factor", "finetune-fan", "feature request", -2200),
)


def _day_e() -> HandDay:
    h200 = gpu_env("NVIDIA H200", 8, "0.16.0")
    h200x4 = gpu_env("NVIDIA H200", 4, "0.16.0")
    h100 = gpu_env("NVIDIA H100 80GB HBM3", 8, "0.16.0")
    a100 = gpu_env("NVIDIA A100-SXM4-80GB", 4, "0.16.0")
    h20 = gpu_env("NVIDIA H20", 8, "0.16.0")
    l40s = gpu_env("NVIDIA L40S", 1, "0.16.0")
    items = [
        *stale_issues(_STALE_E, notice=22.4, close=22.4),
        # --- earlier items that move today ---
        issue(35102, "[RFC]: Make Model Runner V2 the default in v0.17", "mgrant", -70, rfc(
            "Model Runner V2 (`VLLM_USE_MODEL_RUNNER_V2=1`) has been opt-in since v0.14. It removes the persistent "
            "batch, keeps all input preparation on the GPU and is 8-15% faster on decode-heavy workloads in our "
            "nightly benchmarks. Keeping two runners doubles the work for every new feature (spec decode, LoRA, "
            "pooling, multimodal) and the two drift apart.",
            "1. v0.17: V2 is the default for decoder-only generation on CUDA; V1 stays behind "
            "`VLLM_USE_MODEL_RUNNER_V2=0`.\n2. Features not yet ported (LoRA with multimodal, pooling models, "
            "some spec decode methods) fall back to V1 automatically with a log line.\n3. v0.18: remove the V1 "
            "runner for CUDA. Hardware plugins keep their own runners.",
            "@rkessler @jiayi-xu @chenyu-z @fzhou-ml @rvoss-amd"),
              labels=("RFC",), react=38, talk=[
                  (-60, "jiayi-xu", "+1 on the direction. The fallback list needs to be explicit in the docs."),
                  (-44, "fzhou-ml", "EAGLE-3 and MTP are ported, draft-model spec decode is not yet (I'm "
                                    "starting on it this week)."),
                  (-30, "felixhaus", "We run V2 in production on H100 since 0.15: +11% decode throughput on "
                                     "Llama-3.3-70B, no issues."),
                  (-12, "raghav-s", "V2 breaks our custom logits processors: the V1 `LogitsProcessor` interface "
                                    "gets a different batch layout. Is there a migration guide?"),
                  (0.6, "rvoss-amd", "On ROCm V2 is not tested in CI yet. Please keep ROCm on V1 by default until "
                                     "the MI300X/MI355X jobs run it; we can have them green in two weeks.", 6),
                  (1.4, "mgrant", "Agreed: CUDA only for v0.17, ROCm flips when its CI is green."),
                  (2.2, "tjiang-amd", "Thanks. AITER attention with V2 has one open issue (block table layout); "
                                      "PR next week."),
                  (3.8, "raghav-s", "Still want an answer on logits processors: three teams here depend on them."),
                  (5.0, "chenyu-z", "Custom logits processors work with V2 through the same `BatchUpdate` API "
                                    "since #34210. If yours index the persistent batch directly, that breaks. "
                                    "I'll write the migration section."),
                  (10.0, "kvcache-lab", "P/D connectors: NIXL works with V2; LMCache needs #35447 first."),
                  (9.9, "bshah-rh", "From the downstream side: a default flip one release after a big release "
                                    "is risky. Could we flip in v0.17.0rc1 and decide at the final release based "
                                    "on the bug count?", 9),
                  (11.0, "rkessler", "That is reasonable. Flip on main now so nightly users find problems; decide "
                                     "at the v0.17 branch cut.", 12),
                  (13.6, "raghav-s", "OK with that if the migration section lands before the RC."),
                  (16.2, "lzhang-xpu", "XPU has its own runner, so this does not affect us. +1"),
                  (20.0, "mgrant", "Summary: flip on main for CUDA (#35489), ROCm/XPU/TPU unchanged, migration "
                                   "guide before the RC, go/no-go at the branch cut."),
                  (21.0, "wu-shaoqi", "Does V2 fix the DP+EP hang in #35288? We are stuck on 0.15.1 because of it."),
                  (22.3, "chenyu-z", "Unrelated to the runner, as far as we know; see my comment there."),
              ]),
        pull(35190, "[Frontend] Experimental gRPC server for the OpenAI-compatible API", "hliu-vllm", -50,
             "Adds `vllm serve --grpc-port 50051`: a gRPC transport next to HTTP for /v1/completions, "
             "/v1/chat/completions and /v1/embeddings, with server streaming for generation. Same engine, same "
             "request validation; protobufs in `vllm/entrypoints/grpc/protos`. Router and gateway teams asked "
             "for it to avoid HTTP/JSON overhead between their proxy and vLLM (#33012). Experimental: the proto "
             "may change until v0.18.",
             test="tests/entrypoints/grpc (new, 41 tests); vllm bench serve with the new `grpc` backend, "
                  "Llama-3.1-8B-Instruct on 1xH100, 2000 prompts, 256 in / 32 out, request rate inf",
             result="All pass. Requests/s 212 (HTTP) vs 251 (gRPC), +18%; TTFT p50 -14%. Outputs identical.",
             labels=("frontend", "ready"), merged=17.5, size=(3120, 140, 34), react=27, talk=[
                 (-40, "noor-ali", "Big one. Why not reuse the HTTP handlers behind a gRPC shim?"),
                 (-38, "hliu-vllm", "It does: both call the same serving classes; only (de)serialisation differs."),
                 (-20, "ethan-c", "Can streaming cancellation propagate to the engine? With HTTP a client "
                                  "disconnect aborts the request."),
                 (-18, "hliu-vllm", "Yes, context cancellation aborts it; test added."),
                 (1.2, "aurelien-m", "I'm not convinced we should own a second transport. Every new endpoint "
                                     "now needs two implementations and two sets of tests.", 4),
                 (2.0, "hliu-vllm", "New endpoints are opt-in for gRPC; it covers the three endpoints gateways "
                                    "use. The proto is generated from the pydantic models, so no hand-written "
                                    "duplication."),
                 (4.6, "llm-platform-kr", "We run vLLM behind an Envoy gRPC gateway today and transcode to JSON; "
                                          "this removes a hop for us. Happy to test."),
                 (6.1, "mzheng-rh", "Packaging: grpcio adds ~10 MB. Make it an extra (`vllm[grpc]`)?"),
                 (7.0, "hliu-vllm", "Done: `pip install vllm[grpc]`, clear error otherwise."),
                 (12.4, "aurelien-m", "OK with it as experimental behind the extra. Please mark the proto "
                                      "unstable in the docs."),
                 (15.8, "llm-platform-kr", "Tested the branch behind Envoy: works, p99 latency -9% for us."),
                 (17.3, "noor-ali", "Approving. Merging as experimental."),
             ]),
        pull(35255, "[Core] Enable prefix caching by default for hybrid models (Qwen3.5, Qwen3-Next, Nemotron-H)",
             "hyeonwoo-k", -30,
             "Prefix caching was force-disabled for models with Mamba/GDN layers because their recurrent state "
             "could not be restored on a cache hit. Since #34480 the state is checkpointed per block, so this "
             "turns prefix caching on by default for hybrid models, like for every other model. "
             "`--no-enable-prefix-caching` turns it off. Memory: each cached block keeps one SSM state snapshot "
             "(~1.5% of KV memory for Qwen3.5-122B-A10B).",
             test="tests/v1/core/test_prefix_caching.py (hybrid cases), multi-turn chat benchmark with a shared "
                  "4k system prompt, Qwen3.5-35B-A3B on 1xH100",
             result="TTFT p50 612 ms -> 148 ms (-76%) on the multi-turn benchmark; GSM8K unchanged (0.912 vs "
                    "0.913).",
             labels=("ready", "v1"), merged=20.2, size=(190, 75, 9), react=15, talk=[
                 (-20, "li-hao-qw", "Tested with Qwen3.5-397B-A17B on 8xH200, outputs match with and without "
                                    "cache hits."),
                 (19.8, "jiayi-xu", "Release note added. Merging."),
             ]),
        pull(35261, "[ROCm][Kernel] AITER fused MoE for Qwen3.5 (block FP8) on MI355X", "tjiang-amd", -29,
             "Routes Qwen3.5 MoE layers with block-scaled FP8 weights to AITER's CK fused MoE on gfx950 (it used "
             "the Triton path). Enabled with VLLM_ROCM_USE_AITER=1.",
             test="Qwen3.5-122B-A10B-FP8 on 8x MI355X, vllm bench serve, concurrency 64, 1k in / 1k out",
             result="Output throughput 5,210 -> 6,640 tok/s (+27%). GSM8K 0.921 -> 0.920.",
             labels=("rocm",), size=(520, 60, 7), react=6, talk=[
                 (-20, "yhuang-amd", "Numbers reproduce on our MI355X node."),
                 (8.1, "dsouza-r", "Please gate the CK path on the AITER version; older images crash at import."),
                 (10.5, "tjiang-amd", "Added a version check with a fallback to Triton."),
                 (14.0, "dsouza-r", "One more nit inline, otherwise good."),
             ]),
        pull(35277, "[Bugfix] Work around the pipeline-parallel hang with async scheduling", "raghav-s", -26,
             "Forces sync scheduling when pipeline_parallel_size > 1.", labels=("bug",), closed=13.7,
             size=(12, 2, 1), talk=[
                 (-20, "chenyu-z", "This hides the problem rather than fixing it; PP with async scheduling is "
                                   "supposed to work since 0.14."),
                 (13.7, "raghav-s", "Closing in favour of #35462, which fixes the root cause."),
             ]),
        pull(35280, "[Perf] Batch the top-k/top-p sort across requests in the sampler", "amir-h", -34,
             "One batched sort instead of a sort per request group. +4% throughput at batch 256.",
             labels=("performance", "ready"), merged=-10, size=(140, 60, 3), talk=[
                 (-11, "chenyu-z", "LGTM."),
                 (5.2, "chenyu-z", "This produces wrong tokens when a batch mixes top_p < 1 and top_p = 1 "
                                   "requests (the mask is taken from the wrong row). Reverting in #35424; "
                                   "@amir-h please re-open with a fix and a mixed-batch test."),
                 (6.0, "amir-h", "Sorry about that, will do."),
             ]),
        issue(35288, "[Bug]: Qwen3.5-397B-A17B hangs after a few hours with DP=8 + expert parallel on v0.16.0",
              "wu-shaoqi", -22, bug(
                  "8xH200, `--data-parallel-size 8 --enable-expert-parallel`, DeepEP low-latency all2all. After "
                  "2-5 hours of steady traffic all DP ranks stop producing tokens; GPU utilisation stays at 100% "
                  "and the API keeps accepting requests that never finish. The same setup on v0.15.1 ran for days.",
                  env=h200,
                  repro="vllm serve Qwen/Qwen3.5-397B-A17B-FP8 -dp 8 --enable-expert-parallel "
                        "--all2all-backend deepep_low_latency",
                  log="(EngineCore_DP3 pid=2211) WARNING [shm_broadcast.py:466] No available shared memory "
                      "broadcast block found in 60 seconds. This typically happens when some processes are "
                      "hanging or doing some time-consuming work."),
              labels=("bug",), react=12, talk=[
                  (-18, "zhou-yuqi", "Same on 16xH20 across two nodes, roughly every 3 hours."),
                  (-9, "dz-deepep", "Can you set VLLM_DEEPEP_LOW_LATENCY_TIMEOUT=30 and share which rank times "
                                    "out first?"),
                  (1.5, "wu-shaoqi", "Rank 5 first, then everything stalls. Attached the py-spy dumps."),
                  (3.0, "zhou-yuqi", "Our dumps look the same: one rank is in the dummy batch path while the "
                                     "others are in the MoE dispatch."),
                  (5.2, "chenyu-z", "That points at the DP padding: when one rank has no requests it runs a "
                                    "dummy batch, and with async scheduling the dummy batch can skip the "
                                    "all2all one step out of sync. Can you try --no-async-scheduling?"),
                  (9.4, "wu-shaoqi", "Running with --no-async-scheduling for 6 hours now, no hang so far."),
                  (12.0, "li-ming-ai", "We hit it with DeepSeek-V3.2 too (DP=8 EP, H200). Not Qwen-specific."),
                  (14.8, "dz-deepep", "Reproduced with a synthetic load that leaves one rank idle. Working on a "
                                      "fix in the DP coordinator."),
                  (19.0, "wu-shaoqi", "11 hours without hang with async scheduling off. Throughput -7%."),
                  (22.3, "chenyu-z", "Thanks. The fix will keep async scheduling on; ETA early next week."),
              ]),
        pull(35301, "[Refactor] Move attention backends to vllm/v1/attention/backends/ [3/N]", "dvolkov", -24,
             "Third step of the attention backend reorganisation: moves the MLA backends (FlashMLA, FlashInfer "
             "MLA, Triton MLA, CUTLASS MLA, AITER MLA) and their metadata builders to the new layout. No "
             "functional change; import paths keep working through shims until v0.18.",
             test="Full CI", result="Green. No change in the nightly benchmarks.",
             labels=("ready",), merged=5.0, size=(2480, 2310, 46), react=3, talk=[
                 (-20, "pkowalski", "Checked the shims cover the plugin import paths."),
                 (4.8, "mgrant", "Approved."),
             ]),
        pull(35310, "[Model] Add GLM-5 (DSA sparse attention, MTP)", "zai-lwen", -20,
             "Day-0 support for GLM-5 (744B total / 40B active MoE) and GLM-5-FP8. It uses DeepSeek Sparse "
             "Attention (a lightning indexer picking the top-2048 tokens per query), so it reuses the DeepSeek-V3.2 "
             "indexer and sparse attention path; adds the GLM-5 MoE block, its tool-call and reasoning parsers "
             "(`glm5`), and MTP speculative decoding (`--speculative-config '{\"method\": \"mtp\"}'`).",
             test="lm_eval gsm8k and mmlu_pro, BFCL tool calling, TP8 and DP8+EP on 8xH200 and 8xB200",
             result="GSM8K 0.962 (reference 0.963), MMLU-Pro 0.842. MTP acceptance length 2.6, decode 1.7x at "
                    "concurrency 1.",
             labels=("new-model", "ready"), merged=9.2, size=(1980, 64, 17), react=44, talk=[
                 (-16, "jiayi-xu", "Thanks for the day-0 PR. Can the indexer share the FP8 path with V3.2?"),
                 (-12, "zai-lwen", "Yes, it does now; only the rope layout differs."),
                 (-3, "mgrant", "MTP test passes on B200 too."),
                 (1.8, "sun-hao-ml", "Tried the branch on 8xH20: loads and runs, 38 tok/s at concurrency 1."),
                 (8.9, "jiayi-xu", "LGTM, merging. Please add the recipe page."),
                 (10.4, "cloud-ml-ana", "🎉 Works on our 8xB200 with the nightly wheel."),
             ]),
        pull(34890, "[Kernel] CUTLASS grouped GEMM for block-scaled FP8 MoE on Blackwell (SM100)", "nv-sgupta", -200,
             "A CUTLASS 4 grouped GEMM for block-scaled (128x128) FP8 MoE layers on SM100, replacing the Triton "
             "kernel for DeepSeek-V3/R1, Qwen3.5 FP8 and GLM-5-FP8 on B200/GB200. Picked automatically; "
             "`VLLM_USE_CUTLASS_BLOCK_FP8_MOE=0` turns it off.",
             test="tests/kernels/moe, DeepSeek-R1-0528 FP8 on 8xB200, vllm bench serve, concurrency 128, "
                  "1k in / 1k out",
             result="Output throughput 14,900 -> 19,600 tok/s (+31%); TPOT p50 -22%. GSM8K 0.955 -> 0.956.",
             labels=("ready",), merged=21.5, size=(2760, 210, 19), react=21, talk=[
                 (-150, "gshah-nv", "First pass done; the tile configs for small M need tuning."),
                 (-90, "nv-sgupta", "Tuned; small-batch latency now matches Triton."),
                 (-20, "pkowalski", "Nightly perf job on B200 confirms +29%."),
                 (20.9, "gshah-nv", "LGTM. Merging."),
             ]),
        pull(35150, "[Frontend] Remove the deprecated `--disable-log-requests` flag", "noor-ali", -60,
             "`--disable-log-requests` has warned since v0.12 (request logging is off by default; "
             "`--enable-log-requests` turns it on). This removes it: passing it now fails with an error that "
             "names the replacement.", labels=("frontend", "ready"), merged=12.3, size=(30, 95, 9), talk=[
                 (-40, "k8s-herder", "Our Helm chart still passes it; please keep it one more release."),
                 (-38, "noor-ali", "It has warned for four releases; the error message names the fix."),
                 (12.0, "aurelien-m", "Approved, in the v0.17 breaking changes list."),
             ]),
        issue(34981, "[Bug]: Kimi-K2.5 tool call ids repeat across turns, clients overwrite earlier results",
              "agent-builder-99", -150, bug(
                  "Tool call ids are `functions.get_weather:0` in every turn, so agent frameworks that key "
                  "results by id overwrite the first turn's result.", env=h20),
              labels=("bug", "tool-calling"), closed=4.2, react=4, talk=[
                  (-120, "moonshot-kai", "The id format comes from the chat template; we'll make the parser "
                                         "add a per-request counter."),
                  (4.2, "agent-builder-99", "Fixed by #35340, thanks!"),
              ]),
        pull(35340, "[Bugfix] Make Kimi-K2.5 tool call ids unique across turns", "moonshot-kai", -12,
             "The parser now numbers calls from the count of earlier tool calls in the conversation.",
             fixes="#34981", labels=("tool-calling", "ready"), merged=4.1, size=(45, 12, 2)),
        issue(35230, "[Usage]: How do I turn off thinking for Qwen3.5 in /v1/chat/completions?", "rag-shop-dev", -36,
              usage("Qwen3.5 always starts with `<think>`. I tried `enable_thinking: false` in the request body and "
                    "got `400 Bad Request: extra fields not permitted`."),
              labels=("usage",), closed=2.0, talk=[
                  (-30, "bwtran", "Pass it as `chat_template_kwargs`: `{\"chat_template_kwargs\": "
                                  "{\"enable_thinking\": false}}`."),
                  (1.9, "rag-shop-dev", "That works, thanks."),
              ]),
        issue(35295, "[Bug]: FutureWarning about `torch.cuda.amp.custom_fwd` on every start with v0.16.0",
              "tom-b", -21, bug("Harmless but noisy: two FutureWarnings at import from the Mamba kernels."),
              labels=("bug",), talk=[
                  (-15, "ggomez-dev", "Comes from the vendored mamba_ssm ops; easy fix."),
                  (3.3, "tom-b", "Still there on the nightly."),
              ]),
        pull(35333, "[CI/Build] Fix the docs build after mkdocs-material 9.7", "sbhatt-vllm", -14,
             "The new version renamed a theme option.", labels=("ci/build", "documentation"), merged=1.0,
             size=(4, 3, 1)),
        pull(35360, "[Misc] Use the logger instead of print() in benchmarks/", "patel-ankit", -8,
             "Consistent output format.", merged=2.5, size=(88, 80, 12)),
        pull(35371, "[Doc] Add Qwen3.5 to the supported models list", "li-hao-qw", -6,
             "Qwen3.5 dense and MoE entries with their minimum versions.", labels=("documentation",), merged=0.8,
             size=(14, 1, 1)),
        pull(35388, "[Bugfix] Fix prompt logprobs with n > 1", "iglesias-j", -3,
             "Prompt logprobs were returned only for the first sample.", labels=("ready",), merged=7.0,
             size=(26, 9, 2)),
        pull(34700, "[Model] Add SkyLark-13B (custom architecture)", "xin-ma", -320,
             "Adds a company-internal architecture.", size=(640, 0, 5), closed=10.2, talk=[
                 (-300, "hyeonwoo-k", "Is the checkpoint public?"),
                 (-290, "xin-ma", "Not yet."),
                 (10.2, "hyeonwoo-k", "Closing: we add architectures with public weights; the out-of-tree model "
                                      "registration (`ModelRegistry.register_model`) works for private ones."),
             ]),
        pull(35120, "[Hardware][Intel GPU] Enable Qwen3.5 on XPU", "akumar-intel", -65,
             "GDN kernels through the XPU Triton backend.", labels=("intel-gpu", "needs-rebase"),
             size=(310, 40, 6), talk=[(5.5, "mergify[bot]", REBASE.format(author="akumar-intel"))]),
        pull(33620, "[Kernel] Experimental Volta (SM70) support for the Triton attention backend", "sofia-pl", -1500,
             "Lets the Triton attention backend run on V100 (SM70) by falling back to FP32 accumulation where SM70 has "
             "no BF16 MMA.", size=(180, 20, 3), closed=22.4, talk=[
                 (-350, "github-actions[bot]", STALE_PR),
                 (22.4, "github-actions[bot]", CLOSED_STALE_PR),
             ]),
        pull(33790, "[Frontend] Support `stream_options.include_usage` for /v1/audio/transcriptions", "okonkwo-d",
             -1400, "Usage chunks for streamed transcriptions.", size=(70, 10, 3), talk=[
                 (22.4, "github-actions[bot]", STALE_PR),
             ]),
        # --- opened in the window ---
        pull(35400, "[Doc] Fix broken links in the quantization index page", "ines-moreau", 0.2,
             "Five links pointed to pages renamed in the docs restructure.", labels=("documentation",),
             merged=3.5, size=(5, 5, 1)),
        issue(35401, "[Usage]: Qwen3.5-35B-A3B on 2x RTX 4090 fails with `ValueError: ... is not divisible by 2`",
              "rtx-hobbyist", 0.4, usage(
                  "I'm trying to run Qwen3.5-35B-A3B-AWQ with TP=2 on two 4090s and get `ValueError: The input "
                  "size is not aligned with the quantized weight shape` at startup. Is TP=2 supported for this "
                  "model? What settings should I use?",
                  code="llm = LLM('Qwen/Qwen3.5-35B-A3B-AWQ', tensor_parallel_size=2, max_model_len=32768)"),
              labels=("usage",), closed=4.0, talk=[
                  (2.1, "bwtran", "The AWQ group size (128) does not divide the GDN projection after the TP split. "
                                  "Use the FP8 checkpoint with TP=2, or PP=2 with AWQ."),
                  (3.9, "rtx-hobbyist", "PP=2 works, thanks!"),
              ]),
        pull(35402, "fix keyerror in deepseek v32 tool parser", "chloe-w", 0.5,
             "Fix KeyError when the tool call has no arguments.", closed=1.5, size=(3, 1, 1), talk=[
                 (1.5, "jiayi-xu", "Thanks! #35403 fixes the same thing with a test; closing this one."),
             ]),
        pull(35403, "[Bugfix] Fix KeyError in the DeepSeek-V3.2 tool parser when a call has no arguments",
             "runze-w", 0.7,
             "`deepseek_v32` raised `KeyError: 'arguments'` for zero-argument tools and returned a 500.",
             test="New unit test with a zero-argument tool", result="Pass.", labels=("tool-calling", "ready"),
             merged=11.0, size=(22, 4, 2)),
        pull(35404, "[CI/Build] Build CUDA 13.0 wheels by default [2/3]", "sbhatt-vllm", 0.9,
             "Second step of the CUDA 13 move: the nightly and release pipelines build cu130 wheels by default; "
             "cu129 wheels move to the wheel index. No change to what `pip install vllm` picks until [3/3].",
             labels=("ci/build", "ready"), merged=8.0, size=(64, 38, 6)),
        pull(35405, "[Misc] Remove unused helpers from vllm/transformers_utils/detokenizer_utils.py", "vtomasz", 1.1,
             "Leftovers from the V0 detokenizer; nothing imports them.", merged=6.0, size=(0, 142, 2)),
        pull(35406, "[Model] Qwen3.5: use the shared FusedMoE implementation", "li-hao-qw", 1.3,
             "Moves Qwen3.5's MoE block onto the shared `FusedMoE` layer like the other MoE models. No functional "
             "change: outputs are identical (greedy, 500 prompts) and throughput is unchanged.",
             test="tests/models/language/generation/test_qwen3_5.py", result="Pass; identical outputs.",
             labels=("qwen", "ready"), merged=11.5, size=(310, 540, 6)),
        pull(35407, "[Misc] Register `Qwen3_5MoeForConditionalGeneration` as an alias", "ggomez-dev", 1.45,
             "Some re-uploaded checkpoints use the multimodal class name for the text-only model.",
             labels=("qwen",), merged=9.5, size=(3, 0, 1)),
        issue(35408, "[Bug]: CUDA error: an illegal memory access was encountered with Qwen3.5-122B-A10B + FP8 KV "
                     "cache", "ai-infra-mx", 1.6, bug(
                  "Serving Qwen3.5-122B-A10B-FP8 with `--kv-cache-dtype fp8` on 4xH200. Short prompts work; as "
                  "soon as a request goes past ~16k tokens of context the engine dies and every later request "
                  "fails with EngineDeadError. Without `--kv-cache-dtype fp8` it runs fine. Started with v0.16.0 "
                  "(FP8 KV cache for hybrid models is new there).", env=h200x4,
                  repro="vllm serve Qwen/Qwen3.5-122B-A10B-FP8 -tp 4 --kv-cache-dtype fp8 --max-model-len 131072",
                  log="(Worker_TP2 pid=3384) ERROR [multiproc_executor.py:702]   File \".../vllm/model_executor/"
                      "layers/fla/ops/chunk.py\", line 211, in chunk_gated_delta_rule_fwd\n"
                      "(Worker_TP2 pid=3384) ERROR [multiproc_executor.py:702] torch.AcceleratorError: CUDA error: "
                      "an illegal memory access was encountered\n"
                      "(EngineCore_DP0 pid=3101) ERROR [core.py:866] EngineCore encountered a fatal error.\n"
                      "(APIServer pid=1) ERROR [async_llm.py:525] vllm.v1.engine.exceptions.EngineDeadError: "
                      "EngineCore encountered an issue. See stack trace (above) for the root cause."),
              labels=("bug", "qwen"), closed=19.3, react=9, talk=[
                  (2.5, "zhou-yuqi", "Same here on 8xH20 with the 397B model and fp8 KV, after ~20k tokens."),
                  (3.4, "li-hao-qw", "Thanks. Does it happen with --enforce-eager too?"),
                  (4.0, "ai-infra-mx", "Yes, also with --enforce-eager. CUDA_LAUNCH_BLOCKING=1 points at "
                                       "chunk_gated_delta_rule_fwd."),
                  (5.1, "dong-xy", "+1, Qwen3.5-35B-A3B on one H100 with fp8 KV, at ~17k context."),
                  (6.3, "gshah-nv", "Root cause: the GDN kernel reads the full-attention layers' FP8 KV scale "
                                    "tensor with the wrong stride once the sequence spans more than 1024 "
                                    "blocks. Fix in #35428."),
                  (19.3, "ai-infra-mx", "Confirmed fixed on main with #35428: 128k context, no crash. Thanks!"),
              ]),
        dep(35409, 1.9, "actions/upload-artifact", "4", "6", labels=("dependencies", "github_actions"), merged=9.0),
        pull(35410, "[Kernel] FP8 per-token-group quant kernel for SM120 (RTX 5090, RTX PRO 6000)", "fp4-forge", 2.1,
             "The CUDA per-token-group quant kernel did not build for SM120, so block-FP8 models fell back to a "
             "slow Triton path on consumer Blackwell.",
             test="tests/kernels/quantization on an RTX 5090", result="Pass; Qwen3-30B-A3B-FP8 decode +19%.",
             size=(240, 30, 5), talk=[(9.0, "gshah-nv", "Thanks, please add SM121 (DGX Spark) to the arch list too.")]),
        pull(35411, "[CI/Build] Pin FlashInfer to 0.6.3 in the CI image", "sbhatt-vllm", 2.25,
             "0.6.4 broke the MLA unit tests; pinning until the fix is released.", labels=("ci/build", "ready"),
             merged=4.0, size=(2, 2, 2)),
        pull(35412, "[Frontend] Add `thinking_token_budget` to cap reasoning tokens", "emilyt", 2.4,
             "A per-request cap on the tokens spent in the thinking section for reasoning models with a "
             "reasoning parser (Qwen3/3.5, DeepSeek-R1, GLM-5). When the budget is reached the end-of-thinking "
             "token is forced and the answer follows.",
             test="tests/entrypoints/openai/test_thinking_budget.py", result="Pass.",
             labels=("frontend",), size=(380, 40, 9), react=11, talk=[
                 (6.0, "noor-ali", "Should this be a sampling param rather than an OpenAI-API extra, so the "
                                   "offline LLM gets it too?"),
                 (7.5, "emilyt", "Good point, moved it to SamplingParams."),
                 (15.2, "finetune-fan", "Would love this, we hack it with a logits processor today."),
             ]),
        issue(35413, "[Feature]: Support AMD Strix Halo (gfx1151) in the ROCm wheels", "dev-amelia", 2.6, feature(
            "Ryzen AI Max+ 395 machines (128 GB unified memory) are popular for local inference. vLLM's ROCm "
            "wheels and images only target gfx90a/gfx942/gfx950. Please add gfx1151."),
              labels=("feature request", "rocm"), react=31, talk=[
                  (3.4, "hiro-t", "+1"),
                  (4.8, "rtx-hobbyist", "+1, would buy one if vLLM ran on it"),
                  (6.6, "stefan-k", "+1"),
                  (8.2, "nadia-a", "Any update on this?"),
                  (10.9, "claire-d", "+1 🙏"),
                  (13.3, "hiro-t", "There is a community build that works for small models btw."),
                  (17.7, "kim-sj", "+1"),
                  (20.4, "rvoss-amd", "Thanks for the interest. RDNA3.5 is not on the supported list for now; "
                                      "community builds are the way for this generation."),
              ]),
        pull(35414, "[ROCm][CI] Nightly DeepSeek-R1 accuracy job on MI355X", "amdteam-ci", 2.8,
             "GSM8K on DeepSeek-R1 FP8 with AITER, every night, fails under 0.94.", labels=("rocm", "ci/build"),
             merged=10.0, size=(60, 0, 2)),
        issue(35415, "[Bug]: OOM at startup with --max-model-len 1010000 for Qwen2.5-7B-Instruct-1M on one L40S",
              "yuto-s", 3.0, bug(
                  "`torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 23.50 GiB` during the profiling "
                  "run when I ask for the full 1M context on a 48 GB L40S.", env=l40s,
                  repro="vllm serve Qwen/Qwen2.5-7B-Instruct-1M --max-model-len 1010000"),
              labels=("bug",), talk=[
                  (7.7, "bwtran", "1M tokens of KV for this model need ~56 GB on their own; lower max-model-len "
                                  "or use --kv-cache-dtype fp8 and --max-num-batched-tokens 8192."),
              ]),
        pull(35416, "[Bugfix] Honour `--max-logprobs` in the Responses API", "shreya-ml", 3.2,
             "`top_logprobs` above the server limit was accepted and then crashed the sampler.",
             labels=("frontend",), size=(18, 2, 2)),
        pull(35417, "[Misc] Fix typos in comments under vllm/v1/core/sched", "pham-quang", 3.5,
             "Fixes spelling mistakes in comments under vllm/v1/core/sched; no code change.",
             merged=12.0, size=(6, 6, 3)),
        pull(35418, "[Spec Decode][1/N] Draft-model speculative decoding for Model Runner V2", "fzhou-ml", 3.7,
             "WIP: first part of porting draft-model speculative decoding (a separate small model as the drafter) "
             "to Model Runner V2: the drafter's KV cache groups and input preparation.", draft=True,
             labels=("speculative-decoding", "v1"), size=(860, 120, 11)),
        issue(35419, "[Installation]: pip install vllm==0.16.0 fails: No matching distribution found for "
                     "torch==2.10.0", "gabriel-f", 3.9, installation(
                  "Python 3.9 on Ubuntu 20.04.", command="pip install vllm==0.16.0",
                  log="ERROR: Could not find a version that satisfies the requirement torch==2.10.0 (from vllm)"),
              labels=("installation",), closed=5.0, talk=[
                  (4.6, "bwtran", "vLLM needs Python 3.10+ (3.9 was dropped in v0.11)."),
                  (5.0, "gabriel-f", "Oops, upgraded Python and it works."),
              ]),
        pull(35420, "[Hardware][TPU] Support Qwen3.5 dense models on TPU v6e", "tpu-mhall", 4.1,
             "Runs Qwen3.5-27B on TPU v6e through the JAX backend of vllm-tpu: GDN as a Pallas kernel.",
             test="Accuracy on v6e-8", result="GSM8K 0.90 (GPU 0.91).", labels=("tpu",), size=(720, 40, 8), talk=[
                 (11.0, "jwong-tpu", "Reviewed the Pallas kernel; one question about the chunk size."),
                 (12.4, "tpu-mhall", "256 is what fits VMEM on v6e; v5e needs 128, added."),
             ]),
        pull(35421, "[Misc] Less noisy logging in the model loader", "gdimitrov", 4.4,
             "One INFO line per shard group instead of per file.", merged=13.0, size=(30, 44, 3)),
        issue(35422, "[Bug]: Output is garbage after upgrading to 0.16.0", "ops-jmiller", 4.8, bug(
            "We upgraded from 0.15.1 to 0.16.0 and Llama-3.3-70B-Instruct-AWQ (4xA100, TP=4) now answers with "
            "garbage: repeated fragments, random punctuation and mixed languages. Nothing else changed (same "
            "command, same image base). Rolling back to 0.15.1 fixes it.", env=a100,
            repro="vllm serve casperhansen/llama-3.3-70b-instruct-awq -tp 4 --max-model-len 32768",
            log="prompt: What is the capital of France?\n"
                "output: ,,, the the Paris)) 。。 capitalcapital ## France\\n\\n\\n Rapport ..."),
              labels=("bug",), react=17, talk=[
                  (5.6, "lena-b", "Same with Qwen2.5-32B-Instruct-AWQ on 2xA100 after upgrading."),
                  (6.2, "m-rossi", "Also seeing it on A10G with an AWQ Mistral. FP16 models are fine."),
                  (7.0, "mzheng-rh", "Is it only Ampere? Anyone on H100 with AWQ?"),
                  (7.8, "ops-jmiller", "Our H100 cluster with the same AWQ model is fine. Only A100."),
                  (9.1, "gshah-nv", "Then it's awq_marlin on SM80. The Marlin kernel was regenerated for "
                                    "SM90/SM100 in 0.16 (#34655); the SM80 path may have lost the zero-point "
                                    "handling. Checking."),
                  (10.6, "lena-b", "Workaround for others: `--quantization awq` (no Marlin) gives correct "
                                   "output, ~2x slower."),
                  (12.3, "gshah-nv", "Confirmed: the SM80 instantiation uses the SM90 zero-point layout. Fix "
                                     "coming today."),
                  (15.6, "gshah-nv", "#35470"),
                  (17.2, "sara-g", "Does this also affect GPTQ-Marlin? We see slightly worse answers with a GPTQ "
                                   "model on A100 but not garbage."),
                  (18.1, "gshah-nv", "GPTQ has no zero points in the symmetric case, so it should not be affected; "
                                     "please open a separate issue with numbers if you see a difference."),
                  (23.3, "ops-jmiller", "Built from #35470: output is correct again. Thanks!"),
              ]),
        pull(35423, "[Frontend] GLM-5 tool parser: support parallel tool calls in streaming", "zai-lwen", 5.0,
             "Parallel calls were merged into one in streaming mode.", labels=("tool-calling",), size=(120, 30, 3)),
        pull(35424, "Revert \"[Perf] Batch the top-k/top-p sort across requests in the sampler\" (#35280)",
             "chenyu-z", 5.15,
             "Reverts #35280: with a batch mixing top_p < 1 and top_p = 1 requests, the mask was taken from the "
             "wrong row and some requests sampled tokens outside their top-p set (wrong outputs on main since "
             "yesterday; not in a release).",
             test="New mixed-batch sampler test", result="Fails before the revert, passes after.",
             labels=("ready",), merged=6.5, size=(60, 140, 3), talk=[(6.3, "mgrant", "Approve, thanks for catching.")]),
        pull(35425, "[Bugfix] Qwen3-VL: use the video's real fps for timestamps", "li-hao-qw", 5.3,
             "Timestamps assumed 2 fps whatever the sampling rate.", labels=("qwen", "multi-modality", "ready"),
             merged=16.0, size=(34, 10, 2)),
        issue(35426, "[Usage]: Disaggregated prefill with NIXL across two nodes: which ports need to be open?",
              "kubeflow-jo", 5.5, usage("Running 1P1D on Kubernetes; the decode pod logs `NIXL handshake timed "
                                        "out` and every request fails. Which ports and env vars are needed?"),
              labels=("usage",), talk=[
                  (8.8, "kvcache-lab", "The side channel port (VLLM_NIXL_SIDE_CHANNEL_PORT, default 5600) and the "
                                       "UCX ports must be reachable pod to pod; set UCX_TLS=rc,cuda_copy on IB."),
                  (9.7, "kubeflow-jo", "Opened 5600 and it connects now. Thanks!"),
              ]),
        pull(35427, "[Refactor] Model Runner V2: split the sampler into its own module", "chenyu-z", 5.8,
             "Pure move, no behaviour change.", labels=("v1",), size=(420, 398, 5), talk=[
                 (14.0, "mgrant", "Fine, wait for the revert to land first."),
             ]),
        pull(35428, "[Bugfix] Fix illegal memory access in the GDN kernel with FP8 KV cache (Qwen3.5)", "gshah-nv", 6.0,
             "Hybrid models share the KV cache tensor between full-attention and GDN layers. With an FP8 KV cache "
             "the GDN kernel indexed the per-layer scale tensor with the attention layers' stride, which runs past "
             "the end once a sequence spans more than 1024 blocks (~16k tokens): an illegal memory access that "
             "kills the engine.", fixes="#35408",
             test="The repro from #35408 (Qwen3.5-122B-A10B-FP8, TP4, fp8 KV) at 128k context; new kernel test "
                  "with 2048 blocks",
             result="No crash at 128k; GSM8K 0.921 (bf16 KV 0.922).",
             labels=("bug", "qwen", "ready"), merged=19.0, size=(64, 21, 3), react=7, talk=[
                 (9.6, "li-hao-qw", "Verified on 8xH200 with the 397B model: 100 requests at 120k, no IMA."),
                 (18.7, "pkowalski", "LGTM."),
             ]),
        pull(35429, "[CI] Add GLM-5 to the nightly model tests", "zai-lwen", 6.3, "Small GLM-5 config with random "
             "weights for CI.", labels=("ci/build",), merged=18.0, size=(40, 0, 2)),
        pull(35430, "Update README.md", "farid-n", 6.45, "", body="", closed=6.6, size=(2, 2, 1), talk=[
            (6.6, "pkowalski", "Looks like this was opened from your fork's main by accident; closing."),
        ]),
        pull(35432, "[Hardware][Intel GPU] FP8 MoE for Qwen3 on Intel Arc Pro B60", "lzhang-xpu", 6.6,
             "Block-FP8 fused MoE through the XPU kernels.", labels=("intel-gpu",), size=(330, 20, 6)),
        issue(35433, "[Doc]: The P/D disaggregation page uses the old `--kv-transfer-config` connector name",
              "zoe-t", 6.9, doc_issue("`NixlConnectorV1` is now `NixlConnector`; copying the example fails."),
              labels=("documentation",)),
        pull(35434, "[Frontend] Remove the deprecated `guided_json`/`guided_regex`/`guided_choice` request fields",
             "noor-ali", 7.1,
             "Deprecated in v0.12 in favour of `structured_outputs` (and `response_format`). The fields are now "
             "rejected with a 400 that names the replacement.", labels=("frontend", "ready"), merged=20.5,
             size=(60, 310, 12), talk=[
                 (9.0, "shreya-ml", "LangChain's vLLM integration still sends guided_json by default."),
                 (10.1, "noor-ali", "They switched in langchain-community 0.4; the 400 message points to it."),
             ]),
        issue(35435, "[Bug]: Engine core died when PP=2", "sde-priya", 7.4, bug(
            "Two nodes with 8xH100 each, Qwen3-235B-A22B-Instruct-2507-FP8 with TP=8 and PP=2 over Ray. The "
            "server starts, answers the first few requests, then the engine dies under load (>16 concurrent "
            "requests). TP=8 on one node with a smaller context works.", env=h100,
            repro="vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 8 -pp 2 "
                  "--distributed-executor-backend ray --max-model-len 65536",
            log="(EngineCore_DP0 pid=907) ERROR [core.py:866]   File \".../vllm/v1/worker/gpu_model_runner.py\", "
                "line 2544, in execute_model\n(EngineCore_DP0 pid=907) ERROR [core.py:866]     assert "
                "intermediate_tensors is not None\n(EngineCore_DP0 pid=907) ERROR [core.py:866] AssertionError\n"
                "(APIServer pid=1) ERROR [async_llm.py:525] vllm.v1.engine.exceptions.EngineDeadError: EngineCore "
                "encountered an issue. See stack trace (above) for the root cause."),
              labels=("bug",), react=6, talk=[
                  (9.2, "raghav-s", "Same with Llama-3.3-70B and PP=2 on one node. It's the batch queue with "
                                    "async scheduling: the second stage gets a step whose intermediate tensors "
                                    "were never sent."),
                  (10.0, "sde-priya", "--no-async-scheduling makes it stable here, at ~8% lower throughput."),
                  (13.8, "raghav-s", "Proper fix in #35462."),
              ]),
        pull(35436, "[CI] Skip test_eagle_correctness[llama4] on L4 (flaky, #35180)", "sbhatt-vllm", 7.6,
             "Fails ~5% of runs with a numerical tolerance error.", labels=("ci/build", "ready"), merged=8.2,
             size=(3, 0, 1)),
        pull(35437, "[Doc] gRPC server: usage, the `vllm[grpc]` extra and the proto's stability", "hliu-vllm", 7.9,
             "Documents the experimental gRPC server from #35190: how to enable it, the `vllm[grpc]` extra, and that "
             "the proto may change until v0.18.", labels=("documentation", "frontend"), merged=21.0, size=(160, 0, 3)),
        pull(35438, "[Perf] Fuse RMSNorm and FP8 quant for Qwen3.5 attention layers", "amir-h", 8.1,
             "Adds Qwen3.5's gated attention output norm to the RMSNorm+quant fusion pass.",
             test="Qwen3.5-35B-A3B-FP8, 1xH100, vllm bench serve", result="+3% throughput.",
             labels=("performance",), size=(90, 12, 3)),
        pull(35439, "[Bugfix] Qwen3.5 FP8 KV cache: clamp the scale index", "haoran-z", 8.25,
             "Clamp the index to avoid the crash in #35408.", closed=19.1, size=(4, 1, 1), talk=[
                 (9.2, "gshah-nv", "Clamping hides the wrong stride and gives wrong scales past 16k; #35428 "
                                   "fixes the indexing."),
                 (19.1, "haoran-z", "Makes sense, closing."),
             ]),
        issue(35440, "[Bug]: `--task` deprecation warning printed even when --task is not passed", "olga-p", 8.4,
              bug("Every start prints `WARNING: --task is deprecated` though I never pass it."),
              labels=("bug",), talk=[(11.2, "noor-ali", "The warning comes from the pooling config defaults; "
                                                        "will fix.")]),
        pull(35441, "[Doc] Add the GLM-5 recipe (TP8, DP+EP, MTP)", "zai-lwen", 8.55,
             "Adds a deployment recipe for GLM-5 and GLM-5-FP8: TP8 on one node, DP8 with expert parallel, and MTP "
             "settings.",
             labels=("documentation",), merged=12.5, size=(140, 0, 2)),
        pull(35442, "[Bugfix] Load bitsandbytes LoRA adapters on CPU first", "ethan-c", 8.7,
             "Avoids a device mismatch when loading 4-bit LoRA adapters.", closed=16.0, size=(20, 6, 1), talk=[
                 (16.0, "ethan-c", "Can't reproduce the mismatch on main any more; closing until I can."),
             ]),
        pull(35443, "Create main.py", "joao-p", 9.0, "", body="test", closed=9.4, size=(12, 0, 1), talk=[
            (9.4, "mgrant", "Closing: this looks like a test PR."),
        ]),
        pull(35444, "[Misc] Fix typos in scheduler comments", "minh-t", 9.15,
             "Fixes three spelling mistakes in comments of the scheduler.", closed=9.9, size=(3, 3, 1),
             talk=[(9.9, "jiayi-xu", "Thanks, already fixed by #35417.")]),
        pull(35445, "[Bugfix] DeepEP low-latency: fix a hang when a DP rank has no tokens", "dz-deepep", 9.3,
             "WIP fix for the hang in #35288: an idle DP rank now joins the dispatch with an empty batch in the "
             "same step instead of one step later.", draft=True, labels=("bug",), size=(88, 30, 4), talk=[
                 (15.0, "chenyu-z", "This is on the right track; needs the async scheduling case too."),
             ]),
        issue(35446, "[Bug]: Gibberish output with Qwen2.5-72B-Instruct-AWQ on 0.16.0 (A100)", "nlp-lab-sjtu", 9.5,
              bug("After upgrading to 0.16.0 Qwen2.5-72B-Instruct-AWQ returns gibberish on 4xA100; 0.15.1 is "
                  "fine.", env=a100),
              labels=("bug",), closed=10.0, reason="duplicate", talk=[
                  (10.0, "mzheng-rh", "Duplicate of #35422 (awq_marlin on SM80); workaround there."),
              ]),
        pull(35447, "[KV Connector] LMCache connector for Model Runner V2", "lmcache-ops", 9.8,
             "Ports the LMCache connector's save/load hooks to V2's block tables.", labels=("kv-connector",),
             size=(410, 90, 6), talk=[(16.6, "kvcache-lab", "Reviewed; the layerwise path needs a test.")]),
        pull(35448, "[Chore] CODEOWNERS: add GLM and Qwen3.5 model owners", "aurelien-m", 10.1,
             "Adds the GLM and Qwen3.5 model owners to CODEOWNERS so their reviews are requested automatically.",
             merged=10.3, size=(4, 0, 1)),
        issue(35449, "[Feature]: Support the OpenAI Batch API's file endpoints in `vllm serve`", "fintech-llm-ops",
              10.4, feature("`vllm run-batch` works offline, but our clients use /v1/files and /v1/batches. Please "
                            "serve them from the API server."),
              labels=("feature request",), react=7, talk=[
                  (14.0, "noor-ali", "We'd rather keep batch orchestration out of the server; a small sidecar "
                                     "that calls run-batch is the suggested way."),
                  (15.1, "fintech-llm-ops", "Understood. Is there an example?"),
              ]),
        pull(35450, "[CI/Build] Build aarch64 wheels for CUDA 13.0 (GH200, GB200)", "sbhatt-vllm", 10.55,
             "aarch64 cu130 wheels in the release pipeline.", labels=("ci/build", "ready"), merged=16.5,
             size=(48, 10, 3)),
        pull(35451, "[ROCm] Support FP8 KV cache for Qwen3.5 with AITER attention", "sjoshi-amd", 10.7,
             "FP8 KV cache for hybrid models on MI300X/MI355X.", labels=("rocm",), size=(150, 30, 4), talk=[
                 (20.0, "yhuang-amd", "Please check the scale stride issue fixed for CUDA in #35428 applies here "
                                      "too."),
             ]),
        pull(35452, "[V1][Metrics] Per-request prefix cache hit tokens in the request metrics", "kwang-hw", 11.0,
             "Adds `vllm:request_prefix_cache_hit_tokens` histogram.", labels=("v1",), size=(70, 5, 3)),
        issue(35453, "[Performance]: Qwen3-30B-A3B about 10% slower on 0.16.0 than 0.15.1 (H100, TP=1)", "park-jh",
              11.3, performance(
                  "Same command and hardware. Output throughput at concurrency 64: 6,820 tok/s on 0.15.1, 6,130 "
                  "tok/s on 0.16.0. TPOT p50 8.9 ms -> 9.8 ms.", env=gpu_env("NVIDIA H100 80GB HBM3", 1, "0.16.0")),
              labels=("performance",), react=4, talk=[
                  (16.1, "chenyu-z", "Thanks. Is this the bf16 checkpoint? Does --compilation-config "
                                     "'{\"cudagraph_mode\": \"FULL_AND_PIECEWISE\"}' change it?"),
                  (18.3, "park-jh", "No change."),
              ]),
        pull(35454, "[Bugfix] MiniCPM-V 4.5: fix the image slice count for very wide images", "openbmb-zx", 11.6,
             "Images wider than 4:1 produced one slice too many and an assertion error.", labels=("multi-modality",),
             size=(16, 4, 1)),
        dep(35455, 11.9, "huggingface/transformers", "5.1.0", "5.2.0", path="/requirements"),
        issue(35456, "[Bug]: gpt-oss tool calls loop forever with the Responses API", "agent-builder-99", 12.2, bug(
            "gpt-oss-120b behind /v1/responses with a single function tool (`search`). The model calls `search`, "
            "we send back the `function_call_output`, and it calls `search` again with the same arguments, "
            "forever (we stop at 25 iterations). With /v1/chat/completions and the same tool the model answers "
            "after one call. Looks like the tool output is not put back into the prompt the model sees.",
            env=gpu_env("NVIDIA H100 80GB HBM3", 2, "0.16.0"),
            repro="vllm serve openai/gpt-oss-120b -tp 2 --tool-call-parser openai --enable-auto-tool-choice",
            log="iteration 1: function_call search({\"q\": \"vllm release notes\"})\n"
                "iteration 2: function_call search({\"q\": \"vllm release notes\"})\n"
                "...\niteration 25: function_call search({\"q\": \"vllm release notes\"})"),
              labels=("bug", "gpt-oss"), react=8, talk=[
                  (13.1, "inference-sam", "Same here with gpt-oss-20b, started after upgrading to 0.16.0."),
                  (14.5, "emilyt", "Are you passing `previous_response_id` or the full input list?"),
                  (15.0, "agent-builder-99", "The full input list, as the OpenAI SDK's agents loop does."),
                  (16.2, "emilyt", "Then the function_call_output items are dropped when the input also holds "
                                   "reasoning items from the previous turn. Reproduced."),
                  (21.0, "agent-builder-99", "Any workaround until the fix? We can't use previous_response_id "
                                             "(no store in our deployment)."),
              ]),
        pull(35457, "[Test] Responses API: multi-turn function calling with reasoning items", "emilyt", 12.5,
             "Regression test for #35456 (currently xfail).", labels=("gpt-oss",), size=(130, 0, 1)),
        pull(35458, "[Misc] Rename `vllm/utils/torch_utils.py` helpers to snake case", "ruslan-b", 12.65,
             "Renames the helpers in vllm/utils/torch_utils.py to snake case; pure rename, call sites "
             "updated.", merged=17.0, size=(96, 96, 21)),
        pull(35459, "[Build] Bump xgrammar to 0.1.30", "shreya-ml", 12.8,
             "Picks up the regex performance fix.", closed=14.9, size=(2, 2, 2), talk=[
                 (14.9, "shreya-ml", "Dependabot's grouped bump will cover it; closing."),
             ]),
        issue(35460, "[CI Failure]: `tests/v1/spec_decode/test_eagle.py::test_eagle3_qwen` fails on L4 since "
                     "#35406", "sbhatt-vllm", 13.0, ci_failure(
                  "tests/v1/spec_decode/test_eagle.py::test_eagle3_qwen",
                  "Acceptance length 1.0 on L4 only; H100 passes.", log="AssertionError: 1.02 not >= 1.8"),
              labels=("ci-failure",), talk=[(13.4, "li-hao-qw", "Looking; the shared MoE path picks a different "
                                                                "Triton config on L4.")]),
        pull(35461, "[CI] Mark test_eagle3_qwen as flaky on L4 while #35460 is investigated", "sbhatt-vllm", 13.3,
             "Unblocks the merge queue.", labels=("ci/build", "ready"), merged=14.2, size=(2, 0, 1)),
        pull(35462, "[Bugfix] Fix EngineDeadError with pipeline parallel and async scheduling", "raghav-s", 13.6,
             "With PP > 1 and async scheduling the batch queue could schedule a step on the last stage before "
             "the previous stage sent its intermediate tensors, hitting `assert intermediate_tensors is not None` "
             "and killing the engine. Steps are now ordered per virtual engine.", fixes="#35435",
             test="New PP=2 test with 64 concurrent requests; the repro from #35435 (Qwen3-235B FP8, TP8 PP2, two "
                  "nodes)",
             result="No crash in 2 h under load; throughput back to the async-scheduling level.",
             labels=("bug",), size=(110, 35, 4), react=5, talk=[
                 (18.0, "sde-priya", "Tested on our two nodes: 3 hours stable with async scheduling on."),
                 (20.5, "chenyu-z", "Reviewing. The ordering should also cover DP; small comment inline."),
                 (22.9, "raghav-s", "Addressed."),
             ]),
        pull(35463, "[Doc] Document the VLLM_USE_MODEL_RUNNER_V2 and VLLM_USE_CUTLASS_BLOCK_FP8_MOE env vars",
             "patel-ankit", 13.9,
             "Documents the VLLM_USE_MODEL_RUNNER_V2 and VLLM_USE_CUTLASS_BLOCK_FP8_MOE environment variables in the "
             "env var reference.", labels=("documentation",), merged=15.0, size=(22, 0, 1)),
        issue(35464, "[Bug]: Startup fails with --enable-lora, --cpu-offload-gb 20 and --quantization bitsandbytes",
              "quant-trader-ml", 14.2, bug(
                  "The combination fails with `NotImplementedError: CPU offload is not supported with "
                  "bitsandbytes LoRA`. Each option alone works.", env=gpu_env("NVIDIA RTX A6000", 1, "0.16.0")),
              labels=("bug",)),
        pull(35465, "[Model] Add ERNIE-5 text model", "baidu-ernie-dev", 14.4,
             "Adds ERNIE-5 (dense, 34B) with its tokenizer. Vision parts in a follow-up.",
             test="HF reference comparison on 50 prompts", result="Top-1 logprob match 99.4%.",
             labels=("new-model",), size=(890, 10, 8), talk=[
                 (20.1, "hyeonwoo-k", "Thanks. The rotary embedding looks identical to Llama's, can you reuse it?"),
             ]),
        pull(35466, "[Refactor] Move attention backends to vllm/v1/attention/backends/ [4/N]", "dvolkov", 14.7,
             "Moves the remaining Triton and FlexAttention backends. No functional change.", labels=("ready",),
             merged=22.0, size=(1320, 1290, 22)),
        issue(35468, "[Usage]: How do I pass `chat_template_kwargs` through the OpenAI Python SDK?", "arjun-m", 15.0,
              usage("The SDK rejects unknown arguments."), labels=("usage",), closed=16.4, talk=[
                  (16.0, "bwtran", "Use `extra_body={\"chat_template_kwargs\": {...}}`."),
                  (16.4, "arjun-m", "Thanks!"),
              ]),
        pull(35469, "[Quantization] Load NVFP4 GLM-5 checkpoints (ModelOpt) on B200", "nvidia-nemo-ab", 15.3,
             "GLM-5-NVFP4 with FlashInfer's FP4 MoE.", labels=("quantization",), size=(180, 20, 4)),
        pull(35470, "[Bugfix] Fix garbage output from AWQ Marlin on Ampere (SM80) since v0.16.0", "gshah-nv", 15.5,
             "The regenerated Marlin kernels (#34655) instantiated the SM80 path with the SM90 zero-point layout, "
             "so every AWQ model served with awq_marlin on A100/A10/RTX 30xx produced garbage. Restores the SM80 "
             "layout and adds an SM80 end-to-end check.", fixes="#35422",
             test="Llama-3.3-70B-Instruct-AWQ and Qwen2.5-32B-Instruct-AWQ on A100; kernel tests for SM80/SM89",
             result="GSM8K 0.89 (0.15.1: 0.89; 0.16.0: 0.02).",
             labels=("bug", "quantization", "ready"), merged=23.2, size=(140, 58, 6), react=14, talk=[
                 (17.0, "lena-b", "Confirmed on 2xA100 with Qwen2.5-32B-AWQ."),
                 (22.8, "mzheng-rh", "LGTM, please cherry-pick into v0.16.1."),
             ]),
        pull(35471, "[Test] gpt-oss MXFP4 end-to-end test on H100 with the Marlin MoE path", "emilyt", 15.65,
             "Covers the path most H100 users hit.", labels=("gpt-oss", "ready"), merged=20.0, size=(70, 0, 2)),
        pull(35472, "[Frontend] Stream tool calls with `tool_choice: required`", "okonkwo-d", 15.8,
             "tool_choice=required ignored stream=true and returned one chunk.", labels=("frontend",),
             size=(150, 40, 3)),
        issue(35473, "[Feature]: OpenTelemetry spans for prefill and decode in the engine core", "mlops-tom", 16.0,
              feature("Only the API server emits spans; we want prefill/decode timing per request."),
              labels=("feature request",), talk=[(19.4, "rzhang-infra", "Makes sense; the request timeline "
                                                                        "events already exist.")]),
        pull(35474, "[Bugfix] Respect HF_HUB_OFFLINE when resolving the tokenizer", "ella-ng", 16.2,
             "Offline mode still made a network call for the tokenizer config.", merged=21.3, size=(12, 4, 1),
             association="FIRST_TIME_CONTRIBUTOR"),
        pull(35475, "[Doc] gpt-oss: the Responses API and function calling", "emilyt", 16.5,
             "A how-to page for gpt-oss with the Responses API: function calling, reasoning items and multi-turn "
             "inputs.", labels=("documentation", "gpt-oss"), size=(110, 4, 2)),
        issue(35476, "vLLM gets stuck at 'Loading safetensors checkpoint shards' on TP=8", "wang-lei-infra", 16.8,
              "Server: 8xH200, DeepSeek-V3.2 FP8 from a shared NFS mount, vllm 0.16.0 (docker).\n\n"
              "Loading stops at 61% and never moves; after 2 hours I killed it. No error, GPU memory stays at 38 "
              "GB per GPU. With TP=4 and the 2-layer test config it loads. Same NFS mount worked with 0.15.1.\n\n"
              "```\nvllm serve /mnt/nfs/DeepSeek-V3.2 -tp 8 --max-model-len 65536\n```\n\n"
              "```\n(Worker_TP0 pid=5519) Loading safetensors checkpoint shards:  61% Completed | 100/163 "
              "[03:11<02:01,  1.91s/it]\n(EngineCore_DP0 pid=5101) INFO [shm_broadcast.py:466] No available "
              "shared memory broadcast block found in 60 seconds.\n```",
              labels=("bug",), react=5, talk=[
                  (17.9, "runze-w", "Does it also hang with `--safetensors-load-strategy eager`? 0.16 switched to "
                                    "lazy mmap loading, which is very slow on some NFS setups."),
                  (19.2, "wang-lei-infra", "With eager it loads in 6 minutes. So it's a hang with the lazy "
                                           "strategy on NFS?"),
                  (20.7, "hyeonwoo-k", "Eight ranks mmap-reading the same 690 GB on NFS can thrash, but it should "
                                       "not stop completely. Can you py-spy dump a stuck rank?"),
              ]),
        pull(35477, "[Perf][CPU] Vectorised top-p sampling on AVX-512", "akumar-intel", 17.0,
             "Vectorises the top-p sort of the CPU backend's sampler with AVX-512 (sampler time -35% on Sapphire "
             "Rapids).", labels=("cpu",), size=(170, 40, 2)),
        pull(35478, "[Benchmark] Add a multi-turn chat dataset to `vllm bench serve`", "jpark-ml", 17.3,
             "Replays ShareGPT conversations turn by turn to measure prefix caching.", size=(260, 10, 4)),
        pull(35479, "[Kernel] Tuned fused_moe configs for Qwen3.5-122B-A10B on H20", "sun-hao-ml", 17.45,
             "E=256, N=1024 configs from benchmark_moe.py.", size=(980, 0, 3)),
        pull(35480, "Sync fork", "daniyar-t", 17.6, "", body="", closed=17.8, size=(3200, 1800, 140), talk=[
            (17.8, "dvolkov", "Closing; this merges your fork's main into ours."),
        ]),
        issue(35481, "[Usage]: structured output with a JSON schema returns `400: grammar compilation failed`",
              "rag-shop-dev", 17.9, usage(
                  "My schema has a `pattern` with a lookahead. Is that supported by the default backend?"),
              labels=("usage", "structured-output"), talk=[
                  (19.5, "shreya-ml", "Lookaheads are not supported by xgrammar; use `guidance` as the backend or "
                                      "rewrite the pattern."),
              ]),
        pull(35482, "[Bugfix] Whisper: fix word timestamps after the 30 s chunk boundary", "okonkwo-d", 18.1,
             "Timestamps restarted at 0 in each chunk.", labels=("multi-modality",), size=(30, 8, 2)),
        pull(35483, "[Core] Scheduler: prefer short prefills", "rohit-bh", 18.25, "Draft of a scheduling tweak.",
             closed=18.5, size=(40, 10, 1), talk=[
                 (18.5, "rohit-bh", "Opened against the wrong branch, sorry. Closing."),
             ]),
        pull(35484, "[Misc] Type hints for vllm/entrypoints/openai/protocol.py", "ruslan-b", 18.4,
             "Adds type hints to vllm/entrypoints/openai/protocol.py; no behaviour change.",
             size=(160, 120, 1)),
        pull(35485, "[Kernel] Marlin W4A8-FP8 GEMM for Hopper", "fp4-forge", 18.7,
             "4-bit weights with FP8 activations on SM90.", test="Kernel tests; Llama-3.1-70B W4A8",
             result="+24% decode throughput over W4A16 at batch 64.", size=(1400, 60, 9), talk=[
                 (21.4, "gshah-nv", "Interesting. Please run the Marlin SM80 tests too after #35470."),
             ]),
        issue(35486, "[Installation]: Jetson AGX Thor: building from source fails at flash-attn", "jetson-nano-guy",
              19.0, installation("Trying to build vLLM on Jetson Thor (aarch64, CUDA 13).",
                                 command="pip install -e . --no-build-isolation",
                                 log="error: identifier \"__nv_fp8_e4m3\" is undefined"),
              labels=("installation",), talk=[
                  (19.4, "jetson-nano-guy", "Setting TORCH_CUDA_ARCH_LIST=11.0 gets further."),
                  (20.1, "jetson-nano-guy", "Now it fails in the Marlin kernels."),
                  (20.8, "jetson-nano-guy", "Disabling Marlin with VLLM_DISABLE_MARLIN_BUILD=1 ... not a real env "
                                            "var it seems."),
                  (21.6, "jetson-nano-guy", "Commented out the Marlin sources in CMakeLists.txt, it builds!"),
                  (22.2, "jetson-nano-guy", "Qwen3-8B runs at 21 tok/s. Leaving this here for others."),
                  (23.0, "jetson-nano-guy", "Would a PR adding an option to skip Marlin be accepted?"),
              ]),
        pull(35487, "[CI/Build] Cache the Docker build layers across release jobs", "sbhatt-vllm", 19.3,
             "Saves ~25 minutes per release build.", labels=("ci/build", "ready"), merged=22.2, size=(40, 12, 2)),
        issue(35488, "[Bug]: Kimi-K2.5 returns empty `content` when stream=true and tools are set", "li-ming-ai", 19.6,
              bug("With tools in the request and stream=true, about a third of the answers that should be plain "
                  "text come back with empty content and no tool call. Non-streaming is fine.", env=h20,
                  repro="vllm serve moonshotai/Kimi-K2.5 -tp 8 --tool-call-parser kimi_k2 "
                        "--enable-auto-tool-choice --reasoning-parser kimi_k2"),
              labels=("bug", "tool-calling"), react=3, talk=[
                  (21.2, "moonshot-kai", "Thanks, looks like the streaming parser waits for a tool section that "
                                         "never starts. Will look tomorrow."),
              ]),
        pull(35489, "[V1] Make Model Runner V2 the default on CUDA", "mgrant", 19.8,
             "Implements #35102 for CUDA: V2 is the default for decoder-only generation; unsupported features fall "
             "back to V1 with an INFO line; ROCm, XPU and TPU unchanged. `VLLM_USE_MODEL_RUNNER_V2=0` restores V1.",
             test="Full CI with V2 default", result="Green except 3 LoRA+multimodal tests, which now fall back.",
             labels=("v1",), size=(85, 30, 6), react=10, talk=[
                 (21.5, "chenyu-z", "Let's land the migration guide first, as agreed in the RFC."),
             ]),
        pull(35490, "[Bugfix] Prometheus: keep `vllm:num_requests_waiting` after an engine restart", "kwang-hw", 20.1,
             "The gauge disappeared after an engine restart.", size=(14, 3, 1)),
        pull(35491, "[Frontend] Deprecate `--disable-frontend-multiprocessing`", "noor-ali", 20.3,
             "Kept for debugging only; warns now, removal in v0.18.", labels=("frontend",), size=(20, 4, 3)),
        dep(35492, 20.45, "pypa/setuptools", "80.10.1", "80.11.0", path="/requirements", closed=23.0, talk=[
            (23.0, "dependabot[bot]", "Looks like pypa/setuptools is up-to-date now, so this is no longer needed."),
        ]),
        issue(35493, "[Installation]: `uv pip install vllm` picks the cu129 torch on a CUDA 13 machine",
              "kim-sj", 20.6, installation("uv resolves torch 2.10.0+cu129 and vLLM then fails to import its CUDA 13 "
                                           "kernels.", command="uv pip install vllm --torch-backend=auto",
                                           log="ImportError: libcudart.so.13: cannot open shared object file"),
              labels=("installation",), talk=[(21.8, "sbhatt-vllm", "Until [3/3] lands, use the cu129 vLLM wheel "
                                                                    "from our index or --torch-backend=cu130.")]),
        pull(35494, "[Test] KV offloading to CPU: eviction order tests", "lmcache-ops", 20.9,
             "Adds tests for the eviction order of the CPU KV offloading connector; tests only.",
             size=(180, 0, 1)),
        pull(35495, "[Bugfix] Gemma 3: fix pan-and-scan crops for images smaller than the crop size",
             "google-gemma-rs", 21.1, "Small images produced zero crops and an empty tensor.",
             labels=("multi-modality",), size=(12, 3, 1)),
        issue(35496, "[Bug]: `prompt_tokens_details` is null in streamed usage chunks", "sara-g", 21.4,
              bug("With stream_options.include_usage the final chunk has `prompt_tokens_details: null` even with "
                  "prefix caching on."), labels=("bug",)),
        dep(35497, 21.7, "astral-sh/ruff", "0.15.1", "0.15.3", path="/requirements", merged=22.5),
        pull(35498, "[Perf] Move detokenization of stop strings off the output thread", "amir-h", 21.9,
             "Stop-string checks now run in the detokenizer worker.", labels=("performance",), size=(120, 60, 3)),
        pull(35499, "[Doc] Fix typo in the LoRA page", "matteo-g", 22.1,
             "Fixes a typo in the LoRA page: `max_lora_rank` was written `max_lora_ranks`.",
             labels=("documentation",), merged=23.5, size=(1, 1, 1)),
        pull(35500, "[ROCm] Triton unified attention: use the gfx950 MFMA layout", "vkrish-amd", 22.4,
             "Uses 32x32 MFMA tiles in the Triton unified attention kernel on MI355X (gfx950); other GPUs "
             "unchanged.", labels=("rocm",), size=(140, 40, 3)),
        issue(35501, "[Feature]: LoRA on MoE expert layers for Qwen3.5", "finetune-fan", 22.6,
              feature("Our adapters touch the expert MLPs; vLLM only applies LoRA to attention and dense MLP."),
              labels=("feature request",), react=9),
        pull(35502, "[Example] Add our routing gateway example", "b-anderson", 22.75,
             "Example for our company's gateway.", closed=23.6, size=(340, 0, 4), talk=[
                 (23.6, "dvolkov", "Thanks, but we don't host examples for third-party products; a blog post or "
                                   "your own repo is the better place."),
             ]),
        pull(35503, "[Misc] Clean up unused fields in ModelConfig", "vtomasz", 22.9, "Three fields nobody reads.",
             merged=23.7, size=(0, 30, 2)),
        pull(35504, "[Bugfix] Responses API: keep function_call_output items next to reasoning items", "yuki-n", 23.1,
             "Attempt at #35456: the input conversion dropped function_call_output items that followed reasoning "
             "items.", fixes="#35456", labels=("gpt-oss",), size=(40, 12, 2)),
        pull(35505, "[Frontend] Streaming for /v1/audio/transcriptions with Voxtral", "mistral-pb", 23.3,
             "SSE streaming of partial transcripts.", labels=("frontend",), size=(230, 20, 5)),
        issue(35506, "[Usage]: Is Model Runner V2 faster for small models?", "tuan-v", 23.4,
              usage("Is it worth turning on VLLM_USE_MODEL_RUNNER_V2=1 for Qwen3-4B on an L4?"), labels=("usage",)),
        pull(35507, "[CI/Build] Default to the CUDA 13.0 wheel on PyPI [3/3]", "sbhatt-vllm", 23.6,
             "Last step: PyPI's default wheel becomes cu130; driver >= 580 required.", draft=True,
             labels=("ci/build",), size=(30, 12, 4)),
        pull(35508, "[Bugfix] Ray: respect placement groups created by the user", "bshah-rh", 23.8,
             "vLLM created its own placement group even when one was passed.", size=(40, 10, 2)),
    ]
    return HandDay("real-e-2026-02-27", datetime(2026, 2, 27, 3, 5, tzinfo=UTC), REAL_PEOPLE, items,
                   note="the week after v0.16.0: upgrade regressions, GLM-5 day-0 support, a new transport, a changed "
                        "default")


# --- Day F: DeepSeek-V3.2 MTP accuracy, a segfault on H20 after v0.17.1, the Anthropic API, a wheel-policy fight --

_STALE_F: tuple[tuple[int, str, str, str, float], ...] = (
    (30412, "[Bug]: Llama-3.2-3B returns empty string with `echo=True` and `max_tokens=0`", "zoe-t", "bug", -2450),
    (30588, "[Feature]: Stream prompt logprobs", "quant-trader-ml", "feature request", -2400),
    (30733, "[Usage]: Run two models on one GPU with MIG", "edu-cluster-admin", "usage", -2350),
    (30941, "[Bug]: `vllm serve --help` is very slow (8 s)", "tom-b", "bug", -2300),
)


def _day_f() -> HandDay:
    v = "0.17.1"
    h200 = gpu_env("NVIDIA H200", 8, v, torch="2.10.0+cu130", cuda="13.0")
    h20 = gpu_env("NVIDIA H20", 8, v, torch="2.10.0+cu130", cuda="13.0")
    b200x1 = gpu_env("NVIDIA B200", 1, v, torch="2.10.0+cu130", cuda="13.0")
    h100 = gpu_env("NVIDIA H100 80GB HBM3", 8, v, torch="2.10.0+cu130", cuda="13.0")
    l40s = gpu_env("NVIDIA L40S", 1, v, torch="2.10.0+cu130", cuda="13.0")
    mi355 = rocm_env("AMD Instinct MI355X", 8, f"{v}+rocm711")
    items = [
        *stale_issues(_STALE_F, notice=22.5, close=22.5),
        pull(34120, "[Frontend] Add `/v1/tokenize` support for chat templates with tools", "okonkwo-d", -1600,
             "Tokenize endpoint accepts `tools`.", size=(60, 10, 2), closed=22.5, talk=[
                 (-400, "github-actions[bot]", STALE_PR), (22.5, "github-actions[bot]", CLOSED_STALE_PR)]),
        # --- earlier items that move today ---
        issue(37310, "[RFC]: Stop publishing CUDA 12.x wheels after v0.18", "sbhatt-vllm", -20, rfc(
            "Since v0.17 the default wheel on PyPI is built for CUDA 13.0; we still build and test cu129 wheels "
            "for every nightly and release. That doubles build time (~3.5 h per release), doubles the CI matrix "
            "for kernels and blocks using CUDA 13-only features (e.g. the new FP4 grouped GEMM in CUTLASS 4.3) "
            "without ifdefs.",
            "1. v0.18 is the last release with cu129 wheels.\n2. From v0.19 only cu130 wheels (x86_64 and "
            "aarch64); driver >= 580 required.\n3. Docker images follow the same schedule.",
            "@rkessler @pkowalski @mgrant @gshah-nv"),
              labels=("RFC", "ci/build"), react=19, talk=[
                  (-16, "gshah-nv", "+1 from the kernel side; the ifdefs are getting out of hand."),
                  (-10, "infra-sre-bob", "Many clusters are on driver 550/570 and will be for a year (certified "
                                         "stacks). This cuts them off from every new model."),
                  (0.9, "zhou-yuqi", "Our H20 fleet is on 570 because of the vendor's certified image; we cannot "
                                     "move to 580 before Q4.", 8),
                  (1.6, "kubeflow-jo", "Same for us on EKS: the managed AMI ships 570."),
                  (2.4, "pkowalski", "Forward compatibility packages (cuda-compat) let a CUDA 13 userspace run on "
                                     "a 570 driver on datacenter GPUs. Has anyone tried that with our cu130 "
                                     "image?"),
                  (3.3, "infra-sre-bob", "cuda-compat works on A100/H100 but is not supported on every cloud "
                                         "image, and it's one more thing that can break."),
                  (4.9, "sbhatt-vllm", "We could document cuda-compat and keep building cu129 only for "
                                       "releases (not nightlies). That halves the cost instead of removing it."),
                  (7.2, "mzheng-rh", "Downstream we will keep building cu12 ourselves for a while; I'd prefer "
                                     "upstream keeps release-only cu129 until v0.20.", 5),
                  (9.6, "gshah-nv", "Release-only cu129 is fine with me as long as new kernels may be cu130-only "
                                    "(feature missing on cu129, not a build failure)."),
                  (12.1, "zhou-yuqi", "That works for us: an older kernel path is better than no wheel."),
                  (15.8, "rkessler", "Let's do that: cu129 for releases until v0.20, new kernels may be cu130-only "
                                     "with a clear log line; nightlies cu130 only from now. Please update the RFC.",
                   11),
                  (16.9, "sbhatt-vllm", "Updated the proposal. Implementation after the v0.18 branch cut."),
                  (20.4, "dong-xy", "Will the Docker images keep a cu129 tag too?"),
                  (21.0, "sbhatt-vllm", "Yes, `-cu129` tags for releases until v0.20."),
              ]),
        issue(37302, "[Bug]: v0.17.1 Docker image fails with `libcudart.so.13: cannot open shared object file` on "
                     "driver 570", "ravi-p", -22, bug(
                  "`vllm/vllm-openai:v0.17.1` exits at import on nodes with driver 570.", env=h100,
                  log="ImportError: libcudart.so.13: cannot open shared object file: No such file or directory"),
              labels=("bug", "ci/build"), react=14, talk=[
                  (-20, "sbhatt-vllm", "v0.17 images need driver >= 580 (release notes); use the "
                                       "`v0.17.1-cu129` tag."),
                  (-8, "ahmed-s", "The release notes say that, but the error should too."),
                  (0.4, "vivek-n", "same here"),
                  (1.1, "yusuf-o", "+1, hit this on GKE"),
                  (3.7, "lucas-m", "Same. The -cu129 tag works."),
                  (8.3, "ravi-p", "Confirmed -cu129 works. Please make the error say which tag to use."),
                  (10.2, "sbhatt-vllm", "Import-time check with a clear message is in #37390."),
              ]),
        pull(37390, "[Misc] Say which wheel or image to use when the CUDA driver is too old", "sbhatt-vllm", -9,
             "Checks the driver version at import and names the cu129 wheel or image tag.",
             labels=("ready",), merged=12.0, size=(60, 4, 3)),
        pull(37201, "[Frontend] Anthropic Messages API (`/v1/messages`)", "ethan-c", -48,
             "Adds an Anthropic-compatible `/v1/messages` endpoint: text and image content blocks, system prompts, "
             "tool use (`tool_use` / `tool_result` blocks), streaming with Anthropic's event types, `thinking` "
             "blocks for models with a reasoning parser, and `/v1/messages/count_tokens`. Lets Claude-style "
             "clients and coding agents talk to vLLM without a translating proxy (#33874, 41 👍).",
             test="tests/entrypoints/anthropic (new, 58 tests); the official anthropic Python SDK against Qwen3.5 "
                  "and gpt-oss; Claude Code pointed at vLLM for 30 minutes of tasks",
             result="All pass; the SDK's streaming and tool-use examples work unchanged.",
             labels=("frontend", "ready"), merged=18.0, size=(2240, 60, 21), react=46, talk=[
                 (-40, "noor-ali", "How much of this duplicates the chat completions path?"),
                 (-38, "ethan-c", "Request conversion into the same internal chat request; only the "
                                  "(de)serialisation and streaming events are new."),
                 (-12, "aurelien-m", "I'm wary of maintaining a third API surface. Who owns it when Anthropic "
                                     "changes the API?"),
                 (0.7, "ethan-c", "Happy to be listed as owner; the API has been stable for two years and the "
                                  "tests pin the event shapes."),
                 (2.9, "agent-builder-99", "We'd drop LiteLLM in front of vLLM if this lands. +1"),
                 (4.2, "noor-ali", "The `thinking` blocks: do we return the signature field? Clients validate it "
                                   "on the next turn."),
                 (5.0, "ethan-c", "We return an empty signature; the SDK accepts it. Documented."),
                 (6.8, "aurelien-m", "OK. Please mark it as beta in the docs and add the owner to CODEOWNERS."),
                 (9.4, "hliu-vllm", "Shares the serving layer with the gRPC transport, good; I reviewed that part."),
                 (14.1, "rag-shop-dev", "Tried the branch with the Anthropic SDK and Qwen3.5-35B: tools work."),
                 (17.7, "noor-ali", "Approved. Merging as beta."),
             ]),
        pull(37288, "[Model] Add Nemotron-3-Super (hybrid Mamba2-Transformer MoE)", "nvidia-nemo-ab", -26,
             "Adds Nemotron-3-Super-120B-A12B: Mamba-2 and attention layers with a latent MoE, multi-token "
             "prediction heads, FP8 and NVFP4 checkpoints, and its reasoning parser (`nemotron_v3`).",
             test="lm_eval gsm8k, mmlu_pro; TP4 on 4xH100 and TP2 on 2xB200 (NVFP4)",
             result="GSM8K 0.951 (reference 0.953); NVFP4 on B200 0.947.",
             labels=("new-model", "ready"), merged=10.5, size=(1640, 40, 15), react=29, talk=[
                 (-20, "hyeonwoo-k", "The Mamba state caching goes through the hybrid allocator now, thanks."),
                 (9.9, "hyeonwoo-k", "LGTM."),
                 (12.7, "cloud-ml-ana", "Running on 2xB200 with NVFP4, 290 tok/s at concurrency 1 🚀"),
             ]),
        pull(37150, "[Kernel][Perf] FlashInfer sparse MLA decode for DeepSeek-V3.2 on Blackwell", "gshah-nv", -60,
             "DeepSeek-V3.2's sparse attention (top-2048 tokens per query) used the FlashMLA sparse kernel on "
             "SM100 with a Hopper-era tile shape. This switches decode to FlashInfer's SM100 sparse MLA kernel "
             "(TMEM, 2-CTA) and keeps FlashMLA for prefill.",
             test="DeepSeek-V3.2 FP8, 8xB200, vllm bench serve, concurrency 64, 2k in / 2k out; GSM8K",
             result="Output throughput 9,850 -> 13,990 tok/s (+42%); TPOT p50 -31%. GSM8K 0.957 -> 0.958.",
             labels=("deepseek", "ready"), merged=7.5, size=(680, 140, 9), react=24, talk=[
                 (-40, "pkowalski", "Please keep the FlashMLA decode path selectable for debugging."),
                 (-38, "gshah-nv", "VLLM_ATTENTION_BACKEND=FLASHMLA_SPARSE still selects it."),
                 (7.2, "pkowalski", "Nightly numbers match. Merging."),
             ]),
        issue(37240, "[Bug]: gpt-oss-120b answers wrong (GSM8K 0.62) with prefix caching on, 0.89 with it off",
              "fintech-llm-ops", -40, bug(
                  "After the prefix caching default change for sliding-window models in 0.17, gpt-oss-120b gets "
                  "many math answers wrong in our eval when the few-shot prefix is shared (cache hits). With "
                  "--no-enable-prefix-caching the score is back.", env=h100),
              labels=("bug", "gpt-oss"), closed=3.0, react=15, talk=[
                  (-35, "emilyt", "Reproduced; the sliding-window layers reuse blocks that were already evicted "
                                  "from the window."),
                  (-30, "dataminer88", "Same on gpt-oss-20b."),
                  (3.0, "fintech-llm-ops", "Fixed on main by #37333, GSM8K 0.89 with prefix caching on. Thanks!"),
              ]),
        pull(37333, "[Bugfix] gpt-oss: fix wrong outputs with prefix caching and sliding-window layers", "emilyt", -15,
             "On a prefix cache hit the sliding-window layers reused blocks that had already slid out of the window "
             "and been freed, so attention read stale KV. gpt-oss (alternating sliding/full layers) answered "
             "wrong; Gemma 3 and Mistral with sliding window were affected in the same way.",
             fixes="#37240", test="GSM8K with a shared 8-shot prefix on gpt-oss-120b and gemma-3-27b-it",
             result="gpt-oss-120b 0.62 -> 0.89 (prefix caching off: 0.89); gemma-3-27b 0.81 -> 0.87.",
             labels=("bug", "gpt-oss", "ready"), merged=3.0, size=(96, 30, 4), react=12, talk=[
                 (-10, "hyeonwoo-k", "Nice catch. Please add the Gemma 3 case to the test."),
                 (-6, "emilyt", "Added."),
                 (2.6, "hyeonwoo-k", "LGTM, please cherry-pick into 0.17.2."),
             ]),
        pull(37355, "[Security] Media URLs: block private and link-local addresses by default", "mzheng-rh", -12,
             "Image, audio and video URLs in requests are fetched by the server. Until now any URL was fetched, "
             "so a request could make the server reach internal services (SSRF, GHSA-8x4m-…). Private, loopback "
             "and link-local addresses are now refused by default; `--allowed-media-domains` and "
             "`--allow-private-media-urls` restore the old behaviour for trusted setups.",
             test="New tests for IPv4/IPv6 private ranges, redirects to private hosts, DNS rebinding",
             result="Pass.", labels=("ready", "security"), merged=13.0, size=(320, 40, 8), react=9, talk=[
                 (-8, "pkowalski", "This will break people serving images from an internal bucket; the error "
                                   "must name the flag."),
                 (-6, "mzheng-rh", "It does: `refused to fetch http://10.…: private address; pass "
                                   "--allowed-media-domains`."),
                 (12.6, "rkessler", "Approved. Advisory goes out with 0.17.2."),
             ]),
        pull(37260, "[Core] Remove the `--preemption-mode swap` option", "dvolkov", -30,
             "Swap preemption has been a no-op since the V1 engine; the option only warned. Passing it now fails "
             "with a message.", labels=("ready",), merged=9.0, size=(20, 180, 11)),
        pull(37402, "[Doc] Update the Blackwell installation notes for CUDA 13", "patel-ankit", -7,
             "Updates the Blackwell installation notes for the CUDA 13 wheels and the driver >= 580 requirement.",
             labels=("documentation",), merged=2.0, size=(40, 22, 2)),
        pull(37415, "[Bugfix] Qwen3.5-VL: fix the video processor for single-frame videos", "li-hao-qw", -5,
             "A video with one frame raised `ValueError: temporal_patch_size`.", labels=("qwen", "ready"),
             merged=6.0, size=(14, 3, 1)),
        pull(37420, "[Perf] Cache the chat template's compiled Jinja environment per tokenizer", "amir-h", -4,
             "Avoids recompiling the template per request (~0.4 ms).", labels=("performance",), merged=14.0,
             size=(30, 8, 2)),
        pull(37100, "[Hardware][TPU] Support expert parallel for Qwen3 MoE on TPU v6e", "tpu-mhall", -110,
             "EP through the JAX backend.", labels=("tpu",), merged=16.0, size=(540, 90, 7), talk=[
                 (15.6, "jwong-tpu", "LGTM after the v6e-16 run.")]),
        issue(37180, "[Bug]: Kimi-K2.5 with FP8 KV cache gives worse answers on H20 than on H200", "zhou-yuqi", -55,
              bug("Same image and flags; the H20 deployment scores 0.71 on our internal eval vs 0.83 on H200. "
                  "Both use FlashMLA with fp8 KV.", env=h20),
              labels=("bug",), react=4, talk=[
                  (-40, "moonshot-kai", "Is the H20 run using FlashInfer MLA by any chance? Check the startup log."),
                  (-36, "zhou-yuqi", "It says FLASHMLA on both."),
                  (6.6, "zhou-yuqi", "Found it: the H20 nodes had VLLM_USE_DEEP_GEMM=0 from an old config; with "
                                     "it on, 0.82. Still a gap, smaller."),
                  (9.1, "moonshot-kai", "Then the remaining gap is probably the fp8 KV scales; try "
                                        "--calculate-kv-scales."),
              ]),
        pull(37222, "[ROCm] AITER persistent MLA decode for DeepSeek on MI355X", "vkrish-amd", -40,
             "Persistent-kernel MLA decode.", labels=("rocm", "needs-rebase"), size=(420, 60, 6), talk=[
                 (4.4, "mergify[bot]", REBASE.format(author="vkrish-amd"))]),
        pull(37330, "[Bugfix] gpt-oss: disable prefix caching for sliding-window models", "yuki-n", -16,
             "Workaround for #37240: turns prefix caching off for models with sliding-window "
             "layers.", closed=3.2, size=(8, 1, 1), talk=[
                 (3.2, "emilyt", "Thanks; #37333 fixes it without losing prefix caching. Closing."),
             ]),
        pull(36900, "[Model] Add BlueLM-7B", "kwang-hw", -330,
             "Adds the BlueLM-7B architecture with its tokenizer.", size=(420, 0, 4), closed=8.0, talk=[
            (-300, "hyeonwoo-k", "Could you add a test and rebase?"),
            (8.0, "kwang-hw", "No longer needed, the Transformers backend runs it fine. Closing."),
        ]),
        # --- opened in the window ---
        pull(37450, "[CI] Nightly H20 performance job for DeepSeek-V3.2 and Qwen3.5", "rzhang-infra", 0.1,
             "Adds the two models to the nightly perf dashboard on H20.", labels=("ci/build", "ready"), merged=6.0,
             size=(70, 0, 3)),
        issue(37451, "[Bug]: Accuracy drop on GSM8K for DeepSeek-V3.2 with MTP (0.95 -> 0.71)", "li-ming-ai", 0.3, bug(
            "DeepSeek-V3.2 on 8xH200, v0.17.1. Without speculative decoding GSM8K (5-shot) is 0.953. With MTP "
            "(`num_speculative_tokens=1`) it drops to 0.712; with 3 speculative tokens to 0.48. Outputs look "
            "fluent but numbers in the reasoning are wrong. v0.16.0 with the same flags scored 0.951 with MTP.",
            env=h200,
            repro="vllm serve deepseek-ai/DeepSeek-V3.2 -tp 8 --tokenizer-mode deepseek_v32 "
                  "--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'\n"
                  "lm_eval --model local-completions --tasks gsm8k --num_fewshot 5 --model_args "
                  "base_url=http://localhost:8000/v1/completions,num_concurrent=64",
            log="|gsm8k|3|flexible-extract|5|exact_match|↑|0.7119|±|0.0125|\n"
                "|     | |strict-match    |5|exact_match|↑|0.7043|±|0.0126|"),
              labels=("bug", "deepseek", "speculative-decoding"), react=16, talk=[
                  (1.4, "sun-hao-ml", "Same on 8xH20: 0.95 -> 0.69 with MTP."),
                  (2.1, "fzhou-ml", "Thanks. Is the acceptance rate normal? If the drafts are rejected correctly "
                                    "the output should be identical to no-MTP at temperature 0."),
                  (3.0, "li-ming-ai", "Acceptance length 1.9, normal. And yes, temperature 0, so it should not "
                                      "change anything."),
                  (4.6, "gshah-nv", "Could be the new FlashInfer sparse MLA decode (#37150) with q_len > 1: it "
                                    "assumes one query token per request."),
                  (5.2, "li-ming-ai", "We are on H200, not Blackwell, so FlashMLA sparse is used."),
                  (6.0, "fzhou-ml", "Then it's more likely the indexer: with MTP the indexer's top-k for the "
                                    "draft positions is computed with the target's positions shifted by one."),
                  (7.9, "dz-deepep", "We bisected on H20: good at the commit before #36822 (indexer FP8 cache), "
                                     "bad after."),
                  (8.6, "fzhou-ml", "That matches. Fix in #37489; please test."),
                  (13.5, "li-ming-ai", "With #37489: GSM8K 0.949 with MTP. 🎉", 6),
                  (16.3, "ks-cho", "Is v0.17.1 without MTP safe? We serve V3.2 in production."),
                  (16.8, "fzhou-ml", "Yes, only MTP (or any spec decode) with V3.2's indexer is affected."),
              ]),
        pull(37452, "[ROCm][CI] Fix the MI300X test image after the ROCm 7.1.1 update", "amdteam-ci", 0.45,
             "The image lost `amdsmi` Python bindings.", labels=("rocm", "ci/build"), merged=3.0, size=(6, 2, 1)),
        pull(37453, "[Bugfix] Qwen3.5 reasoning parser: end reasoning at EOS when </think> is missing", "li-hao-qw",
             0.6, "If the model stops inside `<think>`, the whole answer stayed in `reasoning_content` and `content` "
                  "was null.", labels=("qwen", "ready"), merged=14.0, size=(28, 6, 2)),
        pull(37454, "[Misc] Remove the V0 compatibility shims in vllm/engine/", "dvolkov", 0.8,
             "`vllm.engine.llm_engine.LLMEngine` and `AsyncLLMEngine` have been aliases of the V1 classes since "
             "v0.11 and warned on import since v0.14. Removed; import from `vllm.v1.engine` or use `vllm.LLM`.",
             labels=("ready",), merged=12.0, size=(10, 420, 9), talk=[
                 (3.5, "bshah-rh", "A few downstream projects still import AsyncLLMEngine from vllm.engine."),
                 (4.1, "dvolkov", "They have warned for three releases; the release notes list the replacement."),
             ]),
        issue(37455, "[Usage]: TP=8 or TP=4 + PP=2 for Qwen3.5-397B on 8xH100?", "llm-platform-kr", 1.0,
              usage("Which layout gives better throughput for a chat workload?"), labels=("usage",), talk=[
                  (4.8, "bwtran", "TP=8 with EP usually wins on one node with NVLink; PP helps across nodes."),
              ]),
        pull(37456, "[Kernel] FlashInfer sparse MLA: tune the split-KV heuristic for batch < 8", "gshah-nv", 1.2,
             "Small batches used one CTA per head group in the sparse MLA decode from #37150; the split-KV "
             "heuristic now splits the KV for batch < 8.",
             test="DeepSeek-V3.2, 8xB200, concurrency 1/4", result="TPOT -9% at concurrency 1.",
             labels=("deepseek", "ready"), merged=16.0, size=(40, 12, 2)),
        pull(37457, "[Doc] Fix the pip command in the ROCm installation page", "k-yamamoto", 1.5,
             "Fixes the pip command on the ROCm installation page: the index URL had a "
             "typo.", labels=("documentation",), merged=5.0, size=(1, 1, 1)),
        issue(37458, "[Bug]: Segfault in custom allreduce on H20 after upgrading to 0.17.1", "wang-lei-infra", 1.7,
              bug("8xH20 (NVLink), TP=8, Qwen3.5-397B-A17B-FP8. Since upgrading from 0.16.0 to 0.17.1 the worker "
                  "processes die with a segmentation fault in the custom all-reduce, usually within the first "
                  "minutes of load. `--disable-custom-all-reduce` avoids it (throughput -12%).", env=h20,
                  repro="vllm serve Qwen/Qwen3.5-397B-A17B-FP8 -tp 8 --max-model-len 131072",
                  log="(Worker_TP3 pid=6221) *** SIGSEGV received at time=1773820214 on cpu 77 ***\n"
                      "(Worker_TP3 pid=6221) PC: @ 0x7f1e2c4a1b20 (unknown) "
                      "vllm::cross_device_reduce_2stage<__nv_bfloat16, 8>()\n"
                      "(Worker_TP3 pid=6221) Fatal Python error: Segmentation fault\n"
                      "(EngineCore_DP0 pid=5904) ERROR [multiproc_executor.py:154] Worker proc VllmWorker-3 died "
                      "unexpectedly, shutting down executor."),
              labels=("bug",), react=11, talk=[
                  (2.8, "zhou-yuqi", "Same on our H20 nodes, TP=8, DeepSeek-V3.2. Every 10-30 minutes."),
                  (3.9, "fang-zh", "+1, H20 with Kimi-K2.5. H200 nodes with the same image are fine."),
                  (5.4, "gshah-nv", "H20 only is interesting. Do you run with NCCL_CUMEM_ENABLE=0?"),
                  (6.1, "wang-lei-infra", "No, default. Driver 570.133."),
                  (9.4, "gshah-nv", "0.17 enlarged the custom all-reduce buffer to 16 MB for the two-stage "
                                    "kernel; on H20 the IPC registration silently falls back to a smaller "
                                    "mapping with driver 570. Reproduced on one node."),
                  (14.9, "gshah-nv", "#37518 checks the mapped size and falls back to NCCL when it's short."),
                  (18.2, "wang-lei-infra", "Running #37518 for 3 hours on 4 nodes, no segfault."),
              ]),
        pull(37459, "[Refactor] Tool parsers: one streaming state machine for JSON-style parsers [2/N]", "shreya-ml",
             2.0, "Moves the hermes, mistral, llama3_json and granite parsers onto the shared streaming state "
                  "machine from [1/N]. No change in outputs (1,200 recorded streams replayed).",
             test="tests/tool_use, recorded-stream replay", result="Identical outputs.",
             labels=("tool-calling", "ready"), merged=20.0, size=(1860, 2410, 17)),
        dep(37460, 2.2, "docker/login-action", "3", "4", labels=("dependencies", "github_actions"), merged=8.0),
        issue(37461, "[Feature]: Run DeepSeek-V3.2 on A100 (Ampere)", "nlp-lab-sjtu", 2.5, feature(
            "DeepSeek-V3.2 requires Hopper for the sparse attention kernels. Many university clusters only have "
            "A100. A slower Triton fallback would be enough."),
              labels=("feature request", "deepseek"), react=34, talk=[
                  (3.0, "chen-wei-88", "+1"),
                  (3.6, "haoran-z", "+1 we have 64 A100s and no H100"),
                  (5.1, "meng-q", "+1"),
                  (7.4, "junhao-l", "+1, any plan?"),
                  (9.9, "nlp-lab-sjtu", "Bump"),
                  (12.2, "park-jh", "+1"),
                  (19.0, "arjun-m", "+1"),
              ]),
        pull(37462, "[Hardware][Intel GPU] Fused MoE with the vllm-xpu-kernels grouped GEMM", "lzhang-xpu", 2.7,
             "Switches XPU MoE to the new kernel library.", labels=("intel-gpu",), size=(260, 180, 6), talk=[
                 (12.0, "akumar-intel", "Tested on Arc Pro B60: Qwen3-30B-A3B +35% decode."),
             ]),
        pull(37463, "[Doc] Fix typo in ROCm install", "sven-lind", 2.9,
             "Fixes a typo on the ROCm installation page.", closed=3.3, size=(1, 1, 1),
             talk=[(3.3, "pkowalski", "Thanks! Already fixed in #37457.")]),
        issue(37464, "[Doc]: FP8 KV cache page says Hopper only, but it works on L40S", "tuan-v", 3.1,
              doc_issue("The page says FP8 KV cache needs SM90; it runs fine on L40S (SM89)."),
              labels=("documentation",)),
        pull(37465, "[Spec Decode] EAGLE-3 for Qwen3.5 (dense and MoE)", "fzhou-ml", 3.3,
             "EAGLE-3 draft heads for Qwen3.5-27B and Qwen3.5-122B-A10B, including the hybrid (GDN) target's "
             "state rollback on rejection.",
             test="MT-Bench acceptance; outputs vs no-spec at temperature 0",
             result="Acceptance length 3.2; decode 1.8x at concurrency 1, 1.3x at 16 (H100). Identical outputs.",
             labels=("speculative-decoding", "qwen"), size=(780, 90, 9), react=13, talk=[
                 (10.3, "li-hao-qw", "Tried it on 8xH200 with the 122B: 1.75x at concurrency 1."),
                 (13.8, "mgrant", "The rollback of the GDN state copies the whole state per rejection; can it be "
                                  "in-place?"),
                 (15.0, "fzhou-ml", "It can for num_speculative_tokens <= 3, doing that."),
             ]),
        pull(37466, "[Misc] Fix mypy errors in vllm/lora", "minh-t", 3.45,
             "Fixes the mypy errors reported in vllm/lora after the type-checker upgrade.", closed=9.1,
             size=(20, 14, 4), talk=[(9.1, "dvolkov", "Covered by #37472 (ruff/mypy upgrade); closing, thanks.")]),
        pull(37467, "[Test] Accuracy test for DeepSeek MTP on a tiny model", "fzhou-ml", 3.6,
             "CI check that spec decode with MTP gives identical greedy outputs.", labels=("speculative-decoding",),
             merged=19.0, size=(120, 0, 2)),
        issue(37468, "[Usage]: `--lora-modules` gives `ValueError: LoRA rank 128 is greater than max_lora_rank 16`",
              "finetune-fan", 3.8, usage("How do I serve a rank-128 adapter?"), labels=("usage",), closed=5.6,
              talk=[(5.2, "bwtran", "Pass --max-lora-rank 128."), (5.6, "finetune-fan", "Works, thanks.")]),
        pull(37469, "[ROCm] AITER: enable FP8 MLA decode for Kimi-K2.5 on MI355X", "sjoshi-amd", 4.0,
             "FP8 KV cache with AITER MLA for Kimi-K2.5.", labels=("rocm",), size=(90, 20, 3)),
        pull(37470, "[Bugfix] `vllm bench serve`: cache the ShareGPT download", "jpark-ml", 4.3,
             "The dataset was downloaded on every run.", merged=17.0, size=(30, 6, 2)),
        issue(37471, "[Bug]: Responses are cut off mid-sentence with finish_reason=stop since 0.17.1 (Qwen3.5)",
              "rag-shop-dev", 4.5, bug(
                  "With Qwen3.5-122B-A10B and `--reasoning-parser qwen3`, about 1 in 20 answers ends mid-sentence "
                  "with finish_reason `stop` and no stop string in the text. On 0.16.0 it never happened. Seems to "
                  "happen when the answer contains `</` (HTML or XML in the answer).", env=h200,
                  log="...To close the tag, write </\nfinish_reason: stop"),
              labels=("bug", "qwen"), react=7, talk=[
                  (6.4, "li-hao-qw", "The new EOS handling in the reasoning parser may match a partial `</think>`. "
                                     "Checking."),
                  (8.0, "agent-builder-99", "Same with code answers containing closing tags, very visible for us."),
                  (11.7, "li-hao-qw", "It's the stop-string scan on partial special tokens; not the parser. Fix "
                                      "tomorrow."),
              ]),
        pull(37472, "[Misc] Upgrade ruff and mypy and fix the new errors", "ruslan-b", 4.8,
             "Upgrades ruff and mypy to their latest releases and fixes the new lint and type errors across the tree.",
             merged=9.0, size=(210, 190, 44)),
        pull(37473, "[CI] Split the models test job into 4 shards", "sbhatt-vllm", 5.0,
             "Splits the models test job into four shards: 55 minutes to 16 minutes of wall time.",
             labels=("ci/build", "ready"), merged=7.0, size=(40, 12, 2)),
        issue(37474, "[Installation]: Installing on Windows WSL2 with an RTX 4070", "hw-lab-ysu", 5.2, installation(
            "pip install finishes but `vllm serve` fails.", log="RuntimeError: Failed to infer device type"),
              labels=("installation",), talk=[
                  (5.6, "hw-lab-ysu", "nvidia-smi works inside WSL."),
                  (6.3, "hw-lab-ysu", "torch.cuda.is_available() is False in the venv though."),
                  (7.0, "hw-lab-ysu", "Reinstalled torch with the cu130 index, now True."),
                  (7.9, "hw-lab-ysu", "Now vllm serve says CUDA driver too old (566 on Windows)."),
                  (9.3, "hw-lab-ysu", "Updated the Windows driver to 580, it works. Qwen3-8B-AWQ runs."),
              ]),
        pull(37475, "[Doc] Anthropic Messages API: usage, limits, owner", "ethan-c", 5.5,
             "Documents the Anthropic Messages API from #37201 (beta): supported blocks, limits, and who owns "
             "it.", labels=("documentation", "frontend"), merged=21.0, size=(150, 0, 3)),
        pull(37476, "Add files via upload", "joao-p", 5.7, "", body="", closed=6.0, size=(5000, 0, 30), talk=[
            (6.0, "pkowalski", "Closing: unrelated files."),
        ]),
        pull(37477, "[Bugfix] LoRA: rebuild the punica metadata for CUDA graphs when max_loras > 4", "jpark-ml", 5.9,
             "With more than 4 LoRA slots the captured graphs reused metadata sized for 4 adapters; requests using "
             "slot 5+ read past the end of the index tensor.",
             test="New test with max_loras=8 and CUDA graphs", result="Pass; no out-of-bounds with "
                                                                      "compute-sanitizer.",
             labels=("bug",), size=(52, 18, 3), talk=[
                 (12.0, "ethan-c", "This looks like it would explain #37502."),
                 (15.2, "mzheng-rh", "Please add the sanitizer run to the test plan output."),
             ]),
        issue(37478, "[Bug]: DeepSeek-R1 on MI355X stops responding after ~1000 requests with AITER MLA decode",
              "ntt-yamada", 6.2, bug(
                  "8x MI355X, DeepSeek-R1-0528 FP8, v0.17.1+rocm711 image, VLLM_ROCM_USE_AITER=1. After roughly "
                  "1000 requests (about 20 minutes at concurrency 64) the server stops producing tokens: no error, "
                  "GPU busy at 100%, requests time out. Restart fixes it until the next time. With "
                  "VLLM_ROCM_USE_AITER_MLA=0 it has run for 8 hours.", env=mi355,
                  repro="VLLM_ROCM_USE_AITER=1 vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8 --block-size 1",
                  log="(EngineCore_DP0 pid=441) INFO [shm_broadcast.py:466] No available shared memory broadcast "
                      "block found in 60 seconds."),
              labels=("bug", "rocm"), react=6, talk=[
                  (7.5, "vkrish-amd", "Does it happen with the persistent MLA kernel from #37222 as well?"),
                  (9.0, "ntt-yamada", "Haven't tried; I'll build it."),
                  (11.2, "hpc-admin-ut", "We see the same on MI325X with Kimi-K2.5, after ~40 minutes."),
                  (16.0, "yhuang-amd", "Repro'd on MI355X. A work-partitioning buffer in AITER MLA wraps after 2^16 "
                                       "launches. Fix in AITER; we'll bump the pin."),
              ]),
        pull(37479, "[Hardware][TPU] Ragged paged attention v3 kernel", "tpu-mhall", 6.4,
             "New Pallas kernel, +15% decode on v6e.", labels=("tpu",), size=(900, 300, 5), talk=[
                 (14.4, "jwong-tpu", "Reviewing.")]),
        pull(37480, "[Misc] Fix typos in the sampling params docstrings", "farid-n", 6.6,
             "Fixes typos in the docstrings of SamplingParams.", merged=10.0,
             size=(4, 4, 1)),
        pull(37482, "[Model] Granite 4.1 Vision", "ibm-granite-tk", 6.9,
             "Adds Granite-4.1-Vision (image input).", test="HF reference comparison",
             result="Match on 30 prompts.", labels=("new-model", "multi-modality"), size=(720, 10, 7), talk=[
                 (13.3, "hyeonwoo-k", "Can the projector reuse the LLaVA-Next one?"),
             ]),
        issue(37483, "[Performance]: Llama-3.1-8B TTFT p99 doubled between 0.16.0 and 0.17.1 on L40S", "omar-k", 7.1,
              performance("TTFT p99 at 20 req/s: 210 ms (0.16.0) vs 430 ms (0.17.1). Throughput the same.",
                          env=l40s),
              labels=("performance",), talk=[(12.6, "chenyu-z", "Model Runner V2 is default now; does "
                                                                "VLLM_USE_MODEL_RUNNER_V2=0 change it?")]),
        pull(37484, "[Quantization] MXFP4 MoE for gpt-oss on MI355X through AITER", "sjoshi-amd", 7.3,
             "gpt-oss-120b's MXFP4 experts run natively on gfx950 with AITER instead of dequantising to bf16.",
             test="gpt-oss-120b on 1x MI355X, vllm bench serve, concurrency 32",
             result="Output throughput +58%; GPQA unchanged.", labels=("rocm", "gpt-oss"), size=(380, 40, 6),
             react=8, talk=[(18.7, "rvoss-amd", "Great numbers; let's get this into the next release.")]),
        pull(37485, "[Bugfix] DeepSeek-V3.2: disable MTP when the indexer uses an FP8 cache", "haoran-z", 7.6,
             "Workaround for #37451: disables MTP for DeepSeek-V3.2 when the indexer uses the FP8 "
             "cache.", closed=9.0, size=(10, 1, 1), talk=[
                 (9.0, "fzhou-ml", "Thanks; #37489 fixes the indexer, so MTP can stay on. Closing."),
             ]),
        pull(37486, "[Refactor] Split EngineCoreClient into sync and async modules", "rzhang-infra", 7.8,
             "Moves the sync and async EngineCoreClient classes into separate modules; pure move, no behaviour "
             "change.", labels=("v1",), size=(980, 940, 6), talk=[
                 (17.0, "chenyu-z", "Wait for the DP changes in flight?")]),
        issue(37487, "[Bug]: Gemma 3 27B FP8 outputs only '!!!!!!' on B200", "cloud-ml-ana", 8.0, bug(
            "google/gemma-3-27b-it with `--quantization fp8` (dynamic) on 1xB200: every answer is a string of "
            "exclamation marks; logprobs are NaN. The bf16 model is fine, and FP8 works on H100.", env=b200x1,
            repro="vllm serve google/gemma-3-27b-it --quantization fp8",
            log="{\"content\": \"!!!!!!!!!!!!!!!!!!!!!!!!!!!!\", \"logprobs\": {\"content\": [{\"token\": \"!\", "
                "\"logprob\": NaN}]}}"),
              labels=("bug",), react=5, talk=[
                  (10.1, "gshah-nv", "Gemma's large activations overflow the FP8 scale in the new SM100 CUTLASS "
                                     "dynamic-quant kernel. Can you try VLLM_USE_FLASHINFER_FP8_GEMM=0?"),
                  (11.0, "cloud-ml-ana", "With that env var: correct output."),
              ]),
        pull(37488, "[Chore] Mergify: auto-label PRs that touch the ROCm kernels", "aurelien-m", 8.3,
             "Adds a Mergify rule that labels PRs touching the ROCm kernels with `rocm`.",
             merged=8.5, size=(12, 0, 1)),
        pull(37489, "[Bugfix] DeepSeek-V3.2: fix the indexer's positions for speculative tokens", "fzhou-ml", 8.5,
             "With MTP the lightning indexer computed its top-k for the draft positions with the positions shifted "
             "by one (the FP8 indexer cache from #36822 stores keys per slot, not per position), so the sparse "
             "attention of verified tokens attended to the wrong tokens: fluent but wrong answers.",
             fixes="#37451", test="GSM8K 5-shot, DeepSeek-V3.2, 8xH200, MTP with 1 and 3 tokens",
             result="MTP1: 0.712 -> 0.949; MTP3: 0.48 -> 0.950 (no spec: 0.953).",
             labels=("bug", "deepseek", "speculative-decoding"), size=(75, 20, 3), react=9, talk=[
                 (13.6, "li-ming-ai", "Tested, fixed (see #37451)."),
                 (17.5, "pkowalski", "LGTM; waiting for the B200 CI run before merging."),
             ]),
        pull(37490, "[V1] KV cache events: include the medium (GPU/CPU) in BlockStored", "lmcache-ops", 8.8,
             "Routers need to know where a block lives.", labels=("v1", "kv-connector"), size=(60, 10, 3)),
        issue(37491, "[Bug]: 'Token indices sequence length is longer than the specified maximum' warning for every "
                     "long prompt", "lena-b", 9.0, bug("The transformers warning is printed for each request over "
                                                       "128k even though the model supports 256k."),
              labels=("bug",)),
        pull(37492, "[Doc] Security: media URL fetching and the new defaults", "mzheng-rh", 9.2,
             "Documents the new media URL defaults from #37355: which addresses are refused and how to allow trusted "
             "ones.", labels=("documentation", "security"), merged=15.0, size=(70, 5, 2)),
        pull(37493, "[Frontend] Stream `logprobs` in the Responses API", "shreya-ml", 9.35,
             "Adds logprobs to `response.output_text.delta` events.", labels=("frontend",), size=(140, 20, 4)),
        pull(37494, "[Bugfix] fix", "daniyar-t", 9.5, "", body="fix", closed=10.0, size=(1, 1, 1), talk=[
            (10.0, "jiayi-xu", "Please describe what this fixes; closing for now."),
        ]),
        issue(37495, "[Bug]: vllm 0.17.1 crashes with SIGSEGV on H20 with TP=8", "sun-hao-ml", 9.7,
              bug("Workers die with a segfault after a few minutes on H20."), labels=("bug",), closed=10.1,
              reason="duplicate", talk=[(10.1, "gshah-nv", "Duplicate of #37458.")]),
        dep(37496, 9.9, "python-pillow/Pillow", "12.0.0", "12.1.1", path="/requirements", merged=11.0),
        pull(37497, "[Kernel] Tuned fused_moe configs for GLM-5 on B200", "zai-lwen", 10.2,
             "Adds tuned fused_moe configs for GLM-5 (E=256) on B200, from benchmark_moe.py.",
             size=(1100, 0, 4)),
        pull(37498, "[Frontend] Allow several `--served-model-name` aliases in /v1/models", "okonkwo-d", 10.4,
             "Lists every alias given to `--served-model-name` in /v1/models instead of only the "
             "first.", labels=("frontend",), size=(40, 12, 2)),
        issue(37499, "[Usage]: Structured output with reasoning models: the JSON ends up in reasoning_content",
              "agent-builder-99", 10.6, usage("With response_format json_schema and Qwen3.5, the JSON is in "
                                             "reasoning_content. How do I get it in content?"),
              labels=("usage", "structured-output"), talk=[
                  (13.0, "shreya-ml", "Set `structured_outputs_config.enable_in_reasoning=false` (default) and "
                                      "check you pass the reasoning parser; the grammar applies after `</think>`."),
              ]),
        pull(37500, "[CI] Retry Hugging Face downloads in tests", "sbhatt-vllm", 10.9,
             "Retries Hugging Face Hub downloads in tests on 5xx errors, which caused most CI flakes this week.",
             labels=("ci/build", "ready"), merged=12.5, size=(25, 4, 2)),
        pull(37501, "[Perf] Overlap output processing with the next step under pipeline parallel", "raghav-s", 11.1,
             "PP=2 throughput +6% on Llama-3.3-70B.", labels=("performance",), size=(130, 40, 3)),
        issue(37502, "CUDA error: an illegal memory access was encountered when using LoRA with Llama-3.1-8B and "
                     "max_loras=8", "inference-sam", 11.3,
              "vllm 0.17.1, 1xH100, meta-llama/Llama-3.1-8B-Instruct with 12 adapters, `--enable-lora "
              "--max-loras 8 --max-lora-rank 64`. Works fine until more than 4 different adapters are in the same "
              "batch, then the engine dies. With --enforce-eager it does not crash.\n\n"
              "```\nvllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-loras 8 --max-lora-rank 64 "
              "--lora-modules a1=... a2=... (12 adapters)\n```\n\n"
              "```\n(EngineCore_DP0 pid=2290) ERROR [core.py:866]   File \".../vllm/lora/punica_wrapper/"
              "punica_gpu.py\", line 231, in add_lora_linear\n(EngineCore_DP0 pid=2290) ERROR [core.py:866] "
              "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n(APIServer pid=1) "
              "ERROR [async_llm.py:525] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an "
              "issue.\n```",
              labels=("bug",), react=4, talk=[
                  (12.1, "ethan-c", "Looks like #37477; can you try that branch?"),
                  (16.4, "inference-sam", "With #37477: no crash in 2 hours with 12 adapters."),
              ]),
        pull(37503, "[Misc] Remove unused environment variables from vllm/envs.py", "vtomasz", 11.6,
             "Five variables nothing reads.", merged=18.0, size=(0, 60, 1)),
        pull(37504, "[Frontend] Deprecate `LLM.encode()` for generative models", "noor-ali", 11.8,
             "Use `LLM.embed()`/`LLM.classify()`/`LLM.reward()`; `encode` on a generative model warns and will be "
             "removed in v0.19.", labels=("frontend", "ready"), merged=22.0, size=(50, 12, 4)),
        issue(37505, "[Feature]: Anthropic Message Batches API", "fintech-llm-ops", 12.0,
              feature("Now that /v1/messages exists, please add /v1/messages/batches."),
              labels=("feature request",), talk=[(19.0, "ethan-c", "Out of scope for now, like the OpenAI Batch API "
                                                                  "(#35449).")]),
        pull(37506, "[Bugfix] Gemma 3 FP8 on Blackwell: fall back to per-token scales for large activations",
             "gshah-nv", 12.3,
             "The SM100 dynamic FP8 kernel used per-tensor scales, which overflow on Gemma 3's large residual "
             "activations: NaN logits and '!!!' output.", fixes="#37487",
             test="gemma-3-27b-it FP8 on B200, GSM8K", result="0.87 (H100 FP8: 0.87).",
             labels=("bug",), size=(44, 10, 2)),
        pull(37507, "[Test] Custom all-reduce: test the two-stage path on 8 GPUs with a small IPC mapping",
             "gshah-nv", 12.5,
             "Regression test for #37458: runs the two-stage custom all-reduce on 8 GPUs with a deliberately small IPC "
             "mapping.", size=(90, 0, 1)),
        pull(37508, "Revert \"[Misc] Remove the V0 compatibility shims in vllm/engine/\"", "bshah-rh", 12.7,
             "Reverts the removal of the V0 compatibility shims because downstream projects still import "
             "them.", closed=14.0, size=(420, 10, 9), talk=[
                 (13.2, "dvolkov", "The shims warned for three releases; we'd rather not revert."),
                 (13.6, "bshah-rh", "Fair, we'll fix downstream."),
                 (14.0, "bshah-rh", "Closing."),
             ]),
        pull(37509, "[Spec Decode][1/3] One proposer interface for EAGLE, MTP, n-gram and draft models", "fzhou-ml",
             12.9, "Unifies the proposers behind `SpecDecodeProposer`. No behaviour change.",
             labels=("speculative-decoding",), size=(640, 510, 12)),
        issue(37510, "[Bug]: OOM loading Llama-4-Maverick with --max-model-len 1000000 on 8xH100", "sara-g", 13.0,
              bug("torch.OutOfMemoryError during the profiling run with the full 1M context.", env=h100),
              labels=("bug",), talk=[(17.1, "bwtran", "1M context with Maverick needs ~8xH200; use "
                                                      "--max-model-len 430000 on 8xH100.")]),
        pull(37511, "[Model] Hunyuan-A13B: fix the reasoning parser for tool calls", "tencent-hunyuan-dev", 13.2,
             "Tool calls that followed `</think>` were dropped by the parser.", labels=("tool-calling",),
             size=(30, 8, 2)),
        pull(37512, "[ROCm][CI] Run the V1 tests on MI325X", "amdteam-ci", 13.4,
             "Runs the V1 test suite on the MI325X CI pool as well as MI300X.",
             labels=("rocm", "ci/build"), merged=20.5, size=(40, 6, 2)),
        issue(37513, "[CI Failure]: tests/lora/test_llama_tp.py fails on main", "sbhatt-vllm", 13.7,
              ci_failure("tests/lora/test_llama_tp.py", "Fails since #37472 (mypy upgrade changed a default arg)."),
              labels=("ci-failure",), closed=15.6, talk=[(15.6, "sbhatt-vllm", "Fixed by #37514.")]),
        pull(37514, "[CI] Fix the LoRA TP test after the mypy upgrade", "ruslan-b", 13.9,
             "Restores a default argument that the mypy upgrade (#37472) changed and that broke "
             "tests/lora/test_llama_tp.py.",
             labels=("ci/build", "ready"), merged=15.5, size=(2, 2, 1)),
        pull(37515, "[KV Connector] Mooncake store connector", "kwang-hw", 14.1,
             "KV offloading to a Mooncake store.", labels=("kv-connector",), size=(690, 20, 8), talk=[
                 (20.8, "kvcache-lab", "Please split the transfer engine bump into its own PR.")]),
        issue(37516, "[Bug]: `--load-format tensorizer` with S3 credentials from the environment fails",
              "stefan-k", 14.4, bug("Tensorizer ignores AWS_* env vars and fails with AccessDenied; passing "
                                    "them in --model-loader-extra-config works."), labels=("bug",)),
        pull(37517, "[Benchmark] Report acceptance rate and length in `vllm bench serve`", "jpark-ml", 14.6,
             "Reads the spec decode metrics from /metrics.", size=(90, 10, 2)),
        pull(37518, "[Bugfix] Custom all-reduce: fall back to NCCL when the IPC mapping is smaller than requested",
             "gshah-nv", 14.8,
             "On H20 with driver 570 the IPC registration of the 16 MB two-stage buffer silently maps fewer bytes; "
             "the two-stage kernel then wrote past the mapping and the worker died with SIGSEGV. The mapped size is "
             "now checked and the two-stage path is only used when it fits; otherwise NCCL.", fixes="#37458",
             test="#37507 on 8xH20; the repro from #37458 for 3 hours",
             result="No segfault; throughput within 1% of 0.16.0.", labels=("bug",), size=(58, 12, 3), react=8,
             talk=[
                 (18.3, "wang-lei-infra", "3 hours on 4 nodes, stable (details in #37458)."),
                 (20.2, "pkowalski", "LGTM. Cherry-pick for 0.17.2."),
             ]),
        issue(37519, "[RFC]: Let plugins register tool and reasoning parsers", "ggomez-dev", 15.1, rfc(
            "Model vendors ship parsers faster than we can review them.",
            "An entry point group `vllm.tool_parsers` / `vllm.reasoning_parsers` loaded at startup."),
              labels=("RFC",), talk=[(18.5, "shreya-ml", "The state machine refactor (#37459) makes this easy; "
                                                         "+1.")]),
        pull(37520, "[Doc] Nemotron-3-Super recipe", "nvidia-nemo-ab", 15.3,
             "Adds a deployment recipe for Nemotron-3-Super (FP8 on H100, NVFP4 on B200).",
             labels=("documentation",), merged=19.5, size=(90, 0, 2)),
        pull(37521, "[Core] Experimental priority preemption", "rohit-bh", 15.5, "Preempt low-priority requests.",
             closed=21.0, size=(210, 30, 3), talk=[
                 (20.7, "rohit-bh", "I'll rework this on top of the new scheduler interface, closing."),
             ]),
        pull(37523, "[Spec Decode][2/3] Move EAGLE and MTP onto the proposer interface", "fzhou-ml", 15.65,
             "Moves EAGLE and MTP onto the proposer interface from [1/3]; draft until [1/3] "
             "merges.", labels=("speculative-decoding",), draft=True, size=(520, 480, 9)),
        issue(37524, "[Feature]: Per-request speculative decoding on/off", "quant-trader-ml", 15.8,
              feature("Spec decode hurts our batch jobs but helps interactive ones on the same server."),
              labels=("feature request",)),
        pull(37525, "[Frontend] Anthropic API: stream tool_use input as `input_json_delta`", "ethan-c", 16.0,
             "Streams tool_use inputs as `input_json_delta` events, as the Anthropic SDK expects (the endpoint "
             "from #37201 sent the whole input at once).", labels=("frontend",), size=(110, 20, 3)),
        pull(37526, "[Misc] Rename KVCacheManager methods for clarity", "rzhang-infra", 16.2,
             "Renames KVCacheManager methods to say what they do (allocate_slots -> allocate_blocks, ...); rename "
             "only.",
             merged=21.5, size=(120, 120, 9)),
        pull(37527, "[Kernel] W8A8 INT8 GEMM for SM120", "fp4-forge", 16.5, "CUTLASS INT8 for consumer Blackwell.",
             size=(380, 20, 4)),
        issue(37528, "[Bug]: GPU memory not freed after Ctrl-C with DP=2: zombie EngineCore processes", "tom-b",
              16.7, bug("After stopping `vllm serve -dp 2` with Ctrl-C, one EngineCore process per rank stays and "
                        "keeps 70 GB on each GPU; the next start fails with CUDA out of memory until I kill them."),
              labels=("bug",), react=3, talk=[(19.9, "rzhang-infra", "The DP coordinator does not forward SIGINT to "
                                                                     "the engines; will fix.")]),
        pull(37529, "[Perf] Batch detokenization across requests in the output processor", "amir-h", 17.0,
             "One tokenizer call per step.", test="Llama-3.1-8B, 1xH100, 512 concurrent",
             result="API server CPU -18%; throughput +4%.", labels=("performance",), size=(160, 70, 3)),
        pull(37530, "[XPU][CI/Build] Build the vllm-xpu-kernels wheel in CI", "lzhang-xpu", 17.2,
             "Builds the vllm-xpu-kernels wheel in CI so XPU PRs are tested against the current kernels.",
             labels=("intel-gpu", "ci/build"), size=(60, 10, 3)),
        issue(37531, "[Usage]: What does `vllm:num_preemptions_total` going up mean?", "mlops-tom", 17.4,
              usage("It grows by ~100 a minute under load. Is that bad?"), labels=("usage",)),
        pull(37532, "[ROCm] Work around the AITER MLA freeze by capping the decode grid", "mkaur-amd", 17.7,
             "Temporary guard for #37478 until the AITER pin is bumped.", labels=("rocm",), size=(12, 2, 1), talk=[
                 (21.3, "yhuang-amd", "The AITER fix is tagged; better to bump the pin (#37222 rebase will do).")]),
        pull(37533, "[Doc] Typos in the spec decode page", "chloe-w", 17.9,
             "Fixes typos in the speculative decoding docs.", labels=("documentation",),
             merged=22.5, size=(3, 3, 1)),
        pull(37534, "[Bugfix] Whisper: honour the `language` field for transcriptions", "okonkwo-d", 18.1,
             "Language was auto-detected even when given.", size=(12, 4, 1)),
        issue(37535, "[Installation]: aarch64 (GB200) wheel for 0.17.1 pulls x86 torch", "kubeflow-jo", 18.4,
              installation("pip resolves torch for x86_64 on GB200.", command="pip install vllm==0.17.1"),
              labels=("installation",)),
        pull(37536, "Bump the minor-and-patch group across 1 directory with 4 updates", "dependabot[bot]", 18.6, "",
             body=bump("pytest-dev/pytest", "9.0.1", "9.0.2"), labels=("dependencies",)),
        pull(37537, "[Model] Add Phi-5-mini", "microsoft-phi-ly", 18.8,
             "Adds Phi-5-mini (3.8B, 128k context).", test="HF reference comparison", result="Match on 40 prompts.",
             labels=("new-model",), size=(260, 10, 4), talk=[
                 (21.6, "hyeonwoo-k", "It's architecturally Phi-4; can it be a config alias instead of a new "
                                      "class?")]),
        pull(37538, "[Bugfix] Fix scheduler for long prompts", "pham-quang", 19.1, "Change scheduler limit.",
             closed=19.4, size=(4, 4, 1), talk=[
                 (19.4, "pham-quang", "Wrong base branch, reopening as a new PR later."),
             ]),
        pull(37539, "[Refactor] SamplingMetadata: drop the V0-only fields", "chenyu-z", 19.3,
             "Drops the V0-only fields from SamplingMetadata; nothing reads them since the V0 engine was removed.",
             merged=23.2, size=(40, 210, 8)),
        issue(37540, "[Usage]: Will CUDA 12.8 users still get new models after v0.18?", "dong-xy", 19.5,
              usage("Following #37310: we are on driver 570."), labels=("usage",), closed=21.1, talk=[
                  (21.1, "sbhatt-vllm", "Releases keep cu129 wheels until v0.20 (see the RFC's update); closing "
                                        "in favour of that thread."),
              ]),
        pull(37541, "[Bugfix] Qwen3.5-Omni: fix audio feature length for clips under 1 s", "li-hao-qw", 19.65,
             "Short clips produced a zero-length feature.", labels=("qwen", "multi-modality"), size=(10, 2, 1)),
        pull(37542, "[V1] KV cache events: keep ordering across DP ranks", "lmcache-ops", 19.8,
             "Keeps KV cache events in order across DP ranks so external routers see consistent block state.",
             labels=("v1",), size=(40, 12, 2)),
        pull(37543, "[Test] Anthropic API: conformance tests against recorded SDK traffic", "ethan-c", 20.0,
             "Adds conformance tests for the Anthropic API that replay recorded SDK traffic; tests "
             "only.", merged=22.8, size=(300, 0, 4)),
        pull(37544, "[Quantization] Deprecate the GPTQ ExLlamaV2 kernel path", "mzheng-rh", 20.2,
             "GPTQ models use Marlin on every supported GPU; the ExLlamaV2 path warns and will be removed in "
             "v0.19.", labels=("quantization", "ready"), merged=23.5, size=(30, 5, 3)),
        issue(37545, "[Doc]: `vllm bench serve --help` lists removed arguments", "ks-cho", 20.5,
              doc_issue("--backend openai-chat is no longer accepted but still listed."), labels=("documentation",)),
        pull(37546, "[Perf] Triton moe_align_block_size for large expert counts", "amir-h", 20.7,
             "Rewrites moe_align_block_size in Triton for models with 256+ experts (-40% kernel time at "
             "E=256).", labels=("performance",), size=(150, 30, 2)),
        dep(37547, 20.9, "python-pillow/Pillow", "12.0.0", "12.1.0", path="/requirements", closed=21.0, talk=[
            (21.0, "dependabot[bot]", "Superseded by #37496."),
        ]),
        pull(37548, "[Chore] Release notes for v0.17.2 (draft)", "aurelien-m", 21.2,
             "Draft release notes for v0.17.2 (security fix, gpt-oss prefix caching fix, H20 all-reduce "
             "fix).", merged=21.8,
             size=(80, 0, 1)),
        issue(37549, "[Feature]: Sleep mode with TP > 1 for RLHF", "finetune-fan", 21.4,
              feature("`llm.sleep()` with TP=4 frees only rank 0's memory."), labels=("feature request",), react=6),
        pull(37550, "[CI] Pin the torch nightly used by the compile tests", "sbhatt-vllm", 21.6,
             "Pins the torch nightly used by the torch.compile tests; the latest nightly fails to import.",
             labels=("ci/build", "ready"), merged=22.2, size=(2, 2, 1)),
        pull(37551, "[Misc] Log which CUDA graph mode was picked and why", "patel-ankit", 21.9,
             "Logs at startup which CUDA graph mode was picked and why (one INFO line).",
             size=(20, 2, 1), closed=23.1, talk=[
                 (23.1, "patel-ankit", "Already logged at startup since #37441; closing.")]),
        pull(37552, "[Bugfix] Keep /v1/models order stable with several served names", "okonkwo-d", 22.1,
             "Sorts /v1/models so its order is stable when several served names are configured.", size=(6, 2, 1)),
        pull(37553, "[Spec Decode] n-gram proposer on the GPU", "nikolai-s", 22.3,
             "Moves n-gram matching to a CUDA kernel; +9% throughput for code-editing workloads.",
             labels=("speculative-decoding",), size=(420, 80, 5)),
        issue(37554, "[Usage]: Can Qwen3.5-122B-A10B use the full 262k context on 4xH200?", "yuto-s", 22.6,
              usage("What max_model_len fits with fp8 KV?"), labels=("usage",)),
        pull(37555, "Update from upstream", "daniyar-t", 22.8, "", body="", closed=23.0, size=(8200, 5100, 311),
             talk=[(23.0, "dvolkov", "Closing, unrelated fork sync.")]),
        pull(37556, "[Hardware][CPU] BF16 AVX-512 attention for the CPU backend", "akumar-intel", 23.0,
             "Adds a BF16 AVX-512 attention kernel for the CPU backend (x86 with AVX512_BF16).",
             labels=("cpu",), size=(310, 40, 4)),
        pull(37557, "[Bugfix] GLM-5 tool parser: handle nested JSON arguments in streaming", "zai-lwen", 23.3,
             "Nested objects were cut at the first closing brace.", labels=("tool-calling",), size=(40, 10, 2)),
        pull(37558, "[CI/Build] TPU: run the v6e tests on every PR touching vllm/v1/attention", "jwong-tpu", 23.5,
             "Runs the TPU v6e tests on every PR that touches "
             "vllm/v1/attention.", labels=("tpu", "ci/build"), size=(10, 2, 1)),
        pull(37559, "[Doc] XPU installation with the vllm-xpu-kernels wheel", "lzhang-xpu", 23.7,
             "Documents installing the XPU build with the vllm-xpu-kernels wheel on Arc Pro and Data Center GPU Max.",
             labels=("documentation", "intel-gpu"), size=(60, 20, 1)),
        issue(37560, "[Bug]: `model_name` label missing on `vllm:e2e_request_latency_seconds`", "kubeflow-jo", 23.9,
              bug("The histogram has no model_name label since 0.17."), labels=("bug",)),
    ]
    return HandDay("real-f-2026-03-19", datetime(2026, 3, 19, 3, 5, tzinfo=UTC), REAL_PEOPLE, items,
                   note="spec decode and accuracy: DeepSeek-V3.2 MTP, a segfault on H20, the Anthropic API lands, a "
                        "wheel-policy RFC")


# --- Day G: five strong merges before the v0.21 branch cut, a default that splits reviewers, new regressions --------

_STALE_G: tuple[tuple[int, str, str, str, float], ...] = (
    (34522, "[Bug]: `--enable-prompt-embeds` with LoRA raises AttributeError", "dr-ramos", "bug", -2300),
    (34610, "[Feature]: Return token ids in the Responses API", "agent-builder-99", "feature request", -2280),
    (34731, "[Usage]: Serving a merged LoRA checkpoint in GGUF", "rtx-hobbyist", "usage", -2250),
    (34877, "[Installation]: Building with ccache on macOS for the CPU backend", "tom-b", "installation", -2200),
    (34990, "[Bug]: `vllm bench latency` prints p99 as p90", "ks-cho", "bug", -2150),
)


def _day_g() -> HandDay:
    v = "0.20.1"
    kw = {"torch": "2.11.0+cu130", "cuda": "13.0", "transformers": "5.6.0", "triton": "3.6.0"}
    b200 = gpu_env("NVIDIA B200", 8, v, **kw)
    h200 = gpu_env("NVIDIA H200", 8, v, **kw)
    h100x2 = gpu_env("NVIDIA H100 80GB HBM3", 2, v, **kw)
    gh200 = gpu_env("NVIDIA GH200 480GB", 1, v, **kw)
    l40s = gpu_env("NVIDIA L40S", 2, v, **kw)
    mi355 = rocm_env("AMD Instinct MI355X", 1, f"{v}+rocm712", torch="2.11.0+rocm7.1", transformers="5.6.0")
    items = [
        *stale_issues(_STALE_G, notice=22.9, close=22.9),
        pull(35930, "[Misc] Add a `--dry-run` flag to vllm serve", "felipe-r", -1700, "Validate the config and exit.",
             size=(80, 5, 3), closed=22.9, talk=[(-350, "github-actions[bot]", STALE_PR),
                                                 (22.9, "github-actions[bot]", CLOSED_STALE_PR)]),
        # --- earlier items that move today ---
        issue(41470, "[Release]: v0.21.0 release tracker", "aurelien-m", -120,
              "Branch cut planned for May 7 (Thursday). Blockers and cherry-pick requests here.\n\n"
              "- [ ] #41650 DeepSeek-V4-Flash long-context crash\n- [ ] #41580 FP8 KV cache default on Blackwell "
              "(decision needed)\n- [x] #41440 FlashInfer 0.7.2", labels=("release",), react=12, talk=[
                  (-60, "zhou-yuqi", "Please include the DeepEP bump for H20."),
                  (-20, "aurelien-m", "Done."),
                  (2.2, "cloud-ml-ana", "Is #41512 (Realtime API) going into 0.21?"),
                  (3.0, "aurelien-m", "If it merges before the cut, yes."),
                  (10.2, "li-hao-qw", "Requesting a blocker slot for the Qwen3.6 repetition bug (#41701); fix in "
                                      "#41741."),
                  (11.0, "aurelien-m", "Added as a blocker."),
                  (19.9, "vkrish-amd", "MI355X gpt-oss gibberish (#41720) is fixed by #41737, please include."),
                  (22.6, "aurelien-m", "Branch cut moved to Friday morning PT to take #41741, #41737 and #41580."),
              ]),
        pull(41512, "[Frontend] Realtime API: `/v1/realtime` over WebSocket for speech models", "hliu-vllm", -60,
             "Adds an OpenAI-compatible Realtime endpoint: a WebSocket session streaming audio in "
             "(`input_audio_buffer.append`) and text/transcripts out, with server-side VAD turn detection. Works "
             "with Voxtral, Qwen3-Omni and Whisper-style ASR models; text-to-speech output is out of scope.",
             test="tests/entrypoints/realtime (new, 37 tests); the OpenAI Realtime client examples against "
                  "Voxtral-Mini-3B and Qwen3-Omni-30B-A3B",
             result="All pass; first partial transcript after 180 ms on 1xH100.",
             labels=("frontend", "ready"), merged=15.5, size=(2610, 90, 26), react=33, talk=[
                 (-40, "noor-ali", "WebSocket handling is new to the server; please make sure a dead client "
                                   "frees the engine request."),
                 (-38, "hliu-vllm", "Disconnects abort the request; tested with 500 abrupt disconnects."),
                 (4.0, "mistral-pb", "Tested with Voxtral-Small: works, latency good."),
                 (15.1, "noor-ali", "Approved."),
             ]),
        pull(41540, "[Spec Decode][Perf] Overlap drafting with the target forward under async scheduling",
             "fzhou-ml", -50,
             "With async scheduling the drafter waited for the target model's sampled tokens before proposing. "
             "The draft for step t+1 now starts from the speculative tokens of step t while the target verifies, "
             "and is discarded on rejection. EAGLE-3, MTP and draft models.",
             test="Llama-3.3-70B + EAGLE-3 on 4xH100, Qwen3.6-27B + MTP on 1xH100, vllm bench serve, "
                  "concurrency 1/8/32",
             result="Llama-3.3-70B EAGLE-3: 1.35x at concurrency 8, 1.22x at 32; Qwen3.6-27B MTP: 1.28x at 8. "
                    "Outputs identical (greedy).",
             labels=("speculative-decoding", "performance", "ready"), merged=6.5, size=(740, 210, 11), react=22,
             talk=[
                 (-30, "chenyu-z", "The discard path needs a test with 100% rejection."),
                 (-28, "fzhou-ml", "Added."),
                 (6.1, "chenyu-z", "LGTM."),
             ]),
        pull(41580, "[Core] Default to FP8 KV cache on Blackwell when the checkpoint ships KV scales", "pkowalski",
             -30,
             "On B200/GB200 (and B300), `--kv-cache-dtype auto` now means FP8 when the checkpoint provides "
             "calibrated KV scales (ModelOpt and llm-compressor checkpoints do; DeepSeek-V4-Flash, Qwen3.6 FP8, "
             "gpt-oss). Without scales nothing changes. `--kv-cache-dtype bfloat16` opts out. Doubles the KV "
             "capacity on those models.",
             test="GSM8K, MMLU-Pro, RULER 64k for 6 checkpoints with and without the change",
             result="Accuracy within noise (largest delta -0.4 pt, RULER 64k Qwen3.6-27B-FP8); max concurrency at "
                    "128k context 2.0x; throughput +18-34% on KV-bound workloads.",
             labels=("ready",), merged=22.4, size=(120, 30, 6), react=17, talk=[
                 (-20, "hyeonwoo-k", "Changing numerics by default is a big step; the RULER delta concerns me for "
                                     "long-context users."),
                 (-18, "pkowalski", "It's -0.4 pt at 64k, within run-to-run noise (±0.6)."),
                 (0.8, "li-hao-qw", "For Qwen3.6 the published KV scales were calibrated on short data; I'd want "
                                    "a 128k eval before this is default for it.", 5),
                 (2.7, "cloud-ml-ana", "As a user: we'd flip this on anyway, the capacity gain is huge. Default on "
                                       "is fine if the startup log says so loudly."),
                 (4.1, "bshah-rh", "Downstream we pin dtype explicitly, so no objection, but please put it in the "
                                   "breaking-changes section: people compare outputs across versions."),
                 (6.3, "pkowalski", "128k RULER for Qwen3.6-27B-FP8: 0.871 (bf16) vs 0.866 (fp8)."),
                 (7.0, "li-hao-qw", "OK, that's acceptable."),
                 (9.8, "hyeonwoo-k", "I'd still prefer an allowlist of checkpoints rather than 'any checkpoint "
                                     "with scales'. Unknown third-party quantisations may have bad scales.", 4),
                 (12.5, "rkessler", "Compromise: default on for checkpoints whose quantization config names a "
                                    "known producer (ModelOpt, llm-compressor, the model vendor); WARN and stay "
                                    "bf16 otherwise.", 9),
                 (14.9, "pkowalski", "Implemented as suggested; startup prints the KV dtype and why."),
                 (18.2, "hyeonwoo-k", "Thanks, approving."),
                 (22.0, "aurelien-m", "Merging for the 0.21 cut; release notes updated."),
             ]),
        pull(41601, "[Model] Add MiniMax-M3 (lightning attention + MoE)", "minimax-yq", -28,
             "Day-0 support for MiniMax-M3 (456B total, 46B active): hybrid lightning (linear) attention and "
             "softmax attention layers, 256 experts, 1M context. Adds its tool-call parser (`minimax_m3`) and "
             "reasoning parser.",
             test="lm_eval gsm8k, mmlu_pro, RULER 128k; TP8 on 8xH200 and TP4 on 4xB200",
             result="GSM8K 0.958 (reference 0.960), RULER 128k 0.90.", labels=("new-model", "ready"),
             merged=11.0, size=(1720, 44, 16), react=38, talk=[
                 (-20, "hyeonwoo-k", "The linear attention state goes through the hybrid KV cache manager, good."),
                 (10.7, "hyeonwoo-k", "LGTM, merging."),
                 (13.1, "cloud-ml-ana", "Runs on our 8xH200 with the nightly wheel, thanks for day-0 support!"),
             ]),
        issue(41633, "[Bug]: DeepSeek-V4-Flash dies with `CUDA error: an illegal memory access` beyond 128k context "
                     "on 8xB200", "ops-jmiller", -30, bug(
                  "Requests under 128k work; the first request over ~131k tokens kills the engine.", env=b200,
                  log="torch.AcceleratorError: CUDA error: an illegal memory access was encountered"),
              labels=("bug", "deepseek"), closed=10.0, react=13, talk=[
                  (-25, "zhou-yuqi", "Same on 8xH200, exactly at 131072."),
                  (-12, "gshah-nv", "The compressed-KV indexer uses int32 offsets that overflow at 2^17 compressed "
                                    "positions. Fix in #41650."),
                  (1.4, "fang-zh", "+1, waiting for the fix for our long-document pipeline."),
                  (10.0, "ops-jmiller", "Works on main with 400k context now. Thanks!"),
              ]),
        pull(41650, "[Bugfix] DeepSeek-V4-Flash: fix illegal memory access in the sparse indexer beyond 128k tokens",
             "gshah-nv", -18,
             "The indexer's compressed-position offsets were int32 and overflowed past 131,072 tokens, so any "
             "request over 128k crashed the engine with an illegal memory access. Offsets are int64 now; a kernel "
             "test covers 1M positions.", fixes="#41633",
             test="The repro from #41633 at 200k/500k/1M context on 8xB200 and 8xH200; RULER 256k",
             result="No crash; RULER 256k 0.84.", labels=("bug", "deepseek", "ready"), merged=9.6,
             size=(48, 16, 3), react=11, talk=[(9.3, "pkowalski", "LGTM.")]),
        pull(41590, "[Refactor] Modular fused MoE: move the DeepEP and PPLX prepare/finalize [4/N]", "dz-deepep", -26,
             "Moves the DeepEP and PPLX prepare/finalize steps into the modular fused MoE layer; no functional "
             "change.", labels=("ready",), merged=3.0, size=(1210, 1180, 18)),
        pull(41672, "[CI] Move the distributed tests to the 4xH100 pool", "sbhatt-vllm", -5,
             "Moves the distributed tests to the 4xH100 runner pool, which has a shorter queue.",
             labels=("ci/build", "ready"), merged=1.0, size=(12, 12, 1)),
        pull(41681, "[Doc] MiniMax-M3 recipe", "minimax-yq", -3,
             "Adds a deployment recipe for MiniMax-M3 (TP8 on H200, TP4 on B200, 1M context "
             "settings).", labels=("documentation",), merged=12.0,
             size=(80, 0, 2)),
        pull(41690, "[Bugfix] Fix `echo=True` with prompt embeddings", "iglesias-j", -2,
             "`echo=True` with prompt embeddings raised an IndexError; echo now returns the prompt text.",
             labels=("ready",), merged=4.0, size=(16, 4, 1)),
        pull(41420, "[KV Connector] NIXL: support heterogeneous block sizes", "kvcache-lab", -90,
             "Prefill and decode with different block sizes.", labels=("kv-connector", "needs-rebase"),
             size=(520, 80, 7), talk=[(3.8, "mergify[bot]", REBASE.format(author="kvcache-lab"))]),
        issue(41300, "[Bug]: Gemma 4 31B gives different answers with the same seed across restarts", "claire-d",
              -200, bug("With seed=42 and temperature 0.7 the answers differ between restarts."),
              labels=("bug",), talk=[
                  (-180, "bwtran", "Batch-invariance is not guaranteed; use --enable-batch-invariant if you need "
                                   "it."),
                  (5.5, "claire-d", "With batch invariance on it's reproducible, thanks. Maybe document it?"),
              ]),
        issue(41655, "[Usage]: How to enable the Realtime API once it lands?", "cloud-ml-ana", -14,
              usage("Is there a flag?"), labels=("usage",), closed=16.0, talk=[
                  (16.0, "hliu-vllm", "Merged in #41512: it's on for speech models, no flag; docs in #41716."),
              ]),
        pull(41610, "[Bugfix] Cap DeepSeek-V4-Flash max_model_len at 131072", "runze-w", -20,
             "Workaround for #41633: caps DeepSeek-V4-Flash's max_model_len at 131072 until the indexer is "
             "fixed.", closed=9.7, size=(6, 1, 1), talk=[
                 (9.7, "gshah-nv", "#41650 fixes the overflow; closing."),
             ]),
        pull(40800, "[Core] Experimental request migration between DP ranks", "nikolai-s", -400,
             "Prototype of migrating running requests between DP ranks to balance "
             "load.", size=(900, 100, 9), closed=7.0, talk=[
                 (-380, "chenyu-z", "Interesting; needs an RFC first."),
                 (7.0, "nikolai-s", "Superseded by the DP load-balancer design; closing."),
             ]),
        # --- opened in the window ---
        pull(41700, "[CI] Nightly DeepSeek-V4-Flash long-context job on B200", "rzhang-infra", 0.2,
             "Adds a nightly RULER 256k job for DeepSeek-V4-Flash on "
             "B200.", labels=("ci/build", "ready"), merged=5.0, size=(50, 0, 2)),
        issue(41701, "[Bug]: Qwen3.6-35B-A3B repeats the same line forever after ~30k tokens", "haoran-z", 0.4, bug(
            "Long agentic sessions with Qwen3.6-35B-A3B on 2xH100 (TP=2): once the conversation passes ~30k tokens "
            "the model starts repeating one line (e.g. `Let me check the file again.`) until max_tokens. Shorter "
            "conversations are fine. Happens on 0.20.0 and 0.20.1; 0.19.1 with the same client and prompts does "
            "not do it. Sampling: temperature 0.6, top_p 0.95, presence_penalty 1.0.", env=h100x2,
            repro="vllm serve Qwen/Qwen3.6-35B-A3B -tp 2 --max-model-len 131072 --enable-prefix-caching",
            log="Let me check the file again.\nLet me check the file again.\nLet me check the file again.\n..."),
              labels=("bug", "qwen"), react=19, talk=[
                  (1.6, "junhao-l", "Same with Qwen3.6-27B on 1xH200 in Claude-Code-style sessions."),
                  (2.3, "dev-amelia", "+1, Qwen3.6-35B-A3B with opencode, after roughly 40k tokens."),
                  (3.5, "li-hao-qw", "Thanks all. Does --no-enable-prefix-caching change anything?"),
                  (4.4, "haoran-z", "Yes! Without prefix caching it doesn't happen (3 long sessions)."),
                  (5.3, "hyeonwoo-k", "Hybrid model + prefix cache hit past 32k: the GDN state snapshot for blocks "
                                      "beyond the first 2048 blocks is taken one block late since the hybrid "
                                      "allocator change in 0.20 (#39877)."),
                  (6.2, "sglang-migrant", "Is Qwen3.5 affected too? We run 3.5 in production on 0.20.1."),
                  (6.9, "hyeonwoo-k", "Any hybrid (GDN/Mamba) model with prefix caching and long contexts, yes."),
                  (9.1, "li-hao-qw", "Fix in #41741."),
                  (13.7, "haoran-z", "Tested #41741: 5 sessions up to 90k tokens, no repetition."),
                  (16.4, "yusuf-o", "Will there be a 0.20.2 with this? Or only 0.21?"),
                  (17.0, "aurelien-m", "0.21 (branch cut tomorrow) and a 0.20.2 patch release."),
              ]),
        pull(41702, "[Bugfix] DeepSeek-V4-Flash tool parser: handle an empty `arguments` object", "runze-w", 0.6,
             "`{}` arguments were emitted as `null`.", labels=("tool-calling", "ready"), merged=8.0,
             size=(12, 3, 1)),
        pull(41703, "[Misc] Remove the legacy `LoRARequest.lora_local_path` field", "dvolkov", 0.9,
             "Deprecated since v0.10 (`lora_path`). Removed.", labels=("ready",), merged=9.0, size=(4, 60, 6)),
        issue(41704, "[Usage]: Can DeepSeek-V4-Flash run on 4xH200?", "llm-platform-kr", 1.1,
              usage("FP8 weights are ~280 GB; what max_model_len fits with TP=4?"), labels=("usage",), closed=3.0,
              talk=[(2.6, "bwtran", "Yes, ~128k with FP8 KV; see the recipe."),
                    (3.0, "llm-platform-kr", "Thanks.")]),
        pull(41705, "[Doc] Fix the DeepSeek-V4-Flash recipe's TP flag", "sven-lind", 1.3,
             "Fixes the DeepSeek-V4-Flash recipe: `-tp8` does not parse, it is `-tp 8`.",
             labels=("documentation",), merged=4.5, size=(1, 1, 1)),
        pull(41706, "[Misc] Fix the registry entry for Granite-4.1 MoE", "ibm-granite-tk", 1.45,
             "Fixes the registry entry for Granite-4.1 MoE, which pointed to the wrong class name.",
             merged=6.0, size=(1, 1, 1)),
        pull(41707, "[Refactor] Modular fused MoE: move the CUTLASS and FlashInfer experts [5/N]", "dz-deepep", 1.6,
             "Moves the CUTLASS and FlashInfer expert implementations into the modular fused MoE layer; no functional "
             "change.", labels=("ready",), merged=19.0, size=(1430, 1390, 21)),
        issue(41708, "[Feature]: Gemma 4 audio input", "nadia-a", 1.8,
              feature("Gemma 4 E4B accepts audio, vLLM only wires text and images."),
              labels=("feature request",), react=27, talk=[
                  (2.4, "stefan-k", "+1"),
                  (3.1, "hiro-t", "+1"),
                  (4.9, "kim-sj", "+1 would be great"),
                  (7.7, "tuan-v", "+1"),
                  (11.4, "nadia-a", "Any ETA?"),
                  (12.0, "omar-k", "+1"),
              ]),
        pull(41709, "[ROCm] Fuse all-reduce + RMSNorm with AITER on MI355X, on by default", "yhuang-amd", 2.0,
             "Uses AITER's fused all-reduce+RMSNorm for TP on gfx950.",
             test="Llama-3.3-70B FP8 TP8 on 8x MI355X, vllm bench serve", result="Throughput +9%, TPOT -8%.",
             labels=("rocm", "ready"), merged=17.5, size=(260, 40, 5), react=6, talk=[
                 (12.0, "dsouza-r", "LGTM; please keep the env var to turn it off.")]),
        dep(41710, 2.3, "actions/cache", "4", "5", labels=("dependencies", "github_actions"), merged=7.0),
        issue(41711, "[Bug]: Startup hangs forever at 'Capturing CUDA graphs' with EP=16 across two nodes",
              "wu-shaoqi", 2.5, bug(
                  "2 nodes x 8xH200, DeepSeek-V4-Flash, `-dp 16 --enable-expert-parallel --all2all-backend "
                  "deepep_high_throughput`. Weights load, then CUDA graph capture stops at 0% on all ranks and "
                  "never proceeds (waited 1 h). With DeepEP low-latency it starts. 0.19.1 started fine with the "
                  "same flags.", env=h200,
                  repro="vllm serve deepseek-ai/DeepSeek-V4-Flash -dp 16 --data-parallel-size-local 8 "
                        "--enable-expert-parallel --all2all-backend deepep_high_throughput",
                  log="(EngineCore_DP9 pid=3311) Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):   0%|    "
                      "| 0/67 [00:00<?, ?it/s]\n(EngineCore_DP0 pid=2881) INFO [shm_broadcast.py:466] No available "
                      "shared memory broadcast block found in 60 seconds."),
              labels=("bug",), react=7, talk=[
                  (4.0, "dz-deepep", "High-throughput mode shouldn't be captured at all; 0.20 started capturing "
                                     "the dispatch for decode-only batches. Checking."),
                  (7.2, "zhou-yuqi", "Same on 16xH20."),
                  (16.1, "dz-deepep", "Fix in #41773."),
              ]),
        pull(41712, "[Kernel] Bump DeepGEMM to the May release (SM100 FP8 MoE grouped GEMM)", "gshah-nv", 2.7,
             "Picks up faster grouped GEMM on Blackwell.", test="DeepSeek-V4-Flash 8xB200",
             result="+6% throughput.", labels=("ready",), merged=14.0, size=(8, 8, 3)),
        pull(41713, "[Misc] typo", "rohit-bh", 2.9,
             "Fix a typo.", closed=3.4, size=(1, 1, 1),
             talk=[(3.4, "jiayi-xu", "Thanks, fixed in #41705 already.")]),
        issue(41714, "[Installation]: 0.20.1 wheel requires driver 580; our cluster has 575", "edu-cluster-admin", 3.2,
              installation("Import fails with `CUDA driver version is insufficient`.", command="pip install vllm"),
              labels=("installation",), closed=4.8, talk=[
                  (4.1, "sbhatt-vllm", "Use the cu129 wheel from our index (releases keep it until v0.20); "
                                       "v0.21 is cu130 only."),
                  (4.8, "edu-cluster-admin", "cu129 wheel works."),
              ]),
        pull(41715, "[Hardware][Intel GPU] Gemma 4 on XPU", "lzhang-xpu", 3.4, "Sliding-window attention on XPU.",
             labels=("intel-gpu",), size=(180, 20, 4)),
        pull(41716, "[Doc] Realtime API: sessions, VAD options and client examples", "hliu-vllm", 3.6,
             "Documents the Realtime API from #41512: sessions, VAD options and client "
             "examples.", labels=("documentation", "frontend"), merged=18.0, size=(210, 0, 4)),
        issue(41717, "[Doc]: Speculative decoding page uses `--speculative_config` with an underscore",
              "ella-ng", 3.8, doc_issue("The CLI flag is `--speculative-config`."), labels=("documentation",)),
        pull(41718, "[Spec Decode] Overlapped drafting: support the n-gram proposer", "nikolai-s", 4.1,
             "The overlapped drafting from #41540 now also works with the n-gram proposer.",
             labels=("speculative-decoding",), size=(90, 20, 3)),
        pull(41719, "[Test] Realtime API: disconnect and VAD edge cases", "hliu-vllm", 4.3,
             "Adds tests for abrupt disconnects and VAD edge cases of the Realtime API; tests only.",
             merged=20.5, size=(160, 0, 2)),
        issue(41720, "[Bug]: gpt-oss-20b on MI355X answers in gibberish since 0.20.1", "vivek-n", 4.5, bug(
            "1x MI355X, rocm/vllm 0.20.1 image. gpt-oss-20b (MXFP4) replies with random tokens from the first "
            "word. 0.20.0 was fine on the same machine. gpt-oss-120b on 8 GPUs has the same problem.", env=mi355,
            repro="vllm serve openai/gpt-oss-20b",
            log="assistant: ĠĠ commented quietly Ferguson }} 卡 ... \u200b\u200b lamps"),
              labels=("bug", "rocm", "gpt-oss"), react=6, talk=[
                  (5.6, "sjoshi-amd", "Thanks. 0.20.1 switched MXFP4 MoE to the native AITER kernel (#40311); "
                                      "VLLM_ROCM_USE_AITER_MOE=0 should give correct output meanwhile."),
                  (6.4, "vivek-n", "Confirmed, correct output with that."),
                  (8.1, "sjoshi-amd", "The swizzled scale layout is wrong for the 20b's hidden size (2880). Fix in "
                                      "#41737."),
              ]),
        pull(41721, "[CI] Fix the cache key of the CI wheel build", "sbhatt-vllm", 4.65,
             "Fixes the cache key of the CI wheel build, which missed on every run.",
             labels=("ci/build", "ready"), merged=6.2, size=(2, 2, 1)),
        pull(41722, "[Bugfix] Qwen3.6: disable prefix caching beyond 32k tokens", "sglang-migrant", 4.8,
             "Workaround for #41701: disables prefix caching for Qwen3.6 beyond 32k "
             "tokens.", closed=9.4, size=(12, 1, 1), talk=[
                 (9.4, "li-hao-qw", "#41741 fixes the snapshot offset; closing this one, thanks."),
             ]),
        pull(41723, "[Misc] Quieter startup logs for multi-node runs", "patel-ankit", 5.0,
             "Only rank 0 logs the startup messages in multi-node runs.",
             merged=13.0, size=(40, 30, 4)),
        pull(41724, "Update README.md", "joao-p", 5.2, "", body="", closed=5.3, size=(1, 0, 1),
             talk=[(5.3, "pkowalski", "Closing: no description, unrelated change.")]),
        issue(41725, "[Usage]: `jinja2.exceptions.TemplateError: Conversation roles must alternate` with Gemma 4",
              "arjun-m", 5.5, usage("Sending two user messages in a row fails. How do I fix it?"),
              labels=("usage",), closed=7.5, talk=[
                  (7.0, "bwtran", "Gemma's template requires alternating roles; merge consecutive user messages."),
                  (7.5, "arjun-m", "Thanks."),
              ]),
        pull(41726, "[Bugfix] Gemma 4: apply the sliding window to the shared-KV layers", "google-gemma-rs", 5.7,
             "Shared-KV layers ignored the window; quality dropped past 32k.", labels=("ready",), merged=16.0,
             size=(30, 8, 2)),
        pull(41727, "[CI] Skip the Qwen3.6 MTP test on L4 (OOM)", "sbhatt-vllm", 5.9,
             "Skips the Qwen3.6 MTP test on L4, where it runs out of memory.",
             labels=("ci/build", "ready"), merged=6.8, size=(2, 0, 1)),
        issue(41728, "[Bug]: vLLM 0.20.1 segfaults at startup on GH200", "kubeflow-jo", 6.2, bug(
            "The aarch64 wheel of 0.20.1 crashes while importing the CUDA extensions on GH200; 0.20.0 works.",
            env=gh200, repro="vllm serve Qwen/Qwen3.6-27B",
            log="Fatal Python error: Segmentation fault\n\nCurrent thread 0x0000ffff8a3e7020 (most recent call first):"
                "\n  File \"<frozen importlib._bootstrap>\", line 241 in _call_with_frames_removed\n  File "
                "\".../vllm/_custom_ops.py\", line 14 in <module>"),
              labels=("bug",), react=5, talk=[
                  (7.8, "sbhatt-vllm", "The aarch64 wheel was built against a newer glibc ABI flag; rebuilding."),
                  (9.0, "omar-k", "Same on GB200."),
                  (10.9, "sbhatt-vllm", "#41750 fixes the build; a 0.20.1.post1 aarch64 wheel will follow."),
              ]),
        pull(41729, "[Hardware][TPU] Gemma 4 on TPU v6e and v7", "tpu-mhall", 6.4, "Gemma 4 via the JAX backend.",
             labels=("tpu",), size=(420, 30, 5), talk=[(13.0, "jwong-tpu", "Please add v7 to the CI matrix.")]),
        pull(41730, "[Misc] Fix typos in the scheduler", "minh-t", 6.6,
             "Fixes typos in comments of the scheduler.", merged=10.0, size=(3, 3, 1)),
        pull(41731, "[Quantization] NVFP4 KV cache (experimental) on Blackwell", "fp4-forge", 6.9,
             "4-bit KV cache with per-block scales.", labels=("quantization",), size=(980, 60, 12), talk=[
                 (15.3, "pkowalski", "Let's land the FP8 default first, then discuss this.")]),
        issue(41732, "[Performance]: DeepSeek-V4-Flash 15% slower on H200 with 0.20.1 than 0.20.0", "sun-hao-ml", 7.1,
              performance("Output throughput at concurrency 64: 7,410 tok/s (0.20.0) vs 6,300 tok/s (0.20.1).",
                          env=h200), labels=("performance",), talk=[
                  (14.5, "gshah-nv", "0.20.1 picks DeepGEMM's new MoE path on Hopper where it is slower; #41712 "
                                     "should restore it.")]),
        pull(41734, "[Bugfix] Realtime API: free the request on session.close", "ethan-c", 7.3,
             "Frees the engine request when a Realtime session is closed explicitly (it leaked until "
             "disconnect).", closed=17.2, size=(8, 2, 1), talk=[
                 (17.2, "hliu-vllm", "Covered in #41512's final version; closing.")]),
        pull(41735, "[Refactor] Scheduler interface: pluggable policies [2/N]", "rzhang-infra", 7.6,
             "Moves FCFS and priority into policy classes.", labels=("v1",), size=(820, 640, 9), talk=[
                 (18.8, "chenyu-z", "Reviewing.")]),
        issue(41736, "[Bug]: Deprecation warning for `--max-num-seqs` although the flag is not deprecated", "tom-b",
              7.8, bug("Every start prints `DeprecationWarning: max_num_seqs will be renamed to "
                       "max_num_running_reqs`, but the release notes say nothing about it and the new name is not "
                       "accepted."), labels=("bug",)),
        pull(41737, "[ROCm][Bugfix] Fix gibberish from gpt-oss MXFP4 MoE with AITER on MI355X", "sjoshi-amd", 8.0,
             "The native AITER MXFP4 MoE path (#40311) swizzled the block scales assuming a hidden size that is a "
             "multiple of 256; gpt-oss (2880) got misaligned scales and produced gibberish on MI355X.",
             fixes="#41720", test="gpt-oss-20b and -120b on MI355X, GPQA and GSM8K",
             result="gpt-oss-120b GSM8K 0.02 -> 0.91 (0.20.0: 0.91).", labels=("rocm", "gpt-oss", "ready"),
             merged=19.6, size=(70, 22, 3), react=5, talk=[
                 (12.4, "vivek-n", "Confirmed on 1x MI355X."),
                 (19.2, "rvoss-amd", "LGTM."),
             ]),
        pull(41738, "[Chore] CODEOWNERS for the Realtime and Anthropic entrypoints", "aurelien-m", 8.3,
             "Adds owners for the Realtime and Anthropic entrypoints to CODEOWNERS.",
             merged=8.5, size=(4, 0, 1)),
        pull(41739, "[Model] Add Granite-5 (dense and MoE)", "ibm-granite-tk", 8.5,
             "Adds Granite-5-8B and Granite-5-30B-A3B.", test="HF reference comparison",
             result="Match on 40 prompts.", labels=("new-model",), size=(540, 20, 6), talk=[
                 (14.8, "hyeonwoo-k", "Looks close to Granite-4.1 MoE; can it subclass it?"),
                 (16.5, "ibm-granite-tk", "Reworked as a subclass.")]),
        issue(41740, "[Bug]: Qwen3.6-27B loops on the same sentence in long chats", "chen-wei-88", 8.7,
              bug("After 30k+ tokens the model loops."), labels=("bug",), closed=9.3, reason="duplicate",
              talk=[(9.3, "li-hao-qw", "Duplicate of #41701.")]),
        pull(41741, "[Bugfix] Hybrid models: take the SSM state snapshot on the right block past 2048 blocks",
             "li-hao-qw", 9.0,
             "Since the hybrid allocator change (#39877) the GDN/Mamba state snapshot for prefix caching was taken "
             "one block late once a sequence passed 2048 blocks (~32k tokens). A cache hit then restored a state "
             "that did not match the cached tokens: Qwen3.5/3.6 and other hybrid models repeated themselves in "
             "long conversations.", fixes="#41701",
             test="Long multi-turn sessions up to 120k with prefix cache hits; new allocator test at 4096 blocks",
             result="No repetition; outputs identical with and without prefix caching (greedy).",
             labels=("bug", "qwen"), size=(36, 14, 2), react=12, talk=[
                 (13.8, "haoran-z", "Tested, fixed (see #41701)."),
                 (18.4, "hyeonwoo-k", "LGTM; waiting for the hybrid CI job."),
             ]),
        dep(41742, 9.2, "huggingface/transformers", "5.6.0", "5.7.0", path="/requirements"),
        issue(41743, "[Feature]: KV cache offloading to local NVMe", "ai-infra-mx", 9.4,
              feature("CPU offloading helps but our hosts have 8 TB of NVMe."), labels=("feature request",),
              talk=[(9.8, "lmcache-ops", "Series starting in #41745.")]),
        pull(41744, "[Bugfix] Transcriptions: accept `audio/webm` uploads", "okonkwo-d", 9.55,
             "Accepts `audio/webm` uploads for /v1/audio/transcriptions (browsers record webm).",
             size=(4, 1, 1)),
        pull(41745, "[KV Offload][1/2] NVMe tier for the KV offloading connector", "lmcache-ops", 9.7,
             "Adds an NVMe tier below CPU memory.", labels=("kv-connector",), size=(1100, 40, 11)),
        pull(41746, "[CI] Shard the spec decode tests", "sbhatt-vllm", 9.9,
             "Splits the speculative decoding tests into three CI shards.",
             labels=("ci/build", "ready"), merged=11.5, size=(30, 10, 1)),
        issue(41747, "[Bug]: Structured output returns invalid JSON under load with spec decode + async scheduling",
              "fintech-llm-ops", 10.1, bug(
                  "Llama-3.3-70B with EAGLE-3 and `response_format: json_schema`. At concurrency >= 32, about 2% of "
                  "responses are not valid JSON (a missing comma or an extra token after a closing brace). Without "
                  "speculative decoding, or at low concurrency, every response validates. 0.20.1.",
                  env=gpu_env("NVIDIA H100 80GB HBM3", 4, v, **kw),
                  log="json.decoder.JSONDecodeError: Expecting ',' delimiter: line 1 column 211 (char 210)"),
              labels=("bug", "structured-output"), react=5, talk=[
                  (12.05, "shreya-ml", "The grammar bitmask isn't advanced over accepted draft tokens when the "
                                      "overlapped drafting (#41540) discards a draft. Fix in #41755."),
                  (12.5, "fintech-llm-ops", "Note we saw it on 0.20.1, before #41540. So maybe two bugs?"),
                  (13.0, "shreya-ml", "Right, on 0.20.1 it's the same root cause through a different path; "
                                      "#41755 covers both."),
              ]),
        pull(41748, "[Misc] Type hints for vllm/v1/core/kv_cache_utils.py", "ruslan-b", 10.4,
             "Adds type hints to vllm/v1/core/kv_cache_utils.py; no behaviour change.",
             size=(90, 70, 1)),
        pull(41749, "[Core] Chunked prefill for encoder-decoder models", "daniyar-t", 10.6,
             "WIP: chunked prefill for encoder-decoder models.", closed=10.9,
             size=(30, 2, 1), talk=[(10.9, "daniyar-t", "Opened on the wrong branch, sorry.")]),
        pull(41750, "[CI/Build] Fix the aarch64 wheel build (segfault at import on GH200)", "sbhatt-vllm", 10.8,
             "Builds the aarch64 wheel in the manylinux_2_28 image again.", fixes="#41728",
             labels=("ci/build", "ready"), merged=14.5, size=(14, 6, 2)),
        issue(41751, "[Usage]: How do I stream microphone audio to /v1/realtime from a browser?", "dev-amelia", 11.1,
              usage("Is there a JS example?"), labels=("usage",)),
        pull(41752, "[Perf] Fuse QK-norm and RoPE for Qwen3.x attention", "amir-h", 11.3,
             "One kernel instead of two.", test="Qwen3.6-27B 1xH100", result="+2.5% throughput.",
             labels=("performance",), size=(210, 40, 4)),
        pull(41753, "[Benchmark] Deprecate the `--backend vllm` option of `vllm bench throughput`", "jpark-ml", 11.5,
             "It duplicates the default; warns now.", labels=("ready",), merged=21.0, size=(20, 4, 2)),
        issue(41754, "[Bug]: Gemma 3 27B fails with pipeline_parallel_size=3", "hw-lab-ysu", 11.8,
              bug("`ValueError: 62 layers are not divisible by 3`. PP=2 works."), labels=("bug",)),
        pull(41755, "[Bugfix] Structured output: advance the grammar over accepted draft tokens only", "shreya-ml",
             12.0, "Fixes invalid JSON with speculative decoding under load.", fixes="#41747",
             labels=("bug", "structured-output"), size=(80, 30, 3), talk=[
                 (15.0, "fzhou-ml", "Please add the discard path from #41540 to the test.")]),
        pull(41756, "[Doc] FP8 KV cache: the new Blackwell default and how to opt out", "pkowalski", 12.2,
             "Documents the FP8 KV cache default on Blackwell from #41580 and how to opt "
             "out.", labels=("documentation",), size=(60, 10, 2)),
        issue(41757, "[Bug]: Qwen3-VL returns empty content for repeated images with prefix caching", "rag-shop-dev",
              12.5, bug(
                  "Sending the same product image with a different question returns `content: \"\"` and "
                  "finish_reason stop about half the time on Qwen3-VL-30B-A3B. With prefix caching off it always "
                  "answers.", env=l40s),
              labels=("bug", "multi-modality"), react=3, talk=[
                  (15.9, "li-hao-qw", "The multimodal hash ignores the image's resize parameters; a cached image "
                                      "embedding of a different size is reused. Fix coming."),
                  (17.9, "li-hao-qw", "#41782"),
              ]),
        pull(41758, "[Test] DeepSeek-V4-Flash: 1M-position indexer kernel test", "gshah-nv", 12.7,
             "Adds a kernel test of the DeepSeek-V4-Flash indexer at 1M positions; tests only.",
             merged=15.0, size=(70, 0, 1)),
        pull(41759, "Revert \"[Core] Default to FP8 KV cache on Blackwell\"", "ks-cho", 12.9,
             "Premature revert request.", closed=13.3, size=(30, 120, 6), talk=[
                 (13.1, "pkowalski", "#41580 is not merged yet; nothing to revert."),
                 (13.3, "ks-cho", "Oops, my mistake."),
             ]),
        pull(41760, "[ROCm][Kernel] Triton fused MoE configs for Qwen3.6 on MI325X", "mkaur-amd", 13.05,
             "Adds tuned Triton fused MoE configs for Qwen3.6 on MI325X, from benchmark_moe.py.",
             labels=("rocm",), size=(640, 0, 3)),
        pull(41761, "[ROCm][CI] MI355X accuracy jobs for gpt-oss", "amdteam-ci", 13.2,
             "Adds GSM8K accuracy jobs for gpt-oss on MI355X; it would have caught "
             "#41720.", labels=("rocm", "ci/build"), merged=20.0, size=(40, 0, 2)),
        issue(41762, "[CI Failure]: tests/v1/spec_decode/test_overlap.py fails on H100 since #41540", "sbhatt-vllm",
              13.4, ci_failure("tests/v1/spec_decode/test_overlap.py", "Timeout in the rejection test."),
              labels=("ci-failure",), closed=17.0, talk=[(17.0, "fzhou-ml", "Fixed by #41763.")]),
        pull(41763, "[CI] Fix the overlap test's timeout", "fzhou-ml", 13.6,
             "Uses a smaller model in the overlapped-drafting test so it fits the CI timeout.",
             labels=("ci/build", "ready"), merged=16.9, size=(6, 6, 1)),
        pull(41764, "[Bugfix] MiniCPM-V: fix the slice count for portrait images", "openbmb-zx", 13.9,
             "Fixes the slice count for portrait images in MiniCPM-V, which produced one slice too few.",
             size=(10, 3, 1)),
        issue(41765, "[Feature]: Hot-swap LoRA adapters without dropping requests", "finetune-fan", 14.1,
              feature("Reloading an adapter with the same name drops in-flight requests."),
              labels=("feature request",)),
        pull(41766, "[Benchmark] Realtime API client in `vllm bench serve`", "jpark-ml", 14.3,
             "Adds a Realtime API client to `vllm bench serve` to measure speech latency.",
             size=(240, 10, 3)),
        pull(41767, "[XPU][CI/Build] Nightly XPU wheels", "lzhang-xpu", 14.6,
             "Publishes nightly XPU wheels.", labels=("intel-gpu", "ci/build"),
             size=(40, 4, 2)),
        issue(41768, "[Bug]: OOM with --max-model-len 1048576 for MiniMax-M3 on 8xH100", "sara-g", 14.8,
              bug("CUDA out of memory during profiling with the full 1M context."), labels=("bug",),
              talk=[(19.1, "minimax-yq", "1M needs 8xH200 or FP8 KV; see the recipe.")]),
        pull(41769, "[Frontend] Stream named `tool_choice` calls incrementally", "okonkwo-d", 15.0,
             "Named tool choice streamed the arguments in one chunk.", labels=("frontend",), size=(80, 30, 2)),
        pull(41770, "[Misc] Rename EngineArgs fields to match the CLI", "ruslan-b", 15.3,
             "Renames EngineArgs fields to match the CLI flags; the old names stay as aliases.",
             size=(300, 300, 14), closed=21.0, talk=[
                 (21.0, "noor-ali", "Too disruptive right before the branch cut (every plugin uses these "
                                    "names); let's revisit after 0.21. Closing for now.")]),
        pull(41771, "[Kernel] NVFP4 GEMM for SM120 (RTX 5090)", "fp4-forge", 15.5,
             "FP4 on consumer Blackwell.", test="Qwen3.6-27B NVFP4 on RTX 5090", result="+40% decode vs W4A16.",
             size=(860, 40, 8)),
        issue(41772, "[Usage]: What does `vllm:kv_cache_usage_perc` > 1.0 mean?", "mlops-tom", 15.7,
              usage("We see 1.02 in Grafana."), labels=("usage",)),
        pull(41773, "[Bugfix] DeepEP high-throughput: don't capture the dispatch in CUDA graphs", "dz-deepep", 16.0,
             "0.20 captured the high-throughput dispatch for decode-only batches; ranks that had no decode batch "
             "never joined the capture and startup hung.", fixes="#41711",
             test="DeepSeek-V4-Flash, 2x8xH200, DP16 EP", result="Starts in 9 min; no hang.",
             labels=("bug",), size=(30, 12, 2), talk=[(20.3, "wu-shaoqi", "Tested on our two nodes: starts.")]),
        pull(41774, "[Feature] Gemma 4 audio input", "ggomez-dev", 16.2,
             "Adds the Gemma 4 audio tower so Gemma 4 E4B accepts audio input.", closed=17.3,
             size=(400, 10, 4), talk=[
                 (17.3, "hyeonwoo-k", "Duplicate of #41692 which is further along; please review there.")]),
        pull(41775, "[Doc] Fix typos in the Realtime docs", "chloe-w", 16.4,
             "Fixes typos in the Realtime API docs.",
             labels=("documentation",), merged=21.5, size=(2, 2, 1), association="FIRST_TIME_CONTRIBUTOR"),
        issue(41776, "[Doc]: ROCm Docker page still points to rocm/vllm-dev", "zoe-t", 16.7,
              doc_issue("The image moved to rocm/vllm."), labels=("documentation", "rocm")),
        pull(41777, "[Perf] Pinned-memory pool for CPU KV offloading", "lmcache-ops", 16.9,
             "Uses a pinned-memory pool for CPU KV offloading instead of allocating per transfer.",
             labels=("performance",), size=(120, 40, 3)),
        pull(41778, "[Spec Decode] EAGLE-3 for DeepSeek-V4-Flash", "fzhou-ml", 17.1,
             "Adds EAGLE-3 draft heads for "
             "DeepSeek-V4-Flash.", test="MT-Bench", result="Acceptance length 2.9; 1.5x at concurrency 1.",
             labels=("speculative-decoding", "deepseek"), size=(310, 20, 4)),
        issue(41780, "[RFC]: Drop Python 3.10 support in v0.22", "dvolkov", 17.4, rfc(
            "Python 3.10 is the oldest supported version; 3.11+ gives exception groups and faster startup.",
            "Require Python >= 3.11 from v0.22."),
              labels=("RFC",), react=6, talk=[
                  (18.0, "bshah-rh", "RHEL 9's default is 3.9/3.11; fine for us."),
                  (19.6, "edu-cluster-admin", "Ubuntu 22.04 ships 3.10; lots of clusters still run it."),
                  (20.9, "dvolkov", "uv/conda make 3.12 trivial there; the Docker images already use 3.12."),
                  (21.5, "tpu-mhall", "The TPU image is on 3.11, fine."),
                  (22.1, "edu-cluster-admin", "'Trivial' is not how our admins see it: every extra interpreter "
                                              "is a module to maintain on a shared cluster.", 3),
                  (22.8, "mgrant", "How about 3.10 until the Ubuntu 26.04 LTS images are common (v0.24), then "
                                   "3.11+? That gives clusters a few months."),
                  (23.4, "dvolkov", "Fine with v0.24."),
              ]),
        pull(41781, "Bump the minor-and-patch group across 1 directory with 3 updates", "dependabot[bot]", 17.6, "",
             body=bump("pytest-dev/pytest", "9.1.0", "9.1.1"), labels=("dependencies",), merged=19.5),
        pull(41782, "[Bugfix] Multimodal hash: include the resize parameters", "li-hao-qw", 17.8,
             "A cached embedding of the same image at a different resolution was reused.", fixes="#41757",
             labels=("multi-modality",), size=(24, 6, 2)),
        pull(41783, "[Bugfix] LoRA on Gemma 4's shared-KV layers", "ethan-c", 17.95,
             "Fixes the LoRA weight shapes for Gemma 4's shared-KV layers.",
             size=(18, 4, 1)),
        pull(41784, "[Misc] Remove dead code in vllm/utils", "vtomasz", 18.1,
             "Removes unused helpers from vllm/utils.", merged=22.0,
             size=(0, 120, 3)),
        issue(41785, "[Installation]: `uv sync` fails: no solution for torch==2.11.0+cu130 on macOS", "lucas-m", 18.3,
              installation("Dev setup on a Mac.", command="uv sync"), labels=("installation",)),
        pull(41786, "[Model] Hunyuan-VL-1.5", "tencent-hunyuan-dev", 18.5,
             "Adds Hunyuan-VL-1.5, a vision-language model, with its image processor.",
             labels=("new-model", "multi-modality"), size=(820, 10, 7)),
        pull(41787, "[Misc] Clean up unused imports", "tensorsmith", 18.8,
             "Removes unused imports across the tree.", closed=19.0,
             size=(0, 30, 9), talk=[(19.0, "tensorsmith", "ruff already does this in pre-commit; closing.")]),
        pull(41788, "[Refactor] Tool parsers: move the XML-style parsers to the state machine [4/N]", "shreya-ml",
             19.0, "Qwen3-Coder, GLM and MiniMax parsers. No change in outputs.", labels=("tool-calling", "ready"),
             merged=23.0, size=(1510, 1720, 14)),
        issue(41789, "[Usage]: How many images per prompt for Gemma 4?", "sara-g", 19.2,
              usage("What is the limit and how do I raise it?"), labels=("usage",)),
        pull(41790, "[CI/Build] Multi-arch Docker image build on Arm runners", "sbhatt-vllm", 19.5,
             "Builds the multi-arch Docker image on native Arm runners instead of QEMU.",
             labels=("ci/build",), size=(70, 20, 2)),
        pull(41791, "[Bugfix] Prometheus multiprocess dir cleanup on restart", "kwang-hw", 19.7,
             "Cleans up the Prometheus multiprocess directory on restart; stale files doubled some counters.",
             size=(20, 4, 1)),
        pull(41792, "[CI/Build] TPU v7 tests", "jwong-tpu", 19.9,
             "Adds TPU v7 to the CI matrix.", labels=("tpu", "ci/build"), size=(20, 2, 1)),
        issue(41793, "[Bug]: `vllm serve --help=all` truncates long option names", "ks-cho", 20.2,
              bug("In `vllm serve --help=all` option names longer than 40 characters are cut, e.g. "
                  "`--speculative-config.draft_tensor_parallel_si`."), labels=("bug",)),
        pull(41794, "[Frontend] Responses API: configurable TTL for stored responses", "shreya-ml", 20.4,
             "Stored responses grew without bound.", labels=("frontend",), size=(60, 10, 3)),
        pull(41795, "add my model", "farid-n", 20.6, "", body="", closed=20.8, size=(2000, 0, 1),
             talk=[(20.8, "hyeonwoo-k", "Closing; please open a proper PR with a description and tests.")]),
        pull(41796, "[ROCm] FP8 attention for MI325X", "vkrish-amd", 20.9,
             "FP8 QK attention on MI325X (gfx942) for the ROCm attention backend.", labels=("rocm",),
             size=(230, 30, 4)),
        pull(41797, "[Doc] Environment variables reference: add the ROCm ones", "patel-ankit", 21.1,
             "Adds the ROCm environment variables to the reference page.",
             labels=("documentation",), merged=23.3, size=(40, 0, 1)),
        issue(41798, "[Feature]: Arm CPU (Graviton4) backend in the official images", "cloud-ml-ana", 21.3,
              feature("The CPU backend works on Graviton but there is no image."), labels=("feature request",)),
        pull(41799, "[Misc] Remove the unused `vllm/attention/ops/prefix_prefill.py`", "dvolkov", 21.45,
             "Dead since the V1 Triton backend.", merged=22.8, size=(0, 900, 2)),
        pull(41800, "[Perf] Faster block hashing for prefix caching (xxh3)", "amir-h", 21.6,
             "Replaces sha256 with xxh3_128 for non-security deployments (flag).", labels=("performance",),
             size=(80, 20, 3), talk=[(23.1, "mzheng-rh", "Must stay sha256 by default for multi-tenant "
                                                         "isolation.")]),
        pull(41801, "[Frontend] Deprecate `--return-tokens-as-token-ids`", "noor-ali", 21.8,
             "Superseded by `return_token_ids`.", labels=("frontend",), size=(20, 4, 2)),
        pull(41802, "[Test] Gemma 4 multimodal tests", "google-gemma-rs", 22.0,
             "Adds multimodal tests for Gemma 4 (images and video); tests only.", merged=23.6,
             size=(140, 0, 2)),
        issue(41803, "[Usage]: How to size EP for DeepSeek-V4-Flash on 16 GPUs?", "wang-lei-infra", 22.3,
              usage("DP16 EP16 or TP8 x 2?"), labels=("usage",)),
        pull(41804, "[Chore] Release tracker: list of PRs in the v0.21 cut", "aurelien-m", 22.5,
             "Lists the PRs going into the v0.21 branch cut in the release tracker.",
             merged=22.7, size=(90, 0, 1)),
        pull(41805, "[Kernel] FP8 Triton attention for SM89", "raghav-s", 22.7,
             "FP8 QK attention in the Triton backend on Ada (SM89).", size=(260, 30, 3)),
        pull(41806, "[Bugfix] `vllm bench serve`: fix the random dataset's prefix length", "jpark-ml", 23.0,
             "Fixes an off-by-one in the random dataset's prefix length in `vllm bench serve`.", size=(2, 2, 1)),
        issue(41807, "[Bug]: 'Using a slow image processor' warning on every Qwen3-VL request", "lena-b", 23.2,
              bug("Every Qwen3-VL request logs `Using a slow image processor as use_fast is unset` at WARNING level, "
                  "thousands of lines an hour in production."), labels=("bug",)),
        pull(41808, "[CI] Pin FlashInfer 0.7.2 in the test image", "sbhatt-vllm", 23.4,
             "Pins FlashInfer 0.7.2 in the CI test image.",
             labels=("ci/build", "ready"), merged=23.8, size=(1, 1, 1)),
        pull(41809, "[Doc] Realtime API: browser example", "hliu-vllm", 23.7,
             "Adds a browser (JavaScript) example for the Realtime API.",
             labels=("documentation",), size=(120, 0, 2)),
        pull(41810, "[Bugfix][CPU] Fix the AVX-512 BF16 attention for head size 80", "akumar-intel", 23.9,
             "Fixes the tail handling of the AVX-512 BF16 CPU attention for head size "
             "80.", labels=("cpu",), size=(14, 4, 1)),
    ]
    return HandDay("real-g-2026-05-07", datetime(2026, 5, 7, 3, 5, tzinfo=UTC), REAL_PEOPLE, items,
                   note="five strong merges before the v0.21 branch cut; a default that splits reviewers; new "
                        "regressions in hybrid models, ROCm MXFP4 and GH200 wheels")


# --- Day H: Monday after a weekend: a runner removal fight, weekend reports, a security patch release, many bots ----

_STALE_H: tuple[tuple[int, str, str, str, float], ...] = (
    (38120, "[Bug]: Qwen2.5-Omni fails with audio longer than 30 s", "dr-ramos", "bug", -2400),
    (38244, "[Feature]: Prefix cache hit rate per LoRA adapter in /metrics", "mlops-tom", "feature request", -2380),
    (38301, "[Usage]: Running vLLM on Slurm without Ray", "edu-cluster-admin", "usage", -2360),
    (38455, "[Bug]: `vllm chat` CLI does not keep history after an error", "tom-b", "bug", -2330),
    (38512, "[Installation]: Conda env with CUDA 12.9 and torch 2.10 conflicts", "gabriel-f", "installation",
     -2320),
    (38630, "[Feature]: Token-level timestamps for Whisper streaming", "okonkwo-d", "feature request", -2300),
    (38777, "[Bug]: `--served-model-name` ignored by /metrics labels", "kubeflow-jo", "bug", -2280),
    (38901, "[Usage]: Choosing max_num_batched_tokens for long prompts", "park-jh", "usage", -2250),
)


def _day_h() -> HandDay:
    v = "0.23.0"
    kw = {"torch": "2.11.0+cu130", "cuda": "13.0", "transformers": "5.9.0", "triton": "3.6.0"}
    h200 = gpu_env("NVIDIA H200", 8, v, **kw)
    h100 = gpu_env("NVIDIA H100 80GB HBM3", 4, v, **kw)
    b200 = gpu_env("NVIDIA B200", 8, v, **kw)
    h20 = gpu_env("NVIDIA H20", 8, v, **kw)
    rtx5090 = gpu_env("NVIDIA GeForce RTX 5090", 1, v, **kw)
    items = [
        *stale_issues(_STALE_H, notice=22.6, close=22.6),
        pull(38850, "[Frontend] Support `n > 1` with beam search in chat completions", "felipe-r", -2200,
             "Beam search with several returned beams.", size=(120, 20, 3), closed=22.6, talk=[
                 (-500, "github-actions[bot]", STALE_PR), (22.6, "github-actions[bot]", CLOSED_STALE_PR)]),
        pull(39012, "[Kernel] Triton MLA decode for Ampere", "raghav-s", -2100,
             "A Triton MLA decode kernel so DeepSeek models can run on A100 (Ampere).", size=(400, 30, 4),
             talk=[(22.6, "github-actions[bot]", STALE_PR)]),
        # --- earlier items that move today ---
        pull(46380, "[Core] Remove the V1 model runner on CUDA (Model Runner V2 only)", "mgrant", -40,
             "Model Runner V2 has been the default on CUDA since v0.17 and every feature has been ported (the "
             "last ones, pooling and LoRA with multimodal inputs, in v0.22). This removes the V1 GPU model runner, "
             "the persistent batch and `VLLM_USE_MODEL_RUNNER_V2=0`. ROCm, XPU and TPU keep their runners; the "
             "ROCm switch is tracked in #45110.",
             test="Full CI; nightly accuracy and performance suites", result="Green; no performance change.",
             labels=("v1", "ready"), merged=20.5, size=(410, 11840, 96), react=25, talk=[
                 (-30, "chenyu-z", "Huge cleanup. Double-checked that the plugin-facing `GPUModelRunner` import "
                                   "path still resolves (to V2)."),
                 (-22, "raghav-s", "We still use VLLM_USE_MODEL_RUNNER_V2=0 for one workload: our logits "
                                   "processors are 20% slower on V2 because of the batch layout."),
                 (0.9, "bshah-rh", "Downstream, we'd like one more release with the escape hatch. Removing the "
                                   "fallback in the same release as the patch for the DP hang makes bisecting "
                                   "regressions harder.", 7),
                 (2.1, "mgrant", "The escape hatch has warned since 0.20. Keeping 12k lines for one more release "
                                 "blocks the scheduler refactor."),
                 (3.5, "raghav-s", "Fair, but then please look at the logits processor overhead before the "
                                   "release; it's a real regression for us."),
                 (4.4, "chenyu-z", "The overhead is the per-step CPU gather; I'm batching it in a PR today. "
                                   "Should close the gap."),
                 (6.7, "chenyu-z", "#46482"),
                 (6.8, "kvcache-lab", "KV connectors are all on V2; no objection."),
                 (9.7, "tjiang-amd", "For ROCm: please make sure the ROCm runner does not import anything from "
                                     "the removed files; our nightly broke on an import last time."),
                 (10.5, "mgrant", "Checked: the ROCm runner imports only shared helpers; the ROCm CI job is green "
                                  "on this branch."),
                 (13.9, "bshah-rh", "OK. Please put it first in the breaking-changes notes."),
                 (17.2, "rkessler", "Approving. This is the right time: right after the 0.23 cut, with a full "
                                    "release cycle of nightlies before 0.24.", 10),
                 (20.4, "mgrant", "Merging. Thanks all."),
                 (21.6, "sglang-migrant", "Nightly from an hour ago: Qwen3.6 MTP works fine on V2-only."),
              ]),
        pull(46310, "[Model] Add Mistral Medium 4 (MoE, vision)", "mistral-pb", -70,
             "Day-0 support for Mistral Medium 4: a 128-expert MoE (41B active) with a vision encoder, the "
             "`mistral` tokenizer mode, tool calling and the reasoning parser for its thinking mode.",
             test="lm_eval gsm8k, mmmu; tool-calling e2e; TP8 on 8xH200 and TP4 on 4xB200",
             result="GSM8K 0.957 (reference 0.958), MMMU 0.71; tool-calling tests pass.",
             labels=("new-model", "multi-modality", "ready"), merged=16.0, size=(1540, 50, 14), react=36, talk=[
                 (-50, "hyeonwoo-k", "Vision encoder matches Pixtral's with a new projector, nice reuse."),
                 (15.7, "hyeonwoo-k", "LGTM, merging."),
                 (17.4, "m-rossi", "Works on our 4xB200 with FP8 🎉"),
             ]),
        pull(46255, "[Perf] DeepEP v2 low-latency kernels for expert parallel decode", "dz-deepep", -100,
             "Switches the low-latency all2all to DeepEP v2 (NVLink-domain aware, fewer RDMA round trips). "
             "Default for `--all2all-backend deepep_low_latency`.",
             test="DeepSeek-V4-Flash, 2 nodes x 8xH200, DP16 EP16, vllm bench serve, concurrency 256, 2k/1k",
             result="TPOT p50 41 ms -> 31 ms (-25%); output throughput +29%. Kimi-K2.5 EP16: TPOT -19%.",
             labels=("ready",), merged=9.0, size=(620, 380, 12), react=21, talk=[
                 (-60, "chenyu-z", "Needs the DeepEP v2 wheel in the image; done in #46190."),
                 (8.7, "chenyu-z", "LGTM."),
             ]),
        pull(46400, "[Bugfix] Fix DP+EP hang when a rank has no requests under async scheduling", "chenyu-z", -30,
             "An idle DP rank runs a dummy batch so every rank joins the MoE all2all. With async scheduling the "
             "dummy batch was scheduled one step late, so the ranks' collectives went out of step and all of them "
             "waited forever (GPU at 100%, no tokens). The DP coordinator now schedules the dummy step in the same "
             "wave. Long-standing since #35288.", fixes="#35288, #45877",
             test="Synthetic load that leaves ranks idle; Qwen3.5-397B and DeepSeek-V4-Flash DP8/DP16 EP for 24 h",
             result="No hang in 24 h (before: within 2-5 h); async scheduling stays on.",
             labels=("bug", "ready"), merged=13.5, size=(140, 60, 5), react=18, talk=[
                 (-20, "wu-shaoqi", "Running it on our 8xH200 since Saturday: 30 hours, no hang. Finally!", 6),
                 (1.3, "zhou-yuqi", "Same on 16xH20, 26 hours clean."),
                 (13.1, "mgrant", "LGTM, cherry-pick into 0.23.1."),
             ]),
        pull(46330, "[Frontend] Responses API: background mode (`background: true`), retrieve and cancel",
             "shreya-ml", -60,
             "Long-running responses can now run in the background: `background: true` returns immediately with "
             "`status: queued`; `GET /v1/responses/{id}` polls, `POST /v1/responses/{id}/cancel` cancels, and "
             "`stream: true` with `starting_after` resumes a stream. Needs `--enable-store` (in-memory or Redis).",
             test="tests/entrypoints/openai/responses/test_background.py (new); the OpenAI SDK's background examples",
             result="All pass.", labels=("frontend", "ready"), merged=19.0, size=(1180, 120, 13), react=16, talk=[
                 (-40, "noor-ali", "Store TTL from #41794 applies here too?"),
                 (-38, "shreya-ml", "Yes."),
                 (18.6, "noor-ali", "Approved."),
             ]),
        pull(46420, "[Security] Fix path traversal in `--allowed-local-media-path`", "mzheng-rh", -20,
             "`file://` media URLs were checked against `--allowed-local-media-path` before symlinks and `..` were "
             "resolved, so a request could read any file the server can read (GHSA-q3v8-…, reported privately). "
             "Paths are now resolved first; symlinks leaving the allowed directory are refused.",
             test="New tests for `..`, symlinks, and URL-encoded separators", result="Pass.",
             labels=("security", "ready"), merged=4.0, size=(90, 20, 3), react=8, talk=[
                 (3.8, "rkessler", "Approved; 0.23.1 ships it with the advisory."),
             ]),
        issue(46360, "[Release]: v0.23.1 patch release tracker", "aurelien-m", -50,
              "Patch release for the security fix (#46420) and regressions in 0.23.0. Cherry-pick requests here.",
              labels=("release",), react=9, talk=[
                  (-30, "wu-shaoqi", "Please include #46400 (DP+EP hang)."),
                  (-28, "aurelien-m", "Yes, once merged."),
                  (4.6, "mzheng-rh", "#46420 merged; cherry-picked."),
                  (8.8, "park-jh", "The FP8 slowdown on H100 (#46464) should be a blocker: 30% is a lot."),
                  (10.4, "aurelien-m", "Agreed, blocker if the fix is ready by Wednesday."),
                  (14.1, "chenyu-z", "#46400 merged, cherry-picked."),
                  (21.7, "gshah-nv", "#46499 (H100 FP8 regression) approved, please pick it after it merges."),
              ]),
        issue(46402, "[Bug]: Qwen3.6-27B-FP8 on RTX 5090 prints repeated tokens with FlashInfer", "rtx-hobbyist", -36,
              bug("With the default FlashInfer backend on an RTX 5090 the output degenerates into repeated tokens "
                  "after ~200 tokens; TRITON_ATTN is fine.", env=rtx5090),
              labels=("bug",), react=3, talk=[
                  (-30, "rtx-hobbyist", "Also happens with Qwen3-8B-FP8."),
                  (-20, "rtx-hobbyist", "FlashInfer 0.7.4 vs 0.7.3: only 0.7.4 is bad."),
                  (1.8, "hiro-t", "Same on a 5080."),
                  (5.3, "gshah-nv", "SM120 FP8 attention in FlashInfer 0.7.4 has a known bug; we'll pin 0.7.3 "
                                    "for SM120 until the FlashInfer fix is released."),
              ]),
        issue(46415, "[Usage]: How do I enable background mode for the Responses API?", "agent-builder-99", -25,
              usage("The docs mention it but I get `background is not supported`."), labels=("usage",),
              closed=19.5, talk=[(19.5, "shreya-ml", "Landed in #46330 today; needs --enable-store.")]),
        pull(46425, "[CI] Retry the B200 runner registration", "sbhatt-vllm", -18,
             "Retries the registration of B200 CI runners, which failed intermittently.",
             labels=("ci/build", "ready"), merged=0.5, size=(8, 2, 1)),
        pull(46430, "[Doc] Fix the Mistral tokenizer mode docs", "patel-ankit", -14,
             "Fixes the docs of the `mistral` tokenizer mode.",
             labels=("documentation",), merged=2.5, size=(10, 6, 1)),
        pull(46438, "[Bugfix] Fix a KeyError in the GLM-5 reasoning parser with empty content", "zai-lwen", -8,
             "The GLM-5 reasoning parser raised a KeyError when the content was "
             "empty.", labels=("ready",), merged=5.0, size=(6, 2, 1)),
        pull(46441, "[Misc] Log the attention backend per layer group at startup", "rzhang-infra", -5,
             "Logs at startup which attention backend each layer group uses.",
             merged=7.5, size=(30, 6, 2)),
        pull(46200, "[Kernel] Unify the FP8 block-scaled GEMM dispatch (CUTLASS, DeepGEMM, Triton)", "gshah-nv",
             -150, "One dispatch table instead of three. No functional change intended.", labels=("ready",),
             merged=11.0, size=(980, 1210, 15), talk=[(10.6, "pkowalski", "LGTM after the perf check.")]),
        pull(45900, "[Model] Add Hunyuan-Large-2", "tencent-hunyuan-dev", -300,
             "Adds the Hunyuan-Large-2 architecture.", size=(900, 10, 7),
             closed=9.0, talk=[(9.0, "tencent-hunyuan-dev", "The release was cancelled; closing.")]),
        pull(46390, "[V1] Keep VLLM_USE_MODEL_RUNNER_V2=0 as a deprecated no-op", "bshah-rh", -33,
             "Alternative to #46380's hard removal.", closed=14.0, size=(20, 4, 2), talk=[
                 (14.0, "bshah-rh", "Closing, we agreed on #46380.")]),
        pull(46300, "[Hardware][Intel GPU] Sleep mode on XPU", "lzhang-xpu", -80,
             "Sleep mode (sleep/wake_up) on Intel XPU.",
             labels=("intel-gpu", "needs-rebase"), size=(210, 20, 4),
             talk=[(20.6, "mergify[bot]", REBASE.format(author="lzhang-xpu"))]),
        # --- opened in the window ---
        pull(46450, "[CI] Fix the nightly wheel upload after the bucket move", "sbhatt-vllm", 0.15,
             "Fixes the nightly wheel upload after the storage bucket moved.",
             labels=("ci/build", "ready"), merged=1.0, size=(4, 4, 1)),
        issue(46451, "MTP produces garbage with GLM-5.2-FP8 (GSM8K 0.01 vs 0.96 without MTP)", "li-ming-ai", 0.3,
              "## Bug\n\nEnabling MTP speculative decoding on GLM-5.2-FP8 makes the output useless. GSM8K (5-shot) "
              "goes from 0.957 to 0.011.\n\n### Environment\n- vLLM 0.23.0 (`vllm/vllm-openai:v0.23.0`)\n- 2 nodes "
              "x 8xH200, DP16 + EP, `--all2all-backend deepep_low_latency`\n- zai-org/GLM-5.2-FP8\n\n### Results\n\n"
              "Without MTP:\n```\n|gsm8k|3|flexible-extract|5|exact_match|↑|0.9568|±|0.0056|\n```\nWith "
              "`--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'`:\n```\n|gsm8k|3|"
              "flexible-extract|5|exact_match|↑|0.0106|±|0.0028|\n```\n\nThe text is fluent for a few tokens and "
              "then becomes unrelated words. Acceptance rate is ~2% (normally ~80% for this model). MTP init also "
              "printed `Expected slot_mapping to be a dict, got <class 'list'>` once before I patched around it.",
              labels=("bug",), react=14, talk=[
                  (1.5, "sun-hao-ml", "Same with GLM-5.2-FP8 on 8xB200 (TP8), no EP: GSM8K 0.02 with MTP."),
                  (2.4, "zai-lwen", "Thanks. Does it also happen with the BF16 checkpoint?"),
                  (3.2, "li-ming-ai", "Can't fit BF16 on our nodes. FP8 only."),
                  (4.0, "fzhou-ml", "The slot_mapping message is from the V2 runner's drafter: since the runner "
                                    "unification the MTP layer of GLM-5.2 gets the list-form slot mapping and "
                                    "writes its KV into the wrong blocks, which would explain the ~2% acceptance."),
                  (4.9, "zai-lwen", "GLM-5.2's MTP layer also uses the DSA indexer, so it needs its own indexer "
                                    "cache entry. Both may be wrong."),
                  (6.7, "dong-xy", "+1, same on H20 with TP8."),
                  (8.4, "fzhou-ml", "Reproduced on one node. Draft PR coming; the indexer cache is indeed shared "
                                    "with the target's last layer."),
                  (15.1, "fzhou-ml", "#46520 fixes both; GSM8K 0.955 with MTP in my run."),
                  (19.8, "li-ming-ai", "Confirmed with #46520 on our 2 nodes: 0.954, acceptance 0.79."),
              ]),
        pull(46452, "[Bugfix] Kimi-K2.5: keep reasoning_content when the response is truncated", "moonshot-kai", 0.5,
             "Truncated responses lost the reasoning.", labels=("ready",), merged=8.0, size=(18, 6, 2)),
        pull(46453, "[Misc] Registry: add the GLM-5.2 architecture alias", "zai-lwen", 0.65,
             "Adds the GLM-5.2 architecture name to the model registry as an alias of GLM-5.", merged=3.0,
             size=(2, 0, 1)),
        pull(46454, "[Refactor] Modular fused MoE: remove the legacy entry points [6/N]", "dz-deepep", 0.8,
             "Last step of the series: removes `fused_experts_impl` wrappers. No functional change.",
             labels=("ready",), merged=18.0, size=(120, 1650, 19)),
        issue(46455, "[Usage]: DeepSeek-V4-Flash with TP=8 or DP=8+EP on one 8xB200 node?", "llm-platform-kr", 1.0,
              usage("Chat workload, 8k in / 1k out, ~200 concurrent users."), labels=("usage",), talk=[
                  (3.9, "bwtran", "DP8+EP for throughput, TP8 for latency at low concurrency; the recipe has "
                                  "numbers for both."),
              ]),
        pull(46456, "[Doc] Fix a broken link in the Responses API page", "joao-p", 1.2,
             "Fixes a broken link on the Responses API page.",
             labels=("documentation",), merged=6.0, size=(1, 1, 1), association="FIRST_TIME_CONTRIBUTOR"),
        issue(46457, "[Feature]: Support DeepSeek-V4 (full model)", "junhao-l", 1.5,
              feature("V4-Flash works; please add the full V4 model."), labels=("feature request", "deepseek"),
              react=29, talk=[
                  (2.0, "chen-wei-88", "+1"),
                  (2.6, "meng-q", "+1!!"),
                  (4.2, "haoran-z", "+1"),
                  (6.0, "yusuf-o", "any update?"),
                  (9.3, "li-ming-ai", "+1"),
                  (12.8, "junhao-l", "bump"),
                  (16.5, "kim-sj", "+1"),
              ]),
        pull(46458, "[ROCm] Bump AITER to the June release", "yhuang-amd", 1.7,
             "Bumps the AITER pin to the June release.",
             labels=("rocm", "ready"), merged=12.0, size=(4, 4, 2)),
        dep(46459, 1.9, "codecov/codecov-action", "5", "6", labels=("dependencies", "github_actions"), merged=5.5),
        issue(46460, "[Bug]: EngineDeadError under load with DP=4 + EP across two nodes (DeepEP low-latency)",
              "wang-lei-infra", 2.2, bug(
                  "2 nodes x 4xH200 (DP=4 per node, DP=8 total, EP on), Kimi-K2.5. After 20-60 minutes at ~300 "
                  "concurrent requests one rank raises a DeepEP timeout and the engine dies; every request then "
                  "fails with EngineDeadError until we restart all pods. Single node DP=8 is stable.", env=h200,
                  repro="vllm serve moonshotai/Kimi-K2.5 -dp 8 --data-parallel-size-local 4 "
                        "--enable-expert-parallel --all2all-backend deepep_low_latency",
                  log="(EngineCore_DP5 pid=1881) ERROR [core.py:866] RuntimeError: DeepEP error: timeout (dispatch "
                      "CPU)\n(EngineCore_DP5 pid=1881) ERROR [core.py:866] EngineCore encountered a fatal error.\n"
                      "(APIServer pid=1) ERROR [async_llm.py:525] vllm.v1.engine.exceptions.EngineDeadError: "
                      "EngineCore encountered an issue. See stack trace (above) for the root cause."),
              labels=("bug",), react=8, talk=[
                  (3.5, "dz-deepep", "Is this before or after #46255 (DeepEP v2)? v2 became the default on main "
                                     "today, not in 0.23.0."),
                  (4.1, "wang-lei-infra", "0.23.0, so DeepEP v1."),
                  (5.0, "zhou-yuqi", "We saw the same timeout on 2x8xH20 with 0.23.0."),
                  (14.0, "chenyu-z", "Could be the DP hang fixed in #46400 turning into a timeout on multi-node; "
                                     "please try main."),
                  (22.8, "wang-lei-infra", "Main from this afternoon: still dies after ~40 min, same timeout. So "
                                           "not the same bug."),
              ]),
        pull(46461, "[XPU][Bugfix] Fix device-lost with pipeline parallel on Arc", "lzhang-xpu", 2.4,
             "Attempt for the Arc PP crash: synchronise the XPU stream before the PP send.", labels=("intel-gpu",),
             size=(10, 2, 1), talk=[(20.1, "akumar-intel", "Does this fix #46484? The reporter's setup is mixed "
                                                           "B70+B580.")]),
        pull(46462, "[Doc] fix typo", "minh-t", 2.6,
             "Fix a typo.", closed=2.9, size=(1, 1, 1), talk=[
            (2.9, "pkowalski", "Duplicate of #46430, thanks though.")]),
        pull(46463, "[CI] Skip the DeepEP multi-node test when only one node is available", "sbhatt-vllm", 2.75,
             "Skips the DeepEP multi-node test when only one node is available in "
             "CI.", labels=("ci/build", "ready"), merged=3.6, size=(4, 0, 1)),
        issue(46464, "[Bug]: 0.23.0 is ~30% slower than 0.22.1 for Llama-3.3-70B FP8 on H100", "park-jh", 2.9,
              performance(
                  "4xH100, TP=4, Llama-3.3-70B-Instruct-FP8 (dynamic). Output throughput at concurrency 64: "
                  "3,920 tok/s on 0.22.1, 2,760 tok/s on 0.23.0 (-30%). TPOT p50 15.9 ms -> 22.4 ms. Same image "
                  "otherwise.", env=h100),
              labels=("performance",), react=11, talk=[
                  (3.8, "amir-h", "Reproduced on 2xH100 with Qwen3-32B-FP8: -24%."),
                  (5.5, "sde-priya", "Same for us on H100 with Llama-3.1-8B-FP8: -18%. H200 looks fine."),
                  (7.0, "gshah-nv", "H100 only points at the GEMM dispatch: #46200 unified it and Hopper may now "
                                    "pick CUTLASS 3.x tiles for M < 64. Checking."),
                  (10.4, "gshah-nv", "Confirmed: per-tensor FP8 on SM90 falls to a generic tile. #46499."),
                  (12.2, "park-jh", "With #46499: 3,900 tok/s, back to normal."),
                  (13.4, "b-anderson", "Does it also affect FP8 on L40S?"),
                  (14.6, "gshah-nv", "No, SM89 uses a separate path."),
              ]),
        pull(46499, "[Kernel] Fix the FP8 GEMM tile selection on Hopper for small M (regression in 0.23.0)",
             "gshah-nv", 10.3,
             "The unified dispatch (#46200) mapped per-tensor FP8 GEMMs with M < 64 on SM90 to a generic CUTLASS "
             "tile: decode was up to 30% slower on H100 in 0.23.0. Restores the SM90 tile table.",
             fixes="#46464", test="Llama-3.3-70B FP8 TP4 H100; kernel micro-benchmarks",
             result="3,900 tok/s (0.22.1: 3,920; 0.23.0: 2,760).", labels=("performance", "ready"),
             size=(60, 20, 2), react=7, talk=[(21.5, "pkowalski", "Approved; merging after the H100 CI run.")]),
        pull(46466, "[Test] DP+EP: a test that leaves ranks idle for a long time", "chenyu-z", 3.3,
             "Regression test for #46400: leaves DP ranks idle for a long time under async "
             "scheduling.", merged=16.5, size=(110, 0, 1)),
        issue(46467, "[Installation]: CUDA 13.1 toolkit: building from source fails in the FlashMLA sources",
              "edu-cluster-admin", 3.6, installation(
                  "nvcc 13.1 rejects an intrinsic.", command="pip install -e .",
                  log="error: identifier \"__cvta_generic_to_shared\" is undefined"),
              labels=("installation",)),
        pull(46468, "[Bugfix] Disable MTP for GLM-5.2-FP8 until the draft KV is fixed", "haoran-z", 3.8,
             "Workaround for #46451: disables MTP for GLM-5.2-FP8.", closed=15.3, size=(12, 1, 1), talk=[
                 (15.3, "fzhou-ml", "#46520 fixes MTP for GLM-5.2; closing.")]),
        pull(46469, "[Misc] Remove the VLLM_USE_V1 environment variable", "dvolkov", 4.0,
             "A no-op since v0.11 that only warned.", labels=("ready",), merged=10.0, size=(0, 40, 5)),
        issue(46470, "[Bug]: Kimi-K2.5 returns no tool call: output stops right after `<|tool_calls_section_begin|>`",
              "agent-builder-99", 4.3, bug(
                  "With `--tool-call-parser kimi_k2`, about 10% of responses that should contain a tool call have "
                  "`tool_calls: []`, empty content and finish_reason `stop`; the raw output ends with "
                  "`<|tool_calls_section_begin|>`. Started with 0.23.0.", env=h20),
              labels=("bug", "tool-calling"), react=5, talk=[
                  (6.2, "moonshot-kai", "0.23 added `<|tool_calls_section_begin|>` to the stop tokens via the "
                                        "generation config by mistake. Fix coming."),
                  (8.8, "moonshot-kai", "#46491"),
              ]),
        pull(46471, "[ROCm][CI] Fix the MI325X image's hipBLASLt version", "amdteam-ci", 4.5,
             "Pins hipBLASLt in the MI325X CI image.",
             labels=("rocm", "ci/build"), merged=6.5, size=(2, 2, 1)),
        pull(46472, "Add files via upload", "farid-n", 4.7, "", body="", closed=4.9, size=(12000, 0, 40),
             talk=[(4.9, "pkowalski", "Closing: unrelated files.")]),
        issue(46473, "[Doc]: Realtime API page shows the wrong event name", "zoe-t", 5.0,
              doc_issue("`input_audio_buffer.commit` is written `input_audio.commit`."), labels=("documentation",)),
        pull(46474, "[Doc] Responses API: background mode, retrieve and cancel", "shreya-ml", 5.2,
             "Documents the Responses API background mode from #46330: retrieve, cancel and resuming "
             "streams.", labels=("documentation",), merged=20.0, size=(130, 10, 2)),
        pull(46475, "[Hardware][TPU] MoE with EP on TPU v7", "tpu-mhall", 5.4,
             "Expert parallel for MoE models on TPU v7.", labels=("tpu",),
             size=(380, 50, 6), talk=[(15.8, "jwong-tpu", "Reviewed; please add the v7 CI run.")]),
        pull(46476, "[Misc] Remove unused fields from CacheConfig", "vtomasz", 5.55,
             "Removes unused fields from CacheConfig.", merged=11.5,
             size=(0, 24, 2)),
        issue(46477, "[Bug]: `vllm serve` never becomes ready on 8xB200: stuck after 'Loading weights took 41.2 "
                     "seconds'", "cloud-ml-ana", 5.7, bug(
                  "0.23.0 image on a new 8xB200 node (driver 590, NCCL 2.28.7 from the image). Any TP=8 model "
                  "stops after the weights are loaded; `/health` never returns 200. TP=4 works. The same node with "
                  "0.22.1 (NCCL 2.27.7) starts fine.", env=b200,
                  repro="vllm serve deepseek-ai/DeepSeek-V4-Flash -tp 8",
                  log="(Worker_TP0 pid=811) INFO [default_loader.py:291] Loading weights took 41.2 seconds\n"
                      "(EngineCore_DP0 pid=640) INFO [shm_broadcast.py:466] No available shared memory broadcast "
                      "block found in 60 seconds. This typically happens when some processes are hanging or doing "
                      "some time-consuming work."),
              labels=("bug",), react=6, talk=[
                  (6.9, "gshah-nv", "py-spy on a stuck rank? NCCL 2.28 changed the default symmetric memory "
                                    "registration."),
                  (7.7, "cloud-ml-ana", "All ranks in ncclCommWindowRegister."),
                  (8.6, "gshah-nv", "NCCL_WIN_ENABLE=0 should work around it; I'll make vLLM set it for "
                                    "NCCL 2.28.0-2.28.7."),
                  (9.1, "gshah-nv", "#46493"),
                  (9.9, "cloud-ml-ana", "NCCL_WIN_ENABLE=0 works."),
              ]),
        pull(46478, "[Misc] Fix typos in the Mistral model file", "pham-quang", 5.9,
             "Fixes typos in comments of the Mistral model file.", merged=9.5,
             size=(3, 3, 1)),
        pull(46493, "[Bugfix] Work around the NCCL 2.28 window-registration hang at startup (TP=8 on B200)",
             "gshah-nv", 9.05, "Sets NCCL_WIN_ENABLE=0 for NCCL 2.28.0-2.28.7 unless the user set it.",
             fixes="#46477", labels=("bug", "ready"), merged=13.0, size=(20, 2, 2), talk=[
                 (12.7, "pkowalski", "LGTM; cherry-pick into 0.23.1.")]),
        issue(46481, "[Usage]: `ValueError: GGUF model with architecture deepseek2 is not supported yet`",
              "rtx-hobbyist", 6.4, usage("Trying a DeepSeek GGUF quant. Is there a way?"), labels=("usage",),
              closed=7.9, talk=[(7.5, "bwtran", "GGUF support covers Llama/Qwen/Gemma families; use an AWQ or "
                                                "FP8 checkpoint for DeepSeek."),
                                (7.9, "rtx-hobbyist", "OK thanks.")]),
        pull(46482, "[Perf] Batch the logits-processor gather in Model Runner V2", "chenyu-z", 6.6,
             "Custom logits processors paid a per-request CPU gather each step.",
             test="Llama-3.1-8B with 2 custom logits processors, 1xH100, concurrency 128",
             result="Throughput +21% with logits processors; unchanged without.", labels=("performance",),
             size=(90, 40, 3), talk=[(10.9, "raghav-s", "Tested with our processors: the gap to V1 is gone.")]),
        pull(46483, "[Bugfix] Kimi-K2.5: strip tool section tokens from stop tokens", "tuan-v", 6.8,
             "Workaround for #46470: removes the tool-section tokens from Kimi-K2.5's stop "
             "tokens.", closed=9.1, size=(4, 1, 1), talk=[
                 (9.1, "moonshot-kai", "Thanks, #46491 fixes the generation config handling itself; closing.")]),
        issue(46484, "[Bug]: PP=2 on two Intel Arc GPUs dies with UR_RESULT_ERROR_DEVICE_LOST", "hw-lab-ysu", 7.1,
              bug("Arc Pro B70 + Arc B580, Qwen3.6-27B-FP8, `--pipeline-parallel-size 2`. The first request works; "
                  "shortly after, the engine dies with a device-lost error or times out in shm_broadcast.",
                  env="```text\nvLLM 0.23.0 (xpu build), oneAPI 2025.3, Level-Zero driver 1.14\n```",
                  log="RuntimeError: UR_RESULT_ERROR_DEVICE_LOST\n... RPC call to sample_tokens timed out."),
              labels=("bug", "intel-gpu"), react=2, talk=[
                  (20.0, "akumar-intel", "Mixed B70+B580 is not a tested configuration; does it happen with two "
                                         "identical cards?"),
              ]),
        pull(46485, "[Refactor] EngineCoreClient: merge the DP and single-engine clients [3/N]", "rzhang-infra", 7.3,
             "Merges the DP and single-engine EngineCoreClient implementations; no behaviour "
             "change.", labels=("v1",), size=(760, 910, 7), talk=[
                 (19.3, "chenyu-z", "Please rebase on #46400.")]),
        pull(46486, "[Doc] FP8 KV cache on Hopper: accuracy notes", "pkowalski", 7.5,
             "Adds accuracy notes for FP8 KV cache on Hopper to the quantization docs.",
             labels=("documentation",), merged=17.0, size=(40, 4, 1)),
        issue(46487, "[Bug]: 'FlashInfer version mismatch' warning at startup with the official image", "tom-b", 7.8,
              bug("The 0.23.0 image warns that FlashInfer 0.7.4 is newer than tested."), labels=("bug",)),
        pull(46488, "[Chore] Auto-label XPU and TPU PRs", "aurelien-m", 8.0,
             "Labels XPU and TPU PRs automatically.", merged=8.2,
             size=(10, 0, 1)),
        pull(46489, "[Test] GLM-5.2 MTP greedy-equivalence test", "zai-lwen", 8.2,
             "Tests that GLM-5.2 with MTP gives the same greedy outputs as without it.",
             labels=("speculative-decoding",), size=(90, 0, 1)),
        issue(46490, "[Bug]: Big performance drop with FP8 on H100 after upgrading to 0.23", "sde-priya", 8.5,
              bug("FP8 models are much slower on 0.23.0."), labels=("bug",), closed=9.0, reason="duplicate",
              talk=[(9.0, "gshah-nv", "Duplicate of #46464.")]),
        pull(46491, "[Bugfix] Don't add tool-section tokens from generation_config to the stop tokens", "moonshot-kai",
             8.7, "0.23.0 merged every `eos_token_id` entry of generation_config.json into the stop tokens, "
                  "including Kimi-K2.5's `<|tool_calls_section_begin|>`: tool calls were cut off and returned "
                  "empty.", fixes="#46470", labels=("bug", "tool-calling", "ready"), merged=17.8, size=(30, 8, 2),
             talk=[(17.5, "noor-ali", "LGTM.")]),
        dep(46492, 8.9, "fastapi/fastapi", "0.121.0", "0.122.1", path="/requirements", merged=12.5),
        pull(46480, "[XPU] Fix the build with oneAPI 2025.3", "lzhang-xpu", 6.1,
             "Fixes the XPU build with oneAPI 2025.3.",
             labels=("intel-gpu",), merged=13.8, size=(6, 2, 1)),
        issue(46494, "[Bug]: Sending `max_tokens: 0` with `logprobs` kills the server", "ahmed-s", 9.2, bug(
            "A single request with `\"max_tokens\": 0, \"logprobs\": true` to /v1/completions makes the engine "
            "process die with a segmentation fault on 0.23.0 (Qwen3.6-27B, also Llama-3.1-8B). Any client can "
            "take the server down this way.", env=gpu_env("NVIDIA H100 80GB HBM3", 1, v, **kw),
            repro="curl localhost:8000/v1/completions -d '{\"model\": \"Qwen/Qwen3.6-27B\", \"prompt\": \"hi\", "
                  "\"max_tokens\": 0, \"logprobs\": 1}'",
            log="(EngineCore_DP0 pid=90) Fatal Python error: Segmentation fault\n(APIServer pid=1) ERROR "
                "[async_llm.py:525] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue."),
              labels=("bug",), react=9, talk=[
                  (10.2, "mzheng-rh", "Reproduced. Please don't post more details publicly; fix in #46498."),
              ]),
        pull(46495, "[CI] Shard the entrypoints tests by API", "sbhatt-vllm", 9.4,
             "Shards the entrypoints tests by API so the job takes under 20 minutes.",
             labels=("ci/build", "ready"), merged=11.0, size=(40, 20, 2)),
        pull(46496, "[Bugfix] Fix it", "daniyar-t", 9.6, "", body="fix bug", closed=10.0, size=(2, 2, 1),
             talk=[(10.0, "jiayi-xu", "Please describe the bug and add a test; closing for now.")]),
        issue(46497, "[Feature]: OpenTelemetry metrics export (not only traces)", "kubeflow-jo", 9.9,
              feature("We'd like OTLP metrics next to Prometheus."), labels=("feature request",)),
        pull(46498, "[Bugfix] Reject `max_tokens: 0` with logprobs instead of crashing the engine", "mzheng-rh",
             10.1, "A zero-length generation with logprobs indexed an empty tensor in the sampler and crashed the "
                   "engine (SIGSEGV): one request could take the server down. Such requests are now rejected with "
                   "400 (and the sampler guards the empty case).", fixes="#46494",
             test="New tests for max_tokens=0 with logprobs/prompt_logprobs", result="Pass.",
             labels=("bug", "security", "ready"), merged=14.4, size=(40, 6, 3), react=4, talk=[
                 (14.1, "rkessler", "Approved; into 0.23.1.")]),
        pull(46465, "[Misc] Type hints for vllm/v1/spec_decode", "ruslan-b", 3.1,
             "Adds type hints to vllm/v1/spec_decode; no behaviour change.",
             size=(110, 80, 6)),
        issue(46500, "[Usage]: How does the DP load balancer pick a rank?", "mlops-tom", 10.6,
              usage("We see one DP rank much busier than others."), labels=("usage",)),
        pull(46501, "[KV Connector] NIXL v2: async handshake", "kvcache-lab", 10.8,
             "Makes the NIXL v2 handshake asynchronous so P/D instances start faster.",
             labels=("kv-connector",), size=(340, 120, 5)),
        pull(46502, "[Frontend] Deprecate the old tool parser names (`hermes2`, `mistral_v1`)", "noor-ali", 11.0,
             "Aliases warn; removal in v0.25.", labels=("frontend",), merged=21.8, size=(30, 4, 2)),
        issue(46503, "[Bug]: `--enable-lora` with `--pipeline-parallel-size 2` fails on TPU", "tpu-mhall", 11.3,
              bug("`--enable-lora` together with `--pipeline-parallel-size 2` on TPU v6e fails at startup with "
                  "`NotImplementedError: LoRA is not supported with pipeline parallelism on TPU`. Each works alone."),
              labels=("bug", "tpu")),
        pull(46504, "[Perf] Triton top-k sampler for large vocabularies", "amir-h", 11.5,
             "Faster top-k for 256k vocabularies.", test="Gemma 4 31B 1xH100", result="Sampler -40%, e2e +3%.",
             labels=("performance",), size=(180, 30, 2)),
        pull(46505, "[Doc] Security advisories page: GHSA-q3v8 and the 0.23.1 upgrade note", "mzheng-rh", 11.7,
             "Adds GHSA-q3v8 and the 0.23.1 upgrade note to the security advisories "
             "page.", labels=("documentation", "security"), merged=20.8, size=(40, 0, 1)),
        issue(46506, "[CI Failure]: tests/models/test_glm5.py OOMs on L4", "sbhatt-vllm", 12.0,
              ci_failure("tests/models/test_glm5.py", "OOM on L4 since the GLM-5.2 config change."),
              labels=("ci-failure",), closed=13.0, talk=[(13.0, "sbhatt-vllm", "Fixed by #46507.")]),
        pull(46507, "[CI] Move the GLM-5 test to the A100 pool", "sbhatt-vllm", 12.2,
             "Moves the GLM-5 test to the A100 pool; it runs out of memory on L4.",
             labels=("ci/build", "ready"), merged=12.9, size=(4, 4, 1)),
        pull(46508, "[Bugfix] Gemma 4 audio: fix the feature length for 16 kHz mono", "google-gemma-rs", 12.4,
             "Fixes an off-by-one frame in the Gemma 4 audio feature length for 16 kHz mono input.", size=(8, 2, 1)),
        pull(46509, "[Kernel] Tuned fused_moe configs for Mistral Medium 4 on H200 and B200", "mistral-pb", 12.55,
             "Adds tuned fused_moe configs for Mistral Medium 4 on H200 and B200.", size=(1400, 0, 4)),
        issue(46510, "[Bug]: OOM at startup with --max-model-len 2000000 on 8xB200", "sara-g", 12.7,
              bug("MiniMax-M3 with 2M context: CUDA out of memory during profiling."), labels=("bug",),
              talk=[(16.2, "bwtran", "The model supports 1M; 2M is beyond its config.")]),
        pull(46511, "Revert \"[Core] Remove the V1 model runner on CUDA\"", "raghav-s", 12.9,
             "Reverts the removal of the V1 model runner.", closed=13.6, size=(11840, 410, 96), talk=[
                 (13.3, "mgrant", "It isn't merged yet; let's keep the discussion in #46380."),
                 (13.6, "raghav-s", "Right, closing.")]),
        pull(46512, "[ROCm][CI] MI355X tests for the V2-only removal", "amdteam-ci", 13.1,
             "Runs the MI355X tests against the V2-only change.",
             labels=("rocm", "ci/build"), merged=19.5, size=(20, 4, 1)),
        issue(46513, "[Feature]: EAGLE-3 with LoRA adapters", "finetune-fan", 13.4, feature("Spec decode is disabled "
                                                                                           "with LoRA."),
              labels=("feature request",)),
        pull(46514, "[XPU][CI] Run the V1 tests on Arc Pro B60", "lzhang-xpu", 13.6,
             "Runs the V1 tests on Arc Pro B60.",
             labels=("intel-gpu", "ci/build"), size=(30, 4, 1)),
        pull(46515, "[Benchmark] Fix `--percentile-metrics` parsing", "jpark-ml", 13.8,
             "Fixes the parsing of `--percentile-metrics` in `vllm bench serve`.", size=(4, 2, 1)),
        issue(46516, "[Usage]: What's the difference between `vllm:num_requests_waiting` and `..._waiting_by_reason`?",
              "mlops-tom", 14.1, usage("Two metrics for the same thing?"), labels=("usage",)),
        pull(46517, "[Misc] Rename `SchedulerOutput` fields for clarity", "rzhang-infra", 14.3,
             "Renames SchedulerOutput fields for clarity; rename only.",
             size=(220, 220, 12)),
        pull(46518, "[Kernel] Grouped GEMM MoE for SM120 (RTX 5090, RTX PRO 6000)", "fp4-forge", 14.5,
             "A grouped GEMM MoE kernel for SM120 (RTX 5090, RTX PRO 6000).",
             test="Qwen3.6-35B-A3B-FP8 RTX 5090", result="+31% decode.", size=(720, 40, 6)),
        issue(46519, "[Doc]: XPU install page lists the wrong oneAPI version", "ella-ng", 14.8,
              doc_issue("It says 2025.1; the build needs 2025.3."), labels=("documentation",)),
        pull(46520, "[Bugfix] GLM-5.2 MTP: own indexer cache and dict slot mapping for the draft layer", "fzhou-ml",
             15.0,
             "Two bugs made GLM-5.2's MTP drafts useless (acceptance ~2%, GSM8K 0.01): the draft layer shared the "
             "target's last-layer indexer cache, and Model Runner V2 passed it the list-form slot mapping, so its "
             "KV went into the wrong blocks. The draft layer now gets its own indexer cache and the per-group slot "
             "mapping.", fixes="#46451",
             test="GSM8K with MTP on 8xH200 (TP8) and 2x8xH200 (DP16 EP); #46489",
             result="GSM8K 0.955 with MTP (0.957 without); acceptance 0.79.",
             labels=("bug", "speculative-decoding"), size=(96, 30, 4), react=7, talk=[
                 (19.9, "li-ming-ai", "Confirmed on 2 nodes (see #46451)."),
                 (21.2, "zai-lwen", "LGTM from the GLM side."),
             ]),
        pull(46521, "[Bugfix] GLM-5.2 MTP slot mapping", "sun-hao-ml", 15.2, "Convert the list to a dict.",
             closed=15.6, size=(6, 2, 1), talk=[
                 (15.6, "fzhou-ml", "Thanks! #46520 covers this and the indexer cache; closing.")]),
        issue(46522, "[RFC]: Scheduler policies as plugins", "rzhang-infra", 15.5, rfc(
            "Teams fork the scheduler to add policies (SLO-aware, fair share).",
            "Expose the policy interface from the refactor series as an entry point."),
              labels=("RFC",), talk=[
                  (17.9, "nikolai-s", "+1, we maintain a fork for SLO-aware scheduling."),
                  (19.0, "chenyu-z", "Let's wait until [4/N] lands."),
              ]),
        pull(46523, "[Doc] Typos in the spec decode docs", "chloe-w", 15.7,
             "Fixes typos in the speculative decoding docs.", labels=("documentation",),
             merged=21.0, size=(3, 3, 1)),
        pull(46524, "[Perf][CPU] Faster paged attention for the CPU backend on AMX", "akumar-intel", 15.9,
             "Faster paged attention for the CPU backend with AMX on Sapphire Rapids and later.",
             labels=("cpu",), size=(260, 60, 3)),
        pull(46525, "[Bugfix] LoRA with TP=4: shard the embedding adapters", "ethan-c", 16.05,
             "Shards the LoRA embedding adapters correctly with TP=4 (shape mismatch before).",
             merged=22.0, size=(20, 6, 1)),
        issue(46526, "[Installation]: ROCm wheel for 0.23.0 missing on the wheel index", "vivek-n", 16.2,
              installation("pip finds no rocm wheel for 0.23.0.", command="pip install vllm --extra-index-url ..."),
              labels=("installation", "rocm"), talk=[(18.9, "amdteam-ci", "Uploaded now, sorry.")]),
        pull(46527, "Bump the minor-and-patch group across 1 directory with 5 updates", "dependabot[bot]", 16.4, "",
             body=bump("pytest-dev/pytest", "9.1.1", "9.2.0"), labels=("dependencies",)),
        pull(46528, "[Model] Add Falcon-H2 (hybrid Mamba)", "xin-ma", 16.6,
             "Adds Falcon-H2 (7B and 34B), a hybrid Mamba model.",
             test="HF reference comparison", result="Match on 30 prompts.", labels=("new-model",),
             size=(640, 20, 6), talk=[(21.0, "hyeonwoo-k", "The Mamba layer should use the shared mixer.")]),
        pull(46529, "[Core] Preemption by priority (experiment)", "rohit-bh", 16.9,
             "An experiment with preempting requests by priority.", closed=17.2,
             size=(80, 10, 2), talk=[(17.2, "rohit-bh", "Wait for the scheduler plugin RFC, closing.")]),
        pull(46531, "[Refactor] Tool parsers: remove the legacy base class [6/N]", "shreya-ml", 17.1,
             "Last step; no change in outputs.", labels=("tool-calling", "ready"), merged=22.5,
             size=(90, 1320, 11)),
        issue(46532, "[Usage]: Gemma 4 audio input format?", "nadia-a", 17.3,
              usage("Which audio formats does Gemma 4 accept?"), labels=("usage",)),
        pull(46533, "[CI/Build] Docker: smaller runtime image (-1.8 GB)", "sbhatt-vllm", 17.6,
             "Drops build tools from the runtime stage.", labels=("ci/build",), size=(40, 30, 1)),
        pull(46534, "[Bugfix] /metrics: restore `model_name` on the latency histograms", "kwang-hw", 17.8,
             "Restores the `model_name` label on the latency histograms in /metrics, lost in "
             "0.23.", merged=21.6, size=(10, 4, 1)),
        pull(46535, "[CI/Build] TPU v7 nightly", "jwong-tpu", 18.0,
             "Adds a TPU v7 nightly job.", labels=("tpu", "ci/build"),
             size=(20, 2, 1)),
        issue(46536, "[Bug]: `vllm serve --help` shows `--kv-cache-dtype` choices twice", "ks-cho", 18.3,
              bug("`vllm serve --help` lists the `--kv-cache-dtype` choices twice (auto, bfloat16, fp8, ... then the "
                  "same list again). Cosmetic."), labels=("bug",)),
        pull(46537, "[Bugfix] Anthropic API: return `stop_sequence` in message_delta", "ethan-c", 18.5,
             "Returns `stop_sequence` in the Anthropic API's message_delta "
             "event.", labels=("frontend",), size=(8, 2, 1)),
        pull(46538, "new feature", "daniyar-t", 18.7, "", body="", closed=18.9, size=(300, 0, 2),
             talk=[(18.9, "dvolkov", "Closing: no description.")]),
        pull(46539, "[ROCm] MXFP4 dense GEMM on MI355X", "sjoshi-amd", 19.0,
             "MXFP4 dense GEMM on MI355X (gfx950) with AITER.",
             labels=("rocm",), size=(320, 30, 5), talk=[(22.1, "rvoss-amd", "Numbers on Llama-3.3-70B MXFP4?")]),
        pull(46540, "[Doc] Environment variables: the NCCL workaround", "patel-ankit", 19.2,
             "Documents the NCCL 2.28 workaround environment variable.",
             labels=("documentation",), merged=22.8, size=(12, 0, 1)),
        issue(46541, "[Feature]: Arm (Grace) CPU offloading for KV cache on GB200", "cloud-ml-ana", 19.4,
              feature("Use Grace memory for KV offload."), labels=("feature request",)),
        pull(46542, "[Doc] Fix the env var table formatting", "k-yamamoto", 19.55,
             "Fixes the formatting of the environment variable table.",
             labels=("documentation",), merged=23.0, size=(6, 6, 1)),
        pull(46543, "[Perf] Skip hashing for requests without prefix caching", "amir-h", 19.7,
             "Skips block hashing for requests when prefix caching is off.",
             labels=("performance",), size=(20, 4, 1), closed=21.4, talk=[
                 (21.4, "amir-h", "Turns out the hash is needed for the KV events too; closing.")]),
        pull(46544, "[Frontend] Deprecate `--enable-reasoning` (use `--reasoning-parser`)", "noor-ali", 19.9,
             "Deprecates `--enable-reasoning`; `--reasoning-parser` alone enables reasoning. Warns "
             "now.", labels=("frontend",), size=(12, 4, 2)),
        pull(46545, "[Test] Add tests for the Realtime VAD options", "hliu-vllm", 20.1,
             "Adds tests for the Realtime API's VAD options; tests only.", size=(80, 0, 1)),
        issue(46546, "[Usage]: Sizing KV cache for 500 concurrent 32k sessions", "fintech-llm-ops", 20.4,
              usage("How many H200s for Qwen3.6-27B?"), labels=("usage",)),
        pull(46547, "[Chore] Release notes draft for v0.23.1", "aurelien-m", 20.6,
             "Draft release notes for v0.23.1 (security fix, DP+EP hang fix, regressions).", merged=21.2,
             size=(60, 0, 1)),
        pull(46548, "[Kernel] Triton unified attention: FP8 KV on SM89", "raghav-s", 20.8,
             "FP8 KV cache in the Triton unified attention kernel on Ada (SM89).",
             size=(140, 20, 2)),
        pull(46549, "[Benchmark] Fix the random-mm dataset seed", "jpark-ml", 21.1,
             "Fixes the random-mm dataset ignoring `--seed` in `vllm bench serve`.", size=(2, 1, 1)),
        issue(46550, "[Bug]: Noisy 'Using max_num_batched_tokens=...' INFO log on every request", "lena-b", 21.3,
              bug("Since 0.23.0 every request logs `Using max_num_batched_tokens=8192 for chunked prefill` at INFO; "
                  "it used to be printed once at startup."), labels=("bug",)),
        pull(46551, "[CI] Pin the DeepEP v2 wheel", "sbhatt-vllm", 21.5,
             "Pins the DeepEP v2 wheel in the CI image.", labels=("ci/build", "ready"),
             merged=21.9, size=(1, 1, 1)),
        pull(46552, "[Doc] Update the supported hardware table", "patel-ankit", 21.8,
             "Updates the supported hardware table.",
             labels=("documentation",), size=(20, 12, 1)),
        pull(46553, "[Bugfix][CPU] Fix the CPU backend with chunked prefill and long prompts", "akumar-intel", 22.0,
             "Fixes an assertion in the CPU backend with chunked prefill and prompts over "
             "32k.", labels=("cpu",), size=(12, 3, 1)),
        pull(46554, "[Spec Decode] EAGLE-3: fix the draft position ids with prefix caching", "nikolai-s", 22.2,
             "Acceptance dropped after cache hits.", labels=("speculative-decoding",), size=(20, 6, 1)),
        pull(46555, "[Bugfix] Realtime API: close the session on client ping timeout", "hliu-vllm", 22.5,
             "Closes a Realtime session when the client stops answering pings (sessions leaked).", size=(14, 2, 1)),
        issue(46556, "[Usage]: Can I run Mistral Medium 4 on 4xH100?", "m-rossi", 22.7,
              usage("FP8 weights are ~250 GB."), labels=("usage",)),
        pull(46557, "[Misc] Remove the unused `vllm/profiler/layerwise_profile.py`", "vtomasz", 22.9,
             "Removes vllm/profiler/layerwise_profile.py, which looks unused.",
             size=(0, 380, 2), closed=23.5, talk=[
                 (23.5, "rzhang-infra", "It's used by the profiling guide's layerwise example; closing, thanks.")]),
        pull(46558, "[Benchmark] Add an agentic multi-turn dataset", "jpark-ml", 23.0,
             "Adds an agentic multi-turn dataset to `vllm bench serve`.",
             size=(220, 10, 3)),
        pull(46559, "[Bugfix] LoRA: fix adapter eviction order under memory pressure", "ethan-c", 23.2,
             "Evicts the least recently used LoRA adapter first under memory pressure (it evicted the newest).",
             size=(16, 6, 1)),
        pull(46560, "[ROCm] AITER FP8 MLA decode for Kimi-K2.5 on MI325X", "vkrish-amd", 23.4,
             "FP8 MLA decode with AITER for Kimi-K2.5 on MI325X (gfx942).",
             labels=("rocm",), size=(120, 20, 3)),
        pull(46561, "[CI] Retry the Docker Hub push", "sbhatt-vllm", 23.6,
             "Retries the Docker Hub push in the release job.", labels=("ci/build",),
             size=(6, 1, 1)),
        issue(46562, "[Bug]: Typo in the error message for an invalid `--reasoning-parser`", "chloe-w", 23.8,
              bug("Passing a wrong name to `--reasoning-parser` prints `Unkown reasoning parser` (typo) and does "
                  "not list the valid names."), labels=("bug",)),
    ]
    return HandDay("real-h-2026-06-23", datetime(2026, 6, 23, 3, 5, tzinfo=UTC), REAL_PEOPLE, items,
                   note="a Monday after a weekend: a runner removal fight, weekend reports, a security patch "
                        "release, many bots")


if __name__ == "__main__":
    raise SystemExit(main())
