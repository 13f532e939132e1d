"""Swiss pairing speed: `python bench/bench_swiss.py [--sizes 64 256 1024 4096] [--reps 7]`.

For each field size it simulates an event (real pairing, random results with ~10% time
results) and takes the standings going into rounds 4, 5 and 6: realistic mid-event score
distributions. Each of those inputs is paired `--reps` times with different seeds; the
median is the figure to hold against the target (4096 players ≤ 0.1 s on 2 cores).
Beside it, `networkx.max_weight_matching` solves the same inputs on the full graph (same
objective: fewest rematches, then fewest groups crossed), once per input, for sizes up to
`--nx-max` only: it is O(n³) and takes tens of seconds at 1024.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.engine import (
    Player,
    SwissEntrant,
    SwissPairing,
    entrants_from_history,
    pair_swiss_round,
    simulate,
)

MEASURED_ROUNDS = (4, 5, 6)


def mid_event_inputs(players: int, seed: int) -> list[list[SwissEntrant]]:
    event = simulate(players, max(MEASURED_ROUNDS), seed=seed)
    roster = [Player(name) for name in event.record.players]
    return [
        entrants_from_history(roster, [m for m in event.record.matches if m.round < number])
        for number in MEASURED_ROUNDS
    ]


def time_engine(inputs: list[list[SwissEntrant]], reps: int) -> tuple[list[float], SwissPairing]:
    times = []
    pairing = None
    for index, entrants in enumerate(inputs):
        for rep in range(reps):
            started = time.perf_counter()
            pairing = pair_swiss_round(entrants, seed=1000 * index + rep, round_number=4 + index)
            times.append(time.perf_counter() - started)
    assert pairing is not None
    return times, pairing


def time_fold(inputs: list[list[SwissEntrant]], players: int, seed: int) -> float:
    """Time to fold the history into entrants (what a service does before pairing)."""
    event = simulate(players, max(MEASURED_ROUNDS), seed=seed)
    roster = [Player(name) for name in event.record.players]
    history = [m for m in event.record.matches if m.round < max(MEASURED_ROUNDS)]
    started = time.perf_counter()
    entrants_from_history(roster, history)
    return time.perf_counter() - started


def networkx_solve(entrants: list[SwissEntrant], bye: str | None) -> tuple[float, int, int]:
    """Time the tests' reference optimum (networkx on the full graph) on the same input."""
    from tests.domain.engine.support import networkx_optimum

    started = time.perf_counter()
    rematches, crossed_total = networkx_optimum(entrants, bye)
    return time.perf_counter() - started, rematches, crossed_total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--nx-max", type=int, default=256, help="largest size networkx runs on")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}; rounds {MEASURED_ROUNDS}; {args.reps} reps each")
    header = (
        f"{'players':>7}  {'median s':>9}  {'max s':>8}  {'fold s':>7}  "
        f"{'nx median s':>11}  {'quality (engine vs nx: rematches, crossed)':<40}"
    )
    print(header)
    skipped = []
    for size in args.sizes:
        inputs = mid_event_inputs(size, args.seed)
        times, _ = time_engine(inputs, args.reps)
        fold = time_fold(inputs, size, args.seed)
        nx_text, quality = "skipped", ""
        if size <= args.nx_max:
            nx_times, notes = [], []
            for index, entrants in enumerate(inputs):
                mine = pair_swiss_round(entrants, seed=index, round_number=4 + index)
                seconds, rematches, crossed = networkx_solve(entrants, mine.bye)
                nx_times.append(seconds)
                notes.append(
                    f"{len(mine.rematches)},{mine.groups_crossed} vs {rematches},{crossed}"
                )
            nx_text = f"{statistics.median(nx_times):.3f}"
            quality = "; ".join(notes)
        else:
            skipped.append(size)
        print(
            f"{size:>7}  {statistics.median(times):>9.4f}  {max(times):>8.4f}  {fold:>7.4f}  "
            f"{nx_text:>11}  {quality:<40}"
        )
    if skipped:
        print(f"networkx skipped at {', '.join(map(str, skipped))} players (over --nx-max)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
