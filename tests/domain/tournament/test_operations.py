"""Operations: stable kinds, JSON payloads that read back equal, authorisation by type."""

from __future__ import annotations

import json
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidInput, PermissionDenied
from domain.event import EventConfig, EventFormat
from domain.tournament.apply import HANDLERS
from domain.tournament.operations import (
    Actor,
    ChangeSettings,
    CreateTournament,
    Operation,
    Register,
    Role,
    SettingsChange,
    StartTournament,
    Undo,
    operation_types,
    server_role,
)
from domain.tournament.permissions import authorize


def operations() -> st.SearchStrategy[Operation]:
    return st.one_of(*(st.from_type(kind) for kind in operation_types().values()))


@given(operations())
def test_every_operation_reads_back_equal_from_its_json_payload(operation: Operation) -> None:
    payload = json.loads(json.dumps(operation.to_payload(), ensure_ascii=False))
    kind = operation_types()[operation.kind]
    assert kind.from_payload(payload) == operation


def test_kinds_are_stable_names() -> None:
    # The action log stores these names: renaming one breaks every existing log.
    assert {
        "create_tournament",
        "change_settings",
        "start_tournament",
        "publish_decks",
        "register",
        "unregister",
        "check_in",
        "submit_deck",
    } <= set(operation_types())


def test_every_operation_has_its_rule_handler() -> None:
    # An operation without a handler is logged by nobody: `apply` refuses it as not
    # applicable. Only the creation (`apply.create`) and an undo (the log without its
    # target, `domain.tournament.undo`) are applied otherwise.
    applied_otherwise = {CreateTournament, Undo}
    assert set(operation_types().values()) - applied_otherwise == set(HANDLERS)


def test_settings_change_carries_the_uploaded_file_text() -> None:
    text = '[[limit]]\nnumber = "01-001"\nmax = 1\n'
    change = ChangeSettings(SettingsChange(restricted_list=text, checkin_minutes=30))
    payload = change.to_payload()
    assert payload["change"]["restricted_list"] == text
    assert ChangeSettings.from_payload(payload) == change


def test_a_malformed_payload_is_a_typed_error() -> None:
    with pytest.raises(InvalidInput) as bad:
        StartTournament.from_payload({"seed": "not a number"})
    assert bad.value.key == "log.bad_payload"
    with pytest.raises(InvalidInput):
        Register.from_payload({"player_id": 1})


def test_nested_config_round_trips() -> None:
    config = EventConfig(
        name="冬の大会",
        format=EventFormat.SWISS_TOP_CUT,
        regulation="event",
        event_date=date(2026, 12, 24),
        top_cut=8,
        titles=("けいおん！", "ゆるゆり"),
    )
    operation = CreateTournament(config)
    assert CreateTournament.from_payload(operation.to_payload()) == operation


def test_authorisation_reads_from_the_type() -> None:
    player, judge, organizer = Actor(5, Role.PLAYER), Actor(6, Role.JUDGE), Actor(7, Role.ORGANIZER)
    start = StartTournament(seed=1)
    with pytest.raises(PermissionDenied):
        authorize(start, player)
    with pytest.raises(PermissionDenied):
        authorize(start, judge)
    authorize(start, organizer)
    # A player acts only for themselves; staff may act for a player.
    authorize(Register(5, "Me"), player)
    with pytest.raises(PermissionDenied) as other:
        authorize(Register(9, "Someone"), player)
    assert other.value.key == "permissions.own_entry_only"
    authorize(Register(9, "Someone"), judge)


def test_server_roles_map_to_tournament_roles() -> None:
    def role(**given: object) -> Role:
        values: dict[str, object] = {
            "manages_guild": False,
            "role_ids": frozenset(),
            "organizer_role_id": 11,
            "judge_role_id": 12,
        }
        values.update(given)
        return server_role(**values)  # type: ignore[arg-type]

    assert role() is Role.PLAYER
    assert role(role_ids=frozenset({12})) is Role.JUDGE
    assert role(role_ids=frozenset({11, 12})) is Role.ORGANIZER
    assert role(manages_guild=True) is Role.ORGANIZER
    assert role(organizer_role_id=None, judge_role_id=None, role_ids=frozenset({11})) is (
        Role.PLAYER
    )
