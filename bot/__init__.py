"""digest-bot: a GitHub repository's daily activity as a digest people read."""

__version__ = "0.1.0"
