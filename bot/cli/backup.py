"""`python -m bot backup PATH [--force]`: a consistent copy of the database, bot running or not.

SQLite: the online backup API on a read-only connection. In WAL mode readers never block
the bot's writes, and the copy is one snapshot: every transaction committed before it
began, none half-written. PostgreSQL: `pg_dump --format=custom`, which also dumps one
snapshot while the bots run (restore with `pg_restore`). Either way the copy is written
next to PATH first and renamed into place, so PATH is never a half-written file.
README.md ("Backups") and docs/OPERATIONS.md say how to restore.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.cli import Subcommands, text
from bot.cli.common import load_settings
from bot.config import Settings
from bot.errors import StartupError
from bot.i18n import both
from bot.store.copy import backup_database
from bot.store.urls import is_postgres_url


def register(subcommands: Subcommands) -> None:
    parser = subcommands.add_parser(
        "backup",
        help=text("cli.backup.help"),
        description=text("cli.backup.description"),
    )
    parser.add_argument(
        "path", type=Path, metavar=text("cli.metavar.backup_path"), help=text("cli.backup.path")
    )
    parser.add_argument("--force", action="store_true", help=text("cli.backup.force"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    settings = load_settings()
    target: Path = args.path
    if is_postgres_url(settings.database_location):
        return _backup_postgres(settings, target, force=args.force)
    source = Path(settings.database_location)
    if not source.is_file():
        raise StartupError(both("backup.no_database", path=source), exit_code=2)
    if target.exists() and target.resolve() == source.resolve():
        raise StartupError(both("backup.same_file", path=target), exit_code=2)
    if target.is_dir():
        raise StartupError(both("backup.is_folder", path=target), exit_code=2)
    if target.exists() and not args.force:
        raise StartupError(both("backup.exists", path=target), exit_code=2)
    version = backup_database(source, target)
    size = target.stat().st_size
    print(text("cli.backup.done", source=source, target=target, size=size, version=version))
    return 0


def _backup_postgres(settings: Settings, target: Path, *, force: bool) -> int:
    if target.is_dir():
        raise StartupError(both("backup.is_folder", path=target), exit_code=2)
    if target.exists() and not force:
        raise StartupError(both("backup.exists", path=target), exit_code=2)
    label = settings.database_label
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise StartupError(both("backup.no_pg_dump", path=label, file=target), exit_code=2)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # The password goes by the environment, not the command line (which `ps` shows).
    url, password = _without_password(settings.database_location)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password
    try:
        done = subprocess.run(
            [pg_dump, "--format=custom", f"--file={partial}", "--dbname", url],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            details = done.stderr.strip().replace(password or "\0", "***")
            raise StartupError(both("backup.failed", path=label, details=details))
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    size = target.stat().st_size
    print(text("cli.backup.done_postgres", source=label, target=target, size=size))
    print(text("cli.backup.restore_postgres", target=target))
    return 0


def _without_password(url: str) -> tuple[str, str | None]:
    parts = urlsplit(url)
    if parts.password is None:
        return url, None
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}")), parts.password
