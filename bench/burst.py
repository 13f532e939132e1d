"""The end of a round of a large event, through Discord:
`python bench/burst.py --players 4096 [--runs 3]`.

The real bot (`python -m bot`, SQLite, FULL) runs against the fake Discord of tests/e2e on
a copy of bench/eventdb.py's event: `--players` players, 12 Swiss rounds, rounds 1–10
played, round 11 with its last `--left` tables still to report. Then, through Discord, as
players and the organizer would:

1. the burst: the last reports of round 11 (each open table's first player sends
   `/report result win`, the opponent `/report result lose`, which agrees and confirms),
   all at once; as soon as they are answered, all at once: 50 `/standings`, 50 page turns
   (▶ on a standings message each player asked for before), 20 `/pairing` and the
   organizer's `/round pair` for round 12 — while the bot posts the standings after round
   11 by itself (the notifier);
2. `/standings` alone, cold (the first after a new version: a report of round 12) and
   cached (asked again), `--samples` times each;
3. with `--finish`: `/tournament finish` on another copy, the event played to the end of
   a top 8.

Printed for every kind of interaction: the time from INTERACTION_CREATE to the bot's first
response (p50, p99, max; Discord allows 3 s) and to the answer the user sees; the loop's
lag (how late a 10 ms timer in the bot fires: a hook started with the bot's event loop
records it, `--lag-hook`) during the burst; the time from the `/round pair` click to the
last message of the round's pairings; the bot's peak RSS; for the finish, the CPU time of
the bot's loop thread from the click to the last message of the final standings post; the
burst's traffic (requests by route, messages per place, 429s, invalid answers, the longest
wait for a bucket). The fake enforces Discord's rate limits unless `--no-limits` (to
compare: the bot alone). The machine's load average is printed with each run (the figures
mean little on a busy machine). `--trace DIR` also prints where the burst's time went,
traced inside the bot (bench/trace.py); `--spy FILE` samples it with py-spy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.eventdb import (  # noqa: E402
    CUP,
    GUILD,
    PLAYER_BASE,
    event_database,
)
from bench.trace import TRACE_HOOK  # noqa: E402
from bench.trace import save as save_trace  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402
from tests.e2e.fake_discord.state import Member  # noqa: E402

ROUNDS = 12
PLAYED = 10

# Imported by the bot process first (sitecustomize): every event loop it runs records how
# late a 10 ms timer fires, with the wall-clock time, into $BENCH_LAG (a line per 0.5 s).
LAG_HOOK = """
import asyncio, os, time
from asyncio import base_events

_run_forever = base_events.BaseEventLoop.run_forever


async def _watch(path):
    batch = []
    flushed = time.monotonic()
    with open(path, "a", encoding="utf-8") as out:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            late = time.perf_counter() - started - 0.01
            batch.append(f"{time.time():.4f} {late * 1000:.2f}")
            if time.monotonic() - flushed > 0.5:
                out.write("\\n".join(batch) + "\\n")
                out.flush()
                batch.clear()
                flushed = time.monotonic()


def run_forever(self):
    self.call_soon(lambda: self.create_task(_watch(os.environ["BENCH_LAG"])))
    return _run_forever(self)


base_events.BaseEventLoop.run_forever = run_forever
"""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def load_average() -> str:
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


async def until(condition: Any, within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def wall(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


async def prepare(fake: FakeDiscord, database_path: Path) -> dict[str, Any]:
    """The copied event as the fake's server sees it: the outbox as a bot that sent
    everything leaves it, the server's settings with the fake's roles and channels."""
    database = await open_database(database_path)
    try:
        connection = getattr(database, "connection")  # noqa: B009 (SQLite)
        done = datetime.now().astimezone().isoformat()
        await connection.execute(
            "UPDATE outbox SET state = 'sent', done_at = ? WHERE state = 'pending'", (done,)
        )
        await connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        services = Services(database)
        owner = fake.member("owner")
        admin = Actor(int(owner.id), GUILD, "owner", manages_guild=True)
        await services.guilds.configure(
            admin,
            organizer_role_id=fake.role("Organizer").id,
            judge_role_id=fake.role("Judge").id,
            announcements_channel_id=fake.channel("announcements").id,
            pairings_channel_id=fake.channel("pairings").id,
            standings_channel_id=fake.channel("standings").id,
            judge_calls_channel_id=fake.channel("judge-calls").id,
            log_channel_id=fake.channel("log").id,
            locale="ja",
        )
        tournament, current = await services.rounds.status(Actor(0, GUILD, "bench"), CUP)
    finally:
        await database.close()
    open_tables = [m for m in current.matches if len(m.players) == 2 and m.result is None]
    finished = [m for m in current.matches if len(m.players) == 2 and m.result is not None]
    return {"tournament": tournament, "open": open_tables, "finished": finished}


def lags_between(path: Path, start: float, end: float) -> list[float]:
    if not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        stamp, late = line.split()
        if start <= float(stamp) <= end:
            found.append(float(late))
    return found


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def loop_cpu_seconds(pid: int) -> float:
    """CPU time of the bot's main thread (its event loop), user + system."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_answered(replies: list[Reply], within: float = 60.0) -> None:
    try:
        await until(lambda: all(r.shown_time is not None for r in replies), within, "the answers")
    except AssertionError:
        fake = replies[0]._fake if replies else None
        if fake is not None:
            print(fake.log_tail(), file=sys.stderr)
        raise


def times(replies: list[Reply]) -> tuple[list[float], list[float]]:
    first = [r.answer_time for r in replies]
    shown = [r.shown_time for r in replies]
    assert all(t is not None for t in first), "an interaction was never acknowledged"
    return [t for t in first if t is not None], [t for t in shown if t is not None]


async def start_fake(
    folder: Path, source: Path, members: list[int], *, rate_limits: bool = True
) -> FakeDiscord:
    # `--no-limits` measures the bot alone, against a Discord without rate limits, to
    # compare with the default (Discord's limits): the difference is Discord's waits.
    fake = FakeDiscord(
        log_level="INFO", timeout=300.0 if rate_limits else 60.0, guild_id=GUILD,
        rate_limits=rate_limits,
    )  # fmt: skip
    fake.start()
    fake.workdir = folder
    fake.database = folder / "bot.sqlite3"
    shutil.copyfile(source, fake.database)
    fake.load_commands(await fake.sync_commands())
    fake.default_env["AUTO_SYNC"] = "false"
    for user_id in members:
        await fake.add_member(f"p{user_id - PLAYER_BASE:05d}", user_id=user_id)
    return fake


def hook_env(folder: Path, *, trace: bool = False) -> dict[str, str]:
    hook = folder / "lag-hook"
    hook.mkdir(exist_ok=True)
    text = LAG_HOOK + (TRACE_HOOK if trace else "")
    (hook / "sitecustomize.py").write_text(text, encoding="utf-8")
    env = {
        "PYTHONPATH": os.pathsep.join([str(hook), str(REPO)]),
        "BENCH_LAG": str(folder / "lag.txt"),
    }
    if trace:
        env["BENCH_TRACE"] = str(folder / "trace.txt")
    return env


def pairing_messages(fake: FakeDiscord, number: int) -> list[dict[str, Any]]:
    title = f"第 {number} 回戦"
    return [m for m in fake.messages("pairings") if title in (m.get("content") or "")[:200]]


def pairings_posted(fake: FakeDiscord, number: int) -> bool:
    """Round `number` is paired and its pairings post is made (every message of it: a big
    round's post is a few messages with the full list attached as a file)."""
    paired = fake.database_rows("SELECT COUNT(*) FROM rounds WHERE number = ?", number)
    waiting = fake.database_rows(
        "SELECT COUNT(*) FROM outbox WHERE say = 'pairings' AND state = 'pending'"
    )
    return paired[0][0] > 0 and waiting[0][0] == 0 and bool(pairing_messages(fake, number))


def table_lines(message: dict[str, Any]) -> int:
    """The lines of a pairings message: its text's, and its embeds' (a large round's)."""
    texts = [message.get("content") or ""]
    texts += [embed.get("description") or "" for embed in message.get("embeds") or []]
    return sum(text.count("\n") + 1 for text in texts if text)


async def burst_run(
    source: Path,
    players: int,
    samples: int,
    spy: Path | None = None,
    trace: Path | None = None,
    *,
    rate_limits: bool = True,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pm-burst-") as name:
        folder = Path(name)
        probe = await start_fake(folder, source, [], rate_limits=rate_limits)
        prepared = await prepare(probe, probe.database or folder / "bot.sqlite3")
        probe.close()
        reporters = [(m.players[0], m.players[1]) for m in prepared["open"]]
        others = [p for m in prepared["finished"] for p in m.players]
        standing_users = others[:50]
        turning_users = others[50:100]
        pairing_users = others[100:120]
        cold_user = reporters[0][0]
        everyone = sorted(
            {p for pair in reporters for p in pair}
            | set(standing_users + turning_users + pairing_users)
        )
        fake = await start_fake(folder, source, everyone, rate_limits=rate_limits)
        fake.database = folder / "bot.sqlite3"
        await prepare(fake, fake.database)
        result: dict[str, Any] = {"load": load_average()}
        requests_before = 0
        try:
            bot = await fake.start_bot(**hook_env(folder, trace=trace is not None))
            pid = bot.process.pid

            def member(user_id: int) -> Member:
                return fake.member(user_id)

            # Before the burst: each page-turning player has a standings message to press ▶
            # on (the standings of the version before the last results).
            asked = [
                await fake.slash("standings", user=member(u), locale="ja", wait=False)
                for u in turning_users
            ]
            await wait_answered(asked)
            await fake.settled()

            # 1. The burst.
            spying = None
            if spy is not None:  # py-spy (pip install py-spy) samples the bot meanwhile
                spying = await asyncio.create_subprocess_exec(
                    "py-spy", "record", "-p", str(pid), "-o", str(spy), "-f", "raw",
                    "--threads", "-r", "200", "-d", "30", stdout=asyncio.subprocess.DEVNULL,
                    stderr=asyncio.subprocess.DEVNULL,
                )  # fmt: skip
                await asyncio.sleep(1.0)
            started_wall = time.time()
            requests_before = len(fake.requests)
            reports = []
            for first, second in reporters:
                reports.append(
                    await fake.slash(
                        "report result",
                        user=member(first),
                        options={"result": "win"},
                        locale="ja",
                        wait=False,
                    )
                )
                reports.append(
                    await fake.slash(
                        "report result",
                        user=member(second),
                        options={"result": "lose"},
                        locale="ja",
                        wait=False,
                    )
                )
            await wait_answered(reports)
            pair_wall = time.time()
            pair = await fake.slash("round pair", user="organizer", locale="ja", wait=False)
            standings = []
            turns = []
            lookups = []
            for index in range(max(len(standing_users), len(turning_users), len(pairing_users))):
                if index < len(standing_users):
                    standings.append(
                        await fake.slash(
                            "standings", user=member(standing_users[index]), locale="ja", wait=False
                        )
                    )
                if index < len(turning_users):
                    message = asked[index].message
                    assert message is not None
                    button = next(c for c in asked[index].custom_ids if c.endswith(":n"))
                    turns.append(
                        await fake.click_custom_id(
                            message,
                            button,
                            user=member(turning_users[index]),
                            locale="ja",
                            wait=False,
                        )
                    )
                if index < len(pairing_users):
                    lookups.append(
                        await fake.slash(
                            "pairing", user=member(pairing_users[index]), locale="ja", wait=False
                        )
                    )
            everything = [*reports, pair, *standings, *turns, *lookups]
            await wait_answered(everything, 120.0)
            await until(lambda: pairings_posted(fake, 12), 120.0, "the pairings of round 12")
            await fake.settled()
            ended_wall = time.time()
            traffic = fake.traffic(requests_before)
            result["traffic"] = str(traffic)
            result["too_many"] = traffic.too_many
            result["invalid"] = traffic.invalid
            result["busiest_place"] = traffic.messages.most_common(1)
            result["longest_wait"] = traffic.longest_wait
            if spying is not None:
                spying.send_signal(2)  # SIGINT: py-spy writes what it sampled
                await spying.wait()
            posted = pairing_messages(fake, 12)
            result["pair_posted"] = max(wall(m["timestamp"]) for m in posted) - pair_wall
            result["pairing_messages"] = len(posted)
            for kind, replies in (
                ("reports", reports),
                ("/round pair", [pair]),
                ("/standings", standings),
                ("page turns", turns),
                ("/pairing", lookups),
            ):
                first, shown = times(replies)
                result[kind] = {"first": first, "shown": shown}
            result["lag"] = lags_between(folder / "lag.txt", started_wall, ended_wall)
            result["burst_seconds"] = ended_wall - started_wall
            if trace is not None:
                kinds = {"reports": reports, "/round pair": [pair], "/standings": standings}
                kinds |= {"page turns": turns, "/pairing": lookups}
                print(save_trace(folder, trace, kinds, started_wall), flush=True)

            # 2. /standings alone, cold (a new version) and cached.
            cold, cached = [], []
            for sample in range(samples):
                await fake.slash(
                    "report result",
                    user=member(cold_user),
                    options={"result": "win" if sample % 2 == 0 else "lose"},
                    locale="ja",
                )
                for into in (cold, cached):
                    reply = await fake.slash(
                        "standings", user=member(standing_users[0]), locale="ja"
                    )
                    shown = reply.shown_time
                    assert shown is not None
                    into.append(shown)
            result["standings_cold"] = cold
            result["standings_cached"] = cached
            await fake.settled()
            result["peak_rss_mb"] = peak_rss_mb(pid)
            await fake.stop_bot(within=60)
        finally:
            fake.close()
    return result


def finished_swiss(players: int) -> Path:
    """The event with every Swiss round and its top 8 played: what /tournament finish
    finishes (built before the run's event loop: building runs one of its own)."""
    return event_database(players, ROUNDS, played=ROUNDS + 3, left=None, top_cut=8)


async def finish_run(source: Path, *, rate_limits: bool = True) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pm-finish-") as name:
        folder = Path(name)
        fake = await start_fake(folder, source, [], rate_limits=rate_limits)
        fake.database = folder / "bot.sqlite3"
        await prepare(fake, fake.database)
        result: dict[str, Any] = {"load": load_average()}
        try:
            bot = await fake.start_bot(**hook_env(folder))
            pid = bot.process.pid
            await fake.settled()
            before = loop_cpu_seconds(pid)
            earlier = len(fake.messages("standings"))
            started_wall = time.time()
            finish = await fake.slash("tournament finish", user="organizer", locale="ja")
            replied = loop_cpu_seconds(pid)
            await fake.settled()
            posted = loop_cpu_seconds(pid)
            ended_wall = time.time()
            first, shown = times([finish])
            result["first"], result["shown"] = first[0], shown[0]
            result["loop_cpu_reply"] = replied - before
            result["loop_cpu_posted"] = posted - before
            result["final_messages"] = len(fake.messages("standings")) - earlier
            result["lag"] = lags_between(folder / "lag.txt", started_wall, ended_wall)
            result["peak_rss_mb"] = peak_rss_mb(pid)
            await fake.stop_bot(within=30)
        finally:
            fake.close()
    return result


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def summary(runs: list[dict[str, Any]]) -> None:
    def median(values: list[float]) -> float:
        return statistics.median(values)

    print("\n| figure | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " | median |")
    print("|---|" + "---:|" * (len(runs) + 1))

    def row(label: str, values: list[float], show: Any = ms) -> None:
        print(
            f"| {label} | " + " | ".join(show(v) for v in values) + f" | {show(median(values))} |"
        )

    kinds = ("reports", "/round pair", "/standings", "page turns", "/pairing")
    every = [[t for kind in kinds for t in run[kind]["first"]] for run in runs]
    print("| load average (1/5/15 min) | " + " | ".join(r["load"] for r in runs) + " | |")
    row("all interactions: first response p50", [percentile(e, 0.5) for e in every])
    row("all interactions: first response p99", [percentile(e, 0.99) for e in every])
    row("all interactions: first response max", [max(e) for e in every])
    print("| over 3 s | " + " | ".join(str(sum(1 for t in e if t > 3.0)) for e in every) + " | |")
    for kind in kinds:
        row(f"{kind}: first p50", [percentile(r[kind]["first"], 0.5) for r in runs])
        row(f"{kind}: first max", [max(r[kind]["first"]) for r in runs])
        row(f"{kind}: shown p50", [percentile(r[kind]["shown"], 0.5) for r in runs])
        row(f"{kind}: shown max", [max(r[kind]["shown"]) for r in runs])
    row("loop lag p50", [percentile(r["lag"], 0.5) / 1000 for r in runs])
    row("loop lag p99", [percentile(r["lag"], 0.99) / 1000 for r in runs])
    row("loop lag max", [max(r["lag"]) / 1000 for r in runs])
    row("/round pair click → last pairings message", [r["pair_posted"] for r in runs])
    print("| pairings messages | " + " | ".join(str(r["pairing_messages"]) for r in runs) + " | |")
    row("/standings cold (shown), median", [median(r["standings_cold"]) for r in runs])
    row("/standings cached (shown), median", [median(r["standings_cached"]) for r in runs])
    row("peak RSS", [r["peak_rss_mb"] for r in runs], lambda v: f"{v:.0f} MB")
    row("longest wait for a bucket", [r["longest_wait"] for r in runs])
    for label, key in (("429s", "too_many"), ("invalid answers", "invalid")):
        print(f"| {label} | " + " | ".join(str(r[key]) for r in runs) + " | |")
    busiest = [f"{p} {n}" for r in runs for p, n in r["busiest_place"]]
    print("| busiest place (messages) | " + " | ".join(busiest) + " | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--left", type=int, default=16, help="tables of round 11 still open")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=3, help="lone /standings, cold and cached")
    parser.add_argument("--finish", action="store_true", help="also /tournament finish (top 8)")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--spy", type=Path, help="py-spy's samples of the bot in the burst")
    parser.add_argument("--trace", type=Path, help="trace the bot (bench/trace.py) into DIR")
    parser.add_argument(
        "--no-limits", action="store_true", help="a Discord without rate limits, to compare"
    )
    args = parser.parse_args()
    limits = not args.no_limits
    print(f"Discord's rate limits: {'on' if limits else 'off'}", flush=True)
    runs = []
    source = event_database(args.players, ROUNDS, played=PLAYED, left=args.left)
    for run in range(args.runs):
        result = asyncio.run(
            burst_run(source, args.players, args.samples, args.spy, args.trace, rate_limits=limits)
        )
        runs.append(result)
        every = [
            t
            for kind in ("reports", "/round pair", "/standings", "page turns", "/pairing")
            for t in result[kind]["first"]
        ]
        print(
            f"run {run + 1} (load {result['load']}): first response p50"
            f" {ms(percentile(every, 0.5))} p99 {ms(percentile(every, 0.99))} max {ms(max(every))},"
            f" loop lag max {max(result['lag']):.0f} ms, pair → posted {ms(result['pair_posted'])},"
            f" /standings cold {ms(statistics.median(result['standings_cold']))}"
            f" cached {ms(statistics.median(result['standings_cached']))},"
            f" peak RSS {result['peak_rss_mb']:.0f} MB",
            flush=True,
        )
        print(f"the burst's traffic (run {run + 1}):\n{result['traffic']}", flush=True)
    summary(runs)
    finishes = []
    if args.finish:
        finished = finished_swiss(args.players)
        for run in range(args.runs):
            result = asyncio.run(finish_run(finished, rate_limits=limits))
            finishes.append(result)
            print(
                f"finish run {run + 1} (load {result['load']}): first {ms(result['first'])},"
                f" shown {ms(result['shown'])}, loop CPU to the reply"
                f" {ms(result['loop_cpu_reply'])}, to the last final post"
                f" {ms(result['loop_cpu_posted'])} ({result['final_messages']} messages),"
                f" loop lag max {max(result['lag'], default=0):.0f} ms,"
                f" peak RSS {result['peak_rss_mb']:.0f} MB",
                flush=True,
            )
    if args.json:
        args.json.write_text(json.dumps({"burst": runs, "finish": finishes}, default=str))


if __name__ == "__main__":
    main()
