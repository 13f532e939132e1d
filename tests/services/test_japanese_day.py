"""A Japanese-first day of play, on the services over real SQLite: the server's
button language, settings that apply completely or not at all, a start refused with the
reasons by name, and the commands that still make sense after the finish."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from bot.i18n import describe_error
from bot.services import Services
from bot.store.backend import Database
from domain.errors import IllegalTransition, InvalidInput, NotFound
from domain.timeparse import JST
from tests.services.conftest import GUILD, NOW, admin, judge, organizer, player


async def guild_config_row(database: Database) -> dict[str, object]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT * FROM guild_config WHERE guild_id = ?", (GUILD,)
        )
    (row,) = rows
    return dict(row)


# -- 4. buttons in the server's language --------------------------------------------------


async def test_bilingual_buttons_are_off_until_the_organizer_asks(
    services: Services, database: Database
) -> None:
    config = await services.guilds.configure(admin(), locale="ja")
    assert config.bilingual_buttons is False
    assert (await guild_config_row(database))["bilingual_buttons"] == 0


async def test_bilingual_buttons_are_stored_and_kept_by_a_later_setup(
    services: Services, database: Database
) -> None:
    await services.guilds.configure(admin(), locale="ja", bilingual_buttons=True)
    # A later /setup that does not name the option keeps it.
    await services.guilds.configure(admin(), log_channel_id=77)
    fresh = Services(database, clock=lambda: NOW, seeds=lambda: 1)  # no cached config
    config = await fresh.guilds.config(GUILD)
    assert config.bilingual_buttons is True
    assert config == replace(config, locale="ja", log_channel_id=77)
    assert (await guild_config_row(database))["bilingual_buttons"] == 1
    off = await fresh.guilds.configure(admin(), bilingual_buttons=False)
    assert off.bilingual_buttons is False
    assert (await guild_config_row(database))["bilingual_buttons"] == 0


async def test_the_column_accepts_only_yes_or_no(database: Database) -> None:
    insert = "INSERT INTO guild_config (guild_id, bilingual_buttons, updated_at) VALUES (5, ?, ?)"
    with pytest.raises(Exception, match=r"(?i)check"):
        async with database.write() as connection:
            await connection.execute(insert, (2, "now"))


# -- 6. settings are all or nothing ---------------------------------------------------------


async def four_registered(services: Services) -> None:
    await services.tournaments.create(
        organizer(), name="Winter Cup", format="swiss", regulation="single"
    )
    for number, name in enumerate(("ムギ", "唯", "澪", "律"), start=1):
        await services.registration.register(replace(player(number), display_name=name), None)


async def tournaments_row(database: Database) -> tuple[object, ...]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall("SELECT * FROM tournaments")
    (row,) = rows
    return tuple(row)


@pytest.mark.parametrize(
    ("bad", "setting"),
    [
        ({"starts_at": "来週のどこか"}, "開始時刻"),  # refused before the change is built
        ({"checkin_minutes": 5000}, "チェックイン分"),  # refused by the rules
        ({"missing_deck_policy": "sometimes"}, "デッキ未提出時"),
    ],
)
async def test_one_bad_setting_saves_nothing_and_says_so(
    configured: Services, database: Database, bad: dict[str, object], setting: str
) -> None:
    await four_registered(configured)
    before = await tournaments_row(database)
    with pytest.raises(InvalidInput) as refused:
        await configured.tournaments.update_settings(
            organizer(), None, decklist_required=False, **bad
        )
    assert await tournaments_row(database) == before  # decklist_required=False was not saved either
    ja, en = describe_error(refused.value, "ja"), describe_error(refused.value, "en")
    assert f"設定「{setting}」を直して" in ja
    assert "何も保存していません" in ja
    assert "Nothing from this command was saved" in en


async def test_an_unreadable_start_shows_the_forms_it_accepts(configured: Services) -> None:
    await four_registered(configured)
    with pytest.raises(InvalidInput) as refused:
        await configured.tournaments.update_settings(organizer(), None, starts_at="夜")
    ja = describe_error(refused.value, "ja")
    for form in ("2026/12/24 13:00", "今日 21時", "明日 21時", "21:00", "21時30分", "12/24 13時"):
        assert f"`{form}`" in ja


async def test_today_at_21_is_this_evening_in_japan_with_the_other_settings(
    configured: Services,
) -> None:
    # The command a Japanese organizer typed, now read: NOW is 13:00 on 1 December in Japan.
    await four_registered(configured)
    updated = (
        await configured.tournaments.update_settings(
            organizer(), None, starts_at="今日 21時", decklist_required=False
        )
    ).tournament
    assert updated.starts_at == datetime(2026, 12, 1, 21, 0, tzinfo=JST)
    assert updated.decklist_required is False
    tomorrow = (
        await configured.tournaments.update_settings(organizer(), None, starts_at="明日 9:30")
    ).tournament
    assert tomorrow.starts_at == datetime(2026, 12, 2, 9, 30, tzinfo=JST)


async def test_a_start_refused_names_who_would_be_left_out_and_why(
    configured: Services,
) -> None:
    # With 4 registered and no decks, the start said 「参加者が 0 人しかいません」.
    await four_registered(configured)
    await configured.tournaments.update_settings(organizer(), None, checkin_minutes=30)
    await configured.tournaments.update_settings(organizer(), None, starts_at="今日 13:10")
    await configured.registration.check_in(replace(player(1), display_name="ムギ"), None)
    for attempt in (configured.lifecycle.preview, configured.lifecycle.start):
        with pytest.raises(IllegalTransition) as refused:
            await attempt(organizer(), None)
        ja = describe_error(refused.value, "ja")
        assert "参加登録 4 人のうち、開始できるのは 0 人です" in ja
        assert "適合するデッキがないため除外: ムギ、唯、澪、律" in ja
        assert "チェックインしていないため除外: 唯、澪、律" in ja
        en = describe_error(refused.value, "en")
        assert "Of 4 registered players, only 0 can start" in en
        assert "no legal deck: ムギ, 唯, 澪, 律" in en


async def test_a_start_refused_without_anyone_left_out_says_only_the_count(
    configured: Services,
) -> None:
    await configured.tournaments.create(
        organizer(), name="Small Cup", format="swiss", regulation="single"
    )
    await configured.registration.register(player(1), None)
    await configured.tournaments.update_settings(organizer(), None, decklist_required=False)
    with pytest.raises(IllegalTransition) as refused:
        await configured.lifecycle.preview(organizer(), None)
    ja = describe_error(refused.value, "ja")
    assert ja == "参加登録 1 人のうち、開始できるのは 1 人です。開始には 2 人以上必要です。"


# -- 7. commands after the finish ------------------------------------------------------------


async def play_to_the_end(services: Services, name: str, first_player: int) -> None:
    """A one-round event of two players, played and finished."""
    await services.tournaments.create(
        organizer(), name=name, format="swiss", regulation="single", rounds=1
    )
    await services.tournaments.update_settings(organizer(), name, decklist_required=False)
    for number in (first_player, first_player + 1):
        await services.registration.register(player(number), name)
    await services.lifecycle.start(organizer(), name)
    paired = await services.rounds.pair(organizer(), name)
    winner = paired.round.matches[0].players[0]
    await services.rounds.set_result(judge(), name, table=1, choice="win", player=winner, number=1)
    await services.rounds.finish(organizer(), name)


async def test_after_the_finish_the_reading_commands_take_the_finished_tournament(
    configured: Services,
) -> None:
    # /tournament export right after /tournament finish answered 「受付中・開催中の
    # 大会はありません。/tournament create で作成してください」.
    await play_to_the_end(configured, "Winter Cup", 1)
    exported = await configured.rounds.export(organizer(), None)
    standings, record = exported.standings, exported.record
    assert standings.tournament.name == "Winter Cup"
    assert b"Player 1" in record
    assert (await configured.rounds.standings(GUILD, None)).tournament.name == "Winter Cup"
    found, actions = await configured.judges.log(judge(), None)
    assert found.name == "Winter Cup"
    assert actions
    found, entries = await configured.registration.players(GUILD, None)
    assert [entry.user_id for entry in entries] == [player(1).user_id, player(2).user_id]
    found, _ = await configured.judges.penalties(judge(), None, None)
    assert found.name == "Winter Cup"
    with pytest.raises(NotFound) as no_deck:  # found the tournament: the player has no list
        await configured.decks.show(player(1), None, None)
    assert no_deck.value.key == "submission.no_deck"


async def test_a_command_that_changes_something_still_wants_an_open_tournament(
    configured: Services,
) -> None:
    await play_to_the_end(configured, "Winter Cup", 1)
    for attempt in (
        configured.registration.register(player(5), None),
        configured.rounds.pair(organizer(), None),
        configured.tournaments.update_settings(organizer(), None, decklist_required=True),
    ):
        with pytest.raises(NotFound) as none_open:
            await attempt
        assert none_open.value.key == "tournament.none_open"


async def test_the_tournament_finished_last_is_taken_and_an_open_one_comes_first(
    configured: Services,
) -> None:
    await configured.tournaments.create(
        organizer(), name="Early Cup", format="swiss", regulation="single", rounds=1
    )
    await play_to_the_end(configured, "Late Cup", 3)  # created after Early Cup, finished first
    await configured.tournaments.update_settings(organizer(), "Early Cup", decklist_required=False)
    for number in (5, 6):
        await configured.registration.register(player(number), "Early Cup")
    # While Early Cup is open, it is the one.
    assert (await configured.rounds.standings(GUILD, None)).tournament.name == "Early Cup"
    await configured.lifecycle.start(organizer(), "Early Cup")
    paired = await configured.rounds.pair(organizer(), "Early Cup")
    await configured.rounds.set_result(
        judge(), "Early Cup", table=1, choice="win", player=paired.round.matches[0].players[0]
    )
    await configured.rounds.finish(organizer(), "Early Cup")
    # Both finished: the one finished last, though created first.
    assert (await configured.rounds.standings(GUILD, None)).tournament.name == "Early Cup"
