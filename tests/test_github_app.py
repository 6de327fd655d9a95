"""GitHub App authentication against the fake GitHub served on 127.0.0.1: the fake checks each JWT with the App's
public key; installation tokens are fetched once, renewed before they expire, and each installation spends its
own rate-limit budget; a wrong key is refused with a clear error."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.demo.fake_github import FakeGitHub
from bot.errors import BadCredentials, ConfigError, RepoNotFound
from bot.github.app_auth import REFRESH_BEFORE, AppAuth
from bot.github.factory import AppSync
from bot.settings import Settings, load_settings
from bot.store.store import Store
from tests.factories import issue_payload
from tests.test_scheduler import make_settings

APP_ID = "424242"


def rsa_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


PRIVATE, PUBLIC = rsa_pair()


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC).timestamp()

    def __call__(self) -> float:
        return self.now


def fake_with_app(clock: Clock, *, ttl: float = 3600.0) -> FakeGitHub:
    # A personal token is configured, so a request without a valid installation token is not "authenticated".
    fake = FakeGitHub(token="ghp_someone_else", now=clock)
    start = datetime.now(UTC) - timedelta(hours=2)
    fake.add_repo("org-a/one", [issue_payload(n, start, repo="org-a/one") for n in (1, 2, 3)], [])
    fake.add_repo("org-b/two", [issue_payload(n, start, repo="org-b/two") for n in (1, 2)], [])
    fake.add_app(APP_ID, PUBLIC, {"org-a/one": 11, "org-b/two": 22}, token_ttl=ttl)
    return fake


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


async def test_each_installation_syncs_with_its_own_token_and_budget(sqlite_store: Store, settings: Settings) -> None:
    clock = Clock()
    fake = fake_with_app(clock)
    with fake.serve() as base_url:
        app = AppSync(sqlite_store, settings, auth=AppAuth(APP_ID, PRIVATE, api_url=base_url, now=clock))
        try:
            one = await app.sync("org-a/one")
            two = await app.sync("org-b/two")
            await app.sync("org-a/one")  # again: same token, same client
        finally:
            await app.aclose()
    assert (one.items, two.items) == (3, 2)
    assert [installation for installation, _ in fake.tokens_issued] == [11, 22]
    a, b = fake.installation_bucket(11), fake.installation_bucket(22)
    assert a["used"] >= 2 and b["used"] >= 2 and a["used"] != b["used"]  # two budgets, spent separately
    assert one.rate_limit == 5000 and one.rate_remaining == 5000 - one.requests
    lookups = [r for r in fake.requests if r.path.endswith("/installation")]
    assert len(lookups) == 2 and all(r.headers["authorization"].startswith("Bearer ey") for r in lookups)  # JWTs
    synced = [r for r in fake.requests if r.path.endswith("/issues")]
    assert {r.headers["authorization"].removeprefix("Bearer ") for r in synced} == {t for _, t in fake.tokens_issued}


async def test_a_renamed_repository_finds_its_installation_and_syncs(sqlite_store: Store, settings: Settings) -> None:
    clock = Clock()
    fake = fake_with_app(clock)
    fake.rename("org-a/one", "org-a/uno")
    with fake.serve() as base_url:
        app = AppSync(sqlite_store, settings, auth=AppAuth(APP_ID, PRIVATE, api_url=base_url, now=clock))
        try:
            report = await app.sync("org-a/one")
        finally:
            await app.aclose()
    lookups = [(r.path, r.status) for r in fake.requests if r.path.endswith("/installation")]
    assert lookups == [("/repos/org-a/one/installation", 301), ("/repositories/1000001/installation", 200)]
    assert (report.items, report.moved_to) == (3, "org-a/uno")


async def test_a_token_is_renewed_before_it_expires(sqlite_store: Store, settings: Settings) -> None:
    clock = Clock()
    fake = fake_with_app(clock, ttl=3600)
    with fake.serve() as base_url:
        auth = AppAuth(APP_ID, PRIVATE, api_url=base_url, installation_id=11, now=clock)
        app = AppSync(sqlite_store, settings, auth=auth)
        try:
            await app.sync("org-a/one")
            clock.now += 3600 - REFRESH_BEFORE - 60  # still fresh
            await app.sync("org-a/one")
            assert len(fake.tokens_issued) == 1
            clock.now += 120  # within REFRESH_BEFORE of expiring: a new one first, never a 401
            await app.sync("org-a/one")
        finally:
            await app.aclose()
    assert len(fake.tokens_issued) == 2
    assert not [r for r in fake.requests if r.status == 401]
    assert not [r for r in fake.requests if r.path.endswith("/installation")]  # the configured installation


async def test_the_fake_checks_the_jwt_with_the_apps_public_key() -> None:
    clock = Clock()
    fake = fake_with_app(clock)
    other_private, _ = rsa_pair()
    with fake.serve() as base_url:
        forged = AppAuth(APP_ID, other_private, api_url=base_url, now=clock)
        wrong_app = AppAuth("999", PRIVATE, api_url=base_url, now=clock)
        right = AppAuth(APP_ID, PRIVATE, api_url=base_url, now=clock)
        try:
            with pytest.raises(BadCredentials, match="JWT"):
                await forged.installation("org-a/one")
            with pytest.raises(BadCredentials):
                await wrong_app.token(11)
            with pytest.raises(RepoNotFound, match="installed"):
                await right.installation("nobody/here")
            assert await right.installation("ORG-A/one") == 11
        finally:
            for auth in (forged, wrong_app, right):
                await auth.aclose()
    assert fake.tokens_issued == []


def test_app_settings_take_a_pem_or_a_path_and_say_what_is_missing(tmp_path: Path) -> None:
    make_settings(tmp_path)
    key_file = tmp_path / "app.pem"
    key_file.write_text(PRIVATE)
    by_path = load_settings(tmp_path, env={"GITHUB_APP_ID": APP_ID, "GITHUB_APP_PRIVATE_KEY": str(key_file),
                                           "GITHUB_APP_INSTALLATION_ID": "11"})
    assert by_path.github_app_private_key == PRIVATE and by_path.github_app_installation_id == 11
    inline = load_settings(tmp_path, env={"GITHUB_APP_ID": APP_ID, "GITHUB_APP_PRIVATE_KEY": PRIVATE})
    assert inline.github_app_id == APP_ID and PRIVATE.strip() in inline.secret_values()  # redacted wherever it shows
    with pytest.raises(ConfigError, match="both"):
        load_settings(tmp_path, env={"GITHUB_APP_ID": APP_ID})
    with pytest.raises(ConfigError, match="neither a PEM") as err:
        load_settings(tmp_path, env={"GITHUB_APP_ID": APP_ID, "GITHUB_APP_PRIVATE_KEY": "not-a-key"})
    assert "not-a-key" not in str(err.value)
