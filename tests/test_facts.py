"""Item facts: what an item's body, labels, size and window add to its title (``bot.digest.facts``), and how
``formatters.facts`` words them in each locale. The bodies are paraphrases of real vLLM reports and PRs: the
issue template with its collect_env dump, the PR template, a report written in Chinese."""

# ruff: noqa: E501  (the fixtures keep a traceback's and a template's long lines as GitHub shows them)

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import structs

from bot.digest.build import BuildOptions, DigestBuilder
from bot.digest.facts import item_facts, with_facts
from bot.github.payloads import comment_from_payload, item_from_payload
from bot.model import DigestItem, Hot, ItemFacts, Merged, NewBug, Signal, Window
from bot.store.records import Discussion, ItemRecord, WindowActivity
from bot.store.store import Store
from bot.topics.taxonomy import Taxonomy
from bot.topics.text_facts import (
    error_line,
    figure,
    fixed_issues,
    follow_up,
    hardware,
    parallel,
    says_more,
    sentence,
    title_words,
)
from formatters.facts import description, facts_line
from formatters.json_format import item_to_dict
from formatters.safety import discord_markdown, markdown_inline, slack_mrkdwn
from tests.chinese_text import english_words, stray_spaces
from tests.factories import comment_payload, issue_payload

REPO = "vllm-project/vllm"
START = datetime(2025, 11, 3, 3, 5, tzinfo=UTC)
END = START + timedelta(days=1)
WINDOW = Window(START, END, "Asia/Shanghai")
INSIDE = START + timedelta(hours=2)
TAXONOMY = Taxonomy.load(Path(__file__).resolve().parents[1] / "config" / "topics.toml")


def record(title: str, body: str, *, number: int = 28001, pr: bool = False, association: str = "CONTRIBUTOR",
           **details: int) -> ItemRecord:
    """A record as the sync stores it (prose and summary worked out from the body)."""
    item = item_from_payload(REPO, issue_payload(number, INSIDE, repo=REPO, title=title, body=body, pr=pr,
                                                 association=association, user="reporter"), lambda _: False)
    return structs.replace(item, **details)  # type: ignore[arg-type]


def digest_item(item: ItemRecord, facts: ItemFacts | None, **fields: object) -> DigestItem:
    return DigestItem(number=item.number, kind=item.kind, title=item.title, url=item.url, author=item.author,
                      labels=item.labels, summary=item.summary, state="new", facts=facts, **fields)  # type: ignore


# --- realistic bodies ---

ENV_H200 = """### Your current environment

<details>
<summary>The output of <code>python collect_env.py</code></summary>

```text
==============================
        System Info
==============================
OS                           : Ubuntu 22.04.5 LTS (x86_64)
GCC version                  : (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0
Libc version                 : glibc-2.35

==============================
       PyTorch Info
==============================
PyTorch version              : 2.8.0+cu128
Is debug build               : False
CUDA used to build PyTorch   : 12.8

==============================
       CUDA / GPU Info
==============================
Is CUDA available            : True
CUDA runtime version         : 12.8.93
GPU models and configuration :
GPU 0: NVIDIA H200
GPU 1: NVIDIA H200
GPU 2: NVIDIA H200
GPU 3: NVIDIA H200
GPU 4: NVIDIA H200
GPU 5: NVIDIA H200
GPU 6: NVIDIA H200
GPU 7: NVIDIA H200
Nvidia driver version        : 570.133.20
cuDNN version                : Could not collect

==============================
          CPU Info
==============================
Architecture:                         x86_64
Model name:                           Intel(R) Xeon(R) Platinum 8480+

==============================
Versions of relevant libraries
==============================
[pip3] flashinfer-python==0.4.1
[pip3] torch==2.8.0
[pip3] transformers==4.57.1

==============================
         vLLM Info
==============================
ROCM Version                 : Could not collect
vLLM Version                 : 0.11.1
vLLM Build Flags:
  CUDA Archs: Not Set; ROCm: Disabled
```

</details>
"""

TRACEBACK_IMA = """```text
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671] WorkerProc hit an exception.
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671] Traceback (most recent call last):
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 666, in worker_busy_loop
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671]     output = func(*args, **kwargs)
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 2301, in execute_model
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671]     raise ValueError(f"unexpected shape {shape}")
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671] torch.AcceleratorError: CUDA error: an illegal memory access was encountered
(Worker_TP3_EP3 pid=4121) ERROR 11-03 06:12:40 [multiproc_executor.py:671] CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
(EngineCore_DP0 pid=3900) ERROR 11-03 06:12:41 [core.py:710] EngineCore encountered a fatal error.
(APIServer pid=3712) ERROR 11-03 06:12:41 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.
```
"""

ISSUE_IMA = ENV_H200 + """

### 🐛 Describe the bug

DeepSeek-V3.2-Exp crashes under load with prefix caching. Since moving from 0.11.0 to 0.11.1 the engine dies after a few hundred requests once prompts get longer than 32k tokens; 0.11.0 works fine with the same command.

```bash
vllm serve deepseek-ai/DeepSeek-V3.2-Exp \\
  --tensor-parallel-size 8 \\
  --enable-expert-parallel \\
  --max-model-len 65536
```

""" + TRACEBACK_IMA + """
### Before submitting a new issue...

- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the bottom right corner of the [documentation page](https://docs.vllm.ai/en/latest/), which can answer lots of frequently asked questions.
"""

ISSUE_ROCM = """### Your current environment

<details>
<summary>The output of `python collect_env.py`</summary>

```text
Collecting environment information...
PyTorch version: 2.7.0a0+git295f2ed
ROCM used to build PyTorch: 6.3.42133-1b9c17779
OS: Ubuntu 22.04.5 LTS (x86_64)
Is CUDA available: True
GPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)
Nvidia driver version: Could not collect
HIP runtime version: 6.3.42133
vLLM Version: 0.10.2
```

</details>

### 🐛 Describe the bug

Loading Qwen3-235B-A22B with 8 GPUs runs out of memory while capturing CUDA graphs, even with --gpu-memory-utilization 0.85.

```
python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-235B-A22B --tensor-parallel-size 8 --gpu-memory-utilization 0.85
```

```
ERROR 10-02 08:11:09 [core.py:700]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 3101, in capture_model
ERROR 10-02 08:11:09 [core.py:700]     self._capture_cudagraphs(
ERROR 10-02 08:11:09 [core.py:700] torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 191.98 GiB of which 1.10 GiB is free.
ERROR 10-02 08:11:10 [core.py:710] RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
```
"""

ISSUE_ZH = """### Your current environment

```text
vLLM Version                 : 0.11.1
GPU models and configuration :
GPU 0: NVIDIA H20
GPU 1: NVIDIA H20
GPU 2: NVIDIA H20
GPU 3: NVIDIA H20
```

### 🐛 Describe the bug

Qwen3-VL 显存持续增长直到 OOM。用 4 张 H20 部署 Qwen3-VL-235B-A22B-Instruct，请求多了以后显存从 70 多 G 一直涨到 96G，最后报 OOM。升级到 0.11.1 之前没有这个问题。

```bash
vllm serve Qwen/Qwen3-VL-235B-A22B-Instruct --tensor-parallel-size 4 --mm-encoder-tp-mode data
```

```
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 2 has a total capacity of 95.00 GiB
```
"""

PR_ROCM = """<!-- markdownlint-disable -->
## Purpose

FIX #26540

This PR updates Dockerfile.rocm to ROCm 7.0.2. The hipBLASLt shipped with 7.0.2 drops the FP8 GEMM fallback that kept MI355X decode slow, so TPOT goes from 12.1 ms -> 9.8 ms on Llama-3.1-70B.

## Test Plan

```bash
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8
vllm bench serve --model meta-llama/Llama-3.1-70B-Instruct --dataset-name random --num-prompts 500
```

## Test Result

| | main | this PR |
|--|--|--|
| Mean TPOT (ms) | 12.1 | 9.8 |

---
<details>
<summary> Essential Elements of an Effective PR Description Checklist </summary>

- [x] The purpose of the PR, such as "Fix some issue (link existing issues this PR will resolve)".
- [x] The test plan, such as providing test command.
- [x] The test results, such as pasting the results comparison before and after, or e2e results
- [ ] (Optional) The necessary documentation update, such as updating `supported_models.md` and `examples` for a new model.
</details>
"""

PR_FOLLOW_UP = """## Purpose

Follow-up to #27001.
Moves the FP8 block-scale checks into the kernel dispatcher, so unsupported shapes fall back to Triton instead of raising at load time.
Closes https://github.com/vllm-project/vllm/issues/27310, resolves #27311 (the other one, vllm-project/other#5, is not ours).

## Test Plan

pytest tests/kernels/quantization/test_block_fp8.py
"""

PR_RESTATES = """## Purpose

This PR adds `--max-log-len` to vllm serve.

## Test Plan

CI

## Test Result

Passed
"""


# --- the extractor ---


def test_a_crash_report_yields_its_root_error_hardware_version_command_and_regression() -> None:
    item = record("[Bug]: DeepSeek-V3.2-Exp crashes under load with prefix caching", ISSUE_IMA)
    facts = item_facts(item)
    assert facts is not None
    # the worker's root cause, not vLLM's EngineDeadError that follows it
    assert facts.error == "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
    assert facts.hardware == ("H200",)
    assert facts.version == "0.11.1" and facts.since_upgrade and facts.worked_in == "0.11.0"
    assert facts.models == ("deepseek-ai/DeepSeek-V3.2-Exp",)
    assert facts.parallel == ("TP=8", "EP")
    # the body's first sentence restates the title; the next one says what happens
    assert facts.sentence.startswith("Since moving from 0.11.0 to 0.11.1 the engine dies")
    assert facts.fixes == () and facts.additions is None and not facts.first_time


def test_a_rocm_report_reads_the_old_environment_format_and_skips_the_generic_wrapper() -> None:
    facts = item_facts(record("[Bug]: OOM when capturing CUDA graphs on 8 GPUs", ISSUE_ROCM))
    assert facts is not None
    assert facts.error == "torch.OutOfMemoryError: HIP out of memory"  # the message's first sentence only
    assert facts.hardware == ("MI300X",)  # not also its gfx942 target
    assert facts.version == "0.10.2" and not facts.since_upgrade
    assert facts.models == ("Qwen/Qwen3-235B-A22B",) and facts.parallel == ("TP=8",)


def test_a_report_written_in_chinese() -> None:
    facts = item_facts(record("[Bug]: Qwen3-VL 显存持续增长直到 OOM", ISSUE_ZH))
    assert facts is not None
    assert facts.error == "torch.OutOfMemoryError: CUDA out of memory"
    assert facts.hardware == ("H20",) and facts.version == "0.11.1" and facts.since_upgrade
    assert facts.parallel == ("TP=4",) and facts.models == ("Qwen/Qwen3-VL-235B-A22B-Instruct",)
    # the title's own words first ("Qwen3-VL 显存持续增长直到 OOM。"), then what the reporter adds
    assert facts.sentence.startswith("用 4 张 H20 部署")


def test_a_pr_yields_what_it_fixes_its_figure_size_and_first_time_author() -> None:
    item = record("[ROCm][Perf] Update Dockerfile.rocm to ROCm 7.0.2", PR_ROCM, pr=True,
                  association="FIRST_TIME_CONTRIBUTOR", additions=812, deletions=40, changed_files=12)
    facts = item_facts(item)
    assert facts is not None
    assert facts.fixes == (26540,) and facts.follow_up is None
    assert facts.figure == "TPOT 12.1 ms → 9.8 ms"
    assert (facts.additions, facts.deletions, facts.files, facts.first_time) == (812, 40, 12, True)
    assert facts.hardware == ("MI355X",)
    assert facts.models == () and facts.parallel == ()  # a PR's test command is not what it is about
    assert facts.error == "" and facts.version == ""
    # "This PR updates Dockerfile.rocm to ROCm 7.0.2." is the title again
    assert facts.sentence.startswith("The hipBLASLt shipped with 7.0.2 drops the FP8 GEMM fallback")


def test_closing_keywords_follow_ups_and_other_repositories() -> None:
    facts = item_facts(record("[Kernel] FP8 block-scale fallback", PR_FOLLOW_UP, pr=True))
    assert facts is not None
    assert facts.fixes == (27310, 27311)  # vllm-project/other#5 is another repository's
    assert facts.follow_up == 27001
    assert facts.sentence.startswith("Moves the FP8 block-scale checks into the kernel dispatcher")
    assert fixed_issues("Fixes #1, #2 and #3. Also closes: #4", REPO) == (1, 2, 3, 4)
    assert fixed_issues("prefix #1 hotfix #2 bugfix #3; fix #xxxx; fixes vllm-project/vllm#9", REPO) == (9,)
    assert follow_up("this is a follow up of https://github.com/vllm-project/vllm/pull/25000", REPO) == 25000


@pytest.mark.parametrize("body", [
    PR_RESTATES,
    "As titled.",
    "As the title says.",
    "FIX #26540",
    "See #26540",
    "## Purpose\n\nAdd --max-log-len to vllm serve\n\n## Test Plan\n\nN/A",
    "This PR adds --max-log-len to `vllm serve`. cc @youkaichao",
    "如题",
    "Details and logs below.",
    "Reported by several users in #46611.",
])
def test_a_body_that_only_restates_the_title_gives_no_sentence(body: str) -> None:
    item = record("[Frontend] Add `--max-log-len` to vllm serve", body, pr=True)
    facts = item_facts(item)
    assert facts is None or facts.sentence == ""


def test_an_unknown_or_empty_body_gives_no_facts() -> None:
    for body in ("", "   ", "### 🐛 Describe the bug\n\n_No response_", "```\n```"):
        assert item_facts(record("[Bug]: something", body)) is None
        assert item_facts(record("[Misc] something", body, pr=True)) is None


def test_error_lines_need_a_python_exception_name() -> None:
    assert error_line("    raise ValueError(f'bad {x}')\nValueError: bad 3") == "ValueError: bad 3"
    assert error_line("I get a KeyError when loading the model.") == ""
    assert error_line("ERROR 05-21 13:04:20 engine.py:389] AssertionError\n") == "AssertionError"
    assert error_line("Error: could not connect") == ""  # a log line, no exception
    wrapper = "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace above."
    assert error_line(wrapper) == ""  # vLLM's wrapper alone names no failure
    long = "RuntimeError: " + "x" * 400
    assert len(error_line(long)) <= 160 and error_line(long).endswith("…")
    assert "`" not in error_line("TypeError: unexpected `dtype` argument")  # the wording puts it in backticks


def test_hardware_names_are_canonical_and_deduplicated() -> None:
    assert hardware("", "Runs on 8xH100 and MI300X (gfx942); h100s too.") == ("H100", "MI300X")
    assert hardware("", "GeForce RTX 4090 and an rtx pro 6000 blackwell") == ("RTX 4090", "RTX PRO 6000 Blackwell")
    assert hardware("", "TPU v6e-8, Intel Arc B580 and Gaudi 3") == ("TPU v6e", "Arc B580", "Gaudi3")
    assert hardware("", "I have 4*4090 24g") == ("RTX 4090",)
    assert hardware("", "The H264 decoder on a 100 GB disk, version 7.0") == ()


def test_parallelism_from_flags_keyword_arguments_and_prose() -> None:
    assert parallel("vllm serve x -tp 4 -pp 2 --data-parallel-size 1", "") == ("TP=4", "PP=2")
    assert parallel("LLM(model='x', tensor_parallel_size=8)", "") == ("TP=8",)
    assert parallel("", "Works with TP=2 but hangs with TP8 + EP over HTTP") == ("TP=2", "EP")


@pytest.mark.parametrize(("prose", "expected"), [
    ("TPOT goes from 12.1 ms -> 9.8 ms on Llama-3.1-70B.", "TPOT 12.1 ms → 9.8 ms"),
    ("Throughput goes from 1450 tok/s to 1730 tok/s.", "Throughput 1450 tok/s → 1730 tok/s"),
    ("Mean TTFT (ms): 313.28 -> 287.00", "TTFT 313.28 → 287.00"),
    ("This gives a 1.8x throughput gain.", "1.8x throughput"),
    ("Reduces TTFT by 30% on long prompts.", "-30% TTFT"),
    ("Throughput improves by 8% at batch 64.", "+8% Throughput"),
    ("With ngram drafting we see a speedup of 1.35x.", "1.35x speedup"),
    ("Tested on 2x H100 and 8xB200.", ""),
    ("Bump flashinfer 0.4.1 -> 0.5.0 and from 2 to 4 workers.", ""),
])
def test_the_figure_a_pr_quotes(prose: str, expected: str) -> None:
    assert figure(prose) == expected


def test_says_more_compares_words_not_characters() -> None:
    words, bare = title_words("[ROCm] Update Dockerfile.rocm to ROCm 7.0.2"), "update dockerfile rocm to rocm 7 0 2"
    assert not says_more("This PR updates Dockerfile.rocm to ROCm 7.0.2.", words, bare)
    assert says_more("The new hipBLASLt removes a slow FP8 fallback on MI355X.", words, bare)
    assert sentence("[Bug]: x", "") == ""


# --- hostile bodies ---


@pytest.mark.parametrize("body", [
    "a" * 65_536,
    "```" + "\n" * 30_000 + "b" * 30_000,
    ("`" * 3 + "python\n") * 5_000,
    "Error" * 13_000,
    "x." * 32_000,
    "#" * 65_536,
    ("fix #" + "1" * 10) * 4_000,
    ("vllm serve " + "a/" * 40) * 600,
    ("--tensor-parallel-size " * 3_000),
    ("GPU models and configuration" + " " * 50) * 800,
    ("RuntimeError" + "." * 50) * 1_000,
])
def test_hostile_bodies_cost_little_and_never_crash(body: str) -> None:
    for pr in (False, True):
        item = record("[Bug]: hostile", body, pr=pr)
        started = time.perf_counter()
        facts = item_facts(item)
        assert time.perf_counter() - started < 0.25  # ~4 ms at worst on a loaded 2-core machine
        if facts is not None:
            assert len(facts.error) <= 160 and len(facts.sentence) <= 200 and len(facts.figure) <= 60


def test_an_error_line_that_pings_stays_text() -> None:
    body = "### 🐛 Describe the bug\n\n```\nValueError: @everyone <!channel> <@U123> [x](https://evil)\n```"
    item = record("[Bug]: weird", body)
    facts = item_facts(item)
    assert facts is not None and facts.error == "ValueError: @everyone <!channel> <@U123> [x](https://evil)"
    line = facts_line(digest_item(item, facts), "en")
    assert "@everyone" in line  # our line is plain text: the output's escaping defuses it
    assert "<!channel>" not in slack_mrkdwn(line) and "@everyone" not in slack_mrkdwn(line)
    assert "@everyone" not in discord_markdown(line) and "](" not in discord_markdown(line)
    assert "[x](" not in markdown_inline(line)


# --- the wording ---


def _line(item: ItemRecord, locale: str, **fields: object) -> str:
    return facts_line(digest_item(item, item_facts(item, _activity(item)), **fields), locale)


def _activity(item: ItemRecord, replier: str = "youkaichao", confirmations: int = 0) -> WindowActivity:
    discussion = Discussion(frozenset({replier}), True, replier, "MEMBER", confirmations, first_maintainer=replier)
    return WindowActivity(items={item.number: item}, discussions={item.number: discussion})


def test_issue_lines_in_both_locales() -> None:
    item = record("[Bug]: DeepSeek-V3.2-Exp crashes under load with prefix caching", ISSUE_IMA)
    assert _line(item, "en") == (
        "`torch.AcceleratorError: CUDA error: an illegal memory access was encountered` · H200 · TP=8 EP · "
        "v0.11.1 (worked in v0.11.0) · @youkaichao replied"
    )  # the model is in the title already
    assert _line(item, "zh-CN") == (
        "报错 `torch.AcceleratorError: CUDA error: an illegal memory access was encountered` · H200 · TP=8 EP · "
        "v0.11.1（v0.11.0 正常）· @youkaichao 已回复"
    )
    rocm = record("[Bug]: OOM when capturing CUDA graphs on 8 GPUs", ISSUE_ROCM)
    assert _line(rocm, "en") == (
        "`torch.OutOfMemoryError: HIP out of memory` · Qwen3-235B-A22B · MI300X · TP=8 · v0.10.2 · "
        "@youkaichao replied"
    )
    chinese = record("[Bug]: Qwen3-VL 显存持续增长直到 OOM", ISSUE_ZH)
    assert _line(chinese, "zh-CN") == (
        "报错 `torch.OutOfMemoryError: CUDA out of memory` · Qwen3-VL-235B-A22B-Instruct · H20 · TP=4 · "
        "v0.11.1（升级后出现）· @youkaichao 已回复"
    )


def test_pr_lines_in_both_locales() -> None:
    item = record("[ROCm][Perf] Update Dockerfile.rocm to ROCm 7.0.2", PR_ROCM, pr=True,
                  association="FIRST_TIME_CONTRIBUTOR", additions=812, deletions=40, changed_files=12)
    assert _line(item, "en") == (
        "fixes #26540 · TPOT 12.1 ms → 9.8 ms · MI355X · +812/−40 in 12 files · first-time contributor · "
        "@youkaichao replied"
    )
    assert _line(item, "zh-CN") == (
        "修复 #26540 · TPOT 12.1 ms → 9.8 ms · MI355X · 12 个文件 +812/−40 · 首次贡献者 · @youkaichao 已回复"
    )
    follow = record("[Kernel] FP8 block-scale fallback", PR_FOLLOW_UP, pr=True, additions=1, deletions=1,
                    changed_files=1)
    assert _line(follow, "en") == "fixes #27310, #27311 · follow-up to #27001 · +1/−1 in 1 file · @youkaichao replied"
    assert _line(follow, "zh-CN") == "修复 #27310、#27311 · #27001 的后续 · 1 个文件 +1/−1 · @youkaichao 已回复"


def test_the_line_leaves_out_what_the_title_byline_and_reason_say() -> None:
    titled = record("[Bug]: v0.11.1 CUDA error: an illegal memory access was encountered on H200 with TP=8",
                    ISSUE_IMA)
    # the error, H200, TP=8 and v0.11.1 are in the title; the model, EP and the version that worked are not
    assert _line(titled, "en") == "DeepSeek-V3.2-Exp · EP · worked in v0.11.0 · @youkaichao replied"
    # the author replying to their own report is no maintainer's reply
    facts = ItemFacts(first_reply="reporter", confirmations=2)
    item = digest_item(titled, facts)
    assert facts_line(item, "en") == "2 others have it too"
    assert facts_line(digest_item(titled, facts, why=NewBug("crash", 3, 2)), "en") == ""  # the reason says it
    assert facts_line(digest_item(titled, ItemFacts(confirmations=1)), "en") == "1 other has it too"
    assert facts_line(digest_item(titled, ItemFacts(confirmations=3)), "zh-CN") == "另有 3 人遇到"
    pr = record("[Perf] 1.8x faster top-k sampling", "## Purpose\n\nUses a radix select: 1.8x throughput.", pr=True)
    sized = ItemFacts(figure="1.8x throughput", additions=10, deletions=2, files=3)
    assert facts_line(digest_item(pr, sized), "en") == "+10/−2 in 3 files"  # the title quotes 1.8x
    merged = Merged((Signal("speedup", "1.8x"), Signal("lines", count=12)))
    assert facts_line(digest_item(pr, ItemFacts(figure="1.8x throughput", additions=10, deletions=2), why=merged),
                      "en") == ""
    assert facts_line(digest_item(pr, None), "en") == ""


def test_every_fixed_phrase_is_chinese_under_zh_cn() -> None:
    facts = ItemFacts(error="KeyError: 'x'", since_upgrade=True, fixes=(1,), follow_up=2, additions=3, deletions=4,
                      files=5, first_time=True, first_reply="m", confirmations=6, version="0.1.2", worked_in="0.1.1")
    for kind in ("issue", "pr"):
        line = facts_line(DigestItem(9, kind, "t", "u", "a", (), "", "new", facts=facts), "zh-CN")
        ours = re.sub(r"`[^`]*`|@\w+|#\d+|v?\d+(?:\.\d+)*|[+−/·（）、 ]", "", line)
        assert ours and not re.search(r"[A-Za-z]", ours), line
        assert stray_spaces(line) == [] and english_words(line, allowed=("KeyError", "x", "m")) == [], line


def test_description_is_the_bodys_sentence_in_english_only() -> None:
    item = record("[ROCm][Perf] Update Dockerfile.rocm to ROCm 7.0.2", PR_ROCM, pr=True)
    shown = digest_item(item, item_facts(item))
    assert description(shown, "en").startswith("The hipBLASLt shipped with 7.0.2")
    assert description(shown, "zh-CN") == "" and description(shown, "zh") == ""
    assert description(digest_item(item, None), "en") == ""
    restated = digest_item(item, ItemFacts(sentence="In short: update Dockerfile.rocm to ROCm 7.0.2 now."))
    assert description(restated, "en") == ""  # a hand-made item that restates its title


_VOCABULARY = (
    "the a fix add support for qwen3 llama deepseek moe fp8 kernel cuda rocm crash hang when with on tp pp "
    "scheduler cache prefix lora 0.11.1 h100 mi300x graph compile this pr adds updates"
)
_WORDS = st.sampled_from(_VOCABULARY.split())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.lists(_WORDS, min_size=1, max_size=10).map(" ".join),
    extra=st.lists(_WORDS, min_size=0, max_size=14).map(" ".join),
    tag=st.sampled_from(["", "[Bug]: ", "[Perf] ", "[ROCm][Kernel] "]),
)
def test_the_description_never_restates_the_title(title: str, extra: str, tag: str) -> None:
    body = (f"## Purpose\n\n{title}. This PR {title}. {title.capitalize()} {extra}. "
            f"{extra.capitalize()} and {title}.\n\n## Test Plan\n\nCI")
    item = record(tag + title, body, pr=True)
    said = description(digest_item(item, item_facts(item)), "en")
    if said:
        flat = " ".join(re.findall(r"[a-z0-9]+", said.lower()))
        assert " ".join(re.findall(r"[a-z0-9]+", title.lower())) not in flat
        own = title_words(said) - title_words(title)
        assert len(title_words(said) & title_words(title)) < 0.5 * len(title_words(said)) and own


# --- wired into the digest ---


def _save(store: Store, issues: list[dict], comments: list[dict]) -> None:
    store.save_page([item_from_payload(REPO, p, lambda _: False) for p in issues],
                    [comment_from_payload(REPO, c, lambda _: False) for c in comments])


def test_the_digest_fills_facts_on_section_items_only(store: Store) -> None:
    bug = issue_payload(41, INSIDE, repo=REPO, title="[Bug]: DeepSeek-V3.2-Exp crashes under load with prefix caching",
                        body=ISSUE_IMA, labels=("bug",), user="reporter")
    pr = issue_payload(42, INSIDE - timedelta(days=2), repo=REPO, pr=True, merged=INSIDE, body=PR_ROCM,
                       title="[ROCm][Perf] Update Dockerfile.rocm to ROCm 7.0.2", association="FIRST_TIME_CONTRIBUTOR")
    comments = [
        comment_payload(1, 41, INSIDE + timedelta(minutes=5), repo=REPO, user="reporter", association="MEMBER",
                        body="More logs: the crash needs prefix caching."),  # the author: no maintainer's reply
        comment_payload(2, 41, INSIDE + timedelta(minutes=9), repo=REPO, user="helper", association="CONTRIBUTOR",
                        body="same here"),
        comment_payload(3, 41, INSIDE + timedelta(minutes=20), repo=REPO, user="youkaichao", association="MEMBER",
                        body="Can you try with VLLM_USE_FLASHINFER_SAMPLER=0?"),
        comment_payload(4, 41, INSIDE + timedelta(minutes=30), repo=REPO, user="zhuohan", association="COLLABORATOR",
                        body="Looking."),
        comment_payload(5, 41, INSIDE + timedelta(minutes=31), repo=REPO, user="other", association="NONE",
                        body="+1"),
    ]
    _save(store, [bug, pr], comments)
    activity = store.window_activity(REPO, START, END)
    assert activity.discussions[41].first_maintainer == "youkaichao"
    assert activity.items[41].body == ISSUE_IMA  # the digest reads the body its facts need
    digest = DigestBuilder(store, TAXONOMY, BuildOptions()).build(REPO, WINDOW)
    shown = [item for section in digest.sections for item in section.items]
    assert {item.number for item in shown} >= {41, 42}
    for item in shown:
        assert item.facts is not None
    bug_facts = next(item.facts for item in shown if item.number == 41)
    assert bug_facts is not None and bug_facts.first_reply == "youkaichao" and bug_facts.confirmations == 2
    assert bug_facts.error.startswith("torch.AcceleratorError")
    pr_facts = next(item.facts for item in shown if item.number == 42)
    assert pr_facts is not None and pr_facts.fixes == (26540,) and pr_facts.first_time
    assert all(item.facts is None for items in digest.appendix.values() for item in items)
    again = with_facts(digest, activity)  # idempotent, and one facts object per item number
    assert again.sections == digest.sections
    assert len({id(item.facts) for item in shown if item.number == 41}) == 1
    # JSON: added keys only, fields at their default left out
    data = json.loads(json.dumps(item_to_dict(next(item for item in shown if item.number == 42))))
    assert data["facts"]["fixes"] == [26540] and data["facts"]["first_time"] is True
    assert "error" not in data["facts"] and "follow_up" not in data["facts"]
    assert "facts" not in item_to_dict(digest.appendix["merged_prs"][0])


def test_facts_cost_little_per_item() -> None:
    items = [record(f"[Bug]: crash {k}", ISSUE_IMA.replace("0.11.1", f"0.11.{k}"), number=k) for k in range(60)]
    started = time.perf_counter()
    for item in items:
        item_facts(item)
    assert (time.perf_counter() - started) / len(items) < 0.01


def test_a_hot_items_line_names_the_first_maintainer() -> None:
    item = record("[Usage]: how to set max_num_seqs", "How do I set it for the OpenAI server?")
    facts = item_facts(item, _activity(item, replier="DarkLight1337"))
    assert facts is not None
    line = facts_line(digest_item(item, facts, why=Hot(4, maintainer=True)), "en")
    assert line == "@DarkLight1337 replied"
