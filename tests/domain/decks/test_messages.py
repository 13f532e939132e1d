"""Every violation, parse problem and data-file error has a message in Japanese and English
that says what is wrong and how to fix it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.i18n import Lang, catalog, describe_error, placeholders, t
from bot.i18n import deck_rule_label as rule_label
from domain.decks import (
    DeckCheck,
    DecklistError,
    Regulation,
    Violation,
    load_card_database,
    load_restricted_list,
    parse_decklist,
)
from tests.domain.decks.helpers import (
    FORMAT_EXAMPLE,
    KEION,
    YURUYURI,
    check,
    deck,
    spread,
    yuruyuri,
)

DOMAIN = Path(__file__).resolve().parents[3] / "domain" / "decks"
MAX_MESSAGE = 300


def _decks_keys(lang: Lang) -> dict[str, str]:
    return {key: text for key, text in catalog(lang).items() if key.startswith("decks.")}


def test_both_catalogs_have_the_same_keys_and_placeholders() -> None:
    ja, en = _decks_keys("ja"), _decks_keys("en")
    assert set(ja) == set(en)
    for key in ja:
        assert placeholders(ja[key]) == placeholders(en[key]), key


def test_every_key_the_domain_uses_is_in_the_catalogs() -> None:
    used = set()
    for path in DOMAIN.glob("*.py"):
        used |= set(re.findall(r'"(decks\.[a-z_.]+)"', path.read_text("utf-8")))
    assert used
    assert used <= set(_decks_keys("en")), used - set(_decks_keys("en"))


_CARDS = (
    "title,number,name,type,release_date\n"
    + "".join(f"けいおん！,01-{n:03d},カード{n},キャラ,2013-01-01\n" for n in range(1, 15))
    + "けいおん！,01-015,先行,キャラ,2014-07-01\n"
)

# violation key → (how to produce it, words the Japanese and English messages must contain)
SCENARIOS: dict[str, tuple[Callable[[], DeckCheck], tuple[str, ...], tuple[str, ...]]] = {
    "decks.unknown_title": (
        lambda: check(deck({KEION: spread(56), "ゆるゆるり": [(4, "01-001")]})),
        ("「ゆるゆるり」", "17行目", "（もしかして: ゆるゆり）", "直して"),
        ("“ゆるゆるり”", "line 17", "Did you mean: ゆるゆり", "Write the title exactly"),
    ),
    "decks.unknown_title_no_match": (
        lambda: check(deck({KEION: spread(56), "Zzyzx": [(4, "01-001")]})),
        ("「Zzyzx」", "17行目", "主催者に確認"),
        ("“Zzyzx”", "line 17", "ask the organizer"),
    ),
    "decks.too_few_cards": (
        lambda: check(deck({KEION: spread(59)})),
        ("59枚", "ちょうど60枚", "あと1枚入れて"),
        ("59 cards", "exactly 60", "Add 1 card"),
    ),
    "decks.too_many_cards": (
        lambda: check(deck({KEION: spread(62)})),
        ("62枚", "ちょうど60枚", "2枚抜いて"),
        ("62 cards", "exactly 60", "Remove 2 card"),
    ),
    "decks.too_many_copies": (
        lambda: check(deck({KEION: [(6, "01-001"), *spread(54, start=2)]})),
        ("けいおん！ 01-001", "6枚", "4枚まで", "2枚抜いて"),
        ("けいおん！ 01-001", "6 copies", "At most 4", "Remove 2"),
    ),
    "decks.too_many_copies_parallel": (
        lambda: check(deck({KEION: [(4, "01-001"), (1, "01-001a"), *spread(55, start=2)]})),
        ("パラレル（01-001、01-001a）", "5枚", "（2、3行目）", "1枚抜いて"),
        ("(01-001, 01-001a; lines 2, 3)", "parallel", "5 copies", "Remove 1"),
    ),
    "decks.single_other_titles": (
        lambda: check(deck({KEION: spread(52), YURUYURI: spread(8)}), Regulation.SINGLE),
        ("シングル", "けいおん！のカードだけ", "ゆるゆり ×8"),
        ("Single", "Keep けいおん！ only", "ゆるゆり ×8"),
    ),
    "decks.mix_two_one_title": (
        lambda: check(deck({KEION: spread(60)}), Regulation.MIX_TWO),
        ("MIX-Two", "けいおん！しかありません", "15枚以上入れて"),
        ("MIX-Two", "only has けいおん！", "at least 15 cards"),
    ),
    "decks.mix_two_too_many_titles": (
        lambda: check(
            deck({KEION: spread(20), YURUYURI: spread(20), "WORKING!!": spread(20)}),
            Regulation.MIX_TWO,
        ),
        ("3作品", "2作品だけ残して"),
        ("it has 3", "Keep two titles"),
    ),
    "decks.mix_two_too_few": (
        lambda: check(deck({KEION: spread(50), YURUYURI: spread(10)}), Regulation.MIX_TWO),
        ("15枚以上", "ゆるゆりは10枚", "あと5枚入れて"),
        ("at least 15", "ゆるゆり has 10", "Add 5 more"),
    ),
    "decks.event_other_titles": (
        lambda: check(
            deck({KEION: spread(52), YURUYURI: spread(8)}), Regulation.EVENT, designated=(KEION,)
        ),
        ("発売記念大会", "使える作品", "けいおん！", "ゆるゆり ×8", "抜いて"),
        ("Release event", "only these titles", "けいおん！", "ゆるゆり ×8", "Remove"),
    ),
    "decks.restricted_card": (
        lambda: check(
            yuruyuri((3, "01-046")),
            Regulation.SINGLE,
            restricted=load_restricted_list(FORMAT_EXAMPLE),
        ),
        ("メモリーズカード", "ゆるゆり 01-046", "1枚まで", "2014-05-03から", "3枚", "2枚抜いて"),
        (
            "メモリーズカード",
            "ゆるゆり 01-046",
            "at most 1",
            "from 2014-05-03",
            "has 3",
            "Remove 2",
        ),
    ),
    "decks.banned_card": (
        lambda: check(
            yuruyuri((2, "01-046")),
            Regulation.SINGLE,
            restricted=load_restricted_list(
                FORMAT_EXAMPLE.replace("max_copies = 1", "max_copies = 0")
            ),
        ),
        ("メモリーズカード", "ゆるゆり 01-046", "禁止カード", "すべて抜いて"),
        ("メモリーズカード", "ゆるゆり 01-046", "banned", "Remove all"),
    ),
    "decks.restricted_group": (
        lambda: check(
            yuruyuri((1, "01-063"), (2, "01-121")),
            Regulation.MIX,
            restricted=load_restricted_list(FORMAT_EXAMPLE),
        ),
        ("プレシャス1", "合わせて1枚まで", "3枚あります", "ゆるゆり 01-121 ×2", "2枚抜いて"),
        ("プレシャス1", "at most 1 card in all", "has 3", "ゆるゆり 01-121 ×2", "Remove 2"),
    ),
    "decks.single_not_designated": (
        lambda: check(deck({KEION: spread(60)}), Regulation.SINGLE, designated=(YURUYURI,)),
        ("シングルレギュレーション", "使える作品はゆるゆり", "けいおん！ ×60"),
        ("single-regulation", "allows ゆるゆり only", "けいおん！ ×60"),
    ),
    "decks.ex_not_allowed": (
        lambda: check(parse_decklist(f"# {KEION}\n" + _body(60) + "# EX\n4 02-001\n")),
        ("EXデッキ", "4枚", "メインデッキだけ"),
        ("no EX deck", "4 EX card", "main deck only"),
    ),
    "decks.ex_too_many": (
        lambda: check(
            parse_decklist(f"# {KEION}\n" + _body(60) + "# EX\n" + _body(16, "02")), ex_deck=True
        ),
        ("EXデッキが16枚", "15枚まで", "1枚抜いて"),
        ("16 cards", "at most 15", "Remove 1"),
    ),
    "decks.unknown_card": (
        lambda: check(
            deck({KEION: [*spread(56), (4, "01-099")]}), cards=load_card_database(_CARDS)
        ),
        ("けいおん！ 01-099", "16行目", "カードリストにありません", "入れ替えて"),
        ("けいおん！ 01-099", "line 16", "not in the card list", "replace the card"),
    ),
    "decks.not_yet_released": (
        lambda: check(
            deck({KEION: spread(60)}),
            cards=load_card_database(_CARDS),
            date=dt.date(2014, 6, 30),
        ),
        ("けいおん！ 01-015", "先行", "2014-07-01", "2014-06-30", "入れ替えて"),
        ("けいおん！ 01-015", "先行", "2014-07-01", "2014-06-30", "replace it"),
    ),
}


def _body(total: int, prefix: str = "01") -> str:
    return "".join(f"{count} {number}\n" for count, number in spread(total, prefix=prefix))


def _only(result: DeckCheck, key: str) -> Violation:
    found = [violation for violation in result.violations if violation.key == key]
    assert len(found) == 1, [v.key for v in result.violations]
    return found[0]


@pytest.mark.parametrize("key", sorted(SCENARIOS))
def test_violation_messages_in_both_languages(key: str) -> None:
    # R-DECK-1, R-DECK-2, R-DECK-3, R-REG-1…5, R-REG-7, R-REG-8: each kind, ja and en.
    produce, japanese, english = SCENARIOS[key]
    violation = _only(produce(), key)
    ja = t(violation.key, "ja", **violation.params)
    en = t(violation.key, "en", **violation.params)
    # The rule is shown once, by the renderer (rule_label), not inside the message.
    assert violation.rule not in ja
    assert violation.rule not in en
    assert catalog("ja")[f"decks.rule_names.{violation.rule}"]
    assert catalog("en")[f"decks.rule_names.{violation.rule}"]
    for word in japanese:
        assert word in ja, (word, ja)
    for word in english:
        assert word in en, (word, en)
    assert len(ja) <= MAX_MESSAGE
    assert len(en) <= MAX_MESSAGE


def test_every_violation_kind_has_a_scenario() -> None:
    violation_keys = {
        key
        for key in _decks_keys("en")
        if key.count(".") == 1
        and key
        not in {
            "decks.unknown_regulation",
            "decks.unknown_designated_title",
            "decks.no_designated_titles",
            "decks.bad_mix_two_minimum",
            "decks.bad_ex_deck_limit",
            "decks.rule_label",
        }
    }
    assert violation_keys == set(SCENARIOS)


# --- parse problems ----------------------------------------------------------------------------

PARSE_CASES: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    (
        "# けいおん！\nfour of them\n",
        "decks.parse.unrecognised",
        ("2行目", "# けいおん！"),
        ("Line 2", "“4 01-001 name”"),
    ),
    (
        "# けいおん！\n4 01-0x1\n",
        "decks.parse.bad_number",
        ("2行目", "01-001"),
        ("Line 2", "01-001"),
    ),
    (
        "# けいおん！\n01-001 唯\n",
        "decks.parse.missing_count",
        ("2行目", "枚数がありません"),
        ("Line 2", "has no count"),
    ),
    (
        # The count is there at the end, without the × or 枚 a count there needs.
        "# けいおん！\n01-003 律 4\n",
        "decks.parse.count_without_mark",
        ("2行目", "「×4」か「4枚」", "「4 01-003 律」"),
        ("Line 2", "“×4” or “4枚”", "“4 01-003 律”"),
    ),
    (
        "# けいおん！\n西住みほ 02-001\n",
        "decks.parse.name_before_number",
        ("2行目", "カード番号より前", "「4 02-001 西住みほ」"),
        ("Line 2", "before the card number", "“4 02-001 西住みほ”"),
    ),
    (
        "# けいおん！\n99 01-001\n",
        "decks.parse.count_range",
        ("2行目", "1～60"),
        ("Line 2", "between 1 and 60"),
    ),
    ("4 01-001\n", "decks.parse.card_before_title", ("1行目", "作品行"), ("Line 1", "title line")),
    (
        "count,title,number\n4,,01-001\n",
        "decks.parse.empty_title",
        ("2行目", "作品名が空"),
        ("Line 2", "title is empty"),
    ),
    (
        "count,title,number\nx,A,01-001\n",
        "decks.parse.bad_count",
        ("2行目", "「x」"),
        ("Line 2", "“x”"),
    ),
    (
        "count,title,number\n4\n",
        "decks.parse.csv_fields",
        ("2行目", "列が1個"),
        ("Line 2", "1 column"),
    ),
    (
        'count,title,number\n4,"A,01-001\n',
        "decks.parse.csv_quotes",
        ("2行目", "閉じて"),
        ("Line 2", "not closed"),
    ),
]


@pytest.mark.parametrize(("text", "key", "japanese", "english"), PARSE_CASES)
def test_parse_problem_messages_in_both_languages(
    text: str, key: str, japanese: tuple[str, ...], english: tuple[str, ...]
) -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(text)
    (problem,) = caught.value.problems
    assert problem.key == key
    ja = t(problem.key, "ja", **problem.message_params())
    en = t(problem.key, "en", **problem.message_params())
    assert all(word in ja for word in japanese), ja
    assert all(word in en for word in english), en
    header = caught.value
    assert "1行" in t(header.key, "ja", **header.params)
    assert "1 line" in t(header.key, "en", **header.params)


def test_csv_header_problem_message() -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist("4,A,01-001\n", filename="deck.csv")
    (problem,) = caught.value.problems
    assert "count,title,number,name" in t(problem.key, "en", **problem.message_params())
    assert "見出し行" in t(problem.key, "ja", **problem.message_params())


@pytest.mark.parametrize(
    ("data", "japanese", "english"),
    [
        (b"x" * (65 * 1024), "大きすぎ", "too large"),
        ("\n" * 250, "250行", "250 lines"),
        (b"\x81 ", "Shift_JIS", "Shift_JIS"),
        ("// nothing\n", "カードが見つかりません", "No cards found"),
    ],
)
def test_whole_input_errors_in_both_languages(
    data: str | bytes, japanese: str, english: str
) -> None:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(data)
    assert japanese in t(caught.value.key, "ja", **caught.value.params)
    assert english in t(caught.value.key, "en", **caught.value.params)


# --- bad lines of one kind, told once ---------------------------------------------------------


def _refusal(text: str) -> DecklistError:
    with pytest.raises(DecklistError) as caught:
        parse_decklist(text)
    return caught.value


NAMES_FIRST = [f"西住みほ{n} 02-{n:03d}" for n in range(1, 16)]  # the count left out


def test_fifteen_lines_with_the_same_problem_are_one_line_of_the_message() -> None:
    error = _refusal("# ガールズ＆パンツァー\n4 02-099\n" + "\n".join(NAMES_FIRST) + "\n")
    assert len(error.problems) == 15
    (group,) = error.groups
    assert group.key == "decks.parse.name_before_number"
    assert tuple(group.lines) == tuple(range(3, 18))
    ja = describe_error(error, "ja").splitlines()
    en = describe_error(error, "en").splitlines()
    assert len(ja) == len(en) == 2  # the header and one line for the fifteen
    assert ja[0].startswith("デッキリストに読めない行が15行あります（3–17行目）")
    assert ja[1].startswith("• 3–17行目: カード名がカード番号より前にあります")
    assert "（「西住みほ1 02-001」など）" in ja[1]
    assert "「4 02-001 西住みほ1」のように" in ja[1]
    assert en[0].startswith("The decklist has 15 lines that could not be read (lines 3–17)")
    assert en[1].startswith("• Lines 3–17: the card name comes before the card number")
    assert "“西住みほ1 02-001” and similar lines" in en[1]


def test_lines_apart_are_listed_and_neighbours_make_a_range() -> None:
    lines = ["# けいおん！", "4 01-001", "hello", "4 01-002", "hello again", "huh", "4 01-003"]
    lines += ["oops", "4 01-004", "what"]  # bad: 3, 5, 6, 8, 10
    error = _refusal("\n".join(lines) + "\n")
    ((group_lines, key),) = [(tuple(g.lines), g.key) for g in error.groups]
    assert (group_lines, key) == ((3, 5, 6, 8, 10), "decks.parse.unrecognised")
    ja, en = (describe_error(error, lang).splitlines()[1] for lang in ("ja", "en"))
    assert ja.startswith("• 3、5–6、8、10行目: 「hello」など")
    assert en.startswith("• Lines 3, 5–6, 8, 10: “hello”")


def test_one_bad_line_reads_as_before() -> None:
    error = _refusal("# けいおん！\n4 01-001\nhello\n")
    ja, en = (describe_error(error, lang).splitlines()[1] for lang in ("ja", "en"))
    assert ja.startswith("• 3行目: 「hello」を読み取れません")
    assert en.startswith("• Line 3: “hello” is not")


def test_different_problems_stay_apart_in_line_order() -> None:
    error = _refusal("# けいおん！\n99 01-001\nhello\n70 01-002\n西住みほ 02-001\n")
    assert [(g.key, tuple(g.lines)) for g in error.groups] == [
        ("decks.parse.count_range", (2, 4)),
        ("decks.parse.unrecognised", (3,)),
        ("decks.parse.name_before_number", (5,)),
    ]


def test_a_group_that_breaks_a_deck_rule_names_it_as_the_deck_messages_do() -> None:
    error = _refusal("# けいおん！\n99 01-001\n70 01-002\n")
    (ja_line,) = describe_error(error, "ja").splitlines()[1:]
    (en_line,) = describe_error(error, "en").splitlines()[1:]
    assert ja_line.startswith("• 2–3行目: 枚数「99」など")
    assert ja_line.endswith("（規定 R-DECK-1: デッキ枚数）")
    assert en_line.endswith(rule_label("R-DECK-1", "en"))


def test_the_documented_grouped_message_is_what_the_bot_says() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "decklists.md").read_text("utf-8")
    shown = doc.split("Every bad line is reported at once", 1)[1].split("```text\n", 1)[1]
    lines = ["# ガールズ＆パンツァー", "4 02-099", *(f"西住みほ 02-{n:03d}" for n in range(1, 16))]
    lines += ["4 02-098", "99 02-100", "01-002 秋山", "99 02-101"]
    error = _refusal("\n".join(lines) + "\n")
    assert shown.split("```", 1)[0].rstrip("\n") == describe_error(error, "ja")
