"""A deterministic synthetic GitHub tracker shaped like vllm-project/vllm (~100+ PRs a day).

``generate_repo`` returns the JSON that ``GET /repos/{o}/{r}/issues`` (issues and pull requests) and
``GET /repos/{o}/{r}/issues/comments`` would return for ``[end - days, end)``, plus older items that are
only commented on, closed or merged inside that window, and each pull request's details as ``GET
/repos/{o}/{r}/pulls/{n}`` adds them (``pulls``: additions, deletions, changed_files, commits,
review_comments, requested_reviewers; for ``FakeGitHub.add_pulls``). It feeds ``digest-bot demo`` (through the fake
GitHub), tests and benchmarks.

Realism is the point, to a reader who works on vLLM. Each item picks a hardware stack first, then what fits it
(``world.py``: AITER on MI300X/MI355X, FlashInfer/CUTLASS/FlashMLA on H100/H200/B200, MLA only for MLA models,
NVFP4 only on Blackwell, a model only where it fits), and its title, body and thread keep to that stack. Bodies
follow vLLM's templates (``texts.py``): a bug report's collect_env dump matches its hardware and its traceback ends
with the real error; a PR's Purpose says why and how, its Test Result has numbers. Fix PRs say ``Fixes #N`` for a
report filed earlier and GitHub closes the report when they merge; the report's thread points at the fix. Threads
follow roles: a maintainer triages, the reporter answers, others confirm on their hardware, a maintainer diagnoses
and points at the fix; hot threads argue and conclude; PR reviews ask, the author answers, then approval. Plus
vLLM's labels and bots, a heavy-tailed population of people, weekday and Asia/US working-hour rhythm, heavy-tailed
comment threads and reactions, a little CJK/RTL/emoji and a few adversarial strings, and words that merely
*contain* topic aliases ("command", "harmony", "output", "dpo") so topic matching is tested honestly.

Determinism: ``random.Random`` streams seeded from ``seed`` only (the population of people, everything else,
and, kept apart so that they leave the rest as it was, the day's showcase changes, the links between fixes and
reports, and each PR's details seeded with its number), no clock, no global random, no iteration over sets. Times
are whole UTC seconds kept as ints and formatted once. Every payload gets its own dicts (no shared nested objects),
at some memory cost: about 40 MiB for the default 14 days.
"""

from __future__ import annotations

import base64
import calendar
import math
import random
import re
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import accumulate
from typing import Generic, TypeVar

from bot.demo import texts as tx
from bot.demo.world import (
    SLOTS,
    Gpu,
    arch_words,
    backend_env,
    fill,
    gpu_of,
    model_of,
    other_gpu,
    pick_platform,
    platform_hint,
    presets,
    resolve,
    settle,
)

__all__ = ["SampleRepo", "generate_repo"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class SampleRepo:
    owner: str
    name: str
    issues: list[dict]  # GET /repos/{o}/{r}/issues objects (issues and PRs), sorted by number
    comments: list[dict]  # GET /repos/{o}/{r}/issues/comments objects, sorted by id
    pulls: list[dict] = field(default_factory=list)  # each PR's details (GET /pulls/{n} fields), by number

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    def shifted(self, delta: timedelta) -> SampleRepo:
        """The same sample moved ``delta`` in time: every item, text and relative time as it was (generating
        at another end would draw another world, the weekly rhythm being tied to the calendar)."""
        seconds = round(delta.total_seconds())
        if not seconds:
            return self
        return SampleRepo(self.owner, self.name, [_shift(p, seconds) for p in self.issues],
                          [_shift(p, seconds) for p in self.comments], [_shift(p, seconds) for p in self.pulls])


_TIME_KEYS = frozenset({"created_at", "updated_at", "closed_at", "merged_at"})


def _shift(payload: dict, seconds: int) -> dict:
    """A copy of a GitHub payload with its times (``_TIME_KEYS``, at any depth) ``seconds`` later."""
    out: dict = {}
    for key, value in payload.items():
        if isinstance(value, dict):
            value = _shift(value, seconds)
        elif key in _TIME_KEYS and isinstance(value, str):
            value = _iso(_epoch(value) + seconds)
        out[key] = value
    return out


def _epoch(iso: str) -> int:
    """``_iso``'s inverse (``YYYY-MM-DDTHH:MM:SSZ``), by hand: strptime is the slow part of a shift."""
    return calendar.timegm((int(iso[:4]), int(iso[5:7]), int(iso[8:10]), int(iso[11:13]), int(iso[14:16]),
                            int(iso[17:19]), 0, 0, 0))


# --------------------------------------------------------------------------------------------------------
# Topics: how often each shows up among PRs and issues (their words are in texts.py).

# Share of each topic (PR deck, issue deck). Every topic appears at least once per deck.
_TOPIC_WEIGHTS: dict[str, tuple[int, int]] = {
    "rocm": (6, 5), "cuda": (6, 4), "hardware": (5, 4), "quantization": (7, 5), "moe": (5, 3), "spec": (4, 3),
    "multimodal": (6, 6), "models": (9, 9), "kernels": (5, 2), "compile": (4, 3), "distributed": (6, 6),
    "frontend": (9, 8), "scheduler": (4, 3), "ci": (8, 3), "docs": (5, 2), "performance": (4, 4),
    "stability": (5, 14), "misc": (12, 3), "usage": (0, 8),
}

_DEPENDABOT = [
    ("actions/checkout", "4.2.2", "5.0.0"), ("actions/setup-python", "5.6.0", "6.0.0"),
    ("astral-sh/setup-uv", "6.4.3", "7.1.0"), ("softprops/action-gh-release", "2.3.2", "2.4.1"),
    ("actions/stale", "9.1.0", "10.1.0"), ("actions/github-script", "7.0.1", "8.0.0"),
    ("docker/build-push-action", "6.15.0", "6.18.0"), ("actions/upload-artifact", "4.6.2", "5.0.0"),
    ("helm/kind-action", "1.12.0", "1.13.0"), ("mergify/mergify-cli", "0.9.1", "0.10.0"),
]
_DEPENDABOT_BODY = (
    "Bumps [{dep}](https://github.com/{dep}) from {a} to {b}.\n<details>\n<summary>Release notes</summary>\n"
    "<p><em>Sourced from <a href=\"https://github.com/{dep}/releases\">{dep}'s releases</a>.</em></p>\n"
    "<blockquote>\n<h2>v{b}</h2>\n<ul>\n<li>Update dependencies</li>\n</ul>\n</blockquote>\n</details>\n\n"
    "[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score"
    "?dependency-name={dep}&package-manager=github_actions&previous-version={a}&new-version={b})]"
    "(https://docs.github.com/en/github/managing-security-vulnerabilities/about-dependabot-security-updates"
    "#about-compatibility-scores)\n\n"
    "Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself. "
    "You can also trigger a rebase manually by commenting `@dependabot rebase`."
)
_PRE_COMMIT_HOOKS = [
    ("astral-sh/ruff-pre-commit", "v0.13.3", "v0.14.1"),
    ("pre-commit/mirrors-clang-format", "v20.1.3", "v21.1.2"),
    ("codespell-project/codespell", "v2.4.0", "v2.4.1"), ("rhysd/actionlint", "v1.7.7", "v1.7.8"),
]

# --------------------------------------------------------------------------------------------------------
# Labels: (name, color, description). Title rules mimic vLLM's mergify auto-labeller.

_LABELS: list[tuple[str, str, str | None]] = [
    ("bug", "d73a4a", "Something isn't working"), ("feature request", "a2eeef", "New feature or request"),
    ("usage", "0e8a16", "How to use vllm"),
    ("documentation", "0075ca", "Improvements or additions to documentation"), ("ci/build", "bfd4f2", None),
    ("rocm", "ed1c24", "Related to AMD ROCm"), ("nvidia", "76b900", None),
    ("tpu", "4285f4", "Related to Google TPUs"), ("cpu", "c5def5", "Related to CPU backends"),
    ("x86-cpu", "c5def5", "Related to Intel & AMD CPU"), ("intel-gpu", "0071c5", "Related to Intel GPU"),
    ("ready", "0e8a16", "ONLY add when PR is ready to merge/full CI is needed"),
    ("stale", "ededed", "Over 90 days of inactivity"),
    ("performance", "fbca04", "Performance-related issues"),
    ("new-model", "5319e7", "Requests to new models"), ("speculative-decoding", "c2e0c6", None),
    ("structured-output", "d4c5f9", None), ("tool-calling", "bfdadc", None),
    ("multi-modality", "f9d0c4", "Related to multi-modality (#4194)"), ("v1", "1d76db", None),
    ("frontend", "5ab2f0", None), ("needs-rebase", "b60205", None),
    ("qwen", "6f42c1", "Related to Qwen models"), ("deepseek", "1f6feb", "Related to DeepSeek models"),
    ("llama", "0052cc", "Related to Llama models"), ("gpt-oss", "000000", "Related to GPT-OSS models"),
    ("quantization", "e99695", None), ("torch.compile", "ee4c2c", None), ("kv-connector", "c2e0c6", None),
    ("unstale", "0e8a16", "Recieved activity after being labelled stale"),
    ("good first issue", "7057ff", "Good for newcomers"), ("RFC", "fef2c0", None),
    ("installation", "e4e669", "Installation problems"),
    ("ci-failure", "b60205", "Issue about an unexpected test failure in CI"),
    ("dependencies", "0366d6", "Pull requests that update a dependency file"),
    ("keep-open", "0e8a16", "Prevents stale label being applied"),
]
_LABEL_IDS = {name: 5_000_000_000 + 7919 * i for i, (name, _, _) in enumerate(_LABELS)}

_LABEL_RULES: list[tuple[str, re.Pattern[str]]] = [  # lower-case patterns, matched against a lower-cased title
    (name, re.compile(rx))
    for name, rx in [
        ("qwen", r"qwen"),
        ("deepseek", r"deepseek"),
        ("llama", r"llama(?!\.cpp)"),
        ("gpt-oss", r"gpt-oss|harmony"),
        ("rocm", r"\b(amd|rocm|aiter|mi3\d\dx?|mi250x?|gfx\d+|hip|rdna\d?|radeon|rccl)\b"),
        ("nvidia", r"\b(nvidia|cuda(?! ?graph| error| out of)|cutlass|flashinfer|flashmla|deepgemm|blackwell|hopper|"
                   r"b200|gb200|b300|"
                   r"h100|h200|sm\d+|nvfp4)\b"),
        ("kv-connector", r"\bp/?d\b|nixl|lmcache|kv connector|mooncake"),
        ("tpu", r"\btpu\b|pallas"),
        ("cpu", r"\[cpu\]|cpu backend|\b(arm|aarch64|graviton\d?|neoverse)\b"),
        ("x86-cpu", r"\bx86\b|avx512"),
        ("intel-gpu", r"\bxpu\b|intel gpu|\barc (pro )?b\d+"),
        ("multi-modality", r"\b(vl|vlm|vision|image|images|video|audio|omni|multimodal|mm)\b|-vl|-omni"),
        ("speculative-decoding", r"spec decode|speculative|eagle|\bmtp\b|n-gram|suffix decoding|draft model"),
        ("structured-output", r"structured output|guided|xgrammar|json schema"),
        ("tool-calling", r"tool call|tool_call|tool parser"),
        ("frontend", r"\[frontend\]|openai|responses api|chat"),
        ("v1", r"\[v1\]|\bv1\b"),
        ("documentation", r"\[docs?\]"),
        ("ci/build", r"\[(ci|build|ci/build)\b"),
        ("performance", r"\[perf\]|\[benchmark\]|throughput|latency|ttft"),
        ("quantization", r"\[quantization\]|fp8|mxfp4|nvfp4|awq|gptq|int4|int8|quark|bitsandbytes|modelopt"),
        ("torch.compile", r"torch\.compile|cudagraph|cuda graph"),
        ("new-model", r"\[model\] (support|add)"),
    ]
]

_WELCOME = (
    "👋 Hi! Thank you for contributing to the vLLM project.\n\n"
    "💬 Join our developer Slack at https://slack.vllm.ai to discuss your PR in #pr-reviews, coordinate on "
    "features in #feat- channels, or join special interest groups in #sig- channels.\n\n"
    "Just a reminder: PRs would not trigger full CI run by default. Instead, it would only run "
    "`fastcheck` CI "
    "which starts running only a small and essential subset of CI tests to quickly catch errors. \n\n"
    "You ask your reviewers to trigger select CI tests on top of `fastcheck` CI. \n\n"
    "Once the PR is approved and ready to go, your PR reviewer(s) can run CI to test the changes "
    "comprehensively before merging.\n\n"
    "To run CI, PR reviewers can either: Add `ready` label to the PR or enable auto-merge.\n\n"
    "If you have any questions, please reach out to us on Slack at https://slack.vllm.ai.\n\n🚀"
)
_CONFLICT = (
    "This pull request has merge conflicts that must be resolved before it can be\n"
    "merged. Please rebase the PR, @{author}.\n\n"
    "https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/working-with-forks/"
    "syncing-a-fork"
)
_STALE_ISSUE = (
    "This issue has been automatically marked as stale because it has not had any activity within 90 days. "
    "It will be automatically closed if no further activity occurs within 30 days. Leave a comment if you "
    "feel this issue should remain open. Thank you!"
)
_STALE_ISSUE_CLOSE = (
    "This issue has been automatically closed due to inactivity. Please feel free to reopen if you feel it "
    "is still relevant. Thank you!"
)
_STALE_PR = (
    "This pull request has been automatically marked as stale because it has not had any activity within 90 "
    "days. It will be automatically closed if no further activity occurs within 30 days. Leave a comment if "
    "you feel this pull request should remain open. Thank you!"
)
_STALE_PR_CLOSE = (
    "This pull request has been automatically closed due to inactivity. Please feel free to reopen if you "
    "intend to continue working on it. Thank you!"
)
_GEMINI = (
    "## Summary of Changes\n\nHello @{author}, I'm Gemini Code Assist[^1]! I'm currently reviewing this pull "
    "request and will post my feedback shortly. In the meantime, here's a summary to help you and other "
    "reviewers quickly get up to speed!\n\n### Highlights\n\n* **{headline}**: {purpose}\n\n"
    "<details>\n<summary><b>Using Gemini Code Assist</b></summary>\n\nInvoke `/gemini review` for a code "
    "review.\n</details>\n\n[^1]: Review the [Privacy Notices](https://policies.google.com/privacy)."
)
_DOCS_PREVIEW = "Documentation preview: https://vllm--{number}.org.readthedocs.build/en/{number}/"

# --------------------------------------------------------------------------------------------------------
# People.

_FIRST = [
    "wei", "jun", "hao", "yang", "lei", "chen", "xin", "ming", "yu", "tao", "kai", "jie", "zhi", "bo", "rui",
    "feng", "qiang", "ying", "ran", "yue", "alex", "michael", "david", "chris", "daniel", "ryan", "kevin",
    "james", "nick", "tyler", "sam", "ben", "eric", "jason", "matt", "josh", "andrew", "tom", "luke", "adam",
    "sarah", "emily", "anna", "julia", "lisa", "maria", "nina", "olivia", "rachel", "sophia", "arjun",
    "rahul", "vikram", "aditya", "priya", "ananya", "rohan", "karthik", "siddharth", "nikhil", "minho",
    "jisoo", "hyun", "seung", "yuki", "kenji", "takeshi", "haruto", "lukas", "jonas", "felix", "max", "paul",
    "pierre", "lucas", "mateo", "diego", "ivan", "dmitry", "sergey", "oleg", "yusuf", "omar", "ali", "mehmet",
    "hamza", "noam", "amir",
]
_LAST = [
    "zhang", "wang", "li", "liu", "chen", "yang", "huang", "zhao", "wu", "zhou", "xu", "sun", "ma", "zhu",
    "hu", "guo", "he", "lin", "gao", "luo", "smith", "johnson", "brown", "lee", "miller", "davis", "garcia",
    "wilson", "anderson", "taylor", "thomas", "moore", "martin", "clark", "patel", "sharma", "gupta", "kumar",
    "singh", "reddy", "iyer", "rao", "nair", "kim", "park", "choi", "jung", "kang", "tanaka", "suzuki",
    "sato", "watanabe", "mueller", "schmidt", "fischer", "weber", "dubois", "rossi", "silva", "santos",
    "ivanov", "petrov", "kowalski", "novak", "cohen", "levi", "nguyen", "tran", "hoang", "ozturk",
]
_WORDS = [
    "dark", "light", "quick", "silent", "blue", "red", "cosmic", "lazy", "happy", "neural", "tensor", "deep",
    "bit", "byte", "pixel", "quantum", "async", "null", "cloud", "code", "data", "kernel", "token", "vector",
    "zero", "alpha", "nova", "hyper", "ultra", "turbo", "iron", "shadow", "storm", "sky", "river", "stone",
    "maple", "tiger", "panda", "fox", "wolf", "owl", "crab", "yak", "koala", "otter", "mango", "lemon",
]
_ORGS = ["amd", "nv", "intel", "ibm", "redhat", "google", "meta", "aws", "ms", "hw"]
# A hardware vendor's engineers and its shared team account, which opens real PRs (not a bot).
_VENDOR_LOGINS = ["hongxiayang-amd", "vllmellm", "kliuae-amd"]
# AMD Quark quantization PRs whose titles do not name the vendor or ROCm.
_BOTS = {
    # login: (id, association, app slug)
    "dependabot[bot]": (49699333, "CONTRIBUTOR", "dependabot"),
    "github-actions[bot]": (41898282, "NONE", "github-actions"),
    "mergify[bot]": (37929162, "NONE", "mergify"),
    "pre-commit-ci[bot]": (66853113, "CONTRIBUTOR", "pre-commit-ci"),
    "gemini-code-assist[bot]": (176961590, "NONE", "gemini-code-assist"),
}


@dataclass(slots=True)
class _User:
    login: str
    assoc: str
    payload: dict  # copied into every object that names this user


@dataclass(slots=True)
class _People:
    maintainers: list[_User]
    collaborators: list[_User]
    contributors: list[_User]
    first_timers: list[_User]
    others: list[_User]
    everyone: list[_User]
    bots: dict[str, _User]
    cum: dict[str, list[float]] = field(default_factory=dict)

    def pick(self, rng: random.Random, pool: str) -> _User:
        users: list[_User] = getattr(self, pool)
        return rng.choices(users, cum_weights=self.cum[pool])[0]


def _handle(rng: random.Random) -> str:
    f, last, w = rng.choice(_FIRST), rng.choice(_LAST), rng.choice(_WORDS)
    style = rng.randrange(12)
    if style == 0:
        return f + last
    if style == 1:
        return f.capitalize() + last.capitalize()
    if style == 2:
        return f"{f}-{last}"
    if style == 3:
        return f[0] + last + (str(rng.randrange(10)) if rng.random() < 0.3 else "")
    if style == 4:
        year = rng.randrange(80, 100) if rng.random() < 0.5 else rng.randrange(2000, 2011)
        return f"{f}{rng.choice(['', '0', '1', '9'])}{year}"
    if style == 5:
        return f"{w.capitalize()}{rng.choice(_WORDS).capitalize()}{rng.randrange(10, 10000)}"
    if style == 6:
        return last + f + (str(rng.randrange(100)) if rng.random() < 0.4 else "")
    if style == 7:
        return f"{f}_{last}"
    if style == 8:
        return f + last[0]
    if style == 9:
        return f"{w}-{rng.choice(_WORDS)}"
    if style == 10:
        return f"{f}{last}-{rng.choice(_ORGS)}"
    return f"{f[0]}{last}{rng.randrange(1, 100)}"


def _user_payload(login: str, uid: int, kind: str, api_url: str, html_url: str, slug: str = "") -> dict:
    bot = kind == "Bot"
    return {
        "login": login,
        "id": uid,
        "node_id": ("BOT_kgDO" if bot else "U_kgDO") + _b64(uid),
        "avatar_url": f"https://avatars.githubusercontent.com/{'in' if bot else 'u'}/{uid}?v=4",
        "url": f"{api_url}/users/{login}",
        "html_url": f"{html_url}/apps/{slug}" if bot else f"{html_url}/{login}",
        "type": kind,
        "user_view_type": "public",
        "site_admin": False,
    }


def _make_people(seed: int, api_url: str, html_url: str) -> _People:
    # Its own stream: the population is the same whatever the window size.
    rng = random.Random(f"digest-bot-people:{seed}")
    n = rng.randint(560, 680)
    logins: list[str] = []
    seen: set[str] = set()
    while len(logins) < n:
        login = _handle(rng)
        if login.lower() not in seen and len(login) <= 39:
            seen.add(login.lower())
            logins.append(login)
    sizes = {"maintainers": 14, "collaborators": 46, "contributors": 230, "first_timers": 110}
    groups: dict[str, list[_User]] = {}
    i = 0
    assoc = {"maintainers": "MEMBER", "collaborators": "COLLABORATOR", "contributors": "CONTRIBUTOR",
             "first_timers": "FIRST_TIME_CONTRIBUTOR"}
    for pool, size in [*sizes.items(), ("others", n - sum(sizes.values()))]:
        users = []
        for login in logins[i : i + size]:
            # Older accounts (smaller ids) are likelier among maintainers.
            hi = 60_000_000 if pool == "maintainers" else 240_000_000
            uid = rng.randrange(200_000, hi)
            payload = _user_payload(login, uid, "User", api_url, html_url)
            users.append(_User(login, assoc.get(pool, "NONE"), payload))
        groups[pool] = users
        i += size
    everyone = [u for pool in groups.values() for u in pool]
    bots = {
        login: _User(login, a, _user_payload(login, uid, "Bot", api_url, html_url, slug))
        for login, (uid, a, slug) in _BOTS.items()
    }
    people = _People(
        maintainers=groups["maintainers"], collaborators=groups["collaborators"],
        contributors=groups["contributors"], first_timers=groups["first_timers"], others=groups["others"],
        everyone=everyone, bots=bots,
    )
    # Zipf-like weights: a handful of people do most of the work.
    for pool, exponent in [("maintainers", 0.7), ("collaborators", 0.8), ("contributors", 0.9),
                           ("first_timers", 0.3), ("others", 0.6), ("everyone", 1.0)]:
        users = getattr(people, pool)
        people.cum[pool] = list(accumulate(1.0 / (r + 1) ** exponent for r in range(len(users))))
    return people


# --------------------------------------------------------------------------------------------------------
# Time. Ints are epoch seconds (UTC).

# UTC hours: Asia (China) working hours ~01-11, Europe ~07-16, US ~14-02.
_HOUR_W = (0.95, 1.05, 1.15, 1.15, 1.05, 0.95, 0.9, 0.95, 1.0, 0.9, 0.75, 0.6,
           0.55, 0.7, 0.95, 1.15, 1.3, 1.4, 1.4, 1.35, 1.25, 1.15, 1.05, 1.0)
_DOW_W = (1.15, 1.2, 1.2, 1.15, 1.0, 0.45, 0.5)  # Monday first
_ACT_MAX = max(_HOUR_W) * max(_DOW_W)
_DAY = 86_400
_HOUR = 3_600


def _activity(t: int) -> float:
    return _DOW_W[(t // _DAY + 3) % 7] * _HOUR_W[(t % _DAY) // _HOUR]


def _iso(t: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _b64(n: int) -> str:
    return base64.urlsafe_b64encode(n.to_bytes(8, "big")).decode().lstrip("A").rstrip("=")


class _Rhythm:
    """Draws times in [lo, hi) following the weekly/hourly rhythm: hour slots weighted by activity."""

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi
        self.starts: list[int] = []
        weights: list[float] = []
        s = lo - lo % _HOUR
        while s < hi:
            self.starts.append(s)
            weights.append(_activity(s) * (min(s + _HOUR, hi) - max(s, lo)) / _HOUR)
            s += _HOUR
        self.cum = list(accumulate(weights))

    def sample(self, rng: random.Random, k: int) -> list[int]:
        if k <= 0 or self.hi <= self.lo:
            return []
        out = []
        for s in rng.choices(self.starts, cum_weights=self.cum, k=k):
            a, b = max(s, self.lo), min(s + _HOUR, self.hi)
            out.append(a + rng.randrange(b - a))
        return out

    def one(self, rng: random.Random) -> int:
        return self.sample(rng, 1)[0]


def _time_in(rng: random.Random, lo: int, hi: int, shape: float = 1.0) -> int:
    """One time in [lo, hi), front-loaded when shape > 1, nudged towards busy hours."""
    span = hi - lo
    t = lo
    for _ in range(3):
        t = lo + min(span - 1, int(span * rng.random() ** shape))
        if rng.random() * _ACT_MAX < _activity(t):
            break
    return t


def _lognormal_delay(rng: random.Random, median_h: float, sigma: float, floor_s: int = 600) -> int:
    return max(floor_s, int(median_h * _HOUR * math.exp(rng.gauss(0.0, sigma))))


# --------------------------------------------------------------------------------------------------------
# Items.


@dataclass(slots=True)
class _Item:
    created: int
    is_pr: bool
    topic: str = ""
    old: str = ""  # "" for items opened in the window; else what happens to this older item in the window
    itype: str = ""  # issue template ("Bug", "Feature", ...); "" for PRs
    fail: str = ""  # failure family for logs ("hang", "crash", ...)
    special: str = ""  # "cjk", "rtl", "adversarial", "long", "emoji", "dependabot", "pre-commit", "plain"
    forced: bool = False
    hot: bool = False
    author: _User | None = None
    number: int = 0
    title: str = ""
    first_sentence: str = ""
    vars: dict[str, str] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    closed: int | None = None
    merged: int | None = None
    state_reason: str | None = None
    draft: bool = False
    locked: bool = False
    assignee: _User | None = None
    lo: int = 0  # human comments fall in [lo, hi)
    hi: int = 0
    shape: float = 1.6
    weight: float = 0.0
    closing_comment: bool = False
    conflict: bool = False
    size: str = ""  # what its diff looks like (_SIZES); "" = read from the title
    # (created, updated, user, body)
    comments: list[tuple[int, int, _User, str]] = field(default_factory=list)
    purpose: str = ""  # a PR's purpose template (texts.PRS), or an issue's fix-PR title template
    kept: bool = False  # retitled on purpose (showcase, vendor, fix, series): links leave it alone
    fixes: _Item | None = None  # the report a fix PR closes
    fixed_by: _Item | None = None  # the PR that fixes a report
    also_fixes: list[int] = field(default_factory=list)  # other reports of the same bug a fix PR closes
    follows: int = 0  # a PR series' previous part
    step: int = 0  # how far its thread has got (stages of texts' thread banks)
    asked: str = ""  # what the triaging maintainer or the reviewer asked for
    triager: _User | None = None  # the maintainer (or reviewer) who keeps answering in its thread



# Each day's showcase of key changes that ranking must get right (docs/editorial.md, "Key changes"): an internal
# removal that is not a breaking change, a refactor across four model families, a speed-up that quotes a
# figure, and a big new-model PR still in review. (title, size kind); the first day takes the first of each.
_SIZES: dict[str, tuple[float, float, float, float, float]] = {
    "typo": (3, 0.4, 1, 0.0, 0.5), "deps": (4, 0.5, 1, 0.3, 0.5), "cleanup": (14, 0.7, 1.5, 0.4, 0.15),
    "docs": (35, 0.9, 2, 0.5, 0.8), "ci": (30, 0.9, 2, 0.6, 0.6), "bugfix": (35, 0.9, 2, 0.6, 0.7),
    "perf": (160, 0.8, 4, 0.5, 0.7), "feature": (250, 0.9, 5, 0.6, 0.8), "kernel": (700, 0.8, 7, 0.5, 0.85),
    "model": (1100, 0.6, 9, 0.4, 0.92), "refactor": (450, 0.8, 14, 0.5, 0.5),
    "wide_refactor": (900, 0.4, 28, 0.25, 0.5), "other": (80, 1.0, 3, 0.7, 0.7),
    "new_model": (2400, 0.3, 12, 0.3, 0.93),  # a new architecture with its processor, tests and docs
}
_SIZE_RULES: list[tuple[str, re.Pattern[str]]] = [  # lower-case patterns, matched against a lower-cased title
    (kind, re.compile(rx)) for kind, rx in [
        ("typo", r"\btypos?\b"),
        ("cleanup", r"\bremove (useless|unused|dead|redundant|unnecessary)\b"),
        ("docs", r"^\[docs?\]"),
        ("ci", r"^\[(ci|build|ci/build)\b|\bbump\b"),
        ("model", r"\[(new )?model\]"),
        ("kernel", r"\[(kernel|attention)\]|\bkernels?\b"),
        ("refactor", r"\[refactor\]|\brefactor"),
        ("perf", r"\[perf\]|\bfaster\b|speed up"),
        ("bugfix", r"\[bugfix\]|^(\[[^\]]*\])*\s*fix\b"),
        ("feature", r"\[(feature|frontend|core|hardware|rocm|tpu|cpu|xpu|distributed|quantization)\]|"
                    r"\b(support|add|enable)\b"),
    ]
]

class _Deck(Generic[_T]):
    """Draws as a shuffled deck (topics, a topic's templates), so each shows up a few times even in small
    samples."""

    def __init__(self, rng: random.Random, weights: dict[_T, int]) -> None:
        self._rng = rng
        self._cards = [t for t, w in weights.items() for _ in range(w)]
        self._pos = len(self._cards)
        self._order: list[_T] = []

    def draw(self) -> _T:
        if self._pos >= len(self._order):
            self._order = self._cards[:]
            self._rng.shuffle(self._order)
            self._pos = 0
        card = self._order[self._pos]
        self._pos += 1
        return card


# How contributors tell apart PRs and reports on the same subject (titles are kept unique).
_TAGS_RE = re.compile(r"^(?:\[[^\]]*\]\s*)+")
_PREFIX_RE = re.compile(r"^(?:\[[^\]]*\]:?\s*)+")
_SLOT_RE = re.compile(r"\{(\w+)\}")
_VARIANT_RE = re.compile(r"\[\d+/N\]|\(part \d\)|\(follow-up to #|^\[WIP\]")
# PR titles whose words the topic tests rely on (hard negatives, rare aliases): never retitled by a link.
_ANCHOR_RE = re.compile(r"llama\.cpp|relationship|on-chip|harmony|DPO|array|command line|FA3|RDNA|block manager|"
                        r"websocket|Gaudi|Neuron|flash-attention|[Gg]uided decoding")
# Topics whose items are about one vendor's stack whatever their words say.
_ROUTINE = frozenset({"docs", "ci", "deps", "typo", "cleanup"})
_USER_FACING = frozenset({"feature", "perf", "kernel", "model", "new_model"})
_RECENT = ("v0.11.0", "v0.11.1", "v0.11.2", "v0.11.2", "v0.12.0rc1", "nightly")
_TOPIC_PLATFORM = {"rocm": "amd", "cuda": "nvidia", "hardware": "cpu"}
_ISSUES = {**tx.ISSUES, "stability": [*(e for group in tx.STABILITY.values() for e in group), *tx.STABILITY_EXTRA]}
# Thread stages (texts.py has each stage's lines): reports, questions and requests, pull requests.
_BUG_STAGES = ("triage", "answer", "confirm", "diagnose", "fix", "verify")
_HOT_BUG_STAGES = ("triage", "answer", "confirm", "diagnose", "confirm", "argue", "fix", "verify")
_ASK_STAGES = ("ask", "answer", "confirm")
_HOT_ASK_STAGES = ("ask", "answer", "confirm", "argue")
_PR_STAGES = ("review", "answer", "reporter", "approve", "ci", "merge")


class _Generator:
    def __init__(self, *, owner: str, name: str, end: datetime, days: int, items_per_day: int,
                 comments_per_day: int, seed: int, api_url: str, html_url: str) -> None:
        if end.tzinfo is None or end.utcoffset() is None:
            raise ValueError("end must be a timezone-aware datetime")
        if days < 0 or items_per_day < 0 or comments_per_day < 0:
            raise ValueError("days, items_per_day and comments_per_day must be >= 0")
        self.owner, self.name = owner, name
        self.api = api_url.rstrip("/")
        self.html = html_url.rstrip("/")
        self.repo_api = f"{self.api}/repos/{owner}/{name}"
        self.repo_html = f"{self.html}/{owner}/{name}"
        # Whole seconds strictly before `end`; the window starts `days` earlier.
        end_f = end.timestamp()
        self.end = math.ceil(end_f)  # every time t satisfies t < self.end, hence t < end
        self.last = self.end - 1
        self.start = math.ceil((end - timedelta(days=days)).timestamp())
        self.days = days
        self.items_per_day = items_per_day
        self.comments_per_day = comments_per_day
        self.seed = seed
        self.rng = random.Random(seed)
        self.people = _make_people(seed, self.api, self.html)
        self.items: list[_Item] = []
        self.rhythm = _Rhythm(self.start, self.end)
        self.seen_titles: set[str] = set()  # membership only, never iterated (determinism)
        self._roles: dict[tuple[int, str], _User] = {}  # who argues which side of a hot thread
        self._decks: dict[tuple[str, str], _Deck[int]] = {}  # each topic's templates, dealt in turn
        self._fix_titles: dict[str, _Item] = {}  # fix PRs by title (a bug reported twice has one fix)

    # ---- plan: which items exist, when, and what kind ------------------------------------------------

    def plan(self) -> None:
        rng = self.rng
        n_window = round(self.days * self.items_per_day)
        times = sorted(self.rhythm.sample(rng, n_window))
        pr_deck = _Deck(rng, {t: w[0] for t, w in _TOPIC_WEIGHTS.items() if w[0]})
        issue_deck = _Deck(rng, {t: w[1] for t, w in _TOPIC_WEIGHTS.items() if w[1]})
        for t in times:
            is_pr = rng.random() < 0.6
            item = _Item(created=t, is_pr=is_pr)
            item.topic = pr_deck.draw() if is_pr else issue_deck.draw()
            self.items.append(item)
        self._bot_prs()
        self._force_daily_stability()
        self._specials()
        self._old_items(n_window)
        self.items.sort(key=lambda it: it.created)

    def _bot_prs(self) -> None:
        """dependabot (weekly, Monday early UTC) and pre-commit.ci (weekly) PRs, replacing random PR slots."""
        rng = self.rng
        day0 = self.start - self.start % _DAY
        extra: list[_Item] = []
        for day in range(day0, self.end, _DAY):
            if (day // _DAY + 3) % 7 != 0:  # Mondays only
                continue
            for _ in range(rng.choice((2, 2, 3, 3, 4))):
                t = day + rng.randrange(1 * _HOUR, 5 * _HOUR)
                if self.start <= t < self.end:
                    extra.append(_Item(created=t, is_pr=True, topic="ci", special="dependabot"))
            t = day + rng.randrange(16 * _HOUR, 17 * _HOUR)
            if self.start <= t < self.end:
                extra.append(_Item(created=t, is_pr=True, topic="ci", special="pre-commit"))
        # Keep the requested total: bot PRs take the place of human ones.
        prs = [i for i, it in enumerate(self.items) if it.is_pr]
        drop = set(rng.sample(prs, min(len(extra), len(prs))))
        self.items = [it for i, it in enumerate(self.items) if i not in drop] + extra

    def _force_daily_stability(self) -> None:
        """Every day gets fresh reports of a hang, a crash, a regression and wrong output; some go hot."""
        rng = self.rng
        by_day: dict[int, list[_Item]] = {}
        for it in self.items:
            if not it.is_pr and not it.special:
                by_day.setdefault(it.created // _DAY, []).append(it)
        for day in sorted(by_day):
            issues = by_day[day]
            chosen = rng.sample(issues, min(len(issues), len(tx.STABILITY_ORDER)))
            for family, it in zip(tx.STABILITY_ORDER, chosen, strict=False):
                it.topic = "stability"
                it.fail = family  # resolved to a template in _titles
                it.forced = True
            if chosen and rng.random() < 0.7:
                rng.choice(chosen).hot = True

    def _specials(self) -> None:
        rng = self.rng
        n = len(self.items)
        pool = [it for it in self.items if not it.special and not it.forced]
        issues = [it for it in pool if not it.is_pr]

        def mark(cands: list[_Item], k: int, tag: str) -> None:
            free = [it for it in cands if not it.special]
            for it in rng.sample(free, min(k, len(free))):
                it.special = tag

        mark(issues, round(len(issues) * 0.025), "cjk")
        mark(issues, n // 1500 + (1 if n >= 300 else 0), "rtl")
        mark(pool, n // 500 + (1 if n >= 100 else 0), "adversarial")  # ~0.2%, well under 1%
        for it in self.items:
            if it.special == "adversarial":  # the title decides whether it is an issue or a PR
                fresh = [t for t in tx.ADVERSARIAL_TITLES if t not in self.seen_titles]
                it.title = rng.choice(fresh or tx.ADVERSARIAL_TITLES)
                self.seen_titles.add(it.title)
                it.is_pr = "]: " not in it.title
                if not it.is_pr:
                    it.itype = "Bug" if it.title.startswith("[Bug]") else "Usage"
        mark(pool, n // 300, "long")
        mark(pool, round(n * 0.015), "emoji")
        mark(issues, round(len(issues) * 0.02), "plain")  # filed without a template

    def _old_items(self, n_window: int) -> None:
        """Older items that only see activity (comments, close, merge, stale bot) inside the window."""
        rng = self.rng
        if self.days <= 0:
            return
        kinds = [("merge", 0.33), ("close_pr", 0.07), ("active_pr", 0.18), ("hot_issue", 0.09),
                 ("close_issue", 0.13), ("active_issue", 0.12), ("stale_mark", 0.04), ("stale_close", 0.04)]
        names = [k for k, _ in kinds]
        cum = list(accumulate(w for _, w in kinds))
        n_old = round(n_window * 0.12)
        issue_deck = _Deck(rng, {t: w[1] for t, w in _TOPIC_WEIGHTS.items() if w[1]})
        pr_deck = _Deck(rng, {t: w[0] for t, w in _TOPIC_WEIGHTS.items() if w[0]})
        for kind in rng.choices(names, cum_weights=cum, k=n_old):
            if kind.startswith("stale"):
                # Created long ago, quiet for 90+ days: the stale bot acts in the window.
                is_pr = rng.random() < 0.25
                created = self.start - rng.randrange(125 * _DAY, 420 * _DAY)
            else:
                is_pr = kind in ("merge", "close_pr", "active_pr")
                created = self.start - int(_DAY * (0.2 + 59.8 * rng.random() ** 1.6))
            created = _time_in(rng, created - _HOUR, created + _HOUR)
            it = _Item(created=created, is_pr=is_pr, old=kind)
            it.topic = pr_deck.draw() if is_pr else issue_deck.draw()
            if kind == "hot_issue":
                it.hot = True
                if rng.random() < 0.6:
                    it.topic = "stability"
                    it.fail = rng.choice(tx.STABILITY_ORDER)
            self.items.append(it)

    # ---- numbers, titles, people, lifecycle --------------------------------------------------------

    def number(self) -> None:
        rng = self.rng
        window = [it for it in self.items if not it.old]
        old = [it for it in self.items if it.old]
        first = max(24_000 + rng.randrange(4_000), 2 * len(old) + 1_000)
        # Older items: numbers fall with age at a rate that keeps them positive.
        oldest = min((it.created for it in old), default=self.start)
        rate = min(max(self.items_per_day, 1), 0.8 * first * _DAY / max(_DAY, self.start - oldest))
        n = first
        for it in window:
            n += 1 if rng.random() > 0.02 else 2  # deleted spam / transferred issues leave gaps
            it.number = n
        prev = first
        for it in sorted(old, key=lambda x: -x.created):
            candidate = first - max(1, int(rate * (self.start - it.created) / _DAY))
            prev = max(1, min(candidate, prev - 1))
            it.number = prev
        self.items.sort(key=lambda x: x.number)
        self.max_number = max((it.number for it in self.items), default=first)
        self.issue_numbers = [it.number for it in self.items if not it.is_pr]
        self.pr_numbers = [it.number for it in self.items if it.is_pr]

    def _dyn(self, it: _Item) -> Callable[[str], str]:
        rng = self.rng

        def dyn(key: str) -> str:
            if key == "ref":
                lo = max(1, it.number - 1500)
                hi = max(lo, min(self.max_number, it.number + 400))
                return str(rng.randint(lo, hi))
            if key == "gpu_any":  # each "+1" names its own hardware
                return other_gpu(rng, it.vars)
            if key == "version_any":
                return rng.choice(_RECENT)
            if key == "later_pr":  # a PR of the sample opened after this item
                k = bisect_left(self.pr_numbers, it.number + 1)
                pool = self.pr_numbers[k:k + 300]
                return str(rng.choice(pool)) if pool else str(min(self.max_number, it.number + 1))
            return self.people.pick(rng, "maintainers").login

        return dyn

    def describe(self) -> None:
        """Titles, authors, labels, lifecycle and comment windows for every item."""
        for it in self.items:
            self._author(it)
            self._title(it)
            self._lifecycle(it)
            self._labels(it)
        self._showcase()

    def _showcase(self) -> None:
        """Each whole day of the window gets ``texts.SHOWCASE``'s four key changes, on PRs the day already has (their
        own stream of random numbers: everything else stays as it was)."""
        rng = random.Random(f"showcase:{self.seed}")
        human_prs = [it for it in self.items if it.is_pr and not it.old and not it.special and not it.kept]
        for day, day_start in enumerate(range(self.start, self.end - _DAY + 1, _DAY)):
            day_end = day_start + _DAY
            merged = [it for it in human_prs if it.merged is not None and day_start <= it.merged < day_end]
            opened = [it for it in human_prs
                      if it.closed is None and not it.draft and day_start <= it.created < day_end - 4 * _HOUR]
            if len(merged) < 3 or not opened:
                continue
            picks = rng.sample(merged, 3)
            for it, group in zip(picks, ("cleanup", "wide", "perf"), strict=True):
                self._retitle(it, group, day, rng)
            big = rng.choice(opened)
            self._retitle(big, "model", day, rng)
            big.weight = max(big.weight, rng.uniform(8.0, 14.0))  # reviewers at work: comments in the window

    def _retitle(self, it: _Item, group: str, day: int, rng: random.Random) -> None:
        entries = tx.SHOWCASE[group]
        template, size, purpose = entries[day % len(entries)]
        it.vars = {"author": it.vars["author"]}
        self._prepare(it.vars, template, "performance" if group == "perf" else "models", "", rng)
        base = title = fill(template, rng, it.vars, self._dyn(it))
        new = it.vars.get("awaited_model") or it.vars.get("awaited_vlm")
        if new:  # its body talks about the new checkpoint, not one the catalogue has
            it.vars["new_model"] = new
            it.vars["model"] = _hf_guess(new)
            it.vars["model_name"] = new
        part = 1
        while title in self.seen_titles:  # a later day's take on the same change ("[2/N]"); never "- cleanup"
            part += 1
            title = f"{base} [{part}/N]"
        self.seen_titles.add(title)
        it.title, it.size, it.purpose, it.kept = title, size, purpose, True
        low = title.lower()
        labels = [name for name, rx in _LABEL_RULES if rx.search(low)]
        it.labels = list(dict.fromkeys([*labels, *(["ready"] if it.merged is not None else [])]))

    def _author(self, it: _Item) -> None:
        rng, p = self.rng, self.people
        if it.special == "dependabot":
            it.author = p.bots["dependabot[bot]"]
        elif it.special == "pre-commit":
            it.author = p.bots["pre-commit-ci[bot]"]
        elif it.is_pr:
            pool = rng.choices(["maintainers", "collaborators", "contributors", "first_timers"],
                               cum_weights=[0.2, 0.48, 0.88, 1.0])[0]
            it.author = p.pick(rng, pool)
        else:
            pool = rng.choices(["others", "first_timers", "contributors", "collaborators", "maintainers"],
                               cum_weights=[0.56, 0.66, 0.86, 0.95, 1.0])[0]
            it.author = p.pick(rng, pool)
        it.vars["author"] = it.author.login

    def _title(self, it: _Item) -> None:
        rng = self.rng
        dyn = self._dyn(it)
        if it.special == "dependabot":
            fresh = [d for d in _DEPENDABOT if f"Bump {d[0]} from {d[1]} to {d[2]}" not in self.seen_titles]
            dep, a, b = rng.choice(fresh or _DEPENDABOT)
            it.title = f"Bump {dep} from {a} to {b}"
            self.seen_titles.add(it.title)
            it.vars.update(dep=dep, dep_a=a, dep_b=b)
            return
        if it.special == "pre-commit":
            it.title = "[pre-commit.ci] pre-commit autoupdate"
            return
        if it.special in ("cjk", "rtl"):
            entries = tx.CJK_ISSUES if it.special == "cjk" else tx.RTL_ISSUES
            unused = [e for e in entries if tx.ISSUE_PREFIX[e[0]] + e[1] not in self.seen_titles]
            kind, text, sentence, stack = rng.choice(unused or entries)
            title = tx.ISSUE_PREFIX[kind] + text
            if not unused:
                title += f" ({rng.choice(SLOTS['version'])})"
            self.seen_titles.add(title)
            it.itype, it.title, it.first_sentence = kind, title, sentence
            it.vars.update(stack)
            model = model_of(stack.get("model_name", ""))
            if model is not None:
                it.vars["model"] = model.hf
            it.fail = "hang" if "卡" in text else "wrong" if ("乱码" in text or "文字化け" in text) else ""
            return
        if it.special == "adversarial":  # title chosen in _specials
            it.vars["platform"] = pick_platform(rng)
            it.purpose = tx.ADVERSARIAL_PURPOSES.get(it.title, "")
            return
        # Real trackers rarely repeat a title exactly: retry with fresh slots, then vary it the way
        # contributors do ("[2/N]", "(part 2)", "on v0.11.2").
        v: dict[str, str] = {}
        title = kind = sentence = fail = extra = ""
        for attempt in range(8):
            v = {"author": it.vars["author"]}
            title, kind, sentence, fail, extra = self._draw_title(it, v, dyn)
            if attempt >= 3 and (it.is_pr or kind in ("Bug", "Performance", "Installation")):
                title = self._vary(title, it.is_pr, v, dyn)
            if title not in self.seen_titles:
                break
        self.seen_titles.add(title)
        it.vars = v
        it.purpose = extra
        if it.is_pr:
            if it.special == "emoji":
                emoji = rng.choice(tx.EMOJI)
                title = f"{title} {emoji}" if rng.random() < 0.7 else f"{emoji} {title}"
            elif it.special == "long":
                title += (" and also handle the case where the model config has no rope_scaling, the"
                          " tokenizer has extra special tokens, and the request sets both max_tokens and"
                          " max_completion_tokens (follow-up to the review comments)")
            elif rng.random() < 0.06:
                title = _TAGS_RE.sub("", title)  # some contributors skip the tags
            elif rng.random() < 0.04:
                title = "[WIP] " + title
            it.title = title
            return
        it.itype, it.fail, it.first_sentence = kind, fail, sentence
        if it.special == "emoji":
            title = f"{title} {rng.choice(tx.EMOJI)}"
        elif it.special == "long":
            title += (" when running with tensor parallel, prefix caching and chunked prefill all enabled"
                      " on a multi-node Kubernetes deployment behind an nginx ingress (works fine on a"
                      " single node)")
        if it.special == "plain":
            it.title = title[0].lower() + title[1:] if rng.random() < 0.5 else title
            it.itype = ""
        else:
            it.title = tx.ISSUE_PREFIX[kind] + title

    def _draw_title(
        self, it: _Item, v: dict[str, str], dyn: Callable[[str], str]
    ) -> tuple[str, str, str, str, str]:
        """(title without issue prefix, issue template, first sentence, failure kind, purpose or fix title)."""
        rng = self.rng
        if it.is_pr:
            prs = tx.PRS[it.topic]
            template, purpose = prs[self._template(("pr", it.topic), prs)]
            it.kept = bool(_ANCHOR_RE.search(template))
            self._prepare(v, template, it.topic, "", rng)
            title = fill(template, rng, v, dyn)
            tags = _TAGS_RE.match(title)
            rest = title[tags.end():] if tags else title
            # vLLM titles often stack tags: [Bugfix][Kernel] ..., [V1][Core] ...
            if tags and "][" not in tags.group(0):
                if rest.startswith("Fix ") and "Bugfix" not in tags.group(0) and rng.random() < 0.5:
                    title = "[Bugfix]" + title
                elif it.topic in ("scheduler", "spec", "misc", "compile") and rng.random() < 0.25:
                    title = "[V1]" + title
            return title, "", "", "", purpose
        if it.topic == "stability" and it.fail in tx.STABILITY:
            entries = tx.STABILITY[it.fail]
            kind, text, sentence, fail, fix = entries[self._template(("stability", it.fail), entries)]
        else:
            entries = _ISSUES[it.topic]
            kind, text, sentence, fail, fix = entries[self._template(("issue", it.topic), entries)]
        self._prepare(v, f"{text} {sentence}", it.topic, fail, rng)
        title = fill(text, rng, v, dyn)
        return title, kind, fill(sentence, rng, v, dyn) if sentence else "", fail, fix

    def _template(self, key: tuple[str, str], entries: list) -> int:
        """Which of a topic's templates comes next: a shuffled deck, so each shows up before any repeats (and the
        ones with slots, which can say new things, come up three times as often)."""
        deck = self._decks.get(key)
        if deck is None:
            weights = {i: 3 if "{" in entry[0 if key[0] == "pr" else 1] else 1 for i, entry in enumerate(entries)}
            deck = self._decks[key] = _Deck(self.rng, weights)
        return deck.draw()

    def _vary(self, title: str, is_pr: bool, v: dict[str, str], dyn: Callable[[str], str]) -> str:
        rng = self.rng
        options = tx.PR_VARIANTS if is_pr else tx.ISSUE_VARIANTS
        # Never restate a slot the title already names ("on v0.11.2 on v0.11.2").
        usable = [t for t in options if not any(k in v for k in _SLOT_RE.findall(t))]
        if not usable:
            return title
        return title + fill(rng.choice(usable), rng, {**v, "n": str(rng.randint(2, 5))}, dyn)

    def _lifecycle(self, it: _Item) -> None:
        rng = self.rng
        end = self.end
        if it.old:
            self._old_lifecycle(it)
            return
        if it.is_pr:
            u = rng.random()
            if it.special == "dependabot":
                u = rng.choice((0.1, 0.1, 0.1, 0.1, 0.1, 0.7, 0.9))
            elif it.special == "pre-commit":
                u = rng.choice((0.1, 0.75))
            if u < 0.66:
                # Routine bot bumps get merged within hours; human PRs take hours to days.
                median_h = 5 if it.special in ("dependabot", "pre-commit") else 20
                t = it.created + _lognormal_delay(rng, median_h, 1.25, 1200)
                if t < end:
                    t = _time_in(rng, t, min(end, t + 3 * _HOUR))
                    it.merged = it.closed = t
            elif u < 0.80:
                t = it.created + _lognormal_delay(rng, 40, 1.3, 300)
                if t < end:
                    it.closed = t
                    it.draft = rng.random() < 0.15
            else:
                it.draft = rng.random() < 0.14 or it.title.startswith("[WIP]")
        else:
            p_done, p_not = {
                "Bug": (0.3, 0.07), "Usage": (0.3, 0.06), "Feature": (0.12, 0.06), "RFC": (0.1, 0.02),
                "New Model": (0.15, 0.05), "Doc": (0.4, 0.05), "Installation": (0.3, 0.08),
                "CI Failure": (0.55, 0.05), "Performance": (0.2, 0.05),
            }.get(it.itype, (0.2, 0.1))
            u = rng.random()
            if u < p_done + p_not:
                t = it.created + _lognormal_delay(rng, 50, 1.4, 900)
                if t < end:
                    it.closed = _time_in(rng, t, min(end, t + 3 * _HOUR))
                    it.state_reason = "completed" if u < p_done else "not_planned"
                    it.closing_comment = rng.random() < 0.65
        # Human comments: front-loaded burst after creation; hot threads run a day or two, a few for days.
        if it.hot:
            span = (6 * _HOUR, 40 * _HOUR) if rng.random() < 0.7 else (2 * _DAY, 6 * _DAY)
            dur = rng.randrange(*span)
        else:
            dur = min(20 * _DAY, _lognormal_delay(rng, 8, 1.3, 1800))
        it.lo = it.created + rng.randint(60, 900)
        it.hi = min(end, it.lo + dur)
        if it.closed is not None:
            if rng.random() < 0.85:
                it.hi = min(it.hi, it.closed + 1)
            else:  # discussion continues after the close
                it.hi = min(end, max(it.hi, it.closed + rng.randrange(600, 3 * _DAY)))
        it.weight = self._base_weight(it) * max(0.08, min(1.0, (it.hi - it.lo) / dur)) ** 0.6
        if it.hi - it.lo < 60:
            it.weight = 0.0
        # Conflicts show up on PRs that stay open a while.
        if it.is_pr and not it.special and rng.random() < 0.12:
            it.conflict = True

    def _old_lifecycle(self, it: _Item) -> None:
        rng = self.rng
        start, end = self.start, self.end
        kind = it.old
        if kind in ("merge", "close_pr", "close_issue"):
            t = self.rhythm.one(rng)
            it.closed = t
            if kind == "merge":
                it.merged = t
            elif kind == "close_issue":
                it.state_reason = "completed" if rng.random() < 0.8 else "not_planned"
                it.closing_comment = rng.random() < 0.7
            lo = max(start, t - _lognormal_delay(rng, 10, 1.0, 1800))
            hi = min(end, t + 1 if rng.random() < 0.85 else t + rng.randrange(600, _DAY))
            it.shape = 0.8
        elif kind in ("active_pr", "active_issue", "hot_issue"):
            hot = kind == "hot_issue"
            r = self.rhythm.one(rng)
            if hot:  # leave a hot thread room to be hot
                r = max(start, min(r, end - 8 * _HOUR))
            dur = rng.randrange(8 * _HOUR, 3 * _DAY) if hot else _lognormal_delay(rng, 6, 1.2, 1800)
            lo, hi = r, min(end, r + dur)
            if kind == "hot_issue" and rng.random() < 0.3:
                it.closed = min(end - 1, hi + rng.randrange(60, 6 * _HOUR))
                it.state_reason = "completed"
                it.closing_comment = True
            it.conflict = kind == "active_pr" and rng.random() < 0.3
        else:  # stale_mark / stale_close: only the stale bot acts in the window
            lo = hi = start
        it.lo, it.hi = lo, hi
        if kind == "hot_issue":
            it.weight = rng.uniform(15, 60)
        elif hi - lo >= 60:
            it.weight = max(0.6, self._base_weight(it))
        it.draft = kind == "active_pr" and rng.random() < 0.1

    def _base_weight(self, it: _Item) -> float:
        """Expected human comments before scaling: most items 0-3, a tail of busy ones, a few hot threads."""
        rng = self.rng
        if it.hot:
            return rng.uniform(15, 60)
        if it.special in ("dependabot", "pre-commit"):
            return 0.0 if rng.random() < 0.8 else 1.0
        u = rng.random()
        if u < 0.33:
            w = 0.0
        elif u < 0.73:
            w = rng.uniform(1.0, 2.5)
        elif u < 0.91:
            w = rng.uniform(3.0, 6.0)
        elif u < 0.985:
            w = rng.uniform(7.0, 14.0)
        else:
            it.hot = True
            w = rng.uniform(15.0, 45.0)
        factor = {"RFC": 2.0, "New Model": 1.4, "Usage": 0.8, "Doc": 0.5}.get(it.itype, 1.0)
        if it.topic == "stability":
            factor *= 1.5
        if it.topic == "docs":
            factor *= 0.6
        return w * factor

    def _labels(self, it: _Item, rng: random.Random | None = None) -> None:
        rng = rng or self.rng
        labels: list[str] = []
        if it.special == "dependabot":
            labels = ["dependencies", "ci/build"]
        elif it.special == "pre-commit":
            labels = ["ci/build"]
        else:
            if not it.is_pr and it.itype in tx.ISSUE_TEMPLATE_LABEL:
                labels.append(tx.ISSUE_TEMPLATE_LABEL[it.itype])
            p = 0.9 if it.is_pr else 0.35
            low = it.title.lower()
            for name, rx in _LABEL_RULES:
                if name not in labels and rx.search(low) and rng.random() < p:
                    labels.append(name)
            if it.is_pr:
                if it.topic in ("misc", "scheduler", "spec", "stability", "compile") and rng.random() < 0.5:
                    labels.append("v1")
                merged_ready = it.merged is not None and rng.random() < 0.75
                if merged_ready or (it.closed is None and rng.random() < 0.12):
                    labels.append("ready")
            elif it.itype == "Feature" and rng.random() < 0.03:
                labels.append("good first issue")
            if it.old == "active_issue" and rng.random() < 0.1:
                labels.append("unstale")
        it.labels = list(dict.fromkeys(labels))

    # ---- comments -----------------------------------------------------------------------------------

    def comment(self) -> None:
        rng = self.rng
        bots = self.people.bots
        for it in self.items:
            self._bot_comments(it, bots)
            self._pre_window_comments(it)
        # Comments created inside the window: bots first, humans fill the rest of the requested volume.
        target = round(self.days * self.comments_per_day)
        in_window_bot = sum(1 for it in self.items for c in it.comments if c[0] >= self.start)
        if in_window_bot > 0.45 * target:
            # Small comment budgets: thin the routine bot chatter, never the stale-bot actions.
            keep = 0.45 * target / in_window_bot
            for it in self.items:
                it.comments = [c for c in it.comments
                               if c[0] < self.start or it.old.startswith("stale") or rng.random() < keep]
            in_window_bot = sum(1 for it in self.items for c in it.comments if c[0] >= self.start)
        human = max(0, target - in_window_bot)
        counts = self._allocate(human)
        for it, n in zip(self.items, counts, strict=True):
            if n:
                self._human_comments(it, n)
            it.comments.sort(key=lambda c: c[0])

    def _allocate(self, total: int) -> list[int]:
        weights = [it.weight for it in self.items]
        wsum = sum(weights)
        if total <= 0 or wsum <= 0:
            return [0] * len(weights)
        quota = [w * total / wsum for w in weights]
        counts = [int(q) for q in quota]
        rest = total - sum(counts)
        frac = [q - c for q, c in zip(quota, counts, strict=True)]
        if rest > 0 and sum(frac) > 0:
            for i in self.rng.choices(range(len(counts)), weights=frac, k=rest):
                counts[i] += 1
        return counts

    def _bot_comments(self, it: _Item, bots: dict[str, _User]) -> None:
        rng = self.rng
        end = self.end
        ga, mergify = bots["github-actions[bot]"], bots["mergify[bot]"]
        if it.old in ("stale_mark", "stale_close"):
            day = self.rhythm.one(rng)
            t = day - day % _DAY + 5400 + rng.randrange(900)  # the stale workflow runs daily at 01:30 UTC
            if t < self.start or t >= end:
                t = day
            body_mark = _STALE_PR if it.is_pr else _STALE_ISSUE
            if it.old == "stale_mark":
                it.comments.append((t, t, ga, body_mark))
            else:
                mark = t - 30 * _DAY + rng.randrange(-600, 600)
                it.comments.append((mark, mark, ga, body_mark))
                it.comments.append((t, t, ga, _STALE_PR_CLOSE if it.is_pr else _STALE_ISSUE_CLOSE))
                it.closed = t
                it.state_reason = None if it.is_pr else "not_planned"
            it.labels.append("stale")
            # Stale items had their discussion right after they were opened, long before.
            return
        if not it.is_pr:
            return
        if it.old:
            t = it.created + rng.randint(4, 45)  # greeted when it was opened, before the window
            it.comments.append((t, t, ga, _WELCOME))
            if it.conflict:
                self._conflict(it, mergify)
            return
        if it.special == "dependabot":
            if it.closed is not None and it.merged is None:
                t = it.closed
                it.comments.append((t, t, bots["dependabot[bot]"],
                                    f"Looks like {it.vars.get('dep', 'this dependency')} is up-to-date now, "
                                    "so this is no longer needed."))
            return
        if it.special == "pre-commit":
            return
        t = it.created + rng.randint(4, 45)
        if t < end:
            it.comments.append((t, t, ga, _WELCOME))
        if rng.random() < 0.35:
            t = it.created + rng.randint(60, 420)
            if t < end:
                body = _GEMINI.format(author=it.author.login if it.author else "",
                                      headline=_TAGS_RE.sub("", it.title)[:80], purpose=self._purpose_text(it))
                it.comments.append((t, t, bots["gemini-code-assist[bot]"], body))
        if rng.random() < 0.08:
            t = it.created + rng.randint(600, 3 * _HOUR)
            if t < end and (it.closed is None or t < it.closed):
                it.comments.append((t, t, mergify, tx.PRE_COMMIT_FAIL.format(
                    author=it.author.login if it.author else "")))
        if "documentation" in it.labels:
            t = it.created + rng.randint(20, 180)
            if t < end:
                it.comments.append((t, t, mergify, _DOCS_PREVIEW.format(number=it.number)))
        if it.conflict:
            self._conflict(it, mergify)

    def _conflict(self, it: _Item, mergify: _User) -> None:
        rng = self.rng
        lo = max(it.created + 3 * _HOUR, self.start if it.old else it.created)
        hi = it.closed if it.closed is not None else self.end
        if hi - lo < 60:
            return
        t = _time_in(rng, lo, hi)
        it.comments.append((t, t, mergify, _CONFLICT.format(author=it.author.login if it.author else "")))
        if it.closed is None and "needs-rebase" not in it.labels:
            it.labels.append("needs-rebase")

    def _pre_window_comments(self, it: _Item) -> None:
        """Older items had some discussion when they were opened, before the window."""
        if not it.old:
            return
        rng = self.rng
        n = rng.choice((0, 0, 1, 1, 2, 3, 5))
        hi = min(self.start, it.created + 3 * _DAY)
        lo = it.created + 60
        if it.old == "stale_close":
            hi = min(hi, it.comments[0][0] - 95 * _DAY)  # keep 90+ quiet days before the stale mark
        if hi - lo < 60:
            return
        for t in sorted(_time_in(rng, lo, hi, 1.5) for _ in range(n)):
            user, body = self._line(it, t)
            it.comments.append((t, t, user, body))

    def _human_comments(self, it: _Item, n: int) -> None:
        rng = self.rng
        lo, hi = it.lo, it.hi
        if hi - lo < 1:
            return
        times = sorted(_time_in(rng, lo, hi, it.shape) for _ in range(n))
        closed = it.closed if it.closing_comment and it.closed is not None and lo <= it.closed < self.end else None
        unmerged = it.is_pr and it.closed is not None and it.merged is None and lo <= it.closed < self.end
        for idx, t in enumerate(times):
            if closed is not None and idx == n - 1:
                t = max(t, closed)  # the closing remark lands with the close itself
                user, body = self._closing_line(it)
            elif unmerged and idx == n - 1 and it.closed is not None and rng.random() < 0.5:
                t = max(t, it.closed)
                user = it.author if it.author is not None and rng.random() < 0.5 else self._triager(it)
                body = fill(rng.choice(tx.CLOSE_PR), rng, it.vars, self._dyn(it))
            else:
                user, body = self._line(it, t)
            updated = t
            if rng.random() < 0.06:  # some get edited later
                updated = min(self.last, t + rng.randrange(30, 4 * _HOUR))
            it.comments.append((t, updated, user, body))

    # ---- bodies ---------------------------------------------------------------------------------------

    def _pr_body(self, it: _Item) -> str | None:
        rng = self.rng
        v, dyn = it.vars, self._dyn(it)
        if it.special == "dependabot":
            dep, a, b = v.get("dep", "actions/checkout"), v.get("dep_a", "4"), v.get("dep_b", "5")
            return _DEPENDABOT_BODY.format(dep=dep, a=a, b=b)
        if it.special == "pre-commit":
            hooks = rng.sample(_PRE_COMMIT_HOOKS, rng.randint(1, 3))
            lines = "\n".join(f"- [github.com/{h}: {a} → {b}](https://github.com/{h}/compare/{a}...{b})"
                              for h, a, b in hooks)
            return f"<!--pre-commit.ci start-->\nupdates:\n{lines}\n<!--pre-commit.ci end-->"
        u = rng.random()
        if u < 0.03 and it.fixes is None:
            return None
        if u < 0.11 and it.fixes is None and not it.follows:
            return fill(rng.choice(tx.PR_ONE_LINERS), rng, v, dyn)
        parts = ["<!-- markdownlint-disable -->"]
        if rng.random() < 0.35:
            parts.append(tx.PR_HEADER + "\n")
        purpose = self._purpose_text(it)
        if it.special == "adversarial":
            purpose += "\n\n" + tx.ADVERSARIAL_BODY
        if it.special == "emoji":
            purpose += " " + rng.choice(tx.EMOJI)
        fix = ""
        if it.fixes is not None:
            fix = f"\n\n{rng.choice(('FIX', 'Fixes', 'Closes', 'FIX'))} #{it.fixes.number}"
            fix += "".join(f"\nFixes #{n}" for n in it.also_fixes)
        parts.append(f"## Purpose\n\n{purpose}{fix}\n")
        kind = it.size or _size_kind(it)
        if rng.random() < 0.1:  # the template's sections left as they came
            parts.append("## Test Plan\n")
            parts.append("## Test Result\n")
        else:
            parts.append("## Test Plan\n\n" + self._test_plan(it, kind) + "\n")
            result = self._test_result(it, kind)
            parts.append(f"## Test Result\n\n{result}\n" if result else "## Test Result\n")
        checks = ["x" if rng.random() < 0.75 else " " for _ in range(3)] + [
            "x" if rng.random() < 0.2 else " ", " "]
        parts.append("---\n" + tx.PR_CHECKLIST.format(*checks))
        if rng.random() < 0.4:
            parts.append("\n" + tx.PR_FOOTER)
        return "\n".join(parts)

    def _env(self, it: _Item, g: Gpu) -> str:
        """A `python collect_env.py` dump for the item's hardware stack."""
        v = it.vars
        sw = v.get("rocm_ver") or v.get("cuda_ver") or v.get("xpu_ver") or ""
        version = v["version"].lstrip("v")
        return _env_dump(g.platform, g.full, g.arch, min(int(v.get("tp", "1")), 8), version, v.get("py", "3.12"), sw)

    def _issue_body(self, it: _Item) -> str | None:
        """The tracker's issue templates (bug, feature, usage, RFC, ...), filled with the item's stack."""
        rng = self.rng
        v, dyn = it.vars, self._dyn(it)
        self._body_vars(it)
        kind = it.itype
        opener = it.first_sentence
        if not opener and kind != "Bug":
            openers = tx.FIRST_SENTENCES.get(kind, tx.FIRST_SENTENCES["Misc"])
            opener = fill(rng.choice(openers), rng, v, dyn)
        if it.special == "plain":
            text = opener or fill(rng.choice(tx.BUG_CONTEXT), rng, v, dyn)
            return text if rng.random() < 0.7 else None
        extra = ""
        if it.special == "adversarial":
            extra = "\n\n" + tx.ADVERSARIAL_BODY
        elif it.special == "emoji":
            extra = "\n\nThanks a lot for the great project! 🙏"
        g = gpu_of(v["gpu"])
        env = f"```text\n{self._env(it, g)}\n```"
        if rng.random() < 0.06:  # the template's placeholder left in
            env = "```text\nThe output of `python collect_env.py`\n```"
        if kind == "Bug":
            context = fill(rng.choice(tx.BUG_CONTEXT), rng, v, dyn)
            symptom = fill(rng.choice(tx.BUG_SYMPTOM.get(it.fail, tx.BUG_SYMPTOM[""])), rng, v, dyn)
            lead = f"{opener}\n\n{context}" if opener else context
            expected = fill(rng.choice([e for e in tx.BUG_EXPECTED if v["tp"] != "1" or "TP=" not in e]), rng, v, dyn)
            repro = v["repro"] + "\n\n" if rng.random() < 0.8 else ""
            describe = f"{lead} {symptom}{extra}\n\n{repro}```text\n{v['log']}\n```"
            if expected:
                describe += f"\n\n{expected}"
            sections = [
                "### Your current environment",
                f"<details>\n<summary>The output of <code>python collect_env.py</code></summary>\n\n{env}\n\n"
                "</details>\n",
                "### 🐛 Describe the bug", describe,
            ]
        elif kind == "Feature":
            alternatives = "_No response_"
            if rng.random() < 0.4:
                alternatives = "Carrying a local patch, which breaks on every upgrade."
            sections = [
                "### 🚀 The feature, motivation and pitch", opener + extra,
                "### Alternatives", alternatives,
                "### Additional context", "_No response_",
            ]
        elif kind == "Usage":
            if rng.random() < 0.5:
                env = "```text\nThe output of `python collect_env.py`\n```"
            sections = [
                "### Your current environment", env + "\n",
                "### How would you like to use vllm", f"{opener}{extra}\n\n{v['repro']}",
            ]
        elif kind == "RFC":
            cc = " ".join("@" + self.people.pick(rng, "maintainers").login for _ in range(3))
            sections = [
                "### Motivation.", opener + extra,
                "### Proposed Change.", "1. Introduce a single interface.\n2. Migrate the existing "
                "implementations.\n3. Deprecate the old flags over two releases.",
                "### Feedback Period.", "Two weeks.",
                "### CC List.", cc,
                "### Any Other Things.", "_No response_",
            ]
        elif kind == "Performance":
            log = v["log"] if it.fail == "regression" else self._log(_Item(created=0, is_pr=False, fail="regression",
                                                                           vars=v), g)
            sections = [
                "### Proposal to improve performance", "_No response_",
                "### Report of performance regression", f"{opener}{extra}\n\n{v['repro']}\n\n{log}",
                "### Misc discussion on performance", "_No response_",
                "### Your current environment (if you think it is necessary)", env,
            ]
        elif kind == "Installation":
            how = {"amd": "```sh\nPYTORCH_ROCM_ARCH={gfx} python setup.py develop\n```",
                   "xpu": "```sh\npip install -r requirements/xpu.txt\n"
                          "VLLM_TARGET_DEVICE=xpu python setup.py install\n```",
                   "cpu": "```sh\npip install vllm\n```"}.get(g.platform, "```sh\npip install -vvv vllm\n```")
            if g.platform == "amd":
                v.setdefault("gfx", g.arch)
            sections = [
                "### Your current environment", env + "\n",
                "### How you are installing vllm", fill(how, rng, v, dyn),
                opener + extra, f"```\n{v['log'] if it.fail == 'build' else tx.LOGS['build:nvidia']}\n```",
            ]
        elif kind == "Doc":
            sections = [
                "### 📚 The doc issue", opener + extra,
                "### Suggest a potential alternative/fix", "Add a short example to the docs page.",
            ]
        elif kind == "New Model":
            sections = [
                "### The model to consider.",
                f"https://huggingface.co/{_hf_guess(v.get('new_model', ''))}\n\n{opener}{extra}",
                "### The closest model vllm already supports.", v.get("model_name", "Qwen3-30B-A3B"),
                "### What's your difficulty of supporting the model you want?",
                "The attention layout and the new rope variant.",
            ]
        elif kind == "CI Failure":
            log = fill(tx.LOGS["ci"], rng, v, dyn)
            sections = [
                "### Name of failing test", f"`tests/{v.get('test_area', 'entrypoints')}`",
                "### Basic information", "- [ ] Flaky test\n- [x] Can reproduce locally\n"
                "- [ ] Caused by external libraries (e.g. bug in `transformers`)",
                "### 🧪 Describe the failing test", f"{opener}{extra}\n\n```\n{log}\n```",
                "### 📝 History of failing test", f"Started failing after #{dyn('ref')} was merged.",
                "### CC List.", "@" + dyn("maint"),
            ]
            return "\n\n".join(sections)
        else:
            sections = [(opener or v["repro"]) + extra]
        return "\n\n".join([*sections, tx.BEFORE_SUBMITTING])

    def _prepare(self, v: dict[str, str], text: str, topic: str, fail: str, rng: random.Random) -> None:
        """The hardware stack an item's template implies: what it names, else its failure's or topic's platform."""
        hint = platform_hint(text)
        if "TP={tp}" in text or "tensor-parallel-size {tp}" in text:  # a report about TP means TP > 1
            v["_min_tp"] = "2"
        archs = arch_words(text)
        if archs:
            v["_archs"] = archs
        found = dict(presets(text))
        if hint and found.get("platform", hint) != hint:  # "on {amd_gpu} ... than on H200": the slot's vendor
            found.pop("gpu")
            found.pop("platform")
        for key, value in found.items():
            v.setdefault(key, value)
        if "platform" not in v:
            v["platform"] = (hint or tx.FAIL_PLATFORM.get(fail, "") or _TOPIC_PLATFORM.get(topic, "")
                             or pick_platform(rng))

    def link(self) -> None:
        """Fix PRs for reports filed earlier (``Fixes #N``; GitHub closes the report when the fix merges) and PR
        series ("[2/N]", "Follow-up to #N"), on PRs the sample already has. Its own random stream."""
        rng = random.Random(f"digest-bot-links:{self.seed}")
        prs = sorted((it for it in self.items if it.is_pr and not it.old and not it.special and not it.kept
                      and it.author is not None and it.author.payload["type"] == "User"), key=lambda x: x.created)
        starts = [p.created for p in prs]
        reports = [it for it in self.items if not it.is_pr and it.purpose and not it.special
                   and not it.old.startswith("stale") and it.author is not None]
        hot = [r for r in reports if r.hot]
        rest = [r for r in reports if not r.hot]
        for report in [*hot, *rng.sample(rest, round(len(rest) * 0.45))]:
            lo = max(report.created + 2 * _HOUR, report.lo - _DAY)
            hi = max(report.created + 5 * _DAY, report.hi)
            if report.closed is not None:  # a fix comes before the report is closed
                hi = min(hi, report.closed - _HOUR)
            k, k_end = bisect_left(starts, lo), bisect_left(starts, hi)
            # A fix merged before the report's discussion would close it before its thread: not that one.
            free = [p for p in prs[k:k_end] if not p.kept and (p.merged is None or p.merged > report.lo + _HOUR)][:30]
            if free:
                self._make_fix(rng.choice(free), report, rng)
        # A few PR series a day: the same author's next part of a change.
        merged = [p for p in prs if not p.kept and p.merged is not None and not _VARIANT_RE.search(p.title)
                  and _size_kind(p) not in ("bugfix", "typo", "deps", "docs")]
        for first in rng.sample(merged, min(len(merged), max(1, self.days * 2))):
            if first.kept:
                continue
            k = bisect_left(starts, first.created + 6 * _HOUR)
            later = [p for p in prs[k:bisect_left(starts, first.created + 6 * _DAY)] if not p.kept]
            if later:
                self._make_series(first, rng.choice(later), rng)
        for it in self.items:  # titles are final: each PR's kind of change, once
            if it.is_pr and not it.size:
                it.size = _size_kind(it)

    def _make_fix(self, pr: _Item, report: _Item, rng: random.Random) -> None:
        v = dict(report.vars)
        v["author"] = pr.vars["author"]
        title = fill(report.purpose, rng, v, self._dyn(pr))
        if title in self.seen_titles:
            # The same bug reported again: the fix already in flight closes this report too, if it came later.
            earlier = self._fix_titles.get(title)
            if earlier is not None and earlier.created > report.created + _HOUR and (
                    report.closed is None or earlier.created < report.closed) and (
                    earlier.merged is None or earlier.merged > report.lo + _HOUR):
                self._close_with(earlier, report, rng)
                earlier.also_fixes.append(report.number)
            return
        self.seen_titles.add(title)
        self._fix_titles[title] = pr
        pr.title, pr.vars, pr.purpose, pr.size, pr.kept = title, v, "", "", True
        pr.topic = report.topic
        pr.fail = report.fail
        pr.fixes = report
        self._labels(pr, rng)
        self._close_with(pr, report, rng)

    def _close_with(self, pr: _Item, report: _Item, rng: random.Random) -> None:
        report.fixed_by = pr
        if pr.merged is not None and pr.merged + 5 < self.end and (report.closed is None or report.closed > pr.merged):
            report.closed = pr.merged + rng.randint(1, 5)  # "Fixes #N": GitHub closes the report at the merge
            report.state_reason = "completed"
            report.closing_comment = rng.random() < 0.35
            if rng.random() < 0.85:  # the discussion ends with the close (now and then it goes on a little)
                report.hi = max(report.lo + 60, min(report.hi, report.closed + 1))

    def _make_series(self, first: _Item, nxt: _Item, rng: random.Random) -> None:
        base = first.title
        titles = (f"{base} [1/N]", f"{base} [2/N]")
        if any(t in self.seen_titles for t in titles):
            return
        self.seen_titles.update(titles)
        first.title, first.kept = titles[0], True
        nxt.title, nxt.kept, nxt.follows = titles[1], True, first.number
        nxt.topic, nxt.size, nxt.purpose = first.topic, first.size, first.purpose
        nxt.vars = dict(first.vars)
        if first.author is not None:
            self._give(nxt, first.author)
        self._labels(nxt, rng)

    # ---- comments -----------------------------------------------------------------------------------

    def _closing_line(self, it: _Item) -> tuple[_User, str]:
        rng = self.rng
        self._thread_vars(it)
        if it.state_reason != "completed":
            bank = tx.CLOSE_NOT_PLANNED
        else:
            merged = it.fixed_by is not None and it.fixed_by.merged is not None and it.fixed_by.merged <= (
                it.closed or self.end)
            bank = tx.CLOSE_COMPLETED if merged else tx.CLOSE_COMPLETED_NO_FIX
        user = self._triager(it) if rng.random() < 0.7 else self.people.pick(rng, "maintainers")
        return user, fill(rng.choice(bank), rng, it.vars, self._dyn(it))

    def _triager(self, it: _Item) -> _User:
        """The maintainer (or reviewer) who keeps answering in an item's thread."""
        if it.triager is None:
            rng = self.rng
            it.triager = self.people.pick(rng, "maintainers" if rng.random() < 0.55 else "collaborators")
        return it.triager

    def _thread_vars(self, it: _Item) -> None:
        """Slots the thread's lines use beyond the item's own: another GPU of its vendor, the fix's number, logs."""
        v = it.vars
        if "gpu2" in v:
            return
        rng = self.rng
        settle(rng, v)
        v["gpu2"] = other_gpu(rng, v)
        v.setdefault("topic_word", it.topic if it.topic not in ("misc", "usage", "stability") else "core")
        v["fix"] = str(it.fixed_by.number) if it.fixed_by is not None else self._dyn(it)("later_pr")
        if it.fixes is not None:
            v["fix_issue"] = str(it.fixes.number)
        other = model_of(v.get("model_name", ""))
        v["model_name2"] = rng.choice([m for m in ("Qwen3-30B-A3B", "Llama-3.3-70B-Instruct", "gpt-oss-120b",
                                                   "DeepSeek-R1", "GLM-4.6") if other is None or m != other.short])
        v["other_vendor_gpu"] = rng.choice(("H100", "H200", "B200")) if v["platform"] == "amd" else rng.choice(
            ("MI300X", "MI325X", "MI355X"))
        for key in ("version", "version_old", "feature", "n_req", "tp", "attn_backend"):
            resolve(key, rng, v)
        if it.is_pr and not it.size:
            it.size = _size_kind(it)  # its title is final now

    def _line(self, it: _Item, t: int) -> tuple[_User, str]:
        """The next line of an item's thread, at time ``t``."""
        self._thread_vars(it)
        if it.is_pr:
            return self._pr_line(it, t)
        return self._issue_line(it, t)

    def _community(self, it: _Item) -> _User:
        """Someone from outside the project's core: users, occasional and first-time contributors."""
        rng = self.rng
        u = rng.random()
        return self.people.pick(rng, "others" if u < 0.6 else "contributors" if u < 0.85 else "first_timers")

    def _fresh(self, it: _Item, name: str, bank: list[str]) -> str:
        """A line of ``bank`` this thread has not used yet (until all have been), filled with the item's slots."""
        rng = self.rng
        key = "_u_" + name
        used = it.vars.get(key, "")
        taken = {int(x) for x in used.split(",") if x}
        free = [i for i in range(len(bank)) if i not in taken]
        if not free:
            free, used = list(range(len(bank))), ""
        i = rng.choice(free)
        it.vars[key] = f"{used},{i}" if used else str(i)
        return self._say(it, bank[i])

    def _say(self, it: _Item, template: str) -> str:
        return fill(template, self.rng, it.vars, self._dyn(it))

    def _issue_line(self, it: _Item, t: int) -> tuple[_User, str]:
        rng, v = self.rng, it.vars
        reporter = it.author if it.author is not None and it.author.payload["type"] == "User" else None
        bug = it.itype in ("Bug", "Performance", "Installation", "CI Failure") or (it.itype == "" and bool(it.fail))
        stages: tuple[str, ...] = _BUG_STAGES if bug else _ASK_STAGES
        if it.hot:
            stages = _HOT_BUG_STAGES if bug else _HOT_ASK_STAGES
        while it.step < len(stages):
            stage = stages[it.step]
            if stage == "triage":
                it.step += 1
                options = [e for e in tx.TRIAGE if (not e[1] or e[1] == v["platform"])
                           and (not e[2] or (it.fail or "wrong") in e[2].split())]
                if it.fail in ("build", "ci", "error", "regression") or rng.random() < 0.3:
                    options = [e for e in options if e[0] in ("env", "cmd", "bisect", "bench", "aiter", "driver")] \
                        or options
                key, _, _, ask, _answer = rng.choice(options)
                it.asked = key
                self._body_vars(it)
                return self._triager(it), self._say(it, ask)
            if stage == "ask":
                it.step += 1
                kind = {"Feature": "feature", "RFC": "feature", "Usage": "usage", "Doc": "doc",
                        "New Model": "model"}.get(it.itype, "usage")
                asks = [e for e in tx.ASK_GENERIC if e[0] == kind]
                _, ask_text, reply = rng.choice(asks)
                it.asked = reply
                return self._triager(it), self._say(it, ask_text)
            if stage == "answer":
                it.step += 1
                if reporter is None or not it.asked:
                    continue
                answer = next(e[4] for e in tx.TRIAGE if e[0] == it.asked) if bug else it.asked
                return reporter, self._say(it, answer)
            if stage == "confirm":
                it.step += 1
                if rng.random() < 0.25:
                    continue
                user = self._community(it)
                if user is reporter:  # others confirm, not the reporter
                    user = self._community(it)
                return user, self._fresh(it, "confirm", tx.CONFIRM)
            if stage == "diagnose":
                it.step += 1
                who = self._triager(it) if rng.random() < 0.7 else self.people.pick(rng, "maintainers")
                if it.fixed_by is not None:  # what the fix PR will say, found here first
                    first = self._cause(it).split(". ")[0].split("; ")[0].rstrip(".")
                    lead = rng.choice(("Found it: ", "I can reproduce it on {gpu}. Root cause: ", "Got it: "))
                    if first[1:2].islower():  # "The kernel ..." -> "the kernel ...", but "YaRN's ..." stays
                        first = first[0].lower() + first[1:]
                    return who, self._say(it, lead) + first + "."
                bank = tx.DIAGNOSIS.get(it.fail or "wrong", tx.DIAGNOSIS["wrong"])
                return who, self._say(it, rng.choice(bank))
            if stage == "argue":
                family = "feature" if not bug else {
                    "regression": "regression", "wrong": "wrong", "accuracy": "wrong", "nan": "wrong",
                    "hang": "hang", "deadlock": "hang"}.get(it.fail, "crash")
                lines = tx.ARGUMENTS[family]
                k = int(v.get("_arg", "0"))
                if k >= len(lines):
                    it.step += 1
                    continue
                v["_arg"] = str(k + 1)
                role, text = lines[k]
                if k == len(lines) - 1:
                    if it.fixed_by is None:
                        text = tx.ARG_CONCLUSION_NO_FIX[family]
                    elif t < it.fixed_by.created:
                        v["_arg"] = str(k)  # the conclusion names the fix: it waits for the fix to exist
                        return self._filler(it, reporter)
                return self._arguer(it, role), self._say(it, text)
            if stage == "fix":
                fix = it.fixed_by
                if fix is not None and t < fix.created:
                    break  # not yet: a filler line, the pointer comes once the fix PR exists
                it.step += 1
                if "_arg" in v:  # the argument's conclusion named the fix (or the plan) already
                    continue
                if fix is not None:
                    bank = tx.FIX_POINTER_MERGED if fix.merged is not None and fix.merged <= t else tx.FIX_POINTER
                    return self._triager(it), self._say(it, rng.choice(bank))
                bank = tx.WORKAROUND.get(v["platform"], tx.WORKAROUND[""]) if rng.random() < 0.6 else \
                    tx.WORKAROUND[""]
                return self._triager(it), self._say(it, rng.choice(bank))
            if stage == "verify":
                fix = it.fixed_by
                if fix is None or reporter is None:
                    it.step += 1
                    continue
                if fix.merged is not None and t >= fix.merged:
                    it.step += 1
                    return reporter, self._say(it, rng.choice(tx.FIX_CONFIRM_MERGED))
                if rng.random() < 0.5:
                    it.step += 1
                    return reporter, self._say(it, rng.choice(tx.FIX_CONFIRM_OPEN))
                break
            it.step += 1
        return self._filler(it, reporter)

    def _arguer(self, it: _Item, role: str) -> _User:
        rng, p = self.rng, self.people
        key = f"_role_{role}"
        login = it.vars.get(key)
        if login is None:
            user = {"maint": lambda: self._triager(it), "maint2": lambda: p.pick(rng, "maintainers"),
                    "contrib": lambda: p.pick(rng, "contributors")}.get(role, lambda: self._community(it))()
            it.vars[key] = user.login
            self._roles[(it.number, role)] = user
        return self._roles[(it.number, role)]

    def _filler(self, it: _Item, reporter: _User | None) -> tuple[_User, str]:
        rng = self.rng
        u = rng.random()
        if reporter is not None and u < 0.18:
            return reporter, self._fresh(it, "author", tx.FOLLOWUP_AUTHOR)
        user = self._community(it)
        r = rng.random()
        if r < 0.04 or (it.special == "cjk" and r < 0.5):
            return user, self._say(it, rng.choice(tx.CJK_LINES))
        if r < 0.05:
            return user, rng.choice(("👍", "🚀🚀", "👀", "+1 🙏"))
        if r < 0.0515:
            return user, "@everyone any workaround? this is blocking our <!channel> rollout ||urgent||"
        if r < 0.5:
            return user, self._fresh(it, "confirm", tx.CONFIRM)
        if r < 0.6 and "log" in it.vars and "_hit" not in it.vars:
            it.vars["_hit"] = "1"
            return user, self._say(it, "I hit this too:\n\n```\n{log}\n```")
        return user, self._fresh(it, "followup", tx.FOLLOWUP_COMMUNITY)

    def _pr_line(self, it: _Item, t: int) -> tuple[_User, str]:
        rng, v = self.rng, it.vars
        author = it.author if it.author is not None and it.author.payload["type"] == "User" else None
        while it.step < len(_PR_STAGES):
            stage = _PR_STAGES[it.step]
            it.step += 1
            if stage == "review":
                kind = it.size or _size_kind(it)
                if kind in _ROUTINE:  # docs, CI, dependency bumps, typos, clean-ups: nits at most
                    options = [e for e in tx.REVIEW if e[0] == "nits"]
                else:
                    options = [e for e in tx.REVIEW if (not e[1] and (e[0] != "scope" or kind in _USER_FACING))
                               or kind in e[1].split() or v["platform"] in e[1].split()]
                key, _, ask, answer = rng.choice(options)
                it.asked = answer
                if key in ("bench", "lm_eval"):
                    self._numbers(it)
                v.setdefault("test_file", rng.choice(tx.TEST_FILES.get(it.topic, tx.TEST_FILES["misc"])))
                return self._triager(it), self._say(it, ask)
            if stage == "answer":
                if author is None or not it.asked:
                    continue
                return author, self._say(it, it.asked)
            if stage == "reporter":
                if it.fixes is None or it.fixes.author is None or it.fixes.author.payload["type"] != "User" \
                        or rng.random() < 0.4:
                    continue
                return it.fixes.author, self._say(it, rng.choice(tx.PR_REPORTER))
            if stage == "approve":
                who = self._triager(it) if rng.random() < 0.75 else self.people.pick(rng, "maintainers")
                return who, self._say(it, rng.choice(tx.APPROVE))
            if stage == "ci":
                if author is not None and rng.random() < 0.4:
                    return author, self._fresh(it, "notes", tx.AUTHOR_NOTES)
                return self._triager(it), self._fresh(it, "ci", tx.CI_NOTES)
            if stage == "merge":
                if it.merged is None:
                    continue
                return self._triager(it), rng.choice(tx.MERGE_NOTES)
        if it.merged is not None and t > it.merged:  # after the merge
            return self._community(it), self._fresh(it, "merged", tx.POST_MERGE)
        u = rng.random()
        if author is not None and u < 0.3:
            return author, self._fresh(it, "notes", tx.AUTHOR_NOTES)
        if u < 0.55:
            pool = "maintainers" if rng.random() < 0.55 else "collaborators"
            return self.people.pick(rng, pool), self._say(it, rng.choice(tx.CI_NOTES + tx.APPROVE[:1] + [
                "cc @{maint} for the {topic_word} side", "Is this still needed after #{ref}?",
                "Let's wait for #{ref} to land first."]))
        kind = it.size or _size_kind(it)
        if kind in _ROUTINE:
            return self._community(it), self._fresh(it, "thanks", tx.PR_COMMUNITY_ROUTINE)
        bank = tx.PR_COMMUNITY_PERF if kind == "perf" else tx.PR_COMMUNITY
        return self._community(it), self._fresh(it, "community" + kind, bank)

    # ---- bodies ---------------------------------------------------------------------------------------

    def _body_vars(self, it: _Item) -> None:
        """Slots of a report's body and thread: environment, reproduction command, log (once per item)."""
        v = it.vars
        if "log" in v:
            return
        rng = self.rng
        g = settle(rng, v)
        platform = g.platform
        if platform == "amd":
            v.setdefault("rocm_ver", "7.0.2" if g.arch == "gfx950" else rng.choice(("6.4.1", "6.4.3", "7.0", "7.0.2")))
        elif platform == "nvidia":
            v.setdefault("cuda_ver", rng.choice(("12.8", "12.9", "12.9")))
        elif platform == "xpu":
            v.setdefault("xpu_ver", "2025.2")
        fill("{version}{py}", rng, v)
        backend = v.get("attn_backend")
        title = it.title
        prefix = ""
        if platform == "amd" and ("AITER" in title or rng.random() < 0.5):
            prefix = "VLLM_ROCM_USE_AITER=1 "
        elif platform == "nvidia" and backend and rng.random() < 0.6:
            prefix = f"VLLM_ATTENTION_BACKEND={backend_env(backend)} "
        flags = ""
        if v.get("feature") == "FP8 KV cache" or "FP8 KV cache" in title:
            flags += " --kv-cache-dtype fp8"
        if "EP" in title.split() or "expert parallel" in title.lower() or "EP)" in title:
            flags += " --enable-expert-parallel"
        model = model_of(v.get("model_name", ""))
        if v.get("quant") == "FP8" and model is not None and not model.has("fp8"):
            flags += " --quantization fp8"
        if "spec" in v:
            method = {"EAGLE": "eagle", "EAGLE-3": "eagle3", "n-gram": "ngram", "MTP": "mtp",
                      "suffix decoding": "suffix", "draft model": "draft_model"}.get(v["spec"], "ngram")
            flags += f" --speculative-config '{{\"method\": \"{method}\", \"num_speculative_tokens\": 3}}'"
        v["env_prefix"], v["extra_flags"] = prefix, flags
        v["backend_file"] = tx.BACKEND_FILE.get(backend_env(backend or "FlashInfer"), "flashinfer")
        v["repro"] = fill(rng.choice(tx.REPRO.get(platform, tx.REPRO["nvidia"])), rng, v)
        v["log"] = self._log(it, g)
        v["deadlock"] = tx.LOGS["deadlock"]
        version = v["version"].lstrip("v")
        torch = "2.9.0" if version.startswith(("0.11.1", "0.11.2", "0.12")) else "2.8.0"
        sw = (f"ROCM Version: {v['rocm_ver']}" if platform == "amd" else
              f"CUDA runtime version: {v['cuda_ver']}" if platform == "nvidia" else f"Platform: {platform}")
        v["env_short"] = (f"vLLM Version: {version}\nPyTorch version: {torch}\n"
                          f"GPU models and configuration: {v['tp']}x {g.full}\n{sw}")

    def _log(self, it: _Item, g: Gpu) -> str:
        rng, v = self.rng, it.vars
        fail = it.fail or "error"
        if fail == "oom":
            return _oom_log(g)
        if fail == "regression":
            a, b = rng.uniform(9000, 16000), rng.uniform(0.55, 0.8)
            fill("{version_old}{version}", rng, v)
            return (f"| | {v['version_old']} | {v['version']} |\n|---|---:|---:|\n"
                    f"| Output token throughput (tok/s) | {a:.0f} | {a * b:.0f} |\n"
                    f"| Mean TTFT (ms) | {a / 30:.0f} | {a / 30 / b:.0f} |\n"
                    f"| Mean TPOT (ms) | {2e5 / a:.1f} | {2e5 / a / b:.1f} |")
        if fail == "accuracy":
            acc = rng.uniform(0.62, 0.8)
            return tx.LM_EVAL.format(a=f"{acc:.4f}", b=f"{acc - rng.uniform(0, 0.03):.4f}")
        key = fail
        if fail == "build":
            key = f"build:{g.platform}" if f"build:{g.platform}" in tx.LOGS else "build:nvidia"
        elif fail == "hang" and g.platform in ("nvidia", "amd") and int(v.get("tp", "1")) > 1 and rng.random() < 0.4:
            key = "hang_collective"
        elif fail == "xla" and g.platform != "tpu":
            key = "error"
        return fill(tx.LOGS.get(key, tx.LOGS["error"]), rng, v)

    def _purpose_text(self, it: _Item) -> str:
        """Why the PR exists and what it changes (never the title again); kept for the Gemini summary."""
        v = it.vars
        if "purpose_text" in v:
            return v["purpose_text"]
        rng, dyn = self.rng, self._dyn(it)
        if it.fixes is not None:
            text = self._cause(it.fixes)
        elif it.purpose:
            text = fill(it.purpose, rng, v, dyn)
        else:
            kind = it.size or _size_kind(it)
            bank = tx.GENERIC_PURPOSES.get(kind, tx.GENERIC_PURPOSES["other"])
            text = fill(rng.choice(bank), rng, v, dyn)
        if it.follows:
            text = f"Follow-up to #{it.follows}, which did the first half. {text}".strip()
        v["purpose_text"] = text
        return text

    def _cause(self, report: _Item) -> str:
        """Why a reported bug happened and how its fix works: the fix PR's Purpose, the report's diagnosis."""
        v = report.vars
        if "_cause" not in v:
            rng = self.rng
            template = tx.FIX_PURPOSES.get(report.purpose) or rng.choice(
                tx.FIX_CAUSE.get(report.fail, tx.FIX_CAUSE[""]))
            v["_cause"] = fill(template, rng, v, self._dyn(report))
        return v["_cause"]

    def _numbers(self, it: _Item) -> None:
        """A perf PR's before/after numbers (from the figure its title quotes) and lm_eval scores, once."""
        v = it.vars
        if "result_line" in v:
            return
        rng = self.rng
        settle(rng, v)
        title = it.title
        m = re.search(r"(\d+(?:\.\d+)?)x\b", title)
        pct = re.search(r"(\d+)%", title)
        factor = float(m.group(1)) if m else 1 / (1 - int(pct.group(1)) / 100) if pct else rng.uniform(1.06, 1.4)
        bs = rng.choice((1, 8, 32, 64, 128, 256))
        where = f"on {v['tp']}x{v['gpu']}" if v.get("tp", "1") != "1" else f"on {v['gpu']}"
        tpot, ttft = rng.uniform(8, 45), rng.uniform(300, 1500)
        tpot_f, ttft_f, tput_f = 1 + (factor - 1) / 8, 1 + (factor - 1) / 3, factor  # what else moves, and how much
        if "TTFT" in title:
            ttft_f, tput_f = factor, 1 + (factor - 1) / 4
            v["result_line"] = f"mean TTFT {ttft:.0f} ms → {ttft / factor:.0f} ms {where}, {v['model_name']}, bs {bs}"
        elif "memory" in title.lower():
            tokens = rng.randrange(400_000, 2_000_000, 1000)
            ttft_f = 1 + (factor - 1) / 6
            v["result_line"] = (f"KV cache capacity {tokens:,} → {int(tokens * factor):,} tokens {where}, "
                                f"{v['model_name']}")
        elif "hashing" in title:
            us = rng.uniform(80, 400)
            tput_f = ttft_f = 1 + (factor - 1) / 10
            v["result_line"] = f"prefix-cache hashing {us:.0f} us → {us / factor:.0f} us per 32k-token request"
        else:
            tpot_f = factor
            v["result_line"] = f"TPOT {tpot:.1f} ms → {tpot / factor:.1f} ms {where}, {v['model_name']}, bs {bs}"
        v["_tpot"], v["_ttft"], v["_bs"] = f"{tpot:.4f}", f"{ttft:.4f}", str(bs)
        v["_f"] = f"{tpot_f:.4f},{ttft_f:.4f},{tput_f:.4f}"
        acc = rng.uniform(0.78, 0.955)
        v["acc_before"], v["acc_after"] = f"{acc:.4f}", f"{acc + rng.uniform(-0.006, 0.006):.4f}"

    def _test_plan(self, it: _Item, kind: str) -> str:
        rng, v = self.rng, it.vars
        settle(rng, v)
        test_file = v.get("test_file") or rng.choice(tx.TEST_FILES.get(it.topic, tx.TEST_FILES["misc"]))
        v.setdefault("test_file", test_file)
        prefix = "VLLM_ROCM_USE_AITER=1 " if v["platform"] == "amd" and "AITER" in it.title else ""
        serve = f"{prefix}vllm serve {v['model']} --tensor-parallel-size {v['tp']}"
        if kind in ("perf", "kernel") or it.topic == "performance":
            self._numbers(it)
            bench = (f"vllm bench serve --model {v['model']} --dataset-name random --random-input-len 1024 "
                     f"--random-output-len 1024 --num-prompts 512 --max-concurrency {v['_bs']}")
            return f"```bash\n{serve}\n{bench}\n```"
        if kind in ("model", "new_model") or it.topic in ("quantization", "models"):
            return (f"```bash\nlm_eval --model vllm --model_args pretrained={v['model']},tensor_parallel_size="
                    f"{v['tp']},max_model_len=8192 --tasks gsm8k --num_fewshot 5 --batch_size auto\n```")
        if kind == "docs":
            return "Built the docs locally with `mkdocs serve` and checked the page."
        if kind in ("ci", "deps", "typo"):
            return "CI."
        if it.fixes is not None:
            return f"The reproduction from #{it.fixes.number}, plus a new test:\n\n```bash\npytest -v {test_file}\n```"
        return f"```bash\npytest -v {test_file}\n```"

    def _test_result(self, it: _Item, kind: str) -> str:
        rng, v = self.rng, it.vars
        if kind in ("perf", "kernel") or it.topic == "performance":
            self._numbers(it)
            tpot, ttft = float(v["_tpot"]), float(v["_ttft"])
            tpot_f, ttft_f, tput_f = (float(x) for x in v["_f"].split(","))
            conc = int(v["_bs"])
            base_tps = rng.uniform(2500, 14000)
            rows = (f"| | main | this PR |\n|---|---:|---:|\n"
                    f"| Output token throughput (tok/s) | {base_tps:.0f} | {base_tps * tput_f:.0f} |\n"
                    f"| Mean TTFT (ms) | {ttft:.0f} | {ttft / ttft_f:.0f} |\n"
                    f"| Mean TPOT (ms) | {tpot:.2f} | {tpot / tpot_f:.2f} |")
            text = f"{v['result_line'][0].upper()}{v['result_line'][1:]}.\n\n{rows}"
            if rng.random() < 0.35:
                dur = 512 * 1024 / (base_tps * tput_f)
                bench = tx.BENCH.format(n=512, conc=conc, dur=f"{dur:.2f}", rps=f"{512 / dur:.2f}",
                                        otps=f"{base_tps * tput_f:.2f}", ttft=f"{ttft / ttft_f:.2f}",
                                        ttft_med=f"{ttft * 0.9 / ttft_f:.2f}", ttft_p99=f"{ttft * 3.2 / ttft_f:.2f}",
                                        tpot=f"{tpot / tpot_f:.2f}")
                text += f"\n\n<details>\n<summary>This PR, full output</summary>\n\n```\n{bench}\n```\n</details>"
            return text
        if kind in ("model", "new_model") or it.topic in ("quantization", "models"):
            self._numbers(it)
            return tx.LM_EVAL.format(a=v["acc_after"], b=f"{float(v['acc_after']) - rng.uniform(0, 0.02):.4f}")
        if it.fixes is not None:
            self._body_vars(it.fixes)
            before = it.fixes.vars["log"].rsplit("\n", 1)[-1]
            return (f"Before:\n\n```\n{before}\n```\n\nAfter: the same command runs {v.get('n_req', '10k')} requests "
                    f"without errors, and `pytest {v.get('test_file', 'tests')}` passes.")
        r = rng.random()
        if r < 0.4:
            passed, skipped, secs = rng.randint(8, 90), rng.randint(0, 4), rng.uniform(20, 400)
            return f"```\n{passed} passed, {skipped} skipped, 2 warnings in {secs:.2f}s\n```"
        if r < 0.7:
            return "All tests pass locally."
        return ""

    # ---- payloads -------------------------------------------------------------------------------------

    def payloads(self) -> SampleRepo:
        rng = self.rng
        issues: list[dict] = []
        rows: list[tuple[int, int, _Item, tuple[int, int, _User, str]]] = []
        for it in self.items:
            for c in it.comments:
                rows.append((c[0], it.number, it, c))
        rows.sort(key=lambda r: (r[0], r[1]))
        comments: list[dict] = []
        last_update: dict[int, int] = {}
        # One issue_url / html_url prefix string per item, shared by its comments (memory at 100k comments).
        issue_urls = {it.number: f"{self.repo_api}/issues/{it.number}" for it in self.items}
        html_prefix = {
            it.number: f"{self.repo_html}/{'pull' if it.is_pr else 'issues'}/{it.number}#issuecomment-"
            for it in self.items
        }
        for seq, (t, number, _it, (_, updated, user, body)) in enumerate(rows):
            cid = 2 * t + seq  # increases with created_at, like GitHub's global ids
            created_at = _iso(t)
            comments.append({
                "url": f"{self.repo_api}/issues/comments/{cid}",
                "html_url": f"{html_prefix[number]}{cid}",
                "issue_url": issue_urls[number],
                "id": cid,
                "node_id": "IC_kwDOJ" + _b64(cid),
                "user": dict(user.payload),
                "created_at": created_at,
                "updated_at": created_at if updated == t else _iso(updated),
                "author_association": user.assoc,
                "body": body,
                "reactions": self._reactions(f"{self.repo_api}/issues/comments/{cid}/reactions",
                                             self._reaction_total(0.14, 1.6, 80), False),
                "performed_via_github_app": None,
            })
            last_update[number] = max(last_update.get(number, 0), updated)
        for it in self.items:
            issues.append(self._issue_payload(it, last_update.get(it.number, 0), rng))
        pulls = [self._pull_details(it) for it in self.items if it.is_pr]
        return SampleRepo(owner=self.owner, name=self.name, issues=issues, comments=comments, pulls=pulls)

    def _pull_details(self, it: _Item) -> dict:
        """What ``GET /pulls/{n}`` adds to the issue: a log-normal diff size by kind of PR (a typo 1-5 lines, a
        kernel or a model port hundreds to thousands, a refactor many files), commits, review comments that
        grow with the size, reviewers asked while it is open. Its own random numbers, seeded by the number."""
        rng = random.Random(self.seed * 1_000_003 + it.number)
        kind = it.size or _size_kind(it)
        median, sigma, files_median, files_sigma, added = _SIZES[kind]
        typo = kind == "typo"
        lines = rng.randint(1, 5) if typo else max(1, round(median * math.exp(rng.gauss(0, sigma))))
        files = max(1, min(lines, round(files_median * math.exp(rng.gauss(0, files_sigma)))))
        additions = round(lines * min(1.0, max(0.0, rng.gauss(added, 0.08))))
        review_mean = 0.0 if kind in ("typo", "deps") else 0.8 * math.log2(1 + lines / 20)
        reviewers: list[dict] = []
        if it.closed is None and it.special not in ("dependabot", "pre-commit"):
            for user in rng.sample(self.people.maintainers, min(len(self.people.maintainers), rng.randint(0, 2))):
                reviewers.append(dict(user.payload))
        return {
            "number": it.number,
            "additions": additions,
            "deletions": lines - additions,
            "changed_files": files,
            "commits": 1 + int(rng.expovariate(1 / (0.5 + math.log2(1 + lines / 50)))),
            "review_comments": int(rng.expovariate(1 / review_mean)) if review_mean else 0,
            "requested_reviewers": reviewers,
        }

    def _reaction_total(self, p: float, alpha: float, cap: int) -> int:
        rng = self.rng
        if rng.random() >= p:
            return 0
        return min(cap, int(rng.paretovariate(alpha)))

    def _reactions(self, url: str, total: int, is_pr: bool) -> dict:
        counts = dict.fromkeys(("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"), 0)
        if total:
            keys = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
            weights = (0.35, 0.005, 0.02, 0.12, 0.005, 0.2, 0.25, 0.05) if is_pr else (
                0.62, 0.05, 0.02, 0.03, 0.05, 0.05, 0.05, 0.13)
            for k in self.rng.choices(keys, weights=weights, k=total):
                counts[k] += 1
        return {"url": url, "total_count": total, **counts}

    def _issue_payload(self, it: _Item, last_comment: int, rng: random.Random) -> dict:
        n = it.number
        api = f"{self.repo_api}/issues/{n}"
        kind = "pull" if it.is_pr else "issues"
        # Some items were touched after their last visible event (label edits, pushes).
        events = max(it.created, it.closed or 0, last_comment)
        updated = events
        if rng.random() < 0.5:
            updated = min(self.last, events + rng.randrange(0, 3 * _HOUR))
        if it.old and updated < self.start:  # older items are in the sample because they moved in the window
            updated = _time_in(rng, self.start, self.end)
        assoc = it.author.assoc if it.author else "NONE"
        if it.hot:
            total = min(400, int(rng.paretovariate(1.1) * 4))
        elif it.size == "new_model":  # a model people are waiting for
            total = rng.randint(8, 40)
        else:
            total = self._reaction_total(0.35 if not it.is_pr else 0.25, 1.3, 300)
        body = self._pr_body(it) if it.is_pr else self._issue_body(it)
        assignees = []
        if rng.random() < 0.07:
            assignees = [dict(self.people.pick(rng, "maintainers").payload)]
        payload: dict = {
            "url": api,
            "repository_url": self.repo_api,
            "labels_url": f"{api}/labels{{/name}}",
            "comments_url": f"{api}/comments",
            "events_url": f"{api}/events",
            "html_url": f"{self.repo_html}/{kind}/{n}",
            # Global ids grow with time like GitHub's; the number breaks ties within a second.
            "id": 2 * it.created + n - 100_000_000 if 2 * it.created > 200_000_000 else n,
            "node_id": ("PR_kwDOJ" if it.is_pr else "I_kwDOJ") + _b64(n * 7919 + 13),
            "number": n,
            "title": it.title,
            "user": dict(it.author.payload) if it.author else None,
            "labels": [self._label(name) for name in it.labels],
            "state": "closed" if it.closed is not None else "open",
            "locked": False,
            "assignee": dict(assignees[0]) if assignees else None,
            "assignees": assignees,
            "milestone": None,
            "comments": len(it.comments),
            "created_at": _iso(it.created),
            "updated_at": _iso(updated),
            "closed_at": _iso(it.closed) if it.closed is not None else None,
            "author_association": assoc,
            "active_lock_reason": None,
            "body": body,
            "reactions": self._reactions(f"{api}/reactions", total, it.is_pr),
            "timeline_url": f"{api}/timeline",
            "performed_via_github_app": None,
            "state_reason": None if it.is_pr else it.state_reason,
        }
        if it.is_pr:
            payload["draft"] = it.draft and it.merged is None
            payload["pull_request"] = {
                "url": f"{self.repo_api}/pulls/{n}",
                "html_url": f"{self.repo_html}/pull/{n}",
                "diff_url": f"{self.repo_html}/pull/{n}.diff",
                "patch_url": f"{self.repo_html}/pull/{n}.patch",
                "merged_at": _iso(it.merged) if it.merged is not None else None,
            }
        elif it.closed is not None and it.state_reason == "completed" and rng.random() < 0.01:
            payload["locked"] = True
            payload["active_lock_reason"] = "resolved"
        return payload

    def _label(self, name: str) -> dict:
        color, desc = _LABEL_INFO[name]
        lid = _LABEL_IDS[name]
        return {
            "id": lid,
            "node_id": "LA_kwDOJ" + _b64(lid),
            "url": f"{self.repo_api}/labels/{name.replace(' ', '%20')}",
            "name": name,
            "color": color,
            "default": name in ("bug", "documentation", "good first issue"),
            "description": desc,
        }

    # ---- the pipeline (bodies need numbers, so they are written last, with the payloads) --------------

    def run(self) -> SampleRepo:
        self.plan()
        self.number()
        self.describe()
        self.vendor_people()
        self.link()
        self.comment()
        return self.payloads()

    # ---- a hardware vendor's people (topics.toml: rocm's authors) ----------------------------------------

    def vendor_people(self) -> None:
        """AMD's engineers (``*-amd``) and its shared team account (``vllmellm``) post real ROCm work, and a
        few of their items say nothing of the vendor: a Quark quantization PR, a kernel PR, an issue. Its own
        random stream, so the rest of the sample is what it was."""
        rng = random.Random(f"digest-bot-vendors:{self.seed}")
        people = [self._vendor_user(login, rng) for login in _VENDOR_LOGINS]
        fresh = [it for it in self.items if not it.old and not it.special and not it.forced and it.author]
        rocm_prs = [it for it in fresh if it.is_pr and it.topic == "rocm"]
        for it in rng.sample(rocm_prs, len(rocm_prs) // 2):  # half of the [ROCm] PRs: the vendor's own people
            self._give(it, rng.choice(people))
        quant_prs = [it for it in fresh if it.is_pr and it.topic == "quantization" and not it.kept]
        # Their other items name no vendor: only those whose words fit AMD hardware, moved onto an AMD stack.
        other_prs = [it for it in fresh if it.is_pr and it.topic in ("kernels", "moe", "performance")
                     and not platform_hint(it.title) and not it.kept]
        issues = [it for it in fresh if not it.is_pr and it.topic not in ("rocm", "stability")
                  and not platform_hint(it.title) and "{gpu}" not in it.purpose]
        per_days = max(1, self.days // 3)
        for it in rng.sample(quant_prs, min(per_days, len(quant_prs))):
            self._give(it, rng.choice(people[:2]))
            title = ""
            for _ in range(8):
                template, purpose = rng.choice(tx.QUARK_TITLES)
                model = rng.choice(tx.QUARK_MODELS)
                gpu = "MI355X" if "MXFP4" in template else rng.choice(("MI300X", "MI325X", "MI355X"))
                v = {"author": it.vars["author"], "platform": "amd", "gpu": gpu, "model_name": model}
                v["model"] = model_of(model).hf  # type: ignore[union-attr]
                title = fill(template, rng, {**v, "model": model}, self._dyn(it))
                if title not in self.seen_titles:
                    break
            self.seen_titles.add(title)
            it.title, it.vars, it.purpose, it.kept = title, v, purpose, True
        for it in [*rng.sample(other_prs, min(per_days, len(other_prs))), *rng.sample(issues, min(1, len(issues)))]:
            self._give(it, people[0])
            keep: dict[str, str] = {k: it.vars[k] for k in ("author", "model_name", "model", "model_kind", "version",
                                                             "version_old")
                    if k in it.vars}
            it.vars = {**keep, "platform": "amd"}

    def _vendor_user(self, login: str, rng: random.Random) -> _User:
        uid = rng.randrange(30_000_000, 200_000_000)
        return _User(login, "CONTRIBUTOR", _user_payload(login, uid, "User", self.api, self.html))

    @staticmethod
    def _give(it: _Item, user: _User) -> None:
        it.author = user
        it.vars["author"] = user.login


_LABEL_INFO = {name: (color, desc) for name, color, desc in _LABELS}

@lru_cache(maxsize=1024)  # many reports share an environment, and then the same string (memory)
def _env_dump(platform: str, gpu: str, arch: str, ngpu: int, version: str, py: str, sw: str) -> str:
    return tx.env_dump(platform, gpu, arch, ngpu, version, py, sw)


def _oom_log(g: Gpu) -> str:
    """The out-of-memory error as each platform words it, with the device's real capacity."""
    if g.platform == "tpu":
        return tx.LOGS["xla"]
    if g.platform in ("cpu", "hpu"):
        return ("ValueError: No available memory for the cache blocks. Try increasing `VLLM_CPU_KVCACHE_SPACE` "
                "when initializing the engine.")
    cap = g.mem * 0.9899
    name = {"amd": "HIP", "xpu": "XPU"}.get(g.platform, "CUDA")
    return (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", line 3120, in "
        "capture_model\n"
        "    self._dummy_run(num_tokens, cudagraph_runtime_mode=runtime_mode)\n"
        f"torch.OutOfMemoryError: {name} out of memory. Tried to allocate 1.75 GiB. GPU 0 has a total capacity of "
        f"{cap:.2f} GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has {cap - 1.02:.2f} "
        f"GiB memory in use. Of the allocated memory {cap - 4.9:.2f} GiB is allocated by PyTorch, and 1.91 GiB is "
        "reserved by PyTorch but unallocated."
    )


def _hf_guess(name: str) -> str:
    org = {"Qwen": "Qwen", "GLM": "zai-org", "Kimi": "moonshotai", "DeepSeek": "deepseek-ai", "Llama": "nvidia",
           "MiniMax": "MiniMaxAI", "gpt-oss": "openai",
           "Ling": "inclusionAI", "Ring": "inclusionAI", "Apertus": "swiss-ai", "Olmo": "allenai",
           "Hunyuan": "tencent", "ERNIE": "baidu", "Seed": "ByteDance-Seed", "LongCat": "meituan-longcat",
           "Nemotron": "nvidia", "PaddleOCR": "PaddlePaddle", "dots": "rednote-hilab", "Jamba": "ai21labs",
           "Falcon": "tiiuae"}
    for prefix, owner in org.items():
        if name.startswith(prefix):
            return f"{owner}/{name}"
    return f"community/{name}"


def _size_kind(it: _Item) -> str:
    if it.special in ("dependabot", "pre-commit"):
        return "deps"
    low = it.title.lower()
    return next((kind for kind, rx in _SIZE_RULES if rx.search(low)), "other")


def generate_repo(
    *,
    owner: str = "vllm-project",
    name: str = "vllm",
    end: datetime,
    days: int = 14,
    items_per_day: int = 150,
    comments_per_day: int = 600,
    seed: int = 0,
    api_url: str = "https://api.github.com",
    html_url: str = "https://github.com",
) -> SampleRepo:
    """Generate a busy vLLM-like tracker covering ``[end - days, end)``; same arguments, same output."""
    gen = _Generator(owner=owner, name=name, end=end, days=days, items_per_day=items_per_day,
                     comments_per_day=comments_per_day, seed=seed, api_url=api_url, html_url=html_url)
    return gen.run()
