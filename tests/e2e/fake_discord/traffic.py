"""What the bot asked of Discord, summed up: `FakeDiscord.traffic()`, printed by benches.

Requests by route template and status, messages posted per channel, 429s by scope, the
invalid answers Discord counts toward its ban, the longest wait a client planning from the
headers had, nonces answered with the first message, and DM attempts per user.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .state import DM, RecordedRequest, World

POST_MESSAGE = ("POST", "/channels/{channel_id}/messages")


@dataclass
class Traffic:
    total: int = 0
    # (method, route template, status) → requests
    by_route: Counter[tuple[str, str, int]] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)  # place → messages posted
    rate_limited: Counter[str] = field(default_factory=Counter)  # 429s by scope
    invalid: int = 0  # 401, 403 and 429 (not shared) answers
    longest_wait: float = 0.0  # seconds
    nonce_repeats: int = 0
    dm_attempts: Counter[str] = field(default_factory=Counter)  # user → posts tried

    @property
    def too_many(self) -> int:
        """Every 429, whatever its scope."""
        return sum(self.rate_limited.values())

    def lines(self, *, top: int = 12) -> list[str]:
        """A readable summary: the busiest routes and places first."""
        scopes = ", ".join(f"{scope} {n}" for scope, n in sorted(self.rate_limited.items()))
        out = [
            f"requests {self.total}; 429s {self.too_many} ({scopes or 'none'}); "
            f"invalid answers {self.invalid}; longest wait {self.longest_wait:.2f} s; "
            f"nonce repeats {self.nonce_repeats}",
            "requests by route and status:",
        ]
        for (method, route, status), count in self.by_route.most_common(top):
            out.append(f"  {count:7d}  {status}  {method} {route}")
        if len(self.by_route) > top:
            out.append(f"  … {len(self.by_route) - top} more")
        out.append("messages per place:")
        for place, count in self.messages.most_common(top):
            out.append(f"  {count:7d}  {place}")
        if len(self.messages) > top:
            out.append(f"  … {len(self.messages) - top} more places")
        if self.dm_attempts:
            most = self.dm_attempts.most_common(3)
            out.append(
                f"DM attempts: {sum(self.dm_attempts.values())} to {len(self.dm_attempts)} "
                f"users (most: {', '.join(f'{u} {n}' for u, n in most)})"
            )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def place_name(world: World, channel_id: int) -> str:
    channel = world.channel_by_id(channel_id) or world.deleted_channels.get(channel_id)
    if channel is None:
        return str(channel_id)
    if channel.type == DM:
        return f"DM {channel.recipient.username if channel.recipient else channel_id}"
    if channel.is_thread:
        parent = world.channel_by_id(channel.parent_id or 0)
        return f"#{parent.name if parent else '?'} › {channel.name}"
    return f"#{channel.name}"


def summarise(world: World, requests: Iterable[RecordedRequest]) -> Traffic:
    """The traffic of `requests` (call with `world.lock` held)."""
    traffic = Traffic(nonce_repeats=world.nonce_repeats)
    names: dict[int, str] = {}
    for request in requests:
        traffic.total += 1
        traffic.by_route[(request.method, request.route or request.path, request.status)] += 1
        if request.status == 429:
            traffic.rate_limited[request.scope or "?"] += 1
        if request.invalid:
            traffic.invalid += 1
        traffic.longest_wait = max(traffic.longest_wait, request.wait)
        posted = (request.method, request.route) == POST_MESSAGE and request.status == 200
        if posted and request.channel_id is not None:
            if request.channel_id not in names:
                names[request.channel_id] = place_name(world, request.channel_id)
            traffic.messages[names[request.channel_id]] += 1
    for user_id, attempts in world.dm_attempts.items():
        user = world.users.get(user_id)
        traffic.dm_attempts[user.username if user else str(user_id)] += attempts
    return traffic
