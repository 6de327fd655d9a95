"""The application service: the one entry every use goes through (CLI, chat commands, scheduled delivery).

``DigestService`` takes an explicit ``ChannelContext`` (repository, zone, post time, locale, followed topics,
mutes) and returns typed, language-free results: a ``Digest``, a ``QueryResult`` or a ``Notice``. Words are the
formatters' job; platforms only turn events into calls here and replies into API calls.
"""
