"""An item's facts in words: one short line of ours (``facts_line``) and the body's own sentence (``description``).

``bot.digest.facts`` found the facts (``bot.model.ItemFacts``); this module says only those that add to what a
reader already sees: the title (a version, a model, an error message or a figure the title names is left out),
the byline (state, kind and author are shown there) and the reason it is listed (a ``NewBug``'s confirmations,
a key change's size or speed-up). The fixed words are in ``formatters.locale`` (``facts``); the values are
GitHub's text (an error line, model and hardware names), unescaped: callers escape the whole line for their
output, like a title.
"""

from __future__ import annotations

import re
from typing import Any

from bot.locales import normalise_locale
from bot.model import DigestItem, InReview, ItemFacts, Merged, NewBug
from formatters.locale import strings
from formatters.reasons import counted

__all__ = ["description", "facts_line"]

_MAX_HARDWARE = 2
_MAX_FIXES = 3
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NOT_ALNUM = re.compile(r"[\W_]+")
_TITLE_TAGS = re.compile(r"^\s*(?:\[[^\]\n]{0,40}\]\s*:?\s*){1,4}")  # "[Bug]: ", "[ROCm][Perf] "


def facts_line(item: DigestItem, locale: str | None) -> str:
    """What the item's facts add to its title, byline and reason, in ``locale``'s words, parts joined by " · "
    ("" when nothing does). Issues: the error, the model, the hardware, the parallelism, the version (and
    whether it worked before), how many others have it, who of the project replied first. PRs: the issues it
    fixes, what it follows up, the figure it quotes, the hardware, its size, a first-time contributor's, who of
    the project replied first."""
    facts = item.facts
    if facts is None:
        return ""
    words: dict[str, Any] = strings(locale)
    said: dict[str, Any] = words["facts"]
    title = item.title.casefold()
    parts = (_pr_parts if item.kind == "pr" else _issue_parts)(item, facts, said, words, title)
    if facts.first_reply and facts.first_reply != item.author:
        parts.append(said["replied"].format(login=facts.first_reply))
    # Chinese puts no space after a full-width bracket: "v0.11.1（升级后出现）· @x 已回复"
    return str(said["sep"]).join(part for part in parts if part).replace("） · ", "）· ")


def description(item: DigestItem, locale: str | None) -> str:
    """The body's own sentence that says more than the title, for an English reader; "" under zh-CN (the reader
    sees the title alone, or the LLM's text where one is configured) and when the body has none."""
    if normalise_locale(locale) != "en" or item.facts is None:
        return ""
    sentence = item.facts.sentence
    bare_title = _NOT_ALNUM.sub("", _TITLE_TAGS.sub("", item.title).casefold())
    if not sentence or (len(bare_title) >= 4 and bare_title in _NOT_ALNUM.sub("", sentence.casefold())):
        return ""  # the extractor never keeps such a sentence: this only guards a hand-made item
    return sentence


def _issue_parts(
    item: DigestItem, facts: ItemFacts, said: dict[str, Any], words: dict[str, Any], title: str
) -> list[str]:
    parts: list[str] = []
    if facts.error and not _error_in_title(facts.error, title):
        # our code span marks the quote: a backtick of its own would end it early
        parts.append(said["error"].format(error=facts.error.replace("`", "'")))
    model = next((m for m in (_short_model(m) for m in facts.models) if m.casefold() not in title), "")
    parts.append(model)
    parts.append(_hardware(facts, words, title))
    parts.append(" ".join(p for p in facts.parallel if not _parallel_in_title(p, title)))
    parts.append(_version(facts, said, title))
    confirmed = isinstance(item.why, NewBug) and item.why.confirmations > 0
    if facts.confirmations and not confirmed:
        parts.append(counted(said["confirmed"], facts.confirmations).format(n=facts.confirmations))
    return parts


def _pr_parts(
    item: DigestItem, facts: ItemFacts, said: dict[str, Any], words: dict[str, Any], title: str
) -> list[str]:
    parts: list[str] = []
    fixes = [n for n in facts.fixes if f"#{n}" not in title][:_MAX_FIXES]
    if fixes:
        parts.append(said["fixes"].format(refs=str(words["list_sep"]).join(f"#{n}" for n in fixes)))
    if facts.follow_up is not None and f"#{facts.follow_up}" not in title:
        parts.append(said["follow_up"].format(number=facts.follow_up))
    signals = item.why.signals if isinstance(item.why, Merged | InReview) else ()
    if facts.figure and not _figure_known(facts.figure, title, signals):
        parts.append(facts.figure)
    parts.append(_hardware(facts, words, title))
    if not any(signal.kind in ("lines", "files") for signal in signals):
        parts.append(_size(facts, said))
    if facts.first_time:
        parts.append(said["first_time"])
    return parts


def _error_in_title(error: str, title: str) -> bool:
    name, _, message = error.partition(": ")
    said = (message or name).casefold().rstrip("…")
    return said in title


def _parallel_in_title(parallel: str, title: str) -> bool:
    """Whether the title names this parallelism ("TP=8", "tp8", "TP 8"; "EP", "expert parallel")."""
    kind, _, size = parallel.casefold().partition("=")
    if kind == "ep":
        return re.search(r"(?<![a-z])ep(?![a-z])|expert[ -]parallel", title) is not None
    return re.search(rf"(?<![a-z]){kind}[ =]?{size}(?!\d)", title) is not None


def _short_model(model: str) -> str:
    """A model's name without its owner ("Qwen/Qwen3-8B" -> "Qwen3-8B"): the title and the byline name the rest."""
    return model.rsplit("/", 1)[-1]


def _hardware(facts: ItemFacts, words: dict[str, Any], title: str) -> str:
    named = [name for name in facts.hardware if name.casefold() not in title
             and name.casefold().split(" ")[-1] not in title.split()]
    return str(words["list_sep"]).join(named[:_MAX_HARDWARE])


def _version(facts: ItemFacts, said: dict[str, Any], title: str) -> str:
    version = facts.version if facts.version and facts.version not in title else ""
    worked = facts.worked_in if facts.worked_in and facts.worked_in not in title else ""
    if version and worked:
        return str(said["version_worked"].format(version=version, worked=worked))
    if version:
        return str(said["version_upgrade" if facts.since_upgrade else "version"].format(version=version))
    if worked:
        return str(said["worked"].format(worked=worked))
    if facts.since_upgrade and not facts.version:
        return str(said["upgrade"])
    return ""


def _figure_known(figure: str, title: str, signals: tuple[Any, ...]) -> bool:
    """Whether the title or the reason's speed-up already quotes the figure's numbers."""
    numbers = _NUMBER.findall(figure)
    if numbers and all(number in title for number in numbers):
        return True
    quoted = [s.value for s in signals if s.kind == "speedup" and s.value]
    return any(value.replace(" ", "") in figure.replace(" ", "") for value in quoted)


def _size(facts: ItemFacts, said: dict[str, Any]) -> str:
    files = facts.files
    if facts.additions is not None and facts.deletions is not None:
        if files:
            entry = counted(said["size"], files)
            return entry.format(additions=facts.additions, deletions=facts.deletions, files=files)
        return str(said["lines"].format(additions=facts.additions, deletions=facts.deletions))
    if files:
        return counted(said["files"], files).format(files=files)
    return ""
