"""A simulated Swiss event with random results, paired by the real engine.

Used by `python -m bot simulate` and the benchmark. Results are drawn from one seeded
generator: about 10% time results (random point-zone counts, R-MATCH-2), a few
concessions, the rest plain wins. The clock is passed in (the domain never reads one),
so `seconds` is whatever the caller's clock measured around each pairing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from domain.engine.history import SwissEntrant
from domain.engine.points import match_points
from domain.engine.record import TournamentRecord, result_token
from domain.engine.results import MatchResult, RecordedMatch
from domain.engine.rounds import swiss_rounds
from domain.engine.standings import Standing
from domain.engine.swiss import SwissPairing, pair_swiss_round
from domain.errors import InvalidInput

TIME_RESULT_SHARE = 0.10
CONCESSION_SHARE = 0.02


@dataclass(frozen=True)
class SimulatedMatch:
    players: tuple[str, ...]
    points_before: tuple[int, ...]
    result: str  # a record token (see `domain.engine.record`)


@dataclass(frozen=True)
class SimulatedRound:
    number: int
    seconds: float
    pairing: SwissPairing
    matches: tuple[SimulatedMatch, ...]


@dataclass(frozen=True)
class Simulation:
    rounds: tuple[SimulatedRound, ...]
    record: TournamentRecord

    def standings(self) -> tuple[Standing, ...]:
        return self.record.standings()


def _no_clock() -> float:
    return 0.0


def simulate(
    players: int,
    rounds: int | None = None,
    seed: int = 0,
    clock: Callable[[], float] = _no_clock,
) -> Simulation:
    """Play `rounds` Swiss rounds (default ceil(log2 N)) for players p1..pN."""
    if players < 2:
        raise InvalidInput("engine.simulate.too_few_players", players=players)
    planned = swiss_rounds(players, rounds)
    rng = random.Random(seed)
    names = [f"p{number}" for number in range(1, players + 1)]
    field = _Field(names)
    played: list[SimulatedRound] = []
    matches: list[RecordedMatch] = []
    for number in range(1, planned + 1):
        started = clock()
        pairing = pair_swiss_round(field.entrants(), rng.getrandbits(32), number)
        seconds = clock() - started
        round_matches = _play_round(pairing, rng)
        played.append(
            SimulatedRound(
                number,
                seconds,
                pairing,
                tuple(
                    SimulatedMatch(
                        m.players,
                        tuple(field.points[p] for p in m.players),
                        result_token(m.result, m.players),
                    )
                    for m in round_matches
                ),
            )
        )
        for match in round_matches:
            field.record(match)
        matches.extend(round_matches)
    return Simulation(tuple(played), TournamentRecord(planned, tuple(names), tuple(matches)))


def random_result(players: tuple[str, str], rng: random.Random) -> MatchResult:
    """A plausible result: mostly wins, ~10% time results, a few concessions."""
    roll = rng.random()
    if roll < TIME_RESULT_SHARE:
        counts = (rng.randint(0, 6), rng.randint(0, 6))
        return MatchResult.from_point_zone(players, counts)
    if roll < TIME_RESULT_SHARE + CONCESSION_SHARE:
        return MatchResult.concession(rng.choice(players))
    return MatchResult.win(rng.choice(players))


def _play_round(pairing: SwissPairing, rng: random.Random) -> list[RecordedMatch]:
    number = pairing.round
    matches = [RecordedMatch(number, pair, random_result(pair, rng)) for pair in pairing.pairs]
    if pairing.bye is not None:
        matches.append(RecordedMatch(number, (pairing.bye,), MatchResult.bye()))
    return matches


class _Field:
    """Running points, opponents and byes, updated match by match (cheaper than refolding)."""

    def __init__(self, names: list[str]) -> None:
        self.points = dict.fromkeys(names, 0)
        self.opponents: dict[str, set[str]] = {name: set() for name in names}
        self.byes = dict.fromkeys(names, 0)

    def entrants(self) -> list[SwissEntrant]:
        return [
            SwissEntrant(name, points, frozenset(self.opponents[name]), self.byes[name])
            for name, points in self.points.items()
        ]

    def record(self, match: RecordedMatch) -> None:
        for player, gained in match_points(match.result, match.players).items():
            self.points[player] += gained
        if match.is_bye:
            self.byes[match.players[0]] += 1
        else:
            first, second = match.players
            self.opponents[first].add(second)
            self.opponents[second].add(first)
