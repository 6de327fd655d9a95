from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.text import body_prose, one_line_summary, strip_controls, truncate

VLLM_PR = """<!-- markdownlint-disable -->
PLEASE FILL IN THE PR DESCRIPTION HERE ENSURING ALL CHECKLIST ITEMS (AT THE BOTTOM) HAVE BEEN CONSIDERED.

## Purpose

This PR fixes the fp8 scaled_mm on **MI300X** when `N % 16 != 0`. It also adds a test.

FIX #12345

## Test Plan
```
pytest tests/kernels
```
---
<details>
<summary> Essential Elements of an Effective PR Description Checklist </summary>

- [x] The purpose of the PR, such as "Fix some issue (link existing issues this PR will resolve)".
</details>
"""

VLLM_BUG = """### Your current environment

<details>
<summary>The output of <code>python collect_env.py</code></summary>

```text
ROCm version: 6.3 and a hang hang hang
```
</details>

### 🐛 Describe the bug

When serving Qwen3-VL on 8xMI300X with TP=8, the server hangs after ~200 requests. See [logs](http://x).

```
Traceback (most recent call last):
```

### Before submitting a new issue...

- [x] Make sure you already searched for relevant issues, and asked the chatbot living at the bottom right corner.
"""


def test_summary_skips_pr_template_and_markup() -> None:
    assert one_line_summary(VLLM_PR) == "This PR fixes the fp8 scaled_mm on MI300X when N % 16 != 0."


def test_summary_skips_issue_template_env_dump_and_code() -> None:
    assert one_line_summary(VLLM_BUG) == (
        "When serving Qwen3-VL on 8xMI300X with TP=8, the server hangs after ~200 requests."
    )


def test_prose_excludes_code_and_details() -> None:
    prose = body_prose(VLLM_BUG)
    assert "ROCm version" not in prose and "Traceback" not in prose
    assert "See logs." in prose


def test_summary_of_cjk_and_empty_bodies() -> None:
    assert one_line_summary("在 MI300X 上使用 Qwen3 时服务卡住。请帮忙看看。") == "在 MI300X 上使用 Qwen3 时服务卡住。"
    assert one_line_summary(None) == ""
    assert one_line_summary("- [x] done\n- [ ] todo\n") == ""
    assert one_line_summary("<!-- only a comment") == ""


def test_summary_is_bounded_and_ends_with_ellipsis() -> None:
    summary = one_line_summary("word " * 500, limit=50)
    assert len(summary) <= 50 and summary.endswith("…")


def test_truncate_keeps_whole_emoji_sequences() -> None:
    family = "👨\u200d👩\u200d👧"
    text = "ab" + family * 3
    for limit in range(1, len(text)):
        cut = truncate(text, limit)
        assert len(cut) <= limit
        body = cut.removesuffix("…")
        assert not body.endswith("\u200d")


def test_strip_controls_removes_bidi_overrides_and_nul() -> None:
    assert strip_controls("a\u202eb\x00c\u200bd\te\n") == "abcd\te\n"


@given(st.text(max_size=3000))
def test_summary_never_fails_and_is_one_line(body: str) -> None:
    summary = one_line_summary(body)
    assert "\n" not in summary and len(summary) <= 200


def test_strip_controls_covers_every_format_character() -> None:
    import sys
    import unicodedata

    invisible = [chr(c) for c in range(sys.maxunicode + 1)
                 if (unicodedata.category(chr(c)) in ("Cf", "Cc")) and chr(c) not in "\t\n\u200d"]
    assert strip_controls("".join(invisible)) == ""
    assert strip_controls("a\u200db\t\n") == "a\u200db\t\n"


def test_underscores_inside_words_are_not_emphasis() -> None:
    prose = body_prose("What is a safe max_model_len with _emphasis_ and __strong__ here please?")
    assert "max_model_len" in prose
    assert "with emphasis and strong here" in prose
