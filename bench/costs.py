"""What one command costs on a large event, piece by piece:
`python bench/costs.py --players 4096 [--reps 5]`.

On a copy of bench/eventdb.py's event (rounds 1..played complete, the next round with its
last tables still open), in this process, through the real services and the same render
functions the cogs and the notifier call:

- loading the tournament (`load_tournament`, a cold read of every row);
- computing the standings (`standings_lines` on a loaded tournament: nothing cached);
- `/standings` cold and warm (the service and the first page, as the cog answers), and a
  page turn (page 3);
- `/tournament export` (the service, the CSV and the JSON record);
- pairing the next round through the services (after the open tables are reported), and
  rendering its pairings post (the notifier's renderer);
- `python -m bot verify` (a child process: wall time and its peak RSS);
- the bracket PNG of a top 64 and a top 128 (Pillow).

Each figure is the median of `--reps` runs; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.eventdb import CUP, GUILD, ORGANIZER, PLAYER_BASE, event_database, player  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.store.backend import Database  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from bot.store.tournaments import load_tournament  # noqa: E402
from domain.tournament.views import standings_lines  # noqa: E402


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def median_time(run: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def median_async(run: Callable[[], Awaitable[Any]], reps: int) -> float:
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        await run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def fresh_services(database: Database) -> Services:
    return Services(database, seeds=lambda: 4242)


async def measure(path: Path, reps: int) -> dict[str, float]:
    database = await open_database(path)
    try:
        return await _measure(database, reps)
    finally:
        await database.close()


async def _measure(database: Database, reps: int) -> dict[str, float]:
    from bot.notify.plan import Say
    from bot.ui import rounds as ui_rounds
    from bot.ui.export import matches_csv
    from bot.ui.notices import RENDERERS, Telling
    from bot.ui.rounds import standing_rows
    from bot.ui.standings import standings_csv

    figures: dict[str, float] = {}
    services = fresh_services(database)
    async with services.store.read(GUILD, services.rounds.clock(), lambda _: ORGANIZER) as tx:
        tournament = await tx.tournament(CUP)
    tid = tournament.id

    async def load() -> None:
        async with database.read() as connection:
            await load_tournament(connection, GUILD, tid)

    figures["load"] = await median_async(load, reps)
    figures["standings computed"] = median_time(lambda: standings_lines(tournament), reps)

    async def slash_standings(page: int) -> None:
        found = await services.rounds.standings(GUILD, CUP)
        ui_rounds.standings_page_of(found.views, "ja", page)

    cold = []
    for _ in range(reps):
        services = fresh_services(database)  # a new cache: nothing computed yet
        started = time.perf_counter()
        await slash_standings(0)
        cold.append(time.perf_counter() - started)
    figures["/standings cold"] = statistics.median(cold)
    figures["/standings warm"] = await median_async(lambda: slash_standings(0), reps)
    figures["page turn"] = await median_async(lambda: slash_standings(3), reps)

    async def export() -> None:
        exported = await services.rounds.export(ORGANIZER, CUP)
        standings_csv(standing_rows(exported.standings.lines), "ja")
        matches_csv(exported.standings.tournament, exported.matches, "ja")

    figures["/tournament export"] = await median_async(export, reps)

    # The open tables reported, then the next round paired (once: it changes the event).
    current = tournament.current
    assert current is not None
    for match in current.matches:
        if match.result is None and len(match.players) == 2:
            first, second = match.players
            await services.rounds.report(player(first - PLAYER_BASE), CUP, "win")
            await services.rounds.confirm(
                player(second - PLAYER_BASE), tid, current.number, match.table
            )
    started = time.perf_counter()
    paired = await services.rounds.pair(ORGANIZER, CUP)
    figures["pair through the services"] = time.perf_counter() - started
    telling = Telling(
        paired.tournament, {"round": paired.round.number}, None, "ja", paired.round.paired_at
    )
    figures["pairings post rendered"] = median_time(lambda: RENDERERS[Say.PAIRINGS](telling), reps)
    return figures


def verify(path: Path) -> tuple[float, float]:
    env = {**os.environ, "DATABASE_PATH": str(path), "DATABASE_URL": ""}
    script = (
        "import resource, runpy, sys; sys.argv = ['bot', 'verify'];"
        "code = 0\n"
        "try:\n runpy.run_module('bot', run_name='__main__')\n"
        "except SystemExit as e:\n code = e.code or 0\n"
        "print('RSS', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(code)"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=REPO
    )
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"verify failed: {done.stdout}{done.stderr}")
    rss = next(line for line in done.stderr.splitlines() if line.startswith("RSS"))
    return took, int(rss.split()[1]) / 1024


def brackets(reps: int) -> dict[str, float]:
    from bot.ui.bracket import BracketPicture, BracketSlot, SlotPlayer, render_bracket

    figures = {}
    for size in (64, 128):
        first = [
            BracketSlot(
                (
                    SlotPlayer(f"プレイヤー {2 * i + 1}", 2 * i + 1),
                    SlotPlayer(f"Player {2 * i + 2}", 2 * i + 2),
                ),
                winner=0,
            )
            for i in range(size // 2)
        ]
        picture = BracketPicture(f"Top {size}", [first], "ja")
        figures[f"bracket PNG top {size}"] = median_time(lambda p=picture: render_bracket(p), reps)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--played", type=int, default=10)
    parser.add_argument("--left", type=int, default=16)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--skip", nargs="*", default=[], help="verify, brackets")
    args = parser.parse_args()
    source = event_database(args.players, args.rounds, played=args.played, left=args.left)
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="pm-costs-") as folder:
        path = Path(folder) / "event.sqlite3"
        shutil.copyfile(source, path)
        figures: dict[str, float] = {}
        if "verify" not in args.skip:
            took, rss = verify(path)
            figures["python -m bot verify"] = took
            figures["verify peak RSS (MB)"] = rss
        figures.update(asyncio.run(measure(path, args.reps)))
    if "brackets" not in args.skip:
        figures.update(brackets(args.reps))
    for name, value in figures.items():
        shown = f"{value:.0f} MB" if "MB" in name else f"{value * 1000:.1f} ms"
        print(f"{name:32} {shown}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"this process's peak RSS: {peak:.0f} MB; load average after: {load_average()}")


if __name__ == "__main__":
    main()
