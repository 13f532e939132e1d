"""Settings from the environment and `.env`, validated by pydantic-settings."""

from __future__ import annotations

import ipaddress
import logging
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.store.urls import URL_PROBLEMS, is_postgres_url, postgres_url_problem, url_secrets

DISCORD_API_BASE_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

Locale = Literal["ja", "en"]
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def only_here(url: str) -> bool:
    """Whether `url` opens only on the computer it is served from: 127.0.0.0/8, ::1,
    localhost (and any name under .localhost), or 0.0.0.0 (an address to listen on, which no
    browser elsewhere can open)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1
    return address.is_loopback or address.is_unspecified


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
    # sqlite:///path (the default is DATABASE_PATH) or postgresql://user:password@host/db.
    # Wins over DATABASE_PATH when both are set. A secret: logs show it without password.
    database_url: SecretStr | None = Field(default=None)
    # Connections each process keeps to PostgreSQL.
    database_pool_size: int = Field(default=10, ge=1, le=100)
    # Discord's shards (needed past 2,500 servers): SHARD_COUNT in all, and the ones this
    # process runs, e.g. SHARD_IDS=0-3 or 0,2. Unset: one process runs every shard.
    shard_count: int | None = Field(default=None, ge=1, le=100_000)
    shard_ids: str | None = Field(default=None)
    # Seconds a process holds an outbox notice it is sending before another may take it
    # (a process that crashed leaves claims that expire after this).
    outbox_claim_seconds: float = Field(default=60.0, ge=1.0, le=3600.0)
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
    # Test-only: how many minutes ahead the bot's clock runs (0 in production), so that an
    # end-to-end test can move time on by restarting the bot instead of waiting.
    clock_offset_minutes: float = Field(default=0.0, ge=0.0, le=100_000.0)
    # The live web page: off unless WEB_PORT is set; WEB_BASE_URL is the address
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
    # The proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated);
    # a connection from anywhere else is counted by its own address, whatever it says.
    web_trusted_proxies: str = Field(default="127.0.0.1,::1")
    # Test-only: the fake Discord API of tests/e2e points the bot at loopback.
    discord_api_base_url: str = Field(default=DISCORD_API_BASE_URL)
    discord_gateway_url: str = Field(default=DISCORD_GATEWAY_URL)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_missing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("dev_guild_id", "shard_count", mode="before")
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
            raise PydanticCustomError(
                "not_a_host",
                "'{value}' is not a host name or address (e.g. 127.0.0.1)",
                {"value": value},
            )
        return value

    @field_validator("web_trusted_proxies")
    @classmethod
    def _trusted_proxies_are_networks(cls, value: str) -> str:
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        for entry in entries:
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise PydanticCustomError(
                    "not_a_network",
                    "'{entry}' is not an address or a network (e.g. 127.0.0.1 or 10.0.0.0/8)",
                    {"entry": entry},
                ) from None
        return ",".join(entries)

    @field_validator("web_base_url")
    @classmethod
    def _web_base_url_is_http(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")) or len(value.split("/")) < 3:
            raise PydanticCustomError(
                "not_http_url",
                "'{value}' is not an http(s) URL (e.g. https://example.org/pm)",
                {"value": value},
            )
        if "?" in value or "#" in value:
            raise PydanticCustomError(
                "url_with_query",
                "'{value}' must not carry a query or a fragment",
                {"value": value},
            )
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _known_database_url(cls, value: object) -> object:
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if not isinstance(value, str) or not value.strip():
            return None
        text = value.strip()
        # Never echo the URL back: it may hold a password.
        if text.startswith("sqlite:///"):
            if not text.removeprefix("sqlite:///"):
                raise PydanticCustomError(
                    "sqlite_needs_path",
                    "sqlite:/// needs a file path, e.g. sqlite:///data/bot.sqlite3",
                )
            return text
        if is_postgres_url(text):
            problem = postgres_url_problem(text)
            if problem is not None:
                raise PydanticCustomError(f"database_url_{problem}", URL_PROBLEMS[problem])
            return text
        raise PydanticCustomError(
            "database_url_scheme",
            "use sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
        )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str):
            return ",".join(str(shard) for shard in parse_shard_ids(value))
        return value

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        shards = self.shards
        if shards is None:
            return self
        # Both name the setting: a check of the whole has no place of its own in the error.
        if self.shard_count is None:
            raise PydanticCustomError(
                "shards_need_count",
                "SHARD_IDS needs SHARD_COUNT (the number of shards in all)",
                {"setting": "SHARD_IDS"},
            )
        beyond = [shard for shard in shards if shard >= self.shard_count]
        if beyond:
            raise PydanticCustomError(
                "shards_beyond_count",
                "SHARD_IDS {beyond} must be below SHARD_COUNT={count} "
                "(shards are numbered 0 to {last})",
                {
                    "setting": "SHARD_IDS",
                    "beyond": ",".join(map(str, beyond)),
                    "count": self.shard_count,
                    "last": self.shard_count - 1,
                },
            )
        return self

    @field_validator("log_level")
    @classmethod
    def _known_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in logging.getLevelNamesMapping():
            known = ", ".join(LOG_LEVELS)
            raise PydanticCustomError(
                "unknown_log_level",
                "unknown log level '{value}'; use one of {known}",
                {"value": value, "known": known},
            )
        return level

    @field_validator("discord_api_base_url", "discord_gateway_url")
    @classmethod
    def _no_trailing_slash_on_api(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(("http://", "https://", "ws://", "wss://")):
            raise PydanticCustomError(
                "not_api_url", "'{value}' is not an http(s) or ws(s) URL", {"value": value}
            )
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
    def web_players_url(self) -> str | None:
        """The live pages' address as players are given it: `web_public_url`, unless that
        opens only on this computer (loopback), which no player's phone can reach."""
        url = self.web_public_url
        return None if url is None or only_here(url) else url

    @property
    def trusted_proxies(self) -> tuple[str, ...]:
        return tuple(entry for entry in self.web_trusted_proxies.split(",") if entry)

    @property
    def api_base_url(self) -> str:
        return self.discord_api_base_url.rstrip("/")

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shards this process runs; None: all of them."""
        if self.shard_ids is None:
            return None
        return tuple(int(shard) for shard in self.shard_ids.split(","))

    @property
    def database_location(self) -> str:
        """A file path (SQLite) or a postgresql:// URL: what `open_database` takes."""
        if self.database_url is None:
            return str(self.database_path)
        url = self.database_url.get_secret_value()
        if url.startswith("sqlite:///"):
            return url.removeprefix("sqlite:///")
        return url

    @property
    def database_label(self) -> str:
        """The database as logs and messages may show it: without a password."""
        from bot.store.urls import safe_url

        return safe_url(self.database_location)

    @property
    def database_secrets(self) -> list[str]:
        """What the log must never show: the database password, if any."""
        location = self.database_location
        return url_secrets(location) if "://" in location else []

    def ensure_database_folder(self) -> None:
        self.database_path.parent.mkdir(parents=True, exist_ok=True)


def parse_shard_ids(text: str) -> list[int]:
    """`0-3` → [0, 1, 2, 3]; `0,2` → [0, 2]; ranges and ids may be mixed (`0-1,4`)."""
    shards: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise PydanticCustomError(
                "not_shard_ids",
                "'{text}' is not a list of shard ids like 0-3 or 0,2",
                {"text": text},
            )
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise PydanticCustomError(
                "shards_backwards", "the range '{part}' goes backwards", {"part": part}
            )
        shards.extend(range(low, high + 1))
    if len(set(shards)) != len(shards):
        raise PydanticCustomError("shard_twice", "'{text}' names a shard twice", {"text": text})
    return sorted(shards)
