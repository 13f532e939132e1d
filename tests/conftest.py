"""Shared fixtures: a clean environment so a developer's own `.env` never leaks into tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

_SETTINGS_VARIABLES = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "LOG_LEVEL",
    "DEV_GUILD_ID",
    "DEFAULT_LOCALE",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "GUILD_READY_TIMEOUT",
    "AUTO_SYNC",
    "SHUTDOWN_TIMEOUT",
    "UNCONFIRMED_REPORT_MINUTES",
    "CLOCK_TICK_SECONDS",
    "CLOCK_GRACE_SECONDS",
    "CLOCK_SPEED",
)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Run in an empty folder (no `.env`) with none of the bot's variables set."""
    for name in _SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli_env(**overrides: str) -> dict[str, str]:
    """The environment for `python -m bot` in a subprocess: ours minus the bot's settings."""
    env = {k: v for k, v in os.environ.items() if k not in _SETTINGS_VARIABLES}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(overrides)
    return env


PYTHON = sys.executable
