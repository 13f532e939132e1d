"""The gateway half of the fake Discord: one websocket speaking Discord's JSON protocol.

HELLO → (IDENTIFY → READY + one GUILD_CREATE per guild) or (RESUME → RESUMED); heartbeats
are ACKed. discord.py asks for `compress=zlib-stream`, but it reads plain text frames too,
so the fake sends text. Tests inject events with `dispatch()`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .state import World

JSON = dict[str, Any]

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HEARTBEAT_ACK = (
    10,
    1,
    2,
    6,
    7,
    9,
    11,
)


@dataclass
class Session:
    id: str
    sequence: int = 0


@dataclass
class Connection:
    ws: web.WebSocketResponse
    session: Session | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: JSON) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(payload))


class Gateway:
    def __init__(self, world: World) -> None:
        self.world = world
        self.url = ""  # set once the server knows its port
        self.sessions: dict[str, Session] = {}
        self.connection: Connection | None = None
        # What the bot sent: (op, payload without the token) in order, for tests to inspect.
        self.received: list[tuple[int, JSON]] = []
        self.identify_count = 0
        self.resume_count = 0
        self.ready_sent = 0

    @property
    def ready(self) -> bool:
        """A bot is connected and identified (or resumed)."""
        connection = self.connection
        return connection is not None and connection.session is not None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = Connection(ws)
        await connection.send(
            {"op": HELLO, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None}
        )
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                op = payload.get("op")
                data = payload.get("d")
                if isinstance(data, dict) and "token" in data:
                    data = {k: v for k, v in data.items() if k != "token"}
                self.received.append((op, data))
                if op == HEARTBEAT:
                    await connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == IDENTIFY:
                    if payload["d"].get("token") != self.world.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identify_count += 1
                    await self._identify(connection)
                elif op == RESUME:
                    self.resume_count += 1
                    await self._resume(connection, payload["d"])
        finally:
            if self.connection is connection:
                self.connection = None
        return ws

    async def _send_event(self, connection: Connection, event: str, data: JSON) -> None:
        session = connection.session
        assert session is not None
        session.sequence += 1
        await connection.send({"op": 0, "t": event, "s": session.sequence, "d": data})

    async def _identify(self, connection: Connection) -> None:
        world = self.world
        session = Session(secrets.token_hex(16))
        self.sessions[session.id] = session
        connection.session = session
        self.connection = connection
        with world.lock:
            guilds = list(world.guilds.values())
            ready = {
                "v": 10,
                "user": dict(world.bot_user.payload(), verified=True, mfa_enabled=False),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.url,
                "application": {"id": str(world.app_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "_trace": ["fake-discord"],
            }
            creates = [g.payload(full=True) for g in guilds]
        await self._send_event(connection, "READY", ready)
        self.ready_sent += 1
        for guild in creates:
            await self._send_event(connection, "GUILD_CREATE", guild)

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None:
            await connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        connection.session = session
        self.connection = connection
        await self._send_event(connection, "RESUMED", {"_trace": ["fake-discord"]})

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send an event to the connected bot; False when no bot is connected."""
        connection = self.connection
        if connection is None or connection.session is None:
            return False
        await self._send_event(connection, event, data)
        return True

    async def request_reconnect(self) -> None:
        """Op 7: the bot closes the socket and RESUMEs on `resume_gateway_url`."""
        connection = self.connection
        if connection is not None:
            await connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        connection = self.connection
        if connection is not None and not connection.ws.closed:
            await connection.ws.close(code=1001, message=b"fake discord shutting down")
