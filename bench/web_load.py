"""The live page against one stranger (or many): connections, forged addresses, ignored
parameters and font slices, with the bot's file limit at 1,024 (the figures of
docs/BENCHMARKS.md, "The live page against a stranger").

    .venv/bin/python bench/web_load.py                 # every scenario, 1,024 players
    .venv/bin/python bench/web_load.py --only idle streams --players 256

The "bot" process (file limit set to 1,024, soft and hard) builds a Swiss event through the
services, pairs round 1, turns the page on and serves it as the bot does (`WebServer`,
`WEB_BEHIND_PROXY=true` with 127.0.0.1 the proxy; its connection budget sized from the
limit). Its "interactions" stand in for Discord's: 20 a second, each a service read
(`/round status`) and a connection to a local stand-in for Discord's API (a TCP echo server
in this process), timed from start to answer; a failure to connect (no descriptor left) is
counted. Meanwhile "another reader" (127.0.9.9) loads the pairings page every 200 ms.

Scenarios (each prints its figures; medians and p99 in ms):

    baseline  interactions and the other reader, nothing else
    idle      2,000 idle connections (no request) from 500 addresses, reopened when closed
    streams   2,000 live-update streams from 500 addresses (4 each)
    forged    200,000 requests with distinct X-Forwarded-For from a peer that is not the
              proxy, then 200,000 from the proxy; the bucket table's size, and the time of
              a request from the proxy afterwards
    pages     the update delay (a result committed → the page at that version, answers made)
              and the bot's RSS, before and after 1,000 distinct ?page= values on each part
    fonts     every font slice asked for once: the bot process's CPU seconds meanwhile
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

LEGAL_DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
SCENARIOS = ("baseline", "idle", "streams", "forged", "pages", "fonts")
OTHER_READER = "127.0.9.9"


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(values: list[float]) -> dict[str, float]:
    return {
        "n": len(values),
        "p50_ms": round(1000 * statistics.median(values), 1) if values else float("nan"),
        "p99_ms": round(1000 * percentile(values, 0.99), 1),
        "max_ms": round(1000 * max(values, default=float("nan")), 1),
    }


def address(n: int, net: int = 1) -> str:
    """The n-th client address of loopback's 127.net.x.y (Linux routes all of 127/8 to lo)."""
    return f"127.{net}.{n // 250}.{n % 250 + 1}"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


# -- the bot side -----------------------------------------------------------------------------


async def serve(players_count: int, echo_port: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
    from bot.services import Services
    from bot.services.actors import Actor
    from bot.store.database import open_database
    from bot.web.server import LIMITS_KEY, WebLimits, WebServer

    folder = tempfile.mkdtemp(prefix="pm-bench-load-")
    database = await open_database(Path(folder) / "bench.sqlite3")
    services = Services(database)
    admin = Actor(1, 1, "admin", manages_guild=True)
    players = [Actor(10_000 + n, 1, f"プレイヤー{n:04d}") for n in range(players_count)]
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
    limits = WebLimits(behind_proxy=True, trusted_proxies=("127.0.0.1",))
    server = WebServer(services.live, "127.0.0.1", 0, limits=limits, cut_fonts=False)
    await server.start()
    paired = await services.rounds.pair(admin, ref)
    await services.rounds.start_clock(admin, ref)
    slug = switch.tournament.page_slug
    assert slug is not None
    assert server.budget is not None
    assert server.app is not None
    by_id = {actor.user_id: actor for actor in players}
    tables = iter(m for m in paired.round.matches if len(m.players) == 2)
    loop = asyncio.get_running_loop()

    async def interaction() -> float:
        began = time.perf_counter()
        await services.rounds.status(admin, ref)
        reader, writer = await asyncio.open_connection("127.0.0.1", echo_port)
        writer.write(b"ping\n")
        await reader.readline()
        writer.close()
        return time.perf_counter() - began

    async def interactions(seconds: float) -> dict[str, Any]:
        times: list[float] = []
        failures: dict[str, int] = {}
        start = time.perf_counter()
        number = 0
        pending: set[asyncio.Task[float]] = set()

        def done(task: asyncio.Task[float]) -> None:
            pending.discard(task)
            if task.exception() is not None:
                kind = type(task.exception()).__name__ + ": " + str(task.exception())[:60]
                failures[kind] = failures.get(kind, 0) + 1
            else:
                times.append(task.result())

        while (due := start + number / 20) < start + seconds:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            task = loop.create_task(interaction())
            pending.add(task)
            task.add_done_callback(done)
            number += 1
        if pending:
            await asyncio.wait(pending)
        return {"interactions": ms(times), "failed": failures}

    async def update_delays(count: int) -> list[float]:
        delays = []
        for _ in range(count):
            match = next(tables)
            first, second = (by_id[p] for p in match.players)
            await services.rounds.report(first, ref, "win")
            began = time.perf_counter()
            await services.rounds.confirm(second, created.tournament.id, 1, match.table)
            version = server.pages.newest(created.tournament.id) or 0  # heard at the commit
            while True:
                state = server.pages._states.get(slug)
                if state is not None and state.version >= version:
                    break
                await asyncio.sleep(0.005)
            delays.append(time.perf_counter() - began)
            await asyncio.sleep(1.5)
        return delays

    def stats() -> dict[str, Any]:
        checker = server.app[LIMITS_KEY]
        gate = server.gate
        assert gate is not None
        return {
            "buckets": len(checker._buckets),
            "connections": len(gate),
            "refused": gate.refused,
            "evicted": gate.evicted,
            "streams_open": checker.streams_open,
            "rss_mb": rss_mb(),
            "cpu_s": round(time.process_time(), 2),
        }

    print(
        json.dumps(
            {
                "port": server.port,
                "slug": slug,
                "budget": server.budget.__dict__,
                "file_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            }
        ),
        flush=True,
    )
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        command, *args = line.split()
        if command == "interactions":
            answer: Any = await interactions(float(args[0]))
        elif command == "delays":
            answer = [round(1000 * d, 1) for d in await update_delays(int(args[0]))]
        elif command == "stats":
            answer = stats()
        else:
            break
        print(json.dumps(answer), flush=True)
    await server.stop()
    await database.close()


# -- the strangers ----------------------------------------------------------------------------


async def attack(kind: str, port: int, slug: str, count: int, addresses: int, seconds: float):
    """`count` connections from `addresses` loopback addresses, reopened when the server
    closes them, for `seconds`: idle (nothing sent) or streams. At a lower priority: a real
    flood's CPU is on other machines, not the bot's."""
    os.nice(10)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (count + 500, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
    )
    held = [0]
    opened = [0]
    end = time.monotonic() + seconds
    request = f"GET /t/{slug}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()

    async def one(n: int) -> None:
        source = address(n % addresses)
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.5)
                continue
            opened[0] += 1
            held[0] += 1
            try:
                if kind == "streams":
                    writer.write(request)
                while time.monotonic() < end:
                    data = await asyncio.wait_for(
                        reader.read(4096), max(0.1, end - time.monotonic())
                    )
                    if not data:
                        break
            except (TimeoutError, OSError):
                pass
            finally:
                held[0] -= 1
                writer.close()
            await asyncio.sleep(0.2)  # reopen, as a flood would

    tasks = [asyncio.ensure_future(one(n)) for n in range(count)]
    await asyncio.sleep(min(seconds, 4.0))
    peak = held[0]
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"held_after_4s": peak, "opened": opened[0]}), flush=True)


async def forge(port: int, source: str, count: int, offset: int) -> None:
    """`count` pipelined requests, each with its own forged X-Forwarded-For, from `source`."""
    os.nice(10)
    sent = 0
    began = time.perf_counter()
    answered = 0

    async def lane(lane_number: int, share: int) -> None:
        nonlocal answered
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        batch = 100
        for first in range(0, share, batch):
            size = min(batch, share - first)
            lines = []
            for k in range(size):
                n = offset + lane_number * share + first + k
                forged = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
                lines.append(f"GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {forged}\r\n\r\n")
            writer.write("".join(lines).encode())
            seen = 0
            buffer = b""
            while seen < size:
                data = await reader.read(65536)
                if not data:
                    raise ConnectionError("closed")
                buffer += data
                seen = buffer.count(b"HTTP/1.1 ")
            answered += seen
        writer.close()

    lanes = 4
    await asyncio.gather(*(lane(n, count // lanes) for n in range(lanes)))
    sent = answered
    print(
        json.dumps({"requests": sent, "per_second": round(sent / (time.perf_counter() - began))}),
        flush=True,
    )


# -- the run ----------------------------------------------------------------------------------


class Echo(threading.Thread):
    """The stand-in for Discord's API: answers each line with itself."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=512)
        self.port = self.listener.getsockname()[1]

    def run(self) -> None:
        while True:
            connection, _ = self.listener.accept()
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    @staticmethod
    def answer(connection: socket.socket) -> None:
        with connection:
            data = connection.recv(64)
            if data:
                connection.sendall(data)


class Bot:
    def __init__(self, players: int, echo: Echo) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(players), str(echo.port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        assert self.process.stdout is not None
        self.info = json.loads(self.process.stdout.readline())

    def ask(self, command: str) -> Any:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()
        self.process.wait(30)


async def other_reader(url: str, seconds: float) -> dict[str, Any]:
    import aiohttp

    times: list[float] = []
    errors: dict[str, int] = {}
    connector = aiohttp.TCPConnector(local_addr=(OTHER_READER, 0), limit=4)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=10)
    ) as session:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            began = time.perf_counter()
            try:
                async with session.get(url, headers={"Accept-Encoding": "gzip"}) as response:
                    await response.read()
                    if response.status == 200:
                        times.append(time.perf_counter() - began)
                    else:
                        errors[f"HTTP {response.status}"] = (
                            errors.get(f"HTTP {response.status}", 0) + 1
                        )
            except (aiohttp.ClientError, TimeoutError) as error:
                kind = type(error).__name__
                errors[kind] = errors.get(kind, 0) + 1
            await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - began)))
    return {"other_reader": ms(times), "other_reader_errors": errors}


def with_reader(bot: Bot, url: str, seconds: float, command: str) -> dict[str, Any]:
    """`command` on the bot while the other reader loads the pairings."""
    result: dict[str, Any] = {}

    def read() -> None:
        result.update(asyncio.run(other_reader(url, seconds)))

    thread = threading.Thread(target=read)
    thread.start()
    result.update(bot.ask(command))
    thread.join()
    return result


def spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip


def run(scenarios: list[str], players: int) -> dict[str, Any]:
    echo = Echo()
    echo.start()
    bot = Bot(players, echo)
    port, slug = bot.info["port"], bot.info["slug"]
    page = f"http://127.0.0.1:{port}/t/{slug}/pairings"
    results: dict[str, Any] = {"bot": bot.info, "players": players}
    try:
        for scenario in scenarios:
            print(f"-- {scenario}", file=sys.stderr, flush=True)
            if scenario == "baseline":
                results[scenario] = with_reader(bot, page, 10, "interactions 10")
            elif scenario in ("idle", "streams"):
                attacker = spawn("--attack", scenario, str(port), slug, "2000", "500", "16")
                time.sleep(4)
                measured = with_reader(bot, page, 10, "interactions 10")
                measured["server"] = bot.ask("stats")
                assert attacker.stdout is not None
                measured["attacker"] = json.loads(attacker.stdout.readline())
                attacker.wait(30)
                results[scenario] = measured
            elif scenario == "forged":
                before = bot.ask("stats")
                outsider = spawn("--forge", str(port), "127.0.5.5", "200000", "0")
                assert outsider.stdout is not None
                sent = json.loads(outsider.stdout.readline())
                after_outsider = bot.ask("stats")
                proxy = spawn("--forge", str(port), "127.0.0.1", "200000", "300000")
                assert proxy.stdout is not None
                sent_proxy = json.loads(proxy.stdout.readline())
                after_proxy = bot.ask("stats")
                timing = asyncio.run(timed_from_proxy(port, slug))
                results[scenario] = {
                    "buckets_before": before["buckets"],
                    "from_outsider": sent,
                    "buckets_after_outsider": after_outsider["buckets"],
                    "from_proxy": sent_proxy,
                    "buckets_after_proxy": after_proxy["buckets"],
                    "request_from_proxy_after": timing,
                }
            elif scenario == "pages":
                reader = threading.Thread(
                    target=lambda: asyncio.run(other_reader(page, 60)), daemon=True
                )
                reader.start()
                time.sleep(2)
                rss_before = bot.ask("stats")["rss_mb"]
                baseline = bot.ask("delays 8")
                asyncio.run(distinct_pages(port, slug, 1000))
                flooded = bot.ask("delays 8")
                rss_after = bot.ask("stats")["rss_mb"]
                results[scenario] = {
                    "update_delay_ms_before": baseline,
                    "update_delay_p50_ms_before": statistics.median(baseline),
                    "update_delay_ms_after": flooded,
                    "update_delay_p50_ms_after": statistics.median(flooded),
                    "rss_mb_before": rss_before,
                    "rss_mb_after": rss_after,
                }
            elif scenario == "fonts":
                before = bot.ask("stats")["cpu_s"]
                statuses = asyncio.run(all_slices(port))
                after = bot.ask("stats")["cpu_s"]
                results[scenario] = {"answers": statuses, "bot_cpu_s": round(after - before, 2)}
            print(
                json.dumps(results.get(scenario), ensure_ascii=False), file=sys.stderr, flush=True
            )
    finally:
        bot.stop()
    return results


async def timed_from_proxy(port: int, slug: str) -> dict[str, Any]:
    """1,000 requests from the proxy, each for a new forged client, one after another."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    times = []
    for n in range(1000):
        forged = f"172.16.{n >> 8 & 255}.{n & 255}"
        began = time.perf_counter()
        path = f"/t/{slug}/api/version.json"
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {forged}\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        times.append(time.perf_counter() - began)
    writer.close()
    return ms(times)


async def distinct_pages(port: int, slug: str, count: int) -> None:
    import aiohttp

    parts = ("pairings", "overview", "standings")
    async with aiohttp.ClientSession() as session:
        for n in range(count):
            # Each from its own address (the budget of one would refuse most of these).
            headers = {"X-Forwarded-For": f"198.18.{n >> 8 & 255}.{n & 255}"}
            for part in parts:
                url = f"http://127.0.0.1:{port}/t/{slug}/api/{part}.json?page={n + 2}"
                async with session.get(url, headers=headers) as response:
                    await response.read()


async def all_slices(port: int) -> dict[str, int]:
    import re

    import aiohttp

    statuses: dict[str, int] = {}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/fonts/fonts.css") as response:
            css = await response.text()
        indexes = sorted({int(n) for n in re.findall(r"/fonts/(\d+)\.woff", css)})
        for n in indexes:
            headers = {"X-Forwarded-For": f"198.19.{n >> 8 & 255}.{n & 255}"}
            async with session.get(
                f"http://127.0.0.1:{port}/fonts/{n}.woff", headers=headers
            ) as response:
                await response.read()
                key = str(response.status)
                statuses[key] = statuses.get(key, 0) + 1
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=SCENARIOS, default=list(SCENARIOS))
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--serve", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--attack", nargs=6, help=argparse.SUPPRESS)
    parser.add_argument("--forge", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(*args.serve))
        return
    if args.attack:
        kind, port, slug, count, addresses, seconds = args.attack
        asyncio.run(attack(kind, int(port), slug, int(count), int(addresses), float(seconds)))
        return
    if args.forge:
        port, source, count, offset = args.forge
        asyncio.run(forge(int(port), source, int(count), int(offset)))
        return
    results = run(args.only, args.players)
    print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
