"""The words of the demo's tracker: titles with what each PR does and why, issue templates with the fix they
call for, failure logs per platform, collect_env dumps, and the lines of comment threads by role and stage.

Templates use ``{slot}`` placeholders filled by ``bot.demo.world.fill`` (one value per item, coherent with the
item's hardware stack and model). Vendor words in a template ("AITER", "FlashInfer", "[XPU]") decide its platform.
"""

from __future__ import annotations

# --------------------------------------------------------------------------------------------------------
# Pull requests: (title, purpose). The purpose says why and by what mechanism, never the title again.

PR = "pr"
ISSUE = "issue"

PRS: dict[str, list[tuple[str, str]]] = {
    "rocm": [
        ("[ROCm] Enable AITER fused MoE for {moe_model} on {amd_gpu}",
         "`{moe_model}` on {gfx} still went through the Triton `fused_moe` path because the AITER MoE dispatch only "
         "accepted the top-k/expert layouts of DeepSeek-style models. AITER's CK MoE kernel handles this layout too, "
         "so this widens the check in `rocm_aiter_fused_moe.py`; Triton stays the fallback with "
         "`VLLM_ROCM_USE_AITER_MOE=0`."),
        ("[Bugfix][ROCm] Fix FP8 scaled_mm on {amd_gpu} when N is not a multiple of 16",
         "On {gfx} the FP8 `scaled_mm` goes to hipBLASLt, which rejects an N that is not a multiple of 16 "
         "(`HIPBLAS_STATUS_NOT_SUPPORTED`); some LoRA and MoE shared-expert shapes hit that. The wrapper now pads N "
         "and slices the output, as the CUTLASS path does on CUDA."),
        ("[ROCm][Kernel] Add {gfx} support for {kernel}",
         "The `{kernel}` kernel is guarded by an arch check that did not include {gfx}, so {amd_gpu} silently used "
         "the PyTorch-native fallback. This adds {gfx} to the check and a launch config for its 64-wide wavefronts."),
        ("[ROCm] Update Dockerfile.rocm to ROCm {rocm_ver}",
         "Moves the base image to ROCm {rocm_ver}, rebuilds PyTorch, Triton and AITER against it, and drops the "
         "hipBLASLt workaround that the new release no longer needs."),
        ("[ROCm][CI] Re-enable {test_area} tests on {amd_gpu}",
         "These were disabled in the AMD pipeline while the {amd_gpu} runners were flaky. The runners have been "
         "stable for two weeks and the underlying failure (an RCCL timeout at teardown) is fixed by #{ref}."),
        ("[ROCm] Enable full CUDA graphs for the AITER FA backend on {gfx}",
         "ROCM_AITER_FA only supported piecewise graphs, so attention ran eagerly between captured pieces and "
         "small-batch decode was CPU-bound. The metadata builder now keeps persistent buffers, which makes "
         "`cudagraph_mode=FULL_AND_PIECEWISE` safe on ROCm."),
        ("[ROCm][Perf] Tune Triton attention configs for {amd_gpu}",
         "The unified Triton attention kernel used the block sizes tuned on NVIDIA GPUs. {amd_gpu} has 64-wide "
         "wavefronts and more LDS per CU, so BLOCK_M=64 with `waves_per_eu=2` is faster for decode."),
        ("[ROCm] Add MXFP4 MoE path via AITER for gpt-oss on MI355X",
         "gfx950 has native MXFP4 matrix instructions, but gpt-oss on MI355X still dequantized its experts to BF16. "
         "`Mxfp4MoEMethod` now calls AITER's fused MoE with MXFP4 weights on gfx950 and keeps the Triton path on "
         "gfx942."),
        ("[ROCm][V1] Support sliding window in ROCM_AITER_FA backend",
         "Gemma-3 and gpt-oss have sliding-window layers, which made the selector fall back to Triton attention for "
         "the whole model. AITER's varlen flash attention takes a window argument: wire it through and drop the "
         "fallback."),
        ("[ROCm] Fix RDNA3 (gfx1100) build after CMake refactor",
         "The CMake refactor in #{ref} put gfx1100 in the list of archs that build the MFMA-only kernels, which do "
         "not exist on RDNA3. The arch list is now split into CDNA and RDNA, and gfx11/gfx12 build the generic "
         "kernels only."),
        ("[Quantization][ROCm] Support Quark FP8 checkpoints for {model_short}",
         "Quark exports per-channel FP8 weight scales under a different key than compressed-tensors; the loader "
         "mapped them to the per-tensor scale and the output was garbage. Read Quark's scale layout and use the "
         "row-wise hipBLASLt FP8 GEMM on {gfx}."),
        ("[ROCm][Bugfix] Fix on-chip LDS overflow in paged attention for {gfx}",
         "With head size 256 and a block size of 32, the ROCm paged attention kernel asked for more LDS than {gfx} "
         "has per workgroup and failed to launch. Split the logits buffer across two passes for that case."),
        ("[ROCm] Disable custom all-reduce on MI250X without a full XGMI mesh",
         "MI250X boxes without a full XGMI mesh hang in the custom all-reduce's IPC handshake. Detect the topology "
         "with amdsmi and fall back to RCCL there."),
        ("[ROCm][Attention] AITER MLA decode for {mla_model} on {amd_gpu}",
         "MLA models on ROCm used TRITON_MLA for decode. AITER's MLA decode kernel supports page size 1 with the "
         "compressed latent cache; ROCM_AITER_MLA becomes the default for {mla_model} with `VLLM_ROCM_USE_AITER=1`."),
        ("[Misc][ROCm] Clean up rocm platform relationship with CUDA platform checks",
         "Several call sites used `current_platform.is_cuda()` to mean \"is a GPU\" and silently skipped ROCm. They "
         "now use `is_cuda_alike()` where that is what is meant; no behaviour change on CUDA."),
        ("[ROCm] Ship tuned skinny GEMMs for {model_short} on {amd_gpu}",
         "hipBLASLt's heuristics pick slow solutions for the skinny decode GEMMs (M <= 64). This ships tuned "
         "solutions for the model's shapes and uses them with `VLLM_ROCM_USE_SKINNY_GEMM=1` (the default)."),
        ("[ROCm][Perf] AITER FP8 block-scaled GEMM for {mla_model} on {gfx}",
         "Block-scaled FP8 linear layers used the Triton `w8a8_block_fp8_matmul` on ROCm. AITER's CK block GEMM is "
         "faster for {mla_model}'s shapes on {gfx}; it is now the default when AITER is enabled."),
        ("[ROCm][Bugfix] Fix RCCL hang at init with TP={tp} on {amd_gpu}",
         "The custom all-reduce buffers were registered while the first RCCL all-reduce was in flight, which "
         "deadlocks on {amd_gpu} with TP={tp}. Register them before the warm-up all-reduce, as on CUDA."),
        ("[ROCm][CI] Move the AMD {test_area} job to MI325X runners",
         "The MI300X pool is oversubscribed and the job queues for hours. MI325X runs the same gfx942 code paths, "
         "so the coverage is unchanged."),
        ("[ROCm] Support FP8 KV cache on RDNA4 (gfx1201)",
         "RDNA4 has FP8 WMMA but the KV cache path allowed fp8 only on gfx94x/gfx95x. gfx12 is added to the list "
         "and uses the OCP e4m3 format, not the fnuz variant of MI300."),
        ("[ROCm][Quantization] PTPC FP8 for {dense_model} on {amd_gpu}",
         "Per-token-activation / per-channel-weight FP8 keeps accuracy close to BF16 on MI300-class GPUs where "
         "per-tensor FP8 loses about a point on GSM8K. It uses hipBLASLt's row-wise scaling."),
        ("[ROCm][Bugfix] Fix AITER unified attention with prefix caching on {gfx}",
         "Cached prefix blocks were read at the query's start offset instead of the context length, so outputs "
         "went wrong after the first prefix-cache hit."),
        ("[ROCm] Use AITER RMSNorm + FP8 quant fusion for {model_short}",
         "Adds the AITER fused add-RMSNorm-quant kernel to the ROCm fusion pass, so the FP8 activation quant after "
         "each norm no longer reads the hidden states a second time."),
        ("[ROCm][Build] Build AITER from a pinned commit in Dockerfile.rocm_base",
         "The base image built AITER from its main branch, which broke our nightly twice this month. Pin the "
         "commit and bump it deliberately."),
    ],
    "cuda": [
        ("[Kernel] Add CUTLASS NVFP4 grouped GEMM for SM100",
         "Blackwell's block-scaled tcgen05 MMA makes an NVFP4 grouped GEMM straightforward; NVFP4 MoE went through "
         "FlashInfer only. This adds a CUTLASS 3.x grouped kernel with per-expert problem sizes as "
         "`cutlass_moe_fp4`."),
        ("[Bugfix] Fix FlashInfer TRTLLM attention on B200 with FP8 KV cache",
         "The TRTLLM-gen decode kernel expects the KV scale folded into `bmm1_scale`; we passed it separately, so "
         "outputs drifted with `--kv-cache-dtype fp8`. The scales are now folded as in FlashInfer's reference."),
        ("[NVIDIA] Use FlashInfer as the default attention backend on Blackwell",
         "FA3 does not run on SM100, so B200 fell back to FlashAttention 2, which lacks the TRTLLM-gen decode "
         "kernels. FlashInfer is faster at every batch size we measured and already handles FP8 KV cache."),
        ("[Hardware][NVIDIA] Support GB200 NVL72 multi-node all-reduce",
         "Across an NVL72 domain NCCL's default algorithm is tuned for InfiniBand. FlashInfer's MNNVL all-reduce "
         "uses the NVLink fabric directly; enabled for TP spanning trays."),
        ("[Perf] Use PDL on Hopper for {kernel}",
         "Programmatic dependent launch lets the next kernel's prologue overlap the tail of `{kernel}`; at decode "
         "batch sizes that hides a few microseconds per layer on H100/H200."),
        ("[Kernel] Tune fused_moe configs for {moe_model} on {nv_gpu}",
         "Adds the Triton configs produced by `benchmarks/kernels/benchmark_moe.py --tune` for {moe_model}'s expert "
         "shapes on {nv_gpu}; without them `fused_moe` falls back to the default config."),
        ("[CI/Build] Build wheels with CUDA {cuda_ver} and add SM120 arch",
         "RTX 5090 and RTX PRO 6000 users hit `no kernel image is available` because the release wheels were not "
         "built for 12.0. The default arch list gains 12.0 (PTX for the rest)."),
        ("[Bugfix] Fix SM90 CUTLASS scaled_mm for odd N",
         "The SM90 FP8 epilogue assumed N divisible by 8 for its vectorized stores; an odd N (some LoRA shapes) "
         "wrote past the end of the row. Use the scalar epilogue for those shapes."),
        ("[Build] Use CUDA 13 toolkit in release builds",
         "CUDA 13.0 is needed for the new Blackwell kernels in FlashInfer and the CUTLASS 4.x release. The cu129 "
         "wheel stays as the default on PyPI for now."),
        ("[Kernel] Use DeepGEMM grouped GEMM for {mla_model} MoE on H200",
         "DeepGEMM's masked grouped GEMM is faster than the Triton FP8 MoE at decode for DeepSeek-style expert "
         "shapes. It is enabled with `VLLM_USE_DEEP_GEMM=1` and checked against the Triton kernel in the tests."),
        ("[NVIDIA] Add B300 to supported device list",
         "B300 reports compute capability 10.3, which our platform checks did not recognise, so FlashInfer and the "
         "CUTLASS MLA kernels were disabled. SM103 is now treated like SM100 for kernel selection."),
        ("[Kernel] Enable FlashInfer TRTLLM-gen MoE for gpt-oss on B200",
         "On Blackwell, gpt-oss's MXFP4 experts can run through FlashInfer's TRTLLM-gen MoE with MXFP8 activations "
         "instead of the Triton path."),
        ("[Perf][NVIDIA] Fuse all-reduce + RMSNorm with FlashInfer on {nv_gpu}",
         "FlashInfer's fused all-reduce does the TP all-reduce, residual add and RMSNorm in one kernel over NVLink. "
         "It is enabled through the `fuse_allreduce_rms` compile pass for TP <= 8 on one node."),
        ("[Bugfix][CUDA] Fix `no kernel image` on RTX 5090 for the Marlin kernels",
         "Marlin's arch list came from the builder's `TORCH_CUDA_ARCH_LIST` and missed 12.0. It now uses the "
         "release arch list like the other kernels."),
        ("[Kernel] FlashMLA sparse decode for DeepSeek-V3.2-Exp on {nv_gpu}",
         "DeepSeek-V3.2-Exp's lightning indexer selects 2048 tokens per query; the sparse FlashMLA kernel reads "
         "only those from the latent cache."),
        ("[NVIDIA] Enable NVFP4 KV cache on {nv_arch}",
         "Blackwell's FP4 tensor cores can consume an NVFP4 KV cache directly in the TRTLLM-gen decode kernel, "
         "halving KV memory again compared with FP8."),
        ("[Bugfix] Fix CUTLASS MLA on SM100 when num_heads < 128",
         "The CUTLASS MLA kernel tiles 128 heads per CTA; with TP=8 DeepSeek has 16 heads per rank and read "
         "uninitialized shared memory. Pad the heads to the tile size."),
    ],
    "hardware": [
        ("[CPU] Add AVX512 BF16 path for {kernel}",
         "On Sapphire Rapids `{kernel}` converted BF16 to FP32 with scalar code. The AVX512-BF16 intrinsics do the "
         "conversion and dot products in registers."),
        ("[CPU][Perf] Enable SGL kernels for MoE on x86",
         "Uses the AMX/AVX512 MoE kernels from sgl-kernel for the CPU backend's fused MoE when the CPU supports "
         "AMX; other CPUs keep the oneDNN path."),
        ("[Hardware][TPU] Support {model_short} on TPU v6e",
         "The model's attention uses a head size the Pallas ragged paged attention kernel did not support; pad "
         "the heads to 128 on TPU and slice the output."),
        ("[TPU] Fix ragged paged attention with prefix caching",
         "With prefix caching, the first query token of a request can start in the middle of a page, which the "
         "Pallas kernel's page-boundary assumption did not allow."),
        ("[XPU] Enable FP8 on Intel Arc B580",
         "Adds FP8 weight-only (W8A16) linear layers on XPU through IPEX, so 8B-class FP8 checkpoints fit in the "
         "B580's 12 GB."),
        ("[XPU] Upgrade to oneAPI 2025.2 and PyTorch 2.9 XPU",
         "PyTorch 2.9's XPU wheels need oneAPI 2025.2; this bumps both and the IPEX pin, and removes the "
         "workaround for the SYCL graph bug fixed there."),
        ("[Hardware][Gaudi] Update HPU plugin docs",
         "HPU support lives in the vllm-gaudi plugin now; the docs still described the in-tree backend."),
        ("[Hardware][Neuron] Remove deprecated Neuron worker",
         "The Neuron backend moved out of tree; the leftover worker is dead code that still imported "
         "`transformers_neuronx`."),
        ("[CPU] Support aarch64 build with oneDNN ACL",
         "Building the CPU backend on aarch64 used the reference oneDNN kernels. Building oneDNN with the Arm "
         "Compute Library gives SVE GEMMs on Neoverse cores."),
        ("[CPU][ARM] Fix bf16 matmul on Graviton4",
         "The BF16 GEMM path on ARM assumed the BF16 dot-product extension from the CPU flags, but Graviton4 "
         "reports it under a different name. Detect it properly instead of falling back to FP32."),
        ("[Hardware][Intel GPU] Add XPU graph support",
         "Captures the decode step with SYCL graphs on XPU, the analogue of CUDA graphs; it cuts launch overhead "
         "at small batch sizes."),
        ("[CPU] Fix shm all-reduce for multi-socket x86",
         "The shared-memory all-reduce assumed one NUMA node; with TP=2 across sockets the second rank's buffer "
         "was allocated on the wrong node and reads were 3x slower."),
        ("[TPU] Pallas kernel for MoE on TPU",
         "MoE on TPU used a dense gather over all experts. A Pallas grouped matmul with sorted tokens avoids "
         "computing the unselected experts."),
        ("[XPU] Support {model_short} on {xpu_gpu} with {quant}",
         "Adds the missing XPU path for the model's quantized linear layers through IPEX's weight-only kernels."),
        ("[XPU] Enable prefix caching and chunked prefill on XPU",
         "The XPU attention backend now handles queries that start inside a cached block, which lets V1 enable "
         "prefix caching and chunked prefill by default there too."),
        ("[TPU] Support {model_short} on {tpu} with tensor parallel",
         "Shards the model's fused QKV projection along heads for TP on TPU; the existing sharding split the fused "
         "weight in the wrong dimension."),
        ("[CPU] Use AMX for INT8 W8A8 linear on Xeon",
         "oneDNN's AMX INT8 kernels are several times faster than the AVX512-VNNI ones on Sapphire Rapids and "
         "newer; enabled when the CPU reports amx_int8."),
        ("[CPU][ARM] KleidiAI INT4 kernels for Neoverse V2",
         "Arm's KleidiAI provides INT4 weight-only GEMMs tuned for Neoverse; used for W4A16 checkpoints on aarch64."),
        ("[TPU] Bump JAX to 0.7.2 and torch_xla to 2.9",
         "The new releases fix the recompilation on every new sequence-length bucket that we worked around."),
    ],
    "quantization": [
        ("[Bugfix] Fix {quant} weight loading for {model_short} with TP={tp}",
         "The weight scales were sharded along the wrong dimension for the row-parallel layers."),
        ("[Quantization] Add MXFP4 W4A16 path for {moe_model}",
         "Hopper has no FP4 tensor cores; instead of the Triton fallback, the Marlin MoE kernel now dequantizes the "
         "MXFP4 experts to BF16 in registers (W4A16)."),
        ("[Bugfix] Fix AWQ Marlin kernel for group size 64",
         "Marlin's AWQ repack assumed group size 128 when computing the scale offsets; group-size-64 checkpoints "
         "loaded but produced wrong outputs."),
        ("[Kernel] Machete GPTQ kernels for Hopper",
         "Machete uses wgmma for mixed-input GEMMs and is faster than Marlin on H100 at batch sizes above ~32."),
        ("[Quantization] Support ModelOpt NVFP4 checkpoints for {model_short}",
         "ModelOpt exports NVFP4 with a global FP32 scale per tensor plus FP8 block scales; the loader dropped the "
         "global scale for the fused QKV projection."),
        ("[Quantization][Bugfix] Fix bitsandbytes 4-bit loading with TP",
         "bitsandbytes quant states were sharded before the weights were, so with TP > 1 each rank got the wrong "
         "absmax blocks."),
        ("[Quantization] Add Quark INT8 W8A8 support",
         "Quark's INT8 W8A8 checkpoints use symmetric per-channel weights and dynamic per-token activations, which "
         "maps onto the existing scaled_mm INT8 kernels."),
        ("[Feature] Online FP8 quantization for MoE weights",
         "`--quantization fp8` quantized dense layers at load time but left BF16 experts untouched; MoE layers now "
         "get per-tensor FP8 too."),
        ("[Perf] Faster per-token-group FP8 quant kernel",
         "The kernel did one warp per group and was latency-bound; processing 4 groups per warp with vectorized "
         "loads saturates memory bandwidth."),
        ("[Quantization] compressed-tensors W4A8 for {model_short}",
         "INT4 weights with FP8 activations use the Hopper CUTLASS mixed-input kernels; weights are converted at "
         "load time."),
        ("[Quantization] GGUF: load Qwen3 checkpoints exported from llama.cpp",
         "llama.cpp writes Qwen3's q/k norm weights under names our GGUF mapping did not know."),
        ("[Bugfix] Fix FP8 KV cache scale loading for {model_short}",
         "The checkpoint stores k/v scales per layer under `self_attn.k_scale`; we looked for `kv_scale` and "
         "silently used 1.0."),
        ("[Quantization] NVFP4 MoE for {moe_model} on {gpu}",
         "Adds the NVFP4 MoE method for this model's expert layout using FlashInfer's CUTLASS MoE kernels."),
        ("[Bugfix] Fix GPTQ Marlin with act_order and TP={tp}",
         "With act_order, the g_idx of a row-parallel layer has to be sharded with the weights; it was kept "
         "whole."),
        ("[Quantization] Load FP8 block-scaled checkpoints of {moe_model} with TP={tp}",
         "The 128x128 weight-scale blocks did not divide evenly across ranks for this model's intermediate size; "
         "the loader now pads the scales."),
        ("[Quantization] Support {quant} for {moe_model} on {gpu}",
         "Wires the existing {quant} linear method into the MoE layers of this model and adds it to the "
         "supported-quantization table."),
        ("[Quantization] Per-channel INT8 KV cache",
         "INT8 KV cache with per-channel key scales recovers most of the accuracy lost with per-tensor scales on "
         "long-context tasks."),
    ],
    "moe": [
        ("[MoE][Bugfix] Fix {moe_model} with EP and TP={tp}",
         "With EP the expert map was built from the global rank instead of the EP rank."),
        ("[MoE] Refactor fused_moe modular kernel for {quant}",
         "The modular kernel split prepare/finalize from the experts computation for FP8 only; this extends it so "
         "{quant} experts go through the same all-to-all backends."),
        ("[Kernel] Tune fused_moe config for {moe_model} on {gpu}",
         "Adds tuned Triton configs for {moe_model}'s expert shapes on {gpu} (from `benchmark_moe.py --tune`); "
         "the defaults were chosen for Mixtral."),
        ("[Perf] DeepEP low-latency kernels for expert parallel decode",
         "For decode with expert parallel across nodes, DeepEP's low-latency mode uses IBGDA and overlaps "
         "communication with the expert GEMMs."),
        ("[Core] EPLB: expert parallel load balancing for {moe_model}",
         "Hot experts made one EP rank the straggler. EPLB replicates hot experts and rebalances every N steps "
         "based on recorded token counts."),
        ("[MoE][Bugfix] Fix shared experts overlap with TP",
         "The shared-expert computation overlapped with the routed experts on a side stream, but the side stream "
         "did not wait for the TP all-gather; outputs were wrong at TP > 1."),
        ("[Model] Support MoE routing with grouped top-k for GLM-4.6",
         "GLM-4.6 routes with a sigmoid score and a correction bias like DeepSeek-V3 but without expert groups; "
         "the grouped top-k path assumed groups."),
        ("[MoE] Chunked fused_moe to reduce activation memory",
         "The intermediate cache of fused_moe grows with tokens x top-k x N; chunking the tokens keeps long "
         "prefills from OOMing."),
        ("[Kernel] Triton MoE kernel for {gfx}",
         "Adds {gfx}-specific Triton configs and uses the matrix-core friendly layout for the expert weights."),
        ("[MoE] MoRI all-to-all for expert parallel on MI300X",
         "AMD's MoRI library provides the dispatch/combine all-to-all that DeepEP provides on NVIDIA; this adds it "
         "as an all2all backend on ROCm."),
        ("[MoE] Support expert parallel with DP={dp} for {moe_model}",
         "With DP attention plus EP, each DP rank now dispatches only its own tokens, so the MoE layer no longer "
         "all-gathers the full batch."),
        ("[Bugfix][MoE] Fix routing weights dtype with EP",
         "Routing weights stayed in FP32 on the EP path while the experts ran in BF16, doubling the dispatch "
         "traffic."),
    ],
    "spec": [
        ("[Spec Decode] Support {spec} with {feature}",
         "The proposer did not handle this configuration and spec decode was disabled with a warning."),
        ("[Bugfix][Spec Decode] Fix {spec} acceptance with {quant} targets",
         "The target logits were compared in their quantized dtype; the rejection sampler now upcasts them."),
        ("[Spec Decode] Support EAGLE-3 for {model_short}",
         "EAGLE-3 drafts from the target's hidden states of three layers; this adds the auxiliary hidden-state "
         "outputs to the model and loads the published EAGLE-3 head."),
        ("[V1][Spec Decode] Add n-gram proposer with GPU matching",
         "The n-gram proposer matched on CPU with numba, which took ~1 ms per step at batch 256. Matching on the "
         "GPU removes the host sync."),
        ("[Spec Decode] MTP for DeepSeek-V3.2 with CUDA graphs",
         "The MTP layer's sparse indexer metadata was rebuilt every step, which broke graph capture."),
        ("[Spec Decode] Suffix decoding support",
         "Suffix decoding proposes tokens from a suffix tree of prompts and earlier outputs; it needs no draft "
         "model and works well for agentic workloads with repetitive outputs."),
        ("[Bugfix][Spec Decode] Fix draft model KV cache allocation with prefix caching",
         "The draft model's KV blocks were allocated from the target's block table, so a prefix-cache hit gave "
         "the drafter blocks it had never written."),
        ("[Spec Decode] Eagle3 drafter for gpt-oss-120b",
         "Loads the EAGLE-3 head trained for gpt-oss-120b and handles the attention sinks in the drafter."),
        ("[V1][Spec Decode] Tree attention for EAGLE",
         "Adds a tree-attention backend so EAGLE can verify several draft branches per step."),
        ("[Spec Decode] MTP for {mtp_model}",
         "The model ships a multi-token-prediction layer; this loads it as the drafter with "
         "`--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'`."),
        ("[Spec Decode] Support {spec} with {attn_backend}",
         "Spec decode forced the Triton backend for verification; {attn_backend} now accepts multi-token decode "
         "queries."),
    ],
    "multimodal": [
        ("[Multimodal] Support `{mm_arg}` for {vlm}",
         "Passes the processor argument through `--mm-processor-kwargs` and per request, so users can trade "
         "accuracy for tokens."),
        ("[Bugfix] Fix {vlm} processor with {mm_input}",
         "The input reached the HF processor in a format it does not accept; it is converted first."),
        ("[Multimodal] Limit {vlm} encoder memory with {feature}",
         "The encoder budget did not account for this configuration, so the profiling run under-reserved memory."),
        ("[Model] Support {vlm}", ""),
        ("[Multimodal] Cache image processor outputs across requests",
         "The same image sent in multi-turn chats was processed again every turn; the processor output is now "
         "cached by content hash."),
        ("[Frontend] Support video input for {vlm}",
         "Adds the video placeholder and frame sampling for the model's processor; videos go through the same "
         "encoder cache as images."),
        ("[Model] Add audio support to Qwen3-Omni",
         "Wires the audio encoder of the thinker model and the `input_audio` content part."),
        ("[Bugfix] Fix Qwen2.5-VL image embedding mismatch with chunked prefill",
         "When a chunk boundary fell inside the image tokens, the embeddings were merged at the wrong offset."),
        ("[MM] Encoder cache for vision towers in V1",
         "Vision-encoder outputs are now cached and scheduled with their own budget, so chunked prefill no longer "
         "re-runs the encoder."),
        ("[Perf] Speed up Qwen2.5-VL vision encoder with FlashAttention",
         "The vision tower used SDPA with a block-diagonal mask; varlen FlashAttention avoids materializing it."),
        ("[Multimodal] Support image embeddings input for {vlm}",
         "Allows passing precomputed image embeddings, so the vision encoder can run on a separate service."),
        ("[Bugfix] Fix multi-image prompt placeholder count for {vlm}",
         "The placeholder expansion counted tiles per prompt, not per image."),
        ("[Multimodal] Run the vision encoder with data parallel for {vlm}",
         "`--mm-encoder-tp-mode data` replicates the small vision tower on every TP rank instead of sharding it; "
         "this removes the all-reduces from the encoder."),
    ],
    "models": [
        ("[Bugfix] Fix {model_short} chat template handling of system prompts",
         "The model's template expects the system prompt inside the first user turn; we passed it as a separate "
         "message and it was dropped."),
        ("[Model] Support the {model_short} embedding variant with the pooling runner",
         "The checkpoint uses last-token pooling with a normalized output; adds its pooler config."),
        ("[Bugfix] Fix rope scaling for {model_short} beyond {ctx} tokens",
         "YaRN's attention factor was applied twice when `max_model_len` exceeded the original context."),
        ("[Model] Load {model_short} without trust_remote_code",
         "The config class is now in transformers, so the remote code is no longer needed."),
        ("[Model] Support Qwen3-Next", ""),
        ("[Model] Add DeepSeek-V3.2-Exp with sparse attention", ""),
        ("[Model] Gemma 3n support", ""),
        ("[Model] Support Mistral Large 3", ""),
        ("[Model] GLM-4.6 tool calling and reasoning parser",
         "GLM-4.6 interleaves reasoning with tool calls in its own XML format; the parsers handle both, including "
         "streaming."),
        ("[Model] MiniMax-M2 support", ""),
        ("[Model] Kimi-K2 Thinking support", ""),
        ("[Bugfix] Fix Llama 4 rope scaling with long context",
         "Llama 4's chunked attention layers must not get the long-context rope scaling; they did."),
        ("[Model][gpt-oss] Support harmony format streaming",
         "The harmony parser now emits the analysis and final channels incrementally in streaming mode."),
        ("[Model] Add Olmo-3", ""),
        ("[Model] Use the shared MLP implementation for {model_short}",
         "Replaces the model's copy of the gated MLP with the shared one, so it picks up the fused quant kernels."),
        ("[Bugfix] Fix Gemma 3 sliding window with prefix caching",
         "Blocks outside the sliding window were freed while still referenced by a prefix-cache hit."),
        ("[Model] Support Qwen3-VL-Embedding pooling", ""),
        ("[Bugfix] Fix {model_short} weight loading with TP={tp}",
         "The fused QKV weight was sharded before the KV heads were replicated for TP > num_kv_heads."),
        ("[Model] Granite 4.0 hybrid models: support prefix caching",
         "Mamba layers keep a state per request; the hybrid allocator now caches it at block boundaries."),
    ],
    "kernels": [
        ("[Kernel] Vectorize {kernel} loads",
         "16-byte loads per thread instead of scalar ones; the kernel becomes memory-bound at large batch."),
        ("[Kernel] Support head size {head_dim} in {attn_backend}",
         "Models with this head size fell back to a slower backend."),
        ("[Attention] Add FlashInfer MLA backend",
         "FlashInfer's MLA decode kernel for Blackwell supports page sizes 32/64, which lets MLA models use the "
         "same block size as the rest of the model."),
        ("[Kernel] FA3 for sliding window with attention sinks",
         "gpt-oss needs attention sinks together with sliding windows; the FA3 build now passes the sink logits."),
        ("[Kernel][Triton] Speed up unified triton attention kernel",
         "Splits the KV dimension for long-context decode (split-KV), which the unified kernel lacked."),
        ("[Attention][CUTLASS] CUTLASS MLA for Blackwell",
         "Adds the CUTLASS MLA decode kernel for SM100 with a 128-token page size."),
        ("[Bugfix] Fix flash-attention varlen with head dim 256",
         "For head dim 256 the varlen kernel's shared-memory estimate was off and the launch failed."),
        ("[Kernel] Triton fused_moe for INT4 weights",
         "Adds INT4 weight dequantization to the Triton fused_moe kernel for GPUs without Marlin."),
        ("[Kernel] Fused rms_norm + FP8 quant kernel",
         "Fuses the RMSNorm and the per-token FP8 quant of its output; one read of the hidden states instead of "
         "two."),
        ("[Attention] FlashInfer: support FP8 query for decode",
         "With an FP8 KV cache, FlashInfer's decode kernel can also take an FP8 query, avoiding a dequant of the "
         "cache."),
        ("[Kernel] {attn_backend}: support page size 16 for {model_short}",
         "The backend assumed page sizes of 32 or more in its split-KV heuristic; hybrid models need 16."),
        ("[Kernel] Vectorize reshape_and_cache for FP8 KV cache",
         "Stores 16 bytes per thread instead of one element, which matters at large batch."),
    ],
    "compile": [
        ("[torch.compile] Fuse {fusion} for {model_short}",
         "Adds the pattern to the fusion pass; one kernel and one memory round-trip fewer per layer."),
        ("[Bugfix][torch.compile] Fix graph breaks in {module}",
         "A Python-side branch on a tensor value broke the graph; it is now a tensor op."),
        ("[torch.compile] Fuse rms_norm + quant pass",
         "A pattern-matcher pass replaces RMSNorm followed by FP8 quant with the fused kernel."),
        ("[torch.compile] Cache compiled artifacts across runs",
         "The Inductor cache key included the process id; restarts recompiled everything (about 60 s for a 70B "
         "model)."),
        ("[Core] Full CUDA graphs for FlashInfer decode",
         "FlashInfer's decode wrapper can be captured whole if its plan buffers are persistent."),
        ("[Bugfix] Fix CUDA graph capture with LoRA",
         "The LoRA index tensor was re-allocated per step, so the captured graph read a stale pointer."),
        ("[torch.compile] Support piecewise cudagraph with sequence parallel",
         "Sequence parallel adds reduce-scatter/all-gather ops that must be split points of the graph."),
        ("[torch.compile] Reduce recompilation when max_num_seqs changes",
         "The batch size was specialised in the graph; it is now marked dynamic."),
        ("[Perf] Capture fewer CUDA graph sizes by default",
         "Capturing 67 sizes took 40 s at startup; 35 sizes cover the same range with a padding overhead under "
         "2%."),
        ("[torch.compile] Fuse SiLU-and-mul + FP8 quant for {model_short}",
         "Adds the activation-quant fusion to the default pass list for FP8 models."),
        ("[Bugfix][torch.compile] Fix recompiles with {attn_backend} on {gpu}",
         "The backend's metadata object was a guard input; it is now excluded from the guards."),
    ],
    "distributed": [
        ("[Bugfix] Fix {kv_connector} with TP={tp}",
         "The connector assumed one KV head per rank when computing transfer offsets."),
        ("[P/D] {kv_connector}: async KV loading",
         "The decode instance now schedules other requests while the KV of a new one is in flight."),
        ("[Distributed] Support DP={dp} with EP for {moe_model} across nodes",
         "The DP coordinator now discovers ranks on other nodes through the head node's address."),
        ("[Distributed] Pipeline parallel support for {model_short}",
         "The model's layers now implement `make_empty_intermediate_tensors` so PP > 1 works."),
        ("[Core] DP + EP load balancing across API servers",
         "Each API server sent requests to a fixed DP rank; they are now routed by queue length."),
        ("[KV Connector] NIXL: support heterogeneous TP",
         "Prefill with TP=8 and decode with TP=2 need the KV heads regrouped during transfer."),
        ("[P/D] Disaggregated prefill with LMCache",
         "Adds an LMCache-based connector for disaggregated prefill with a shared CPU tier."),
        ("[Bugfix] Fix Ray executor hang on multi-node setup",
         "The Ray placement group waited for a GPU count it never got when nodes reported different GPU types."),
        ("[KV Offloading] CPU offloading connector for V1",
         "Evicted KV blocks are copied to pinned CPU memory and reloaded on a prefix-cache hit."),
        ("[Distributed] Tensor parallel all-reduce fusion",
         "Fuses the TP all-reduce with the following residual add and RMSNorm."),
        ("[Bugfix][P/D] Fix NIXL handshake timeout",
         "The handshake used a 5 s timeout while the remote engine was still loading weights."),
        ("[Core] Support external launcher with DP",
         "torchrun-launched engines can now use data parallel."),
        ("[KV Connector] {kv_connector}: support layer-wise transfer",
         "Transfers each layer's KV as soon as it is computed, overlapping transfer with the rest of the prefill."),
        ("[Distributed] Use NCCL symmetric memory for all-reduce at TP={tp}",
         "Symmetric memory all-reduce avoids the extra copy into the communication buffer for small messages."),
    ],
    "frontend": [
        ("[Frontend] Support `{param}` in {chat_api}",
         "The parameter was accepted by the request schema but ignored; it now maps onto the sampling parameters."),
        ("[Bugfix] Fix `{param}` with streaming in {chat_api}",
         "The streaming path built its sampling parameters separately and dropped this field."),
        ("[Frontend] Return 400 for invalid `{param}` values",
         "Invalid values reached the engine and failed there with a 500."),
        ("[Frontend][Tool Calling] Support `tool_choice=required` for the {tool_parser} parser",
         "With `required`, the output is constrained to the tool-call schema with structured output, so the parser "
         "always finds a call."),
        ("[Frontend] Support Responses API background mode",
         "`background=true` returns immediately with a response id; the result is polled later."),
        ("[Frontend] Add realtime websocket endpoint for ASR",
         "Streams audio over a websocket for transcription models, as OpenAI's realtime API does."),
        ("[Frontend][Bugfix] Fix tool calling streaming with {tool_parser} parser",
         "The parser emitted the arguments delta before the function name when both arrived in one chunk."),
        ("[Frontend] Structured output with xgrammar for JSON schema $ref",
         "xgrammar now resolves local `$ref`s, so schemas with definitions no longer fall back to guidance."),
        ("[Frontend] Reasoning parser for {reasoning_model}",
         "Splits the model's thinking section into `reasoning_content`, including in streaming mode."),
        ("[Frontend] OpenAI API: support `max_completion_tokens`",
         "`max_tokens` is deprecated in the OpenAI API; both are now accepted."),
        ("[Bugfix] Fix chat completions returning 500 with empty messages",
         "An empty `messages` list reached the chat template and raised; it is a 400 now."),
        ("[Frontend] Guided decoding: deprecate guided_json in favor of structured_outputs",
         "The `guided_*` parameters map to `structured_outputs` and log a deprecation warning."),
        ("[Frontend] Add --enable-log-outputs command line flag",
         "Logs generated outputs next to the prompts when request logging is on."),
        ("[Frontend] Return prompt logprobs in the OpenAI-compatible server", ""),
        ("[Bugfix] Fix http 400 on /v1/completions with echo=True",
         "`echo` with a token-id prompt failed detokenization of the prompt."),
        ("[Frontend] Support `parallel_tool_calls=false` for {tool_parser}",
         "The server now truncates to the first tool call when the client disables parallel calls."),
        ("[Frontend][Responses API] Support MCP tool servers for {reasoning_model}",
         "Routes built-in tool calls to configured MCP servers."),
    ],
    "scheduler": [
        ("[Core] Fix {config_field} handling with async scheduling",
         "With async scheduling the scheduler runs one step ahead; the limit was checked against the previous "
         "step's state."),
        ("[Core] Hybrid KV cache manager support for {hybrid_model}",
         "Mamba/linear-attention layers get their own block pool, so prefix caching works for the full-attention "
         "layers."),
        ("[Core][Bugfix] Fix prefix caching hit rate with {feature}",
         "The block hash included a per-request field, so identical prefixes never matched."),
        ("[Core] Prefix caching: hash blocks with SHA256 by default",
         "Python's hash is not collision-resistant across processes; SHA256 (with CBOR serialization) is used "
         "unless `--prefix-caching-hash-algo builtin` is set."),
        ("[Core] Async scheduling with structured output",
         "Async scheduling was disabled with structured output because the grammar bitmask was computed after "
         "the next step was scheduled."),
        ("[Core] Optimize chunked prefill scheduling for long context",
         "Long prefills are chunked by the token budget left after decodes, so decodes no longer stall."),
        ("[V1][Core] Preemption by recompute when the KV cache is full",
         "When no block can be allocated, the lowest-priority request is preempted and recomputed later."),
        ("[Core] KV cache manager: hybrid allocator for sliding window",
         "Sliding-window and full-attention layers get separate block pools."),
        ("[Core] Remove the legacy block manager",
         "The V0 block manager has no users since V0 was removed."),
        ("[Scheduler] Priority scheduling in V1", ""),
        ("[Core] Fix KV cache block leak on aborted requests",
         "Blocks of a request aborted between scheduling and execution were never freed."),
        ("[Core] Prefix caching for {vlm} with image inputs",
         "Image placeholders are now part of the block hash, so cached blocks are reused only for the same image."),
    ],
    "ci": [
        ("[CI] Fix the {ci_job} job",
         "The job has been red since #{ref} because of a changed default in the test fixture."),
        ("[CI] Move {ci_job} to the {runner} runners",
         "The old pool is oversubscribed; queue times were over an hour."),
        ("[CI] Add {test_name} to the fastcheck pipeline",
         "It catches a class of regressions we only saw in the full CI so far (#{ref})."),
        ("[CI] Skip {test_name} on {runner} until #{ref} lands", "Known failure; skipped with a link to the fix."),
        ("[CI/Build] Fix Docker build for arm64",
         "The arm64 image pulled an x86-only FlashInfer wheel."),
        ("[CI] Split entrypoints tests into shards", "The job took 75 minutes; four shards take about 20 each."),
        ("[Build] Use uv in the Dockerfile", "uv resolves and installs the requirements several times faster."),
        ("[CI/Build] Upgrade pre-commit hooks", ""),
        ("[CI] Fix flaky test_prefix_caching",
         "The test compared outputs across two engine instances with different seeds."),
        ("[Build] Publish nightly wheels for CUDA {cuda_ver}", ""),
        ("[CI/Build] Update PyTorch to 2.9.0",
         "PyTorch 2.9.0 is needed for the new Inductor passes; the XPU and ROCm images follow in separate PRs."),
        ("[CI] Skip {test_area} tests when only docs change", ""),
        ("[CI/Build] Bump {dep_pin}", ""),
        ("[CI][Bugfix] Fix step timeout in the AMD CI pipeline",
         "The AMD job's timeout was 60 minutes while the model download alone takes 20 on those runners."),
        ("[CI] Add {model_short} to the nightly lm-eval accuracy tests", ""),
        ("[CI/Build] Build the CPU Docker image for {cpu_arch}", ""),
    ],
    "docs": [
        ("[Doc] Update the {docs_page} page for {version}", ""),
        ("[Docs] Fix the {docs_page} example", ""),
        ("[Doc] Document {arg}", ""),
        ("[Doc] Add {env_var} to the environment variables page", ""),
        ("[Doc] Update the supported models list", ""),
        ("[Doc] Fix typo in quantization docs", ""),
        ("[Docs] Add an example for tool calling with streaming", ""),
        ("[Doc] Clarify prefix caching docs", ""),
        ("[Doc] Add tips for tuning max_num_batched_tokens", ""),
        ("[Docs] Document the --kv-transfer-config command line option", ""),
        ("[Doc] Fix broken links in the README", ""),
        ("[Doc] Add a deployment recipe for {model_short} on {gpu}", ""),
        ("[Docs] Explain the {attn_backend} backend selection", ""),
        ("[Doc] Fix typo in the {feature} docs", ""),
    ],
    "performance": [
        ("[Perf] Reduce host overhead in {module}",
         "Profiling at small batch showed Python overhead here on every step; the per-step work now reuses "
         "preallocated buffers."),
        ("[Benchmark] Add {model_short} on {gpu} to the nightly perf dashboard", ""),
        ("[Perf] Reduce scheduler overhead with cached block hashes",
         "The scheduler recomputed block hashes of running requests every step."),
        ("[Perf] Improve throughput of detokenization",
         "Incremental detokenization now uses the fast tokenizer's decode stream."),
        ("[Benchmark] Add random multimodal dataset to vllm bench serve", ""),
        ("[Perf] Fix TTFT regression from the input processor",
         "The input processor deep-copied the sampling params of every request (regressed in #{ref})."),
        ("[Perf] Avoid CPU sync in the sampler", "`.item()` on the max logprob forced a device sync per step."),
        ("[Perf] Overlap prepare_inputs with model forward",
         "Inputs for step N+1 are prepared on the CPU while step N runs."),
        ("[Perf] Faster {kernel} for {model_short} on {gpu}", ""),
        ("[Benchmark] Add a {kv_connector} P/D benchmark script", ""),
    ],
    "stability": [
        ("[Bugfix] Fix deadlock in shared memory broadcast",
         "A reader could miss the writer's flag flip and wait forever when the ring buffer wrapped."),
        ("[Bugfix] Fix hang when a request is aborted during prefill",
         "The abort removed the request from the scheduler but not from the running batch's input batch."),
        ("[Bugfix] Fix NaN in top-p sampler with temperature=0",
         "Greedy requests in a mixed batch divided by zero temperature before the top-p mask."),
        ("[Bugfix] Fix illegal memory access in {kernel} for large batch",
         "An int32 offset overflowed for batch x hidden > 2^31."),
        ("[Bugfix] Fix accuracy regression in {model_short} since {version}",
         "The rope cache was built in BF16 instead of FP32 after #{ref}."),
        ("[Bugfix] Fix OOM in CUDA graph capture for {moe_model}",
         "The MoE workspace was allocated per captured size instead of once for the largest."),
        ("[Bugfix] Fix engine crash on malformed tool call",
         "An exception in the tool parser killed the output processor instead of failing the request."),
    ],
    "misc": [
        ("[Misc] Validate {arg} at startup",
         "An invalid value only failed deep inside the engine with an unhelpful traceback; it is now checked when "
         "the config is built, with a message that says what is allowed."),
        ("[Misc] Deprecate {env_var} in favor of a config option",
         "Environment variables are invisible in `vllm serve --help` and in the config dump; the setting is now an "
         "engine option and the variable logs a deprecation warning for two releases."),
        ("[Bugfix] Fix {arg} being ignored when set from a config file",
         "Values from `--config` were merged after the CLI defaults had been resolved, so this one never reached "
         "the engine."),
        ("[Misc] Add {metric} to the Prometheus metrics",
         "Requested in #{ref}: operators want it for autoscaling. Exported per model name and engine index."),
        ("[Refactor] Split {module} into smaller modules",
         "The file has grown past 2,000 lines and mixes unrelated concerns; no behaviour change."),
        ("[Misc] Log the effective {config_field} at startup",
         "The value is adjusted from the user's setting in several places (platform defaults, memory profiling); "
         "logging the final one saves a lot of back-and-forth in bug reports."),
        ("[Bugfix] Fix {sampling} with mixed batches",
         "The per-request parameter tensor was built for the unpadded batch and misaligned when greedy and sampled "
         "requests were mixed."),
        ("[Misc] Bump the minimum {dep} version",
         "We rely on an API added in the newer release; older versions now fail at import with a clear message."),
        ("[Misc] Remove unused code in {module}", ""),
        ("[Refactor] Move sampling params validation to the input processor", ""),
        ("[Core] Clean up engine core output handling", ""),
        ("[Misc] Improve the error message when --max-model-len is too large",
         "The error now says how many KV cache tokens fit and suggests `--max-model-len` or "
         "`--gpu-memory-utilization`."),
        ("[Misc] Add a command line option to disable the usage stats", ""),
        ("[Misc] Fix relationship between max_num_seqs and cudagraph sizes in logs", ""),
        ("[Chore] Rename VLLM_USE_V1 leftovers", ""),
        ("[Misc] Update {dep_pin}", ""),
        ("[Core] Support sleep mode level 2",
         "Level 2 discards the weights as well as the KV cache, for RL loops that reload new weights."),
        ("[Misc] Add type hints to {module}", ""),
        ("[Bugfix] Fix special tokens being dropped in the detokenizer", ""),
        ("[Misc] Log an efficient warmup summary", ""),
        ("[Misc] Make DPO reward models work with the pooling runner", ""),
        ("[Bugfix] Handle array-valued stop tokens", ""),
        ("[LoRA] Support LoRA for {model_short}",
         "The model's fused projections now declare their packed modules so LoRA adapters can target them."),
        ("[Misc] Shipping lighter wheels by stripping debug info", ""),
        ("[Core] Step-level timing in the engine core loop", ""),
        ("[Bugfix] Fix prompt_logprobs with n > 1", ""),
        ("[Misc] Move {module} helpers into vllm/utils", ""),
        ("[Misc] Deprecate the --{feature_flag} flag", ""),
        ("[Bugfix] Fix {chat_api} returning 500 for {model_short} with n > 1", ""),
        ("[Misc] Clarify the warning when {dep} is older than required", ""),
    ],
    "usage": [],
}

# Purposes for PRs whose template has none, by what the title says the PR is. They give the why.
GENERIC_PURPOSES: dict[str, list[str]] = {
    "new_model": [
        "The model was released last week and several users asked for it (#{ref}). It needs its own attention "
        "layout and processor; the MoE and MLP layers reuse ours, so FP8 and LoRA work out of the box. Model card "
        "and the reference implementation are linked in the docs entry.",
    ],
    "model": [
        "Adds the architecture with its config, weight loading and a registry entry; attention and MLP reuse the "
        "shared layers, so quantized checkpoints and LoRA work out of the box.",
        "The architecture differs from the closest supported one in its rope variant and the layout of its "
        "fused QKV weights; the rest reuses our shared layers.",
    ],
    "cleanup": [
        "Found while reading the code for #{ref}: nothing calls it any more.",
        "Dead since #{ref}; removing it keeps the hot path easier to read.",
        "It was kept for V0 compatibility, which no longer exists.",
    ],
    "refactor": [
        "The same logic was copied across several model files and the copies had started to diverge (#{ref} fixed "
        "one of them only). No behaviour change.",
        "Preparation for #{ref}: this keeps that PR small. No functional change.",
    ],
    "docs": ["Several users asked about this on Slack and in #{ref}.",
             "The old text described behaviour from before #{ref}."],
    "ci": ["The step has been red on main since #{ref} and blocks unrelated PRs.", "Keeps CI time down; see #{ref}."],
    "deps": ["Needed for #{ref}.", "Picks up an upstream fix for a crash seen in #{ref}."],
    "typo": [""],
    "other": [
        "Reported in #{ref}.",
        "Small change found while working on #{ref}.",
        "Requested by @{maint} in the review of #{ref}.",
    ],
}

# Each day's showcase of key changes that ranking must get right (docs/editorial.md, "Key changes"): an internal
# removal that is not a breaking change, a refactor across four model families, a speed-up that quotes a figure,
# and a big new-model PR still in review. (title, size kind, purpose); the first day takes the first of each.
SHOWCASE: dict[str, list[tuple[str, str, str]]] = {
    "cleanup": [
        ("[Refactor] Remove useless syncwarp", "cleanup",
         "The `__syncwarp()` after the warp reduction is redundant: the shuffle already synchronises the lanes."),
        ("[Refactor] Remove unused helper in {module}", "cleanup", "Nothing calls it since #{ref}."),
        ("[Misc] Remove redundant contiguous() calls in the sampler", "cleanup",
         "The logits are already contiguous there; the copies showed up in the profile at large batch."),
        ("[Refactor] Remove dead code in the attention backends", "cleanup",
         "Leftovers of the V0 metadata builders; no backend uses them."),
        ("[Refactor] Remove useless syncwarp in {kernel}", "cleanup",
         "Same as #{ref} for this kernel: the shuffle reduction already synchronises the warp."),
    ],
    "wide": [
        ("[Refactor] Unify rotary embedding across Llama, Qwen, DeepSeek and Gemma models", "wide_refactor",
         "Each family had its own rope helper with small differences (scaling, partial rotary, neox style). One "
         "`get_rope` with explicit parameters replaces them, so the fused rope kernels apply everywhere."),
        ("[Refactor] Share the MoE router between DeepSeek, Qwen, GLM and Kimi models", "wide_refactor",
         "Four copies of the routing code (softmax/sigmoid scoring, grouped top-k, correction bias) become one "
         "router; the quantized MoE methods no longer need per-model special cases."),
        ("[Refactor] Move Llama, Mistral, Qwen and Gemma decoder layers onto one base class", "wide_refactor",
         "The decoder layers differed only in their norms and MLP; a shared base class removes ~1,500 duplicated "
         "lines and makes PP/LoRA support uniform."),
        ("[Refactor] Consolidate weight loading for Qwen, Llama, GLM and MiniMax models", "wide_refactor",
         "The stacked-parameter mapping was copied in each model; `AutoWeightsLoader` with a per-model mapping "
         "replaces the copies."),
    ],
    "perf": [
        ("[Perf] Fused MoE routing: 1.8x faster decode for DeepSeek-V3 on H200", "perf",
         "The grouped top-k routing ran as five small kernels per layer. Fusing scoring, group selection and top-k "
         "into one kernel removes most of the launch overhead at decode batch sizes."),
        ("[Perf] Overlap detokenization with the forward pass: 30% lower TTFT", "perf",
         "Detokenization ran in the engine loop between steps. It now runs in the output processor thread while "
         "the next forward pass is on the GPU."),
        ("[Perf][Kernel] 2.1x faster top-k/top-p sampler", "perf",
         "The sampler sorted the whole vocabulary for top-p. A radix-select for top-k followed by top-p on the "
         "k survivors avoids the full sort."),
        ("[Perf] Cut KV cache memory usage by 25% with block compaction", "perf",
         "Partially filled blocks of finished prefixes kept their whole block. Compacting the tail blocks when a "
         "request finishes frees them for the prefix cache."),
        ("[Perf] 1.5x faster prefix-cache hashing", "perf",
         "Block hashes were computed in Python per block; hashing a request's blocks in one batched call to the "
         "C extension removes the per-block overhead."),
    ],
    "model": [
        ("[Model] Add support for {awaited_model}", "new_model", ""),
        ("[Model][Multimodal] Support {awaited_vlm} with video input", "new_model", ""),
        ("[New Model] {awaited_model} support", "new_model", ""),
    ],
}

# AMD Quark quantization PRs whose titles do not name the vendor or ROCm.
QUARK_TITLES = [
    ("[Quantization] Support Quark MXFP4 W4A4 checkpoints for {model}",
     "Quark exports MXFP4 weights and activations with E8M0 block scales; the loader now maps them to the "
     "MXFP4 linear and MoE methods (native on gfx950)."),
    ("[Quantization] Load Quark FP8 per-channel scales for {model}",
     "Quark stores per-channel weight scales as a 1-D tensor per output channel; they were broadcast as a "
     "per-tensor scale."),
    ("[Bugfix] Fix Quark W8A8 INT8 weight loading with TP={tp}",
     "The input scales of row-parallel layers were sharded like the weights, but they are per-tensor."),
    ("[Quantization] Quark: dynamic MXFP4 activations for {model}",
     "Adds dynamic per-block MXFP4 activation quantization, so W4A4 checkpoints do not need calibrated "
     "activation scales."),
]
QUARK_MODELS = ["DeepSeek-R1", "Llama-3.1-405B-FP8", "Qwen3-235B-A22B", "gpt-oss-120b", "Llama-3.3-70B-Instruct",
                "Kimi-K2", "MiniMax-M2"]

# --------------------------------------------------------------------------------------------------------
# Issues: (template, title, first sentence or "", failure kind or "", title of the PR that fixes it or "").

ISSUES: dict[str, list[tuple[str, str, str, str, str]]] = {
    "rocm": [
        ("Bug", "HIP error: invalid device function on {gfx} with {model_short}",
         "Running `{model}` on {amd_gpu} fails during warmup with `HIP error: invalid device function`.", "hip",
         "[ROCm][Bugfix] Build the custom ops for {gfx} in the ROCm wheel"),
        ("Bug", "AITER MLA produces garbage output for {mla_model} on {amd_gpu}",
         "With `VLLM_ROCM_USE_AITER=1`, {mla_model} on {tp}x{amd_gpu} returns garbage tokens after ~200 tokens.",
         "wrong", "[ROCm][Bugfix] Fix AITER MLA decode for long contexts on {gfx}"),
        ("Bug", "ROCm {rocm_ver} docker image crashes at startup on {amd_gpu}", "", "memfault",
         "[ROCm][Bugfix] Fix startup crash of the ROCm {rocm_ver} image on {amd_gpu}"),
        ("Feature", "Support FP8 KV cache on RDNA4 (gfx1201)", "", "", ""),
        ("Performance", "{moe_model} decode throughput on {amd_gpu} is 40% lower than on H200", "", "regression",
         "[ROCm][Perf] Use AITER fused MoE for {moe_model} on {gfx}"),
        ("Installation", "Building from source fails on ROCm {rocm_ver} with hipcc error", "", "build",
         "[ROCm][Build] Fix the source build with ROCm {rocm_ver}"),
        ("Usage", "How to enable AITER kernels on {amd_gpu}?", "", "", ""),
        ("Bug", "AMD MI300X: TP={tp} hangs during RCCL init", "", "hang",
         "[ROCm][Bugfix] Fix RCCL init hang with TP={tp} on MI300X"),
        ("Bug", "Memory access fault on {amd_gpu} with {quant} {model_short}", "", "memfault",
         "[ROCm][Bugfix] Fix {quant} GEMM out-of-bounds read on {gfx}"),
        ("Bug", "AITER FA backend gives wrong output with prefix caching on {amd_gpu}", "", "wrong",
         "[ROCm][Bugfix] Fix AITER FA with cached prefixes"),
        ("Performance", "TTFT on {amd_gpu} regressed after enabling AITER unified attention", "", "regression", ""),
        ("Feature", "Support MXFP4 gpt-oss on MI300X (gfx942)", "", "", ""),
        ("Usage", "Which docker image should I use for {amd_gpu} with ROCm {rocm_ver}?", "", "", ""),
        ("Bug", "Quark FP8 {model_short} fails to load on {amd_gpu}: KeyError weight_scale", "", "error",
         "[Quantization][ROCm] Fix Quark FP8 scale loading for {model_short}"),
    ],
    "cuda": [
        ("Bug", "CUDA error: an illegal memory access was encountered on {nv_gpu} with {model_short}", "", "illegal",
         "[Bugfix] Fix illegal memory access with {attn_backend} on {sm}"),
        ("Bug", "No kernel image is available for RTX 5090 (sm_120)",
         "Serving on an RTX 5090 fails right after model loading: `no kernel image is available for execution on "
         "the device`.", "noimage", "[CI/Build] Build the release wheels for SM120"),
        ("Feature", "Support NVFP4 MoE on GB200", "", "", ""),
        ("Performance", "B200 slower than H200 for {moe_model} at TP=8", "", "regression",
         "[Perf][NVIDIA] Use FlashInfer TRTLLM-gen MoE for {moe_model} on Blackwell"),
        ("Installation", "vllm wheel built against CUDA {cuda_ver} fails with NVIDIA driver 535", "", "build", ""),
        ("Usage", "Which attention backend should I use on Blackwell (B200)?", "", "", ""),
        ("Bug", "FlashInfer JIT compile fails on {nv_gpu} with CUDA {cuda_ver}", "", "error",
         "[Bugfix] Pin flashinfer-python for CUDA {cuda_ver}"),
        ("Bug", "CUTLASS MLA produces NaN for {mla_model} on B200", "", "nan",
         "[Bugfix] Fix CUTLASS MLA NaN with partially filled pages"),
        ("Performance", "{moe_model} on {nv_gpu}: DeepGEMM slower than Triton at small batch", "", "regression", ""),
        ("Bug", "no kernel image is available for execution on B300 (sm_103)", "", "noimage",
         "[NVIDIA] Add B300 (SM103) to the kernel arch lists"),
    ],
    "hardware": [
        ("Bug", "vllm serve crashes on CPU backend with {small_model}: Illegal instruction", "", "sigill",
         "[CPU][Bugfix] Fall back to AVX2 kernels when AVX512 is not available"),
        ("Usage", "Can I run vLLM on Apple Silicon (ARM) CPU?", "", "", ""),
        ("Bug", "TPU v5e: model load fails with XLA compilation error", "", "xla",
         "[TPU][Bugfix] Fix XLA compilation of the sampler on v5e"),
        ("Feature", "XPU support for MoE models", "", "", ""),
        ("Installation", "pip install vllm on aarch64 (GH200) pulls the x86 wheel", "", "build", ""),
        ("Bug", "Gaudi HPU graph compilation stuck for Llama-3.1-70B", "", "hang", ""),
        ("Usage", "How to run on AWS Neuron (Inferentia2)?", "", "", ""),
        ("Performance", "CPU backend throughput on {cpu_arch} is much lower than expected", "", "regression", ""),
        ("Bug", "XPU: {model_short} outputs garbage on {xpu_gpu}", "", "wrong",
         "[XPU][Bugfix] Fix rotary embedding on {xpu_gpu}"),
        ("Bug", "TPU v6e: RESOURCE_EXHAUSTED when serving {model_short} with max-model-len 32k", "", "xla", ""),
        ("Installation", "Building vLLM for XPU fails with oneAPI {xpu_ver}", "", "build", ""),
    ],
    "quantization": [
        ("Bug", "{model_short} AWQ produces empty output on {gpu}", "", "wrong",
         "[Bugfix] Fix AWQ zero points for {model_short}"),
        ("Feature", "Support NVFP4 on Hopper via emulation", "", "", ""),
        ("Bug", "GPTQ 4-bit model load fails: KeyError 'qweight'", "", "error",
         "[Bugfix] Fix GPTQ checkpoint loading with packed modules"),
        ("Usage", "FP8 KV cache scales for {model_short}?", "", "", ""),
        ("Bug", "INT8 quantized {model_short} shows accuracy drop on GSM8K", "", "accuracy",
         "[Quantization][Bugfix] Fix INT8 activation scales for {model_short}"),
        ("Feature", "bitsandbytes 8-bit support for MoE models", "", "", ""),
        ("Bug", "MXFP4 gpt-oss-120b fails on {gpu}: unsupported quantization", "", "error", ""),
        ("Bug", "NVFP4 {moe_model} on {gpu} gives gibberish with TP={tp}", "", "wrong",
         "[Bugfix] Fix NVFP4 global scale sharding with TP"),
        ("Bug", "FP8 {model_short} accuracy drop on {gpu} since {version}", "", "accuracy",
         "[Bugfix] Fix FP8 per-channel scales after the linear refactor"),
    ],
    "moe": [
        ("Bug", "Expert parallel (EP) hangs with DP={dp} on {moe_model}", "", "hang",
         "[Bugfix][MoE] Fix EP dummy batch with idle DP ranks"),
        ("Feature", "Support LoRA on fused_moe layers", "", "", ""),
        ("Performance", "MoE decode latency regression in {version}", "", "regression",
         "[Perf][MoE] Restore the tuned fused_moe configs lost in the refactor"),
        ("Usage", "How to enable expert parallel for {moe_model} on 2 nodes?", "", "", ""),
        ("Bug", "{moe_model} with EPLB crashes after rebalancing", "", "crash",
         "[Bugfix] Fix EPLB weight swap with CUDA graphs"),
    ],
    "spec": [
        ("Bug", "EAGLE3 acceptance rate drops to 0 with {model_short}", "", "wrong",
         "[Bugfix][Spec Decode] Fix EAGLE-3 aux hidden states for {model_short}"),
        ("Feature", "Support draft model speculative decoding in V1", "", "", ""),
        ("Bug", "MTP with {mtp_model} gives wrong output when num_speculative_tokens > 1", "", "wrong",
         "[Bugfix][Spec Decode] Fix MTP positions for num_speculative_tokens > 1"),
        ("Performance", "n-gram speculative decoding slower than baseline at high QPS", "", "regression", ""),
    ],
    "multimodal": [
        ("Bug", "{vlm} fails with {mm_input}", "", "error", "[Bugfix] Fix {vlm} processor with {mm_input}"),
        ("Feature", "Support `{mm_arg}` for {vlm}", "", "", ""),
        ("Bug", "{vlm} fails with multiple images per prompt", "", "error",
         "[Bugfix] Fix multi-image placeholders for {vlm}"),
        ("Feature", "Support audio in chat completions for Qwen2.5-Omni", "", "", ""),
        ("Bug", "Video input OOM for {vlm}", "", "oom", "[Multimodal] Cap video frames by the encoder budget"),
        ("Usage", "How to pass image embeddings to a VLM directly?", "", "", ""),
        ("Bug", "Qwen2.5-VL returns different output for the same image across runs", "", "wrong", ""),
        ("Bug", "{vlm} image inputs crash with chunked prefill", "", "crash",
         "[Bugfix] Fix encoder cache with chunked prefill for {vlm}"),
    ],
    "models": [
        ("Bug", "{model_short} chat template drops the system prompt", "", "wrong",
         "[Bugfix] Fix {model_short} chat template handling of system prompts"),
        ("Feature", "Support {model_short} with {quant}", "", "", ""),
        ("Bug", "{model_short}: wrong output beyond {ctx} tokens", "", "wrong",
         "[Bugfix] Fix rope scaling for {model_short} beyond {ctx} tokens"),
        ("New Model", "{new_model}", "", "", ""),
        ("New Model", "Support {new_model}", "", "", ""),
        ("Bug", "gpt-oss-120b returns empty content with the reasoning parser", "", "wrong",
         "[Bugfix][gpt-oss] Fix empty final channel in the harmony parser"),
        ("Bug", "Llama-3.1-8B-Instruct outputs repeated tokens after 1k tokens", "", "wrong", ""),
        ("Usage", "How to run DeepSeek-V3 on 2 nodes?", "", "", ""),
        ("Bug", "Kimi-K2 tool call ids are not unique", "", "error", "[Bugfix] Make Kimi-K2 tool call ids unique"),
        ("Feature", "Support Mistral tokenizer mode for Magistral", "", "", ""),
        ("Bug", "GLM-4.5-Air fails to load with transformers 4.57.3", "", "error",
         "[Bugfix] Fix GLM-4.5 config loading with transformers 4.57"),
        ("Bug", "{model_short} fails to load: unexpected key in state dict", "", "error",
         "[Bugfix] Fix weight loading for {model_short}"),
    ],
    "kernels": [
        ("Bug", "FlashInfer JIT compile fails for head dim 80", "", "error", ""),
        ("Feature", "FlashAttention 3 on Ampere?", "", "", ""),
        ("Bug", "MLA backend NaN with FP8 KV cache on {gpu}", "", "nan",
         "[Bugfix] Fix MLA FP8 KV cache scale for {mla_model}"),
        ("Performance", "Triton attention backend slower than FlashAttention on {nv_gpu}", "", "regression", ""),
    ],
    "compile": [
        ("Bug", "torch.compile recompiles on every request with {model_short}", "", "regression",
         "[torch.compile] Mark the batch dimension dynamic for {model_short}"),
        ("Bug", "CUDA graph capture OOM for {model_short} on {gpu}", "", "oom",
         "[Bugfix] Fix workspace allocation during CUDA graph capture"),
        ("Performance", "Startup takes 5 minutes because of torch.compile", "", "regression", ""),
        ("Feature", "Allow disabling cudagraph for specific batch sizes", "", "", ""),
    ],
    "distributed": [
        ("Bug", "{kv_connector} transfer fails with TP={tp} on the decode side", "", "error",
         "[Bugfix] Fix {kv_connector} with TP={tp}"),
        ("Bug", "Tensor parallel TP=8 hangs on Ray cluster", "", "hang",
         "[Bugfix] Fix Ray placement group on mixed nodes"),
        ("Bug", "Pipeline parallel PP=2 produces wrong output for {model_short}", "", "wrong",
         "[Bugfix] Fix PP intermediate tensors for {model_short}"),
        ("Usage", "How to do disaggregated prefill with NIXL across nodes?", "", "", ""),
        ("Feature", "KV cache offloading to CPU in V1", "", "", ""),
        ("RFC", "Unified KV connector API for P/D disaggregation", "", "", ""),
        ("Bug", "DP={dp} with EP: NCCL timeout after 10 minutes", "", "hang",
         "[Bugfix] Fix DP coordinator wave sync with idle ranks"),
        ("Bug", "{kv_connector} connector crashes when the decode instance restarts", "", "crash",
         "[Bugfix][P/D] Handle a restarted decode instance in {kv_connector}"),
    ],
    "frontend": [
        ("Bug", "`{param}` is ignored in {chat_api}", "", "wrong",
         "[Frontend][Bugfix] Honour `{param}` in {chat_api}"),
        ("Feature", "Support `{param}` in {chat_api}", "", "", ""),
        ("Bug", "{tool_parser} tool parser fails with nested JSON arguments", "", "wrong",
         "[Frontend][Bugfix] Fix nested arguments in the {tool_parser} tool parser"),
        ("Bug", "Tool calling with {tool_parser} parser returns invalid JSON", "", "wrong",
         "[Frontend][Bugfix] Fix streamed arguments in the {tool_parser} tool parser"),
        ("Feature", "Support Responses API for non gpt-oss models", "", "", ""),
        ("Bug", "Structured output (xgrammar) ignores enum in the schema", "", "wrong",
         "[Bugfix] Fix enum handling in the xgrammar schema conversion"),
        ("Usage", "How to use guided decoding via the OpenAI client?", "", "", ""),
        ("Bug", "Chat completions stream never finishes when the client disconnects", "", "hang",
         "[Frontend][Bugfix] Abort the request when the stream client disconnects"),
        ("Feature", "Support `parallel_tool_calls=false` in chat completions", "", "", ""),
        ("Bug", "reasoning_content is null with {reasoning_model} reasoning parser", "", "wrong",
         "[Bugfix] Fix the reasoning parser for {reasoning_model} when the think tag is in the prompt"),
    ],
    "scheduler": [
        ("Bug", "Prefix cache hit rate drops to 0 with {feature}", "", "regression",
         "[Core][Bugfix] Fix prefix caching hit rate with {feature}"),
        ("Bug", "Prefix caching returns wrong output with LoRA", "", "wrong",
         "[Core][Bugfix] Include the LoRA id in the prefix-cache block hash"),
        ("Bug", "Requests preempted forever, scheduler stuck at 100% KV cache usage", "", "hang",
         "[Core][Bugfix] Fix starvation of preempted requests"),
        ("Feature", "Priority scheduling in V1", "", "", ""),
        ("Performance", "Chunked prefill hurts TTFT for long prompts", "", "regression", ""),
        ("Usage", "What does 'GPU KV cache usage' in the log mean?", "", "", ""),
    ],
    "ci": [
        ("CI Failure", "{ci_job} failing on main", "", "ci", "[CI] Fix the {ci_job} job"),
        ("CI Failure", "{test_area} tests failing on main", "", "ci", "[CI][Bugfix] Fix {test_area} tests on main"),
        ("Installation", "Docker image vllm/vllm-openai:{version} is missing flashinfer", "", "build", ""),
        ("Installation", "Wheel build from source fails with CMake error", "", "build", ""),
        ("CI Failure", "{test_area} test is flaky on L4", "", "ci", "[CI] Deflake the {test_area} test"),
    ],
    "docs": [
        ("Doc", "The {docs_page} page is out of date for {version}", "", "", ""),
        ("Doc", "{arg} is not documented", "", "", ""),
        ("Doc", "Missing documentation for --kv-transfer-config", "", "", ""),
        ("Doc", "Broken link in the Quickstart", "", "", ""),
        ("Doc", "Docs for sleep mode are outdated", "", "", ""),
        ("Doc", "The {feature} page does not mention {version} changes", "", "", ""),
        ("Doc", "No deployment example for {model_short} on {gpu}", "", "", ""),
    ],
    "performance": [
        ("Performance", "Throughput regression after upgrading to {version}", "", "regression",
         "[Perf] Fix the sampler slowdown introduced in {version}"),
        ("Performance", "High TTFT with long prompts on {gpu}", "", "regression", ""),
        ("Performance", "Latency spikes every few minutes under steady load", "", "regression", ""),
        ("Performance", "Benchmark: {model_short} throughput lower than SGLang on {gpu}", "", "regression", ""),
    ],
    "misc": [
        ("Feature", "Expose {metric} in the metrics endpoint", "", "", ""),
        ("Feature", "Make {env_var} a command line argument", "", "", ""),
        ("Usage", "What does {arg} do exactly?", "", "", ""),
        ("Usage", "vLLM vs ollama for local serving?", "", "", ""),
        ("Misc", "Release schedule for {version}?", "", "", ""),
        ("Feature", "Expose a command line flag for the prompt-cache salt", "", "", ""),
        ("Usage", "How to set up a DPO-trained reward model with the pooling API?", "", "", ""),
        ("Feature", "Support `n` > 1 with beam search", "", "", ""),
        ("Usage", "Why does the output differ from transformers?", "", "", ""),
    ],
    "usage": [
        ("Usage", "How to set {arg} for {model_short}?", "", "", ""),
        ("Usage", "What is the right {config_field} for {model_short} on {gpu}?", "", "", ""),
        ("Usage", "How to run {model_short} with {quant} on {gpu}?", "", "", ""),
        ("Usage", "Can {model_short} use {feature} together with {spec}?", "", "", ""),
        ("Usage", "How to serve {model_short} with {n_gpu} GPUs?", "", "", ""),
        ("Usage", "How to limit GPU memory usage for {model_short}?", "", "", ""),
        ("Usage", "How do I pass a custom chat template to vllm serve?", "", "", ""),
        ("Usage", "How to use LoRA adapters with the OpenAI server?", "", "", ""),
        ("Usage", "Running {model_short} on {gpu} with the max context length", "", "", ""),
        ("Usage", "Is there a way to get token usage with stream=True?", "", "", ""),
        ("Usage", "Best settings for {model_short} on {n_gpu}x{gpu}?", "", "", ""),
        ("Usage", "How to enable {feature} for {model_short}?", "", "", ""),
    ],
}

# Stability bug reports by failure family, so each day gets hangs, crashes, regressions and wrong output.
STABILITY: dict[str, list[tuple[str, str, str, str, str]]] = {
    "hang": [
        ("Bug", "vLLM hangs at 'Loading safetensors checkpoint shards' with TP={tp} on {gpu}",
         "With `--tensor-parallel-size {tp}` on {gpu}, the server hangs forever right after 'Loading safetensors "
         "checkpoint shards' reaches 100%.", "hang", "[Bugfix] Fix a TP barrier after weight loading"),
        ("Bug", "Server hangs after {n_req} requests with {model_short}",
         "After serving {n_req} requests, the server stops producing tokens; GPU utilization drops to 0 and new "
         "requests just wait.", "hang", "[Bugfix] Fix a stuck output queue after client disconnects"),
        ("Bug", "Engine stuck at 'Capturing CUDA graphs' for {model_short}", "", "hang",
         "[Bugfix] Fix CUDA graph capture deadlock for {model_short}"),
        ("Bug", "Deadlock when aborting streaming requests with {feature} enabled", "", "deadlock",
         "[Bugfix] Fix deadlock on abort with {feature}"),
        ("Bug", "Process hangs on exit after offline inference with {model_short}", "", "hang",
         "[Bugfix] Shut down the engine core cleanly in LLM.__del__"),
        ("Bug", "{moe_model} with DP={dp} gets stuck: 'No available shared memory broadcast block found'", "",
         "hang", "[Bugfix] Fix shm broadcast stall with DP"),
        ("Bug", "TP={tp} on {amd_gpu} hangs in the first all-reduce", "", "hang",
         "[ROCm][Bugfix] Fix custom all-reduce hang on {amd_gpu}"),
    ],
    "crash": [
        ("Bug", "Engine core crashes under high concurrency with {model_short}",
         "Under ~200 concurrent requests the engine core process dies and the API server returns 500 for "
         "everything afterwards.", "crash", "[Bugfix] Fix engine core crash when a batch is empty after preemption"),
        ("Bug", "EngineDeadError with {model_short} on {version}", "", "crash",
         "[Bugfix] Fix EngineDeadError with {model_short}"),
        ("Bug", "Segfault in the tokenizer when serving {model_short}", "", "segfault",
         "[Bugfix] Fix concurrent access to the fast tokenizer"),
        ("Bug", "CUDA error: an illegal memory access was encountered with {attn_backend}", "", "illegal",
         "[Bugfix] Fix {attn_backend} metadata for padded batches"),
        ("Bug", "OOM when loading {model_short} on {n_gpu}x{gpu} despite gpu-memory-utilization 0.9", "", "oom",
         "[Bugfix] Account for the sampler workspace in memory profiling"),
        ("Bug", "torch.OutOfMemoryError: CUDA out of memory during CUDA graph capture for {moe_model} on {nv_gpu}",
         "", "oom", "[Bugfix] Fix OOM in CUDA graph capture for {moe_model}"),
        ("Bug", "HIP out of memory at startup with {model_short} on {amd_gpu}", "", "oom",
         "[ROCm][Bugfix] Account for the AITER workspace in memory profiling"),
        ("Bug", "Server crashes with device-side assert triggered when using {feature}", "", "crash", ""),
        ("Bug", "Memory access fault by GPU on {amd_gpu} with {model_short}", "", "memfault",
         "[ROCm][Bugfix] Fix out-of-bounds KV read on {gfx}"),
    ],
    "regression": [
        ("Bug", "Regression in {version}: TTFT doubled for {model_short}", "", "regression",
         "[Perf] Fix the TTFT regression in {version}"),
        ("Bug", "Throughput regression after upgrading from {version_old} to {version}", "", "regression",
         "[Perf] Restore the default max_num_batched_tokens"),
        ("Bug", "{model_short} fails to load since {version} (regression from {version_old})", "", "error",
         "[Bugfix] Fix loading of {model_short} after the config refactor"),
        ("Performance", "Performance regression with the {attn_backend} backend on {gpu}", "", "regression",
         "[Perf] Fix the {attn_backend} decode regression on {gpu}"),
    ],
    "wrong": [
        ("Bug", "Wrong output / gibberish from {model_short} since {version}",
         "Since upgrading to {version}, {model_short} answers with gibberish for roughly one request in ten; "
         "{version_old} was fine with the same command.", "wrong", "[Bugfix] Fix gibberish output for {model_short}"),
        ("Bug", "Accuracy drop on GSM8K for {model_short} with {quant}", "", "accuracy",
         "[Quantization][Bugfix] Fix {quant} accuracy for {model_short}"),
        ("Bug", "NaN logits with {quant} {model_short} on {amd_gpu}", "", "nan",
         "[ROCm][Bugfix] Fix {quant} NaN on {gfx}"),
        ("Bug", "{model_short} outputs repeated '!!!!!!' with prefix caching enabled", "", "wrong",
         "[Core][Bugfix] Fix stale blocks after prefix-cache eviction"),
        ("Bug", "Incorrect output with chunked prefill and {spec}", "", "wrong",
         "[Bugfix][Spec Decode] Fix {spec} with chunked prefill"),
        ("Bug", "Batch invariance broken: different output with batch size 1 vs 32 for {model_short}", "", "wrong",
         ""),
    ],
}
# Reports worded as people write them, with no failure word a template would prompt (no daily family of their
# own): repeated output, null output, a failure with one configuration, a question that is a hang.
STABILITY_EXTRA = [
    ("Bug", "Frequent repetitive decoding in {model_short}", "", "wrong", ""),
    ("Bug", "{model_short} returns null content when hitting max_tokens", "", "wrong",
     "[Frontend][Bugfix] Return partial content when max_tokens is hit"),
    ("Bug", "{feature} fails with PP > 1", "", "error", ""),
    ("Bug", "Potential deadlock?", "", "deadlock", ""),
]
STABILITY_ORDER = ("hang", "crash", "regression", "wrong")
# Failures that only happen on one platform.
FAIL_PLATFORM = {"illegal": "nvidia", "noimage": "nvidia", "hip": "amd", "memfault": "amd", "xla": "tpu",
                 "sigill": "cpu"}

ISSUE_PREFIX = {
    "Bug": "[Bug]: ", "Feature": "[Feature]: ", "Usage": "[Usage]: ", "RFC": "[RFC]: ",
    "Performance": "[Performance]: ", "Installation": "[Installation]: ", "Doc": "[Doc]: ",
    "New Model": "[New Model]: ", "CI Failure": "[CI Failure]: ", "Misc": "[Misc]: ",
}
ISSUE_TEMPLATE_LABEL = {
    "Bug": "bug", "Feature": "feature request", "Usage": "usage", "RFC": "RFC", "Performance": "performance",
    "Installation": "installation", "Doc": "documentation", "New Model": "new-model", "CI Failure": "ci-failure",
}

# CJK, RTL and emoji items: (kind, title without prefix, first sentence, the stack they describe).
CJK_ISSUES: list[tuple[str, str, str, dict[str, str]]] = [
    ("Bug", "Qwen3-VL 在 MI300X 上推理时卡住",
     "在 MI300X 上用 vLLM 部署 Qwen3-VL-30B-A3B，发送带图片的请求后服务卡住，没有任何报错。",
     {"platform": "amd", "gpu": "MI300X", "model_name": "Qwen3-VL-30B-A3B"}),
    ("Usage", "如何在多卡上部署 DeepSeek-V3？",
     "我有 8 张 H200，想用 tensor parallel 部署 DeepSeek-V3，应该怎么设置参数？",
     {"platform": "nvidia", "gpu": "H200", "model_name": "DeepSeek-V3", "tp": "8"}),
    ("Bug", "使用 FP8 量化后 Qwen3-30B-A3B 输出乱码",
     "开启 `--quantization fp8` 之后，模型输出全是乱码，关闭后正常。",
     {"platform": "nvidia", "gpu": "L40S", "model_name": "Qwen3-30B-A3B", "quant": "FP8"}),
    ("Performance", "开启 prefix caching 后吞吐下降明显",
     "打开前缀缓存后吞吐反而下降了 30%，请问是否符合预期？", {"platform": "nvidia", "gpu": "H100"}),
    ("Feature", "希望支持 GLM-4.6 的 tool calling",
     "目前 GLM-4.6 的工具调用解析不完整，希望官方支持。", {"platform": "nvidia", "model_name": "GLM-4.6"}),
    ("Bug", "多机 PP=2 部署时 NCCL 超时崩溃",
     "两台机器各 8 卡，pipeline parallel 为 2 时启动约十分钟后 NCCL 超时，进程崩溃。",
     {"platform": "nvidia", "gpu": "H100", "tp": "8"}),
    ("Usage", "vllm serve 启动 Kimi-K2 时显存不足（OOM）怎么办",
     "8 卡 H20 启动 Kimi-K2 时报 CUDA out of memory，已经把 gpu-memory-utilization 调到 0.95。",
     {"platform": "nvidia", "gpu": "H20", "model_name": "Kimi-K2", "tp": "8"}),
    ("Bug", "Qwen2.5-VL 处理视频输入时报 CUDA error",
     "传入一段 3 分钟的视频后报 CUDA error: an illegal memory access。",
     {"platform": "nvidia", "gpu": "H100", "model_name": "Qwen2.5-VL-72B"}),
    ("Bug", "Gemma 3 で日本語の出力が文字化けする",
     "Gemma 3 27B で日本語のプロンプトを送ると、出力が文字化けします。",
     {"platform": "nvidia", "gpu": "L40S", "model_name": "Gemma-3-27B"}),
    ("Usage", "Llama 3.1 한국어 모델을 TPU에서 실행하는 방법",
     "TPU v5e에서 Llama 3.1 기반 한국어 모델을 서빙하고 싶습니다.",
     {"platform": "tpu", "gpu": "TPU v5e", "model_name": "Llama-3.1-8B-Instruct"}),
    ("Bug", "升级到 v0.11.2 后 DeepSeek-R1 推理卡死",
     "升级之后 DeepSeek-R1 在高并发下会卡死，降级到 v0.11.0 正常。",
     {"platform": "nvidia", "gpu": "H20", "model_name": "DeepSeek-R1", "version": "v0.11.2",
      "version_old": "v0.11.0"}),
    ("Bug", "升级后 gpt-oss-120b 工具调用返回格式错误",
     "使用 openai 解析器时，tool_calls 字段的 arguments 不是合法 JSON。",
     {"platform": "nvidia", "gpu": "H100", "model_name": "gpt-oss-120b"}),
    ("Bug", "MI308X 上 AITER MLA 跑 DeepSeek-V3 输出乱码",
     "在 8 卡 MI308X 上开启 `VLLM_ROCM_USE_AITER=1` 部署 DeepSeek-V3，长上下文时输出乱码。",
     {"platform": "amd", "gpu": "MI308X", "model_name": "DeepSeek-V3", "tp": "8"}),
]
RTL_ISSUES: list[tuple[str, str, str, dict[str, str]]] = [
    ("Usage", "كيف أشغّل Llama-3.1-8B على بطاقة AMD MI300X؟",
     "أحاول تشغيل النموذج على ROCm ولكن الخادم يتوقف عند التحميل.",
     {"platform": "amd", "gpu": "MI300X", "model_name": "Llama-3.1-8B-Instruct"}),
    ("Bug", "שגיאה בטעינת Gemma 3 עם FP8", "בעת טעינת המודל עם כימות FP8 מתקבלת שגיאת CUDA.",
     {"platform": "nvidia", "gpu": "H100", "model_name": "Gemma-3-27B", "quant": "FP8"}),
]
ADVERSARIAL_TITLES = [
    "[Bug]: @everyone vllm serve crashes when the prompt contains <!channel>",
    "[Frontend] Escape `<script>` tags in the chat template preview",
    "[Bug]: **URGENT** ||spoiler|| tokens leak into reasoning_content",
    "[Usage]: How to keep <@U123456> style mentions intact through the chat template?",
    "[Bug]: Output contains <script>alert(1)</script> when echo=True",
    "[Misc] Strip `@here` and <!here> from logged prompts",
]
ADVERSARIAL_PURPOSES = {
    "[Frontend] Escape `<script>` tags in the chat template preview":
        "The chat template preview rendered the template's output as HTML in the docs page.",
    "[Misc] Strip `@here` and <!here> from logged prompts":
        "Prompt logs are forwarded to a chat channel by some deployments, where these mentions notify everyone.",
}
ADVERSARIAL_BODY = (
    "@everyone <!channel> <@U123456> this breaks our Slack relay: **bold**, `code`, ||spoiler||, "
    "<script>alert('xss')</script> and [a link](javascript:alert(1)) all end up in the notification."
)
EMOJI = ["🚀", "🐛", "⚡", "🔥", "🎉", "✨", "🙏", "😢", "🤔", "👀", "🧪", "📝"]

# How contributors tell apart PRs and reports on the same subject (titles are kept unique).
PR_VARIANTS = (" [{n}/N]", " (part {n})", " (follow-up to #{ref})")
ISSUE_VARIANTS = (" on {version}", " ({version})", " after upgrading to {version}")

# --------------------------------------------------------------------------------------------------------
# Issue bodies: a bug report's context, symptom and expectation (not the title again).

BUG_CONTEXT = [
    "I'm serving `{model}` with `--tensor-parallel-size {tp}` on {tp}x{gpu} ({version}, the official docker image).",
    "Setup: {tp}x{gpu}, vLLM {version} installed with pip, `{model}`.",
    "We run `{model}` in production on {tp}x{gpu} with {version}.",
    "Environment is below; in short: {tp}x{gpu}, {version}, `{model}`.",
    "Running `{model}` on a {tp}x{gpu} node, vLLM {version}.",
]
BUG_SYMPTOM: dict[str, list[str]] = {
    "hang": [
        "The server starts and answers for a while, then stops producing tokens. GPU utilization stays at 100% on "
        "all ranks and the only log line is the shm_broadcast warning below.",
        "Under load every request eventually just waits; the engine core is alive but never finishes a step.",
    ],
    "deadlock": ["It happens when clients cancel streams; `py-spy dump` of the engine core while it is stuck:"],
    "crash": [
        "After a few minutes under load the engine core dies and every request afterwards returns 500.",
        "It crashes with ~200 concurrent requests; with 50 it runs fine for hours.",
    ],
    "illegal": [
        "It crashes within the first few hundred requests with an illegal memory access. With "
        "`CUDA_LAUNCH_BLOCKING=1` the trace points at the attention forward.",
        "Random crashes with an illegal memory access, usually when long and short prompts are batched together.",
    ],
    "noimage": ["The model loads fine, then the first forward pass fails."],
    "hip": ["It fails during the profiling run, before the server is up."],
    "memfault": [
        "The process dies with a GPU memory access fault; there is no Python traceback from the worker, only this:",
        "Startup gets through weight loading and graph capture, then the first request kills it:",
    ],
    "oom": [
        "Loading works, but the process runs out of memory during the profiling run / CUDA graph capture.",
        "It OOMs on startup even though the weights take well under half of the memory.",
    ],
    "segfault": ["The API server process segfaults after a while under load (tokenizer in the stack)."],
    "nan": ["Some requests fail in the sampler; the logits contain NaN for those sequences."],
    "wrong": [
        "Part of the outputs are gibberish; the same prompts are fine with transformers and with `--enforce-eager`.",
        "Outputs degrade after a few hundred tokens: repetition first, then random tokens.",
    ],
    "accuracy": ["GSM8K is several points lower than the BF16 model's:"],
    "regression": ["Same command, same benchmark, only the vLLM version changed:"],
    "error": ["The server fails while loading the weights."],
    "build": ["The build fails at the extension step."],
    "ci": ["The test fails consistently on main."],
    "xla": ["Compilation fails during the warmup."],
    "sigill": ["The process is killed right after start with 'Illegal instruction'."],
    "": ["Details and logs below."],
}
BUG_EXPECTED = [
    "It works with {version_old} and the same command.",
    "Works fine with `--enforce-eager`.",
    "Works with TP=1, fails with TP={tp}.",
    "",
    "",
]
FIRST_SENTENCES: dict[str, tuple[str, ...]] = {
    "Feature": (
        "We serve `{model}` on {tp}x{gpu} and this is the main thing keeping us on a local patch.",
        "This came up in #{ref} too. Happy to help test on {gpu}.",
        "It would simplify our deployment a lot; right now we work around it in a proxy in front of vLLM.",
    ),
    "Usage": (
        "I'm on {version} with {tp}x{gpu} and `{model}`. I've read the serving docs but couldn't find the right "
        "combination of flags.",
        "Setup: {tp}x{gpu}, {version}. What I tried is below.",
    ),
    "Performance": (
        "Measured with `vllm bench serve` on {tp}x{gpu}, `{model}`, random dataset, 1k in / 1k out, 512 prompts.",
    ),
    "Installation": ("Fresh environment, Python {py}.", "Following the installation docs for {version}."),
    "Doc": (
        "The page does not say which flags are needed, and its example no longer runs on {version}.",
        "Several people asked about this on Slack this week.",
    ),
    "New Model": (
        "It was released on Hugging Face last week and is trending; it is a new architecture (not a fine-tune of "
        "a supported model).",
    ),
    "RFC": ("Several features need the same extension point; this RFC proposes one before more copies appear.",),
    "CI Failure": ("It started failing on main in the last day and blocks unrelated PRs.",),
    "Misc": ("",),
}

REPRO: dict[str, list[str]] = {
    "nvidia": [
        "```bash\n{env_prefix}vllm serve {model} --tensor-parallel-size {tp} --max-model-len 32768 "
        "--gpu-memory-utilization 0.9{extra_flags}\n```",
        "```bash\ndocker run --gpus all --ipc=host -p 8000:8000 vllm/vllm-openai:{version} --model {model} "
        "--tensor-parallel-size {tp}{extra_flags}\n```",
        "```python\nfrom vllm import LLM, SamplingParams\n\nllm = LLM(model=\"{model}\", tensor_parallel_size={tp})\n"
        "outputs = llm.generate([\"Hello, my name is\"] * 256, SamplingParams(temperature=0.8, top_p=0.95))\n```",
    ],
    "amd": [
        "```bash\n{env_prefix}vllm serve {model} --tensor-parallel-size {tp} --max-model-len 32768{extra_flags}\n```",
        "```bash\ndocker run -it --device=/dev/kfd --device=/dev/dri --group-add video --ipc=host --shm-size 16G "
        "rocm/vllm:latest \\\n  vllm serve {model} -tp {tp}{extra_flags}\n```",
        "```python\nimport os\nos.environ[\"VLLM_ROCM_USE_AITER\"] = \"1\"\nfrom vllm import LLM, SamplingParams\n\n"
        "llm = LLM(model=\"{model}\", tensor_parallel_size={tp})\nprint(llm.generate([\"The capital of France is\"], "
        "SamplingParams(max_tokens=64)))\n```",
    ],
    "xpu": ["```bash\nvllm serve {model} --tensor-parallel-size {tp} --dtype bfloat16 --max-model-len 8192"
            "{extra_flags}\n```"],
    "tpu": ["```bash\nvllm serve {model} --tensor-parallel-size {tp} --max-model-len 8192 --max-num-seqs 128\n```"],
    "cpu": ["```bash\nVLLM_CPU_KVCACHE_SPACE=40 VLLM_CPU_OMP_THREADS_BIND=0-31 vllm serve {model} "
            "--dtype bfloat16\n```"],
    "hpu": ["```bash\nvllm serve {model} --tensor-parallel-size {tp} --max-model-len 8192\n```"],
}
CURL = ("```bash\ncurl http://localhost:8000/v1/chat/completions -H 'Content-Type: application/json' -d "
        "'{\"model\": \"{model}\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}'\n```")

# Where each attention backend lives (for tracebacks).
BACKEND_FILE = {
    "FLASH_ATTN": "flash_attn", "FLASHINFER": "flashinfer", "TRITON_ATTN": "triton_attn", "FLASHMLA": "mla/flashmla",
    "CUTLASS_MLA": "mla/cutlass_mla", "FLASHINFER_MLA": "mla/flashinfer_mla", "TRITON_MLA": "mla/triton_mla",
    "ROCM_AITER_FA": "rocm_aiter_fa", "ROCM_AITER_UNIFIED_ATTN": "rocm_aiter_unified_attn", "ROCM_ATTN": "rocm_attn",
    "ROCM_AITER_MLA": "mla/rocm_aiter_mla", "PALLAS": "pallas", "CPU_ATTN": "cpu_attn",
}
_SITE = "/usr/local/lib/python3.12/dist-packages/vllm"
_EC = "(EngineCore_DP0 pid=2187) ERROR 11-27 10:02:11 [core.py:710]"
LOGS: dict[str, str] = {
    "hang": (
        "(EngineCore_DP0 pid=2187) INFO 11-27 08:14:02 [gpu_model_runner.py:2602] Model loading took 15.2 GiB and "
        "41.9 seconds\n"
        "(EngineCore_DP0 pid=2187) WARNING 11-27 08:25:13 [shm_broadcast.py:466] No available shared memory "
        "broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some "
        "time-consuming work (e.g. compilation).\n"
        "(EngineCore_DP0 pid=2187) WARNING 11-27 08:26:13 [shm_broadcast.py:466] No available shared memory "
        "broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some "
        "time-consuming work (e.g. compilation)."
    ),
    "hang_collective": (
        "(Worker_TP3 pid=3391) INFO 11-27 08:14:02 [pynccl.py:103] vLLM is using nccl==2.27.5\n"
        "[rank3]:[E1127 08:24:05.118 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=8388608, NumelOut=8388608, Timeout(ms)=600000) ran "
        "for 600031 milliseconds before timing out.\n"
        "[rank3]:[E1127 08:24:05.120 ProcessGroupNCCL.cpp:2168] [PG ID 2 PG GUID 3 Rank 3] Process group watchdog "
        "thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout"
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
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480]   File \"" + _SITE + "/v1/engine/async_llm.py\", "
        "line 439, in output_handler\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480]     outputs = await engine_core.get_output_async()\n"
        "(APIServer pid=1) ERROR 11-27 10:02:11 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause."
    ),
    "illegal": (
        _EC + " EngineCore encountered a fatal error.\n"
        + _EC + " Traceback (most recent call last):\n"
        + _EC + "   File \"" + _SITE + "/v1/worker/gpu_model_runner.py\", line 2421, in execute_model\n"
        + _EC + "     model_output = self.model(\n"
        + _EC + "   File \"" + _SITE + "/v1/attention/backends/{backend_file}.py\", line 612, in forward\n"
        + _EC + "     output = self.impl.forward(\n"
        + _EC + " torch.AcceleratorError: CUDA error: an illegal memory access was encountered"
    ),
    "noimage": (
        "Traceback (most recent call last):\n"
        "  File \"" + _SITE + "/model_executor/layers/layernorm.py\", line 204, in forward_cuda\n"
        "    ops.fused_add_rms_norm(\n"
        "  File \"" + _SITE + "/_custom_ops.py\", line 341, in fused_add_rms_norm\n"
        "    torch.ops._C.fused_add_rms_norm(input, residual, weight, epsilon)\n"
        "torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device"
    ),
    "hip": (
        "Traceback (most recent call last):\n"
        "  File \"" + _SITE + "/model_executor/layers/layernorm.py\", line 204, in forward_cuda\n"
        "    ops.fused_add_rms_norm(\n"
        "  File \"" + _SITE + "/_custom_ops.py\", line 341, in fused_add_rms_norm\n"
        "    torch.ops._C.fused_add_rms_norm(input, residual, weight, epsilon)\n"
        "torch.AcceleratorError: HIP error: invalid device function"
    ),
    "memfault": (
        "(EngineCore_DP0 pid=412) INFO 11-27 09:41:07 [gpu_model_runner.py:3041] Graph capturing finished in 31 "
        "secs, took 0.52 GiB\n"
        "(APIServer pid=1) INFO:     127.0.0.1:51622 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n"
        "Memory access fault by GPU node-2 (Agent handle: 0x55d7c8f1b2a0) on address 0x7f1a3c000000. Reason: "
        "Unknown."
    ),
    "segfault": (
        "!!!!!!! Segfault encountered !!!!!!!\n"
        "  File \"<unknown>\", line 0, in tokenizers::tokenizer::TokenizerImpl::decode\n"
        "Current thread 0x00007f3a2c5ff640 (most recent call first):\n"
        "  File \"" + _SITE + "/v1/engine/detokenizer.py\", line 254 in decode_next\n"
        "Fatal Python error: Segmentation fault"
    ),
    "nan": (
        "Traceback (most recent call last):\n"
        "  File \"" + _SITE + "/v1/sample/ops/topk_topp_sampler.py\", line 287, in random_sample\n"
        "    return probs.div_(q).argmax(dim=-1).view(-1)\n"
        "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"
    ),
    "wrong": (
        "Prompt: 'The capital of France is', Generated text: ' Paris. Paris. Paris!!!!!!!!!!!!!!!!!!!!!!!'\n"
        "Prompt: 'Write a haiku about GPUs', Generated text: '<unk><unk> pérdida bahwa 的的的的的'"
    ),
    "error": (
        "Traceback (most recent call last):\n"
        "  File \"" + _SITE + "/model_executor/model_loader/default_loader.py\", line 269, in load_weights\n"
        "    loaded_weights = model.load_weights(\n"
        "  File \"" + _SITE + "/model_executor/models/utils.py\", line 291, in load_weights\n"
        "    param = params_dict[name]\n"
        "KeyError: 'model.layers.0.mlp.experts.w13_weight_scale'"
    ),
    "build:nvidia": (
        "[212/436] Building CUDA object CMakeFiles/_C.dir/csrc/quantization/fp4/nvfp4_quant_kernels.cu.o\n"
        "FAILED: CMakeFiles/_C.dir/csrc/quantization/fp4/nvfp4_quant_kernels.cu.o\n"
        "nvcc fatal   : Unsupported gpu architecture 'compute_120a'\n"
        "ninja: build stopped: subcommand failed.\n"
        "error: subprocess-exited-with-error"
    ),
    "build:amd": (
        "[88/301] Building HIP object CMakeFiles/_rocm_C.dir/csrc/rocm/attention.hip.o\n"
        "FAILED: CMakeFiles/_rocm_C.dir/csrc/rocm/attention.hip.o\n"
        "/opt/rocm/llvm/bin/clang++: error: unsupported HIP gpu architecture: {gfx}\n"
        "ninja: build stopped: subcommand failed.\n"
        "error: subprocess-exited-with-error"
    ),
    "build:xpu": (
        "-- Found IntelSYCL: /opt/intel/oneapi/compiler/2025.1/include/sycl\n"
        "CMake Error at cmake/xpu_extension.cmake:41 (message):\n"
        "  oneAPI {xpu_ver} is required for PyTorch 2.9 XPU, found 2025.1\n"
        "error: subprocess-exited-with-error"
    ),
    "build:cpu": (
        "Looking in indexes: https://pypi.org/simple\n"
        "Collecting vllm\n"
        "  Downloading vllm-0.11.0-cp38-abi3-manylinux1_x86_64.whl (438.2 MB)\n"
        "ERROR: vllm-0.11.0-cp38-abi3-manylinux1_x86_64.whl is not a supported wheel on this platform."
    ),
    "xla": (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/site-packages/tpu_inference/runner/tpu_runner.py\", line 611, in "
        "_precompile_sampling\n"
        "    self._sample(hidden_states, metadata)\n"
        "jaxlib._jax.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
        "memory space hbm. Used 17.21G of 15.75G hbm. Exceeded hbm capacity by 1.46G."
    ),
    "sigill": (
        "INFO 11-27 08:12:40 [__init__.py:216] Automatically detected platform cpu.\n"
        "INFO 11-27 08:12:44 [cpu_worker.py:93] OMP threads binding of Process 2231: OMP tid: 2231, core 0\n"
        "Illegal instruction (core dumped)"
    ),
    "ci": (
        "FAILED tests/{test_area}/test_basic.py::test_models[True-auto-1] - AssertionError: Test0:\n"
        "Matched tokens:\t[13, 576, 6722]\nhf:\t'The capital of France is Paris.'\n"
        "vllm:\t'The capital of France is Lyon.'"
    ),
}
LM_EVAL = (
    "|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
    "|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|\n"
    "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |{a}|±  |0.0078|\n"
    "|     |       |strict-match    |     5|exact_match|↑  |{b}|±  |0.0081|"
)
BENCH = (
    "============ Serving Benchmark Result ============\n"
    "Successful requests:                     {n}\n"
    "Maximum request concurrency:             {conc}\n"
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

# --------------------------------------------------------------------------------------------------------
# Pull request bodies.

BEFORE_SUBMITTING = (
    "### Before submitting a new issue...\n\n"
    "- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the bottom right "
    "corner of the [documentation page](https://docs.vllm.ai/en/latest/), which can answer lots of frequently "
    "asked questions."
)
PR_HEADER = (
    "PLEASE FILL IN THE PR DESCRIPTION HERE ENSURING ALL CHECKLIST ITEMS (AT THE BOTTOM) HAVE BEEN CONSIDERED."
)
PR_CHECKLIST = (
    "<details>\n<summary> Essential Elements of an Effective PR Description Checklist </summary>\n\n"
    "- [{0}] The purpose of the PR, such as \"Fix some issue (link existing issues this PR will resolve)\".\n"
    "- [{1}] The test plan, such as providing test command.\n"
    "- [{2}] The test results, such as pasting the results comparison before and after, or e2e results\n"
    "- [{3}] (Optional) The necessary documentation update, such as updating `supported_models.md` and "
    "`examples` for a new model.\n"
    "- [{4}] (Optional) Release notes update. If your change is user facing, please update the release notes draft "
    "in the [Google Doc](https://docs.google.com/document/d/1YyVqrgX4gHTtrstbq8oWUImOyPCKSGnJ7xtTpmXzlRs"
    "/edit?tab=t.0).\n</details>"
)
PR_FOOTER = (
    "**BEFORE SUBMITTING, PLEASE READ <https://docs.vllm.ai/en/latest/contributing>** "
    "(anything written below this line will be removed by GitHub Actions)"
)
PR_ONE_LINERS = ["As titled.", "Small cleanup, no functional change.", "cc @{maint}", "Trivial fix, tested locally.",
                 "See #{ref} for context."]
# Test files by topic, for test plans and "Added a test in ..." replies.
TEST_FILES: dict[str, list[str]] = {
    "rocm": ["tests/kernels/moe/test_moe.py", "tests/kernels/attention/test_aiter_flash_attn.py",
             "tests/quantization/test_quark.py", "tests/kernels/quantization/test_rocm_skinny_gemms.py"],
    "cuda": ["tests/kernels/quantization/test_cutlass_scaled_mm.py", "tests/kernels/attention/test_flashinfer.py",
             "tests/kernels/moe/test_nvfp4_moe.py", "tests/kernels/attention/test_cutlass_mla_decode.py"],
    "hardware": ["tests/v1/tpu/test_basic.py", "tests/kernels/test_cpu_ops.py", "tests/v1/xpu/test_basic.py"],
    "quantization": ["tests/quantization/test_fp8.py", "tests/quantization/test_compressed_tensors.py",
                     "tests/kernels/quantization/test_marlin_gemm.py", "tests/quantization/test_modelopt.py"],
    "moe": ["tests/kernels/moe/test_moe.py", "tests/kernels/moe/test_modular_kernel_combinations.py",
            "tests/distributed/test_eplb_execute.py"],
    "spec": ["tests/v1/e2e/test_spec_decode.py", "tests/v1/spec_decode/test_eagle.py",
             "tests/v1/spec_decode/test_ngram.py"],
    "multimodal": ["tests/models/multimodal/generation/test_common.py",
                   "tests/models/multimodal/processing/test_common.py"],
    "models": ["tests/models/language/generation/test_common.py", "tests/models/test_initialization.py"],
    "kernels": ["tests/kernels/attention/test_attention.py", "tests/kernels/core/test_layernorm.py",
                "tests/kernels/attention/test_flashmla.py"],
    "compile": ["tests/compile/test_fusion.py", "tests/compile/piecewise/test_simple.py",
                "tests/compile/test_full_graph.py"],
    "distributed": ["tests/distributed/test_pipeline_parallel.py", "tests/v1/kv_connector/unit/test_nixl_connector.py",
                    "tests/v1/kv_offload/test_cpu_offloading.py"],
    "frontend": ["tests/entrypoints/openai/test_chat.py", "tests/tool_use/test_tool_calls.py",
                 "tests/entrypoints/openai/test_response_api_with_harmony.py", "tests/reasoning/test_base.py"],
    "scheduler": ["tests/v1/core/test_prefix_caching.py", "tests/v1/core/test_scheduler.py",
                  "tests/v1/core/test_kv_cache_utils.py"],
    "stability": ["tests/v1/engine/test_engine_core.py", "tests/v1/sample/test_sampler.py",
                  "tests/v1/shutdown/test_forward_error.py"],
    "performance": ["tests/v1/sample/test_sampler.py", "tests/v1/core/test_scheduler.py"],
    "misc": ["tests/test_config.py", "tests/entrypoints/test_chat_utils.py", "tests/lora/test_layers.py"],
}

# --------------------------------------------------------------------------------------------------------
# Comment threads. Each stage is a bank of lines; the generator walks the stages in order.
# Issues: a maintainer triages (asks for something), the reporter answers it, others confirm, a maintainer
# diagnoses, points at the fix (or a workaround), the reporter confirms; the rest is "+1"s and "any update?".
# (key, platforms or "", failure kinds or "", the maintainer's question, the reporter's answer)

TRIAGE: list[tuple[str, str, str, str, str]] = [
    ("env", "", "", "Thanks for the report. Can you share the full output of `python collect_env.py`? The "
     "environment section above is cut off.",
     "Here you go:\n\n<details>\n<summary>collect_env</summary>\n\n```text\n{env_short}\n```\n</details>"),
    ("cmd", "", "", "Can you post the exact command and the full log with `VLLM_LOGGING_LEVEL=DEBUG`?",
     "Command:\n\n{repro}\n\nLog (trimmed):\n\n```text\n{log}\n```"),
    ("eager", "", "hang crash illegal wrong nan memfault", "Does it still happen with `--enforce-eager`? That tells us "
     "whether it is CUDA-graph related.",
     "Same with `--enforce-eager`, so probably not graphs."),
    ("eager2", "", "hang crash wrong nan", "Does it still happen with `--enforce-eager`?",
     "With `--enforce-eager` it does not happen (but it's a lot slower)."),
    ("small", "", "hang crash wrong regression illegal", "Is this reproducible with a smaller model, e.g. "
     "`Qwen/Qwen3-8B`? That would make it much easier to bisect.",
     "Yes, it also happens with Qwen3-8B at TP=2, so it's not model-specific."),
    ("bisect", "", "regression wrong accuracy error", "Which version did this last work on? If you can bisect with "
     "the nightly wheels that would help a lot.",
     "Bisected with the nightlies: the one from Nov 18 is fine, Nov 19 is bad."),
    ("aiter", "amd", "", "Does it go away with `VLLM_ROCM_USE_AITER=0`? Trying to narrow it down to the AITER kernels.",
     "Yes, with `VLLM_ROCM_USE_AITER=0` it works, but it's ~30% slower."),
    ("driver", "amd", "", "Which amdgpu driver is on the host (`amd-smi version`)? The ROCm {rocm_ver} image needs a "
     "recent one.", "`amd-smi version`: AMDSMI Tool 26.0.1, amdgpu 6.14.14, ROCm {rocm_ver}."),
    ("blocking", "nvidia", "illegal crash", "Can you rerun with `CUDA_LAUNCH_BLOCKING=1`, so the trace shows the "
     "kernel that actually faults?",
     "With `CUDA_LAUNCH_BLOCKING=1`:\n\n```text\n{log}\n```"),
    ("backend", "nvidia", "illegal wrong nan crash", "Does `VLLM_ATTENTION_BACKEND=TRITON_ATTN` avoid it? Trying to "
     "tell whether it's the {attn_backend} kernel.", "Yes, `TRITON_ATTN` works. So it's {attn_backend}."),
    ("pyspy", "", "hang deadlock", "Can you grab a `py-spy dump --pid <engine core pid>` while it's stuck? And "
     "`NCCL_DEBUG=INFO` output if it's at startup.", "py-spy dump of the engine core:\n\n```text\n{deadlock}\n```"),
    ("bench", "", "regression", "Can you share the exact `vllm bench serve` command? Is prefix caching on in both "
     "runs?", "`vllm bench serve --model {model} --dataset-name random --random-input-len 1024 "
     "--random-output-len 1024 --num-prompts 512 --max-concurrency 64`; prefix caching is on (the default) in "
     "both."),
    ("temp", "", "wrong accuracy nan", "Does it reproduce with `temperature=0`? And can you compare one prompt "
     "against transformers?", "With `temperature=0` too. transformers gives a normal answer for the same prompt."),
]
ASK_GENERIC = [
    ("feature", "Thanks for the request! PRs welcome; the closest existing code is `{module}`.",
     "I'd like to give it a try, I'll open a draft PR."),
    ("feature", "This is on the roadmap; @{maint} has a prototype.", "Great, happy to test it on {gpu}."),
    ("feature", "What's the use case exactly? Would {feature} cover it?",
     "Not quite: we need it per request, not per server."),
    ("usage", "`vllm serve {model} --tensor-parallel-size {tp} --max-model-len 32768` should work on {tp}x{gpu}; "
     "lower `--gpu-memory-utilization` if something else runs on the GPUs.", "That worked, thanks!"),
    ("usage", "`--max-model-len` caps the context, and `--gpu-memory-utilization` is the fraction of memory vLLM "
     "takes for weights plus KV cache. The startup log says how many tokens fit.", "Thanks, that explains it."),
    ("usage", "Please see the docs on {feature}; if something there is unclear, let us know what.",
     "The docs don't cover {tp}x{gpu}; I'll try and report back."),
    ("doc", "Good catch. Would you like to send a PR? The page is under `docs/`.", "Sure, sent #{ref}."),
    ("model", "Thanks! Is anyone from the model team planning a PR? Otherwise contributions welcome.",
     "We're working on it and will open a PR next week."),
]
CONFIRM = [
    "+1, same on {gpu_any} with {version_any}.", "Same here, {tp}x{gpu_any}, `{model}`.",
    "We see this too on {gpu_any} ({version_any}), only under load.",
    "+1. For us it only happens with {feature} enabled.", "Can confirm on {version}; {version_old} works fine.",
    "Same issue on {gpu_any} 😢", "Also happens with {model_name2} on our side.", "Same, {version_any} on {gpu_any}.",
    "Seeing it on {gpu_any} as well, TP={tp}.",
    "+1 on {version_any}, {gpu_any}. Our repro is basically the same command.",
    "Same symptom with {model_name2} on {gpu_any}.", "Reproduced on our {gpu_any} cluster too.",
]
DIAGNOSIS: dict[str, list[str]] = {
    "illegal": ["I can reproduce on main with {tp}x{gpu}. It comes from the {attn_backend} metadata when a padded "
                "decode request is in the batch; looking into it."],
    "noimage": ["The wheel you have is not built for this arch; the cu129 nightly is. We should add it to the release "
                "arch list."],
    "hip": ["{gfx} is not in the arch list of the wheel you installed. Building from source with "
            "`PYTORCH_ROCM_ARCH={gfx}` works; we'll add it to the default list."],
    "memfault": ["Reproduced on {gpu}. It's an out-of-bounds read in the AITER kernel when the block table has "
                 "padding; working on it with the AITER folks."],
    "hang": ["Thanks for the dump. One rank is still in the sampler while the others wait in the all-reduce: a "
             "desync when a request is aborted mid-step. I can reproduce it.",
             "Reproduced with TP={tp}: the hang is in the first all-reduce after CUDA graph capture, only with the "
             "custom all-reduce enabled (`--disable-custom-all-reduce` works around it)."],
    "deadlock": ["The output handler holds the lock while it waits on the queue; the abort path takes them in the "
                 "other order. Classic lock inversion."],
    "crash": ["Reproduced with high concurrency: a request aborted while being preempted leaves an empty batch, "
              "which the model runner doesn't handle."],
    "oom": ["The memory profiling doesn't account for the sampler's workspace at this vocab size. Workaround: "
            "`--gpu-memory-utilization 0.85` or `--max-num-seqs 128`."],
    "segfault": ["The fast tokenizer isn't thread-safe and we decode from two threads since #{ref}; that's the "
                 "segfault."],
    "nan": ["The NaNs come from zero FP8 scales for a few layers: the checkpoint is fine, the loader drops them."],
    "wrong": ["Reproduced. Outputs are correct with `--no-enable-prefix-caching`, so the cached blocks are stale "
              "after eviction.",
              "I can reproduce it with {attn_backend} only; the other backends give the right output."],
    "accuracy": ["Confirmed the drop on our side as well. The activation scales are per-tensor on this path; "
                 "per-token should fix it."],
    "regression": ["I can reproduce: {version} is ~25% slower for this config. Bisected to #{ref}, which changed the "
                   "default `max_num_batched_tokens`."],
    "error": ["The checkpoint layout on the Hub changed in the latest upload; the loader needs to map the new "
              "names."],
    "build": ["This needs the toolchain that matches the image; the docs were out of date."],
    "xla": ["It's the sampler being compiled for every padding bucket on v5e; known issue."],
    "sigill": ["The CPU wheel is built with AVX512 and your CPU only has AVX2. Building from source with "
               "`VLLM_CPU_DISABLE_AVX512=1` works."],
    "ci": ["Bisected to #{ref}; reverting that or fixing forward today."],
}
WORKAROUND: dict[str, list[str]] = {
    "amd": ["Workaround for now: `VLLM_ROCM_USE_AITER=0` (slower, but correct).",
            "Workaround until there's a fix: `--compilation-config '{\"cudagraph_mode\": \"PIECEWISE\"}'`."],
    "nvidia": ["Workaround for now: `VLLM_ATTENTION_BACKEND=FLASH_ATTN`.", "Workaround for now: `--enforce-eager`."],
    "": ["Workaround for now: `--enforce-eager`.", "Workaround: stay on {version_old} for now."],
}
FIX_POINTER = [
    "#{fix} should fix this; it'll be in the nightly once merged.",
    "Can you try #{fix}? It fixes it on my {gpu} box.",
    "Fix is up in #{fix}.",
]
FIX_POINTER_MERGED = ["Should be fixed by #{fix}, can you try the nightly?",
                      "Fixed by #{fix}; it's in the latest nightly."]
FIX_CONFIRM_MERGED = [
    "Confirmed, the nightly works for us. Thanks!", "Tried the nightly with #{fix}, no more errors after {n_req} "
    "requests 👍", "Works now, thanks for the quick fix!",
]
FIX_CONFIRM_OPEN = ["Tested the branch of #{fix}, it fixes it for me.", "Thanks! Will test once it lands."]
FOLLOWUP_COMMUNITY = [
    "Any update on this?", "Still seeing this with {version_any} 😢", "Is there a fix planned for the next release?",
    "+1", "Same here.", "Hitting this too, subscribing.", "Any workaround in the meantime?",
    "This is blocking our upgrade to {version}.", "Any ETA? We're pinned to {version_old} because of this.",
    "Following.", "Is anyone from the team looking at this?", "+1, this hits us in production as well.",
    "We worked around it by restarting the server every few hours, not great.", "Is this tracked for the next patch "
    "release?", "Same on the latest nightly.", "Happy to test a fix on our {gpu_any} nodes.",
]
FOLLOWUP_AUTHOR = ["Any update?", "Still happens on the latest nightly.", "Thanks, I'll test it today.",
                   "It only happens with {feature} enabled, in case that helps."]
CJK_LINES = ["同样遇到这个问题", "请问有解决方案吗？", "我这边在 {gpu2} 上也复现了",
             "{version_any} 也有这个问题",
             "同问，+1", "同じ問題が発生しています。"]
CLOSE_COMPLETED = [
    "Closing as fixed by #{fix}. Feel free to reopen if you still see it on the nightly.",
    "Closing since the fix landed in #{fix}.",
]
CLOSE_COMPLETED_NO_FIX = ["This should be resolved on main now, closing.", "Fixed on main; closing.",
                          "Closing as resolved: the nightly works for the reporter."]
CLOSE_NOT_PLANNED = [
    "Closing as a duplicate of #{ref}.", "This is expected behaviour; closing.",
    "Closing as this is a transformers issue rather than vLLM.", "We won't support this for now, closing.",
]
# A hot thread's argument: positions, numbers, a conclusion. (role, line); roles: user, maint, maint2, contrib.
ARGUMENTS: dict[str, list[tuple[str, str]]] = {
    "regression": [
        ("user", "This is a big regression for us: {version} is ~30% slower on {tp}x{gpu} and we can't upgrade. Can "
                 "#{ref} be reverted in a patch release?"),
        ("maint", "Reverting #{ref} would bring back the accuracy bug it fixed. I'd rather fix forward: the slowdown "
                  "is the extra device sync it added, which we can remove."),
        ("contrib", "Numbers from our side, same command, {model_name}: TPOT 21.4 ms on {version_old} vs 28.9 ms on "
                    "{version}. Prefix caching on or off makes no difference."),
        ("maint2", "Fixing forward is fine with me, but then it has to be in the patch release. If the fix isn't "
                   "merged by the branch cut, we revert."),
        ("maint", "Plan: #{fix} removes the sync (TPOT back to 21.6 ms in my runs on {gpu}), it goes into the patch "
                  "release, and this config goes onto the nightly perf dashboard so it doesn't regress again."),
    ],
    "wrong": [
        ("user", "Could this be the checkpoint? The chat template changed on the Hub last week."),
        ("maint", "No: it reproduces with the previous checkpoint revision too, and the cause above explains it."),
        ("contrib", "+1, we see it with {model_name2} as well, {tp}x{gpu_any}."),
        ("maint2", "It's silent wrong output. Should we turn {feature} off by default for this model until the fix "
                   "lands? A correctness bug is worse than 10% speed."),
        ("maint", "I'd rather not change defaults in a patch release; a warning in the log plus the fix is enough."),
        ("maint2", "Fair. #{fix} has the fix and a regression test; let's get it into the patch release."),
    ],
    "crash": [
        ("user", "We hit this in production several times a day; the only mitigation we have is a watchdog that "
                 "restarts the server."),
        ("maint", "That's what `/health` is for: it returns 503 once the engine is dead, so the orchestrator can "
                  "restart it."),
        ("user", "Restarting isn't a fix: we lose every in-flight request. Is there any way to make the engine "
                 "survive this?"),
        ("maint2", "Not after a device-side fault: the GPU context is unusable afterwards. We have to find the "
                   "kernel bug."),
        ("contrib", "Got a core dump with `CUDA_ENABLE_COREDUMP_ON_EXCEPTION=1` from {tp}x{gpu2}, happy to share."),
        ("maint", "Root cause found thanks to the dump, see #{fix}. Please try the nightly once it's merged; keeping "
                  "this open until someone confirms."),
    ],
    "hang": [
        ("user", "Is anyone looking at this? Our servers hang about once a day."),
        ("maint", "Yes, the cause is understood (see above); the fix touches how ranks agree on each step, so it "
                  "is not small."),
        ("contrib", "Setting a collective timeout turns the hang into a crash, which at least restarts cleanly."),
        ("maint2", "I'd rather not recommend that: a 10 minute timeout still drops every request in flight."),
        ("maint", "#{fix} fixes the desync itself; a timeout is a separate discussion."),
    ],
    "feature": [
        ("user", "I'd prefer keeping the old flag for one release with a deprecation warning."),
        ("contrib", "What about ROCm and XPU? The proposal assumes CUDA-only kernels."),
        ("maint", "Good point: the interface is platform-agnostic; each platform registers its implementation."),
        ("user", "+1 to the proposal, we've been carrying a patch for this."),
        ("maint2", "Thanks all. We'll go with the proposal and deprecate the old flag for one release. First PR: "
                   "#{fix}."),
    ],
}

# A hot thread's conclusion when no fix PR exists yet.
ARG_CONCLUSION_NO_FIX: dict[str, str] = {
    "regression": "Plan: remove the sync that #{ref} added instead of reverting it; I'll send the PR today and we "
                  "put this config on the nightly perf dashboard so it doesn't regress again.",
    "wrong": "Fair. A warning goes in now; the fix will reference this issue.",
    "crash": "We have a lead from the dump; I'll post here once there's a PR. Keeping this open.",
    "hang": "The fix for the desync itself is in progress; a timeout is a separate discussion.",
    "feature": "Thanks all. We'll go with the proposal and deprecate the old flag for one release; PRs will "
               "reference this issue.",
}

# Pull request threads: a review asks for something, the author answers it, approval, CI notes, the merge.
# (key, condition, the reviewer's request, the author's answer); conditions: a size kind or a platform.
REVIEW: list[tuple[str, str, str, str]] = [
    ("bench", "perf kernel", "Nice! Could you share e2e numbers (`vllm bench serve`) on {gpu}, not only the "
     "microbenchmark?", "Added e2e numbers to the description: {result_line}."),
    ("test", "kernel bugfix feature", "Can you add a unit test comparing against the reference implementation?",
     "Added a test in `{test_file}`."),
    ("test", "", "Thanks for the contribution! Could you add a test for this?", "Added a test in `{test_file}`."),
    ("guard", "nvidia", "This path is also used on ROCm; please guard it with `current_platform.is_cuda()` or check "
     "it on MI300X.", "Guarded with `current_platform.is_cuda()`; ROCm keeps the old path."),
    ("gfx", "amd", "Does this also work on gfx942, or only gfx950? Please keep the old path for the other archs.",
     "Only {gfx} for now; the other archs keep the Triton path. Updated the check."),
    ("docs", "model new_model", "Please add the model to `docs/models/supported_models.md` and to "
     "`tests/models/registry.py`.",
     "Done, added to both."),
    ("lm_eval", "model new_model perf kernel", "Could you run lm_eval gsm8k with and without the change?",
     "gsm8k strict-match: {acc_before} on main, {acc_after} with this PR, within noise."),
    ("split", "refactor wide_refactor", "Could you split the refactor from the functional change? Hard to review "
     "together.", "Split the refactor out into #{ref}."),
    ("scope", "", "Requesting changes: this changes the default for every model, not just {model_name}. Please make "
     "it opt-in or scope it to this model.", "Good point, it's scoped to this model now. PTAL."),
    ("nits", "", "Left a few comments, mostly nits.", "Addressed the comments, PTAL again @{maint}."),
]
APPROVE = ["LGTM, thanks!", "Thanks, approving. Added the `ready` label to run the full CI.",
           "LGTM once CI is green.", "Looks good to me. @{maint} do you want to take a look at the {topic_word} part?",
           "Approved, thanks for the quick turnaround.", "Thanks! Approving, but please address the nit about naming."]
CI_NOTES = [
    "The failing `{test_area}` job is unrelated (also red on main, #{ref}). Retrying.",
    "AMD CI failure is a known flaky test, not related.",
    "Please fix pre-commit.",
    "Can you rebase onto main? The CI failure should be fixed by #{ref}.",
    "/gemini review",
]
AUTHOR_NOTES = ["Rebased onto main.", "The remaining CI failure is a known flaky test (#{ref}).",
                "@{maint} could you take another look?", "I think this is ready now.", "Done, PTAL.",
                "Thanks for the review!"]
MERGE_NOTES = ["Merging since the failures are unrelated.", "Merging, thanks!"]
PR_COMMUNITY = [
    "Is there an ETA for this? We need it for {model_name} on {gpu}.", "Tested this on {tp}x{gpu2}, works for me 👍",
    "+1, would love to see this merged.", "Does this also fix #{ref}?", "Any plans to support {other_vendor_gpu} as "
    "well?",
]
PR_COMMUNITY_PERF = [*PR_COMMUNITY, "Nice speedup 🚀", "Do you have numbers at higher concurrency as well?"]
PR_COMMUNITY_ROUTINE = ["Thanks!", "+1", "Thanks for cleaning this up."]
POST_MERGE = ["Will this be in the next release?", "Thanks for fixing this!", "Confirmed working on the nightly 👍",
              "This seems to break `{test_area}` on main, see #{ref}.", "Is this going to be cherry-picked into the "
              "patch release?"]
PR_REPORTER = ["Confirmed this fixes #{fix_issue} for us, thanks!", "Tested the branch on {gpu}: the issue in "
               "#{fix_issue} is gone."]
CLOSE_PR = ["Closing in favor of #{ref}.", "Superseded by #{ref}, closing.",
            "Closing, this was fixed differently in #{ref}."]
PRE_COMMIT_FAIL = (
    "Hi @{author}, the pre-commit checks have failed. Please run:\n\n```bash\nuv pip install pre-commit\n"
    "pre-commit install\npre-commit run --all-files\n```\n\nThen, commit the changes and push to your branch."
)


def env_dump(platform: str, gpu_full: str, arch: str, ngpu: int, version: str, py: str, sw: str) -> str:
    """A `python collect_env.py` dump in its current sectioned format, for one hardware stack."""
    torch = "2.9.0" if version.startswith(("0.11.1", "0.11.2", "0.12")) else "2.8.0"
    bar = "=============================="
    rocm, cuda, xpu, tpu = platform == "amd", platform == "nvidia", platform == "xpu", platform == "tpu"
    cu = sw.replace(".", "")[:3] if cuda else ""
    rocm_full = {"6.4.1": "6.4.43483-a187df25c", "6.4.3": "6.4.43484-123eb5128", "7.0": "7.0.51831-a3e329ad8",
                 "7.0.2": "7.0.51831-a3e329ad8"}.get(sw, "7.0.51831-a3e329ad8")
    if cuda:
        torch_build = f"{torch}+cu{cu}"
    elif rocm:
        torch_build = f"{torch}+rocm{sw[:3]}" if sw.startswith("6") else f"{torch}a0+git1c57644"
    elif xpu:
        torch_build = f"{torch}+xpu"
    else:
        torch_build = f"{torch}+cpu"
    cpu_arch = "aarch64" if arch == "aarch64" or gpu_full.startswith("NVIDIA GH200") else "x86_64"
    if cuda or rocm:
        gpus = "\n" + "\n".join(
            f"GPU {i}: {gpu_full}{' (' + arch + ':sramecc+:xnack-)' if rocm and arch.startswith('gfx9') else ''}"
            f"{' (' + arch + ')' if rocm and not arch.startswith('gfx9') else ''}" for i in range(ngpu))
    else:
        gpus = "N/A"
    driver = {"12.8": "570.133.20", "12.9": "575.57.08", "13.0": "580.82.07"}.get(sw, "570.133.20")
    cpu_name = ("Neoverse-V2" if cpu_arch == "aarch64" else "AMD EPYC 9654 96-Core Processor" if rocm
                else gpu_full if platform == "cpu" else "Intel(R) Xeon(R) Platinum 8480+")
    libs = ["[pip3] numpy==2.2.6", f"[pip3] torch=={torch_build}", "[pip3] transformers==4.57.1"]
    if cuda:
        libs += ["[pip3] flashinfer-python==0.4.1", f"[pip3] nvidia-nccl-cu{cu[:2]}==2.27.5", "[pip3] triton==3.4.0"]
    elif rocm:
        libs += ["[pip3] amdsmi==26.0.1+f8ade75", "[pip3] pytorch-triton-rocm==3.4.0"]
    elif xpu:
        libs += ["[pip3] intel-extension-for-pytorch==2.8.10+xpu", "[pip3] oneccl-bind-pt==2.8.0+xpu"]
    elif tpu:
        libs += ["[pip3] jax==0.7.2", "[pip3] libtpu==0.0.21", "[pip3] torch-xla==2.8.0",
                 "[pip3] tpu-inference==0.11.1"]
    lines = [
        bar, "        System Info", bar,
        f"OS                           : Ubuntu 22.04.5 LTS ({cpu_arch})",
        "GCC version                  : (Ubuntu 11.4.0-1ubuntu1~22.04.2) 11.4.0",
        "Clang version                : " + (f"20.0.0git (roc-{sw})" if rocm else "Could not collect"),
        "CMake version                : version 3.31.6",
        "Libc version                 : glibc-2.35", "",
        bar, "       PyTorch Info", bar,
        f"PyTorch version              : {torch_build}",
        "Is debug build               : False",
        f"CUDA used to build PyTorch   : {sw if cuda else 'N/A'}",
        f"ROCM used to build PyTorch   : {rocm_full if rocm else 'N/A'}", "",
        bar, "      Python Environment", bar,
        f"Python version               : {py}.11 (main, Jun  4 2025, 08:56:18) [GCC 11.4.0] (64-bit runtime)",
        f"Python platform              : Linux-5.15.0-142-generic-{cpu_arch}-with-glibc2.35", "",
        bar, "       CUDA / GPU Info", bar,
        f"Is CUDA available            : {cuda or rocm}",
        f"CUDA runtime version         : {sw + '.93' if cuda else 'Could not collect' if rocm else 'No CUDA'}",
        "CUDA_MODULE_LOADING set to   : LAZY",
        f"GPU models and configuration : {gpus}",
        f"Nvidia driver version        : {driver if cuda else 'Could not collect' if rocm else 'No CUDA'}",
        "cuDNN version                : Could not collect",
        f"HIP runtime version          : {rocm_full.split('-')[0] if rocm else 'N/A'}",
        f"MIOpen runtime version       : {'3.5.0' if rocm else 'N/A'}",
        "Is XNNPACK available         : True", "",
        bar, "          CPU Info", bar,
        f"Architecture:                         {cpu_arch}",
        "CPU(s):                               224",
        f"Model name:                           {cpu_name}",
        "Thread(s) per core:                   2", "",
        bar, "Versions of relevant libraries", bar,
        *libs, "",
        bar, "         vLLM Info", bar,
        f"ROCM Version                 : {rocm_full.split('-')[0] if rocm else 'Could not collect'}",
        f"vLLM Version                 : {version}",
        "vLLM Build Flags:",
        f"  CUDA Archs: Not Set; ROCm: {'Enabled' if rocm else 'Disabled'}; XPU: {'Enabled' if xpu else 'Disabled'}",
    ]
    if xpu:
        lines += ["", bar, "     XPU Info", bar, f"XPU devices                  : {ngpu}x {gpu_full}",
                  f"oneAPI                       : {sw}"]
    if tpu:
        lines += ["", bar, "     TPU Info", bar,
                  f"TPU type                     : {gpu_full.split()[-1]}-{max(ngpu, 1)}"]
    lines += ["", bar, "     Environment Variables", bar,
              *(["VLLM_ROCM_USE_AITER=1", "HIP_FORCE_DEV_KERNARG=1"] if rocm else
                ["NCCL_CUMEM_ENABLE=0", "PYTORCH_NVML_BASED_CUDA_CHECK=1"] if cuda else []),
              "TORCHINDUCTOR_COMPILE_THREADS=1"]
    return "\n".join(lines)

# Why a fix PR's change fixes the report it closes, by failure kind (its Purpose, after "Fixes #N").
FIX_CAUSE: dict[str, list[str]] = {
    "illegal": ["The {attn_backend} metadata builder sized the block table by the unpadded batch, so the padded "
                "decode slots of a captured CUDA graph read past its end. The builder now pads the block table to "
                "the graph's batch size."],
    "noimage": ["The release wheels were built without this compute capability, so the custom ops had no kernel "
                "image for it. The arch list in `CMakeLists.txt` now includes it (and PTX for newer archs)."],
    "hip": ["The ROCm build's `PYTORCH_ROCM_ARCH` default did not include {gfx}, so the custom ops had no code "
            "object for it. {gfx} is added to the default arch list."],
    "memfault": ["The kernel computed the KV block offset with the padded block table stride, which reads past the "
                 "end of the cache for the last request of a batch on {gfx}. Use the real stride and mask the tail."],
    "hang": ["After an abort, one rank skipped the step while the others entered the all-reduce. Aborts now take "
             "effect at the next step boundary on every rank, so the ranks stay in lockstep.",
             "The custom all-reduce buffers were registered while the first all-reduce was in flight. Register them "
             "during initialization, before the warm-up collective."],
    "deadlock": ["The abort path took the output queue lock before the scheduler lock, the output handler the other "
                 "way round. Both now take them in the same order."],
    "crash": ["A request aborted while preempted left an empty batch, which the model runner did not handle. An "
              "empty step now returns early with an empty output."],
    "oom": ["Memory profiling ran before the sampler's workspace was allocated, so the KV cache took memory the "
            "sampler needed later. The profiling run now includes a sampler pass at the max batch size."],
    "segfault": ["Two threads decoded with the same fast tokenizer, which is not thread-safe. The detokenizer now "
                 "keeps one tokenizer per thread."],
    "nan": ["The loader dropped FP8 scales stored under the checkpoint's `*_scale_inv` names and left them at zero, "
            "so some layers produced inf/NaN. Both names are mapped now."],
    "wrong": ["Blocks evicted from the prefix cache were handed out again while a running request still referenced "
              "them. Eviction now checks the reference count.",
              "The kernel assumed contiguous query tokens per request, which does not hold with {feature}; it now "
              "takes the query start offsets explicitly."],
    "accuracy": ["Activation scales were per-tensor on this path although the checkpoint was calibrated per token. "
                 "The per-token quant kernel is used when the checkpoint asks for it."],
    "regression": ["A device sync was added to the hot path in #{ref} to read a flag that is known on the host. The "
                   "flag is now kept on the CPU, removing the sync."],
    "error": ["The checkpoint names the fused expert weights differently since its latest upload. The weight "
              "mapping accepts both layouts."],
    "build": ["The build picked the toolchain from `PATH` instead of the one matching the image; it now uses the "
              "image's toolchain explicitly."],
    "xla": ["The sampler was compiled for every padding bucket; precompiling one padded shape per bucket keeps "
            "compilation within the TPU's HBM."],
    "sigill": ["The CPU extension was compiled with AVX512 unconditionally. It now checks the CPU flags at import "
               "and falls back to the AVX2 build."],
    "ci": ["The test compared against a reference output that changed with #{ref}; the reference is updated and "
           "the comparison made tolerant to tie-breaking."],
    "": ["The root cause is described in the report; this is the minimal fix."],
}

# A fix PR's Purpose by its title (the report's fix template): the bug's mechanism, then the change. The report's
# diagnosis quotes its first sentence. Titles without an entry use FIX_CAUSE by failure kind.
FIX_PURPOSES: dict[str, str] = {
    "[ROCm][Bugfix] Build the custom ops for {gfx} in the ROCm wheel":
        "The ROCm wheel's `PYTORCH_ROCM_ARCH` did not include {gfx}, so `_C` had no code object for it and the first "
        "custom op failed with `invalid device function`. {gfx} is added to the default arch list.",
    "[ROCm][Bugfix] Fix AITER MLA decode for long contexts on {gfx}":
        "The AITER MLA decode kernel splits the KV sequence into chunks of 16k tokens and the last partial chunk "
        "used the wrong softmax scale, so outputs degraded past that length. The split now passes the real length "
        "of the tail chunk.",
    "[ROCm][Bugfix] Fix startup crash of the ROCm {rocm_ver} image on {amd_gpu}":
        "The image's hipBLASLt was built without the {amd_gpu} kernels and faulted on the first FP8 GEMM during "
        "the profiling run. The image now installs hipBLASLt from the ROCm {rocm_ver} packages.",
    "[ROCm][Perf] Use AITER fused MoE for {moe_model} on {gfx}":
        "{moe_model} fell back to the Triton MoE kernel on ROCm because its expert count was not in AITER's "
        "supported list, which explains most of the gap to H200. AITER's fused MoE handles it; enabled by default "
        "with `VLLM_ROCM_USE_AITER=1`.",
    "[ROCm][Build] Fix the source build with ROCm {rocm_ver}":
        "hipcc in ROCm {rocm_ver} rejects an offload arch that the CMake file added unconditionally. The arch list "
        "is now filtered by what the installed compiler supports.",
    "[ROCm][Bugfix] Fix RCCL init hang with TP={tp} on MI300X":
        "The custom all-reduce registered its IPC buffers while RCCL's first collective was in flight, which "
        "deadlocks on MI300X with TP={tp}. Registration now happens before the warm-up all-reduce.",
    "[ROCm][Bugfix] Fix {quant} GEMM out-of-bounds read on {gfx}":
        "The {quant} GEMM kernel read one tile past the end of the weight when N was not a multiple of the tile "
        "size, which faults on {gfx}. The tail tile is now masked.",
    "[ROCm][Bugfix] Fix AITER FA with cached prefixes":
        "ROCM_AITER_FA computed the query offsets from `query_start_loc` but read the KV cache from position 0, "
        "so a prefix-cache hit attended to the wrong tokens. The context lengths are now passed to the kernel.",
    "[Quantization][ROCm] Fix Quark FP8 scale loading for {model_short}":
        "Quark stores the weight scales as `weight_scale` per output channel while the loader expected one "
        "per-tensor scale and raised a KeyError on the fused layers. Both layouts are handled now.",
    "[Bugfix] Fix illegal memory access with {attn_backend} on {sm}":
        "The {attn_backend} metadata builder sized the block table by the unpadded batch, so the padded decode "
        "slots of a captured CUDA graph read past its end. The builder now pads the block table to the graph's "
        "batch size.",
    "[CI/Build] Build the release wheels for SM120":
        "The release wheels were built for 8.0-10.0 only, so RTX 50-series and RTX PRO 6000 cards got `no kernel "
        "image is available`. 12.0 is added to the release arch list.",
    "[Perf][NVIDIA] Use FlashInfer TRTLLM-gen MoE for {moe_model} on Blackwell":
        "On B200 the MoE layers of {moe_model} used the Triton kernel tuned for Hopper, which is why B200 lost to "
        "H200. FlashInfer's TRTLLM-gen MoE is the default on SM100 now.",
    "[Bugfix] Pin flashinfer-python for CUDA {cuda_ver}":
        "The latest flashinfer-python JIT-compiles with flags that nvcc from CUDA {cuda_ver} does not know. We pin "
        "the last compatible release until the CUDA requirement is bumped.",
    "[Bugfix] Fix CUTLASS MLA NaN with partially filled pages":
        "The CUTLASS MLA kernel read the whole last page, including slots never written, and uninitialized FP8 "
        "values can be NaN. The kernel now masks by the sequence length.",
    "[NVIDIA] Add B300 (SM103) to the kernel arch lists":
        "B300 reports compute capability 10.3, which none of our kernel arch lists contained. SM103 now builds the "
        "SM100 kernels.",
    "[CPU][Bugfix] Fall back to AVX2 kernels when AVX512 is not available":
        "The CPU wheel is built with AVX512 unconditionally, so CPUs without it die with SIGILL at the first "
        "kernel. The extension now checks the CPU flags at import and loads the AVX2 build.",
    "[TPU][Bugfix] Fix XLA compilation of the sampler on v5e":
        "The sampler was compiled for every padding bucket at startup and the largest one did not fit in v5e's "
        "16 GB of HBM. Buckets above 512 sequences now reuse the 512 graph.",
    "[XPU][Bugfix] Fix rotary embedding on {xpu_gpu}":
        "The XPU rotary embedding op assumed the neox layout, so models using the GPT-J layout got wrong outputs. "
        "The layout flag is passed to the IPEX kernel now.",
    "[Bugfix] Fix AWQ zero points for {model_short}":
        "The AWQ repack for Marlin unpacked the zero points with the GPTQ order, so every dequantized weight was "
        "off by a constant and the model emitted EOS immediately.",
    "[Bugfix] Fix GPTQ checkpoint loading with packed modules":
        "Checkpoints that store `qkv_proj` already packed were looked up as separate q/k/v weights, hence the "
        "KeyError on `qweight`. Packed checkpoints are detected and loaded as is.",
    "[Quantization][Bugfix] Fix INT8 activation scales for {model_short}":
        "The activation scales were per-tensor on this path although the checkpoint is calibrated per token, "
        "which costs several GSM8K points. The per-token quant kernel is used when the config asks for it.",
    "[Bugfix] Fix NVFP4 global scale sharding with TP":
        "The NVFP4 global scale is per tensor but was sharded like the block scales, so every rank but the first "
        "used a wrong scale at TP > 1.",
    "[Bugfix] Fix FP8 per-channel scales after the linear refactor":
        "The linear-method refactor made per-channel FP8 weight scales go through the per-tensor path, which "
        "takes the maximum over channels and loses accuracy.",
    "[Bugfix][MoE] Fix EP dummy batch with idle DP ranks":
        "A DP rank without requests skipped the MoE all-to-all while the others entered it, so expert parallel "
        "hung. Idle ranks now run a dummy batch through the MoE layers.",
    "[Perf][MoE] Restore the tuned fused_moe configs lost in the refactor":
        "The MoE refactor changed the config file names, so the tuned configs were no longer found and every "
        "shape used the default config.",
    "[Bugfix] Fix EPLB weight swap with CUDA graphs":
        "EPLB swapped the expert weights into new tensors, but the captured CUDA graphs kept the old pointers. "
        "The swap now copies in place.",
    "[Bugfix][Spec Decode] Fix EAGLE-3 aux hidden states for {model_short}":
        "The model returned auxiliary hidden states from the wrong layers, so the drafter saw the wrong features "
        "and nothing was accepted.",
    "[Bugfix][Spec Decode] Fix MTP positions for num_speculative_tokens > 1":
        "The MTP drafter reused the positions of the first draft token for the following ones, which is only "
        "right for a single speculative token.",
    "[Bugfix] Fix {vlm} processor with {mm_input}":
        "The input reached the HF processor in a format it does not handle and failed there. It is normalized "
        "before processing now.",
    "[Bugfix] Fix multi-image placeholders for {vlm}":
        "The placeholder expansion counted the image tokens of the first image for every image, so prompts with "
        "several images of different sizes failed the length check.",
    "[Multimodal] Cap video frames by the encoder budget":
        "Long videos were sampled at a fixed fps, so the number of frames and the encoder's activation memory grew "
        "without bound. Frames are now capped by the encoder cache budget.",
    "[Bugfix] Fix encoder cache with chunked prefill for {vlm}":
        "When a chunk boundary fell inside an image's tokens, the encoder output was freed after the first chunk "
        "and the second chunk read freed memory. The encoder cache now keeps it until the last chunk.",
    "[Bugfix] Fix {model_short} chat template handling of system prompts":
        "The model's chat template expects the system prompt inside the first user turn; we passed it as a "
        "separate message and the template dropped it.",
    "[Bugfix] Fix rope scaling for {model_short} beyond {ctx} tokens":
        "YaRN's attention factor was applied twice when `max_model_len` exceeded the original context, so outputs "
        "degraded past it.",
    "[Bugfix][gpt-oss] Fix empty final channel in the harmony parser":
        "When the analysis channel ended exactly at a chunk boundary, the harmony parser never switched to the "
        "final channel and `content` stayed empty.",
    "[Bugfix] Make Kimi-K2 tool call ids unique":
        "The Kimi-K2 parser built tool call ids from the function index only, so two calls in one conversation "
        "got the same id. Ids now include the request's call counter.",
    "[Bugfix] Fix GLM-4.5 config loading with transformers 4.57":
        "transformers 4.57 renamed a field of the GLM-4.5 config and our config override read the old name.",
    "[Bugfix] Fix MLA FP8 KV cache scale for {mla_model}":
        "With an FP8 KV cache, the MLA backend applied the K scale to the latent and the rope part alike, but the "
        "rope part is stored unscaled. Large values overflowed to NaN.",
    "[torch.compile] Mark the batch dimension dynamic for {model_short}":
        "The model's forward specialized on the batch size through a Python int, so every new batch size "
        "triggered a recompile. It is marked dynamic now.",
    "[Bugfix] Fix workspace allocation during CUDA graph capture":
        "The MoE workspace was allocated per captured size instead of once for the largest, so capture ran out "
        "of memory for big models.",
    "[Bugfix] Fix {kv_connector} with TP={tp}":
        "The connector computed the transfer offsets assuming one KV head per rank, which breaks with TP={tp}.",
    "[Bugfix] Fix Ray placement group on mixed nodes":
        "The placement group asked for the same GPU type on every node and waited forever when nodes reported "
        "different names for it.",
    "[Bugfix] Fix PP intermediate tensors for {model_short}":
        "The model's layers returned the residual in a different order than `make_empty_intermediate_tensors` "
        "declared, so the second pipeline stage used the hidden states as the residual.",
    "[Bugfix] Fix DP coordinator wave sync with idle ranks":
        "The DP coordinator started a new wave before idle ranks acknowledged the previous one, so some ranks "
        "waited in a collective forever and NCCL timed out.",
    "[Bugfix][P/D] Handle a restarted decode instance in {kv_connector}":
        "The prefill side kept the old decode instance's handshake metadata and sent KV to a dead endpoint.",
    "[Frontend][Bugfix] Honour `{param}` in {chat_api}":
        "The parameter was accepted by the request model but never copied into the sampling params.",
    "[Frontend][Bugfix] Fix nested arguments in the {tool_parser} tool parser":
        "The parser found the end of the arguments with a regex that stops at the first closing brace.",
    "[Frontend][Bugfix] Fix streamed arguments in the {tool_parser} tool parser":
        "In streaming mode the parser emitted the arguments delta before the function name when both arrived in "
        "one chunk, which produces invalid JSON on the client side.",
    "[Bugfix] Fix enum handling in the xgrammar schema conversion":
        "Enums of non-string values were converted to strings in the grammar, so the constraint never matched.",
    "[Frontend][Bugfix] Abort the request when the stream client disconnects":
        "A disconnected streaming client left its request running until max_tokens, holding KV cache blocks.",
    "[Bugfix] Fix the reasoning parser for {reasoning_model} when the think tag is in the prompt":
        "The chat template puts the opening think tag in the prompt, so the parser never saw it in the output "
        "and returned everything as content.",
    "[Core][Bugfix] Fix prefix caching hit rate with {feature}":
        "The block hash included a per-request field, so identical prefixes never matched.",
    "[Core][Bugfix] Include the LoRA id in the prefix-cache block hash":
        "The block hash ignored the LoRA adapter, so two adapters sharing a prompt prefix shared KV blocks "
        "computed with different weights.",
    "[Core][Bugfix] Fix starvation of preempted requests":
        "Preempted requests went to the back of the waiting queue, so under sustained load they never ran again.",
    "[Perf] Fix the sampler slowdown introduced in {version}":
        "A device sync was added to the sampler to read a flag that is known on the host. The flag is now kept "
        "on the CPU, which removes the sync.",
    "[Bugfix] Fix a TP barrier after weight loading":
        "Ranks that finished loading early entered the memory profiling collective while others were still "
        "loading; with slow storage the barrier timed out silently.",
    "[Bugfix] Fix a stuck output queue after client disconnects":
        "The output handler blocked on a full queue after a client disconnected and never drained it.",
    "[Bugfix] Fix CUDA graph capture deadlock for {model_short}":
        "The custom all-reduce was captured while another rank was still compiling, and both waited on each other.",
    "[Bugfix] Fix deadlock on abort with {feature}":
        "The abort path took the output queue lock before the scheduler lock, the output handler the other way "
        "round. Both take them in the same order now.",
    "[Bugfix] Shut down the engine core cleanly in LLM.__del__":
        "The engine core process was not joined at interpreter exit, so Python waited on its queue forever.",
    "[Bugfix] Fix shm broadcast stall with DP":
        "With DP, one reader of the shared memory ring missed the writer's flag flip when the buffer wrapped and "
        "waited forever.",
    "[ROCm][Bugfix] Fix custom all-reduce hang on {amd_gpu}":
        "The custom all-reduce's IPC handles were opened before all ranks had registered them, which hangs on "
        "{amd_gpu}.",
    "[Bugfix] Fix engine core crash when a batch is empty after preemption":
        "A request aborted while preempted left an empty batch, which the model runner did not handle. An empty "
        "step now returns early with an empty output.",
    "[Bugfix] Fix concurrent access to the fast tokenizer":
        "Two threads decoded with the same fast tokenizer, which is not thread-safe. The detokenizer now keeps one "
        "tokenizer per thread.",
    "[Bugfix] Fix {attn_backend} metadata for padded batches":
        "The {attn_backend} metadata builder sized the block table by the unpadded batch, so padded decode slots "
        "read past its end. The builder now pads the block table to the batch size.",
    "[Bugfix] Account for the sampler workspace in memory profiling":
        "Memory profiling ran before the sampler's workspace was allocated, so the KV cache took memory the "
        "sampler needed later. The profiling run now includes a sampler pass at the max batch size.",
    "[Bugfix] Fix OOM in CUDA graph capture for {moe_model}":
        "The MoE workspace was allocated per captured batch size instead of once for the largest, which "
        "multiplied its memory by the number of captured sizes.",
    "[ROCm][Bugfix] Account for the AITER workspace in memory profiling":
        "AITER allocates its workspace lazily on the first forward after profiling, so the KV cache had already "
        "taken that memory. The profiling run now warms AITER up first.",
    "[ROCm][Bugfix] Fix out-of-bounds KV read on {gfx}":
        "The paged attention kernel computed the block offset with the padded block table stride, which reads "
        "past the end of the cache for the last request of a batch on {gfx}.",
    "[Perf] Fix the TTFT regression in {version}":
        "The input processor deep-copied the sampling params of every request since {version}; it copies only "
        "what it mutates now.",
    "[Perf] Restore the default max_num_batched_tokens":
        "The default `max_num_batched_tokens` was halved in a refactor, which made prefills take twice as many "
        "steps.",
    "[Bugfix] Fix loading of {model_short} after the config refactor":
        "The config refactor stopped forwarding `hf_overrides` to the model's config class.",
    "[Perf] Fix the {attn_backend} decode regression on {gpu}":
        "A recent change forced the split-KV path of {attn_backend} at every batch size; it is only faster for "
        "long contexts at small batch.",
    "[Bugfix] Fix gibberish output for {model_short}":
        "The rope cache was built in BF16 instead of FP32 after a refactor, which breaks long generations.",
    "[ROCm][Bugfix] Fix {quant} NaN on {gfx}":
        "The {quant} path on {gfx} computed the activation scales in FP16, which overflows for large "
        "activations; they are computed in FP32 now.",
    "[Core][Bugfix] Fix stale blocks after prefix-cache eviction":
        "Blocks evicted from the prefix cache were handed out again while a running request still referenced "
        "them. Eviction now checks the reference count.",
    "[Bugfix][Spec Decode] Fix {spec} with chunked prefill":
        "The proposer ran on the partial prompt of a chunked prefill and its draft tokens were verified against "
        "the wrong positions.",
    "[Frontend][Bugfix] Return partial content when max_tokens is hit":
        "When generation stopped at max_tokens inside the reasoning section, the parser returned null content "
        "instead of what was generated.",
}
