"""Migrations against real SQLite files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store.database import open_database
from bot.store.migrations import (
    MIGRATIONS_DIR,
    DatabaseTooNew,
    MigrationFailed,
    discover_migrations,
)
from bot.store.sqlite import connect, migrate, schema_version


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


async def test_migrations_apply_to_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "bot.sqlite3"
    connection = await connect(path)
    try:
        applied = await migrate(connection)
        assert [m.path.name for m in applied] == [
            p.name for p in sorted(MIGRATIONS_DIR.glob("*.sql")) if ".postgres." not in p.name
        ]
        assert await schema_version(connection) == discover_migrations()[-1].version
    finally:
        await connection.close()
    assert {"schema_migrations", "action_log", "guild_config"} <= tables(path)


async def test_rerunning_migrations_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    connection = await connect(path)
    try:
        await migrate(connection)
        before = tables(path)
        assert await migrate(connection) == []
        async with connection.execute("SELECT COUNT(*) FROM schema_migrations") as cursor:
            (count,) = await cursor.fetchone()  # type: ignore[misc]
        assert count == len(discover_migrations())
    finally:
        await connection.close()
    assert tables(path) == before


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    connection = await connect(path)
    try:
        await migrate(connection)
        await connection.execute(
            "INSERT INTO schema_migrations (version, name) VALUES (9999, 'from_the_future')"
        )
        with pytest.raises(DatabaseTooNew) as refused:
            await migrate(connection, database_label=str(path))
    finally:
        await connection.close()
    assert "9999" in refused.value.message
    assert "newer" in refused.value.message
    assert "新しい" in refused.value.message


async def test_a_broken_migration_rolls_back_completely(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE good (id INTEGER PRIMARY KEY);")
    (folder / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (id INTEGER PRIMARY KEY);\n"
        "INSERT INTO good (id) VALUES (1);\n"
        "THIS IS NOT SQL;\n"
    )
    path = tmp_path / "bot.sqlite3"
    connection = await connect(path)
    try:
        with pytest.raises(MigrationFailed) as failed:
            await migrate(connection, folder)
        assert await schema_version(connection) == 1
        async with connection.execute("SELECT COUNT(*) FROM good") as cursor:
            (rows,) = await cursor.fetchone()  # type: ignore[misc]
        assert rows == 0
        assert not connection.in_transaction
    finally:
        await connection.close()
    assert "0002_broken.sql" in failed.value.message
    assert "half_done" not in tables(path)


async def test_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    connection = await connect(tmp_path / "bot.sqlite3")
    try:
        pragmas = {}
        for name in ("journal_mode", "foreign_keys", "busy_timeout"):
            async with connection.execute(f"PRAGMA {name}") as cursor:
                pragmas[name] = (await cursor.fetchone())[0]  # type: ignore[index]
    finally:
        await connection.close()
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["foreign_keys"] == 1
    assert pragmas["busy_timeout"] > 0


async def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    database = await open_database(tmp_path / "bot.sqlite3")
    try:

        async def service_that_fails_after_its_first_write() -> None:
            async with database.write() as connection:
                await connection.execute(
                    "INSERT INTO guild_config (guild_id, updated_at) VALUES (1, 'now')"
                )
                raise RuntimeError("the service failed after its first write")

        with pytest.raises(RuntimeError):
            await service_that_fails_after_its_first_write()
        async with (
            database.read() as connection,
            connection.execute("SELECT COUNT(*) FROM guild_config") as cursor,
        ):
            (count,) = await cursor.fetchone()  # type: ignore[misc]
    finally:
        await database.close()
    assert count == 0


async def test_the_action_log_is_append_only(tmp_path: Path) -> None:
    database = await open_database(tmp_path / "bot.sqlite3")
    try:
        async with database.write() as connection:
            await connection.execute(
                "INSERT INTO action_log (guild_id, actor_id, kind, created_at) "
                "VALUES (1, 2, 'test', 'now')"
            )
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with database.write() as connection:
                await connection.execute("UPDATE action_log SET kind = 'rewritten'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with database.write() as connection:
                await connection.execute("DELETE FROM action_log")
    finally:
        await database.close()


async def test_the_clock_record_moves_into_the_outbox(tmp_path: Path) -> None:
    """0009: a database written mid-round by the previous version keeps what its clock
    posted (and skipped), so the new version does not post it again."""
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    for migration in discover_migrations():
        if migration.version < 9:
            (earlier / migration.path.name).write_text(migration.sql, encoding="utf-8")
    path = tmp_path / "bot.sqlite3"
    connection = await connect(path)
    try:
        await migrate(connection, earlier)
        await connection.executescript(
            "INSERT INTO tournaments (id, guild_id, name, format, regulation, titles,"
            " event_date, created_by, created_at) VALUES (7, 70, 'Old Cup', 'swiss', 'single',"
            " '[]', '2026-11-01', 1, '2026-11-01T00:00:00+00:00');"
            "INSERT INTO notices VALUES (7, 2, 'reminder:10:2026-11-01T05:30:00+00:00:', 1,"
            " '2026-11-01T05:30:01+00:00');"
            "INSERT INTO notices VALUES (7, 2, 'time_up:0:2026-11-01T05:40:00+00:00:', 0,"
            " '2026-11-01T05:55:00+00:00');"
        )
        await migrate(connection)
        rows = await connection.execute_fetchall(
            "SELECT guild_id, say, dedupe_key, state FROM outbox ORDER BY id"
        )
    finally:
        await connection.close()
    assert [tuple(row) for row in rows] == [
        (70, "reminder", "clock:7:2:reminder:10:2026-11-01T05:30:00+00:00:", "sent"),
        (70, "time_up", "clock:7:2:time_up:0:2026-11-01T05:40:00+00:00:", "skipped"),
    ]
    assert "notices" not in tables(path)


async def test_0015_rebuilds_tournaments_keeping_every_row_and_what_points_at_them(
    tmp_path: Path,
) -> None:
    """Calling an event off: the state CHECK gains 'cancelled', which SQLite can only do by
    rebuilding the table; a database written by the previous version keeps its tournaments,
    their ids, the rows of every table pointing at them, and its indexes."""
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    for migration in discover_migrations():
        if migration.version < 15:
            (earlier / migration.path.name).write_text(migration.sql, encoding="utf-8")
    path = tmp_path / "bot.sqlite3"
    connection = await connect(path)
    try:
        await migrate(connection, earlier)
        await connection.executescript(
            "INSERT INTO tournaments (id, guild_id, name, format, regulation, titles,"
            " event_date, state, created_by, created_at, page_slug, page_public) VALUES"
            " (7, 70, 'Old Cup', 'swiss', 'single', '[]', '2026-11-01', 'finished', 1,"
            " '2026-11-01T00:00:00+00:00', 'abcdefghijklmnopqrstuv', 1);"
            "INSERT INTO players (tournament_id, user_id, display_name, status, seq,"
            " registered_at) VALUES (7, 101, 'Yui', 'active', 1, '2026-11-01T00:00:00+00:00');"
            "INSERT INTO rounds (tournament_id, number, kind, seed, paired_at)"
            " VALUES (7, 1, 'swiss', 5, '2026-11-01T00:00:00+00:00');"
            "INSERT INTO entry_posts (tournament_id, channel_id, message_id) VALUES (7, 1, 2);"
        )
        applied = await migrate(connection)
        assert applied[0].version == 15  # and any later ones
        row = await connection.execute_fetchall(
            "SELECT id, name, state, page_slug, repeats, reminders FROM tournaments"
        )
        assert [tuple(r) for r in row] == [
            (7, "Old Cup", "finished", "abcdefghijklmnopqrstuv", "none", 1)
        ]
        assert await connection.execute_fetchall("PRAGMA foreign_key_check") == []
        for table in ("players", "rounds", "entry_posts"):
            async with connection.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                assert (await cursor.fetchone())[0] == 1, table  # type: ignore[index]
        indexes = {
            r[0]
            for r in await connection.execute_fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tournaments'"
            )
        }
        assert {"tournaments_by_guild", "tournaments_by_page_slug"} <= indexes
        # The new state is allowed, a state the domain does not have is not; the foreign
        # keys still hold (a player of no tournament is refused).
        await connection.execute("UPDATE tournaments SET state = 'cancelled' WHERE id = 7")
        with pytest.raises(sqlite3.IntegrityError):
            await connection.execute("UPDATE tournaments SET state = 'paused' WHERE id = 7")
        with pytest.raises(sqlite3.IntegrityError):
            await connection.execute(
                "INSERT INTO players (tournament_id, user_id, display_name, status, seq,"
                " registered_at) VALUES (8, 1, 'x', 'active', 1, 'now')"
            )
        # A new tournament's id follows the old ones (AUTOINCREMENT).
        await connection.execute(
            "INSERT INTO tournaments (guild_id, name, format, regulation, event_date,"
            " created_by, created_at) VALUES (70, 'New', 'swiss', 'single', '2026-12-01', 1, 'x')"
        )
        async with connection.execute("SELECT MAX(id) FROM tournaments") as cursor:
            assert (await cursor.fetchone())[0] == 8  # type: ignore[index]
    finally:
        await connection.close()


def test_the_state_check_mirrors_the_domains_phases() -> None:
    from domain.engine.state import Phase

    sql = (MIGRATIONS_DIR / "0015_series.sql").read_text(encoding="utf-8")
    twin = (MIGRATIONS_DIR / "0015_series.postgres.sql").read_text(encoding="utf-8")
    states = ", ".join(f"'{phase.value}'" for phase in Phase)
    assert f"state IN ({states})" in sql
    assert f"state IN ({states})" in twin
