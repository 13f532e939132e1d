"""The tournament aggregate's rules, applied without any storage."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from domain.tournament import events as ev
from domain.tournament.apply import apply
from domain.tournament.operations import (
    ChangeSettings,
    CheckIn,
    MissingDeckPolicy,
    PublishDecks,
    Register,
    SettingsChange,
    StartTournament,
    Unregister,
)
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    T0,
    Clock,
    new_tournament,
    player,
    submit,
)


def register(clock: Clock, number: int) -> None:
    clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))


def test_a_full_event_waitlists_and_promotes_in_arrival_order() -> None:
    clock = Clock(new_tournament(max_players=2))
    for number in (1, 2, 3, 4):
        register(clock, number)
    statuses = {e.user_id: e.status for e in clock.tournament.entries()}
    assert statuses[103] is PlayerStatus.WAITLISTED
    assert statuses[104] is PlayerStatus.WAITLISTED
    clock.apply(Unregister(101), player(1))
    assert clock.events[-1] == ev.Promoted(103)  # first to arrive, first served
    assert clock.tournament.players[103].status is PlayerStatus.REGISTERED
    assert clock.tournament.players[101].status is PlayerStatus.DROPPED


def test_same_instant_registrations_are_served_by_arrival_not_user_id() -> None:
    tournament = new_tournament(max_players=1)
    for user_id in (500, 900, 200):  # arriving in this order, at the same moment
        tournament, _ = apply(tournament, Register(user_id, f"u{user_id}"), T0, ORGANIZER)
    tournament, happened = apply(tournament, Unregister(500), T0, ORGANIZER)
    assert ev.Promoted(900) in happened


def test_registering_twice_is_refused_and_changes_nothing() -> None:
    clock = Clock(new_tournament())
    register(clock, 1)
    before = clock.tournament
    with pytest.raises(InvalidInput) as twice:
        register(clock, 1)
    assert twice.value.key == "registration.already_registered"
    assert clock.tournament is before


def test_late_entry_joins_the_next_round_r_fmt_8() -> None:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(late_registration_rounds=2)))
    for number in (1, 2):
        register(clock, number)
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    clock.apply(StartTournament(seed=7))
    register(clock, 3)
    late = clock.tournament.players[103]
    assert late.status is PlayerStatus.ACTIVE
    assert late.joined_round == 1
    # R-DECK-4: a late entrant's first list may still be stored.
    clock.apply(submit(103), player(3))
    assert 103 in clock.tournament.decks


def test_registration_is_closed_after_the_start_without_late_entry() -> None:
    clock = Clock(new_tournament())
    for number in (1, 2):
        register(clock, number)
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    clock.apply(StartTournament(seed=7))
    with pytest.raises(IllegalTransition) as closed:
        register(clock, 3)
    assert closed.value.key == "registration.closed"


def test_a_player_dropped_at_the_start_may_come_back_as_a_late_entrant() -> None:
    # Decided on purpose: dropped at the start (no legal list) means never paired, so
    # entering late with a legal list is fair. A drop after playing needs an organizer.
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(late_registration_rounds=1)))
    for number in (1, 2, 3):
        register(clock, number)
    clock.apply(submit(101), player(1))
    clock.apply(submit(102), player(2))
    clock.apply(StartTournament(seed=7))
    assert clock.tournament.players[103].dropped_round == 0
    register(clock, 3)
    assert clock.tournament.players[103].status is PlayerStatus.ACTIVE
    dropped_after_playing = replace(
        clock.tournament.players[102], status=PlayerStatus.DROPPED, dropped_round=1
    )
    clock.tournament = replace(
        clock.tournament, players={**clock.tournament.players, 102: dropped_after_playing}
    )
    with pytest.raises(IllegalTransition) as refused:
        register(clock, 2)
    assert refused.value.key == "registration.dropped_ask_organizer"
    assert refused.value.rule == "R-FMT-7"


def test_decks_lock_at_the_start_r_deck_4() -> None:
    clock = Clock(new_tournament())
    for number in (1, 2):
        register(clock, number)
        clock.apply(submit(100 + number), player(number))
    clock.apply(StartTournament(seed=7))
    assert all(deck.locked_at == clock.at for deck in clock.tournament.decks.values())
    with pytest.raises(IllegalTransition) as locked:
        clock.apply(submit(101), player(1))
    assert locked.value.rule == "R-DECK-4"
    with pytest.raises(IllegalTransition) as rules_locked:
        clock.apply(ChangeSettings(SettingsChange(mix_two_minimum=20)))
    assert rules_locked.value.rule == "R-DECK-4"


def test_an_illegal_list_is_never_stored() -> None:
    clock = Clock(new_tournament())
    register(clock, 1)
    illegal = submit(101).decklist.replace("4,けいおん！,01-001", "5,けいおん！,01-001", 1)
    with pytest.raises(InvalidInput) as refused:
        clock.apply(replace(submit(101), decklist=illegal), player(1))
    assert refused.value.key == "submission.not_legal"
    assert "R-DECK-2" in str(refused.value.params["rules"])
    assert clock.tournament.decks == {}


def test_the_start_drops_missing_decks_and_check_ins_and_fixes_the_rounds() -> None:
    clock = Clock(new_tournament())
    starts = T0 + timedelta(hours=1)
    clock.apply(ChangeSettings(SettingsChange(starts_at=starts, checkin_minutes=120)))
    for number in range(1, 6):
        register(clock, number)
    for number in (1, 2, 3, 4):
        clock.apply(submit(100 + number), player(number))
    for number in (1, 2, 3, 5):
        clock.apply(CheckIn(100 + number), player(number))
    clock.apply(StartTournament(seed=99))
    (started,) = clock.events
    assert isinstance(started, ev.Started)
    assert started.not_checked_in == (104,)
    assert started.without_deck == (105,)
    assert set(started.dropped) == {104, 105}
    assert started.playing == (101, 102, 103)
    assert clock.tournament.phase is Phase.RUNNING
    assert clock.tournament.round_count == 2  # ceil(log2 3), R-FMT-2
    assert clock.tournament.seed == 99


def test_start_anyway_keeps_players_without_a_list() -> None:
    clock = Clock(new_tournament())
    for number in (1, 2):
        register(clock, number)
    clock.apply(ChangeSettings(SettingsChange(missing_deck_policy=MissingDeckPolicy.START_ANYWAY)))
    clock.apply(StartTournament(seed=1))
    assert clock.events[0] == ev.Started((101, 102), (101, 102), (), ())


def test_check_in_window_and_its_errors() -> None:
    clock = Clock(new_tournament())
    register(clock, 1)
    with pytest.raises(IllegalTransition) as unused:
        clock.apply(CheckIn(101), player(1))
    assert unused.value.key == "checkin.not_used"
    clock.apply(
        ChangeSettings(SettingsChange(starts_at=T0 + timedelta(hours=5), checkin_minutes=30))
    )
    with pytest.raises(IllegalTransition) as early:
        clock.apply(CheckIn(101), player(1))
    assert early.value.key == "checkin.not_open_yet"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (SettingsChange(mix_two_minimum=31), "tournament.bad_mix_two_minimum"),
        (SettingsChange(late_registration_rounds=31), "tournament.bad_late_rounds"),
        (SettingsChange(checkin_minutes=-1), "tournament.bad_checkin_minutes"),
        (SettingsChange(), "tournament.no_settings_given"),
    ],
)
def test_settings_out_of_range_are_refused(change: SettingsChange, key: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        Clock(new_tournament()).apply(ChangeSettings(change))
    assert refused.value.key == key


def test_organizer_operations_are_refused_to_players_and_judges() -> None:
    tournament = new_tournament()
    for actor in (player(1), JUDGE):
        for operation in (StartTournament(seed=1), PublishDecks()):
            with pytest.raises(PermissionDenied):
                apply(tournament, operation, T0, actor)


def test_a_member_named_like_a_mention_registers_under_that_name() -> None:
    # Names shown safely: the name is kept as written; the presentation escapes it.
    clock = Clock(new_tournament())
    odd = "@everyone 平沢🇯🇵\u200d\u202e"
    tournament = clock.apply(Register(player(1).user_id, odd), player(1))
    assert tournament.players[player(1).user_id].display_name == odd
    with pytest.raises(InvalidInput) as refused:
        clock.apply(Register(player(2).user_id, "bad\x1bname"), player(2))
    assert refused.value.params["field"] == "display_name"
