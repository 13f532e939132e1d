"""Penalties (R-PEN) and judge calls (R-MATCH-7, R-MATCH-8): the data and the pure rules.

A judge decides every penalty (R-PEN-7); the bot only suggests one, from the regulation's
examples and the player's earlier penalties in the event (lines 231 and 247, R-PEN-2). A game loss
turns the player's match of the current round into a loss, and when both players receive
one, both lose (R-PEN-3); a disqualification ends the player's event from then on, and
loses only a match without a final result (R-PEN-4, line 271).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from domain.engine.results import MatchResult

MAX_PENALTY_ID = 100_000  # penalties are numbered 1, 2, … within a tournament
CALL_COOLDOWN = timedelta(seconds=60)  # one call a minute per player stops spam
REPING_AFTER = timedelta(minutes=3)  # an unclaimed call is pinged once more


class PenaltyType(StrEnum):
    CAUTION = "caution"  # 注意, R-PEN-1
    WARNING = "warning"  # 警告, R-PEN-2
    GAME_LOSS = "game_loss"  # 敗北, R-PEN-3
    DISQUALIFICATION = "disqualification"  # 失格, R-PEN-4

    @property
    def rule(self) -> str:
        return {
            PenaltyType.CAUTION: "R-PEN-1",
            PenaltyType.WARNING: "R-PEN-2",
            PenaltyType.GAME_LOSS: "R-PEN-3",
            PenaltyType.DISQUALIFICATION: "R-PEN-4",
        }[self]

    @property
    def loses_the_match(self) -> bool:
        return self in (PenaltyType.GAME_LOSS, PenaltyType.DISQUALIFICATION)


class Infraction(StrEnum):
    """What the penalty is for: R-PEN-5's kinds of cheating, stalling, sleeves, an illegal
    deck, or something else the judge describes in the reason."""

    OUTSIDE_ASSISTANCE = "outside_assistance"
    LOOKING_AT_CARDS = "looking_at_cards"  # while shuffling
    COLLUSION = "collusion"  # colluding on a result (R-MATCH-3)
    RULES_ERROR = "rules_error"  # playing rules or cards wrongly
    EXTRA_CARDS = "extra_cards"  # drawing extra cards
    DECK_MANIPULATION = "deck_manipulation"
    MISSTATED_INFORMATION = "misstated_information"  # public information (R-PEN-6)
    LYING_TO_JUDGE = "lying_to_judge"
    STALLING = "stalling"  # 遅延行為, R-PEN-8
    MARKED_SLEEVES = "marked_sleeves"  # R-PEN-9
    ILLEGAL_DECK = "illegal_deck"  # R-DECK-5
    OTHER = "other"

    @property
    def rule(self) -> str:
        return {
            Infraction.STALLING: "R-PEN-8",
            Infraction.MARKED_SLEEVES: "R-PEN-9",
            Infraction.ILLEGAL_DECK: "R-DECK-5",
            Infraction.OTHER: "R-PEN-7",
        }.get(self, "R-PEN-5")


@dataclass(frozen=True)
class MatchEffect:
    """What a game loss did to a match, so that revoking it can put the result back."""

    round: int
    table: int
    before: MatchResult | None


@dataclass(frozen=True)
class Penalty:
    id: int
    player_id: int
    type: PenaltyType
    infraction: Infraction
    reason: str
    round: int
    given_by: int
    at: datetime
    effect: MatchEffect | None = None
    revoked: bool = False


@dataclass(frozen=True)
class JudgeCall:
    id: int
    player_id: int
    round: int
    table: int | None
    reason: str
    called_at: datetime
    claimed_by: int | None = None
    claimed_at: datetime | None = None
    resolved_by: int | None = None
    resolved_at: datetime | None = None
    extension_minutes: int = 0

    @property
    def open(self) -> bool:
        return self.resolved_at is None

    def waited(self, now: datetime) -> timedelta:
        """How long the players waited for a judge (R-MATCH-7: extensions follow it)."""
        return (self.claimed_at or now) - self.called_at

    def suggested_extension(self, now: datetime) -> int:
        """Whole minutes waited, at least 1: the judge picks the extension."""
        return max(1, math.ceil(self.waited(now).total_seconds() / 60))


@dataclass(frozen=True)
class Suggestion:
    type: PenaltyType
    rule: str
    earlier: int  # earlier penalties of the player in this event


# The regulation's own examples of each level (lines 239-274): where such an infraction
# starts. The others have no example, so only their repeats get a suggestion. Line 256
# also lists a card used at the wrong timing under 警告: a rules error starts at the
# lighter of its two examples.
STARTING_LEVEL: dict[Infraction, PenaltyType] = {
    Infraction.RULES_ERROR: PenaltyType.CAUTION,  # line 240: wrong cost or timing
    Infraction.EXTRA_CARDS: PenaltyType.WARNING,  # line 250: 「誤って、余分にカードを引いて」
    Infraction.ILLEGAL_DECK: PenaltyType.GAME_LOSS,  # line 266, R-DECK-5
    Infraction.COLLUSION: PenaltyType.GAME_LOSS,  # line 267, R-MATCH-3
}
LEVELS = tuple(PenaltyType)  # lightest first
SEVERAL = 2  # line 247: 「①注意が複数回課せられた後」


def suggest_penalty(earlier: Sequence[Penalty], infraction: Infraction) -> Suggestion | None:
    """A suggestion for the judge, who decides (R-PEN-7), or None when the bot has nothing
    to go on: the heaviest of the infraction's starting level in the regulation's examples
    and its repeat's level. A repeat after a warning or more is suggested one level above
    the heaviest standing penalty already given for the same infraction (line 231:
    「より厳しい罰則」); a caution-level violation stays a caution until the player has had
    several cautions, then a warning (line 247: 「①注意が複数回課せられた後」, R-PEN-2)."""
    standing = [p for p in earlier if not p.revoked]
    candidates: list[PenaltyType] = []
    start = STARTING_LEVEL.get(infraction)
    if start is not None:
        candidates.append(start)
    repeated = [LEVELS.index(p.type) for p in standing if p.infraction is infraction]
    heaviest = LEVELS[max(repeated)] if repeated else None
    if heaviest is not None and heaviest is not PenaltyType.CAUTION:
        candidates.append(LEVELS[min(LEVELS.index(heaviest) + 1, len(LEVELS) - 1)])
    caution_level = PenaltyType.CAUTION in (start, heaviest)
    if caution_level:
        cautions = sum(1 for p in standing if p.type is PenaltyType.CAUTION)
        candidates.append(PenaltyType.WARNING if cautions >= SEVERAL else PenaltyType.CAUTION)
    if not candidates:
        return None
    suggested = max(candidates, key=LEVELS.index)
    return Suggestion(suggested, suggested.rule, len(standing))
