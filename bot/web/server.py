"""The live page's web server: aiohttp routes, all of them reads, in the bot's own process
(or alone, `python -m bot web`).

    /t/{slug}                        the overview (the page's shell; its script draws it)
    /t/{slug}/{section}              pairings, standings, bracket, decklists, titles
    /t/{slug}/decklists/{number}     one published list
    /t/{slug}/api/{part}.json        the same data as JSON (overlays, spreadsheets)
    /t/{slug}/api/decklists/{n}.json one published list as JSON
    /t/{slug}/api/version.json       the version and each part's stamp (the polling fallback)
    /t/{slug}/api/series.json        the series the event is in, with their standings
    /t/{slug}/api/profiles.json      the records of its players who chose to show them
    /t/{slug}/events                 server-sent events: the version, each time it moves
    /static/…, /fonts/…              the page's script, style and font slices

Safe by construction: only GET (and HEAD) routes exist; a hidden page, an unpublished list,
a bad parameter and an unknown address all get the same 404; every answer carries a strict
Content-Security-Policy; each client address has a request budget and a cap on open
streams.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import sys
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.config import Settings
from bot.i18n import Lang
from bot.services.live import (
    LiveService,
    bracket,
    decklist,
    decklists,
    overview,
    pairings,
    require_decks_public,
    standings,
    title_distribution,
)
from bot.web.connections import (
    ConnectionBudget,
    ConnectionGate,
    GatedRunner,
    QuietAccept,
    address_key,
    deepen_queue,
    raise_file_limit,
)
from bot.web.fonts import Cutter, font_slices
from bot.web.pages import LivePages, PageState, Reader, Recipe, event_message, now_ms
from bot.web.render import (
    STATIC_DIR,
    RawJson,
    choose_lang,
    isolated,
    json_bytes,
    not_found_html,
    page_html,
    text,
    texts,
)
from domain.errors import NotFound

log = logging.getLogger(__name__)

SLUG = re.compile(r"[A-Za-z0-9_-]{22,64}")
SECTIONS = ("overview", "pairings", "standings", "bracket", "decklists", "titles")
PRIVATE_UNTIL_PUBLISHED = frozenset({"decklists", "titles"})
PAGED_PARTS = frozenset({"standings", "decklists"})
MAX_NUMBER = 1_000_000
HEARTBEAT_SECONDS = 15.0
LEFT_CHECK_SECONDS = 1.0
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css"}

PAGES_KEY = web.AppKey("pages", LivePages)


@dataclass(frozen=True)
class WebLimits:
    requests_per_second: float = 10.0
    burst: int = 40
    streams_per_client: int = 4
    streams_total: int = 5000
    # The client's address is the last X-Forwarded-For entry not itself a proxy, but only on
    # a connection from one of `trusted_proxies` (anyone else could write any address there).
    behind_proxy: bool = False
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    buckets: int = 100_000  # client addresses remembered at most (the oldest go first)


def limits_from(settings: Settings) -> WebLimits:
    return WebLimits(
        requests_per_second=settings.web_rate_limit,
        burst=max(1, int(settings.web_rate_limit * 4)),
        streams_per_client=settings.web_streams_per_ip,
        behind_proxy=settings.web_behind_proxy,
        trusted_proxies=settings.trusted_proxies,
    )


class Limits:
    """A token bucket of requests and a count of open streams, per client address (an IPv6
    client by its /64).

    The buckets are kept in the order they were last used; a bucket that has refilled to
    the burst is the same as none, so each request looks at the two least recently used and
    forgets those that have (the sweep costs the same however many clients there are), and
    past `buckets` the least recently used is forgotten."""

    def __init__(self, settings: WebLimits) -> None:
        self.settings = settings
        # key → (tokens, at), least recently used first (a linked order: the sweep at its
        # front costs the same however many were removed there before)
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.streams: dict[str, int] = {}
        self.streams_open = 0
        self._proxies = tuple(
            ipaddress.ip_network(entry, strict=False) for entry in settings.trusted_proxies
        )

    def is_proxy(self, address: str) -> bool:
        try:
            parsed = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
            parsed = parsed.ipv4_mapped
        return any(parsed.version == net.version and parsed in net for net in self._proxies)

    def client(self, request: web.Request) -> str:
        """The key the client is counted under."""
        peer = request.remote or "?"
        if self.settings.behind_proxy and self.is_proxy(peer):
            hops = request.headers.get("X-Forwarded-For", "").split(",")
            for hop in reversed(hops):
                hop = hop.strip()
                if not hop or self.is_proxy(hop):
                    continue
                try:
                    ipaddress.ip_address(hop.split("%", 1)[0])
                except ValueError:
                    break  # not an address: the proxy's own peer is all we know
                return address_key(hop)
        return address_key(peer)

    def allow(self, address: str) -> bool:
        now = time.monotonic()
        rate, burst = self.settings.requests_per_second, float(self.settings.burst)
        buckets = self._buckets
        found = buckets.get(address)
        if found is None:
            tokens = burst
        else:
            tokens = min(burst, found[0] + (now - found[1]) * rate)
            buckets.move_to_end(address)
        allowed = tokens >= 1.0
        buckets[address] = (tokens - 1.0 if allowed else tokens, now)
        for _ in range(2):  # amortised sweep: the least recently used, if refilled by now
            oldest, (left, at) = next(iter(buckets.items()))
            if oldest == address or left + (now - at) * rate < burst:
                break
            buckets.popitem(last=False)
        while len(buckets) > self.settings.buckets:
            buckets.popitem(last=False)
        return allowed

    def open_stream(self, address: str) -> bool:
        open_here = self.streams.get(address, 0)
        if (
            open_here >= self.settings.streams_per_client
            or self.streams_open >= self.settings.streams_total
        ):
            return False
        self.streams[address] = open_here + 1
        self.streams_open += 1
        return True

    def close_stream(self, address: str) -> None:
        left = self.streams.get(address, 1) - 1
        self.streams_open = max(0, self.streams_open - 1)
        if left > 0:
            self.streams[address] = left
        else:
            self.streams.pop(address, None)


LIMITS_KEY = web.AppKey("limits", Limits)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer: the request budget first, then the security headers; any 404 (an
    unknown route, a hidden page) the same page; any other error a plain 500, with the
    headers too."""
    limits: Limits = request.app[LIMITS_KEY]
    if not limits.allow(limits.client(request)):
        response: web.StreamResponse = web.Response(
            status=429, text="Too many requests", headers={"Retry-After": "2"}
        )
    else:
        try:
            response = await handler(request)
        except web.HTTPNotFound:
            response = not_found(request)
        except web.HTTPException as error:
            # Its own headers kept: a 405 says which methods are allowed (Allow).
            headers = {k: v for k, v in error.headers.items() if k.lower() != "content-type"}
            response = web.Response(status=error.status, text=error.reason, headers=headers)
        except asyncio.CancelledError:
            raise
        except Exception:
            ERRORS.log(request, sys.exc_info()[1])
            response = web.Response(status=500, text="Internal Server Error")
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response


@web.middleware
async def without_trailing_slash(request: web.Request, handler: Handler) -> web.StreamResponse:
    """`/t/SLUG/` (a link pasted with its slash, a browser's completion) is the same page as
    `/t/SLUG`: sent on to it, query and all."""
    path, mark, query = request.raw_path.partition("?")  # as sent: still percent-encoded
    if path.startswith("/t/") and path.endswith("/") and path.rstrip("/") != "/t":
        return web.Response(status=308, headers={"Location": path.rstrip("/") + mark + query})
    return await handler(request)


class ErrorLog:
    """A failing handler's traceback, logged once a minute at most: a stranger repeating the
    request that fails must not fill the log."""

    QUIET_SECONDS = 60.0

    def __init__(self) -> None:
        self.quiet_until = 0.0
        self.suppressed = 0

    def log(self, request: web.Request, error: BaseException | None) -> None:
        now = time.monotonic()
        if now < self.quiet_until:
            self.suppressed += 1
            return
        self.quiet_until = now + self.QUIET_SECONDS
        log.error(
            "the live page failed on %s %s (%d such failures not logged before)",
            request.method,
            request.path[:200],
            self.suppressed,
            exc_info=error,
        )
        self.suppressed = 0


ERRORS = ErrorLog()


class MalformedRequests(logging.Filter):
    """aiohttp logs every request it cannot parse with a traceback; on a public port that is
    noise anyone can make. Those are kept at debug level."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def quiet_malformed_requests() -> None:
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, MalformedRequests) for f in server_log.filters):
        server_log.addFilter(MalformedRequests())


def not_found(request: web.Request) -> web.Response:
    lang = choose_lang(request.query.get("lang"), request.headers.get("Accept-Language"))
    if "/api/" in request.path:
        body = json_bytes({"error": "not_found"})
        return web.Response(status=404, body=body, content_type="application/json")
    return web.Response(
        status=404, body=not_found_html(lang), content_type="text/html", charset="utf-8"
    )


# -- finding the page -----------------------------------------------------------------------


async def page_state(request: web.Request) -> PageState:
    slug = request.match_info["slug"]
    if not SLUG.fullmatch(slug):
        raise web.HTTPNotFound()
    # `v`: the version the reader was told of; the answer is at least that new.
    state = await request.app[PAGES_KEY].state(slug, number_param(request, "v"))
    if state is None:
        raise web.HTTPNotFound()
    return state


def number_param(request: web.Request, name: str) -> int | None:
    """A positive whole number from the query; anything else is "not found"."""
    raw = request.query.get(name)
    return None if raw is None else small_number(raw)


def small_number(raw: str) -> int:
    """`raw` as a number from 1 to MAX_NUMBER, else "not found": its length is checked
    before it is parsed (a number of 5,000 digits is refused by `int` itself, slowly)."""
    if not 0 < len(raw) <= len(str(MAX_NUMBER)) or not raw.isascii() or not raw.isdigit():
        raise web.HTTPNotFound()
    number = int(raw)
    if not 0 < number <= MAX_NUMBER:
        raise web.HTTPNotFound()
    return number


def lang_of(request: web.Request) -> Lang:
    return choose_lang(request.query.get("lang"), request.headers.get("Accept-Language"))


async def send(
    request: web.Request,
    state: PageState,
    key: tuple[Any, ...],
    recipe: Recipe,
    content_type: str,
) -> web.Response:
    """A rendered answer of this version (made once, off the event loop), gzipped when the
    reader accepts it. `recipe` makes it from the page's state (and makes it again for the
    next version)."""
    rendered = await state.answer(key, recipe)
    headers = {"Cache-Control": "no-cache", "X-Server-Time": str(now_ms())}
    if content_type == "application/json":
        # Public data, read without credentials: overlays on other sites may fetch it.
        headers["Access-Control-Allow-Origin"] = "*"
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"
        headers["Vary"] = "Accept-Encoding"
        body = rendered.gzipped
    else:
        body = rendered.body
    return web.Response(body=body, headers=headers, content_type=content_type, charset="utf-8")


def translate_not_found(make: Callable[[], Any]) -> Any:
    try:
        return make()
    except NotFound:
        raise web.HTTPNotFound() from None


# -- the JSON API ---------------------------------------------------------------------------


def part_text(state: PageState, part: str, number: int | None, page: int) -> str:
    """A part's JSON at this version, made once; NotFound (404) when it has none."""
    tournament, known = state.page.tournament, state.page.views
    views: dict[str, Callable[[], Any]] = {
        "overview": lambda: overview(tournament),
        "pairings": lambda: pairings(tournament, number, known, state.page.rooms),
        "standings": lambda: standings(tournament, page, views=known),
        "bracket": lambda: bracket(tournament, known),
        "decklists": lambda: decklists(tournament, page, known),
        "titles": lambda: title_distribution(tournament, known),
        "version": lambda: state.notice(),
    }
    make = views.get(part)
    if make is None:
        raise web.HTTPNotFound()
    if part == "version":
        return json_bytes(make()).decode()
    key = (part, number, page)
    if state.failed(key):  # this version has no such part: answered the same each time
        raise web.HTTPNotFound()
    try:
        return state.part(key, lambda: json_bytes(make()).decode())
    except NotFound:
        state.fail(key)
        raise web.HTTPNotFound() from None


async def api_part(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    part = request.match_info["part"]
    # Only what the part uses is part of its key: `?page=` on the pairings is the same
    # answer (a stranger's thousand pages must not become a thousand answers to remake).
    number = number_param(request, "round") if part == "pairings" else None
    page = (number_param(request, "page") or 1) if part in PAGED_PARTS else 1

    def recipe(state: PageState) -> bytes:
        return part_text(state, part, number, page).encode()

    return await send(request, state, ("api", part, number, page), recipe, "application/json")


async def api_decklist(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    number = int_segment(request, "number")

    def recipe(state: PageState) -> bytes:
        page = state.page
        return json_bytes(
            translate_not_found(lambda: decklist(page.tournament, number, page.views))
        )

    return await send(request, state, ("deck", number), recipe, "application/json")


async def api_series(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    parts = await request.app[PAGES_KEY].live.series_of(state.page)
    return fresh_json(request, {"series": parts})


async def api_profiles(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    parts = await request.app[PAGES_KEY].live.profiles_of(state.page)
    return fresh_json(request, {"players": parts})


def fresh_json(request: web.Request, data: Any) -> web.Response:
    """Data read afresh (the server's series and profiles change without the event's
    version moving), with the headers of the other parts."""
    body = json_bytes(data)
    headers = {
        "Cache-Control": "no-cache",
        "X-Server-Time": str(now_ms()),
        "Access-Control-Allow-Origin": "*",
    }
    return web.Response(
        body=body, headers=headers, content_type="application/json", charset="utf-8"
    )


def int_segment(request: web.Request, name: str) -> int:
    return small_number(request.match_info[name])


# -- the pages ------------------------------------------------------------------------------


def initial_data(state: PageState, section: str, lang: Lang) -> dict[str, Any]:
    """What the page's script starts from: its texts, the version and stamps, the
    overview, and the section's own data when it has any yet."""
    tournament = state.page.tournament
    first: dict[str, Any] = {"overview": RawJson(part_text(state, "overview", None, 1))}
    if section in ("pairings", "standings", "bracket", "decklists", "titles"):
        try:
            first[section] = RawJson(part_text(state, section, None, 1))
        except web.HTTPNotFound:
            first[section] = None
    return {
        "slug": state.page.slug,
        "name": tournament.name,
        "lang": lang,
        "section": section,
        "texts": texts(lang),
        "notice": state.notice(),
        "parts": first,
    }


async def section_page(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    section = request.match_info.get("section", "overview")
    if section not in SECTIONS:
        raise web.HTTPNotFound()
    tournament = state.page.tournament
    if section in PRIVATE_UNTIL_PUBLISHED:
        translate_not_found(lambda: require_decks_public(tournament))  # 404 until /deck publish
    lang = lang_of(request)
    return await shell(request, state, section, lang, ("page", section, lang))


async def decklist_page(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    number = int_segment(request, "number")
    lang = lang_of(request)
    return await shell(request, state, "deck", lang, ("page", "deck", number, lang), number)


async def shell(
    request: web.Request,
    state: PageState,
    section: str,
    lang: Lang,
    key: tuple[Any, ...],
    deck_number: int | None = None,
) -> web.Response:
    other = "en" if lang == "ja" else "ja"
    other_lang_href = f"{request.path}?lang={other}"

    def recipe(state: PageState) -> bytes:
        page = state.page
        tournament = page.tournament
        data = initial_data(state, "decklists" if section == "deck" else section, lang)
        data["section"] = section
        if deck_number is not None:  # one published list, or 404
            deck = translate_not_found(lambda: decklist(tournament, deck_number, page.views))
            data["parts"]["deck"] = deck
        return page_html(
            lang=lang,
            title=text(lang, "title", name=isolated(tournament.name)),
            section=section,
            data=data,
            other_lang_href=other_lang_href,
        )

    return await send(request, state, key, recipe, "text/html")


# -- the event stream -----------------------------------------------------------------------


async def events(request: web.Request) -> web.StreamResponse:
    state = await page_state(request)
    limits: Limits = request.app[LIMITS_KEY]
    address = limits.client(request)
    if not limits.open_stream(address):
        return web.Response(status=429, text="Too many open streams", headers={"Retry-After": "5"})
    pages = request.app[PAGES_KEY]
    slug = state.page.slug
    reader: Reader = pages.follow(slug)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            **SECURITY_HEADERS,
        }
    )
    try:
        await response.prepare(request)
        # The version now, in case it moved while the page loaded.
        current = await pages.state(slug, pages.newest(state.tournament_id))
        hello = {**(current or state).notice(), "now": now_ms()}
        await response.write(b"retry: 2000\n" + event_message("version", hello))
        quiet = 0.0
        while not reader.gone:
            try:
                await asyncio.wait_for(reader.ready.wait(), LEFT_CHECK_SECONDS)
            except TimeoutError:
                # A reader who left (a page closed, another opened) frees its place in the
                # address's streams now, not at the next keep-alive that fails.
                if request.transport is None or request.transport.is_closing():
                    break
                quiet += LEFT_CHECK_SECONDS
                if quiet >= HEARTBEAT_SECONDS:
                    quiet = 0.0
                    await response.write(b": keep-alive\n\n")
                continue
            reader.ready.clear()
            if reader.gone:
                break
            if reader.notice is not None:
                await response.write(event_message("version", {**reader.notice, "now": now_ms()}))
        if reader.gone:
            await response.write(event_message("gone", {}))
    except ConnectionResetError:
        pass
    finally:  # also when the reader went (its handler is cancelled at once)
        pages.leave(slug, reader)
        limits.close_stream(address)
    return response


# -- static files and fonts -----------------------------------------------------------------


async def static_file(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    path = STATIC_DIR / name
    content_type = STATIC_TYPES.get(path.suffix)
    if content_type is None or "/" in name or not path.is_file():
        raise web.HTTPNotFound()
    return web.Response(
        body=path.read_bytes(),
        content_type=content_type,
        charset="utf-8",
        headers={"Cache-Control": "public, max-age=86400"},
    )


async def fonts_css(request: web.Request) -> web.StreamResponse:
    slices = font_slices()
    return web.Response(
        text=slices.css(),
        content_type="text/css",
        headers={"Cache-Control": "public, max-age=86400"},
    )


async def font_slice(request: web.Request) -> web.StreamResponse:
    raw = request.match_info["index"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 4:
        raise web.HTTPNotFound()
    body = await font_slices().woff(int(raw))
    if body is None:
        raise web.HTTPNotFound()
    return web.Response(
        body=body, content_type="font/woff", headers={"Cache-Control": "public, max-age=604800"}
    )


async def nothing_here(request: web.Request) -> web.StreamResponse:
    raise web.HTTPNotFound()


# -- the application ------------------------------------------------------------------------


def build_app(pages: LivePages, limits: WebLimits | None = None) -> web.Application:
    """The web application: read-only routes over `pages`."""
    quiet_malformed_requests()
    app = web.Application(middlewares=[guard, without_trailing_slash])
    app[PAGES_KEY] = pages
    app[LIMITS_KEY] = Limits(limits or WebLimits())
    app.router.add_get("/", nothing_here)
    app.router.add_get("/static/{name}", static_file)
    app.router.add_get("/fonts/fonts.css", fonts_css)
    app.router.add_get("/fonts/{index}.woff", font_slice)
    app.router.add_get("/t/{slug}", section_page)
    app.router.add_get("/t/{slug}/events", events)
    app.router.add_get("/t/{slug}/api/decklists/{number}.json", api_decklist)
    app.router.add_get("/t/{slug}/api/series.json", api_series)
    app.router.add_get("/t/{slug}/api/profiles.json", api_profiles)
    app.router.add_get("/t/{slug}/api/{part}.json", api_part)
    app.router.add_get("/t/{slug}/decklists/{number}", decklist_page)
    app.router.add_get("/t/{slug}/{section}", section_page)

    async def end_streams(app: web.Application) -> None:
        pages.close_all()

    app.on_shutdown.append(end_streams)
    return app


class WebServer:
    """The server's life: started in the bot's `setup_hook`, stopped in its `close()`
    before the database closes (or run alone by `python -m bot web`).

    Its connections are bounded by the process's file limit (bot/web/connections.py):
    `budget` is sized from that limit at start unless given."""

    def __init__(
        self,
        live: LiveService,
        host: str,
        port: int,
        *,
        limits: WebLimits | None = None,
        poll: bool = False,
        budget: ConnectionBudget | None = None,
        cut_fonts: bool = True,
    ) -> None:
        self.pages = LivePages(live)
        self.host, self.port = host, port
        self.limits = limits or WebLimits()
        self.budget = budget
        self.app: web.Application | None = None
        self.gate: ConnectionGate | None = None
        self.runner: web.AppRunner | None = None
        self._stop_listening = live.watch(self.pages.heard)
        self._poll = poll
        self._poller: asyncio.Task[None] | None = None
        self._quiet_accept: Callable[[], None] | None = None
        self._cutter = Cutter() if cut_fonts else None

    async def start(self) -> None:
        budget = self.budget or ConnectionBudget.of(raise_file_limit())
        self.budget = budget
        limits = replace(self.limits, streams_total=min(self.limits.streams_total, budget.streams))
        self.app = build_app(self.pages, limits)
        checker = self.app[LIMITS_KEY]
        exempt = checker.is_proxy if limits.behind_proxy else (lambda address: False)
        self.gate = ConnectionGate(budget, exempt)
        self.runner = GatedRunner(self.app, self.gate, access_log=None, shutdown_timeout=2.0)
        await self.runner.setup()
        self._quiet_accept = QuietAccept(asyncio.get_running_loop()).install()
        # asyncio accepts `backlog` connections in one go, so it is sized from the
        # descriptors kept in reserve; a crowd waits in the kernel's deeper queue.
        site = web.TCPSite(self.runner, self.host, self.port, backlog=budget.accept_batch)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        for listening in sockets:
            deepen_queue(listening)
        if self.port == 0 and sockets:  # a free port was chosen (tests)
            self.port = sockets[0].getsockname()[1]
        if self._poll:
            self._poller = asyncio.get_running_loop().create_task(self.pages.poll())
        if self._cutter is not None:
            # The font's slices, read and cut before anyone asks (never on the loop).
            await self._cutter.start(await asyncio.to_thread(font_slices))
        log.info(
            "live pages served on %s:%s (at most %d connections, %d per address)",
            self.host,
            self.port,
            budget.total,
            budget.per_address,
        )

    async def stop(self) -> None:
        self._stop_listening()
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None
        if self.runner is not None:
            self.pages.close_all()
            await self.runner.cleanup()
            self.runner = None
            log.info("live pages stopped")
        if self._quiet_accept is not None:
            self._quiet_accept()
            self._quiet_accept = None
        if self._cutter is not None:
            await self._cutter.stop()
