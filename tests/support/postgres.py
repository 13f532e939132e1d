"""A throw-away PostgreSQL server for the tests: `initdb` and `pg_ctl` in a temporary folder,
on a free loopback port, with `fsync=off` (a test database need not survive a power cut).

On a machine without PostgreSQL the PostgreSQL half of the suite is skipped with a message
saying how to run it; `REQUIRE_POSTGRES=1` (set by .ci/run) turns that skip into a failure.
As root (CI, the developers' machines), the server runs as the `postgres` user through
`runuser`: `initdb` refuses root.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HOW_TO = (
    "PostgreSQL is not installed, so the PostgreSQL half of the suite was skipped. "
    "Install it (Debian: `apt-get install postgresql`) and run the tests again; "
    "REQUIRE_POSTGRES=1 makes this a failure instead of a skip."
)


def postgres_bin() -> Path | None:
    """The folder of initdb/pg_ctl: PG_BIN, the PATH, or Debian's /usr/lib/postgresql/N/bin."""
    configured = os.environ.get("PG_BIN")
    if configured and (Path(configured) / "initdb").exists():
        return Path(configured)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def required() -> bool:
    return os.environ.get("REQUIRE_POSTGRES", "") not in ("", "0", "false")


def skip_or_fail(reason: str) -> None:
    if required():
        pytest.fail(f"REQUIRE_POSTGRES is set, but: {reason}", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    folder: Path
    port: int
    bin: Path
    user: str = "postgres"
    options: str = ""  # what `pg_ctl start -o` passes to the server

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    _template: str | None = None

    def create_database(self, prefix: str = "test", *, template: str | None = None) -> str:
        """A fresh database, empty or a copy of `template`; its URL."""
        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        copy = f' TEMPLATE "{template}"' if template else ""
        self.psql(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def migrated_template(self) -> str:
        """The name of a database with every migration applied (made once): copying it is
        faster than migrating each test's database."""
        if self._template is None:
            import asyncio

            from bot.store.database import open_database

            url = self.create_database("template")

            async def migrate() -> None:
                database = await open_database(url)
                await database.close()

            asyncio.run(migrate())
            self._template = url.rsplit("/", 1)[1]
        return self._template

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def stop(self, mode: str = "fast") -> None:
        """Stop the server for real, as its administrator would: `fast` ends every session
        with 57P01 (admin shutdown) and waits; `immediate` kills them at once, as a crash
        does. Clients see their connections go, and new ones refused, until `start()`."""
        stop = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"]
        subprocess.run(_as_server_user(stop), check=True, capture_output=True)

    def start(self) -> None:
        """Start it again on the same port and data (`-w`: returns once it takes
        connections)."""
        start = [
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            self.options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        ]
        subprocess.run(_as_server_user(start), check=True, capture_output=True)

    def restart(self, mode: str = "fast") -> float:
        """Stop and start again; the seconds it was away."""
        began = time.monotonic()
        self.stop(mode)
        self.start()
        return time.monotonic() - began

    def psql(self, sql: str, database: str = "postgres") -> str:
        psql = self.bin / "psql"
        if not psql.exists():
            psql = Path(shutil.which("psql") or "psql")
        done = subprocess.run(
            [
                str(psql),
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                self.url(database),
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """Start a server for the session; it is stopped and its folder removed on the way out."""
    binaries = postgres_bin()
    if binaries is None:
        skip_or_fail(HOW_TO)
        raise AssertionError("unreachable")
    folder = Path(tempfile.mkdtemp(prefix="pmbot-pg-"))
    data = folder / "data"
    as_root = os.geteuid() == 0
    if as_root:
        shutil.chown(folder, "postgres")
    user = "postgres" if as_root else os.environ.get("USER", "postgres")
    port = _free_port()
    initdb = [
        str(binaries / "initdb"),
        "-D",
        str(data),
        "-U",
        user,
        "--auth=trust",
        "--encoding=UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
    ]
    subprocess.run(_as_server_user(initdb), check=True, capture_output=True)
    options = (
        f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
        " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    server = PostgresServer(folder, port, binaries, user, options)
    server.start()
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                server.psql("SELECT 1")
                break
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield server
    finally:
        stop = [str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]
        subprocess.run(_as_server_user(stop), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
