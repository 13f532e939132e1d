"""`python -m bot` as a user runs it: a subprocess, in a folder of its own."""

from __future__ import annotations

import subprocess
from pathlib import Path

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
