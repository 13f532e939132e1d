"""A dropped or disqualified player is never paired again, in the knockout rounds too.

Regulation line 180 (「大会から棄権することを決めたプレイヤーは、次の試合の組み合わせが発表さ
れる前に ジャッジに報告してください」) and R-FMT-7: a dropped player is not paired again, in
Swiss rounds and single elimination alike; their next knockout opponent advances with a bye
(不戦勝). Line 271 and R-PEN-4: a disqualified player takes no further part.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.engine.results import MatchResult, ResultKind
from domain.event import EventFormat
from domain.tournament.operations import Drop, FinishTournament, GivePenalty, PairRound, SetResult
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.rounds import RoundKind
from tests.domain.tournament.support import JUDGE, Clock
from tests.domain.tournament.test_play import as_player, pair, play_round, started


def win_all(clock: Clock, first_wins: bool = True) -> None:
    """Every open table of the current round won by its first (or second) player."""
    current = clock.tournament.rounds[-1]
    for match in current.matches:
        if len(match.players) == 2 and not current.finished(match):
            winner = match.players[0 if first_wins else 1]
            clock.apply(SetResult(current.number, match.table, MatchResult.win(str(winner))), JUDGE)


def test_a_winner_who_dropped_is_not_seated_in_the_final_r_fmt_7() -> None:
    # Line 180, R-FMT-7: the 4-player bracket's semifinal winner drops before the final.
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    win_all(clock)
    first, second = clock.tournament.rounds[0].advancing()
    assert first is not None
    assert second is not None
    clock.apply(Drop(first), as_player(first))
    pair(clock, 2)
    (final,) = clock.tournament.rounds[1].matches
    assert final.players == (second,)  # the other finalist advances with a bye
    assert final.result == MatchResult.bye()
    assert clock.tournament.rounds[1].complete
    clock.apply(FinishTournament())
    assert clock.tournament.rounds[-1].advancing() == [second]


def test_a_top_cut_winner_who_dropped_gives_the_next_opponent_a_bye_r_fmt_7() -> None:
    # Line 180, R-FMT-7, in the top cut of a Swiss event.
    clock = started(8, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(8)
    for number in range(1, 4):
        pair(clock, number)
        play_round(clock, rng)
    pair(clock, 4)
    win_all(clock, first_wins=False)
    gone, stays = clock.tournament.rounds[3].advancing()
    assert gone is not None
    assert stays is not None
    clock.apply(Drop(gone), as_player(gone))
    pair(clock, 5)
    (final,) = clock.tournament.rounds[4].matches
    assert final.players == (stays,)
    assert final.result is not None
    assert final.result.kind is ResultKind.BYE


def test_a_disqualified_winner_gives_the_next_opponent_a_bye_r_pen_4() -> None:
    # Line 271, R-PEN-4: 「以降その大会で対戦を続けることができなくなります」.
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    win_all(clock)
    first, second = clock.tournament.rounds[0].advancing()
    assert first is not None
    assert second is not None
    clock.apply(GivePenalty(first, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "備品"), JUDGE)
    pair(clock, 2)
    (final,) = clock.tournament.rounds[1].matches
    assert final.players == (second,)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=20),
    st.integers(min_value=0, max_value=2**32),
    st.floats(min_value=0, max_value=0.6),
)
def test_nobody_out_of_the_event_is_ever_seated_in_a_later_knockout_round(
    players: int, seed: int, leave_rate: float
) -> None:
    # R-FMT-7 and R-PEN-4 over random brackets: drops and disqualifications between rounds
    # (never of the last player still in the bracket); the bracket still ends with one winner.
    rng = random.Random(seed)
    clock = started(players, format=EventFormat.ELIMINATION)
    out: set[int] = set()
    number = 1
    while True:
        pair(clock, seed + number)
        current = clock.tournament.rounds[-1]
        assert current.kind is RoundKind.ELIMINATION
        seated = {p for match in current.matches for p in match.players}
        assert not seated & out, f"round {number} seats {seated & out}"
        play_round(clock, rng)
        if len(current.matches) == 1:
            break
        still_in = [p for p in clock.tournament.rounds[-1].advancing() if p is not None]
        for player_id in still_in[:-1]:
            roll = rng.random()
            if roll < leave_rate / 2:
                clock.apply(Drop(player_id), as_player(player_id))
                out.add(player_id)
            elif roll < leave_rate:
                penalty = GivePenalty(
                    player_id, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "危害"
                )
                clock.apply(penalty, JUDGE)
                out.add(player_id)
        number += 1
    clock.apply(FinishTournament())
    (winner,) = clock.tournament.rounds[-1].advancing()
    assert winner is not None
    assert winner not in out
    assert clock.tournament.players[winner].status is PlayerStatus.ACTIVE


def test_a_knockout_pairing_logged_before_this_rule_still_folds() -> None:
    # `verify` and undo fold the action log: a pair_round the older code logged, seating a
    # finalist who had dropped, is applied as logged (its tables are in the operation), so
    # the log still agrees with the tables it wrote. Only new proposals follow R-FMT-7.
    clock = started(4, format=EventFormat.ELIMINATION)
    pair(clock)
    win_all(clock)
    first, second = clock.tournament.rounds[0].advancing()
    assert first is not None
    assert second is not None
    clock.apply(Drop(first), as_player(first))
    clock.apply(PairRound(2, RoundKind.ELIMINATION, 2, ((first, second),)))
    assert clock.tournament.rounds[1].matches[0].players == (first, second)
