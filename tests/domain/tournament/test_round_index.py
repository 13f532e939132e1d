"""A round's lookups are worked out once and handed on by `with_match`: whatever
matches change, a round made by `with_match` answers exactly like the same round built
from scratch. A stale lookup would be a wrong table or a round wrongly complete."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.results import MatchResult
from domain.tournament.rounds import MATCH_CHUNK, Match, Round, RoundKind
from tests.domain.tournament.support import T0


def fresh(played: Round) -> Round:
    """The same round as a new value: nothing worked out yet."""
    return Round(**{field.name: getattr(played, field.name) for field in fields(Round)})


def answers(played: Round, people: list[int], tables: list[int]) -> tuple[object, ...]:
    return (
        played.complete,
        played.missing_tables,
        [played.match_of(person) for person in people],
        [played.match_at(table) for table in tables],
        played.recorded,
        played.tally,
    )


@st.composite
def rounds_and_changes(draw: st.DrawFn) -> tuple[Round, list[Match]]:
    kind = draw(st.sampled_from(RoundKind))
    # Past MATCH_CHUNK tables too: a round made by `with_match` keeps its matches in shared
    # chunks, and a change near a chunk's edge must land in the right one.
    count = draw(st.integers(1, 8) | st.integers(MATCH_CHUNK - 2, 2 * MATCH_CHUNK + 3))
    people = iter(range(1, 1000))
    matches = []
    for table in range(1, count + 1):
        seats = draw(st.integers(0 if kind is RoundKind.ELIMINATION else 1, 2))
        players = tuple(next(people) for _ in range(seats))
        result = MatchResult.bye() if seats == 1 else None
        matches.append(Match(table, players, result))
    played = Round(1, kind, 7, T0, tuple(matches), T0, T0 + timedelta(minutes=40))
    changes = []
    for _ in range(draw(st.integers(0, 12))):
        table = draw(st.integers(1, count + 1))  # count + 1: a table the round has not
        base = next((m for m in matches if m.table == table), Match(table, (9998, 9999)))
        players = base.players
        if draw(st.booleans()) and len(players) == 2:
            players = (players[1], players[0]) if draw(st.booleans()) else (players[0], 9997)
        result = None
        if len(players) == 2:
            result = draw(
                st.sampled_from(
                    [
                        None,
                        MatchResult.win(str(players[0])),
                        MatchResult.time_draw(),
                        MatchResult.double_loss(),
                    ]
                )
            )
        elif len(players) == 1:
            result = MatchResult.bye()
        advancing = players[0] if players and draw(st.booleans()) else None
        changes.append(replace(base, players=players, result=result, advancing=advancing))
    return played, changes


@given(rounds_and_changes())
@settings(max_examples=200, deadline=None)
def test_a_round_made_by_with_match_answers_like_one_built_afresh(
    case: tuple[Round, list[Match]],
) -> None:
    played, changes = case
    people = [*range(0, 300), 9997, 9998, 9999]
    tables = list(range(0, 2 * MATCH_CHUNK + 5))
    answers(played, people, tables)  # everything worked out, to be handed on
    for match in changes:
        played = played.with_match(match)
        # Its lookups first, before anything reads (and so joins) its `matches`.
        answered = answers(played, people, tables)
        assert answered == answers(fresh(played), people, tables)
        assert played == fresh(played)


@given(
    st.lists(
        st.tuples(st.sampled_from(["register", "unregister", "deck"]), st.integers(1, 5)),
        max_size=25,
    )
)
@settings(max_examples=100, deadline=None)
def test_the_next_arrival_number_is_the_one_a_look_at_every_entry_gives(
    steps: list[tuple[str, int]],
) -> None:
    # R-REG: the waitlist is served by arrival order, so the number carried from one
    # registration to the next must be the one counting every entry would give.
    from domain.errors import DomainError
    from domain.tournament.operations import Register, SubmitDeck, Unregister
    from tests.domain.tournament.support import (
        Clock,
        canonical_legal_deck,
        new_tournament,
        player,
    )

    deck = canonical_legal_deck()
    clock = Clock(new_tournament(max_players=3))
    for step, number in steps:
        actor = player(number)
        operation = {
            "register": Register(actor.user_id, f"P{number}"),
            "unregister": Unregister(actor.user_id),
            "deck": SubmitDeck(actor.user_id, deck),
        }[step]
        try:
            clock.apply(operation, actor)
        except DomainError:
            continue
        tournament = clock.tournament
        seqs = [entry.seq for entry in tournament.players.values()]
        assert tournament.next_seq == max(seqs, default=0) + 1
        assert len(set(seqs)) == len(seqs)


@given(rounds_and_changes())
@settings(max_examples=50, deadline=None)
def test_a_tournament_made_by_with_round_is_the_one_replace_makes(
    case: tuple[Round, list[Match]],
) -> None:
    # `with_round` copies the fields itself (a report at 2,048 tables is cheaper so): a
    # field left behind would be a setting or a player lost at every report.
    from tests.domain.tournament.support import new_tournament

    played, changes = case
    tournament = replace(new_tournament(), rounds=(played,), seed=3, page_public=True)
    assert tournament.next_seq == 1  # worked out, to be handed on
    for match in changes:
        updated = tournament.with_round(played.with_match(match))
        expected = replace(tournament, rounds=(played.with_match(match),))
        assert updated == expected
        assert {f.name: getattr(updated, f.name) for f in fields(updated)} == {
            f.name: getattr(expected, f.name) for f in fields(expected)
        }
        assert updated.next_seq == expected.next_seq
        tournament, played = updated, played.with_match(match)


@given(rounds_and_changes(), st.booleans())
@settings(max_examples=50, deadline=None)
def test_a_decided_or_reported_match_is_the_one_replace_makes(
    case: tuple[Round, list[Match]], disputed: bool
) -> None:
    # `decided` and `with_reports` build the match directly (a replayed report is cheaper
    # so): a field left behind, such as a table's extra time (R-MATCH-7), would be lost.
    from domain.tournament.rounds import Report

    played, changes = case
    for match in (*played.matches, *changes):
        match = replace(match, extension_minutes=5, disputed=not disputed)
        result = MatchResult.double_loss()
        assert match.decided(result) == replace(
            match, result=result, advancing=None, reports=(), disputed=False
        )
        assert match.decided(result, 9) == replace(
            match, result=result, advancing=9, reports=(), disputed=False
        )
        reports = (Report(1, result, T0),)
        assert match.with_reports(reports, disputed) == replace(
            match, reports=reports, disputed=disputed
        )


@given(rounds_and_changes(), st.booleans())
@settings(max_examples=100, deadline=None)
def test_the_changes_since_an_earlier_round_are_those_a_look_at_every_table_finds(
    case: tuple[Round, list[Match]], afresh: bool
) -> None:
    # What the store writes after a report: only the chunks a report replaced
    # are looked at. A change missed would be a result never saved; a table left behind, a
    # match that stays after its round was re-paired.
    played, changes = case
    before = played
    for match in changes:
        played = played.with_match(match)
    now = fresh(played) if afresh else played  # a round built afresh shares nothing
    changed, gone = now.changes_since(before)
    old = {m.table: m for m in before.matches}
    expected = [(old.get(m.table), m) for m in now.matches if old.get(m.table) != m]
    assert [(a, b) for a, b in changed if a != b] == expected
    assert gone == old.keys() - {m.table for m in now.matches}
    assert now.changes_since(None) == ([(None, m) for m in now.matches], set())
