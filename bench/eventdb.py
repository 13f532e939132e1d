"""A large event's database, built through the services once and copied for each run.

`event_database(players, rounds, played=..., left=...)` gives the path of an SQLite file
holding a Swiss event of `players` players and `rounds` planned rounds in this state:
rounds 1..`played` complete, round `played + 1` paired and started with every table but
the last `left` reported and confirmed (`left=None`: that round not paired at all). The
event is built as bench/event.py builds it (real `Services` over `open_database`, a fixed
clock and seeds), with `synchronous = OFF` while building (the file is a cache, not a
record), and kept in `--cache` (default /tmp/pm-bench-events) under a name made of its
parameters and the newest migration, so a later run copies it in a second instead of
building it again for minutes.

Players are users `PLAYER_BASE + n` in guild `GUILD`: a bench that drives the real bot
through the fake Discord creates its guild and members with those ids.

    python bench/eventdb.py --players 4096 --rounds 12 --played 10 --left 16
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from bot.store.migrations import discover_migrations  # noqa: E402

GUILD = 700_000_000_000_000_001
ORGANIZER_ID = 700_000_000_000_000_002
ADMIN_ID = 700_000_000_000_000_003
PLAYER_BASE = 710_000_000_000_000_000
ORGANIZER_ROLE = 700_000_000_000_000_011
JUDGE_ROLE = 700_000_000_000_000_012
CUP = "Burst Cup"
NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
ADMIN = Actor(ADMIN_ID, GUILD, "Admin", manages_guild=True)
ORGANIZER = Actor(ORGANIZER_ID, GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
DEFAULT_CACHE = Path("/tmp/pm-bench-events")


def player_id(number: int) -> int:
    return PLAYER_BASE + number


def player(number: int) -> Actor:
    return Actor(player_id(number), GUILD, f"Player {number}")


class SteppingClock:
    """A clock that moves 5 ms per call: the log's times stay in order."""

    def __init__(self, start: datetime = NOW) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=5)
        return self.now


async def build(
    path: Path,
    players: int,
    rounds: int,
    *,
    played: int,
    left: int | None,
    top_cut: int | None = None,
) -> None:
    database = await open_database(path)
    connection = getattr(database, "connection")  # noqa: B009 (SQLite only)
    await connection.execute("PRAGMA synchronous = OFF")
    services = Services(database, clock=SteppingClock(), seeds=lambda: 424242)
    await services.guilds.configure(
        ADMIN, organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    await services.tournaments.create(
        ORGANIZER,
        name=CUP,
        format="swiss_top_cut" if top_cut else "swiss",
        regulation="single",
        rounds=rounds,
        top_cut=top_cut,
    )
    for number in range(players):
        await services.registration.register(player(number), CUP)
        await services.decks.submit(player(number), CUP, DECK, "deck.csv")
    await services.lifecycle.start(ORGANIZER, CUP)
    for number in range(1, played + 2):
        if number == played + 1 and left is None:
            break
        paired = await services.rounds.pair(ORGANIZER, CUP)
        await services.rounds.start_clock(ORGANIZER, CUP)
        tables = [m for m in paired.round.matches if len(m.players) == 2]
        if number == played + 1:
            tables = tables[: len(tables) - (left or 0)]
        for match in tables:
            first, second = match.players
            await services.rounds.report(player(first - PLAYER_BASE), CUP, "win")
            await services.rounds.confirm(
                player(second - PLAYER_BASE), paired.tournament.id, number, match.table
            )
        print(f"  round {number} played", file=sys.stderr, flush=True)
    await connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    await database.close()


def cache_name(
    players: int, rounds: int, played: int, left: int | None, top_cut: int | None
) -> str:
    migration = discover_migrations()[-1].version
    cut = f"-top{top_cut}" if top_cut else ""
    open_round = "none" if left is None else str(left)
    return f"event-{players}x{rounds}-played{played}-left{open_round}{cut}-m{migration:04d}.sqlite3"


def event_database(
    players: int,
    rounds: int,
    *,
    played: int,
    left: int | None,
    top_cut: int | None = None,
    cache: Path = DEFAULT_CACHE,
    rebuild: bool = False,
) -> Path:
    """The cached event's file (built first when missing): copy it before use."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / cache_name(players, rounds, played, left, top_cut)
    if path.exists() and not rebuild:
        return path
    building = path.with_suffix(".building")
    for leftover in cache.glob(building.name + "*"):
        leftover.unlink()
    started = time.perf_counter()
    print(f"building {path.name} through the services …", file=sys.stderr, flush=True)
    asyncio.run(build(building, players, rounds, played=played, left=left, top_cut=top_cut))
    for suffix in ("-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    building.rename(path)
    print(f"built in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--played", type=int, default=10)
    parser.add_argument("--left", type=int, default=None)
    parser.add_argument("--top-cut", type=int, default=None)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    print(
        event_database(
            args.players,
            args.rounds,
            played=args.played,
            left=args.left,
            top_cut=args.top_cut,
            cache=args.cache,
            rebuild=args.rebuild,
        )
    )


if __name__ == "__main__":
    main()
