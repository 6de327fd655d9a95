"""The summary template's compiled-code cache (Jinja's FileSystemBytecodeCache): used across processes, and a
cache that cannot be written is no cache, never an error."""

from __future__ import annotations

from pathlib import Path

import jinja2

from bot.digest.narrative import _BytecodeCache


def _environment(cache: jinja2.BytecodeCache) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("bot.digest", "templates"), trim_blocks=True,
                              lstrip_blocks=True, bytecode_cache=cache)


def test_a_second_environment_loads_the_compiled_template_from_the_cache(tmp_path: Path) -> None:
    first = _environment(_BytecodeCache(str(tmp_path))).get_template("summary.en.j2")
    assert list(tmp_path.iterdir())  # written once compiled

    compiled: list[str] = []

    class Watching(jinja2.Environment):
        def _compile(self, source: str, filename: str):  # type: ignore[no-untyped-def]
            compiled.append(filename)
            return super()._compile(source, filename)

    again = Watching(loader=jinja2.PackageLoader("bot.digest", "templates"), trim_blocks=True, lstrip_blocks=True,
                     bytecode_cache=_BytecodeCache(str(tmp_path))).get_template("summary.en.j2")
    assert compiled == [] and again.name == first.name


def test_a_cache_it_cannot_write_is_no_cache(tmp_path: Path) -> None:
    missing = tmp_path / "gone"  # the folder is not there: writing the compiled code fails
    template = _environment(_BytecodeCache(str(missing))).get_template("summary.en.j2")
    assert template.name == "summary.en.j2" and not missing.exists()
