"""Match results (R-MATCH-2 to R-MATCH-4, R-PEN-3) and what each player got from them.

A result is stored as what happened at the table (a win, a time-out with point-zone counts,
a concession, …); `outcomes` turns it into one `Outcome` per player, which is all that
scoring needs. There is deliberately no way to record an agreed draw (R-MATCH-3): a draw
only comes from a time-out with equal point-zone counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.errors import InvalidInput

# R-MATCH-2: seven cards in the point zone end the game, so a time-out sees 0 to 6.
MAX_POINT_ZONE = 6


class Outcome(StrEnum):
    """What one player got from one match."""

    WIN = "win"
    JUDGEMENT_WIN = "judgement_win"
    DRAW = "draw"
    JUDGEMENT_LOSS = "judgement_loss"
    LOSS = "loss"
    BYE = "bye"


class ResultKind(StrEnum):
    WIN = "win"  # played to the end
    JUDGEMENT = "judgement"  # R-MATCH-2: time ran out, fewer point-zone cards won
    TIME_DRAW = "time_draw"  # R-MATCH-2: time ran out with equal counts
    CONCESSION = "concession"  # R-MATCH-4
    BYE = "bye"  # R-FMT-2: no opponent
    DOUBLE_LOSS = "double_loss"  # R-PEN-3: both players got a game loss
    NO_SHOW = "no_show"  # R-MATCH-6: a player was not seated


@dataclass(frozen=True)
class MatchResult:
    """How a match ended.

    `player` names the winner (WIN, JUDGEMENT), the conceding player (CONCESSION) or the
    absent player (NO_SHOW). `point_zone` keeps the counts of a time-out, in match order,
    when they are known (a replay record may only say who won by judgement).
    Build results with the class methods, which check them.
    """

    kind: ResultKind
    player: str | None = None
    point_zone: tuple[int, int] | None = None

    @classmethod
    def win(cls, winner: str) -> MatchResult:
        return cls(ResultKind.WIN, winner)

    @classmethod
    def judgement(cls, winner: str) -> MatchResult:
        return cls(ResultKind.JUDGEMENT, winner)

    @classmethod
    def time_draw(cls) -> MatchResult:
        return cls(ResultKind.TIME_DRAW)

    @classmethod
    def from_point_zone(cls, players: tuple[str, str], counts: tuple[int, int]) -> MatchResult:
        """R-MATCH-2: fewer cards in the point zone wins by judgement; equal is a draw."""
        for player, count in zip(players, counts, strict=True):
            if not 0 <= count <= MAX_POINT_ZONE:
                raise InvalidInput(
                    "engine.result.point_zone_out_of_range",
                    rule="R-MATCH-2",
                    player=player,
                    count=count,
                    maximum=MAX_POINT_ZONE,
                )
        first, second = counts
        if first == second:
            return cls(ResultKind.TIME_DRAW, None, counts)
        winner = players[0] if first < second else players[1]
        return cls(ResultKind.JUDGEMENT, winner, counts)

    @classmethod
    def concession(cls, conceding: str) -> MatchResult:
        return cls(ResultKind.CONCESSION, conceding)

    @classmethod
    def bye(cls) -> MatchResult:
        return cls(ResultKind.BYE)

    @classmethod
    def double_loss(cls) -> MatchResult:
        return cls(ResultKind.DOUBLE_LOSS)

    @classmethod
    def no_show(cls, absent: str) -> MatchResult:
        return cls(ResultKind.NO_SHOW, absent)

    def outcomes(self, players: tuple[str, ...]) -> dict[str, Outcome]:
        """One outcome per player of the match; raises if the result does not fit it."""
        if self.kind is ResultKind.BYE:
            if len(players) != 1:
                raise InvalidInput("engine.result.bye_needs_one_player", players=len(players))
            return {players[0]: Outcome.BYE}
        if len(players) != 2 or players[0] == players[1]:
            raise InvalidInput("engine.result.needs_two_players", players=len(players))
        if self.kind is ResultKind.TIME_DRAW:
            return dict.fromkeys(players, Outcome.DRAW)
        if self.kind is ResultKind.DOUBLE_LOSS:
            return dict.fromkeys(players, Outcome.LOSS)
        if self.player not in players:
            raise InvalidInput(
                "engine.result.player_not_in_match", player=str(self.player), rule="R-MATCH-2"
            )
        return self._decided_outcomes(players, self.player)

    def _decided_outcomes(self, players: tuple[str, ...], named: str) -> dict[str, Outcome]:
        other = players[1] if players[0] == named else players[0]
        if self.kind is ResultKind.WIN:
            return {named: Outcome.WIN, other: Outcome.LOSS}
        if self.kind is ResultKind.JUDGEMENT:
            return {named: Outcome.JUDGEMENT_WIN, other: Outcome.JUDGEMENT_LOSS}
        # CONCESSION and NO_SHOW name the player who loses.
        return {named: Outcome.LOSS, other: Outcome.WIN}

    def winner(self, players: tuple[str, ...]) -> str | None:
        """The player who won, or None for a draw or a double loss."""
        for player, outcome in self.outcomes(players).items():
            if outcome in (Outcome.WIN, Outcome.JUDGEMENT_WIN, Outcome.BYE):
                return player
        return None


@dataclass(frozen=True)
class RecordedMatch:
    """A finished Swiss match: its round, its players (one for a bye) and its result."""

    round: int
    players: tuple[str, ...]
    result: MatchResult

    def outcomes(self) -> dict[str, Outcome]:
        return self.result.outcomes(self.players)

    @property
    def is_bye(self) -> bool:
        return self.result.kind is ResultKind.BYE
