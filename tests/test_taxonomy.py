from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import ConfigError
from bot.model import Evidence
from bot.topics.taxonomy import (
    Taxonomy,
    TopicMatch,
    compile_phrases,
    decode_evidence,
    encode_evidence,
    title_tags,
)

TOPICS = Path(__file__).resolve().parents[1] / "config" / "topics.toml"


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return Taxonomy.load(TOPICS)


def ids(taxonomy: Taxonomy, title: str, labels: tuple[str, ...] = (), body: str = "") -> set[str]:
    return {m.topic_id for m in taxonomy.match(title, labels, body)}


def test_bracket_tags_are_parsed() -> None:
    assert title_tags("[Bugfix][ROCm] Fix fp8 on MI300X") == ["bugfix", "rocm"]
    assert title_tags("[V1][Spec Decode] EAGLE3") == ["v1", "spec decode"]


def test_labels_tags_and_keywords_match_with_reasons(taxonomy: Taxonomy) -> None:
    [match] = [m for m in taxonomy.match("[Bugfix][ROCm] Fix fp8 scaled_mm", ("rocm",)) if m.topic_id == "rocm"]
    assert match.evidence[:2] == (Evidence("label", "rocm"), Evidence("tag", "rocm"))
    assert "rocm" in ids(taxonomy, "Support gfx950 in the attention backend")
    assert "rocm" in ids(taxonomy, "Performance on MI355X is lower than expected")


@pytest.mark.parametrize(
    "title",
    ["Fix the command line parser", "Improve relationship between ships", "Add tips for shipping wheels"],
)
def test_aliases_match_on_word_boundaries_only(taxonomy: Taxonomy, title: str) -> None:
    assert "rocm" not in ids(taxonomy, title)


def test_exclusions_cancel_keyword_matches(taxonomy: Taxonomy) -> None:
    assert "cuda" not in ids(taxonomy, "Crash in CUDA graph capture")
    assert "compile" in ids(taxonomy, "Crash in CUDA graph capture")
    assert "llama" not in ids(taxonomy, "Import GGUF models exported by llama.cpp")


def test_body_counts_only_when_repeated_and_outside_code(taxonomy: Taxonomy) -> None:
    once = "We run this on an AMD box."
    assert "rocm" not in ids(taxonomy, "Speed up detokenizer", body=once)
    twice = "We run this on AMD. On ROCm the fix also helps."
    assert "rocm" in ids(taxonomy, "Speed up detokenizer", body=twice)
    code = "```\nROCm ROCm ROCm\n```"
    assert "rocm" not in ids(taxonomy, "Speed up detokenizer", body=code)


def test_bad_topics_file_names_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "topics.toml"
    bad.write_text('[[topic]]\nid = "Bad Id"\nname = "x"\n')
    with pytest.raises(ConfigError, match=r"topics.toml: topic.0.id: must be lower-case"):
        Taxonomy.load(bad)


def test_repository_file_overrides_and_adds(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text('[[topic]]\nid = "rocm"\nname = "Just AMD"\nkeywords = ["amd"]\n'
                     '[[topic]]\nid = "fancy"\nname = "Fancy"\nkeywords = ["fancy"]\n')
    merged = Taxonomy.load(TOPICS, extra)
    assert merged.get("rocm").display_name() == "Just AMD"
    assert "fancy" in merged.ids()


def test_phrase_syntax_wildcards_separators_and_count_prefixes() -> None:
    pattern = compile_phrases(["qwen* moe", "gpt-oss", "tp=*"])
    assert pattern is not None
    for text in ("Qwen3 MoE", "qwen3-moe", "gpt oss", "GPT-OSS", "gptoss", "gpt_oss", "TP=8"):
        assert pattern.search(text), text
    for text in ("qwenmoe", "gpt-ossify", "ftp=8"):
        assert not pattern.search(text), text
    assert compile_phrases(["/v1/*"]).search("POST /v1/chat/completions")
    assert not compile_phrases(["/v1/*"]).search("move tests/v1/sample")


def test_a_phrase_longer_than_the_stack_compiles_and_matches() -> None:
    # One regex unit per character: building the tree by recursion overflowed from ~500 characters.
    long = "a" * 5000
    pattern = compile_phrases([long, long + "b", "ab"])
    assert pattern is not None
    assert pattern.search(f"x {long}b y") and pattern.search(f"x {long} y")
    assert not pattern.search(f"x {long[:-1]} y")


@pytest.mark.parametrize(("title", "topic"), [
    ("Bad accuracy on 8xMI300X", "rocm"), ("Llama 70B on 4xH100 OOMs", "cuda"), ("[Qwen3-Next] Fix MTP", "qwen"),
    ("[V1][Spec Decode] EAGLE3 for Llama 4", "spec_decode"), ("[Hardware][Intel GPU] FP8 for XPU", "hardware"),
])
def test_count_prefixes_and_tags_that_contain_a_keyword(taxonomy: Taxonomy, title: str, topic: str) -> None:
    assert topic in ids(taxonomy, title)


@pytest.mark.parametrize(("title", "topic"), [
    ("[Usage]: Which chip should I buy?", "rocm"), ("Amdahl's law analysis", "rocm"),
    ("Fix the command line parser", "rocm"), ("Migrating from Ollama", "llama"),
    ("Compatibility with the llama.cpp server", "llama"), ("LoRA trained with LLaMA-Factory", "llama"),
    ("Fix quantile computation in the benchmark report", "quantization"), ("Compile a list of models", "compile"),
    ("Improve the visionary roadmap wording", "multimodal"), ("Reduce the size of the docker image", "multimodal"),
    ("Crash in CUDA graph capture", "cuda"), ("Deploying behind NVIDIA Triton Inference Server", "kernels"),
    ("Build fails on an old Linux kernel", "kernels"), ("X-ray images are misclassified", "distributed"),
    ("Support DPO-trained reward models", "distributed"), ("TPOT is high with TPU v5e", "distributed"),
    ("Add a timeout parameter for requests", "stability"), ("I'm stuck choosing max-num-seqs", "stability"),
    ("Make the SamplingParams dataclass frozen", "stability"), ("Throughput regression in v0.11", "stability"),
    ("Add a regression test for the tool parser", "stability"), ("Reduce CPU overhead of the scheduler", "hardware"),
    ("Add a tool to convert checkpoints", "frontend"), ("Experts please help with max_model_len", "moe"),
    ("Support no_repeat_ngram_size in SamplingParams", "spec_decode"), ("Warning about slow tokenizer", "performance"),
])
def test_hard_negatives(taxonomy: Taxonomy, title: str, topic: str) -> None:
    assert topic not in ids(taxonomy, title)


def test_pasted_environment_dumps_and_template_footers_do_not_count(taxonomy: Taxonomy) -> None:
    env = ("PyTorch version: 2.7.0\nROCM used to build PyTorch: 6.4.43482\nGPU models and configuration: AMD "
           "Instinct MI300X (gfx942)\nHIP runtime version: 6.4.43482\n\nPYTORCH_ROCM_ARCH=gfx942\nVLLM_USE_AITER=1\n"
           "HIP_FORCE_DEV_KERNARG=1\n\nCPU:\nArchitecture: x86_64\nModel name: AMD EPYC 9654\nFlags: avx512f amx\n")
    assert ids(taxonomy, "[Bug]: LoRA adapter fails to load", body=env) == set()
    footer = ("We run CI on this in our fork. It is fast.\n\n**BEFORE SUBMITTING, PLEASE READ "
              "<https://docs.vllm.ai/en/latest/contributing> (anything written below this line will be removed "
              "by GitHub Actions)**")
    assert "ci_build" not in ids(taxonomy, "Speed up detokenizer", body=footer)


def test_strong_evidence_decides_from_one_body_sentence(taxonomy: Taxonomy) -> None:
    crash = "Channelwise GPTQ with act-order crashed in the repack step because g_idx was empty."
    [match] = [m for m in taxonomy.match("[Bugfix] Fix GPTQ with desc_act", (), crash) if m.topic_id == "stability"]
    assert match.evidence == (Evidence("body", "crashed"),)
    assert "performance" in ids(taxonomy, "Add AMX int8 GEMM", body="Prefill is 2.3x faster on Xeon.")
    assert "performance" not in ids(taxonomy, "Add AMX int8 GEMM", body="It should be faster on Xeon.")


def test_ambiguous_words_need_company_in_the_body(taxonomy: Taxonomy) -> None:
    docker = "The image goes from 11 GB to 8.9 GB. Users build the image themselves."
    assert "multimodal" not in ids(taxonomy, "Slim the release", body=docker)
    assert "multimodal" in ids(taxonomy, "Slim the release", body="The image encoder is slow. The vision tower too.")
    assert "multimodal" in ids(taxonomy, "Gemma 3 image requests fail")


def test_query_words_name_a_topic_without_matching_text(taxonomy: Taxonomy) -> None:
    hardware = taxonomy.get("hardware")
    assert hardware.names_word("cpu") and hardware.names_word("TPU")
    assert not hardware.names_word("graviton3")  # a keyword, not a name: it matches itself (docs/topics.md)
    assert "hardware" not in ids(taxonomy, "High CPU usage when the server is idle")
    assert taxonomy.named("amd").id == "rocm" and taxonomy.named("MI300").id == "rocm"
    assert taxonomy.named("MI300X") is None and taxonomy.named("build") is None  # a keyword; a plain word
    assert taxonomy.named("ci").id == "ci_build" and taxonomy.named("nonsense") is None
    assert taxonomy.get("rocm").aliases_pattern().search("runs on hip")


def test_bad_pattern_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "topics.toml"
    bad.write_text('[[topic]]\nid = "x"\nname = "x"\npatterns = ["(unclosed"]\n')
    with pytest.raises(ConfigError, match=r"topic.0.patterns: .*bad regular expression"):
        Taxonomy.load(bad)


def test_not_near_blanks_a_word_next_to_another_sense(tmp_path: Path) -> None:
    path = tmp_path / "topics.toml"
    path.write_text('[[topic]]\nid = "sched"\nname = "Scheduler"\nkeywords = ["scheduler", "scheduled", '
                    '"async scheduling"]\n[[topic.not_near]]\nwords = ["schedul*"]\nnear = ["cron", "job"]\n'
                    'window = 2\n')
    taxonomy = Taxonomy.load(path)
    assert ids(taxonomy, "The scheduler starves long prompts") == {"sched"}
    assert ids(taxonomy, "A cron scheduled cleanup") == set()  # next to a word of another sense
    assert ids(taxonomy, "The job was scheduled") == set()  # two words between: within the window
    assert ids(taxonomy, "The job for the new tokenizer was scheduled") == {"sched"}  # too far apart
    assert ids(taxonomy, "A cron job") == set()
    # Only in the same sentence, and a longer keyword the word is part of still names the topic.
    assert ids(taxonomy, "x", body="The scheduler is slow. Job one. The scheduler again.") == {"sched"}
    assert ids(taxonomy, "x", body="Nightly job. Scheduled work waits. The scheduler again.") == {"sched"}
    assert ids(taxonomy, "Cron job fails with async scheduling") == {"sched"}


def test_compiled_patterns_match_exactly_what_their_alternation_matches(taxonomy: Taxonomy) -> None:
    import json
    import re

    from bot.text import body_prose
    from bot.topics.taxonomy import _compile_patterns, _led

    assert _led(r"\b\d+ ms") == (["\\d"], "(?<!\\w\\d)\\d* ms")
    assert _led(r"\b(?:improv\w*|cuts?)\s+by")[0] == ["c", "i"]
    for pattern in (r"\b\d+x|foo", r"\b(?:a?b|c)", r"\b(?:ab|cd)?x", r"(?-i:Connector)", r"\bk?v", r"--x"):
        assert _led(pattern) is None, pattern
    data = Path(__file__).resolve().parent / "data"
    texts = ["v0.9.2 ms", "~400 ms", "x1.5 ms", "٣٠ ms longer", "Kelvin KV cache is too small"]
    for name in ("topic_eval.jsonl", "topic_holdout.jsonl"):
        for line in (data / name).read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            texts += [item["title"], body_prose(item["body"])]
    checked = 0
    for topic in taxonomy.topics:
        patterns = topic.definition.patterns
        if not patterns:
            continue
        alternation = re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)
        [compiled] = _compile_patterns(patterns)
        for text in texts:
            assert [m.span() for m in compiled.finditer(text)] == [m.span() for m in alternation.finditer(text)]
            checked += bool(alternation.search(text))
    assert checked > 50


@settings(max_examples=200, deadline=None)
@given(st.builds(Evidence, st.sampled_from(("label", "tag", "title", "body", "body_lead")), st.text(),
                 st.integers(0, 50)))
def test_stored_evidence_reads_back_as_it_was(evidence: Evidence) -> None:
    assert decode_evidence(encode_evidence(evidence)) == evidence


def test_stored_evidence_this_code_did_not_write_is_left_out() -> None:
    for junk in ("label rocm", "tag [rocm]", "[]", '["nope", "x"]', '["tag", 3]', '["body", "x", -1]',
                 '["body", "x", true]', '{"source": "tag"}', ""):
        assert decode_evidence(junk) is None, junk
    match = TopicMatch.from_stored("rocm", 5, ('["tag","rocm"]', "tag [rocm]"))
    assert match.evidence == (Evidence("tag", "rocm"),)
    assert match.stored() == ("rocm", 5, ('["tag","rocm"]',))
