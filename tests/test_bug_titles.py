"""Real vLLM bug reports and what the notable-bugs rules make of them (docs/editorial.md, "Notable new bugs").

Titles and labels of issues from vLLM's tracker (a few from the vllm-project forks for Gaudi and Ascend), with
the first line of the body's own prose where the title alone does not say what failed (paraphrased, short).
Collected with the search tool in four rounds ("vllm illegal memory access", "vllm gibberish", "vllm engine core
died", "vllm pipeline parallel error", "vllm stuck loading", "vllm accuracy drop", "vllm segfault",
"vllm deadlock", "vllm regression 0.11 slower", "vllm crash MI300X", tool calling, empty content, OOM, usage and
installation questions, speculative decoding, LoRA, structured output, prefix caching, ...). Before this set
existed the rules missed about a third of them: a "[Bug]" report whose title names no failure word was not a
bug report at all, so the notable section listed 2-4 items on days with five serious reports.

The kind is the most severe failure the title (else the body's prose) describes: crash > hang > wrong output >
null output > regression > fails with a configuration > OOM. A bug report that says only that something fails
or errors ("[Bug]: vllm 0.8.2 serve Gemma3 error") fails with its configuration. Usage questions, feature
requests and installation help are never bug reports (None), even when they mention an error.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.topics.kind_rules import bug_kind_of
from tests.factories import item_record

NOW = datetime(2025, 12, 2, tzinfo=UTC)

# (title, labels, the body's first line of prose, expected kind)
REAL_BUG_REPORTS: list[tuple[str, tuple[str, ...], str, str | None]] = [
    # Collected first; the rules were written against them (68 of 92 right before this change).
    ("[Bug]: Illegal memory access", ("bug",), "", "crash"),
    ("0.4.3 error CUDA error: an illegal memory access was encountered", ("bug",), "", "crash"),
    (
        "[Bug]: Illegal memory access on llama4 maverick",
        ("bug", "llama", "torch.compile"),
        "Repro: vllm serve ... gives a CUDA Illegal Memory Access",
        "crash",
    ),
    ("[Bug]: illegal memory access when there are multiple concurrent request", ("bug",), "", "crash"),
    ("[Bug]: torch.AcceleratorError: CUDA error: an illegal memory access was encountered", ("bug",), "", "crash"),
    ("[Bug]: Qwen3.5. `illegal memory access`", ("bug",), "", "crash"),
    (
        "[Bug]: RuntimeError: CUDA error: an illegal memory access was encountered cos_sin = "
        "self.cos_sin_cache[torch.add(positions, offsets)",
        ("bug",),
        "",
        "crash",
    ),
    ("[Bug]: RuntimeError: CUDA error: an illegal memory access was encountered", ("bug",), "", "crash"),
    (
        "When we loaded chatglm2 with vllm, the output became garbled.",
        (),
        "I tested this code with the input question, but I didn't get a normal output?",
        "wrong_output",
    ),
    ("VLLM for Qwen 2.5 produces all !!!!!!!!!!!!!!!! outputs, regardless of prompt", ("bug",), "", "wrong_output"),
    (
        "[Bug]: Qwen2.5-Math-7B-Instruct vllm output garbled code, but the probability of huggingface outputing "
        "garbled code is lower.",
        ("bug",),
        "",
        "wrong_output",
    ),
    (
        "[Bug]: Gibberish Output from LLaMA 3.1 8B using vLLM with xGrammar",
        ("bug",),
        "I am using the LLaMA 3.1 8B model with vLLM for structured output generation via xGrammar. However, in some "
        "cases, the model produces gibberish output.",
        "wrong_output",
    ),
    (
        "[Bug]: Llama 4 Garbled Outputs on long prompts",
        ("bug",),
        "we encounter incorrect and garbled outputs when processing prompts longer than 10,000 tokens",
        "wrong_output",
    ),
    ("[Bug]: vllm 0.9 image gives me gibberish", ("bug",), "", "wrong_output"),
    ("vllm producing gibberish with stabilityai/StableBeluga-7B", (), "", "wrong_output"),
    (
        "[Usage]: vLLM and tooling call",
        ("usage",),
        "I was wondering if VLLM support tooling calls in a specific way.",
        None,
    ),
    (
        "[Bug]: [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.",
        ("bug",),
        "",
        "crash",
    ),
    ("[Bug]: EngineCore died unexpectedly When Inference llama(generate)", ("bug", "unstale"), "", "crash"),
    (
        "[Bug]: Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.",
        ("bug", "stale"),
        "in case of vllm engine usage, in the end of script, some error info occur",
        "crash",
    ),
    ("[Bug]: vLLM crashes (EngineDeadError) during high‑concurrency benchmark", ("bug",), "", "crash"),
    ("[Bug]: v0.18.0 fails to run pipeline parallel across nodes", ("bug",), "", "config_failure"),
    (
        "[Bug]: vLLM Multinode Pipeline Error with pipeline parallelism",
        ("bug",),
        "So I was trying to use vllm to serve a model in a multi-node setup. When I try to use the URL to perform "
        "inference, the whole thing fails with the following error",
        "config_failure",
    ),
    (
        "[Bug]: Why does setting `--pipeline-parallel-size > 1` result in an OOM error, but `--tensor-parallel-size> "
        "1` does not?",
        ("bug",),
        "",
        "config_failure",
    ),
    ("[Bug]: Qwen3.5 does not work with pipeline parallelism", ("bug",), "", "config_failure"),
    ("pipeline parallelism not working as documented", (), "", "config_failure"),
    (
        "[Usage]: How to use --pipeline-parallel-size",
        ("usage",),
        "Does vllm currently support the `--pipeline-parallel-size` option?",
        None,
    ),
    ("[Usage]:Can vllm use a method similar to device_map in transformers ?", ("stale", "usage"), "", None),
    ("Model Loading Stuck (in ray ?)", (), "", "hang"),
    ("[Bug]: High chance of stuck at model download", ("bug",), "", "hang"),
    ("[Bug]: Stuck When Launching Llama-4-Maverick-17B-128E-Instruct-FP8", ("bug", "stale"), "", "hang"),
    ("[Bug]: VLLM get stucks with Qwen VL 7B", ("bug",), "", "hang"),
    ("[Bug]: vllm stall on llama3-70b warmup with 0.4.1", ("bug",), "", "hang"),
    ("[Bug]: When load model weights, there are infinite loading", ("bug",), "", "hang"),
    ("How long does vllm take to load your local model?", (), "for me, baichuan2_7B, 15minutes.", None),
    ("[Bug]: vLLM 0.5.3 is getting stuck at LLAMA 3.1 405B FP8 model loading", ("bug",), "", "hang"),
    (
        "[Usage]: accuracy degradation in llama 3.2",
        ("usage",),
        "I loaded llama3.2-3b-instruct on VLLM and observed a significant decrease in accuracy compared to when I "
        "run the model using Hugging Face Transformers.",
        None,
    ),
    (
        "[Bug]: accuracy degradation in llama 3.2",
        ("bug", "stale"),
        "I loaded llama3.2-3b-instruct on VLLM and observed a significant decrease in accuracy compared to when I "
        "run the model using Hugging Face Transformers.",
        "wrong_output",
    ),
    ("[Bug]: gemma3 shows degraded accuracy in vLLM v0.8.4", ("bug",), "", "wrong_output"),
    (
        "Accuracy Drop with OpenGVLab/InternVL3-14B when using vLLM",
        (),
        "I have observed a significant drop in accuracy when running the OpenGVLab/InternVL3-14B model on vLLM "
        "compared to LMDeploy.",
        "wrong_output",
    ),
    ("Qwen streaming inference leads to a significant decrease in accuracy", (), "", "wrong_output"),
    ("[Bug]: gemma3-27b-it shows degraded accuracy in vLLM v0.11.0", ("bug",), "", "wrong_output"),
    (
        "The service results based on vllm qwen7B are inconsistent with the original qwen results, and the accuracy "
        "will drop significantly",
        ("stale",),
        "",
        "wrong_output",
    ),
    ("[Bug]: Significant accuracy discrepancies across different vLLM versions.", ("bug", "stale"), "", "wrong_output"),
    ("[Bug]: segfault when using google/gemma-2-27b-it on vLLM", ("bug",), "", "crash"),
    ("[Bug]: vLLM sleep experiences segmentation fault when used in TRL", ("bug",), "", "crash"),
    ("Fatal Python error: Segmentation fault", ("stale",), "", "crash"),
    ("[Bug]: error: Segmentation fault(SIGSEGV received at time)", ("bug", "stale"), "", "crash"),
    ("[Bug]:Segmentation fault encountered while running model", ("bug",), "", "crash"),
    (
        "[Bug]: SIGSEGV received at time=1721904360 on cpu 140, Fatal Python error: Segmentation fault",
        ("bug", "stale"),
        "",
        "crash",
    ),
    (
        "[Bug]: Deepseek R1 failed to load with segfault when using multi-node serving in V1",
        ("bug", "ray", "stale"),
        "With vLLM image vllm/vllm-openai:v0.8.4, attempt to run deepseek R1 model in V1 engine fail with segfault",
        "crash",
    ),
    (
        '[Bug]: "Fatal Python error: Segmentation fault" when running DeepSeek TP16 using v0.8.4 v1 engine',
        ("bug", "stale"),
        "",
        "crash",
    ),
    (
        "[Bug]: Cannot obtain logits",
        ("bug", "stale"),
        "I do not want logprobs but want the logits of shape Batch Size,Tokens,Dictionary. Is this possible?",
        None,
    ),
    ("[Usage]: how can I use vllm to generate logits instead of text", ("stale", "usage"), "", None),
    ("How to get the logits of the first generated text?", (), "", None),
    ("[Bug]: different logprobs for qwn2-vl when running on transformers and on vllm", ("bug",), "", "wrong_output"),
    ("[Usage]: LLM repeat automatically", ("stale", "usage"), "", None),
    (
        "Repeated answer: When I use vllm with opt-13b, the generated text is not end until the max length, with the "
        "repeated answer",
        (),
        "",
        "wrong_output",
    ),
    (
        "[Bug]: when using llama-3.1-70b-instruct for inference, input with large number of tokens(>8k) will result "
        "in endless output",
        ("bug", "stale"),
        "The output text is a continuous repetition of a piece of text, and the output will not stop until the limit "
        "of max_tokens is reached.",
        "wrong_output",
    ),
    ("Vllm's sampling significantly more deterministic than HF?", (), "", None),
    (
        "[Bug]: VLLM Gemma4 output repeated token",
        ("bug",),
        "Gemma4 has a repeated output token, resulting in incorrect output",
        "wrong_output",
    ),
    ("[Bug]: vllm在服务claud code时会卡死", ("bug", "stale"), "", "hang"),
    (
        "[Bug]: MTP draft head TP allgather deadlock under sustained long-context load (GLM-5.1-FP8)",
        ("bug",),
        "",
        "hang",
    ),
    (
        "[Bug]: Scheduler deadlocks after VLLMValidationError when prompt exceeds max_model_len by 1 token",
        ("bug", "stale"),
        "",
        "hang",
    ),
    ("[Bug]: Scheduler deadlocks without KV-cache connector", ("bug", "stale"), "", "hang"),
    (
        "[RFC] TP-wide step-consensus guard with NCCL RAS integration — field-validated, two live deadlock captures",
        (),
        "",
        None,
    ),
    ("[Usage]: tensor-parallel-size=2，The program just kept hanging", ("stale", "usage"), "", "hang"),
    ("[Bug]: vLLM 0.5.1 tensor parallel 2 hang", ("bug",), "", "hang"),
    (
        "[Bug]: `vllm serve Qwen/QwQ-32B-AWQ --tensor-parallel-size 2` hangs with both RTX A6000 GPUs at max "
        "utilization",
        ("bug", "stale"),
        "Using --tensor-parallel-size 2 hangs with both GPUs at 100% utilization and no debug logs explaining "
        "anything.",
        "hang",
    ),
    ("When tp>1 vllm not work （Qwen2.5-VL-72B）", ("stale",), "", "config_failure"),
    (
        "[Bug]: Hang On In ”[backends.py:115] Directly load the compiled graph for shape None from the cache“",
        ("bug",),
        "I have 2 node, 1 GPU per node, try to do tensor parallel",
        "hang",
    ),
    ("[Bug]: vLLM0.11.0 is about 10x slower than 0.8.1 on classification task", ("bug", "stale"), "", "regression"),
    ("[Bug]: v1.10.x is slower than 0.8.5.post1 when running qwen3", ("bug", "stale"), "", "regression"),
    (
        "[Performance]: Higher latency on new versions of vllm",
        ("performance",),
        "I am observing higher latency in new versions of vllm.",
        "regression",
    ),
    (
        "[Performance]: Significant performance degradation v1/reranker under concurrent requests while swiching "
        "from v.0.19.1 to v0.20.2 v0.21.1",
        ("performance",),
        "",
        "regression",
    ),
    (
        "[Bug]: Qwen1.5-72B L20x8 latest vLLM TPOT slower than v0.4.0.post, 48ms vs 39ms, why?",
        ("bug",),
        "",
        "regression",
    ),
    (
        "[Performance]: vllm v0.10.0 seems to be much slower than vllm v0.8.5 when using Qwen3-30B-A3B-int4",
        ("performance", "stale"),
        "I found that vllm v0.10.0 is much slower than v0.8.5 in inference time",
        "regression",
    ),
    (
        "[Bug]: perf degradation between vllm 0.14.0 to 0.15.1",
        ("bug",),
        "For both (m2.1 and m2.5), there is a performance (throughput) degradation between vllm 0.14.0 and newer "
        "versions",
        "regression",
    ),
    (
        "[Bug]: RuntimeError: PassManager::run failed",
        ("bug", "stale"),
        "Start serving with vllm serve Qwen/Qwen3-8B on v100. When access it with guided_json, got the following error",
        "config_failure",
    ),
    ("[Bug]: vllm 0.8.2 serve Gemma3 error", ("bug",), "", "config_failure"),
    ("[Bug]: vllm serve can not work on two 3090", ("bug",), "", "config_failure"),
    ("[Bug]: vllm serve never starts serving", ("bug", "rocm"), "", "hang"),
    ("[Bug]: Phi-3-small-8k cannot be served for vllm >= 0.6.5", ("bug",), "", "regression"),
    (
        "[Bug] [CPU] Serving Model RuntimeError: Worker failed with error 'Current vLLM config is not set.",
        ("bug",),
        "",
        "crash",
    ),
    ("[Bug]:Qwen2.5vl vllm serve Engine process failed to start", ("bug", "stale"), "", "crash"),
    (
        "[Bug]: vllm 0.8.3 serve error",
        ("bug",),
        "I have 4*4090 24g. When my vllm version is 0.7.2, Can run successfully",
        "config_failure",
    ),
    (
        "[ROCm] Default VLLM_ROCM_USE_AITER_FP4BMM=True crashes on MI300X (gfx942)",
        ("rocm", "stale"),
        "vLLM crashes on AMD MI300X/MI300A (gfx942) with default settings",
        "crash",
    ),
    ("[Bug]: Mi300x x8 unable to lauch openai/api_server.py on rocm vllm branch.", ("bug", "rocm"), "", "crash"),
    ("[Bug]: VLLM 0.17.1 initial mtp randomly crash", ("bug", "rocm"), "", "crash"),
    (
        "[Bug]:amd mi308x gpu, vllm 0.27.0~0.27.1, rocm 7.2.3, Kimi-K2.7-Coder start fails:AssertionError: mla_gluon "
        "requires gfx950 (CDNA4), got gfx942",
        ("bug", "kimi", "rocm"),
        "",
        "crash",
    ),
    (
        "[Bug]: Error when running Llama-4-Maverick-17B-128E-Instruct-FP8 on mi300x",
        ("bug", "rocm"),
        "",
        "config_failure",
    ),
    (
        "[Bug]: [lm_eval crashed] lm eval accuracy test crashed using VLLM MAIN branch but v0.14.0rc0 works",
        ("bug", "rocm"),
        "",
        "crash",
    ),
    ("[Bug]: vllm 0.4.0.post1 crashed when loading dbrx-instruct on AMD MI250x", ("bug", "rocm", "stale"), "", "crash"),
    # Collected after the rules were first rewritten, so held out then: 32 of 40 right (25 before this change).
    (
        "[Bug]: IBM Granite 3.1 tool parser fails",
        ("bug",),
        "The granite tool parser (--tool-call-parser granite) does not seem to be working for IBM Granite 3.1.",
        "config_failure",
    ),
    (
        "[Bug]: llama4_pythonic tool parser fails with SyntaxError on nested list parameters",
        ("bug", "stale"),
        "The llama4_pythonic tool parser intermittently fails to parse valid tool calls",
        "wrong_output",
    ),
    (
        "[Usage]: Llama4 tool parser",
        ("stale", "usage"),
        "Is there any particular parser we should use for parsing tool calls with Llama4?",
        None,
    ),
    (
        "[Bug]: Llama-4-Scout-FP8 tool calls left in content (not parsed into tool_calls) — pythonic parser vs JSON "
        "output mismatch, breaks Claude Code",
        ("bug", "tool-calling"),
        "",
        "wrong_output",
    ),
    (
        "[Bug]: vllm 0.19.0, gemma4, The format of the tool call returned by vllm is incorrect.",
        ("bug", "tool-calling", "unstale"),
        "",
        "wrong_output",
    ),
    ("[Bug]: GLM 4.7 Tool Call issue", ("bug",), "工具调用有问题, 使用Claude Code非最新版本容易报错", "config_failure"),
    (
        "[Feature]: Add nemotron_json as built-in tool parser (NVIDIA Nemotron-Nano-9B-v2 plugin breaks against "
        "v0.20.x module reorg)",
        ("feature request", "tool-calling", "unstale"),
        "",
        None,
    ),
    (
        "[Bug]: Llama4 pythonic parser doesn't parse when it starts with raw content",
        ("bug", "stale"),
        "when the model decides to output raw content before calling any tools, the tool calls are not captured by "
        "the parser",
        "wrong_output",
    ),
    ("[Bug]: `mistral_tool_parser` Fails to Parse Parallel Function Calls", ("bug", "stale"), "", "wrong_output"),
    ("[Bug]: example/openai_chat_completion_client_with_tools.py not working", ("bug",), "", "config_failure"),
    (
        "[Usage]: vllm does not return content for vicuna",
        ("stale", "usage"),
        "however, i always get null content in the response. may I know if i miss something important?",
        None,
    ),
    (
        '[Bug]: GPT-OSS Harmony: vLLM silently returns `content: null` with `finish_reason="stop"` when its parser '
        "ends in a non-terminal state",
        ("bug",),
        "",
        "null_output",
    ),
    (
        "Bug report: vLLM gpt-oss-120b returns content=null, reasoning=null with completion_tokens > 0",
        ("bug", "tool-calling"),
        "",
        "null_output",
    ),
    (
        "[Bug]: OpenAI Chat Completions API: NULL response",
        ("bug", "stale"),
        "When invoking the OpenAI Chat API with model google/gemma-3-4b-it, the response is null, i.e., "
        "response.choices[0].message.content is empty.",
        "null_output",
    ),
    (
        "[Bug]: output is empty",
        ("bug",),
        "Among 700 requests, 10 outputs were empty. What is the reason?",
        "null_output",
    ),
    (
        "[Bug]: Null response for Mistral3.1",
        ("bug", "stale"),
        "serving Mistral3.1 on A100, and I have null response as the following",
        "null_output",
    ),
    ("[Bug]: The content of response from Kimi-K2.5 is empty.", ("bug",), "", "null_output"),
    ("[Usage]: When does vLLM run out of memory, and how to prevent OOM issues?", ("usage",), "", None),
    (
        "[Bug]: vllm fails to calculate gpu_memory and lead to OOM",
        ("bug", "stale"),
        "vllm fails to calculate gpu_memory and lead to OOM.",
        "oom",
    ),
    ("[Bug]: VLLM 0.8.2 OOM error (No error in 0.7.3 version)", ("bug",), "", "regression"),
    ("[Bug]: VLLM OOMing unpredictably on prediction", ("bug", "stale"), "", "oom"),
    ("[Usage]: How to inference model with multi-gpus", ("usage",), "", None),
    ("[Usage]: NVIDIA多型号的GPU如何利用到？", ("usage",), "有没有办法可以实现在多个卡上面实现并行？", None),
    ("[Usage]: I have two Gpus, how do I make my model run on 2 gpus", ("usage",), "", None),
    (
        "How can I deployment multi model？",
        (),
        "If I have a model, it can not only deployment on single gpu, but also deployment on two gpu by tensor "
        "parallel.",
        None,
    ),
    (
        "[Usage]: VLLM on the node when the model fits into the GPU",
        ("usage",),
        "What is the most efficient way to configure vllm for this node",
        None,
    ),
    ("[Installation]: Failed to build vLLM from source", ("installation",), "", None),
    ("[Installation]: pip failed", ("installation",), "", None),
    ("pip installation error - ERROR: Failed building wheel for vllm", (), "", None),
    ("[Installation]: VLLM is impossible to install.", ("installation",), "", None),
    ("intall vllm failed", (), "using conda install vllm", None),
    ("[Installation]: Fail to build vllm from the latest source code", ("installation",), "", None),
    ("[Bug]: llm.chat does crashes when using gpt-oss 20b", ("bug", "stale"), "", "crash"),
    (
        "[Bug]: tracking, gpt-oss broken on main on blackwell",
        ("bug",),
        "Can anyone run gpt-oss on B200? I tried it on the current main 3 times, and failed in 3 different ways. The "
        "second error was cuda illegal memory access",
        "crash",
    ),
    ("[Bug]: vllm failed with TP > 1", ("bug",), "", "config_failure"),
    (
        "[Bug]: I used vllm to run Qwen3-30B-A3B and the following error occurred",
        ("bug", "stale"),
        "",
        "config_failure",
    ),
    ("[Bug]: Qwen3-coder fails between 0.11.0 and 0.11.2", ("bug",), "", "regression"),
    ("[Bug]: vLLM not working with qwen3.5 27B", ("bug",), "logs", "config_failure"),
    ("[Bug]: V1 backend crash when using Qwen3 series model", ("bug", "stale"), "", "crash"),
    ("[Bug]: vllm==0.10.0 Qwen3-Embedding-8B failed", ("bug",), "", "config_failure"),
    # Held out after the second round: 16 of 21 right (7 before this change).
    (
        "[Bug]: Speculative decoding fails with Llama4-eagle",
        ("bug",),
        "Error: AttributeError: 'EagleLlama4ForCausalLM' object has no attribute 'lm_head'",
        "config_failure",
    ),
    (
        "[Bug]: EAGLE3 with gpt-oss-120b not working",
        ("bug",),
        "When I add the speculative decoding bits, I start getting an error",
        "config_failure",
    ),
    (
        "[Bug]: specualative decoding error in 0.15.1",
        ("bug",),
        "I am running Qwe3-VL-4B model with eagle3 speculative decoding. With vllm==0.13.1 it works. With "
        "vllm==0.15.1 I see the following error",
        "regression",
    ),
    (
        "[Bug]: Speculative decoding cannot match tokens",
        ("bug",),
        "Note: The vLLM is built from source by the latest main branch.",
        "config_failure",
    ),
    (
        "[Bug]: Speculative decoding breaks guided decoding.",
        ("bug", "stale", "structured-output"),
        "",
        "config_failure",
    ),
    (
        "[Bug]: Speculative Decoding without enabling eager mode returns gibberish output after some tokens.",
        ("bug", "stale"),
        "",
        "wrong_output",
    ),
    ("[Bug]: Speculative Decoding Issue with VLLM_ENABLE_V1_MULTIPROCESSING=0", ("bug", "stale"), "", "config_failure"),
    (
        "[Bug]:Lora Adapters with num-scheduler-steps doesn't work in version 0.7.2, even with VLLM_USE_V1=0",
        ("bug", "stale"),
        "",
        "config_failure",
    ),
    ("[Bug]: Llama with Lora is not starting", ("bug",), "", "crash"),
    (
        '[Bug]: alueError: Call to add_lora method failed: Loading lora ["table_qc failed: No adapter found for '
        "/data/checkpoint-57",
        ("bug", "stale"),
        "",
        "config_failure",
    ),
    ("[Bug]: Regression in LoRA Adapter loading speed between vllm 0.4.3 and 0.5.0", ("bug",), "", "regression"),
    ("[Bug]: Load LoRA adaptor for Llama3 seems not working", ("bug", "stale"), "", "config_failure"),
    ("[Bug]: VLLM doesn't support LoRa with config `modules_to_save`", ("bug", "stale"), "", "config_failure"),
    (
        "vLLM is an amazing project!",
        ("feature request",),
        "vLLM is an excellent LLM inference framework with outstanding performance, clean architecture, and ease of "
        "use.",
        None,
    ),
    ("[Feature]: N/A", ("feature request",), "", None),
    ("[Bug]: Error Running DeepSeek-v2-Lite w/ FP8", ("bug", "stale"), "", "config_failure"),
    (
        "[Bug]: vLLM 0.28.0 — DeepSeek V4 on B200 (TP8+EP, fp8 KV, FULL_AND_PIECEWISE) generates only BOS tokens "
        "with V2 model runner default | deepseek | After upgrading from v0.27.1 to v0.28.0, every request to our "
        "DeepSeek V4 deployment returns only repeated <",
        ("begin_of_sentence",),
        "> tokens",
        "wrong_output",
    ),
    (
        "[Bug]: DeepSeek V3.2 on B200 fails with \"CUTLASS_MLA is not valid... Reason: ['sparse not supported']\"",
        ("bug",),
        "",
        "config_failure",
    ),
    ("[Bug]: run deepseek v3.2 failed，not support RTX PRO 6000 * 8？", ("bug",), "", "config_failure"),
    (
        '[Bug] v0.24.0: DeepGEMM "Unknown recipe" assertion in FP8 kernel warmup on Blackwell (sm_120) — regression '
        "vs 0.23.0",
        (),
        "",
        "regression",
    ),
    ("[Bug]: DeepSeekV3.1 with fp8 kvcache in v0.15.0 produces garbled output", ("bug",), "", "wrong_output"),
    # Held out after the third round: 13 of 21 right (7 before this change).
    (
        "[Bug]: Have the same bug with Issue #11762, using vllm>=0.7.2",
        ("bug",),
        "Exactly the same bug on Qwen2.5 VL with issue #11732",
        "config_failure",
    ),
    ("[Bug]: Qwen2.5 VL Internal Server Error", ("bug",), "", "config_failure"),
    ("[Bug]: 500 error when I pass a 26x28 px image to Qwen 72B", ("bug",), "", "config_failure"),
    ("[Bug]: Qwen2.5-VL get an error when attatch image file", ("bug", "stale"), "", "config_failure"),
    (
        "[Bug]: ```image_grid_thw``` not set in ```CachedRequestState``` - ```Qwen2.5 VL 3B```",
        ("bug",),
        "",
        "config_failure",
    ),
    (
        "[Bug]: Guided Decoding (structured json outputs) not generating proper outputs.",
        ("bug", "stale", "structured-output"),
        "",
        "wrong_output",
    ),
    ("[Bug]: Guided Decoding Broken in Streaming mode", ("bug", "stale", "structured-output"), "", "config_failure"),
    ("[Bug]: xgrammar crashes with speculative decoding", ("bug", "stale", "structured-output"), "", "crash"),
    (
        "[Bug]: V1 engine ignores guided json",
        ("bug",),
        "The output simply ignores the guided decoding paramter. When switching back to V0 it works fine.",
        "wrong_output",
    ),
    ("[Bug]: guided_json bad output for llama2-13b", ("bug",), "", "wrong_output"),
    ("[Bug]: Guided decoding crashes for GLM-4 model", ("bug",), "", "crash"),
    (
        "[Bug]: Major issues with guided generation / structured output in vLLM (up to and including v0.8.1); many "
        "examples provided by vllm in /examples and structured_outputs.html doc do not work",
        ("bug",),
        "",
        "config_failure",
    ),
    (
        "[Bug]: Guided decoding is broken because tokenizers can't be pickled",
        ("bug", "stale", "structured-output"),
        "",
        "config_failure",
    ),
    (
        "[Bug]: vllm doesn't honor the specified json schema using outlines/xgrammar with qwen 2.5 vl",
        ("bug", "stale"),
        "",
        "wrong_output",
    ),
    ("[Bug]: vllm0.4.3 guided decoding", ("bug",), "", None),
    (
        "[Bug]: Broken Structured Output (Guided Decoding) with Qwen3 models when `enable_thinking=False`",
        ("bug",),
        "The output json will most likely not a valid json. It can have an extra '{' and can even be complete "
        "gibberish in some cases.",
        "wrong_output",
    ),
    ("[Bug]: Prefix Caching same prompts gives different results", ("bug", "stale"), "", "wrong_output"),
    ("[Bug]: prefix-caching: inconsistent completions", ("bug",), "", "wrong_output"),
    ("[Bug]: VLLM crashes when prefix caching is enabled", ("bug",), "", "crash"),
    (
        "[Bug]: AssertionError in Sampler with Prefix Caching and Prompt Logprobs Enabled.",
        ("bug", "stale"),
        "When using vLLM with prefix caching enabled, the engine fails during inference with an assertion error in "
        "the sampler.",
        "config_failure",
    ),
    ("[Docs] Feedback for `/en/latest/`", (), "Feedback: Your response", None),
]


def test_the_set_is_real_size() -> None:
    assert len(REAL_BUG_REPORTS) == 174
    assert len({title for title, *_ in REAL_BUG_REPORTS}) == len(REAL_BUG_REPORTS)
    kinds = {kind for *_, kind in REAL_BUG_REPORTS}
    assert kinds == {"crash", "hang", "wrong_output", "null_output", "regression", "config_failure", "oom", None}


@pytest.mark.parametrize(("title", "labels", "body", "kind"), REAL_BUG_REPORTS, ids=lambda v: str(v)[:60])
def test_a_real_vllm_report_gets_its_kind(title: str, labels: tuple[str, ...], body: str, kind: str | None) -> None:
    assert bug_kind_of(item_record(1, NOW, title=title, body=body, labels=labels)) == kind
