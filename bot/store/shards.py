"""Which guilds this process looks after, when several processes split Discord's shards.

Discord puts a guild on shard `(guild_id >> 22) % shard_count`. A process started with
SHARD_IDS runs only those shards, so its timed jobs (the round clock, the registration
posts) and its outbox delivery act only on those guilds; without SHARD_IDS it owns them
all, as one process always did.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    count: int = 1
    ids: frozenset[int] | None = None  # None: every shard

    @classmethod
    def of(cls, count: int | None, ids: Iterable[int] | None) -> Shards:
        if ids is None or count is None:
            return cls()
        return cls(count, frozenset(ids))

    @property
    def all(self) -> bool:
        return self.ids is None or len(self.ids) >= self.count

    def owns(self, guild_id: int) -> bool:
        return self.all or shard_of(guild_id, self.count) in (self.ids or ())

    @property
    def claimant(self) -> str:
        """Who claims this process's outbox notices: its shards, not the process. A process
        restarted on the same shards takes its predecessor's claims at once, so nothing
        waits for a dead process's claims to expire (were both alive for a moment, the
        nonce Discord enforces keeps a post from going out twice)."""
        if self.all or self.ids is None:
            return "shards:all"
        return f"shards:{','.join(map(str, sorted(self.ids)))}/{self.count}"

    def where(self, column: str = "guild_id") -> tuple[str, tuple[int, ...]]:
        """An SQL condition (`AND …`, or nothing) keeping this process's guilds; the same
        text on SQLite and PostgreSQL."""
        if self.all or self.ids is None:
            return "", ()
        marks = ", ".join("?" for _ in self.ids)
        return f" AND (({column} >> 22) % ?) IN ({marks})", (self.count, *sorted(self.ids))


def process_token() -> str:
    """This process, in what it claims (outbox notices) and announces (NOTIFY): unique per
    run, so a restarted process never mistakes an old claim of its predecessor for its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
