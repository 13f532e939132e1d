"""Penalties and judge calls: rows in, domain values out, and back (only what changed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from bot.store.backend import Connection, Row, fetch_rows
from domain.engine.results import MatchResult
from domain.tournament import codec
from domain.tournament.penalties import Infraction, JudgeCall, MatchEffect, Penalty, PenaltyType


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _penalty(row: Row) -> Penalty:
    effect = None
    if row["effect_round"] is not None:
        before = row["before_result"]
        effect = MatchEffect(
            row["effect_round"],
            row["effect_table"],
            codec.decode(MatchResult, json.loads(before)) if before else None,
        )
    at = _time(row["at"])
    assert at is not None
    return Penalty(
        id=row["id"],
        player_id=row["player_id"],
        type=PenaltyType(row["type"]),
        infraction=Infraction(row["infraction"]),
        reason=row["reason"],
        round=row["round"],
        given_by=row["given_by"],
        at=at,
        effect=effect,
        revoked=bool(row["revoked"]),
    )


def _call(row: Row) -> JudgeCall:
    called_at = _time(row["called_at"])
    assert called_at is not None
    return JudgeCall(
        id=row["id"],
        player_id=row["player_id"],
        round=row["round"],
        table=row["table_no"],
        reason=row["reason"],
        called_at=called_at,
        claimed_by=row["claimed_by"],
        claimed_at=_time(row["claimed_at"]),
        resolved_by=row["resolved_by"],
        resolved_at=_time(row["resolved_at"]),
        extension_minutes=row["extension_minutes"],
    )


async def penalty_rows(connection: Connection, tournament_id: int) -> list[Row]:
    query = "SELECT * FROM penalties WHERE tournament_id = ? ORDER BY id"
    return await fetch_rows(connection, query, (tournament_id,))


def penalties_from(rows: list[Row]) -> tuple[Penalty, ...]:
    return tuple(_penalty(row) for row in rows)


async def call_rows(connection: Connection, tournament_id: int) -> list[Row]:
    query = "SELECT * FROM judge_calls WHERE tournament_id = ? ORDER BY id"
    return await fetch_rows(connection, query, (tournament_id,))


def calls_from(rows: list[Row]) -> tuple[JudgeCall, ...]:
    return tuple(_call(row) for row in rows)


async def _delete_missing(
    connection: Connection, table: str, tournament_id: int, ids: set[int]
) -> None:
    """Rows an undo took away (the tournament was folded without their operation)."""
    for gone in ids:
        await connection.execute(
            f"DELETE FROM {table} WHERE tournament_id = ? AND id = ?", (tournament_id, gone)
        )


async def save_penalties(
    connection: Connection,
    tournament_id: int,
    before: Sequence[Penalty],
    after: Sequence[Penalty],
) -> None:
    old = {p.id: p for p in before}
    await _delete_missing(
        connection, "penalties", tournament_id, old.keys() - {p.id for p in after}
    )
    for penalty in after:
        if old.get(penalty.id) == penalty:
            continue
        effect = penalty.effect
        before_result = (
            json.dumps(codec.encode(effect.before)) if effect and effect.before else None
        )
        await connection.execute(
            "INSERT INTO penalties (tournament_id, id, player_id, type, infraction, reason, round,"
            " given_by, at, effect_round, effect_table, before_result, revoked)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (tournament_id, id) DO UPDATE SET player_id = excluded.player_id,"
            " type = excluded.type, infraction = excluded.infraction, reason = excluded.reason,"
            " round = excluded.round, given_by = excluded.given_by, at = excluded.at,"
            " effect_round = excluded.effect_round, effect_table = excluded.effect_table,"
            " before_result = excluded.before_result, revoked = excluded.revoked",
            (
                tournament_id,
                penalty.id,
                penalty.player_id,
                penalty.type.value,
                penalty.infraction.value,
                penalty.reason,
                penalty.round,
                penalty.given_by,
                _iso(penalty.at),
                effect.round if effect else None,
                effect.table if effect else None,
                before_result,
                int(penalty.revoked),
            ),
        )


async def save_calls(
    connection: Connection,
    tournament_id: int,
    before: Sequence[JudgeCall],
    after: Sequence[JudgeCall],
) -> None:
    old = {c.id: c for c in before}
    await _delete_missing(
        connection, "judge_calls", tournament_id, old.keys() - {c.id for c in after}
    )
    for call in after:
        if old.get(call.id) == call:
            continue
        await connection.execute(
            "INSERT INTO judge_calls (tournament_id, id, player_id, round, table_no, reason,"
            " called_at, claimed_by, claimed_at, resolved_by, resolved_at, extension_minutes)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, id)"
            " DO UPDATE SET player_id = excluded.player_id, round = excluded.round,"
            " table_no = excluded.table_no, reason = excluded.reason,"
            " called_at = excluded.called_at,"
            " claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at,"
            " resolved_by = excluded.resolved_by, resolved_at = excluded.resolved_at,"
            " extension_minutes = excluded.extension_minutes",
            (
                tournament_id,
                call.id,
                call.player_id,
                call.round,
                call.table,
                call.reason,
                _iso(call.called_at),
                call.claimed_by,
                _iso(call.claimed_at),
                call.resolved_by,
                _iso(call.resolved_at),
                call.extension_minutes,
            ),
        )
