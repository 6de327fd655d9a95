"""Experiment: would a learned text classifier next to the topic rules match better on unseen text?

    pip install -e '.[ml]' && python -m bench.topic_learned [--blind topic_holdout6|topic_holdout4]

Trains one logistic regression per topic (scikit-learn; TF-IDF of title + labels and of the matchable prose,
word 1-2 grams) on the development sets (topic_eval and topic_holdout, 2, 3 and 5) and scores a blind set
three ways: the rules alone (what ships), the model alone, and the two combined (rules OR a
confident model, rules AND a not-unlikely model). Prints micro precision/recall for each; the thresholds are
fixed in the script, not fitted on the blind set. Results and the decision are in docs/topics.md ("A learned
model?"). Not a runtime dependency: the bot never imports this.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # also runs as a plain script
    sys.path.insert(0, str(ROOT))

from bot.text import body_prose  # noqa: E402
from bot.topics.taxonomy import Taxonomy, matchable_prose  # noqa: E402

DATA = ROOT / "tests" / "data"
DEVELOPMENT = ("topic_eval", "topic_holdout", "topic_holdout2", "topic_holdout3", "topic_holdout5")
UNION_AT = (0.6, 0.7, 0.8, 0.9)
INTERSECTION_AT = (0.05, 0.1, 0.2)


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blind", default="topic_holdout6", help="the set to score (default topic_holdout6)")
    args = parser.parse_args()
    try:
        import numpy as np
        from scipy.sparse import hstack
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        sys.exit("this experiment needs scikit-learn: pip install -e '.[ml]'")

    taxonomy = Taxonomy.load(ROOT / "config" / "topics.toml")
    ids = taxonomy.ids()
    train = [item for name in DEVELOPMENT for item in load(name)]
    blind = load(args.blind)

    def texts(items: list[dict]) -> tuple[list[str], list[str]]:
        titles = [f"{it['title']} " + " ".join(f"label_{label}" for label in it["labels"]) for it in items]
        return titles, [matchable_prose(body_prose(it["body"])) for it in items]

    def truth(items: list[dict]):
        return np.array([[topic in it["topics"] for topic in ids] for it in items], dtype=bool)

    title_vec = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    body_vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=20_000)
    train_titles, train_bodies = texts(train)
    blind_titles, blind_bodies = texts(blind)
    x_train = hstack([title_vec.fit_transform(train_titles), 0.5 * body_vec.fit_transform(train_bodies)]).tocsr()
    x_blind = hstack([title_vec.transform(blind_titles), 0.5 * body_vec.transform(blind_bodies)]).tocsr()
    y_train, y_blind = truth(train), truth(blind)
    proba = np.zeros(y_blind.shape)
    for j in range(len(ids)):
        if y_train[:, j].any():
            model = LogisticRegression(C=4.0, max_iter=2000, class_weight="balanced").fit(x_train, y_train[:, j])
            proba[:, j] = model.predict_proba(x_blind)[:, 1]
    rules = np.array([[topic in {m.topic_id for m in taxonomy.match(it["title"], it["labels"], it["body"])}
                       for topic in ids] for it in blind], dtype=bool)

    def report(name: str, predicted) -> None:
        tp = int((predicted & y_blind).sum())
        fp = int((predicted & ~y_blind).sum())
        fn = int((~predicted & y_blind).sum())
        precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        f1 = 2 * precision * recall / max(precision + recall, 1e-9)
        print(f"{name:<28} precision {precision:.3f}  recall {recall:.3f}  F1 {f1:.3f}  (TP {tp}, FP {fp}, FN {fn})")

    print(f"trained on {len(train)} items ({', '.join(DEVELOPMENT)}); scored on {args.blind} ({len(blind)} items)")
    report("rules (shipped)", rules)
    report("model, p >= 0.5", proba >= 0.5)
    for threshold in UNION_AT:
        report(f"rules OR model p >= {threshold}", rules | (proba >= threshold))
    for threshold in INTERSECTION_AT:
        report(f"rules AND model p >= {threshold}", rules & (proba >= threshold))


if __name__ == "__main__":
    main()
