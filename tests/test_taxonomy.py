from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.topics.taxonomy import Taxonomy, title_tags

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
    assert match.reasons[:2] == ("label rocm", "tag [rocm]")
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
