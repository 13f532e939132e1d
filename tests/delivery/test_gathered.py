"""Several tables' notices for one place in few messages (bot/ui/gathered.py), always within
Discord's limits: 2,000 characters and 100 pings of text, 10 embeds of 4,096 characters and
6,000 in all; every line in exactly one message, in order; a message's 確認 / 異議 buttons
act on one round."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.notify.payloads import Nothing
from bot.notify.plan import TRAITS
from bot.ui.gathered import EMBED_CHARACTERS, EMBEDS_PER_MESSAGE, LINES, Line, gathered
from bot.ui.notices import RENDERERS, Telling
from tests.domain.tournament.support import new_tournament

TELLING = Telling(new_tournament(), Nothing(), None, "ja", datetime(2026, 12, 1, tzinfo=UTC))

LINE = st.builds(
    Line,
    text=st.text(min_size=1, max_size=300),
    pings=st.lists(st.integers(10**17, 10**18), max_size=2).map(tuple),
    confirm=st.one_of(st.none(), st.integers(1, 2)),
)


@settings(max_examples=150)
@given(st.lists(LINE, max_size=120))
def test_every_line_once_in_order_within_discords_limits(lines: list[Line]) -> None:
    messages = gathered(lines, TELLING)
    carried = [index for _, indexes in messages for index in indexes]
    assert carried == list(range(len(lines)))
    for message, indexes in messages:
        assert len(message.content or "") <= 2000
        assert len(message.pings) <= 100
        assert len(message.embeds) <= EMBEDS_PER_MESSAGE
        assert all(len(embed.description or "") <= 4096 for embed in message.embeds)
        assert sum(len(embed.description or "") for embed in message.embeds) <= EMBED_CHARACTERS
        rounds = {lines[i].confirm for i in indexes} - {None}
        assert len(rounds) <= 1
        if rounds:
            (number,) = rounds
            ids = [c.custom_id for c in message.view.children]  # type: ignore[union-attr]
            assert ids == [
                f"cy:{TELLING.tournament.id}:{number}",
                f"dy:{TELLING.tournament.id}:{number}",
            ]
            assert (message.content or "").startswith("🔔")
        else:
            assert message.view is None
        for index in indexes:  # the pinged are pinged, and only they
            assert set(lines[index].pings) <= set(message.pings)
        assert set(message.pings) <= {p for i in indexes for p in lines[i].pings}


def test_two_thousand_confirmations_fit_in_a_few_dozen_messages() -> None:
    """A round of 2,048 tables: its results, which ping nobody, go in embeds."""
    lines = [Line(f"✅ 第 11 回戦 テーブル {n}: 山田 太郎の勝ち（確定）") for n in range(1, 2049)]
    messages = gathered(lines, TELLING)
    assert len(messages) <= 25


def test_every_kind_that_gathers_has_a_line_and_a_message() -> None:
    gathers = {say for say, traits in TRAITS.items() if traits.gathers}
    assert set(LINES) == gathers
    assert gathers <= set(RENDERERS)
