"""Links to the web report pages (docs/reports.md): their paths, and the HMAC that signs them.

A signed link carries ``exp`` (Unix seconds) and ``sig`` = HMAC-SHA256(REPORTS_SECRET, path + "\\n" + exp),
base64url. The query text of a search is not signed: the search box changes it, and any query of an allowed
repository is as readable as its index. With ``[reports] public = true`` links carry no signature.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from datetime import date, datetime, timedelta
from urllib.parse import urlencode

from bot.settings import Settings

_log = logging.getLogger(__name__)

PREFIX = "/reports/"


def index_path(repo: str) -> str:
    return f"{PREFIX}{repo}/"


def day_path(repo: str, day: date) -> str:
    return f"{PREFIX}{repo}/{day.isoformat()}"


class ReportLinks:
    def __init__(self, settings: Settings) -> None:
        self.mode = settings.reports_mode
        self._secret = (settings.reports_secret or "").encode("utf-8")
        self.public_url = settings.public_url
        self.lifetime = timedelta(days=settings.file.reports.link_days)

    @property
    def enabled(self) -> bool:
        return self.mode != "off"

    def signature(self, path: str, expires: int) -> str:
        digest = hmac.new(self._secret, f"{path}\n{expires}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def params(self, path: str, *, now: datetime | None = None, expires: int | None = None) -> dict[str, str]:
        """What a link to ``path`` carries to be let in: nothing when public; else ``exp`` (``expires``, or the
        link lifetime from ``now``) and ``sig``."""
        if self.mode != "signed":
            return {}
        if expires is None:
            assert now is not None
            expires = int((now + self.lifetime).timestamp())
        return {"exp": str(expires), "sig": self.signature(path, expires)}

    def allows(self, path: str, exp: str | None, sig: str | None, now: datetime) -> bool:
        """Whether a request for ``path`` may read it: always when public, never when off; signed: a valid
        signature whose expiry is still ahead (compared in constant time)."""
        if self.mode == "public":
            return True
        # ASCII digits only: int() would also read other scripts' digits, one expiry spelled many ways.
        if self.mode == "off" or not exp or not sig or not (exp.isascii() and exp.isdigit()) or len(exp) > 12:
            return False
        if int(exp) <= now.timestamp():
            return False
        return hmac.compare_digest(self.signature(path, int(exp)).encode(), sig.encode("utf-8", "replace"))

    def relative(self, path: str, *, now: datetime | None = None, expires: int | None = None,
                 extra: dict[str, str] | None = None) -> str:
        """``path`` with its query: links inside the report pages (the same host)."""
        query = {**(extra or {}), **self.params(path, now=now, expires=expires)}
        return path + ("?" + urlencode(query) if query else "")

    def absolute(self, path: str, *, now: datetime, extra: dict[str, str] | None = None) -> str | None:
        """``path`` under ``PUBLIC_URL``, signed: what a chat post links to. None without PUBLIC_URL or when
        report pages are off."""
        if self.public_url is None or not self.enabled:
            return None
        return self.public_url + self.relative(path, now=now, extra=extra)

    def day_url(self, repo: str, day: date, *, now: datetime, day_end: datetime | None = None) -> str | None:
        """The day's page; the link lasts its lifetime from the day's end (``day_end``), so every post of that
        day (a retry, another channel, another process) carries the same URL; from ``now`` once that is past."""
        start = day_end if day_end is not None and day_end + self.lifetime > now else now
        return self.absolute(day_path(repo, day), now=start)

    def search_url(self, repo: str, query: str, *, now: datetime) -> str | None:
        return self.absolute(index_path(repo), now=now, extra={"q": query[:500]})
