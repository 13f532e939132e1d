"""Standings (R-FMT-4, R-FMT-5): points, then opponents' points; ties share a rank.

Opponents' points are the sum of the *current* points of every opponent a player was
paired against (a double loss or a no-show still counts as an opponent: the pairing
happened). A bye counts as an opponent with 3 × planned rounds ÷ 2 points, kept exact
as a `Fraction` (7.5 in a 5-round event). Dropped and disqualified players stay in the
standings, marked by their status.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from domain.engine.history import Tally, tally, tally_history
from domain.engine.players import Player, PlayerStatus
from domain.engine.results import RecordedMatch, ResultKind


class NoShowTiebreak(StrEnum):
    """How a win against an absent opponent counts in the winner's opponents' points
    (the open question of R-MATCH-6 with R-FMT-4): the organizer's setting."""

    REAL_POINTS = "real_points"  # the absent player's points, like any opponent (default)
    BYE_VALUE = "bye_value"  # 3 × rounds ÷ 2, like a bye


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: int
    opponents_points: Fraction
    status: PlayerStatus = PlayerStatus.ACTIVE

    @property
    def dropped(self) -> bool:
        """Marked in the standings: no longer playing (dropped or disqualified)."""
        return self.status is not PlayerStatus.ACTIVE

    @property
    def sort_key(self) -> tuple[int, Fraction]:
        return (self.points, self.opponents_points)


def bye_opponent_points(planned_rounds: int) -> Fraction:
    """R-FMT-4: a bye's opponent is worth 3 × rounds ÷ 2 points."""
    return Fraction(3 * planned_rounds, 2)


def player_points(players: Sequence[Player], matches: Iterable[RecordedMatch]) -> dict[str, int]:
    """Current points of every player; late-entry losses score 0 (R-FMT-2)."""
    points, _, _ = tally_history(players, matches)
    return points


def build_standings(
    players: Sequence[Player],
    matches: Iterable[RecordedMatch],
    planned_rounds: int,
    *,
    no_show_as_bye: bool = False,
    folded: Tally | None = None,
) -> tuple[Standing, ...]:
    """Standings of `players` after `matches`, best first, with shared ranks ("1, 2, 2, 4").

    Players equal on points and opponents' points keep their registration order within
    their shared rank; use `strict_order` when prizes need a single order. `folded`: the
    matches already tallied for `players` (`tally`), to fold them once for several views.
    """
    history = list(matches)
    folded = folded if folded is not None else tally(players, history)
    points, opponents, byes = folded.points, folded.opponents, folded.byes
    # Opponents' points are whole or halves (a bye counts 3 × rounds ÷ 2): they are summed
    # and ordered as whole numbers of halves, and made fractions once, at the end.
    bye_halves = 2 * bye_opponent_points(planned_rounds)
    assert bye_halves.denominator == 1
    halves: list[int] = []
    for player in players:
        player_id = player.id
        halves.append(
            2 * sum([points[o] for o in opponents[player_id]])
            + byes[player_id] * bye_halves.numerator
        )
    if no_show_as_bye:
        # The open question of R-MATCH-6 with R-FMT-4, settled by the organizer: a win
        # against an absent opponent (不戦勝) may count that opponent like a bye, not by
        # their points.
        at = {player.id: index for index, player in enumerate(players)}
        for match in history:
            if match.result.kind is ResultKind.NO_SHOW and match.result.player is not None:
                absent = match.result.player
                winner = next(p for p in match.players if p != absent)
                halves[at[winner]] += bye_halves.numerator - 2 * points[absent]
    order = sorted(range(len(players)), key=lambda i: (-points[players[i].id], -halves[i], i))
    ranked: list[Standing] = []
    rank = 1
    previous: tuple[int, int] | None = None
    for position, index in enumerate(order, start=1):
        player = players[index]
        key = (points[player.id], halves[index])
        if key != previous:
            rank, previous = position, key
        ranked.append(
            Standing(
                rank=rank,
                player=player.id,
                points=key[0],
                opponents_points=Fraction(key[1], 2),
                status=player.status,
            )
        )
    return tuple(ranked)


def strict_order(standings: Sequence[Standing], seed: int) -> tuple[Standing, ...]:
    """R-FMT-5: one rank per player, ties broken by a random draw from a recorded seed.

    Only on the organizer's request (e.g. for prizes). The same seed gives the same order.
    """
    rng = random.Random(seed)
    ordered: list[Standing] = []
    for group in _tied_groups(standings):
        shuffled = list(group)
        rng.shuffle(shuffled)
        ordered.extend(shuffled)
    return tuple(with_rank(row, index) for index, row in enumerate(ordered, start=1))


def with_rank(row: Standing, rank: int) -> Standing:
    """`row` at `rank` (itself when it is there already: most lines of 4,096 are)."""
    if row.rank == rank:
        return row
    return Standing(
        rank=rank,
        player=row.player,
        points=row.points,
        opponents_points=row.opponents_points,
        status=row.status,
    )


def _tied_groups(standings: Sequence[Standing]) -> list[list[Standing]]:
    groups: list[list[Standing]] = []
    for row in standings:
        if groups and groups[-1][0].sort_key == row.sort_key:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups
