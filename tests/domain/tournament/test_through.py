"""A round's standings told late are what they were after that round
(`Tournament.through`): a post of round 1's standings delivered once round 2 is paired and
played says what it said then."""

from __future__ import annotations

from domain.engine.results import MatchResult
from domain.engine.state import Phase
from domain.tournament.operations import (
    ChangeSettings,
    FinishTournament,
    Register,
    SetResult,
    SettingsChange,
    StartTournament,
)
from domain.tournament.play import propose_round
from domain.tournament.views import Views
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player


def play_round(clock: Clock) -> None:
    clock.apply(propose_round(clock.tournament, 7).operation())
    played = clock.tournament.rounds[-1]
    for match in played.matches:
        if len(match.players) == 2:
            winner = str(match.players[0])
            clock.apply(SetResult(played.number, match.table, MatchResult.win(winner)), JUDGE)


def test_the_standings_through_a_round_are_those_after_it() -> None:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 9):
        clock.apply(Register(100 + number, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=3))
    play_round(clock)
    after_one = Views(clock.tournament)
    play_round(clock)  # R-FMT-4: round 2 changes the points and the order
    later = Views(clock.tournament)
    then = Views(clock.tournament.through(1))
    assert then.after_round == 1
    assert later.after_round == 2
    assert then.lines == after_one.lines
    assert then.lines != later.lines
    assert clock.tournament.through(5) is clock.tournament  # nothing after round 5 to take


def test_the_standings_through_a_round_of_a_finished_event_are_not_its_final_ones() -> None:
    """Round 1's standings told once the event is over (Discord away until then): the Swiss
    standings after round 1, not the final placings under round 1's name."""
    clock = Clock(new_tournament(rounds=2))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 9):
        clock.apply(Register(100 + number, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=3))
    play_round(clock)
    after_one = Views(clock.tournament)
    play_round(clock)
    clock.apply(FinishTournament())
    then = clock.tournament.through(1)
    assert clock.tournament.phase is Phase.FINISHED
    assert then.phase is Phase.RUNNING
    assert Views(then).placings == after_one.placings
    assert Views(then).placings != Views(clock.tournament).placings
