"""What the demo's tracker talks about, and what goes with what: hardware stacks, models, quantization schemes,
attention backends, and the slot filler that keeps one item coherent.

vLLM's world as its engineers know it. A vendor stack first: AMD (ROCm 6.4/7.0, AITER, Quark, RCCL; gfx942 for
MI300X/MI325X/MI308X, gfx950 for MI355X, gfx90a for MI250X, gfx1100/gfx1201 for Radeon), NVIDIA (CUDA 12.8/12.9/13.0,
FlashInfer, CUTLASS, FlashMLA, DeepGEMM, NCCL; sm90 Hopper, sm100/sm103 Blackwell, sm120 RTX Blackwell, sm89 Ada,
sm80 Ampere), Intel XPU (oneAPI, IPEX), Google TPU (JAX, torch_xla, Pallas) and CPUs (x86 AVX512/AMX, ARM
Neoverse). Then what fits it: an MLA backend only for an MLA model (DeepSeek-V2/V3/R1, Kimi-K2), MXFP4 for gpt-oss
(or Quark MXFP4 on MI355X), NVFP4 on Blackwell, FP8 on Hopper+/Ada/MI300+, Marlin kernels on NVIDIA, a model only
on hardware it fits in (at most 8 devices, 4 consumer cards), a tensor-parallel size that follows from both.

``fill`` replaces ``{slot}`` placeholders in a template with values kept per item in ``vars`` (a plain dict), so a
title, its body and its thread agree: the first slot that needs hardware picks the stack, later slots choose among
what is compatible with everything already chosen, in whatever order the template names them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "GPUS",
    "MODELS",
    "Gpu",
    "Model",
    "arch_words",
    "fill",
    "gpu_of",
    "model_of",
    "other_gpu",
    "pick_platform",
    "platform_hint",
    "presets",
    "resolve",
    "settle",
]


# --------------------------------------------------------------------------------------------------------
# Hardware.


@dataclass(frozen=True, slots=True)
class Gpu:
    name: str  # as written in titles: "MI300X", "H100", "RTX 5090", "Arc B580", "TPU v6e", "Graviton4"
    platform: str  # "amd", "nvidia", "xpu", "tpu", "cpu", "hpu"
    arch: str  # "gfx942", "sm90", "xe2", "v6e", "x86_64", "aarch64"
    family: str  # "CDNA3", "Hopper", "Blackwell", ...
    mem: int  # GiB per device
    full: str  # as collect_env and torch name it
    weight: int
    max_tp: int = 8  # consumer cards: 4 at most in one box


GPUS: tuple[Gpu, ...] = (
    Gpu("MI300X", "amd", "gfx942", "CDNA3", 192, "AMD Instinct MI300X", 9),
    Gpu("MI325X", "amd", "gfx942", "CDNA3", 256, "AMD Instinct MI325X", 4),
    Gpu("MI355X", "amd", "gfx950", "CDNA4", 288, "AMD Instinct MI355X", 6),
    Gpu("MI308X", "amd", "gfx942", "CDNA3", 192, "AMD Instinct MI308X", 1),
    Gpu("MI250X", "amd", "gfx90a", "CDNA2", 64, "AMD Instinct MI250X/MI250", 1),
    Gpu("Radeon RX 7900 XTX", "amd", "gfx1100", "RDNA3", 24, "Radeon RX 7900 XTX", 1, 4),
    Gpu("Radeon AI PRO R9700", "amd", "gfx1201", "RDNA4", 32, "AMD Radeon AI PRO R9700", 1, 4),
    Gpu("H100", "nvidia", "sm90", "Hopper", 80, "NVIDIA H100 80GB HBM3", 10),
    Gpu("H200", "nvidia", "sm90", "Hopper", 141, "NVIDIA H200", 7),
    Gpu("H20", "nvidia", "sm90", "Hopper", 96, "NVIDIA H20", 3),
    Gpu("GH200", "nvidia", "sm90", "Hopper", 96, "NVIDIA GH200 480GB", 1),
    Gpu("B200", "nvidia", "sm100", "Blackwell", 180, "NVIDIA B200", 7),
    Gpu("GB200", "nvidia", "sm100", "Blackwell", 186, "NVIDIA GB200", 2),
    Gpu("B300", "nvidia", "sm103", "Blackwell", 288, "NVIDIA B300 SXM6 AC", 1),
    Gpu("RTX 5090", "nvidia", "sm120", "Blackwell", 32, "NVIDIA GeForce RTX 5090", 2, 4),
    Gpu("RTX PRO 6000", "nvidia", "sm120", "Blackwell", 96, "NVIDIA RTX PRO 6000 Blackwell Server Edition", 2),
    Gpu("L40S", "nvidia", "sm89", "Ada", 48, "NVIDIA L40S", 2),
    Gpu("RTX 4090", "nvidia", "sm89", "Ada", 24, "NVIDIA GeForce RTX 4090", 2, 4),
    Gpu("A100", "nvidia", "sm80", "Ampere", 80, "NVIDIA A100-SXM4-80GB", 4),
    Gpu("Arc B580", "xpu", "xe2", "Battlemage", 12, "Intel(R) Arc(TM) B580 Graphics", 2, 4),
    Gpu("Arc Pro B60", "xpu", "xe2", "Battlemage", 24, "Intel(R) Arc(TM) Pro B60 Graphics", 2, 4),
    Gpu("Data Center GPU Max 1550", "xpu", "xe-hpc", "Ponte Vecchio", 64, "Intel(R) Data Center GPU Max 1550", 1),
    Gpu("TPU v6e", "tpu", "v6e", "Trillium", 32, "TPU v6e", 3),
    Gpu("TPU v5e", "tpu", "v5e", "v5 lite", 16, "TPU v5 lite", 2),
    Gpu("Xeon 8480+", "cpu", "x86_64", "Sapphire Rapids", 512, "Intel(R) Xeon(R) Platinum 8480+", 2, 2),
    Gpu("Graviton4", "cpu", "aarch64", "Neoverse-V2", 384, "Neoverse-V2", 2, 2),
    Gpu("Gaudi 3", "hpu", "gaudi3", "Gaudi", 128, "Intel Gaudi 3 (HL-325L)", 1),
)
_GPU_BY_NAME = {g.name: g for g in GPUS}
_GPUS_OF: dict[str, tuple[Gpu, ...]] = {}
for _g in GPUS:
    _GPUS_OF[_g.platform] = (*_GPUS_OF.get(_g.platform, ()), _g)
_FP8_ARCHS = frozenset({"sm89", "sm90", "sm100", "sm103", "sm120", "gfx942", "gfx950"})
_BLACKWELL = frozenset({"sm100", "sm103", "sm120"})
_INSTINCT = frozenset({"gfx942", "gfx950"})
# Platforms an issue about nothing in particular runs on (what vLLM's reporters run).
_PLATFORM_WEIGHTS = (("nvidia", 78), ("amd", 22))  # XPU, TPU and CPUs only where the text names them
_SW = {  # vendor software versions by slot
    "rocm_ver": ("6.4.1", "6.4.3", "7.0", "7.0.2", "7.0.2"),
    "cuda_ver": ("12.8", "12.9", "12.9", "13.0"),
}
# The name a slot gives each platform's accelerator in titles.
_VENDOR_SLOT = {"amd_gpu": "amd", "nv_gpu": "nvidia", "xpu_gpu": "xpu", "tpu": "tpu"}


def gpu_of(name: str) -> Gpu:
    return _GPU_BY_NAME[name]


# --------------------------------------------------------------------------------------------------------
# Models. (short name in titles, Hugging Face id, family, traits, GiB of weights as published, tool parser, weight)
# Traits: moe, mla (DeepSeek-style multi-head latent attention), vlm, omni, reason, hybrid (linear attention /
# mamba layers), mtp (a multi-token-prediction head), fp8 / mxfp4 / int4 (how the checkpoint is published).


@dataclass(frozen=True, slots=True)
class Model:
    short: str
    hf: str
    family: str
    traits: frozenset[str]
    gb: int
    tool_parser: str
    weight: int

    def has(self, trait: str) -> bool:
        return trait in self.traits


def _m(short: str, hf: str, family: str, traits: str, gb: int, parser: str = "", weight: int = 2) -> Model:
    return Model(short, hf, family, frozenset(traits.split()), gb, parser, weight)


MODELS: tuple[Model, ...] = (
    _m("Qwen3-8B", "Qwen/Qwen3-8B", "qwen", "dense reason", 16, "hermes", 4),
    _m("Qwen3-32B", "Qwen/Qwen3-32B", "qwen", "dense reason", 66, "hermes", 3),
    _m("Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen", "moe", 61, "hermes", 6),
    _m("Qwen3-235B-A22B", "Qwen/Qwen3-235B-A22B-Instruct-2507", "qwen", "moe", 470, "hermes", 4),
    _m("Qwen3-235B-A22B-FP8", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "qwen", "moe fp8", 240, "hermes", 2),
    _m("Qwen3-Next-80B-A3B", "Qwen/Qwen3-Next-80B-A3B-Instruct", "qwen", "moe hybrid mtp", 160, "hermes", 4),
    _m("Qwen3-Coder-480B-A35B", "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", "qwen", "moe fp8", 482, "qwen3_coder", 2),
    _m("Qwen3-Coder-30B-A3B", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen", "moe", 61, "qwen3_coder", 2),
    _m("Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "qwen", "dense", 15, "hermes", 2),
    _m("Qwen2.5-72B-Instruct", "Qwen/Qwen2.5-72B-Instruct", "qwen", "dense", 145, "hermes", 1),
    _m("Qwen3-VL-8B", "Qwen/Qwen3-VL-8B-Instruct", "qwen", "dense vlm", 18, "hermes", 3),
    _m("Qwen3-VL-30B-A3B", "Qwen/Qwen3-VL-30B-A3B-Instruct", "qwen", "moe vlm", 62, "hermes", 3),
    _m("Qwen3-VL-235B-A22B", "Qwen/Qwen3-VL-235B-A22B-Instruct", "qwen", "moe vlm", 471, "hermes", 2),
    _m("Qwen2.5-VL-7B", "Qwen/Qwen2.5-VL-7B-Instruct", "qwen", "dense vlm", 16, "hermes", 2),
    _m("Qwen2.5-VL-72B", "Qwen/Qwen2.5-VL-72B-Instruct", "qwen", "dense vlm", 147, "hermes", 1),
    _m("Qwen3-Omni-30B-A3B", "Qwen/Qwen3-Omni-30B-A3B-Instruct", "qwen", "moe vlm omni", 70, "hermes", 2),
    _m("Qwen2.5-Omni-7B", "Qwen/Qwen2.5-Omni-7B", "qwen", "dense vlm omni", 22, "hermes", 1),
    _m("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct", "llama", "dense", 16, "llama3_json", 5),
    _m("Llama-3.1-70B-Instruct", "meta-llama/Llama-3.1-70B-Instruct", "llama", "dense", 141, "llama3_json", 2),
    _m("Llama-3.3-70B-Instruct", "meta-llama/Llama-3.3-70B-Instruct", "llama", "dense", 141, "llama3_json", 3),
    _m("Llama-3.1-405B-FP8", "meta-llama/Llama-3.1-405B-Instruct-FP8", "llama", "dense fp8", 410, "llama3_json", 1),
    _m("Llama-4-Scout", "meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama", "moe vlm", 218, "llama4_pythonic", 2),
    _m("Llama-4-Maverick", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8", "llama", "moe vlm fp8", 400,
       "llama4_pythonic", 2),
    _m("DeepSeek-V3", "deepseek-ai/DeepSeek-V3", "deepseek", "moe mla fp8 mtp", 690, "deepseek_v3", 4),
    _m("DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.1", "deepseek", "moe mla fp8 mtp reason", 690, "deepseek_v31", 3),
    _m("DeepSeek-R1", "deepseek-ai/DeepSeek-R1-0528", "deepseek", "moe mla fp8 mtp reason", 690, "deepseek_v3", 5),
    _m("DeepSeek-V3.2-Exp", "deepseek-ai/DeepSeek-V3.2-Exp", "deepseek", "moe mla fp8 mtp sparse", 690,
       "deepseek_v31", 3),
    _m("DeepSeek-V2-Lite", "deepseek-ai/DeepSeek-V2-Lite-Chat", "deepseek", "moe mla", 32, "", 1),
    _m("Kimi-K2", "moonshotai/Kimi-K2-Instruct-0905", "kimi", "moe mla fp8", 1030, "kimi_k2", 3),
    _m("Kimi-K2-Thinking", "moonshotai/Kimi-K2-Thinking", "kimi", "moe mla int4 reason", 594, "kimi_k2", 2),
    _m("gpt-oss-20b", "openai/gpt-oss-20b", "gpt-oss", "moe mxfp4 reason", 14, "openai", 4),
    _m("gpt-oss-120b", "openai/gpt-oss-120b", "gpt-oss", "moe mxfp4 reason", 65, "openai", 6),
    _m("GLM-4.6", "zai-org/GLM-4.6-FP8", "glm", "moe fp8 reason mtp", 360, "glm45", 3),
    _m("GLM-4.5", "zai-org/GLM-4.5", "glm", "moe reason mtp", 717, "glm45", 1),
    _m("GLM-4.5-Air", "zai-org/GLM-4.5-Air", "glm", "moe reason mtp", 220, "glm45", 2),
    _m("GLM-4.5V", "zai-org/GLM-4.5V", "glm", "moe vlm reason", 216, "glm45", 1),
    _m("MiniMax-M2", "MiniMaxAI/MiniMax-M2", "minimax", "moe fp8 reason", 230, "minimax_m2", 3),
    _m("Gemma-3-27B", "google/gemma-3-27b-it", "gemma", "dense vlm", 55, "", 3),
    _m("Gemma-3-12B", "google/gemma-3-12b-it", "gemma", "dense vlm", 24, "", 1),
    _m("Gemma-3n-E4B", "google/gemma-3n-E4B-it", "gemma", "dense vlm omni", 16, "", 1),
    _m("Mistral-Small-3.2-24B", "mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral", "dense vlm", 48,
       "mistral", 2),
    _m("Magistral-Small", "mistralai/Magistral-Small-2509", "mistral", "dense reason", 48, "mistral", 1),
    _m("Devstral-Small", "mistralai/Devstral-Small-2507", "mistral", "dense", 48, "mistral", 1),
    _m("Mixtral-8x7B", "mistralai/Mixtral-8x7B-Instruct-v0.1", "mistral", "moe", 94, "mistral", 1),
    _m("Granite-4.0-H-Small", "ibm-granite/granite-4.0-h-small", "granite", "moe hybrid", 64, "granite", 2),
    _m("Phi-4-mini", "microsoft/Phi-4-mini-instruct", "phi", "dense", 8, "phi4_mini_json", 1),
    _m("InternVL3-8B", "OpenGVLab/InternVL3-8B", "internvl", "dense vlm", 17, "", 1),
    _m("MiniCPM-V-4.5", "openbmb/MiniCPM-V-4_5", "minicpm", "dense vlm", 17, "", 1),
    _m("Kimi-VL-A3B", "moonshotai/Kimi-VL-A3B-Instruct", "kimi", "moe vlm", 33, "", 1),
    _m("Pixtral-12B", "mistralai/Pixtral-12B-2409", "mistral", "dense vlm", 25, "", 1),
)
_MODEL_BY_SHORT = {m.short: m for m in MODELS}
# A slot's kind of model: which traits it needs.
_MODEL_SLOTS: dict[str, Callable[[Model], bool]] = {
    "model_short": lambda m: True,
    "moe_model": lambda m: m.has("moe"),
    "mla_model": lambda m: m.has("mla"),
    "dense_model": lambda m: m.has("dense") and not m.has("vlm"),
    "vlm": lambda m: m.has("vlm"),
    "reasoning_model": lambda m: m.has("reason"),
    "small_model": lambda m: m.gb <= 24,
    "big_model": lambda m: m.gb >= 200,
    "tool_model": lambda m: bool(m.tool_parser),
    "mtp_model": lambda m: m.has("mtp"),
    "hybrid_model": lambda m: m.has("hybrid"),
}
# Models the TPU backend (tpu-inference) serves in these months.
_TPU_FAMILIES = frozenset({"llama", "qwen", "gemma", "gpt-oss", "mistral"})


def model_of(short: str) -> Model | None:
    return _MODEL_BY_SHORT.get(short)


# --------------------------------------------------------------------------------------------------------
# Quantization schemes: (title name, where it runs, which models, weight bytes per bf16 byte).

_ANY = "*"


@dataclass(frozen=True, slots=True)
class _Quant:
    name: str
    archs: frozenset[str] | str  # archs it runs on, or "*" with platforms
    platforms: frozenset[str]
    factor: float
    model_ok: Callable[[Model], bool] = lambda m: not m.has("mxfp4") and not m.has("int4")
    weight: int = 2


def _q(name: str, where: str, factor: float, model_ok: Callable[[Model], bool] | None = None,
       weight: int = 2) -> _Quant:
    archs: set[str] = set()
    platforms: set[str] = set()
    for word in where.split():
        (platforms if word in ("amd", "nvidia", "xpu", "tpu", "cpu") else archs).add(word)
    if model_ok is None:
        return _Quant(name, frozenset(archs) or _ANY, frozenset(platforms), factor, weight=weight)
    return _Quant(name, frozenset(archs) or _ANY, frozenset(platforms), factor, model_ok, weight)


_NV80 = "sm80 sm89 sm90 sm100 sm103 sm120"
_QUANTS: tuple[_Quant, ...] = (
    _q("FP8", "sm89 sm90 sm100 sm103 sm120 gfx942 gfx950", 0.5, weight=6),
    _q("FP8 block-scaled", "sm90 sm100 sm103 gfx942 gfx950", 0.5, lambda m: m.has("moe") and not m.has("mxfp4"), 3),
    _q("NVFP4", "sm100 sm103 sm120", 0.28, weight=4),
    _q("ModelOpt NVFP4", "sm100 sm103 sm120", 0.28),
    _q("ModelOpt FP8", "sm89 sm90 sm100 sm103", 0.5),
    _q("MXFP4", "sm90 sm100 sm103 gfx942 gfx950", 0.28, lambda m: m.has("mxfp4"), 4),
    _q("AWQ", _NV80 + " gfx942 gfx950 xe2 xe-hpc", 0.3, weight=3),
    _q("GPTQ", _NV80 + " gfx942 gfx950 gfx90a xe2 xe-hpc", 0.3, weight=3),
    _q("AWQ Marlin", _NV80, 0.3),
    _q("GPTQ Marlin", _NV80, 0.3),
    _q("INT8 W8A8", _NV80 + " gfx942 gfx950 x86_64 aarch64 v6e v5e", 0.5, weight=2),
    _q("INT4 W4A16", _NV80 + " xe2 xe-hpc", 0.3),
    _q("W4A8", "sm90", 0.3, lambda m: not m.has("mxfp4") and not m.has("int4"), 1),
    _q("Quark FP8", "gfx942 gfx950", 0.5),
    _q("Quark W8A8 INT8", "gfx942 gfx950", 0.5, weight=1),
    _q("Quark MXFP4", "gfx950", 0.28, lambda m: m.gb >= 60 and not m.has("int4"), 2),
    _q("PTPC FP8", "gfx942 gfx950", 0.5, weight=1),
    _q("bitsandbytes", "sm80 sm89 sm90", 0.3, lambda m: m.gb <= 150 and not m.has("mxfp4"), 1),
    _q("GGUF", "sm80 sm89 sm90 sm120", 0.3, lambda m: m.has("dense") and m.gb <= 150, 1),
    _q("compressed-tensors W4A16", _NV80 + " gfx942 gfx950", 0.3, weight=1),
)
_QUANT_BY_NAME = {q.name: q for q in _QUANTS}


def _quant_runs_on(q: _Quant, gpu: Gpu) -> bool:
    return gpu.arch in q.archs if q.archs != _ANY else gpu.platform in q.platforms


# --------------------------------------------------------------------------------------------------------
# Attention backends: (title name, what vLLM logs, archs, MLA or not, weight).


@dataclass(frozen=True, slots=True)
class _Backend:
    name: str
    env: str
    archs: frozenset[str]
    mla: bool
    weight: int


def _b(name: str, env: str, archs: str, mla: bool, weight: int = 2) -> _Backend:
    return _Backend(name, env, frozenset(archs.split()), mla, weight)


_BACKENDS: tuple[_Backend, ...] = (
    _b("FlashAttention 3", "FLASH_ATTN", "sm90", False, 4),
    _b("FlashAttention 2", "FLASH_ATTN", "sm80 sm89 sm120", False, 2),
    _b("FlashInfer", "FLASHINFER", "sm80 sm89 sm90 sm100 sm103 sm120", False, 5),
    _b("TRTLLM attention", "FLASHINFER", "sm100 sm103", False, 2),
    _b("Triton attention", "TRITON_ATTN", "sm80 sm89 sm90 sm100 sm120 gfx942 gfx950 gfx90a gfx1100 gfx1201", False, 3),
    _b("FlashMLA", "FLASHMLA", "sm90 sm100", True, 4),
    _b("CUTLASS MLA", "CUTLASS_MLA", "sm100 sm103", True, 2),
    _b("FlashInfer MLA", "FLASHINFER_MLA", "sm100 sm103", True, 2),
    _b("Triton MLA", "TRITON_MLA", "sm80 sm89 sm90 sm100 gfx942 gfx950", True, 1),
    _b("AITER FA", "ROCM_AITER_FA", "gfx942 gfx950", False, 4),
    _b("AITER unified attention", "ROCM_AITER_UNIFIED_ATTN", "gfx942 gfx950", False, 2),
    _b("ROCm paged attention", "ROCM_ATTN", "gfx942 gfx950 gfx90a gfx1100 gfx1201", False, 2),
    _b("AITER MLA", "ROCM_AITER_MLA", "gfx942 gfx950", True, 4),
    _b("Pallas ragged paged attention", "PALLAS", "v5e v6e", False, 1),
    _b("XPU flash attention", "FLASH_ATTN", "xe2 xe-hpc", False, 1),
    _b("CPU attention", "CPU_ATTN", "x86_64 aarch64", False, 1),
)
_BACKEND_BY_NAME = {b.name: b for b in _BACKENDS}


def backend_env(name: str) -> str:
    b = _BACKEND_BY_NAME.get(name)
    return b.env if b else "FLASH_ATTN"


# --------------------------------------------------------------------------------------------------------
# Which platform a template means: its vendor slots and the words in it.

_HINTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (platform, re.compile(rx)) for platform, rx in (
        ("amd", r"\{(amd_gpu|gfx|rocm_ver|amd_backend)\}|\b(ROCm|AMD|AITER|HIP|MI\d{3}X?|gfx\d+|Quark|RCCL|RDNA\d?|"
                r"Radeon|hipBLASLt|MoRI)\b|\[ROCm\]|\[AMD\]"),
        ("nvidia", r"\{(nv_gpu|nv_arch|sm|cuda_ver|nv_backend)\}|\bCUDA\b(?! ?graph)|\b(NVIDIA|FlashInfer|CUTLASS|"
                   r"FlashMLA|DeepGEMM|DeepEP|Blackwell|Hopper|Ampere|SM\d+|sm_\d+|NVFP4|ModelOpt|Marlin|Machete|"
                   r"TRTLLM|H100|H200|H20|B200|GB200|B300|GH200|A100|L40S|RTX|NVL72|NVLink|PDL|FA3|cuBLAS|NCCL|"
                   r"bitsandbytes|TensorRT)\b|FlashAttention 3"),
        ("xpu", r"\{xpu_gpu\}|\b(XPU|Intel GPU|Arc|oneAPI|IPEX|oneCCL)\b|\[Intel"),
        ("tpu", r"\{tpu\}|\b(TPU|Pallas|XLA|JAX|torch_xla)\b"),
        ("cpu", r"\{cpu_arch\}|\[CPU\]|\bCPU backend|\b(AVX512|AVX2|AMX|x86|ARM|ARM64|aarch64|Graviton\d?|Neoverse|"
                r"oneDNN|Apple Silicon|ppc64le|s390x)\b"),
        ("hpu", r"\b(Gaudi|HPU|Neuron|Inferentia2?)\b"),
    )
)


@lru_cache(maxsize=4096)
def platform_hint(template: str) -> str:
    """The platform a template names ("" when it names none); the first vendor wins ("[ROCm] ... CUDA checks")."""
    for platform, rx in _HINTS:
        if rx.search(template):
            return platform
    return ""


def pick_platform(rng: random.Random) -> str:
    return rng.choices([p for p, _ in _PLATFORM_WEIGHTS], cum_weights=_PLATFORM_CUM)[0]


_PLATFORM_CUM = []
_total = 0
for _, _w in _PLATFORM_WEIGHTS:
    _total += _w
    _PLATFORM_CUM.append(_total)


# --------------------------------------------------------------------------------------------------------
# Fit: a model on a device, with a quantization.


def _weights_gb(model: Model, quant: str | None) -> float:
    q = _QUANT_BY_NAME.get(quant or "")
    if q is None or model.has("mxfp4") or model.has("int4"):
        return model.gb
    if model.has("fp8"):  # published in FP8 already: only a 4-bit scheme makes it smaller
        return model.gb * min(1.0, q.factor * 2)
    return model.gb * q.factor


def _min_devices(model: Model, gpu: Gpu, quant: str | None) -> int:
    need = _weights_gb(model, quant) * 1.15 / gpu.mem
    n = 1
    while n < need:
        n *= 2
    return n


def _model_runs_on(model: Model, gpu: Gpu, quant: str | None = None, tp: int | None = None) -> bool:
    if gpu.platform == "tpu" and (model.family not in _TPU_FAMILIES or model.has("vlm")):
        return False
    if gpu.platform in ("cpu", "hpu") and (model.gb > 70 or model.has("mxfp4") or model.has("fp8")):
        return False
    if model.has("fp8") and gpu.arch not in _FP8_ARCHS and gpu.arch != "sm80":
        return False
    if model.has("mxfp4") and gpu.platform not in ("nvidia", "xpu") and gpu.arch not in _INSTINCT:
        return False
    n = _min_devices(model, gpu, quant)
    return n <= (tp if tp else gpu.max_tp)


@dataclass(frozen=True, slots=True)
class _Pool:
    items: tuple
    cum: tuple[int, ...]


def _pool(items: list, weight: Callable[[object], int]) -> _Pool:
    total = 0
    cum = []
    for o in items:
        total += weight(o)
        cum.append(total)
    return _Pool(tuple(items), tuple(cum))


def _draw(rng: random.Random, pool: _Pool) -> object:
    return rng.choices(pool.items, cum_weights=pool.cum)[0]


def _pick(rng: random.Random, options: list, weight: Callable[[object], int]) -> object:
    total = 0
    cum = []
    for o in options:
        total += weight(o)
        cum.append(total)
    return rng.choices(options, cum_weights=cum)[0]


# --------------------------------------------------------------------------------------------------------
# The slot filler.

_SLOT_RE = re.compile(r"\{(\w+)\}")
# Slots whose value changes every time they are used inside one item (references, people).
_DYNAMIC = frozenset({"ref", "maint", "member", "gpu_any", "version_any", "later_pr"})

SLOTS: dict[str, list[str]] = {
    "kernel": ["fused_moe", "scaled_mm", "grouped GEMM", "rms_norm", "silu_and_mul", "rotary embedding",
               "top-k/top-p sampler", "paged attention", "custom all-reduce", "per-token-group quant",
               "topk softmax", "MoE align", "fused add rms_norm", "reshape_and_cache"],
    "spec": ["EAGLE", "EAGLE-3", "n-gram", "suffix decoding", "draft model"],
    "so_backend": ["xgrammar", "guidance", "outlines", "lm-format-enforcer"],
    "dp": ["2", "4", "8"],
    "version": ["v0.11.0", "v0.11.1", "v0.11.2", "v0.11.2", "v0.12.0rc1", "v0.10.2"],
    "version_old": ["v0.10.1", "v0.10.2", "v0.11.0", "v0.9.2"],
    "feature_flag": ["disable-log-requests", "max-seq-len-to-capture", "num-scheduler-steps",
                     "guided-decoding-backend", "use-v2-block-manager"],
    "feature": ["prefix caching", "chunked prefill", "LoRA", "speculative decoding", "structured output",
                "FP8 KV cache", "async scheduling", "sleep mode", "pipeline parallel", "CUDA graphs",
                "sliding window", "logprobs", "beam search", "multi-step streaming"],
    "n_req": ["2000", "10k", "50k", "a few hundred", "~30 minutes of load"],
    "kv_connector": ["LMCache", "NIXL", "Mooncake", "P2pNccl", "OffloadingConnector", "MultiConnector"],
    "cpu_arch": ["aarch64", "ARM64 (Graviton4)", "x86 AVX512", "Apple Silicon", "ppc64le", "s390x",
                 "Neoverse V2"],
    "test_area": ["entrypoints", "kernels/moe", "v1/e2e", "lora", "distributed", "spec_decode",
                  "models/multimodal", "quantization", "basic correctness", "samplers"],
    "param": ["logit_bias", "top_logprobs", "response_format", "seed", "stop", "min_tokens", "repetition_penalty",
              "bad_words", "prompt_logprobs", "stream_options", "reasoning_effort", "cache_salt", "priority",
              "truncate_prompt_tokens", "include_stop_str_in_output", "skip_special_tokens"],
    "env_var": ["VLLM_USE_DEEP_GEMM", "VLLM_ALLOW_LONG_MAX_MODEL_LEN", "VLLM_ENABLE_V1_MULTIPROCESSING",
                "VLLM_WORKER_MULTIPROC_METHOD", "VLLM_USE_FLASHINFER_SAMPLER", "VLLM_LOGGING_LEVEL",
                "VLLM_CPU_KVCACHE_SPACE", "VLLM_ENGINE_ITERATION_TIMEOUT_S", "VLLM_HTTP_TIMEOUT_KEEP_ALIVE",
                "VLLM_MM_INPUT_CACHE_GIB", "VLLM_SLEEP_WHEN_IDLE", "VLLM_DISABLE_COMPILE_CACHE"],
    "config_field": ["max_num_batched_tokens", "max_num_seqs", "block_size", "gpu_memory_utilization",
                     "max_model_len", "cudagraph_capture_sizes", "kv_cache_dtype", "long_prefill_token_threshold",
                     "max_num_partial_prefills", "swap_space"],
    "test_name": ["test_prefix_caching", "test_chat_template", "test_sampler", "test_spec_decode", "test_lora_manager",
                  "test_async_llm", "test_moe", "test_fp8", "test_pipeline_parallel", "test_structured_output",
                  "test_tool_calls", "test_multimodal_processing", "test_cudagraph_dispatch", "test_scheduler"],
    "ci_job": ["Entrypoints Test", "Basic Correctness Test", "Kernels MoE Test", "Distributed Tests (4 GPUs)",
               "LoRA Test", "Multi-Modal Models Test", "Spec Decode Test", "V1 e2e + engine", "Quantization Test",
               "Language Models Test (Extended)", "Async Engine, Inputs, Utils, Worker Test", "Compilation Test"],
    "runner": ["L4", "H100", "MI325X", "B200", "A100", "L40S"],
    "docs_page": ["Quickstart", "OpenAI-compatible server", "Engine arguments", "Supported models", "Tool calling",
                  "Structured outputs", "Reasoning outputs", "Automatic prefix caching", "Disaggregated prefilling",
                  "LoRA adapters", "Multimodal inputs", "FP8 quantization", "Docker deployment",
                  "Kubernetes deployment", "Production metrics", "Sleep mode", "Data parallel deployment",
                  "Expert parallel deployment", "Speculative decoding", "Troubleshooting"],
    "metric": ["vllm:num_requests_waiting", "vllm:time_to_first_token_seconds", "vllm:kv_cache_usage_perc",
               "vllm:prefix_cache_hits", "vllm:request_prefill_time_seconds", "vllm:spec_decode_num_accepted_tokens",
               "vllm:num_preemptions", "vllm:request_queue_time_seconds"],
    "sampling": ["min_p", "top_k", "repetition_penalty", "frequency_penalty", "logit_bias", "bad_words",
                 "allowed_token_ids", "min_tokens"],
    "arg": ["--max-num-seqs", "--max-num-batched-tokens", "--enable-prefix-caching", "--kv-cache-dtype",
            "--served-model-name", "--chat-template", "--tool-call-parser", "--reasoning-parser",
            "--limit-mm-per-prompt", "--mm-processor-kwargs", "--override-generation-config", "--async-scheduling",
            "--data-parallel-size", "--compilation-config", "--hf-overrides", "--generation-config",
            "--max-logprobs", "--seed"],
    "ctx": ["32k", "64k", "128k"],
    "mm_arg": ["max_pixels", "min_pixels", "fps", "num_frames", "do_pan_and_scan", "image_size"],
    "mm_input": ["RGBA PNG images", "base64 videos", "image URLs with redirects", "mixed image and video inputs",
                 "16-bit PNGs", "very small images (< 28 px)", "audio longer than 30 s"],
    "fusion": ["attention + FP8 output quant", "SiLU-and-mul + FP8 quant", "RMSNorm + FP8 quant",
               "all-reduce + RMSNorm", "rope + KV cache write", "SiLU-and-mul + NVFP4 quant"],
    "head_dim": ["64", "80", "96", "192", "256"],
    "chat_api": ["/v1/chat/completions", "/v1/completions", "/v1/responses"],
    "api": ["/v1/chat/completions", "/v1/completions", "/v1/responses", "/v1/embeddings",
            "/v1/audio/transcriptions", "/tokenize", "/v1/rerank"],
    "module": ["vllm/v1/engine/core.py", "vllm/v1/worker/gpu_model_runner.py", "vllm/config/__init__.py",
               "vllm/entrypoints/openai/serving_chat.py", "vllm/model_executor/layers/linear.py",
               "vllm/distributed/parallel_state.py", "vllm/v1/core/sched/scheduler.py",
               "vllm/v1/attention/backends/flashinfer.py", "vllm/utils/__init__.py", "vllm/envs.py",
               "vllm/v1/core/kv_cache_manager.py", "vllm/model_executor/layers/fused_moe/layer.py",
               "vllm/v1/sample/sampler.py", "vllm/transformers_utils/config.py",
               "vllm/entrypoints/openai/serving_responses.py", "vllm/v1/spec_decode/eagle.py"],
    "dep": ["transformers", "flashinfer-python", "xgrammar", "triton", "torch", "mistral-common",
            "openai-harmony", "nixl", "lm-format-enforcer", "ray"],
    "dep_pin": ["transformers to 4.57.3", "flashinfer-python to 0.5.2", "xgrammar to 0.1.27",
                "triton to 3.5.0", "torch to 2.9.0", "mistral-common to 1.8.5", "openai-harmony to 0.0.8",
                "nixl to 0.7.1", "ray to 2.51.1", "lm-format-enforcer to 0.11.3", "compressed-tensors to 0.12.2",
                "llguidance to 1.3.0", "outlines_core to 0.2.11", "numba to 0.61.2"],
    "new_model": ["Qwen3-Omni-30B-A3B-Captioner", "GLM-4.6V", "Kimi-Linear-48B-A3B", "DeepSeek-OCR",
                  "Llama-Nemotron-Super-49B", "Ling-1T", "Apertus-70B", "Olmo-3-32B", "Qwen3-VL-Embedding-8B",
                  "Hunyuan-A13B", "ERNIE-4.5-VL-28B-A3B", "Seed-OSS-36B", "LongCat-Flash", "Ring-flash-2.0",
                  "Nemotron-Nano-12B-v2-VL", "PaddleOCR-VL", "dots.ocr", "Jamba-Mini-1.7", "Falcon-H1-34B"],
    # The new models people wait for (the day's big PR in review): the families' next releases.
    "awaited_model": ["Kimi-Linear-48B-A3B", "DeepSeek-OCR", "Llama-Nemotron-Super-49B", "Qwen3-Next-80B-A3B-Thinking",
                      "GLM-4.6-Air", "MiniMax-M2-Her", "gpt-oss-safeguard-20b"],
    "awaited_vlm": ["GLM-4.6V", "Qwen3-Omni-30B-A3B-Captioner", "Qwen3-VL-32B", "Kimi-VL-A3B-Thinking-2506",
                    "Llama-Nemotron-Nano-VL-8B"],
    "py": ["3.10", "3.11", "3.12", "3.12", "3.13"],
    "pct": ["12%", "18%", "25%", "30%", "40%", "2x", "1.6x"],
    "xpu_ver": ["2025.1", "2025.2"],
    "dtype": ["bfloat16", "float16"],
}
_VERSION_ORDER = ["v0.9.2", "v0.10.1", "v0.10.2", "v0.11.0", "v0.11.1", "v0.11.2", "v0.12.0rc1"]
_NV_ARCH = {"sm90": "Hopper", "sm100": "Blackwell", "sm103": "Blackwell", "sm120": "Blackwell", "sm89": "Ada",
            "sm80": "Ampere"}
_SM_TITLE = {"sm90": "SM90", "sm100": "SM100", "sm103": "SM103", "sm120": "SM120", "sm89": "SM89", "sm80": "SM80"}
_SPEC_MTP = "MTP"


def _gpu_ok(g: Gpu, v: dict[str, str]) -> bool:
    return g in _gpu_pool(g.platform, v.get("model_name", ""), v.get("quant", ""), v.get("attn_backend", ""),
                          v.get("tp", ""), v.get("_archs", "")).items


@lru_cache(maxsize=4096)
def _gpu_pool(platform: str, model_name: str, quant: str, backend_name: str, tp_text: str, archs: str = "") -> _Pool:
    """The accelerators of a platform compatible with what an item has chosen (cached: few combinations);
    ``archs``: the architectures its words allow ("AITER": gfx942/gfx950, "Blackwell": sm100/sm103/sm120)."""
    model = _MODEL_BY_SHORT.get(model_name)
    q = _QUANT_BY_NAME.get(quant)
    backend = _BACKEND_BY_NAME.get(backend_name)
    tp = int(tp_text) if tp_text.isdigit() else None
    allowed = archs.split()
    ok = [g for g in _GPUS_OF[platform]
          if (q is None or _quant_runs_on(q, g)) and (backend is None or g.arch in backend.archs)
          and (not allowed or g.arch in allowed)
          and (model is None or _model_runs_on(model, g, quant or None, tp))]
    return _pool(ok or list(_GPUS_OF[platform]), lambda x: x.weight)  # type: ignore[attr-defined]


def _resolve_gpu(rng: random.Random, v: dict[str, str], platform: str | None = None) -> Gpu:
    """The item's accelerator on its platform (chosen once, then kept), compatible with what is chosen; another
    platform named by the text ("Also happens on {amd_gpu}") gets its own, not the item's."""
    own = v.get("platform")
    if own is None:
        own = v["platform"] = platform or pick_platform(rng)
    platform = platform or own
    if platform != own:
        other = v.get(f"gpu:{platform}")
        if other is not None:
            return _GPU_BY_NAME[other]
        model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
        pool = [x for x in _GPUS_OF[platform] if model is None or _model_runs_on(model, x)] or list(
            _GPUS_OF[platform])
        g: Gpu = _pick(rng, pool, lambda x: x.weight)  # type: ignore[assignment, attr-defined]
        v[f"gpu:{platform}"] = g.name
        return g
    current = v.get("gpu")
    if current is not None:
        return _GPU_BY_NAME[current]
    g = _draw(rng, _gpu_pool(platform, v.get("model_name", ""), v.get("quant", ""), v.get("attn_backend", ""),
                             v.get("tp", ""), v.get("_archs", "")))  # type: ignore[assignment]
    v["gpu"] = g.name
    return g


def _model_ok(m: Model, v: dict[str, str], gpu: Gpu | None) -> bool:
    quant = v.get("quant")
    if quant:
        q = _QUANT_BY_NAME.get(quant)
        if q is not None and not q.model_ok(m):
            return False
    backend = _BACKEND_BY_NAME.get(v.get("attn_backend", ""))
    if backend is not None and backend.mla != m.has("mla"):
        return False
    if v.get("kernel") == "MLA decode" and not m.has("mla"):
        return False
    if v.get("spec") == _SPEC_MTP and not m.has("mtp"):
        return False
    parser = v.get("tool_parser")
    if parser and m.tool_parser != parser:
        return False
    if gpu is not None:
        tp = int(v["tp"]) if v.get("tp", "").isdigit() else None
        return _model_runs_on(m, gpu, quant, tp)
    return True


def _resolve_model(rng: random.Random, v: dict[str, str], slot: str) -> Model:
    wanted = _MODEL_SLOTS.get(slot, _MODEL_SLOTS["model_short"])
    current = _MODEL_BY_SHORT.get(v.get("model_name", ""))
    if current is not None and wanted(current):
        return current
    gpu = v.get("gpu", "")
    if not gpu and v.get("platform") in ("xpu", "tpu", "cpu", "hpu"):  # small devices: the device decides
        gpu = _resolve_gpu(rng, v).name
    key = (slot if slot in _MODEL_SLOTS else "model_short", gpu, v.get("quant", ""), v.get("attn_backend", ""),
           v.get("kernel", ""), v.get("spec", ""), v.get("tool_parser", ""), v.get("tp", ""))
    m: Model = _draw(rng, _model_pool(*key))  # type: ignore[assignment]
    if current is None:
        v["model_name"] = m.short
        v["model"] = m.hf
    return m


@lru_cache(maxsize=8192)
def _model_pool(slot: str, gpu_name: str, quant: str, backend: str, kernel: str, spec: str, parser: str,
                tp: str) -> _Pool:
    """The models of a kind compatible with what an item has chosen (cached: few combinations)."""
    wanted = _MODEL_SLOTS[slot]
    gpu = _GPU_BY_NAME.get(gpu_name)
    v = {"quant": quant, "attn_backend": backend, "kernel": kernel, "spec": spec, "tool_parser": parser, "tp": tp}
    pool = [m for m in MODELS if wanted(m) and _model_ok(m, v, gpu)]
    if not pool:
        pool = [m for m in MODELS if wanted(m) and (gpu is None or _model_runs_on(m, gpu))] or \
            [m for m in MODELS if wanted(m)]
    return _pool(pool, lambda x: x.weight)  # type: ignore[attr-defined]


def _resolve_quant(rng: random.Random, v: dict[str, str]) -> str:
    gpu = _GPU_BY_NAME.get(v.get("gpu", ""))
    platform = v.get("platform") or pick_platform(rng)
    model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
    pool = []
    for q in _QUANTS:
        if gpu is not None:
            if not _quant_runs_on(q, gpu):
                continue
        elif not any(_quant_runs_on(q, g) for g in _GPUS_OF.get(platform, ())):
            continue
        if model is not None and not q.model_ok(model):
            continue
        pool.append(q)
    if model is not None and model.has("mxfp4"):
        pool = [q for q in pool if q.name == "MXFP4"] or pool
    if not pool:
        return "FP8"
    chosen: _Quant = _pick(rng, pool, lambda x: x.weight)  # type: ignore[assignment, attr-defined]
    return chosen.name


def _resolve_backend(rng: random.Random, v: dict[str, str], mla: bool | None) -> str:
    gpu = _GPU_BY_NAME.get(v.get("gpu", ""))
    platform = v.get("platform") or pick_platform(rng)
    model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
    if mla is None:
        mla = model.has("mla") if model is not None else False
    archs = {gpu.arch} if gpu is not None else {g.arch for g in _GPUS_OF.get(platform, ())}
    pool = [b for b in _BACKENDS if b.mla == mla and b.archs & archs]
    if not pool:
        pool = [b for b in _BACKENDS if b.archs & archs] or list(_BACKENDS)
    b: _Backend = _pick(rng, pool, lambda x: x.weight)  # type: ignore[assignment, attr-defined]
    return b.name


def _tp_for(rng: random.Random, v: dict[str, str]) -> str:
    gpu = _GPU_BY_NAME.get(v.get("gpu", ""))
    model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
    if gpu is None:
        return rng.choice(("2", "4", "8", "8"))
    if gpu.platform in ("cpu", "hpu"):
        return "1"
    if model is None:
        low = 2 if v.get("_min_tp") else 1
        return str(rng.choice([n for n in (1, 2, 4, 8, 8) if low <= n <= gpu.max_tp]))
    n = _min_devices(model, gpu, v.get("quant"))
    if v.get("_min_tp") and n < 2 <= gpu.max_tp:
        n = 2
    u = rng.random()
    if u < 0.3 and n * 2 <= gpu.max_tp:
        n *= 2
    if u < 0.08 and n * 2 <= gpu.max_tp:
        n *= 2
    return str(min(n, gpu.max_tp))


def fill(template: str, rng: random.Random, v: dict[str, str], dyn: Callable[[str], str] | None = None) -> str:
    """Fill ``{slot}`` placeholders; a slot keeps one value per item so titles, bodies and comments agree."""
    if "{" not in template:
        return template
    if "platform" not in v:
        v["platform"] = platform_hint(template) or pick_platform(rng)
    parts = _parts(template)
    out = list(parts)
    for i in range(1, len(parts), 2):  # odd positions are slot names
        key = parts[i]
        if key in _DYNAMIC and dyn is not None:
            out[i] = dyn(key)
        else:
            value = v.get(key)
            out[i] = value if value is not None else _value(key, rng, v)
    return "".join(out)


@lru_cache(maxsize=8192)
def _parts(template: str) -> tuple[str, ...]:
    """A template split into text and slot names, alternating (text, slot, text, ...)."""
    return tuple(_SLOT_RE.split(template))


def _value(key: str, rng: random.Random, v: dict[str, str]) -> str:
    if key in _MODEL_SLOTS:
        m = _resolve_model(rng, v, key)
        v[key] = m.short
        return m.short
    if key == "model":
        m = _resolve_model(rng, v, v.get("model_kind", "model_short"))
        return v.get("model", m.hf)
    if key == "model_name":
        return _resolve_model(rng, v, v.get("model_kind", "model_short")).short
    if key == "gpu":
        return _resolve_gpu(rng, v).name
    if key in _VENDOR_SLOT:
        g = _resolve_gpu(rng, v, _VENDOR_SLOT[key])
        v[key] = g.name
        return g.name
    if key == "gfx":
        g = _resolve_gpu(rng, v, "amd")
        v[key] = g.arch
        return g.arch
    if key in ("sm", "nv_arch"):
        g = _resolve_gpu(rng, v, "nvidia")
        value = _SM_TITLE.get(g.arch, "SM90") if key == "sm" else _NV_ARCH.get(g.arch, "Hopper")
        v[key] = value
        return value
    if key == "gpu_full":
        return _resolve_gpu(rng, v).full
    if key in _SW:
        versions = _SW[key]
        if key == "rocm_ver" and v.get("gfx", _GPU_BY_NAME.get(v.get("gpu", ""), GPUS[0]).arch) == "gfx950":
            versions = ("7.0", "7.0.2")
        value = rng.choice(versions)
        v[key] = value
        return value
    if key in ("tp", "n_gpu"):
        if "gpu" not in v and "tp" not in v:
            _resolve_gpu(rng, v)
        value = v.get("tp") or _tp_for(rng, v)
        v["tp"] = v["n_gpu"] = value
        return value
    if key == "quant":
        value = _resolve_quant(rng, v)
        v[key] = value
        return value
    if key in ("attn_backend", "mla_backend"):
        value = _resolve_backend(rng, v, True if key == "mla_backend" else None)
        v[key] = value
        v.setdefault("attn_backend", value)
        return value
    if key == "backend_env":
        name = v.get("attn_backend") or _value("attn_backend", rng, v)
        return backend_env(name)
    if key == "tool_parser":
        model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
        if model is None:
            model = _resolve_model(rng, v, "tool_model")
        value = model.tool_parser or "hermes"
        v[key] = value
        return value
    if key == "spec":
        model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
        options = list(SLOTS["spec"])
        if model is None or model.has("mtp"):
            options.append(_SPEC_MTP)
        value = rng.choice(options)
        v[key] = value
        return value
    if key == "kernel":
        model = _MODEL_BY_SHORT.get(v.get("model_name", ""))
        options = list(SLOTS["kernel"])
        if model is None or model.has("mla"):
            options.append("MLA decode")
        value = rng.choice(options)
        v[key] = value
        return value
    if key == "collective":
        value = {"amd": "RCCL", "xpu": "oneCCL", "tpu": "XLA collectives", "cpu": "gloo"}.get(
            v.get("platform", ""), "NCCL")
        v[key] = value
        return value
    if key == "py":
        value = rng.choice(SLOTS["py"])
        v[key] = value
        return value
    options = SLOTS[key]
    if key in ("version", "version_old"):  # "from {version_old} to {version}" must go forwards
        other = v.get("version_old" if key == "version" else "version")
        if other is not None:
            rank = _VERSION_ORDER.index(other)
            newer = key == "version"
            options = [x for x in options if (_VERSION_ORDER.index(x) > rank) == newer and x != other]
            options = options or [_VERSION_ORDER[-1] if newer else _VERSION_ORDER[0]]
    value = rng.choice(options)
    v[key] = value
    return value


def settle(rng: random.Random, v: dict[str, str]) -> Gpu:
    """Make sure an item has a whole stack (platform, accelerator, model, tensor-parallel size) for its body."""
    g = _resolve_gpu(rng, v)
    if "model_name" not in v:
        _resolve_model(rng, v, v.get("model_kind", "model_short"))
    if "tp" not in v:
        v["tp"] = v["n_gpu"] = _tp_for(rng, v)
    return g


def other_gpu(rng: random.Random, v: dict[str, str]) -> str:
    """Another accelerator of the item's vendor that runs its model, for "+1, same on ..." (now and then the
    same one)."""
    g = _resolve_gpu(rng, v)
    return _draw(rng, _other_pool(g.name, v.get("model_name", ""), v.get("quant", ""))).name  # type: ignore[attr-defined]


@lru_cache(maxsize=2048)
def _other_pool(gpu_name: str, model_name: str, quant: str) -> _Pool:
    g = _GPU_BY_NAME[gpu_name]
    model = _MODEL_BY_SHORT.get(model_name)
    pool = [x for x in _GPUS_OF[g.platform] if x.max_tp == g.max_tp
            and (model is None or _model_runs_on(model, x, quant or None))]
    return _pool(pool or [g], lambda x: x.weight)  # type: ignore[attr-defined]


def resolve(key: str, rng: random.Random, v: dict[str, str]) -> str:
    """One slot's value for an item (chosen now if the item has none yet)."""
    value = v.get(key)
    return value if value is not None else _value(key, rng, v)


# Model names as titles write them, to the catalogue's entry ("DeepSeek-V3.2" is the -Exp checkpoint).
_MODEL_ALIASES = {
    "DeepSeek-V3.2": "DeepSeek-V3.2-Exp", "Qwen3-Next": "Qwen3-Next-80B-A3B", "Qwen2.5-VL": "Qwen2.5-VL-7B",
    "Qwen3-Omni": "Qwen3-Omni-30B-A3B", "Qwen3-VL": "Qwen3-VL-30B-A3B", "Llama-3.1-70B": "Llama-3.1-70B-Instruct",
    "Llama 4": "Llama-4-Scout", "Gemma 3": "Gemma-3-27B", "Gemma 3n": "Gemma-3n-E4B", "Magistral": "Magistral-Small",
    "Kimi-K2 Thinking": "Kimi-K2-Thinking", "Granite 4.0": "Granite-4.0-H-Small", "Qwen2.5-Omni": "Qwen2.5-Omni-7B",
    "gpt-oss": "gpt-oss-120b", "Qwen3": "Qwen3-8B",
}
_NAME_RE = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(n) for n in sorted(
        [*(m.short for m in MODELS), *_MODEL_ALIASES], key=len, reverse=True)) + r")(?![\w.-])")
_GPU_RE = re.compile(r"(?<![\w-])(" + "|".join(re.escape(g.name) for g in sorted(GPUS, key=lambda g: -len(g.name)))
                     + r")(?![\w-])")
_QUANT_RE = re.compile(r"\b(ModelOpt NVFP4|NVFP4|MXFP4|Quark MXFP4|AWQ Marlin|GPTQ Marlin)\b")
_BACKEND_RE = re.compile(
    r"\b(FlashMLA|CUTLASS MLA|FlashInfer MLA|AITER MLA|AITER FA|FlashAttention 3|TRTLLM attention)\b")
_KIND_HINTS = (("mla_model", re.compile(r"\bMLA\b")), ("mtp_model", re.compile(r"\bMTP\b")),
               ("moe_model", re.compile(r"\b(MoE|fused_moe|[Ee]xpert|EPLB|DeepEP|EP)\b")),
               ("vlm", re.compile(
                   r"(?<!kernel )(?<!docker )\b(VLM|[Ii]mage|[Vv]ideo|[Vv]ision|[Aa]udio|[Mm]ultimodal|Omni|ASR)\b")),
               ("reasoning_model", re.compile(r"\b(reasoning|[Tt]hinking)\b")))


@lru_cache(maxsize=4096)
def presets(text: str) -> tuple[tuple[str, str], ...]:
    """What a template names literally (a model, an accelerator, a scheme, a backend, a kind of model), as the
    item's values, so its slots and its body agree with its words."""
    out: list[tuple[str, str]] = []
    m = _NAME_RE.search(text)
    if m:
        short = _MODEL_ALIASES.get(m.group(1), m.group(1))
        out += [("model_name", short), ("model", _MODEL_BY_SHORT[short].hf)]
    g = _GPU_RE.search(text)
    if g:
        out += [("gpu", g.group(1)), ("platform", _GPU_BY_NAME[g.group(1)].platform)]
    q = _QUANT_RE.search(text)
    if q:
        out.append(("quant", q.group(1)))
    b = _BACKEND_RE.search(text)
    if b:
        out.append(("attn_backend", b.group(1)))
    for kind, rx in _KIND_HINTS:
        if rx.search(text):
            out.append(("model_kind", kind))
            break
    return tuple(out)


# Words that narrow an item's architecture: a library or a generation exists only there.
_ARCH_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(rx), archs) for rx, archs in (
    (r"\b(AITER|Quark|MoRI)\b", "gfx942 gfx950"),
    (r"\b(TRTLLM|CUTLASS MLA|NVFP4|SM100|B200|GB200)\b", "sm100 sm103"),
    (r"\bBlackwell\b", "sm100 sm103 sm120"),
    (r"\b(FA3|FlashAttention 3|Hopper|SM90|PDL|Machete|W4A8)\b", "sm90"),
    (r"\b(DeepGEMM|FlashMLA|DeepEP)\b", "sm90 sm100"),
))


@lru_cache(maxsize=4096)
def arch_words(text: str) -> str:
    """The architectures a template's words allow ("" for any)."""
    return next((archs for rx, archs in _ARCH_WORDS if rx.search(text)), "")
