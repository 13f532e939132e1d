"""Consistent terms and messages for people, as the bot renders
them: what /undo takes back, the judges' re-ping, the organizer's reply after pairing, one
date format, the registration post's check-in, the ranges of the forms, and the words the
regulation uses."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest

from bot.i18n import catalog, describe_error, t
from bot.notify.payloads import CallReping, Nothing
from bot.services.rounds import PostState
from bot.ui.buttons import Labels, minutes_modal, registration_view, time_modal
from bot.ui.entry import registration_embed
from bot.ui.judges import action_what, call_reping, penalty_type
from bot.ui.notices import RENDERERS, Telling
from bot.ui.render import announcement_created, deck_embed
from bot.ui.rounds import pairing_reply
from bot.ui.text import violation_text
from domain.decks import Violation
from domain.engine.results import MAX_POINT_ZONE, MatchResult
from domain.errors import InvalidInput
from domain.timeparse import typed_count
from domain.tournament import codec
from domain.tournament.log import Action
from domain.tournament.operations import (
    CallJudge,
    ChangeSettings,
    Register,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
)
from domain.tournament.penalties import PenaltyType
from domain.tournament.play import MAX_EXTENSION_MINUTES, propose_round
from tests.conftest import REPO_ROOT
from tests.domain.tournament.support import JUDGE, T0, Clock, new_tournament, player

NAMES = ("ムギ", "唯", "澪", "律", "梓")


def running(players: int = 4) -> Clock:
    """An event whose first round is paired and started."""
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, players + 1):
        clock.apply(Register(player(number).user_id, NAMES[number - 1]), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 2).operation())
    clock.apply(StartRound(1))
    return clock


def action(kind: str, payload: dict[str, Any], actor: int = JUDGE.user_id) -> Action:
    return Action(1, 1000, 1, actor, None, kind, payload, T0.isoformat())


# -- /undo says what it takes back ----------------------------------------------------------


def test_the_undo_preview_names_the_round_the_table_and_the_result() -> None:
    clock = running()
    first = clock.tournament.rounds[0].matches[0].players[0]
    operation = SetResult(1, 1, MatchResult.win(str(first)))
    clock.apply(operation, JUDGE)
    payload = codec.encode(operation)  # as the action log keeps it
    winner = clock.tournament.players[first].display_name
    ja = action_what(clock.tournament, action("set_result", payload), "ja")
    assert ja == f"結果の記録（第 1 回戦 テーブル 1: {winner}の勝ち）"
    en = action_what(clock.tournament, action("set_result", payload), "en")
    assert en == f"recorded a result (round 1, table 1: {winner} wins)"


def test_a_report_is_named_with_its_table_found_from_the_player() -> None:
    clock = running()
    first = clock.tournament.rounds[0].matches[1].players[0]
    report = action("report_result", {"player_id": first, "round": 1, "claim": "win"}, first)
    assert action_what(clock.tournament, report, "ja") == "結果の報告（第 1 回戦 テーブル 2: 勝ち）"


def test_a_dispute_is_named_with_what_the_player_claimed() -> None:
    clock = running()
    second = clock.tournament.rounds[0].matches[0].players[1]
    payload = {"player_id": second, "round": 1, "table": 1, "reason": "", "claim": "time"}
    disputed = action("dispute_result", payload, second)
    assert action_what(clock.tournament, disputed, "ja") == (
        "結果への異議（第 1 回戦 テーブル 1: 時間切れ）"
    )
    # Logged before claims were asked for: where, without a claim.
    old = action("dispute_result", {"player_id": second, "round": 1, "table": 1}, second)
    assert action_what(clock.tournament, old, "ja") == "結果への異議（第 1 回戦 テーブル 1）"


def test_an_action_without_a_round_says_only_what_and_whom() -> None:
    clock = running()
    dropped = action("drop", {"player_id": 101}, actor=1)
    assert action_what(clock.tournament, dropped, "ja") == "ドロップ → ムギ"


# -- the judges' re-ping -----------------------------------------------------------------


def test_the_re_ping_does_not_repeat_the_call() -> None:
    clock = running()
    caller = clock.tournament.rounds[0].matches[0].players[0]
    clock.apply(CallJudge(caller, "カードの裁定"), player(caller - 100))
    (call,) = clock.tournament.calls
    now = call.called_at + timedelta(minutes=3)
    text = call_reping(call, now, "ja")
    assert text == (
        "🔔 ジャッジコール #1 が 3 分間、まだ対応されていません。"
        "上の #1 の投稿の「対応する」を押してください。"
    )
    said = RENDERERS[_say("call_reping")](
        Telling(clock.tournament, CallReping(call.round, (), call.id), None, "ja", now)
    )
    (message,) = said.messages
    assert message.view is None  # no second 対応する that would turn into a copy of the call
    assert "カードの裁定" not in (message.content or "")


def _say(value: str) -> Any:
    from bot.notify.plan import Say

    return Say(value)


# -- after pairing -----------------------------------------------------------------------


def test_the_organizer_reads_tables_and_byes_apart() -> None:
    clock = running(players=5)
    paired = type("Paired", (), {})()
    paired.round = clock.tournament.rounds[0]
    paired.tournament = clock.tournament
    paired.proposal = type("Proposal", (), {"explanation": ()})()
    paired.posted = PostState.POSTED
    paired.rooms_waiting = 0
    first_line = pairing_reply(paired, "ja").splitlines()[0]
    assert first_line == "第 1 回戦の対戦表（2 テーブル＋不戦勝 1）を投稿しました。"
    assert pairing_reply(paired, "en").startswith(
        "Posted the pairings of Round 1 (2 tables + 1 bye)."
    )
    # Match rooms still being made (Discord makes a server's channels slowly): said, and
    # the post names them as they appear.
    paired.rooms_waiting = 3
    second_line = pairing_reply(paired, "ja").splitlines()[1]
    assert second_line.startswith("対戦部屋はまだ 3 部屋できていません"), second_line
    assert "3 match rooms are not made yet" in pairing_reply(paired, "en")
    paired.rooms_waiting = 0
    # Said only once it is true: Discord away, the post waits.
    paired.posted = PostState.FAILING
    assert "投稿を待っています（Discord が応答しません）" in pairing_reply(paired, "ja")
    assert "waiting to be posted (Discord is not answering)" in pairing_reply(paired, "en")
    # Only its turn at Discord's pace: Discord is not blamed.
    paired.posted = PostState.WAITING
    waiting = pairing_reply(paired, "ja")
    assert "投稿の順番を待っています" in waiting
    assert "応答しません" not in waiting
    assert "投稿しました" not in waiting
    assert "waiting their turn" in pairing_reply(paired, "en")
    # Skipped (no channel players read): never "posted"; each player hears by DM.
    paired.posted = PostState.NOT_POSTED
    nowhere = pairing_reply(paired, "ja")
    assert "投稿できませんでした" in nowhere
    assert "投稿しました" not in nowhere


# -- one date format ---------------------------------------------------------------------


def test_a_day_is_written_one_way_and_a_moment_as_a_discord_timestamp() -> None:
    tournament = new_tournament()
    fields = {f.name: f.value for f in registration_embed(tournament, "ja").fields}
    assert fields["開催日"] == "2026/12/01"
    view = type("View", (), {})()
    view.decklist = type("D", (), {"canonical_text": lambda self: "4 01-001"})()
    view.owner_name, view.tournament = "唯", tournament
    view.record = type("R", (), {})()
    view.record.fingerprint, view.record.total, view.record.locked_at = "abc", 60, None
    view.record.submitted_at = datetime(2026, 5, 3, 10, 0, tzinfo=UTC)
    embed, _ = deck_embed(view, "ja")
    assert {f.name: f.value for f in embed.fields}["提出"] == "<t:1777802400:f>"
    assert "2026" not in (embed.footer.text or "")


def test_a_deck_rules_date_is_written_the_same_way() -> None:
    banned = Violation(
        "R-REG-5",
        "decks.banned_card",
        {
            "label": "制限",
            "title": "けいおん！",
            "number": "01-001",
            "effective": "2014-05-03",
            "count": 1,
        },
    )
    assert "2014/05/03から" in violation_text(banned, "ja")


def test_nothing_shown_to_people_formats_a_date_by_hand() -> None:
    # Every day goes through bot.i18n.show_date, every moment through <t:…>.
    hand_made = re.compile(r"\.(strftime|isoformat)\(")
    found = [
        str(path.relative_to(REPO_ROOT))
        for folder in ("bot/ui", "bot/notify", "cogs")
        for path in (REPO_ROOT / folder).rglob("*.py")
        if hand_made.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


# -- the registration post speaks of check-in only while its button is shown ---------------


@pytest.mark.parametrize("checkin", [False, True])
def test_check_in_is_spoken_of_only_with_its_button(checkin: bool) -> None:
    tournament = new_tournament()
    for lang, word in (("ja", "チェックイン"), ("en", "check in")):
        text = announcement_created(tournament, lang, checkin=checkin)  # type: ignore[arg-type]
        view = registration_view(tournament.id, Labels(lang), checkin=checkin)  # type: ignore[arg-type]
        labels = [str(b.label) for b in view.children if isinstance(b, discord.ui.Button)]
        assert (word in text) is checkin, (lang, text)
        assert any(word.lower() in label.lower() for label in labels) is checkin


def test_the_posts_edit_brings_its_text_up_to_date_when_check_in_opens() -> None:
    from bot.notify.plan import Say

    start = T0 + timedelta(hours=2)
    tournament = new_tournament()
    settings = replace(tournament.settings, starts_at=start, checkin_minutes=30)
    tournament = replace(tournament, settings=settings)
    before = RENDERERS[Say.REGISTRATION_REFRESH](Telling(tournament, Nothing(), None, "ja", T0))
    during = RENDERERS[Say.REGISTRATION_REFRESH](
        Telling(tournament, Nothing(), None, "ja", start - timedelta(minutes=10))
    )
    assert "チェックイン" not in (before.messages[0].content or "")
    assert "チェックイン" in (during.messages[0].content or "")


# -- the forms name their ranges ---------------------------------------------------------


def test_the_time_out_form_and_its_refusal_name_the_accepted_range() -> None:
    labels = form_labels(time_modal(1, 2, "ja"))
    assert labels == [
        f"あなたのポイント置き場の枚数（0〜{MAX_POINT_ZONE}）",
        f"相手のポイント置き場の枚数（0〜{MAX_POINT_ZONE}）",
    ]
    with pytest.raises(InvalidInput) as refused:
        typed_count("9", key="ui.report.not_a_count", rule="R-MATCH-2", maximum=MAX_POINT_ZONE)
    assert "0〜6 の数字で入力してください（入力: 9）" in describe_error(refused.value, "ja")
    assert form_labels(minutes_modal(1, 2, "ja")) == [f"延長する分数（0〜{MAX_EXTENSION_MINUTES}）"]


def form_labels(modal: discord.ui.Modal) -> list[str]:
    """The labels of a form's text boxes, as Discord receives them."""
    return [
        str(item.to_component_dict()["label"])
        for item in modal.children
        if isinstance(item, discord.ui.TextInput)
    ]


# -- the regulation's words ----------------------------------------------------------------


def test_a_game_loss_is_named_so_players_of_other_games_find_it() -> None:
    assert penalty_type(PenaltyType.GAME_LOSS, "ja") == "敗北（ゲームロス）"
    assert catalog("ja")["choices.game_loss"] == "敗北（ゲームロス）"


def test_points_are_勝ち点_and_the_standings_column_勝点() -> None:
    ja = catalog("ja")
    assert ja["standings.col.points"] == "勝点"
    other_words = {
        key: text
        for key, text in ja.items()
        if re.search(r"\{\w*points\} 点|得点|勝利点", text) and not key.startswith("series.")
    }
    assert other_words == {}  # 「（3 点）」 is 「（勝ち点 3）」


def test_messages_name_buttons_as_they_are_labelled() -> None:
    # A message that tells people to press a button names it with the button's own label.
    named = {
        "ui.rounds.how_to_report": ["ui.rounds.report_button"],
        "ui.report.notify": ["ui.report.confirm_button", "ui.report.dispute_button"],
        "registration.started_use_drop": ["ui.rounds.drop_button"],
        "ui.judge.reping": ["ui.judge.claim_button"],
    }
    for lang in ("ja", "en"):
        for message, buttons in named.items():
            for button in buttons:
                label = t(button, lang)  # type: ignore[arg-type]
                assert label in catalog(lang)[message], (lang, message, label)


def test_after_the_start_unregister_points_to_drop_not_to_a_judge() -> None:
    for lang in ("ja", "en"):
        text = catalog(lang)["registration.started_use_drop"]
        assert "[[drop]]" in text
        assert "ジャッジ" not in text
        assert "judge" not in text
