"""The Discord scheduled event each tournament has on its server's calendar, so
that later notices edit it rather than make another. Bookkeeping of the bot, like its posts:
not in the action log."""

from __future__ import annotations

from bot.store.backend import Database, Row


class CalendarEvents:
    """The delivery's way to the calendar's bookkeeping (outside any unit of work)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def event_id(self, tournament_id: int) -> int | None:
        async with self.database.read() as connection:
            rows: list[Row] = list(
                await connection.execute_fetchall(
                    "SELECT event_id FROM calendar_events WHERE tournament_id = ?",
                    (tournament_id,),
                )
            )
        return int(rows[0]["event_id"]) if rows else None

    async def remember(self, tournament_id: int, event_id: int) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO calendar_events (tournament_id, event_id) VALUES (?, ?)"
                " ON CONFLICT (tournament_id) DO UPDATE SET event_id = excluded.event_id",
                (tournament_id, event_id),
            )

    async def forget(self, tournament_id: int) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "DELETE FROM calendar_events WHERE tournament_id = ?", (tournament_id,)
            )
