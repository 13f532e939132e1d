"""Match rooms on and off (/tournament rooms and the panel's switch), through the services
on real SQLite: refused with what the bot lacks, in either language; logged; copied."""

from __future__ import annotations

import pytest

from bot.i18n import describe_error
from bot.services import Services
from bot.store.actions import ROOM_KINDS
from bot.ui.rounds import my_match_text, pairings_posts
from domain.errors import InvalidInput, PermissionDenied
from domain.tournament.operations import RoomSpectators
from domain.tournament.rooms import RoomsDoNotFit, rooms_wanted, tables_without_room
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
        {"rooms": True, "room_spectators": "hidden", "room_limit": None},
        {"rooms": False, "room_spectators": None, "room_limit": None},
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
        "fits": 3,  # 3 rooms and their category
        "limit": 500,
    }
    text = describe_error(refused.value, "ja")
    assert "まだ何も変更していません" in text
    assert "卓 1〜3 だけ" in text
    assert "Nothing" not in text
    assert "Nothing was changed" in describe_error(refused.value, "en")
    found = await configured.tournaments.info(organizer(), None)
    assert found.tournament.rounds == ()  # nothing half made: no round
    paired = await configured.rounds.pair(organizer(), None, free_channels=5)
    assert paired.round.number == 1


async def test_rooms_for_the_first_tables_only_make_the_round_fit(configured: Services) -> None:
    # The organizer's choice where the rooms would not fit: tables 1 to 3 get rooms, the
    # fourth plays without one (and the pairings and /pairing say so).
    await started_with_rooms(configured, 9)
    chosen = await configured.tournaments.set_rooms(
        organizer(), None, on=True, limit=3, granted=CAN_MAKE_ROOMS, free_channels=4
    )
    assert chosen.settings.room_limit == 3
    paired = await configured.rounds.pair(organizer(), None, free_channels=4)
    assert [room.number for room in rooms_wanted(paired.tournament)] == [1, 2, 3]
    assert tables_without_room(paired.tournament) == (4,)
    assert paired.rooms_waiting == 3  # none made here: there is no Discord in this test
    text = "\n".join(
        part.content
        for part in pairings_posts(paired.tournament, paired.round, {}, "ja", rooms={1: 901})
    )
    assert "テーブル 4 以降には対戦部屋がありません" in text
    assert "対戦部屋: <#901>" in text
    fourth = next(m for m in paired.round.matches if m.table == 4)
    mine = my_match_text(paired.tournament, paired.round, fourth, fourth.players[0], "en", {})
    assert "Your table has no match room (rooms are for tables 1 to 3 only)" in mine
    back = await configured.tournaments.set_rooms(
        organizer(), None, on=True, limit=0, granted=CAN_MAKE_ROOMS
    )
    assert back.settings.room_limit == 0  # every table again


async def test_a_start_whose_rooms_would_not_fit_is_refused_with_the_choice(
    configured: Services,
) -> None:
    await create(configured)
    await configured.tournaments.update_settings(organizer(), None, decklist_required=False)
    for number in range(1, 9):
        await configured.registration.register(player(number), None)
    await configured.tournaments.set_rooms(organizer(), None, on=True, granted=CAN_MAKE_ROOMS)
    # 4 rooms and their category: 5 channels; the server takes 3 more (2 rooms fit).
    with pytest.raises(RoomsDoNotFit) as refused:
        await configured.lifecycle.start(organizer(), None, free_channels=3)
    assert refused.value.fits == 2
    found = await configured.tournaments.info(organizer(), None)
    assert found.tournament.started_at is None  # nothing half made: not started
    report = await configured.lifecycle.start(organizer(), None, free_channels=5)
    assert report.tournament.started_at is not None


async def test_rooms_turned_on_mid_event_that_would_not_fit_are_refused(
    configured: Services,
) -> None:
    await create(configured)
    await configured.tournaments.update_settings(organizer(), None, decklist_required=False)
    for number in range(1, 9):
        await configured.registration.register(player(number), None)
    await configured.lifecycle.start(organizer(), None)
    await configured.rounds.pair(organizer(), None)
    with pytest.raises(RoomsDoNotFit) as refused:
        await configured.tournaments.set_rooms(
            organizer(), None, on=True, granted=CAN_MAKE_ROOMS, free_channels=0
        )
    assert refused.value.fits == 0
    assert "turn rooms off below" in describe_error(refused.value, "en")
    found = await configured.tournaments.info(organizer(), None)
    assert not found.tournament.settings.rooms  # nothing changed
