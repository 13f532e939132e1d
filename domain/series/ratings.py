"""Player ratings per server, from every Swiss and top-cut match (an opt-in server setting).

The arithmetic is OpenSkill's (the `openskill` package, Weng-Lin's Bayesian rating with
the Plackett-Luce model and its default parameters: a new player starts at μ 25, σ 25/3).
This module only decides which matches count and in which order they are fed to it.

What counts, and why:

- a win, a judgement win, a concession and a time-out draw count: the two players played
  (a concession is a result of play, R-MATCH-4);
- a bye does not: there was no opponent (R-FMT-2);
- a no-show does not (R-MATCH-6): nobody played, so it says nothing about skill;
- a double game loss does not (R-PEN-3): both lost to a penalty, not to each other;
- a match turned into a loss by a penalty (a game loss or a disqualification, R-PEN-3,
  R-PEN-4) does not, unless the penalty was revoked: the rating measures play, and
  penalties have their own record.

Ratings never affect pairings: the engine does not import this module (a test checks it).
The pair is handed to the library in player-id order, so which player a table lists first
cannot change anything, not even by a rounding difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

from domain.engine.results import Outcome, ResultKind
from domain.engine.state import Phase
from domain.tournament.model import Tournament

_MODEL = PlackettLuce()
ORDINAL_Z = 3.0  # the shown rating is μ − 3σ: the skill the player has with 99.7 % certainty


class RatedOutcome(StrEnum):
    """How a match ended, from its first player's side."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    DOUBLE_LOSS = "double_loss"
    BYE = "bye"
    NO_SHOW = "no_show"
    PENALTY = "penalty"  # the result was made by a penalty's game loss

    @property
    def counts(self) -> bool:
        return self in (RatedOutcome.WIN, RatedOutcome.LOSS, RatedOutcome.DRAW)

    def flipped(self) -> RatedOutcome:
        return {RatedOutcome.WIN: RatedOutcome.LOSS, RatedOutcome.LOSS: RatedOutcome.WIN}.get(
            self, self
        )


@dataclass(frozen=True)
class RatedMatch:
    first: int
    second: int | None  # None: a bye
    outcome: RatedOutcome

    def swapped(self) -> RatedMatch:
        """The same match seen from the other side."""
        if self.second is None:
            return self
        return RatedMatch(self.second, self.first, self.outcome.flipped())


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The rating to show and sort by: μ − 3σ (0 for a new player)."""
        return self.mu - ORDINAL_Z * self.sigma


NEW_PLAYER = Rating(_MODEL.mu, _MODEL.sigma)


def update(ratings: Mapping[int, Rating], match: RatedMatch) -> dict[int, Rating]:
    """`ratings` after `match` (unchanged when the match does not count)."""
    updated = dict(ratings)
    if not match.outcome.counts or match.second is None or match.first == match.second:
        return updated
    low, high = sorted((match.first, match.second))
    outcome = match.outcome if low == match.first else match.outcome.flipped()
    ranks = {
        RatedOutcome.WIN: [1.0, 2.0],
        RatedOutcome.LOSS: [2.0, 1.0],
        RatedOutcome.DRAW: [1.0, 1.0],
    }
    before = [updated.get(low, NEW_PLAYER), updated.get(high, NEW_PLAYER)]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=ranks[outcome])
    for player, old, (new,) in zip((low, high), before, after, strict=True):
        updated[player] = Rating(new.mu, new.sigma, old.matches + 1)
    return updated


def rate(
    matches: Iterable[RatedMatch], initial: Mapping[int, Rating] | None = None
) -> dict[int, Rating]:
    """The ratings after `matches`, applied in the order given (the order matters: a rating
    is a belief updated match by match), starting from `initial` (new players: NEW_PLAYER)."""
    ratings = dict(initial or {})
    for match in matches:
        ratings = update(ratings, match)
    return ratings


def rated_matches(tournament: Tournament) -> list[RatedMatch]:
    """The tournament's finished matches, Swiss and top cut, in round then table order."""
    by_penalty = {
        (p.effect.round, p.effect.table)
        for p in tournament.penalties
        if p.effect is not None and not p.revoked
    }
    found: list[RatedMatch] = []
    for played in tournament.rounds:
        for match in played.matches:
            if not match.players or match.result is None:
                continue
            if match.is_bye:
                found.append(RatedMatch(match.players[0], None, RatedOutcome.BYE))
                continue
            first, second = match.players
            outcome = _outcome(match.result.kind, match.result.outcomes(match.ids)[str(first)])
            if (played.number, match.table) in by_penalty:
                outcome = RatedOutcome.PENALTY
            found.append(RatedMatch(first, second, outcome))
    return found


def _outcome(kind: ResultKind, first: Outcome) -> RatedOutcome:
    if kind is ResultKind.NO_SHOW:
        return RatedOutcome.NO_SHOW
    if kind is ResultKind.DOUBLE_LOSS:
        return RatedOutcome.DOUBLE_LOSS
    if first in (Outcome.WIN, Outcome.JUDGEMENT_WIN):
        return RatedOutcome.WIN
    if first is Outcome.DRAW:
        return RatedOutcome.DRAW
    return RatedOutcome.LOSS


def server_ratings(tournaments: Iterable[Tournament]) -> dict[int, Rating]:
    """The ratings of a server's players from its finished tournaments, fed oldest first
    (by event day, then start, then id), each tournament's matches in round order."""
    finished = [t for t in tournaments if t.phase is Phase.FINISHED]
    finished.sort(key=lambda t: (t.event_date, t.started_at or t.created_at, t.id))
    return rate(match for tournament in finished for match in rated_matches(tournament))


def leaderboard(ratings: Mapping[int, Rating]) -> list[tuple[int, Rating]]:
    """Players by rating (ordinal), then by matches played, then by id: a total order."""
    return sorted(ratings.items(), key=lambda item: (-item[1].ordinal, -item[1].matches, item[0]))
