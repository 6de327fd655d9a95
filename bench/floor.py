"""The floor of a window's answer: read the window's rows with plain SQLAlchemy Core, nothing of the bot's.

Shared by the in-process benches (``read_window_rows``: bench_digest, bench_query) and, as a script, by
bench_cli, which times it in a fresh interpreter beside the CLI's commands:

    python -m bench.floor URL REPO START END BYTES

reads the window's items and comments (``window_rows``) and writes ``BYTES`` characters of JSON made of them
(the size of the command's answer), so it pays an interpreter, SQLAlchemy, the rows and the output, and
nothing else. It imports only SQLAlchemy and the table definitions (``bot.store.schema``): no settings, no
taxonomy, no formatters.
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Engine, Row, and_, create_engine, select, union

from bot.store import schema


def window_rows(engine: Engine, repo: str, start: datetime, end: datetime) -> tuple[list[Row[Any]], list[Row[Any]]]:
    """The least a window's answer must read: items opened, closed, merged or commented in ``[start, end)``
    and the comments made in it, as plain SQLAlchemy Core rows (no records, no ranking).

    The item numbers come from a UNION of four index range scans: SQLite plans the equivalent single
    ``OR`` as a scan of every item of the repository, about 3x slower, and a slow floor would flatter us."""
    i, c = schema.items, schema.comments

    def within(column: Any) -> Any:
        return and_(column >= start, column < end)

    touched = union(
        *(select(i.c.number).where(i.c.repo == repo, within(column)) for column in (
            i.c.created_at, i.c.closed_at, i.c.merged_at)),
        select(c.c.number).where(c.c.repo == repo, within(c.c.created_at)),
    ).subquery()
    with engine.connect() as conn:
        comments = conn.execute(select(c).where(c.c.repo == repo, within(c.c.created_at))).all()
        items = conn.execute(select(i).where(i.c.repo == repo, i.c.number.in_(select(touched.c.number)))).all()
    return list(items), list(comments)


def read_window_rows(engine: Engine, repo: str, start: datetime, end: datetime) -> tuple[int, int]:
    """``window_rows``, counted."""
    items, comments = window_rows(engine, repo, start, end)
    return len(items), len(comments)


def write_json(rows: list[Row[Any]], size: int) -> int:
    """``size`` characters of compact JSON made of ``rows`` (each row an object; repeated when the rows are too
    few), written to stdout. Returns what was written."""
    parts: list[str] = []
    total = 2
    k = 0
    while total < size and rows:
        # orjson, as the commands write theirs (the floor is the least a command could do); its keys are
        # SQLAlchemy's str subclass
        part = orjson.dumps(rows[k % len(rows)]._asdict(), default=str, option=orjson.OPT_NON_STR_KEYS).decode()
        parts.append(part)
        total += len(part) + 1
        k += 1
    text = ("[" + ",".join(parts) + "]")[:max(size, 2)]
    sys.stdout.write(text)
    return len(text)


def main(argv: list[str]) -> int:
    url, repo, start, end, size = argv
    engine = create_engine(url)
    items, comments = window_rows(engine, repo, datetime.fromisoformat(start), datetime.fromisoformat(end))
    write_json([*items, *comments], int(size))
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
