"""Notable new bugs (docs/editorial.md): what reports a failure and of which kind (title first, then the body's own
prose), what is not a bug report, and the ranking by severity x reach."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

import pytest

from bot.digest.rank import (
    MAX_NOTABLE,
    PERIPHERAL_FACTOR,
    SEVERITY_WEIGHTS,
    bug_kind,
    bug_reach,
    notable_score,
    peripheral,
    severity,
)
from bot.model import BUG_KINDS, NewBug
from bot.store.store import Store
from tests.factories import comment_payload, issue_payload, item_record
from tests.test_build import BEFORE, INSIDE, build, numbers, save


def kind_of(title: str, body: str = "", labels: tuple[str, ...] = (), pr: bool = False) -> str | None:
    return bug_kind(item_record(1, INSIDE, title=title, body=body, labels=labels, pr=pr))


# --- what a report describes ---


@pytest.mark.parametrize(("title", "kind"), [
    # Clearly worded new bugs that came without a label or a [Bug] title and were missed before.
    ("Frequent repetitive decoding in Qwen3-30B-A3B", "wrong_output"),
    ("GLM-4.6 returns null content when hitting max_tokens", "null_output"),
    ("Async scheduling fails with PP > 1", "config_failure"),
    ("Potential deadlock?", "hang"),
    # The rest of the scale, from the title.
    ("Engine core died unexpectedly under load", "crash"),
    ("CUDA error: an illegal memory access was encountered", "crash"),
    ("Server stuck after 200 requests", "hang"),
    ("Chat stream never finishes when the client disconnects", "hang"),
    ("Gemma 3 outputs gibberish with FP8", "wrong_output"),
    ("reasoning_content is null with the Qwen3 reasoning parser", "null_output"),
    ("Empty response from /v1/completions with n=2", "null_output"),
    ("Throughput regression after upgrading to v0.11.2", "regression"),
    ("LoRA no longer works since v0.11.0", "regression"),
    ("Error when using --enable-lora with TP=8", "config_failure"),
    ("torch.OutOfMemoryError: CUDA out of memory during warmup", "oom"),
    ("RuntimeError: CUDA error: out of memory", "oom"),  # out of memory, though the CUDA error names it
    ("服务启动后卡住，没有任何报错", "hang"),
])
def test_an_untemplated_title_that_describes_a_failure_is_a_bug_of_its_kind(title: str, kind: str) -> None:
    assert kind_of(title) == kind


def test_the_most_severe_kind_in_the_title_wins_and_the_title_before_the_body() -> None:
    assert kind_of("[Bug]: OOM, then the engine crashes") == "crash"
    assert kind_of("[Bug]: server hangs with Llama 4", body="Sometimes it crashes with a segfault too.") == "hang"


def test_a_bug_report_says_what_failed_in_its_prose_not_in_its_logs() -> None:
    prose = "### 🐛 Describe the bug\n\nAfter a few minutes every request returns an empty response."
    assert kind_of("[Bug]: problem with Llama 4 Scout", body=prose) == "null_output"
    logs = ("### 🐛 Describe the bug\n\nThe server stops working.\n\n```text\nSegmentation fault (core dumped)\n```\n"
            "<details><summary>Environment</summary>\nCUDA error: illegal memory access\n</details>")
    # The crash words are in the dumps: not a crash. A bug report that says only that there is a problem is a
    # failure of no named kind (it fails with its model and settings); one that says nothing failed is none.
    assert kind_of("[Bug]: problem with Llama 4 Scout", body=logs) == "config_failure"
    assert kind_of("[Bug]: Llama 4 Scout", body=logs) is None
    assert kind_of("Problem with Llama 4 Scout", body=prose, labels=("bug",)) == "null_output"
    # No label, no [Bug]: the title must say something fails before the body is read.
    assert kind_of("Llama 4 Scout fails after a few minutes", body=prose) == "null_output"
    assert kind_of("Thoughts on Llama 4 Scout", body=prose) is None


@pytest.mark.parametrize(("title", "labels"), [
    ("[Usage]: How to fix 'CUDA error: illegal memory access' when serving Llama?", ("usage",)),
    ("[Usage]: Why does the output differ from transformers? Wrong output?", ("usage",)),
    ("How do I avoid the empty output with beam search?", ()),
    ("[Feature]: hang detection for workers", ("feature request",)),
    ("[RFC]: Make the engine crash-safe", ("RFC",)),
    ("[Installation]: pip install fails with CUDA 12.8 and --no-build-isolation", ("installation",)),
    ("[Doc]: Broken link to the deadlock section", ("documentation",)),
    ("[Bug]: typo in the docs", ("bug",)),  # a bug, but none of the failures the section is for
])
def test_questions_requests_and_help_are_not_bug_reports(title: str, labels: tuple[str, ...]) -> None:
    assert kind_of(title, labels=labels) is None


def test_usage_and_installation_count_when_their_title_describes_a_crash_or_a_hang() -> None:
    assert kind_of("[Usage]: vllm serve crashes when loading Qwen3 on 2 GPUs", labels=("usage",)) == "crash"
    assert kind_of("[Installation]: pip install hangs at building wheel", labels=("installation",)) == "hang"
    assert kind_of("[Usage]: Qwen3 returns empty content", labels=("usage",)) is None  # not a crash or hang


def test_a_pull_request_is_never_a_bug_report() -> None:
    assert kind_of("Fix deadlock in the scheduler", pr=True) is None
    assert severity(item_record(1, INSIDE, title="Fix deadlock in the scheduler", pr=True)) == "hang"


# --- severity x reach ---


def test_severity_follows_the_editorial_order() -> None:
    assert BUG_KINDS == ("crash", "hang", "wrong_output", "null_output", "regression", "config_failure", "oom")
    weights = [SEVERITY_WEIGHTS[kind] for kind in BUG_KINDS]
    assert weights == sorted(weights, reverse=True) and len(set(weights)) == len(weights)


def test_reach_counts_families_hardware_reactions_and_confirmations() -> None:
    plain = item_record(1, INSIDE)
    liked = item_record(2, INSIDE, reactions=7)
    assert bug_reach(plain, family=False, hardware=False) == 0
    assert bug_reach(plain, family=True, hardware=False) > bug_reach(plain, family=False, hardware=True) > 0
    assert bug_reach(liked, family=False, hardware=False) > 0
    assert bug_reach(plain, family=False, hardware=False, confirmations=2) > bug_reach(
        plain, family=False, hardware=False, comments=2)
    assert bug_reach(plain, family=False, hardware=False, confirmations=50) == 1.05  # capped
    # Naming a family never lifts a report past a more severe one; others confirming it can.
    for more, less in pairwise(BUG_KINDS):
        assert notable_score(more, 0) > notable_score(less, bug_reach(plain, family=True, hardware=True))
        assert notable_score(less, bug_reach(plain, family=False, hardware=False, confirmations=1)) > (
            notable_score(more, 0))
    widespread = bug_reach(liked, family=True, hardware=True, confirmations=4, comments=6)
    assert notable_score("oom", widespread) > notable_score("regression", 0)
    assert notable_score("oom", widespread) < notable_score("crash", 0)  # an OOM never passes a crash


def test_notable_ranks_new_human_reports_by_severity_times_reach(store: Store) -> None:
    save(store, [
        issue_payload(1, INSIDE, title="Potential deadlock?", user="alice"),
        issue_payload(2, INSIDE, title="[Bug]: Scheduler hangs with Llama-3.1-8B", labels=("bug",), user="alice"),
        issue_payload(3, INSIDE, title="Frequent repetitive decoding in SmolLM", user="alice"),
        issue_payload(4, INSIDE, title="[Bug]: segfault on startup", labels=("bug",), user="alice"),
        issue_payload(5, INSIDE, title="[Bug]: memory leak in the tokenizer", labels=("bug",), user="alice"),
        issue_payload(6, BEFORE, title="[Bug]: crash on startup", labels=("bug",)),  # opened before the window
        issue_payload(7, INSIDE, title="[Bug]: engine crash", labels=("bug",), user="triage[bot]", bot=True),
        issue_payload(8, INSIDE, title="Fix the crash in fused_moe", pr=True),
        issue_payload(9, INSIDE, title="[Usage]: How to debug a segfault?", labels=("usage",)),
    ], [
        *(comment_payload(10 + k, 1, INSIDE + timedelta(minutes=k), user=f"user{k}", body="Same here")
          for k in range(3)),
        comment_payload(20, 1, INSIDE + timedelta(minutes=9), user="alice", body="+1"),  # the author's own
    ])
    notable = build(store).section("notable").items
    # #1's hang is confirmed by three people; #2's names a widely used family; #4 is a crash nobody has
    # confirmed yet; then wrong output before an OOM.
    assert numbers(notable) == [1, 4, 2, 3, 5]
    assert notable[0].why == NewBug("hang", comments=4, confirmations=3)
    assert notable[1].why == NewBug("crash")


def test_notable_lists_at_most_ten(store: Store) -> None:
    save(store, [issue_payload(n, INSIDE, title=f"[Bug]: crash {n}", labels=("bug",)) for n in range(1, 15)])
    notable = build(store).section("notable").items
    assert len(notable) == MAX_NOTABLE == 10
    assert numbers(notable) == list(range(14, 4, -1))  # equal weight: the newest first


def test_a_day_with_five_serious_reports_in_vllm_s_own_words_lists_five(store: Store) -> None:
    # How vLLM's reporters write (tests/test_bug_titles.py has 174 more): none of these was a bug report to the
    # rules before, so the section listed what was left.
    save(store, [
        issue_payload(1, INSIDE, title="[Bug]: vllm 0.8.2 serve Gemma3 error", labels=("bug",)),
        issue_payload(2, INSIDE, title="[Bug]: VLLM get stucks with Qwen VL 7B", labels=("bug",)),
        issue_payload(3, INSIDE, title="[Bug]: Kimi-K2 outputs only `!!!!!!!!` with DP=2", labels=("bug",)),
        issue_payload(4, INSIDE, title="[Bug]: gpt-oss keeps repeating the same tool call", labels=("bug",)),
        issue_payload(5, INSIDE, title="[Bug]:Qwen2.5vl vllm serve Engine process failed to start", labels=("bug",)),
        issue_payload(6, INSIDE, title="[Usage]: How to use --pipeline-parallel-size", labels=("usage",)),
        issue_payload(7, INSIDE, title="[Feature]: Support Qwen3-Omni audio output", labels=("feature request",)),
        issue_payload(8, INSIDE, title="[Installation]: pip failed", labels=("installation",)),
    ])
    notable = build(store).section("notable").items
    assert numbers(notable) == [5, 2, 4, 3, 1]  # crash, hang, wrong output (gpt-oss first), then the error
    assert [item.why.bug for item in notable] == [  # type: ignore[union-attr]
        "crash", "hang", "wrong_output", "wrong_output", "config_failure"]


def test_a_side_tool_s_failure_ranks_below_the_server_s() -> None:
    bench = item_record(1, INSIDE, title="[Bug]: `vllm bench serve` crashes with a private dataset")
    metric = item_record(2, INSIDE, title="[Bug]: Prometheus metric `vllm:num_requests_running` stuck at 1")
    server = item_record(3, INSIDE, title="[Bug]: vllm serve crashes with Qwen3 on two GPUs")
    assert peripheral(bench) and peripheral(metric) and not peripheral(server)
    assert notable_score("crash", 0, side_tool=True) == SEVERITY_WEIGHTS["crash"] * PERIPHERAL_FACTOR
    assert notable_score("crash", 0, side_tool=True) < notable_score("wrong_output", 0)
    assert notable_score("crash", 0, side_tool=True) > notable_score("null_output", 0)
