"""LLM answers kept by content hash: re-running a digest (a retry, another channel, a restart) costs no calls.

The key is a sha256 of everything that shapes the answer (prompt version, endpoint, model, messages, limits):
two servers serving a model under the same name are two models. Only outputs that passed validation are
stored. Synchronous SQLAlchemy Core: async callers use ``asyncio.to_thread``.

The same table keeps the last analysis report of each repository and locale (``put_report``, for ``status``)
under keys ``report:…``: never a sha256 hex, so never an answer's key; pruned with the answers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from bot.store import schema
from bot.store.db import upsert
from bot.store.store import Store
from bot.timeutil import utcnow

_CHUNK = 500
_REPORT = "report:"


def cache_key(
    *, version: str, endpoint: str, model: str, messages: list[dict[str, str]], max_tokens: int, temperature: float
) -> str:
    """sha256 hex of a canonical JSON of what the answer depends on. ``endpoint``: the API root as an identity,
    without credentials (``bot.analysis.client.endpoint_id``)."""
    canonical = json.dumps(
        {"v": version, "endpoint": endpoint, "model": model, "messages": messages, "max_tokens": max_tokens,
         "temperature": temperature},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class LLMCache:
    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def get(self, key: str) -> str | None:
        table = schema.llm_cache
        with self.engine.connect() as conn:
            return conn.execute(select(table.c.output).where(table.c.key == key)).scalar()

    def get_many(self, keys: Collection[str]) -> dict[str, str]:
        table = schema.llm_cache
        wanted = sorted(set(keys))
        found: dict[str, str] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _CHUNK):
                rows = conn.execute(
                    select(table.c.key, table.c.output).where(table.c.key.in_(wanted[start : start + _CHUNK]))
                )
                found.update({row.key: row.output for row in rows})
        return found

    def put(self, key: str, model: str, output: str, prompt_tokens: int, completion_tokens: int) -> None:
        self.put_many([(key, model, output, prompt_tokens, completion_tokens)])

    def put_many(self, entries: Collection[tuple[str, str, str, int, int]]) -> None:
        """Idempotent: the same key written twice (two processes racing) keeps one row."""
        now = utcnow()
        # One row per key (PostgreSQL refuses to upsert the same row twice in one statement).
        rows = list({
            key: dict(key=key, model=model[:200], output=output, prompt_tokens=prompt, completion_tokens=completion,
                      created_at=now)
            for key, model, output, prompt, completion in entries
        }.values())
        if not rows:
            return
        with self.engine.begin() as conn:
            upsert(conn, schema.llm_cache, rows, ("key",))

    def prune(self, older_than: datetime) -> int:
        """Forget answers stored before ``older_than``; returns how many."""
        table = schema.llm_cache
        with self.engine.begin() as conn:
            result = conn.execute(delete(table).where(table.c.created_at < older_than))
        return result.rowcount or 0

    def put_report(self, repo: str, locale: str, report: dict[str, Any]) -> None:
        """The last analysis of ``repo`` in ``locale`` (its report as a dict), replacing the one before."""
        now = utcnow()
        digest = hashlib.sha256(f"{repo}\n{locale}".encode()).hexdigest()
        key = _REPORT + digest[: 64 - len(_REPORT)]
        payload = json.dumps({"repo": repo, "locale": locale, "at": now.isoformat(), **report},
                             ensure_ascii=False, sort_keys=True, default=str)
        with self.engine.begin() as conn:
            upsert(conn, schema.llm_cache, [dict(key=key, model=f"{repo} {locale}"[:200], output=payload,
                                                 prompt_tokens=0, completion_tokens=0, created_at=now)], ("key",))

    def reports(self) -> list[dict[str, Any]]:
        """The last analysis report of each repository and locale, by repository."""
        table = schema.llm_cache
        with self.engine.connect() as conn:
            rows = conn.execute(select(table.c.output).where(table.c.key.startswith(_REPORT))).scalars().all()
        found: list[dict[str, Any]] = []
        for output in rows:
            try:
                data = json.loads(output)
            except ValueError:
                continue
            if isinstance(data, dict):
                found.append(data)
        return sorted(found, key=lambda data: (str(data.get("repo")), str(data.get("locale"))))
