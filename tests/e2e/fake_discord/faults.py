"""Discord failing on command: 5xx answers for a time, for all routes or some.

A `Fault` is what `FakeDiscord.fail_discord` and `refuse_callbacks` install: while it is
active, every request it matches answers `status` before Discord does anything (nothing is
posted, no bucket is charged, no rate-limit header is sent, as from Discord's load
balancer). It ends after `seconds`, or when `end()` is called.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

CALLBACKS = "/interactions/"  # interaction callbacks: POST /interactions/{id}/{token}/callback
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


@dataclass
class Fault:
    """`status` for requests matching `method` (None: any) and a path starting with `path`
    (without /api/v10; None: any), from now until `until` (time.monotonic(); None: until
    `end()`). `spare_callbacks` lets interaction callbacks through (Discord's posts fail,
    users' answers do not); `hits` counts the requests it refused."""

    status: int = 503
    method: str | None = None
    path: str | None = None
    until: float | None = None
    spare_callbacks: bool = False
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    hits: int = 0

    def __post_init__(self) -> None:
        if self.status not in REASONS:
            raise ValueError(f"a fault answers 500, 502 or 503, not {self.status}")

    @property
    def active(self) -> bool:
        now = time.monotonic()
        return self.ended is None and (self.until is None or now < self.until)

    def matches(self, method: str, path: str) -> bool:
        if not self.active:
            return False
        if self.spare_callbacks and path.startswith(CALLBACKS):
            return False
        if self.method is not None and method != self.method:
            return False
        return self.path is None or path.startswith(self.path)

    def end(self) -> None:
        """Discord works again."""
        if self.ended is None:
            self.ended = time.monotonic()

    @property
    def reason(self) -> str:
        return REASONS[self.status]
