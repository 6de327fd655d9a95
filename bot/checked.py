"""Files this code has checked before: their validated form, kept as JSON under a private folder and keyed by
the file's bytes, the checking code and the interpreter.

A one-shot command (``digest``, ``query``) checks the whole configuration before it starts (every problem at
once); for ``topics.toml`` that meant parsing it and compiling its ~50 regular expressions on every run, about
20 ms of a half-second command. What was valid is valid again while nothing in the key changed, so the second
run reads the JSON instead. Only files that passed are kept: a broken file is checked (and reported) every
time. The folder is this user's own (mode 0700, like Jinja's bytecode cache); one that is not, or that cannot
be written, means no cache and never an error. The entries are data (JSON), never code.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import sys
import tempfile
from functools import cache
from pathlib import Path

_log = logging.getLogger(__name__)

ENV_DIR = "DIGEST_BOT_CACHE_DIR"  # another folder for it; "off" keeps no cache


def private_dir() -> Path | None:
    """``$DIGEST_BOT_CACHE_DIR``, or ``digest-bot-<uid>`` in the temp folder; None when it is not ours alone."""
    chosen = os.environ.get(ENV_DIR, "")
    if chosen.lower() == "off":
        return None
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = Path(chosen) if chosen else Path(tempfile.gettempdir()) / f"digest-bot-{uid if uid is not None else 0}"
    try:
        folder.mkdir(mode=0o700, parents=bool(chosen), exist_ok=True)
        found = folder.lstat()
    except OSError as err:
        _log.debug("no cache of checked files: %s", err)
        return None
    if not stat.S_ISDIR(found.st_mode) or (uid is not None and found.st_uid != uid) or found.st_mode & 0o077:
        _log.debug("no cache of checked files: %s is not this user's alone", folder)
        return None
    return folder


def key(content: bytes, *checker_files: Path) -> str:
    """What an entry stands for: the file's bytes, the checking code's source and this Python."""
    digest = hashlib.sha256(content)
    for path in checker_files:
        digest.update(_source(path))
    digest.update(sys.version.encode())
    return digest.hexdigest()[:32]


@cache
def _source(path: Path) -> bytes:
    return path.read_bytes()  # the checking code: read once per process, however many files it checks


def read(kind: str, entry: str) -> str | None:
    folder = private_dir()
    if folder is None:
        return None
    try:
        return (folder / f"{kind}-{entry}.json").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def write(kind: str, entry: str, text: str) -> None:
    folder = private_dir()
    if folder is None:
        return
    target = folder / f"{kind}-{entry}.json"
    try:
        # Written aside and renamed: a reader never sees half an entry.
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as tmp:
            tmp.write(text)
        os.replace(tmp.name, target)
    except OSError as err:
        _log.debug("checked file not cached: %s", err)
