"""200 result reports at once on one Services and one SQLite file.

    .venv/bin/python bench/bench_concurrent_reports.py [--players 400] [--reps 3]

Builds a running event (players/2 tables, round 1 paired) in a temporary database, then
fires one report per table with asyncio.gather, as a busy round's end does. Each report's
latency runs from the moment all were sent to the moment its transaction committed, so it
includes the queue behind the write lock: that is what the last player waits.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services import Services
from bot.services.actors import Actor
from bot.store.database import open_database
from tests.support.big_event import running_event

GUILD, ORGANIZER_ROLE, JUDGE_ROLE = 1000, 11, 12


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def one_run(players: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        database = await open_database(Path(folder) / "bot.sqlite3")
        try:
            services = Services(database, clock=lambda: datetime.now(UTC), seeds=lambda: 7)
            entrants = [Actor(100 + n, GUILD, f"P{n}") for n in range(players)]
            await running_event(
                services,
                admin=Actor(1, GUILD, "Admin", manages_guild=True),
                organizer=Actor(2, GUILD, "Org", frozenset({ORGANIZER_ROLE})),
                players=entrants,
                organizer_role=ORGANIZER_ROLE,
                judge_role=JUDGE_ROLE,
            )
            _, current = await services.rounds.status(entrants[0], None)
            by_id = {a.user_id: a for a in entrants}
            reporters = [
                replace(by_id[m.players[0]], request_id=1_000_000 + i)
                for i, m in enumerate(current.matches)
                if len(m.players) == 2
            ]
            start = time.perf_counter()

            async def timed(actor: Actor) -> float:
                await services.rounds.report(actor, None, "win")
                return time.perf_counter() - start

            return list(await asyncio.gather(*(timed(a) for a in reporters)))
        finally:
            await database.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    for rep in range(args.reps):
        latencies = asyncio.run(one_run(args.players))
        print(
            f"run {rep + 1}: {len(latencies)} reports, "
            f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms, "
            f"all done {max(latencies) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
