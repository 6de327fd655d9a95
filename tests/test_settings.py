from __future__ import annotations

from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.settings import load_settings


def write(folder: Path, text: str) -> Path:
    (folder / "digest.toml").write_text(text, encoding="utf-8")
    return folder


def test_defaults_come_from_the_shipped_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config here: the packaged defaults are used
    settings = load_settings(env={})
    assert settings.digest.timezone == "Asia/Shanghai"
    assert settings.digest.post_time == "11:05"
    assert settings.topics_path.is_file()
    assert settings.github_api_url == "https://api.github.com"
    assert settings.github_token is None


def test_environment_overrides(tmp_path: Path) -> None:
    folder = write(tmp_path, "")
    settings = load_settings(folder, env={
        "DATABASE_URL": "postgres://u@db:5432/x", "GITHUB_TOKEN": "t", "GITHUB_API_URL": "https://ghe.example/api/v3/",
    })
    assert settings.database_url == "postgresql+psycopg://u@db:5432/x"
    assert settings.github_api_url == "https://ghe.example/api/v3"
    assert settings.github_token == "t"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[digest]\npost_time = "25:00"', r"digest\.toml: digest\.post_time: must be a time of day HH:MM"),
        ('[digest]\ntimezone = "Mars/Base"', r"digest\.timezone: unknown time zone 'Mars/Base'"),
        ('[digest]\nlocale = "fr"', r"digest\.locale: must be one of en, zh-CN"),
        ('[[repos]]\nname = "not a repo"', r"repos\.0\.name: must look like OWNER/NAME"),
        ("[digest]\ncolour = 1", r"digest\.colour: unknown key"),
        ("[sync]\nlookback_days = -1", r"sync\.lookback_days: Input should be greater than or equal to 1"),
        ("[digest\n", r"digest\.toml: not valid TOML"),
        ('[access]\nrepos = ["*/*"]', r"digest\.toml: access\.repos: the owner must be spelled out"),
        ('[access]\nrepos = ["my-org"]', r"access\.repos: must look like OWNER/NAME or OWNER/\*"),
        ('[access]\nrepos = ["my-org/[ab]"]', r"access\.repos: must look like OWNER/NAME or OWNER/\*"),
        ('[access]\nrepos = ["a/b/c"]', r"access\.repos: must look like OWNER/NAME"),
        ('[access]\nrepos = "my-org/*"', r"access\.repos: Input should be a valid list"),
        ('[access]\nallow_public = "yes"', r"access\.allow_public: Input should be a valid boolean"),
        ('[access]\nallow = ["my-org/*"]', r"access\.allow: unknown key"),
    ],
)
def test_bad_config_names_file_key_and_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, text), env={})


def test_missing_config_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no digest.toml there"):
        load_settings(tmp_path / "nope", env={})


def test_bot_logins(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, '[bots]\nlogins = ["mergify"]'), env={})
    assert settings.is_bot("dependabot[bot]") and settings.is_bot("mergify")
    assert not settings.is_bot("alice")


def test_the_allow_list_is_the_configured_repos_and_the_access_patterns(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, '[access]\nrepos = ["my-org/*", " other/vllm-* "]\n'
                                             '[[repos]]\nname = "vllm-project/vllm"\n'), env={})
    assert settings.file.access.repos == ["my-org/*", "other/vllm-*"] and not settings.file.access.allow_public
    assert settings.allowed_repo("vllm-project/vllm") == "vllm-project/vllm"
    assert settings.allowed_repo("VLLM-Project/VLLM") == "vllm-project/vllm"  # GitHub's names ignore case
    assert settings.allowed_repo("My-Org/tool") == "My-Org/tool"
    assert settings.allowed_repo("other/vllm-ascend") == "other/vllm-ascend"
    for refused in ("vllm-project/other", "my-orgx/tool", "other/vllm", "acme/secret", "my-org/a/b"):
        assert settings.allowed_repo(refused) is None, refused
    assert load_settings(write(tmp_path, ""), env={}).allowed_repo("vllm-project/vllm") is None  # no list: none
