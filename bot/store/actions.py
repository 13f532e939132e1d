"""The append-only action log: who changed what, when, as which role, with the whole change.

Tournament rows carry the operation itself (`Operation.to_payload`), so the log can be
folded back into the tournament (`python -m bot verify`).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.store.backend import Connection, Row, fetch_rows
from domain.tournament.log import Action
from domain.tournament.operations import Operation, Role
from domain.tournament.replay import LoggedOperation

SYSTEM_ACTOR = 0  # the bot itself
# What the bot did on Discord for a tournament (its match rooms made, given to a round's
# tables, removed): in the log for the record, not operations, so never folded.
ROOM_KINDS = frozenset({"room_made", "room_permissioned", "room_removed", "room_lost"})


def _json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


async def _append(
    connection: Connection,
    *,
    guild_id: int,
    tournament_id: int | None,
    actor_id: int,
    actor_role: Role | None,
    kind: str,
    payload: dict[str, Any],
    at: datetime,
    request_id: int | None = None,
) -> int:
    cursor = await connection.execute(
        "INSERT INTO action_log (guild_id, tournament_id, actor_id, actor_role, kind, payload,"
        " created_at, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            tournament_id,
            actor_id,
            actor_role.name.lower() if actor_role else None,
            kind,
            _json(payload),
            at.isoformat(),
            request_id,
        ),
    )
    return int(cursor.lastrowid or 0)


async def request_seen(connection: Connection, request_id: int) -> bool:
    """Whether an operation of this interaction is already in the log."""
    rows = await connection.execute_fetchall(
        "SELECT 1 FROM action_log WHERE request_id = ?", (request_id,)
    )
    return bool(list(rows))


async def append_operation(
    connection: Connection,
    *,
    guild_id: int,
    tournament_id: int,
    actor_id: int,
    actor_role: Role,
    operation: Operation,
    at: datetime,
    request_id: int | None = None,
) -> int:
    return await _append(
        connection,
        guild_id=guild_id,
        tournament_id=tournament_id,
        actor_id=actor_id,
        actor_role=actor_role,
        kind=operation.kind,
        payload=operation.to_payload(),
        at=at,
        request_id=request_id,
    )


async def append_guild_change(
    connection: Connection,
    *,
    guild_id: int,
    actor_id: int,
    kind: str,
    payload: dict[str, Any],
    at: datetime,
) -> int:
    """A server-level change (e.g. /setup), outside any tournament."""
    return await _append(
        connection,
        guild_id=guild_id,
        tournament_id=None,
        actor_id=actor_id,
        actor_role=None,
        kind=kind,
        payload=payload,
        at=at,
    )


async def append_room_change(
    connection: Connection,
    *,
    guild_id: int,
    tournament_id: int,
    kind: str,
    payload: dict[str, Any],
    at: datetime,
) -> int:
    """A change of the bot's own to a tournament's match rooms (`ROOM_KINDS`)."""
    assert kind in ROOM_KINDS
    return await _append(
        connection,
        guild_id=guild_id,
        tournament_id=tournament_id,
        actor_id=SYSTEM_ACTOR,
        actor_role=None,
        kind=kind,
        payload=payload,
        at=at,
    )


def _action(row: Row) -> Action:
    role = row["actor_role"]
    return Action(
        id=row["id"],
        guild_id=row["guild_id"],
        tournament_id=row["tournament_id"],
        actor_id=row["actor_id"],
        actor_role=Role[role.upper()] if role else None,
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        created_at=row["created_at"],
    )


async def list_actions(
    connection: Connection, *, guild_id: int, tournament_id: int | None = None
) -> list[Action]:
    query = "SELECT * FROM action_log WHERE guild_id = ?"
    params: tuple[int, ...] = (guild_id,)
    if tournament_id is not None:
        query += " AND tournament_id = ?"
        params += (tournament_id,)
    async with connection.execute(query + " ORDER BY id", params) as cursor:
        rows = await cursor.fetchall()
    return [_action(row) for row in rows]


async def log_rows(connection: Connection, *, guild_id: int, tournament_id: int) -> list[Row]:
    """A tournament's whole log as stored, oldest first (tens of thousands of rows for a large
    event: read here, decoded by `operations_in`, which the bot runs off the event loop)."""
    query = (
        "SELECT id, kind, payload, actor_id, actor_role, created_at FROM action_log"
        " WHERE guild_id = ? AND tournament_id = ? ORDER BY id"
    )
    return await fetch_rows(connection, query, (guild_id, tournament_id))


def replayable(rows: list[Row]) -> bool:
    """Whether every row of a tournament's log carries its whole operation (rows written
    before schema 3 have no role)."""
    return bool(rows) and all(
        row["actor_role"] is not None or row["kind"] in ROOM_KINDS for row in rows
    )


def operations_in(rows: list[Row]) -> list[LoggedOperation]:
    """The log's rows that carry a whole operation, as operations to fold. Every payload
    is decoded in one call, quicker than one call a row (docs/BENCHMARKS.md, "the last three
    points", its "verify")."""
    rows = [row for row in rows if row["actor_role"] is not None]
    payloads = json.loads("[" + ",".join(row["payload"] for row in rows) + "]")
    roles = {role.name.lower(): role for role in Role}
    when = datetime.fromisoformat
    return [
        LoggedOperation(
            id=row["id"],
            kind=row["kind"],
            payload=payload,
            actor_id=row["actor_id"],
            role=roles[row["actor_role"].lower()],
            at=when(row["created_at"]),
        )
        for row, payload in zip(rows, payloads, strict=True)
    ]


async def tournament_log(
    connection: Connection, *, guild_id: int, tournament_id: int
) -> tuple[int, list[LoggedOperation] | None]:
    """A tournament's whole log read once, straight into operations to fold (what `verify`
    reads): the number of rows, and the operations, or None when a row predates whole
    operations."""
    rows = await log_rows(connection, guild_id=guild_id, tournament_id=tournament_id)
    return len(rows), operations_in(rows) if replayable(rows) else None
