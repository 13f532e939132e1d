"""A whole event through the service layer: `python bench/event.py [--runs 3]`.

1024 players (`--players`) register and submit a deck (data/examples/keion.csv), the
organizer starts the event, and then for each of the 10 rounds (`--rounds`): pair, start
the clock, one player of every table reports a win and the other confirms it (512 tables ×
10 rounds = 5,120 confirmed reports, 10,240 service calls), and the standings are read.
Everything goes through `bot.services.Services` over `open_database(path)` on an SQLite
file on disk (`--folder`, default /tmp), with a fixed clock and seeds like the service
tests. Nothing is faked below the services.

Each run is a fresh child process (so its peak RSS is its own) on a fresh database. The
parent runs `--runs` events per synchronous mode, interleaved (NORMAL, FULL, NORMAL, …) so
both see the same noise, and prints the medians. Beside them it times a fixed pure-Python
workload (the reference) in the same processes: a slow or busy machine shows there too.

    python bench/event.py                          # 3 runs each of NORMAL and FULL
    python bench/event.py --modes NORMAL --runs 5
    python bench/event.py --profile out.html       # one NORMAL run under pyinstrument
    python bench/event.py --modes NORMAL --autocheckpoint 0   # no checkpoints (diagnosis)

Targets: total ≤ 30 s, report p99 ≤ 20 ms, peak RSS ≤ 200 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.services import Services  # noqa: E402
from bot.services.actors import Actor  # noqa: E402
from bot.store.database import open_database  # noqa: E402

GUILD = 1000
ORGANIZER_ROLE = 11
JUDGE_ROLE = 12
NOW = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
DECK = (REPO / "data" / "examples" / "keion.csv").read_bytes()
ADMIN = Actor(user_id=1, guild_id=GUILD, display_name="Admin", manages_guild=True)
ORGANIZER = Actor(2, GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))


def player(number: int) -> Actor:
    return Actor(100 + number, GUILD, f"Player {number}")


def reference_workload() -> float:
    """A fixed CPU-bound job (dicts, strings, small objects, like the bot's own work)."""
    started = time.perf_counter()
    for round_ in range(30):
        table = {n: (str(n), n * round_) for n in range(20_000)}
        sorted(table.items(), key=lambda item: (-item[1][1], item[1][0]))
    return time.perf_counter() - started


def reference_fsync(folder: Path, count: int = 200) -> list[float]:
    """The disk's own fsync time, right after the event, beside the database: what a
    FULL commit pays on top of NORMAL (the VM's disk is shared, so it varies)."""
    times = []
    with open(folder / "fsync-probe", "wb") as probe:
        for _ in range(count):
            probe.write(b"x" * 4096)
            started = time.perf_counter()
            os.fsync(probe.fileno())
            times.append(time.perf_counter() - started)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class Timer:
    def __init__(self) -> None:
        self.calls: dict[str, list[float]] = {}

    async def __call__(self, kind: str, call: Any) -> Any:
        started = time.perf_counter()
        result = await call
        self.calls.setdefault(kind, []).append(time.perf_counter() - started)
        return result


async def run_event(
    path: Path, players: int, rounds: int, synchronous: str, autocheckpoint: int | None = None
) -> dict[str, Any]:
    database = await open_database(path)
    await database.connection.execute(f"PRAGMA synchronous = {synchronous}")
    if autocheckpoint is not None:  # diagnosis only: 0 turns checkpoints off
        await database.connection.execute(f"PRAGMA wal_autocheckpoint = {autocheckpoint}")
    services = Services(database, clock=lambda: NOW, seeds=lambda: 424242)
    timed = Timer()
    started = time.perf_counter()
    await services.guilds.configure(
        ADMIN, organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    summary = await services.tournaments.create(
        ORGANIZER, name="Bench Cup", format="swiss", regulation="single", rounds=rounds
    )
    reference = str(summary.tournament.id)
    for number in range(players):
        await timed("register", services.registration.register(player(number), reference))
    for number in range(players):
        await timed("deck", services.decks.submit(player(number), reference, DECK, "deck.csv"))
    await timed("start", services.lifecycle.start(ORGANIZER, reference))
    for _ in range(rounds):
        paired = await timed("pair", services.rounds.pair(ORGANIZER, reference))
        await timed("clock", services.rounds.start_clock(ORGANIZER, reference))
        tid, number = paired.tournament.id, paired.round.number
        for match in paired.round.matches:
            if len(match.players) != 2:
                continue
            first, second = match.players
            await timed("report", services.rounds.report(player(first - 100), reference, "win"))
            outcome = await timed(
                "confirm", services.rounds.confirm(player(second - 100), tid, number, match.table)
            )
            assert outcome.confirmed
        standings = await timed("standings", services.rounds.standings(GUILD, reference))
        assert standings.after_round == number
    total = time.perf_counter() - started
    await database.close()
    reports = timed.calls["report"] + timed.calls["confirm"]
    return {
        "synchronous": synchronous,
        "total": total,
        "report_count": len(timed.calls["report"]),
        "report_p50": percentile(reports, 0.50),
        "report_p99": percentile(reports, 0.99),
        "report_max": max(reports),
        "standings_median": statistics.median(timed.calls["standings"]),
        "standings_max": max(timed.calls["standings"]),
        "phases": {kind: sum(times) for kind, times in timed.calls.items()},
        "p50": {kind: percentile(times, 0.50) for kind, times in timed.calls.items()},
        "p99": {kind: percentile(times, 0.99) for kind, times in timed.calls.items()},
        # Linux reports ru_maxrss in KiB.
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "report_mean": statistics.fmean(reports),
        "reports_total": sum(reports),
        "reference": reference_workload(),
    }


def child(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        path = Path(folder) / "bench.sqlite3"
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler()
            with profiler:
                result = asyncio.run(
                    run_event(
                        path, args.players, args.rounds, args.synchronous, args.autocheckpoint
                    )
                )
            Path(args.profile).write_text(profiler.output_html(), encoding="utf-8")
            print(profiler.output_text(color=False, show_all=False), file=sys.stderr)
        else:
            result = asyncio.run(
                run_event(path, args.players, args.rounds, args.synchronous, args.autocheckpoint)
            )
        fsyncs = reference_fsync(Path(folder))
        result["fsync_p50"] = percentile(fsyncs, 0.50)
        result["fsync_p99"] = percentile(fsyncs, 0.99)
    print(json.dumps(result))


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3, help="events per synchronous mode")
    parser.add_argument("--modes", nargs="+", default=["NORMAL", "FULL"])
    parser.add_argument("--folder", type=Path, help="where the database goes (default /tmp)")
    parser.add_argument("--profile", help="write a pyinstrument HTML profile of one run here")
    parser.add_argument(
        "--autocheckpoint", type=int, help="PRAGMA wal_autocheckpoint (diagnosis; 0: never)"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--synchronous", default="NORMAL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    common = [f"--players={args.players}", f"--rounds={args.rounds}"]
    if args.folder:
        common.append(f"--folder={args.folder}")
    if args.autocheckpoint is not None:
        common.append(f"--autocheckpoint={args.autocheckpoint}")
    if args.profile:
        common.append(f"--profile={args.profile}")
        args.runs, args.modes = 1, args.modes[:1]
    results: dict[str, list[dict[str, Any]]] = {mode: [] for mode in args.modes}
    for run in range(args.runs):
        for mode in args.modes:
            command = [sys.executable, __file__, "--child", f"--synchronous={mode}", *common]
            output = subprocess.run(command, check=True, capture_output=True, text=True)
            if args.profile:
                print(output.stderr)
            result = json.loads(output.stdout)
            results[mode].append(result)
            print(
                f"run {run + 1} {mode:6}: total {result['total']:.2f} s,"
                f" report p50 {ms(result['report_p50'])} p99 {ms(result['report_p99'])},"
                f" register p50 {ms(result['p50']['register'])}"
                f" p99 {ms(result['p99']['register'])},"
                f" standings {ms(result['standings_median'])},"
                f" peak RSS {result['peak_rss_mb']:.0f} MB,"
                f" reference {result['reference']:.2f} s,"
                f" fsync p50 {ms(result['fsync_p50'])} p99 {ms(result['fsync_p99'])}",
                flush=True,
            )
    print(
        f"\n{args.players} players, {args.rounds} rounds,"
        f" {results[args.modes[0]][0]['report_count']} confirmed reports;"
        f" medians of {args.runs} runs (Python {sys.version.split()[0]})\n"
    )
    rows = [
        ("total", lambda r: f"{r['total']:.2f} s"),
        ("report + confirm p50", lambda r: ms(r["report_p50"])),
        ("report + confirm p99", lambda r: ms(r["report_p99"])),
        ("report + confirm mean", lambda r: ms(r["report_mean"])),
        ("report + confirm, sum of all calls", lambda r: f"{r['reports_total']:.2f} s"),
        ("register p50", lambda r: ms(r["p50"]["register"])),
        ("register p99", lambda r: ms(r["p99"]["register"])),
        ("deck submit p50", lambda r: ms(r["p50"]["deck"])),
        ("deck submit p99", lambda r: ms(r["p99"]["deck"])),
        ("pair (per round)", lambda r: ms(r["p50"]["pair"])),
        ("standings (per round)", lambda r: ms(r["standings_median"])),
        ("peak RSS", lambda r: f"{r['peak_rss_mb']:.0f} MB"),
        ("reference workload (CPU)", lambda r: f"{r['reference']:.2f} s"),
        ("reference fsync p50 (disk)", lambda r: ms(r["fsync_p50"])),
        ("reference fsync p99 (disk)", lambda r: ms(r["fsync_p99"])),
    ]
    print("| synchronous | " + " | ".join(args.modes) + " |")
    print("|---|" + "---:|" * len(args.modes))
    for label, show in rows:
        cells = []
        for mode in args.modes:
            shown = [show(r) for r in results[mode]]
            # The median run by that figure (the values are formatted, so sort by number).
            numbers = sorted(shown, key=lambda text: float(text.split()[0]))
            cells.append(numbers[len(numbers) // 2])
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
