"""`python -m bot check-deck`, run as a user runs it: a subprocess (R-DECK-1, R-REG-*)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import cli_env
from tests.domain.decks.helpers import EXAMPLES, FORMAT_EXAMPLE, REPO_ROOT, spread, text_deck

KEION_TXT = str(EXAMPLES / "keion.txt")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "check-deck", *args],
        cwd=cwd,
        env=cli_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def test_a_legal_deck_exits_0(tmp_path: Path) -> None:
    # R-REG-2: the example is a legal single-title deck.
    result = run(
        KEION_TXT, "--regulation", "single", "--date", "2014-06-01", "--lang", "en", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "LEGAL" in result.stdout
    assert "けいおん！ ×60" in result.stdout
    assert "058445a9b6ba" in result.stdout  # the fingerprint (R-DECK-4)


def test_an_illegal_deck_exits_1_with_the_documented_json(tmp_path: Path) -> None:
    # R-DECK-1: 59 cards.
    deck = tmp_path / "deck.txt"
    deck.write_text(text_deck({"けいおん！": spread(59)}), encoding="utf-8")
    result = run(str(deck), "--regulation", "mix", "--json", "--lang", "en", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout) == {
        "legal": False,
        "total": 59,
        "titles": {"けいおん！": 59},
        "violations": [
            {
                "rule": "R-DECK-1",
                "message": "[R-DECK-1] The deck has 59 cards; it must have exactly 60. Add 1 card.",
                "cards": [],
            }
        ],
        # Neither file was given: the numbers and the restricted cards went unchecked.
        "unchecked": ["card_numbers", "restricted_list"],
    }


def test_every_option_together(tmp_path: Path) -> None:
    # R-REG-4 (designated titles), R-REG-5/R-REG-6 (restricted list), R-REG-8 (card database).
    deck = tmp_path / "deck.csv"
    rows = "".join(f"4,ゆるゆり,02-{n:03d},\n" for n in range(1, 15))
    deck.write_text(f"count,title,number,name\n2,ゆるゆり,01-046,\n2,ゆるゆり,01-001,\n{rows}")
    restricted = tmp_path / "restricted.toml"
    restricted.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    cards = tmp_path / "cards.csv"
    cards.write_text(
        "title,number,name,type,release_date\nゆるゆり,01-046,あかり,キャラ,2013-01-01\n"
        "ゆるゆり,01-001,先行,キャラ,2014-07-01\n"
        + "".join(f"ゆるゆり,02-{n:03d},x,キャラ,2013-01-01\n" for n in range(1, 15)),
        encoding="utf-8",
    )
    titles = tmp_path / "titles.toml"
    titles.write_text('[[title]]\nname = "ゆるゆり"\n[[title]]\nname = "けいおん！"\n', "utf-8")
    result = run(
        str(deck),
        "--regulation", "event",
        "--titles", "ゆるゆり,けいおん！",
        "--restricted", str(restricted),
        "--cards", str(cards),
        "--titles-file", str(titles),
        "--date", "2014-06-01",
        "--json",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert [violation["rule"] for violation in report["violations"]] == ["R-REG-5", "R-REG-8"]
    assert report["violations"][0]["cards"] == [{"title": "ゆるゆり", "number": "01-046"}]
    assert "メモリーズカード" in report["violations"][0]["message"]


def test_made_up_numbers_are_legal_and_the_answer_says_they_went_unchecked(
    tmp_path: Path,
) -> None:
    # R-REG-8 needs a card database, R-REG-5 a restricted list; none ships. A list of
    # numbers nobody printed passes the construction rules, and the answer says what it
    # could not check, in Japanese as in English.
    deck = tmp_path / "deck.txt"
    deck.write_text(text_deck({"けいおん！": [(4, f"99-{900 + n}") for n in range(15)]}), "utf-8")
    japanese = run(str(deck), "--regulation", "mix", "--lang", "ja", cwd=tmp_path)
    assert japanese.returncode == 0, japanese.stderr
    assert "カード番号は、どのカードリストとも照合していません" in japanese.stdout
    assert "制限カードは確認していません" in japanese.stdout
    english = run(str(deck), "--regulation", "mix", "--lang", "en", cwd=tmp_path)
    assert "not checked against any card list" in english.stdout
    restricted = tmp_path / "restricted.toml"
    restricted.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    with_list = run(
        str(deck),
        "--regulation",
        "mix",
        "--restricted",
        str(restricted),
        "--lang",
        "ja",
        cwd=tmp_path,
    )
    assert "制限カードは確認していません" not in with_list.stdout
    assert "どのカードリストとも照合していません" in with_list.stdout


def test_unparseable_lines_exit_2_listing_every_line(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("# けいおん！\n4 01-001\nfour 01-002\n01-003\n", encoding="utf-8")
    result = run(str(deck), "--regulation", "mix_two", "--lang", "en", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Line 3:" in result.stderr
    assert "Line 4:" in result.stderr


def test_a_shift_jis_csv_file(tmp_path: Path) -> None:
    result = run(
        str(EXAMPLES / "keion-sjis.csv"), "--regulation", "single", "--lang", "ja", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_unusable_input_exits_2_without_traceback(tmp_path: Path) -> None:
    bad_list = tmp_path / "bad.toml"
    bad_list.write_text(FORMAT_EXAMPLE.replace("max_copies = 1", "max_copies = -1"), "utf-8")
    cases = [
        ([str(tmp_path / "missing.txt"), "--regulation", "mix"], "missing.txt"),
        ([KEION_TXT, "--regulation", "standard"], "standard"),
        ([KEION_TXT, "--regulation", "mix", "--date", "2014-13-01"], "--date"),
        ([KEION_TXT, "--regulation", "mix", "--restricted", str(bad_list)], "limit]] #1"),
        ([KEION_TXT, "--regulation", "event"], "--titles"),
    ]
    for args, needle in cases:
        result = run(*args, "--lang", "en", cwd=tmp_path)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr, args
        assert needle in result.stderr, (needle, result.stderr)


def test_the_cli_module_does_not_import_discord(tmp_path: Path) -> None:
    code = "import sys, bot.cli.check_deck; sys.exit('discord' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    assert (
        subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=False).returncode
        == 0
    )


def test_the_default_date_is_today_in_japan(tmp_path: Path) -> None:
    # The bot dates events in JST; the CLI used the machine's date. Far west and far
    # east of Japan, at least one of the two machine dates differs from Japan's at any time.
    import datetime as dt

    from bot.cli.check_deck import today_in_japan

    utc = dt.datetime(2026, 5, 2, 16, 0, tzinfo=dt.UTC)
    assert today_in_japan(lambda: utc) == dt.date(2026, 5, 3)
    for zone in ("Etc/GMT+12", "Etc/GMT-14"):
        before = today_in_japan()
        result = subprocess.run(
            [sys.executable, "-m", "bot", "check-deck", KEION_TXT, "--regulation", "mix"],
            cwd=tmp_path,
            env=cli_env(TZ=zone, LANG="ja_JP.UTF-8"),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        dates = {f"{day:%Y/%m/%d}" for day in (before, today_in_japan())}  # one date format
        assert any(f"大会日 {date}" in result.stdout for date in dates), (zone, result.stdout)


def test_text_output_names_each_rule_once(tmp_path: Path) -> None:
    # The rule once, in words.
    deck = tmp_path / "deck.txt"
    deck.write_text(text_deck({"けいおん！": spread(59)}), encoding="utf-8")
    result = run(
        str(deck), "--regulation", "mix", "--date", "2014-06-01", "--lang", "ja", cwd=tmp_path
    )
    assert result.returncode == 1
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("- ")]
    assert line.count("R-DECK-1") == 1
    assert line.endswith("（規定 R-DECK-1: デッキ枚数）")
