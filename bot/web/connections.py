"""The page's connections, bounded where they are accepted.

The page shares the bot's process, and so its file descriptors, with the Discord side: a
stranger who could fill them (idle connections that send nothing, or streams) would make
`/round status` fail on its way to Discord. So the server takes at most a share of the
process's file limit (`ConnectionBudget`), and no single address more than a slice of that;
a connection that sends no complete request, or stays idle between requests, is closed after
`IDLE_SECONDS`. When every place is taken, the oldest connection doing nothing (no request
under way) makes room for the newest, so an idle crowd cannot lock a reader out; a
connection with a request under way is never cut.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

# A reader's browser sends its request at once; a connection that has not within this long
# (or that waits this long for its next request) holds a descriptor for nothing.
IDLE_SECONDS = 10.0
# Descriptors the page never takes: Discord's gateway and HTTP connections, the database,
# the log, and the bot's own files.
RESERVED_MIN = 256
RESERVED_SHARE = 4  # and at least a quarter of the limit
# When the page is full, an address holding this many connections already (a reader needs
# one or two: a page load and its stream) waits for one of its own to close rather than
# pushing someone else out; a flood from many addresses then churns only against itself.
FAIR_SHARE = 2
WANTED_FILES = 65_536  # the soft limit asked for at start, where the hard limit allows
ACCEPT_ERROR_QUIET_SECONDS = 60.0
# Connections the kernel keeps waiting to be accepted (they hold no descriptor of ours): a
# crowd, or a flood, waits there rather than being refused (capped by net.core.somaxconn).
LISTEN_QUEUE = 4096


def deepen_queue(listening: Any, depth: int = LISTEN_QUEUE) -> None:
    """The kernel's queue of a listening socket made `depth` deep, leaving asyncio's accept
    batch (the `backlog` it was given) as it is."""
    family, kind = listening.family, listening.type
    with socket.fromfd(listening.fileno(), family, kind) as duplicate:
        duplicate.listen(depth)


def raise_file_limit(wanted: int = WANTED_FILES) -> int:
    """The process's soft limit on open files, raised towards `wanted` where the hard
    limit allows it (systemd's default 1,024 is low for a public page); the limit now."""
    try:
        import resource
    except ImportError:  # not on a POSIX system: no limit we can read
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            log.warning("could not raise the open-file limit from %s", soft)
    return wanted if soft == resource.RLIM_INFINITY else int(soft)


@dataclass(frozen=True)
class ConnectionBudget:
    """How many connections the page may hold: in all, per client address, and how many of
    them may be streams (the rest stay free for page loads)."""

    total: int
    per_address: int
    streams: int
    # How many connections asyncio accepts in one go before the gate sees any (its
    # `backlog`): those, and as many made room for and not closed yet, hold descriptors
    # beyond `total`. The kernel's queue of waiting connections is deeper (`LISTEN_QUEUE`).
    accept_batch: int = 64

    @classmethod
    def of(cls, file_limit: int) -> ConnectionBudget:
        reserved = max(RESERVED_MIN, file_limit // RESERVED_SHARE)
        # Small: each connection accepted is work before the loop's next turn, and the
        # Discord side's answers wait for that turn.
        batch = max(8, min(64, reserved // 32))
        total = max(16, file_limit - reserved - 2 * batch)
        return cls(
            total=total,
            per_address=max(16, total // 8),
            streams=max(4, total // 2),
            accept_batch=batch,
        )


def address_key(address: str) -> str:
    """The key a client is counted under: an IPv4 address, or an IPv6 address's /64 (one
    home or phone gets a whole /64, and may pick any address in it)."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class ConnectionGate:
    """The open connections, by client address; refuses or makes room as they arrive."""

    def __init__(self, budget: ConnectionBudget, exempt: Callable[[str], bool]) -> None:
        self.budget = budget
        self._exempt = exempt  # the configured proxies: all readers arrive through them
        self._open: dict[RequestHandler, tuple[str, asyncio.Transport]] = {}
        self._per_key: dict[str, int] = {}
        self._busy: set[RequestHandler] = set()
        self.refused = 0
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._open)

    def admit(self, handler: RequestHandler, transport: asyncio.Transport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        key = address_key(address)
        if not self._exempt(address) and self._per_key.get(key, 0) >= self.budget.per_address:
            return self._refuse(transport)
        if len(self._open) >= self.budget.total and not self._make_room(key):
            return self._refuse(transport)
        self._open[handler] = (key, transport)
        self._per_key[key] = self._per_key.get(key, 0) + 1
        return True

    def _refuse(self, transport: asyncio.Transport) -> bool:
        self.refused += 1
        transport.abort()
        return False

    def _make_room(self, newcomer: str) -> bool:
        """Room for a connection from `newcomer` when every place is taken: the oldest idle
        connection goes, unless the newcomer holds its fair share already (a flood from a
        few hundred addresses then only churns against itself)."""
        if self._per_key.get(newcomer, 0) >= FAIR_SHARE:
            return False
        for handler, (_, transport) in self._open.items():  # the oldest first
            if handler not in self._busy:
                self.evicted += 1
                self.release(handler)
                transport.abort()
                return True
        return False

    def release(self, handler: RequestHandler) -> None:
        found = self._open.pop(handler, None)
        self._busy.discard(handler)
        if found is None:
            return
        key = found[0]
        left = self._per_key.get(key, 1) - 1
        if left > 0:
            self._per_key[key] = left
        else:
            self._per_key.pop(key, None)

    def busy(self, handler: RequestHandler, busy: bool) -> None:
        if busy:
            if handler in self._open:
                self._busy.add(handler)
        else:
            self._busy.discard(handler)


class GatedServer(web.Server):
    """aiohttp's server, with each connection passed through the gate as it is made."""

    def __init__(self, gate: ConnectionGate, handler: Any, **kwargs: Any) -> None:
        self.gate = gate

        async def handle(request: web.BaseRequest) -> web.StreamResponse:
            protocol = request.protocol
            gate.busy(protocol, True)
            try:
                response: web.StreamResponse = await handler(request)
                return response
            finally:
                gate.busy(protocol, False)

        super().__init__(handle, **kwargs)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        self.gate.admit(handler, transport)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        self.gate.release(handler)
        super().connection_lost(handler, exc)


class GatedRunner(web.AppRunner):
    """An app runner whose server is gated; a handler is cancelled as soon as its client goes
    (a closed stream gives its place back at once, not at its next heartbeat)."""

    def __init__(self, app: web.Application, gate: ConnectionGate, **kwargs: Any) -> None:
        super().__init__(app, handler_cancellation=True, keepalive_timeout=IDLE_SECONDS, **kwargs)
        self.gate = gate

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()
        return GatedServer(
            self.gate,
            plain.request_handler,
            request_factory=plain.request_factory,
            handler_cancellation=plain.handler_cancellation,
            loop=asyncio.get_running_loop(),
            **plain._kwargs,  # the handlers' settings, as the application made them
        )


class QuietAccept:
    """The loop's exception handler, with "accept() out of system resource" logged once per
    burst: asyncio reports each refused accept, and a flood logged hundreds of thousands of
    them (docs/BENCHMARKS.md, "The live page against a stranger")."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.previous = loop.get_exception_handler()
        self.quiet_until = 0.0
        self.suppressed = 0

    def install(self) -> Callable[[], None]:
        self.loop.set_exception_handler(self)

        def remove() -> None:
            if self.loop.get_exception_handler() is self:
                self.loop.set_exception_handler(self.previous)

        return remove

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            now = time.monotonic()
            if now < self.quiet_until:
                self.suppressed += 1
                return
            self.quiet_until = now + ACCEPT_ERROR_QUIET_SECONDS
            log.error(
                "the page cannot accept connections: %s (%d more such errors not logged)",
                context.get("exception"),
                self.suppressed,
            )
            self.suppressed = 0
            return
        if self.previous is not None:
            self.previous(loop, context)
        else:
            loop.default_exception_handler(context)
