"""What the web side knows about each public page, kept fresh by "tournament X is now at
version V" and nothing else.

`heard(tournament_id, version)` is all the page needs from the rest of the bot: in the bot's
own process the commit bus calls it after every commit (`LiveService.watch`), on PostgreSQL
after the other processes' commits too (announced with NOTIFY, `bot.store.commits`); a page
served by `python -m bot web`, which hears no commits, polls the versions (`poll`).

A page is rebuilt off the request path. While a page has readers (open streams, or loads in
the last few seconds), a newer version starts a refresh, at most once per `REFRESH_SECONDS`:
the tournament is read, and the answers asked of the page as it was (its HTML shells and
JSON parts) are made again for the new version in the worker thread (bot/worker.py), so
that the event loop goes on answering meanwhile, from the version before. Then the new
version takes over at once, and the streams' readers are told the new version and which
parts of the page changed, so they fetch only those (already made). A load that names a
version (`v`, what a reader was told) waits for it; any other load gets the page as it is,
at most `STALE_SECONDS` after a newer commit was heard, else it waits for the refresh.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.services.live import PARTS, LivePage, LiveService, changed_parts
from bot.worker import off_loop

log = logging.getLogger(__name__)

# A busy round commits every few milliseconds; the page is rebuilt at most this often (the
# page must show a change within 2 s).
REFRESH_SECONDS = 1.0
# A load not naming a version may be answered from the page as it was this long after a
# newer commit was heard (a refresh is then under way); past it, the load waits.
STALE_SECONDS = 1.5
# A page loaded this recently is refreshed ahead of its next load, even without streams.
WATCHED_SECONDS = 10.0
POLL_SECONDS = 0.5  # another process than the bot's looks at the versions this often
RENDERED_PER_PAGE = 512  # answers kept per page and version (rounds × pages × languages)
# Of the answers of one version, those asked for within this long (the most recently asked
# first, at most MADE_AGAIN of them) are made again for the next: an answer asked once,
# long ago (or by someone walking through every round), is made when asked again.
RECENT_SECONDS = 30.0
MADE_AGAIN = 64


@dataclass(frozen=True)
class Rendered:
    """One answer's body, plain and gzipped (made once per version, sent many times)."""

    body: bytes
    gzipped: bytes

    @classmethod
    def of(cls, body: bytes) -> Rendered:
        return cls(body, gzip.compress(body, compresslevel=6))


# How an answer is made from a page's state: kept with the answer, so that the next version
# of the page can make the same answers before anyone asks again.
Recipe = Callable[["PageState"], bytes]


@dataclass
class PageState:
    """A public page at one version: its tournament, the version at which each part last
    changed, and the answers rendered at this version (with how each was made).

    Answers are made off the event loop, in the worker thread (bot/worker.py): an answer
    asked of this version for the first time is made once however many readers ask for it
    at that moment (the first starts it, the others wait for the same one), and the answers
    of the version before are made again for this one there before it is shown
    (`make_again`). Only that thread writes the answers; the loop reads them."""

    page: LivePage
    stamps: dict[str, int]
    rendered: dict[tuple[Any, ...], Rendered] = field(default_factory=dict)
    recipes: dict[tuple[Any, ...], Recipe] = field(default_factory=dict)
    loaded_at: float = field(default_factory=time.monotonic)
    parts: dict[tuple[Any, ...], str] = field(default_factory=dict)
    asked_at: dict[tuple[Any, ...], float] = field(default_factory=dict)  # written by the loop
    _making: dict[tuple[Any, ...], asyncio.Future[Rendered]] = field(default_factory=dict)
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
        if len(self._failed) >= RENDERED_PER_PAGE:
            self._failed.clear()
        self._failed.add(key)

    def part(self, key: tuple[Any, ...], make: Callable[[], str]) -> str:
        """A part's JSON text at this version (shared by the API and the page's island);
        called by recipes, in the worker thread."""
        found = self.parts.get(key)
        if found is None:
            if len(self.parts) >= RENDERED_PER_PAGE:
                self.parts.clear()
            found = self.parts[key] = make()
        return found

    async def answer(self, key: tuple[Any, ...], recipe: Recipe) -> Rendered:
        """An answer at this version: the one made already, else made by `recipe` in the
        worker thread (once, however many readers ask meanwhile)."""
        asked_at = self.asked_at
        if len(asked_at) >= 4 * RENDERED_PER_PAGE:  # keys asked for that made nothing
            for stale in [k for k in asked_at if k not in self.rendered]:
                del asked_at[stale]
        asked_at[key] = time.monotonic()
        found = self.rendered.get(key)
        if found is not None:
            return found
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(off_loop(self.made, key, recipe))
            self._making[key] = making
            making.add_done_callback(lambda _: self._making.pop(key, None))
        return await asyncio.shield(making)

    def made(self, key: tuple[Any, ...], recipe: Recipe) -> Rendered:
        """The answer under `key`, made by `recipe` if it is not yet (in the worker thread)."""
        found = self.rendered.get(key)
        if found is None:
            found = Rendered.of(recipe(self))
            if len(self.rendered) >= RENDERED_PER_PAGE:
                self._forget_least_recent()
            self.rendered[key] = found
            self.recipes[key] = recipe
        return found

    def _forget_least_recent(self) -> None:
        """The half of the answers asked for least recently, forgotten (in the worker)."""
        asked_at = dict(self.asked_at)
        keys = sorted(self.rendered, key=lambda key: asked_at.get(key, 0.0))
        for key in keys[: max(1, len(keys) // 2)]:
            self.rendered.pop(key, None)
            self.recipes.pop(key, None)

    def asked(self) -> Asked:
        """What this page was asked for so far (a copy: the worker may go on adding to it),
        with only the recipes of the answers asked for recently, to make again."""
        now = time.monotonic()
        asked_at = dict(self.asked_at)
        recent = sorted(
            ((at, key) for key, at in asked_at.items() if now - at < RECENT_SECONDS),
            key=lambda item: item[0],
        )[-MADE_AGAIN:]
        recipes = dict(self.recipes)
        return Asked(
            dict(self.stamps),
            dict(self.parts),
            frozenset(self._failed),
            {key: recipes[key] for _, key in recent if key in recipes},
            {key: at for at, key in recent},
        )

    def make_again(self, before: Asked) -> None:
        """The answers an earlier version of the page was asked for, made for this one (in
        the worker thread, before this state is shown to anyone). The JSON of a part that
        did not change is taken as it was (and so is its absence)."""

        def unchanged(part: str) -> bool:
            return part in self.stamps and self.stamps[part] == before.stamps.get(part)

        self.parts.update((key, text) for key, text in before.parts.items() if unchanged(key[0]))
        self._failed.update(key for key in before.failed if unchanged(key[0]))
        self.asked_at.update(before.asked_at)
        for key, recipe in before.recipes.items():
            try:
                self.made(key, recipe)
            except Exception:  # e.g. a part this version no longer has: made (and failing
                continue  # the same) when someone asks for it


@dataclass(frozen=True)
class Asked:
    """A page's answers at one version, to make again at the next: each part's stamp, the
    parts' JSON, the parts it has not, and the recipes of the answers asked for recently
    (with when)."""

    stamps: dict[str, int]
    parts: dict[tuple[Any, ...], str]
    failed: frozenset[tuple[Any, ...]]
    recipes: dict[tuple[Any, ...], Recipe]
    asked_at: dict[tuple[Any, ...], float]


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
        self._behind_since: dict[str, float] = {}  # slug → when a newer version was heard
        self._asked_at: dict[str, float] = {}  # slug → its last load
        self._refreshing: dict[str, asyncio.Task[PageState | None]] = {}
        self._switches: dict[str, int] = {}  # slug → how often its page was turned on or off
        self._scheduled: dict[str, asyncio.TimerHandle] = {}
        self._readers: dict[str, set[Reader]] = {}

    # -- versions in ------------------------------------------------------------------------

    def heard(self, tournament_id: int, version: int, switched: bool = False) -> None:
        """Tournament `tournament_id` is now at `version` (`switched`: its page was turned
        on or off). Called on the event loop right after a commit: it only notes the change
        (the work is done later, at most once per `REFRESH_SECONDS`)."""
        if version <= self._newest.get(tournament_id, -1):
            return
        self._newest[tournament_id] = version
        slug = self._slugs.get(tournament_id)
        if slug is None:
            return
        if switched:
            # Hidden means hidden now: no answer from the page as it was, nor from a
            # refresh that began before.
            self._states.pop(slug, None)
            self._switches[slug] = self._switches.get(slug, 0) + 1
            self._refreshing.pop(slug, None)
        current = self._states.get(slug)
        if current is not None and version > current.version:
            self._behind_since.setdefault(slug, time.monotonic())
        if switched or self._watched(slug):
            self._schedule(slug, now=switched)

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
                    known = self._slugs.setdefault(ref.tournament_id, ref.slug)
                    if known != ref.slug:  # a new address: the old one ends now
                        self.heard(ref.tournament_id, ref.version, True)
                        self._slugs[ref.tournament_id] = ref.slug
                    self.heard(ref.tournament_id, ref.version)
                for tournament_id, slug in list(self._slugs.items()):
                    if tournament_id not in public and slug in self._states:
                        # Turned off: its version moved too, but a hidden page has no row.
                        self.heard(tournament_id, self._states[slug].version + 1, True)
            await asyncio.sleep(every)

    # -- pages out --------------------------------------------------------------------------

    async def state(self, slug: str, at_least: int | None = None) -> PageState | None:
        """The page as it is (at most `STALE_SECONDS` behind a newer commit, and never older
        than `at_least`), or None when there is no public page there."""
        self._asked_at[slug] = time.monotonic()
        current = self._states.get(slug)
        if current is not None and at_least is not None:
            # Nobody was told of a version newer than the newest heard of.
            at_least = min(at_least, self._newest.get(current.tournament_id, at_least))
        if current is not None and (at_least is None or current.version >= at_least):
            behind_since = self._behind_since.get(slug)
            if behind_since is None:
                return current
            self._schedule(slug)
            if time.monotonic() - behind_since < STALE_SECONDS:
                return current
        state = await self._refresh(slug)
        if state is not None and at_least is not None and state.version < at_least:
            # That refresh began before the version asked for was committed: one more.
            state = await self._refresh(slug)
        if state is None:  # no page there: nothing to remember of a stranger's guess
            self._asked_at.pop(slug, None)
        return state

    def newest(self, tournament_id: int) -> int | None:
        return self._newest.get(tournament_id)

    def _watched(self, slug: str) -> bool:
        asked = self._asked_at.get(slug)
        recently = asked is not None and time.monotonic() - asked < WATCHED_SECONDS
        return recently or bool(self._readers.get(slug))

    def _schedule(self, slug: str, *, now: bool = False) -> None:
        """A refresh of `slug`, unless one is under way or due: at once when its page was
        made long enough ago (or `now`), else when it will have been."""
        if slug in self._refreshing or (slug in self._scheduled and not now):
            return
        if slug in self._scheduled:
            self._scheduled.pop(slug).cancel()
        current = self._states.get(slug)
        wait = 0.0
        if current is not None and not now:
            wait = max(0.0, current.loaded_at + REFRESH_SECONDS - time.monotonic())
        loop = asyncio.get_running_loop()
        self._scheduled[slug] = loop.call_later(wait, self._start_refresh, slug)

    def _start_refresh(self, slug: str) -> None:
        self._scheduled.pop(slug, None)
        self._refresh_task(slug)

    def _refresh(self, slug: str) -> asyncio.Future[PageState | None]:
        """The one refresh of `slug` under way, started when there is none (a load that
        gives up waiting does not stop it)."""
        return asyncio.shield(self._refresh_task(slug))

    def _refresh_task(self, slug: str) -> asyncio.Task[PageState | None]:
        running = self._refreshing.get(slug)
        if running is None:
            running = asyncio.get_running_loop().create_task(self._load(slug))
            self._refreshing[slug] = running

            def done(task: asyncio.Task[PageState | None]) -> None:
                if self._refreshing.get(slug) is task:
                    del self._refreshing[slug]
                if not task.cancelled() and task.exception() is not None:
                    log.error("could not load the live page %s", slug, exc_info=task.exception())

            running.add_done_callback(done)
        return running

    async def _load(self, slug: str) -> PageState | None:
        previous = self._states.get(slug)
        began = time.monotonic()
        switches = self._switches.get(slug, 0)
        page = await self.live.open(slug)
        if switches != self._switches.get(slug, 0):
            return await self._load(slug)  # turned on or off meanwhile: read again
        if page is None:
            self._states.pop(slug, None)
            self._behind_since.pop(slug, None)
            self._tell(slug, None)
            return None
        if previous is not None and previous.version == page.version:
            state = previous
            state.loaded_at = time.monotonic()
        else:
            state = PageState(page, self._stamps(previous, page))
            if previous is not None:
                await off_loop(state.make_again, previous.asked())
            if switches != self._switches.get(slug, 0):
                return await self._load(slug)
        installed = self._states.get(slug)
        if installed is not None and installed.version > state.version:
            return installed  # a later read (after a switch) got there first
        self._states[slug] = state
        self._slugs[page.tournament.id] = slug
        newest = max(self._newest.get(page.tournament.id, -1), page.version)
        self._newest[page.tournament.id] = newest
        if newest <= state.version:
            self._behind_since.pop(slug, None)
        else:  # a commit heard while this was read: behind since the read began at most
            self._behind_since[slug] = began
        if previous is None or previous.version != state.version:
            self._tell(slug, state.notice())
        if newest > state.version and self._watched(slug):
            self._schedule(slug)
        return state

    @staticmethod
    def _stamps(previous: PageState | None, page: LivePage) -> dict[str, int]:
        if previous is None:
            return dict.fromkeys(PARTS, page.version)
        changed = changed_parts(previous.page.tournament, page.tournament)
        if previous.page.rooms != page.rooms:  # kept beside the tournament: its version moved
            changed.add("pairings")
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

    def _tell(self, slug: str, notice: dict[str, Any] | None) -> None:
        for reader in list(self._readers.get(slug, ())):
            reader.tell(notice)

    def close_all(self) -> None:
        """Shutting down: every stream ends now (readers reconnect elsewhere or poll)."""
        for handle in self._scheduled.values():
            handle.cancel()
        self._scheduled.clear()
        for readers in self._readers.values():
            for reader in readers:
                reader.tell(None)
        for task in self._refreshing.values():
            task.cancel()


def event_message(name: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"event: {name}\ndata: {payload}\n\n".encode()


def now_ms() -> int:
    return int(time.time() * 1000)
