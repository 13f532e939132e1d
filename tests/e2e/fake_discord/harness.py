"""The test helper: a fake Discord on loopback plus the real bot as a subprocess.

The aiohttp server runs on its own event loop in a background thread, so the harness
works from any pytest-asyncio loop scope (and from plain sync code for set-up/tear-down).
The bot is started exactly as users start it: `python -m bot`, configured only through
environment variables. See tests/e2e/README.md for a walk-through.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import copy
import math
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from bot.config import Settings
from tests.conftest import cli_env

from .faults import CALLBACKS, Fault
from .gateway import Gateway
from .limits import INVALID_WINDOW, MESSAGES_PER_CHANNEL
from .permissions import MEMBER as MEMBER_OVERWRITE
from .permissions import ROLE as ROLE_OVERWRITE
from .permissions import base_permissions, effective_permissions, overwrite
from .rest import Rest
from .scheduled_events import automation
from .state import (
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    RecordedRequest,
    RequestHook,
    Role,
    StoredFile,
    User,
    World,
)
from .traffic import Traffic, summarise

JSON = dict[str, Any]
T = TypeVar("T")

READY_LINE = "bot ready: logged in as"
# Seconds a stopping bot may take beyond its SHUTDOWN_TIMEOUT: cancelling what still runs
# (up to 1 s), sending what is left in the outbox (up to 2 s), closing the gateway and the
# database, on a busy machine.
SHUTDOWN_MARGIN = 10.0
# What the bot logs at DEBUG once every task an interaction started has ended (bot/shutdown.py).
FINISHED_LINE = re.compile(r"\binteraction (\d+) finished$")
# Seconds a bot may take to start (Python, discord.py, the database, READY): about one on a
# quiet machine, ten and more when other processes take the CPU. Only a hang waits so long.
START_SECONDS = 60.0
POLL_SECONDS = 0.01  # how often a wait looks at the live state again
DEFAULT_TOKEN = "ODk0NjIwMTc2MzYzMzEyMTI4.GfAkEd.e2e-t0ken-N0t-A-ReaL-0ne_xYz123456789"

# Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11
# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT, LABEL = 5, 6, 7, 8, 18
FILE_UPLOAD = 19
SELECTS = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)

_LIVE_PROCESSES: set[subprocess.Popen[bytes]] = set()


@atexit.register
def _kill_leftovers() -> None:
    for process in list(_LIVE_PROCESSES):
        if process.poll() is None:
            process.kill()


# -- the bot process -------------------------------------------------------------------------


class BotProcess:
    """`python -m bot ...` with its stdout and stderr read line by line in threads."""

    def __init__(self, args: list[str], *, env: dict[str, str], cwd: Path) -> None:
        self.args = args
        self.env = env
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        _LIVE_PROCESSES.add(self.process)
        self.stderr_lines: list[str] = []
        self.stdout_lines: list[str] = []
        # Interaction id → how many times the bot logged that it finished handling it.
        self.finished: Counter[int] = Counter()
        self._readers = [
            threading.Thread(
                target=self._read, args=(self.process.stderr, self.stderr_lines, self._note)
            ),
            threading.Thread(target=self._read, args=(self.process.stdout, self.stdout_lines)),
        ]
        for reader in self._readers:
            reader.daemon = True
            reader.start()

    @staticmethod
    def _read(stream: Any, into: list[str], note: Callable[[str], None] | None = None) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if note is not None:
                note(line)
            into.append(line)
        stream.close()

    def _note(self, line: str) -> None:
        found = FINISHED_LINE.search(line)
        if found:
            self.finished[int(found.group(1))] += 1

    @property
    def logs_interactions(self) -> bool:
        """Whether the bot logs at DEBUG, so that the end of each interaction is seen."""
        return self.env.get("LOG_LEVEL", "").upper() == "DEBUG"

    @property
    def stderr(self) -> str:
        return "\n".join(self.stderr_lines)

    @property
    def stdout(self) -> str:
        return "\n".join(self.stdout_lines)

    @property
    def returncode(self) -> int | None:
        return self.process.poll()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    @property
    def ready(self) -> bool:
        return any(READY_LINE in line for line in self.stderr_lines)

    @property
    def shutdown_budget(self) -> float:
        """Seconds this bot may take to exit after SIGTERM: its SHUTDOWN_TIMEOUT (the wait
        for commands in flight) plus SHUTDOWN_MARGIN."""
        return shutdown_timeout(self.env) + SHUTDOWN_MARGIN

    def wait(self, timeout: float) -> int:
        """Wait for the exit and for the readers to drain the pipes."""
        code = self.process.wait(timeout)
        for reader in self._readers:
            reader.join(2)
        _LIVE_PROCESSES.discard(self.process)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.wait(5)

    def tail(self, lines: int = 80) -> str:
        shown = [
            line if len(line) <= 400 else line[:400] + " …" for line in self.stderr_lines[-lines:]
        ]
        return f"--- bot {' '.join(self.args) or 'run'} stderr (last {len(shown)} lines) ---\n" + (
            "\n".join(shown)
        )


def shutdown_timeout(env: Mapping[str, str]) -> float:
    """The SHUTDOWN_TIMEOUT a bot started with `env` uses (the bot's default when unset)."""
    given = env.get("SHUTDOWN_TIMEOUT")
    if given:
        return float(given)
    default = Settings.model_fields["shutdown_timeout"].default
    assert isinstance(default, float)
    return default


# -- replies -------------------------------------------------------------------------------


def text_of(message: JSON | None) -> str:
    """Everything a reader sees in a message: content, embeds and text components."""
    if not message:
        return ""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        if embed.get("author"):
            parts.append(embed["author"].get("name") or "")
        for embed_field in embed.get("fields") or []:
            parts += [embed_field.get("name") or "", embed_field.get("value") or ""]
        if embed.get("footer"):
            parts.append(embed["footer"].get("text") or "")
    for component in walk_components(message.get("components") or []):
        if component.get("type") == 10:  # text display (components v2)
            parts.append(component.get("content") or "")
    return "\n".join(p for p in parts if p)


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


class Reply:
    """How the bot answered one interaction. Properties read the fake's live state."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self._fake = fake
        self._record = record

    def __repr__(self) -> str:
        return f"<Reply interaction={self.id} type={self.type} text={self.text[:80]!r}>"

    @property
    def id(self) -> int:
        return self._record.id

    @property
    def sent_at(self) -> float | None:
        """When the fake sent INTERACTION_CREATE (`time.monotonic()`; None before)."""
        return self._record.sent_at

    @property
    def answer_time(self) -> float | None:
        """Seconds from the fake sending INTERACTION_CREATE to the bot's first callback
        arriving (None without one). Discord allows 3 s."""
        record = self._record
        if record.sent_at is None or not record.callbacks:
            return None
        return record.callbacks[0].at - record.sent_at

    @property
    def shown_time(self) -> float | None:
        """Seconds from INTERACTION_CREATE until the user saw the answer: the message
        callback, or the follow-up that replaced a deferral (None before that)."""
        record = self._record
        if record.sent_at is None or record.answered_at is None:
            return None
        return record.answered_at - record.sent_at

    @property
    def interaction(self) -> JSON:
        """The INTERACTION_CREATE payload the fake sent."""
        return self._record.payload

    @property
    def type(self) -> int | None:
        """The callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices,
        9 modal; None when the bot never answered."""
        with self._fake.world.lock:
            callbacks = self._record.callbacks
            return callbacks[0].type if callbacks else None

    @property
    def data(self) -> JSON:
        """The data of the initial callback (message, modal or autocomplete choices)."""
        with self._fake.world.lock:
            callbacks = self._record.callbacks
            return copy.deepcopy(callbacks[0].data) if callbacks else {}

    @property
    def original(self) -> JSON | None:
        """The current @original message (after edits), or None."""
        return self._fake.message(self._record.original_id) if self._record.original_id else None

    @property
    def followups(self) -> list[JSON]:
        """Follow-up messages (a follow-up right after a defer edits @original instead)."""
        found = (self._fake.message(i) for i in list(self._record.followup_ids))
        return [m for m in found if m is not None]

    @property
    def messages(self) -> list[JSON]:
        original = self.original
        return ([original] if original else []) + self.followups

    @property
    def message(self) -> JSON | None:
        """The newest message of this reply (what a user looks at and clicks on)."""
        messages = self.messages
        return messages[-1] if messages else None

    @property
    def content(self) -> str:
        message = self.message
        return (message or {}).get("content") or ""

    @property
    def embeds(self) -> list[JSON]:
        message = self.message
        return list((message or {}).get("embeds") or [])

    @property
    def embed(self) -> JSON:
        embeds = self.embeds
        assert embeds, f"the reply has no embed: {self!r}"
        return embeds[0]

    @property
    def components(self) -> list[JSON]:
        message = self.message
        return list(walk_components((message or {}).get("components") or []))

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.components if "custom_id" in c]

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return bool(message and message["flags"] & EPHEMERAL)

    @property
    def text(self) -> str:
        """All visible text of all messages of the reply, for `in` assertions."""
        return "\n".join(text_of(m) for m in self.messages)

    @property
    def modal(self) -> JSON:
        assert self.type == 9, f"the bot did not answer with a modal: {self!r}"
        return self.data

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices ({"name", "value", "name_localizations"?})."""
        assert self.type == 8, f"the bot did not answer with autocomplete choices: {self!r}"
        return list(self.data.get("choices") or [])

    @property
    def files(self) -> list[JSON]:
        """Attachments of every message of the reply (bytes via `fake.file_bytes`)."""
        return [a for m in self.messages for a in m.get("attachments") or []]


# -- the server thread ---------------------------------------------------------------------


class _ServerThread:
    def __init__(self, world: World) -> None:
        self.world = world
        self.gateway = Gateway(world)
        self.rest = Rest(world, self.gateway)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="fake-discord", daemon=True
        )
        self.runner: web.AppRunner | None = None
        self.port = 0

    def start(self) -> None:
        self.thread.start()
        self.call_sync(self._start())

    async def _start(self) -> None:
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 * 2**20)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.routes(app)
        self.runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1]

    def call_sync(self, coro: Coroutine[Any, Any, T], timeout: float = 10) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def call(self, coro: Coroutine[Any, Any, T]) -> T:
        future: concurrent.futures.Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return await asyncio.wrap_future(future)

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        try:
            self.call_sync(self._stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
            self.loop.close()

    async def _stop(self) -> None:
        await self.gateway.close()
        if self.runner is not None:
            await self.runner.cleanup()


# -- the fake ------------------------------------------------------------------------------


@dataclass
class Upload:
    """A file a user attaches to a slash-command option."""

    filename: str
    data: bytes
    content_type: str = "text/plain; charset=utf-8"


UserRef = str | int | User | Member


class FakeDiscord:
    """A fake Discord API + gateway on loopback, and the real bot connected to it.

    >>> fake = FakeDiscord(); fake.start()
    >>> await fake.start_bot(tmp_path)
    >>> reply = await fake.slash("help", user="alice", locale="ja")
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        preferred_locale: str = "ja",
        guild_name: str = "Precious Memories Club",
        settle: float = 0.2,
        timeout: float = 30.0,
        log_level: str = "DEBUG",
        guild_id: int | None = None,
        rate_limits: bool = True,
    ) -> None:
        """`rate_limits=False` turns Discord's rate limits off (buckets, the global limit):
        only for a test or bench that measures the bot alone, and the caller says why."""
        self.token = token
        self.settle = settle
        self.timeout = timeout
        self.log_level = log_level
        # Settings every start of this fake uses unless a start overrides them.
        self.default_env: dict[str, str] = {}
        self.world = World(token=token)
        self.world.limiter.enabled = rate_limits
        self.guild = self.world.add_guild(
            guild_name, preferred_locale=preferred_locale, guild_id=guild_id
        )
        self._server = _ServerThread(self.world)
        self.bot: BotProcess | None = None
        self.processes: list[BotProcess] = []
        self.workdir: Path | None = None
        self.database: Path | None = None
        # A postgresql:// URL: the bot runs on PostgreSQL (DATABASE_URL wins over the
        # DATABASE_PATH that is set too), and the harness reads that database.
        self.database_url: str | None = None
        self._postgres: Any = None  # an asyncpg connection, on the server's loop
        self._postgres_url: str | None = None  # the database it is connected to
        # The outbox's pending count and when it was read: waiters share one reading.
        self._pending: tuple[float, int] = (-1.0, 0)
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> FakeDiscord:
        self._server.start()
        self.world.base_url = f"http://127.0.0.1:{self._server.port}"
        self._server.gateway.url = f"ws://127.0.0.1:{self._server.port}/gateway"
        return self

    def close(self) -> None:
        """Kill any bot still running and stop the server. Safe to call twice."""
        for process in self.processes:
            process.kill()
        if self._postgres is not None:
            with contextlib.suppress(Exception):
                self._server.call_sync(self._postgres.close(timeout=2))
            self._postgres = None
        self._server.stop()
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def __enter__(self) -> FakeDiscord:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> FakeDiscord:
        return self.start()

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def api_url(self) -> str:
        return f"{self.world.base_url}/api/v10"

    @property
    def gateway(self) -> Gateway:
        return self._server.gateway

    def env(self, **overrides: str) -> dict[str, str]:
        """The bot's environment: only variables, as a user's `.env` would give them."""
        assert self.database is not None
        values = {
            "DISCORD_TOKEN": self.token,
            "DATABASE_PATH": str(self.database),
            "DISCORD_API_BASE_URL": self.api_url,
            "DISCORD_GATEWAY_URL": self.gateway.url,
            "GUILD_READY_TIMEOUT": "0.1",
            "LOG_LEVEL": self.log_level,
        }
        if self.database_url is not None:
            values["DATABASE_URL"] = self.database_url
        values.update(self.default_env)
        values.update(overrides)
        return cli_env(**values)

    def _prepare_workdir(self, workdir: Path | None) -> Path:
        if workdir is not None:
            self.workdir = Path(workdir)
        if self.workdir is None:
            self._tempdir = tempfile.TemporaryDirectory(prefix="fake-discord-")
            self.workdir = Path(self._tempdir.name)
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.database is None:
            self.database = self.workdir / "bot.sqlite3"
        return self.workdir

    async def start_bot(
        self,
        workdir: Path | None = None,
        *,
        wait_ready: bool = True,
        **env: str,
    ) -> BotProcess:
        """Start `python -m bot` in `workdir` (no `.env` there) and wait for READY.

        Keyword arguments override environment variables, e.g. `DISCORD_TOKEN="bad"`.
        With `wait_ready=False` it returns at once (use `wait_exit` for start-up failures).
        """
        assert self.bot is None or not self.bot.alive, "a bot is already running"
        cwd = self._prepare_workdir(workdir)
        identified = self.gateway.identify_count
        self.bot = BotProcess([], env=self.env(**env), cwd=cwd)
        self.processes.append(self.bot)
        if wait_ready:
            bot = self.bot
            await self.wait_for(
                lambda: bot.ready, "the bot to log READY", within=START_SECONDS, bot_must_live=True
            )
            assert self.gateway.identify_count > identified, "READY logged without IDENTIFY"
            await self.wait_for(lambda: self.gateway.ready, "the gateway session")
        return self.bot

    async def start_process(
        self,
        *,
        shard_count: int | None = None,
        shard_ids: str | None = None,
        **env: str,
    ) -> BotProcess:
        """Start one more bot process (several run beside each other on PostgreSQL), for
        shards `shard_ids` of `shard_count`, and wait until it is READY. `self.bot` stays
        the first process; this one is in `self.processes`."""
        cwd = self._prepare_workdir(None)
        if shard_count is not None:
            env["SHARD_COUNT"] = str(shard_count)
        if shard_ids is not None:
            env["SHARD_IDS"] = shard_ids
        process = BotProcess([], env=self.env(**env), cwd=cwd)
        self.processes.append(process)

        def ready() -> bool:
            if not process.alive:
                raise AssertionError(f"a bot process exited\n{process.tail()}")
            return process.ready

        await self.wait_for(
            ready, "a bot process to log READY", within=START_SECONDS, bot_must_live=False
        )
        return process

    async def wait_exit(self, within: float | None = None) -> int:
        """Wait for the bot to exit on its own (or after a signal the test sent); its exit
        code. `within` defaults to the bot's shutdown budget (SHUTDOWN_TIMEOUT + margin)."""
        bot = self.bot
        assert bot is not None
        return await asyncio.to_thread(bot.wait, bot.shutdown_budget if within is None else within)

    async def stop_bot(self, *, within: float | None = None) -> BotProcess:
        """SIGTERM the bot; assert it exits with 0 and never logged the token.

        The bot may spend its SHUTDOWN_TIMEOUT letting commands in flight finish, so the stop
        fails only after that plus SHUTDOWN_MARGIN (or after `within` s, when longer).
        """
        bot = self.bot
        assert bot is not None, "no bot was started"
        limit = max(within or 0.0, bot.shutdown_budget)
        if bot.alive:
            bot.process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.to_thread(bot.wait, limit)
        except subprocess.TimeoutExpired:
            bot.kill()
            raise AssertionError(f"the bot ignored SIGTERM for {limit}s\n{bot.tail()}") from None
        assert code == 0, f"the bot exited with {code} after SIGTERM\n{bot.tail()}"
        self.assert_token_not_logged(bot)
        return bot

    async def kill_bot(self) -> BotProcess:
        """SIGKILL the bot: no shutdown code runs, as when the machine loses power."""
        bot = self.bot
        assert bot is not None, "no bot was started"
        assert bot.alive, f"the bot was not running\n{bot.tail()}"
        bot.process.send_signal(signal.SIGKILL)
        code = await asyncio.to_thread(bot.wait, 5)
        assert code == -signal.SIGKILL, f"the bot exited with {code}, not by SIGKILL"
        self.assert_token_not_logged(bot)
        return bot

    def kill_on(
        self, method: str, path_suffix: str, *, after: bool = False, count: int = 1
    ) -> None:
        """SIGKILL the bot when it sends the `count`-th request `method … path_suffix`: with
        `after=False` the request is lost with the bot (a crash before the post reached
        Discord), with `after=True` Discord handles it first (the bot dies before it hears
        back). Then `await fake.wait_exit()` and `start_bot()`."""
        bot = self.bot
        assert bot is not None, "no bot to kill"
        assert bot.alive, "the bot is not running"
        process = bot.process

        def kill() -> None:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)

        hook = RequestHook(method, path_suffix, kill, after=after, skip=count - 1)
        with self.world.lock:
            self.world.request_hooks.append(hook)

    async def restart_bot(self, *, kill: bool = False) -> BotProcess:
        """Stop the bot (SIGTERM, or SIGKILL with `kill=True`) and start it again on the
        same database."""
        await (self.kill_bot() if kill else self.stop_bot())
        return await self.start_bot()

    async def advance_clock(self, minutes: float) -> BotProcess:
        """Move the bot's clock `minutes` on without waiting for them: restart the bot
        (SIGTERM, same database) with its CLOCK_OFFSET_MINUTES that much larger. Later starts
        of this fake keep the offset. Notices that fall due in the skipped minutes count as
        missed while the bot was down (CLOCK_GRACE_SECONDS)."""
        bot = self.bot
        assert bot is not None, "no bot was started"
        offset = float(bot.env.get("CLOCK_OFFSET_MINUTES") or 0) + minutes
        self.default_env["CLOCK_OFFSET_MINUTES"] = f"{offset:g}"
        return await self.restart_bot()

    def assert_token_not_logged(self, bot: BotProcess | None = None) -> None:
        for process in [bot] if bot else self.processes:
            assert self.token not in process.stderr, "the token appeared in the bot's stderr"
            assert self.token not in process.stdout, "the token appeared in the bot's stdout"

    async def sync_commands(
        self, guild: Guild | None = None, *, global_: bool = False
    ) -> list[JSON]:
        """Run `python -m bot sync --guild ID` (or `--global`) and return what was recorded."""
        cwd = self._prepare_workdir(None)
        target = self.guild if guild is None else guild
        args = ["sync", "--global"] if global_ else ["sync", "--guild", str(target.id)]
        process = BotProcess(args, env=self.env(), cwd=cwd)
        self.processes.append(process)
        try:
            code = await asyncio.to_thread(process.wait, 30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise AssertionError(f"`python -m bot sync` hung\n{process.tail()}") from None
        assert code == 0, f"`python -m bot sync` failed with {code}\n{process.tail()}"
        self.assert_token_not_logged(process)
        return self.commands(None if global_ else target)

    def commands(self, guild: Guild | None = None) -> list[JSON]:
        """The recorded command tree of a guild (None: the global one)."""
        with self.world.lock:
            return copy.deepcopy(self.world.commands.get(guild.id if guild else None, []))

    def load_commands(self, commands: list[JSON], guild: Guild | None = None) -> None:
        """Reuse a tree recorded by another fake (sync once per session, not per module)."""
        with self.world.lock:
            scope = (guild or self.guild).id
            self.world.commands[scope] = [dict(c, guild_id=str(scope)) for c in commands]

    # -- the world -----------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Second Server",
        *,
        preferred_locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Another guild with the same layout and users; add it before `start_bot`. With
        `shard` (id, count), one that shard serves."""
        return self.world.add_guild(name, preferred_locale=preferred_locale, shard=shard)

    def member(self, user: UserRef, guild: Guild | None = None) -> Member:
        guild = guild or self.guild
        with self.world.lock:
            if isinstance(user, Member | User):
                user = user.id
            return guild.member(user)

    def user(self, name: str) -> User:
        return self.member(name).user

    def role(self, name: str, guild: Guild | None = None) -> Role:
        return (guild or self.guild).role(name)

    def channel(self, name: str | int, guild: Guild | None = None) -> Channel:
        with self.world.lock:
            if isinstance(name, int) and name in self.world.dm_channels:
                return self.world.dm_channels[name]
            return (guild or self.guild).channel(name)

    async def add_member(
        self,
        name: str,
        *roles: str,
        guild: Guild | None = None,
        accepts_dms: bool = True,
        user_id: int | None = None,
    ) -> Member:
        """A new member (GUILD_MEMBER_ADD is sent when a bot is connected); `user_id`: the
        id of a new user (a bench's database prepared with those ids)."""
        guild = guild or self.guild
        member = self.world.add_member(guild, name, roles, user_id)
        member.user.accepts_dms = accepts_dms
        await self._server.call(
            self.gateway.dispatch(
                "GUILD_MEMBER_ADD", dict(member.payload(), guild_id=str(guild.id))
            )
        )
        return member

    async def set_roles(self, user: UserRef, *roles: str, guild: Guild | None = None) -> Member:
        """Replace a member's roles (by name) and tell the bot (GUILD_MEMBER_UPDATE)."""
        guild = guild or self.guild
        member = self.member(user, guild)
        with self.world.lock:
            member.role_ids = [guild.role(r).id for r in roles]
            data = dict(member.payload(), guild_id=str(guild.id))
        await self._server.call(self.gateway.dispatch("GUILD_MEMBER_UPDATE", data))
        return member

    def upload(self, filename: str, data: bytes, content_type: str = "text/plain") -> StoredFile:
        """A file on the fake CDN, to pass as an attachment option."""
        with self.world.lock:
            return self.world.store_file(filename, data, content_type)

    def file_bytes(self, attachment: JSON) -> bytes:
        """The bytes of an attachment the bot (or a user) uploaded."""
        with self.world.lock:
            return self.world.files[int(attachment["id"])].data

    def messages(
        self, channel: str | int, *, guild: Guild | None = None, include_ephemeral: bool = False
    ) -> list[JSON]:
        """Messages in a channel or thread (by name or id), oldest first."""
        with self.world.lock:
            found = self.channel(channel, guild)
            return copy.deepcopy(
                self.world.channel_messages(found.id, include_ephemeral=include_ephemeral)
            )

    @contextlib.contextmanager
    def bot_without(self, permission: int, guild: Guild | None = None) -> Iterator[None]:
        """The bot lacks `permission` in the guild during the block (taken from @everyone
        and from the bot's role, as a server's owner can), then has it again."""
        guild = guild or self.guild
        with self.world.lock:
            bot = guild.members[self.world.app_id]
            roles = [guild.everyone, *(guild.roles[role_id] for role_id in bot.role_ids)]
            granted = [role.permissions for role in roles]
            for role in roles:
                role.permissions &= ~permission
        self._roles_changed(guild, roles)
        try:
            yield
        finally:
            with self.world.lock:
                for role, permissions in zip(roles, granted, strict=True):
                    role.permissions = permissions
            self._roles_changed(guild, roles)

    def grant_bot(self, permission: int, guild: Guild | None = None) -> None:
        """The server's owner gives the bot's role `permission` (e.g. Manage Channels and
        Manage Roles for match rooms); the bot hears GUILD_ROLE_UPDATE."""
        guild = guild or self.guild
        with self.world.lock:
            bot = guild.members[self.world.app_id]
            roles = [
                guild.roles[role_id] for role_id in bot.role_ids if guild.roles[role_id].managed
            ]
            for role in roles:
                role.permissions |= permission
        self._roles_changed(guild, roles)

    @contextlib.contextmanager
    def bot_with(self, permission: int, guild: Guild | None = None) -> Iterator[None]:
        """The bot's role has `permission` during the block, then not again."""
        guild = guild or self.guild
        with self.world.lock:
            bot = guild.members[self.world.app_id]
            roles = [
                guild.roles[role_id] for role_id in bot.role_ids if guild.roles[role_id].managed
            ]
            granted = [role.permissions for role in roles]
        self.grant_bot(permission, guild)
        try:
            yield
        finally:
            with self.world.lock:
                for role, permissions in zip(roles, granted, strict=True):
                    role.permissions = permissions
            self._roles_changed(guild, roles)

    def permissions_in(self, user: UserRef, channel: str | int, guild: Guild | None = None) -> int:
        """What `user` may do in `channel`, by Discord's arithmetic (permissions.py)."""
        guild = guild or self.guild
        with self.world.lock:
            return effective_permissions(
                guild, self.member(user, guild), self.channel(channel, guild)
            )

    def voice_channels(self, guild: Guild | None = None) -> list[Channel]:
        guild = guild or self.guild
        with self.world.lock:
            return sorted((c for c in guild.channels.values() if c.is_voice), key=lambda c: c.id)

    async def join_voice(
        self, user: UserRef, channel: str | int | None, guild: Guild | None = None
    ) -> None:
        """`user` joins a voice channel (None: leaves voice); the bot hears VOICE_STATE_UPDATE."""
        guild = guild or self.guild
        with self.world.lock:
            member = self.member(user, guild)
            where = self.channel(channel, guild).id if channel is not None else None
            if where is None:
                guild.voice_states.pop(member.id, None)
            else:
                guild.voice_states[member.id] = where
            data = {
                "guild_id": str(guild.id),
                "channel_id": str(where) if where else None,
                "user_id": str(member.id),
                "member": member.payload(),
                "session_id": f"s{member.id}",
                "deaf": False,
                "mute": False,
                "self_deaf": False,
                "self_mute": False,
                "self_video": False,
                "suppress": False,
                "request_to_speak_timestamp": None,
            }
        await self._server.call(self.gateway.dispatch("VOICE_STATE_UPDATE", data))

    def _roles_changed(self, guild: Guild, roles: Iterable[Role]) -> None:
        """The bot hears each role's new permissions (GUILD_ROLE_UPDATE), as from Discord."""
        for role in roles:
            with self.world.lock:
                data = {"guild_id": str(guild.id), "role": role.payload()}
            self._server.call_sync(self.gateway.dispatch("GUILD_ROLE_UPDATE", data))

    def plant_buttons(
        self, channel: str | int, custom_ids: Iterable[str], *, guild: Guild | None = None
    ) -> JSON:
        """A message of the bot's in `channel` with a button for each of `custom_ids`, as an
        older version of the bot (or a hostile edit of the database) may have left them:
        `click_custom_id` then presses ids the bot would not make today."""
        buttons = [
            {"type": BUTTON, "style": 2, "label": custom_id[:80], "custom_id": custom_id}
            for custom_id in custom_ids
        ]
        rows = [{"type": ACTION_ROW, "components": buttons[i : i + 5]} for i in range(0, 25, 5)]
        with self.world.lock:
            where = self.channel(channel, guild)
            message = self.world.new_message(
                where.id, {"components": [r for r in rows if r["components"]]}, []
            )
            return copy.deepcopy(message)

    def plant_select(
        self,
        channel: str | int,
        custom_id: str,
        values: Iterable[str],
        *,
        guild: Guild | None = None,
    ) -> JSON:
        """A message of the bot's in `channel` with a string select of `custom_id` offering
        `values`, as an older version of the bot may have left it: `click_custom_id(...,
        component_type=3, values=[...])` then chooses options the bot would not offer today."""
        options = [{"label": value[:100], "value": value} for value in values]
        select = {"type": STRING_SELECT, "custom_id": custom_id, "options": options}
        with self.world.lock:
            where = self.channel(channel, guild)
            row = {"type": ACTION_ROW, "components": [select]}
            return copy.deepcopy(self.world.new_message(where.id, {"components": [row]}, []))

    def dms(self, user: UserRef) -> list[JSON]:
        """Direct messages the bot sent to a user, oldest first."""
        target = self.member(user).user
        with self.world.lock:
            for channel in self.world.dm_channels.values():
                if channel.recipient is target:
                    return copy.deepcopy(self.world.channel_messages(channel.id))
            return []

    def message(self, message_id: int | str | None) -> JSON | None:
        """The current version of a message, or None once deleted."""
        with self.world.lock:
            found = self.world.messages.get(int(message_id or 0))
            return copy.deepcopy(found) if found else None

    def threads(self, parent: str | None = None, guild: Guild | None = None) -> list[Channel]:
        guild = guild or self.guild
        with self.world.lock:
            parent_id = guild.channel(parent).id if parent else None
            return [
                c
                for c in guild.channels.values()
                if c.is_thread and (parent_id is None or c.parent_id == parent_id)
            ]

    def scheduled_events(
        self, guild: Guild | None = None, *, include_deleted: bool = False
    ) -> list[JSON]:
        """A guild's scheduled events as `GET /guilds/{id}/scheduled-events` answers them,
        oldest first; with `include_deleted`, the deleted ones too (as they were deleted)."""
        guild = guild or self.guild
        with self.world.lock:
            found = [event.payload() for event in guild.scheduled_events.values()]
            if include_deleted:
                found += [
                    copy.deepcopy(data)
                    for data in self.world.deleted_scheduled_events.values()
                    if data["guild_id"] == str(guild.id)
                ]
            return sorted(found, key=lambda data: int(data["id"]))

    def scheduled_event(self, event_id: int | str, guild: Guild | None = None) -> JSON | None:
        """One scheduled event as it is now, or None once deleted (or never made)."""
        with self.world.lock:
            found = (guild or self.guild).scheduled_events.get(int(event_id))
            return found.payload() if found is not None else None

    def scheduled_event_history(self, event_id: int | str, guild: Guild | None = None) -> list[int]:
        """The statuses an event went through, in order (1 scheduled, 2 active, …)."""
        with self.world.lock:
            found = (guild or self.guild).scheduled_events.get(int(event_id))
            return list(found.history) if found is not None else []

    async def run_scheduled_event_automation(
        self, now: datetime, guild: Guild | None = None
    ) -> list[JSON]:
        """Do what Discord does by itself as of `now` (aware): an EXTERNAL event becomes
        ACTIVE at its start and COMPLETED at its end; each change is sent to the bot as
        GUILD_SCHEDULED_EVENT_UPDATE. Returns the events that changed."""
        with self.world.lock:
            changed = [
                event.payload()
                for event in (guild or self.guild).scheduled_events.values()
                if automation(event, now)
            ]
        for data in changed:
            await self._server.call(self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", data))
        return changed

    @property
    def requests(self) -> list[Any]:
        with self.world.lock:
            return list(self.world.requests)

    def requests_to(self, method: str, path_prefix: str) -> list[Any]:
        return [r for r in self.requests if r.method == method and r.path.startswith(path_prefix)]

    @property
    def unknown_routes(self) -> list[str]:
        with self.world.lock:
            return list(self.world.unknown_routes)

    def assert_no_unknown_routes(self) -> None:
        unknown = self.unknown_routes
        assert not unknown, f"the bot called routes the fake does not know: {unknown}\n" + (
            self.log_tail()
        )

    def assert_no_errors_logged(self) -> None:
        for process in self.processes:
            bad = [
                line for line in process.stderr_lines if "Traceback" in line or " ERROR " in line
            ]
            assert not bad, f"the bot logged errors: {bad[:5]}\n{process.tail()}"

    # -- Discord's limits ----------------------------------------------------------------

    @property
    def rate_limits(self) -> bool:
        """Whether Discord's rate limits are enforced (on unless the fake was made without)."""
        return self.world.limiter.enabled

    def traffic(self, since: int = 0) -> Traffic:
        """What the bot asked of Discord (from the `since`-th request on): requests by route
        and status, messages per place, 429s by scope, invalid answers, the longest wait."""
        with self.world.lock:
            return summarise(self.world, self.world.requests[since:])

    def invalid_history(self) -> list[RecordedRequest]:
        """Every answer Discord counts toward its ban (401, 403, 429 but shared), oldest
        first; each has `at` (time.monotonic()), `method`, `path`, `status`, `code`."""
        with self.world.lock:
            return [r for r in self.world.requests if r.invalid]

    def invalid_requests(self, within: float = INVALID_WINDOW) -> int:
        """Invalid answers in the last `within` seconds (Discord: 10 minutes, ban at 10,000)."""
        since = time.monotonic() - within
        return sum(1 for r in self.invalid_history() if r.at >= since)

    def assert_within_discord_limits(self, *, since: int = 0) -> None:
        """What a bot that reads the headers gets from Discord: no 429 (discord.py plans its
        waits from the headers, so a 429 means the bot outran them, e.g. past the global
        limit that has no header) and at most 1 invalid answer per 1,000 requests or part of
        1,000 (a closed DM is found out only by trying once). Counts the bot's requests
        (discord.py's), not those a test sent with its own client."""
        with self.world.lock:
            requests = [r for r in self.world.requests[since:] if r.from_library]
            traffic = summarise(self.world, requests)
        limited = [f"{r.method} {r.path} ({r.scope})" for r in requests if r.status == 429]
        invalid = [f"{r.status} {r.code} {r.method} {r.path}" for r in requests if r.invalid]
        assert not limited, f"Discord answered {len(limited)} 429s: {limited[:10]}\n{traffic}"
        allowed = math.ceil(traffic.total / 1000)
        assert len(invalid) <= allowed, (
            f"{len(invalid)} invalid answers in {traffic.total} requests (at most {allowed} "
            f"here: 1 per 1,000): {invalid[:10]}\n{traffic}"
        )

    def age_interaction(self, reply: Reply | InteractionRecord, *, minutes: float) -> None:
        """Make an interaction's token `minutes` older (it expires at 15), without waiting."""
        record = reply._record if isinstance(reply, Reply) else reply
        with self.world.lock:
            record.token_aged += minutes * 60

    def age_nonces(self, *, minutes: float) -> None:
        """Make every remembered nonce `minutes` older (Discord keeps one a few minutes)."""
        with self.world.lock:
            for key, (message_id, at) in self.world.nonces.items():
                self.world.nonces[key] = (message_id, at - minutes * 60)

    def dm_attempts(self, user: UserRef) -> int:
        """How many posts the bot tried in a user's DMs (refused ones too)."""
        target = self.member(user).user
        with self.world.lock:
            return self.world.dm_attempts[target.id]

    def hold_shared(self, channel: str | int, seconds: float, guild: Guild | None = None) -> None:
        """Others keep the channel's posting busy for `seconds`: posting there answers 429 of
        scope shared, which Discord does not count against the bot."""
        found = self.channel(channel, guild)
        self.world.limiter.hold_shared(MESSAGES_PER_CHANNEL, str(found.id), seconds)

    # -- faults on command ---------------------------------------------------------------

    def fail_discord(
        self,
        status: int = 503,
        *,
        seconds: float | None = None,
        method: str | None = None,
        path: str | None = None,
        channel: str | int | None = None,
        spare_callbacks: bool = False,
        guild: Guild | None = None,
    ) -> Fault:
        """Discord answers `status` (500, 502 or 503) for `seconds` (None: until
        `fault.end()`), to every request or those of `method` and a path starting with
        `path` (without /api/v10) or of `channel` (`/channels/{its id}`); with
        `spare_callbacks`, interaction callbacks still work. Returns the fault."""
        if channel is not None:
            path = f"/channels/{self.channel(channel, guild).id}"
        until = time.monotonic() + seconds if seconds is not None else None
        fault = Fault(status, method, path, until, spare_callbacks)
        with self.world.lock:
            self.world.faults.append(fault)
        return fault

    def refuse_callbacks(self, *, seconds: float | None = None, status: int = 503) -> Fault:
        """Interaction callbacks answer `status` (the user sees "This interaction failed")
        for `seconds`, or until `fault.end()`."""
        return self.fail_discord(status, seconds=seconds, method="POST", path=CALLBACKS)

    def recover(self) -> None:
        """Every fault ends: Discord works again."""
        with self.world.lock:
            for fault in self.world.faults:
                fault.end()

    async def set_overwrite(
        self,
        channel: str | int,
        target: str | int,
        *,
        allow: int = 0,
        deny: int = 0,
        guild: Guild | None = None,
    ) -> None:
        """A permission overwrite on `channel` for `target` (a role's name, "@everyone", a
        member's name, or "bot"), as a server's owner sets it; the bot hears CHANNEL_UPDATE.
        `deny=SEND_MESSAGES` for the bot: its posts there answer 403 50013; `deny=
        VIEW_CHANNEL`: every request on the channel answers 403 50001. Replaces the target's
        overwrite; allow=deny=0 removes it."""
        guild = guild or self.guild
        with self.world.lock:
            found = self.channel(channel, guild)
            assert not found.is_thread, "a thread has no overwrites: set them on its parent"
            if target == "bot":
                target = self.world.app_id
            role = next(
                (r for r in guild.roles.values() if target in (r.name, r.id, str(r.id))), None
            )
            if role is not None:
                key, kind = role.id, ROLE_OVERWRITE
            else:
                key, kind = self.member(target, guild).id, MEMBER_OVERWRITE
            kept = [o for o in found.permission_overwrites if int(o["id"]) != key]
            if allow or deny:
                kept.append(overwrite(key, kind, allow=allow, deny=deny))
            found.permission_overwrites = kept
            data = found.payload()
        await self._server.call(self.gateway.dispatch("CHANNEL_UPDATE", data))

    async def delete_channel(self, channel: str | int, guild: Guild | None = None) -> Channel:
        """The channel is deleted (by a moderator) with its threads: every request on them
        answers 404 10003 from now on, and the bot hears CHANNEL_DELETE (discord.py drops
        the threads itself, as with Discord). Its messages stay readable by id."""
        guild = guild or self.guild
        with self.world.lock:
            found = self.channel(channel, guild)
            gone = [found] + [c for c in guild.channels.values() if c.parent_id == found.id]
            gone = [c for c in gone if c is found or c.is_thread]
            for each in gone:
                del guild.channels[each.id]
                self.world.deleted_channels[each.id] = each
            data = found.payload()
        event = "THREAD_DELETE" if found.is_thread else "CHANNEL_DELETE"
        await self._server.call(self.gateway.dispatch(event, data))
        return found

    async def add_channels(
        self,
        count: int,
        *,
        prefix: str = "extra",
        kind: int = GUILD_TEXT,
        parent: str | int | None = None,
        tell_bot: bool = True,
        guild: Guild | None = None,
    ) -> list[Channel]:
        """`count` channels made by a moderator (text, unless `kind`; in `parent`, a
        category, when given), e.g. to bring the server near Discord's 500. `tell_bot=False`
        sends no CHANNEL_CREATE: the bot's cache of the server is behind, as after a missed
        event, and only Discord's answer tells it the server is full."""
        guild = guild or self.guild
        made: list[Channel] = []
        with self.world.lock:
            parent_id = self.channel(parent, guild).id if parent is not None else None
            for number in range(count):
                channel = Channel(
                    self.world.ids.next(),
                    f"{prefix}-{number + 1}",
                    kind,
                    guild.id,
                    parent_id,
                    len(guild.channels),
                )
                guild.channels[channel.id] = channel
                made.append(channel)
            payloads = [channel.payload() for channel in made]
        if tell_bot:
            for data in payloads:
                await self._server.call(self.gateway.dispatch("CHANNEL_CREATE", data))
        return made

    def log_tail(self, lines: int = 80) -> str:
        return "\n".join(p.tail(lines) for p in self.processes[-2:])

    # -- interactions --------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        *,
        user: UserRef = "alice",
        options: dict[str, Any] | None = None,
        locale: str = "en-US",
        guild: Guild | None = None,
        channel: str | int = "general",
        dm: bool = False,
        app_permissions: int | None = None,
        expect_response: bool = True,
        wait: bool = True,
        made_minutes_ago: float = 0.0,
    ) -> Reply:
        """Invoke `/command` ("tournament create" for subcommands) and wait for the answer.

        Option values are plain Python values; users/members (or their names), channel and
        role names and `Upload`/`StoredFile` attachments are resolved like Discord does.
        `wait=False` returns once INTERACTION_CREATE is sent (the reply fills in later):
        bench/interactions.py sends 100 at once without 100 waiting loops.
        `made_minutes_ago`: the interaction was made that long ago (its id and its token's
        age say so): the bot's answer comes that late, without the test waiting for it.
        """
        guild = None if dm else (guild or self.guild)
        data = self._command_data(command, options or {}, guild, focused=None)
        made_ago = made_minutes_ago * 60
        record = self._interaction(
            2, data, user, guild, channel, locale, app_permissions, dm=dm, made_ago=made_ago
        )
        if not wait:
            await self._server.call(self._send_interaction(record))
            return Reply(self, record)
        return await self._run(record, expect_response)

    async def autocomplete(
        self,
        command: str,
        *,
        focused: str,
        value: str = "",
        user: UserRef = "alice",
        options: dict[str, Any] | None = None,
        locale: str = "en-US",
        guild: Guild | None = None,
        channel: str | int = "general",
        wait: bool = True,
    ) -> Reply:
        """Type `value` into option `focused` of `/command`; `reply.choices` is the answer.

        `wait=False` returns once INTERACTION_CREATE is sent, as `slash` does
        (bench/autocomplete.py sends hundreds a second)."""
        guild = guild or self.guild
        all_options = dict(options or {})
        all_options[focused] = value
        data = self._command_data(command, all_options, guild, focused=focused)
        record = self._interaction(4, data, user, guild, channel, locale, None)
        if not wait:
            await self._server.call(self._send_interaction(record))
            return Reply(self, record)
        return await self._run(record, True)

    async def click(
        self,
        target: Reply | JSON | int | str,
        label_or_custom_id: str,
        *,
        user: UserRef = "alice",
        values: list[Any] | None = None,
        locale: str = "en-US",
        expect_response: bool = True,
    ) -> Reply:
        """Press a button (or pick `values` in a select) on a message the bot posted.

        `target` is a Reply, a message dict or a message id; the component is found by its
        label, custom id or placeholder. Disabled components cannot be pressed.
        """
        message, component = self._find_component(target, label_or_custom_id)
        assert not component.get("disabled"), f"{label_or_custom_id!r} is disabled"
        kind = int(component["type"])
        if kind in SELECTS and values is None:
            raise ValueError(f"{label_or_custom_id!r} is a select menu: pass values=[...]")
        return await self.click_custom_id(
            message,
            component["custom_id"],
            component_type=kind,
            values=values,
            user=user,
            locale=locale,
            expect_response=expect_response,
        )

    async def click_custom_id(
        self,
        message: Reply | JSON | int | str,
        custom_id: str,
        *,
        component_type: int = BUTTON,
        values: list[Any] | None = None,
        user: UserRef = "alice",
        locale: str = "en-US",
        expect_response: bool = True,
        wait: bool = True,
    ) -> Reply:
        """Send a component interaction with any custom id (e.g. an old restart-proof one).
        `wait=False` returns once INTERACTION_CREATE is sent, as for `slash`."""
        current = self._resolve_message(message)
        on_message = [c.get("custom_id") for c in walk_components(current.get("components") or [])]
        # Discord only sends custom ids that are on the message (discord.py relies on it).
        assert custom_id in on_message, f"{custom_id!r} is not on the message: {on_message}"
        channel_id = int(current["channel_id"])
        data: JSON = {"custom_id": custom_id, "component_type": component_type}
        guild = self._guild_of(channel_id)
        if component_type in SELECTS:
            resolved: JSON = {}
            data["values"] = [
                self._select_value(v, component_type, guild, resolved) for v in values or []
            ]
            if resolved:
                data["resolved"] = resolved
            select = next(
                c
                for c in walk_components(current.get("components") or [])
                if c.get("custom_id") == custom_id
            )
            _check_choice(select, data["values"])
        record = self._interaction(
            3, data, user, guild, channel_id, locale, None, dm=guild is None, message=current
        )
        if not wait:
            await self._server.call(self._send_interaction(record))
            return Reply(self, record)
        return await self._run(record, expect_response)

    async def submit_modal(
        self,
        target: Reply | str,
        values: dict[str, Any],
        *,
        user: UserRef = "alice",
        locale: str = "en-US",
        guild: Guild | None = None,
        channel: str | int = "general",
        expect_response: bool = True,
    ) -> Reply:
        """Submit the modal a Reply opened (or one by custom id) with text/select values, and
        files for its file uploads (an `Upload`, a `StoredFile` or a list of them): stored on
        the CDN, their ids the field's values, resolved in `data.resolved.attachments`."""
        message: JSON | None = None
        resolved: JSON = {}
        if isinstance(target, Reply):
            modal = target.modal
            origin = target._record
            channel = origin.channel_id
            guild = self.world.guilds.get(origin.guild_id or 0)
            if origin.target_message_id:
                message = self.message(origin.target_message_id)
            remaining = dict(values)
            components = self._modal_answers(modal.get("components") or [], remaining, resolved)
            if remaining:
                raise ValueError(f"the modal has no field(s) {sorted(remaining)}")
            custom_id = modal["custom_id"]
        else:
            # A form by its custom id alone (an old one): each value as its field would send
            # it, files in a label's file upload, text in a text input.
            custom_id = target
            guild = guild or self.guild
            components = []
            for key, value in values.items():
                if _is_files(value):
                    upload = {"type": FILE_UPLOAD, "custom_id": key, "required": False}
                    answer = self._file_answer(upload, value, resolved)
                    components.append({"type": LABEL, "id": None, "component": answer})
                else:
                    row = [_answer(TEXT_INPUT, key, value)]
                    components.append({"type": ACTION_ROW, "components": row})
        data: JSON = {"custom_id": custom_id, "components": components}
        if resolved:
            data["resolved"] = resolved
        record = self._interaction(
            5, data, user, guild, channel, locale, None, dm=guild is None, message=message
        )
        return await self._run(record, expect_response)

    async def redeliver(self, reply: Reply, *, expect_response: bool = False) -> Reply:
        """Send an interaction's exact INTERACTION_CREATE payload again (same id and token),
        as a gateway replay after a reconnect can. Like Discord, the fake refuses a second
        acknowledgement (400, code 40060); the Reply shows the first answer."""
        record = reply._record
        acknowledged = len(record.callbacks)
        handled = self._finished(record)
        await self.dispatch("INTERACTION_CREATE", copy.deepcopy(record.payload))
        if expect_response:
            await self.wait_for(lambda: len(record.callbacks) > acknowledged, "a second answer")
        await self._handled(record, handled, f"the redelivered interaction {record.id}")
        self.assert_no_unknown_routes()
        return Reply(self, record)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send any gateway event to the connected bot."""
        sent = await self._server.call(self.gateway.dispatch(event, data))
        assert sent, f"no bot is connected to receive {event}"

    async def reconnect_gateway(self) -> None:
        """Ask the bot to reconnect (op 7) and wait until it has RESUMEd."""
        resumed = self.gateway.resume_count
        await self._server.call(self.gateway.request_reconnect())
        await self.wait_for(
            lambda: self.gateway.resume_count > resumed and self.gateway.ready, "RESUME"
        )

    # -- waiting for events --------------------------------------------------------------

    async def wait_for(
        self,
        condition: Callable[[], T],
        what: str,
        *,
        within: float | None = None,
        bot_must_live: bool = True,
    ) -> T:
        """Wait until `condition()` returns something truthy, and return that: a test waits
        for the event it needs (a post, a log line, a request), never for a fixed time.

        `condition` reads live state (`fake.messages(...)`, `fake.requests_to(...)`,
        `fake.bot.stderr_lines`, ...) and is polled every 10 ms. `what` names the event for
        the failure: after `within` s (default `fake.timeout`) "timed out after N s waiting
        for WHAT" with the bot's log; at once when the bot exits meanwhile (unless
        `bot_must_live=False`).
        """
        limit = self.timeout if within is None else within
        deadline = time.monotonic() + limit
        while True:
            value = condition()
            if value:
                return value
            bot = self.bot
            if bot_must_live and bot is not None and not bot.alive:
                raise AssertionError(
                    f"the bot exited ({bot.returncode}) while waiting for {what}\n{bot.tail()}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out after {limit}s waiting for {what}\n" + (self.log_tail())
                )
            await asyncio.sleep(POLL_SECONDS)

    _wait = wait_for  # the older, private name

    async def wait_for_message(
        self,
        channel: str | int,
        *,
        after: int = 0,
        matching: Callable[[JSON], Any] | None = None,
        what: str = "",
        guild: Guild | None = None,
        within: float | None = None,
    ) -> JSON:
        """The first message of `channel` (a name or id, threads too) from index `after` on
        that `matching(message)` accepts (any message without it), once the bot has posted
        it. Take `after = len(fake.messages(channel))` before the action that makes the
        post: a post the bot makes after it answered the interaction is awaited, not
        assumed. `what` describes the awaited post for the failure message."""

        def found() -> JSON | None:
            for message in self.messages(channel, guild=guild)[after:]:
                if matching is None or matching(message):
                    return message
            return None

        described = what or ("a matching message" if matching else "a new message")
        return await self.wait_for(
            found, f"{described} in {channel!r} after its first {after}", within=within
        )

    async def wait_for_log(self, text: str, *, after: int = 0, within: float | None = None) -> str:
        """The running bot's log line (stderr) that is the `after`+1-th to contain `text`,
        once logged: count the lines before the action (`after=`) to wait for a new one."""
        bot = self.bot
        assert bot is not None, "no bot was started"

        def found() -> str | None:
            lines = [line for line in list(bot.stderr_lines) if text in line]
            return lines[after] if len(lines) > after else None

        return await self.wait_for(found, f"the bot to log {text!r}", within=within)

    # -- internals -----------------------------------------------------------------------

    async def _run(self, record: InteractionRecord, expect_response: bool) -> Reply:
        await self._server.call(self._send_interaction(record))
        interaction = f"interaction {record.id} ({_describe(record)})"
        if expect_response:
            await self.wait_for(
                lambda: record.callbacks or self._finished(record),
                f"the answer to {interaction}",
            )
            assert record.callbacks, f"the bot never answered {interaction}\n{self.log_tail()}"
            if record.callbacks[0].type == 5:
                await self.wait_for(
                    lambda: record.original_edited or record.followup_ids or self._finished(record),
                    f"the bot to follow up its deferred answer to {interaction}",
                )
                assert record.original_edited or record.followup_ids, (
                    f"the bot deferred {interaction} and never followed up\n{self.log_tail()}"
                )
            await self._handled(record, 0, interaction)
        else:
            # A command that never answers may also never end (it waits on a lock, say):
            # wait for a quiet moment only, and let the test wait for what it expects.
            await self.settled()
        self.assert_no_unknown_routes()
        return Reply(self, record)

    async def settled(self) -> None:
        """Wait until the bot has said everything it had to (its outbox is empty: every post,
        thread notice and DM an operation planned has gone out) and Discord is quiet (no
        request for `settle` s)."""
        since = time.monotonic()
        await self.wait_for(lambda: self._pending_since(since) == 0, "the bot's notices to go out")
        await self.wait_for(
            lambda: time.monotonic() - self.world.last_activity >= self.settle,
            f"{self.settle}s without a request",
        )

    @property
    def database_location(self) -> str:
        """The bot's database: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or str(self.database)

    def database_env(self) -> dict[str, str]:
        """The variables that point `python -m bot` (verify, export …) at the bot's database."""
        if self.database_url is not None:
            return {"DATABASE_URL": self.database_url}
        return {"DATABASE_PATH": str(self.database)}

    def database_rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """Read the bot's database as it is (a reader never blocks the bot); `?` marks."""
        if self.database_url is not None:
            return self._server.call_sync(self._postgres_rows(sql, args))
        assert self.database is not None
        with contextlib.closing(
            sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        ) as connection:
            return list(connection.execute(sql, args))

    async def _postgres_rows(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        import asyncpg

        from bot.store.postgres import numbered_placeholders

        if self._postgres is not None and self._postgres_url != self.database_url:
            with contextlib.suppress(Exception):  # the old database may be gone
                await self._postgres.close(timeout=2)
            self._postgres = None
        if self._postgres is None or self._postgres.is_closed():
            self._postgres = await asyncpg.connect(self.database_url)
            self._postgres_url = self.database_url
        rows = await self._postgres.fetch(numbered_placeholders(sql), *args)
        return [tuple(row) for row in rows]

    def _pending_since(self, since: float) -> int:
        """`notices_pending()` as read at `since` or later, and at most one poll (10 ms)
        ago. Every waiter polls (200 at once in the rush tests): they share one fresh
        reading, so the database is read about once per poll, not once per waiter."""
        read_at, count = self._pending
        if read_at >= since and time.monotonic() - read_at < POLL_SECONDS:
            return count
        read_at = time.monotonic()
        count = self.notices_pending()
        if read_at > self._pending[0]:
            self._pending = (read_at, count)
        return count

    def notices_pending(self) -> int:
        """Notices in the bot's outbox not yet sent (0 without a running bot)."""
        bot = self.bot
        if bot is None or not bot.alive:
            return 0
        if self.database_url is not None:
            try:
                ((count,),) = self.database_rows(
                    "SELECT COUNT(*) FROM outbox WHERE state = 'pending'"
                )
            except Exception:  # not migrated yet
                return 0
            return int(count)
        if self.database is None or not self.database.exists():
            return 0
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=1.0)
            ) as connection:
                (count,) = connection.execute(
                    "SELECT COUNT(*) FROM outbox WHERE state = 'pending'"
                ).fetchone()
        except sqlite3.OperationalError:  # not migrated yet, or busy for a moment
            return 0
        return int(count)

    def _finished(self, record: InteractionRecord) -> int:
        """How many times the bot logged that it finished this interaction (in any of its
        processes: with shards, another process than `self.bot` may have handled it)."""
        return sum(process.finished[record.id] for process in list(self.processes))

    async def _handled(self, record: InteractionRecord, before: int, what: str) -> None:
        """Wait until the bot has finished handling the interaction and said what it
        planned: every task it started has ended (the bot logs it at DEBUG), so its answer
        and follow-ups are in and its notices are in the outbox, and the outbox is empty,
        so every post, thread notice and DM it caused is in the fake. A bot at another log
        level gives no such line: then `settled()`."""
        bot = self.bot
        if bot is not None and bot.logs_interactions:
            await self.wait_for(
                lambda: self._finished(record) > before, f"the bot to finish handling {what}"
            )
            finished = time.monotonic()  # its notices were in the outbox by then
            await self.wait_for(
                lambda: self._pending_since(finished) == 0, "the bot's notices to go out"
            )
        else:
            await self.settled()

    async def _send_interaction(self, record: InteractionRecord) -> None:
        # On the server's loop, right before the socket write: `sent_at` is when Discord
        # would have sent it, not when a busy test got round to asking.
        record.sent_at = time.monotonic()
        sent = await self.gateway.dispatch("INTERACTION_CREATE", record.payload)
        assert sent, "no bot is connected to receive INTERACTION_CREATE"

    def _guild_of(self, channel_id: int) -> Guild | None:
        with self.world.lock:
            channel = self.world.channel_by_id(channel_id)
            return self.world.guild_of_channel(channel) if channel else None

    def _resolve_message(self, message: Reply | JSON | int | str) -> JSON:
        if isinstance(message, Reply):
            found = message.message
        elif isinstance(message, dict):
            found = self.message(message["id"])
        else:
            found = self.message(message)
        assert found is not None, f"message {message!r} does not exist (deleted?)"
        return found

    def _find_component(self, target: Reply | JSON | int | str, wanted: str) -> tuple[JSON, JSON]:
        if isinstance(target, Reply):
            candidates = list(reversed(target.messages))
        else:
            candidates = [self._resolve_message(target)]
        seen: list[str] = []
        for message in candidates:
            for component in walk_components(message.get("components") or []):
                keys = [component.get(k) for k in ("label", "custom_id", "placeholder")]
                emoji = component.get("emoji") or {}
                keys.append(emoji.get("name"))
                if wanted in keys and component.get("custom_id"):
                    return message, component
                seen += [str(k) for k in keys[:2] if k]
        raise AssertionError(f"no component {wanted!r} on the message; there are {seen}")

    def _interaction(
        self,
        kind: int,
        data: JSON,
        user: UserRef,
        guild: Guild | None,
        channel: str | int,
        locale: str,
        app_permissions: int | None,
        *,
        dm: bool = False,
        message: JSON | None = None,
        made_ago: float = 0.0,
    ) -> InteractionRecord:
        with self.world.lock:
            if dm or guild is None:
                who = self._user(user)
                where = (
                    self.world.channel_by_id(channel)
                    if isinstance(channel, int) and channel in self.world.dm_channels
                    else self.world.dm_channel(who)
                )
                assert where is not None
                assert where.type == DM
                guild = None
            else:
                who = self.member(user, guild).user
                where = self.channel(channel, guild)
            return self.world.new_interaction(
                type=kind,
                data=data,
                user=who,
                guild=guild,
                channel=where,
                locale=locale,
                app_permissions=app_permissions,
                message=message,
                made_ago=made_ago,
            )

    def _user(self, user: UserRef) -> User:
        if isinstance(user, Member):
            return user.user
        if isinstance(user, User):
            return user
        for known in self.world.users.values():
            if user in (known.id, known.username, str(known.id)):
                return known
        raise KeyError(f"no user {user!r}")

    def _command_data(
        self, command: str, options: dict[str, Any], guild: Guild | None, *, focused: str | None
    ) -> JSON:
        names = command.strip().lstrip("/").split()
        with self.world.lock:
            scopes = [guild.id, None] if guild else [None, *self.world.commands]
            tree = [c for scope in scopes for c in self.world.commands.get(scope, [])]
        roots = [c for c in tree if c["name"] == names[0] and c.get("type", 1) == 1]
        if not roots:
            known = sorted({c["name"] for c in tree})
            hint = " (no command tree recorded: run fake.sync_commands())" if not tree else ""
            raise ValueError(f"no slash command /{names[0]}; known: {known}{hint}")
        root = roots[0]
        path: list[JSON] = []
        declared = root.get("options") or []
        for name in names[1:]:
            nested = [o for o in declared if o["name"] == name and o["type"] in (1, 2)]
            if not nested:
                subs = [o["name"] for o in declared if o["type"] in (1, 2)]
                raise ValueError(f"/{command}: no subcommand {name!r} (there are {subs})")
            path.append(nested[0])
            declared = nested[0].get("options") or []
        if any(o["type"] in (1, 2) for o in declared):
            subs = [o["name"] for o in declared if o["type"] in (1, 2)]
            raise ValueError(f"/{command} needs a subcommand: {subs}")
        resolved: JSON = {}
        leaf = self._option_values(command, declared, options, guild, resolved, focused)
        for level in reversed(path):
            leaf = [{"type": level["type"], "name": level["name"], "options": leaf}]
        data: JSON = {"id": root["id"], "name": root["name"], "type": 1, "options": leaf}
        if root.get("guild_id") and guild is not None:
            data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_values(
        self,
        command: str,
        declared: list[JSON],
        given: dict[str, Any],
        guild: Guild | None,
        resolved: JSON,
        focused: str | None,
    ) -> list[JSON]:
        by_name = {o["name"]: o for o in declared}
        unknown = set(given) - set(by_name)
        if unknown:
            raise ValueError(
                f"/{command} has no option(s) {sorted(unknown)}; it has {list(by_name)}"
            )
        out: list[JSON] = []
        for option in declared:
            name = option["name"]
            if name not in given:
                if option.get("required") and focused is None:
                    raise ValueError(f"/{command}: required option {name!r} is missing")
                continue
            value = given[name]
            if name == focused:
                out.append(
                    {"type": option["type"], "name": name, "value": str(value), "focused": True}
                )
                continue
            wire = self._option_value(option, value, guild, resolved)
            choices = [c["value"] for c in option.get("choices") or []]
            if choices and wire not in choices:
                raise ValueError(f"/{command}: {name}={wire!r} is not one of the choices {choices}")
            out.append({"type": option["type"], "name": name, "value": wire})
        return out

    def _option_value(self, option: JSON, value: Any, guild: Guild | None, resolved: JSON) -> Any:
        kind = option["type"]
        if kind == STRING:
            return str(value)
        if kind == INTEGER:
            return int(value)
        if kind == NUMBER:
            return float(value)
        if kind == BOOLEAN:
            return bool(value)
        if kind == USER:
            return self._resolve_user(value, guild, resolved)
        if kind == MENTIONABLE:
            if guild is not None and isinstance(value, str) and _has_role(guild, value):
                return self._resolve_role(value, guild, resolved)
            return self._resolve_user(value, guild, resolved)
        if kind == ROLE:
            assert guild is not None, "role options need a guild"
            return self._resolve_role(value, guild, resolved)
        if kind == CHANNEL:
            assert guild is not None, "channel options need a guild"
            channel = value if isinstance(value, Channel) else guild.channel(value)
            member_perms = str(
                effective_permissions(guild, guild.members[self.world.app_id], channel)
            )
            data = channel.payload()
            data["permissions"] = member_perms
            resolved.setdefault("channels", {})[str(channel.id)] = data
            return str(channel.id)
        if kind == ATTACHMENT:
            if isinstance(value, Upload):
                value = self.upload(value.filename, value.data, value.content_type)
            elif isinstance(value, tuple):
                value = self.upload(*value)
            assert isinstance(value, StoredFile), "pass an Upload, a StoredFile or (name, bytes)"
            data = value.payload(self.world.base_url)
            data.update(ephemeral=True)
            resolved.setdefault("attachments", {})[str(value.id)] = data
            return str(value.id)
        raise ValueError(f"unsupported option type {kind}")

    def _resolve_user(self, value: Any, guild: Guild | None, resolved: JSON) -> str:
        user = self._user(value)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id]
            resolved.setdefault("members", {})[str(user.id)] = member.payload(
                with_user=False, permissions=base_permissions(guild, member)
            )
        return str(user.id)

    def _resolve_role(self, value: Any, guild: Guild, resolved: JSON) -> str:
        role = value if isinstance(value, Role) else guild.role(value)
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)

    def _select_value(self, value: Any, kind: int, guild: Guild | None, resolved: JSON) -> str:
        if kind == STRING_SELECT:
            return str(value)
        option = {
            USER_SELECT: {"type": USER},
            ROLE_SELECT: {"type": ROLE},
            MENTIONABLE_SELECT: {"type": MENTIONABLE},
            CHANNEL_SELECT: {"type": CHANNEL},
        }[kind]
        return str(self._option_value(option, value, guild, resolved))

    def _modal_answers(
        self, components: list[JSON], values: dict[str, Any], resolved: JSON
    ) -> list[JSON]:
        answers: list[JSON] = []
        for component in components:
            kind = component.get("type")
            if kind == ACTION_ROW:
                answers.append(
                    {
                        "type": ACTION_ROW,
                        "components": self._modal_answers(
                            component["components"], values, resolved
                        ),
                    }
                )
            elif kind == LABEL:
                inner = self._modal_answers([component["component"]], values, resolved)
                answers.append({"type": LABEL, "id": component.get("id"), "component": inner[0]})
            elif kind == FILE_UPLOAD:
                given = values.pop(component["custom_id"], None)
                answers.append(self._file_answer(component, given, resolved))
            elif kind == TEXT_INPUT or kind in SELECTS:
                custom_id = component["custom_id"]
                value = values.pop(custom_id, component.get("value"))
                required = component.get("required", True)
                if kind == TEXT_INPUT and value is None and required:
                    raise ValueError(f"the modal's required field {custom_id!r} needs a value")
                answers.append(_answer(kind, custom_id, value))
            else:
                answers.append({"type": kind, "id": component.get("id")})
        return answers

    def _file_answer(self, upload: JSON, given: Any, resolved: JSON) -> JSON:
        """A file upload's answer: the files stored on the fake CDN, their ids its values,
        each resolved as Discord resolves an attachment (as for a command's option). Like
        Discord's client, the fake sends no fewer files than the field requires nor more
        than it allows."""
        files = given if isinstance(given, list) else ([] if given is None else [given])
        required = upload.get("required") is not False  # null: the default, required
        least = _count(upload, "min_values") if required else 0
        most = _count(upload, "max_values")
        if not least <= len(files) <= most:
            raise ValueError(
                f"the file upload {upload['custom_id']!r} takes {least}–{most} files, not "
                f"{len(files)}"
            )
        ids = []
        for file in files:
            stored = file if isinstance(file, StoredFile) else None
            if isinstance(file, Upload):
                stored = self.upload(file.filename, file.data, file.content_type)
            assert stored is not None, "pass an Upload or a StoredFile for a file upload"
            data = stored.payload(self.world.base_url)
            data.update(ephemeral=True)
            resolved.setdefault("attachments", {})[str(stored.id)] = data
            ids.append(str(stored.id))
        return {
            "type": FILE_UPLOAD,
            "id": upload.get("id"),
            "custom_id": upload["custom_id"],
            "values": ids,
        }


def _count(component: JSON, field: str) -> int:
    """A component's minimum or maximum count: discord.py sends null for one not given,
    which Discord reads as its default (1)."""
    value = component.get(field)
    return 1 if value is None else int(value)


def _is_files(value: Any) -> bool:
    items = value if isinstance(value, list) else [value]
    return bool(items) and all(isinstance(item, Upload | StoredFile) for item in items)


def _check_choice(select: JSON, values: list[str]) -> None:
    """What Discord's client lets a member choose in a select: from its options (a string
    select's), as many as its minimum and maximum allow."""
    least, most = _count(select, "min_values"), _count(select, "max_values")
    if not least <= len(values) <= most:
        raise ValueError(f"{select['custom_id']!r} takes {least}–{most} choices, not {values}")
    if select.get("type") == STRING_SELECT:
        offered = [str(option["value"]) for option in select.get("options") or []]
        if not set(values) <= set(offered):
            raise ValueError(f"{select['custom_id']!r} offers {offered}, not {values}")


def _answer(kind: int, custom_id: str, value: Any) -> JSON:
    if kind == TEXT_INPUT:
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": "" if value is None else value}
    values = value if isinstance(value, list) else ([] if value is None else [value])
    return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in values]}


def _has_role(guild: Guild, name: str) -> bool:
    return any(name in (r.name, str(r.id)) for r in guild.roles.values())


def _describe(record: InteractionRecord) -> str:
    data = record.payload.get("data") or {}
    return {2: "/", 3: "component ", 4: "autocomplete /", 5: "modal "}.get(record.type, "") + str(
        data.get("name") or data.get("custom_id")
    )


def live_bot_processes() -> int:
    """How many bot processes the harness started are still running (for leak checks)."""
    return sum(1 for p in _LIVE_PROCESSES if p.poll() is None)


__all__ = [
    "DEFAULT_TOKEN",
    "BotProcess",
    "FakeDiscord",
    "Reply",
    "Upload",
    "live_bot_processes",
    "text_of",
    "walk_components",
]
