"""Graceful shutdown: stop taking interactions, let the running ones finish, then close.

discord.py turns every INTERACTION_CREATE into tasks (the command tree's invoker, a view's or
a modal's dispatch) and forgets them. Closing the bot and the database under such a task
breaks it half-way: the database is gone ("no active connection"), the announcement is
never posted and the player gets no reply. `InteractionGate` sits in front of that event:
it remembers the tasks each interaction starts (and the listeners those dispatch, such as
`on_app_command_completion`), so shutdown can wait for them, and once shutdown has begun it
answers new interactions with a short "restarting" notice instead. When the last of them
ends it logs "interaction ID finished" at DEBUG: the end-to-end tests wait for that line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

import discord

from bot.i18n import normalise_locale, t

log = logging.getLogger(__name__)


class _Handling:
    """The tasks of one interaction; logs "interaction ID finished" when the last one ends."""

    def __init__(self, interaction_id: object, running: set[asyncio.Task[Any]]) -> None:
        self.interaction_id = interaction_id
        self._running = running  # the gate's, for shutdown
        self._remaining: set[asyncio.Task[Any]] = set()

    def add(self, tasks: Iterable[asyncio.Task[Any]]) -> None:
        for task in tasks:
            if task not in self._remaining:
                self._remaining.add(task)
                self._running.add(task)
                task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        self._remaining.discard(task)
        self.log_if_finished()

    def log_if_finished(self) -> None:
        if not self._remaining:
            log.debug("interaction %s finished", self.interaction_id)


# The interaction being handled, in the context of the tasks it started (and theirs).
_handling: ContextVar[_Handling | None] = ContextVar("handling", default=None)


def _tasks_started_by(call: Callable[..., None], *args: Any) -> list[asyncio.Task[Any]]:
    """Run `call(*args)`, which starts its tasks synchronously; the tasks it started.

    A task factory set around the call sees exactly those. (Comparing `asyncio.all_tasks()`
    before and after cost O(tasks running) per interaction: seconds in a flood of
    autocompletes.)"""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    started: list[asyncio.Task[Any]] = []

    def tracking_factory(loop: Any, coro: Any, **kwargs: Any) -> Any:
        task: Any
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        started.append(task)
        return task

    loop.set_task_factory(tracking_factory)
    try:
        call(*args)
    finally:
        loop.set_task_factory(previous)
    return started


class InteractionGate:
    """Tracks the tasks started by interactions and turns new ones away while closing."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._running: set[asyncio.Task[Any]] = set()
        self._hurry = asyncio.Event()
        self.closing = False

    @property
    def in_flight(self) -> int:
        return sum(1 for task in self._running if not task.done())

    def install(self) -> None:
        """Wrap the handler the gateway calls for INTERACTION_CREATE.

        `ConnectionState.parsers` is the dict the gateway looks events up in; discord.py
        has no public hook that sees every kind of interaction before it is dispatched.
        The e2e shutdown test fails if a discord.py update breaks this.
        """
        parsers: dict[str, Callable[[Any], None]] = self._client._connection.parsers
        original = parsers["INTERACTION_CREATE"]

        def gate(data: Any) -> None:
            if self.closing:
                self._turn_away(data)
                return
            handling = _Handling(data["id"], self._running)
            # The tasks started now, and the tasks they start, run in a copy of this context.
            token = _handling.set(handling)
            try:
                handling.add(_tasks_started_by(original, data))
            finally:
                _handling.reset(token)
            # Done tasks leave `_running` by their callback: its size is what is in flight.
            log.debug(
                "interaction %s started (%d task(s) in flight)", data["id"], len(self._running)
            )
            handling.log_if_finished()

        parsers["INTERACTION_CREATE"] = gate

        # Events the interaction's code dispatches (the command tree's
        # `app_command_completion`) run their listeners in new tasks: part of its handling.
        client: Any = self._client
        dispatch = client.dispatch

        def dispatch_and_track(event: str, /, *args: Any, **kwargs: Any) -> None:
            handling = _handling.get()
            if handling is None:
                dispatch(event, *args, **kwargs)
            else:
                handling.add(_tasks_started_by(lambda: dispatch(event, *args, **kwargs)))

        client.dispatch = dispatch_and_track

    def _turn_away(self, data: Any) -> None:
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=data, state=self._client._connection
        )
        log.info("interaction %s arrived while shutting down: told to retry", interaction.id)
        _Handling(data["id"], self._running).add(
            [asyncio.create_task(_answer_restarting(interaction))]
        )

    def hurry(self) -> None:
        """Stop waiting: a second Ctrl-C or SIGTERM means "now"."""
        self._hurry.set()

    async def drain(self, grace: float) -> int:
        """Refuse new interactions, wait up to `grace` s for those running; cancel the rest.

        Returns how many had to be cancelled. A cancelled service call rolls back its
        transaction, so nothing half-written is left behind.
        """
        self.closing = True
        deadline = time.monotonic() + grace
        hurry = asyncio.create_task(self._hurry.wait())
        try:
            while (pending := {task for task in self._running if not task.done()}) and (
                remaining := deadline - time.monotonic()
            ) > 0:
                if self._hurry.is_set():
                    break
                log.info(
                    "waiting up to %.1f s for %d interaction(s) in flight", remaining, len(pending)
                )
                await asyncio.wait(
                    {*pending, hurry}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
        finally:
            hurry.cancel()
        pending = {task for task in self._running if not task.done()}
        if pending:
            log.warning("cancelling %d interaction(s) still running at shutdown", len(pending))
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=1.0)
        return len(pending)


async def _answer_restarting(interaction: discord.Interaction[Any]) -> None:
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
            return
        lang = normalise_locale(interaction.locale)
        await interaction.response.send_message(t("shutdown.restarting", lang), ephemeral=True)
    except (discord.HTTPException, RuntimeError) as error:
        # RuntimeError: the HTTP session closed first, when nothing else was running.
        log.warning("could not tell interaction %s we are restarting: %s", interaction.id, error)
