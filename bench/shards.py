"""Several bot processes on one PostgreSQL against one process on SQLite, through the fake
Discord: `python bench/shards.py [--processes 4] [--guilds 25] [--players 64]`.

The world: `processes × guilds` servers, each running a Swiss event of `players` players
with round 1 paired (prepared through the services before the bots start; what is
measured is the round's reports). Two set-ups serve the same world:

- PostgreSQL: `--processes` bot processes, SHARD_COUNT=N and SHARD_IDS=i each (a
  PostgreSQL server of its own is started for the run, fsync off like the tests');
- SQLite: one bot process running every shard, the default deployment.

Through Discord like users, at once across every server: burst 1, the first player of
every table sends `/report result win`; burst 2, every opponent sends `/report result lose`
(agreeing, so each table is confirmed). Reported: the time from INTERACTION_CREATE to the
bot's first response (p50, p99), reports per second (all interactions of a burst over the
time until the last one is answered), and on PostgreSQL its own lock waits, sampled every
50 ms during the bursts: sessions waiting on a lock (pg_stat_activity.wait_event_type =
'Lock'), of which on a tournament's advisory lock (pg_locks, locktype 'advisory', not
granted). Every report must be stored exactly once. All of it shares the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import asyncpg  # noqa: E402

from bench.event import percentile  # noqa: E402
from bot.cli.migrate_to_postgres import copy_database  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import Database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402
from tests.e2e.fake_discord.state import Guild  # noqa: E402
from tests.support.big_event import running_event  # noqa: E402
from tests.support.postgres import running_server  # noqa: E402


async def until(condition: Callable[[], bool], within: float = 120.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


def build_world(fake: FakeDiscord, guilds: int, players: int) -> list[Guild]:
    servers = [fake.guild] + [fake.add_guild(f"Server {n}") for n in range(1, guilds)]
    for guild in servers:
        for number in range(1, players + 1):
            fake.world.add_member(guild, f"p{number:03d}")
    return servers


async def prepare(fake: FakeDiscord, servers: list[Guild], players: int, path: Path) -> None:
    """Every server's event on an SQLite file (copied to PostgreSQL for that run)."""
    database = await Database.open(path)
    try:
        services = Services(database, seeds=lambda: 12)
        for guild in servers:

            def actor(name: str, guild: Guild = guild, **extra: Any) -> Actor:
                return Actor(int(fake.member(name, guild).id), guild.id, name, **extra)

            await running_event(
                services,
                admin=actor("owner", manages_guild=True),
                organizer=actor(
                    "organizer", role_ids=frozenset({fake.role("Organizer", guild).id})
                ),
                players=[actor(f"p{n:03d}") for n in range(1, players + 1)],
                organizer_role=fake.role("Organizer", guild).id,
                judge_role=fake.role("Judge", guild).id,
                name="Shard Cup",
                pairings_channel_id=fake.channel("pairings", guild).id,
            )
    finally:
        await database.close()


def tables(fake: FakeDiscord, guild: Guild, players: int) -> list[tuple[str, str]]:
    names = {int(fake.member(f"p{n:03d}", guild).id): f"p{n:03d}" for n in range(1, players + 1)}
    rows = fake.database_rows(
        "SELECT m.player1, m.player2 FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
        " WHERE t.guild_id = ? AND m.round = 1 AND m.player2 IS NOT NULL ORDER BY m.table_no",
        guild.id,
    )
    return [(names[int(a)], names[int(b)]) for a, b in rows]


class LockSampler:
    """Samples PostgreSQL's lock waits while a burst runs."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.waiting: list[int] = []
        self.advisory: list[int] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        assert self.url is not None
        connection = await asyncpg.connect(self.url)
        try:
            while True:
                self.waiting.append(
                    await connection.fetchval(
                        "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    )
                )
                self.advisory.append(
                    await connection.fetchval(
                        "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    )
                )
                await asyncio.sleep(0.05)
        finally:
            await connection.close()

    def start(self) -> None:
        if self.url is not None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


late: list[Reply] = []


async def burst(
    fake: FakeDiscord, sends: list[tuple[Guild, str, str]]
) -> tuple[list[float], float]:
    started = time.monotonic()
    replies: list[Reply] = await asyncio.gather(
        *(
            fake.slash(
                "report result", user=user, guild=guild, options={"result": claim}, wait=False
            )
            for guild, user, claim in sends
        )
    )
    # Discord refuses an answer after 3 s: one never answered counts as late, not measured.
    with contextlib.suppress(AssertionError):
        await until(lambda: all(reply.type is not None for reply in replies), 20.0)
    elapsed = time.monotonic() - started
    latencies = [reply.answer_time for reply in replies if reply.answer_time is not None]
    late.extend(reply for reply in replies if reply.answer_time is None)
    return latencies, elapsed


async def run(backend: str, args: argparse.Namespace, folder: Path, pg: Any) -> dict[str, Any]:
    processes = args.processes if backend == "postgres" else 1
    guilds = args.processes * args.guilds
    fake = FakeDiscord(log_level="INFO", timeout=120.0)
    fake.start()
    try:
        fake.workdir = folder / backend
        fake.workdir.mkdir()
        fake.database = fake.workdir / "bot.sqlite3"
        commands = await fake.sync_commands()
        servers = build_world(fake, guilds, args.players)
        for guild in servers:
            fake.load_commands(commands, guild=guild)
        await prepare(fake, servers, args.players, fake.database)
        if backend == "postgres":
            fake.database_url = pg.create_database("bench")
            await copy_database(fake.database, fake.database_url)
        env = {"AUTO_SYNC": "false", "OUTBOX_CLAIM_SECONDS": "30"}
        if processes > 1:
            env["SHARD_COUNT"] = str(processes)
            await fake.start_bot(SHARD_IDS="0", **env)
            for shard in range(1, processes):
                await fake.start_process(shard_ids=str(shard), **env)
        else:
            await fake.start_bot(**env)
        await until(lambda: fake.notices_pending() == 0, 300)  # the pairings posts
        seating = {guild.id: tables(fake, guild, args.players) for guild in servers}
        sampler = LockSampler(fake.database_url)
        sampler.start()
        first, first_time = await burst(
            fake, [(g, seats[0], "win") for g in servers for seats in seating[g.id]]
        )
        second, second_time = await burst(
            fake, [(g, seats[1], "lose") for g in servers for seats in seating[g.id]]
        )
        await sampler.stop()
        await until(lambda: fake.notices_pending() == 0, 300)
        ((stored, distinct),) = fake.database_rows(
            "SELECT COUNT(*), COUNT(DISTINCT request_id) FROM action_log"
            " WHERE kind = 'report_result'"
        )
        answered = len(first) + len(second)
        sent, missed = answered + len(late), len(late)
        late.clear()
        assert stored == distinct, (stored, distinct)  # never one interaction twice
        latencies = first + second
        return {
            "backend": backend,
            "processes": processes,
            "guilds": guilds,
            "reports": sent,
            "stored": stored,
            "late": missed,
            "p50_ms": percentile(latencies, 0.5) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "per_second": answered / (first_time + second_time),
            "lock_waiting_max": max(sampler.waiting, default=None),
            "lock_waiting_mean": statistics.fmean(sampler.waiting) if sampler.waiting else None,
            "advisory_waiting_max": max(sampler.advisory, default=None),
            "samples": len(sampler.waiting),
        }
    finally:
        fake.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=25, help="servers per process")
    parser.add_argument("--players", type=int, default=64, help="players per server's event")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-shards-"))
    os.chmod(folder, 0o755)
    results = []
    try:
        with running_server() as pg:
            for backend in ("postgres", "sqlite"):
                print(f"running {backend} …", flush=True)
                results.append(asyncio.run(run(backend, args, folder, pg)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(
        "| set-up | guilds | reports | p50 to first response | p99 | reports/s |"
        " lock waits (max / mean sessions) | advisory waits (max) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        where = (
            f"{r['processes']} processes, PostgreSQL"
            if r["backend"] == "postgres"
            else "1 process, SQLite"
        )
        locks = (
            f"{r['lock_waiting_max']} / {r['lock_waiting_mean']:.2f} ({r['samples']} samples)"
            if r["lock_waiting_max"] is not None
            else "n/a (one writer)"
        )
        advisory = r["advisory_waiting_max"] if r["advisory_waiting_max"] is not None else "n/a"
        print(
            f"| {where} | {r['guilds']} | {r['reports']} / {r['stored']} / {r['late']} |"
            f" {r['p50_ms']:.0f} ms |"
            f" {r['p99_ms']:.0f} ms | {r['per_second']:.0f} | {locks} | {advisory} |"
        )


if __name__ == "__main__":
    main()
