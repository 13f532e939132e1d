"""Rounds, matches and result reports: the data of a running event.

A match's `players` are in table order: two players, one (a bye), or none (an empty
bracket slot after a double loss, kept so the bracket keeps its shape). Results are the
engine's `MatchResult`, naming players by their id as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from domain.engine.results import MatchResult, ResultKind


class RoundKind(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"  # R-FMT-1: the top cut, or a whole elimination event


class Claim(StrEnum):
    """What a player reports about their own match (R-MATCH-2 to R-MATCH-4).

    There is deliberately no agreed draw (R-MATCH-3).
    """

    WIN = "win"  # 勝ち, including a game that ended during the extra turns
    LOSE = "lose"  # 負け
    CONCEDE = "concede"  # 投了: the reporter conceded
    TIME = "time"  # 時間切れ: both point-zone counts decide (判定勝ち or a draw)


@dataclass(frozen=True)
class Report:
    """A player's report, waiting for their opponent's confirmation."""

    player_id: int
    result: MatchResult
    at: datetime


@dataclass(frozen=True)
class Match:
    table: int
    players: tuple[int, ...]
    result: MatchResult | None = None
    advancing: int | None = None  # elimination: who goes on, when the result alone cannot say
    reports: tuple[Report, ...] = ()
    disputed: bool = False
    extension_minutes: int = 0  # R-MATCH-7: this table's extra time

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def ids(self) -> tuple[str, ...]:
        """The players as the engine names them."""
        return tuple(str(player) for player in self.players)

    def opponent_of(self, player_id: int) -> int | None:
        others = [player for player in self.players if player != player_id]
        return others[0] if len(self.players) == 2 and others else None


@dataclass(frozen=True)
class Round:
    number: int
    kind: RoundKind
    seed: int
    paired_at: datetime
    matches: tuple[Match, ...]
    started_at: datetime | None = None  # the clock (R-MATCH-1)
    ends_at: datetime | None = None

    def finished(self, match: Match) -> bool:
        """Whether the match needs nothing more: a result, and in elimination someone who
        goes on (a time draw waits for the judge's decision, R-FMT-1)."""
        if not match.players:
            return True
        if match.result is None:
            return False
        return not (
            self.kind is RoundKind.ELIMINATION
            and match.result.kind is ResultKind.TIME_DRAW
            and match.advancing is None
        )

    @property
    def missing_tables(self) -> list[int]:
        return [match.table for match in self.matches if not self.finished(match)]

    @property
    def complete(self) -> bool:
        return not self.missing_tables

    def match_of(self, player_id: int) -> Match | None:
        for match in self.matches:
            if player_id in match.players:
                return match
        return None

    def match_at(self, table: int) -> Match | None:
        for match in self.matches:
            if match.table == table:
                return match
        return None

    def table_ends_at(self, match: Match) -> datetime | None:
        """When this table's time is up: the round's end plus the table's extension."""
        if self.ends_at is None:
            return None
        return self.ends_at + timedelta(minutes=match.extension_minutes)

    def advancing(self) -> list[int | None]:
        """Elimination: who goes on from each slot, in slot order (None: nobody)."""
        found: list[int | None] = []
        for match in self.matches:
            if match.advancing is not None:
                found.append(match.advancing)
            elif match.result is None:
                found.append(match.players[0] if match.is_bye else None)
            else:
                winner = match.result.winner(match.ids)
                found.append(int(winner) if winner is not None else None)
        return found
