"""Titles and the logos each admits (R-REG-7)."""

from __future__ import annotations

import unicodedata

import pytest

from domain.decks import DataFileError, Title, TitleCatalogue, default_titles, load_titles
from tests.domain.decks.helpers import REPO_ROOT


def _regulation_titles() -> list[str]:
    text = (REPO_ROOT.parent / "shared" / "rules" / "regulation-ja.txt").read_text("utf-8")
    table = text.split("入れられるカードの作品ロゴ\n", 1)[1].split("\n\n", 1)[0]
    return table.splitlines()


def test_shipped_titles_are_the_36_of_the_regulation() -> None:
    # R-REG-7: the 36 titles of 作品ロゴ一覧, names exactly as in the regulation.
    names = list(default_titles().names)
    assert len(names) == 36
    assert names[0] == "けいおん！"
    assert names[-1] == "俺の彼女と幼なじみが修羅場すぎる"
    regulation = REPO_ROOT.parent / "shared" / "rules" / "regulation-ja.txt"
    if regulation.exists():
        assert names == _regulation_titles()


@pytest.mark.parametrize(
    "logo", ["けいおん！", "けいおん！！", "映画けいおん！", "K-ON!!", "けいおん"]
)
def test_keion_admits_its_logos(logo: str) -> None:
    # R-REG-7: cards printed under these logos count as けいおん！.
    assert default_titles().resolve(logo) == "けいおん！"


@pytest.mark.parametrize(
    ("written", "title"),
    [
        ("ＷＯＲＫＩＮＧ！！", "WORKING!!"),
        ("working!!", "WORKING!!"),
        ("百花繚乱サムライガールズ", "百花繚乱 サムライガールズ"),
        ("「ゆるゆり」", "ゆるゆり"),
        ("ゆるゆり♪♪", "ゆるゆり"),
        ("魔法少女まどかマギカ", "魔法少女まどか☆マギカ"),
        ("ヒカルが地球にいたころ...", "ヒカルが地球にいたころ……"),
        ("ガールズ&パンツァー", "ガールズ＆パンツァー"),
    ],
)
def test_titles_match_across_width_case_spacing_and_punctuation(written: str, title: str) -> None:
    assert default_titles().resolve(written) == title


def test_unknown_titles_get_close_suggestions() -> None:
    titles = default_titles()
    assert titles.resolve("けいおんっ") is None
    assert titles.suggest("けいおんっ")[0] == "けいおん！"
    assert "ゆるゆり" in titles.suggest("ゆるゆる")
    assert titles.suggest("zzzzzzzzzz") == ()


def test_an_organizer_can_load_their_own_titles() -> None:
    # R-REG-7: the mapping is data the organizer can load.
    catalogue = load_titles(
        '[[title]]\nname = "新作"\naliases = ["新作 第2期"]\n\n[[title]]\nname = "けいおん！"\n'
    )
    assert isinstance(catalogue, TitleCatalogue)
    assert catalogue.names == ("新作", "けいおん！")
    assert catalogue.resolve("新作第2期") == "新作"
    assert catalogue.resolve("映画けいおん！") is None  # not an alias in this file


def test_loaded_titles_may_be_cp932_bytes() -> None:
    catalogue = load_titles('[[title]]\nname = "けいおん！"\n'.encode("cp932"))
    assert catalogue.names == ("けいおん！",)


@pytest.mark.parametrize(
    ("text", "key", "where", "field"),
    [
        (
            "[[title]]\naliases = []\n",
            "decks.data.missing_field",
            "titles.toml [[title]] #1",
            "name",
        ),
        ('[[title]]\nname = ""\n', "decks.data.bad_text", "titles.toml [[title]] #1", "name"),
        (
            '[[title]]\nname = "A"\n[[title]]\nname = "B"\naliases = "x"\n',
            "decks.data.bad_list",
            "titles.toml [[title]] #2",
            "aliases",
        ),
        (
            '[[title]]\nname = "A"\naliases = ["ok", 3]\n',
            "decks.data.bad_text",
            "titles.toml [[title]] #1",
            "aliases[2]",
        ),
        (
            '[[title]]\nname = "A"\nlogo = "x"\n',
            "decks.data.unknown_field",
            "titles.toml [[title]] #1",
            "logo",
        ),
    ],
)
def test_malformed_titles_files_name_the_entry_and_field(
    text: str, key: str, where: str, field: str
) -> None:
    with pytest.raises(DataFileError) as caught:
        load_titles(text)
    assert caught.value.key == key
    assert caught.value.params["where"] == where
    assert caught.value.params["field"] == field


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "decks.data.no_entries"),
        ("[[title]\n", "decks.data.toml_syntax"),
        (
            '[[title]]\nname = "A"\n[[title]]\nname = "Ｂ"\naliases = ["a"]\n',
            "decks.data.duplicate_title",
        ),
        ('[[title]]\nname = "A"\n[[title]]\nname = "A"\n', "decks.data.duplicate_title"),
        (b"[[title]]\n\x81 ", "decks.data.undecodable"),
    ],
)
def test_broken_titles_files_are_rejected(text: str | bytes, key: str) -> None:
    with pytest.raises(DataFileError) as caught:
        load_titles(text)
    assert caught.value.key == key


# --- titles as players write them ------------------------------------------------------------

_FULL_WIDTH = str.maketrans(
    {chr(code): chr(code + 0xFEE0) for code in range(0x21, 0x7F)} | {" ": "\u3000"}
)


def _players_spellings(spelling: str) -> set[str]:
    """Half-width (NFKC) and full-width, each with and without the final 。."""
    half = unicodedata.normalize("NFKC", spelling)
    forms = {spelling, half, half.translate(_FULL_WIDTH)}
    return {variant for form in forms for variant in (form.removesuffix("。"), f"{form}。")}


@pytest.mark.parametrize(
    "title", default_titles().titles, ids=[title.name for title in default_titles().titles]
)
def test_every_title_and_alias_resolves_as_players_write_it(title: Title) -> None:
    # R-REG-7: every spelling of data/titles.toml, in either width, with or without 「。」.
    catalogue = default_titles()
    for spelling in (title.name, *title.aliases):
        for written in _players_spellings(spelling):
            assert catalogue.resolve(written) == title.name, written


@pytest.mark.parametrize(
    ("written", "title"),
    [
        # As printed on the cards: 僕達, not only the 劇場版 alias.
        ("あの日見た花の名前を僕達はまだ知らない。", "あの日見た花の名前を僕たちはまだ知らない。"),
        # WORKING'!! is printed with an acute accent (U+00B4); primes and curly quotes too.
        ("WORKING´!!", "WORKING!!"),
        ("WORKING′!!", "WORKING!!"),
        ("WORKING’!!", "WORKING!!"),
        ("ＷＯＲＫＩＮＧ＇！！", "WORKING!!"),
        # Product names players write as the title.
        ("けいおん！Part2", "けいおん！"),
        ("けいおん！！Part.2", "けいおん！"),
        ("けいおん!! Part.2", "けいおん！"),
    ],
)
def test_titles_as_the_cards_print_them(written: str, title: str) -> None:
    assert default_titles().resolve(written) == title


def test_an_accent_is_folded_not_mangled() -> None:
    # NFKC alone turns ´ into a space and a combining accent: 「WORKING ́!!」.
    from domain.decks.cards import title_text

    assert title_text("WORKING´!!") == "WORKING'!!"
    assert "\u0301" not in title_text("ＡＢＣ´")


def test_a_suggestion_ending_in_a_full_stop_is_not_doubled() -> None:
    # A suggestion's own full stop: 「もしかして: あの日見た花の名前を僕たちはまだ知らない。。」
    from bot.i18n import t
    from tests.domain.decks.helpers import check, deck, spread

    result = check(deck({"あの日見た花の名前を僕らはまだ知らない": spread(60)}))
    (violation,) = [v for v in result.violations if v.key == "decks.unknown_title"]
    assert "あの日見た花の名前を僕たちはまだ知らない。" in str(violation.params["suggestions"])
    for lang in ("ja", "en"):
        assert "。。" not in t(violation.key, "ja" if lang == "ja" else "en", **violation.params)
