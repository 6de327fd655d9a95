"""digest-bot default configuration (installed as the package ``digest_bot_config``)."""
