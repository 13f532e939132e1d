"""What the web side knows about each public page, kept fresh by "tournament X is now at
version V" and nothing else.

`heard(tournament_id, version)` is all the page needs from the rest of the bot: in the bot's
own process the commit bus calls it after every commit (`LiveService.watch`); a page served
by another process polls the versions (`poll`), and a future PostgreSQL NOTIFY bridge would
call the same function. A page's views are rebuilt only when its version moved, once (one
reload per page however many readers ask at that moment), and each rendered answer is kept
for that version. Readers of the event stream are told, at most once per `COALESCE_SECONDS`
per page, the new version and which parts of the page changed, so they fetch only those.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from bot.services.live import PARTS, LivePage, LiveService, changed_parts
from bot.worker import off_loop

T = TypeVar("T")

log = logging.getLogger(__name__)

COALESCE_SECONDS = 0.25  # many commits in a burst make one notice (the page allows 2 s)
# A page load may be answered from a version this much older than the newest: in a busy
# round (a commit every few milliseconds) the views are rebuilt a few times a second, not
# per commit. A reader who was told a version asks for it (`at_least`) and gets it.
FRESH_SECONDS = 0.5
POLL_SECONDS = 1.0  # another process than the bot's looks at the versions this often
RENDERED_PER_PAGE = 512  # answers kept per page and version (rounds × pages × languages)


@dataclass(frozen=True)
class Rendered:
    """One answer's body, plain and gzipped (made once per version, sent many times)."""

    body: bytes
    gzipped: bytes

    @classmethod
    def of(cls, body: bytes) -> Rendered:
        return cls(body, gzip.compress(body, compresslevel=6))


@dataclass
class PageState:
    """A public page at one version: its tournament, the version at which each part last
    changed, and the answers rendered at this version.

    Each answer is made once, off the event loop (bot/worker.py), however many readers ask
    for it at that moment: the first starts it, the others wait for the same one."""

    page: LivePage
    stamps: dict[str, int]
    rendered: dict[tuple[Any, ...], Rendered] = field(default_factory=dict)
    loaded_at: float = field(default_factory=time.monotonic)
    parts: dict[tuple[Any, ...], str] = field(default_factory=dict)
    _making: dict[tuple[Any, ...], asyncio.Future[Any]] = field(default_factory=dict)
    _failed: set[tuple[Any, ...]] = field(default_factory=set)

    @property
    def version(self) -> int:
        return self.page.version

    @property
    def tournament_id(self) -> int:
        return self.page.tournament.id

    def notice(self) -> dict[str, Any]:
        """What a reader needs to know what to fetch again."""
        return {"version": self.version, "stamps": self.stamps}

    def failed(self, key: tuple[Any, ...]) -> bool:
        """Whether this version has no such part (answered "not found" each time)."""
        return key in self._failed

    def fail(self, key: tuple[Any, ...]) -> None:
        self._failed.add(key)

    async def part(self, key: tuple[Any, ...], make: Callable[[], str]) -> str:
        """A part's JSON text at this version (shared by the API and the page's island)."""
        found = self.parts.get(key)
        if found is None:
            found = await self._made(("part", *key), make)
            if len(self.parts) >= RENDERED_PER_PAGE:
                self.parts.clear()
            self.parts[key] = found
        return found

    async def answer(self, key: tuple[Any, ...], make: Callable[[], bytes]) -> Rendered:
        found = self.rendered.get(key)
        if found is None:
            found = await self._made(("answer", *key), lambda: Rendered.of(make()))
            if len(self.rendered) >= RENDERED_PER_PAGE:
                self.rendered.clear()
            self.rendered[key] = found
        return found

    async def _made(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(off_loop(make))
            self._making[key] = making
            making.add_done_callback(lambda _: self._making.pop(key, None))
        return cast(T, await asyncio.shield(making))


class Reader:
    """One open event stream: the newest notice it has not sent yet."""

    def __init__(self) -> None:
        self.notice: dict[str, Any] | None = None
        self.gone = False
        self.ready = asyncio.Event()

    def tell(self, notice: dict[str, Any] | None) -> None:
        if notice is None:
            self.gone = True
        else:
            self.notice = notice
        self.ready.set()


class LivePages:
    def __init__(self, live: LiveService) -> None:
        self.live = live
        self._newest: dict[int, int] = {}  # tournament id → the newest version heard of
        self._states: dict[str, PageState] = {}  # slug → the page as last loaded
        self._slugs: dict[int, str] = {}  # tournament id → its page's slug
        self._loading: dict[str, asyncio.Lock] = {}
        self._readers: dict[str, set[Reader]] = {}
        self._due: set[int] = set()
        self._flush: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- versions in ------------------------------------------------------------------------

    def heard(self, tournament_id: int, version: int, switched: bool = False) -> None:
        """Tournament `tournament_id` is now at `version` (`switched`: its page was turned
        on or off). Called on the event loop right after a commit: it only notes the change
        (the work is done later, coalesced)."""
        if version <= self._newest.get(tournament_id, -1):
            return
        self._newest[tournament_id] = version
        slug = self._slugs.get(tournament_id)
        if switched and slug is not None:
            # Hidden means hidden now: no answer from the page as it was.
            self._states.pop(slug, None)
        if slug is None or not self._readers.get(slug):
            return
        self._due.add(tournament_id)
        if self._flush is None:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(COALESCE_SECONDS, self._start_flush)

    async def poll(self, every: float = POLL_SECONDS) -> None:
        """For a page served outside the bot's process: look at the versions of the public
        pages every `every` seconds (a page turned off shows as a missing row)."""
        while True:
            try:
                pages = await self.live.pages()
            except Exception:
                log.exception("could not read the live pages' versions")
            else:
                public = {ref.tournament_id for ref in pages}
                for ref in pages:
                    self._slugs.setdefault(ref.tournament_id, ref.slug)
                    self.heard(ref.tournament_id, ref.version)
                for tournament_id, slug in list(self._slugs.items()):
                    if tournament_id not in public and slug in self._states:
                        # Turned off: its version moved too, but a hidden page has no row.
                        self.heard(tournament_id, self._states[slug].version + 1, True)
            await asyncio.sleep(every)

    # -- pages out --------------------------------------------------------------------------

    async def state(self, slug: str, at_least: int | None = None) -> PageState | None:
        """The page at its newest version (or one at most `FRESH_SECONDS` older, but never
        older than `at_least`), or None when there is no public page there."""
        current = self._states.get(slug)
        if current is not None and self._fresh(current, at_least):
            return current
        lock = self._loading.setdefault(slug, asyncio.Lock())
        async with lock:
            current = self._states.get(slug)
            if current is not None and self._fresh(current, at_least):
                return current
            page = await self.live.open(slug)
            if page is None:
                self._states.pop(slug, None)
                if not self._readers.get(slug):
                    self._loading.pop(slug, None)
                return None
            stamps = self._stamps(current, page)
            state = PageState(page, stamps)
            self._states[slug] = state
            self._slugs[page.tournament.id] = slug
            newest = self._newest.get(page.tournament.id, -1)
            self._newest[page.tournament.id] = max(newest, page.version)
            return state

    def _fresh(self, state: PageState, at_least: int | None) -> bool:
        if at_least is not None and state.version < at_least:
            return False
        newest = self._newest.get(state.tournament_id, state.version)
        if newest <= state.version:
            return True
        # Behind the newest commit: good enough for a moment (nobody asked for newer).
        return time.monotonic() - state.loaded_at < FRESH_SECONDS

    def newest(self, tournament_id: int) -> int | None:
        return self._newest.get(tournament_id)

    @staticmethod
    def _stamps(previous: PageState | None, page: LivePage) -> dict[str, int]:
        if previous is None:
            return dict.fromkeys(PARTS, page.version)
        changed = changed_parts(previous.page.tournament, page.tournament)
        return {part: page.version if part in changed else previous.stamps[part] for part in PARTS}

    # -- event streams ----------------------------------------------------------------------

    def follow(self, slug: str) -> Reader:
        reader = Reader()
        self._readers.setdefault(slug, set()).add(reader)
        return reader

    def leave(self, slug: str, reader: Reader) -> None:
        readers = self._readers.get(slug)
        if readers is not None:
            readers.discard(reader)
            if not readers:
                del self._readers[slug]

    @property
    def readers(self) -> int:
        return sum(len(group) for group in self._readers.values())

    def close_all(self) -> None:
        """Shutting down: every stream ends now (readers reconnect elsewhere or poll)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for readers in self._readers.values():
            for reader in readers:
                reader.tell(None)
        for task in self._tasks:
            task.cancel()

    def _start_flush(self) -> None:
        self._flush = None
        task = asyncio.get_running_loop().create_task(self._tell_readers())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell_readers(self) -> None:
        due, self._due = self._due, set()
        for tournament_id in due:
            slug = self._slugs.get(tournament_id)
            if slug is None or not self._readers.get(slug):
                continue
            try:
                state = await self.state(slug, self._newest.get(tournament_id))
            except Exception:
                log.exception("could not reload the live page of tournament %s", tournament_id)
                continue
            notice = None if state is None else state.notice()
            for reader in list(self._readers.get(slug, ())):
                reader.tell(notice)


def event_message(name: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\ndata: {payload}\n\n".encode()


def now_ms() -> int:
    return int(time.time() * 1000)
