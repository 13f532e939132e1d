"""A soak test: `python bench/soak.py [--operations 10000]`.

Runs event after event through `bot.services.Services` over `open_database(path)` on an
SQLite file on disk, until `--operations` service calls (and standings page renders) have
been made. Each event: a tournament is created and configured, `--players` members register
(some cancel and come back), check and submit decks (one illegal list each event), the
start is previewed and made; then every round is paired and its clock started, and per
table a report and its confirmation, or a report disputed and set by a judge, or a result
set by a judge alone; a judge call claimed and resolved; a penalty previewed and confirmed,
one revoked, one undone; a table extended; a drop and an undrop, a drop for good; status,
"my match", the standings read and rendered as pages (both languages), autocomplete, the
players list, the action log and the penalty list; at the end the event is finished and
exported. A refusal by the rules (a `DomainError`) counts as an operation; anything else
stops the soak.

Measured: RSS after every 100 operations and the peak (ru_maxrss); RSS at the 2,000th and
at the last operation, each after a full garbage collection: the check is that it stays
within 10%. Open file descriptors, asyncio tasks and threads before the first operation and
after the last (no leak). `--tracemalloc` also lists where memory grew between the two.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402
from bot.ui.rounds import standing_rows  # noqa: E402
from bot.ui.standings import standings_page  # noqa: E402
from bot.worker import off_loop  # noqa: E402
from domain.errors import DomainError  # noqa: E402

T = TypeVar("T")

GUILD = 1000
ORGANIZER_ROLE = 11
JUDGE_ROLE = 12
START = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
# Five copies of 01-001 (R-DECK-2): refused.
ILLEGAL = DECK.decode().replace("4,けいおん！,01-001", "5,けいおん！,01-001", 1).encode()
ADMIN = Actor(user_id=1, guild_id=GUILD, display_name="Admin", manages_guild=True)
ORGANIZER = Actor(2, GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
JUDGE = Actor(3, GUILD, "Judge", frozenset({JUDGE_ROLE}))
CHECKPOINT = 2000  # the RSS at this operation is the baseline


def player(number: int) -> Actor:
    return Actor(100 + number, GUILD, f"Player {number}")


def rss_mb() -> float:
    """The resident set size now (Linux /proc), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


class Clock:
    """A clock that moves a second per operation, so timestamps and timers advance."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1.0) -> None:
        self.now += timedelta(seconds=seconds)


class Soak:
    def __init__(self, services: Services, clock: Clock, target: int, trace: bool) -> None:
        self.services = services
        self.clock = clock
        self.target = target
        self.trace = trace
        self.done = 0
        self.kinds: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.samples: list[tuple[int, float]] = []
        self.at_checkpoint: float | None = None
        self.snapshot: tracemalloc.Snapshot | None = None
        self.timings: dict[str, list[float]] = {}

    @property
    def finished(self) -> bool:
        return self.done >= self.target

    async def op(self, kind: str, call: Awaitable[T]) -> T | None:
        """One operation: run it, count it, sample memory. A refusal by the rules is
        counted and gives None."""
        started = time.perf_counter()
        try:
            result: T | None = await call
        except DomainError as error:
            self.refused[f"{kind} ({error.key})"] += 1
            result = None
        self.timings.setdefault(kind, []).append(time.perf_counter() - started)
        self.kinds[kind] += 1
        self.done += 1
        self.clock.tick()
        if self.done % 100 == 0:
            self.samples.append((self.done, rss_mb()))
        if self.done == CHECKPOINT:
            gc.collect()
            self.at_checkpoint = rss_mb()
            if self.trace:
                self.snapshot = tracemalloc.take_snapshot()
        return result

    def render(self, kind: str, rows: Any, title: str, pages: int) -> None:
        """Standings pages as the bot renders them (an embed each), counted as operations."""
        for lang in ("ja", "en"):
            for page in range(pages):
                started = time.perf_counter()
                standings_page(rows, title, lang, page)
                self.timings.setdefault(kind, []).append(time.perf_counter() - started)
                self.kinds[kind] += 1
                self.done += 1

    async def event(self, number: int, players: int, rounds: int) -> None:
        s, name = self.services, f"Soak Cup {number}"
        first = number * 1000
        entrants = [player(first + n) for n in range(players)]
        created = await self.op(
            "create",
            s.tournaments.create(
                ORGANIZER, name=name, format="swiss", regulation="single", rounds=rounds
            ),
        )
        assert created is not None
        tid = created.tournament.id
        ref = str(tid)
        await self.op("settings", s.tournaments.update_settings(ORGANIZER, ref, checkin_minutes=0))
        for actor in entrants:
            await self.op("register", s.registration.register(actor, ref))
        for actor in entrants[:2]:  # cancel, and come back
            await self.op("unregister", s.registration.unregister(actor, ref))
            await self.op("register", s.registration.register(actor, ref))
        await self.op("deck check", s.decks.check(entrants[0], ref, DECK, "deck.csv"))
        await self.op("deck submit", s.decks.submit(entrants[1], ref, ILLEGAL, "deck.csv"))
        for actor in entrants:
            await self.op("deck submit", s.decks.submit(actor, ref, DECK, "deck.csv"))
        await self.op("deck show", s.decks.show(entrants[0], ref, None))
        await self.op("autocomplete", s.tournaments.autocomplete(GUILD, "soak", "ja"))
        await self.op("players", s.registration.players(GUILD, ref))
        await self.op("start preview", s.lifecycle.preview(ORGANIZER, ref))
        await self.op("start", s.lifecycle.start(ORGANIZER, ref))
        dropped: set[int] = set()
        for round_number in range(1, rounds + 1):
            paired = await self.op("pair", s.rounds.pair(ORGANIZER, ref))
            assert paired is not None
            await self.op("clock", s.rounds.start_clock(ORGANIZER, ref))
            await self.op("status", s.rounds.status(ORGANIZER, ref))
            tables = [m for m in paired.round.matches if len(m.players) == 2]
            for index, match in enumerate(tables):
                await self.table(ref, tid, paired.round.number, match, index)
            await self.judging(ref, tid, entrants, round_number)
            if round_number == 1:  # one drops and comes back, one drops for good
                back, gone = entrants[-1], entrants[-2]
                await self.op("drop", s.rounds.drop(back, ref))
                await self.op("undrop", s.rounds.undrop(ORGANIZER, ref, back.user_id))
                await self.op("drop", s.rounds.drop(gone, ref))
                dropped.add(gone.user_id)
            standings = await self.op("standings", s.rounds.standings(GUILD, ref))
            assert standings is not None
            rows = standing_rows(standings.lines)
            self.render("standings page", rows, name, pages=2)
            await self.op("autocomplete", s.tournaments.autocomplete(GUILD, "", "en"))
            await self.op("info", s.tournaments.info(ORGANIZER, ref))
        await self.op("finish", s.rounds.finish(ORGANIZER, ref))
        await self.op("export", s.rounds.export(ORGANIZER, ref))
        await self.op("judge log", s.judges.log(JUDGE, ref))

    async def table(self, ref: str, tid: int, number: int, match: Any, index: int) -> None:
        s = self.services
        first, second = (Actor(p, GUILD, f"Player {p - 100}") for p in match.players)
        if index % 7 == 3:  # a disputed report, decided by a judge
            await self.op("report", s.rounds.report(first, ref, "win"))
            await self.op("dispute", s.rounds.dispute(second, tid, number, match.table, "no"))
            await self.op(
                "judge result",
                s.rounds.set_result(
                    JUDGE, ref, table=match.table, choice="win", player=second.user_id
                ),
            )
        elif index % 7 == 5:  # nobody reports; the judge sets it
            await self.op("my match", s.rounds.my_match(first, ref))
            await self.op(
                "judge result",
                s.rounds.set_result(JUDGE, ref, table=match.table, choice="double_loss"),
            )
        else:
            claim = "concede" if index % 7 == 1 else "win"
            await self.op("report", s.rounds.report(first, ref, claim))
            await self.op("confirm", s.rounds.confirm(second, tid, number, match.table))

    async def judging(self, ref: str, tid: int, entrants: list[Actor], number: int) -> None:
        s = self.services
        caller = entrants[number % len(entrants)]
        called = await self.op("judge call", s.judges.call(caller, ref, "a question"))
        if called is not None:
            call_id = called.call.id
            await self.op("judge claim", s.judges.claim(JUDGE, tid, call_id))
            await self.op("judge resolve", s.judges.resolve(JUDGE, tid, call_id, 0))
        target = entrants[(number * 3) % len(entrants)].user_id
        for penalty, then in (("caution", "keep"), ("caution", "revoke"), ("warning", "undo")):
            preview = await self.op(
                "penalty preview",
                s.judges.preview_penalty(JUDGE, ref, target, penalty, "rules_error", "soak"),
            )
            if preview is None:
                continue
            given = await self.op("penalty confirm", s.judges.confirm(JUDGE, preview.pending_id))
            if then == "revoke" and given is not None:
                penalty_id = given.penalty.id  # type: ignore[union-attr]
                await self.op("penalty revoke", s.judges.revoke(ORGANIZER, ref, penalty_id))
            elif then == "undo":
                undo = await self.op("undo preview", s.judges.preview_undo(ORGANIZER, ref))
                if undo is not None:
                    await self.op("undo confirm", s.judges.confirm(ORGANIZER, undo.pending_id))
        await self.op("penalties", s.judges.penalties(JUDGE, ref, None))


async def soak(args: argparse.Namespace, path: Path) -> dict[str, Any]:
    if args.tracemalloc:
        tracemalloc.start(10)
    database = await open_database(path)
    clock = Clock()
    services = Services(database, clock=clock, seeds=lambda: 424242)
    await services.guilds.configure(
        ADMIN, organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    # What starts once, on first use, is started before counting: the reading connection
    # (its thread and files) and the worker thread. Only what grows with the operations is
    # a leak.
    async with database.read():
        pass
    await off_loop(lambda: None)
    gc.collect()
    before = {
        "descriptors": open_descriptors(),
        "tasks": len(asyncio.all_tasks()),
        "threads": threading.active_count(),
        "rss": rss_mb(),
    }
    run = Soak(services, clock, args.operations, args.tracemalloc)
    started = time.perf_counter()
    number = 0
    while not run.finished:
        number += 1
        await run.event(number, args.players, args.rounds)
    seconds = time.perf_counter() - started
    gc.collect()
    after = {
        "descriptors": open_descriptors(),
        "tasks": len(asyncio.all_tasks()),
        "threads": threading.active_count(),
        "rss": rss_mb(),
    }
    growth: list[str] = []
    if run.snapshot is not None:
        stats = tracemalloc.take_snapshot().compare_to(run.snapshot, "traceback")
        for stat in stats[:8]:
            growth.append(f"{stat.size_diff / 1024:+.0f} KiB {stat.count_diff:+d} blocks")
            growth.extend(f"    {line}" for line in stat.traceback.format()[-6:])
    await database.close()
    # aiosqlite's close resolves from inside its thread, which then still has to return: a
    # thread that ends is waited for (up to a second), one that leaks is still counted.
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(timeout=1.0)
    after["descriptors after close"] = open_descriptors()
    after["threads after close"] = threading.active_count()
    return {
        "events": number,
        "operations": run.done,
        "seconds": seconds,
        "kinds": run.kinds,
        "refused": run.refused,
        "samples": run.samples,
        "rss_checkpoint": run.at_checkpoint,
        "rss_end": after["rss"],
        "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "before": before,
        "after": after,
        "growth": growth,
        "p50": {k: statistics.median(v) for k, v in run.timings.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=24, help="per event")
    parser.add_argument("--rounds", type=int, default=4, help="per event")
    parser.add_argument("--folder", type=Path, help="where the database goes (default /tmp)")
    parser.add_argument("--tracemalloc", action="store_true", help="list where memory grew")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        path = Path(folder) / "soak.sqlite3"
        result = asyncio.run(soak(args, path))
        result["database_mb"] = path.stat().st_size / 2**20
    print(
        f"{result['operations']} operations in {result['events']} events,"
        f" {result['seconds']:.1f} s; database {result['database_mb']:.1f} MB"
    )
    print("operations:", ", ".join(f"{k} {n}" for k, n in sorted(result["kinds"].items())))
    if result["refused"]:
        print("refused by the rules:", dict(result["refused"]))
    print("RSS every 1,000 operations (MB):")
    print("  " + " ".join(f"{rss:.1f}" for done, rss in result["samples"] if done % 1000 == 0))
    start, end = result["rss_checkpoint"] or result["samples"][0][1], result["rss_end"]
    change = (end - start) / start
    print(
        f"RSS at operation {CHECKPOINT}: {start:.1f} MB; at the end: {end:.1f} MB"
        f" ({change:+.1%}); peak RSS {result['peak_rss']:.1f} MB"
    )
    before, after = result["before"], result["after"]
    for key in ("descriptors", "tasks", "threads"):
        print(f"{key}: {before[key]} before, {after[key]} after")
    print(
        f"after close: {after['descriptors after close']} descriptors,"
        f" {after['threads after close']} threads"
    )
    for line in result["growth"]:
        print(line)
    flat = abs(change) <= 0.10
    no_leak = all(after[key] <= before[key] for key in ("descriptors", "tasks", "threads"))
    print(f"RSS flat within 10%: {'yes' if flat else 'NO'}; no leak: {'yes' if no_leak else 'NO'}")
    return 0 if flat and no_leak else 1


if __name__ == "__main__":
    sys.exit(main())
