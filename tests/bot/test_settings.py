"""Settings come from the environment and `.env`, and bad values are refused clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.cli.common import load_settings, require_token
from bot.config import DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL, Settings
from bot.errors import StartupError
from bot.store.urls import safe_url


def test_defaults(clean_env: Path) -> None:
    settings = Settings()
    assert settings.discord_token is None
    assert settings.database_path == Path("data/bot.sqlite3")
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None
    assert settings.default_locale == "ja"
    assert settings.discord_api_base_url == DISCORD_API_BASE_URL
    assert settings.discord_gateway_url == DISCORD_GATEWAY_URL


def test_values_come_from_dotenv(clean_env: Path) -> None:
    (clean_env / ".env").write_text(
        "DISCORD_TOKEN=abc.def.ghi\nDATABASE_PATH=elsewhere/x.sqlite3\n"
        "LOG_LEVEL=debug\nDEV_GUILD_ID=1234\nDEFAULT_LOCALE=en\n",
        encoding="utf-8",
    )
    settings = Settings()
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"
    assert settings.database_path == Path("elsewhere/x.sqlite3")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 1234
    assert settings.default_locale == "en"


def test_environment_beats_dotenv(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text("LOG_LEVEL=DEBUG\n", encoding="utf-8")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    assert Settings().log_level == "WARNING"


def test_the_token_is_secret_in_reprs(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "super-secret-token-value")
    settings = Settings()
    assert "super-secret-token-value" not in repr(settings)
    assert "super-secret-token-value" not in str(settings.model_dump())


def test_blank_token_counts_as_missing(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    with pytest.raises(StartupError) as missing:
        require_token(Settings())
    assert missing.value.exit_code == 2
    assert "DISCORD_TOKEN" in missing.value.message


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("LOG_LEVEL", "LOUD"),
        ("DEV_GUILD_ID", "not-a-number"),
        ("DEFAULT_LOCALE", "fr"),
        ("DISCORD_API_BASE_URL", "discord.com/api"),
        ("GUILD_READY_TIMEOUT", "-1"),
    ],
)
def test_bad_values_are_refused(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError):
        Settings()
    with pytest.raises(StartupError) as refused:
        load_settings()
    assert f"設定 {variable} の値「{value}」は使えません" in refused.value.message


def test_database_url_wins_and_its_password_is_never_shown(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_PATH", "elsewhere/x.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret-pw@db.example:5432/pm")
    settings = Settings()
    assert settings.database_location == "postgresql://bot:s3cret-pw@db.example:5432/pm"
    assert settings.database_label == "postgresql://bot:***@db.example:5432/pm"
    assert settings.database_secrets == ["s3cret-pw"]
    assert "s3cret-pw" not in repr(settings)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///data/other.sqlite3")
    assert Settings().database_location == "data/other.sqlite3"


def test_a_bad_database_url_is_refused_without_echoing_it(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://bot:s3cret-pw@db/pm")
    with pytest.raises(StartupError) as refused:
        load_settings()
    assert "DATABASE_URL" in refused.value.message
    assert "postgresql://" in refused.value.message
    assert "s3cret-pw" not in refused.value.message


@pytest.mark.parametrize(
    ("ids", "shards"), [("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), ("0-1,4", (0, 1, 4))]
)
def test_shard_ids_are_ranges_or_lists(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, ids: str, shards: tuple[int, ...]
) -> None:
    monkeypatch.setenv("SHARD_COUNT", "8")
    monkeypatch.setenv("SHARD_IDS", ids)
    assert Settings().shards == shards


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [("", "0", "SHARD_COUNT"), ("2", "0,2", "below SHARD_COUNT"), ("4", "3-1", "backwards")],
)
def test_bad_shards_are_refused(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, count: str, ids: str, says: str
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(StartupError) as refused:
        load_settings()
    assert says in refused.value.message


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot:pa?ss#wo/rd9@db.example:5432/pm",
        "postgresql://bot:wo/rd9@qq?zz@db.example/pm",
        "postgresql://bot:rd9#wo@db.example/pm",
        "postgresql://bot:rd9@db.example:99999/pm",
        "postgresql://bot:rd9@db.example:5432/pm?sslmode",
    ],
)
def test_a_database_url_that_does_not_parse_is_refused_and_shows_no_password(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(StartupError) as refused:
        load_settings()
    assert refused.value.exit_code == 2
    assert "DATABASE_URL" in refused.value.message
    password = url.split("bot:", 1)[1].rsplit("@", 1)[0]
    for piece in [password, *password.replace("?", "/").replace("#", "/").split("/")]:
        if len(piece) >= 3:
            assert piece not in refused.value.message
    assert safe_url(url) == "postgresql://***"


def test_the_bot_exits_2_on_such_a_url_and_prints_no_piece_of_the_password(
    clean_env: Path,
) -> None:
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "DISCORD_TOKEN": "x",
        "DATABASE_URL": "postgresql://bot:pa?ss#wordpiece/rd9@db.example:5432/pm",
    }
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=clean_env,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    output = done.stdout + done.stderr
    assert "Traceback" not in output
    for piece in ("ss#wordpiece", "wordpiece", "rd9@"):
        assert piece not in output


def test_an_uncaught_error_is_told_in_the_terminals_language_its_details_redacted_in_a_file(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An English traceback was printed to the organizer's Japanese terminal.
    from bot import __main__ as entry

    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.setenv("DISCORD_TOKEN", "tok-abc-123-secret")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:hunter2-pw@db.example/pm")

    def explode(args: object) -> int:
        raise ValueError("talking to hunter2-pw with tok-abc-123-secret")

    parser = entry.build_parser()
    args = parser.parse_args(["run"])
    args.handler = explode
    monkeypatch.setattr(entry, "build_parser", lambda: _FixedParser(args))
    assert entry.main(["run"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "予期しないエラー（ValueError）で止まりました" in err
    (written,) = (clean_env / "logs").glob("error-*.txt")
    assert str(written.relative_to(clean_env)) in err
    details = written.read_text(encoding="utf-8")
    assert "Traceback" in details
    assert "ValueError" in details
    for text in (err, details):
        assert "hunter2-pw" not in text
        assert "tok-abc-123-secret" not in text


class _FixedParser:
    def __init__(self, args: object) -> None:
        self.args = args

    def parse_args(self, argv: object = None) -> object:
        return self.args


# Each refused setting says which one, what it may be (a number's range read from the
# setting's own bounds) and which line to correct, in the terminal's language; a secret's
# value is never quoted.
@pytest.mark.parametrize(
    ("line", "japanese", "english"),
    [
        (
            "WEB_PORT=abc",
            ["「abc」", "1〜65535 の整数", "「WEB_PORT=」の行を直して"],
            ['"abc"', "a whole number from 1 to 65535", 'the line "WEB_PORT="'],
        ),
        (
            "DEV_GUILD_ID=x",
            ["「x」", "整数", "サーバー ID"],
            ['"x"', "a whole number", "server ID"],
        ),
        (
            "WEB_BASE_URL=foo",
            ["「foo」", "https:// で始まる", "例 https://pm.example.org"],
            ['"foo"', "http:// or https://", "e.g. https://pm.example.org"],
        ),
        (
            "DATABASE_URL=mysql://bot:s3cret-pw@db/pm",
            ["値はここに表示しません", "postgresql://ユーザー:パスワード@ホスト"],
            ["not shown here", "postgresql://USER:PASSWORD@HOST"],
        ),
        (
            "DEFAULT_LOCALE=fr",
            ["「fr」", "ja、en のどれか"],
            ['"fr"', "one of ja, en"],
        ),
        (
            "SHARD_IDS=0-3",
            ["「0-3」", "SHARD_COUNT（シャードの総数）も必要"],
            ['"0-3"', "needs SHARD_COUNT"],
        ),
        (
            "CLOCK_TICK_SECONDS=0",
            ["0 より大きく 60 以下の数", "わからなければ 5"],
            ["a number above 0, at most 60", "If unsure, write 5."],
        ),
    ],
)
def test_a_refused_setting_says_what_to_write_and_where(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    line: str,
    japanese: list[str],
    english: list[str],
) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")  # not a Japanese terminal: Japanese, then English
    (clean_env / ".env").write_text(line + "\n", encoding="utf-8")
    with pytest.raises(StartupError) as refused:
        load_settings()
    said_ja, said_en = refused.value.message.splitlines()
    name = line.split("=")[0]
    assert f"設定 {name} " in said_ja
    assert f"The setting {name} " in said_en
    for words in japanese:
        assert words in said_ja
    for words in english:
        assert words in said_en
    assert "Input should" not in said_ja + said_en  # pydantic's own words
    assert "s3cret-pw" not in refused.value.message
    assert ".env の" in said_ja


def test_a_refused_environment_variable_is_named_as_one(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.setenv("web_port", "abc")  # the settings read names in any case
    with pytest.raises(StartupError) as refused:
        load_settings()
    assert refused.value.message.count("\n") == 0  # a Japanese terminal: Japanese only
    assert "環境変数 WEB_PORT" in refused.value.message


def test_every_setting_can_be_described_in_both_languages() -> None:
    # A setting added later needs bounds, a type the catalogs name, or its own words.
    from bot.cli.settings_errors import expected, is_secret

    for field in Settings.model_fields:
        for lang in ("ja", "en"):
            assert expected(field, lang).strip(), (field, lang)
    assert is_secret("discord_token")
    assert is_secret("database_url")
    assert not is_secret("web_port")
