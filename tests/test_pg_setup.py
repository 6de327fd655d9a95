"""Where the PostgreSQL tests run (tests/pg.py): one env var, and a skip reason that says what to set."""

from __future__ import annotations

import socket

import pytest
from sqlalchemy.engine import URL

from tests import pg


def _reachable(url: URL) -> None:
    return None


def _refused(url: URL) -> None:
    raise ConnectionRefusedError("connection refused")


def test_unset_means_the_local_server() -> None:
    seen: list[str] = []

    def probe(url: URL) -> None:
        seen.append(pg.shown(url))

    found = pg.target({}, probe)
    assert found.skip is None and found.url is not None
    assert seen == [pg.DEFAULT_URL]


@pytest.mark.parametrize("value", ["", "off", "OFF", "  off "])
def test_empty_or_off_skips_on_purpose_without_connecting(value: str) -> None:
    def probe(url: URL) -> None:
        raise AssertionError("must not connect when the tests are off")

    found = pg.target({pg.ENV: value}, probe)
    assert found.url is None
    assert found.skip == f"PostgreSQL tests off: DIGEST_BOT_TEST_PG={value.strip()!r}"


def test_an_absent_server_skips_naming_the_url_and_the_env_var_without_the_password() -> None:
    found = pg.target({pg.ENV: "postgresql+psycopg://bob:s3cret@db.internal:6543/ci"}, _refused)
    assert found.url is None
    assert found.skip == (
        "PostgreSQL tests skipped: no PostgreSQL at postgresql+psycopg://bob:***@db.internal:6543/ci "
        "(ConnectionRefusedError); start one or set DIGEST_BOT_TEST_PG to an SQLAlchemy URL of a database the "
        "tests may create schemas in (DIGEST_BOT_TEST_PG=off skips them)"
    )
    assert "s3cret" not in found.skip


def test_a_missing_driver_says_what_to_install() -> None:
    def probe(url: URL) -> None:
        raise ModuleNotFoundError("No module named 'psycopg'", name="psycopg")

    found = pg.target({}, probe)
    assert found.skip == ("PostgreSQL tests skipped: no driver for postgresql+psycopg (psycopg): "
                          "pip install -e '.[test]'")


def test_heroku_style_urls_go_through_psycopg_like_the_bot() -> None:
    found = pg.target({pg.ENV: "postgres://u@127.0.0.1:5432/x"}, _reachable)
    assert found.url is not None and found.url.drivername == "postgresql+psycopg"


@pytest.mark.parametrize(("value", "said"), [
    ("sqlite:///x.db", "DIGEST_BOT_TEST_PG=sqlite:///x.db is not a PostgreSQL URL"),
    ("not a url", "DIGEST_BOT_TEST_PG is not an SQLAlchemy URL"),
])
def test_a_url_that_is_not_postgresql_skips_saying_so(value: str, said: str) -> None:
    found = pg.target({pg.ENV: value}, _reachable)
    assert found.url is None and found.skip is not None
    assert found.skip.startswith(f"PostgreSQL tests skipped: {said}; set DIGEST_BOT_TEST_PG to")


def test_the_real_probe_gives_up_on_a_closed_port_quickly() -> None:
    with socket.socket() as closed:  # a port nobody listens on: bound, never listening
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        found = pg.target({pg.ENV: f"postgresql+psycopg://postgres@127.0.0.1:{port}/test"}, pg.connect_probe)
    assert found.url is None and found.skip is not None
    assert found.skip.startswith(f"PostgreSQL tests skipped: no PostgreSQL at postgresql+psycopg://postgres@127.0.0.1:"
                                 f"{port}/test (OperationalError); start one or set DIGEST_BOT_TEST_PG")


def test_each_test_gets_its_own_schema_and_it_is_dropped() -> None:
    found = pg.this_run()
    if found.url is None:
        pytest.skip(found.skip or "PostgreSQL tests skipped")
    from sqlalchemy import create_engine, text

    with pg.fresh_schema(found.url) as first, pg.fresh_schema(found.url) as second:
        names = []
        for url in (first, second):
            engine = create_engine(url)
            with engine.connect() as conn:
                names.append(conn.execute(text("SELECT current_schema()")).scalar_one())
            engine.dispose()
        assert names[0] != names[1] and all(name.startswith("t_") for name in names)
    engine = create_engine(found.url)
    with engine.connect() as conn:
        left = conn.execute(text("SELECT count(*) FROM pg_namespace WHERE nspname IN (:a, :b)"),
                            {"a": names[0], "b": names[1]}).scalar_one()
    engine.dispose()
    assert left == 0
