"""Topic matching on the held-out sets (tests/data/topic_holdout*.jsonl): how well the rules do on text written
without them.

Every set was written by someone who had read only the labelling policy (docs/topic-labelling.md, or the short
rules it grew from), the topic ids and the file format: not the keywords, the code or the other sets. The two
written before the policy were relabelled once by it, from each item's text alone, without the matcher's output.

- topic_holdout.jsonl (120 items) and topic_holdout2.jsonl (150) were blind when first scored (micro precision
  0.845 and 0.824) and have since been used, with topic_eval.jsonl, to make the rules general: they are
  development sets now, and their floors guard against regressions.
- topic_holdout3.jsonl (200) was written from the policy after those rules and scored once, blind (0.936 /
  0.931); a second annotator labelled it independently from the policy (agreement: micro precision 0.992,
  recall 0.994 against the writer's labels). General rules were then drawn from its misses: it is a development
  set too.
- topic_holdout5.jsonl (200, a representative week of the tracker) was scored once, blind (0.912 / 0.932),
  then used like topic_holdout3: general rules from its misses (file names, the benchmark tool, a third body
  sentence for model families and performance), and three labels changed where the policy was made explicit
  (`vllm bench` is the benchmark tool, not the CLI's API surface).
- topic_holdout4.jsonl (200, many writers' styles and everyday wording) and topic_holdout6.jsonl (200, two
  representative weeks) are the blind sets: written from the policy by other writers, scored once, never tuned
  on. Their floors are their first scores (topic_holdout4's were raised after a round of symptom phrasings
  written without its items). Do not change rules to fix their items: that would turn them into development
  sets and hide how matching does on new text (docs/topics.md, "Quality").

Floors are (precision, recall) per topic with at least MIN_POSITIVES positives, the measured scores rounded down
to 0.05; the test fails when matching gets worse. If a rule change raises a development set's score, raise its
floor. ``pytest -s`` prints the tables and the wrong items.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.topics.taxonomy import Taxonomy
from tests.test_topic_eval import Counts, evaluate, table

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
MIN_POSITIVES = 5
EPS = 1e-9

SIZES = {"topic_holdout": 120, "topic_holdout2": 150, "topic_holdout3": 200, "topic_holdout4": 200,
         "topic_holdout5": 200, "topic_holdout6": 200}
FLOORS: dict[str, dict[str, tuple[float, float]]] = {
    "topic_holdout": {  # development set (first scored 0.845 / 0.907 micro)
        "cuda": (1.00, 1.00),  # 12/12, 12/12
        "quantization": (1.00, 1.00),  # 6/6, 6/6
        "multimodal": (1.00, 1.00),  # 5/5, 5/5
        "gpt_oss": (1.00, 1.00),  # 21/21, 21/21
        "kernels": (1.00, 0.90),  # 11/11, 11/12: the reason is only in a code block
        "distributed": (1.00, 1.00),  # 10/10, 10/10
        "frontend": (1.00, 1.00),  # 20/20, 20/20
        "scheduler": (1.00, 0.95),  # 28/28, 28/29
        "ci_build": (1.00, 1.00),  # 16/16, 16/16
        "docs": (1.00, 0.80),  # 5/5, 5/6
        "performance": (1.00, 1.00),  # 33/33, 33/33
        "stability": (0.85, 0.90),  # 18/21, 18/19
    },
    "topic_holdout2": {  # development set (first scored 0.824 / 0.949 micro)
        "rocm": (1.00, 1.00),  # 10/10, 10/10
        "cuda": (1.00, 1.00),  # 17/17, 17/17
        "quantization": (1.00, 1.00),  # 15/15, 15/15
        "moe": (1.00, 1.00),  # 9/9, 9/9
        "spec_decode": (1.00, 1.00),  # 9/9, 9/9
        "multimodal": (1.00, 1.00),  # 9/9, 9/9
        "qwen": (1.00, 1.00),  # 10/10, 10/10
        "deepseek": (0.90, 1.00),  # 9/10, 9/9
        "llama": (0.90, 1.00),  # 10/11, 10/10
        "gpt_oss": (1.00, 1.00),  # 9/9, 9/9
        "kernels": (1.00, 1.00),  # 19/19, 19/19
        "compile": (1.00, 1.00),  # 5/5, 5/5
        "distributed": (1.00, 0.90),  # 14/14, 14/15
        "frontend": (0.90, 1.00),  # 27/29, 27/27
        "scheduler": (0.90, 1.00),  # 13/14, 13/13
        "ci_build": (1.00, 1.00),  # 20/20, 20/20
        "docs": (0.90, 1.00),  # 10/11, 10/10
        "performance": (0.90, 0.90),  # 15/16, 15/16
        "stability": (0.90, 0.95),  # 33/36, 33/34
    },
    "topic_holdout3": {  # development set since (first scored blind 0.936 / 0.931 micro)
        "rocm": (1.00, 1.00),  # 7/7, 7/7
        "cuda": (0.90, 0.95),  # 24/26, 24/25
        "hardware": (1.00, 1.00),  # 7/7, 7/7
        "quantization": (0.95, 1.00),  # 19/20, 19/19
        "moe": (1.00, 1.00),  # 11/11, 11/11
        "spec_decode": (1.00, 1.00),  # 8/8, 8/8
        "multimodal": (1.00, 1.00),  # 16/16, 16/16
        "qwen": (1.00, 1.00),  # 11/11, 11/11
        "deepseek": (1.00, 1.00),  # 7/7, 7/7
        "llama": (1.00, 1.00),  # 6/6, 6/6
        "gemma": (1.00, 1.00),  # 6/6, 6/6
        "mistral": (1.00, 1.00),  # 8/8, 8/8
        "gpt_oss": (1.00, 1.00),  # 6/6, 6/6
        "glm": (1.00, 1.00),  # 7/7, 7/7
        "minimax": (1.00, 1.00),  # 6/6, 6/6
        "kimi": (1.00, 1.00),  # 6/6, 6/6
        "kernels": (0.90, 1.00),  # 20/22, 20/20
        "compile": (1.00, 1.00),  # 8/8, 8/8
        "distributed": (0.85, 1.00),  # 17/19, 17/17
        "frontend": (0.95, 1.00),  # 38/40, 38/38
        "scheduler": (0.90, 0.90),  # 12/13, 12/13
        "ci_build": (0.95, 1.00),  # 29/30, 29/29
        "docs": (1.00, 1.00),  # 11/11, 11/11
        "performance": (0.90, 0.75),  # 15/16, 15/19
        "stability": (0.90, 0.90),  # 48/51, 48/51
    },
    # BLIND: first scored 0.924 / 0.880 micro (previous session's matcher: 0.879 / 0.877); now 0.938 / 0.891
    "topic_holdout4": {
        "rocm": (1.00, 1.00),  # 8/8, 8/8
        "cuda": (1.00, 0.90),  # 20/20, 20/22
        "hardware": (1.00, 0.85),  # 8/8, 8/9
        "quantization": (0.90, 0.90),  # 12/13, 12/13
        "moe": (0.90, 1.00),  # 12/13, 12/12
        "spec_decode": (0.80, 1.00),  # 8/10, 8/8
        "multimodal": (1.00, 0.90),  # 14/14, 14/15
        "qwen": (0.90, 1.00),  # 12/13, 12/12
        "deepseek": (1.00, 1.00),  # 7/7, 7/7
        "llama": (1.00, 0.85),  # 7/7, 7/8
        "gemma": (1.00, 1.00),  # 7/7, 7/7
        "mistral": (1.00, 1.00),  # 7/7, 7/7
        "gpt_oss": (1.00, 1.00),  # 6/6, 6/6
        "glm": (1.00, 1.00),  # 6/6, 6/6
        "minimax": (1.00, 1.00),  # 6/6, 6/6
        "kimi": (1.00, 1.00),  # 7/7, 7/7
        "kernels": (0.90, 0.80),  # 14/15, 14/17
        "compile": (1.00, 1.00),  # 8/8, 8/8
        "distributed": (0.90, 0.95),  # 21/23, 21/22
        "frontend": (0.90, 0.75),  # 23/25, 23/29
        "scheduler": (0.85, 0.80),  # 18/21, 18/22
        "ci_build": (1.00, 0.90),  # 21/21, 21/23
        "docs": (1.00, 0.90),  # 13/13, 13/14
        "performance": (0.90, 0.90),  # 18/19, 18/20
        "stability": (0.80, 0.70),  # 35/42, 35/49
    },
    # development set since (first scored blind 0.912 / 0.932 micro; previous session's matcher 0.861 / 0.922)
    "topic_holdout5": {
        "rocm": (1.00, 1.00),  # 11/11, 11/11
        "cuda": (0.90, 1.00),  # 27/29, 27/27
        "hardware": (1.00, 1.00),  # 10/10, 10/10
        "quantization": (1.00, 1.00),  # 21/21, 21/21
        "moe": (0.85, 0.90),  # 14/16, 14/15
        "spec_decode": (1.00, 1.00),  # 11/11, 11/11
        "multimodal": (1.00, 1.00),  # 19/19, 19/19
        "qwen": (0.95, 1.00),  # 19/20, 19/19
        "deepseek": (1.00, 1.00),  # 12/12, 12/12
        "llama": (1.00, 1.00),  # 7/7, 7/7
        "gemma": (1.00, 1.00),  # 7/7, 7/7
        "mistral": (1.00, 1.00),  # 7/7, 7/7
        "gpt_oss": (0.85, 1.00),  # 8/9, 8/8
        "glm": (1.00, 1.00),  # 7/7, 7/7
        "minimax": (1.00, 1.00),  # 5/5, 5/5
        "kimi": (1.00, 1.00),  # 5/5, 5/5
        "kernels": (0.85, 0.90),  # 24/27, 24/26
        "compile": (0.70, 0.85),  # 8/11, 8/9
        "distributed": (0.90, 1.00),  # 27/30, 27/27
        "frontend": (0.90, 0.95),  # 33/35, 33/34
        "scheduler": (1.00, 1.00),  # 20/20, 20/20
        "ci_build": (1.00, 0.90),  # 25/25, 25/27
        "docs": (0.90, 1.00),  # 9/10, 9/9
        "performance": (0.90, 0.85),  # 24/26, 24/28
        "stability": (0.95, 0.80),  # 43/44, 43/51
    },
    # BLIND: first scored 0.926 / 0.961 micro as written (previous session's matcher: 0.867 / 0.946); two `vllm
    # bench` items then relabelled by the clarified policy (0.926 / 0.965)
    "topic_holdout6": {
        "rocm": (1.00, 1.00),  # 11/11, 11/11
        "cuda": (0.90, 0.95),  # 26/28, 26/27
        "hardware": (0.90, 1.00),  # 14/15, 14/14
        "quantization": (0.95, 1.00),  # 20/21, 20/20
        "moe": (1.00, 1.00),  # 15/15, 15/15
        "spec_decode": (0.85, 1.00),  # 8/9, 8/8
        "multimodal": (0.85, 1.00),  # 17/20, 17/17
        "qwen": (1.00, 1.00),  # 18/18, 18/18
        "deepseek": (1.00, 1.00),  # 9/9, 9/9
        "llama": (1.00, 1.00),  # 9/9, 9/9
        "gemma": (1.00, 1.00),  # 8/8, 8/8
        "mistral": (1.00, 1.00),  # 6/6, 6/6
        "gpt_oss": (0.85, 1.00),  # 8/9, 8/8
        "glm": (1.00, 1.00),  # 6/6, 6/6
        "kimi": (1.00, 1.00),  # 6/6, 6/6
        "kernels": (0.90, 0.95),  # 33/36, 33/34
        "compile": (0.90, 1.00),  # 9/10, 9/9
        "distributed": (0.90, 1.00),  # 24/26, 24/24
        "frontend": (0.80, 1.00),  # 26/31, 26/26
        "scheduler": (1.00, 0.95),  # 19/19, 19/20
        "ci_build": (0.85, 0.95),  # 24/27, 24/25
        "docs": (1.00, 1.00),  # 11/11, 11/11
        "performance": (0.80, 0.85),  # 24/29, 24/27
        "stability": (0.90, 0.80),  # 35/38, 35/42
    },
}


def load(name: str) -> list[dict]:
    with (DATA / f"{name}.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return Taxonomy.load(ROOT / "config" / "topics.toml")


@pytest.fixture(scope="module")
def results(taxonomy: Taxonomy) -> dict[str, dict[str, Counts]]:
    found = {}
    for name in FLOORS:
        counts, errors = evaluate(taxonomy, load(name))
        print(f"\n{name}:\n{table(counts)}\n{len(errors)} items not matched exactly:\n" + "\n".join(errors))
        found[name] = counts
    return found


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_set_is_well_formed(taxonomy: Taxonomy, name: str) -> None:
    items = load(name)
    assert len(items) == SIZES[name]
    assert len({item["title"] for item in items}) == len(items), "duplicate titles"
    known = set(taxonomy.ids())
    for item in items:
        assert set(item) == {"title", "labels", "body", "topics"}, item["title"]
        assert set(item["topics"]) <= known, item["title"]


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_floors_cover_every_topic_with_enough_positives(results: dict[str, dict[str, Counts]], name: str) -> None:
    enough = {topic_id for topic_id, c in results[name].items() if c.tp + c.fn >= MIN_POSITIVES}
    assert enough == set(FLOORS[name])


@pytest.mark.parametrize(("name", "topic_id"), [(name, topic) for name, floors in FLOORS.items() for topic in floors])
def test_scores_do_not_drop(results: dict[str, dict[str, Counts]], name: str, topic_id: str) -> None:
    precision, recall = FLOORS[name][topic_id]
    c = results[name][topic_id]
    assert c.precision + EPS >= precision and c.recall + EPS >= recall, (name, topic_id, c.precision, c.recall)
