"""The gateway half of the fake Discord: websockets speaking Discord's JSON protocol.

HELLO → (IDENTIFY → READY + one GUILD_CREATE per guild) or (RESUME → RESUMED); heartbeats
are ACKed. discord.py asks for `compress=zlib-stream`, but it reads plain text frames too,
so the fake sends text. Tests inject events with `dispatch()`.

Shards, as Discord serves them: an IDENTIFY with `shard: [id, count]` gets a READY naming
that shard and GUILD_CREATE only for its guilds (`(guild_id >> 22) % count == id`); an
event of a guild goes to the connection of the guild's shard, so several bot processes
each running some shards each hear only their own guilds.
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
    shard: tuple[int, int] = (0, 1)  # (shard id, shard count)


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count


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
        # The identified connection of each shard id (the newest one).
        self.connections: dict[int, Connection] = {}
        # Every identified connection: during a restart overlap a shard has two sessions.
        self.live: list[Connection] = []
        # True: an event goes to every session of its shard, as Discord does while an old
        # process and its replacement both hold one (a rolling restart's overlap).
        self.every_session = False
        # What the bot sent: (op, payload without the token) in order, for tests to inspect.
        self.received: list[tuple[int, JSON]] = []
        self.identify_count = 0
        self.resume_count = 0
        self.ready_sent = 0

    @property
    def connection(self) -> Connection | None:
        """The connection of shard 0, else of any shard."""
        if 0 in self.connections:
            return self.connections[0]
        return next(iter(self.connections.values()), None)

    @property
    def ready(self) -> bool:
        """A bot is connected and identified (or resumed)."""
        connection = self.connection
        return connection is not None and connection.session is not None

    def shard_ready(self, shard_id: int) -> bool:
        connection = self.connections.get(shard_id)
        return connection is not None and connection.session is not None

    def _connection_for(self, data: JSON) -> Connection | None:
        """The connection that hears an event: its guild's shard's (DMs: shard 0's)."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        connection = self.connection
        if guild_id is None or connection is None or connection.session is None:
            return connection
        count = connection.session.shard[1]
        return self.connections.get(shard_of(int(guild_id), count))

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
                    shard = payload["d"].get("shard") or [0, 1]
                    await self._identify(connection, (int(shard[0]), int(shard[1])))
                elif op == RESUME:
                    self.resume_count += 1
                    await self._resume(connection, payload["d"])
        finally:
            for shard, known in list(self.connections.items()):
                if known is connection:
                    del self.connections[shard]
            if connection in self.live:
                self.live.remove(connection)
        return ws

    async def _send_event(self, connection: Connection, event: str, data: JSON) -> None:
        session = connection.session
        assert session is not None
        session.sequence += 1
        await connection.send({"op": 0, "t": event, "s": session.sequence, "d": data})

    async def _identify(self, connection: Connection, shard: tuple[int, int]) -> None:
        world = self.world
        session = Session(secrets.token_hex(16), shard=shard)
        self.sessions[session.id] = session
        connection.session = session
        self.connections[shard[0]] = connection
        self.live.append(connection)
        with world.lock:
            guilds = [g for g in world.guilds.values() if shard_of(g.id, shard[1]) == shard[0]]
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
                "shard": list(shard),
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
        self.connections[session.shard[0]] = connection
        if connection not in self.live:
            self.live.append(connection)
        await self._send_event(connection, "RESUMED", {"_trace": ["fake-discord"]})

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send an event to the bot connection of its guild's shard; False when none is
        connected."""
        connection = self._connection_for(data)
        if connection is None or connection.session is None:
            return False
        if not self.every_session:
            await self._send_event(connection, event, data)
            return True
        shard = connection.session.shard[0]
        for each in [c for c in self.live if c.session and c.session.shard[0] == shard]:
            # Each session numbers its own events, and gets its own copy.
            await self._send_event(each, event, data)
        return True

    async def request_reconnect(self) -> None:
        """Op 7: the bot closes the socket and RESUMEs on `resume_gateway_url`."""
        connection = self.connection
        if connection is not None:
            await connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        for connection in list(self.connections.values()):
            if not connection.ws.closed:
                await connection.ws.close(code=1001, message=b"fake discord shutting down")
