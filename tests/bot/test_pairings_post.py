"""A round's pairings post is complete, within Discord's limits, and never more messages
than one channel takes at once (about 5 in 5 s): every player of a small event pinged, a
large round's tables packed into embeds, and a round too large even for that in a file of
every table, each player finding their own with 結果報告 or /pairing."""

from __future__ import annotations

import re

import pytest

from bot.ui import rounds
from bot.ui.rounds import MENTIONS_PER_MESSAGE, MESSAGE_LIMIT, pairings_posts
from domain.engine.results import MatchResult
from domain.tournament.operations import (
    ChangeSettings,
    Register,
    SetResult,
    SettingsChange,
    StartTournament,
)
from domain.tournament.play import propose_round
from tests.domain.tournament.support import JUDGE, Clock, new_tournament, player


def players(count: int) -> Clock:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, count + 1):
        clock.apply(Register(100 + number, f"参加者{number:03d}"), player(number))
    clock.apply(StartTournament(seed=600))
    clock.apply(propose_round(clock.tournament, 1).operation())
    return clock


def six_hundred_and_one_players() -> Clock:
    return players(601)  # odd: one bye too


def test_every_table_is_posted_within_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = six_hundred_and_one_players()
    current = clock.tournament.rounds[0]
    assert len(pairings_posts(clock.tournament, current, {}, "ja")) <= rounds.POST_MESSAGES
    # Text with pings, were a channel to take this many messages at once.
    monkeypatch.setattr(rounds, "POST_MESSAGES", 20)
    texts = {lang: pairings_posts(clock.tournament, current, {}, lang) for lang in ("ja", "en")}
    for lang in ("ja", "en"):
        posts = texts[lang]
        assert len(posts) > 1
        seen_tables = []
        pinged = []
        for post in posts:
            assert len(post.content) <= MESSAGE_LIMIT
            assert len(post.pinged) <= MENTIONS_PER_MESSAGE
            mentioned = [int(m) for m in re.findall(r"<@(\d+)>", post.content)]
            assert sorted(mentioned) == sorted(post.pinged)  # pings exactly who is named
            pinged += post.pinged
            label = "テーブル" if lang == "ja" else "Table"
            seen_tables += [int(t) for t in re.findall(rf"{label} (\d+):", post.content)]
        assert seen_tables == list(range(1, 301))  # every table once, in order, none cut
        assert sorted(pinged) == sorted(101 + n for n in range(601))
        assert all(
            f"({index}/{len(posts)})" in post.content or f"（{index}/{len(posts)}）" in post.content
            for index, post in enumerate(posts, start=1)
        )


def test_a_long_round_status_is_shown_in_part_and_attached_whole() -> None:
    from bot.ui.rounds import status_embed

    clock = six_hundred_and_one_players()
    embed, file = status_embed(clock.tournament, clock.tournament.rounds[0], "ja")
    assert file is not None  # 300 tables do not fit one embed: nothing is cut silently
    assert embed.description is not None
    assert len(embed.description) <= 4096
    assert "添付" in embed.description
    whole = file.fp.read().decode("utf-8")
    assert sum(line.startswith("テーブル") for line in whole.splitlines()) == 300
    assert "対戦中 300 テーブル・結果確定 0 テーブル" in whole


def test_a_small_event_pings_every_player_in_a_few_messages() -> None:
    clock = players(201)
    posts = pairings_posts(clock.tournament, clock.tournament.rounds[0], {}, "ja")
    assert 1 < len(posts) <= rounds.POST_MESSAGES
    assert sorted(p for post in posts for p in post.pinged) == [101 + n for n in range(201)]


def test_a_round_too_large_for_the_channel_is_one_message_and_a_file_of_every_table() -> None:
    clock = players(2401)
    played = clock.tournament.rounds[0]
    for lang in ("ja", "en"):
        (post,) = pairings_posts(clock.tournament, played, {}, lang)
        assert post.pinged == ()
        assert post.listing is not None
        name, text = post.listing
        assert name == "pairings-round-1.txt"
        label = "テーブル" if lang == "ja" else "Table"
        assert [int(t) for t in re.findall(rf"{label} (\d+):", text)] == list(range(1, 1201))
        assert "<@" not in text  # names, as a file shows no mentions
        assert "参加者001" in text  # the players by name
        assert "1200" in post.content  # how many tables, and where to find one's own
        (marked,) = pairings_posts(clock.tournament, played, {}, lang, marked=True)
        assert marked.content == post.content  # nothing on it for results to change


def test_a_large_round_is_packed_into_embeds_within_the_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Beyond what text takes in the messages a channel takes at once, the tables are
    # packed into embeds (10 a message, 6,000 characters across them, 4,096 each): every
    # table once, in order, none cut; nobody pinged; fewer messages.
    clock = six_hundred_and_one_players()
    monkeypatch.setattr(rounds, "POST_MESSAGES", 20)
    texts = pairings_posts(clock.tournament, clock.tournament.rounds[0], {}, "ja")
    monkeypatch.setattr(rounds, "PINGED_TABLES", 100)
    for table in range(1, 200, 3):  # some results in: their lines change, not the split
        winner = clock.tournament.rounds[0].matches[table - 1].players[0]
        clock.apply(SetResult(1, table, MatchResult.win(str(winner))), JUDGE)
    played = clock.tournament.rounds[0]
    for lang in ("ja", "en"):
        posts = pairings_posts(clock.tournament, played, {}, lang)
        marked = pairings_posts(clock.tournament, played, {}, lang, marked=True)
        assert len(posts) == len(marked) <= len(texts) / 2
        label = "テーブル" if lang == "ja" else "Table"
        seen: list[int] = []
        for post, later in zip(posts, marked, strict=True):
            assert len(post.content) <= MESSAGE_LIMIT
            assert post.pinged == ()
            assert "<@" not in post.content
            for shown in (post, later):
                assert len(shown.tables) <= rounds.EMBEDS_PER_MESSAGE
                assert sum(len(embed) for embed in shown.tables) <= 6000
                assert all(len(embed) <= 4096 for embed in shown.tables)
            tables = [int(t) for t in re.findall(rf"{label} (\d+):", "\n".join(post.tables))]
            again = [int(t) for t in re.findall(rf"{label} (\d+):", "\n".join(later.tables))]
            assert tables == again  # marking a table never moves it to another message
            seen += tables
        assert seen == list(range(1, 301))
        assert "✅" in "".join(t for post in marked for t in post.tables)
        assert all(
            f"({index}/{len(posts)})" in post.content or f"（{index}/{len(posts)}）" in post.content
            for index, post in enumerate(posts, start=1)
        )


def test_a_handle_shows_beside_the_mention_in_the_post_and_the_bye_line() -> None:
    """A player who chose ハンドルネーム あずにゃん is pinged and named by it: every client
    shows a mention as the Discord name. A player without one is the mention alone."""
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    clock.apply(Register(101, "azusa_discord", handle="あずにゃん"), player(1))
    for number in (2, 3):
        clock.apply(Register(100 + number, f"参加者{number}"), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 1).operation())
    played = clock.tournament.rounds[0]
    ja = "\n".join(post.content for post in pairings_posts(clock.tournament, played, {}, "ja"))
    en = "\n".join(post.content for post in pairings_posts(clock.tournament, played, {}, "en"))
    assert "<@101> あずにゃん（勝ち点 0）" in ja
    assert "<@101> (あずにゃん)" in en
    assert "azusa_discord" not in ja
    for other in (102, 103):
        assert f"<@{other}>（勝ち点 0）" in ja  # no handle: the mention alone
        assert f"<@{other}> 参加者" not in ja


def tables_by_message(posts: list[rounds.Post], lang: str) -> list[list[int]]:
    label = "テーブル" if lang == "ja" else "Table"
    return [
        [int(t) for t in re.findall(rf"{label} (\d+):", "\n".join([p.content, *p.tables]))]
        for p in posts
    ]


@pytest.mark.parametrize("count", [40, 256])
def test_naming_the_rooms_as_they_are_made_never_moves_a_table(count: int) -> None:
    """With match rooms, the post goes out naming the rooms made so far and is edited as
    the rest appear (and as results come in): every form of the post has the same
    messages with the same tables in each, so an edit of each part never loses a table."""
    clock = players(count)
    clock.apply(ChangeSettings(SettingsChange(rooms=True)))
    played = clock.tournament.rounds[0]
    tables = [m.table for m in played.matches if len(m.players) == 2]
    every = {table: 1_580_000_000_000_000_000 + table for table in tables}
    some = {table: room for table, room in every.items() if table <= len(tables) // 3}
    for table in range(1, len(tables), 4):  # some results in too
        winner = played.matches[table - 1].players[0]
        clock.apply(SetResult(1, table, MatchResult.win(str(winner))), JUDGE)
    for lang in ("ja", "en"):
        first = pairings_posts(clock.tournament, played, {}, lang, rooms=some)
        later = pairings_posts(
            clock.tournament, clock.tournament.rounds[0], {}, lang, rooms=every, marked=True
        )
        assert tables_by_message(first, lang) == tables_by_message(later, lang)
        assert sum(len(found) for found in tables_by_message(later, lang)) == len(tables)
        shown = "\n".join(text for p in later for text in (p.content, *p.tables))
        assert all(f"<#{room}>" in shown for room in every.values())
        for post in later:
            assert len(post.content) <= MESSAGE_LIMIT
            assert sum(len(embed) for embed in post.tables) <= 6000
