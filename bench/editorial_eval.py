"""How often the digest's picks agree with people's (issue #13; docs/editorial.md "Labelling a day by hand").

    python -m bench.editorial_eval                       # every day, every labeller under labels/
    python -m bench.editorial_eval --picks               # also print the bot's picks per day
    python -m bench.editorial_eval --labels DIR          # labels from elsewhere (DIR/<labeller>/<day-id>.json)

For each day under tests/data/editorial/days/ (built by bench/editorial_days.py): a FakeGitHub serves the
day's payloads, the real Syncer copies them into a temporary SQLite store (its clock at the window's end), and
``DigestService.build_digest`` builds that window's digest without the LLM, as ``digest-bot demo`` does. The
bot's top 3 ``hot``, top 5 ``key_changes`` and top 5 ``notable`` item numbers are compared with each labeller's
lists: agreement = |bot top-k ∩ label top-k| / min(k, len(label list)), undefined (skipped) when the labeller
picked none. Means are reported separately for the days the ranking was tuned on (tuned.txt) and the others,
and labellers are compared with each other where two labelled the same day.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx

from bench.common import print_table
from bot.app.service import DigestService
from bot.demo.fake_github import FakeGitHub
from bot.digest.window import default_window
from bot.github.factory import build_syncer, github_client
from bot.settings import Settings, load_settings
from bot.store.store import Store

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "editorial"
DAYS_DIR = DATA / "days"
LABELS_DIR = DATA / "labels"
TUNED_FILE = DATA / "tuned.txt"
CONFIG_DIR = ROOT / "config"
MOCK_API = "https://api.github.invalid"  # never resolved: MockTransport answers in-process

# Section id -> how many of the bot's and the labeller's top items are compared (the channel message's sizes).
TOP_K: dict[str, int] = {"hot": 3, "key_changes": 5, "notable": 5}
SECTIONS = tuple(TOP_K)

Picks = dict[str, list[int]]  # section id -> item numbers, best first


# --- days and labels ---------------------------------------------------------------------------------------


def load_day(path: Path) -> dict[str, Any]:
    day = json.loads(path.read_text(encoding="utf-8"))
    day.setdefault("id", path.stem)
    return day


def load_days(days_dir: Path = DAYS_DIR, only: Iterable[str] = ()) -> list[dict[str, Any]]:
    wanted = set(only)
    return [load_day(path) for path in sorted(days_dir.glob("*.json")) if not wanted or path.stem in wanted]


def load_tuned(path: Path = TUNED_FILE) -> set[str]:
    """What the ranking was tuned on, one a line (# comments allowed): a day id (every section of that day), or
    a day id and a section ("gen-s11-2025-10-08 key_changes"), read as "<day>:<section>"."""
    if not path.exists():
        return set()
    lines = (line.split("#", 1)[0].split() for line in path.read_text(encoding="utf-8").splitlines())
    return {":".join(words) for words in lines if words}


def read_label_file(path: Path) -> Picks:
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: a label file is a JSON object")
    unknown = set(raw) - set(SECTIONS)
    if unknown:
        raise ValueError(f"{path}: unknown sections {sorted(unknown)} (expected {list(SECTIONS)})")
    picks: Picks = {}
    for section in SECTIONS:
        numbers = raw.get(section, [])
        if not isinstance(numbers, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise ValueError(f"{path}: {section} must be a list of item numbers")
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"{path}: {section} lists an item twice")
        picks[section] = list(numbers)
    return picks


def load_labels(labels_dir: Path = LABELS_DIR) -> dict[str, dict[str, Picks]]:
    """labeller -> day id -> picks, from ``labels_dir/<labeller>/<day-id>.json``."""
    labels: dict[str, dict[str, Picks]] = {}
    if not labels_dir.is_dir():
        return labels
    for folder in sorted(p for p in labels_dir.iterdir() if p.is_dir()):
        days = {path.stem: read_label_file(path) for path in sorted(folder.glob("*.json"))}
        if days:
            labels[folder.name] = days
    return labels


# --- the bot's picks ----------------------------------------------------------------------------------------


def eval_settings() -> Settings:
    # env={}: a developer's DATABASE_URL, GITHUB_TOKEN or LLM_* must not change what is measured.
    return load_settings(CONFIG_DIR, env={})


def day_end(day: Mapping[str, Any]) -> datetime:
    return datetime.fromisoformat(str(day["end"]).replace("Z", "+00:00")).astimezone(UTC)


def serve(day: Mapping[str, Any]) -> FakeGitHub:
    """A fake GitHub holding the day as GitHub would have answered at the window's end."""
    fake = FakeGitHub(base_url=MOCK_API, rate_limit=10**9)
    fake.add_repo(day["repo"], day["issues"], day["comments"])
    add_pulls = getattr(fake, "add_pulls", None)  # PR details, where the fake serves them
    if add_pulls is not None:
        add_pulls(day["repo"], day.get("pulls", []))
    return fake


def _lookback(day: Mapping[str, Any], end: datetime) -> timedelta:
    """Far enough back that the first sync lists every payload of the day."""
    stamps = [p["updated_at"] for p in day["issues"]] + [c["updated_at"] for c in day["comments"]]
    oldest = min((datetime.fromisoformat(s.replace("Z", "+00:00")) for s in stamps), default=end)
    return end - oldest + timedelta(days=1)


async def _sync(store: Store, fake: FakeGitHub, settings: Settings, day: Mapping[str, Any], end: datetime) -> None:
    async with github_client(settings, api_url=MOCK_API, transport=httpx.MockTransport(fake.handler)) as client:
        syncer = build_syncer(store, settings, client, lookback=_lookback(day, end), clock=lambda: end)
        await syncer.sync(day["repo"])


def bot_picks(day: Mapping[str, Any], settings: Settings | None = None) -> Picks:
    """The digest's top items per section for the day's window: real sync, real digest, no LLM."""
    settings = settings or eval_settings()
    end = day_end(day)
    zone = ZoneInfo(str(day.get("timezone") or settings.digest.timezone))
    window = default_window(end, zone, settings.digest.post_time)
    if window.end != end:
        raise ValueError(f"day {day.get('id')}: its end {end} is not a post time ({settings.digest.post_time} {zone})")
    with tempfile.TemporaryDirectory(prefix="editorial-eval-") as folder:
        store = Store.open(f"sqlite:///{Path(folder) / 'day.sqlite3'}")
        try:
            asyncio.run(_sync(store, serve(day), settings, day, end))
            service = DigestService(store, settings, build_threads=1, build_processes=0)
            try:
                context = service.default_context(repo=str(day["repo"]), locale="en")
                digest = service.build_digest(context, window, analyse=False)
            finally:
                service.close()
        finally:
            store.close()
    picks: Picks = {}
    for section_id, k in TOP_K.items():
        section = digest.section(section_id)
        picks[section_id] = [item.number for item in section.items[:k]] if section is not None else []
    return picks


# --- agreement ----------------------------------------------------------------------------------------------


def agreement(ours: Sequence[int], theirs: Sequence[int], k: int) -> float | None:
    """|our top-k ∩ their top-k| / min(k, len(theirs)); None when they picked nothing (no basis to agree on)."""
    if not theirs:
        return None
    return len(set(ours[:k]) & set(theirs[:k])) / min(k, len(theirs))


def mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


@dataclass(frozen=True)
class Score:
    labeller: str
    day: str
    section: str
    value: float | None
    tuned: bool


def score(picks: Mapping[str, Picks], labels: Mapping[str, Mapping[str, Picks]], tuned: set[str]) -> list[Score]:
    """One score per (labeller, labelled day with bot picks, section)."""
    scores = []
    for labeller, days in sorted(labels.items()):
        for day_id, theirs in sorted(days.items()):
            if day_id not in picks:
                continue
            for section, k in TOP_K.items():
                value = agreement(picks[day_id][section], theirs.get(section, []), k)
                scores.append(Score(labeller, day_id, section, value, bool({day_id, f"{day_id}:{section}"} & tuned)))
    return scores


def section_means(scores: Sequence[Score], *, tuned: bool) -> dict[str, float | None]:
    """Per section, the mean over (labeller, day) pairs on tuned or on held-out days."""
    return {section: mean(s.value for s in scores if s.section == section and s.tuned == tuned)
            for section in SECTIONS}


def between_labellers(labels: Mapping[str, Mapping[str, Picks]]) -> list[tuple[str, str, str, str, float | None]]:
    """(labeller a, labeller b, day, section, agreement of a's top-k with b's) for days both labelled.

    Symmetric by construction: the overlap over the smaller of the two lists' top-k."""
    rows = []
    names = sorted(labels)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for day_id in sorted(set(labels[a]) & set(labels[b])):
                for section, k in TOP_K.items():
                    ours, theirs = labels[a][day_id].get(section, []), labels[b][day_id].get(section, [])
                    value = None
                    if ours and theirs:
                        value = len(set(ours[:k]) & set(theirs[:k])) / min(k, len(ours), len(theirs))
                    rows.append((a, b, day_id, section, value))
    return rows


# --- printing -----------------------------------------------------------------------------------------------


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def report(picks: Mapping[str, Picks], labels: Mapping[str, Mapping[str, Picks]], tuned: set[str],
           *, show_picks: bool = False) -> list[Score]:
    if show_picks:
        print("bot picks (top-k per section, best first):")
        print_table(["day", *SECTIONS], [[day, *(" ".join(map(str, p[s])) or "-" for s in SECTIONS)]
                                         for day, p in sorted(picks.items())])
    scores = score(picks, labels, tuned)
    if not scores:
        print(f"no labels for these days yet (expected {LABELS_DIR.relative_to(ROOT)}/<labeller>/<day-id>.json)")
        return scores
    print("agreement per labeller and day (|bot top-k ∩ label top-k| / min(k, label size)):")
    rows = []
    for labeller, day_id in sorted({(s.labeller, s.day) for s in scores}):
        by_section = {s.section: s.value for s in scores if s.labeller == labeller and s.day == day_id}
        rows.append([labeller, day_id, "tuned" if day_id in tuned else "held out",
                     *(fmt(by_section[s]) for s in SECTIONS)])
    print_table(["labeller", "day", "set", *(f"{s} @{k}" for s, k in TOP_K.items())], rows)
    print("means over (labeller, day):")
    print_table(["set", *SECTIONS], [
        [name, *(fmt(v) for v in section_means(scores, tuned=flag).values())]
        for name, flag in (("held out", False), ("tuned", True))
    ])
    pairs = between_labellers(labels)
    if pairs:
        print("between labellers (same day):")
        print_table(["a", "b", "day", "section", "agreement"], [[*row[:4], fmt(row[4])] for row in pairs])
        print_table(["section", "mean between labellers"],
                    [[s, fmt(mean(row[4] for row in pairs if row[3] == s))] for s in SECTIONS])
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labels", type=Path, default=LABELS_DIR, help="folder of <labeller>/<day-id>.json")
    parser.add_argument("--day", action="append", default=[], help="only this day (repeatable)")
    parser.add_argument("--picks", action="store_true", help="print the bot's picks per day")
    args = parser.parse_args(argv)
    settings = eval_settings()
    days = load_days(only=args.day)
    if not days:
        print(f"no days under {DAYS_DIR.relative_to(ROOT)}: run `python bench/editorial_days.py build` first")
        return 1
    picks = {str(day["id"]): bot_picks(day, settings) for day in days}
    report(picks, load_labels(args.labels), load_tuned(), show_picks=args.picks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
