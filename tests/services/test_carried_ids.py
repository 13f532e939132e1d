"""What a button or form carries, through the services.

A tournament id a button carries names that tournament of this server or nothing: never a
tournament that happens to be named with those digits (a name is what a member types). And
a button that asks something first (the time-out form, the judge-call form, the minutes of
an extension, "drop for good?") is refused before it asks, by the operation's own rules.
"""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.actors import Actor
from domain.errors import DomainError, IllegalTransition
from tests.services.conftest import (
    GUILD,
    LEGAL_DECK,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    judge,
    organizer,
    player,
)


async def running(services: Services, name: str = "Cup", players: int = 4) -> int:
    """A tournament of `players` in its round 1; its id."""
    created = await services.tournaments.create(
        organizer(), name=name, format="swiss", regulation="single"
    )
    for number in range(1, players + 1):
        await services.registration.register(player(number), name)
        await services.decks.submit(player(number), name, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), name)
    await services.rounds.pair(organizer(), name)
    return created.tournament.id


async def test_a_carried_id_names_this_servers_tournament_never_one_so_named(
    configured: Services,
) -> None:
    other_organizer = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    elsewhere = await configured.tournaments.create(
        other_organizer, name="Elsewhere", format="swiss", regulation="single"
    )
    other_id = elsewhere.tournament.id
    here = await configured.tournaments.create(
        organizer(), name=str(other_id), format="swiss", regulation="single"
    )
    # The other server's button, pressed here: out of date, nobody registered.
    with pytest.raises(IllegalTransition) as refused:
        await configured.registration.register(player(1), other_id)
    assert refused.value.key == "errors.stale_button"
    for gone in (0, 2**63, here.tournament.id + 100):
        with pytest.raises(IllegalTransition):
            await configured.registration.register(player(1), gone)
    players, _ = await configured.registration.players(GUILD, here.tournament.id)
    assert players.players == {}
    # Typed in an option, the same digits are the name; this server's button is its id.
    typed = await configured.registration.register(player(1), str(other_id))
    assert typed.tournament.id == here.tournament.id
    pressed = await configured.registration.register(player(2), here.tournament.id)
    assert pressed.tournament.id == here.tournament.id


async def refusal(call: object) -> str:
    with pytest.raises(DomainError) as refused:
        await call  # type: ignore[misc]
    return refused.value.key


async def test_a_question_is_refused_before_it_is_asked(configured: Services) -> None:
    cup = await running(configured)
    mine = await configured.rounds.my_match(player(1), cup)
    opponent = mine.match.opponent_of(player(1).user_id)
    assert opponent is not None
    # Round 1 in play: each question may be asked.
    await configured.rounds.may_report(player(1), cup, 1)
    await configured.judges.may_call(player(1), cup)
    assert (await configured.rounds.may_drop(player(1), cup)).id == cup
    called = await configured.judges.call(player(1), cup, "")
    await configured.judges.may_resolve(judge(), cup, called.call.id)
    # A player may not resolve a call; a resolved call asks for no minutes.
    assert await refusal(configured.judges.may_resolve(player(2), cup, called.call.id)) == (
        "permissions.judge_only"
    )
    await configured.judges.resolve(judge(), cup, called.call.id, 0)
    assert await refusal(configured.judges.may_resolve(judge(), cup, called.call.id)) == (
        "judge.call_resolved"
    )
    # Round 1 over, round 2 paired: its time-out form is out of date.
    for table in (1, 2):
        await configured.rounds.set_result(organizer(), cup, table=table, choice="double_loss")
    await configured.rounds.pair(organizer(), cup)
    assert await refusal(configured.rounds.may_report(player(1), cup, 1)) == (
        "report.round_finished"
    )
    await configured.rounds.may_report(player(1), cup, 2)
    # After a drop: no drop question, no judge call, nothing to report.
    await configured.rounds.drop(player(1), cup)
    assert await refusal(configured.rounds.may_drop(player(1), cup)) == "drop.not_playing"
    assert await refusal(configured.judges.may_call(player(1), cup)) == "judge.call_not_playing"


async def test_a_confirmation_pressed_in_a_dm_acts_in_the_tournaments_server(
    configured: Services,
) -> None:
    """The opponent's notice went by DM (the round had no thread): its 確認 has no server
    but the tournament it carries."""
    cup = await running(configured, players=2)
    await configured.rounds.report(player(1), cup, "win")
    in_a_dm = Actor(player(2).user_id, None, "Player 2")
    with pytest.raises(IllegalTransition) as gone:
        await configured.rounds.confirm(in_a_dm, cup + 100, 1, 1)
    assert gone.value.key == "errors.stale_button"
    confirmed = await configured.rounds.confirm(in_a_dm, cup, 1, 1)
    assert confirmed.match.result is not None
    assert confirmed.tournament.guild_id == GUILD


async def test_a_carried_series_id_names_this_servers_series_never_one_so_named(
    configured: Services,
) -> None:
    """The points form carries its series: another server's id, or one that names nothing,
    is out of date, even where a series of this server is named with those digits."""
    other_organizer = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    elsewhere = await configured.series.create(other_organizer, "League")
    here = await configured.series.create(organizer(), str(elsewhere.id))
    for carried in (elsewhere.id, here.id + 100):
        with pytest.raises(IllegalTransition) as refused:
            await configured.series.set_points(organizer(), carried, "優勝 = 20")
        assert refused.value.key == "errors.stale_button"
    assert (await configured.series.points_of(organizer(), here.id)).table == here.table
    # Typed, the digits are the name; carried, this server's id is its series.
    typed = await configured.series.set_points(organizer(), str(elsewhere.id), "優勝 = 20")
    assert typed.id == here.id
    view = await configured.series.standings(GUILD, here.id)
    assert view.series.table == typed.table


async def test_the_handle_button_must_sit_under_a_registration_of_this_server(
    configured: Services,
) -> None:
    """The handle is the server's, set from the button under a registration's answer: the
    tournament it carries is of this server, finished or not."""
    other_organizer = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    elsewhere = await configured.tournaments.create(
        other_organizer, name="Elsewhere", format="swiss", regulation="single"
    )
    cup = await running(configured, players=2)
    for carried in (elsewhere.tournament.id, cup + 100):
        with pytest.raises(IllegalTransition):
            await configured.profiles.own(player(1), carried)
        with pytest.raises(IllegalTransition):
            await configured.profiles.set_handle(player(1), "Ace", carried)
    assert (await configured.profiles.own(player(1), cup)).handle is None
    changed = await configured.profiles.set_handle(player(1), "Ace", cup)
    assert changed.profile.handle == "Ace"
    assert [t.id for t in changed.renamed] == [cup]


async def test_a_form_of_a_round_taken_back_is_refused_as_taken_back(configured: Services) -> None:
    """Round 2 paired, then taken back (/round repair): its report form, still open, says
    the pairings were taken back; the round-1 form says round 1 is over."""
    cup = await running(configured)
    for table in (1, 2):
        await configured.rounds.set_result(organizer(), cup, table=table, choice="double_loss")
    await configured.rounds.pair(organizer(), cup)
    await configured.rounds.repair(organizer(), cup)
    assert await refusal(configured.rounds.may_report(player(1), cup, 2)) == (
        "report.round_taken_back"
    )
    assert await refusal(configured.rounds.report(player(1), cup, "win", number=2)) == (
        "report.round_taken_back"
    )
    assert await refusal(configured.rounds.may_report(player(1), cup, 1)) == (
        "report.round_finished"
    )
