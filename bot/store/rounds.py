"""Rounds, matches and pending reports: rows in, domain values out, and back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.backend import Connection, Row, fetch_rows
from domain.engine.results import MatchResult, ResultKind
from domain.tournament.rounds import Match, Report, Round, RoundKind


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _result(row: Row) -> MatchResult | None:
    if row["result_kind"] is None:
        return None
    player = row["result_player"]
    first, second = row["first_points"], row["second_points"]
    return MatchResult(
        ResultKind(row["result_kind"]),
        str(player) if player is not None else None,
        (first, second) if first is not None and second is not None else None,
    )


def _result_columns(result: MatchResult | None) -> tuple[Any, ...]:
    if result is None:
        return (None, None, None, None)
    first, second = result.point_zone or (None, None)
    player = int(result.player) if result.player is not None else None
    return (result.kind.value, player, first, second)


@dataclass(frozen=True)
class RoundRows:
    """A tournament's rounds as stored: read on the database's side, built into rounds by
    `rounds_from` (which takes no connection: it may run off the event loop)."""

    reports: list[Row]
    matches: list[Row]
    rounds: list[Row]


async def round_rows(connection: Connection, tournament_id: int) -> RoundRows:
    by_tournament = (tournament_id,)
    return RoundRows(
        reports=await fetch_rows(
            connection,
            "SELECT * FROM reports WHERE tournament_id = ?"
            " ORDER BY round, table_no, reported_at, player_id",
            by_tournament,
        ),
        matches=await fetch_rows(
            connection,
            "SELECT * FROM matches WHERE tournament_id = ? ORDER BY round, table_no",
            by_tournament,
        ),
        rounds=await fetch_rows(
            connection,
            "SELECT * FROM rounds WHERE tournament_id = ? ORDER BY number",
            by_tournament,
        ),
    )


def rounds_from(stored: RoundRows) -> tuple[Round, ...]:
    reports: dict[tuple[int, int], list[Report]] = {}
    for row in stored.reports:
        result = _result(row)
        at = _time(row["reported_at"])
        assert result is not None
        assert at is not None
        reports.setdefault((row["round"], row["table_no"]), []).append(
            Report(row["player_id"], result, at)
        )
    matches: dict[int, list[Match]] = {}
    for row in stored.matches:
        players = tuple(p for p in (row["player1"], row["player2"]) if p is not None)
        matches.setdefault(row["round"], []).append(
            Match(
                table=row["table_no"],
                players=players,
                result=_result(row),
                advancing=row["advancing"],
                reports=tuple(reports.get((row["round"], row["table_no"]), ())),
                disputed=bool(row["disputed"]),
                extension_minutes=row["extension_minutes"],
            )
        )
    rounds = []
    for row in stored.rounds:
        paired_at = _time(row["paired_at"])
        assert paired_at is not None
        rounds.append(
            Round(
                number=row["number"],
                kind=RoundKind(row["kind"]),
                seed=row["seed"],
                paired_at=paired_at,
                matches=tuple(matches.get(row["number"], ())),
                started_at=_time(row["started_at"]),
                ends_at=_time(row["ends_at"]),
            )
        )
    return tuple(rounds)


async def save_rounds(
    connection: Connection,
    tournament_id: int,
    before: Sequence[Round],
    after: Sequence[Round],
) -> None:
    """Write the rounds that changed: only their changed matches and reports."""
    old = {r.number: r for r in before}
    new = {r.number: r for r in after}
    for number in sorted(old.keys() - new.keys(), reverse=True):
        for table in ("reports", "matches"):
            await connection.execute(
                f"DELETE FROM {table} WHERE tournament_id = ? AND round = ?",
                (tournament_id, number),
            )
        await connection.execute(
            "DELETE FROM rounds WHERE tournament_id = ? AND number = ?", (tournament_id, number)
        )
    upserts: list[tuple[Any, ...]] = []
    cleared: list[tuple[int, int, int]] = []  # matches whose stored reports go
    reports: list[tuple[Any, ...]] = []
    for number, current in sorted(new.items()):
        previous = old.get(number)
        if previous is current:
            continue
        # The row itself changes only when it is new or one of its own columns moved; a
        # report changes one match and nothing else.
        if previous is None or _round_row(previous) != _round_row(current):
            await _save_round_row(connection, tournament_id, current)
        changed, gone_tables = current.changes_since(previous)
        for gone in sorted(gone_tables):
            for name in ("reports", "matches"):
                await connection.execute(
                    f"DELETE FROM {name} WHERE tournament_id = ? AND round = ? AND table_no = ?",
                    (tournament_id, number, gone),
                )
        for kept, match in changed:
            if kept == match:
                continue
            upserts.append(_match_row(tournament_id, number, match))
            # The rows mirror `before`: only a match stored with reports has any.
            if kept is not None and kept.reports:
                cleared.append((tournament_id, number, match.table))
            reports += _report_rows(tournament_id, number, match)
    # One trip per statement, however many rows (a new round of 2,048 tables is one).
    if upserts:
        await connection.executemany(_UPSERT_MATCH, upserts)
    if cleared:
        await connection.executemany(
            "DELETE FROM reports WHERE tournament_id = ? AND round = ? AND table_no = ?", cleared
        )
    if reports:
        await connection.executemany(_INSERT_REPORT, reports)


def _round_row(found: Round) -> tuple[Any, ...]:
    return (found.kind, found.seed, found.paired_at, found.started_at, found.ends_at)


async def _save_round_row(connection: Connection, tournament_id: int, current: Round) -> None:
    await connection.execute(
        "INSERT INTO rounds (tournament_id, number, kind, seed, paired_at, started_at,"
        " ends_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, number)"
        " DO UPDATE SET kind = excluded.kind, seed = excluded.seed,"
        " paired_at = excluded.paired_at, started_at = excluded.started_at,"
        " ends_at = excluded.ends_at",
        (
            tournament_id,
            current.number,
            current.kind.value,
            current.seed,
            _iso(current.paired_at),
            _iso(current.started_at),
            _iso(current.ends_at),
        ),
    )


_UPSERT_MATCH = (
    "INSERT INTO matches (tournament_id, round, table_no, player1, player2, result_kind,"
    " result_player, first_points, second_points, advancing, disputed, extension_minutes)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (tournament_id, round, table_no) DO UPDATE SET"
    " player1 = excluded.player1, player2 = excluded.player2,"
    " result_kind = excluded.result_kind, result_player = excluded.result_player,"
    " first_points = excluded.first_points, second_points = excluded.second_points,"
    " advancing = excluded.advancing, disputed = excluded.disputed,"
    " extension_minutes = excluded.extension_minutes"
)
_INSERT_REPORT = (
    "INSERT INTO reports (tournament_id, round, table_no, player_id, result_kind,"
    " result_player, first_points, second_points, reported_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _match_row(tournament_id: int, number: int, match: Match) -> tuple[Any, ...]:
    players = (*match.players, None, None)[:2]
    return (
        tournament_id,
        number,
        match.table,
        *players,
        *_result_columns(match.result),
        match.advancing,
        int(match.disputed),
        match.extension_minutes,
    )


def _report_rows(tournament_id: int, number: int, match: Match) -> list[tuple[Any, ...]]:
    """The match's pending reports as rows."""
    return [
        (
            tournament_id,
            number,
            match.table,
            report.player_id,
            *_result_columns(report.result),
            _iso(report.at),
        )
        for report in match.reports
    ]
