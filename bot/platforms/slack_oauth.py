"""Slack in many workspaces: bolt's own OAuth v2 install flow, tokens encrypted at rest, one token per workspace.

With ``SLACK_CLIENT_ID`` + ``SLACK_CLIENT_SECRET`` (+ ``SLACK_SIGNING_SECRET`` and ``TOKEN_ENCRYPTION_KEY``)
``digest-bot serve`` answers ``GET /slack/install`` (a state cookie, then Slack's authorize page) and ``GET
/slack/oauth_redirect`` (bolt checks the state, exchanges the code with ``oauth.v2.access`` at
``SLACK_API_URL`` and saves the installation). Installations and OAuth states live in the bot's own database
(slack_sdk's SQLAlchemy stores, tables ``slack_installations``, ``slack_bots``, ``slack_oauth_states``), bot and
user tokens encrypted with Fernet before they are written and decrypted after they are read.

Every command is authorized by bolt from that store (its client carries the team's token); scheduled posts and
DMs go through ``SlackTeamsMessenger``, which looks up the workspace of the target (``ChatState.team_of``) and
posts with that workspace's token. ``app_uninstalled`` / ``tokens_revoked`` delete the workspace's tokens (bolt's
own listeners) and pause its deliveries; installing again resumes them.

Enterprise Grid: a workspace of an organization is installed like any other, and Slack's answer names the
organization too (``"enterprise": {"id": "E…"}``), which bolt saves with the installation. A delivery knows only
the workspace (team ids are unique across Slack), so it finds the bot by team whatever the organization
(``EncryptedInstallationStore.async_find_team_bot``). An org-wide install (``is_enterprise_install``, no team) is
refused at install time with a page that says to install into each workspace (``ORG_INSTALL``).
"""

from __future__ import annotations

import asyncio
import binascii
import copy
import logging
from collections.abc import Awaitable, Callable, Sequence
from logging import Logger
from typing import Any, TypeVar

import aiohttp
from aiohttp import web
from cryptography.fernet import Fernet, InvalidToken
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp, AsyncBoltContext
from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.error import BoltError
from slack_bolt.oauth.async_callback_options import AsyncCallbackOptions, AsyncFailureArgs, AsyncSuccessArgs
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import Engine, Index, desc, select
from sqlalchemy.exc import SQLAlchemyError

from bot.app.messenger import DeliveryError, OnPart, Pace
from bot.app.service import DigestService
from bot.commands.handlers import Commands
from bot.errors import UserError
from bot.model import Digest, QueryResult
from bot.platforms.slack_app import SlackDeps, SlackMessenger, build_client, register
from bot.store.chat import WORKSPACE_GONE

_log = logging.getLogger(__name__)

T = TypeVar("T")
PLATFORM = "slack"
# What the bot asks a workspace for: the manifest's bot scopes (slack-manifest.yml).
BOT_SCOPES = ("commands", "chat:write", "chat:write.public", "im:write", "users:read", "channels:history",
              "groups:history", "im:history")
NO_WORKSPACE = "no_workspace"  # a target whose workspace is unknown (saved in single-workspace mode)
# Slack's answers to a dead bot token: the workspace removed the app and its event has not arrived (or was lost).
DEAD_TOKEN = frozenset({"token_revoked", "invalid_auth"})
STATE_SECONDS = 600
ORG_INSTALL = "org_wide_install_not_supported"  # the failure reason of a refused org-wide install


class TokenCipher:
    """Fernet (AES-128-CBC + HMAC-SHA256) over a key from ``TOKEN_ENCRYPTION_KEY``."""

    def __init__(self, key: str | None) -> None:
        if not key:
            raise UserError("Slack OAuth mode (SLACK_CLIENT_ID) stores every workspace's token encrypted: set "
                            "TOKEN_ENCRYPTION_KEY to a Fernet key (python -c 'from cryptography.fernet import "
                            "Fernet; print(Fernet.generate_key().decode())')")
        try:
            self._fernet = Fernet(key.strip().encode())
        except (ValueError, binascii.Error):
            raise UserError("TOKEN_ENCRYPTION_KEY is not a Fernet key (32 url-safe base64-encoded bytes); make one "
                            "with: python -c 'from cryptography.fernet import Fernet; "
                            "print(Fernet.generate_key().decode())'") from None

    def encrypt(self, value: str | None) -> str | None:
        return None if value is None else self._fernet.encrypt(value.encode()).decode()

    def decrypt(self, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return self._fernet.decrypt(value.encode()).decode()
        except InvalidToken:
            # Another key (rotated without re-encrypting) or a row written in plain text: unusable, not fatal.
            _log.warning("a stored Slack token cannot be decrypted with TOKEN_ENCRYPTION_KEY (was the key changed?);"
                         " treating that workspace as not installed until it installs again")
            return None


_SECRETS = ("bot_token", "bot_refresh_token", "user_token", "user_refresh_token")


def _mapped(record: T, convert: Callable[[str | None], str | None]) -> T:
    changed = copy.copy(record)
    for name in _SECRETS:
        if hasattr(changed, name):
            setattr(changed, name, convert(getattr(changed, name)))
    return changed


class OrgInstallRefused(BoltError):
    """An org-wide Enterprise Grid install (no workspace): not saved. Carries the bot token Slack issued, so the
    install can be undone (``auth.revoke``); never put it in the message."""

    def __init__(self, installation: Installation) -> None:
        super().__init__(f"org-wide install of Enterprise Grid organization {installation.enterprise_id} "
                         f"({installation.enterprise_name}) refused: digest-bot is installed per workspace")
        self.enterprise_id = installation.enterprise_id
        self.bot_token = installation.bot_token


class EncryptedInstallationStore(AsyncInstallationStore):
    """slack_sdk's SQLAlchemy installation store on the bot's engine, with tokens encrypted at rest. Its calls
    are blocking: each runs in a thread, off the event loop."""

    def __init__(self, inner: SQLAlchemyInstallationStore, cipher: TokenCipher) -> None:
        self.inner = inner
        self.cipher = cipher

    @property
    def logger(self) -> Logger:
        return _log

    async def async_save(self, installation: Installation) -> None:
        if installation.is_enterprise_install:
            # Channels and subscriptions belong to a workspace (a team); an org-wide install has none, and its
            # commands would come from workspaces no installation names. bolt answers the flow's failure page.
            raise OrgInstallRefused(installation)
        await asyncio.to_thread(self.inner.save, _mapped(installation, self.cipher.encrypt))

    async def async_find_team_bot(self, team_id: str) -> Bot | None:
        """The bot of workspace ``team_id`` whatever Enterprise Grid organization it is in: the latest
        installation of that team with a bot token. bolt's look-ups match the enterprise id a request carries
        (``IS NULL`` for None); a scheduled delivery knows only the workspace, whose id is unique in Slack."""
        bot = await asyncio.to_thread(self._team_bot, team_id)
        if bot is None:
            return None
        found = _mapped(bot, self.cipher.decrypt)
        return found if found.bot_token else None

    def _team_bot(self, team_id: str) -> Bot | None:
        bots = self.inner.bots
        c = bots.c
        query = (select(bots).where(c.client_id == self.inner.client_id, c.team_id == team_id,
                                    c.bot_token.is_not(None))
                 .order_by(desc(c.installed_at)).limit(1))
        with self.inner.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else self.inner.build_bot_entity(row)

    async def async_save_bot(self, bot: Bot) -> None:
        await asyncio.to_thread(self.inner.save_bot, _mapped(bot, self.cipher.encrypt))

    async def async_find_bot(self, *, enterprise_id: str | None, team_id: str | None,
                             is_enterprise_install: bool | None = False) -> Bot | None:
        bot = await asyncio.to_thread(lambda: self.inner.find_bot(
            enterprise_id=enterprise_id, team_id=team_id, is_enterprise_install=is_enterprise_install))
        if bot is None:
            return None
        found = _mapped(bot, self.cipher.decrypt)
        return found if found.bot_token else None

    async def async_find_installation(self, *, enterprise_id: str | None, team_id: str | None,
                                      user_id: str | None = None,
                                      is_enterprise_install: bool | None = False) -> Installation | None:
        installation = await asyncio.to_thread(lambda: self.inner.find_installation(
            enterprise_id=enterprise_id, team_id=team_id, user_id=user_id,
            is_enterprise_install=is_enterprise_install))
        return None if installation is None else _mapped(installation, self.cipher.decrypt)

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        await asyncio.to_thread(lambda: self.inner.delete_bot(enterprise_id=enterprise_id, team_id=team_id))

    async def async_delete_installation(self, *, enterprise_id: str | None, team_id: str | None,
                                        user_id: str | None = None) -> None:
        await asyncio.to_thread(lambda: self.inner.delete_installation(enterprise_id=enterprise_id,
                                                                       team_id=team_id, user_id=user_id))


class ThreadedStateStore(AsyncOAuthStateStore):
    """slack_sdk's SQLAlchemy OAuth state store (one row per install started, consumed once), off the loop."""

    def __init__(self, inner: SQLAlchemyOAuthStateStore) -> None:
        self.inner = inner

    @property
    def logger(self) -> Logger:
        return _log

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        return await asyncio.to_thread(self.inner.issue)

    async def async_consume(self, state: str) -> bool:
        return await asyncio.to_thread(self.inner.consume, state)


def open_stores(engine: Engine, client_id: str, key: str | None) -> tuple[EncryptedInstallationStore,
                                                                           ThreadedStateStore]:
    """The installation and state stores in the bot's database; their tables are created if missing (every web
    process may race to do it: a loser's error is harmless once the tables exist)."""
    cipher = TokenCipher(key)
    installations = SQLAlchemyInstallationStore(client_id=client_id, engine=engine, logger=_log)
    states = SQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=engine, logger=_log)
    # Deliveries find a workspace's bot by team alone (slack_sdk's own index leads with the enterprise id).
    by_team = Index(f"{installations.bots.name}_team_idx", installations.bots.c.client_id,
                    installations.bots.c.team_id, installations.bots.c.installed_at)
    for attempt in range(3):
        try:
            installations.create_tables()
            states.create_tables()
            by_team.create(engine, checkfirst=True)
            break
        except SQLAlchemyError:
            if attempt == 2:
                raise
    return EncryptedInstallationStore(installations, cipher), ThreadedStateStore(states)


TeamOf = Callable[[str, bool], Awaitable[str | None]]


class SlackTeamsMessenger(SlackMessenger):
    """The ``Messenger`` of many workspaces: each delivery finds its target's workspace and that workspace's bot
    token, then posts through a ``SlackMessenger`` for that token (same parts, metadata, look-ups and errors).
    A workspace that removed the app (no installation) is a permanent failure: delivery marks the channel or
    pauses the user with the reason ``pause_workspace`` uses, so installing again resumes them."""

    def __init__(self, installations: EncryptedInstallationStore, team_of: TeamOf, *, api_url: str | None = None,
                 session: aiohttp.ClientSession | None = None) -> None:
        super().__init__(build_client(None, api_url))  # no token: this one only renders (a cache all teams share)
        self.installations = installations
        self.team_of = team_of
        self.api_url = api_url
        self.session = session
        self._teams: dict[str, tuple[str, SlackMessenger]] = {}

    async def messenger_for(self, target: str, *, dm: bool) -> SlackMessenger:
        where = f"user {target}" if dm else f"channel {target}"
        team = await self.team_of(target, dm)
        if team is None:
            raise DeliveryError(NO_WORKSPACE, permanent=True, target=where)
        bot = await self.installations.async_find_team_bot(team)  # any Enterprise Grid organization
        if bot is None or not bot.bot_token:
            _log.info("%s: workspace %s has no installation (uninstalled): skipping", where, team)
            raise DeliveryError(WORKSPACE_GONE, permanent=True, target=where)
        known = self._teams.get(team)
        if known is not None and known[0] == bot.bot_token:
            return known[1]
        client = build_client(bot.bot_token, self.api_url)
        if self.session is not None:
            client.session = self.session
        messenger = SlackMessenger(client, shared=self)
        self._teams[team] = (bot.bot_token, messenger)
        return messenger

    async def deliver(
        self, target: str, answer: Digest | QueryResult, *, dm: bool, locale: str, timezone: str,
        sent: Sequence[str] = (), on_part: OnPart | None = None, pace: Pace | None = None,
        key: str | None = None, check_first: bool = False,
    ) -> list[str]:
        messenger = await self.messenger_for(target, dm=dm)
        try:
            return await messenger.deliver(target, answer, dm=dm, locale=locale, timezone=timezone, sent=sent,
                                           on_part=on_part, pace=pace, key=key, check_first=check_first)
        except DeliveryError as err:
            if err.reason not in DEAD_TOKEN:
                raise
            # Marked like an uninstalled workspace (so installing again resumes it), once per target: never a
            # retry loop on a token that cannot come back.
            _log.warning("%s: Slack says %s: the workspace's token is dead; pausing this target", err.target,
                         err.reason)
            raise DeliveryError(WORKSPACE_GONE, permanent=True, target=err.target) from None


def store_team_of(service: DigestService) -> TeamOf:
    async def team_of(target: str, dm: bool) -> str | None:
        return await asyncio.to_thread(service.chat.team_of, PLATFORM, target, dm=dm)

    return team_of


def build_oauth_app(service: DigestService, *, client_id: str, client_secret: str, signing_secret: str,
                    encryption_key: str | None, api_url: str | None = None,
                    authorization_url: str | None = None) -> tuple[AsyncApp, SlackDeps]:
    """The bolt app of OAuth mode: bolt's install flow and authorization from the encrypted store; the
    ``/digest`` command as in single-workspace mode; uninstall and revocation events handled."""
    installations, states = open_stores(service.store.engine, client_id, encryption_key)

    async def installed(args: AsyncSuccessArgs) -> BoltResponse:
        team = args.installation.team_id
        if team:
            await asyncio.to_thread(service.resume_workspace, PLATFORM, team)
        _log.warning("Slack workspace %s (%s) installed digest-bot", team, args.installation.team_name)
        return await args.default.success(args)

    async def failed(args: AsyncFailureArgs) -> BoltResponse:
        if isinstance(args.error, OrgInstallRefused):
            return await _refuse_org_install(args.error, api_url)
        _log.warning("a Slack install failed: %s", args.reason)
        response: BoltResponse = await args.default.failure(args)
        return response

    settings = AsyncOAuthSettings(
        client_id=client_id, client_secret=client_secret, scopes=list(BOT_SCOPES), installation_store=installations,
        state_store=states, state_expiration_seconds=STATE_SECONDS, authorization_url=authorization_url,
        callback_options=AsyncCallbackOptions(success=installed, failure=failed), logger=_log,
    )
    # bolt reads the store on every request (an uninstalled workspace is refused at once); the cache, keyed by
    # token, only saves the auth.test call each command would otherwise make.
    authorize = settings.authorize
    if isinstance(authorize, AsyncInstallationStoreAuthorize):
        authorize.cache_enabled = True
    client = build_client(None, api_url)
    app = AsyncApp(client=client, signing_secret=signing_secret, oauth_settings=settings,
                   process_before_response=False)
    messenger = SlackTeamsMessenger(installations, store_team_of(service), api_url=api_url)
    deps = SlackDeps(Commands(service), messenger, service.settings)
    register(app, deps)
    register_uninstall(app, service)
    return app, deps


ORG_INSTALL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>digest-bot: install it into a workspace</title></head>
<body><h1>digest-bot cannot be installed for a whole organization</h1>
<p>This was an org-wide install of an Enterprise Grid organization. digest-bot keeps each channel's settings,
subscriptions and daily posts per workspace, so it is installed into one workspace at a time: nothing was saved,
and the organization's token was revoked.</p>
<p>To use it, open this install link again and choose a <strong>workspace</strong> of the organization instead of
the whole organization (an org admin may need to approve the app for that workspace). Repeat for each workspace
that wants it.</p></body></html>
"""


async def _refuse_org_install(refused: OrgInstallRefused, api_url: str | None) -> BoltResponse:
    """Nothing was saved; undo the install at Slack too (its token would otherwise stay valid with the app
    listed as installed for the organization), then say what to do instead."""
    _log.warning("Slack: refused an org-wide install of Enterprise Grid organization %s: digest-bot is installed "
                 "per workspace (README, Many workspaces)", refused.enterprise_id)
    if refused.bot_token:
        try:
            await build_client(refused.bot_token, api_url).auth_revoke()
        except (SlackApiError, SlackClientError, aiohttp.ClientError, OSError, TimeoutError) as err:
            _log.warning("could not revoke the refused org-wide install's token (%s): remove the app from the "
                         "organization in Slack's admin settings", type(err).__name__)
    return BoltResponse(status=400, body=ORG_INSTALL_PAGE, headers={"Content-Type": "text/html; charset=utf-8"})


def register_uninstall(app: AsyncApp, service: DigestService) -> None:
    """bolt's own listeners delete the tokens; then the workspace's deliveries pause (once the bot token is
    gone: a revoked user token alone changes nothing)."""
    uninstalled = app.default_app_uninstalled_event_listener()
    revoked = app.default_tokens_revoked_event_listener()

    async def pause(context: AsyncBoltContext, why: str) -> None:
        team = context.team_id
        if not team:
            return
        if await app.installation_store.async_find_bot(enterprise_id=context.enterprise_id,  # type: ignore[union-attr]
                                                       team_id=team) is not None:
            return
        _log.warning("Slack workspace %s: %s", team, why)
        await asyncio.to_thread(service.pause_workspace, PLATFORM, team)

    async def on_uninstalled(context: AsyncBoltContext) -> None:
        await uninstalled(context=context)
        await pause(context, "app_uninstalled")

    async def on_revoked(event: dict[str, Any], context: AsyncBoltContext) -> None:
        await revoked(event=event, context=context)
        await pause(context, "tokens_revoked")

    app.event("app_uninstalled")(on_uninstalled)
    app.event("tokens_revoked")(on_revoked)


def oauth_routes(app: AsyncApp) -> list[web.RouteDef]:
    """``GET /slack/install`` and ``GET /slack/oauth_redirect`` (bolt's default paths), served by bolt's flow."""
    flow = app.oauth_flow
    assert flow is not None

    async def install(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await flow.handle_installation(await to_bolt_request(request)))

    async def redirect(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await flow.handle_callback(await to_bolt_request(request)))

    return [web.get(flow.install_path, install), web.get(flow.redirect_uri_path, redirect)]
