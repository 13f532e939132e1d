"""`python -m bot` as a user runs it: a subprocess, in a folder of its own."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from tests.conftest import PYTHON, cli_env


def run_cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "bot", *args],
        cwd=cwd,
        env=cli_env(**env),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_help_lists_the_subcommands(tmp_path: Path) -> None:
    result = run_cli("--help", cwd=tmp_path)
    assert result.returncode == 0
    for name in ("run", "migrate", "sync"):
        assert name in result.stdout


def test_missing_token_exits_2_with_a_bilingual_message(tmp_path: Path) -> None:
    for args in ((), ("run",), ("sync",)):
        result = run_cli(*args, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "DISCORD_TOKEN" in result.stderr
        assert "が設定されていません" in result.stderr
        assert "is not set" in result.stderr
        assert "https://discord.com/developers/applications" in result.stderr
        assert ".env" in result.stderr


def test_a_dot_env_saved_as_dot_env_txt_is_named_with_how_to_rename_it(tmp_path: Path) -> None:
    # Windows hides extensions, so the organizer's `.env` is often `.env.txt`.
    (tmp_path / ".env.txt").write_text("DISCORD_TOKEN=abc\n", encoding="utf-8")
    result = run_cli(cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert ".env.txt があります" in result.stderr
    assert "there is a .env.txt" in result.stderr
    for rename in ("ren .env.txt .env", "Rename-Item .env.txt .env"):
        assert result.stderr.count(rename) == 2  # in both languages
    assert "が設定されていません" not in result.stderr  # not the plain "no token"
    # With a real .env beside it, the .env is what counts: the usual message.
    (tmp_path / ".env").write_text("LOG_LEVEL=INFO\n", encoding="utf-8")
    plain = run_cli(cwd=tmp_path)
    assert plain.returncode == 2
    assert "が設定されていません" in plain.stderr
    assert ".env.txt" not in plain.stderr


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the block ends


@pytest.mark.parametrize("command", [(), ("sync", "--guild", "1")])
def test_no_network_is_one_bilingual_line_not_a_traceback(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    port = closed_port()
    result = run_cli(
        *command,
        cwd=tmp_path,
        DISCORD_TOKEN="abc.def.ghi",
        DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
        DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/",
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"Discord（http://127.0.0.1:{port}/api/v10）に接続できません" in result.stderr
    assert f"Cannot reach Discord (http://127.0.0.1:{port}/api/v10)" in result.stderr
    assert "voice will NOT be supported" not in result.stderr  # no voice in this bot
    assert len(result.stderr.splitlines()) < 8, result.stderr  # a few log lines, the message


def test_invalid_setting_exits_2_without_traceback(tmp_path: Path) -> None:
    result = run_cli(cwd=tmp_path, DISCORD_TOKEN="x", LOG_LEVEL="LOUD")
    assert result.returncode == 2
    assert "LOG_LEVEL" in result.stderr
    assert "Traceback" not in result.stderr


def test_migrate_creates_the_database_folder_and_is_idempotent(tmp_path: Path) -> None:
    database = tmp_path / "deep" / "folder" / "bot.sqlite3"
    first = run_cli("migrate", cwd=tmp_path, DATABASE_PATH=str(database))
    assert first.returncode == 0, first.stderr
    assert "applied 0001_initial.sql" in first.stdout
    assert database.exists()
    second = run_cli("migrate", cwd=tmp_path, DATABASE_PATH=str(database))
    assert second.returncode == 0
    assert "applied" not in second.stdout


def test_migrate_refuses_a_newer_database(tmp_path: Path) -> None:
    import sqlite3

    database = tmp_path / "bot.sqlite3"
    assert run_cli("migrate", cwd=tmp_path, DATABASE_PATH=str(database)).returncode == 0
    with sqlite3.connect(database) as raw:
        raw.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
    result = run_cli("migrate", cwd=tmp_path, DATABASE_PATH=str(database))
    assert result.returncode == 2
    assert "999" in result.stderr
    assert "Traceback" not in result.stderr
    bot = run_cli(cwd=tmp_path, DATABASE_PATH=str(database), DISCORD_TOKEN="t.o.k")
    assert bot.returncode == 2
    assert "newer" in bot.stderr
