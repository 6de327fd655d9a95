"""Optional LLM analysis of a digest (off unless LLM_BASE_URL and LLM_MODEL are set): see analyst.py."""

from bot.analysis.analyst import (
    AnalysisReport,
    Analyst,
    analyse_blocking,
    analyse_digest,
    analyse_digest_blocking,
)
from bot.analysis.client import (
    ChatClient,
    Completion,
    LLMBadOutput,
    LLMError,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
)

__all__ = [
    "AnalysisReport",
    "Analyst",
    "ChatClient",
    "Completion",
    "LLMBadOutput",
    "LLMError",
    "LLMRejected",
    "LLMTimeout",
    "LLMUnavailable",
    "analyse_blocking",
    "analyse_digest",
    "analyse_digest_blocking",
]
