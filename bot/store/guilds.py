"""Per-guild configuration written by /setup."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime

from bot.store.backend import Connection, Row
from domain.guild import GuildConfig, Ratings

__all__ = ["GuildConfig", "get_guild_config", "save_guild_config"]


_COLUMNS = [f.name for f in fields(GuildConfig)]


async def get_guild_config(connection: Connection, guild_id: int) -> GuildConfig:
    # One trip to the database thread (execute, fetch and close are three): read per click.
    rows: list[Row] = list(
        await connection.execute_fetchall(
            "SELECT * FROM guild_config WHERE guild_id = ?", (guild_id,)
        )
    )
    row = rows[0] if rows else None
    if row is None:
        return GuildConfig(guild_id=guild_id)
    values = {name: row[name] for name in _COLUMNS}
    values["bilingual_buttons"] = bool(values["bilingual_buttons"])  # SQLite stores 0 or 1
    values["ratings"] = Ratings(values["ratings"])
    return GuildConfig(**values)


def _sql(value: object) -> object:
    return value.value if isinstance(value, Ratings) else value


async def save_guild_config(connection: Connection, config: GuildConfig, at: datetime) -> None:
    values = [_sql(getattr(config, name)) for name in _COLUMNS]
    columns = ", ".join([*_COLUMNS, "updated_at"])
    placeholders = ", ".join("?" for _ in range(len(_COLUMNS) + 1))
    updates = ", ".join(f"{name} = excluded.{name}" for name in [*_COLUMNS[1:], "updated_at"])
    await connection.execute(
        f"INSERT INTO guild_config ({columns}) VALUES ({placeholders})"
        f" ON CONFLICT (guild_id) DO UPDATE SET {updates}",
        (*values, at.isoformat()),
    )
