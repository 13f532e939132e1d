"""Commit rate of the bot's write pattern under PRAGMA synchronous = NORMAL and FULL (WAL).

Each commit is one `BEGIN IMMEDIATE` … INSERT into the action log … `COMMIT`, like a
service call. NORMAL syncs the WAL only at checkpoints; FULL syncs it at every commit.
docs/OPERATIONS.md quotes the numbers.

    .venv/bin/python bench/bench_synchronous.py [--commits 2000] [--folder DIR]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from pathlib import Path

SCHEMA = (
    "CREATE TABLE action_log (id INTEGER PRIMARY KEY, guild_id INTEGER, actor_id INTEGER,"
    " kind TEXT, payload TEXT, created_at TEXT)"
)


def run(path: Path, mode: str, commits: int) -> list[float]:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with closing(sqlite3.connect(path, isolation_level=None)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {mode}")
        connection.execute(SCHEMA)
        times = []
        for number in range(commits):
            started = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "INSERT INTO action_log (guild_id, actor_id, kind, payload, created_at)"
                " VALUES (1, 2, 'player.register', ?, '2025-01-01T00:00:00Z')",
                (f'{{"n": {number}}}',),
            )
            connection.execute("COMMIT")
            times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--folder", type=Path, help="where to put the database (default: /tmp)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        path = Path(folder) / "bench.sqlite3"
        print(f"{args.commits} commits each, database in {folder}")
        print("| synchronous | commits/s | median commit | p99 commit |")
        print("|---|---:|---:|---:|")
        for mode in ("NORMAL", "FULL"):
            times = sorted(run(path, mode, args.commits))
            rate = len(times) / sum(times)
            median = statistics.median(times) * 1000
            p99 = times[int(len(times) * 0.99) - 1] * 1000
            print(f"| {mode} | {rate:,.0f} | {median:.3f} ms | {p99:.3f} ms |")


if __name__ == "__main__":
    main()
