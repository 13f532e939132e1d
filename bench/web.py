"""The live page under load during a 1,024-player round (issue 22).

    .venv/bin/python bench/web.py                     # 200 streams, 200 page loads/s, 25 s
    .venv/bin/python bench/web.py --streams 0 --rate 0 # the same round with no reader

Two processes on loopback, as in production: the "bot" (the services and the web server in
one process and one event loop, on an SQLite file) and the readers. The bot side builds a
1,024-player Swiss event through the services, pairs round 1 (512 tables), turns the page
on and starts the clock; then players report and their opponents confirm, 20 service calls
a second (the 512 tables' results over about 50 s, each one a commit that moves the page's
version). Meanwhile the reader side keeps `--streams` event streams open and loads pages at
`--rate` a second (open loop: a slow answer does not slow the next request), rotating over
the overview, the pairings (512 tables) and the standings.

Printed: the page time (request sent → whole body read) p50/p99/max, the errors, the
events the streams received, and the bot side's report and confirm times under that load,
to compare with the same round without readers and with docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PLAYERS = 1024
LEGAL_DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# -- the bot side -----------------------------------------------------------------------------


async def serve(calls_per_second: float, duration: float) -> None:
    from bot.services import Services
    from bot.services.actors import Actor
    from bot.store.database import Database
    from bot.web.server import WebLimits, WebServer

    folder = tempfile.mkdtemp(prefix="pm-bench-web-")
    database = await Database.open(Path(folder) / "bench.sqlite3")
    services = Services(database)
    admin = Actor(1, 1, "admin", manages_guild=True)
    players = [Actor(10_000 + n, 1, f"プレイヤー{n:04d}") for n in range(PLAYERS)]
    await services.guilds.configure(admin, locale="ja")
    created = await services.tournaments.create(
        admin, name="Bench", format="swiss", regulation="single"
    )
    ref = str(created.tournament.id)
    for actor in players:
        await services.registration.register(actor, ref)
        await services.decks.submit(actor, ref, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(admin, ref)
    switch = await services.tournaments.set_page(admin, ref, True)
    limits = WebLimits(requests_per_second=1e6, burst=10**6, streams_per_client=10**5)
    server = WebServer(services.live, "127.0.0.1", 0, limits=limits)
    await server.start()
    paired = await services.rounds.pair(admin, ref)
    await services.rounds.start_clock(admin, ref)
    url = f"http://127.0.0.1:{server.port}/t/{switch.tournament.page_slug}"
    print(json.dumps({"url": url}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "go"

    by_id = {actor.user_id: actor for actor in players}
    report_times: list[float] = []
    confirm_times: list[float] = []
    gap = 1.0 / calls_per_second
    started = time.perf_counter()
    next_at = started
    for match in paired.round.matches:
        if time.perf_counter() - started > duration or len(match.players) != 2:
            break
        first, second = (by_id[p] for p in match.players)
        for kind in ("report", "confirm"):
            next_at += gap
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            begun = time.perf_counter()
            if kind == "report":
                await services.rounds.report(first, ref, "win")
                report_times.append(time.perf_counter() - begun)
            else:
                await services.rounds.confirm(second, created.tournament.id, 1, match.table)
                confirm_times.append(time.perf_counter() - begun)
    print(
        json.dumps(
            {
                "reports": len(report_times),
                "report_p50_ms": 1000 * statistics.median(report_times),
                "report_p99_ms": 1000 * percentile(report_times, 0.99),
                "confirm_p50_ms": 1000 * statistics.median(confirm_times),
                "confirm_p99_ms": 1000 * percentile(confirm_times, 0.99),
                "readers_at_end": server.pages.readers,
            }
        ),
        flush=True,
    )
    await server.stop()
    await database.close()


# -- the readers ----------------------------------------------------------------------------


async def read(url: str, streams: int, rate: float, duration: float) -> dict[str, float]:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    received = [0]
    times: list[float] = []
    errors = [0]
    kinds: dict[str, int] = {}
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def stream() -> None:
            async with session.get(f"{url}/events") as response:
                assert response.status == 200, response.status
                async for line in response.content:
                    if line.startswith(b"event: version"):
                        received[0] += 1

        open_streams = [asyncio.ensure_future(stream()) for _ in range(streams)]
        await asyncio.sleep(1.0)
        sections = ("", "/pairings", "/standings")
        pending: set[asyncio.Task[None]] = set()

        async def load(path: str) -> None:
            begun = time.perf_counter()
            try:
                async with session.get(url + path, headers={"Accept-Encoding": "gzip"}) as r:
                    await r.read()
                    if r.status != 200:
                        errors[0] += 1
                        return
            except aiohttp.ClientError as error:
                errors[0] += 1
                kinds[type(error).__name__] = kinds.get(type(error).__name__, 0) + 1
                return
            times.append(time.perf_counter() - begun)

        if rate > 0:
            started = time.perf_counter()
            count = 0
            while time.perf_counter() - started < duration:
                count += 1
                task = asyncio.ensure_future(load(sections[count % len(sections)]))
                pending.add(task)
                task.add_done_callback(pending.discard)
                await asyncio.sleep(max(0.0, started + count / rate - time.perf_counter()))
        else:
            await asyncio.sleep(duration)
        if pending:
            await asyncio.wait(pending)
        events = received[0]
        for task in open_streams:
            task.cancel()
        await asyncio.gather(*open_streams, return_exceptions=True)
    return {  # type: ignore[return-value]
        "page_loads": len(times),
        "page_errors": errors[0],
        "page_p50_ms": 1000 * statistics.median(times) if times else float("nan"),
        "page_p99_ms": 1000 * percentile(times, 0.99),
        "page_max_ms": 1000 * max(times, default=float("nan")),
        "stream_events": events,
        "error_kinds": kinds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="page loads a second")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--calls", type=float, default=20.0, help="bot service calls a second")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.calls, args.seconds))
        return
    bot = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--calls", str(args.calls),
         "--seconds", str(args.seconds)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert bot.stdin is not None
    assert bot.stdout is not None
    built = time.perf_counter()
    url = json.loads(bot.stdout.readline())["url"]
    print(f"1024-player event built in {time.perf_counter() - built:.1f} s; page {url}")
    bot.stdin.write("go\n")
    bot.stdin.flush()
    readers = asyncio.run(read(url, args.streams, args.rate, args.seconds))
    bot_side = json.loads(bot.stdout.readline())
    bot.wait(30)
    print(json.dumps({"streams": args.streams, "rate": args.rate, **readers, **bot_side}, indent=2))


if __name__ == "__main__":
    main()
