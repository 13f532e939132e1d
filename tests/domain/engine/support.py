"""Helpers for the engine tests: play random events and compute networkx optima."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import networkx as nx

from domain.engine import (
    MatchResult,
    RecordedMatch,
    SwissEntrant,
    SwissPairing,
    match_points,
    pair_swiss_round,
)
from domain.engine.simulate import random_result

Result = Callable[[tuple[str, str], random.Random], MatchResult]
Pairer = Callable[[list[SwissEntrant], int, int], SwissPairing]


def draws_only(players: tuple[str, str], rng: random.Random) -> MatchResult:
    """Every match a time draw: the field stays in one or two points groups."""
    return MatchResult.time_draw()


def many_double_losses(players: tuple[str, str], rng: random.Random) -> MatchResult:
    """A third of matches double losses (R-PEN-3), the rest as `random_result`."""
    return MatchResult.double_loss() if rng.random() < 1 / 3 else random_result(players, rng)


# Result patterns for property tests and the worst-case benchmark: (result, drop rate).
PATTERNS: dict[str, tuple[Result, float]] = {
    "random": (random_result, 0.0),
    "draws": (draws_only, 0.0),
    "double_losses": (many_double_losses, 0.0),
    "drops": (random_result, 0.25),
}


@dataclass
class RoundUnderTest:
    number: int
    entrants: list[SwissEntrant]
    pairing: SwissPairing


def play_event(
    players: int,
    rounds: int,
    seed: int,
    drop_rate: float = 0.0,
    result: Result = random_result,
    pair: Pairer = pair_swiss_round,
) -> Iterator[RoundUnderTest]:
    """Pair `rounds` rounds of p1..pN with `result`s, yielding each round's input/output.

    After each round every player drops with probability `drop_rate` (R-FMT-7). `pair`
    stands in for `pair_swiss_round` (the benchmark passes a timed one).
    """
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(1, players + 1)]
    active = set(names)
    points = dict.fromkeys(names, 0)
    opponents: dict[str, set[str]] = {name: set() for name in names}
    byes = dict.fromkeys(names, 0)
    for number in range(1, rounds + 1):
        entrants = [
            SwissEntrant(name, points[name], frozenset(opponents[name]), byes[name])
            for name in names
            if name in active
        ]
        if not entrants:
            return
        pairing = pair(entrants, rng.getrandbits(32), number)
        yield RoundUnderTest(number, entrants, pairing)
        if pairing.bye is not None:
            points[pairing.bye] += 3
            byes[pairing.bye] += 1
        for first, second in pairing.pairs:
            match = RecordedMatch(number, (first, second), result((first, second), rng))
            for player, gained in match_points(match.result, match.players).items():
                points[player] += gained
            opponents[first].add(second)
            opponents[second].add(first)
        active -= {name for name in sorted(active) if rng.random() < drop_rate}


def groups_crossed(entrants: Sequence[SwissEntrant], pairs: Sequence[tuple[str, str]]) -> int:
    """Sum over pairs of the points-group boundaries between the two players."""
    paired = {p for pair in pairs for p in pair}
    levels = sorted({e.points for e in entrants if e.player in paired}, reverse=True)
    index = {points: i for i, points in enumerate(levels)}
    points = {e.player: e.points for e in entrants}
    return sum(abs(index[points[a]] - index[points[b]]) for a, b in pairs)


def lower_bound(entrants: Sequence[SwissEntrant], bye: str | None) -> int:
    """Number of group boundaries with an odd number of players above them."""
    scores = sorted((e.points for e in entrants if e.player != bye), reverse=True)
    levels = sorted(set(scores), reverse=True)
    return sum(sum(1 for s in scores if s >= level) % 2 for level in levels[:-1])


def networkx_optimum(entrants: Sequence[SwissEntrant], bye: str | None) -> tuple[int, int]:
    """(fewest rematches, then fewest groups crossed) for the field without `bye`,
    from `networkx.max_weight_matching` on the full graph."""
    field = [e for e in entrants if e.player != bye]
    if not field:
        return (0, 0)
    levels = sorted({e.points for e in field}, reverse=True)
    index = {points: i for i, points in enumerate(levels)}
    crossing_weight = len(field) * len(levels) + 1
    rematch_weight = crossing_weight * crossing_weight
    graph = nx.Graph()
    for a, first in enumerate(field):
        for second in field[a + 1 :]:
            crossed = abs(index[first.points] - index[second.points])
            rematch = second.player in first.opponents
            graph.add_edge(
                first.player,
                second.player,
                weight=-(rematch * rematch_weight + crossed * crossing_weight),
                rematch=rematch,
                crossed=crossed,
            )
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert len(matching) * 2 == len(field)
    rematches = sum(graph.edges[a, b]["rematch"] for a, b in matching)
    crossed_total = sum(graph.edges[a, b]["crossed"] for a, b in matching)
    return rematches, crossed_total


def rematch_count(entrants: Sequence[SwissEntrant], pairs: Sequence[tuple[str, str]]) -> int:
    met = {e.player: e.opponents for e in entrants}
    return sum(1 for a, b in pairs if b in met[a])


def fewest_rematches_any_bye(entrants: Sequence[SwissEntrant]) -> int:
    """The fewest rematches over every allowed bye choice (players without a bye first)."""
    eligible = [e.player for e in entrants if e.byes == 0] or [e.player for e in entrants]
    return min(networkx_optimum(entrants, bye)[0] for bye in eligible)


def bye_match(player: str, number: int) -> RecordedMatch:
    return RecordedMatch(number, (player,), MatchResult.bye())
