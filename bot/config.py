"""Settings from the environment and `.env`, validated by pydantic-settings."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DISCORD_API_BASE_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

Locale = Literal["ja", "en"]


class Settings(BaseSettings):
    """Every setting the bot reads. `.env.example` documents each one."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
    )

    discord_token: SecretStr | None = Field(default=None)
    database_path: Path = Field(default=Path("data/bot.sqlite3"))
    log_level: str = Field(default="INFO")
    dev_guild_id: int | None = Field(default=None)
    default_locale: Locale = Field(default="ja")
    # Seconds discord.py waits for servers to stream in before it calls the bot ready.
    guild_ready_timeout: float = Field(default=2.0, ge=0.0, le=60.0)
    # Sync the slash commands at start-up when they differ from the last sync (a stored hash).
    auto_sync: bool = Field(default=True)
    # Seconds shutdown waits for commands in flight to finish before it closes anyway.
    shutdown_timeout: float = Field(default=8.0, ge=0.0, le=60.0)
    # Minutes a result report waits for the opponent's confirmation before the judges hear.
    unconfirmed_report_minutes: int = Field(default=10, ge=1, le=120)
    # Seconds between two looks at the round clocks (reminders, time up, stale reports).
    clock_tick_seconds: float = Field(default=5.0, gt=0.0, le=60.0)
    # A clock notice more than this many seconds overdue (the bot was down) is not posted.
    clock_grace_seconds: float = Field(default=90.0, gt=0.0, le=3600.0)
    # Test-only: how many times faster than real time the bot's clock runs (1 in production),
    # so the end-to-end tests can play a 40-minute round in seconds.
    clock_speed: float = Field(default=1.0, ge=1.0, le=10000.0)
    # Test-only: the fake Discord API of tests/e2e points the bot at loopback.
    discord_api_base_url: str = Field(default=DISCORD_API_BASE_URL)
    discord_gateway_url: str = Field(default=DISCORD_GATEWAY_URL)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_missing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_guild_is_missing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("log_level")
    @classmethod
    def _known_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            known = ", ".join(("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"))
            raise ValueError(f"unknown log level {value!r}; use one of {known}")
        return level

    @field_validator("discord_api_base_url", "discord_gateway_url")
    @classmethod
    def _no_trailing_slash_on_api(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(("http://", "https://", "ws://", "wss://")):
            raise ValueError(f"{value!r} is not an http(s) or ws(s) URL")
        return value

    @property
    def api_base_url(self) -> str:
        return self.discord_api_base_url.rstrip("/")

    def ensure_database_folder(self) -> None:
        self.database_path.parent.mkdir(parents=True, exist_ok=True)
