"""The organizer's next steps: which of them the rules allow now. The staff's panel enables
exactly these buttons; pressing one applies the same operation as the command, so the
rules decide again (a panel shown a moment ago may be out of date)."""

from __future__ import annotations

from enum import StrEnum

from domain.engine.state import Phase
from domain.event import EventFormat
from domain.tournament.model import Tournament
from domain.tournament.play import finish_allowed, pairing_kind
from domain.tournament.registration import start_allowed
from domain.tournament.rounds import RoundKind


class Step(StrEnum):
    START = "start"  # close registration and start (after its preview)
    PAIR = "pair"  # pair the next round (Swiss, or the next bracket round)
    TOP_CUT = "top_cut"  # pair the top cut, once the Swiss rounds are played
    START_CLOCK = "clock"  # start the current round's clock
    NEXT_ROUND = "next"  # pair the next round and start its clock, in one press
    POST_STANDINGS = "standings"  # post the standings to the standings channel
    FINISH = "finish"
    EXPORT = "export"


def next_steps(tournament: Tournament) -> frozenset[Step]:
    """The steps the rules allow now, as the staff's panel offers them."""
    phase = tournament.phase
    steps: set[Step] = set()
    if phase is Phase.CANCELLED:
        return frozenset()  # 中止: nothing is left to do
    if phase is Phase.REGISTRATION:
        # Not while the start would be refused (too few left once those without a list or
        # a check-in are dropped): the panel's counts say why.
        return frozenset({Step.START}) if start_allowed(tournament) else frozenset()
    steps.add(Step.EXPORT)
    if any(r.complete for r in tournament.swiss_rounds):
        steps.add(Step.POST_STANDINGS)
    if phase is Phase.FINISHED:
        return frozenset(steps)
    current = tournament.current
    if current is not None and current.started_at is None:
        steps.add(Step.START_CLOCK)
    kind = pairing_kind(tournament)
    if kind is not None:
        first_cut = (
            kind is RoundKind.ELIMINATION
            and tournament.format is EventFormat.SWISS_TOP_CUT
            and (current is None or current.kind is RoundKind.SWISS)
        )
        steps.add(Step.TOP_CUT if first_cut else Step.PAIR)
        steps.add(Step.NEXT_ROUND)
    if finish_allowed(tournament):
        steps.add(Step.FINISH)
    return frozenset(steps)
