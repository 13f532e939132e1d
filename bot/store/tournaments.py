"""Tournaments, players and decks: the aggregate to rows and back. No rules live here.

`load_tournament` reads a tournament's rows (`tournament_rows`) and builds the `Tournament`
from them (`tournament_from`); `save_tournament` writes what changed between two versions of
it (only the changed columns and rows, so a 1 MB card database is not rewritten by every
registration).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from enum import Enum
from typing import Any, TypeVar

from bot.store.backend import Connection, Row, fetch_rows
from bot.store.judging import (
    call_rows,
    calls_from,
    penalties_from,
    penalty_rows,
    save_calls,
    save_penalties,
)
from bot.store.rounds import RoundRows, round_rows, rounds_from, save_rounds
from domain.engine.players import PlayerStatus
from domain.engine.state import Phase, TournamentState
from domain.event import EventConfig, EventFormat
from domain.tournament.model import Entry, Settings, StoredDeck, Tournament
from domain.tournament.operations import MissingDeckPolicy, NoShowTiebreak, Repeat, RoomSpectators

V = TypeVar("V")


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _sql(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, tuple):
        return json.dumps(list(value), ensure_ascii=False)
    return value


def tournament_columns(tournament: Tournament) -> dict[str, Any]:
    """The tournaments row of `tournament`, column by column (SQL values)."""
    config, settings, state = tournament.config, tournament.settings, tournament.state
    values: dict[str, Any] = {
        "guild_id": tournament.guild_id,
        "name": config.name,
        "format": config.format,
        "regulation": config.regulation,
        "rounds": config.rounds,
        "top_cut": config.top_cut,
        "time_limit_minutes": config.time_limit_minutes,
        "titles": config.titles,
        "max_players": config.max_players,
        "event_date": config.event_date,
        "state": state.phase,
        "planned_rounds": state.planned_rounds,
        "seed": tournament.seed,
        "late_registration_rounds": settings.late_registration_rounds,
        "decklist_required": settings.decklist_required,
        "missing_deck_policy": settings.missing_deck_policy,
        "starts_at": settings.starts_at,
        "checkin_minutes": settings.checkin_minutes,
        "mix_two_minimum": settings.mix_two_minimum,
        "restricted_list": settings.restricted_list,
        "titles_file": settings.titles_file,
        "card_database": settings.card_database,
        "ex_deck": settings.ex_deck,
        "ex_copies_shared": settings.ex_copies_shared,
        "noshow_minutes": settings.noshow_minutes,
        "noshow_tiebreak": settings.noshow_tiebreak,
        "repeats": settings.repeat,
        "reminders": settings.reminders,
        "rooms": settings.rooms,
        "room_spectators": settings.room_spectators,
        "room_limit": settings.room_limit,
        "decks_published": tournament.decks_published,
        "page_slug": tournament.page_slug,
        "page_public": tournament.page_public,
        "created_by": tournament.created_by,
        "created_at": tournament.created_at,
        "started_at": tournament.started_at,
    }
    return {name: _sql(value) for name, value in values.items()}


def _tournament(row: Row, players: dict[int, Entry], decks: dict[int, StoredDeck]) -> Tournament:
    config = EventConfig(
        name=row["name"],
        format=EventFormat(row["format"]),
        regulation=row["regulation"],
        event_date=date.fromisoformat(row["event_date"]),
        rounds=row["rounds"],
        top_cut=row["top_cut"],
        time_limit_minutes=row["time_limit_minutes"],
        titles=tuple(json.loads(row["titles"])),
        max_players=row["max_players"],
    )
    settings = Settings(
        late_registration_rounds=row["late_registration_rounds"],
        decklist_required=bool(row["decklist_required"]),
        missing_deck_policy=MissingDeckPolicy(row["missing_deck_policy"]),
        starts_at=_time(row["starts_at"]),
        checkin_minutes=row["checkin_minutes"],
        mix_two_minimum=row["mix_two_minimum"],
        restricted_list=row["restricted_list"],
        titles_file=row["titles_file"],
        card_database=row["card_database"],
        ex_deck=bool(row["ex_deck"]),
        ex_copies_shared=bool(row["ex_copies_shared"]),
        noshow_minutes=row["noshow_minutes"],
        noshow_tiebreak=NoShowTiebreak(row["noshow_tiebreak"]),
        repeat=Repeat(row["repeats"]),
        reminders=bool(row["reminders"]),
        rooms=bool(row["rooms"]),
        room_spectators=RoomSpectators(row["room_spectators"]),
        room_limit=int(row["room_limit"]),
    )
    state = TournamentState(phase=Phase(row["state"]), planned_rounds=row["planned_rounds"])
    created_at = _time(row["created_at"])
    assert created_at is not None
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        config=config,
        created_by=row["created_by"],
        created_at=created_at,
        settings=settings,
        state=state,
        seed=row["seed"],
        started_at=_time(row["started_at"]),
        decks_published=bool(row["decks_published"]),
        page_slug=row["page_slug"],
        page_public=bool(row["page_public"]),
        players=players,
        decks=decks,
    )


def _entry(row: Row) -> Entry:
    registered_at = _time(row["registered_at"])
    assert registered_at is not None
    return Entry(
        user_id=row["user_id"],
        display_name=row["display_name"],
        status=PlayerStatus(row["status"]),
        seq=row["seq"],
        registered_at=registered_at,
        checked_in_at=_time(row["checked_in_at"]),
        joined_round=row["joined_round"],
        dropped_round=row["dropped_round"],
        by_handle=bool(row["by_handle"]),
    )


def _deck(row: Row) -> StoredDeck:
    submitted_at = _time(row["submitted_at"])
    assert submitted_at is not None
    return StoredDeck(
        user_id=row["user_id"],
        canonical=row["canonical"],
        fingerprint=row["fingerprint"],
        total=row["total"],
        submitted_at=submitted_at,
        locked_at=_time(row["locked_at"]),
    )


# -- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TournamentRows:
    """A whole tournament as stored. Reading them needs the database; building the
    tournament from them (`tournament_from`) needs none and is most of a load, which the
    bot does off the event loop (docs/BENCHMARKS.md, "How the time was found": the first
    load off the loop)."""

    tournament: Row
    players: list[Row]
    decks: list[Row]
    rounds: RoundRows
    penalties: list[Row]
    calls: list[Row]


async def tournament_rows(
    connection: Connection, guild_id: int, tournament_id: int
) -> TournamentRows | None:
    """The tournament's rows, or None. The guild is part of every lookup: another server's
    tournaments do not exist here."""
    found = await fetch_rows(
        connection,
        "SELECT * FROM tournaments WHERE id = ? AND guild_id = ?",
        (tournament_id, guild_id),
    )
    if not found:
        return None
    return TournamentRows(
        tournament=found[0],
        players=await fetch_rows(
            connection,
            "SELECT * FROM players WHERE tournament_id = ? ORDER BY seq",
            (tournament_id,),
        ),
        decks=await fetch_rows(
            connection,
            "SELECT * FROM decks WHERE tournament_id = ? ORDER BY user_id",
            (tournament_id,),
        ),
        rounds=await round_rows(connection, tournament_id),
        penalties=await penalty_rows(connection, tournament_id),
        calls=await call_rows(connection, tournament_id),
    )


def tournament_from(rows: TournamentRows) -> Tournament:
    players = {row["user_id"]: _entry(row) for row in rows.players}
    decks = {row["user_id"]: _deck(row) for row in rows.decks}
    return replace(
        _tournament(rows.tournament, players, decks),
        rounds=rounds_from(rows.rounds),
        penalties=penalties_from(rows.penalties),
        calls=calls_from(rows.calls),
    )


async def load_tournament(
    connection: Connection, guild_id: int, tournament_id: int
) -> Tournament | None:
    """The whole tournament, or None (built here: see `TournamentRows`)."""
    rows = await tournament_rows(connection, guild_id, tournament_id)
    return tournament_from(rows) if rows is not None else None


async def tournament_version(
    connection: Connection, guild_id: int, tournament_id: int
) -> int | None:
    """The tournament's version (bumped by every applied operation), or None if absent."""
    rows = await fetch_rows(
        connection,
        "SELECT version FROM tournaments WHERE id = ? AND guild_id = ?",
        (tournament_id, guild_id),
    )
    return int(rows[0]["version"]) if rows else None


async def tournament_ids(
    connection: Connection, guild_id: int | None = None, *, open_only: bool = False
) -> list[tuple[int, int]]:
    """(guild id, tournament id) of every tournament, newest first."""
    query = "SELECT guild_id, id FROM tournaments WHERE 1 = 1"
    params: tuple[Any, ...] = ()
    if guild_id is not None:
        query += " AND guild_id = ?"
        params = (guild_id,)
    if open_only:
        query += " AND state NOT IN ('finished', 'cancelled')"
    rows = await fetch_rows(connection, query + " ORDER BY id DESC", params)
    return [(row["guild_id"], row["id"]) for row in rows]


async def page_versions(
    connection: Connection, slug: str | None = None
) -> list[tuple[str, int, int, int]]:
    """(slug, guild id, tournament id, version) of every tournament with a public live page,
    or only of the one at `slug`: the live page finds its tournament across guilds."""
    query = (
        "SELECT page_slug, guild_id, id, version FROM tournaments"
        " WHERE page_slug IS NOT NULL AND page_public = 1"
    )
    params: tuple[Any, ...] = ()
    if slug is not None:
        query += " AND page_slug = ?"
        params = (slug,)
    rows = await fetch_rows(connection, query, params)
    return [(row["page_slug"], row["guild_id"], row["id"], row["version"]) for row in rows]


async def latest_finished_tournament_id(connection: Connection, guild_id: int) -> int | None:
    """The guild's tournament finished last (by its finish in the action log; a tournament
    finished without a logged finish counts by its id)."""
    rows = await fetch_rows(
        connection,
        "SELECT t.id FROM tournaments AS t"
        " WHERE t.guild_id = ? AND t.state = 'finished'"
        " ORDER BY (SELECT MAX(a.id) FROM action_log AS a"
        "           WHERE a.tournament_id = t.id AND a.kind = 'finish_tournament') DESC,"
        " t.id DESC LIMIT 1",
        (guild_id,),
    )
    return int(rows[0]["id"]) if rows else None


async def tournament_guild(connection: Connection, tournament_id: int) -> int | None:
    """The server a tournament belongs to, or None if there is no such tournament."""
    rows = await fetch_rows(
        connection, "SELECT guild_id FROM tournaments WHERE id = ?", (tournament_id,)
    )
    return int(rows[0]["guild_id"]) if rows else None


async def tournament_names(connection: Connection, guild_id: int) -> set[str]:
    """Every name the guild's tournaments have (a copy's proposed name avoids them)."""
    rows = await fetch_rows(
        connection, "SELECT name FROM tournaments WHERE guild_id = ?", (guild_id,)
    )
    return {str(row["name"]) for row in rows}


async def find_tournament_id(connection: Connection, guild_id: int, name: str) -> int | None:
    rows = await fetch_rows(
        connection, "SELECT id FROM tournaments WHERE guild_id = ? AND name = ?", (guild_id, name)
    )
    return int(rows[0]["id"]) if rows else None


# -- writing ------------------------------------------------------------------------------


async def insert_tournament(connection: Connection, tournament: Tournament) -> int:
    """Insert a new tournament row (its id is assigned here) and return the id."""
    columns = tournament_columns(tournament)
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    cursor = await connection.execute(
        f"INSERT INTO tournaments ({names}) VALUES ({marks})", tuple(columns.values())
    )
    return int(cursor.lastrowid or 0)


async def save_tournament(
    connection: Connection, before: Tournament, after: Tournament, version: int
) -> bool:
    """Write what changed from `before` to `after`, and bump the version from `version`.
    False (and nothing written) when the stored version is no longer `version`: another
    writer changed the tournament since it was read."""
    old, new = tournament_columns(before), tournament_columns(after)
    changed = {name: value for name, value in new.items() if old[name] != value}
    assignments = "".join(f"{name} = ?, " for name in changed)
    cursor = await connection.execute(
        f"UPDATE tournaments SET {assignments}version = version + 1 WHERE id = ? AND version = ?",
        (*changed.values(), after.id, version),
    )
    if cursor.rowcount != 1:
        return False
    await _save_players(connection, after.id, before.players, after.players)
    await _save_decks(connection, after.id, before.decks, after.decks)
    if before.rounds != after.rounds:
        await save_rounds(connection, after.id, before.rounds, after.rounds)
    if before.penalties != after.penalties:
        await save_penalties(connection, after.id, before.penalties, after.penalties)
    if before.calls != after.calls:
        await save_calls(connection, after.id, before.calls, after.calls)
    return True


def _changed(before: Mapping[int, V], after: Mapping[int, V]) -> list[V]:
    """The values of `after` that are new or differ from `before`. Operations copy the
    mapping but keep the untouched values, so identity settles almost every key without
    comparing dataclasses field by field (1024 players: per report)."""
    changed = []
    for key, value in after.items():
        old = before.get(key)
        if old is not value and old != value:
            changed.append(value)
    return changed


async def _save_players(
    connection: Connection,
    tournament_id: int,
    before: Mapping[int, Entry],
    after: Mapping[int, Entry],
) -> None:
    if before is after:  # most operations leave the players alone
        return
    for user_id in before.keys() - after.keys():
        await connection.execute(
            "DELETE FROM players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
        )
    changed = _changed(before, after)
    if not changed:
        return
    await connection.executemany(
        "INSERT INTO players (tournament_id, user_id, display_name, status, seq, registered_at,"
        " checked_in_at, joined_round, dropped_round, by_handle)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id, user_id) DO UPDATE SET display_name = excluded.display_name,"
        " status = excluded.status, seq = excluded.seq, registered_at = excluded.registered_at,"
        " checked_in_at = excluded.checked_in_at, joined_round = excluded.joined_round,"
        " dropped_round = excluded.dropped_round, by_handle = excluded.by_handle",
        [
            (
                tournament_id,
                e.user_id,
                e.display_name,
                e.status.value,
                e.seq,
                _sql(e.registered_at),
                _sql(e.checked_in_at),
                e.joined_round,
                e.dropped_round,
                int(e.by_handle),
            )
            for e in changed
        ],
    )


async def _save_decks(
    connection: Connection,
    tournament_id: int,
    before: Mapping[int, StoredDeck],
    after: Mapping[int, StoredDeck],
) -> None:
    if before is after:
        return
    for user_id in before.keys() - after.keys():
        await connection.execute(
            "DELETE FROM decks WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
        )
    changed = _changed(before, after)
    if not changed:
        return
    await connection.executemany(
        "INSERT INTO decks (tournament_id, user_id, canonical, fingerprint, total, submitted_at,"
        " locked_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE"
        " SET canonical = excluded.canonical, fingerprint = excluded.fingerprint,"
        " total = excluded.total, submitted_at = excluded.submitted_at,"
        " locked_at = excluded.locked_at",
        [
            (
                tournament_id,
                d.user_id,
                d.canonical,
                d.fingerprint,
                d.total,
                _sql(d.submitted_at),
                _sql(d.locked_at),
            )
            for d in changed
        ],
    )
