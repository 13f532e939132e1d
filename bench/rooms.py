"""A round's match rooms (対戦部屋) through the fake Discord and the real bot, under Discord's
rate limits: `python bench/rooms.py [--players 16,64,256] [--runs 1] [--no-limits]
[--pair-at-once]`.

For each size, before the bot starts, the services set up a started event with rooms on
(registration, decks and the start are not what is measured); its start planned the
first round's rooms. Then:

- the start's rooms: from the bot's READY until every room of the first round exists
  (its categories and voice channels made, one request each: Discord's channel creation
  is the slow part, 5 per 10 s per server in the fake, an assumed figure);
- the round: the organizer runs `/round pair`; from the command until every room is
  given to its table (its overwrites replaced, one PATCH each), and until the pairings
  post appears (it waits for the rooms there are: it names them).

With `--pair-at-once` the organizer pairs as soon as the bot is up, while the start's rooms
are still being made: from `/round pair` until the post appears, how many of its tables it
names a room for then, and until every room is made and given and the post (edited as
rooms appear) names them all.

Printed per size: the requests by kind (channel creations, overwrite edits, channel
reads), 429s, and the times (median of the runs). The fake's server shares the 2 cores
with the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.event import DECK  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.fake_discord.permissions import MANAGE_CHANNELS, MANAGE_ROLES  # noqa: E402

CUP = "Room Bench"
GRANTED = frozenset({"manage_channels", "manage_roles"})


async def prepare_event(fake: FakeDiscord, players: int) -> None:
    """Members in the fake guild; the event started with rooms on, in the bot's database."""
    names = [f"player{number:03d}" for number in range(players)]
    members = [await fake.add_member(name) for name in names]
    guild = fake.guild
    assert fake.database is not None
    database = await open_database(fake.database)
    services = Services(database)
    admin = Actor(int(fake.member("owner").id), guild.id, "owner", manages_guild=True)
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
    await services.tournaments.set_rooms(organizer, CUP, on=True, granted=GRANTED)
    for name, member in zip(names, members, strict=True):
        actor = Actor(int(member.id), guild.id, name)
        await services.registration.register(actor, CUP)
        await services.decks.submit(actor, CUP, DECK, "deck.csv")
    await services.lifecycle.start(organizer, CUP)
    await database.close()


async def until(condition: Callable[[], bool], within: float) -> float:
    """Wait for `condition`; the time it took."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > within:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)
    return time.monotonic() - started


def count(fake: FakeDiscord, sql: str) -> int:
    return int(fake.database_rows(sql)[0][0])


def requests(fake: FakeDiscord) -> dict[str, int]:
    guild = fake.guild.id
    made = fake.requests_to("POST", f"/guilds/{guild}/channels")
    read = fake.requests_to("GET", f"/guilds/{guild}/channels")
    edits = [
        r
        for r in fake.requests_to("PATCH", "/channels/")
        if isinstance(r.json, dict) and "permission_overwrites" in r.json
    ]
    deleted = [r for r in fake.requests_to("DELETE", "/channels/") if "/messages" not in r.path]
    return {
        "create": len(made),
        "overwrites": len(edits),
        "read": len(read),
        "delete": len(deleted),
    }


def rooms_named(fake: FakeDiscord, posts_before: int) -> int:
    """How many tables the round's pairings post names a room for (its parts as edited)."""
    texts = [
        text
        for message in fake.messages("pairings")[posts_before:]
        for text in [
            message.get("content") or "",
            *(embed.get("description") or "" for embed in message.get("embeds") or []),
        ]
    ]
    return sum(text.count("対戦部屋: <#") for text in texts)


async def run_at_once(players: int, *, rate_limits: bool) -> dict[str, Any]:
    """The organizer pairs round 1 as soon as the bot is up: the start's rooms not made."""
    tables = players // 2
    with tempfile.TemporaryDirectory(prefix="bench-rooms-") as folder:
        fake = FakeDiscord(log_level="INFO", timeout=900.0, rate_limits=rate_limits)
        fake.start()
        try:
            fake.workdir = Path(folder)
            fake.load_commands(await fake.sync_commands())
            fake.default_env["AUTO_SYNC"] = "false"
            fake.grant_bot(MANAGE_CHANNELS | MANAGE_ROLES)
            await prepare_event(fake, players)
            await fake.start_bot()
            posts_before = len(fake.messages("pairings"))
            started = time.monotonic()
            await fake.slash("round pair", user="organizer", locale="ja", wait=False)

            def posted() -> bool:
                return len(fake.messages("pairings")) > posts_before

            def given() -> bool:
                return (
                    count(
                        fake, "SELECT COUNT(*) FROM room_channels WHERE kind = 'room' AND round = 1"
                    )
                    == tables
                )

            await until(posted, 900.0)
            post = time.monotonic() - started
            await asyncio.sleep(0.5)  # the post's other parts
            named_at_first = rooms_named(fake, posts_before)
            await until(given, 900.0)
            ready = time.monotonic() - started
            await until(lambda: rooms_named(fake, posts_before) == tables, 900.0)
            complete = time.monotonic() - started
            await fake.settled()
            traffic = fake.traffic()
            await fake.stop_bot(within=10)
        finally:
            fake.close()
    return {
        "players": players,
        "rooms": tables,
        "post_seconds": post,
        "named_at_first": named_at_first,
        "ready_seconds": ready,
        "complete_seconds": complete,
        "requests": requests_of(traffic),
        "429s": traffic.too_many,
        "traffic": traffic,
    }


def requests_of(traffic: Any) -> str:
    return f"{sum(traffic.by_route.values())} requests"


async def run_once(players: int, *, rate_limits: bool) -> dict[str, Any]:
    tables = players // 2
    with tempfile.TemporaryDirectory(prefix="bench-rooms-") as folder:
        fake = FakeDiscord(log_level="INFO", timeout=900.0, rate_limits=rate_limits)
        fake.start()
        try:
            fake.workdir = Path(folder)
            fake.load_commands(await fake.sync_commands())
            fake.default_env["AUTO_SYNC"] = "false"
            fake.grant_bot(MANAGE_CHANNELS | MANAGE_ROLES)
            await prepare_event(fake, players)
            await fake.start_bot()

            def made() -> bool:
                return (
                    count(
                        fake,
                        "SELECT COUNT(*) FROM room_channels"
                        " WHERE channel_id IS NOT NULL AND kind = 'room'",
                    )
                    == tables
                )

            start_rooms = await until(made, 900.0)
            at_start = requests(fake)
            await fake.settled()
            posts_before = len(fake.messages("pairings"))
            started = time.monotonic()
            await fake.slash("round pair", user="organizer", locale="ja", wait=False)

            def given() -> bool:
                return (
                    count(
                        fake, "SELECT COUNT(*) FROM room_channels WHERE kind = 'room' AND round = 1"
                    )
                    == tables
                )

            def posted() -> bool:
                return len(fake.messages("pairings")) > posts_before

            await until(given, 900.0)
            ready = time.monotonic() - started
            await until(posted, 900.0)
            post = time.monotonic() - started
            await fake.settled()
            after = requests(fake)
            traffic = fake.traffic()
            await fake.stop_bot(within=10)
        finally:
            fake.close()
    return {
        "players": players,
        "rooms": tables,
        "start_seconds": start_rooms,
        "start_requests": at_start,
        "ready_seconds": ready,
        "post_seconds": post,
        "round_requests": {k: after[k] - at_start[k] for k in after},
        "429s": traffic.too_many,
        "traffic": traffic,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="16,64,256", help="comma-separated sizes")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-limits", action="store_true", help="a Discord without limits")
    parser.add_argument("--pair-at-once", action="store_true", help="pair as soon as the bot is up")
    args = parser.parse_args()
    if args.pair_at_once:
        for players in [int(size) for size in args.players.split(",")]:
            runs = [
                asyncio.run(run_at_once(players, rate_limits=not args.no_limits))
                for _ in range(args.runs)
            ]
            first = runs[0]

            def middle(key: str, runs: list[dict[str, Any]] = runs) -> float:
                return statistics.median(run[key] for run in runs)

            print(
                f"{players} players, {first['rooms']} rooms, paired at once: the post at "
                f"{middle('post_seconds'):.1f} s naming {first['named_at_first']} rooms; every "
                f"room made and given at {middle('ready_seconds'):.1f} s; the post naming "
                f"them all at {middle('complete_seconds'):.1f} s ({first['requests']})"
            )
            print(f"  429s {first['429s']}")
            print("\n".join("  " + line for line in first["traffic"].lines(top=8)))
        return
    for players in [int(size) for size in args.players.split(",")]:
        runs = [
            asyncio.run(run_once(players, rate_limits=not args.no_limits)) for _ in range(args.runs)
        ]
        first = runs[0]

        def median(key: str, runs: list[dict[str, Any]] = runs) -> float:
            return statistics.median(run[key] for run in runs)

        print(
            f"{players} players, {first['rooms']} rooms: start's rooms made in "
            f"{median('start_seconds'):.1f} s ({first['start_requests']}); the round's rooms "
            f"ready {median('ready_seconds'):.2f} s after /round pair, its post at "
            f"{median('post_seconds'):.2f} s ({first['round_requests']})"
        )
        print(f"  429s {first['429s']}")
        print("\n".join("  " + line for line in first["traffic"].lines(top=8)))


if __name__ == "__main__":
    main()
