"""A topics file checked once is read back checked (bot.checked): same taxonomy, no parse, no compile; a changed,
broken or tampered file is checked in full again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import bot.topics.taxonomy as taxonomy_module
from bot import checked
from bot.errors import ConfigError
from bot.topics.taxonomy import Taxonomy

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(checked.ENV_DIR, str(folder))
    return folder


@pytest.fixture
def topics(tmp_path: Path) -> Path:
    path = tmp_path / "topics.toml"
    shutil.copy(ROOT / "config" / "topics.toml", path)
    return path


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: Path) -> object:
        raise AssertionError(f"{path} parsed again")

    monkeypatch.setattr(taxonomy_module, "load_toml", refuse)


def _summary(taxonomy: Taxonomy) -> list[tuple[str, str]]:
    return [(topic.id, topic.definition.model_dump_json()) for topic in taxonomy.topics]


def test_a_file_checked_once_loads_the_same_without_parsing(cache: Path, topics: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = Taxonomy.load(topics)
    assert [p.name.startswith("topics-") for p in cache.iterdir()] == [True]
    assert cache.stat().st_mode & 0o777 == 0o700
    _no_parsing(monkeypatch)
    again = Taxonomy.load(topics)
    assert again.fingerprint == first.fingerprint and _summary(again) == _summary(first)
    # what the fields a file set says survives the round trip (a "text" rule must not gain a window)
    rules = [rule for topic in again.topics for rule in topic.definition.not_near]
    assert any(rule.scope == "text" for rule in rules)
    assert all("window" not in rule.model_fields_set for rule in rules if rule.scope == "text")


def test_a_changed_file_is_checked_again_and_a_broken_one_never_kept(cache: Path, topics: Path) -> None:
    Taxonomy.load(topics)
    topics.write_text(topics.read_text(encoding="utf-8")
                      + '\n[[topic]]\nid = "bad"\nname = "Bad"\npatterns = ["(unclosed"]\n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError, match="bad regular expression"):
            Taxonomy.load(topics)
    assert len(list(cache.iterdir())) == 1  # the valid version's entry only


def test_a_damaged_entry_is_checked_again_and_replaced(cache: Path, topics: Path) -> None:
    first = Taxonomy.load(topics)
    (entry,) = cache.iterdir()
    entry.write_text('{"topic": [{"id": "Not An Id", "name": 1}]}', encoding="utf-8")
    assert _summary(Taxonomy.load(topics)) == _summary(first)
    assert '"Not An Id"' not in entry.read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_can_write_is_not_used(cache: Path, topics: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.mkdir()
    cache.chmod(0o777)
    Taxonomy.load(topics)
    assert list(cache.iterdir()) == []
    monkeypatch.setenv(checked.ENV_DIR, "off")
    assert checked.private_dir() is None
    Taxonomy.load(topics)  # still loads, only without the cache
