"""The entry flows below Discord: the start preview, tournament choices with state and
count, and members whose names look like mentions."""

from __future__ import annotations

import pytest

from bot.i18n import Lang
from bot.services import Services
from bot.services.actors import Actor
from bot.services.tournaments import choice_label
from domain.errors import IllegalTransition, PermissionDenied
from domain.event import Phase
from tests.domain.tournament.support import new_tournament
from tests.services.conftest import GUILD, LEGAL_DECK, organizer, player
from tests.services.test_tournament_flow import actions, create


async def test_the_preview_names_who_the_start_drops_and_changes_nothing(
    configured: Services,
) -> None:
    services = configured
    await create(services, rounds=5)
    for number in range(1, 5):
        await services.registration.register(player(number), None)
    for number in range(1, 4):
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    logged = await actions(services)
    preview = await services.lifecycle.preview(organizer(), None)
    assert preview.playing == 3
    assert preview.rounds == 5  # the organizer's override (R-FMT-6)
    assert [e.user_id for e in preview.without_deck] == [player(4).user_id]
    assert [e.user_id for e in preview.dropped] == [player(4).user_id]
    assert preview.not_checked_in == []
    assert await actions(services) == logged  # a preview writes nothing
    assert preview.tournament.phase is Phase.REGISTRATION
    # The start then does what the preview said.
    report = await services.lifecycle.start(organizer(), None)
    assert [e.user_id for e in report.dropped] == [e.user_id for e in preview.dropped]
    assert len(report.players) == preview.playing
    with pytest.raises(IllegalTransition) as again:
        await services.lifecycle.preview(organizer(), None)
    assert again.value.key == "tournament.already_started"


async def test_the_preview_counts_default_rounds_and_is_for_organizers(
    configured: Services,
) -> None:
    services = configured
    await create(services)
    await services.tournaments.update_settings(organizer(), None, decklist_required=False)
    for number in range(1, 10):
        await services.registration.register(player(number), None)
    assert (await services.lifecycle.preview(organizer(), None)).rounds == 4  # 9 players
    with pytest.raises(PermissionDenied):
        await services.lifecycle.preview(player(1), None)


async def test_choices_show_state_and_count_in_the_readers_language(
    configured: Services,
) -> None:
    services = configured
    await create(services, name="第12回 交流会", max_players=24)
    await create(services, name="Open Day")
    await services.tournaments.update_settings(organizer(), "Open Day", decklist_required=False)
    for number in range(1, 3):
        await services.registration.register(player(number), "Open Day")
    await services.registration.register(player(1), "第12回 交流会")
    await services.lifecycle.start(organizer(), "Open Day")
    ja = await services.tournaments.autocomplete(GUILD, "", "ja")
    en = await services.tournaments.autocomplete(GUILD, "", "en")
    assert [label for label, _ in ja] == [
        "【開催中】Open Day（2人）",
        "【受付中】第12回 交流会（1人／定員24人）",
    ]
    assert [label for label, _ in en] == [
        "[Running] Open Day (2 players)",
        "[Open] 第12回 交流会 (1 player / 24 max)",
    ]
    assert [value for _, value in ja] == [value for _, value in en]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_long_name_is_cut_to_fit_a_choice(lang: Lang) -> None:
    # Names are at most 64 characters today; the label keeps Discord's 100 whatever comes.
    tournament = new_tournament(name="長" * 120, max_players=4096)
    label = choice_label(tournament, lang)
    assert len(label) == 100
    assert "長…" in label
    assert label.endswith("（0人／定員4096人）" if lang == "ja" else " (0 players / 4096 max)")
    assert choice_label(new_tournament(name="Cup"), lang).count("Cup") == 1


async def test_a_member_named_like_a_mention_is_registered_under_that_name(
    configured: Services,
) -> None:
    services = configured
    await create(services)
    odd = Actor(150, GUILD, "@everyone 平沢🇯🇵\u200d\u202e")
    result = await services.registration.register(odd, None)
    assert result.player.display_name == "@everyone 平沢🇯🇵\u200d\u202e"
    _, players = await services.registration.players(GUILD, None)
    assert [p.display_name for p in players] == ["@everyone 平沢🇯🇵\u200d\u202e"]
