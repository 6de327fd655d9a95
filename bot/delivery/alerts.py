"""Live alerts (filled in below)."""

from __future__ import annotations


class AlertJobs:
    tick_seconds = 10.0

    async def run(self) -> object:
        return None
