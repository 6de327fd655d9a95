"""A deterministic synthetic GitHub tracker shaped like vllm-project/vllm (~100+ PRs a day).

``generate_repo`` returns the JSON that ``GET /repos/{o}/{r}/issues`` (issues and pull requests) and
``GET /repos/{o}/{r}/issues/comments`` would return for ``[end - days, end)``, plus older items that are
only commented on, closed or merged inside that window, and each pull request's details as ``GET
/repos/{o}/{r}/pulls/{n}`` adds them (``pulls``: additions, deletions, changed_files, commits,
review_comments, requested_reviewers; for ``FakeGitHub.add_pulls``). It feeds ``digest-bot demo`` (through the fake
GitHub), tests and benchmarks.

Realism is the point: vLLM's bracket-tagged PR titles, issue-template prefixes and bodies, its labels and
bots, a heavy-tailed population of people, weekday and Asia/US working-hour rhythm, heavy-tailed comment
threads and reactions, a little CJK/RTL/emoji and a few adversarial strings, and words that merely
*contain* topic aliases ("command", "harmony", "output", "dpo") so topic matching is tested honestly.

Determinism: ``random.Random`` streams seeded from ``seed`` only (the population of people, everything else,
and, kept apart so that they leave the rest as it was, the day's showcase changes and each PR's details seeded
with its number), no clock, no global random, no iteration over sets. Times are whole UTC seconds kept as
ints and formatted once. Every payload gets its own dicts (no shared nested objects), at some memory cost:
about 35 MiB for the default 14 days, about 400 MiB for 60 days at 340 items and 1,700 comments a day.
"""

from __future__ import annotations

import base64
import math
import random
import re
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import accumulate

__all__ = ["SampleRepo", "generate_repo"]


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


# --------------------------------------------------------------------------------------------------------
# Vocabulary. Model entries are (short name used in titles, Hugging Face id used in bodies).

_MODELS: dict[str, list[tuple[str, str]]] = {
    "model_short": [("Qwen3-Next", "Qwen/Qwen3-Next-80B-A3B-Instruct"), ("Qwen3-8B", "Qwen/Qwen3-8B"),
                    ("Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct"),
                    ("Qwen3-Coder-480B", "Qwen/Qwen3-Coder-480B-A35B"),
                    ("DeepSeek-V3.2", "deepseek-ai/DeepSeek-V3.2-Exp"),
                    ("DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528"),
                    ("DeepSeek-V3", "deepseek-ai/DeepSeek-V3"),
                    ("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"),
                    ("Llama-3.3-70B", "meta-llama/Llama-3.3-70B-Instruct"),
                    ("Llama 4 Maverick", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"),
                    ("gpt-oss-120b", "openai/gpt-oss-120b"), ("gpt-oss-20b", "openai/gpt-oss-20b"),
                    ("Gemma 3 27B", "google/gemma-3-27b-it"), ("Gemma 3n", "google/gemma-3n-E4B-it"),
                    ("Mistral-Small-3.2", "mistralai/Mistral-Small-3.2-24B-Instruct-2506"),
                    ("Magistral", "mistralai/Magistral-Small-2509"), ("GLM-4.6", "zai-org/GLM-4.6"),
                    ("GLM-4.5-Air", "zai-org/GLM-4.5-Air"), ("MiniMax-M2", "MiniMaxAI/MiniMax-M2"),
                    ("Kimi-K2", "moonshotai/Kimi-K2-Instruct-0905"),
                    ("Kimi-K2-Thinking", "moonshotai/Kimi-K2-Thinking"),
                    ("Phi-4-mini", "microsoft/Phi-4-mini-instruct"),
                    ("Granite 4.0", "ibm-granite/granite-4.0-h-small")],
    "moe_model": [("Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-Instruct-2507"),
                  ("Qwen3-235B-A22B", "Qwen/Qwen3-235B-A22B"), ("DeepSeek-V3", "deepseek-ai/DeepSeek-V3"),
                  ("DeepSeek-R1", "deepseek-ai/DeepSeek-R1"), ("gpt-oss-120b", "openai/gpt-oss-120b"),
                  ("Kimi-K2", "moonshotai/Kimi-K2-Instruct"), ("GLM-4.5-Air", "zai-org/GLM-4.5-Air"),
                  ("MiniMax-M2", "MiniMaxAI/MiniMax-M2"),
                  ("Llama-4-Maverick", "meta-llama/Llama-4-Maverick-17B-128E-Instruct"),
                  ("Mixtral-8x7B", "mistralai/Mixtral-8x7B-Instruct-v0.1"),
                  ("Qwen3-Next-80B-A3B", "Qwen/Qwen3-Next-80B-A3B")],
    "vlm": [("Qwen2.5-VL-7B", "Qwen/Qwen2.5-VL-7B-Instruct"),
            ("Qwen2.5-VL-72B", "Qwen/Qwen2.5-VL-72B-Instruct"),
            ("Qwen3-VL-30B-A3B", "Qwen/Qwen3-VL-30B-A3B-Instruct"),
            ("Qwen3-VL-8B", "Qwen/Qwen3-VL-8B-Instruct"), ("InternVL3-8B", "OpenGVLab/InternVL3-8B"),
            ("Gemma 3 27B", "google/gemma-3-27b-it"),
            ("Llama-4-Scout", "meta-llama/Llama-4-Scout-17B-16E-Instruct"), ("GLM-4.5V", "zai-org/GLM-4.5V"),
            ("Kimi-VL", "moonshotai/Kimi-VL-A3B-Instruct"), ("MiniCPM-V 4.5", "openbmb/MiniCPM-V-4_5"),
            ("Qwen2.5-Omni-7B", "Qwen/Qwen2.5-Omni-7B"),
            ("Qwen3-Omni-30B-A3B", "Qwen/Qwen3-Omni-30B-A3B-Instruct"),
            ("Pixtral-12B", "mistralai/Pixtral-12B-2409"),
            ("LLaVA-OneVision", "llava-hf/llava-onevision-qwen2-7b-ov-hf")],
}

_SLOTS: dict[str, list[str]] = {
    "amd_gpu": ["MI300X", "MI300X", "MI325X", "MI355X", "MI355X", "MI250X", "MI308X"],
    "gfx": ["gfx942", "gfx950", "gfx1100", "gfx1201", "gfx90a"],
    "rocm_ver": ["6.4.1", "6.4.3", "7.0", "7.0.2", "7.1"],
    "nv_gpu": ["H100", "H100", "H200", "B200", "B200", "GB200", "A100", "L40S", "RTX 5090", "RTX 4090", "H20",
               "GH200", "B300"],
    "nv_arch": ["Blackwell", "Hopper", "SM90", "SM100", "SM120", "Ampere"],
    "quant": ["FP8", "FP8", "MXFP4", "NVFP4", "AWQ", "GPTQ", "INT4 W4A16", "INT8 W8A8", "ModelOpt FP8",
              "Quark", "bitsandbytes", "compressed-tensors"],
    "attn_backend": ["FlashInfer", "FlashAttention 3", "FA3", "Triton attention", "FlashMLA", "CUTLASS MLA",
                     "TRTLLM attention", "FlashInfer MLA", "AITER MLA"],
    "kernel": ["fused_moe", "scaled_mm", "grouped GEMM", "rms_norm", "silu_and_mul", "rotary embedding",
               "top-k/top-p sampler", "paged attention", "custom all-reduce", "MLA decode",
               "per-token-group quant", "topk softmax"],
    "spec": ["EAGLE", "EAGLE-3", "MTP", "n-gram", "suffix decoding", "draft model", "Medusa"],
    "tool_parser": ["hermes", "llama3_json", "qwen3_coder", "deepseek_v31", "kimi_k2", "glm45", "openai",
                    "mistral", "pythonic", "minimax_m2"],
    "reasoning_model": ["DeepSeek-R1", "Qwen3", "GLM-4.6", "gpt-oss", "MiniMax-M2", "Kimi-K2-Thinking",
                        "Magistral"],
    "so_backend": ["xgrammar", "guidance", "outlines", "lm-format-enforcer"],
    "tp": ["2", "4", "8", "8", "16"],
    "dp": ["2", "4", "8"],
    "version": ["v0.11.0", "v0.11.1", "v0.11.2", "v0.11.2", "v0.12.0rc1", "v0.10.2"],
    "version_old": ["v0.10.1", "v0.10.2", "v0.11.0", "v0.9.2"],
    "feature": ["prefix caching", "chunked prefill", "LoRA", "speculative decoding", "structured output",
                "FP8 KV cache", "async scheduling", "sleep mode", "pipeline parallel", "CUDA graphs",
                "sliding window", "logprobs", "beam search", "multi-step streaming"],
    "n_req": ["2000", "10k", "50k", "a few hundred", "~30 minutes of load"],
    "n_gpu": ["2", "4", "8", "8"],
    "kv_connector": ["LMCache", "NIXL", "Mooncake", "P2pNccl", "OffloadingConnector", "MultiConnector"],
    "cpu_arch": ["aarch64", "ARM64 (Graviton4)", "x86 AVX512", "Apple Silicon", "ppc64le", "s390x",
                 "Neoverse V2"],
    "test_area": ["entrypoints", "kernels/moe", "v1/e2e", "lora", "distributed", "spec_decode",
                  "models/multimodal", "quantization", "basic correctness", "samplers"],
    "api": ["/v1/chat/completions", "/v1/completions", "/v1/responses", "/v1/embeddings",
            "/v1/audio/transcriptions", "/tokenize", "/v1/rerank"],
    "module": ["vllm/v1/engine/core.py", "vllm/v1/worker/gpu_model_runner.py", "vllm/config/__init__.py",
               "vllm/entrypoints/openai/serving_chat.py", "vllm/model_executor/layers/linear.py",
               "vllm/distributed/parallel_state.py", "vllm/v1/core/sched/scheduler.py",
               "vllm/v1/attention/backends/flashinfer.py", "vllm/utils/__init__.py", "vllm/envs.py"],
    "dep": ["transformers", "flashinfer-python", "xgrammar", "triton", "torch", "mistral-common",
            "openai-harmony", "nixl", "lm-format-enforcer", "ray"],
    "dep_pin": ["transformers to 4.57.3", "flashinfer-python to 0.5.2", "xgrammar to 0.1.27",
                "triton to 3.5.0", "torch to 2.9.0", "mistral-common to 1.8.5", "openai-harmony to 0.0.8",
                "nixl to 0.7.1", "ray to 2.51.1", "lm-format-enforcer to 0.11.3"],
    "new_model": ["Qwen3-Omni-30B-A3B", "GLM-4.6V", "Kimi-Linear-48B-A3B", "DeepSeek-OCR",
                  "Llama-Nemotron-Super", "MiniMax-M2", "Gemma 3n", "Ling-1T", "Apertus-70B", "Olmo-3",
                  "Qwen3-VL-Embedding", "Hunyuan-A13B", "ERNIE-4.5-VL", "Seed-OSS-36B", "LongCat-Flash",
                  "Granite-4.0-H"],
    "cuda_ver": ["12.8", "12.9", "13.0"],
    "py": ["3.10", "3.11", "3.12", "3.13"],
    "pct": ["12%", "18%", "25%", "30%", "40%", "2x", "1.6x"],
}

_VERSION_ORDER = ["v0.9.2", "v0.10.1", "v0.10.2", "v0.11.0", "v0.11.1", "v0.11.2", "v0.12.0rc1"]
# Slots whose value changes every time they are used inside one item (references, people).
_DYNAMIC = frozenset({"ref", "maint", "member"})
_SLOT_RE = re.compile(r"\{(\w+)\}")


def _fill(
    template: str, rng: random.Random, vars_: dict[str, str], dyn: Callable[[str], str] | None = None
) -> str:
    """Fill ``{slot}`` placeholders; a slot keeps one value per item so titles, bodies and comments agree."""
    if "{" not in template:
        return template

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key in _DYNAMIC and dyn is not None:
            return dyn(key)
        value = vars_.get(key)
        if value is not None:
            return value
        if key in _MODELS:
            short, hf = rng.choice(_MODELS[key])
            vars_[key] = short
            vars_.setdefault("model", hf)
            vars_.setdefault("model_name", short)
            return short
        if key == "model":  # a body needing a model when the title named none
            short, hf = rng.choice(_MODELS["model_short"])
            vars_.setdefault("model_name", short)
            vars_["model"] = hf
            return hf
        if key == "model_name":
            return _fill("{model_short}", rng, vars_)
        options = _SLOTS[key]
        if key in ("version", "version_old"):  # "from {version_old} to {version}" must go forwards
            other = vars_.get("version_old" if key == "version" else "version")
            if other is not None:
                rank = _VERSION_ORDER.index(other)
                newer = key == "version"
                options = [x for x in options if (_VERSION_ORDER.index(x) > rank) == newer and x != other]
                options = options or [_VERSION_ORDER[-1] if newer else _VERSION_ORDER[0]]
        value = rng.choice(options)
        vars_[key] = value
        return value

    return _SLOT_RE.sub(sub, template)


# --------------------------------------------------------------------------------------------------------
# Titles. Each topic: PR titles (bracket tags included) and issue entries (template type, text, first
# sentence of the description or "" to derive one, failure kind for logs or "").

_PR = "pr"
_ISSUE = "issue"

_TOPICS: dict[str, dict[str, list]] = {
    "rocm": {
        _PR: [
            "[ROCm] Enable AITER fused MoE for {moe_model} on {amd_gpu}",
            "[Bugfix][ROCm] Fix fp8 scaled_mm on {amd_gpu}",
            "[ROCm][Kernel] Add {gfx} support for {kernel}",
            "[ROCm] Update Dockerfile.rocm to ROCm {rocm_ver}",
            "[ROCm][CI] Re-enable {test_area} tests on {amd_gpu}",
            "[Hardware][AMD] Use HIP graphs for decode on {gfx}",
            "[ROCm][Perf] Tune triton attention configs for {amd_gpu}",
            "[ROCm] Add MXFP4 MoE path via AITER for gpt-oss on MI355X",
            "[ROCm][V1] Support sliding window in ROCM_AITER_FA backend",
            "[ROCm] Fix RDNA3 (gfx1100) build after CMake refactor",
            "[AMD][Quantization] Quark {quant} support for {model_short}",
            "[ROCm][Bugfix] Fix on-chip LDS overflow in paged attention for {gfx}",
            "[ROCm] Skip custom all-reduce on single-GPU MI250X runs",
            "[ROCm][Attention] AITER MLA decode for DeepSeek-R1 on {amd_gpu}",
            "[Misc][ROCm] Clean up rocm platform relationship with CUDA platform checks",
        ],
        _ISSUE: [
            ("Bug", "HIP error: invalid device function on {gfx} with {model_short}",
             "Running {model_short} on a {gfx} card fails during warmup with "
             "`HIP error: invalid device function`.",
             "crash"),
            ("Bug", "AITER MLA produces garbage output for DeepSeek-R1 on {amd_gpu}",
             "With `VLLM_ROCM_USE_AITER=1`, DeepSeek-R1 on 8x{amd_gpu} returns garbage tokens after "
             "~200 tokens.",
             "wrong"),
            ("Bug", "ROCm {rocm_ver} docker image crashes at startup on {amd_gpu}", "", "crash"),
            ("Feature", "Support FP8 KV cache on RDNA4 (gfx1201)", "", ""),
            ("Performance", "{moe_model} decode throughput on {amd_gpu} is 40% lower than H100", "",
             "regression"),
            ("Installation", "Building from source fails on ROCm {rocm_ver} with hipcc error", "", "build"),
            ("Usage", "How to enable AITER kernels on {amd_gpu}?", "", ""),
            ("Bug", "AMD MI300X: TP={tp} hangs during RCCL init", "", "hang"),
        ],
    },
    "cuda": {
        _PR: [
            "[Kernel] Add CUTLASS {quant} grouped GEMM for SM100",
            "[Bugfix] Fix FlashInfer TRTLLM attention on B200 with FP8 KV cache",
            "[NVIDIA] Enable {attn_backend} by default on Blackwell",
            "[Hardware][NVIDIA] Support GB200 NVL72 multi-node all-reduce",
            "[Perf] Use PDL on Hopper for {kernel}",
            "[Kernel][Blackwell] Tune fused_moe configs for B200",
            "[CI/Build] Build wheels with CUDA {cuda_ver} and add SM120 arch",
            "[Bugfix] Fix SM90 CUTLASS scaled_mm for odd N",
            "[Build] Use CUDA 13 toolkit in release builds",
            "[Kernel] DeepGEMM FP8 for H100 decode",
            "[NVIDIA] Add B300 to supported device list",
        ],
        _ISSUE: [
            ("Bug", "CUDA error: an illegal memory access was encountered on H100 with {model_short}", "",
             "illegal"),
            ("Bug", "No kernel image is available for RTX 5090 (sm_120)",
             "Serving on an RTX 5090 fails right after model loading: `no kernel image is available for "
             "execution "
             "on the device`.", "crash"),
            ("Feature", "Support NVFP4 MoE on GB200", "", ""),
            ("Performance", "B200 slower than H200 for {moe_model} at TP=8", "", "regression"),
            ("Installation", "vllm wheel built against CUDA {cuda_ver} fails with NVIDIA driver 535", "",
             "build"),
            ("Usage", "Which attention backend should I use on Blackwell (B200)?", "", ""),
        ],
    },
    "hardware": {
        _PR: [
            "[CPU] Add AVX512 BF16 path for {kernel}",
            "[CPU][Perf] Enable SGL kernels for MoE on x86",
            "[Hardware][TPU] Support {model_short} on TPU v6e",
            "[TPU] Fix ragged paged attention with prefix caching",
            "[XPU] Enable FP8 on Intel Arc B580",
            "[XPU] Upgrade to oneAPI 2025.2 and PyTorch 2.9 XPU",
            "[Hardware][Gaudi] Update HPU plugin docs",
            "[Hardware][Neuron] Remove deprecated Neuron worker",
            "[CPU] Support aarch64 build with oneDNN ACL",
            "[CPU][ARM] Fix bf16 matmul on Graviton4",
            "[Hardware][Intel GPU] Add XPU graph support",
            "[CPU] Fix shm all-reduce for multi-socket x86",
            "[TPU] Pallas kernel for MoE on TPU",
        ],
        _ISSUE: [
            ("Bug", "vllm serve crashes on CPU backend with {model_short}: Illegal instruction", "", "crash"),
            ("Usage", "Can I run vLLM on Apple Silicon (ARM) CPU?", "", ""),
            ("Bug", "TPU v5e: model load fails with XLA compilation error", "", "crash"),
            ("Feature", "XPU support for MoE models", "", ""),
            ("Installation", "pip install vllm on aarch64 (GH200) pulls the x86 wheel", "", "build"),
            ("Bug", "Gaudi HPU graph compilation stuck for Llama-3.1-70B", "", "hang"),
            ("Usage", "How to run on AWS Neuron (Inferentia2)?", "", ""),
            ("Performance", "CPU backend throughput on {cpu_arch} is much lower than expected", "",
             "regression"),
        ],
    },
    "quantization": {
        _PR: [
            "[Quantization] Add MXFP4 W4A16 path for {moe_model}",
            "[Bugfix] Fix AWQ Marlin kernel for group size 64",
            "[Kernel] Machete GPTQ kernels for Hopper",
            "[Quantization] Support ModelOpt NVFP4 checkpoints for {model_short}",
            "[Quantization][Bugfix] Fix bitsandbytes 4-bit loading with TP",
            "[Quantization] Add Quark INT8 W8A8 support",
            "[Feature] Online FP8 quantization for MoE weights",
            "[Perf] Faster per-token-group FP8 quant kernel",
            "[Quantization] compressed-tensors INT4 W4A8 for {model_short}",
            "[Quantization] GGUF: load Qwen3 checkpoints exported from llama.cpp",
            "[Bugfix] Fix FP8 KV cache scale loading for {model_short}",
        ],
        _ISSUE: [
            ("Bug", "{model_short}-AWQ produces empty output", "", "wrong"),
            ("Feature", "Support NVFP4 on Hopper via emulation", "", ""),
            ("Bug", "GPTQ 4-bit model load fails: KeyError 'qweight'", "", "error"),
            ("Usage", "FP8 KV cache scales for {model_short}?", "", ""),
            ("Bug", "INT8 quantized {model_short} shows accuracy drop on GSM8K", "", "accuracy"),
            ("Feature", "bitsandbytes 8-bit support for MoE models", "", ""),
            ("Bug", "MXFP4 gpt-oss-120b fails on {nv_gpu}: unsupported quantization", "", "error"),
        ],
    },
    "moe": {
        _PR: [
            "[MoE] Refactor fused_moe modular kernel for {quant}",
            "[Kernel] Tune fused_moe config for {moe_model} on {nv_gpu}",
            "[Perf] DeepEP low-latency kernels for expert parallel decode",
            "[Core] EPLB: expert parallel load balancing for {moe_model}",
            "[MoE][Bugfix] Fix shared experts overlap with TP",
            "[Model] Support MoE routing with grouped top-k for GLM-4.6",
            "[MoE] Chunked fused_moe to reduce activation memory",
            "[Kernel] Triton MoE kernel for {gfx}",
        ],
        _ISSUE: [
            ("Bug", "Expert parallel (EP) hangs with DP={dp} on {moe_model}", "", "hang"),
            ("Feature", "Support LoRA on fused_moe layers", "", ""),
            ("Performance", "MoE decode latency regression in {version}", "", "regression"),
            ("Usage", "How to enable expert parallel for {moe_model} on 2 nodes?", "", ""),
        ],
    },
    "spec": {
        _PR: [
            "[Spec Decode] Support EAGLE-3 for {model_short}",
            "[V1][Spec Decode] Add n-gram proposer with GPU matching",
            "[Spec Decode] MTP for DeepSeek-V3.2 with CUDA graphs",
            "[Spec Decode] Suffix decoding support",
            "[Bugfix][Spec Decode] Fix draft model KV cache allocation with prefix caching",
            "[Spec Decode] Eagle3 drafter for gpt-oss-120b",
            "[V1][Spec Decode] Tree attention for EAGLE",
        ],
        _ISSUE: [
            ("Bug", "EAGLE3 acceptance rate drops to 0 with {model_short}", "", "wrong"),
            ("Feature", "Support draft model speculative decoding in V1", "", ""),
            ("Bug", "MTP with DeepSeek-R1 gives wrong output when num_speculative_tokens > 1", "", "wrong"),
            ("Performance", "n-gram speculative decoding slower than baseline at high QPS", "", "regression"),
        ],
    },
    "multimodal": {
        _PR: [
            "[Model] Support {vlm}",
            "[Multimodal] Cache image processor outputs across requests",
            "[Frontend] Support video input for {vlm}",
            "[Model] Add audio support to Qwen3-Omni",
            "[Bugfix] Fix Qwen2.5-VL image embedding mismatch with chunked prefill",
            "[MM] Encoder cache for vision towers in V1",
            "[Perf] Speed up Qwen2.5-VL vision encoder with FlashAttention",
            "[Multimodal] Support image embeddings input for {vlm}",
            "[Bugfix] Fix multi-image prompt placeholder count for {vlm}",
        ],
        _ISSUE: [
            ("Bug", "{vlm} fails with multiple images per prompt", "", "error"),
            ("Feature", "Support audio in chat completions for Qwen2.5-Omni", "", ""),
            ("Bug", "Video input OOM for {vlm}", "", "oom"),
            ("Usage", "How to pass image embeddings to a VLM directly?", "", ""),
            ("Bug", "Qwen2.5-VL returns different output for the same image across runs", "", "wrong"),
        ],
    },
    "models": {
        _PR: [
            "[Model] Support Qwen3-Next",
            "[Model] Add DeepSeek-V3.2-Exp with sparse attention",
            "[Model] Gemma 3n support",
            "[Model] Support Mistral Large 3",
            "[Model] GLM-4.6 tool calling and reasoning parser",
            "[Model] MiniMax-M2 support",
            "[Model] Kimi-K2 Thinking support",
            "[Bugfix] Fix Llama 4 rope scaling with long context",
            "[Model][gpt-oss] Support harmony format streaming",
            "[Model] Add Olmo-3",
            "[Model] Use the shared MLP implementation for {model_short}",
            "[Bugfix] Fix Gemma 3 sliding window with prefix caching",
            "[Model] Support Qwen3-VL-Embedding pooling",
        ],
        _ISSUE: [
            ("New Model", "{new_model}", "", ""),
            ("New Model", "Support {new_model}", "", ""),
            ("Bug", "gpt-oss-120b returns empty content with the reasoning parser", "", "wrong"),
            ("Bug", "Llama-3.1-8B-Instruct outputs repeated tokens after 1k tokens", "", "wrong"),
            ("Usage", "How to run DeepSeek-V3 on 2 nodes?", "", ""),
            ("Bug", "Kimi-K2 tool call ids are not unique", "", "error"),
            ("Feature", "Support Mistral tokenizer mode for Magistral", "", ""),
            ("Bug", "GLM-4.5-Air fails to load with transformers 4.57.3", "", "error"),
        ],
    },
    "kernels": {
        _PR: [
            "[Attention] Add FlashInfer MLA backend",
            "[Kernel] FA3 for sliding window with attention sinks",
            "[Kernel][Triton] Speed up unified triton attention kernel",
            "[Attention][CUTLASS] CUTLASS MLA for Blackwell",
            "[Bugfix] Fix flash-attention varlen with head dim 256",
            "[Kernel] Triton fused_moe for INT4 weights",
            "[Kernel] Fused rms_norm + FP8 quant kernel",
            "[Attention] FlashInfer: support FP8 query for decode",
        ],
        _ISSUE: [
            ("Bug", "FlashInfer JIT compile fails for head dim 80", "", "error"),
            ("Feature", "FlashAttention 3 on Ampere?", "", ""),
            ("Bug", "MLA backend NaN with FP8 KV cache", "", "nan"),
            ("Performance", "Triton attention backend slower than FlashAttention on {nv_gpu}", "",
             "regression"),
        ],
    },
    "compile": {
        _PR: [
            "[torch.compile] Fuse rms_norm + quant pass",
            "[torch.compile] Cache compiled artifacts across runs",
            "[Core] Full CUDA graphs for FlashInfer decode",
            "[Bugfix] Fix CUDA graph capture with LoRA",
            "[torch.compile] Support piecewise cudagraph with sequence parallel",
            "[torch.compile] Reduce recompilation when max_num_seqs changes",
            "[Perf] Capture fewer CUDA graph sizes by default",
        ],
        _ISSUE: [
            ("Bug", "torch.compile recompiles on every request with {model_short}", "", "regression"),
            ("Bug", "CUDA graph capture OOM for {model_short}", "", "oom"),
            ("Performance", "Startup takes 5 minutes because of torch.compile", "", "regression"),
            ("Feature", "Allow disabling cudagraph for specific batch sizes", "", ""),
        ],
    },
    "distributed": {
        _PR: [
            "[Distributed] Pipeline parallel support for {model_short}",
            "[Core] DP + EP load balancing across API servers",
            "[KV Connector] NIXL: support heterogeneous TP",
            "[P/D] Disaggregated prefill with LMCache",
            "[Bugfix] Fix Ray executor hang on multi-node setup",
            "[KV Offloading] CPU offloading connector for V1",
            "[Distributed] Tensor parallel all-reduce fusion",
            "[Bugfix][P/D] Fix NIXL handshake timeout",
            "[Core] Support external launcher with DP",
            "[KV Connector] {kv_connector}: support layer-wise transfer",
        ],
        _ISSUE: [
            ("Bug", "Tensor parallel TP=8 hangs on Ray cluster", "", "hang"),
            ("Bug", "Pipeline parallel PP=2 produces wrong output for {model_short}", "", "wrong"),
            ("Usage", "How to do disaggregated prefill with NIXL across nodes?", "", ""),
            ("Feature", "KV cache offloading to CPU in V1", "", ""),
            ("RFC", "Unified KV connector API for P/D disaggregation", "", ""),
            ("Bug", "DP={dp} with EP: NCCL timeout after 10 minutes", "", "hang"),
            ("Bug", "{kv_connector} connector crashes when the decode instance restarts", "", "crash"),
        ],
    },
    "frontend": {
        _PR: [
            "[Frontend] Support Responses API background mode",
            "[Frontend] Add realtime websocket endpoint for ASR",
            "[Frontend][Bugfix] Fix tool calling streaming with {tool_parser} parser",
            "[Frontend] Structured output with xgrammar for JSON schema $ref",
            "[Frontend] Reasoning parser for {reasoning_model}",
            "[Frontend] OpenAI API: support `max_completion_tokens`",
            "[Bugfix] Fix chat completions returning 500 with empty messages",
            "[Frontend] Guided decoding: deprecate guided_json in favor of structured_outputs",
            "[Frontend] Add --enable-log-outputs command line flag",
            "[Frontend] Return prompt logprobs in the OpenAI-compatible server",
            "[Bugfix] Fix http 400 on /v1/completions with echo=True",
        ],
        _ISSUE: [
            ("Bug", "Tool calling with {tool_parser} parser returns invalid JSON", "", "wrong"),
            ("Feature", "Support Responses API for non gpt-oss models", "", ""),
            ("Bug", "Structured output (xgrammar) ignores enum in the schema", "", "wrong"),
            ("Usage", "How to use guided decoding via the OpenAI client?", "", ""),
            ("Bug", "Chat completions stream never finishes when the client disconnects", "", "hang"),
            ("Feature", "Support `parallel_tool_calls=false` in chat completions", "", ""),
            ("Bug", "reasoning_content is null with {reasoning_model} reasoning parser", "", "wrong"),
        ],
    },
    "scheduler": {
        _PR: [
            "[Core] Prefix caching: hash blocks with SHA256 by default",
            "[Core] Async scheduling with structured output",
            "[Core] Optimize chunked prefill scheduling for long context",
            "[V1][Core] Preemption by recompute when the KV cache is full",
            "[Core] KV cache manager: hybrid allocator for sliding window",
            "[Core] Remove the legacy block manager",
            "[Scheduler] Priority scheduling in V1",
            "[Core] Fix KV cache block leak on aborted requests",
        ],
        _ISSUE: [
            ("Bug", "Prefix caching returns wrong output with LoRA", "", "wrong"),
            ("Bug", "Requests preempted forever, scheduler stuck at 100% KV cache usage", "", "hang"),
            ("Feature", "Priority scheduling in V1", "", ""),
            ("Performance", "Chunked prefill hurts TTFT for long prompts", "", "regression"),
            ("Usage", "What does 'GPU KV cache usage' in the log mean?", "", ""),
        ],
    },
    "ci": {
        _PR: [
            "[CI/Build] Fix Docker build for arm64",
            "[CI] Split entrypoints tests into shards",
            "[Build] Use uv in the Dockerfile",
            "[CI/Build] Upgrade pre-commit hooks",
            "[CI] Fix flaky test_prefix_caching",
            "[Build] Publish nightly wheels for CUDA {cuda_ver}",
            "[CI/Build] Update PyTorch to 2.9.0",
            "[CI] Skip {test_area} tests when only docs change",
            "[CI/Build] Bump {dep_pin}",
            "[CI][Bugfix] Fix step timeout in the AMD CI pipeline",
        ],
        _ISSUE: [
            ("CI Failure", "{test_area} tests failing on main", "", "ci"),
            ("Installation", "Docker image vllm/vllm-openai:{version} is missing flashinfer", "", "build"),
            ("Installation", "Wheel build from source fails with CMake error", "", "build"),
            ("CI Failure", "{test_area} test is flaky on L4", "", "ci"),
        ],
    },
    "docs": {
        _PR: [
            "[Doc] Update the supported models list",
            "[Doc] Fix typo in quantization docs",
            "[Docs] Add an example for tool calling with streaming",
            "[Doc] Clarify prefix caching docs",
            "[Doc] Add tips for tuning max_num_batched_tokens",
            "[Docs] Document the --kv-transfer-config command line option",
            "[Doc] Fix broken links in the README",
        ],
        _ISSUE: [
            ("Doc", "Missing documentation for --kv-transfer-config", "", ""),
            ("Doc", "Broken link in the Quickstart", "", ""),
            ("Doc", "Docs for sleep mode are outdated", "", ""),
        ],
    },
    "performance": {
        _PR: [
            "[Perf] Reduce scheduler overhead with cached block hashes",
            "[Perf] Improve throughput of detokenization",
            "[Benchmark] Add random multimodal dataset to vllm bench serve",
            "[Perf] Fix TTFT regression from the input processor",
            "[Perf] Avoid CPU sync in the sampler",
            "[Perf] Overlap prepare_inputs with model forward",
        ],
        _ISSUE: [
            ("Performance", "Throughput regression after upgrading to {version}", "", "regression"),
            ("Performance", "High TTFT with long prompts on {nv_gpu}", "", "regression"),
            ("Performance", "Latency spikes every few minutes under steady load", "", "regression"),
            ("Performance", "Benchmark: {model_short} throughput lower than SGLang", "", "regression"),
        ],
    },
    "stability": {
        _PR: [
            "[Bugfix] Fix deadlock in shared memory broadcast",
            "[Bugfix] Fix hang when a request is aborted during prefill",
            "[Bugfix] Fix NaN in top-p sampler with temperature=0",
            "[Bugfix] Fix illegal memory access in {kernel} for large batch",
            "[Bugfix] Fix accuracy regression in {model_short} since {version}",
            "[Bugfix] Fix OOM in CUDA graph capture for {moe_model}",
            "[Bugfix] Fix engine crash on malformed tool call",
        ],
        _ISSUE: [],  # filled from _STABILITY below
    },
    "misc": {
        _PR: [
            "[Misc] Remove unused code in {module}",
            "[Refactor] Move sampling params validation to the input processor",
            "[Core] Clean up engine core output handling",
            "[Misc] Improve the error message when --max-model-len is too large",
            "[Misc] Add a command line option to disable the usage stats",
            "[Misc] Fix relationship between max_num_seqs and cudagraph sizes in logs",
            "[Chore] Rename VLLM_USE_V1 leftovers",
            "[Misc] Update {dep_pin}",
            "[Core] Support sleep mode level 2",
            "[Misc] Add type hints to {module}",
            "[Bugfix] Fix special tokens being dropped in the detokenizer",
            "[Misc] Log an efficient warmup summary",
            "[Misc] Make DPO reward models work with the pooling runner",
            "[Bugfix] Handle array-valued stop tokens",
            "[LoRA] Support LoRA for {model_short}",
            "[Misc] Shipping lighter wheels by stripping debug info",
            "[Core] Step-level timing in the engine core loop",
            "[Bugfix] Fix prompt_logprobs with n > 1",
        ],
        _ISSUE: [
            ("Usage", "vLLM vs ollama for local serving?", "", ""),
            ("Misc", "Release schedule for {version}?", "", ""),
            ("Feature", "Expose a command line flag for the prompt-cache salt", "", ""),
            ("Usage", "How to set up a DPO-trained reward model with the pooling API?", "", ""),
            ("Feature", "Support `n` > 1 with beam search", "", ""),
            ("Usage", "Why does the output differ from transformers?", "", ""),
        ],
    },
    "usage": {
        _PR: [],
        _ISSUE: [
            ("Usage", "How to serve {model_short} with {n_gpu} GPUs?", "", ""),
            ("Usage", "How to limit GPU memory usage for {model_short}?", "", ""),
            ("Usage", "How do I pass a custom chat template to vllm serve?", "", ""),
            ("Usage", "How to use LoRA adapters with the OpenAI server?", "", ""),
            ("Usage", "Running {model_short} on {nv_gpu} with the max context length", "", ""),
            ("Usage", "Is there a way to get token usage with stream=True?", "", ""),
        ],
    },
}

# Stability bug reports by failure family, so each day gets hangs, crashes, regressions and wrong output.
_STABILITY: dict[str, list[tuple[str, str, str, str]]] = {
    "hang": [
        ("Bug", "vLLM hangs at 'Loading safetensors checkpoint shards' with TP={tp} on {nv_gpu}",
         "With `--tensor-parallel-size {tp}` on {nv_gpu}, the server hangs forever right after "
         "'Loading safetensors checkpoint shards' reaches 100%.", "hang"),
        ("Bug", "Server hangs after {n_req} requests with {model_short}",
         "After serving {n_req} requests, the server stops producing tokens; GPU utilization drops to 0 and "
         "new requests just wait.", "hang"),
        ("Bug", "Engine stuck at 'Capturing CUDA graphs' for {model_short}", "", "hang"),
        ("Bug", "Deadlock when aborting streaming requests with {feature} enabled", "", "deadlock"),
        ("Bug", "Process hangs on exit after offline inference with {model_short}", "", "hang"),
        ("Bug", "{moe_model} with DP={dp} gets stuck: 'No available shared memory broadcast block found'", "",
         "hang"),
    ],
    "crash": [
        ("Bug", "Engine core crashes under high concurrency with {model_short}",
         "Under ~200 concurrent requests the engine core process dies and the API server returns 500 for "
         "everything afterwards.", "crash"),
        ("Bug", "EngineDeadError with {model_short} on {version}", "", "crash"),
        ("Bug", "Segfault in the tokenizer when serving {model_short}", "", "segfault"),
        ("Bug", "CUDA error: an illegal memory access was encountered with {attn_backend}", "", "illegal"),
        ("Bug", "OOM when loading {model_short} on {n_gpu}x{nv_gpu} despite gpu-memory-utilization 0.9", "",
         "oom"),
        ("Bug", "torch.OutOfMemoryError: CUDA out of memory during CUDA graph capture for {moe_model}", "",
         "oom"),
        ("Bug", "Server crashes with device-side assert triggered when using {feature}", "", "crash"),
    ],
    "regression": [
        ("Bug", "Regression in {version}: TTFT doubled for {model_short}", "", "regression"),
        ("Bug", "Throughput regression after upgrading from {version_old} to {version}", "", "regression"),
        ("Bug", "{model_short} fails to load since {version} (regression from {version_old})", "", "error"),
        ("Performance", "Performance regression with the {attn_backend} backend on {nv_gpu}", "",
         "regression"),
    ],
    "wrong": [
        ("Bug", "Wrong output / gibberish from {model_short} since {version}",
         "Since upgrading to {version}, {model_short} answers with gibberish for roughly one request in ten; "
         "{version_old} was fine with the same command.", "wrong"),
        ("Bug", "Accuracy drop on GSM8K for {model_short} with {quant}", "", "accuracy"),
        ("Bug", "NaN logits with {quant} {model_short} on {amd_gpu}", "", "nan"),
        ("Bug", "{model_short} outputs repeated '!!!!!!' with prefix caching enabled", "", "wrong"),
        ("Bug", "Incorrect output with chunked prefill and {spec}", "", "wrong"),
        ("Bug", "Batch invariance broken: different output with batch size 1 vs 32 for {model_short}", "",
         "wrong"),
    ],
}
_TOPICS["stability"][_ISSUE] = [e for group in _STABILITY.values() for e in group]
# Reports worded as people write them, with no failure word a template would prompt (no daily family of
# their own): repeated output, null output, a failure with one configuration, a question that is a hang.
_TOPICS["stability"][_ISSUE] += [
    ("Bug", "Frequent repetitive decoding in {model_short}", "", "wrong"),
    ("Bug", "{model_short} returns null content when hitting max_tokens", "", "wrong"),
    ("Bug", "{feature} fails with PP > 1", "", "error"),
    ("Bug", "Potential deadlock?", "", "deadlock"),
]
_STABILITY_ORDER = ("hang", "crash", "regression", "wrong")

# Share of each topic (PR deck, issue deck). Every topic appears at least once per deck.
_TOPIC_WEIGHTS: dict[str, tuple[int, int]] = {
    "rocm": (6, 5), "cuda": (6, 4), "hardware": (5, 4), "quantization": (7, 5), "moe": (5, 3), "spec": (4, 3),
    "multimodal": (6, 6), "models": (9, 9), "kernels": (5, 2), "compile": (4, 3), "distributed": (6, 6),
    "frontend": (9, 8), "scheduler": (4, 3), "ci": (8, 3), "docs": (5, 2), "performance": (4, 4),
    "stability": (5, 14), "misc": (12, 3), "usage": (0, 8),
}

_ISSUE_PREFIX = {
    "Bug": "[Bug]: ", "Feature": "[Feature]: ", "Usage": "[Usage]: ", "RFC": "[RFC]: ",
    "Performance": "[Performance]: ", "Installation": "[Installation]: ", "Doc": "[Doc]: ",
    "New Model": "[New Model]: ", "CI Failure": "[CI Failure]: ", "Misc": "[Misc]: ",
}
_ISSUE_TEMPLATE_LABEL = {
    "Bug": "bug", "Feature": "feature request", "Usage": "usage", "RFC": "RFC", "Performance": "performance",
    "Installation": "installation", "Doc": "documentation", "New Model": "new-model",
    "CI Failure": "ci-failure",
}

# CJK, RTL and emoji items: (kind, title without prefix, first sentence).
_CJK_ISSUES = [
    ("Bug", "Qwen3-VL 在 MI300X 上推理时卡住",
     "在 MI300X 上用 vLLM 部署 Qwen3-VL-30B-A3B，发送带图片的请求后服务卡住，没有任何报错。"),
    ("Usage", "如何在多卡上部署 DeepSeek-V3？",
     "我有 8 张 H100，想用 tensor parallel 部署 DeepSeek-V3，应该怎么设置参数？"),
    ("Bug", "使用 FP8 量化后 Qwen3-30B-A3B 输出乱码",
     "开启 `--quantization fp8` 之后，模型输出全是乱码，关闭后正常。"),
    ("Performance", "开启 prefix caching 后吞吐下降明显",
     "打开前缀缓存后吞吐反而下降了 30%，请问是否符合预期？"),
    ("Feature", "希望支持 GLM-4.6 的 tool calling",
     "目前 GLM-4.6 的工具调用解析不完整，希望官方支持。"),
    ("Bug", "多机 PP=2 部署时 NCCL 超时崩溃",
     "两台机器各 8 卡，pipeline parallel 为 2 时启动约十分钟后 NCCL 超时，进程崩溃。"),
    ("Usage", "vllm serve 启动 Kimi-K2 时显存不足（OOM）怎么办",
     "8 卡 H20 启动 Kimi-K2 时报 CUDA out of memory，已经把 gpu-memory-utilization 调到 0.95。"),
    ("Bug", "Qwen2.5-VL 处理视频输入时报 CUDA error",
     "传入一段 3 分钟的视频后报 CUDA error: an illegal memory access。"),
    ("Bug", "Gemma 3 で日本語の出力が文字化けする",
     "Gemma 3 27B で日本語のプロンプトを送ると、出力が文字化けします。"),
    ("Usage", "Llama 3.1 한국어 모델을 TPU에서 실행하는 방법",
     "TPU v5e에서 Llama 3.1 기반 한국어 모델을 서빙하고 싶습니다."),
    ("Bug", "升级到 v0.11.2 后 DeepSeek-R1 推理卡死",
     "升级之后 DeepSeek-R1 在高并发下会卡死，降级到 v0.11.0 正常。"),
    ("Bug", "升级后 gpt-oss-120b 工具调用返回格式错误",
     "使用 openai 解析器时，tool_calls 字段的 arguments 不是合法 JSON。"),
]
_RTL_ISSUES = [
    (
        "Usage",
        "كيف أشغّل Llama-3.1-8B على بطاقة AMD MI300X؟",
        "أحاول تشغيل النموذج على ROCm ولكن الخادم يتوقف عند التحميل.",
    ),
    ("Bug", "שגיאה בטעינת Gemma 3 עם FP8", "בעת טעינת המודל עם כימות FP8 מתקבלת שגיאת CUDA."),
]
_ADVERSARIAL_TITLES = [
    "[Bug]: @everyone vllm serve crashes when the prompt contains <!channel>",
    "[Frontend] Escape `<script>` tags in the chat template preview",
    "[Bug]: **URGENT** ||spoiler|| tokens leak into reasoning_content",
    "[Usage]: How to keep <@U123456> style mentions intact through the chat template?",
    "[Bug]: Output contains <script>alert(1)</script> when echo=True",
    "[Misc] Strip `@here` and <!here> from logged prompts",
]
_ADVERSARIAL_BODY = (
    "@everyone <!channel> <@U123456> this breaks our Slack relay: **bold**, `code`, ||spoiler||, "
    "<script>alert('xss')</script> and [a link](javascript:alert(1)) all end up in the notification."
)
_EMOJI = ["🚀", "🐛", "⚡", "🔥", "🎉", "✨", "🙏", "😢", "🤔", "👀", "🧪", "📝"]

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

_LABEL_RULES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(rx, re.IGNORECASE))
    for name, rx in [
        ("qwen", r"qwen"),
        ("deepseek", r"deepseek"),
        ("llama", r"llama(?!\.cpp)"),
        ("gpt-oss", r"gpt-oss|harmony"),
        ("rocm", r"\b(amd|rocm|aiter|mi3\d\dx?|gfx\d+|hip)\b"),
        ("nvidia", r"\b(nvidia|cuda|cutlass|flashinfer|blackwell|b200|gb200)\b"),
        ("kv-connector", r"\bp/?d\b|nixl|lmcache|kv connector|mooncake"),
        ("tpu", r"\btpu\b|pallas"),
        ("cpu", r"\b(cpu|arm|aarch64|graviton)\b"),
        ("x86-cpu", r"\bx86\b|avx512"),
        ("intel-gpu", r"\bxpu\b|intel"),
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

# --------------------------------------------------------------------------------------------------------
# Bodies.

_BEFORE_SUBMITTING = (
    "### Before submitting a new issue...\n\n"
    "- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the bottom "
    "right corner of the [documentation page](https://docs.vllm.ai/en/latest/), which can answer lots of "
    "frequently asked questions."
)
_PR_HEADER = (
    "PLEASE FILL IN THE PR DESCRIPTION HERE ENSURING ALL CHECKLIST ITEMS (AT THE BOTTOM) "
    "HAVE BEEN CONSIDERED."
)
_PR_CHECKLIST = (
    "<details>\n<summary> Essential Elements of an Effective PR Description Checklist </summary>\n\n"
    "- [{0}] The purpose of the PR, such as \"Fix some issue (link existing issues this PR will resolve)\".\n"
    "- [{1}] The test plan, such as providing test command.\n"
    "- [{2}] The test results, such as pasting the results comparison before and after, or e2e results\n"
    "- [{3}] (Optional) The necessary documentation update, such as updating `supported_models.md` and "
    "`examples` for a new model.\n"
    "- [{4}] (Optional) Release notes update. If your change is user facing, please update the release notes "
    "draft in the [Google Doc](https://docs.google.com/document/d/"
    "1YyVqrgX4gHTtrstbq8oWUImOyPCKSGnJ7xtTpmXzlRs"
    "/edit?tab=t.0).\n</details>"
)
_PR_FOOTER = (
    "**BEFORE SUBMITTING, PLEASE READ <https://docs.vllm.ai/en/latest/contributing>** "
    "(anything written below this line will be removed by GitHub Actions)"
)
_PR_ONE_LINERS = [
    "As titled.", "Fixes #{ref}", "Follow-up to #{ref}.", "Small cleanup, no functional change.",
    "See #{ref} for context.", "cc @{maint}", "Trivial fix, tested locally.",
    "Split out of #{ref} to ease review.",
]
_PURPOSE_FOLLOW = [
    "The root cause is that the shape check assumed a contiguous input, which is not true after {feature}.",
    "Previously this path silently fell back to the slow implementation on {nv_gpu}.",
    "This is needed to serve `{model}` with `--tensor-parallel-size {tp}`.",
    "The change is behind an env var for now so we can compare on more hardware before flipping the default.",
    "No behaviour change for the default configuration.",
    "This unblocks #{ref}.",
    "Discussed with @{maint} on Slack; this is the minimal version of the fix.",
    "Most of the diff is moving code; the functional change is in `{module}`.",
    "This also removes a redundant device sync in the hot path.",
    "Reported by several users in #{ref}.",
]
_TEST_PLANS = [
    "```bash\npytest -v tests/{test_area}\n```",
    "```bash\nvllm serve {model} --tensor-parallel-size {tp} --max-model-len 32768\n"
    "vllm bench serve --model {model} --dataset-name random --random-input-len 1024 "
    "--random-output-len 128 --num-prompts 1000\n```",
    "```bash\nlm_eval --model vllm --model_args pretrained={model},tensor_parallel_size={tp} "
    "--tasks gsm8k --num_fewshot 5 --batch_size auto\n```",
    "Existing CI. Added a unit test in `tests/{test_area}`.",
    "```python\nfrom vllm import LLM, SamplingParams\n\nllm = LLM(model=\"{model}\")\n"
    "print(llm.generate([\"The capital of France is\"], SamplingParams(max_tokens=16)))\n```",
]
_LM_EVAL = (
    "|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
    "|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|\n"
    "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |{a}|±  |0.0078|\n"
    "|     |       |strict-match    |     5|exact_match|↑  |{b}|±  |0.0081|"
)
_BENCH = (
    "============ Serving Benchmark Result ============\n"
    "Successful requests:                     1000\n"
    "Benchmark duration (s):                  {dur}\n"
    "Request throughput (req/s):              {rps}\n"
    "Output token throughput (tok/s):         {otps}\n"
    "---------------Time to First Token----------------\n"
    "Mean TTFT (ms):                          {ttft}\n"
    "Median TTFT (ms):                        {ttft_med}\n"
    "P99 TTFT (ms):                           {ttft_p99}\n"
    "-----Time per Output Token (excl. 1st token)------\n"
    "Mean TPOT (ms):                          {tpot}\n"
    "=================================================="
)

_LOGS: dict[str, str] = {
    "hang": (
        "(EngineCore_DP0 pid=2187) INFO 11-27 08:14:02 [gpu_model_runner.py:2602] Model loading took "
        "15.2 GiB "
        "and 41.9 seconds\n"
        "(EngineCore_DP0 pid=2187) WARNING 11-27 08:25:13 [shm_broadcast.py:466] No available shared memory "
        "broadcast block found in 60 seconds. This typically happens when some processes are hanging or "
        "doing "
        "some time-consuming work (e.g. compilation).\n"
        "(EngineCore_DP0 pid=2187) WARNING 11-27 08:26:13 [shm_broadcast.py:466] No available shared memory "
        "broadcast block found in 60 seconds. This typically happens when some processes are hanging or "
        "doing "
        "some time-consuming work (e.g. compilation)."
    ),
    "deadlock": (
        "py-spy dump --pid 3121\n"
        "Thread 3121 (idle): \"MainThread\"\n"
        "    wait (threading.py:355)\n"
        "    get (queue.py:171)\n"
        "    run_busy_loop (vllm/v1/engine/core.py:760)\n"
        "Thread 3188 (idle): \"output_handler\"\n"
        "    acquire (vllm/distributed/device_communicators/shm_broadcast.py:431)\n"
        "    dequeue (vllm/distributed/device_communicators/shm_broadcast.py:502)"
    ),
    "crash": (
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480] AsyncLLM output_handler failed.\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480] Traceback (most recent call last):\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480]   File \"/usr/local/lib/python3.12/"
        "dist-packages/vllm/v1/engine/async_llm.py\", line 439, in output_handler\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480]     "
        "outputs = await engine_core.get_output_async()\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480] "
        "vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause."
    ),
    "illegal": (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py\", line 2421, "
        "in execute_model\n    model_output = self.model(\n"
        "torch.AcceleratorError: CUDA error: an illegal memory access was encountered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
        "might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."
    ),
    "oom": (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.75 GiB. GPU 0 has a total "
        "capacity of 79.19 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process has "
        "78.16 GiB memory "
        "in use. Of the allocated memory 74.50 GiB is allocated by PyTorch, and 1.91 GiB is reserved by "
        "PyTorch but unallocated."
    ),
    "segfault": (
        "!!!!!!! Segfault encountered !!!!!!!\n"
        "  File \"<unknown>\", line 0, in tokenizers::tokenizer::TokenizerImpl::decode\n"
        "Fatal Python error: Segmentation fault\n\n"
        "Current thread 0x00007f3a2c5ff640 (most recent call first):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/detokenizer.py\", line 254 "
        "in decode_next\n"
        "Segmentation fault (core dumped)"
    ),
    "nan": (
        "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/sample/ops/topk_topp_sampler.py\", "
        "line 287, "
        "in random_sample"
    ),
    "wrong": (
        "Prompt: 'The capital of France is', Generated text: ' Paris. Paris. Paris!!!!!!!!!!!!!!!!!!!!!!!'\n"
        "Prompt: 'Write a haiku about GPUs', Generated text: '<unk><unk> pérdida bahwa 的的的的的'"
    ),
    "accuracy": _LM_EVAL.format(a="0.7121", b="0.6934"),
    "regression": (
        "|            | {version_old} | {version} |\n|---|---:|---:|\n"
        "| Output token throughput (tok/s) | 11842 | 8123 |\n"
        "| Mean TTFT (ms) | 412 | 938 |\n| Mean TPOT (ms) | 21.3 | 30.8 |"
    ),
    "error": (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/model_executor/model_loader/"
        "default_loader.py\", "
        "line 269, in load_weights\n    loaded_weights = model.load_weights(\n"
        "KeyError: 'model.layers.0.mlp.experts.w13_weight_scale'"
    ),
    "build": (
        "CMake Error at CMakeLists.txt:412 (message):\n  Unsupported architecture for the requested kernels\n"
        "error: subprocess-exited-with-error\n"
        "  × Building wheel for vllm (pyproject.toml) did not run successfully."
    ),
    "ci": (
        "FAILED tests/{test_area}/test_basic.py::test_models[True-auto-1] - AssertionError: "
        "Test0:\nMatched tokens:\t[13, 576, 6722]\nhf:\t'The capital of France is Paris.'\n"
        "vllm:\t'The capital of France is Lyon.'"
    ),
}

_REPRO = [
    (
        "```bash\nvllm serve {model} --tensor-parallel-size {tp} --max-model-len 32768 "
        "--gpu-memory-utilization 0.9\n```"
    ),
    (
        "```python\nfrom vllm import LLM, SamplingParams\n\nllm = LLM(model=\"{model}\", "
        "tensor_parallel_size={tp})\noutputs = llm.generate([\"Hello, my name is\"] * 256, "
        "SamplingParams(temperature=0.8, top_p=0.95))\n```"
    ),
    "```bash\ndocker run --gpus all -p 8000:8000 vllm/vllm-openai:{version} --model {model}\n```",
    (
        "```bash\ncurl http://localhost:8000/v1/chat/completions -H 'Content-Type: application/json' -d "
        "'{\"model\": \"{model}\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}'\n```"
    ),
]

# Human comments by role. {ref}/{maint} change per comment; other slots reuse the item's values.
_C_REVIEW = [
    "LGTM, thanks!", "Thanks for the contribution! Could you add a unit test for this?",
    "cc @{maint} for the {topic_word} side",
    "Can you rebase onto main? The CI failure should be fixed by #{ref}.",
    "The failing test looks unrelated; retrying.", "Nice speedup 🚀",
    "Could you share benchmark numbers before/after on {nv_gpu}?",
    "Merging since the failures are unrelated.", "Let's wait for #{ref} to land first.",
    "Added the `ready` label to run the full CI.", "/gemini review", "Is this still needed after #{ref}?",
    "Left a few comments, otherwise looks good.",
    "Can we put this behind a flag until we verify on more hardware?", "Please fix pre-commit.",
    "This changes the default behaviour; could you add a note to the docs?",
    "Thanks! Approving, but please address the nit about naming.",
    "@{author} could you resolve the conflicts?",
    (
        "Could you also run the lm_eval gsm8k check?\n\n```bash\nlm_eval --model vllm --model_args "
        "pretrained={model} --tasks gsm8k --num_fewshot 5\n```"
    ),
]
_C_PR_AUTHOR = [
    "Done, PTAL.", "Addressed the comments, PTAL again @{maint}", "Rebased onto main.",
    "Thanks for the review!", "Added a test in `tests/{test_area}`.", "Good catch, fixed.",
    (
        "Updated with the benchmark results:\n\n| | main | this PR |\n|---|---:|---:|\n| Output throughput "
        "(tok/s) | 9876 | 11234 |\n| TTFT p50 (ms) | 812 | 640 |"
    ),
    "The remaining CI failure is a known flaky test (#{ref}).", "@{maint} could you take another look?",
    "I think this is ready now.", "Will split the refactor into a separate PR.",
]
_C_PR_COMMUNITY = [
    "Is there an ETA for this? We need it for {model_name} in production.",
    "Tested this on {nv_gpu}, works for me 👍", "+1, would love to see this merged.",
    "Does this also fix #{ref}?", "Confirmed this fixes the issue for us.",
    "Any plans to support {amd_gpu} as well?",
]
_C_ISSUE_MAINT = [
    "Can you share the full log with `VLLM_LOGGING_LEVEL=DEBUG`?",
    "Could you try the latest nightly? This should be fixed by #{ref}.", "I can reproduce this on main.",
    "cc @{maint}", "This looks like a duplicate of #{ref}.", "Workaround for now: pass `--enforce-eager`.",
    "Thanks for the report. Which version of {dep} do you have?",
    "Can you try with `--compilation-config '{\"cudagraph_mode\": \"PIECEWISE\"}'`?",
    "Please fill in the environment section; the output of `python collect_env.py` helps a lot.",
    "We are tracking this in #{ref}.", "Does it still happen with `--no-enable-prefix-caching`?",
]
_C_ISSUE_AUTHOR = [
    "Thanks, it works after upgrading to {version}.", "Here is the full log:\n\n```text\n{log}\n```",
    "Same result with `--enforce-eager`.", "I tried the nightly and it still happens.",
    (
        "Here's my launch command:\n\n```bash\nvllm serve {model} --tensor-parallel-size {tp} "
        "--max-model-len 32768\n```"
    ),
    "It only happens with {feature} enabled.", "Any update on this?", "Thanks! I'll test it today.",
]
_C_ISSUE_COMMUNITY = [
    "Same issue here on {nv_gpu} with {version}.", "+1", "I'm seeing the same thing with {model_name}.",
    "Any update on this?", "Still seeing this with {version} 😢", "Same here, 8x{nv_gpu}, TP={tp}.",
    "Workaround that worked for me: set `VLLM_USE_FLASHINFER_SAMPLER=0`.", "Also happens on {amd_gpu}.",
    "Downgrading to {version_old} fixes it for me.", "Can confirm on {version}, with and without {feature}.",
    "Is there a fix planned for the next release?", "I hit this too:\n\n```\n{log}\n```",
]
_C_CJK = [
    "同样遇到这个问题", "请问有解决方案吗？", "我这边在 {nv_gpu} 上也复现了",
    "升级到 {version} 后解决了，谢谢！", "同问，+1", "同じ問題が発生しています。",
]
_C_CLOSE_COMPLETED = [
    "Closing as fixed by #{ref}. Feel free to reopen if you still see it.", "Fixed in {version}.",
    "Closing since the fix landed in #{ref}.", "This should be resolved on main now, closing.",
]
_C_CLOSE_NOT_PLANNED = [
    "Closing as a duplicate of #{ref}.", "This is expected behaviour; closing.",
    "Closing as this is a transformers issue rather than vLLM.", "We won't support this for now, closing.",
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
_QUARK_TITLES = [
    "[Quantization] Support Quark MXFP4 W4A4 checkpoints for {model}",
    "[Quantization] Load Quark FP8 per-channel scales for {model}",
    "[Bugfix] Fix Quark W8A8 INT8 weight loading with TP={tp}",
    "[Quantization] Quark: dynamic MXFP4 activations for {model}",
]

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



# Each day's showcase of key changes that ranking must get right (docs/editorial.md, "Key changes"): an internal
# removal that is not a breaking change, a refactor across four model families, a speed-up that quotes a
# figure, and a big new-model PR still in review. (title, size kind); the first day takes the first of each.
_SHOWCASE: dict[str, list[tuple[str, str]]] = {
    "cleanup": [("[Refactor] Remove useless syncwarp", "cleanup"),
                ("[Refactor] Remove unused helper in {module}", "cleanup"),
                ("[Misc] Remove redundant contiguous() calls in the sampler", "cleanup"),
                ("[Refactor] Remove dead code in the attention backends", "cleanup"),
                ("[Refactor] Remove useless syncwarp in {kernel}", "cleanup")],
    "wide": [("[Refactor] Unify rotary embedding across Llama, Qwen, DeepSeek and Gemma models", "wide_refactor"),
             ("[Refactor] Share the MoE router between DeepSeek, Qwen, GLM and Kimi models", "wide_refactor"),
             ("[Refactor] Move Llama, Mistral, Qwen and Gemma decoder layers onto one base class",
              "wide_refactor"),
             ("[Refactor] Consolidate weight loading for Qwen, Llama, GLM and MiniMax models", "wide_refactor")],
    "perf": [("[Perf] Fused MoE routing: 1.8x faster decode for DeepSeek-V3 on H200", "perf"),
             ("[Perf] Overlap detokenization with the forward pass: 30% lower TTFT", "perf"),
             ("[Perf][Kernel] 2.1x faster top-k/top-p sampler", "perf"),
             ("[Perf] Cut KV cache memory usage by 25% with block compaction", "perf"),
             ("[Perf] 1.5x faster prefix-cache hashing", "perf")],
    "model": [("[Model] Add support for {new_model}", "model"),
              ("[Model][Multimodal] Support {new_model} with video input", "model"),
              ("[New Model] {new_model} support", "model")],
}
# Diff shape by kind of PR: (median lines changed, sigma, median files, files sigma, share of additions).
_SIZES: dict[str, tuple[float, float, float, float, float]] = {
    "typo": (3, 0.4, 1, 0.0, 0.5), "deps": (4, 0.5, 1, 0.3, 0.5), "cleanup": (14, 0.7, 1.5, 0.4, 0.15),
    "docs": (35, 0.9, 2, 0.5, 0.8), "ci": (30, 0.9, 2, 0.6, 0.6), "bugfix": (35, 0.9, 2, 0.6, 0.7),
    "perf": (160, 0.8, 4, 0.5, 0.7), "feature": (250, 0.9, 5, 0.6, 0.8), "kernel": (700, 0.8, 7, 0.5, 0.85),
    "model": (1100, 0.6, 9, 0.4, 0.92), "refactor": (450, 0.8, 14, 0.5, 0.5),
    "wide_refactor": (900, 0.4, 28, 0.25, 0.5), "other": (80, 1.0, 3, 0.7, 0.7),
}
_SIZE_RULES: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(rx, re.IGNORECASE)) for kind, rx in [
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

class _Deck:
    """Topic draws as a shuffled deck, so every topic shows up a few times even in small samples."""

    def __init__(self, rng: random.Random, weights: dict[str, int]) -> None:
        self._rng = rng
        self._cards = [t for t, w in weights.items() for _ in range(w)]
        self._pos = len(self._cards)
        self._order: list[str] = []

    def draw(self) -> str:
        if self._pos >= len(self._order):
            self._order = self._cards[:]
            self._rng.shuffle(self._order)
            self._pos = 0
        card = self._order[self._pos]
        self._pos += 1
        return card


# How contributors tell apart PRs and reports on the same subject (titles are kept unique).
_PR_VARIANTS = (" [{n}/N]", " (follow-up to #{ref})", " for {model_short}", " when {feature} is enabled",
                " (part {n})", " (take {n})", " - cleanup")
_ISSUE_VARIANTS = (" on {version}", " with {model_short}", " when {feature} is enabled", " (TP={tp})",
                   " on {nv_gpu}")
_TAGS_RE = re.compile(r"^(?:\[[^\]]*\]\s*)+")
_PREFIX_RE = re.compile(r"^(?:\[[^\]]*\]:?\s*)+")
# First sentences when the title entry has none: they restate the title ({t}) in the template's voice.
_FIRST_SENTENCES: dict[str, tuple[str, ...]] = {
    "Bug": (
               "{t}. This happens every time I start the server with `vllm serve {model}`.",
               "After upgrading to {version}, I'm running into this: {t}.",
               "{t}; reproducible on a fresh install of {version}.",
               "I'm seeing the following problem: {t}. Details and logs below.",
           ),
    "Feature": (
                   (
                       "Request: {t}. We run `{model}` in production and this is the main thing keeping us "
                       "on a fork."
                   ),
                   (
                       "{t}. Several users have asked for this on Slack and it would simplify our deployment "
                       "a lot."
                   ),
               ),
    "Usage": (
                 "{t} I've read the docs but couldn't find a clear answer.",
                 "Question: {t} I'm on {version} with {n_gpu}x{nv_gpu}.",
             ),
    "Performance": ("{t}. Numbers below were measured with `vllm bench serve` on {nv_gpu}.",),
    "Installation": ("{t}. Full build log below.", "Installing {version} fails: {t}."),
    "Doc": ("{t}. The current page is confusing for first-time users.",),
    "New Model": (
                     (
                         "{t} was released recently and is trending on Hugging Face; it would be great to "
                         "support it."
                     ),
                 ),
    "RFC": ("{t}. This RFC proposes a plan and asks for feedback before we start.",),
    "CI Failure": ("{t}. It started failing on main in the last day and blocks unrelated PRs.",),
    "Misc": ("{t}",),
}
_VERBS = {
    "fix": "fixes", "add": "adds", "support": "adds support for", "enable": "enables", "remove": "removes",
    "update": "updates", "use": "uses", "tune": "tunes", "refactor": "refactors", "improve": "improves",
    "optimize": "optimizes", "move": "moves", "make": "makes", "skip": "skips", "upgrade": "upgrades",
    "clean": "cleans", "speed": "speeds", "reduce": "reduces", "avoid": "avoids", "cache": "caches",
    "split": "splits", "build": "builds", "publish": "publishes", "capture": "captures",
    "document": "documents", "clarify": "clarifies", "log": "logs", "handle": "handles", "rename": "renames",
    "strip": "strips", "escape": "escapes", "return": "returns", "overlap": "overlaps", "allow": "allows",
    "re-enable": "re-enables", "fuse": "fuses", "expose": "exposes", "bump": "bumps",
}


def _purpose(title: str) -> str:
    text = _TAGS_RE.sub("", title).strip()
    if not text:
        return "This PR is a small cleanup."
    first, _, rest = text.partition(" ")
    verb = _VERBS.get(first.lower())
    if verb:
        return f"This PR {verb} {rest}.".replace("..", ".")
    return f"This PR adds {text}.".replace("..", ".")  # keeps names as written (MiniMax-M2, Pallas)


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
            chosen = rng.sample(issues, min(len(issues), len(_STABILITY_ORDER)))
            for family, it in zip(_STABILITY_ORDER, chosen, strict=False):
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
                fresh = [t for t in _ADVERSARIAL_TITLES if t not in self.seen_titles]
                it.title = rng.choice(fresh or _ADVERSARIAL_TITLES)
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
                    it.fail = rng.choice(_STABILITY_ORDER)
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

    def _dyn(self, it: _Item) -> Callable[[str], str]:
        rng = self.rng

        def dyn(key: str) -> str:
            if key == "ref":
                lo = max(1, it.number - 1500)
                hi = max(lo, min(self.max_number, it.number + 400))
                return str(rng.randint(lo, hi))
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
        """Each whole day of the window gets ``_SHOWCASE``'s four key changes, on PRs the day already has (their
        own stream of random numbers: everything else stays as it was)."""
        rng = random.Random(f"showcase:{self.seed}")
        human_prs = [it for it in self.items if it.is_pr and not it.old and not it.special]  # no bots' PRs
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
        entries = _SHOWCASE[group]
        template, size = entries[day % len(entries)]
        base = title = _fill(template, rng, it.vars, self._dyn(it))
        part = 1
        while title in self.seen_titles:  # a later day's take on the same change ("[2/N]"); never "- cleanup"
            part += 1
            title = f"{base} [{part}/N]"
        self.seen_titles.add(title)
        it.title, it.size = title, size
        labels = [name for name, rx in _LABEL_RULES if rx.search(title)]
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
        v = it.vars
        dyn = self._dyn(it)
        if it.special == "dependabot":
            fresh = [d for d in _DEPENDABOT if f"Bump {d[0]} from {d[1]} to {d[2]}" not in self.seen_titles]
            dep, a, b = rng.choice(fresh or _DEPENDABOT)
            it.title = f"Bump {dep} from {a} to {b}"
            self.seen_titles.add(it.title)
            v.update(dep=dep, dep_a=a, dep_b=b)
            return
        if it.special == "pre-commit":
            it.title = "[pre-commit.ci] pre-commit autoupdate"
            return
        if it.special in ("cjk", "rtl"):
            entries = _CJK_ISSUES if it.special == "cjk" else _RTL_ISSUES
            fresh = [e for e in entries if _ISSUE_PREFIX[e[0]] + e[1] not in self.seen_titles]
            kind, text, sentence = rng.choice(fresh or entries)
            title = _ISSUE_PREFIX[kind] + text
            if not fresh:
                title += f" ({rng.choice(_SLOTS['version'])}, {rng.choice(_SLOTS['nv_gpu'])})"
            self.seen_titles.add(title)
            it.itype, it.title, it.first_sentence = kind, title, sentence
            it.fail = "hang" if "卡" in text else ""
            return
        if it.special == "adversarial":  # title chosen in _specials
            return
        # Real trackers rarely repeat a title exactly: retry with fresh slots, then vary it the way
        # contributors do ("[2/N]", "for <model>", "(follow-up to #N)").
        for attempt in range(8):
            v = {"author": it.vars["author"]}
            title, kind, sentence, fail = self._draw_title(it, v, dyn)
            if attempt >= 2:
                title = self._vary(title, it.is_pr, v, dyn)
            if title not in self.seen_titles:
                break
        self.seen_titles.add(title)
        it.vars = v
        if it.is_pr:
            if it.special == "emoji":
                emoji = rng.choice(_EMOJI)
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
            title = f"{title} {rng.choice(_EMOJI)}"
        elif it.special == "long":
            title += (" when running with tensor parallel, prefix caching and chunked prefill all enabled"
                      " on a multi-node Kubernetes deployment behind an nginx ingress (works fine on a"
                      " single node)")
        if it.special == "plain":
            it.title = title[0].lower() + title[1:] if rng.random() < 0.5 else title
            it.itype = ""
        else:
            it.title = _ISSUE_PREFIX[kind] + title

    def _draw_title(
        self, it: _Item, v: dict[str, str], dyn: Callable[[str], str]
    ) -> tuple[str, str, str, str]:
        """(title without issue prefix, issue template, first sentence, failure kind) for the item's topic."""
        rng = self.rng
        if it.is_pr:
            title = _fill(rng.choice(_TOPICS[it.topic][_PR]), rng, v, dyn)
            tags = _TAGS_RE.match(title)
            rest = title[tags.end():] if tags else title
            # vLLM titles often stack tags: [Bugfix][Kernel] ..., [V1][Core] ...
            if tags and "][" not in tags.group(0):
                if rest.startswith("Fix ") and "Bugfix" not in tags.group(0) and rng.random() < 0.5:
                    title = "[Bugfix]" + title
                elif it.topic in ("scheduler", "spec", "misc", "compile") and rng.random() < 0.25:
                    title = "[V1]" + title
            return title, "", "", ""
        if it.topic == "stability" and it.fail in _STABILITY:
            kind, text, sentence, fail = rng.choice(_STABILITY[it.fail])
        else:
            kind, text, sentence, fail = rng.choice(_TOPICS[it.topic][_ISSUE])
        return _fill(text, rng, v, dyn), kind, _fill(sentence, rng, v, dyn) if sentence else "", fail

    def _vary(self, title: str, is_pr: bool, v: dict[str, str], dyn: Callable[[str], str]) -> str:
        rng = self.rng
        options = _PR_VARIANTS if is_pr else _ISSUE_VARIANTS
        # Never restate a slot the title already names ("for Qwen3-8B for Qwen3-8B").
        usable = [t for t in options if not any(k in v for k in _SLOT_RE.findall(t))]
        suffix = _fill(rng.choice(usable or [" [{n}/N]"]), rng, {**v, "n": str(rng.randint(2, 5))}, dyn)
        return title + suffix

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

    def _labels(self, it: _Item) -> None:
        rng = self.rng
        labels: list[str] = []
        if it.special == "dependabot":
            labels = ["dependencies", "ci/build"]
        elif it.special == "pre-commit":
            labels = ["ci/build"]
        else:
            if not it.is_pr and it.itype in _ISSUE_TEMPLATE_LABEL:
                labels.append(_ISSUE_TEMPLATE_LABEL[it.itype])
            p = 0.9 if it.is_pr else 0.35
            for name, rx in _LABEL_RULES:
                if name not in labels and rx.search(it.title) and rng.random() < p:
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
                                      headline=_TAGS_RE.sub("", it.title)[:80], purpose=_purpose(it.title))
                it.comments.append((t, t, bots["gemini-code-assist[bot]"], body))
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
        for _ in range(n):
            t = _time_in(rng, lo, hi, 1.5)
            user, body = self._human_line(it, rng.random())
            it.comments.append((t, t, user, body))

    def _human_line(self, it: _Item, u: float) -> tuple[_User, str]:
        """One human comment: who says it and what, by role (author, maintainer, community)."""
        rng, p = self.rng, self.people
        dyn = self._dyn(it)
        v = it.vars
        v.setdefault("topic_word", it.topic if it.topic not in ("misc", "usage") else "core")
        if "log" not in v:
            v["log"] = _fill(_LOGS.get(it.fail or "error", _LOGS["error"]), rng, v, dyn)
        if it.is_pr:
            if u < 0.3 and it.author and it.author.payload["type"] == "User":
                return it.author, _fill(rng.choice(_C_PR_AUTHOR), rng, v, dyn)
            if u < 0.78:
                pool = "maintainers" if rng.random() < 0.55 else "collaborators"
                return p.pick(rng, pool), _fill(rng.choice(_C_REVIEW), rng, v, dyn)
            return p.pick(rng, "everyone"), _fill(rng.choice(_C_PR_COMMUNITY), rng, v, dyn)
        community = 0.45 if not it.hot else 0.62
        if u < 0.28 and it.author and it.author.payload["type"] == "User":
            return it.author, _fill(rng.choice(_C_ISSUE_AUTHOR), rng, v, dyn)
        if u < 1.0 - community:
            pool = "maintainers" if rng.random() < 0.5 else "collaborators"
            return p.pick(rng, pool), _fill(rng.choice(_C_ISSUE_MAINT), rng, v, dyn)
        user = p.pick(rng, "others" if rng.random() < 0.6 else "everyone")
        r = rng.random()
        if r < 0.04 or (it.special == "cjk" and r < 0.5):
            return user, _fill(rng.choice(_C_CJK), rng, v, dyn)
        if r < 0.05:
            return user, rng.choice(("👍", "🚀🚀", "👀", "+1 🙏"))
        if r < 0.0515:
            return user, "@everyone any workaround? this is blocking our <!channel> rollout ||urgent||"
        return user, _fill(rng.choice(_C_ISSUE_COMMUNITY), rng, v, dyn)

    def _human_comments(self, it: _Item, n: int) -> None:
        rng = self.rng
        lo, hi = it.lo, it.hi
        if hi - lo < 1:
            return
        times = sorted(_time_in(rng, lo, hi, it.shape) for _ in range(n))
        closed = it.closed if it.closing_comment and it.closed is not None and lo <= it.closed < self.end else None
        for idx, t in enumerate(times):
            if closed is not None and idx == n - 1:
                t = max(t, closed)  # the closing remark lands with the close itself
                bank = _C_CLOSE_COMPLETED if it.state_reason == "completed" else _C_CLOSE_NOT_PLANNED
                user = self.people.pick(rng, "maintainers")
                body = _fill(rng.choice(bank), rng, it.vars, self._dyn(it))
            else:
                user, body = self._human_line(it, rng.random())
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
        if u < 0.03:
            return None
        if u < 0.13:
            return _fill(rng.choice(_PR_ONE_LINERS), rng, v, dyn)
        parts = ["<!-- markdownlint-disable -->"]
        if rng.random() < 0.35:
            parts.append(_PR_HEADER + "\n")
        purpose = _purpose(it.title) + " " + _fill(rng.choice(_PURPOSE_FOLLOW), rng, v, dyn)
        if it.special == "adversarial":
            purpose += "\n\n" + _ADVERSARIAL_BODY
        if it.special == "emoji":
            purpose += " " + rng.choice(_EMOJI)
        fix = ""
        if self.issue_numbers and rng.random() < 0.35:
            k = bisect_right(self.issue_numbers, it.number)
            if k:
                ref = self.issue_numbers[rng.randrange(max(0, k - 200), k)]
                fix = f"\n\n{rng.choice(('FIX', 'Fixes', 'Closes', 'FIX'))} #{ref}"
        parts.append(f"## Purpose\n\n{purpose}{fix}\n")
        parts.append("## Test Plan\n\n" + _fill(rng.choice(_TEST_PLANS), rng, v, dyn) + "\n")
        r = rng.random()
        if r < 0.3:
            acc = rng.uniform(0.55, 0.96)
            result = _LM_EVAL.format(a=f"{acc:.4f}", b=f"{acc - rng.uniform(0, 0.03):.4f}")
        elif r < 0.55:
            dur = rng.uniform(40, 120)
            result = "```\n" + _BENCH.format(
                dur=f"{dur:.2f}", rps=f"{1000 / dur:.2f}", otps=f"{128000 / dur:.2f}",
                ttft=f"{rng.uniform(80, 1500):.2f}", ttft_med=f"{rng.uniform(70, 1300):.2f}",
                ttft_p99=f"{rng.uniform(1500, 5000):.2f}", tpot=f"{rng.uniform(8, 60):.2f}") + "\n```"
            if rng.random() < 0.4:
                result = f"<details>\n<summary>Benchmark output</summary>\n\n{result}\n</details>"
        elif r < 0.75:
            result = "All tests pass locally."
        else:
            result = ""
        parts.append(f"## Test Result\n\n{result}\n" if result else "## Test Result\n")
        checks = ["x" if rng.random() < 0.75 else " " for _ in range(3)] + [
            "x" if rng.random() < 0.2 else " ", " "]
        parts.append("---\n" + _PR_CHECKLIST.format(*checks))
        if rng.random() < 0.4:
            parts.append("\n" + _PR_FOOTER)
        return "\n".join(parts)

    def _env(self, it: _Item) -> str:
        """A `python collect_env.py` dump; the hardware follows what the title talks about."""
        rng, v = self.rng, it.vars
        text = it.title.lower()
        if "amd_gpu" in v or "gfx" in v or "rocm" in text or "mi300" in text or "mi355" in text:
            gpu = f"AMD Instinct {v.get('amd_gpu', 'MI300X')}"
            hw = "rocm"
        elif "tpu" in text:
            hw, gpu = "tpu", "TPU v6e"
        elif "cpu" in text or "arm" in text.split():
            hw, gpu = "cpu", ""
        elif "xpu" in text:
            hw, gpu = "xpu", "Intel(R) Arc(TM) B580 Graphics"
        else:
            hw = "cuda"
            gpu = "NVIDIA " + v.get("nv_gpu", rng.choice(("H100 80GB HBM3", "A100-SXM4-80GB", "H200")))
        version = v.get("version", rng.choice(_SLOTS["version"])).lstrip("v")
        ngpu = int(v.get("n_gpu", v.get("tp", rng.choice(("1", "2", "4", "8")))))
        return _env_dump(hw, gpu, version, min(ngpu, 8), v.get("py", "3.12"))

    def _issue_body(self, it: _Item) -> str | None:
        """The tracker's issue templates (bug, feature, usage, RFC, ...), filled with the item's slots."""
        rng = self.rng
        v, dyn = it.vars, self._dyn(it)
        # The first sentence restates the problem; the slots it uses stay consistent with the env dump.
        v["t"] = _PREFIX_RE.sub("", it.title).strip().rstrip(".")
        openers = _FIRST_SENTENCES.get(it.itype, _FIRST_SENTENCES["Bug"])
        sentence = it.first_sentence or _fill(rng.choice(openers), rng, v, dyn)
        if it.special == "plain":
            return sentence if rng.random() < 0.7 else None
        if it.special == "adversarial":
            sentence += "\n\n" + _ADVERSARIAL_BODY
        elif it.special == "emoji":
            sentence += "\n\nThanks a lot for the great project! 🙏"
        kind = it.itype
        env = f"```text\n{self._env(it)}\n```"
        if kind == "Bug":
            log = _fill(_LOGS.get(it.fail or "error", _LOGS["error"]), rng, v, dyn)
            repro = _fill(rng.choice(_REPRO), rng, v, dyn) + "\n\n" if rng.random() < 0.7 else ""
            sections = [
                "### Your current environment",
                f"<details>\n<summary>The output of <code>python collect_env.py</code></summary>\n\n{env}\n\n"
                "</details>\n",
                "### 🐛 Describe the bug",
                f"{sentence}\n\n{repro}```\n{log}\n```",
            ]
        elif kind == "Feature":
            alternatives = "_No response_"
            if rng.random() < 0.4:
                alternatives = "Carrying a local patch, which breaks on every upgrade."
            sections = [
                "### 🚀 The feature, motivation and pitch", sentence,
                "### Alternatives", alternatives,
                "### Additional context", "_No response_",
            ]
        elif kind == "Usage":
            if rng.random() < 0.5:
                env = "```text\nThe output of `python collect_env.py`\n```"
            sections = [
                "### Your current environment", env + "\n",
                "### How would you like to use vllm",
                sentence + "\n\n" + _fill(rng.choice(_REPRO), rng, v, dyn),
            ]
        elif kind == "RFC":
            cc = " ".join("@" + self.people.pick(rng, "maintainers").login for _ in range(3))
            sections = [
                "### Motivation.", sentence,
                "### Proposed Change.", "1. Introduce a single interface.\n2. Migrate the existing "
                "implementations.\n3. Deprecate the old flags over two releases.",
                "### Feedback Period.", "Two weeks.",
                "### CC List.", cc,
                "### Any Other Things.", "_No response_",
            ]
        elif kind == "Performance":
            sections = [
                "### Proposal to improve performance", "_No response_",
                "### Report of performance regression",
                sentence + "\n\n" + _fill(_LOGS["regression"], rng, v),
                "### Misc discussion on performance", "_No response_",
                "### Your current environment (if you think it is necessary)", env,
            ]
        elif kind == "Installation":
            sections = [
                "### Your current environment", env + "\n",
                "### How you are installing vllm", "```sh\npip install -vvv vllm\n```",
                sentence, f"```\n{_LOGS['build']}\n```",
            ]
        elif kind == "Doc":
            sections = [
                "### 📚 The doc issue", sentence,
                "### Suggest a potential alternative/fix", "Add a short example to the docs page.",
            ]
        elif kind == "New Model":
            sections = [
                "### The model to consider.",
                f"https://huggingface.co/{_fill('{model}', rng, v)}\n\n{sentence}",
                "### The closest model vllm already supports.", _fill("{model_short}", rng, v),
                "### What's your difficulty of supporting the model you want?",
                "The attention layout and the new rope variant.",
            ]
        elif kind == "CI Failure":
            log = _fill(_LOGS["ci"], rng, v, dyn)
            sections = [
                "### Name of failing test", f"`tests/{v.get('test_area', 'entrypoints')}`",
                "### Basic information", "- [ ] Flaky test\n- [x] Can reproduce locally\n"
                "- [ ] Caused by external libraries (e.g. bug in `transformers`)",
                "### 🧪 Describe the failing test", f"{sentence}\n\n```\n{log}\n```",
                "### 📝 History of failing test", f"Started failing after #{dyn('ref')} was merged.",
                "### CC List.", "@" + dyn("maint"),
            ]
            return "\n\n".join(sections)
        else:
            sections = [sentence]
        return "\n\n".join([*sections, _BEFORE_SUBMITTING])

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
        quant_prs = [it for it in fresh if it.is_pr and it.topic == "quantization"]
        other_prs = [it for it in fresh if it.is_pr and it.topic in ("kernels", "moe", "performance")]
        issues = [it for it in fresh if not it.is_pr and it.topic not in ("rocm", "stability")]
        per_days = max(1, self.days // 3)
        for it in rng.sample(quant_prs, min(per_days, len(quant_prs))):
            self._give(it, rng.choice(people[:2]))
            title = ""
            for _ in range(8):
                title = rng.choice(_QUARK_TITLES).format(model=rng.choice(_MODELS["moe_model"])[0],
                                                         tp=rng.choice((2, 4, 8)))
                if title not in self.seen_titles:
                    break
            self.seen_titles.add(title)
            it.title = title
        for it in [*rng.sample(other_prs, min(per_days, len(other_prs))), *rng.sample(issues, min(1, len(issues)))]:
            self._give(it, people[0])

    def _vendor_user(self, login: str, rng: random.Random) -> _User:
        uid = rng.randrange(30_000_000, 200_000_000)
        return _User(login, "CONTRIBUTOR", _user_payload(login, uid, "User", self.api, self.html))

    @staticmethod
    def _give(it: _Item, user: _User) -> None:
        it.author = user
        it.vars["author"] = user.login


_LABEL_INFO = {name: (color, desc) for name, color, desc in _LABELS}

@lru_cache(maxsize=1024)  # many reports share an environment, and then the same string (memory)
def _env_dump(hw: str, gpu: str, version: str, ngpu: int, py: str) -> str:
    """A `python collect_env.py` dump in its current sectioned format."""
    torch = "2.9.0" if version.startswith(("0.11.1", "0.11.2", "0.12")) else "2.8.0"
    bar = "=============================="
    rocm = hw == "rocm"
    cuda = hw == "cuda"
    build = "+cu128" if cuda else "+rocm6.4" if rocm else "+cpu" if hw in ("cpu", "tpu") else "+xpu"
    gpus = "\n".join(f"GPU {i}: {gpu}" for i in range(ngpu)) if gpu and hw in ("cuda", "rocm") else "N/A"
    arch = "aarch64" if hw == "cpu" and version.endswith("2") else "x86_64"
    lines = [
        bar, "        System Info", bar,
        f"OS                           : Ubuntu 22.04.5 LTS ({arch})",
        "GCC version                  : (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0",
        "Clang version                : Could not collect",
        "CMake version                : version 3.31.6",
        "Libc version                 : glibc-2.35", "",
        bar, "       PyTorch Info", bar,
        f"PyTorch version              : {torch}{build}",
        "Is debug build               : False",
        f"CUDA used to build PyTorch   : {'12.8' if cuda else 'N/A'}",
        f"ROCM used to build PyTorch   : {'6.4.43484' if rocm else 'N/A'}", "",
        bar, "      Python Environment", bar,
        f"Python version               : {py}.11 (main, Jun  4 2025, 08:56:18) [GCC 11.4.0] (64-bit runtime)",
        f"Python platform              : Linux-5.15.0-142-generic-{arch}-with-glibc2.35", "",
        bar, "       CUDA / GPU Info", bar,
        f"Is CUDA available            : {cuda or rocm}",
        f"CUDA runtime version         : {'12.8.93' if cuda else 'No CUDA'}",
        "CUDA_MODULE_LOADING set to   : LAZY",
        f"GPU models and configuration : {gpus if gpus == 'N/A' else chr(10) + gpus}",
        f"Nvidia driver version        : {'570.133.20' if cuda else 'No CUDA'}",
        "cuDNN version                : Could not collect",
        f"HIP runtime version          : {'6.4.43484' if rocm else 'N/A'}",
        f"MIOpen runtime version       : {'3.4.0' if rocm else 'N/A'}",
        "Is XNNPACK available         : True", "",
        bar, "          CPU Info", bar,
        f"Architecture:                         {arch}",
        "CPU(s):                               224",
        "Model name:                           " + (
            "Neoverse-V2" if arch == "aarch64" else "AMD EPYC 9654 96-Core Processor" if rocm
            else "Intel(R) Xeon(R) Platinum 8480+"),
        "Thread(s) per core:                   2", "",
        bar, "Versions of relevant libraries", bar,
        "[pip3] numpy==2.2.6",
        f"[pip3] torch=={torch}",
        "[pip3] transformers==4.57.1",
        "[pip3] triton==3.4.0",
        *(["[pip3] flashinfer-python==0.4.1"] if cuda else []), "",
        bar, "         vLLM Info", bar,
        f"ROCM Version                 : {'6.4.43484' if rocm else 'Could not collect'}",
        f"vLLM Version                 : {version}",
        "vLLM Build Flags:",
        f"  CUDA Archs: Not Set; ROCm: {'Enabled' if rocm else 'Disabled'}",
        "",
        bar, "     Environment Variables", bar,
        "NCCL_CUMEM_ENABLE=0",
        "PYTORCH_NVML_BASED_CUDA_CHECK=1",
        "TORCHINDUCTOR_COMPILE_THREADS=1",
    ]
    return "\n".join(lines)


def _size_kind(it: _Item) -> str:
    if it.special in ("dependabot", "pre-commit"):
        return "deps"
    return next((kind for kind, rx in _SIZE_RULES if rx.search(it.title)), "other")


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

