"""/tournament page (the live page): the page's switch is an organizer's operation that carries
its address, so the log replays to the same address."""

from __future__ import annotations

import pytest

from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from domain.tournament import events as ev
from domain.tournament.operations import SetLivePage
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player

SLUG = "AbCdEfGhIjKlMnOpQrStUv"


def test_the_organizer_turns_the_page_on_and_off_keeping_its_address() -> None:
    clock = Clock(new_tournament())
    shown = clock.apply(SetLivePage(True, SLUG))
    assert (shown.page_public, shown.page_slug) == (True, SLUG)
    assert clock.events == (ev.LivePageChanged(True),)
    hidden = clock.apply(SetLivePage(False, SLUG))
    assert (hidden.page_public, hidden.page_slug) == (False, SLUG)
    assert hidden.players == shown.players
    assert hidden.rounds == shown.rounds


@pytest.mark.parametrize("actor", [JUDGE, player(1)])
def test_only_an_organizer_may_switch_the_page(actor: object) -> None:
    clock = Clock(new_tournament())
    with pytest.raises(PermissionDenied):
        clock.apply(SetLivePage(True, SLUG), actor)  # type: ignore[arg-type]


def test_switching_to_the_state_it_has_is_refused() -> None:
    clock = Clock(new_tournament())
    with pytest.raises(IllegalTransition) as refused:
        clock.apply(SetLivePage(False, SLUG))
    assert refused.value.key == "web.page_already_off"
    clock.apply(SetLivePage(True, SLUG))
    with pytest.raises(IllegalTransition) as again:
        clock.apply(SetLivePage(True, SLUG))
    assert again.value.key == "web.page_already_on"


@pytest.mark.parametrize("slug", ["", "short", "a" * 21, "has space in it 1234567", "é" * 22])
def test_a_guessable_or_odd_address_is_refused(slug: str) -> None:
    with pytest.raises(InvalidInput):
        Clock(new_tournament()).apply(SetLivePage(True, slug))


def test_the_operation_round_trips_through_the_log_payload() -> None:
    operation = SetLivePage(True, SLUG)
    assert SetLivePage.from_payload(operation.to_payload()) == operation
