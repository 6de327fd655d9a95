"""The body rules that decide from one sentence (docs/topics.md, "Evidence and scores"): what each catches, and
the hard negatives next to it that it must leave alone. The eval set measures them; these pin them down."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.model import Evidence
from bot.topics.taxonomy import Taxonomy

TOPICS = Path(__file__).resolve().parents[1] / "config" / "topics.toml"
NEUTRAL_TITLE = "[Misc] Tidy up the worker"  # names no topic: the body alone decides


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return Taxonomy.load(TOPICS)


def reasons(taxonomy: Taxonomy, topic: str, body: str, title: str = NEUTRAL_TITLE) -> tuple[Evidence, ...] | None:
    found = [m for m in taxonomy.match(title, (), body) if m.topic_id == topic]
    return found[0].evidence if found else None


@pytest.mark.parametrize(("body", "evidence"), [
    ("The draft model ran eagerly, which cost ~1 ms per step.", "1 ms per step"),
    ("Detokenizing costs 3 ms/token with the slow path.", "3 ms/token"),
    ("Capturing graphs takes ~30s on every restart.", "Capturing graphs takes ~30s"),
    ("The draft model's restart cost ~30s on every restart.", "30s on every restart"),
    ("On H200 the DeepGEMM fp8 warmup takes 20 minutes.", "warmup takes 20 minutes"),
    ("Profiling shows detokenization is ~8% of step time at batch 256.", "8% of step time"),
    ("The sampler accounts for 30% of the decode time.", "30% of the decode time"),
    ("After a few hours the server slows down a lot.", "server slows down"),
    # A latency or rate that changed, with its unit; a speed metric with a measured value in the same sentence.
    ("Median ITL 6.2 ms -> 5.7 ms, acceptance rate unchanged.", "ITL 6.2 ms"),
    ("GPU idle time between steps goes from 1.2 ms to 0.2 ms in our traces.", "1.2 ms to 0.2 ms"),
    ("Our dashboards show TPOT going from 18 ms to 31 ms at the same traffic.", "TPOT going from 18 ms"),
    ("This also cuts per-step overhead by about 0.3 ms at batch 128.", "overhead by about 0.3 ms"),
    ("See traces, throughput +4% on Llama-3.1-8B at batch 256.", "throughput +4%"),
    ("The transfer takes ~400 ms, so TTFT is worse than one instance.", "400 ms, so TTFT"),
    ("Since the upgrade every engine step takes 30 ms longer.", "30 ms longer"),
])
def test_time_costs_and_slowdowns_are_performance(taxonomy: Taxonomy, body: str, evidence: str) -> None:
    assert reasons(taxonomy, "performance", body) == (Evidence("body", evidence),)


@pytest.mark.parametrize("body", [
    "It fails 90% of the time.",  # how often, not how long
    "About 5% of responses are not valid JSON.",
    "The 4-GPU distributed job takes 80 minutes.",  # a duration, not a cost per step or request
    "Some requests never return and the client times out after 600s.",
    "It would be nice to turn it on per request via extra_body.",
    "Keeping V0 slows down development.",  # not the serving system
    "Any recommendations on which chip gives the best cost per token?",
    "Raise the keep-alive timeout from 5 s to 60 s.",  # a setting, and seconds without a speed metric
    "The build time went from 95 min to 41 min.",  # CI minutes
    "The new layout adds 20% memory overhead.",  # memory, not speed
    "The tokenizer limit is 32768 tokens; the latency SLO is written in the config.",  # no measured value
])
def test_time_cost_hard_negatives(taxonomy: Taxonomy, body: str) -> None:
    assert reasons(taxonomy, "performance", body) is None


@pytest.mark.parametrize(("title", "body"), [
    (NEUTRAL_TITLE, "I want 128k context with Llama-3.1-8B but it says the KV cache is too small."),
    (NEUTRAL_TITLE, "The engine fails to start: not enough KV cache for one request of 131072 tokens."),
    (NEUTRAL_TITLE, "The max seq len is larger than the number of tokens that can be stored in KV cache."),
    ("[Usage]: Mistral Large on 4xA100, what max_model_len fits?", ""),
    (NEUTRAL_TITLE, "On 2x L40S the default context length does not fit."),
])
def test_kv_cache_capacity_is_the_scheduler_topic(taxonomy: Taxonomy, title: str, body: str) -> None:
    assert reasons(taxonomy, "scheduler", body, title) is not None


@pytest.mark.parametrize("body", [
    "Looks like an issue with the KV cache page size on TPU.",
    "Allows a prefill instance with TP=4 to send KV cache to a decode instance with TP=8.",
    "--max-model-len 32k raised because the parser called int() directly.",
    "The context length of the model is 32k tokens.",
])
def test_kv_cache_capacity_hard_negatives(taxonomy: Taxonomy, body: str) -> None:
    assert reasons(taxonomy, "scheduler", body) is None


@pytest.mark.parametrize(("topic", "body", "subject"), [
    ("gpt_oss", "gpt-oss ships MXFP4 experts. On A100 there is no native FP4.", "gpt-oss"),
    ("gemma", "The Gemma 3 models use soft-capping of the final logits.", "Gemma"),
    ("kimi", "Kimi-K2 emits tool call ids that repeat across turns.", "Kimi"),
])
def test_a_body_that_opens_with_a_model_family_is_about_it(
    taxonomy: Taxonomy, topic: str, body: str, subject: str
) -> None:
    [reason] = reasons(taxonomy, topic, body)
    assert reason.source == "body_lead" and reason.value.startswith(subject)


@pytest.mark.parametrize(("topic", "body"), [
    ("qwen", "Qwen/Qwen2.5-72B-Instruct-AWQ with -tp 4 outputs random tokens."),  # one checkpoint, to reproduce
    ("llama", "Llama-3.1-8B gives 3000+ tok/s on the same card."),
    ("gpt_oss", "We reproduced it with gpt-oss and Gemma 3."),  # named, but not what the body opens with
    ("cuda", "NVIDIA publishes FP4 checkpoints of Llama 4."),  # only model families read the lead this way
])
def test_lead_subject_hard_negatives(taxonomy: Taxonomy, topic: str, body: str) -> None:
    assert reasons(taxonomy, topic, body) is None


# Word senses (``not_near`` in config/topics.toml): a word counts for the topic in its own sense, not next to a
# word that gives it another. Each rule keeps a positive (the word in the topic's sense, next to nothing of
# the other sense) and hard negatives (the other sense).
@pytest.mark.parametrize(("topic", "title", "body"), [
    ("scheduler", "[Bug]: Scheduler starves long prompts when many short requests arrive", ""),
    ("scheduler", "[Core] Async scheduling for the nightly pipeline runs", ""),  # a longer keyword still names it
    ("scheduler", NEUTRAL_TITLE, "Short requests keep getting scheduled first. The scheduler never picks it. "
     "Scheduling looks FCFS."),
    ("performance", "[Perf] Speed up incremental detokenization", ""),
    ("performance", "[Bug]: Pipeline parallelism with PP=4 slower than PP=2", ""),
    ("performance", "[Perf] Raise decode throughput on H100", ""),
    ("performance", "[Perf] Speed up the attention metadata build", ""),  # a build three words away
    ("stability", "[Bug]: Requests time out after 600s with Qwen3-32B under load", ""),
    ("stability", "[Bug]: NCCL timeout in all-reduce with TP=8 after 30 minutes of load", ""),
    ("stability", "[Bug]: Accuracy drop on GSM8K for Qwen3-8B with v0.11", ""),
    ("frontend", "[Bug]: Streaming chat completions send the role delta twice", ""),
    ("frontend", "[Bug]: Incorrect usage stats with prompt caching in the OpenAI server", ""),
    ("cuda", "[CI] Add a GPU test job for gpt-oss on H100", ""),
    ("distributed", "[Bug]: --cpu-offload-gb crashes with torch.compile enabled", ""),  # weight offloading
    ("distributed", "[RFC]: KV cache offloading to CPU", "Add an OffloadingConnector using the KV connector API."),
])
def test_word_senses_positives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is not None


@pytest.mark.parametrize(("topic", "title", "body"), [
    ("scheduler", "[CI] Nightly scheduled benchmark job fails to upload results", ""),
    ("scheduler", "[Usage]: Calling vLLM from a Celery beat scheduled task", ""),
    ("scheduler", "[Usage]: GRPO rollouts with a cosine LR scheduler", ""),
    ("scheduler", "[Bug]: Ray placement group scheduling hangs", ""),
    ("scheduler", "[Bug]: The helm chart ignores nodeSelector so pods are scheduled on CPU nodes", ""),
    ("scheduler", NEUTRAL_TITLE, "A cron scheduled job rebuilds it. The scheduled workflow closes issues."),
    ("performance", "[CI/Build] Speed up the Docker image build by caching the wheel layer", ""),
    ("performance", "[CI] The AMD test job is very slow (3h+) since last week", ""),
    ("performance", "[Doc] The docs site is slow to load on mobile", ""),
    ("performance", "[Misc] Fix typo in the performance section of the README", ""),
    ("performance", "[Build] Faster incremental builds with ccache", ""),
    ("performance", "[CI] Docker build got much slower after the CUDA 12.9 bump", ""),
    ("performance", "[Doc] The benchmarks page is slow to render", ""),
    ("performance", "[Installation]: pip install is very slow behind a proxy", ""),
    ("performance", "[Bug]: benchmark_serving.py crashes with KeyError 'choices'", ""),
    ("performance", "[Bug]: vllm bench serve --dataset-name sharegpt ignores --num-prompts", ""),
    ("performance", "[Bug]: vllm bench throughput crashes with --dataset-name random", ""),
    ("performance", "[Bug]: benchmark_throughput.py fails with a KeyError", ""),
    ("performance", "[Bug]: tqdm progress bar shows wrong output tokens/s", ""),
    # The benchmark tools' own options, reports and bugs (policy C).
    ("performance", "[Bugfix] Fix quantile computation in the benchmark report", ""),
    ("performance", "[Feature]: Add a --profile flag to vllm bench latency", ""),
    ("performance", "[Bug]: vllm bench serve reports 0 throughput with --backend openai-chat", ""),
    ("performance", "[Misc] Show input/output throughput in the tqdm bar", ""),
    ("stability", "[CI] test_openai_server.py times out on L4 runners", ""),
    ("stability", "[CI] Raise the timeout of the distributed tests to 60 minutes", ""),
    ("stability", "[Frontend] Add --uvicorn-timeout-keep-alive option", ""),
    ("stability", "[Bug]: Setting a timeout on the OpenAI client leaves requests running", ""),
    ("stability", "[CI] Add gpt-oss-20b to the nightly lm-eval job", ""),
    ("frontend", "[Bug]: Memory leak in the API server process under streaming load", ""),
    ("frontend", "[Misc] Avoid redundant incremental detokenization in streaming responses", ""),
    ("distributed", "[Feature]: CPU offloading of the KV cache in V1", "Offloading evicted blocks to CPU memory."),
    ("distributed", "[Bug]: Swapped-out blocks are not restored after preemption with cpu_offload", ""),
])
def test_word_senses_hard_negatives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is None


# Phrases that decide alone: vLLM's own log lines, metric names and mechanisms (``strong``), with hard negatives.
@pytest.mark.parametrize(("topic", "title", "body"), [
    ("scheduler", NEUTRAL_TITLE, "At startup it logs Maximum concurrency for 32,768 tokens per request: 4.52x."),
    ("scheduler", NEUTRAL_TITLE, "The log says GPU KV cache usage: 97.1% and then nothing moves."),
    ("scheduler", NEUTRAL_TITLE, "After an hour vllm:gpu_cache_usage_perc stays at 1.0 for good."),
    ("scheduler", NEUTRAL_TITLE, "With prints I see num_free_blocks is always 0."),
    ("scheduler", NEUTRAL_TITLE, "Grafana shows vllm:num_requests_waiting climbing to 400."),
    ("scheduler", NEUTRAL_TITLE, "This lets the engine resume preempted requests without recomputing them."),
    ("scheduler", "[Feature]: Add --max-num-partial-prefills to V1", ""),
    ("stability", "[Bug]: GPT-OSS-120B scores 10 points lower on AIME25 than reported", ""),
    ("stability", NEUTRAL_TITLE, "Our GSM8K score is clearly lower than reported on the model card."),
    ("stability", NEUTRAL_TITLE, "Blocks of aborted requests are never freed."),
    ("stability", NEUTRAL_TITLE, "After the burst new requests wait forever."),
    ("stability", NEUTRAL_TITLE, "The model runner hit AssertionError: num_scheduled_tokens > 0."),
    ("frontend", "[Bug]: vllm serve --served-model-name x ignores --chat-template", ""),
    ("frontend", "[Usage]: Calling vLLM from a Celery beat scheduled task", ""),
    ("cuda", "[Bug]: Docker image 0.10.1 fails to start: libcudart.so.12 not found", ""),
    ("ci_build", "[Feature]: Publish an SBOM for OSS compliance", ""),
    ("ci_build", "[Bug]: Stale bot closed an issue that had a linked PR", ""),
    ("gpt_oss", "[Bug]: OpenAI's new open-weight 20B model fails with FlashInfer on sm_120", ""),
    ("gpt_oss", NEUTRAL_TITLE, "We serve the open-weight model from OpenAI on two H100s."),
    ("distributed", NEUTRAL_TITLE, "I run 1 prefill and 1 decode instance with NixlConnector over RDMA."),
    ("distributed", NEUTRAL_TITLE, "Please add a V1 KV connector built on the Mooncake transfer engine."),
])
def test_strong_phrases_positives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is not None


@pytest.mark.parametrize(("topic", "title", "body"), [
    ("scheduler", NEUTRAL_TITLE, "We benchmark at a maximum concurrency of 64 on preemptible instances."),
    ("scheduler", NEUTRAL_TITLE, "The fp8 KV cache dtype halves memory on Hopper."),  # one mention only
    ("scheduler", NEUTRAL_TITLE, "We only return partial results when the client disconnects."),
    ("scheduler", NEUTRAL_TITLE, "Three requests were waiting for the lock in the tokenizer pool."),
    ("stability", NEUTRAL_TITLE, "Nothing crashes, but TPOT doubled."),  # a symptom that did not happen
    ("stability", NEUTRAL_TITLE, "Kubernetes puts the pods on CPU nodes where they crash-loop."),
    ("stability", "[Bug]: The progress bar shows wrong output tokens/s", ""),  # a metric, not outputs
    ("stability", NEUTRAL_TITLE, "Throughput is 20 points lower than the reported 3000 tok/s."),  # no score
    ("stability", NEUTRAL_TITLE, "Add assertions for illegal state transitions."),
    ("frontend", "[Bug]: --revision is ignored when loading the tokenizer", ""),  # model loading, not the CLI
    ("frontend", "[Installation]: Running vLLM from source fails on CentOS 7", ""),
    ("frontend", "[Bug]: The scheduler ignores --max-num-seqs", ""),  # an engine component, not a command
    ("frontend", "[Bug]: vllm bench serve --dataset-name sharegpt ignores --num-prompts", ""),  # the bench tool
    ("cuda", "[Bug]: CUDA illegal memory access at long context", ""),  # an error class, not the platform
    ("ci_build", NEUTRAL_TITLE, "Our agentic workflow calls the model twice."),
    ("gpt_oss", NEUTRAL_TITLE, "OpenAI's Whisper is open source and so are many open-weight models from Meta."),
    ("distributed", NEUTRAL_TITLE, "The connector in our gateway drops idle connections."),  # not a class name
])
def test_strong_phrases_hard_negatives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is None


# Other senses from the labelling policy (docs/topic-labelling.md, section D): people, handles, companies,
# products, repository automation, downloads, a knob given as the setup of another problem, a tentative fix.
@pytest.mark.parametrize(("topic", "title", "body"), [
    ("distributed", "[Doc] Add a translation of the Quickstart (thanks Ray Zhang!)", ""),
    ("distributed", NEUTRAL_TITLE, "感谢 Ray 的翻译。Ray Zhang translated the pages."),
    ("moe", "[Misc] CODEOWNERS: add @moe-kim for the tokenizer code", ""),
    ("moe", "[Model] Support Qwen3-VL and Qwen3-VL-MoE", ""),
    ("moe", "[Bugfix] GLM-4.5: load the MTP layer when the method is glm4_moe_mtp", ""),
    ("spec_decode", "[Doc] README: add Eagle Compute to the sponsors", ""),
    ("spec_decode", "[CI] Speculative fix for the flaky prefill abort test", ""),
    ("cuda", "[Usage]: Running vLLM under NVIDIA Dynamo for disaggregated serving", ""),
    ("compile", "[Usage]: Running vLLM under NVIDIA Dynamo for disaggregated serving", ""),
    ("kernels", "[Bugfix] DeepSeek-V2-Lite: fix YaRN mscale for the rope", ""),
    ("hardware", "[Installation]: pip install vllm pulls in the CPU-only torch wheel", ""),
    ("scheduler", "[Bug]: OOM during CUDA graph capture with --max-num-seqs 1024", ""),
    ("scheduler", "[Bug]: XPU OOM at startup with default --gpu-memory-utilization", ""),
    ("stability", "[CI] Fix crash in the PR labeler action when a title contains emoji", ""),
    ("stability", "[CI/Build] Retry apt-get in the Dockerfile when the Ubuntu mirror times out", ""),
    ("stability", "[CI] Lower the GSM8K accuracy threshold of the smoke test", ""),
    ("stability", "[Performance]: TTFT regression from v0.10.1 to v0.10.2", ""),
    ("stability", NEUTRAL_TITLE, "The step hangs until the pytest timeout kills it. The test hangs again."),
    ("stability", NEUTRAL_TITLE, "The flaky test_abort_during_prefill fails with AssertionError."),
    ("frontend", "[CI Failure]: entrypoints/openai/test_chat.py::test_chat_streaming is flaky", ""),  # a test name
    ("distributed", "[CI] Split the distributed tests into two Buildkite jobs", ""),
    ("scheduler", "[Bug]: DeepSeek-V3.1 with FP8 KV cache gives gibberish on Hopper", ""),  # quantization
    ("deepseek", "[Bugfix][ROCm] Fix AITER MLA decode when block_size != 1",
     "With --block-size 16 DeepSeek-V3 produced garbage.\n\nlm_eval gsm8k, DeepSeek-V3, TP=8"),  # a test command
    ("stability", NEUTRAL_TITLE, "Passing a bad schema fails with ValueError: invalid JSON schema."),  # validation
    ("stability", NEUTRAL_TITLE, "gsm8k + a needle test. gsm8k 0.955 on the new model."),  # a test result
    ("stability", NEUTRAL_TITLE, "message.reasoning_content raises AttributeError in my client."),  # not loading
    ("performance", "[Doc]: Docs search is very slow and returns irrelevant results", ""),
    ("performance", "[Bugfix] benchmark_serving.py: sample with replacement when the dataset is small", ""),
    ("frontend", "Bump the minor-update group across 1 directory with 3 updates",
     "Bumps the minor-update group with 3 updates: fastapi and uvicorn.\n"
     "Updates `fastapi` from 0.116.1 to 0.116.2\nUpdates `uvicorn` from 0.35.0 to 0.36.0"),
    ("ci_build", "[Bugfix] Fix grouped top-k routing (backport #24512)",
     "This is an automatic backport of pull request #24512 done by Mergify. Mergify commands and options."),
])
def test_other_senses_are_not_the_topic(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is None


@pytest.mark.parametrize(("topic", "title", "body"), [
    ("distributed", "[Bug]: Ray Serve deployment hangs with TP=2", ""),
    ("moe", "[Kernel] Faster fused MoE for Qwen3-30B-A3B", ""),
    ("compile", "[Bug]: torch.compile Dynamo guard failure on every request", ""),
    ("spec_decode", "[Spec Decode] EAGLE-3 for Llama 4", ""),
    ("kernels", "[Kernel] Fused RoPE + KV cache write for Qwen3", ""),
    ("scheduler", "[Core] Make sampler warmup respect --max-num-seqs", ""),
    ("scheduler", "[Bug]: Requests stuck in WAITING forever", ""),
    ("stability", "[Bug]: EAGLE speculative decoding changes outputs at temperature=0", ""),
    ("stability", "[Bug]: Phi-3-mini starts repeating itself after ~4k tokens", ""),
    ("stability", NEUTRAL_TITLE, "With one group every token went to experts 0..k-1 and outputs were nonsense."),
    ("stability", NEUTRAL_TITLE, "After #23010 the AutoWeightsLoader raised KeyError: 'lm_head.weight'."),
    ("stability", NEUTRAL_TITLE, "It applied the scale twice, degrading accuracy at long context."),
    ("stability", "[Bug]: Engine hangs after the first request on ROCm", ""),
    ("stability", NEUTRAL_TITLE, "Non-square images produced a shape mismatch in the pixel shuffle."),
    ("stability", NEUTRAL_TITLE, "Image requests fail with AttributeError: 'NoneType' object has no attribute 'x'."),
    ("stability", NEUTRAL_TITLE, "The first request fails with triton.compiler.errors.CompilationError: at 12:4."),
    ("stability", "[Bug]: Server returns 500 when n>1 with streaming", ""),
    ("frontend", "[Usage]: LLM.generate is much slower than I expected", ""),  # the title names the LLM class
    ("frontend", "[Bug]: GPU memory is not released after deleting the LLM object", ""),
    ("frontend", "[Feature]: 希望支持 GLM-4.5 的工具调用解析器", ""),
    ("cuda", "[CI] test_openai_server.py times out on L4 runners", ""),  # policy B.4: the runners' GPU counts
])
def test_the_topic_sense_still_counts(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is not None


# Symptoms in everyday words (policy C, stability), the API's own words (frontend), startup time (performance),
# one sense per text (NVIDIA Dynamo), companies named like their models.
@pytest.mark.parametrize(("topic", "title", "body"), [
    ("stability", "[Bug]: Mixtral-8x7B FP8 with TP=2 repeats tokens after upgrading", ""),
    ("stability", "[Bug]: RSS of the server process grows ~1 GB per hour", ""),
    ("stability", "[Bug]: KV cache blocks are not freed after the client disconnects", ""),
    ("stability", "[Bug]: Requests never come back after a few hours of traffic", ""),
    ("stability", NEUTRAL_TITLE, "The model loads fine and then answers nonsense at tp=2."),
    ("stability", NEUTRAL_TITLE, "gsm8k on the FP8 model drops from 0.82 to 0.03 with two shards."),
    ("stability", NEUTRAL_TITLE, "An odd image size trips an assert, which takes the whole server down."),
    ("frontend", "[Bug]: max_completion_tokens is ignored when max_tokens is also sent as null", ""),
    ("frontend", "[Bug]: Completions hang but /health keeps returning 200", ""),
    ("frontend", "[Bug]: `vllm serve --help` takes 8 seconds", ""),
    ("performance", "[Bug]: `vllm serve --help` takes 8 seconds", ""),
    ("performance", "[Bug]: Dynamo recompiles on every step when LoRA is enabled", ""),
    ("distributed", "[Bugfix] Fix hang on shutdown of the multiproc executor", ""),
    ("compile", "[Bug]: Dynamo guard failures on every request with torch.compile", ""),
])
def test_everyday_symptoms_and_api_words(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is not None


@pytest.mark.parametrize(("topic", "title", "body"), [
    ("stability", NEUTRAL_TITLE, "After the fix gsm8k went from 0.74 to 0.86."),  # a score that rose
    ("stability", NEUTRAL_TITLE, "The installed size grows by 2 GB with the new wheel."),  # not memory growth
    ("stability", NEUTRAL_TITLE, "It kills the warmup time. Unsupported layers fail with NotImplementedError."),
    ("stability", "[Bug]: collect_env.py crashes when lsb_release is missing", ""),  # a script around the engine
    ("frontend", "[Usage]: Experts please help, how to set max_model_len for 128k context?", ""),
    ("frontend", "Bump fastapi from 0.118.0 to 0.120.1", ""),  # a web library bump changes no API
    ("frontend", "[Multimodal] Move image preprocessing off the API server event loop", ""),
    ("compile", "[Doc]: How to deploy vLLM behind NVIDIA Dynamo",
     "Nothing covers NVIDIA Dynamo. Which vLLM version does Dynamo expect? Link Dynamo's own docs."),
    ("multimodal", "[Feature]: Publish an arm64 build of the vllm-openai image", ""),
    ("minimax", "[Misc] Add MiniMax and Moonshot AI to the adopters list in the README", ""),
    ("kimi", "[Misc] Add MiniMax and Moonshot AI to the adopters list in the README", ""),
])
def test_everyday_symptoms_hard_negatives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is None


# A user's words for hangs, bad output, slowness and requests held back (written from how people report them,
# not from one set's items).
@pytest.mark.parametrize(("topic", "title"), [
    ("stability", "[Bug]: The server just stops answering after an hour"),
    ("stability", "[Bug]: vLLM becomes unresponsive under load"),
    ("stability", "[Bug]: the answers turn into the same word over and over"),
    ("stability", "[Bug]: process exits silently after a few requests"),
    ("stability", "[Bug]: blank responses for some prompts"),
    ("stability", "[Bug]: model outputs random characters after the upgrade"),
    ("performance", "[Bug]: generation drops to 12 tokens per second after upgrade"),
    ("performance", "[Bug]: it takes twice as long as 0.10"),
    ("performance", "[Usage]: why is decoding so sluggish on A100?"),
    ("performance", "[Bug]: the first token takes 5 seconds"),
    ("scheduler", "[Usage]: only 4 requests run at a time"),
    ("scheduler", "[Bug]: requests queue up even though GPU memory is free"),
    ("scheduler", "[Bug]: long prompts starve short ones"),
])
def test_a_users_words(taxonomy: Taxonomy, topic: str, title: str) -> None:
    assert reasons(taxonomy, topic, "", title) is not None


@pytest.mark.parametrize(("topic", "title"), [
    ("stability", "[Doc] Explain why the answers are generated one token at a time"),
    ("stability", "[Misc] Generate random tokens for the dummy weights loader"),  # random tokens, on purpose
    ("performance", "[Bug]: tqdm shows wrong tokens per second"),
    ("performance", "[Doc] The docs build takes twice as long since mkdocs 2"),
    ("scheduler", "[Misc] Load the shards one at a time to save host memory"),
    ("scheduler", "[CI] Jobs queue up on the AMD agents"),
])
def test_a_users_words_hard_negatives(taxonomy: Taxonomy, topic: str, title: str) -> None:
    assert reasons(taxonomy, topic, "", title) is None


# File names (policy B.4): a file is documentation, an example, a script or just a file, never the words of
# its name. And a few API words and symptoms from the fifth set's misses.
@pytest.mark.parametrize(("topic", "title"), [
    ("frontend", "[Doc] Fix broken links in docs/features/tool_calling.md"),
    ("distributed", "[Bug]: ROCm 7.0 build fails in custom_all_reduce.cu"),
    ("moe", "[Bug]: Build error: cannot compile csrc/moe/marlin_moe_wna16 with CUDA 12.1"),
    ("stability", "[Bug]: collect_env.py crashes when lsb_release is missing"),
    ("multimodal", "[Docker] Reduce image size by removing duplicated CUDA libs"),
    ("frontend", "[Bug]: vllm bench serve reports negative TPOT for very short outputs"),
    ("performance", "[Bug]: vllm bench serve reports negative TPOT for very short outputs"),
    ("distributed", "[CI Failure]: distributed-tests-4-gpus failing on main"),
])
def test_file_names_and_tools_hard_negatives(taxonomy: Taxonomy, topic: str, title: str) -> None:
    assert reasons(taxonomy, topic, "", title) is None


@pytest.mark.parametrize(("topic", "title"), [
    ("docs", "Update README.md"),
    ("docs", "[Misc] Fix broken links in docs/features/tool_calling.md"),
    ("ci_build", "[Misc] Move the sampler tests into tests/v1/sample"),
    ("stability", "[Bugfix] generation_config.json with null values crashed at startup"),
    ("stability", "[Bug]: TPU v6e: Qwen3-32B fails with RESOURCE_EXHAUSTED at startup"),
    ("stability", "[Bug]: KV cache usage stays at 100% after all requests finish"),
    ("stability", "[Bugfix][Spec Decode] EAGLE CUDA graph capture fails with num_speculative_tokens=5"),
    ("frontend", "[Bugfix] Prefix cache hit rate metric not reset by /reset_prefix_cache"),
    ("frontend", "[Bug]: EngineDeadError when logit_bias contains an out-of-vocab token id"),
    ("frontend", "[Bugfix][gpt-oss] Harmony parser drops final channel content"),
    ("ci_build", "[Bug]: Intel XPU: vllm serve fails with \"No module named 'vllm._C'\""),
    ("kernels", "[Bug]: [ROCm] gpt-oss-120b with AITER produces gibberish on MI300X"),
])
def test_file_names_and_api_words_positives(taxonomy: Taxonomy, topic: str, title: str) -> None:
    assert reasons(taxonomy, topic, "", title) is not None


# From a review of the change: what the new blanking and patterns must leave alone, and what they must catch.
@pytest.mark.parametrize(("topic", "title", "body"), [
    ("stability", NEUTRAL_TITLE, "`vllm serve Qwen/Qwen3-8B` crashes with a segfault with --enable-expert-parallel."),
    ("performance", NEUTRAL_TITLE, "Updates the fused MoE kernel from Triton to CUTLASS: 1.4x faster decode on H100."),
    ("ci_build", "setup.py: respect MAX_JOBS", ""),
    ("ci_build", "Fix .buildkite/test-pipeline.yaml for AMD", ""),
    ("ci_build", "Pin torch in requirements/cuda.txt", ""),
    ("ci_build", "Fix .github/workflows/lint.yml", ""),
    ("frontend", "Support tools/function calling for Mistral", ""),
    ("cuda", "Latency regression @B200", ""),  # not a handle
    ("quantization", "DeepSeek-V3 @FP8 accuracy drop", ""),
    ("performance", "Benchmark: decode throughput drops 20% on H200 after upgrading to v0.11.0", ""),
    ("compile", "[Bug]: Dynamo recompiles on every request", ""),
])
def test_review_positives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is not None


@pytest.mark.parametrize(("topic", "title", "body"), [
    ("moe", "cc @moe.", ""),  # a handle at the end of a sentence
    ("multimodal", "vllm/vllm-openai image lacks libcuda", ""),
    ("stability", NEUTRAL_TITLE, "Results are different between runs with temperature=0.7."),  # sampling, not a bug
    ("stability", NEUTRAL_TITLE, "After the benchmark finishes I kill the server and restart it."),
    ("stability", NEUTRAL_TITLE, "The prompt is 1000 repeated tokens to exercise prefix caching."),
    ("stability", NEUTRAL_TITLE, "GPU memory usage grows linearly with the batch size, as expected."),
    ("stability", NEUTRAL_TITLE, "Model download fails with ConnectionError from the HF hub."),
    ("stability", NEUTRAL_TITLE, "test_chat_completion fails with TypeError after the openai bump."),
    ("scheduler", NEUTRAL_TITLE, "Each request waits for the tool call result before it continues."),
    ("frontend", NEUTRAL_TITLE, "We deploy several LLM instances behind a load balancer."),
    ("compile", "[Dynamo] Support KV-aware routing for NVIDIA Dynamo", ""),  # the tag, in an NVIDIA Dynamo item
    ("compile", "Dynamo: KV events are not published", "We run NVIDIA Dynamo in front of vLLM. Dynamo sees none."),
])
def test_review_hard_negatives(taxonomy: Taxonomy, topic: str, title: str, body: str) -> None:
    assert reasons(taxonomy, topic, body, title) is None


def test_a_text_scoped_rule_takes_no_window() -> None:
    from bot.topics.taxonomy import ContextRule

    with pytest.raises(ValueError, match="window"):
        ContextRule(words=["dynamo"], near=["nvidia dynamo"], scope="text", window=7)


def test_blanking_keeps_offsets_on_hostile_text() -> None:
    from bot.topics.taxonomy import _blank_names, matchable_prose

    for unit in ("a/b/", "@x ", "test_", "x.py ", "A=abcdefg\n", "Bumps x\n", "/", ".", "_"):
        text = unit * (10_000 // len(unit))
        assert len(_blank_names(text)) == len(text), unit
        assert len(matchable_prose(text)) <= len(text), unit
