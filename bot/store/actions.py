"""The append-only action log: who changed what, when, with which payload."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiosqlite

SYSTEM_ACTOR = 0  # the bot itself, e.g. a promotion from the waitlist


@dataclass(frozen=True)
class Action:
    id: int
    guild_id: int
    tournament_id: int | None
    actor_id: int
    kind: str
    payload: dict[str, Any]
    created_at: str


async def append_action(
    connection: aiosqlite.Connection,
    *,
    guild_id: int,
    actor_id: int,
    kind: str,
    at: datetime,
    tournament_id: int | None = None,
    payload: dict[str, Any] | None = None,
) -> int:
    cursor = await connection.execute(
        "INSERT INTO action_log (guild_id, tournament_id, actor_id, kind, payload, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            tournament_id,
            actor_id,
            kind,
            json.dumps(payload or {}, ensure_ascii=False, sort_keys=True, default=str),
            at.isoformat(),
        ),
    )
    return int(cursor.lastrowid or 0)


async def list_actions(
    connection: aiosqlite.Connection, *, guild_id: int, tournament_id: int | None = None
) -> list[Action]:
    query = "SELECT * FROM action_log WHERE guild_id = ?"
    params: tuple[int, ...] = (guild_id,)
    if tournament_id is not None:
        query += " AND tournament_id = ?"
        params += (tournament_id,)
    async with connection.execute(query + " ORDER BY id", params) as cursor:
        rows = await cursor.fetchall()
    return [
        Action(
            id=row["id"],
            guild_id=row["guild_id"],
            tournament_id=row["tournament_id"],
            actor_id=row["actor_id"],
            kind=row["kind"],
            payload=json.loads(row["payload"]),
            created_at=row["created_at"],
        )
        for row in rows
    ]
