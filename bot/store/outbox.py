"""The outbox: notices written in the transaction of the change that makes them said, then
sent by the delivery loop (bot/delivery), which marks each one done, once."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.notify.plan import Notice, Place, Say
from bot.store.database import SQLITE, Database
from bot.store.shards import Shards
from bot.store.sql import Connection, Row

PENDING, SENT, SKIPPED, FAILED = "pending", "sent", "skipped", "failed"


@dataclass(frozen=True)
class Outgoing:
    """One notice waiting in the outbox."""

    id: int
    guild_id: int
    tournament_id: int | None
    say: Say
    places: tuple[Place, ...]
    user: int | None
    data: dict[str, Any]
    lang: str
    attempts: int


async def add_notices(
    connection: Connection,
    *,
    guild_id: int,
    tournament_id: int | None,
    action_id: int | None,
    lang: str,
    notices: Sequence[Notice],
    at: datetime,
    state: str = PENDING,
) -> int:
    """Write `notices`; one whose key was ever planned before is left out. Returns how many
    were written."""
    written = 0
    for notice in notices:
        cursor = await connection.execute(
            "INSERT INTO outbox (guild_id, tournament_id, action_id, say, places, user_id,"
            " payload, lang, dedupe_key, state, created_at, done_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING",
            (
                guild_id,
                tournament_id,
                action_id,
                notice.say.value,
                json.dumps([place.value for place in notice.places]),
                notice.user,
                json.dumps(dict(notice.data), ensure_ascii=False, sort_keys=True),
                lang,
                notice.key,
                state,
                at.isoformat(),
                None if state == PENDING else at.isoformat(),
            ),
        )
        written += cursor.rowcount
    return written


async def planned_keys(connection: Connection, tournament_id: int, prefix: str) -> set[str]:
    """The dedupe keys of this tournament's notices that start with `prefix`."""
    # A prefix compared as text, not as a range: PostgreSQL's collation may order the
    # keys otherwise than SQLite's bytes.
    rows = await connection.execute_fetchall(
        "SELECT dedupe_key FROM outbox WHERE tournament_id = ? AND substr(dedupe_key, 1, ?) = ?",
        (tournament_id, len(prefix), prefix),
    )
    return {row[0] for row in rows}


def _outgoing(row: Row) -> Outgoing:
    return Outgoing(
        id=row["id"],
        guild_id=row["guild_id"],
        tournament_id=row["tournament_id"],
        say=Say(row["say"]),
        places=tuple(Place(place) for place in json.loads(row["places"])),
        user=row["user_id"],
        data=json.loads(row["payload"]),
        lang=row["lang"],
        attempts=row["attempts"],
    )


class OutboxStore:
    """What the delivery loop reads and writes: the notices to send and what they made.

    Several processes may share the outbox (PostgreSQL, SHARD_IDS): each sends only its
    own shards' notices, and claims a notice before sending it, so no two processes ever
    send the same one. SQLite has one process, which owns its whole outbox: nothing to
    claim, and a look at the outbox is a plain read (no write, no fsync, no wait behind
    another program holding the write lock). A claim lasts `claim_seconds` (renewed at
    every look): the claims of a process that crashed expire and the notice goes out from
    another process; the process restarted on the same shards takes them at once
    (`Shards.claimant`). Claims go by the
    wall clock (not the bot's, which tests speed up).
    """

    def __init__(
        self, database: Database, shards: Shards | None = None, *, claim_seconds: float = 60.0
    ) -> None:
        self.database = database
        self.shards = shards or Shards()
        self.claim_seconds = claim_seconds
        self.owner = self.shards.claimant
        self.claims = database.dialect != SQLITE

    async def pending(self, limit: int = 500) -> list[Outgoing]:
        """This process's shards' notices waiting to be sent, oldest first, claimed: those
        another live process holds are left out."""
        if not self.claims:
            async with self.database.read() as connection:
                rows = await connection.execute_fetchall(
                    "SELECT * FROM outbox WHERE state = 'pending' ORDER BY id LIMIT ?", (limit,)
                )
            return [_outgoing(row) for row in rows]
        now = datetime.now(UTC)
        until = now + timedelta(seconds=self.claim_seconds)
        shards, shard_values = self.shards.where()
        free = "(claimed_by IS NULL OR claimed_by = ? OR claimed_until < ?)"
        async with self.database.write() as connection:
            # The condition is repeated outside the subquery: PostgreSQL re-checks it on a
            # row another claimer just updated (READ COMMITTED), so that one is skipped.
            rows = await connection.execute_fetchall(
                f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN"
                f" (SELECT id FROM outbox WHERE state = 'pending'{shards} AND {free}"
                f" ORDER BY id LIMIT ?) AND state = 'pending' AND {free} RETURNING *",
                (
                    self.owner,
                    until.isoformat(),
                    *shard_values,
                    self.owner,
                    now.isoformat(),
                    limit,
                    self.owner,
                    now.isoformat(),
                ),
            )
        return sorted((_outgoing(row) for row in rows), key=lambda notice: notice.id)

    async def release(self) -> None:
        """Give up this process's claims (a clean stop): another process need not wait for
        them to expire."""
        if not self.claims:
            return
        async with self.database.write() as connection:
            await connection.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL"
                " WHERE claimed_by = ? AND state = 'pending'",
                (self.owner,),
            )

    async def latest_post(self, tournament_id: int, say: Say) -> tuple[int, int] | None:
        """(channel id, message id) of the first message of the newest notice of `say` the
        tournament sent: the post an edit brings up to date."""
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                "SELECT m.channel_id, m.message_id FROM outbox o JOIN outbox_messages m"
                " ON m.notice_id = o.id AND m.part = 0"
                " WHERE o.tournament_id = ? AND o.say = ? ORDER BY o.id DESC LIMIT 1",
                (tournament_id, say.value),
            )
        for row in rows:
            return int(row["channel_id"]), int(row["message_id"])
        return None

    async def pairings_post(self, tournament_id: int, number: int) -> list[tuple[int, int]]:
        """(channel id, message id) of each part of round `number`'s newest pairings post,
        in order: the messages its results are marked on. Empty before it is posted."""
        async with self.database.read() as connection:
            notices = await connection.execute_fetchall(
                "SELECT id, payload FROM outbox WHERE tournament_id = ? AND say = ?"
                " ORDER BY id DESC",
                (tournament_id, Say.PAIRINGS.value),
            )
            newest = next(
                (
                    int(row["id"])
                    for row in notices
                    if json.loads(row["payload"]).get("round") == number
                ),
                None,
            )
            if newest is None:
                return []
            parts = await connection.execute_fetchall(
                "SELECT channel_id, message_id FROM outbox_messages WHERE notice_id = ?"
                " ORDER BY part",
                (newest,),
            )
        return [(int(row["channel_id"]), int(row["message_id"])) for row in parts]

    async def supersede(self, notice_ids: Sequence[int], at: datetime) -> None:
        """Mark notices skipped because a newer one says the same, up to date."""
        if not notice_ids:
            return
        marks = ", ".join("?" for _ in notice_ids)
        async with self.database.write() as connection:
            await connection.execute(
                f"UPDATE outbox SET state = 'skipped', done_at = ?, last_error = 'superseded'"
                f" WHERE id IN ({marks})",
                (at.isoformat(), *notice_ids),
            )

    async def parts(self, notice_id: int) -> dict[int, tuple[int, int]]:
        """The messages this notice already made: part → (channel id, message id)."""
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                "SELECT part, channel_id, message_id FROM outbox_messages WHERE notice_id = ?",
                (notice_id,),
            )
        return {row[0]: (row[1], row[2]) for row in rows}

    async def record_part(
        self,
        notice_id: int,
        part: int,
        channel_id: int,
        message_id: int,
        *,
        done_at: datetime | None = None,
    ) -> None:
        """Remember a message the notice made; with `done_at`, the notice is sent, in the
        same write (one commit per message, however long the event)."""
        async with self.database.write() as connection:
            await connection.execute(
                "INSERT INTO outbox_messages (notice_id, part, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (notice_id, part) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                (notice_id, part, channel_id, message_id),
            )
            if done_at is not None:
                await connection.execute(
                    "UPDATE outbox SET state = 'sent', done_at = ?, attempts = attempts + 1"
                    " WHERE id = ?",
                    (done_at.isoformat(), notice_id),
                )

    async def finish(
        self, notice_id: int, state: str, at: datetime, error: str | None = None
    ) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "UPDATE outbox SET state = ?, done_at = ?, last_error = ?,"
                " attempts = attempts + 1 WHERE id = ?",
                (state, at.isoformat(), error, notice_id),
            )

    async def failed_attempt(self, notice_id: int, error: str) -> None:
        async with self.database.write() as connection:
            await connection.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
                (error, notice_id),
            )
