"""Series, ratings and imports at a year's scale: medians of a few runs.

    .venv/bin/python bench/series.py            # 52 weekly events of 64, 1000-row import
    .venv/bin/python bench/series.py --reps 9 --events 104 --players 128

Times `series_standings` over a season's placings, `rate` over every match of those events
(Swiss rounds as random pairs), and `plan_import` of a CSV with `--rows` rows. Synthetic
inputs from a fixed seed; the same run times a fixed pure-Python job (sorting 200k floats)
as a reference for how fast the machine was.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta

from domain.entry_import import plan_import
from domain.series.placings import EventPlacing, EventResult
from domain.series.ratings import RatedMatch, RatedOutcome, rate
from domain.series.standings import series_standings


def median_seconds(job: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def season(events: int, players: int, rng: random.Random) -> list[EventResult]:
    pool = list(range(1, players * 3))
    found = []
    for number in range(1, events + 1):
        field = rng.sample(pool, players)
        placings = tuple(
            EventPlacing(p, f"P{p}", rank, rng.randint(0, 15), arrival=rank)
            for rank, p in enumerate(field, start=1)
        )
        found.append(
            EventResult(
                number, f"第{number}回", date(2026, 1, 1) + timedelta(weeks=number), placings
            )
        )
    return found


def matches(events: int, players: int, rounds: int, rng: random.Random) -> list[RatedMatch]:
    outcomes = [RatedOutcome.WIN, RatedOutcome.LOSS, RatedOutcome.DRAW]
    found = []
    for _ in range(events * rounds):
        field = rng.sample(range(1, players * 3), players)
        for a, b in zip(field[::2], field[1::2], strict=True):
            found.append(RatedMatch(a, b, rng.choice(outcomes)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=52)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(2026)
    results = season(args.events, args.players, rng)
    played = matches(args.events, args.players, args.rounds, rng)
    members = list(range(10**17, 10**17 + args.rows))
    csv_text = "Discord ID,ハンドルネーム\n" + "".join(f"{m},H{m % 100000}\n" for m in members)
    floats = [rng.random() for _ in range(200_000)]
    rows = [
        ("reference: sort 200k floats", median_seconds(lambda: sorted(floats), args.reps)),
        (
            f"series_standings: {args.events} events x {args.players} players",
            median_seconds(lambda: series_standings(results), args.reps),
        ),
        (f"rate: {len(played)} matches", median_seconds(lambda: rate(played), args.reps)),
        (
            f"plan_import: {args.rows} rows",
            median_seconds(lambda: plan_import(csv_text, names={}, members=members), args.reps),
        ),
    ]
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds * 1000:9.1f} ms")


if __name__ == "__main__":
    main()
