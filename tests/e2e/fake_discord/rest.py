"""The REST half of the fake Discord: the routes discord.py calls, under `/api/v10`.

Every response is JSON with `Content-Type: application/json` exactly (discord.py parses
nothing else), passes Discord's rate limits (`limits.py`: a 429 when over them) and carries
their headers, and is recorded in `World.requests`. A request on a channel first needs the
channel to exist and the bot to see it (`permissions.py`). A route the fake does not know
answers 404 and lands in `World.unknown_routes`, so a test notices the bot called something
unmodelled.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import scheduled_events as events
from .faults import Fault
from .limits import CHANNEL_RENAMES, RouteLimit, Verdict
from .permissions import (
    ATTACH_FILES,
    CREATE_EVENTS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MANAGE_THREADS,
    VIEW_CHANNEL,
    effective_permissions,
    may_write_overwrites,
    overwrite,
    sending_permission,
)
from .state import (
    CATEGORY_CHANNEL_LIMIT,
    DM,
    EPHEMERAL,
    GUILD_CHANNEL_LIMIT,
    LOADING,
    NONCE_LIFETIME,
    PUBLIC_THREAD,
    Callback,
    Channel,
    Guild,
    InteractionRecord,
    RecordedRequest,
    RequestHook,
    Role,
    StoredFile,
    World,
)

if TYPE_CHECKING:
    from .gateway import Gateway

JSON = dict[str, Any]
API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Which interaction callback types Discord accepts for which interaction type.
ALLOWED_CALLBACKS = {
    2: {4, 5, 9},  # application command
    3: {4, 5, 6, 7, 9},  # component
    4: {8},  # autocomplete
    5: {4, 5, 6, 7},  # modal submit
}
ACK_DEADLINE_SECONDS = 3.0
# Component types a modal may hold: a text input (in a deprecated action row, or a label),
# a select, a file upload, or a text display; a label holds one of the inputs.
ACTION_ROW, TEXT_INPUT, TEXT_DISPLAY, LABEL, FILE_UPLOAD = 1, 4, 10, 18, 19
MODAL_INPUTS = {3, 4, 5, 6, 7, 8, FILE_UPLOAD, 21, 22, 23}
RECORD = web.RequestKey("record", RecordedRequest)


def json_response(data: Any, status: int = 200) -> web.Response:
    # Not `web.json_response`: it appends "; charset=utf-8", which discord.py won't parse.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def error(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status)


def expired_token() -> web.Response:
    return error(401, "Invalid Webhook Token", 50027)


def _error_code(response: web.Response) -> int | None:
    """The `code` of a JSON error answer, if it has one."""
    try:
        body = json.loads(bytes(response.body or b""))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return body.get("code") if isinstance(body, dict) else None


def _invalid_form(field: str, code: str, message: str) -> web.Response:
    """Discord's 400 50035 for one field of a request's body."""
    body = {
        "message": "Invalid Form Body",
        "code": 50035,
        "errors": {field: {"_errors": [{"code": code, "message": message}]}},
    }
    return json_response(body, 400)


def _overwrite_shape(given: JSON) -> JSON:
    """An overwrite as Discord keeps and sends it (bit sets as strings)."""
    return overwrite(
        int(given["id"]),
        int(given.get("type") or 0),
        allow=int(given.get("allow") or 0),
        deny=int(given.get("deny") or 0),
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def modal_problem(modal: JSON) -> str | None:
    """What Discord refuses in a modal: a title of 1–45 characters, 1–5 top-level
    components, each a label (1–45 characters, a description of at most 100, around one
    input), a text display, or (deprecated) an action row around one text input; a file
    upload only in a label, taking 0–10 files, at least one at most."""
    if not 1 <= len(str(modal.get("title") or "")) <= 45:
        return "data.title: must be 1 to 45 characters"
    components = modal.get("components") or []
    if not 1 <= len(components) <= 5:
        return "data.components: must be 1 to 5 components"
    for index, component in enumerate(components):
        where = f"data.components.{index}"
        kind = component.get("type")
        if kind == LABEL:
            if not 1 <= len(str(component.get("label") or "")) <= 45:
                return f"{where}.label: must be 1 to 45 characters"
            if len(str(component.get("description") or "")) > 100:
                return f"{where}.description: must be 100 or fewer characters"
            inner = component.get("component") or {}
            if inner.get("type") not in MODAL_INPUTS:
                return f"{where}.component: a label holds one input"
            if inner.get("type") == FILE_UPLOAD:
                least = _count(inner, "min_values")
                most = _count(inner, "max_values")
                if not (0 <= least <= 10 and 1 <= most <= 10 and least <= most):
                    return f"{where}.component: min_values 0–10, max_values 1–10"
        elif kind == ACTION_ROW:
            inner_kinds = [c.get("type") for c in component.get("components") or []]
            if inner_kinds != [TEXT_INPUT]:
                return f"{where}: an action row in a modal holds one text input"
        elif kind != TEXT_DISPLAY:
            return f"{where}.type: component type {kind} is not allowed in a modal"
    return None


def _count(component: JSON, field: str) -> int:
    """A component's minimum or maximum count: discord.py sends null for one not given,
    which Discord reads as its default (1)."""
    value = component.get(field)
    return 1 if value is None else int(value)


def message_components_problem(data: JSON) -> str | None:
    """A file upload or a label exists only in a modal: a message refuses them."""
    pending = list(data.get("components") or [])
    while pending:
        component = pending.pop()
        if component.get("type") in (LABEL, FILE_UPLOAD):
            return f"component type {component['type']} is only allowed in a modal"
        pending += component.get("components") or []
    return None


class Rest:
    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    # -- application wiring --------------------------------------------------------------

    def routes(self, app: web.Application) -> None:
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_delete),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("GET", "/channels/{channel_id}/messages", self.history),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/channels/{channel_id}/messages/pins", self.get_pins),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self.unpin),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from),
            ("POST", "/channels/{channel_id}/threads", self.thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.thread_member_add),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.thread_member_rm),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.guild_channels),
            ("POST", "/guilds/{guild_id}/channels", self.create_channel),
            ("GET", "/guilds/{guild_id}/roles", self.guild_roles),
            ("POST", "/guilds/{guild_id}/roles", self.create_role),
            ("GET", "/guilds/{guild_id}/roles/{role_id}", self.guild_role),
            ("GET", "/guilds/{guild_id}/members", self.guild_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.guild_member),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_role),
            ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_role),
            ("GET", "/guilds/{guild_id}/scheduled-events", self.list_events),
            ("POST", "/guilds/{guild_id}/scheduled-events", self.create_event),
            ("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", self.get_event),
            ("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", self.modify_event),
            ("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", self.delete_event),
        ]
        for method, path, handler in table:
            app.router.add_route(method, API + path, handler)
        app.router.add_route("GET", "/cdn/attachments/{channel_id}/{file_id}/{filename}", self.cdn)
        app.router.add_route("*", "/{tail:.*}", self.unknown)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        world = self.world
        world.last_activity = time.monotonic()
        if request.path == "/gateway":  # the websocket
            return await handler(request)
        path = request.path.removeprefix(API)
        match = dict(request.match_info)
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else ""
        record = RecordedRequest(
            request.method,
            path,
            dict(request.query),
            None,
            route=template.removeprefix(API),
            channel_id=int(match["channel_id"]) if match.get("channel_id", "").isdigit() else None,
            from_library=request.headers.get("User-Agent", "").startswith("DiscordBot"),
        )
        request[RECORD] = record
        with world.lock:
            world.requests.append(record)
        api = request.path.startswith(API)
        interaction_route = path.startswith(("/interactions/", "/webhooks/"))
        needs_auth = api and not interaction_route and not path.startswith("/gateway")
        trap = self._trap(request.method, path)
        fault = self._fault(request.method, path) if api else None
        verdict: Verdict | None = None
        if trap is not None and not trap.after:
            trap.action()  # the request never reaches Discord
            response: web.StreamResponse = error(503, "Service Unavailable")
        elif fault is not None:
            response = error(fault.status, f"{fault.status}: {fault.reason}")
        elif needs_auth and request.headers.get("Authorization") != f"Bot {world.token}":
            response = error(401, "401: Unauthorized")
        else:
            if api:
                verdict = world.limiter.check(
                    request.method,
                    record.route,
                    match,
                    exempt_from_global=interaction_route,
                    extra=await self._sub_limit(request, record.route),
                )
            if verdict is not None and verdict.limited:
                response = json_response(verdict.body(), 429)
                record.scope = verdict.scope
                record.wait = verdict.retry_after
            else:
                try:
                    refused = self._channel_refusal(request)
                    response = refused if refused is not None else await handler(request)
                except web.HTTPException as exc:  # aiohttp's own 405 and friends
                    response = error(exc.status, f"{exc.status}: {exc.reason}")
                if trap is not None:
                    trap.action()  # Discord did it; the bot never hears back
                    trap = None
        if trap is not None and trap.after:
            # Answered 429, 401 or a fault: Discord did nothing, so this is not the request
            # the trap waits for; the bot's retry is.
            trap.sprung = False
        record.status = response.status
        if response.status >= 400 and isinstance(response, web.Response):
            record.code = _error_code(response)
        if verdict is not None:
            response.headers.update(verdict.headers)
            if not verdict.limited and verdict.headers.get("X-RateLimit-Remaining") == "0":
                record.wait = float(verdict.headers["X-RateLimit-Reset-After"])
        if api:
            # Discord's answers come through Google's load balancer; discord.py takes a 429
            # without this header for a Cloudflare ban and gives up.
            response.headers["Via"] = "1.1 google"
        world.last_activity = time.monotonic()
        return response

    async def _sub_limit(self, request: web.Request, route: str) -> RouteLimit | None:
        """A limit on top of the route's bucket: a channel's name or topic changes."""
        if request.method != "PATCH" or route != "/channels/{channel_id}":
            return None
        if not request.content_type.endswith("json") or not request.body_exists:
            return None
        text = await request.text()  # aiohttp keeps the body: the handler reads it again
        body = json.loads(text) if text else {}
        return CHANNEL_RENAMES if "name" in body or "topic" in body else None

    def _fault(self, method: str, path: str) -> Fault | None:
        with self.world.lock:
            for fault in self.world.faults:
                if fault.matches(method, path):
                    fault.hits += 1
                    return fault
        return None

    def _channel_refusal(self, request: web.Request) -> web.Response | None:
        """What Discord answers before looking further at a request on a channel: 404 for a
        channel that does not exist (or was deleted), 403 50001 when the bot cannot see it."""
        raw = request.match_info.get("channel_id")
        if raw is None or not request.path.startswith(API):
            return None
        with self.world.lock:
            channel = self.world.channel_by_id(int(raw)) if raw.isdigit() else None
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            if channel.type != DM and not self._bot_granted(channel, VIEW_CHANNEL):
                return error(403, "Missing Access", 50001)
        return None

    def _trap(self, method: str, path: str) -> RequestHook | None:
        with self.world.lock:
            for hook in self.world.request_hooks:
                if not hook.matches(method, path):
                    continue
                if hook.skip > 0:
                    hook.skip -= 1
                    continue
                hook.sprung = True
                return hook
        return None

    # -- request bodies ------------------------------------------------------------------

    async def body(self, request: web.Request) -> tuple[Any, list[StoredFile]]:
        """The JSON body, or `payload_json` plus `files[n]` of a multipart body."""
        record = request[RECORD]
        files: list[StoredFile] = []
        payload: Any = {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                elif name.startswith("file"):
                    data = await part.read()  # type: ignore[union-attr]
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    filename = getattr(part, "filename", None) or name
                    with self.world.lock:
                        files.append(self.world.store_file(filename, bytes(data), content_type))
        elif request.body_exists:  # read already by a sub-limit's look: aiohttp keeps it
            text = await request.text()
            payload = json.loads(text) if text else {}
        record.json = payload
        record.files = files
        return payload, files

    # -- login, gateway ------------------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.gateway.url, "shards": 1, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        data = self.world.bot_user.payload()
        data.update(verified=True, mfa_enabled=False, locale="en-US", email=None)
        return json_response(data)

    async def get_user(self, request: web.Request) -> web.Response:
        with self.world.lock:
            user = self.world.users.get(int(request.match_info["user_id"]))
            if user is None:
                return error(404, "Unknown User", 10013)
            return json_response(user.payload())

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        owner = next(iter(world.guilds.values())).owner_id if world.guilds else world.app_id
        return json_response(
            {
                "id": str(world.app_id),
                "name": "PM Tournament Bot",
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "owner": world.users[owner].payload(),
                "bot": world.bot_user.payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(world.guilds),
            }
        )

    # -- application commands ------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        guild_id = request.match_info.get("guild_id")
        return int(guild_id) if guild_id else None

    async def get_commands(self, request: web.Request) -> web.Response:
        with self.world.lock:
            return json_response(self.world.commands.get(self._command_scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        if request.match_info["app_id"] != str(self.world.app_id):
            return error(403, "Missing Access", 50001)
        payload, _ = await self.body(request)
        if not isinstance(payload, list):
            return error(400, "Invalid Form Body", 50035)
        scope = self._command_scope(request)
        if scope is not None and scope not in self.world.guilds:
            return error(403, "Missing Access", 50001)
        commands = []
        with self.world.lock:
            previous = {c["name"]: c for c in self.world.commands.get(scope, [])}
            for command in payload:
                stored = dict(command)
                old = previous.get(command["name"])
                stored["id"] = old["id"] if old else str(self.world.ids.next())
                stored["application_id"] = str(self.world.app_id)
                stored["version"] = str(self.world.ids.next())
                stored.setdefault("type", 1)
                stored.setdefault("default_member_permissions", None)
                stored.setdefault("nsfw", False)
                if scope is not None:
                    stored["guild_id"] = str(scope)
                commands.append(stored)
            self.world.commands[scope] = commands
        return json_response(commands)

    # -- interactions and their webhooks -------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        world = self.world
        payload, files = await self.body(request)
        with world.lock:
            record = world.interactions.get(int(request.match_info["interaction_id"]))
            if record is None or record.token != request.match_info["token"]:
                return error(404, "Unknown interaction", 10062)
            if record.token_expired:
                return expired_token()
            if record.callbacks:
                return error(400, "Interaction has already been acknowledged.", 40060)
            # Counted from when the fake wrote INTERACTION_CREATE to the socket, as Discord
            # counts from when it sent it: a busy test building the next payloads is not
            # the bot's time.
            sent = record.sent_at if record.sent_at is not None else record.created
            if time.monotonic() - sent > ACK_DEADLINE_SECONDS:
                return error(404, "Unknown interaction", 10062)
            kind = int(payload.get("type", 0))
            data = payload.get("data") or {}
            if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
                return error(400, f"Invalid Form Body: callback type {kind}", 50035)
            problem = modal_problem(data) if kind == 9 else message_components_problem(data)
            if problem is not None:
                return error(400, f"Invalid Form Body: {problem}", 50035)
            record.callbacks.append(Callback(kind, data, files, time.monotonic()))
            if kind in (4, 7) and record.answered_at is None:
                record.answered_at = record.callbacks[-1].at
            message: JSON | None = None
            if kind in (4, 5):
                message = world.new_message(
                    record.channel_id,
                    data,
                    files,
                    interaction=record,
                    message_type=20 if record.type == 2 else 0,
                    extra_flags=LOADING if kind == 5 else 0,
                )
                record.original_id = int(message["id"])
            elif kind in (6, 7):
                record.original_id = record.target_message_id
                target = world.messages.get(record.target_message_id or 0)
                if kind == 7 and target is not None:
                    message = world.edit_message(target, data, files)
                    record.original_edited = True
            interaction: JSON = {"id": str(record.id), "type": record.type}
            resource: JSON = {"type": kind}
            if message is not None:
                interaction.update(
                    response_message_id=message["id"],
                    response_message_loading=kind == 5,
                    response_message_ephemeral=bool(message["flags"] & EPHEMERAL),
                )
                resource["message"] = message
            response = {"interaction": interaction, "resource": resource}
            return json_response(response)

    def _webhook_interaction(self, request: web.Request) -> InteractionRecord | None:
        if request.match_info["app_id"] != str(self.world.app_id):
            return None
        record = self.world.interaction_by_token(request.match_info["token"])
        if record is None or not record.callbacks:
            return None
        return record

    def _expired(self, request: web.Request) -> web.Response | None:
        """A follow-up or an `@original` read, edit or delete with a token past its 15
        minutes: Discord answers 401 50027."""
        with self.world.lock:
            record = self.world.interaction_by_token(request.match_info["token"])
            if record is not None and record.token_expired:
                return expired_token()
        return None

    def _webhook_message(self, request: web.Request, record: InteractionRecord) -> JSON | None:
        wanted = request.match_info["message_id"]
        if wanted == "@original":
            if record.original_id is None:
                return None
            return self.world.messages.get(record.original_id)
        if int(wanted) in record.followup_ids or int(wanted) == record.original_id:
            return self.world.messages.get(int(wanted))
        return None

    async def followup(self, request: web.Request) -> web.Response:
        if (expired := self._expired(request)) is not None:
            return expired
        payload, files = await self.body(request)
        with self.world.lock:
            record = self._webhook_interaction(request)
            if record is None:
                return error(404, "Unknown Webhook", 10015)
            if record.callbacks[0].type == 5 and not record.original_edited:
                # The first follow-up after a deferral replaces the "thinking…" message.
                original = self.world.messages.get(record.original_id or 0)
                if original is not None and original["flags"] & LOADING:
                    payload_flags = int(payload.get("flags") or 0)
                    merged = dict(payload, flags=payload_flags)
                    message = self.world.edit_message(original, merged, files)
                    record.original_edited = True
                    record.answered_at = record.answered_at or time.monotonic()
                    return json_response(message)
            message = self.world.new_message(record.channel_id, payload, files, interaction=record)
            record.followup_ids.append(int(message["id"]))
            return json_response(message)

    async def webhook_get(self, request: web.Request) -> web.Response:
        if (expired := self._expired(request)) is not None:
            return expired
        with self.world.lock:
            record = self._webhook_interaction(request)
            message = self._webhook_message(request, record) if record else None
            if message is None:
                return error(404, "Unknown Message", 10008)
            return json_response(message)

    async def webhook_edit(self, request: web.Request) -> web.Response:
        if (expired := self._expired(request)) is not None:
            return expired
        payload, files = await self.body(request)
        with self.world.lock:
            record = self._webhook_interaction(request)
            message = self._webhook_message(request, record) if record else None
            if record is None or message is None:
                return error(404, "Unknown Message", 10008)
            self.world.edit_message(message, payload, files)
            if int(message["id"]) == record.original_id:
                record.original_edited = True
                # A deferred update (type 6) is seen when its message is edited.
                record.answered_at = record.answered_at or time.monotonic()
            return json_response(message)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        if (expired := self._expired(request)) is not None:
            return expired
        with self.world.lock:
            record = self._webhook_interaction(request)
            message = self._webhook_message(request, record) if record else None
            if message is None:
                return error(404, "Unknown Message", 10008)
            self.world.delete_message(int(message["id"]))
            return no_content()

    # -- channels and messages -----------------------------------------------------------

    def _channel(self, request: web.Request) -> Channel | None:
        return self.world.channel_by_id(int(request.match_info["channel_id"]))

    def _message(self, request: web.Request) -> JSON | None:
        message = self.world.messages.get(int(request.match_info["message_id"]))
        if message is None or message["channel_id"] != request.match_info["channel_id"]:
            return None
        return message

    async def get_channel(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            return json_response(channel.payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        payload, _ = await self.body(request)
        with self.world.lock:
            channel = self._channel(request)
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            guild = self.world.guild_of_channel(channel)
            bot = guild.members.get(self.world.app_id) if guild else None
            if guild is not None and bot is not None and not channel.is_thread:
                # A guild channel's settings take Manage Channels; its overwrites, Manage
                # Roles and only bits the bot has there.
                if not effective_permissions(guild, bot, channel) & MANAGE_CHANNELS:
                    return error(403, "Missing Permissions", 50013)
                if "permission_overwrites" in payload:
                    given = list(payload["permission_overwrites"] or [])
                    if not may_write_overwrites(guild, bot, channel, given):
                        return error(403, "Missing Permissions", 50013)
                    channel.permission_overwrites = [_overwrite_shape(o) for o in given]
            channel.name = payload.get("name", channel.name)
            channel.topic = payload.get("topic", channel.topic)
            channel.archived = payload.get("archived", channel.archived)
            channel.locked = payload.get("locked", channel.locked)
            data = channel.payload()
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self.gateway.dispatch(event, data)
        return json_response(data)

    async def delete_channel(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            guild = self.world.guild_of_channel(channel) if channel else None
            if channel is None or guild is None:
                return error(404, "Unknown Channel", 10003)
            bot = guild.members.get(self.world.app_id)
            needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
            own_thread = channel.is_thread and channel.owner_id == self.world.app_id
            granted = bot is None or effective_permissions(guild, bot, channel) & needed
            if not granted and not own_thread:
                return error(403, "Missing Permissions", 50013)
            del guild.channels[channel.id]
            self.world.deleted_channels[channel.id] = channel
            moved = []
            for child in guild.children(channel.id):  # a category's channels stay, uncategorized
                child.parent_id = None
                moved.append(child.payload())
            guild.voice_states = {
                user: where for user, where in guild.voice_states.items() if where != channel.id
            }
            data = channel.payload()
        await self.gateway.dispatch(
            "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data
        )
        for child_data in moved:
            await self.gateway.dispatch("CHANNEL_UPDATE", child_data)
        return json_response(data)

    async def history(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            found = self.world.channel_messages(channel.id)
        before = int(request.query.get("before", 0) or 0)
        after = int(request.query.get("after", 0) or 0)
        limit = int(request.query.get("limit", 50))
        if before:
            found = [m for m in found if int(m["id"]) < before]
        if after:
            found = [m for m in found if int(m["id"]) > after][:limit]
        return json_response(list(reversed(found))[:limit])

    async def create_message(self, request: web.Request) -> web.Response:
        payload, files = await self.body(request)
        world = self.world
        with world.lock:
            channel = self._channel(request)
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            if channel.type == DM and channel.recipient is not None:
                world.dm_attempts[channel.recipient.id] += 1
                if not channel.recipient.accepts_dms:
                    return error(403, "Cannot send messages to this user", 50007)
            if channel.is_category:  # a voice channel has its own chat; a category none
                return error(400, "Cannot send messages in a non-text channel", 50008)
            if channel.type != DM:
                needed = sending_permission(channel) | (ATTACH_FILES if files else 0)
                if not self._bot_granted(channel, needed):
                    return error(403, "Missing Permissions", 50013)
            if channel.is_thread and channel.archived:
                return error(400, "Thread is archived", 50083)
            if not (payload.get("content") or payload.get("embeds") or files) and not (
                payload.get("components") or payload.get("poll")
            ):
                return error(400, "Cannot send an empty message", 50006)
            nonce = payload.get("nonce")
            if nonce is not None and len(str(nonce)) > 25:
                return error(400, "Invalid Form Body: nonce is over 25 characters", 50035)
            key = (channel.id, world.app_id, str(nonce))
            if nonce is not None and payload.get("enforce_nonce"):
                earlier, at = world.nonces.get(key, (0, 0.0))
                fresh = time.monotonic() - at < NONCE_LIFETIME
                if fresh and earlier in world.messages:
                    # Discord answers a repeated nonce with the message it already made.
                    world.nonce_repeats += 1
                    return json_response(world.messages[earlier])
            message = world.new_message(channel.id, payload, files)
            if nonce is not None:
                world.nonces[key] = (int(message["id"]), time.monotonic())
        return json_response(message)

    async def typing(self, request: web.Request) -> web.Response:
        return no_content()

    async def get_message(self, request: web.Request) -> web.Response:
        with self.world.lock:
            message = self._message(request)
            if message is None:
                return error(404, "Unknown Message", 10008)
            return json_response(message)

    async def edit_message(self, request: web.Request) -> web.Response:
        payload, files = await self.body(request)
        with self.world.lock:
            message = self._message(request)
            if message is None:
                return error(404, "Unknown Message", 10008)
            return json_response(self.world.edit_message(message, payload, files))

    async def delete_message(self, request: web.Request) -> web.Response:
        with self.world.lock:
            message = self._message(request)
            if message is None:
                return error(404, "Unknown Message", 10008)
            self.world.delete_message(int(message["id"]))
            return no_content()

    async def get_pins(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            if channel is None:
                return error(404, "Unknown Channel", 10003)
            pins = [
                {"pinned_at": m["timestamp"], "message": m}
                for m in self.world.channel_messages(channel.id)
                if m["pinned"]
            ]
            return json_response({"items": pins, "has_more": False})

    async def pin(self, request: web.Request) -> web.Response:
        return self._set_pinned(request, True)

    async def unpin(self, request: web.Request) -> web.Response:
        return self._set_pinned(request, False)

    def _set_pinned(self, request: web.Request, pinned: bool) -> web.Response:
        with self.world.lock:
            message = self._message(request)
            if message is None:
                return error(404, "Unknown Message", 10008)
            message["pinned"] = pinned
            return no_content()

    def _bot_granted(self, channel: Channel, permission: int) -> bool:
        """Whether the bot has every bit of `permission` in `channel` (its roles, the
        channel's overwrites, a thread's parent's), by Discord's arithmetic."""
        with self.world.lock:
            guild = self.world.guild_of_channel(channel)
            bot = guild.members.get(self.world.app_id) if guild else None
            if guild is None or bot is None:
                return False
            granted = effective_permissions(guild, bot, channel)
        return granted & permission == permission

    async def _new_thread(self, parent: Channel, payload: JSON, thread_id: int | None) -> Channel:
        with self.world.lock:
            guild = self.world.guild_of_channel(parent)
            assert guild is not None
            kind = int(payload.get("type") or PUBLIC_THREAD)
            thread = Channel(
                thread_id or self.world.ids.next(),
                payload.get("name", "thread"),
                PUBLIC_THREAD if thread_id else kind,
                guild.id,
                parent.id,
                owner_id=self.world.app_id,
                auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
                member_ids=[self.world.app_id],
            )
            guild.channels[thread.id] = thread
            data = thread.payload()
        await self.gateway.dispatch("THREAD_CREATE", dict(data, newly_created=True))
        return thread

    async def thread(self, request: web.Request) -> web.Response:
        payload, _ = await self.body(request)
        with self.world.lock:
            parent = self._channel(request)
        if parent is None or parent.guild_id is None or parent.is_thread:
            return error(404, "Unknown Channel", 10003)
        private = int(payload.get("type") or PUBLIC_THREAD) != PUBLIC_THREAD
        if not self._bot_granted(
            parent, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        ):
            return error(403, "Missing Permissions", 50013)
        thread = await self._new_thread(parent, payload, None)
        return json_response(thread.payload())

    async def thread_from(self, request: web.Request) -> web.Response:
        payload, _ = await self.body(request)
        with self.world.lock:
            parent = self._channel(request)
            message = self._message(request)
        if parent is None or message is None or parent.guild_id is None:
            return error(404, "Unknown Message", 10008)
        if not self._bot_granted(parent, CREATE_PUBLIC_THREADS):
            return error(403, "Missing Permissions", 50013)
        if self.world.channel_by_id(int(message["id"])) is not None:
            return error(400, "A thread has already been created for this message", 160004)
        thread = await self._new_thread(parent, payload, int(message["id"]))
        return json_response(thread.payload())

    async def thread_member_add(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            if channel is None or not channel.is_thread:
                return error(404, "Unknown Channel", 10003)
            user_id = request.match_info["user_id"]
            uid = self.world.app_id if user_id == "@me" else int(user_id)
            if uid not in channel.member_ids:
                channel.member_ids.append(uid)
            return no_content()

    async def thread_member_rm(self, request: web.Request) -> web.Response:
        with self.world.lock:
            channel = self._channel(request)
            if channel is None or not channel.is_thread:
                return error(404, "Unknown Channel", 10003)
            user_id = request.match_info["user_id"]
            uid = self.world.app_id if user_id == "@me" else int(user_id)
            if uid in channel.member_ids:
                channel.member_ids.remove(uid)
            return no_content()

    async def create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self.body(request)
        with self.world.lock:
            user = self.world.users.get(int(payload.get("recipient_id", 0)))
            if user is None:
                return error(400, "Invalid Recipient(s)", 50033)
            return json_response(self.world.dm_channel(user).payload())

    # -- guilds, roles, members ----------------------------------------------------------

    def _guild(self, request: web.Request) -> Guild | None:
        return self.world.guilds.get(int(request.match_info["guild_id"]))

    async def get_guild(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            data = guild.payload(full=False)
            if request.query.get("with_counts") in ("true", "1"):
                data.update(
                    approximate_member_count=len(guild.members), approximate_presence_count=0
                )
            return json_response(data)

    async def guild_channels(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def create_channel(self, request: web.Request) -> web.Response:
        """A text or voice channel, or a category, held to Discord's rules: Manage Channels
        (in the category, when given), Manage Roles for overwrites and only bits the bot
        has, 50 channels a category (400 50035), 500 a server (400 30013); a channel
        without overwrites of its own takes its category's (synced)."""
        payload, _ = await self.body(request)
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            raw_parent = payload.get("parent_id")
            parent = guild.channels.get(int(raw_parent)) if raw_parent else None
            if raw_parent and (parent is None or not parent.is_category):
                return _invalid_form("parent_id", "CHANNEL_PARENT_INVALID", "Not a category")
            bot = guild.members[self.world.app_id]
            if not effective_permissions(guild, bot, parent) & MANAGE_CHANNELS:
                return error(403, "Missing Permissions", 50013)
            given = payload.get("permission_overwrites")
            if given and not may_write_overwrites(guild, bot, parent, list(given)):
                return error(403, "Missing Permissions", 50013)
            if guild.channel_count >= GUILD_CHANNEL_LIMIT:
                return error(400, "Maximum number of guild channels reached (500)", 30013)
            kind = int(payload.get("type") or 0)
            if parent is not None and len(guild.children(parent.id)) >= CATEGORY_CHANNEL_LIMIT:
                return _invalid_form(
                    "parent_id",
                    "CHANNEL_PARENT_MAX_CHANNELS",
                    "Maximum number of channels in category reached (50)",
                )
            if given is None and parent is not None:
                overwrites = copy.deepcopy(parent.permission_overwrites)
            else:
                overwrites = [_overwrite_shape(o) for o in given or []]
            channel = Channel(
                self.world.ids.next(),
                payload["name"],
                kind,
                guild.id,
                parent.id if parent else None,
                int(payload.get("position") or len(guild.channels)),
                payload.get("topic"),
                permission_overwrites=overwrites,
            )
            guild.channels[channel.id] = channel
            data = channel.payload()
        await self.gateway.dispatch("CHANNEL_CREATE", data)
        return json_response(data)

    async def guild_roles(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            return json_response([r.payload() for r in guild.roles.values()])

    async def guild_role(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            role = guild.roles.get(int(request.match_info["role_id"])) if guild else None
            if role is None:
                return error(404, "Unknown Role", 10011)
            return json_response(role.payload())

    async def create_role(self, request: web.Request) -> web.Response:
        payload, _ = await self.body(request)
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            role = Role(
                self.world.ids.next(),
                payload.get("name", "new role"),
                int(payload.get("permissions") or 0),
                1,
                color=int(payload.get("color") or 0),
            )
            guild.roles[role.id] = role
            data = role.payload()
        await self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": data})
        return json_response(data)

    async def guild_members(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            after = int(request.query.get("after", 0) or 0)
            limit = int(request.query.get("limit", 1))
            members = sorted(guild.members.values(), key=lambda m: m.id)
            chosen = [m.payload() for m in members if m.id > after][:limit]
            return json_response(chosen)

    async def guild_member(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            member = guild.members.get(int(request.match_info["user_id"])) if guild else None
            if member is None:
                return error(404, "Unknown Member", 10007)
            return json_response(member.payload())

    async def add_role(self, request: web.Request) -> web.Response:
        return await self._change_role(request, add=True)

    async def remove_role(self, request: web.Request) -> web.Response:
        return await self._change_role(request, add=False)

    async def _change_role(self, request: web.Request, *, add: bool) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            member = guild.members.get(int(request.match_info["user_id"])) if guild else None
            role_id = int(request.match_info["role_id"])
            if guild is None or member is None:
                return error(404, "Unknown Member", 10007)
            if role_id not in guild.roles:
                return error(404, "Unknown Role", 10011)
            if add and role_id not in member.role_ids:
                member.role_ids.append(role_id)
            if not add and role_id in member.role_ids:
                member.role_ids.remove(role_id)
            data = dict(member.payload(), guild_id=str(guild.id))
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", data)
        return no_content()

    # -- scheduled events (the server's calendar) ---------------------------------------

    def _bot_may(self, guild: Guild, *, create: bool, event: events.ScheduledEvent | None) -> bool:
        """Discord's rule for EXTERNAL events: creating needs CREATE_EVENTS; changing or
        deleting one's own event CREATE_EVENTS or MANAGE_EVENTS, anyone's MANAGE_EVENTS."""
        bot = guild.members.get(self.world.app_id)
        if bot is None:
            return False
        granted = effective_permissions(guild, bot, None)
        if create:
            return bool(granted & CREATE_EVENTS)
        own = event is not None and event.creator_id == self.world.app_id
        return bool(granted & MANAGE_EVENTS) or (own and bool(granted & CREATE_EVENTS))

    def _event(self, request: web.Request) -> tuple[Guild | None, events.ScheduledEvent | None]:
        guild = self._guild(request)
        if guild is None:
            return None, None
        raw = request.match_info["event_id"]
        event = guild.scheduled_events.get(int(raw)) if raw.isdigit() else None
        return guild, event

    @staticmethod
    def _with_user_count(request: web.Request) -> bool:
        return request.query.get("with_user_count", "").lower() in ("1", "true")

    async def list_events(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            counted = self._with_user_count(request)
            found = sorted(guild.scheduled_events.values(), key=lambda e: e.id)
            return json_response([e.payload(with_user_count=counted) for e in found])

    async def get_event(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild, event = self._event(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            if event is None:
                return error(404, "Unknown Guild Scheduled Event", 10070)
            return json_response(event.payload(with_user_count=self._with_user_count(request)))

    async def create_event(self, request: web.Request) -> web.Response:
        body, _ = await self.body(request)
        with self.world.lock:
            guild = self._guild(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            if not self._bot_may(guild, create=True, event=None):
                return error(403, "Missing Permissions", 50013)
            if sum(1 for e in guild.scheduled_events.values() if e.open) >= (
                events.MAX_OPEN_EVENTS
            ):
                return error(
                    400,
                    "Maximum number of uncompleted guild scheduled events reached (100)",
                    30038,
                )
            try:
                event = events.create_event(
                    body,
                    event_id=self.world.ids.next(),
                    guild_id=guild.id,
                    creator=self.world.bot_user.payload(),
                    now=self.world.clock(),
                )
            except events.FormErrors as invalid:
                return json_response(invalid.body(), 400)
            guild.scheduled_events[event.id] = event
            data = event.payload()
        await self.gateway.dispatch("GUILD_SCHEDULED_EVENT_CREATE", data)
        return json_response(data)

    async def modify_event(self, request: web.Request) -> web.Response:
        body, _ = await self.body(request)
        with self.world.lock:
            guild, event = self._event(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            if event is None:
                return error(404, "Unknown Guild Scheduled Event", 10070)
            if not self._bot_may(guild, create=False, event=event):
                return error(403, "Missing Permissions", 50013)
            try:
                events.modify_event(event, body, now=self.world.clock())
            except events.FinishedEvent:
                return error(400, "Cannot update a finished event", 180000)
            except events.FormErrors as invalid:
                return json_response(invalid.body(), 400)
            data = event.payload()
        await self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", data)
        return json_response(data)

    async def delete_event(self, request: web.Request) -> web.Response:
        with self.world.lock:
            guild, event = self._event(request)
            if guild is None:
                return error(404, "Unknown Guild", 10004)
            if event is None:
                return error(404, "Unknown Guild Scheduled Event", 10070)
            if not self._bot_may(guild, create=False, event=event):
                return error(403, "Missing Permissions", 50013)
            del guild.scheduled_events[event.id]
            data = event.payload()
            self.world.deleted_scheduled_events[event.id] = data
        await self.gateway.dispatch("GUILD_SCHEDULED_EVENT_DELETE", data)
        return no_content()

    # -- the CDN and everything else -----------------------------------------------------

    async def cdn(self, request: web.Request) -> web.Response:
        with self.world.lock:
            stored = self.world.files.get(int(request.match_info["file_id"]))
        if stored is None:
            return error(404, "404: Not Found")
        return web.Response(body=stored.data, headers={"Content-Type": stored.content_type})

    async def unknown(self, request: web.Request) -> web.Response:
        with self.world.lock:
            self.world.unknown_routes.append(f"{request.method} {request.path}")
        return error(404, "404: Not Found")
