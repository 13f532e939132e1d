"""Names as the presentation shows them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.tournament.model import Entry
from domain.tournament.names import display_name, display_names
from tests.domain.tournament.support import new_tournament

AT = datetime(2026, 12, 1, tzinfo=UTC)


@given(st.lists(st.sampled_from(["あずさ", "Yui", "Mio", "Mio "]), max_size=12), st.integers(0, 14))
def test_one_name_is_the_name_in_the_map(names: list[str], asked: int) -> None:
    players = {
        100 + n: Entry(100 + n, name, PlayerStatus.REGISTERED, n + 1, AT)
        for n, name in enumerate(names)
    }
    tournament = replace(new_tournament(), players=players)
    assert display_name(tournament, 100 + asked) == display_names(tournament).get(100 + asked)


def test_a_shared_name_carries_the_id() -> None:
    players = {
        user: Entry(user, "Mio", PlayerStatus.REGISTERED, user, AT) for user in (101, 102)
    } | {103: Entry(103, "Yui", PlayerStatus.REGISTERED, 3, AT)}
    tournament = replace(new_tournament(), players=players)
    assert display_name(tournament, 101) == "Mio (101)"
    assert display_name(tournament, 103) == "Yui"
    assert display_name(tournament, 999) is None
