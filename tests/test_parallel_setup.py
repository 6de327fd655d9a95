"""How the suite runs in parallel (tests/conftest.py): the groups that keep a shared fixture's tests on one
worker, and a PostgreSQL schema per test."""

from __future__ import annotations

import os

import pytest

from tests.conftest import pytest_xdist_auto_num_workers, shared_fixture_group

MODULE = "tests/test_parallel_setup.py"


@pytest.fixture(scope="module")
def shared() -> str:
    return "set up once per worker"


@pytest.fixture(scope="module", params=["a", "b"])
def per_param(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def own() -> str:
    return "per test"


def test_auto_is_one_worker_more_than_the_usable_cpus_unless_the_env_var_says(
        monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    assert pytest_xdist_auto_num_workers(pytestconfig) == cpus + 1
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert pytest_xdist_auto_num_workers(pytestconfig) is None  # xdist's own hook reads it


def test_a_test_using_its_modules_shared_fixture_is_grouped_by_module(shared: str,
                                                                       request: pytest.FixtureRequest) -> None:
    assert shared_fixture_group(request.node) == MODULE
    if request.config.pluginmanager.hasplugin("xdist"):
        mark = request.node.get_closest_marker("xdist_group")
        assert mark is not None and mark.args == (MODULE,)  # what --dist loadgroup reads


def test_a_parametrized_shared_fixture_makes_one_group_per_parameter(per_param: str,
                                                                    request: pytest.FixtureRequest) -> None:
    index = ["a", "b"].index(per_param)
    assert shared_fixture_group(request.node) == f"{MODULE}::per_param#{index}"


def test_function_fixtures_and_plugins_session_fixtures_leave_a_test_free(
        own: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> None:
    assert shared_fixture_group(request.node) is None
    assert request.node.get_closest_marker("xdist_group") is None


def test_every_store_case_runs_in_a_schema_of_its_own_named_by_worker(store: object,
                                                                      request: pytest.FixtureRequest) -> None:
    from bot.store.store import Store

    assert isinstance(store, Store)
    if store.engine.url.get_backend_name() != "postgresql":
        assert "store.sqlite3" in str(store.engine.url)  # under this test's tmp_path
        return
    options = store.engine.url.query.get("options")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    assert isinstance(options, str) and options.startswith(f"-csearch_path=t_{worker}_"), options
