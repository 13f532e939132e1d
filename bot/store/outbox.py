"""The outbox: notices written in the transaction of the change that makes them said, then
sent by the delivery loop (bot/delivery), which marks each one done, once."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from bot.notify.payloads import Payload, Unreadable
from bot.notify.plan import Notice, Place, Say, stored_payload
from bot.store.backend import Connection, Database, Row, fetch_rows
from bot.store.shards import Shards

log = logging.getLogger(__name__)

PENDING, SENT, SKIPPED, FAILED = "pending", "sent", "skipped", "failed"


class PostState(StrEnum):
    """Where a post stands, as the person who made it is told: "posted" only once it is."""

    POSTED = "posted"
    WAITING = "waiting"  # its turn at Discord's pace (or behind what it must follow)
    FAILING = "failing"  # Discord failed it, or the tournament's notices before it
    NOT_POSTED = "not_posted"  # skipped (nowhere to post it) or given up


@dataclass(frozen=True)
class Waiting:
    """A tournament's notices still to be sent: how many, since when, and why the oldest
    failed, if it did."""

    count: int
    since: datetime | None
    last_error: str | None


@dataclass(frozen=True)
class Sending:
    """A message that was being posted when the bot stopped."""

    notice_ids: tuple[int, ...]
    part: int
    channel_id: int
    nonce: str
    digest: str  # of what it says (`bot.delivery.sending.digest`)


@dataclass(frozen=True)
class Outgoing:
    """One notice waiting in the outbox."""

    id: int
    guild_id: int
    tournament_id: int | None
    say: Say
    places: tuple[Place, ...]
    user: int | None
    data: Payload
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
                json.dumps(notice.data.to_json(), ensure_ascii=False, sort_keys=True),
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
    say = Say(row["say"])
    data = stored_payload(say, json.loads(row["payload"]))
    if isinstance(data, Unreadable):
        log.warning("notice %s (%s) has data that does not read: %s", row["id"], say, data.error)
    return Outgoing(
        id=row["id"],
        guild_id=row["guild_id"],
        tournament_id=row["tournament_id"],
        say=say,
        places=tuple(Place(place) for place in json.loads(row["places"])),
        user=row["user_id"],
        data=data,
        lang=row["lang"],
        attempts=row["attempts"],
    )


def _about_round(say: Say, payload: str) -> int | None:
    return stored_payload(say, json.loads(payload)).about_round


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
        self.claims = database.shared_by_processes
        # A delivery sends this outbox in this process (the bot; not a command-line tool,
        # not a test of the services): only then is waiting for a notice to be sent useful.
        self.delivering = False

    def delivery_started(self) -> None:
        self.delivering = True

    def delivery_stopped(self) -> None:
        self.delivering = False

    async def pending(self, limit: int = 5000, *, after: int = 0) -> list[Outgoing]:
        """This process's shards' notices waiting to be sent, oldest first, from the one
        after id `after` on, claimed: those another live process holds are left out."""
        if not self.claims:
            async with self.database.read() as connection:
                rows = await connection.execute_fetchall(
                    "SELECT * FROM outbox WHERE state = 'pending' AND id > ? ORDER BY id LIMIT ?",
                    (after, limit),
                )
            return [_outgoing(row) for row in rows]
        now = datetime.now(UTC)
        until = now + timedelta(seconds=self.claim_seconds)
        shards, shard_values = self.shards.where()
        free = "(claimed_by IS NULL OR claimed_by = ? OR claimed_until < ?)"
        async with self.database.write() as connection:
            # The condition is repeated outside the subquery: PostgreSQL re-checks it on a
            # row another claimer just updated (READ COMMITTED), so that one is skipped.
            # Rows another transaction holds (a notice being marked sent) are skipped, not
            # waited for: waiting on them in another order than theirs is a deadlock.
            rows = await connection.execute_fetchall(
                f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN"
                f" (SELECT id FROM outbox WHERE state = 'pending' AND id > ?{shards} AND {free}"
                f" ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED) AND state = 'pending'"
                f" AND {free} RETURNING *",
                (
                    self.owner,
                    until.isoformat(),
                    after,
                    *shard_values,
                    self.owner,
                    now.isoformat(),
                    limit,
                    self.owner,
                    now.isoformat(),
                ),
            )
        return sorted((_outgoing(row) for row in rows), key=lambda notice: notice.id)

    async def waiting(self, tournament_id: int, besides: Sequence[int] = ()) -> Waiting:
        """How many of a tournament's notices wait to be sent, since when, and the last
        error of the oldest that failed, if it did (for the organizer's panel); those of
        `besides` (on their way this moment) are not waiting."""
        others = ""
        if besides:
            others = f" AND id NOT IN ({', '.join('?' for _ in besides)})"
        waiting = (
            "FROM outbox WHERE tournament_id = ? AND state = 'pending'"
            f" AND say NOT IN ('panel', 'panel_refresh'){others}"
        )
        values = (tournament_id, *besides)
        async with self.database.read() as connection:
            rows = await fetch_rows(
                connection, f"SELECT COUNT(*), MIN(created_at) {waiting}", values
            )
            errors = await fetch_rows(
                connection,
                f"SELECT last_error {waiting} AND last_error IS NOT NULL ORDER BY id LIMIT 1",
                values,
            )
        count, oldest = (rows[0][0], rows[0][1]) if rows else (0, None)
        return Waiting(
            int(count or 0),
            datetime.fromisoformat(oldest) if oldest else None,
            str(errors[0][0]) if errors else None,
        )

    async def post_state(
        self, tournament_id: int, say: Say, number: int, *, within: float
    ) -> PostState:
        """Where the newest `say` notice of round `number` stands, waiting up to `within`
        seconds for the delivery (none without one) to post it."""
        deadline = time.monotonic() + (within if self.delivering else 0.0)
        while True:
            async with self.database.read() as connection:
                rows = await fetch_rows(
                    connection,
                    "SELECT state, payload, last_error FROM outbox WHERE tournament_id = ?"
                    " AND say = ? ORDER BY id DESC LIMIT 5",
                    (tournament_id, say.value),
                )
            found = [row for row in rows if _about_round(say, row[1]) == number]
            if not found:
                return PostState.NOT_POSTED
            state, _, error = found[0]
            if state == SENT:
                return PostState.POSTED
            if state != PENDING:  # skipped, failed
                return PostState.NOT_POSTED
            if time.monotonic() >= deadline:
                if error is not None or (await self.waiting(tournament_id)).last_error:
                    return PostState.FAILING
                return PostState.WAITING
            await asyncio.sleep(0.05)

    async def state_of(self, notice_ids: Sequence[int]) -> dict[int, str]:
        """The state of each of these notices (pending, sent, skipped, failed)."""
        if not notice_ids:
            return {}
        marks = ", ".join("?" for _ in notice_ids)
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                f"SELECT id, state FROM outbox WHERE id IN ({marks})", tuple(notice_ids)
            )
        return {int(row[0]): str(row[1]) for row in rows}

    async def begin_sending(
        self,
        notice_ids: Sequence[int],
        part: int,
        channel_id: int,
        nonce: str,
        digest: str,
        at: datetime,
    ) -> None:
        """Before a message is posted: which notices it tells, where, its nonce and the
        digest of what it says."""
        async with self.database.write() as connection:
            await connection.executemany(
                "INSERT INTO outbox_sending"
                " (notice_id, part, channel_id, nonce, digest, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (notice_id) DO UPDATE SET"
                " part = excluded.part, channel_id = excluded.channel_id,"
                " nonce = excluded.nonce, digest = excluded.digest,"
                " started_at = excluded.started_at",
                [
                    (notice_id, part, channel_id, nonce, digest, at.isoformat())
                    for notice_id in notice_ids
                ],
            )

    async def by_ids(self, notice_ids: Sequence[int]) -> list[Outgoing]:
        """These notices, still pending, oldest first."""
        if not notice_ids:
            return []
        marks = ", ".join("?" for _ in notice_ids)
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                f"SELECT * FROM outbox WHERE id IN ({marks}) AND state = 'pending' ORDER BY id",
                tuple(notice_ids),
            )
        return [_outgoing(row) for row in rows]

    async def in_doubt(self) -> list[Sending]:
        """The messages this process's shards were posting when the bot stopped: each
        nonce with its notices, its part and its channel."""
        shards, shard_values = self.shards.where("o.guild_id")
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                "SELECT s.notice_id, s.part, s.channel_id, s.nonce, s.digest FROM outbox_sending s"
                " JOIN outbox o ON o.id = s.notice_id"
                f" WHERE o.state = 'pending'{shards} ORDER BY s.notice_id",
                shard_values,
            )
        found: dict[str, Sending] = {}
        for row in rows:
            nonce = str(row["nonce"])
            known = found.get(nonce)
            ids = (*known.notice_ids, int(row["notice_id"])) if known else (int(row["notice_id"]),)
            found[nonce] = Sending(
                ids, int(row["part"]), int(row["channel_id"]), nonce, str(row["digest"])
            )
        return list(found.values())

    async def record_message(
        self,
        notice_ids: Sequence[int],
        part: int,
        channel_id: int,
        message_id: int,
        *,
        done_at: datetime | None,
    ) -> None:
        """A message posted for these notices (one, or several tables' lines in one): its
        record replaces the note that it was being posted; with `done_at` the notices are
        sent, in the same write."""
        async with self.database.write() as connection:
            await connection.executemany(
                "INSERT INTO outbox_messages (notice_id, part, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (notice_id, part) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                [(notice_id, part, channel_id, message_id) for notice_id in notice_ids],
            )
            marks = ", ".join("?" for _ in notice_ids)
            await connection.execute(
                f"DELETE FROM outbox_sending WHERE notice_id IN ({marks})", tuple(notice_ids)
            )
            if done_at is not None:
                await connection.execute(
                    f"UPDATE outbox SET state = 'sent', done_at = ?, attempts = attempts + 1"
                    f" WHERE id IN ({marks})",
                    (done_at.isoformat(), *notice_ids),
                )

    async def finish_all(
        self, notice_ids: Sequence[int], state: str, at: datetime, error: str | None = None
    ) -> None:
        if not notice_ids:
            return
        marks = ", ".join("?" for _ in notice_ids)
        async with self.database.write() as connection:
            await connection.execute(
                f"UPDATE outbox SET state = ?, done_at = ?, last_error = ?,"
                f" attempts = attempts + 1 WHERE id IN ({marks})",
                (state, at.isoformat(), error, *notice_ids),
            )
            await connection.execute(
                f"DELETE FROM outbox_sending WHERE notice_id IN ({marks})", tuple(notice_ids)
            )

    async def add(
        self,
        *,
        guild_id: int,
        tournament_id: int | None,
        lang: str,
        notices: Sequence[Notice],
        at: datetime,
    ) -> int:
        """Notices written outside any operation (the delivery telling the staff of a place
        that refuses); how many were written (a key planned before is left out)."""
        async with self.database.write() as connection:
            return await add_notices(
                connection,
                guild_id=guild_id,
                tournament_id=tournament_id,
                action_id=None,
                lang=lang,
                notices=notices,
                at=at,
            )

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
                    if _about_round(Say.PAIRINGS, row["payload"]) == number
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

    async def partly_sent(self, notice_ids: Sequence[int]) -> set[int]:
        """Those of the notices that already made a message (before a stop)."""
        if not notice_ids:
            return set()
        marks = ", ".join("?" for _ in notice_ids)
        async with self.database.read() as connection:
            rows = await connection.execute_fetchall(
                f"SELECT DISTINCT notice_id FROM outbox_messages WHERE notice_id IN ({marks})",
                tuple(notice_ids),
            )
        return {int(row[0]) for row in rows}

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
