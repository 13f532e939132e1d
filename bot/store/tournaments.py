"""Tournaments, players and decks: rows in, records out. No rules live here."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import aiosqlite

from domain.event import EventConfig, EventFormat, Phase


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    name: str
    format: EventFormat
    regulation: str
    rounds: int | None
    top_cut: int | None
    time_limit_minutes: int
    titles: tuple[str, ...]
    max_players: int | None
    event_date: date
    state: Phase
    current_round: int
    seed: int | None
    late_registration_rounds: int
    decklist_required: bool
    missing_deck_policy: str
    starts_at: datetime | None
    checkin_minutes: int
    mix_two_minimum: int
    restricted_list: str | None
    titles_file: str | None
    card_database: str | None
    decks_published: bool
    created_by: int
    created_at: str
    started_at: str | None

    @property
    def is_open(self) -> bool:
        return self.state is not Phase.FINISHED


@dataclass(frozen=True)
class PlayerRecord:
    tournament_id: int
    user_id: int
    display_name: str
    status: str
    registered_at: str
    checked_in_at: str | None
    joined_round: int
    dropped_round: int | None


@dataclass(frozen=True)
class DeckRecord:
    tournament_id: int
    user_id: int
    canonical: str
    fingerprint: str
    total: int
    submitted_at: str
    locked_at: str | None


def _tournament(row: aiosqlite.Row) -> TournamentRecord:
    return TournamentRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        format=EventFormat(row["format"]),
        regulation=row["regulation"],
        rounds=row["rounds"],
        top_cut=row["top_cut"],
        time_limit_minutes=row["time_limit_minutes"],
        titles=tuple(json.loads(row["titles"])),
        max_players=row["max_players"],
        event_date=date.fromisoformat(row["event_date"]),
        state=Phase(row["state"]),
        current_round=row["current_round"],
        seed=row["seed"],
        late_registration_rounds=row["late_registration_rounds"],
        decklist_required=bool(row["decklist_required"]),
        missing_deck_policy=row["missing_deck_policy"],
        starts_at=datetime.fromisoformat(row["starts_at"]) if row["starts_at"] else None,
        checkin_minutes=row["checkin_minutes"],
        mix_two_minimum=row["mix_two_minimum"],
        restricted_list=row["restricted_list"],
        titles_file=row["titles_file"],
        card_database=row["card_database"],
        decks_published=bool(row["decks_published"]),
        created_by=row["created_by"],
        created_at=row["created_at"],
        started_at=row["started_at"],
    )


async def insert_tournament(
    connection: aiosqlite.Connection,
    *,
    guild_id: int,
    config: EventConfig,
    created_by: int,
    at: datetime,
) -> int:
    cursor = await connection.execute(
        "INSERT INTO tournaments (guild_id, name, format, regulation, rounds, top_cut,"
        " time_limit_minutes, titles, max_players, event_date, created_by, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            config.name,
            config.format.value,
            config.regulation,
            config.rounds,
            config.top_cut,
            config.time_limit_minutes,
            json.dumps(list(config.titles), ensure_ascii=False),
            config.max_players,
            config.event_date.isoformat(),
            created_by,
            at.isoformat(),
        ),
    )
    return int(cursor.lastrowid or 0)


async def get_tournament(
    connection: aiosqlite.Connection, guild_id: int, tournament_id: int
) -> TournamentRecord | None:
    # The guild is part of every lookup: another server's tournaments do not exist here.
    async with connection.execute(
        "SELECT * FROM tournaments WHERE id = ? AND guild_id = ?", (tournament_id, guild_id)
    ) as cursor:
        row = await cursor.fetchone()
    return _tournament(row) if row else None


async def find_tournament_by_name(
    connection: aiosqlite.Connection, guild_id: int, name: str
) -> TournamentRecord | None:
    async with connection.execute(
        "SELECT * FROM tournaments WHERE guild_id = ? AND name = ?", (guild_id, name)
    ) as cursor:
        row = await cursor.fetchone()
    return _tournament(row) if row else None


async def list_tournaments(
    connection: aiosqlite.Connection, guild_id: int, *, open_only: bool = False
) -> list[TournamentRecord]:
    query = "SELECT * FROM tournaments WHERE guild_id = ?"
    if open_only:
        query += " AND state != 'finished'"
    async with connection.execute(query + " ORDER BY id DESC", (guild_id,)) as cursor:
        rows = await cursor.fetchall()
    return [_tournament(row) for row in rows]


_SETTABLE = {
    "late_registration_rounds",
    "decklist_required",
    "missing_deck_policy",
    "starts_at",
    "checkin_minutes",
    "mix_two_minimum",
    "restricted_list",
    "titles_file",
    "card_database",
    "decks_published",
    "state",
    "seed",
    "started_at",
    "rounds",
}


async def update_tournament(
    connection: aiosqlite.Connection, tournament_id: int, **changes: Any
) -> None:
    unknown = set(changes) - _SETTABLE
    if unknown:
        raise ValueError(f"not a settable tournament column: {sorted(unknown)}")
    if not changes:
        return
    assignments = ", ".join(f"{column} = ?" for column in changes)
    values = [_to_sql(value) for value in changes.values()]
    await connection.execute(
        f"UPDATE tournaments SET {assignments} WHERE id = ?", (*values, tournament_id)
    )


def _to_sql(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Phase):
        return value.value
    if isinstance(value, bool):
        return int(value)
    return value


def _player(row: aiosqlite.Row) -> PlayerRecord:
    return PlayerRecord(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        status=row["status"],
        registered_at=row["registered_at"],
        checked_in_at=row["checked_in_at"],
        joined_round=row["joined_round"],
        dropped_round=row["dropped_round"],
    )


async def get_player(
    connection: aiosqlite.Connection, tournament_id: int, user_id: int
) -> PlayerRecord | None:
    async with connection.execute(
        "SELECT * FROM players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    ) as cursor:
        row = await cursor.fetchone()
    return _player(row) if row else None


async def list_players(
    connection: aiosqlite.Connection, tournament_id: int, *, statuses: tuple[str, ...] = ()
) -> list[PlayerRecord]:
    query = "SELECT * FROM players WHERE tournament_id = ?"
    params: list[Any] = [tournament_id]
    if statuses:
        query += f" AND status IN ({', '.join('?' for _ in statuses)})"
        params += statuses
    async with connection.execute(query + " ORDER BY registered_at, user_id", params) as cursor:
        rows = await cursor.fetchall()
    return [_player(row) for row in rows]


async def count_players(connection: aiosqlite.Connection, tournament_id: int, status: str) -> int:
    async with connection.execute(
        "SELECT COUNT(*) FROM players WHERE tournament_id = ? AND status = ?",
        (tournament_id, status),
    ) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def upsert_player(
    connection: aiosqlite.Connection,
    *,
    tournament_id: int,
    user_id: int,
    display_name: str,
    status: str,
    at: datetime,
    joined_round: int = 0,
) -> None:
    await connection.execute(
        "INSERT INTO players (tournament_id, user_id, display_name, status, registered_at,"
        " joined_round) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id, user_id) DO UPDATE SET display_name = excluded.display_name,"
        " status = excluded.status, registered_at = excluded.registered_at,"
        " joined_round = excluded.joined_round, dropped_round = NULL, checked_in_at = NULL",
        (tournament_id, user_id, display_name, status, at.isoformat(), joined_round),
    )


async def set_player_status(
    connection: aiosqlite.Connection,
    tournament_id: int,
    user_id: int,
    status: str,
    *,
    dropped_round: int | None = None,
) -> None:
    await connection.execute(
        "UPDATE players SET status = ?, dropped_round = ? WHERE tournament_id = ? AND user_id = ?",
        (status, dropped_round, tournament_id, user_id),
    )


async def set_checked_in(
    connection: aiosqlite.Connection, tournament_id: int, user_id: int, at: datetime
) -> None:
    await connection.execute(
        "UPDATE players SET checked_in_at = ? WHERE tournament_id = ? AND user_id = ?",
        (at.isoformat(), tournament_id, user_id),
    )


def _deck(row: aiosqlite.Row) -> DeckRecord:
    return DeckRecord(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        canonical=row["canonical"],
        fingerprint=row["fingerprint"],
        total=row["total"],
        submitted_at=row["submitted_at"],
        locked_at=row["locked_at"],
    )


async def get_deck(
    connection: aiosqlite.Connection, tournament_id: int, user_id: int
) -> DeckRecord | None:
    async with connection.execute(
        "SELECT * FROM decks WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    ) as cursor:
        row = await cursor.fetchone()
    return _deck(row) if row else None


async def list_decks(connection: aiosqlite.Connection, tournament_id: int) -> list[DeckRecord]:
    async with connection.execute(
        "SELECT * FROM decks WHERE tournament_id = ? ORDER BY user_id", (tournament_id,)
    ) as cursor:
        rows = await cursor.fetchall()
    return [_deck(row) for row in rows]


async def save_deck(
    connection: aiosqlite.Connection,
    *,
    tournament_id: int,
    user_id: int,
    canonical: str,
    fingerprint: str,
    total: int,
    at: datetime,
) -> None:
    await connection.execute(
        "INSERT INTO decks (tournament_id, user_id, canonical, fingerprint, total, submitted_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE SET"
        " canonical = excluded.canonical, fingerprint = excluded.fingerprint,"
        " total = excluded.total, submitted_at = excluded.submitted_at",
        (tournament_id, user_id, canonical, fingerprint, total, at.isoformat()),
    )


async def delete_deck(connection: aiosqlite.Connection, tournament_id: int, user_id: int) -> None:
    await connection.execute(
        "DELETE FROM decks WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    )


async def lock_decks(connection: aiosqlite.Connection, tournament_id: int, at: datetime) -> None:
    await connection.execute(
        "UPDATE decks SET locked_at = ? WHERE tournament_id = ? AND locked_at IS NULL",
        (at.isoformat(), tournament_id),
    )
