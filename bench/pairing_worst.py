"""Swiss pairing, worst case: `python bench/pairing_worst.py [--quick] [--jobs 2]`.

Plays whole events through the real engine for every field size from 4 to 300 and
sampled sizes up to 8192, rounds 1 to ceil(log2 n)+3, several seeds and four result
patterns (random results, all draws, a third double losses, 25% of players dropping
after each round), and times every round's `pair_swiss_round`.

Quality is checked on every round: no avoidable second bye, and for fields up to
`--nx-max` players the rematches and groups crossed equal the exact optimum from
`networkx.max_weight_matching` on the full graph (the tests' reference); when the pairing
has a rematch and a bye, the rematches also equal the fewest over every bye choice.
Larger fields are reported as "at bound" when they have no rematch and cross exactly the
lower bound (provably optimal) and "unchecked" otherwise.

The sweep itself may run in `--jobs` processes; the slowest rounds it finds are then
timed again one at a time, `--reps` runs each, and ranked by their median, so a noisy
neighbour cannot invent or hide a slow case. `--quick` samples every 7th size up to 300,
one seed, networkx up to 64 players (a few minutes); the default is the full sweep.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.engine import SwissEntrant, SwissPairing, pair_swiss_round
from tests.domain.engine.support import (
    PATTERNS,
    fewest_rematches_any_bye,
    networkx_optimum,
    play_event,
)

LARGE_SIZES = (384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192)
RETIME_OVER = 0.01  # rounds slower than this on the first pass keep their input
MAX_RETIMED = 5000


@dataclass
class Round:
    size: int
    pattern: str
    seed: int
    round: int
    players: int
    seconds: float
    rematches: int
    crossed: int
    lower_bound: int
    quality: str  # "optimal", "at bound", "unchecked" or what is wrong
    entrants: list[SwissEntrant] | None = field(default=None, repr=False)
    pair_seed: int = 0
    median: float | None = None


def rounds_for(size: int) -> int:
    return (size - 1).bit_length() + 3


def quality(entrants: list[SwissEntrant], pairing: SwissPairing, nx_max: int) -> str:
    problems = []
    bye = next((e for e in entrants if e.player == pairing.bye), None)
    if bye is not None and bye.byes and any(e.byes == 0 for e in entrants):
        problems.append("avoidable second bye")
    if len(entrants) <= nx_max:
        rematches, crossed = networkx_optimum(entrants, pairing.bye)
        if len(pairing.rematches) != rematches:
            problems.append(f"rematches {len(pairing.rematches)} vs optimum {rematches}")
        if pairing.groups_crossed != crossed:
            problems.append(f"crossed {pairing.groups_crossed} vs optimum {crossed}")
        if pairing.rematches and pairing.bye is not None:
            fewest = fewest_rematches_any_bye(entrants)
            if len(pairing.rematches) != fewest:
                problems.append(f"rematches {len(pairing.rematches)} vs any bye {fewest}")
        return "; ".join(problems) or "optimal"
    if problems:
        return "; ".join(problems)
    if not pairing.rematches and pairing.groups_crossed == pairing.lower_bound:
        return "at bound"
    return "unchecked"


def sweep_event(task: tuple[int, str, int, int]) -> list[Round]:
    """Every round of one event: (size, pattern, seed, nx_max)."""
    size, pattern, seed, nx_max = task
    result, drop_rate = PATTERNS[pattern]
    timings: list[float] = []
    seeds: list[int] = []

    def timed(entrants: list[SwissEntrant], pair_seed: int, number: int) -> SwissPairing:
        started = time.perf_counter()
        pairing = pair_swiss_round(entrants, pair_seed, number)
        timings.append(time.perf_counter() - started)
        seeds.append(pair_seed)
        return pairing

    rounds = []
    for played in play_event(size, rounds_for(size), seed, drop_rate, result, timed):
        seconds = timings[-1]
        pairing = played.pairing
        rounds.append(
            Round(
                size,
                pattern,
                seed,
                played.number,
                len(played.entrants),
                seconds,
                len(pairing.rematches),
                pairing.groups_crossed,
                pairing.lower_bound,
                quality(played.entrants, pairing, nx_max),
                played.entrants if seconds > RETIME_OVER else None,
                seeds[-1],
            )
        )
    return rounds


def retime(case: Round, reps: int) -> float:
    """Median of `reps` runs of the same input and seed."""
    assert case.entrants is not None
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        pair_swiss_round(case.entrants, case.pair_seed, case.round)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def reference_job() -> float:
    """Seconds for a fixed pure-Python job (sorting 50k seeded floats), timed between the
    re-runs: how fast the shared machine was at the time."""
    rng = random.Random(7)
    values = [rng.random() for _ in range(50_000)]
    started = time.perf_counter()
    sorted(values)
    return time.perf_counter() - started


def tasks(args: argparse.Namespace) -> Iterator[tuple[int, str, int, int]]:
    # Largest first so the process pool ends on short tasks.
    for size in sorted(args.sizes, reverse=True):
        for pattern in args.patterns:
            for seed in range(args.seeds):
                yield size, pattern, seed, args.nx_max


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a sample: a few minutes")
    parser.add_argument("--sizes", type=int, nargs="+")
    parser.add_argument("--seeds", type=int, help="seeds 0..N-1 per size and pattern")
    parser.add_argument("--patterns", nargs="+", choices=sorted(PATTERNS), default=list(PATTERNS))
    parser.add_argument("--nx-max", type=int, help="largest field checked against networkx")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the sweep")
    parser.add_argument("--reps", type=int, default=7, help="runs when re-timing slow rounds")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--limit", type=float, default=0.05, help="target seconds a round")
    args = parser.parse_args()
    if args.sizes is None:
        args.sizes = list(range(4, 301, 7 if args.quick else 1)) + list(LARGE_SIZES)
    if args.seeds is None:
        args.seeds = 1 if args.quick else 3
    if args.nx_max is None:
        args.nx_max = 64 if args.quick else 128

    started = time.perf_counter()
    work = list(tasks(args))
    rounds: list[Round] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for event in pool.map(sweep_event, work):
                rounds.extend(event)
    else:
        for task in work:
            rounds.extend(sweep_event(task))
    swept = time.perf_counter() - started

    # Every round over the limit on the first pass (the pool's first pass is noisy), and
    # at least the slowest 2 * top.
    slow = sorted((r for r in rounds if r.entrants is not None), key=lambda r: -r.seconds)
    over_first = sum(r.seconds > args.limit for r in slow)
    references = []
    for case in slow[: min(max(args.top * 2, over_first), MAX_RETIMED)]:
        references.append(reference_job())
        case.median = retime(case, args.reps)
    references.append(reference_job())
    ranked = sorted(rounds, key=lambda r: -(r.median if r.median is not None else r.seconds))

    print(
        f"Python {sys.version.split()[0]}; {len(args.sizes)} sizes "
        f"{min(args.sizes)}-{max(args.sizes)}, {args.seeds} seed(s), patterns "
        f"{', '.join(args.patterns)}; rounds up to ceil(log2 n)+3; networkx up to "
        f"{args.nx_max} players; {len(rounds)} rounds swept in {swept:.0f} s"
    )
    print(
        f"reference job (sort 50k floats) between the re-runs: median "
        f"{statistics.median(references):.4f} s, max {max(references):.4f} s"
    )
    print(f"\nslowest rounds (median of {args.reps} re-runs; first-pass time beside it):")
    print(
        f"{'size':>5} {'pattern':<13} {'seed':>4} {'round':>5} {'paired':>6} "
        f"{'median s':>9} {'first s':>8} {'rematch':>7} {'crossed':>7} {'bound':>5}  quality"
    )
    for case in ranked[: args.top]:
        median = f"{case.median:.4f}" if case.median is not None else "-"
        print(
            f"{case.size:>5} {case.pattern:<13} {case.seed:>4} {case.round:>5} "
            f"{case.players:>6} {median:>9} {case.seconds:>8.4f} {case.rematches:>7} "
            f"{case.crossed:>7} {case.lower_bound:>5}  {case.quality}"
        )
    over = [r for r in rounds if (r.median if r.median is not None else r.seconds) > args.limit]
    checked = [r for r in rounds if r.quality == "optimal"]
    bad = [r for r in rounds if r.quality not in ("optimal", "at bound", "unchecked")]
    unchecked = [r for r in rounds if r.quality == "unchecked"]
    print(f"\nrounds over {args.limit} s (median): {len(over)} of {len(rounds)}")
    print(f"quality: {len(checked)} rounds equal to the networkx optimum, ", end="")
    print(
        f"{sum(r.quality == 'at bound' for r in rounds)} larger ones at the lower bound, ", end=""
    )
    print(f"{len(unchecked)} unchecked, {len(bad)} worse than optimal")
    for case in bad[:20]:
        print(f"  WORSE: {case.size} {case.pattern} seed {case.seed} round {case.round}: ", end="")
        print(case.quality)
    for case in unchecked[:10]:
        print(
            f"  unchecked: {case.size} {case.pattern} seed {case.seed} round {case.round}: ", end=""
        )
        print(f"rematches {case.rematches}, crossed {case.crossed}, bound {case.lower_bound}")
    return 1 if bad or over else 0


if __name__ == "__main__":
    sys.exit(main())
