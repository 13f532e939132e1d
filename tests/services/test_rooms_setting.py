"""Match rooms on and off (/tournament rooms and the panel's switch), through the services
on real SQLite: refused with what the bot lacks, in either language; logged; copied."""

from __future__ import annotations

import pytest

from bot.i18n import describe_error
from bot.services import Services
from bot.store.actions import ROOM_KINDS
from domain.errors import InvalidInput, PermissionDenied
from domain.tournament.operations import RoomSpectators
from tests.services.conftest import organizer, player

CAN_MAKE_ROOMS = frozenset({"manage_channels", "manage_roles", "view_channel"})


async def create(services: Services) -> None:
    await services.tournaments.create(
        organizer(), name="Room Cup", format="swiss", regulation="single"
    )


async def test_rooms_are_off_until_turned_on_and_each_change_is_logged(
    configured: Services,
) -> None:
    await create(configured)
    found = await configured.tournaments.info(organizer(), None)
    assert not found.tournament.settings.rooms
    on = await configured.tournaments.set_rooms(
        organizer(), None, on=True, spectators="hidden", granted=CAN_MAKE_ROOMS
    )
    assert on.settings.rooms
    assert on.settings.room_spectators is RoomSpectators.HIDDEN
    toggled = await configured.tournaments.set_rooms(organizer(), None, on=None)
    assert not toggled.settings.rooms  # the panel's press: the other way from now
    assert toggled.settings.room_spectators is RoomSpectators.HIDDEN
    _, newest_first = await configured.judges.log(organizer(), None)
    log = list(reversed(newest_first))
    changes = [entry.payload["change"] for entry in log if entry.kind == "change_settings"]
    given = [{k: v for k, v in change.items() if k.startswith("room")} for change in changes]
    assert given[-2:] == [
        {"rooms": True, "room_spectators": "hidden"},
        {"rooms": False, "room_spectators": None},
    ]


@pytest.mark.parametrize(
    ("granted", "missing"),
    [
        (frozenset({"view_channel"}), ["manage_channels", "manage_roles"]),
        (frozenset({"manage_roles"}), ["manage_channels"]),
        (frozenset({"manage_channels"}), ["manage_roles"]),
    ],
)
async def test_turning_rooms_on_is_refused_with_what_the_bot_lacks(
    configured: Services, granted: frozenset[str], missing: list[str]
) -> None:
    await create(configured)
    with pytest.raises(InvalidInput) as refused:
        await configured.tournaments.set_rooms(organizer(), None, on=True, granted=granted)
    assert refused.value.key == "rooms.missing_permissions"
    assert refused.value.params["missing"] == missing
    ja = describe_error(refused.value, "ja")
    en = describe_error(refused.value, "en")
    assert "「チャンネルの管理」" in ja or "「ロールの管理」" in ja
    assert "何も変更していません" in ja
    assert "Manage Channels" in en or "Manage Roles" in en
    assert "Nothing was changed" in en
    found = await configured.tournaments.info(organizer(), None)
    assert not found.tournament.settings.rooms  # nothing half made


async def test_administrator_is_enough_and_turning_off_needs_nothing(
    configured: Services,
) -> None:
    await create(configured)
    on = await configured.tournaments.set_rooms(
        organizer(), None, on=True, granted=frozenset({"administrator"})
    )
    assert on.settings.rooms
    off = await configured.tournaments.set_rooms(organizer(), None, on=False)
    assert not off.settings.rooms


async def test_only_organizers_turn_rooms_on(configured: Services) -> None:
    await create(configured)
    with pytest.raises(PermissionDenied):
        await configured.tournaments.set_rooms(player(1), None, on=True, granted=CAN_MAKE_ROOMS)


async def test_a_copy_keeps_the_rooms(configured: Services) -> None:
    await create(configured)
    await configured.tournaments.set_rooms(organizer(), None, on=True, granted=CAN_MAKE_ROOMS)
    copy = await configured.tournaments.create(organizer(), copy="Room Cup")
    assert copy.tournament.settings.rooms


def test_room_changes_are_not_operations() -> None:
    assert all(kind.startswith("room_") for kind in ROOM_KINDS)


async def started_with_rooms(services: Services, players: int) -> None:
    await create(services)
    await services.tournaments.update_settings(organizer(), None, decklist_required=False)
    for number in range(1, players + 1):
        await services.registration.register(player(number), None)
    await services.tournaments.set_rooms(organizer(), None, on=True, granted=CAN_MAKE_ROOMS)
    await services.lifecycle.start(organizer(), None)


async def test_a_round_whose_rooms_would_not_fit_is_not_paired(configured: Services) -> None:
    # 9 players: 4 rooms and their category, 5 channels; the server can take 4 more.
    await started_with_rooms(configured, 9)
    with pytest.raises(InvalidInput) as refused:
        await configured.rounds.pair(organizer(), None, free_channels=4)
    assert refused.value.key == "rooms.no_space"
    assert refused.value.params == {
        "rooms": 4,
        "needed": 5,
        "free": 4,
        "limit": 500,
    }
    text = describe_error(refused.value, "ja")
    assert "組み合わせは作っていません" in text
    assert "Nothing" not in text
    assert "was not paired" in describe_error(refused.value, "en")
    found = await configured.tournaments.info(organizer(), None)
    assert found.tournament.rounds == ()  # nothing half made: no round
    paired = await configured.rounds.pair(organizer(), None, free_channels=5)
    assert paired.round.number == 1
