"""The words of plain-language queries: synonyms, the words a question is framed in, and time in words.

A query may be typed as a question ("what's new with rocm hangs this week", "show me qwen crashes", "这周 rocm
有没有卡住的"): the words that frame it (``STOPWORDS``) are left out, Chinese frames and particles are cut out
of a run of Chinese characters (``ZH_SEPARATORS``), and time in words becomes a window (``zh_windows``, and the
English forms in ``bot.topics.query``). A word in quotes is always a word. Docs: docs/topics.md, "Queries".
"""

from __future__ import annotations

import re


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())

# Close synonyms: words people use for the *same* thing. A query word in a group matches every member; groups
# stay narrow on purpose ("regression" is not "slow", "hang" is not "timeout", "wrong" is not "garbage").
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("hang", "hangs", "hanging", "hung", "stuck", "freeze", "freezes", "freezing", "frozen", "deadlock",
     "deadlocks", "deadlocked", "卡住", "卡死", "死锁"),
    ("crash", "crashes", "crashed", "crashing", "segfault", "segfaults", "segmentation fault",
     "illegal memory access", "core dump", "core dumped", "sigsegv", "崩溃"),
    ("regression", "regressions", "regressed", "regresses", "回归"),
    ("slow", "slower", "slowdown", "slowdowns", "slowness", "变慢"),
    ("oom", "ooms", "out of memory", "outofmemoryerror", "显存不足"),
    ("wrong", "incorrect", "wrong output", "wrong outputs"),
    ("garbage", "gibberish", "garbled", "乱码"),
    ("leak", "leaks", "leaking", "leaked", "memory leak", "内存泄漏"),
)

# Words that frame a question rather than say what it is about: "what's new with", "show me", "any", "are
# there", "what happened to", "is there anything about". None names a topic or a symptom; "issues", "problems"
# and "news" are what every answer is made of. A filter (is:open, label:bug) says more than a word could.
STOPWORDS_EN = frozenset(_words("""
a an the any anything anyone some something me my i i'm im we us our you your it's its there here there's
is are was were be been being am do does did doing done has have had having can could would should will shall
with about on in of for to from into at by over around regarding re related concerning via
what what's whats which who who's how how's where why when
new newest latest recent recently lately currently now today's so far yet still just also last past previous
show shows showing tell find found get give list see look looking search searching check please pls
and or but if then than that this these those all every each other
happen happens happened happening going go goes up
news update updates status issue issues problem problems report reports stuff thing things
like want know need let let's
"""))

# Chinese frames and particles, as whole words (when typed apart: "看看 rocm 的 卡住")...
STOPWORDS_ZH = frozenset(_words("""
最近 近期 最新 新 新的 有 没有 有没有 有什么 有哪些 是否 是否有 看看 看一下 看下 查一下 查查 查看 搜索 显示 找 找找
给我 帮我 请 一下 关于 相关 的 吗 呢 了 吧 啊 呀 么 什么 哪些 问题 情况 进展 动态 怎么样 怎么了 发生了什么 出现
在 上 中 里 和 与 及 还有 都 我 我们 你 一些 任何 这些 那些 哪个 这个 那个 是
"""))

STOPWORDS = STOPWORDS_EN | STOPWORDS_ZH

# ...and cut out of a run of Chinese characters, where nothing separates words ("有没有卡住的" -> "卡住"); the
# longest first. Only frames and particles that are never part of a word a query would look for ("动态" and
# "请" are not here: 动态量化 is dynamic quantization, 请求 a request).
ZH_SEPARATORS: tuple[str, ...] = tuple(sorted(_words("""
发生了什么 怎么样 怎么了 有没有 有什么 有哪些 是否有 看一下 查一下 看看 查查 帮我 给我 关于 相关 最近 近期 最新
问题 情况 进展 哪些 什么 一下 的 吗 呢 了 吧 啊 呀
"""), key=lambda word: (-len(word), word)))

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{CJK}]+")
_ZH_PUNCTUATION = re.compile("[，。？！、；：（）【】《》…]")
# A run of Chinese next to Latin letters or digits: a word boundary Chinese does not write ("rocm有没有卡住").
_CJK_LATIN = re.compile(f"(?<=[{CJK}])(?=[A-Za-z0-9#])|(?<=[A-Za-z0-9])(?=[{CJK}])")

# Numbers in words, for "last three days" and "最近三天".
EN_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
              "ten": 10, "eleven": 11, "twelve": 12}
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}

# Time in Chinese, as the English window tokens the grammar reads: fixed words, then "最近三天", "近 7 天",
# "过去两周", "24小时内" (a number and a unit, with or without 最近/近/过去/前 before it).
_ZH_FIXED = (
    (("今天", "今日"), " today "),
    (("昨天", "昨日"), " yesterday "),
    (("这一周", "这个星期", "这个礼拜", "本星期", "本礼拜", "这星期", "这礼拜", "本周", "这周"), " this week "),
    (("上一周", "上个星期", "上个礼拜", "上星期", "上礼拜", "上周"), " last week "),
)
_ZH_NUMBER = r"(\d{1,4}|[零〇一二两三四五六七八九十]{1,3})"
# A number right after Latin letters or digits is part of a name ("qwen3天" is not "qwen" over 3 days).
_ZH_SPAN = re.compile(rf"(?:(最近|近|过去|前)\s*|(?<![A-Za-z0-9._-])){_ZH_NUMBER}\s*"
                      "(个小时|小时|钟头|天|个星期|星期|个礼拜|礼拜|周|个月|日)(?:以内|之内|内|里)?")
_ZH_UNITS = {"个小时": "h", "小时": "h", "钟头": "h", "天": "d", "日": "d", "个星期": "w", "星期": "w", "个礼拜": "w",
             "礼拜": "w", "周": "w", "个月": "m"}


def zh_number(text: str) -> int | None:
    """1 to 99 in Chinese numerals (三, 十二, 二十四) or digits; None for anything else."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        if "十" in ones or (tens and tens not in _ZH_DIGITS) or (ones and ones not in _ZH_DIGITS):
            return None
        return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)
    return _ZH_DIGITS.get(text) if len(text) == 1 else None


def relative_token(amount: int, unit: str) -> str:
    """A relative window as the grammar's token: hours, days, weeks; a month is 30 days."""
    return f"{amount * 30}d" if unit == "m" else f"{amount}{unit}"


def _zh_span(match: re.Match[str]) -> str:
    prefix, number, unit = match[1], match[2], match[3]
    amount = zh_number(number)
    if amount is None or (unit == "日" and not prefix):  # "3日" alone is a date ("the 3rd"), not three days
        return match[0]
    return f" {relative_token(amount, _ZH_UNITS[unit])} "


def zh_windows(text: str) -> str:
    """Chinese time words as the grammar's window tokens: "这周" -> "this week", "最近三天" -> "3d"."""
    if not _CJK_RUN.search(text):
        return text
    for words, token in _ZH_FIXED:
        for word in words:
            text = text.replace(word, token)
    return _ZH_SPAN.sub(_zh_span, text)


def split_chinese(text: str) -> tuple[str, list[str]]:
    """``text`` with Chinese punctuation as spaces, a space where Chinese meets Latin letters or digits, and
    frames and particles cut out of runs of Chinese; and what was cut out."""
    if not _CJK_RUN.search(text):
        return text, []
    text = _CJK_LATIN.sub(" ", _ZH_PUNCTUATION.sub(" ", text))
    cut: list[str] = []

    def separate(run: re.Match[str]) -> str:
        words = run[0]
        for frame in ZH_SEPARATORS:
            if frame in words and words != frame:
                cut.extend([frame] * words.count(frame))
                words = words.replace(frame, " ")
        return words

    return _CJK_RUN.sub(separate, text), cut
