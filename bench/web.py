"""The live page under load during a 1,024-player round.

    .venv/bin/python bench/web.py                      # 200 streams, 200 page loads/s, 25 s
    .venv/bin/python bench/web.py --web-process        # the pages served by `python -m bot web`
    .venv/bin/python bench/web.py --streams 0 --rate 0 # the same round with no reader

The "bot" process runs the services on an SQLite file and, by default, the web server in
its own event loop (as `WEB_PORT` does); with `--web-process` the pages come from another
process, `python -m bot web` on the same file, as an organizer may run it. The bot side
builds a 1,024-player Swiss event through the services, pairs round 1 (512 tables), turns
the page on and starts the clock; then players report and their opponents confirm, 20
service calls a second (each one a commit that moves the page's version). Meanwhile
`--clients` reader processes keep `--streams` event streams open between them and load
pages at `--rate` a second (open loop: request i is due at start + i / rate whatever came
before), rotating over the overview, the pairings (512 tables) and the standings. A page
load is the HTML, which carries the section's data for the page's script (the script,
style and fonts have version-stamped addresses a browser keeps for a day).

Printed: the page time, from the moment the load was due (so a late client counts against
the page) until the last body was read, p50/p99/max in all and per section; the errors;
the events the streams received; the bot side's report and confirm times; the CPU seconds
each process used while measured (to see whether the readers starve the server); and the
load average, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PLAYERS = 1024
LEGAL_DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
SECTIONS = ("", "/pairings", "/standings")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process used so far (Linux; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the bot side -----------------------------------------------------------------------------


async def serve(calls_per_second: float, duration: float, with_web: bool) -> None:
    from bot.services import Services
    from bot.services.actors import Actor
    from bot.store.database import open_database
    from bot.web.server import WebLimits, WebServer

    folder = tempfile.mkdtemp(prefix="pm-bench-web-")
    path = Path(folder) / "bench.sqlite3"
    database = await open_database(path)
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
    server = None
    if with_web:
        limits = WebLimits(requests_per_second=1e6, burst=10**6, streams_per_client=10**5)
        server = WebServer(services.live, "127.0.0.1", 0, limits=limits)
        await server.start()
    paired = await services.rounds.pair(admin, ref)
    await services.rounds.start_clock(admin, ref)
    port = server.port if server is not None else None
    print(json.dumps({"port": port, "slug": switch.tournament.page_slug, "database": str(path)}))
    sys.stdout.flush()
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
            }
        ),
        flush=True,
    )
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "stop"
    if server is not None:
        await server.stop()
    await database.close()


# -- the readers ----------------------------------------------------------------------------


async def read(
    url: str, streams: int, rate: float, duration: float, start: float, slot: int, slots: int
) -> dict[str, Any]:
    """This reader's share: loads slot, slot + slots, … of the whole schedule, each due at
    `start` (wall clock) + its number / `rate`."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=60)
    received = [0]
    times: dict[str, list[float]] = {section or "/": [] for section in SECTIONS}
    late: list[float] = []
    errors: dict[str, int] = {}
    gzip = {"Accept-Encoding": "gzip"}

    def failed(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:

        async def stream() -> None:
            try:
                async with session.get(
                    f"{url}/events", timeout=aiohttp.ClientTimeout(total=None)
                ) as response:
                    if response.status != 200:
                        failed(f"stream HTTP {response.status}")
                        return
                    async for line in response.content:
                        if line.startswith(b"event: version"):
                            received[0] += 1
            except aiohttp.ClientError as error:
                failed(f"stream {type(error).__name__}")

        async def get(path: str) -> bool:
            async with session.get(url + path, headers=gzip) as response:
                await response.read()
                if response.status != 200:
                    failed(f"HTTP {response.status}")
                    return False
            return True

        async def load(section: str, due: float) -> None:
            late.append(time.time() - due)
            try:
                if not await get(section):
                    return
            except (aiohttp.ClientError, TimeoutError) as error:
                failed(f"{type(error).__name__}: {error}"[:120])
                return
            times[section or "/"].append(time.time() - due)

        open_streams = [asyncio.ensure_future(stream()) for _ in range(streams)]
        pending: set[asyncio.Task[None]] = set()
        await asyncio.sleep(max(0.0, start - time.time()))
        cpu_before = time.process_time()
        if rate > 0:
            number = slot
            while (due := start + number / rate) < start + duration:
                await asyncio.sleep(max(0.0, due - time.time()))
                task = asyncio.ensure_future(load(SECTIONS[number % len(SECTIONS)], due))
                pending.add(task)
                task.add_done_callback(pending.discard)
                number += slots
        else:
            await asyncio.sleep(duration)
        if pending:
            await asyncio.wait(pending)
        cpu = time.process_time() - cpu_before
        events = received[0]
        for task in open_streams:
            task.cancel()
        await asyncio.gather(*open_streams, return_exceptions=True)
    return {"times": times, "late": late, "errors": errors, "events": events, "cpu": cpu}


# -- the run ----------------------------------------------------------------------------------


def summary(readers: list[dict[str, Any]]) -> dict[str, Any]:
    by_section: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    for reader in readers:
        for section, times in reader["times"].items():
            by_section.setdefault(section, []).extend(times)
        for kind, count in reader["errors"].items():
            errors[kind] = errors.get(kind, 0) + count
    every = [t for times in by_section.values() for t in times]
    late = [t for reader in readers for t in reader["late"]]

    def ms(values: list[float], share: float) -> float:
        return round(1000 * percentile(values, share), 1)

    return {
        "page_loads": len(every),
        "page_errors": sum(errors.values()),
        "page_p50_ms": ms(every, 0.5),
        "page_p99_ms": ms(every, 0.99),
        "page_max_ms": round(1000 * max(every, default=float("nan")), 1),
        "sections_p50_p99_ms": {s: [ms(t, 0.5), ms(t, 0.99)] for s, t in by_section.items()},
        "client_late_p99_ms": ms(late, 0.99),
        "stream_events": sum(reader["events"] for reader in readers),
        "error_kinds": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="page loads a second")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--calls", type=float, default=20.0, help="bot service calls a second")
    parser.add_argument("--clients", type=int, default=2, help="reader processes")
    parser.add_argument(
        "--web-process", action="store_true", help="serve the pages from `python -m bot web`"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--read", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.calls, args.seconds, not args.web_process))
        return
    if args.read:
        start, slot = (float(part) for part in sys.stdin.readline().split())
        reading = read(
            args.read,
            args.streams,
            args.rate,
            args.seconds,
            start,
            int(slot),
            args.clients,
        )
        print(json.dumps(asyncio.run(reading)), flush=True)
        return

    load_before = os.getloadavg()
    bot = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--calls", str(args.calls),
         "--seconds", str(args.seconds), *(["--web-process"] if args.web_process else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert bot.stdin is not None
    assert bot.stdout is not None
    built = time.perf_counter()
    made = json.loads(bot.stdout.readline())
    print(f"1024-player event built in {time.perf_counter() - built:.1f} s", flush=True)
    web = None
    port = made["port"]
    if args.web_process:
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_PATH": made["database"],
            "WEB_RATE_LIMIT": "100000",
            "WEB_STREAMS_PER_IP": "100000",
            "LOG_LEVEL": "WARNING",
        }
        web = subprocess.Popen(
            [sys.executable, "-m", "bot", "web", "--host", "127.0.0.1", "--port", str(port)],
            cwd=tempfile.mkdtemp(prefix="pm-bench-web-cwd-"),  # no .env of the worktree
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert web.stdout is not None
        web.stdout.readline()  # serving on …
    url = f"http://127.0.0.1:{port}/t/{made['slug']}"
    reader_command = [
        sys.executable, __file__, "--read", url, "--streams", str(args.streams // args.clients),
        "--rate", str(args.rate), "--seconds", str(args.seconds), "--clients", str(args.clients),
    ]  # fmt: skip
    readers = [
        subprocess.Popen(reader_command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(args.clients)
    ]
    start = time.time() + 2.0  # the readers open their streams first
    for slot, reader in enumerate(readers):
        assert reader.stdin is not None
        reader.stdin.write(f"{start} {slot}\n")
        reader.stdin.flush()
    time.sleep(max(0.0, start - time.time()))
    bot.stdin.write("go\n")
    bot.stdin.flush()
    processes = {"bot": bot, "web": web, **{f"reader{n}": r for n, r in enumerate(readers)}}
    cpu_at_start = {name: cpu_seconds(p.pid) for name, p in processes.items() if p is not None}
    shares = [json.loads(reader.communicate()[0]) for reader in readers]
    cpu = {
        name: round(cpu_seconds(p.pid) - cpu_at_start[name], 1)
        for name, p in processes.items()
        if p is not None and name in cpu_at_start and not name.startswith("reader")
    }
    cpu.update({f"reader{n}": round(share["cpu"], 1) for n, share in enumerate(shares)})
    bot_side = json.loads(bot.stdout.readline())
    bot.stdin.write("stop\n")
    bot.stdin.flush()
    bot.wait(30)
    if web is not None:
        web.terminate()
        web.wait(30)
    result = {
        "streams": args.streams,
        "rate": args.rate,
        "pages_from": "python -m bot web" if args.web_process else "the bot's process",
        **summary(shares),
        **bot_side,
        "cpu_seconds": cpu,
        "load_average_before_after": [round(load_before[0], 1), round(os.getloadavg()[0], 1)],
    }
    print(json.dumps(result, indent=2, ensure_ascii=False))


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


if __name__ == "__main__":
    main()
