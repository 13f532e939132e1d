"""Finished tournaments for series, record and rating tests, played through the operations
(so the adapters read tournaments exactly as the bot builds them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from domain.engine.results import MatchResult
from domain.errors import IllegalTransition
from domain.event import EventFormat
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    ChangeSettings,
    FinishTournament,
    Operation,
    Register,
    SetResult,
    SettingsChange,
    StartTournament,
)
from domain.tournament.play import propose_round
from domain.tournament.rounds import Match, Round
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player, submit

# Who wins a match: a result for the two players (in table order), given the round.
Decide = Callable[[Round, Match], MatchResult]


def lower_id_wins(_round: Round, match: Match) -> MatchResult:
    """The player with the lower id wins every match: placings follow the ids."""
    return MatchResult.win(str(min(match.players)))


def play_event(
    players: list[int],
    *,
    tournament_id: int = 1,
    name: str = "Cup",
    event_date: date = date(2026, 12, 1),
    decide: Decide = lower_id_wins,
    decks: bool = False,
    between_rounds: Callable[[Clock, int], None] | None = None,
    **config: object,
) -> Tournament:
    """A finished event of `players` (ids 101, 102 …; names P1, P2 …, by 100 + n)."""
    clock = Clock(new_tournament(name=name, event_date=event_date, **config))
    if not decks:
        clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for user in players:
        clock.apply(Register(user, f"P{user - 100}"), player(user - 100))
        if decks:
            clock.apply(submit(user), player(user - 100))
    clock.apply(StartTournament(seed=2026))
    number = 0
    while True:
        try:
            proposal = propose_round(clock.tournament, seed=number + 1)
        except IllegalTransition:
            break
        number += 1
        clock.apply(proposal.operation())
        played = clock.tournament.rounds[-1]
        for match in played.matches:
            if len(match.players) != 2:
                continue
            result = decide(played, match)
            advancing = None
            if result.winner(match.ids) is None and played.kind.value == "elimination":
                advancing = min(match.players)
            apply_judge(clock, SetResult(number, match.table, result, advancing))
        if between_rounds is not None:
            between_rounds(clock, number)
    clock.apply(FinishTournament())
    return replace(clock.tournament, id=tournament_id)


def apply_judge(clock: Clock, operation: Operation) -> None:
    clock.apply(operation, JUDGE)


def ids(count: int) -> list[int]:
    return [100 + n for n in range(1, count + 1)]


SWISS = EventFormat.SWISS
TOP_CUT = EventFormat.SWISS_TOP_CUT
ELIMINATION = EventFormat.ELIMINATION
