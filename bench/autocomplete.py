"""Autocomplete under a flood, through the fake Discord and the real bot:
`python bench/autocomplete.py [--rate 500 --seconds 10 --runs 3]`.

Each run starts the real bot (`python -m bot`, its own process) against the fake Discord of
tests/e2e. Before the bot starts, the services create `--tournaments` tournaments in the
guild (the first with `--players` registered players). Then members type into the
`tournament` option of `/register`, `/players` and `/round standings`: `--rate` autocomplete
interactions a second for `--seconds` seconds, each sent at its scheduled moment without
waiting for the answer (or, with `--burst N`, N at once).

Figures per interaction:

- answer: the fake writes INTERACTION_CREATE to the socket → the bot's callback arrives
  (the time a member waits for the choices);
- lag: the scheduled moment → the fake writing INTERACTION_CREATE (the fake's own delay:
  if this grows, the fake, not the bot, is the limit);
- missed 3 s: no answer accepted within Discord's 3 s, counted from the moment the fake
  created the interaction (the fake then refuses the callback with 10062, as Discord does).

While it runs, the CPU time of the bot process and of the fake's server thread is sampled:
a side whose CPU time is close to the wall time is saturated. `--profile-bot FILE` runs the
bot under pyinstrument; `--profile-fake FILE` runs cProfile in the fake's server thread.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.event import percentile, reference_workload  # noqa: E402
from bench.interactions import profiled_env  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402
from tests.e2e.fake_discord.rest import ACK_DEADLINE_SECONDS  # noqa: E402

DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
# (command, what is typed) cycled through: the members type different things.
TYPED = [("register", ""), ("players", "cup"), ("standings", "2"), ("register", "spring")]
TYPISTS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


async def prepare(fake: FakeDiscord, tournaments: int, players: int) -> None:
    """`tournaments` tournaments in the fake's guild; the first with `players` players."""
    guild = fake.guild
    assert fake.database is not None
    database = await open_database(fake.database)
    services = Services(database)
    owner = fake.member("owner")
    organizer_role = fake.role("Organizer").id
    organizer = Actor(
        int(fake.member("organizer").id), guild.id, "organizer", frozenset({organizer_role})
    )
    await services.guilds.configure(
        Actor(int(owner.id), guild.id, "owner", manages_guild=True),
        organizer_role_id=organizer_role,
        judge_role_id=fake.role("Judge").id,
        locale="ja",
    )
    names = [f"Spring Cup {number}" for number in range(tournaments)]
    for name in names:
        await services.tournaments.create(organizer, name=name, format="swiss", regulation="mix")
    for number in range(players):
        actor = Actor(10_000 + number, guild.id, f"player{number}")
        await services.registration.register(actor, names[0])
    await database.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fake_thread_cpu() -> float:
    return time.thread_time()  # runs on the fake's server thread


async def send_all(
    fake: FakeDiscord, count: int, rate: float | None
) -> tuple[list[Reply], list[float]]:
    """Send `count` autocompletes, `rate` a second (None: all at once); the replies and
    each one's lag behind its schedule."""
    replies: list[Reply] = []
    lags: list[float] = []
    started = time.monotonic()

    async def one(index: int) -> None:
        command, typed = TYPED[index % len(TYPED)]
        due = started + (index / rate if rate else 0.0)
        reply = await fake.autocomplete(
            command,
            focused="tournament",
            value=typed,
            user=TYPISTS[index % len(TYPISTS)],
            locale="ja" if index % 2 else "en-US",
            wait=False,
        )
        replies.append(reply)
        sent_at = reply._record.sent_at
        assert sent_at is not None
        lags.append(max(0.0, sent_at - due))

    if rate is None:
        await asyncio.gather(*(one(index) for index in range(count)))
        return replies, lags
    pending = []
    for index in range(count):
        delay = started + index / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        pending.append(asyncio.ensure_future(one(index)))
    await asyncio.gather(*pending)
    return replies, lags


async def run_once(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-autocomplete-") as folder:
        fake = FakeDiscord(log_level="INFO", timeout=60.0)
        fake.start()
        try:
            fake.workdir = Path(folder)
            fake.load_commands(await fake.sync_commands())
            fake.default_env["AUTO_SYNC"] = "false"
            await prepare(fake, args.tournaments, args.players)
            env = profiled_env(Path(folder), args.profile_bot.resolve()) if args.profile_bot else {}
            bot = await fake.start_bot(**env)
            warm = await fake.autocomplete("register", focused="tournament", value="")
            assert warm.choices, "no choices"
            profiler = cProfile.Profile()
            if args.profile_fake:
                await fake._server.call(_enable(profiler))
            bot_cpu = cpu_seconds(bot.process.pid)
            fake_cpu = await fake._server.call(fake_thread_cpu())
            bench_cpu = time.process_time()  # this process: the fake's thread and the sender
            started = time.monotonic()
            count = args.burst or int(args.rate * args.seconds)
            replies, lags = await send_all(fake, count, None if args.burst else args.rate)
            sent = time.monotonic() - started
            # Every answer, or Discord's 3 s (and 2 more) after the last was sent.
            for _ in range(int((ACK_DEADLINE_SECONDS + 2.0) / 0.05)):
                if all(reply.type for reply in replies):
                    break
                await asyncio.sleep(0.05)
            wall = time.monotonic() - started
            bot_cpu = cpu_seconds(bot.process.pid) - bot_cpu
            fake_cpu = await fake._server.call(fake_thread_cpu()) - fake_cpu
            bench_cpu = time.process_time() - bench_cpu
            if args.profile_fake:
                await fake._server.call(_disable(profiler))
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(40)
                args.profile_fake.write_text(out.getvalue(), encoding="utf-8")
            gone = sum("10062" in line for line in bot.stderr_lines)
            # Answers refused as too late are still being sent: let the bot finish first.
            for _ in range(600):
                if time.monotonic() - fake.world.last_activity > 1.0:
                    break
                await asyncio.sleep(0.05)
            await fake.stop_bot(within=60)
        finally:
            fake.close()
    answered = [r for r in replies if r.type == 8]
    times = [r.answer_time for r in answered if r.answer_time is not None]
    for reply in answered:
        assert reply.choices, "an autocomplete answered with no choice"
    return {
        "count": count,
        "answered": len(answered),
        "missed": count - len(answered),
        "p50": percentile(times, 0.50) if times else float("nan"),
        "p99": percentile(times, 0.99) if times else float("nan"),
        "max": max(times) if times else float("nan"),
        "lag p99": percentile(lags, 0.99),
        "lag max": max(lags),
        "send seconds": sent,
        "wall": wall,
        "bot cpu": bot_cpu,
        "fake cpu": fake_cpu,
        "sender cpu": bench_cpu - fake_cpu,
        "bot 10062": gone,
    }


async def _enable(profiler: cProfile.Profile) -> None:
    profiler.enable()  # in the fake's server thread: cProfile follows the calling thread


async def _disable(profiler: cProfile.Profile) -> None:
    profiler.disable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=500.0, help="autocompletes a second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--burst", type=int, help="send this many at once instead")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tournaments", type=int, default=8)
    parser.add_argument("--players", type=int, default=200, help="in the first tournament")
    parser.add_argument("--profile-bot", type=Path, help="pyinstrument text of the bot")
    parser.add_argument("--profile-fake", type=Path, help="cProfile of the fake's thread")
    args = parser.parse_args()
    rows = []
    for run in range(args.runs):
        reference = reference_workload()
        row = asyncio.run(run_once(args))
        row["reference"] = reference
        rows.append(row)
        print(
            f"run {run + 1}: {row['answered']}/{row['count']} answered, missed 3 s:"
            f" {row['missed']}, answer p50 {row['p50'] * 1000:.0f} ms"
            f" p99 {row['p99'] * 1000:.0f} ms max {row['max'] * 1000:.0f} ms;"
            f" fake lag p99 {row['lag p99'] * 1000:.0f} ms max {row['lag max'] * 1000:.0f} ms;"
            f" sent in {row['send seconds']:.1f} s, CPU over {row['wall']:.1f} s: bot"
            f" {row['bot cpu']:.1f} s, fake server {row['fake cpu']:.1f} s,"
            f" fake sender {row['sender cpu']:.1f} s;"
            f" reference {reference:.2f} s",
            flush=True,
        )
    what = f"{args.burst} at once" if args.burst else f"{args.rate:.0f}/s for {args.seconds:.0f} s"
    print(f"\n{what}; medians of {args.runs} runs (Python {sys.version.split()[0]})\n")
    print("| figure | median |")
    print("|---|---:|")
    for key, unit in (
        ("p50", "ms"),
        ("p99", "ms"),
        ("max", "ms"),
        ("missed", ""),
        ("lag p99", "ms"),
        ("bot cpu", "s"),
        ("fake cpu", "s"),
        ("sender cpu", "s"),
        ("wall", "s"),
        ("reference", "s"),
    ):
        value = statistics.median(row[key] for row in rows)
        shown = f"{value * 1000:.0f} ms" if unit == "ms" else f"{value:.2f} {unit}".strip()
        print(f"| {key} | {shown} |")


if __name__ == "__main__":
    main()
