"""The final standings post: whole while it fits in a few messages, packed to Discord's
limits; a large event's in part, with both lists whole in attached CSV files."""

from __future__ import annotations

import csv
import io

from bot.ui.rounds import (
    EMBED_CHARACTERS_PER_MESSAGE,
    EMBEDS_PER_MESSAGE,
    FINAL_MESSAGES_IN_FULL,
    final_standings_post,
)
from domain.tournament.views import Views
from tests.domain.series.support import play_event


def within_limits(messages: list[list[object]]) -> None:
    for embeds in messages:
        assert 1 <= len(embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(embed) for embed in embeds) <= EMBED_CHARACTERS_PER_MESSAGE  # type: ignore[arg-type]


def test_a_small_event_shows_both_lists_whole_in_one_message() -> None:
    finished = play_event([100 + n for n in range(1, 9)], top_cut=4)
    post = final_standings_post(Views(finished), "ja")
    (embeds,) = post.messages  # the placings and the order for prizes, one message
    assert "最終順位" in (embeds[0].title or "")
    assert "賞品用の順位" in (embeds[1].title or "")
    assert post.note is None
    assert post.files == ()
    within_limits(post.messages)


def test_a_large_event_shows_the_top_and_attaches_both_lists_whole() -> None:
    players = [100 + n for n in range(1, 301)]
    finished = play_event(players, top_cut=8)
    post = final_standings_post(Views(finished), "ja")
    within_limits(post.messages)
    assert len(post.messages) <= FINAL_MESSAGES_IN_FULL
    embeds = [embed for message in post.messages for embed in message]
    assert "最終順位" in (embeds[0].title or "")
    assert "賞品用の順位" in (embeds[-1].title or "")
    shown = "\n".join(embed.description or "" for embed in embeds[:-1])
    assert post.note is not None
    assert "300" in post.note
    assert "CSV" in post.note
    files = dict(post.files)
    assert set(files) == {
        f"final-standings-{finished.id}.csv",
        f"prize-order-{finished.id}.csv",
    }
    for data in files.values():
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
        named = {cell for row in rows[1:] for cell in row}
        assert len(rows) == 1 + 300  # every player, once
        assert all(f"P{n}" in named for n in range(1, 301))
    # The placings' first 60 are shown (the top cut among them), as the file lists them.
    placings = list(
        csv.reader(io.StringIO(files[f"final-standings-{finished.id}.csv"].decode("utf-8-sig")))
    )
    top = [
        next(cell for cell in row if cell in {f"P{n}" for n in range(1, 301)})
        for row in placings[1:61]
    ]
    assert all(f" {name} " in shown for name in top)
