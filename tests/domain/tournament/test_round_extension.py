"""全体延長: a judge extends every table of a round still playing at once (R-MATCH-7, after
an outage every table waited). Each table without a result gets the minutes; finished
tables, byes and other rounds keep their time; the refusals name the rule; the operation
replays and undoes like /judge extend; and 2,048 tables are extended at once."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.results import MatchResult
from domain.errors import DomainError, IllegalTransition, InvalidInput
from domain.tournament import events as ev
from domain.tournament.apply import apply
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    Actor,
    ChangeSettings,
    CreateTournament,
    ExtendRound,
    ExtendTable,
    Operation,
    Register,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
)
from domain.tournament.play import (
    MAX_EXTENSION_MINUTES,
    propose_round,
    round_extendable,
)
from domain.tournament.replay import LoggedOperation, fold
from domain.tournament.rounds import Match, Round
from domain.tournament.undo import plan_undo
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    Clock,
    Logged,
    new_tournament,
    player,
)


class Story(Logged):
    """An event played through the rules, every operation logged as the store logs it."""

    def __init__(self, players: int, seed: int = 1) -> None:
        clock = Clock(new_tournament(rounds=3))
        config = clock.tournament.config
        created = LoggedOperation(
            1,
            CreateTournament.kind,
            CreateTournament(config).to_payload(),
            ORGANIZER.user_id,
            ORGANIZER.role,
            clock.at,
        )
        super().__init__(clock, (created,))
        self.do(ChangeSettings(SettingsChange(decklist_required=False)))
        for number in range(1, players + 1):
            self.do(Register(100 + number, f"P{number}"), player(number))
        self.do(StartTournament(seed=seed))
        self.do(propose_round(self.clock.tournament, seed).operation())

    def do(self, operation: Operation, actor: Actor = ORGANIZER) -> None:
        self.apply(operation, actor)

    @property
    def tournament(self) -> Tournament:
        return self.clock.tournament

    def win(self, table: int) -> None:
        current = self.tournament.rounds[-1]
        match = current.match_at(table)
        assert match is not None
        result = MatchResult.win(str(match.players[0]))
        self.do(SetResult(current.number, table, result), JUDGE)


def extensions(played: Round) -> dict[int, int]:
    return {match.table: match.extension_minutes for match in played.matches}


def test_every_table_still_playing_gets_the_minutes_r_match_7() -> None:
    story = Story(7)  # 3 tables and a bye
    story.do(StartRound(1))
    story.win(1)
    story.do(ExtendTable(1, 2, 4), JUDGE)
    before = story.tournament.rounds[0]
    story.do(ExtendRound(1, 5), JUDGE)
    after = story.tournament.rounds[0]
    bye = next(match.table for match in after.matches if match.is_bye)
    assert extensions(after) == {**extensions(before), 2: 9, 3: 5}
    assert extensions(after)[1] == extensions(after)[bye] == 0
    assert before.ends_at is not None
    (happened,) = [e for e in story.clock.events if isinstance(e, ev.RoundExtended)]
    # The end said is that of a table without an earlier extension (table 3's).
    assert happened == ev.RoundExtended(1, 5, (2, 3), before.ends_at + timedelta(minutes=5))
    assert after.table_ends_at(after.matches[2]) == happened.ends_at
    assert after.table_ends_at(after.matches[1]) == before.ends_at + timedelta(minutes=9)
    # The round's own end does not move: only its tables' ends do.
    assert after.ends_at == before.ends_at


def refusal(story: Story, operation: ExtendRound) -> DomainError:
    with pytest.raises(DomainError) as refused:
        apply(story.tournament, operation, story.clock.at, JUDGE)
    return refused.value


def test_the_refusals_name_the_rule_r_match_7() -> None:
    story = Story(4)
    not_started = refusal(story, ExtendRound(1, 5))
    assert isinstance(not_started, IllegalTransition)
    assert (not_started.key, not_started.rule) == ("rounds.clock_not_started", "R-MATCH-7")
    assert not round_extendable(story.tournament)

    story.do(StartRound(1))
    assert round_extendable(story.tournament)
    for minutes in (0, -3):
        too_few = refusal(story, ExtendRound(1, minutes))
        assert isinstance(too_few, InvalidInput)
        assert (too_few.key, too_few.rule) == ("judge.bad_extension", "R-MATCH-7")

    # A table that would pass the limit is named, with the limit; nothing changes.
    story.do(ExtendTable(1, 2, MAX_EXTENSION_MINUTES - 2), JUDGE)
    over = refusal(story, ExtendRound(1, 3))
    assert (over.key, over.rule) == ("judge.round_extension_over_limit", "R-MATCH-7")
    assert over.params == {
        "minutes": 3,
        "table": 2,
        "total": MAX_EXTENSION_MINUTES - 2,
        "limit": MAX_EXTENSION_MINUTES,
    }
    story.do(ExtendRound(1, 2), JUDGE)  # exactly the limit is allowed
    assert extensions(story.tournament.rounds[0]) == {1: 2, 2: MAX_EXTENSION_MINUTES}

    story.win(1)
    story.win(2)
    done = refusal(story, ExtendRound(1, 1))
    assert (done.key, done.rule) == ("rounds.none_playing", "R-MATCH-7")
    assert not round_extendable(story.tournament)
    assert refusal(story, ExtendRound(2, 1)).key == "rounds.no_such_round"


def test_nothing_paired_yet_is_said_without_a_round_0() -> None:
    clock = Clock(new_tournament())
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(ExtendRound(0, 5), JUDGE)
    assert refused.value.key == "rounds.none_yet"
    assert not round_extendable(clock.tournament)


def test_it_replays_and_undoes_like_a_table_extension() -> None:
    story = Story(6)
    story.do(StartRound(1))
    before = story.tournament
    story.do(ExtendRound(1, 7), JUDGE)
    assert fold(1, 1000, story.log) == story.tournament
    plan = plan_undo(1, 1000, story.log)
    assert plan.target.kind == "extend_round"
    assert plan.after == before


@st.composite
def rounds_in_play(draw: st.DrawFn) -> tuple[Story, int]:
    """A started event in its second round or first, some tables finished, some extended."""
    story = Story(draw(st.integers(2, 13)), seed=draw(st.integers(0, 2**16)))
    if draw(st.booleans()):  # round 1 played, round 2 paired
        story.do(StartRound(1))
        for match in list(story.tournament.rounds[0].matches):
            if len(match.players) == 2:
                story.win(match.table)
        story.do(propose_round(story.tournament, 3).operation())
    current = story.tournament.rounds[-1]
    story.do(StartRound(current.number))
    for match in current.matches:
        if len(match.players) != 2:
            continue
        choice = draw(st.sampled_from(["playing", "won", "extended"]))
        if choice == "won":
            story.win(match.table)
        elif choice == "extended":
            story.do(ExtendTable(current.number, match.table, draw(st.integers(1, 50))), JUDGE)
    return story, draw(st.integers(1, 20))


@given(rounds_in_play())
@settings(max_examples=60, deadline=None)
def test_only_the_tables_still_playing_move_r_match_7(case: tuple[Story, int]) -> None:
    story, minutes = case
    before = story.tournament
    current = before.rounds[-1]
    # The reference, written out: a table plays on while it has two players and no result.
    playing = [m for m in current.matches if len(m.players) == 2 and m.result is None]
    over = [m for m in playing if m.extension_minutes + minutes > MAX_EXTENSION_MINUTES]
    operation = ExtendRound(current.number, minutes)
    if not playing or over:  # refused only for a rule: none playing, or a table past the limit
        with pytest.raises(DomainError) as refused:
            apply(before, operation, story.clock.at, JUDGE)
        expected = "judge.round_extension_over_limit" if over else "rounds.none_playing"
        assert refused.value.key == expected
        return
    after, _ = apply(before, operation, story.clock.at, JUDGE)
    extended = after.rounds[-1]
    for was, now in zip(current.matches, extended.matches, strict=True):
        added = minutes if was in playing else 0
        assert now == replace(was, extension_minutes=was.extension_minutes + added)
    assert after.rounds[:-1] == before.rounds[:-1]  # other rounds unchanged
    assert (after.players, after.state) == (before.players, before.state)
    # The round answers like one built afresh (its lookups were not carried over stale).
    assert extended.complete == current.complete
    assert [extended.match_at(m.table) for m in extended.matches] == list(extended.matches)


def big_round_event(tables: int) -> Tournament:
    """A started event whose round 1 has `tables` tables, a quarter of them finished."""
    story = Story(4)
    story.do(StartRound(1))
    small = story.tournament.rounds[0]
    matches = tuple(
        Match(
            table,
            (1000 + 2 * table, 1001 + 2 * table),
            MatchResult.win(str(1000 + 2 * table)) if table % 4 == 0 else None,
        )
        for table in range(1, tables + 1)
    )
    return story.tournament.with_round(replace(small, matches=matches))


def test_two_thousand_tables_are_extended_at_once() -> None:
    # 2,048 tables (MAX_TABLES), three quarters still playing: each of those gets the
    # minutes, the finished quarter keeps its time.
    tournament = big_round_event(2048)
    at = tournament.rounds[0].started_at
    assert at is not None
    after, happened = apply(tournament, ExtendRound(1, 5), at, JUDGE)
    (extended,) = [e for e in happened if isinstance(e, ev.RoundExtended)]
    assert len(extended.tables) == 2048 - 512
    assert all(m.extension_minutes == (0 if m.result else 5) for m in after.rounds[0].matches)
