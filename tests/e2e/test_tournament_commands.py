"""/setup, /tournament, /register, /players and /deck through the real bot and the fake Discord.

The tests of this module share one bot and tell one story, in order: a server is set up, a
tournament created, eight players register and submit decks (one illegal, then corrected),
the organizer starts it and the decks are locked.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import REPO_ROOT
from tests.e2e.fake_discord import FakeDiscord, Upload, text_of
from tests.e2e.story import JSON, LEGAL_CSV, PLAYERS, assert_refused, setup_server

pytestmark = pytest.mark.e2e

LEGAL_TEXT = (REPO_ROOT / "data" / "examples" / "keion.txt").read_text(encoding="utf-8")
# Five copies of 01-001 (R-DECK-2) make 61 cards (R-DECK-1).
ILLEGAL_CSV = LEGAL_CSV.decode().replace("4,けいおん！,01-001", "5,けいおん！,01-001", 1).encode()
CUP = "Winter Cup"


async def test_setup_stores_roles_channels_and_language(fake: FakeDiscord) -> None:
    reply = await setup_server(fake, locale="ja")
    assert reply.ephemeral
    assert "サーバー設定を保存しました" in reply.text
    shown = await fake.slash("setup show", user="moderator", locale="en-US")
    assert f"<@&{fake.role('Organizer').id}>" in shown.text
    assert f"<#{fake.channel('announcements').id}>" in shown.text


async def test_create_announces_format_regulation_and_time_limit(fake: FakeDiscord) -> None:
    reply = await fake.slash(
        "tournament create",
        user="organizer",
        locale="en-US",
        options={"name": CUP, "format": "swiss", "regulation": "single", "max_players": 8},
    )
    assert reply.ephemeral
    assert f'Created tournament "{CUP}"' in reply.text
    announcement = fake.messages("announcements")[-1]["content"]
    # R-FMT-6: format, regulation and time limit, in the server's language (ja).
    assert CUP in announcement
    assert "スイスドロー" in announcement
    assert "シングルレギュレーション" in announcement
    assert "40 分" in announcement


async def test_ordinary_players_cannot_use_organizer_commands(fake: FakeDiscord) -> None:
    attempts: dict[str, JSON] = {
        "setup server": {"language": "en"},
        "tournament create": {"name": "Alice Cup", "format": "swiss", "regulation": "mix"},
        "tournament settings": {"tournament": "1", "decklist_required": False},
        "tournament start": {"tournament": "1"},
        "deck publish": {"tournament": "1"},
    }
    posted_before = len(fake.messages("announcements"))
    await assert_refused(fake, attempts, naming=("permission", "organizer"))
    assert len(fake.messages("announcements")) == posted_before


async def test_autocomplete_offers_the_servers_tournaments(fake: FakeDiscord) -> None:
    reply = await fake.autocomplete("register", focused="tournament", value="win", user="bob")
    assert [choice["name"] for choice in reply.choices] == [f"[Open] {CUP} (0 players / 8 max)"]
    assert [choice["value"] for choice in reply.choices] == ["1"]


async def test_eight_players_register_and_the_ninth_is_waitlisted(fake: FakeDiscord) -> None:
    for name in PLAYERS:
        reply = await fake.slash("register", user=name, locale="en-US")
        assert f'registered for "{CUP}"' in reply.text, reply.text
    late = await fake.slash("register", user="judge", locale="en-US")
    assert "waitlist (position 1)" in late.text
    left = await fake.slash("unregister", user="judge", locale="en-US")
    assert "cancelled" in left.text


async def test_registering_twice_is_refused_in_both_languages(fake: FakeDiscord) -> None:
    ja = await fake.slash("register", user="alice", locale="ja")
    en = await fake.slash("register", user="alice", locale="en-US")
    assert ja.ephemeral
    assert en.ephemeral
    assert f"「{CUP}」にはすでに登録されています" in ja.text
    assert f'already registered for "{CUP}"' in en.text


async def test_players_lists_everyone(fake: FakeDiscord) -> None:
    reply = await fake.slash("players", user="carol", locale="en-US")
    assert f"Players of {CUP} (8 players)" in reply.text
    for name in PLAYERS:
        assert f"<@{fake.member(name).id}>" in reply.text


async def test_an_illegal_deck_lists_every_violation_and_is_not_stored(fake: FakeDiscord) -> None:
    reply = await fake.slash(
        "deck submit", user="alice", locale="ja", options={"file": Upload("deck.csv", ILLEGAL_CSV)}
    )
    assert reply.ephemeral
    assert "規定に適合しません" in reply.text
    assert "R-DECK-1" in reply.text
    assert "R-DECK-2" in reply.text
    shown = await fake.slash("deck show", user="alice", locale="en-US")
    assert "No deck was submitted" in shown.text


async def test_bad_files_get_clear_errors(fake: FakeDiscord) -> None:
    image = await fake.slash(
        "deck submit",
        user="alice",
        locale="en-US",
        options={"file": Upload("deck.png", b"\x89PNG\r\n", "image/png")},
    )
    assert "Attach a text file" in image.text
    huge = await fake.slash(
        "deck submit",
        user="alice",
        locale="en-US",
        options={"file": Upload("deck.txt", b"4 01-001 x\n" * 7000)},
    )
    assert "too large" in huge.text


async def test_legal_decks_are_stored_with_their_fingerprint(fake: FakeDiscord) -> None:
    fingerprints = set()
    for name in PLAYERS[:-1]:
        reply = await fake.slash(
            "deck submit",
            user=name,
            locale="en-US",
            options={"file": Upload("deck.csv", LEGAL_CSV)},
        )
        assert "Deck accepted (60 cards)" in reply.text, reply.text
        fingerprints.add(reply.text.split("`")[1])
    assert len(fingerprints) == 1  # the same list gives the same fingerprint


async def test_a_pasted_deck_goes_through_the_modal(fake: FakeDiscord) -> None:
    opened = await fake.slash("deck submit", user="heidi", locale="ja")
    assert opened.type == 9
    field = opened.modal["components"][0]
    custom_id = (field.get("component") or field["components"][0])["custom_id"]
    done = await fake.submit_modal(opened, {custom_id: LEGAL_TEXT}, user="heidi", locale="ja")
    assert "デッキを受け付けました（合計 60 枚）" in done.text


async def test_deck_check_validates_without_storing(fake: FakeDiscord) -> None:
    reply = await fake.slash(
        "deck check", user="judge", locale="en-US", options={"file": Upload("d.csv", LEGAL_CSV)}
    )
    assert "legal" in reply.text
    assert "Nothing was stored" in reply.text
    # No card database or restricted list ships: numbers nobody printed pass the
    # construction rules, and the answer says they were checked against no card list.
    made_up = "# けいおん！\n" + "".join(f"4 99-{900 + n}\n" for n in range(15))
    for locale, said in (
        ("ja", "カード番号は、どのカードリストとも照合していません"),
        ("en-US", "not checked against any card list"),
    ):
        checked = await fake.slash(
            "deck check",
            user="judge",
            locale=locale,
            options={"file": Upload("made-up.txt", made_up.encode())},
        )
        assert said in checked.text, checked.text
    restricted = "制限カードは確認していません"
    assert restricted in checked.text or "restricted cards were not checked" in checked.text


async def test_decklists_are_private_until_published(fake: FakeDiscord) -> None:
    own = await fake.slash("deck show", user="alice", locale="en-US")
    assert "Decklist of alice" in own.text or "01-001" in own.text
    peek = await fake.slash("deck show", user="bob", locale="en-US", options={"player": "alice"})
    assert "visible only to judges" in peek.text
    judged = await fake.slash(
        "deck show", user="judge", locale="en-US", options={"player": "alice"}
    )
    assert "01-001" in judged.text


async def test_start_closes_registration_locks_decks_and_records_the_seed(
    fake: FakeDiscord,
) -> None:
    preview = await fake.slash("tournament start", user="organizer", locale="en-US")
    assert "nothing has changed yet" in preview.text
    assert "not checked against any card list" in preview.text  # no card database
    assert "Players: 8" in preview.text
    assert "Rounds: 3 rounds" in preview.text
    reply = await fake.click(preview, "Start", user="organizer", locale="en-US")
    assert f'Started "{CUP}" with 8 players, random seed' in reply.text
    assert reply.custom_ids == []  # the buttons are gone once pressed
    assert "開始しました" in fake.messages("announcements")[-1]["content"]
    locked = await fake.slash(
        "deck submit", user="alice", locale="en-US", options={"file": Upload("d.csv", LEGAL_CSV)}
    )
    assert "decks are locked" in locked.text  # R-DECK-4
    closed = await fake.slash("unregister", user="bob", locale="ja")
    assert "「ドロップ」ボタン" in closed.text  # R-FMT-7: the player drops by themself
    assert "ジャッジ" not in closed.text
    again = await fake.slash("tournament start", user="organizer", locale="en-US")
    assert "already started" in again.text


async def test_standings_before_any_round_is_complete_list_the_entrants(fake: FakeDiscord) -> None:
    # Started, no round complete: there is no "第 0 回戦終了時点"; the entrants are shown.
    for locale, said in (
        ("ja", "まだ終了した回戦はありません"),
        ("en-US", "No round has finished"),
    ):
        shown = await fake.slash("standings", user="carol", locale=locale)
        assert shown.ephemeral
        assert "0" not in shown.embed["title"], shown.embed["title"]
        assert said in shown.text
        assert "第 0 回戦" not in shown.text
        assert "round 0" not in shown.text
        for player in PLAYERS:
            assert player.capitalize() in shown.text or player in shown.text


async def test_publish_makes_lists_public(fake: FakeDiscord) -> None:
    reply = await fake.slash("deck publish", user="organizer", locale="en-US")
    assert "Published 8 decklists" in reply.text
    posted = fake.messages("announcements")[-1]
    assert posted["attachments"], "the lists are posted as a file"
    peek = await fake.slash("deck show", user="bob", locale="en-US", options={"player": "alice"})
    assert "01-001" in peek.text


async def test_info_and_list(fake: FakeDiscord) -> None:
    info = await fake.slash("tournament info", user="dave", locale="en-US")
    assert "Running" in info.text
    assert "40 minutes, one game" in info.text
    listed = await fake.slash("tournament list", user="dave", locale="ja")
    assert CUP in listed.text
    assert "開催中" in listed.text


async def test_the_panel_is_posted_where_staff_ask_and_kept_up_to_date(fake: FakeDiscord) -> None:
    """/tournament panel: the organizer's panel where the command is used, the
    newest one edited as the event goes; a player asking is refused by the service."""
    refused = await fake.slash("tournament panel", user="dave", channel="general", locale="ja")
    assert "ジャッジ" in refused.text
    assert not [m for m in fake.messages("general") if "運営パネル" in text_of(m)]
    posted = await fake.slash("tournament panel", user="judge", channel="general", locale="ja")
    assert "運営パネルを投稿しました" in posted.text
    (shown,) = [m for m in fake.messages("general") if "運営パネル" in text_of(m)]
    assert "回戦\nまだ対戦表がありません" in text_of(shown)
    await fake.slash("round pair", user="organizer", locale="ja")
    for _ in range(100):
        if "回戦\n第 1 回戦" in text_of(fake.message(shown["id"])):
            break
        await asyncio.sleep(0.05)
    assert "結果\n0 / 4" in text_of(fake.message(shown["id"]))


async def test_server_only_commands_refuse_dms(fake: FakeDiscord) -> None:
    reply = await fake.slash("register", user="alice", dm=True, locale="en-US")
    assert "only works inside a server" in reply.text


async def test_names_with_mentions_are_refused(fake: FakeDiscord) -> None:
    reply = await fake.slash(
        "tournament create",
        user="organizer",
        locale="en-US",
        options={"name": "@everyone party", "format": "swiss", "regulation": "mix"},
    )
    assert "cannot contain mentions" in reply.text
    fake.assert_no_errors_logged()


async def test_spamming_a_costly_command_gets_a_cooldown(fake: FakeDiscord) -> None:
    # A cooldown: a member cannot keep the bot busy checking lists for everyone else.
    answers = [
        await fake.slash(
            "deck check",
            user="moderator",
            locale="ja",
            options={"file": Upload("d.csv", LEGAL_CSV)},
        )
        for _ in range(7)
    ]
    assert all("少し待って" not in answer.text for answer in answers[:6])
    assert "少し待ってからもう一度お試しください" in answers[6].text
    assert answers[6].ephemeral
