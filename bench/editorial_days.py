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
    GeneratorDay("gen-s23-2025-10-22", 23, datetime(2025, 10, 22, 3, 5, tzinfo=UTC), 100, 400),
    GeneratorDay("gen-s37-2025-11-06", 37, datetime(2025, 11, 6, 3, 5, tzinfo=UTC), 85, 340),
    GeneratorDay("gen-s52-2025-11-16", 52, datetime(2025, 11, 16, 3, 5, tzinfo=UTC), 80, 300),  # a Sunday
    GeneratorDay("gen-s68-2025-12-17", 68, datetime(2025, 12, 17, 3, 5, tzinfo=UTC), 95, 380),
    GeneratorDay("gen-s90-2026-01-21", 90, datetime(2026, 1, 21, 3, 5, tzinfo=UTC), 90, 360),
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
        people = ", ".join(f"{login} ({role})" for login, role in commenters.items())
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


def hand_days() -> list[HandDay]:
    return []


if __name__ == "__main__":
    raise SystemExit(main())
