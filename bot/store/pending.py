"""Operations waiting for their confirmation (a penalty after its preview, an undo)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.backend import Connection, Row


@dataclass(frozen=True)
class Pending:
    id: int
    guild_id: int
    tournament_id: int
    actor_id: int
    kind: str
    payload: dict[str, Any]


async def add_pending(
    connection: Connection,
    *,
    guild_id: int,
    tournament_id: int,
    actor_id: int,
    kind: str,
    payload: dict[str, Any],
    at: datetime,
) -> int:
    cursor = await connection.execute(
        "INSERT INTO pending_operations (guild_id, tournament_id, actor_id, kind, payload,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            tournament_id,
            actor_id,
            kind,
            json.dumps(payload, ensure_ascii=False),
            at.isoformat(),
        ),
    )
    return int(cursor.lastrowid or 0)


async def take_pending(connection: Connection, guild_id: int, pending_id: int) -> Pending | None:
    """The pending operation, removed: a confirmation is used once (one statement, so two
    processes pressing the same button cannot both take it)."""
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "DELETE FROM pending_operations WHERE id = ? AND guild_id = ? RETURNING *",
            (pending_id, guild_id),
        )
    )
    if not rows:
        return None
    row = rows[0]
    return Pending(
        row["id"],
        row["guild_id"],
        row["tournament_id"],
        row["actor_id"],
        row["kind"],
        json.loads(row["payload"]),
    )
