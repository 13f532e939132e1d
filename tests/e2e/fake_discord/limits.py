"""Discord's rate limits, as the fake enforces them.

What Discord documents (developers/topics/rate-limits in discord/discord-api-docs, "the
rate-limits page" below):

- per-route buckets, keyed by the route and its top-level resource ("major parameter":
  `channel_id`, `guild_id`, `webhook_id` + `webhook_token`); routes that share a limit share
  a bucket, named by `X-RateLimit-Bucket`;
- every answer carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds),
  `-Reset-After` (seconds) and `-Bucket`; a 429 adds `Retry-After`, `X-RateLimit-Scope`
  (`user`, `global` or `shared`) and, for the global limit, `X-RateLimit-Global: true`, with
  the body `{"message", "retry_after" (float seconds), "global"}`;
- 50 requests a second per bot across all routes ("the global limit"); the interaction
  endpoints (callbacks, and the webhooks of an interaction token) are exempt
  (developers/interactions/receiving-and-responding, "Endpoints");
- 10,000 invalid answers (401, 403, 429 except a 429 of scope `shared`) in 10 minutes get
  the bot's address banned for an hour ("Invalid Request Limit").

Discord publishes no per-route figures ("rate limits should not be hard coded"), so each
number in `ROUTE_LIMITS` says where it comes from: **observed** (an issue, a library's
hard-coded table, a community measurement: named) or **assumed** (no public figure found:
chosen at the strict end of what is plausible, so the bot is not tuned to a Discord more
generous than the real one). A client that plans its requests from the headers, as
discord.py does, never gets a 429 from a bucket; the global limit has no header, so a bot
that sends more than 50 requests in a second gets global 429s (and must pace itself).

Buckets are fixed windows as Discord's are: the first request opens a window of `window`
seconds in which `limit` requests pass; `Reset-After` counts down to its end.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

RATE_LIMITS_PAGE = "discord-api-docs developers/topics/rate-limits.mdx"
INTERACTIONS_PAGE = "discord-api-docs developers/interactions/receiving-and-responding.mdx"

GLOBAL_LIMIT = 50  # requests a second (documented: RATE_LIMITS_PAGE, "Global Rate Limit")
GLOBAL_WINDOW = 1.0
INVALID_WINDOW = 600.0  # 10 minutes (documented: RATE_LIMITS_PAGE, "Invalid Request Limit")
INVALID_BAN = 10_000  # invalid answers in INVALID_WINDOW that get a bot banned for an hour
INVALID_STATUSES = frozenset({401, 403, 429})


@dataclass(frozen=True)
class RouteLimit:
    """`limit` requests per `window` seconds for each major parameter, shared by the routes
    of one `bucket`; `source` says where the numbers come from."""

    bucket: str
    limit: int
    window: float
    source: str

    @property
    def hash(self) -> str:
        """What `X-RateLimit-Bucket` says: the same for every route of the bucket."""
        return hashlib.sha1(self.bucket.encode()).hexdigest()[:32]


def _limit(bucket: str, limit: int, window: float, source: str) -> RouteLimit:
    return RouteLimit(bucket, limit, window, source)


MESSAGES_PER_CHANNEL = _limit(
    "messages.create",
    5,
    5.0,
    "observed: 5 per 5 s per channel (discord-api-docs#20, the bot message limit as "
    "launched, 5/5; alexemanuelol/rustplusplus#475 logs `Limit: 5` on POST "
    "/channels/:id/messages with 4.4-4.6 s waits; discord-relay-chat/drc#17 'five in five "
    "seconds from observation')",
)
WEBHOOKS = _limit(
    "webhooks.token",
    5,
    2.0,
    "observed: 5 per 2 s per webhook id + token (the community webhook guide "
    "birdie0.github.io/discord-webhooks-guide 'Rate limits', quoted in discord-api-docs#6753); "
    "documented that interaction webhooks 'share the same rate limit properties as normal "
    f"webhooks' ({INTERACTIONS_PAGE}, 'Followup Messages')",
)
DEFAULT = _limit(
    "default",
    50,
    1.0,
    "assumed: a route not listed gets a bucket as large as the global limit",
)

# (method, route template as the fake's router names it, without /api/v10) → its limit.
ROUTE_LIMITS: dict[tuple[str, str], RouteLimit] = {
    ("POST", "/channels/{channel_id}/messages"): MESSAGES_PER_CHANNEL,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): _limit(
        "messages.edit",
        5,
        5.0,
        "observed: 5 per 5 s per channel, as creating (discord-api-docs#20: the bot message "
        "limit 'applies to message creation and editing'); its own bucket (assumed)",
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): _limit(
        "messages.delete",
        5,
        1.0,
        "assumed: 5 per 1 s per channel (the figure libraries quote for deletes; no source)",
    ),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): _limit(
        "reactions",
        1,
        0.25,
        "observed: 1 per 0.25 s per channel (discord.js hard-coded it, discordjs/discord.js"
        "#2795 'reactions are rate-limited by channel_id major'; discord-api-docs#395)",
    ),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"): _limit(
        "reactions",
        1,
        0.25,
        "observed: shares the reactions bucket (discordjs/discord.js#2795)",
    ),
    ("POST", "/channels/{channel_id}/threads"): _limit(
        "threads.create",
        5,
        5.0,
        "assumed: 5 per 5 s per channel, as messages (no public figure)",
    ),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads"): _limit(
        "threads.create",
        5,
        5.0,
        "assumed: shares the thread bucket of the channel",
    ),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}"): _limit(
        "threads.members",
        5,
        5.0,
        "observed: vertyco/vrt-cogs#134 got 429s adding 24 members to a thread (waits of "
        "2.8-3.3 s); 5 per 5 s assumed",
    ),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}"): _limit(
        "threads.members",
        5,
        5.0,
        "assumed: shares the thread members bucket",
    ),
    ("POST", "/users/@me/channels"): _limit(
        "dm.create",
        5,
        5.0,
        "assumed: 5 per 5 s for the bot (no major parameter; no public figure). "
        "discord-api-docs#20 launched a '5/5 global DM rate limit'",
    ),
    ("POST", "/guilds/{guild_id}/channels"): _limit(
        "channels.create",
        5,
        10.0,
        "assumed: 5 per 10 s per guild (discord-net/Discord.Net#1770 saw creating a "
        "tournament's text and voice channels slow to minutes; no figure)",
    ),
    ("PATCH", "/channels/{channel_id}"): _limit(
        "channels.edit",
        10,
        15.0,
        "observed: 10 per 15 s per channel (discord-api-docs#2190); a name or topic change "
        "also takes CHANNEL_RENAMES",
    ),
    ("DELETE", "/channels/{channel_id}"): _limit(
        "channels.delete",
        5,
        5.0,
        "assumed: 5 per 5 s per channel (no public figure)",
    ),
    ("PUT", "/channels/{channel_id}/permissions/{overwrite_id}"): _limit(
        "channels.permissions",
        5,
        5.0,
        "assumed: 5 per 5 s per channel (Cog-Creators/Red-DiscordBot#4530 got 429s "
        "writing overwrites across many channels; no figure)",
    ),
    ("DELETE", "/channels/{channel_id}/permissions/{overwrite_id}"): _limit(
        "channels.permissions",
        5,
        5.0,
        "assumed: shares the overwrite bucket",
    ),
    ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"): _limit(
        "members.roles",
        10,
        10.0,
        "assumed: 10 per 10 s per guild (deathandmayhem/jolly-roger#1296 and "
        "warlof/seat-discord-connector#24 got 429s adding roles to many members; no figure)",
    ),
    ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}"): _limit(
        "members.roles",
        10,
        10.0,
        "assumed: shares the member roles bucket",
    ),
    ("PATCH", "/guilds/{guild_id}/members/{user_id}"): _limit(
        "members.edit",
        10,
        10.0,
        "assumed: 10 per 10 s per guild, e.g. moving members between voice channels "
        "(warlof/seat-discord-connector#4 and #24 got 429s editing many members; no figure)",
    ),
    ("POST", "/guilds/{guild_id}/scheduled-events"): _limit(
        "events.write",
        5,
        5.0,
        "assumed: 5 per 5 s per guild (no public figure)",
    ),
    ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}"): _limit(
        "events.write",
        5,
        5.0,
        "assumed: shares the scheduled events bucket",
    ),
    ("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}"): _limit(
        "events.write",
        5,
        5.0,
        "assumed: shares the scheduled events bucket",
    ),
    ("PUT", "/applications/{app_id}/commands"): _limit(
        "commands.sync",
        5,
        20.0,
        "observed: MatteZ02/discord-interactions#21 (429 after 5 command writes, "
        "retry_after 19.9 s: 5 per 20 s); discord-jda/JDA#2544 (429s on PUT "
        "/applications/{id}/commands). Documented besides: 200 command creates a day per guild",
    ),
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands"): _limit(
        "commands.sync",
        5,
        20.0,
        "observed as the global sync (bwmarrin/discordgo#1173: the sync has its own "
        "bucket), per guild",
    ),
    ("POST", "/interactions/{interaction_id}/{token}/callback"): _limit(
        "interactions.callback",
        5,
        1.0,
        "assumed: a bucket per interaction id + token that one callback never empties (a "
        "second callback answers 40060 anyway; an emptied bucket would make discord.py hold "
        f"the answer for Reset-After); exempt from the global limit ({INTERACTIONS_PAGE})",
    ),
    ("POST", "/webhooks/{app_id}/{token}"): WEBHOOKS,
    ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}"): WEBHOOKS,
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"): WEBHOOKS,
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}"): WEBHOOKS,
}
# A channel's name or topic, on top of its edit bucket: discord.py cannot see this one
# coming (the headers are the edit bucket's), so a bot that renames often gets 429s.
CHANNEL_RENAMES = _limit(
    "channels.rename",
    2,
    600.0,
    "observed: 2 per 10 minutes per channel for a name or topic (discord-api-docs#2190, "
    "python-discord/bot#966, discord-jda/JDA#1306)",
)
# The parts of a route that make its bucket's major parameter, in discord.py's order.
MAJOR_PARAMETERS = ("channel_id", "guild_id", "app_id", "interaction_id", "token")


@dataclass
class Window:
    """One bucket for one major parameter: a fixed window from its first request."""

    limit: int
    window: float
    remaining: int = 0
    resets_at: float = 0.0  # time.monotonic()

    def take(self, now: float) -> float:
        """Take one request: 0.0 when it may pass, else the seconds until the window resets."""
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.window
        if self.remaining <= 0:
            return self.resets_at - now
        self.remaining -= 1
        return 0.0


@dataclass(frozen=True)
class Verdict:
    """What the limiter says of one request: its headers, and a 429's retry and scope."""

    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str | None = None  # None: it may pass; else "user", "global" or "shared"

    @property
    def limited(self) -> bool:
        return self.scope is not None

    def body(self) -> dict[str, object]:
        message = (
            "The resource is being rate limited."
            if self.scope == "shared"
            else "You are being rate limited."
        )
        return {
            "message": message,
            "retry_after": round(self.retry_after, 3),
            "global": self.scope == "global",
            "code": 0,
        }


def _seconds(value: float) -> str:
    """Seconds as Discord writes them: rounded up to the millisecond."""
    return f"{math.ceil(max(value, 0.0) * 1000) / 1000:.3f}"


@dataclass
class Limiter:
    """Per-route buckets and the global limit of one bot token."""

    enabled: bool = True
    clock: Callable[[], float] = time.monotonic
    lock: threading.Lock = field(default_factory=threading.Lock)
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    # When each request the global limit counted was let through (the last second's).
    global_times: deque[float] = field(default_factory=deque)
    # (bucket name, major parameter) → until when another user holds the resource (a 429
    # of scope "shared", which Discord does not count against the bot).
    shared_until: dict[tuple[str, str], float] = field(default_factory=dict)
    global_limit: int = GLOBAL_LIMIT

    @staticmethod
    def route_limit(method: str, template: str) -> RouteLimit:
        return ROUTE_LIMITS.get((method, template), DEFAULT)

    @staticmethod
    def major(match: Mapping[str, str]) -> str:
        """The bucket's top-level resource: channel, guild, or webhook id + token."""
        return "+".join(match[name] for name in MAJOR_PARAMETERS if name in match)

    def check(
        self,
        method: str,
        template: str,
        match: Mapping[str, str],
        *,
        exempt_from_global: bool,
        extra: RouteLimit | None = None,
    ) -> Verdict:
        """Count one request against its bucket (and `extra`, a sub-limit) and the global
        limit: a Verdict with the headers to send, and a 429's scope if it may not pass."""
        route = self.route_limit(method, template)
        if not self.enabled:
            return Verdict(self._open_headers(route))
        major = self.major(match)
        with self.lock:
            now = self.clock()
            shared = self.shared_until.get((route.bucket, major), 0.0)
            if shared > now:
                return self._refused(route, self._window(route, major), now, shared - now, "shared")
            if not exempt_from_global:
                while self.global_times and now - self.global_times[0] >= GLOBAL_WINDOW:
                    self.global_times.popleft()
                if len(self.global_times) >= self.global_limit:
                    wait = self.global_times[0] + GLOBAL_WINDOW - now
                    return self._refused_globally(wait)
            window = self._window(route, major)
            wait = window.take(now)
            if wait > 0:
                return self._refused(route, window, now, wait, "user")
            if extra is not None:
                sub = self._window(extra, major)
                sub_wait = sub.take(now)
                if sub_wait > 0:
                    window.remaining += 1  # refused: the main bucket gives the request back
                    return self._refused(route, window, now, sub_wait, "user")
            if not exempt_from_global:
                self.global_times.append(now)
            return Verdict(self._headers(route, window, now))

    def hold_shared(self, route: RouteLimit, major: str, seconds: float) -> None:
        """Another user of the resource exhausts it for `seconds` (a 429 of scope shared)."""
        with self.lock:
            self.shared_until[(route.bucket, major)] = self.clock() + seconds

    def _window(self, route: RouteLimit, major: str) -> Window:
        key = (route.bucket, major)
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = Window(route.limit, route.window)
        return window

    def _headers(self, route: RouteLimit, window: Window, now: float) -> dict[str, str]:
        after = window.resets_at - now
        return {
            "X-RateLimit-Limit": str(route.limit),
            "X-RateLimit-Remaining": str(max(window.remaining, 0)),
            "X-RateLimit-Reset": _seconds(time.time() + after),
            "X-RateLimit-Reset-After": _seconds(after),
            "X-RateLimit-Bucket": route.hash,
        }

    def _refused(
        self, route: RouteLimit, window: Window, now: float, wait: float, scope: str
    ) -> Verdict:
        headers = self._headers(route, window, now)
        headers.update(
            {
                "Retry-After": str(math.ceil(wait)),
                "X-RateLimit-Scope": scope,
                "X-RateLimit-Reset-After": _seconds(wait),
                "X-RateLimit-Reset": _seconds(time.time() + wait),
            }
        )
        return Verdict(headers, wait, scope)

    @staticmethod
    def _refused_globally(wait: float) -> Verdict:
        headers = {
            "Retry-After": str(math.ceil(wait)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
        }
        return Verdict(headers, wait, "global")

    @staticmethod
    def _open_headers(route: RouteLimit) -> dict[str, str]:
        """Limits off: headers that never make a client wait (a bucket as large as the
        global limit, always full)."""
        return {
            "X-RateLimit-Limit": str(GLOBAL_LIMIT),
            "X-RateLimit-Remaining": str(GLOBAL_LIMIT),
            "X-RateLimit-Reset": _seconds(time.time()),
            "X-RateLimit-Reset-After": "0.000",
            "X-RateLimit-Bucket": route.hash,
        }
