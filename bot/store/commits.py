"""The one subscription point for committed changes.

After a unit of work commits, the store publishes one `Committed` per tournament it changed
(and one with no tournament when only the outbox or the bot's bookkeeping changed). The
notifier's delivery loop and the live web page listen here. On PostgreSQL each commit is
also announced with NOTIFY in its transaction, and the commits of other processes are
published here too (`remote=True`), with a `resync=True` one after the listener reconnects.
Listeners run synchronously on the event loop right after the commit: they must only note
the change (set an event, put on a queue), never do I/O.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from domain.tournament.events import Event

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """What one transaction committed for one tournament."""

    guild_id: int
    tournament_id: int | None
    version: int | None  # the tournament's version after the commit
    events: tuple[Event, ...] = ()
    notices: int = 0  # outbox rows written in the same transaction
    kinds: tuple[str, ...] = field(default=())  # the operations applied, by kind
    # Heard from another process (PostgreSQL's NOTIFY): guild, tournament, version and
    # notices only; re-read the tournament for the rest.
    remote: bool = False
    # Notifications may have been missed (the listener reconnected): re-read everything.
    resync: bool = False


Listener = Callable[[Committed], None]


class CommitBus:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` after every commit; returns the function that unsubscribes."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def publish(self, committed: Committed) -> None:
        for listener in list(self._listeners):
            try:
                listener(committed)
            except Exception:  # one broken listener must not stop the others
                log.exception("a commit listener failed")
