"""The final placings of a finished Swiss event with a top 8: `final_standings` (what
`/tournament finish` posts) timed at several field sizes.

    .venv/bin/python bench/placings.py                 # 256, 1024, 4096 players
    .venv/bin/python bench/placings.py --sizes 4096 --reps 7

The event is simulated by the engine (random results, about 10% time results), turned into
a finished tournament with a top 8 played at random, and `final_standings` is timed
`--reps` times; the table shows its median and fastest, and beside them the median of
`swiss_standings` alone (the points and tiebreaks every view needs), so that the last
column is what placing the top cut and the ties costs. Only the public model,
`swiss_standings` and `final_standings` are used, so the script also runs against an older
checkout (`PYTHONPATH=that/checkout python bench/placings.py`) to compare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from functools import partial

from domain.engine.elimination import next_round, top_cut
from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult
from domain.engine.simulate import simulate
from domain.engine.standings import strict_order
from domain.engine.state import Phase, TournamentState
from domain.event import EventConfig, EventFormat
from domain.tournament.model import Entry, Tournament
from domain.tournament.play import swiss_standings
from domain.tournament.rounds import Match, Round, RoundKind
from domain.tournament.views import final_standings

AT = datetime(2026, 12, 1, tzinfo=UTC)


def finished_event(players: int, seed: int) -> Tournament:
    event = simulate(players, seed=seed)
    record = event.record
    ids = {name: int(name[1:]) for name in record.players}
    rounds: list[Round] = []
    for number in range(1, record.rounds + 1):
        matches = tuple(
            Match(
                table,
                tuple(ids[p] for p in m.players),
                replace(m.result, player=str(ids[m.result.player]) if m.result.player else None),
            )
            for table, m in enumerate((m for m in record.matches if m.round == number), start=1)
        )
        rounds.append(Round(number, RoundKind.SWISS, seed, AT, matches))
    strict = strict_order(record.standings(), seed)
    bracket = top_cut(strict, 8)
    rng = random.Random(seed)
    slots = [tuple(ids[p] for p in slot.players) for slot in bracket.first_round]
    number = record.rounds
    while True:
        number += 1
        played = tuple(
            Match(table, players, MatchResult.win(str(rng.choice(players))))
            for table, players in enumerate(slots, start=1)
        )
        rounds.append(Round(number, RoundKind.ELIMINATION, seed, AT, played))
        if len(played) == 1:
            break
        winners = [str(w) if (w := m.result and m.result.player) else None for m in played]
        slots = [tuple(int(p) for p in slot.players) for slot in next_round(winners)]
    entries = {user: Entry(user, name, PlayerStatus.ACTIVE, user, AT) for name, user in ids.items()}
    config = EventConfig("Bench", EventFormat.SWISS_TOP_CUT, "mix", date(2026, 12, 1), top_cut=8)
    return Tournament(
        id=1,
        guild_id=1,
        config=config,
        created_by=1,
        created_at=AT,
        state=TournamentState(phase=Phase.FINISHED, planned_rounds=record.rounds),
        seed=seed,
        players=entries,
        rounds=tuple(rounds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 4096])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    print(f"{'players':>8}  {'median s':>9}  {'fastest s':>9}  {'standings s':>11}  {'rest s':>7}")
    for size in args.sizes:
        tournament = finished_event(size, seed=size)
        final = _times(partial(final_standings, tournament), args.reps)
        swiss = statistics.median(_times(partial(swiss_standings, tournament), args.reps))
        median = statistics.median(final)
        rest = median - swiss
        print(f"{size:>8}  {median:>9.4f}  {min(final):>9.4f}  {swiss:>11.4f}  {rest:>7.4f}")


def _times(job: Callable[[], object], reps: int) -> list[float]:
    times = []
    for _ in range(reps):
        started = time.perf_counter()
        job()
        times.append(time.perf_counter() - started)
    return times


if __name__ == "__main__":
    main()
