"""`python -m bot backup PATH [--force]`: a consistent copy of the database, bot running or not.

It uses SQLite's online backup API on a read-only connection. In WAL mode readers never
block the bot's writes, and the copy is one snapshot: every transaction committed before
it began, none half-written. The copy is written next to PATH first and renamed into
place, so PATH is never a half-written file. README.md ("Backups") says how to restore.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
from pathlib import Path

from bot.cli import Subcommands
from bot.cli.common import load_settings
from bot.errors import StartupError, StorageCorrupt
from bot.i18n import both
from bot.store.database import BUSY_TIMEOUT_MS, storage_error, unusable_database


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "backup",
        help="back up the database, even while the bot runs / データベースをバックアップする",
        description=(
            "Copy DATABASE_PATH to PATH with SQLite's online backup API. Safe while the bot "
            "runs. Refuses to overwrite PATH unless --force."
        ),
    )
    parser.add_argument("path", type=Path, metavar="PATH", help="the backup file to write")
    parser.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    source: Path = settings.database_path
    target: Path = args.path
    if not source.is_file():
        raise StartupError(both("backup.no_database", path=source), exit_code=2)
    if target.exists() and target.resolve() == source.resolve():
        raise StartupError(both("backup.same_file", path=target), exit_code=2)
    if target.is_dir() or (target.exists() and not args.force):
        raise StartupError(both("backup.exists", path=target), exit_code=2)
    version = backup_database(source, target)
    size = target.stat().st_size
    print(f"backed up {source} to {target}: {size} bytes, schema version {version}")
    return 0


def backup_database(source: Path, target: Path) -> int:
    """Copy `source` to `target` (replacing it) and return the copy's schema version."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        version = _copy(source, partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        if isinstance(storage_error(error), StorageCorrupt):
            raise unusable_database(source, error) from None
        raise StartupError(both("backup.failed", path=source, details=error)) from None
    finally:
        partial.unlink(missing_ok=True)
    return version


def _copy(source: Path, partial: Path) -> int:
    # mode=ro: a backup must never write to the live database (as_uri escapes the path).
    uri = source.resolve().as_uri() + "?mode=ro"
    with (
        contextlib.closing(sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)) as live,
        contextlib.closing(sqlite3.connect(partial)) as copy,
    ):
        # One step (pages=-1): a stepwise copy restarts whenever the bot writes.
        live.backup(copy)
        # A plain rollback-journal file: the backup is one self-contained file to keep.
        copy.execute("PRAGMA journal_mode = DELETE")
        (check,) = copy.execute("PRAGMA quick_check").fetchone()
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy failed its integrity check: {check}")
        (version,) = copy.execute(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
        ).fetchone()
    return int(version)
