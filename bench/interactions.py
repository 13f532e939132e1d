"""100 `/report result` interactions at once, through the fake Discord and the real bot:
`python bench/interactions.py [--runs 3]`.

Each run starts the real bot (`python -m bot`, its own process) against the fake Discord
of tests/e2e (loopback REST + gateway). Before the bot starts, the services set up a
200-player event on the bot's database (registration, decks and the start are not what is
measured here). Then, through Discord like users:

- the organizer runs `/round pair` (100 tables, the pairings posted and their thread);
- burst 1: the first player of every table sends `/report result win`, all 100 at once;
- burst 2: every opponent sends `/report result lose`, all 100 at once: each agrees with
  the report and confirms the result (the bot then posts it in the round's thread).

That is repeated for `--rounds` rounds. For every interaction the figure is the time from
the moment the fake writes INTERACTION_CREATE to the socket to the moment the bot's
callback request arrives at the fake (Discord allows 3 s). The fake's server shares the
2 cores with the bot, as it must. A reference workload timed in the same process at the
start and the end shows how busy the machine was.

Each run prints its traffic: requests by route, messages per place, 429s, invalid answers.
The fake enforces Discord's rate limits unless `--no-limits` (the bot alone, to compare).

Target: p99 ≤ 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.event import DECK, percentile, reference_workload  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402

CUP = "Bench Cup"

# With --profile, the bot process imports this (as sitecustomize, first on its PYTHONPATH)
# and runs under pyinstrument until it exits.
PROFILE_HOOK = """
import atexit, os
from pyinstrument import Profiler

_profiler = Profiler(interval=0.0005)
_profiler.start()


@atexit.register
def _write() -> None:
    _profiler.stop()
    with open(os.environ["BENCH_PROFILE"], "w", encoding="utf-8") as out:
        out.write(_profiler.output_text(color=False, show_all=False))
"""


async def prepare_event(fake: FakeDiscord, players: int) -> list[str]:
    """Members in the fake guild, and the started event in the bot's database."""
    names = [f"player{number:03d}" for number in range(players)]
    members = [await fake.add_member(name) for name in names]
    guild = fake.guild
    owner = fake.member("owner")
    assert fake.database is not None
    database = await open_database(fake.database)
    services = Services(database)
    admin = Actor(int(owner.id), guild.id, "owner", manages_guild=True)
    organizer_role = fake.role("Organizer").id
    organizer = Actor(
        int(fake.member("organizer").id), guild.id, "organizer", frozenset({organizer_role})
    )
    await services.guilds.configure(
        admin,
        organizer_role_id=organizer_role,
        judge_role_id=fake.role("Judge").id,
        announcements_channel_id=fake.channel("announcements").id,
        pairings_channel_id=fake.channel("pairings").id,
        standings_channel_id=fake.channel("standings").id,
        judge_calls_channel_id=fake.channel("judge-calls").id,
        log_channel_id=fake.channel("log").id,
        locale="ja",
    )
    await services.tournaments.create(organizer, name=CUP, format="swiss", regulation="single")
    for name, member in zip(names, members, strict=True):
        actor = Actor(int(member.id), guild.id, name)
        await services.registration.register(actor, CUP)
        await services.decks.submit(actor, CUP, DECK, "deck.csv")
    await services.lifecycle.start(organizer, CUP)
    await database.close()
    return names


async def current_tables(fake: FakeDiscord, by_id: dict[int, str]) -> list[tuple[str, str]]:
    """The current round's tables, read from the bot's database (WAL: reads never block)."""
    assert fake.database is not None
    database = await open_database(fake.database)
    try:
        _, current = await Services(database).rounds.status(Actor(0, fake.guild.id, "bench"), CUP)
    finally:
        await database.close()
    return [
        (by_id[m.players[0]], by_id[m.players[1]]) for m in current.matches if len(m.players) == 2
    ]


async def until(condition: Callable[[], bool], within: float = 30.0) -> None:
    for _ in range(int(within / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def quiet(fake: FakeDiscord, seconds: float) -> None:
    """Until the fake has seen no request for `seconds`."""
    await until(lambda: time.monotonic() - fake.world.last_activity >= seconds, 60.0)


async def burst(fake: FakeDiscord, users: list[str], claim: str, shown: list[float]) -> list[float]:
    """All `users` report at once; each one's INTERACTION_CREATE → callback time (and, in
    `shown`, → the answer the player sees, which follows a deferral)."""
    replies: list[Reply] = await asyncio.gather(
        *(
            fake.slash(
                "report result", user=user, options={"result": claim}, locale="ja", wait=False
            )
            for user in users
        )
    )
    # One waiting loop for all (100 polling loops would starve the fake's own thread).
    await until(lambda: all(reply.type is not None for reply in replies))
    await fake.settled()  # the bot's posts after answering (its outbox empty)
    latencies = []
    for reply in replies:
        assert reply.type in (4, 5), f"{reply.type}: {reply.text}"
        assert reply.answer_time is not None
        assert reply.shown_time is not None
        latencies.append(reply.answer_time)
        shown.append(reply.shown_time)
    return latencies


def profiled_env(folder: Path, output: Path) -> dict[str, str]:
    hook = folder / "profile-hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(PROFILE_HOOK, encoding="utf-8")
    return {"PYTHONPATH": os.pathsep.join([str(hook), str(REPO)]), "BENCH_PROFILE": str(output)}


async def run_once(
    players: int, rounds: int, profile: Path | None = None, *, rate_limits: bool = True
) -> dict[str, Any]:
    results: dict[str, Any] = {"reports": [], "confirms": [], "pair": [], "shown": []}
    with tempfile.TemporaryDirectory(prefix="bench-interactions-") as folder:
        # `--no-limits` measures the bot alone, against a Discord without rate limits, to
        # compare with the default (Discord's limits).
        # Under the limits a round's posts into its thread take minutes to go out.
        timeout = 900.0 if rate_limits else 30.0
        fake = FakeDiscord(log_level="INFO", timeout=timeout, rate_limits=rate_limits)
        fake.start()
        try:
            fake.workdir = Path(folder)
            fake.load_commands(await fake.sync_commands())
            fake.default_env["AUTO_SYNC"] = "false"
            names = await prepare_event(fake, players)
            by_id = {int(fake.member(name).id): name for name in names}
            env = profiled_env(Path(folder), profile) if profile else {}
            await fake.start_bot(**env)
            for _ in range(rounds):
                started = time.perf_counter()
                paired = await fake.slash("round pair", user="organizer", locale="ja")
                results["pair"].append(time.perf_counter() - started)
                assert "テーブル" in paired.text or paired.followups, paired.text
                tables = await current_tables(fake, by_id)
                firsts = [first for first, _ in tables]
                seconds = [second for _, second in tables]
                results["reports"] += await burst(fake, firsts, "win", results["shown"])
                results["confirms"] += await burst(fake, seconds, "lose", results["shown"])
            await quiet(fake, 1.0)  # let the bot finish its posts before SIGTERM
            fake.assert_no_unknown_routes()
            results["traffic"] = fake.traffic()
            await fake.stop_bot(within=60 if profile else 5)
        finally:
            fake.close()
    return results


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="200: 100 tables")
    parser.add_argument("--rounds", type=int, default=3, help="bursts of 100 + 100 per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--profile", type=Path, help="profile the bot (pyinstrument) into this file"
    )
    parser.add_argument(
        "--no-limits", action="store_true", help="a Discord without rate limits, to compare"
    )
    args = parser.parse_args()
    limits = not args.no_limits
    print(f"Discord's rate limits: {'on' if limits else 'off'}", flush=True)
    rows = []
    for run in range(args.runs):
        before = reference_workload()
        profile = args.profile.resolve() if args.profile else None
        result = asyncio.run(run_once(args.players, args.rounds, profile, rate_limits=limits))
        after = reference_workload()
        both = result["reports"] + result["confirms"]
        row = {
            "report p50": percentile(result["reports"], 0.50),
            "report p99": percentile(result["reports"], 0.99),
            "confirming p50": percentile(result["confirms"], 0.50),
            "confirming p99": percentile(result["confirms"], 0.99),
            "all p50": percentile(both, 0.50),
            "all p99": percentile(both, 0.99),
            "all max": max(both),
            "answer shown p50": percentile(result["shown"], 0.50),
            "answer shown p99": percentile(result["shown"], 0.99),
            "pair": statistics.median(result["pair"]),
            "reference": (before + after) / 2,
        }
        rows.append(row)
        print(
            f"run {run + 1}: "
            + ", ".join(
                f"{key} {value:.2f} s" if key == "reference" else f"{key} {ms(value)}"
                for key, value in row.items()
            ),
            flush=True,
        )
        print(f"traffic (run {run + 1}):\n{result['traffic']}", flush=True)
    print(
        f"\n{args.players // 2} interactions at once × 2 bursts × {args.rounds} rounds per run;"
        f" medians of {args.runs} runs (Python {sys.version.split()[0]})\n"
    )
    print("| figure | median |")
    print("|---|---:|")
    for key in rows[0]:
        value = statistics.median(row[key] for row in rows)
        shown = f"{value:.2f} s" if key == "reference" else ms(value)
        print(f"| {key} | {shown} |")


if __name__ == "__main__":
    main()
