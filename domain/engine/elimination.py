"""Single elimination (R-FMT-1): brackets, top-cut seeding, and who advances from a match.

Brackets have a power-of-two size; when the field is smaller, the top seeds get byes.
Seeds are placed in the standard order (for 8: 1v8, 4v5, 2v7, 3v6), so the top two
seeds can only meet in the final.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.engine.results import MatchResult, ResultKind
from domain.engine.standings import Standing
from domain.errors import InvalidInput


@dataclass(frozen=True)
class BracketMatch:
    """A bracket slot: two players, one (a bye: they advance), or none (both lost)."""

    players: tuple[str, ...]

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True)
class Bracket:
    """The seeds (best first) and the first round's matches in bracket order."""

    seeds: tuple[str, ...]
    size: int
    first_round: tuple[BracketMatch, ...]

    @property
    def rounds(self) -> int:
        return (self.size - 1).bit_length()


class DecisionMethod(StrEnum):
    """How the judge decided a drawn elimination match (R-FMT-5 names both)."""

    PLAYOFF = "playoff"
    RANDOM_DRAW = "random_draw"


@dataclass(frozen=True)
class DrawDecision:
    winner: str
    method: DecisionMethod


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a power-of-two `size`: 8 → 1,8,4,5,2,7,3,6."""
    if size < 1 or size & (size - 1):
        raise InvalidInput("engine.elimination.bad_size", size=size)
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def seeded_bracket(seeds: Sequence[str]) -> Bracket:
    """A bracket for any number of players, best seed first; byes go to the top seeds."""
    if len(seeds) < 2:
        raise InvalidInput("engine.elimination.too_few_players", players=len(seeds), rule="R-FMT-1")
    if len(set(seeds)) != len(seeds):
        raise InvalidInput("engine.elimination.duplicate_player", rule="R-FMT-1")
    size = 1 << (len(seeds) - 1).bit_length()
    order = bracket_order(size)
    matches = []
    for index in range(0, size, 2):
        present = tuple(seeds[s - 1] for s in order[index : index + 2] if s <= len(seeds))
        matches.append(BracketMatch(present))
    return Bracket(tuple(seeds), size, tuple(matches))


def top_cut(standings: Sequence[Standing], size: int) -> Bracket:
    """Seed the best `size` players still in the event from Swiss standings.

    A tie across the cut line must be settled first (R-FMT-5): pass standings put in a
    strict order (`strict_order`) or raise the cut.
    """
    eligible = [row for row in standings if not row.dropped]
    if size < 2 or size > len(eligible):
        raise InvalidInput(
            "engine.elimination.bad_top_cut", size=size, players=len(eligible), rule="R-FMT-1"
        )
    last_in = eligible[size - 1]
    first_out = eligible[size] if size < len(eligible) else None
    if first_out is not None and last_in.rank == first_out.rank:
        raise InvalidInput(
            "engine.elimination.tie_at_cut", rank=last_in.rank, size=size, rule="R-FMT-5"
        )
    return seeded_bracket([row.player for row in eligible[:size]])


def random_bracket(players: Sequence[str], seed: int) -> Bracket:
    """A standalone bracket seeded at random from `seed` (sorted first so input order is moot)."""
    seeds = sorted(players)
    random.Random(seed).shuffle(seeds)
    return seeded_bracket(seeds)


def advancing_player(
    match: BracketMatch, result: MatchResult | None = None, decision: DrawDecision | None = None
) -> str | None:
    """Who goes on from `match`: the winner, the bye, or nobody after a double loss (R-PEN-3).

    A drawn match (a time-out with equal counts) has no winner by itself: the judge must
    decide it, and `decision` records who won and how (R-FMT-1, R-FMT-5).
    """
    if match.is_bye:
        return match.players[0]
    if not match.players:
        return None
    if result is None:
        raise InvalidInput("engine.elimination.missing_result", players=" - ".join(match.players))
    winner = result.winner(match.players)
    if result.kind is ResultKind.TIME_DRAW:
        if decision is None:
            raise InvalidInput(
                "engine.elimination.draw_needs_winner",
                players=" - ".join(match.players),
                rule="R-FMT-1",
            )
        if decision.winner not in match.players:
            raise InvalidInput(
                "engine.elimination.decision_not_in_match", player=decision.winner, rule="R-FMT-1"
            )
        return decision.winner
    return winner


def next_round(advancing: Sequence[str | None]) -> tuple[BracketMatch, ...]:
    """The next round's matches from the previous round's advancing players, in slot order."""
    if len(advancing) < 2 or len(advancing) % 2:
        raise InvalidInput("engine.elimination.bad_round", slots=len(advancing))
    return tuple(
        BracketMatch(tuple(p for p in advancing[i : i + 2] if p is not None))
        for i in range(0, len(advancing), 2)
    )
