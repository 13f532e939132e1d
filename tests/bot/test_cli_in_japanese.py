"""The command line on the Japanese path: a terminal in Japanese (LANG=ja_JP.UTF-8, as a
Japanese Mac or Linux sets it; Windows sets no LANG, and its display language counts) reads
every line in Japanese: the help, each command's answers and progress, its refusals (also
argparse's own), and the system's words inside them (「No such file or directory」).
Elsewhere (LANG=C.UTF-8, the tests' own) the refusals stay in Japanese then English."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from bot.i18n import system_error, terminal_language
from tests.conftest import PYTHON, REPO_ROOT, cli_env
from tests.support.postgres import PostgresServer

JAPANESE = {"LANG": "ja_JP.UTF-8"}
KEION = str(REPO_ROOT / "data" / "examples" / "keion.txt")
# What may stay in Latin letters inside a Japanese line: commands, options, settings,
# addresses, file names, the rule ids, formats.
NOT_WORDS = re.compile(
    r"https?://\S+|python -m bot[\w -]*|--?[\w-]+|\b[A-Z][A-Z0-9_]+\b|\S*[/\\.]\S+"
    r"|\{[^}]*\}|\"[^\"]*\""  # a usage line's choices and metavars
    r"|「[ -~]+」"  # a label on someone else's screen, as it reads there (「Reset Token」)
    r"|\b(?:R-[A-Z]+-\d+|TOML|CSV|JSON|UTF-8|Shift_JIS|SQLite|PostgreSQL|pg_dump|Ctrl"
    r"|Discord(?: Developer Portal)?|MIX-Two limited|mix|single|mix-two|event)\b"
)


def english_lines(text: str) -> list[str]:
    """Lines with two English words in a row once commands, options, names of settings,
    addresses and file names are left out."""
    return [
        line
        for line in text.splitlines()
        if re.search(r"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}", NOT_WORDS.sub(" ", line))
    ]


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "bot", *args],
        cwd=cwd,
        env=cli_env(**(JAPANESE | env)),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_the_terminals_language_is_lc_all_lc_messages_or_lang_else_the_systems() -> None:
    assert terminal_language({"LANG": "ja_JP.UTF-8"}, lambda: None) == "ja"
    assert terminal_language({"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, lambda: "ja") == "en"
    assert terminal_language({"LC_MESSAGES": "ja_JP", "LANG": "en_US"}, lambda: None) == "ja"
    # Windows sets none of them: its display language (Japanese_Japan, 0x0411) counts.
    assert terminal_language({}, lambda: "Japanese_Japan") == "ja"
    assert terminal_language({}, lambda: "English_United States") == "en"
    assert terminal_language({}, lambda: None) is None


def test_english_lines_are_found_and_commands_are_not_words() -> None:
    assert english_lines("No such file or directory") == ["No such file or directory"]
    assert english_lines("「x.txt」を読めません: ファイルが見つかりません") == []
    assert english_lines("python -m bot backup backups/a.sqlite3 --force を実行します") == []


def test_the_help_is_in_japanese(tmp_path: Path) -> None:
    for args in (("--help",), ("check-deck", "--help"), ("backup", "--help"), ("demo", "-h")):
        shown = run(*args, cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        assert english_lines(shown.stdout) == [], (args, shown.stdout)
        assert "使い方:" in shown.stdout


def test_the_usage_lines_name_their_values_in_japanese(tmp_path: Path) -> None:
    # 「file」「tournament」「OUTPUT」「PLAYERS」 were the values' names in the usage lines.
    from bot.__main__ import build_parser

    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name in ("", *subcommands):
        shown = run(*filter(None, [name]), "--help", cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        usage = shown.stdout.split("\n\n", 1)[0]
        words = re.sub(r"python -m bot(?: [a-z-]+)?|--?[a-z-]+|\{[^}]*\}", " ", usage)
        # 「ID」 is how Japanese writes it (「サーバー ID」 in Discord itself).
        assert re.findall(r"[A-Za-z]+", words.replace("ID", "")) == [], (name, usage)


def test_the_help_fits_the_terminal_breaks_no_word_and_lines_up(tmp_path: Path) -> None:
    # argparse counted characters: a Japanese line ran past the terminal's width, the help
    # of 「バックアップ先」 stood two columns right of the others, and 「DATABASE_URL」 was cut
    # in two (「DATAB」, 「ASE_URL」).
    from bot.cli.parser import display_width

    for args in (("--help",), ("backup", "--help"), ("check-deck", "--help")):
        shown = run(*args, cwd=tmp_path, COLUMNS="80")
        assert shown.returncode == 0, shown.stderr
        body = shown.stdout.split("\n\n", 1)[1]  # after the usage line
        for line in body.splitlines():
            assert display_width(line) <= 80, (args, line)
        columns = {
            display_width(found.group(1)) for found in re.finditer(r"(?m)^(  \S.*?  +)\S", body)
        }
        assert len(columns) == 1, (args, body)
    backup = run("backup", "--help", cwd=tmp_path, COLUMNS="80")
    assert "DATABASE_URL" in backup.stdout


def test_check_deck_takes_dates_as_people_write_them(tmp_path: Path) -> None:
    # The slash commands accept 2026/12/24 and ２０２６年１２月２４日; so does --date.
    for written in ("2026/12/24", "２０２６年１２月２４日", "2026-12-24"):
        checked = run(
            "check-deck", KEION, "--regulation", "single", "--date", written, cwd=tmp_path
        )
        assert checked.returncode == 0, checked.stderr
        assert "2026/12/24" in checked.stdout
        assert "シングルレギュレーション" in checked.stdout  # the regulation's own words
        assert english_lines(checked.stdout) == [], checked.stdout
    refused = run("check-deck", KEION, "--regulation", "mix", "--date", "12月", cwd=tmp_path)
    assert refused.returncode == 2
    assert "--date" in refused.stderr
    assert "「12月」" in refused.stderr
    assert english_lines(refused.stderr) == [], refused.stderr


def test_check_deck_without_a_regulation_or_with_a_wrong_one_says_so_in_japanese(
    tmp_path: Path,
) -> None:
    missing = run("check-deck", KEION, cwd=tmp_path)
    assert missing.returncode == 2
    assert "--regulation" in missing.stderr
    nothing = run("check-deck", cwd=tmp_path)
    assert "次の指定が必要です: ファイル、--regulation" in nothing.stderr  # a Japanese list
    assert "mix" in missing.stderr  # the choices
    assert english_lines(missing.stderr) == [], missing.stderr
    wrong = run("check-deck", KEION, "--regulation", "standard", cwd=tmp_path)
    assert wrong.returncode == 2
    assert "「standard」" in wrong.stderr
    assert english_lines(wrong.stderr) == [], wrong.stderr
    unknown = run("check-deck", KEION, "--regulation", "mix", "--colour", cwd=tmp_path)
    assert unknown.returncode == 2
    assert "--colour" in unknown.stderr
    assert english_lines(unknown.stderr) == [], unknown.stderr


def test_check_deck_in_the_pages_words(tmp_path: Path) -> None:
    checked = run("check-deck", KEION, "--regulation", "mix", cwd=tmp_path)
    assert "ミックスレギュレーション" in checked.stdout
    assert "mixレギュレーション" not in checked.stdout
    # A count written after the name without its × or 枚 mark: the message says how.
    deck = tmp_path / "deck.txt"
    deck.write_text("# けいおん！\n01-003 律 4\n", encoding="utf-8")
    unmarked = run("check-deck", str(deck), "--regulation", "mix", cwd=tmp_path)
    assert unmarked.returncode == 2
    assert "枚数がありません" not in unmarked.stderr
    assert "×4" in unmarked.stderr
    assert "4枚" in unmarked.stderr


def test_the_systems_words_are_translated(tmp_path: Path) -> None:
    gone = run("check-deck", str(tmp_path / "nothing.txt"), "--regulation", "mix", cwd=tmp_path)
    assert gone.returncode == 2
    assert "ファイルが見つかりません" in gone.stderr
    assert english_lines(gone.stderr) == [], gone.stderr
    folder = run("replay", str(tmp_path), cwd=tmp_path)
    assert folder.returncode == 2
    assert english_lines(folder.stderr) == [], folder.stderr


def test_a_file_that_does_not_parse_is_told_in_japanese(tmp_path: Path) -> None:
    # The parsers' English (「Expecting value」, 「Invalid value (at line 1, column 7)」) and
    # Python's 「None」 for a missing entry were shown inside the Japanese line.
    (tmp_path / "bad.json").write_text("bad\n", encoding="utf-8")
    (tmp_path / "empty.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "restricted.toml").write_text("[[limit]]\nnumber = \n", encoding="utf-8")
    bad = run("replay", "bad.json", cwd=tmp_path)
    assert bad.returncode == 2
    assert "1 行 1 列目" in bad.stderr
    assert "Expecting" not in bad.stderr
    assert english_lines(bad.stderr) == [], bad.stderr
    empty = run("replay", "empty.json", cwd=tmp_path)
    assert empty.returncode == 2
    assert '"rounds"（スイスドローの回戦数）がありません' in empty.stderr
    assert "None" not in empty.stderr
    restricted = run(
        "check-deck", KEION, "--regulation", "mix", "--restricted", "restricted.toml", cwd=tmp_path
    )
    assert restricted.returncode == 2
    assert "2 行 10 列目" in restricted.stderr
    assert "値がありません" in restricted.stderr
    assert english_lines(restricted.stderr) == [], restricted.stderr
    # An English terminal reads the same in Japanese, then in English words of our own.
    english = run("replay", "bad.json", cwd=tmp_path, LANG="C.UTF-8")
    assert "line 1, column 1 (a value is missing" in english.stderr
    assert "Expecting" not in english.stderr


def test_a_database_that_cannot_be_opened_is_told_in_japanese(tmp_path: Path) -> None:
    # SQLite's and the network's words (「unable to open database file」, 「file is not a
    # database」, 「Name or service not known」) were shown inside the Japanese line, and a
    # folder given as DATABASE_PATH ended with a thread's 「Event loop is closed」 traceback.
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.sqlite3").write_text("not a database\n", encoding="utf-8")
    for args, env, said in (
        (("migrate",), {"DATABASE_PATH": "folder"}, "ファイルを開けません"),
        (("verify",), {"DATABASE_PATH": "notes.sqlite3"}, "データベースのファイルではありません"),
        (
            ("migrate",),
            {"DATABASE_URL": "postgresql://bot:pw-secret@nohost.invalid/pm"},
            "ホスト名が見つかりません",
        ),
    ):
        refused = run(*args, cwd=tmp_path, **env)
        assert refused.returncode == 2, refused.stderr
        assert said in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
        assert english_lines(refused.stderr) == [], refused.stderr
        assert "pw-secret" not in refused.stderr


def test_the_systems_words_for_connections_and_databases() -> None:
    import socket

    class Refused(Exception):
        sqlstate = "28P01"  # as asyncpg's InvalidPasswordError carries it

    assert system_error(socket.gaierror(-2, "Name or service not known"), "ja") == (
        "ホスト名が見つかりません（綴りとインターネット接続を確かめてください）"
    )
    assert "接続を断られました" in system_error(ConnectionRefusedError(111, "refused"), "ja")
    assert system_error(Refused("password authentication failed"), "ja") == (
        "ユーザー名かパスワードが違います"
    )
    with pytest.raises(sqlite3.OperationalError) as caught:
        sqlite3.connect(Path(__file__).parent)  # a folder
    assert "ファイルを開けません" in system_error(caught.value, "ja")
    assert "Cannot open the file" in system_error(caught.value, "en")
    # What the catalogs do not know is shown as it was said.
    assert "odd thing" in system_error(OSError("odd thing"), "ja")


def test_backup_and_verify_answer_in_japanese(tmp_path: Path) -> None:
    made = run("migrate", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert english_lines(made.stdout) == [], made.stdout
    checked = run("verify", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    # An empty database: it says there is nothing to check, rather than nothing at all.
    assert "確認する大会はありません" in checked.stdout, checked.stdout
    assert english_lines(checked.stdout) == []
    folder = run("backup", ".", cwd=tmp_path)  # a folder, not 「すでに存在します」
    assert folder.returncode == 2
    assert "フォルダーです" in folder.stderr, folder.stderr
    saved = run("backup", "backups/大会前.sqlite3", cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    assert "バックアップしました" in saved.stdout
    assert english_lines(saved.stdout) == [], saved.stdout
    with sqlite3.connect(tmp_path / "backups" / "大会前.sqlite3") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    again = run("backup", "backups/大会前.sqlite3", cwd=tmp_path)
    assert again.returncode == 2
    assert english_lines(again.stderr) == [], again.stderr
    english = run("verify", cwd=tmp_path, LANG="C.UTF-8")
    assert "nothing to check" in english.stdout, english.stdout


def test_an_export_into_a_missing_folder_is_told_in_japanese(tmp_path: Path) -> None:
    # It ended in an English traceback (FileNotFoundError).
    asyncio.run(_an_event(tmp_path / "data" / "bot.sqlite3"))
    refused = run("export", "1", "--output", "missing/dir/x.json", cwd=tmp_path)
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert "missing/dir/x.json に書き出せません" in refused.stderr, refused.stderr
    assert english_lines(refused.stderr) == [], refused.stderr
    written = run("export", "1", "--output", "x.json", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert english_lines(written.stdout) == [], written.stdout


def test_verify_names_a_difference_in_japanese(tmp_path: Path) -> None:
    # The differences were the log's English (「name: log '…' ≠ tables '…'」).
    database = tmp_path / "data" / "bot.sqlite3"
    asyncio.run(_an_event(database))
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE tournaments SET name = '書き換えた名前'")
    checked = run("verify", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert "違いが 1 件あります" in checked.stdout
    assert "保存されたデータでは '書き換えた名前'" in checked.stdout, checked.stdout
    assert english_lines(checked.stdout) == [], checked.stdout
    english = run("verify", cwd=tmp_path, LANG="C.UTF-8")
    assert "1 difference\n" in english.stdout, english.stdout
    assert "the tables '書き換えた名前'" in english.stdout


async def _an_event(path: Path) -> None:
    from bot.demo import DemoEvent
    from bot.services import Services
    from bot.store.database import open_database

    path.parent.mkdir(parents=True)
    database = await open_database(path)
    try:
        await DemoEvent(Services(database), speed=1e6).set_up()
    finally:
        await database.close()


def test_a_missing_token_is_told_in_japanese_only(tmp_path: Path) -> None:
    result = run(cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "が設定されていません" in result.stderr
    assert english_lines(result.stderr) == [], result.stderr


@pytest.mark.parametrize(
    "line",
    [
        "WEB_PORT=abc",
        "DEV_GUILD_ID=123abc",
        "WEB_BASE_URL=foo",
        "DATABASE_URL=mysql://bot:s3cret-pw@db/pm",
        "DEFAULT_LOCALE=fr",
    ],
)
def test_a_wrong_setting_in_env_is_told_in_japanese(tmp_path: Path, line: str) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=tok-123\n{line}\n", encoding="utf-8")
    refused = run(cwd=tmp_path)
    assert refused.returncode == 2
    name = line.split("=")[0]
    assert f"設定 {name} " in refused.stderr, refused.stderr
    assert f"「{name}=」の行を直して" in refused.stderr
    assert english_lines(refused.stderr) == [], refused.stderr
    assert "s3cret-pw" not in refused.stderr
    assert "tok-123" not in refused.stderr


def test_simulate_speaks_japanese(tmp_path: Path) -> None:
    shown = run("simulate", "--players", "8", "--rounds", "3", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert english_lines(shown.stdout) == [], shown.stdout
    refused = run("simulate", "--players", "1", cwd=tmp_path)
    assert refused.returncode == 2
    assert english_lines(refused.stderr) == [], refused.stderr


def test_an_env_saved_as_shift_jis_is_told_how_to_save_it_again(tmp_path: Path) -> None:
    # An older Notepad saves Japanese as Shift_JIS: it was an unforeseen UnicodeDecodeError.
    (tmp_path / ".env").write_bytes("# 大会用\nDISCORD_TOKEN=tok-123\n".encode("shift_jis"))
    refused = run("verify", cwd=tmp_path)
    assert refused.returncode == 2
    assert "UTF-8" in refused.stderr
    assert "名前を付けて保存" in refused.stderr
    assert english_lines(refused.stderr) == [], refused.stderr


def test_web_refuses_in_japanese_a_port_beyond_range_a_port_in_use_and_no_database(
    tmp_path: Path,
) -> None:
    beyond = run("web", "--port", "99999", cwd=tmp_path)
    assert beyond.returncode == 2
    assert "Traceback" not in beyond.stderr
    assert "「99999」はポート番号ではありません" in beyond.stderr
    assert english_lines(beyond.stderr) == [], beyond.stderr
    # No database where DATABASE_PATH says: refused, as verify and backup refuse it, and
    # none is made (an empty one served nothing, silently).
    missing = run("web", "--port", "0", cwd=tmp_path)
    assert missing.returncode == 2
    assert "データベースがありません" in missing.stderr
    assert not (tmp_path / "data").exists()
    assert run("migrate", cwd=tmp_path).returncode == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        in_use = run("web", "--port", port, cwd=tmp_path)
    assert in_use.returncode == 2
    assert "ほかのプログラムが使っています" in in_use.stderr
    assert english_lines(in_use.stderr) == [], in_use.stderr


@pytest.mark.postgres
def test_web_serves_the_database_of_database_url(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    # The web process beside bot processes on PostgreSQL (docs/OPERATIONS.md) opened
    # DATABASE_PATH whatever DATABASE_URL said.
    url = postgres_server.create_database(template=postgres_server.migrated_template())
    process = subprocess.Popen(
        [PYTHON, "-m", "bot", "web", "--port", "0"],
        cwd=tmp_path,
        env=cli_env(**JAPANESE, DATABASE_URL=url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert "ライブページを配信しています" in first, first + err
    assert not (tmp_path / "data").exists()  # no SQLite file beside it
    # Ctrl + C right after the first line is a stop like any other: before, it cut the
    # listing of the pages short (exit 130), the server never stopped, and once in CI the
    # process did not end.
    assert process.returncode == 0, err


def test_web_serving_prints_no_english_log_line(tmp_path: Path) -> None:
    # 「live pages served on…」 and 「cutting N font slices…」 were printed at INFO; they are
    # the operators' lines, shown when LOG_LEVEL asks for them. The font slices are cut
    # afresh here, so the cutting process starts too.
    assert run("migrate", cwd=tmp_path).returncode == 0
    env = cli_env(**JAPANESE, FONT_SLICES_DIR=str(tmp_path / "fonts"))
    process = subprocess.Popen(
        [PYTHON, "-m", "bot", "web", "--port", "0"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "ライブページを配信しています" in first, first
        time.sleep(1)  # what start-up logs after its first line
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert english_lines(first + out) == [], first + out
    assert err == "", err


@pytest.mark.e2e
def test_the_demos_lines_are_japanese(tmp_path: Path) -> None:
    # The font's slices are cut afresh (as on a first run), so its cutting process runs too:
    # its lines (「INFO:__main__:120 font slices cut into …」) stay out of the terminal.
    fonts = str(tmp_path / "fonts")
    shown = run(
        "demo", "--speed", "1000", "--exit", "--port", "0", cwd=tmp_path, FONT_SLICES_DIR=fonts
    )
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any("第 1 回戦" in line for line in lines), shown.stdout
    assert english_lines(shown.stdout) == [], shown.stdout
    assert shown.stderr == "", shown.stderr
    # It ends by itself with --exit: nothing to stop with Ctrl + C.
    assert "Ctrl" not in shown.stdout, shown.stdout
    slow = run("demo", "--speed", "0", cwd=tmp_path)
    assert slow.returncode == 2
    assert english_lines(slow.stderr) == [], slow.stderr
