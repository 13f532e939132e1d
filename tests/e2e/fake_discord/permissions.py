"""Discord's permission arithmetic: what a member may do in a channel.

As discord-api-docs developers/topics/permissions.mdx computes it ("Permission Overwrites",
"Implicit Permissions", "Inherited Permissions (Threads)"):

1. base permissions: the guild's owner has all; else @everyone's permissions OR the
   member's roles'; Administrator means all;
2. the channel's overwrites in order: @everyone's (deny, then allow), the member's roles'
   (all denies, then all allows), the member's own (deny, then allow); Administrator
   ignores overwrites;
3. a thread takes its parent channel's overwrites (it has none of its own); Send Messages
   does not carry into a thread, Send Messages in Threads does;
4. without View Channel nothing else in the channel counts, and without Send Messages
   neither do the permissions that only qualify sending (embeds, files, mentions, TTS);
   in a voice channel, without Connect neither do speaking, video and the rest of voice;
5. a channel in a category has its own overwrites (a new channel is given its category's
   unless the request gives others: "synced"), never both.

And who may change overwrites ("Edit Channel Permissions", "Create Guild Channel"):
Manage Roles in the channel (or the guild), and only bits the bot itself has there, unless
an overwrite of its own in that channel grants it Manage Roles.

`effective_permissions` is the one function every permission check of the fake uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import Channel, Guild, Member

# Permission bits (discord-api-docs developers/topics/permissions.mdx, the flags table).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_EVENTS = 1 << 33  # edit and delete anyone's scheduled events
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_EVENTS = 1 << 44  # create scheduled events, and edit and delete one's own
# Voice (the flags table): what a match room's players, staff and spectators are given.
PRIORITY_SPEAKER = 1 << 8
STREAM = 1 << 9  # Go Live and the camera ("Video" in the client)
CONNECT = 1 << 20
SPEAK = 1 << 21
MUTE_MEMBERS = 1 << 22
DEAFEN_MEMBERS = 1 << 23
MOVE_MEMBERS = 1 << 24
USE_VAD = 1 << 25
USE_SOUNDBOARD = 1 << 42
USE_EXTERNAL_SOUNDS = 1 << 45
SEND_VOICE_MESSAGES = 1 << 46
# Taken away with Connect in a voice channel (the docs' "Implicit Permissions").
VOICE_ONLY = (
    PRIORITY_SPEAKER
    | STREAM
    | SPEAK
    | MUTE_MEMBERS
    | DEAFEN_MEMBERS
    | MOVE_MEMBERS
    | USE_VAD
    | USE_SOUNDBOARD
    | USE_EXTERNAL_SOUNDS
)
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
    | CONNECT
    | SPEAK
    | STREAM
    | USE_VAD
)
MENTION_EVERYONE = 1 << 17
SEND_TTS_MESSAGES = 1 << 12
# What denying Send Messages takes with it (the docs' "Implicit Permissions").
QUALIFY_SENDING = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS
ROLE, MEMBER = 0, 1  # an overwrite's type


def base_permissions(guild: Guild, member: Member) -> int:
    """Guild-level permissions: the owner and administrators have every one."""
    if member.id == guild.owner_id:
        return ALL_PERMISSIONS
    value = guild.everyone.permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            value |= role.permissions
    return ALL_PERMISSIONS if value & ADMINISTRATOR else value


def _overwrites(channel: Channel) -> dict[tuple[int, int], tuple[int, int]]:
    """(type, id) → (allow, deny), from the payload-shaped overwrites of a channel."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for overwrite in channel.permission_overwrites:
        key = (int(overwrite.get("type", ROLE)), int(overwrite["id"]))
        found[key] = (int(overwrite.get("allow") or 0), int(overwrite.get("deny") or 0))
    return found


def apply_overwrites(base: int, guild: Guild, member: Member, channel: Channel) -> int:
    """The docs' `compute_overwrites`: @everyone's, then the roles', then the member's."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    overwrites = _overwrites(channel)
    value = base
    allow, deny = overwrites.get((ROLE, guild.id), (0, 0))
    value = (value & ~deny) | allow
    roles_allow = roles_deny = 0
    for role_id in member.role_ids:
        role_allow, role_deny = overwrites.get((ROLE, role_id), (0, 0))
        roles_allow |= role_allow
        roles_deny |= role_deny
    value = (value & ~roles_deny) | roles_allow
    allow, deny = overwrites.get((MEMBER, member.id), (0, 0))
    return (value & ~deny) | allow


def effective_permissions(guild: Guild, member: Member, channel: Channel | None) -> int:
    """What `member` may do in `channel` (a thread: in its parent, by the thread's rules);
    with no channel, at guild level (scheduled events, roles)."""
    base = base_permissions(guild, member)
    if channel is None:
        return base
    where = guild.channels.get(channel.parent_id or 0) if channel.is_thread else channel
    if where is None:  # a thread whose parent is gone
        return 0
    value = apply_overwrites(base, guild, member, where)
    if value & ADMINISTRATOR:
        return ALL_PERMISSIONS
    if not value & VIEW_CHANNEL:
        return 0
    if not value & sending_permission(channel):
        value &= ~QUALIFY_SENDING
    if where.is_voice and not value & CONNECT:
        value &= ~VOICE_ONLY
    return value


def may_write_overwrites(
    guild: Guild, member: Member, channel: Channel | None, overwrites: list[dict[str, Any]]
) -> bool:
    """Whether `member` may give `channel` (None: a new channel at the top; else the new
    channel's category, or the channel itself) these overwrites: Manage Roles there, and
    no bit allowed or denied that it lacks there, unless its own overwrite in `channel`
    grants it Manage Roles."""
    has = effective_permissions(guild, member, channel)
    if has & ADMINISTRATOR:
        return True
    if not has & MANAGE_ROLES:
        return False
    if channel is not None and _own_manage_roles(guild, member, channel):
        return True
    for given in overwrites:
        bits = int(given.get("allow") or 0) | int(given.get("deny") or 0)
        if bits & ~has:
            return False
    return True


def _own_manage_roles(guild: Guild, member: Member, channel: Channel) -> bool:
    allow, _ = _overwrites(channel).get((MEMBER, member.id), (0, 0))
    return bool(allow & MANAGE_ROLES)


def sending_permission(channel: Channel) -> int:
    """What posting in `channel` needs: in a thread Send Messages in Threads, since Send
    Messages is not inherited there."""
    return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES


def overwrite(target_id: int, kind: int, *, allow: int = 0, deny: int = 0) -> dict[str, Any]:
    """A permission overwrite shaped as Discord sends it (strings for the bit sets)."""
    return {"id": str(target_id), "type": kind, "allow": str(allow), "deny": str(deny)}
