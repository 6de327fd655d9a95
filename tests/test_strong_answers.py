"""Strong answers pass the grounding; weak ones do not: against the real prompts of a stored day's digest.

The day is a stored evaluation day (``tests/data/editorial/days/hand-a-2025-11-25.json``: vllm-project/vllm's
GitHub payloads, as ``bench/editorial_eval.py`` serves them): a fake GitHub serves it, the real ``Syncer``
copies it into a temporary store, the real builder builds its window's digest in en and zh-CN, and each part's
prompt is rendered by the analyst's own code (``Analyst._prepare``: the summary, the hot discussions, the key
changes), so every answer below is held to exactly the facts a model would see. What the analyst asks about is
pinned, not ranked: the digest's ``hot`` and ``key_changes`` sections are replaced by fixed items of that day
(``HOT``, ``KEY_CHANGES``: the builder's own entries for them, every field as built) and its draft summary by
a fixed sentence (``DRAFT``), so the prompts move with the stored day, these pins and the prompt templates, not
with the ranking rules, the summary's wording or the demo's sample. (The summary's trends and busiest areas are
still the builder's, from the topic rules: two summaries name NVIDIA / CUDA and its 11 items. No answer leans
on a hot item's streak, which the ranking of the days before decides.)

The strong answers are hand-written as a capable model (GPT-4-class) writes them for those prompts: their own
words, the handles, items, model names and figures of the prompt, and what a careful writer derives from it (the
window's "24 hours", 25 = 24 + 1 closed PRs, 57 = 34 + 23 new items, "1.4x", "almost 60%", "the five key
changes", "过去一天", "三个讨论"); each goes through ``validate``, the path an answer takes before it is used or
cached. The weak ones are refused, each for the kind of failure it has.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from msgspec import structs

from bench.editorial_eval import DAYS_DIR, _sync, day_end, eval_settings, load_day, serve
from bot.analysis.analyst import DISCUSSION, IMPACT, SUMMARY, Analyst, Fallback, _Part, validate
from bot.analysis.grounding import (
    ECHO,
    INVENTED_ITEM,
    INVENTED_NAME,
    INVENTED_NUMBER,
    INVENTED_PERSON,
    LENGTH,
    WRONG_LANGUAGE,
    Facts,
    check,
)
from bot.app.service import DigestService
from bot.digest.window import default_window
from bot.model import Analysis, Digest, DigestItem
from bot.store.store import Store

LOCALES = ("en", "zh-CN")
DAY = DAYS_DIR / "hand-a-2025-11-25.json"
# The pins, real items of that day. Hot: the threads with the most comments in the window that have their entry in
# hot (#29401, as hot, is a new bug: its entry is in notable). Key changes: merged PRs, the two editors' picks.
HOT = (29112, 29205, 29150, 29340, 29429)
KEY_CHANGES = (29177, 29402, 29263, 29290, 29301)
# The deterministic summary, written from the day's counts (the builder's wording may change; this does not).
DRAFT = {
    "en": "Busy day: 34 new PRs, 24 merged, 1 closed unmerged; 23 new issues, 3 closed. The hottest discussion is "
          "#29112, and the first key change is #29177.",
    "zh-CN": "今天很忙：新 PR 34 个，合并 24 个，关闭未合并 1 个；新 Issue 23 个，关闭 3 个。讨论最热的是 #29112，"
             "第一项重点变更是 #29177。",
}


def _item(digest: Digest, number: int, section_id: str) -> DigestItem:
    """The built digest's own entry for ``number``: from ``section_id`` where the builder put it there too, else
    from another section or the appendix, so every field of it is real."""
    preferred = digest.section(section_id)
    pools = [preferred.items if preferred is not None else (), *(s.items for s in digest.sections),
             *digest.appendix.values()]
    found = next((item for pool in pools for item in pool if item.number == number), None)
    if found is None:
        raise LookupError(f"#{number} is in no section or list of the {DAY.stem} digest: pin another item")
    return found


def pinned(digest: Digest, locale: str) -> Digest:
    """``digest`` asking about the pinned items, with the pinned draft summary; its edition is worked out again."""
    pins = {"hot": HOT, "key_changes": KEY_CHANGES}
    sections = tuple(
        structs.replace(section, items=tuple(_item(digest, n, section.id) for n in pins[section.id]))
        if section.id in pins else section
        for section in digest.sections
    )
    assert {section.id for section in sections} >= set(pins)
    assert digest.narrative is not None
    narrative = structs.replace(digest.narrative, summary=DRAFT[locale])
    return structs.replace(digest, sections=sections, narrative=narrative, edition=None)


@pytest.fixture(scope="module")
def prompts() -> Iterator[dict[tuple[str, str], _Part]]:
    """(locale, part label) -> the part the analyst asks for the pinned digest of the day: its prompt and facts."""
    day = load_day(DAY)
    settings = eval_settings()
    end = day_end(day)
    window = default_window(end, ZoneInfo(str(day["timezone"])), settings.digest.post_time)
    assert window.end == end, (window, end)  # the day is stored up to a post time: its window is that day
    with tempfile.TemporaryDirectory(prefix="digest-bot-strong-") as folder:
        store = Store.open(f"sqlite:///{Path(folder) / 'day.sqlite3'}")
        try:
            asyncio.run(_sync(store, serve(day), settings, day, end))
            service = DigestService(store, settings, build_threads=1, build_processes=0)
            parts: dict[tuple[str, str], _Part] = {}
            try:
                for locale in LOCALES:
                    # a reader following no topic: every pinned discussion has its entry (and its analysis) in hot
                    context = structs.replace(service.default_context(repo=str(day["repo"]), locale=locale),
                                                  topics=())
                    digest = pinned(service.build_digest(context, window, analyse=False), locale)
                    parts.update(((locale, part.label), part) for part in Analyst(store, settings)._prepare(digest))
            finally:
                service.close()
            yield parts
        finally:
            store.close()


# --- strong answers, per locale: (part label, answer) ---

EN_SUMMARIES = [
    "A busy 24 hours for vllm-project/vllm: 34 new PRs and 23 new issues arrived, and 25 PRs were closed, 24 of "
    "them merged (a 96% merge rate, with a median of 8.5 hours to merge). The RFC #29112 to turn on async "
    "scheduling by default in V1 drew the most discussion with 10 comments, and among the five key changes #29402 "
    "fixes an illegal memory access in FlashInfer MLA decode under CUDA graphs.",
    "It was a productive day with 57 new PRs and issues. Merges nearly kept pace with new PRs, 24 merged against "
    "34 opened, so only 10 more PRs were opened than merged, while issues piled up with 23 new and 3 closed. In all, "
    "65 people contributed, 3 of them for the first time. The threads to watch are #29205, where Qwen3-Next-80B-A3B "
    "gives gibberish with prefix caching on v0.11.2, and the NIXL heterogeneous TP work in #29150.",
    "Over the past day new PRs outnumbered merges 1.4x (34 against 24) and new issues outnumbered closed ones 7.7x "
    "(23 against 3), so the open issue backlog grew by 20. NVIDIA / CUDA was among the busiest areas with 11 items. "
    "The top three discussions, #29112, #29205 and #29150, drew 21 comments between them, led by the async "
    "scheduling RFC with 10.",
    "A strong day for merges: 24 of the 25 PRs closed were merged, leaving only 4% closed without merging, and the "
    "median merge took 8.5 h. Almost 60% of the 57 new items were PRs. Key changes include Mistral Large 3 support "
    "(#29177), output processing overlapped with the next forward pass in AsyncLLM (#29263) and AITER fused MoE "
    "for FP8 weights on MI355X (#29290); two of the five hottest threads, #29205 and #29340, are bug reports.",
    "A steady day with 65 contributors, of whom 3 (4.6%) were first-timers, and 24 merged PRs. The key changes add "
    "Mistral Large 3, fix the FlashInfer MLA crash under CUDA graphs (#29402) and raise the default "
    "--max-num-batched-tokens to 8192 on GPUs with at least 70 GiB (#29301). Among the discussions, the "
    "Qwen3-Next-80B-A3B prefix caching bug (#29205) drew 6 comments and EAGLE-3 for Llama 4 Maverick (#29429) "
    "drew 3.",
]
EN_DISCUSSIONS = [
    ("discussion #29112", {
        "question": "Should V1 turn on async scheduling by default, so that most users get the throughput it brings "
                    "on small models?",
        "positions": "mgrant proposes the default with automatic fallbacks for pipeline parallel and structured "
                     "output; aurelien-m wants the change logged at startup, pkowalski asks for a clean "
                     "structured-output fallback, and dsouza-r saw +6% on Llama-3.1-8B on MI300X.",
        "status": "Agreed: jiayi-xu approved the RFC, and mgrant plans to merge the implementation in #29450 once "
                  "the v0.12.0 branch is cut.",
    }),
    ("discussion #29205", {
        "question": "Why does Qwen3-Next-80B-A3B produce gibberish with prefix caching on v0.11.2 when requests "
                    "share a long system prompt?",
        "positions": "hyeonwoo-k traced it to hybrid models not restoring their conv/ssm state on a cache hit, and "
                     "li-hao-qw found that only prefixes that are not a multiple of the block size break it; "
                     "zzq-infer and chen-jl hit it too.",
        "status": "Fix proposed: the full fix needs the KV cache spec refactor in #29414, and hyeonwoo-k promises "
                  "a smaller patch for 0.11.3 with a test; zzq-infer has pinned 0.11.0 meanwhile.",
    }),
    ("discussion #29150", {
        "question": "Can the NIXL connector let prefill and decode instances run with different tensor parallel "
                    "sizes?",
        "positions": "kvcache-lab splits and merges heads at transfer time and moved that into the connector at "
                     "aurelien-m's request; dsouza-r asked about decode TP above prefill TP with few KV heads, "
                     "which now replicates heads.",
        "status": "Nearly ready: aurelien-m ran it on a 2-node setup, the nits are addressed and dsouza-r is happy "
                  "with it, so only aurelien-m's final approval is missing.",
    }),
    ("discussion #29340", {
        "question": "Why are the arguments of gpt-oss-120b's streamed tool calls sometimes not valid JSON?",
        "positions": "deepfry-ai sees about 1 in 50 streamed calls missing a closing brace and emma-w sees it with "
                     "the openai tool parser as well; emilyt found that the harmony parser loses the final delta "
                     "when it comes together with the finish reason.",
        "status": "Fix proposed: emilyt will send a fix and deepfry-ai offered to test it.",
    }),
    ("discussion #29429", {
        "question": "Is the EAGLE-3 draft head for Llama 4 Maverick ready, and does it work with async scheduling?",
        "positions": "fzhou-ml reports a 1.7x decode speed-up at batch 1 and, asked by mgrant, says it falls back "
                     "to sync scheduling for now; raghav-s measured 1.65x at batch 1 on 8xH200.",
        "status": "In review as a new PR: the early results hold up, and none of its three comments objects.",
    }),
]
EN_IMPACTS = [
    ("impact #29177", "Mistral Large 3, a 675B MoE model with 41B active, can now be served, reusing the DeepSeek-V3 "
                      "MLA and fused MoE paths, with tool calling through the mistral parser."),
    ("impact #29402", "DeepSeek-V3.2-Exp on H200 no longer dies with an illegal memory access after hours under "
                      "load, because the MLA decode workspace is now allocated once for the largest batch bucket."),
    ("impact #29263", "Serving gets faster because detokenization now runs on a separate thread while the GPU works "
                      "on the next step: 1.43x the throughput on Llama-3.1-8B-Instruct and a 22% lower TPOT p50."),
    ("impact #29290", "Block-scaled FP8 MoE models such as DeepSeek-R1 get 38% more output throughput on MI355X, "
                      "where AITER's fused MoE kernel is now used by default."),
    ("impact #29301", "On GPUs with at least 70 GiB, chunked prefill now batches up to 8192 tokens by default "
                      "instead of 2048, giving prefill-heavy workloads 31% more throughput; explicit settings are "
                      "left alone."),
]
ZH_SUMMARIES = [
    "过去 24 小时 vllm-project/vllm 相当忙碌：新开 34 个 PR、23 个 Issue，关闭的 25 个 PR 中有 24 个合并，合并率 "
    "96%，合并耗时中位数 8.5 小时。讨论最热的是把 V1 的 async scheduling 默认打开的 RFC（#29112），今天有 10 条评论。",
    "今天新增 PR 和 Issue 共 57 个：PR 新开 34 个、合并 24 个，新开比合并多 10 个；Issue 只关闭了 3 个，积压增加了 "
    "20 个。65 位贡献者中有 3 位是首次贡献。值得关注的是 #29205：Qwen3-Next-80B-A3B 在 v0.11.2 上开启 prefix "
    "caching 后会输出乱码。",
    "过去一天，新 PR 数是合并数的 1.4 倍，新 Issue 数是关闭数的 7.7 倍。最热的三个讨论 #29112、#29205 和 #29150 "
    "共有 21 条评论。五项重点变更全部已合并，包括 Mistral Large 3 支持（#29177）和修复 FlashInfer MLA decode 在 "
    "CUDA graph 下非法内存访问的 #29402。",
    "过去一天 PR 合并很顺畅：关闭的 25 个 PR 里只有 1 个未合并，合并率 96%。NVIDIA / CUDA 有 11 项，是最活跃的"
    "领域之一。重点变更中，#29263 让 AsyncLLM 的输出处理与下一步的 forward 重叠执行，#29290 让 MI355X 上的 "
    "FP8 MoE 使用 AITER 的 fused MoE kernel。",
    "这一天共有 65 位贡献者参与，其中 3 位是首次贡献，约占 4.6%。热门讨论里有两个 bug：#29205（Qwen3-Next-80B-A3B "
    "开启 prefix caching 后输出乱码）和 #29340（gpt-oss-120b 流式 tool call 的 arguments 不是合法 JSON）。另外，"
    "#29301 把显存不少于 70 GiB 的 GPU 上 --max-num-batched-tokens 的默认值提高到了 8192。",
]
ZH_DISCUSSIONS = [
    ("discussion #29112", {
        "question": "V1 是否应默认开启 async scheduling，让大多数用户都能拿到它在小模型上的吞吐提升？",
        "positions": "mgrant 提议默认开启，并在 pipeline parallel 和 structured output 上自动回退；aurelien-m "
                     "担心默认值悄悄改变，希望启动时打日志；dsouza-r 在 MI300X 上测得 Llama-3.1-8B 提升 6%，不反对。",
        "status": "已达成一致：jiayi-xu 批准了 RFC，实现在 #29450，mgrant 计划在 v0.12.0 分支切出后合并。",
    }),
    ("discussion #29205", {
        "question": "为什么 Qwen3-Next-80B-A3B 在 v0.11.2 上开启 prefix caching 后，共享长 system prompt 的请求"
                    "会输出乱码？",
        "positions": "hyeonwoo-k 认为混合模型在缓存命中时没有恢复 conv/ssm 状态；li-hao-qw 发现只有共享前缀不是 "
                     "block size 整数倍时才会出错，qwen-user-77 确认了这一点，zzq-infer 和 chen-jl 也遇到了。",
        "status": "已有修复方案：完整修复依赖 #29414 的 KV cache spec 重构，hyeonwoo-k 会先为 0.11.3 提供一个带测试的"
                  "小补丁。",
    }),
    ("discussion #29150", {
        "question": "NIXL connector 能否支持 prefill 和 decode 实例使用不同的 TP 大小？",
        "positions": "kvcache-lab 在传输时拆分、合并 heads，并按 aurelien-m 的意见把这部分逻辑移到了 connector 里；"
                     "dsouza-r 问到 decode TP 大于 prefill TP 且 KV heads 较少的情况，现在会复制 heads 来处理。",
        "status": "接近合并：aurelien-m 已在多节点环境上验证可用，意见都已处理，dsouza-r 已表示 LGTM，只等 aurelien-m "
                  "最终批准。",
    }),
    ("discussion #29340", {
        "question": "为什么 gpt-oss-120b 流式 tool call 的 arguments 有时不是合法的 JSON？",
        "positions": "deepfry-ai 报告约 1/50 的流式调用缺少右花括号，emma-w 用 openai tool parser 也遇到类似情况；"
                     "emilyt 指出 harmony parser 在最后一个 delta 与 finish reason 一起到达时会把它丢掉。",
        "status": "已有修复方案：emilyt 会提交修复，deepfry-ai 愿意帮忙测试。",
    }),
    ("discussion #29429", {
        "question": "Llama 4 Maverick 的 EAGLE-3 draft head 能否合入，与 async scheduling 是否兼容？",
        "positions": "fzhou-ml 表示 batch 1 时 decode 提速 1.7 倍，目前会回退到同步调度；mgrant 关心与 async "
                     "scheduling 的兼容性，raghav-s 在 8xH200 上测得 batch 1 提速 1.65 倍。",
        "status": "新 PR，仍在评审中：三条评论里暂无反对意见。",
    }),
]
ZH_IMPACTS = [
    ("impact #29177", "现在可以部署 Mistral Large 3（675B 总参数、41B 激活的 MoE 模型），复用了 DeepSeek-V3 的 MLA 和 "
                      "fused MoE 路径，并支持 mistral parser 的 tool calling。"),
    ("impact #29402", "修复了 FlashInfer MLA decode 在 CUDA graph 下的非法内存访问，DeepSeek-V3.2-Exp 在 H200 上长时间"
                      "高负载运行不再崩溃。"),
    ("impact #29263", "detokenization 和输出处理改为在单独线程中与下一步的 forward 并行执行，Llama-3.1-8B-Instruct 的"
                      "吞吐提升到 1.43 倍，TPOT p50 降低 22%。"),
    ("impact #29290", "在 MI355X 上，DeepSeek-R1 等 block-scaled FP8 MoE 模型默认使用 AITER 的 fused MoE kernel，"
                      "输出吞吐提升 38%。"),
    ("impact #29301", "显存不少于 70 GiB 的 GPU 上，chunked prefill 的默认 --max-num-batched-tokens 从 2048 提高到 "
                      "8192，prefill 密集型负载吞吐提升 31%；已显式设置该参数的用户不受影响。"),
]

STRONG: dict[str, list[tuple[str, dict[str, str]]]] = {
    "en": [("summary", {"summary": text}) for text in EN_SUMMARIES] + EN_DISCUSSIONS
    + [(label, {"impact": text}) for label, text in EN_IMPACTS],
    "zh-CN": [("summary", {"summary": text}) for text in ZH_SUMMARIES] + ZH_DISCUSSIONS
    + [(label, {"impact": text}) for label, text in ZH_IMPACTS],
}
STRONG_CASES = [(locale, label, answer) for locale, cases in STRONG.items() for label, answer in cases]


def _id(case: tuple[str, str, dict[str, str]]) -> str:
    locale, label, _ = case
    return f"{locale}-{label.replace(' ', '')}-{STRONG_CASES.index(case)}"


def test_strong_answers_cover_every_part_kind_of_the_pinned_digest(prompts: dict[tuple[str, str], _Part]) -> None:
    pins = {"summary", *(f"discussion #{n}" for n in HOT), *(f"impact #{n}" for n in KEY_CHANGES)}
    for locale in LOCALES:
        asked = {label for (where, label) in prompts if where == locale}
        assert asked == pins, locale  # the analyst asks about the pinned items: the summary, 5 hot, 5 key changes
        answered = {label for label, _ in STRONG[locale]}
        assert answered == asked, locale  # each prompt the analyst asks has a strong answer
        kinds = Counter(prompts[(locale, label)].kind for label, _ in STRONG[locale])
        assert kinds[SUMMARY] >= 4 and kinds[DISCUSSION] >= 4 and kinds[IMPACT] >= 4, (locale, kinds)


@pytest.mark.parametrize("case", STRONG_CASES, ids=[_id(case) for case in STRONG_CASES])
def test_a_strong_answer_is_accepted(
    prompts: dict[tuple[str, str], _Part], case: tuple[str, str, dict[str, str]]
) -> None:
    locale, label, answer = case
    part = prompts[(locale, label)]
    try:
        value, _ = validate(part.kind, json.dumps(answer, ensure_ascii=False), "stop", part.facts, locale)
    except Fallback as refused:
        pytest.fail(f"{locale} {label}: refused ({', '.join(refused.kinds) or refused.reason}): {refused}")
    if part.kind == DISCUSSION:
        assert value == Analysis(**answer)
    else:
        assert value == answer[part.kind]
    for text in answer.values():  # and each field alone, as the real-model test checks published text
        assert check(text, part.facts, locale) == [], text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_strong_summaries_need_what_a_careful_writer_derives(
    prompts: dict[tuple[str, str], _Part], locale: str
) -> None:
    # Held to the data alone (no window, counts, shares or lists: the grounding before derivations), every
    # strong summary is refused: each has a derived figure ("24 hours", "一天", 25 closed, 57, 20, 21, 1.4x, 4.6%).
    part = prompts[(locale, "summary")]
    bare = Facts(prompt=part.facts.prompt, data=part.facts.data, names=part.facts.names, logins=part.facts.logins)
    for label, answer in STRONG[locale]:
        if label == "summary":
            assert INVENTED_NUMBER in check(answer["summary"], bare, locale), answer["summary"]


# --- weak and ungrounded answers, refused by kind ---


def summary(text: str) -> dict[str, str]:
    return {"summary": text}


def impact(text: str) -> dict[str, str]:
    return {"impact": text}


def discussion(question: str, positions: str, status: str) -> dict[str, str]:
    return {"question": question, "positions": positions, "status": status}


# (locale, part label, answer, the kind it is refused for): near misses of the derivations first.
WEAK: list[tuple[str, str, dict[str, str], str]] = [
    # 57 = 34 + 23 new items; 56 is no sum of the counts (26 would be: 23 new + 3 closed issues).
    ("en", "summary", summary("A busy day: 56 new PRs and issues arrived, 34 PRs and 23 issues."), INVENTED_NUMBER),
    ("en", "summary", summary("Over the past 25 hours, 34 new PRs arrived and 24 were merged."), INVENTED_NUMBER),
    # 7 is a difference of two hot discussions' comments (10 - 3), but no length of this window.
    ("en", "summary", summary("In the last 7 days the project merged 24 PRs out of 34 new ones."), INVENTED_NUMBER),
    ("en", "summary", summary("The merge rate was 97%, with 24 PRs merged and 1 closed."), INVENTED_NUMBER),
    # 65 contributors: "more than 60" is grounded, "more than 150" is not (nor "more than 100": 120 of gpt-oss-120b).
    ("en", "summary", summary("More than 150 people contributed to a busy day of 34 new PRs."), INVENTED_NUMBER),
    ("en", "summary", summary("New PRs outnumbered merges 2.5x: 34 opened against 24 merged."), INVENTED_NUMBER),
    ("en", "summary", summary(DRAFT["en"]), ECHO),
    ("en", "summary", summary("A busy day; #29500 fixed the Qwen3-Next-80B-A3B prefix caching bug."), INVENTED_ITEM),
    ("en", "summary", summary("A busy day led by @mallory, who merged most of the 24 PRs."), INVENTED_PERSON),
    ("en", "summary", summary("A busy day, dominated by ROCm work and the AIR-RTC backend."), INVENTED_NAME),
    ("en", "summary", summary("今天很忙：新开 34 个 PR，合并 24 个，讨论最热的是 async scheduling 的 RFC。"),
     WRONG_LANGUAGE),
    ("en", "summary", summary("Busy."), LENGTH),
    ("zh-CN", "summary", summary("过去 25 小时新开 34 个 PR，合并 24 个。"), INVENTED_NUMBER),
    ("zh-CN", "summary", summary("今天新增 PR 和 Issue 共 56 个，其中新 PR 34 个、新 Issue 23 个。"), INVENTED_NUMBER),
    ("zh-CN", "summary", summary("过去一周新开 34 个 PR，合并 24 个，非常忙碌。"), INVENTED_NUMBER),
    ("zh-CN", "summary", summary("今天合并率为 97%，共合并 24 个 PR。"), INVENTED_NUMBER),
    ("zh-CN", "summary", summary(DRAFT["zh-CN"]), ECHO),
    ("zh-CN", "summary", summary("A busy day: 34 new PRs and 24 merges, led by the async scheduling RFC."),
     WRONG_LANGUAGE),
    ("zh-CN", "summary", summary("AIR-RTC 在 BIGARCTER 上的吞吐提升明显，今天合并 24 个 PR。"), INVENTED_NAME),
    # The thread shows 8 comments by 8 people: "nine people" is counted from nothing.
    ("en", "discussion #29112", discussion("Should V1 turn on async scheduling by default?",
                                           "Nine people support it.", "Approved."), INVENTED_NUMBER),
    ("en", "discussion #29112", discussion("Should V1 turn on async scheduling by default?",
                                           "aurelien-m wants a startup log; @trent wants a revert.", "Approved."),
     INVENTED_PERSON),
    ("en", "discussion #29112", discussion("Should V1 turn on async scheduling by default?",
                                           "jiayi-xu approved it.", "Waiting for #29500 to land."), INVENTED_ITEM),
    ("en", "discussion #29150", discussion("<<<BEGIN DATA: discussion #29150>>> Pull request #29150",
                                           "kvcache-lab proposes it.", "Open."), ECHO),
    ("en", "discussion #29150", discussion("Can prefill and decode use different TP sizes?",
                                           "kvcache-lab proposes it.", "A decision is due in 3 weeks."),
     INVENTED_NUMBER),
    ("zh-CN", "discussion #29205", discussion("为什么开启 prefix caching 后会输出乱码？", "hyeonwoo-k 正在排查。",
                                              "已有 9 位维护者批准修复方案。"), INVENTED_NUMBER),
    ("zh-CN", "discussion #29112", discussion("Should async scheduling be on by default?",
                                              "mgrant proposes it and jiayi-xu approved.", "Agreed."), WRONG_LANGUAGE),
    ("en", "impact #29263", impact("Serving becomes 2x faster for everyone."), INVENTED_NUMBER),
    ("en", "impact #29290", impact("Output throughput on MI355X rises by 40% for FP8 MoE models."), INVENTED_NUMBER),
    ("en", "impact #29177", impact("Mistral Large 3 can now be served, also on RCCL clusters."), INVENTED_NAME),
    ("en", "impact #29301", impact("More tokens."), LENGTH),
    # The data's durations are "3 h" and "2 h": a number of hours it does not state is invented.
    ("zh-CN", "impact #29402", impact("DeepSeek-V3.2-Exp 在 H200 上连续运行 5 小时不再崩溃。"), INVENTED_NUMBER),
    ("zh-CN", "impact #29290", impact("MI355X 上 FP8 MoE 模型的输出吞吐提升 50%。"), INVENTED_NUMBER),
    ("zh-CN", "impact #29301", impact("Prefill-heavy workloads get more throughput on large GPUs."), WRONG_LANGUAGE),
]


@pytest.mark.parametrize(("locale", "label", "answer", "kind"), WEAK,
                         ids=[f"{locale}-{label.replace(' ', '')}-{kind.replace(' ', '_')}-{n}"
                              for n, (locale, label, _, kind) in enumerate(WEAK)])
def test_a_weak_answer_is_refused_for_its_kind(
    prompts: dict[tuple[str, str], _Part], locale: str, label: str, answer: dict[str, str], kind: str
) -> None:
    part = prompts[(locale, label)]
    with pytest.raises(Fallback) as refused:
        validate(part.kind, json.dumps(answer, ensure_ascii=False), "stop", part.facts, locale)
    assert kind in refused.value.kinds, (refused.value.kinds, answer)
