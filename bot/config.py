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
    # The live web page (issue 22): off unless WEB_PORT is set; WEB_BASE_URL is the address
    # the public uses (behind a reverse proxy), else http://WEB_HOST:WEB_PORT.
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_host: str = Field(default="127.0.0.1")
    web_base_url: str | None = Field(default=None)
    # Requests a second per client address (a burst of 4 times that is allowed), and event
    # streams one address may keep open; behind a reverse proxy, the client's address is
    # the last X-Forwarded-For entry (set WEB_BEHIND_PROXY=true only then).
    web_rate_limit: float = Field(default=10.0, gt=0.0, le=100000.0)
    web_streams_per_ip: int = Field(default=4, ge=1, le=100000)
    web_behind_proxy: bool = Field(default=False)
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

    @field_validator("web_port", "web_base_url", mode="before")
    @classmethod
    def _blank_web_setting_is_missing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("web_host")
    @classmethod
    def _web_host_is_a_host(cls, value: str) -> str:
        value = value.strip()
        if not value or any(c.isspace() or c in "/?#@" for c in value):
            raise ValueError(f"{value!r} is not a host name or address (e.g. 127.0.0.1)")
        return value

    @field_validator("web_base_url")
    @classmethod
    def _web_base_url_is_http(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or len(value.split("/")) < 3:
            raise ValueError(f"{value!r} is not an http(s) URL (e.g. https://example.org/pm)")
        if "?" in value or "#" in value:
            raise ValueError(f"{value!r} must not carry a query or a fragment")
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
    def web_public_url(self) -> str | None:
        """Where the public reaches the live pages: WEB_BASE_URL, else the bot's own server
        when it runs one, else None (no page is served)."""
        if self.web_base_url:
            return self.web_base_url
        if self.web_port is None:
            return None
        host = f"[{self.web_host}]" if ":" in self.web_host else self.web_host
        return f"http://{host}:{self.web_port}"

    @property
    def api_base_url(self) -> str:
        return self.discord_api_base_url.rstrip("/")

    def ensure_database_folder(self) -> None:
        self.database_path.parent.mkdir(parents=True, exist_ok=True)
