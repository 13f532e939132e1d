"""The world the fake Discord serves: guilds, channels, roles, members, messages, interactions.

Everything here is plain data plus payload builders shaped like Discord's API v10. The
aiohttp server thread mutates it and the test thread reads it, so every access goes through
`World.lock` (an `RLock`; no code awaits while holding it).
"""

from __future__ import annotations

import copy
import itertools
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .faults import Fault
from .limits import Limiter
from .permissions import (
    CREATE_EVENTS,
    CREATE_PUBLIC_THREADS,  # noqa: F401 (older tests import it from here)
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    effective_permissions,
)
from .scheduled_events import ScheduledEvent

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# The invite permissions of the README: view, send, embed, attach, history, threads, and
# Create Events (the bot keeps a tournament's scheduled event, its own only).
BOT_ROLE_PERMISSIONS = 309_237_763_072 | CREATE_EVENTS

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
# Discord's limits on a server's channels (threads not counted).
CATEGORY_CHANNEL_LIMIT = 50
GUILD_CHANNEL_LIMIT = 500
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Interaction tokens live 15 minutes (discord-api-docs
# developers/interactions/receiving-and-responding.mdx: "valid for 15 minutes").
TOKEN_LIFETIME = 15 * 60.0
# A repeated nonce with enforce_nonce is the same message "in the past few minutes"
# (discord-api-docs developers/resources/message.mdx, Create Message): read as 3 minutes,
# the short end, so that the bot does not lean on it for longer than Discord may keep it.
NONCE_LIFETIME = 3 * 60.0

DEFAULT_CHANNELS = ("general", "announcements", "pairings", "standings", "judge-calls", "log")
DEFAULT_PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Real-looking snowflakes: discord.py derives `created_at` from them."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._lock = threading.Lock()

    def next(self, shard: tuple[int, int] | None = None, *, ago: float = 0.0) -> int:
        """A new id; with `shard` (id, count), one that shard serves as a guild's id
        (`(id >> 22) % count`): its time goes back the few milliseconds needed; `ago`: the
        id of something made that many seconds ago."""
        with self._lock:
            ms = int((time.time() - ago) * 1000) - DISCORD_EPOCH_MS
            if shard is not None:
                shard_id, count = shard
                ms -= (ms - shard_id) % count
            return (ms << 22) | (1 << 17) | (next(self._counter) % 4096)


@dataclass
class User:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    accepts_dms: bool = True

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name or self.username.capitalize(),
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    color: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": False,
            "managed": self.managed,
            "mentionable": True,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class Channel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    recipient: User | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    member_ids: list[int] = field(default_factory=list)
    permission_overwrites: list[JSON] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_voice(self) -> bool:
        return self.type == GUILD_VOICE

    @property
    def is_category(self) -> bool:
        return self.type == GUILD_CATEGORY

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "position": self.position,
            "flags": 0,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                member_count=len(self.member_ids),
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": now_iso(),
                    "invitable": True,
                    "create_timestamp": now_iso(),
                },
            )
        else:
            data.update(
                topic=self.topic,
                permission_overwrites=copy.deepcopy(self.permission_overwrites),
                default_auto_archive_duration=1440,
            )
        if self.is_voice:
            data.update(bitrate=64000, user_limit=0, rtc_region=None, video_quality_mode=1)
        return data


@dataclass
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "ja"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    scheduled_events: dict[int, ScheduledEvent] = field(default_factory=dict)
    voice_states: dict[int, int] = field(default_factory=dict)  # member → voice channel

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def role(self, name_or_id: str | int) -> Role:
        for role in self.roles.values():
            if name_or_id in (role.id, role.name, str(role.id)):
                return role
        raise KeyError(f"no role {name_or_id!r} in guild {self.name!r}: {self._role_names()}")

    def channel(self, name_or_id: str | int) -> Channel:
        for channel in self.channels.values():
            if name_or_id in (channel.id, channel.name, str(channel.id)):
                return channel
        names = sorted(c.name for c in self.channels.values())
        raise KeyError(f"no channel {name_or_id!r} in guild {self.name!r}: {names}")

    @property
    def channel_count(self) -> int:
        """What Discord's 500 counts: every channel but threads, categories included."""
        return sum(1 for channel in self.channels.values() if not channel.is_thread)

    def children(self, category_id: int) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == category_id and not c.is_thread]

    def member(self, name_or_id: str | int) -> Member:
        for member in self.members.values():
            if name_or_id in (member.id, member.name, str(member.id)):
                return member
        names = sorted(m.name for m in self.members.values())
        raise KeyError(f"no member {name_or_id!r} in guild {self.name!r}: {names}")

    def _role_names(self) -> list[str]:
        return sorted(r.name for r in self.roles.values())

    def payload(self, *, full: bool) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "japan",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }
        if full:
            data.update(
                joined_at=now_iso(),
                large=False,
                unavailable=False,
                member_count=len(self.members),
                voice_states=[
                    {"user_id": str(user), "channel_id": str(channel), "session_id": "s"}
                    for user, channel in self.voice_states.items()
                ],
                members=[m.payload() for m in self.members.values()],
                channels=[c.payload() for c in self.channels.values() if not c.is_thread],
                threads=[c.payload() for c in self.channels.values() if c.is_thread],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[e.payload() for e in self.scheduled_events.values()],
                soundboard_sounds=[],
            )
        return data


@dataclass
class StoredFile:
    id: int
    filename: str
    data: bytes
    content_type: str

    def payload(self, base_url: str, channel_id: int | str = 0) -> JSON:
        url = f"{base_url}/cdn/attachments/{channel_id}/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }


@dataclass
class Callback:
    """One POST to /interactions/{id}/{token}/callback."""

    type: int
    data: JSON
    files: list[StoredFile]
    at: float


@dataclass
class InteractionRecord:
    id: int
    token: str
    type: int
    payload: JSON
    user_id: int
    guild_id: int | None
    channel_id: int
    created: float
    # time.monotonic() when the fake wrote INTERACTION_CREATE to the socket (Callback.at
    # uses the same clock): bench/interactions.py measures the bot's answer time from it.
    sent_at: float | None = None
    # When the user first saw an answer: the message callback, or the follow-up that
    # replaced a deferral's "thinking…" (same clock).
    answered_at: float | None = None
    # The message a component sits on (type 3) or the modal came from.
    target_message_id: int | None = None
    callbacks: list[Callback] = field(default_factory=list)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    original_edited: bool = False
    # Seconds added to the token's age: a test ages a token without waiting 15 minutes.
    token_aged: float = 0.0

    @property
    def token_age(self) -> float:
        """Seconds since Discord issued the token (it expires at TOKEN_LIFETIME)."""
        return time.monotonic() - self.created + self.token_aged

    @property
    def token_expired(self) -> bool:
        return self.token_age >= TOKEN_LIFETIME


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    json: Any
    status: int = 0
    files: list[StoredFile] = field(default_factory=list)
    # The route's template ("/channels/{channel_id}/messages"), when the fake knows it.
    route: str = ""
    at: float = field(default_factory=time.monotonic)
    code: int | None = None  # the JSON error code of an error answer
    scope: str | None = None  # a 429's X-RateLimit-Scope
    # Seconds a client reading the headers waits before its bucket's next request (the
    # Reset-After of an exhausted bucket, or a 429's retry_after); 0 when it need not.
    wait: float = 0.0
    channel_id: int | None = None  # the route's channel, if it has one
    # Sent by discord.py ("DiscordBot (…)"), not by a test's own HTTP client.
    from_library: bool = True

    @property
    def invalid(self) -> bool:
        """Discord counts it toward the ban at 10,000 in 10 minutes: a 401, 403 or 429,
        except a 429 of scope shared (another user's use of the resource)."""
        return self.status in (401, 403) or (self.status == 429 and self.scope != "shared")


@dataclass
class RequestHook:
    """A test's trap, sprung once: after `skip` requests matching `method` and a path that
    ends with `path_suffix` have gone through, the next one runs `action` — before Discord
    handles it (the request is lost, as when the bot dies mid-request) or after (Discord did
    it; the bot never hears back)."""

    method: str
    path_suffix: str
    action: Callable[[], None]
    after: bool
    skip: int = 0
    sprung: bool = False

    def matches(self, method: str, path: str) -> bool:
        return not self.sprung and method == self.method and path.endswith(self.path_suffix)


class World:
    """All state of the fake Discord."""

    def __init__(self, *, token: str, app_id: int | None = None, base_url: str = "") -> None:
        self.lock = threading.RLock()
        self.ids = Snowflakes()
        self.token = token
        self.base_url = base_url
        self.app_id = app_id or self.ids.next()
        self.bot_user = User(self.app_id, "pm-tournament-bot", bot=True, global_name="PM Bot")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, JSON] = {}
        self.deleted_messages: dict[int, JSON] = {}
        self.deleted_scheduled_events: dict[int, JSON] = {}
        # The fake's "now" for scheduled events (an event may not start in the past); a
        # test may set it to the bot's clock.
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.interactions: dict[int, InteractionRecord] = {}
        self.files: dict[int, StoredFile] = {}
        # Synced command trees: None → global, guild id → that guild's commands.
        self.commands: dict[int | None, list[JSON]] = {}
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[str] = []
        self.last_activity = time.monotonic()
        # (channel id, author id, nonce) → (message id, when): a message sent again with
        # the same nonce and `enforce_nonce` within NONCE_LIFETIME is the same message.
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.nonce_repeats = 0  # how often a repeated nonce answered the first message
        self.request_hooks: list[RequestHook] = []
        self.faults: list[Fault] = []
        self.limiter = Limiter()
        # User id → message creates the bot tried in their DMs (refused ones too).
        self.dm_attempts: Counter[int] = Counter()
        # Channels (and their threads) deleted while the fake ran, by id.
        self.deleted_channels: dict[int, Channel] = {}

    # -- users, guilds -------------------------------------------------------------------

    def user_named(self, name: str) -> User:
        for user in self.users.values():
            if user.username == name:
                return user
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Precious Memories Club",
        *,
        preferred_locale: str = "ja",
        channels: tuple[str, ...] = DEFAULT_CHANNELS,
        players: tuple[str, ...] = DEFAULT_PLAYERS,
        owner: str = "owner",
        guild_id: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild like a tournament community's: the bot, an owner, staff and players;
        with `guild_id`, that id; with `shard` (id, count), a guild that shard serves."""
        with self.lock:
            owner_user = self.user_named(owner)
            guild = Guild(guild_id or self.ids.next(shard), name, owner_user.id, preferred_locale)
            guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE_PERMISSIONS, 0)
            for position, (role_name, perms) in enumerate(
                (("Organizer", 0), ("Judge", 0), ("Moderator", MANAGE_GUILD)), start=1
            ):
                role = Role(self.ids.next(), role_name, perms, position)
                guild.roles[role.id] = role
            bot_role = Role(self.ids.next(), "PM Bot", BOT_ROLE_PERMISSIONS, 4, managed=True)
            guild.roles[bot_role.id] = bot_role
            category = Channel(self.ids.next(), "Tournament", GUILD_CATEGORY, guild.id)
            guild.channels[category.id] = category
            for position, channel_name in enumerate(channels):
                channel = Channel(
                    self.ids.next(), channel_name, GUILD_TEXT, guild.id, category.id, position
                )
                guild.channels[channel.id] = channel
            guild.members[self.bot_user.id] = Member(self.bot_user, guild.id, [bot_role.id])
            guild.members[owner_user.id] = Member(owner_user, guild.id)
            staff = (("moderator", "Moderator"), ("organizer", "Organizer"), ("judge", "Judge"))
            for user_name, role_name in staff:
                user = self.user_named(user_name)
                guild.members[user.id] = Member(user, guild.id, [guild.role(role_name).id])
            for player in players:
                user = self.user_named(player)
                guild.members[user.id] = Member(user, guild.id)
            self.guilds[guild.id] = guild
            return guild

    def add_member(
        self, guild: Guild, name: str, roles: tuple[str, ...] = (), user_id: int | None = None
    ) -> Member:
        """A member; `user_id`: a new user with that id (a bench's prepared database)."""
        with self.lock:
            if user_id is None:
                user = self.user_named(name)
            else:
                user = self.users[user_id] = User(user_id, name)
            member = Member(user, guild.id, [guild.role(r).id for r in roles])
            guild.members[user.id] = member
            return member

    def channel_by_id(self, channel_id: int) -> Channel | None:
        if channel_id in self.dm_channels:
            return self.dm_channels[channel_id]
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    def guild_of_channel(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def dm_channel(self, user: User) -> Channel:
        for channel in self.dm_channels.values():
            if channel.recipient is user:
                return channel
        channel = Channel(self.ids.next(), "", DM, recipient=user)
        self.dm_channels[channel.id] = channel
        return channel

    # -- files ---------------------------------------------------------------------------

    def store_file(self, filename: str, data: bytes, content_type: str) -> StoredFile:
        stored = StoredFile(self.ids.next(), filename, data, content_type)
        self.files[stored.id] = stored
        return stored

    # -- messages ------------------------------------------------------------------------

    def new_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[StoredFile],
        *,
        author: User | None = None,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
    ) -> JSON:
        author = author or self.bot_user
        channel = self.channel_by_id(channel_id)
        message: JSON = {
            "id": str(self.ids.next()),
            "channel_id": str(channel_id),
            "author": author.payload(),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [f.payload(self.base_url, channel_id) for f in files],
            "embeds": copy.deepcopy(body.get("embeds") or []),
            "components": copy.deepcopy(body.get("components") or []),
            "pinned": False,
            "type": message_type,
            "flags": int(body.get("flags") or 0) | extra_flags,
        }
        if channel is not None and channel.guild_id:
            message["guild_id"] = str(channel.guild_id)
        if "poll" in body:
            message["poll"] = copy.deepcopy(body["poll"])
        if body.get("message_reference"):
            message["message_reference"] = copy.deepcopy(body["message_reference"])
            message["type"] = 19
        if interaction is not None:
            user = self.users[interaction.user_id]
            message["webhook_id"] = str(self.app_id)
            message["application_id"] = str(self.app_id)
            message["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user.payload(),
                "authorizing_integration_owners": {},
            }
        self.messages[int(message["id"])] = message
        return message

    def edit_message(self, message: JSON, body: JSON, files: list[StoredFile]) -> JSON:
        for key in ("content", "embeds", "components", "poll"):
            if key in body:
                value = body[key]
                if key == "content":
                    value = value or ""
                elif key in ("embeds", "components"):
                    value = copy.deepcopy(value or [])
                message[key] = value
        if "flags" in body and body["flags"] is not None:
            # Only SUPPRESS_EMBEDS can be changed by an edit; keep ephemeral and the rest.
            message["flags"] = (message["flags"] & ~4) | (int(body["flags"]) & 4)
        if "attachments" in body or files:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            attachments = [a for a in message["attachments"] if a["id"] in keep]
            if "attachments" not in body:
                attachments = list(message["attachments"])
            attachments += [f.payload(self.base_url, message["channel_id"]) for f in files]
            message["attachments"] = attachments
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = now_iso()
        return message

    def delete_message(self, message_id: int) -> bool:
        message = self.messages.pop(message_id, None)
        if message is None:
            return False
        self.deleted_messages[message_id] = message
        return True

    def channel_messages(self, channel_id: int, *, include_ephemeral: bool = False) -> list[JSON]:
        """Messages of a channel, oldest first (ephemeral replies only when asked)."""
        found = [
            m
            for m in self.messages.values()
            if m["channel_id"] == str(channel_id) and (include_ephemeral or not m["flags"] & 64)
        ]
        return sorted(found, key=lambda m: int(m["id"]))

    # -- interactions --------------------------------------------------------------------

    def new_interaction(
        self,
        *,
        type: int,
        data: JSON,
        user: User,
        guild: Guild | None,
        channel: Channel,
        locale: str,
        app_permissions: int | None,
        message: JSON | None = None,
        made_ago: float = 0.0,
    ) -> InteractionRecord:
        """`made_ago`: Discord made the interaction that many seconds ago (its id and its
        token's age say so) and delivers it now: a test of an answer that comes late,
        without waiting for it (the 3 s to acknowledge count from the delivery)."""
        interaction_id = self.ids.next(ago=made_ago)
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": type,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 26_214_400,
        }
        if guild is not None:
            member = guild.members[user.id]
            bot_member = guild.members[self.bot_user.id]
            channel_payload = channel.payload()
            # As Discord sends them: in this channel, overwrites included.
            channel_payload["permissions"] = str(effective_permissions(guild, member, channel))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(permissions=effective_permissions(guild, member, channel)),
                channel=channel_payload,
                app_permissions=str(
                    effective_permissions(guild, bot_member, channel)
                    if app_permissions is None
                    else app_permissions
                ),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                channel=channel.payload(),
                app_permissions=str(
                    EVERYONE_PERMISSIONS if app_permissions is None else app_permissions
                ),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if message is not None:
            payload["message"] = copy.deepcopy(message)
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=type,
            payload=payload,
            user_id=user.id,
            guild_id=guild.id if guild else None,
            channel_id=channel.id,
            created=time.monotonic() - made_ago,
            target_message_id=int(message["id"]) if message else None,
        )
        self.interactions[interaction_id] = record
        return record

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        for record in self.interactions.values():
            if record.token == token:
                return record
        return None
