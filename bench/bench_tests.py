"""The README's test command, serial and parallel, side by side in one run.

    python -m bench.bench_tests                  # the whole command twice (~15 min on 2 busy cores)
    python -m bench.bench_tests --only tests/test_reports_web.py tests/test_coherence.py --workers 2 3 4
    python -m bench.bench_tests --rounds 2       # alternate the variants twice (serial, parallel, serial, ...)
    python -m bench.bench_tests --only tests/test_demo.py --extra 'loadfile=-n 4 --dist loadfile'

The command is the README's (``pip install -e '.[test]' && ruff check . && lint-imports && mypy && pytest -q``);
the parallel variant runs it as written (``addopts`` gives ``-n auto``), the serial one with ``pytest -q -n 0``.
Each step is timed on its own so the pytest share is visible; the variants alternate (serial first) so a change
in the machine's load hits both. The result is the ratio parallel / serial of the whole command (target ≤ 0.5),
and of pytest alone. ``--workers`` adds ``-n N`` variants (pytest only) to choose the worker count; ``--only``
limits pytest to some files (for that choice: the whole suite is long). Each run's pass/fail/skip line is
printed: a variant that loses tests would not be a faster one.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

from bench.common import ROOT, print_machine, print_table

CHECKS = ["pip install -q -e '.[test]'", "ruff check .", "lint-imports", "mypy"]
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed|skipped|error).*?)\s*=*$", re.MULTILINE)


def _step(command: str, *, tests: bool = False) -> tuple[float, str]:
    started = time.monotonic()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    took = time.monotonic() - started
    if done.returncode != 0 and not tests:  # a check that fails makes the timing meaningless
        tail = (done.stdout + done.stderr)[-3000:]
        raise SystemExit(f"`{command}` exited {done.returncode} after {took:.0f} s:\n{tail}")
    found = SUMMARY.findall(done.stdout)
    outcome = found[-1][0] if found else "(no summary line)"
    if done.returncode != 0:  # kept, and said: a failed test under load still took its time
        outcome += f" [exit {done.returncode}]"
        failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        print("\n".join(f"    {line}" for line in failed[:20]), flush=True)
    return took, outcome


def _variant(name: str, pytest_args: str, *, checks: bool) -> dict[str, object]:
    times: dict[str, float] = {}
    if checks:
        for command in CHECKS:
            times[command.split()[0]], _ = _step(command)
    # the venv's pytest, as the README runs it (PATH above)
    times["pytest"], outcome = _step(f"pytest -q {pytest_args}".strip(), tests=True)
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"  {name:<10} {sum(times.values()):7.1f} s  (pytest {times['pytest']:.1f} s)  {outcome}  load {load}",
          flush=True)
    return {"name": name, "times": times, "outcome": outcome}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=1, help="alternations of the variants (default 1)")
    parser.add_argument("--workers", type=int, nargs="*", default=[], help="extra -n N variants (pytest only)")
    parser.add_argument("--extra", action="append", default=[], metavar="NAME=ARGS",
                        help="another pytest-only variant, e.g. 'worksteal=-n 4 --dist worksteal'")
    parser.add_argument("--only", nargs="*", default=[], help="test files to run instead of the whole suite")
    parser.add_argument("--pytest-only", action="store_true", help="time pytest alone, not the checks")
    args = parser.parse_args()

    only = " ".join(shlex.quote(path) for path in args.only)
    for path in args.only:
        if not (ROOT / path).exists():
            raise SystemExit(f"no such test file: {path}")
    checks = not (args.only or args.pytest_only)
    variants = [("serial", f"-n 0 {only}"), ("parallel", only)]
    variants += [(f"-n {count}", f"-n {count} {only}") for count in args.workers]
    for extra in args.extra:
        name, _, pytest_args = extra.partition("=")
        variants.append((name, f"{pytest_args} {only}"))
    print_machine({"pytest": f"{only or 'the whole suite'}; checks {'timed' if checks else 'not run'}",
                   "test PostgreSQL": os.environ.get("DIGEST_BOT_TEST_PG", "(default: local)")})
    results: list[dict[str, object]] = []
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}/{args.rounds}:", flush=True)
        results.extend(_variant(name, pytest_args, checks=checks) for name, pytest_args in variants)

    rows = []
    serial_total = sum(sum(r["times"].values()) for r in results if r["name"] == "serial")  # type: ignore[union-attr]
    serial_pytest = sum(r["times"]["pytest"] for r in results if r["name"] == "serial")  # type: ignore[index]
    for name, _ in variants:
        mine = [r for r in results if r["name"] == name]
        total = sum(sum(r["times"].values()) for r in mine)  # type: ignore[union-attr]
        pytest_time = sum(r["times"]["pytest"] for r in mine)  # type: ignore[index]
        rows.append([name, f"{total / len(mine):.1f}", f"{pytest_time / len(mine):.1f}",
                     f"{total / serial_total:.2f}x", f"{pytest_time / serial_pytest:.2f}x", mine[-1]["outcome"]])
    print()
    print_table(["variant", "command s", "pytest s", "command / serial", "pytest / serial", "last outcome"], rows)
    print(f"\nload average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    os.chdir(Path(ROOT))
    main()
