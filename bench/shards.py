"""Several bot processes on one PostgreSQL against one process on SQLite, through the fake
Discord: `python bench/shards.py [--processes 4] [--guilds 25] [--players 64] [--runs 3]
[--spread 0 60]`.

The world: `processes × guilds` servers, `guilds` on each shard, each running a Swiss event
of `players` players with round 1 paired. The events are prepared once, through the
services on an SQLite file before any bot starts; each run starts from a copy of that file
(for PostgreSQL, copied into a fresh database as `migrate-to-postgres` does). What is
measured is the round's reports. Two set-ups serve the same world, in turn, `--runs` times:

- PostgreSQL: `--processes` bot processes, SHARD_COUNT=N and SHARD_IDS=i each (a
  PostgreSQL server of its own is started for the bench, fsync off like the tests');
- SQLite: one bot process running every shard, the default deployment.

Through Discord like users, across every server: burst 1, the first player of every table
sends `/report result win`; burst 2, every opponent sends `/report result lose` (agreeing,
so each table is confirmed). A burst is sent all at once, or with `--spread S` evenly over
S seconds (a round's end as it comes: reports arrive over minutes); `--spread 0 60` runs
both. Reported, as medians over the runs:

- the time from INTERACTION_CREATE to the bot's first response (p50, p99; the command
  defers first, so this is how soon the player sees "thinking"). Discord refuses a first
  response after 3 s: those are counted as late (the bot logs "could not be answered" and
  stores nothing, as with Discord);
- reports per second: answers shown (the follow-up after the report was stored) over the
  time from a burst's start to its last one shown, both bursts together;
- on PostgreSQL its own lock waits, sampled every 50 ms during the bursts: the bots'
  active sessions, those waiting on a lock (pg_stat_activity.wait_event_type = 'Lock'),
  and of these, on a tournament's advisory lock (pg_locks, locktype 'advisory', not granted).

Every report must be stored exactly once; the bots' warnings and errors are counted and
printed. All of it shares the machine's cores, and the load average is printed with each run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import asyncpg  # noqa: E402

from bench.event import percentile  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.copy import copy_database  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402
from tests.e2e.fake_discord.gateway import shard_of  # noqa: E402
from tests.e2e.fake_discord.harness import BotProcess  # noqa: E402
from tests.e2e.fake_discord.state import Guild  # noqa: E402
from tests.support.big_event import running_event  # noqa: E402
from tests.support.postgres import PostgresServer, running_server  # noqa: E402

ACK_SECONDS = 3.0  # Discord's limit for the first response
# How long a burst may take to show every answer; past it, what is missing is reported.
BURST_SECONDS = 180.0


async def until(condition: Callable[[], bool], within: float = 120.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


def step(name: str, since: float) -> float:
    """Prints how long a preparation step took (the bench's own time, not a figure)."""
    now = time.monotonic()
    print(f"  {name}: {now - since:.1f} s", flush=True)
    return now


def build_world(fake: FakeDiscord, shards: int, guilds: int, players: int) -> list[Guild]:
    """`guilds` servers on each of `shards` shards (the fake's first guild among them):
    guild ids made in the same millisecond would otherwise share a shard."""
    servers = [fake.guild]
    for shard in range(shards):
        made_already = 1 if shard_of(fake.guild.id, shards) == shard else 0
        for _ in range(guilds - made_already):
            servers.append(fake.add_guild(f"Server {len(servers)}", shard=(shard, shards)))
    for guild in servers:
        for number in range(1, players + 1):
            fake.world.add_member(guild, f"p{number:03d}")
    return servers


async def prepare(fake: FakeDiscord, servers: list[Guild], players: int, path: Path) -> None:
    """Every server's event, round 1 paired, on an SQLite file."""
    database = await open_database(path)
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


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of a closed or open SQLite database (its WAL included)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as origin,
        contextlib.closing(sqlite3.connect(target)) as copy,
    ):
        origin.backup(copy)


def tables(fake: FakeDiscord, guild: Guild, players: int) -> list[tuple[str, str]]:
    names = {int(fake.member(f"p{n:03d}", guild).id): f"p{n:03d}" for n in range(1, players + 1)}
    rows = fake.database_rows(
        "SELECT m.player1, m.player2 FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
        " WHERE t.guild_id = ? AND m.round = 1 AND m.player2 IS NOT NULL ORDER BY m.table_no",
        guild.id,
    )
    return [(names[int(a)], names[int(b)]) for a, b in rows]


class LockSampler:
    """Samples PostgreSQL's sessions and lock waits while the bursts run."""

    QUERY = (
        "SELECT COUNT(*) FILTER (WHERE state = 'active' AND application_name = 'pmbot'),"
        " COUNT(*) FILTER (WHERE wait_event_type = 'Lock'),"
        " (SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)"
        " FROM pg_stat_activity"
    )

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.active: list[int] = []
        self.waiting: list[int] = []
        self.advisory: list[int] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        assert self.url is not None
        connection = await asyncpg.connect(self.url)
        try:
            while True:
                sample = await connection.fetchrow(self.QUERY)
                assert sample is not None
                active, waiting, advisory = sample
                self.active.append(active)
                self.waiting.append(waiting)
                self.advisory.append(advisory)
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


# "2025-01-01 12:00:00,000 WARNING  bot.x: message": the level, the logger and the message.
LOG_LINE = re.compile(r"^\S+ \S+ (WARNING|ERROR|CRITICAL) +(\S+): (.*)$")


def troubles(processes: list[BotProcess]) -> Counter[str]:
    """The bots' warnings and errors, counted by level, logger and the message's start (its
    ids and numbers made alike), so that a run that went wrong says how."""
    counted: Counter[str] = Counter()
    for process in processes:
        for line in process.stderr_lines:
            found = LOG_LINE.match(line)
            if found:
                level, logger, message = found.groups()
                counted[f"{level} {logger}: {re.sub(r'[0-9]+', 'N', message)[:100]}"] += 1
    return counted


@dataclass
class Burst:
    sent: int
    first_responses: list[float]  # seconds, of those within Discord's 3 s
    shown: int  # answers shown (the report stored and answered)
    seconds: float  # from the start to the last answer shown
    late: int  # first response missing or refused (over 3 s)


async def burst(
    fake: FakeDiscord, sends: list[tuple[Guild, str, str]], spread: float = 0.0
) -> Burst:
    """Every report of `sends` at once, or spread evenly over `spread` seconds."""
    started = time.monotonic()

    async def send(number: int, guild: Guild, user: str, claim: str) -> Reply:
        await asyncio.sleep(started + spread * number / len(sends) - time.monotonic())
        return await fake.slash(
            "report result", user=user, guild=guild, options={"result": claim}, wait=False
        )

    replies: list[Reply] = await asyncio.gather(
        *(send(number, *sent) for number, sent in enumerate(sends))
    )

    def settled(reply: Reply) -> bool:
        """Shown, or never to be: no first response and Discord's 3 s are over."""
        if reply.shown_time is not None:
            return True
        sent = reply.sent_at
        return (
            reply.answer_time is None
            and sent is not None
            and time.monotonic() - sent > ACK_SECONDS + 0.5
        )

    with contextlib.suppress(AssertionError):
        await until(lambda: all(settled(reply) for reply in replies), BURST_SECONDS)
    first = [reply.answer_time for reply in replies if reply.answer_time is not None]
    shown_at = [
        reply.sent_at + reply.shown_time
        for reply in replies
        if reply.sent_at is not None and reply.shown_time is not None
    ]
    return Burst(
        sent=len(replies),
        first_responses=first,
        shown=len(shown_at),
        seconds=max(shown_at, default=started) - started,
        late=len(replies) - len(first),
    )


@dataclass
class Prepared:
    """The fake Discord with its servers, and their events on an SQLite file."""

    fake: FakeDiscord
    servers: list[Guild]
    prepared: Path
    seating: dict[int, list[tuple[str, str]]] = field(default_factory=dict)


async def build(args: argparse.Namespace, folder: Path) -> Prepared:
    clock = time.monotonic()
    fake = FakeDiscord(log_level="INFO", timeout=120.0)
    fake.start()
    fake.workdir = folder / "sync"
    fake.database = fake.workdir / "bot.sqlite3"
    commands = await fake.sync_commands()
    servers = build_world(fake, args.processes, args.guilds, args.players)
    for guild in servers:
        fake.load_commands(commands, guild=guild)
    clock = step("commands and world", clock)
    prepared = folder / "prepared.sqlite3"
    await prepare(fake, servers, args.players, prepared)
    step(f"{len(servers)} events of {args.players} prepared", clock)
    fake.database = prepared
    world = Prepared(fake, servers, prepared)
    world.seating = {guild.id: tables(fake, guild, args.players) for guild in servers}
    return world


async def run(
    world: Prepared,
    backend: str,
    spread: float,
    number: int,
    args: argparse.Namespace,
    pg: PostgresServer,
) -> dict[str, Any]:
    fake, servers = world.fake, world.servers
    processes = args.processes if backend == "postgres" else 1
    first_process = len(fake.processes)
    clock = time.monotonic()
    fake.workdir = world.prepared.parent / f"{backend}-{spread:g}-{number}"
    fake.workdir.mkdir()
    fake.database = fake.workdir / "bot.sqlite3"
    copy_sqlite(world.prepared, fake.database)
    fake.database_url = None
    if backend == "postgres":
        fake.database_url = pg.create_database("bench")
        await copy_database(fake.database, fake.database_url)
    clock = step("copied", clock)
    try:
        env = {"AUTO_SYNC": "false", "OUTBOX_CLAIM_SECONDS": "30"}
        fake.bot = None
        if processes > 1:
            env["SHARD_COUNT"] = str(processes)
            await fake.start_bot(SHARD_IDS="0", **env)
            for shard in range(1, processes):
                await fake.start_process(shard_ids=str(shard), **env)
        else:
            await fake.start_bot(**env)
        clock = step("bots ready", clock)
        await until(lambda: fake.notices_pending() == 0, 300)  # the pairings posts
        step("pairings posted", clock)
        load = os.getloadavg()[0]
        sampler = LockSampler(fake.database_url)
        sampler.start()
        seating = world.seating
        first = await burst(
            fake, [(g, seats[0], "win") for g in servers for seats in seating[g.id]], spread
        )
        second = await burst(
            fake, [(g, seats[1], "lose") for g in servers for seats in seating[g.id]], spread
        )
        await sampler.stop()
        for name, done in (("burst 1", first), ("burst 2", second)):
            print(
                f"  {name}: {done.sent} sent, {done.late} late, {done.shown} shown"
                f" in {done.seconds:.1f} s",
                flush=True,
            )
        with contextlib.suppress(AssertionError):
            await until(lambda: fake.notices_pending() == 0, 300)
        ((stored, distinct),) = fake.database_rows(
            "SELECT COUNT(*), COUNT(DISTINCT request_id) FROM action_log"
            " WHERE kind = 'report_result'"
        )
        assert stored == distinct, (stored, distinct)  # never one interaction twice
        for trouble, count in troubles(fake.processes[first_process:]).most_common(8):
            print(f"  {count} × {trouble}", flush=True)
        latencies = first.first_responses + second.first_responses
        return {
            "backend": backend,
            "processes": processes,
            "guilds": len(servers),
            "spread": spread,
            "load": load,
            "sent": first.sent + second.sent,
            "stored": stored,
            "late": first.late + second.late,
            "p50_ms": percentile(latencies, 0.5) * 1000 if latencies else float("nan"),
            "p99_ms": percentile(latencies, 0.99) * 1000 if latencies else float("nan"),
            "per_second": (first.shown + second.shown) / (first.seconds + second.seconds),
            "active_mean": statistics.fmean(sampler.active) if sampler.active else None,
            "waiting_mean": statistics.fmean(sampler.waiting) if sampler.waiting else None,
            "waiting_max": max(sampler.waiting, default=None),
            "advisory_max": max(sampler.advisory, default=None),
            "samples": len(sampler.waiting),
        }
    finally:
        for process in fake.processes[first_process:]:
            process.kill()
        if fake.database_url is not None:  # FORCE: the harness's reader is still connected
            pg.psql(f'DROP DATABASE "{fake.database_url.rsplit("/", 1)[1]}" WITH (FORCE)')


def setup_name(r: dict[str, Any]) -> str:
    if r["backend"] == "postgres":
        return f"{r['processes']} processes, PostgreSQL"
    return "1 process, SQLite"


def locks(r: dict[str, Any]) -> str:
    if r["waiting_mean"] is None:
        return "n/a (one writer)"
    return (
        f"{r['waiting_mean']:.1f} of {r['active_mean']:.1f} (max {r['waiting_max']},"
        f" advisory {r['advisory_max']})"
    )


def sending(spread: float) -> str:
    return "at once" if spread == 0 else f"over {spread:g} s"


def row(r: dict[str, Any]) -> str:
    return (
        f"| {setup_name(r)} | {r['guilds']} | {sending(r['spread'])} |"
        f" {r['sent']} / {r['stored']} / {r['late']} |"
        f" {r['p50_ms']:.0f} ms | {r['p99_ms']:.0f} ms | {r['per_second']:.0f} |"
        f" {locks(r)} | {r['load']:.1f} |"
    )


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the runs (each on its own: not one run's row)."""
    merged = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            values = [r[key] for r in runs]
            whole = all(isinstance(v, int) for v in values)
            merged[key] = statistics.median_low(values) if whole else statistics.median(values)
    return merged


async def measure(args: argparse.Namespace, folder: Path, pg: PostgresServer) -> list[Any]:
    print("preparing …", flush=True)
    world = await build(args, folder)
    results: list[dict[str, Any]] = []
    try:
        for number in range(1, args.runs + 1):
            for spread in args.spread:
                for backend in args.backends:
                    print(f"run {number}, {backend}, sent over {spread:g} s …", flush=True)
                    results.append(await run(world, backend, spread, number, args, pg))
                    print("  " + row(results[-1]), flush=True)
    finally:
        world.fake.close()
    return results


HEADER = (
    "| set-up | servers | each burst sent | reports sent / stored / late (no first response"
    " in 3 s) | p50 to first response | p99 | reports/s |"
    " PostgreSQL lock waits: sessions waiting of active (mean; max, advisory max) |"
    " load average |\n|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=25, help="servers per process")
    parser.add_argument("--players", type=int, default=64, help="players per server's event")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--spread",
        type=float,
        nargs="+",
        default=[0.0],
        help="seconds each burst's reports are spread over (0: all at once); several: each",
    )
    parser.add_argument(
        "--backends", nargs="+", choices=("postgres", "sqlite"), default=["postgres", "sqlite"]
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-shards-"))
    os.chmod(folder, 0o755)
    try:
        with running_server() as pg:
            results = asyncio.run(measure(args, folder, pg))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("\nEach run:\n")
    print(HEADER)
    for r in results:
        print(row(r))
    print(f"\nMedians of {args.runs} runs (each figure on its own):\n")
    print(HEADER)
    for spread in args.spread:
        for backend in args.backends:
            same = [r for r in results if r["backend"] == backend and r["spread"] == spread]
            print(row(median_of(same)))


if __name__ == "__main__":
    main()
