"""Waiting for a background task by what it logs: no sleep, no polling."""

from __future__ import annotations

import logging
import threading


class LogWaiter(logging.Handler):
    """Signals when a logger says something: how a test knows a background listener has finished."""

    def __init__(self, name: str, text: str) -> None:
        super().__init__(logging.INFO)
        self.logger, self.text, self.seen = logging.getLogger(name), text, threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.seen.set()

    def __enter__(self) -> LogWaiter:
        self._level = self.logger.level
        if self.logger.getEffectiveLevel() > logging.INFO:
            self.logger.setLevel(logging.INFO)
        self.logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self)
        self.logger.setLevel(self._level)
