"""Swiss pairing speed: `python bench/pairing.py [--sizes 64 256 1024 4096 8192] [--reps 7]`.

For each field size it simulates an event (real pairing, random results with ~10% time
results) and takes the standings going into rounds 4, 5 and 6: realistic mid-event score
distributions. Each of those inputs is paired `--reps` times with different seeds; the
median is the figure to hold against the target (4096 players under 0.02 s).

Beside it, on the same inputs:
- the time to fold the match history into pairing input (`entrants_from_history`, what
  a service does before pairing), median of `--reps`;
- `networkx.max_weight_matching` on the full graph with the same objective (fewest
  rematches, then fewest groups crossed; the tests' reference), once per input, for
  sizes up to `--nx-max` (default 256: it is O(n³), tens of seconds at 1024), and the
  quality of the engine's pairing against it;
- a fixed pure-Python workload (`reference`), timed in the same run: the machine is
  shared and noisy, so compare runs by their ratio to it, not by seconds alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.engine import (
    Player,
    RecordedMatch,
    SwissEntrant,
    entrants_from_history,
    pair_swiss_round,
    simulate,
)

MEASURED_ROUNDS = (4, 5, 6)


def reference_workload() -> float:
    """Seconds for a fixed pure-Python job (sorting 200k seeded floats)."""
    rng = random.Random(7)
    values = [rng.random() for _ in range(200_000)]
    started = time.perf_counter()
    sorted(values)
    return time.perf_counter() - started


def mid_event(
    players: int, seed: int
) -> tuple[list[Player], list[RecordedMatch], list[list[SwissEntrant]]]:
    event = simulate(players, max(MEASURED_ROUNDS), seed=seed)
    roster = [Player(name) for name in event.record.players]
    matches = list(event.record.matches)
    inputs = [
        entrants_from_history(roster, [m for m in matches if m.round < number])
        for number in MEASURED_ROUNDS
    ]
    return roster, matches, inputs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096, 8192])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--nx-max", type=int, default=256, help="largest size networkx runs on")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from tests.domain.engine.support import networkx_optimum

    references = [reference_workload() for _ in range(args.reps)]
    print(
        f"Python {sys.version.split()[0]}; rounds {MEASURED_ROUNDS}; {args.reps} reps each; "
        f"reference (sort 200k floats) median {statistics.median(references):.4f} s"
    )
    print(
        f"{'players':>7}  {'median s':>9}  {'max s':>8}  {'fold s':>7}  {'nx median s':>11}  "
        "quality (engine vs networkx: rematches, groups crossed)"
    )
    for size in args.sizes:
        roster, matches, inputs = mid_event(size, args.seed)
        times = []
        for index, entrants in enumerate(inputs):
            for rep in range(args.reps):
                started = time.perf_counter()
                pair_swiss_round(entrants, seed=1000 * index + rep, round_number=4 + index)
                times.append(time.perf_counter() - started)
        folds = []
        history = [m for m in matches if m.round < max(MEASURED_ROUNDS)]
        for _ in range(args.reps):
            started = time.perf_counter()
            entrants_from_history(roster, history)
            folds.append(time.perf_counter() - started)
        nx_text, quality = "skipped", "networkx skipped (over --nx-max)"
        if size <= args.nx_max:
            nx_times, notes = [], []
            for index, entrants in enumerate(inputs):
                mine = pair_swiss_round(entrants, seed=index, round_number=4 + index)
                started = time.perf_counter()
                rematches, crossed = networkx_optimum(entrants, mine.bye)
                nx_times.append(time.perf_counter() - started)
                same = (len(mine.rematches), mine.groups_crossed) == (rematches, crossed)
                notes.append(
                    f"{len(mine.rematches)},{mine.groups_crossed} vs {rematches},{crossed}"
                    + ("" if same else " WORSE")
                )
            nx_text = f"{statistics.median(nx_times):.3f}"
            quality = "; ".join(notes)
        print(
            f"{size:>7}  {statistics.median(times):>9.4f}  {max(times):>8.4f}  "
            f"{statistics.median(folds):>7.4f}  {nx_text:>11}  {quality}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
