"""`python -m bot backup PATH`: a consistent copy while another connection keeps writing,
and the restore procedure of README.md ("Backups")."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

from tests.bot.test_cli import run_cli


def migrated_database(folder: Path) -> Path:
    database = folder / "data" / "bot.sqlite3"
    result = run_cli("migrate", cwd=folder, DATABASE_PATH=str(database))
    assert result.returncode == 0, result.stderr
    return database


def schema_version(database: Path) -> int:
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        return int(connection.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0])


def schema(database: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        return connection.execute(
            "SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()


class Writer(threading.Thread):
    """Appends to the action log in its own WAL connection, one commit per row, as the bot
    does, and counts the rows it has committed."""

    def __init__(self, database: Path) -> None:
        super().__init__(daemon=True)
        self.database = database
        self.committed = 0
        self.stop = threading.Event()

    def run(self) -> None:
        connection = sqlite3.connect(self.database, isolation_level=None, timeout=5)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        try:
            while not self.stop.is_set():
                connection.execute("BEGIN IMMEDIATE")
                connection.execute(
                    "INSERT INTO action_log (guild_id, actor_id, kind, payload, created_at)"
                    " VALUES (1, 1, 'test.write', json_object('n', ?), 'now')",
                    (self.committed + 1,),
                )
                connection.execute("COMMIT")
                self.committed += 1
        finally:
            connection.close()


def test_a_backup_taken_while_another_connection_writes_has_every_committed_row(
    tmp_path: Path,
) -> None:
    database = migrated_database(tmp_path)
    writer = Writer(database)
    writer.start()
    try:
        while writer.committed < 200:  # the log is busy before the backup starts
            time.sleep(0.01)
        committed_before = writer.committed
        result = run_cli(
            "backup", "backups/copy.sqlite3", cwd=tmp_path, DATABASE_PATH=str(database)
        )
        committed_after = writer.committed
    finally:
        writer.stop.set()
        writer.join(10)
    assert result.returncode == 0, result.stderr
    copy = tmp_path / "backups" / "copy.sqlite3"
    assert "schema version" in result.stdout
    assert not list(copy.parent.glob("*.partial"))
    with closing(sqlite3.connect(copy)) as backup:
        assert backup.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert backup.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
        numbers = [
            row[0]
            for row in backup.execute(
                "SELECT json_extract(payload, '$.n') FROM action_log ORDER BY id"
            )
        ]
    # A snapshot: every row committed before the backup began, in order, without gaps.
    assert numbers == list(range(1, len(numbers) + 1))
    # The writer counts a row just after its commit: one commit may be in the copy before
    # it is in the count.
    assert committed_before <= len(numbers) <= committed_after + 1
    assert committed_after > committed_before, "the backup blocked the writer"
    assert schema_version(copy) == schema_version(database)
    assert schema(copy) == schema(database)


def test_restoring_a_backup_as_the_readme_says(tmp_path: Path) -> None:
    database = migrated_database(tmp_path)
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(
            "INSERT INTO action_log (guild_id, actor_id, kind, created_at)"
            " VALUES (1, 1, 'before.backup', 'now')"
        )
    backup = tmp_path / "keep.sqlite3"
    assert run_cli("backup", str(backup), cwd=tmp_path, DATABASE_PATH=str(database)).returncode == 0
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        connection.execute(
            "INSERT INTO action_log (guild_id, actor_id, kind, created_at)"
            " VALUES (1, 1, 'after.backup', 'now')"
        )
    # Restore: (bot stopped) copy the backup over DATABASE_PATH, remove -wal and -shm.
    shutil.copyfile(backup, database)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    migrated = run_cli("migrate", cwd=tmp_path, DATABASE_PATH=str(database))
    assert migrated.returncode == 0, migrated.stderr
    assert f"schema version {schema_version(backup)}" in migrated.stdout
    with closing(sqlite3.connect(database, isolation_level=None)) as connection:
        kinds = [row[0] for row in connection.execute("SELECT kind FROM action_log")]
    assert kinds == ["before.backup"]


def test_backup_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    database = migrated_database(tmp_path)
    existing = tmp_path / "old-backup.sqlite3"
    existing.write_bytes(b"precious")
    refused = run_cli("backup", str(existing), cwd=tmp_path, DATABASE_PATH=str(database))
    assert refused.returncode == 2
    assert "--force" in refused.stderr
    assert "すでに存在します" in refused.stderr
    assert "already exists" in refused.stderr
    assert existing.read_bytes() == b"precious"
    forced = run_cli("backup", str(existing), "--force", cwd=tmp_path, DATABASE_PATH=str(database))
    assert forced.returncode == 0, forced.stderr
    assert schema_version(existing) == schema_version(database)


def test_backup_of_a_missing_database_exits_2_with_a_bilingual_message(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "bot.sqlite3"
    result = run_cli("backup", "copy.sqlite3", cwd=tmp_path, DATABASE_PATH=str(missing))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "DATABASE_PATH" in result.stderr
    assert "データベースがない" in result.stderr
    assert "No database" in result.stderr
    assert not (tmp_path / "copy.sqlite3").exists()
    assert not missing.parent.exists()  # a backup never creates the database


def test_backup_refuses_to_write_over_the_database_itself(tmp_path: Path) -> None:
    database = migrated_database(tmp_path)
    before = database.read_bytes()
    result = run_cli("backup", str(database), "--force", cwd=tmp_path, DATABASE_PATH=str(database))
    assert result.returncode == 2
    assert database.read_bytes() == before
