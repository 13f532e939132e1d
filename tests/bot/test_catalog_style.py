"""The style of every message in both catalogs: Japanese prose uses full-width
「！」「（）」, lists are joined the way each language joins them, English plurals agree with
their number, messages name commands so that the reader's Discord can show them, and the
Japanese uses one word for each thing, the regulation's own where it has one."""

from __future__ import annotations

import re

import pytest

from bot.i18n import (
    LANGUAGES,
    Lang,
    catalog,
    command_ref,
    join_list,
    localized_command,
    plural,
    set_command_ids,
    t,
)
from domain.engine.rounds import default_rounds

# Spans that are not prose: placeholders, code, URLs, Discord markup, command markup.
NOT_PROSE = re.compile(r"\{[^{}]*\}|`[^`]*`|https?://[^\s）」]+|<[^<>\s]*>|\[\[[^\]]*\]\]")
COMMAND_MARKUP = re.compile(r"\[\[([a-z_ ]+)\]\]")


def prose(text: str) -> str:
    return NOT_PROSE.sub(" ", text)


def messages(lang: Lang) -> dict[str, str]:
    return dict(catalog(lang))


def shared_keys() -> list[str]:
    return sorted(set(catalog("ja")) & set(catalog("en")))


@pytest.fixture(autouse=True)
def no_synced_ids() -> object:
    set_command_ids({})
    yield
    set_command_ids({})


def test_japanese_prose_uses_full_width_exclamation_and_parentheses() -> None:
    bad = {key: text for key, text in messages("ja").items() if re.search(r"[!()]", prose(text))}
    assert bad == {}


def test_english_prose_has_no_japanese_punctuation() -> None:
    en = messages("en")
    bad = {key: text for key, text in en.items() if re.search("[、。（）]", prose(text))}
    assert bad == {}


def test_english_never_hedges_a_plural() -> None:
    bad = {key: text for key, text in messages("en").items() if "(s)" in text}
    assert bad == {}


def test_every_pair_agrees_on_placeholders_and_commands() -> None:
    for key in shared_keys():
        ja, en = catalog("ja")[key], catalog("en")[key]
        assert sorted(COMMAND_MARKUP.findall(ja)) == sorted(COMMAND_MARKUP.findall(en)), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_commands_are_named_through_markup_not_typed(lang: Lang) -> None:
    # "/register" in a Japanese message names a command the reader's Discord calls /参加登録.
    typed = {
        key: text
        for key, text in messages(lang).items()
        if not key.startswith(("commands.", "choices."))
        and re.search(r"(?<![\w/<])/[a-z]+", prose(text))
    }
    assert typed == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_named_command_exists(lang: Lang) -> None:
    names = {name for text in messages(lang).values() for name in COMMAND_MARKUP.findall(text)}
    assert names
    for name in names:
        key = "commands." + name.replace(" ", ".") + ".name"
        assert key in catalog("ja"), name


# R-FMT-8: late entry is 途中参加; 遅刻 is being late to one's seat (R-MATCH-6).
FORBIDDEN_JA = {
    "遅刻登録": "途中参加 (R-FMT-8)",
    "指紋": "確認コード",
    "フィンガープリント": "確認コード",
    "既に": "すでに",
    "登録済みです": "登録されています",
    "log2": "words",
}


def test_japanese_uses_one_word_for_each_thing() -> None:
    bad = [
        (key, word, better)
        for key, text in messages("ja").items()
        for word, better in FORBIDDEN_JA.items()
        if word in text
    ]
    assert bad == []


def test_a_seed_shown_to_people_is_called_a_random_seed() -> None:
    for lang, qualified in (("ja", "乱数シード"), ("en", "random seed")):
        for key, text in messages(lang).items():
            if "{seed}" in text:
                assert qualified in text, key


def test_dropping_is_dropping_explained_once() -> None:
    # R-FMT-7: the regulation says 棄権; the bot says ドロップ, and explains it at first mention.
    ja = messages("ja")
    assert ja["ui.status.dropped"] == "ドロップ"
    assert "ドロップ（棄権）" in ja["registration.started_use_drop"]
    assert [k for k, text in ja.items() if "棄権" in text and "ドロップ（棄権）" not in text] == []


def test_the_automatic_round_count_is_explained_with_the_engines_numbers() -> None:
    # R-FMT-2: the rounds are fixed at the start; the examples must be what the engine plays.
    patterns = (("ja", r"(\d+) 人まで (\d+) 回戦"), ("en", r"(\d+) (?:rounds )?for up to (\d+)"))
    for lang, pattern in patterns:
        pairs = re.findall(pattern, t("ui.auto_rounds", lang))
        assert len(pairs) == 3, lang
        for a, b in pairs:
            players, rounds = (int(a), int(b)) if lang == "ja" else (int(b), int(a))
            assert default_rounds(players) == rounds
            assert default_rounds(players + 1) == rounds + 1


def test_join_list_joins_the_way_each_language_does() -> None:
    assert join_list(["01-001", "01-001a"], "ja") == "01-001、01-001a"
    assert join_list(["01-001", "01-001a"], "en") == "01-001, 01-001a"
    assert join_list([], "en") == ""
    assert plural(1, "player", "players") == "player"
    assert plural(0, "player", "players") == "players"


def test_list_params_are_joined_in_the_readers_language() -> None:
    ja = t("engine.state.missing_results", "ja", round=2, tables=(1, 3), step="組み合わせ")
    en = t("engine.state.missing_results", "en", round=2, tables=(1, 3), step="pair")
    assert "テーブル 1、3 の結果" in ja
    assert "tables 1, 3;" in en
    assert "table 4;" in t("engine.state.missing_results", "en", round=2, tables=(4,), step="x")


@pytest.mark.parametrize(("count", "text"), [(1, "1 player"), (2, "2 players"), (0, "0 players")])
def test_english_plurals_follow_the_number(count: int, text: str) -> None:
    assert f"({text})" in t("ui.players.title", "en", name="Cup", count=count)


def test_commands_are_named_as_the_reader_sees_them() -> None:
    ja = t("submission.no_deck", "ja", tournament="冬の大会")
    en = t("submission.no_deck", "en", tournament="Winter Cup")
    assert "/デッキ 提出" in ja
    assert "/deck" not in ja
    assert "/deck submit" in en
    assert localized_command("tournament create", "ja") == "/大会 作成"


def test_commands_become_clickable_mentions_once_ids_are_known() -> None:
    set_command_ids({"deck": 111, "register": 222})
    assert command_ref("deck submit", "ja") == "</deck submit:111>"
    how = t("ui.announce.how_to_enter", "ja")
    ja = t(
        "ui.announce.created", "ja", name="冬", format="f", regulation="r", time_limit=40, how=how
    )
    assert "</register:222>" in ja
    assert "</deck submit:111>" in ja
    # A command whose id is unknown still reads in the reader's language.
    assert "/大会 作成" in t("tournament.none_open", "ja")


def test_markup_in_user_text_is_left_alone() -> None:
    set_command_ids({"register": 222})
    text = t("ui.register.ok", "ja", tournament="[[register]]")
    assert "「[[register]]」" in text
