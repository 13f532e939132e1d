"""Guild scheduled events (the server's calendar) as Discord API v10 has them.

Only what the bot needs is modelled in full: EXTERNAL events (entity_type 3), with
`entity_metadata.location` and `scheduled_end_time` required, `privacy_level` 2 (GUILD_ONLY,
the only level left), and the status machine SCHEDULED(1) → ACTIVE(2) → COMPLETED(3),
SCHEDULED → CANCELED(4); a COMPLETED or CANCELED event can no longer be changed (code
180000). STAGE_INSTANCE and VOICE events need a voice or stage channel, which the fake's
guilds do not have, so they are refused like a bad channel.

The checks answer like Discord: 400 with code 50035 ("Invalid Form Body") and an `errors`
tree naming each field (`{"name": {"_errors": [{"code": ..., "message": ...}]}}`), which
discord.py shows as "In name: …". The fake is stricter than Discord in one way: a field
Discord would silently ignore is refused (`UNKNOWN_FIELD`), so a typo in the bot shows.

Pure functions over JSON: `rest.py` calls them under the world's lock.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

JSON = dict[str, Any]

STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
TRANSITIONS = {(SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED)}
FINISHED = frozenset({COMPLETED, CANCELED})
MAX_OPEN_EVENTS = 100  # SCHEDULED or ACTIVE at once, per guild
NAME_LENGTH = (1, 100)
DESCRIPTION_LENGTH = (1, 1000)
LOCATION_LENGTH = (1, 100)

CREATE_FIELDS = frozenset(
    {
        "channel_id",
        "entity_metadata",
        "name",
        "privacy_level",
        "scheduled_start_time",
        "scheduled_end_time",
        "description",
        "entity_type",
        "image",
        "recurrence_rule",
    }
)
MODIFY_FIELDS = CREATE_FIELDS | {"status"}


class FormErrors(Exception):
    """A 400 Invalid Form Body: `errors` is Discord's tree of field errors."""

    def __init__(self) -> None:
        super().__init__("Invalid Form Body")
        self.errors: JSON = {}

    def add(self, path: tuple[str, ...], code: str, message: str) -> None:
        node = self.errors
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.errors:
            raise self

    def body(self) -> JSON:
        return {"code": 50035, "errors": self.errors, "message": "Invalid Form Body"}


@dataclass
class ScheduledEvent:
    id: int
    guild_id: int
    creator: JSON  # the user payload of who created it
    name: str
    scheduled_start_time: datetime
    scheduled_end_time: datetime | None
    entity_type: int
    privacy_level: int = GUILD_ONLY
    status: int = SCHEDULED
    description: str | None = None
    location: str | None = None
    image: str | None = None
    history: list[int] = field(default_factory=list)  # the statuses it went through

    @property
    def creator_id(self) -> int:
        return int(self.creator["id"])

    @property
    def open(self) -> bool:
        return self.status not in FINISHED

    def payload(self, *, with_user_count: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "channel_id": None,
            "creator_id": str(self.creator_id),
            "creator": copy.deepcopy(self.creator),
            "name": self.name,
            "description": self.description,
            "scheduled_start_time": _iso(self.scheduled_start_time),
            "scheduled_end_time": _iso(self.scheduled_end_time),
            "privacy_level": self.privacy_level,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": {"location": self.location},
            "image": self.image,
            "recurrence_rule": None,
        }
        if with_user_count:
            data["user_count"] = 0
        return data


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def create_event(
    body: Any, *, event_id: int, guild_id: int, creator: JSON, now: datetime
) -> ScheduledEvent:
    """A new event from a Create Guild Scheduled Event body; FormErrors otherwise."""
    errors = FormErrors()
    if not isinstance(body, dict):
        errors.add((), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        raise errors
    _unknown_fields(body, CREATE_FIELDS, errors)
    for required in ("name", "privacy_level", "scheduled_start_time", "entity_type"):
        if body.get(required) is None:
            errors.add((required,), "BASE_TYPE_REQUIRED", "This field is required")
    name = _text(body, "name", NAME_LENGTH, errors)
    description = _text(body, "description", DESCRIPTION_LENGTH, errors, nullable=True)
    _privacy(body, errors)
    start = _time(body, "scheduled_start_time", errors)
    end = _time(body, "scheduled_end_time", errors)
    entity_type = _entity_type(body, errors)
    location = _entity(body, entity_type, errors)
    _recurrence(body, errors)
    if entity_type == EXTERNAL and body.get("scheduled_end_time") is None:
        errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
    _times(start, end, now, errors)
    errors.raise_if_any()
    assert name is not None
    assert start is not None
    assert entity_type is not None
    return ScheduledEvent(
        id=event_id,
        guild_id=guild_id,
        creator=creator,
        name=name,
        scheduled_start_time=start,
        scheduled_end_time=end,
        entity_type=entity_type,
        description=description,
        location=location,
        image=body.get("image"),
        history=[SCHEDULED],
    )


class FinishedEvent(Exception):
    """Code 180000: a COMPLETED or CANCELED event cannot be updated."""


def modify_event(event: ScheduledEvent, body: Any, *, now: datetime) -> None:
    """Apply a Modify Guild Scheduled Event body to `event` (all or nothing)."""
    if event.status in FINISHED:
        raise FinishedEvent
    errors = FormErrors()
    if not isinstance(body, dict):
        errors.add((), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        raise errors
    _unknown_fields(body, MODIFY_FIELDS, errors)
    name = _text(body, "name", NAME_LENGTH, errors) if "name" in body else event.name
    if "name" in body and body["name"] is None:
        errors.add(("name",), "BASE_TYPE_REQUIRED", "This field is required")
    description = (
        _text(body, "description", DESCRIPTION_LENGTH, errors, nullable=True)
        if "description" in body
        else event.description
    )
    if "privacy_level" in body:
        _privacy(body, errors)
    start = _time(body, "scheduled_start_time", errors) or event.scheduled_start_time
    end = (
        _time(body, "scheduled_end_time", errors)
        if "scheduled_end_time" in body
        else event.scheduled_end_time
    )
    entity_type = _entity_type(body, errors) if "entity_type" in body else event.entity_type
    location = event.location
    if "entity_metadata" in body or "channel_id" in body or "entity_type" in body:
        merged = {"entity_metadata": {"location": event.location}, **body}
        location = _entity(merged, entity_type, errors)
    _recurrence(body, errors)
    if entity_type == EXTERNAL and end is None:
        errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
    if "scheduled_start_time" in body and event.status == SCHEDULED:
        _times(start, end, now, errors)
    elif start is not None and end is not None and end <= start:
        _end_before_start(errors)
    status = event.status
    if "status" in body:
        status = body["status"]
        if status not in (SCHEDULED, ACTIVE, COMPLETED, CANCELED):
            _enum(errors, "status", status)
        elif status != event.status and (event.status, status) not in TRANSITIONS:
            errors.add(
                ("status",),
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                f"Cannot change the status from {event.status} to {status}.",
            )
    errors.raise_if_any()
    assert name is not None
    assert entity_type is not None
    event.name = name
    event.description = description
    event.scheduled_start_time = start
    event.scheduled_end_time = end
    event.entity_type = entity_type
    event.location = location
    if "image" in body:
        event.image = body["image"]
    if status != event.status:
        event.status = status
        event.history.append(status)


def automation(event: ScheduledEvent, now: datetime) -> bool:
    """Discord's own status changes for an EXTERNAL event as of `now`: ACTIVE at its start,
    COMPLETED at its end. True when the status changed."""
    if event.entity_type != EXTERNAL:
        return False
    changed = False
    if event.status == SCHEDULED and event.scheduled_start_time <= now:
        event.status = ACTIVE
        event.history.append(ACTIVE)
        changed = True
    end = event.scheduled_end_time
    if event.status == ACTIVE and end is not None and end <= now:
        event.status = COMPLETED
        event.history.append(COMPLETED)
        changed = True
    return changed


# -- field checks -------------------------------------------------------------------------


def _unknown_fields(body: JSON, known: frozenset[str], errors: FormErrors) -> None:
    for name in sorted(set(body) - known):
        errors.add((name,), "UNKNOWN_FIELD", f"Unknown field {name!r} (the fake refuses it)")


def _text(
    body: JSON, name: str, length: tuple[int, int], errors: FormErrors, *, nullable: bool = False
) -> str | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        errors.add((name,), "BASE_TYPE_STRING", "Must be a string.")
        return None
    low, high = length
    if len(value) < low:
        errors.add((name,), "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")
    elif len(value) > high:
        errors.add((name,), "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
    return value


def _privacy(body: JSON, errors: FormErrors) -> None:
    value = body.get("privacy_level")
    if value is not None and value != GUILD_ONLY:
        _enum(errors, "privacy_level", value)


def _enum(errors: FormErrors, name: str, value: object) -> None:
    errors.add((name,), "ENUM_TYPE_COERCE", f'Value "{value}" is not a valid enum value.')


def _time(body: JSON, name: str, errors: FormErrors) -> datetime | None:
    value = body.get(name)
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        message = f'Could not parse "{value}". Should be ISO8601.'
        errors.add((name,), "DATE_TIME_TYPE_PARSE", message)
        return None
    if parsed.tzinfo is None:
        # Discord reads a time without an offset as UTC; the fake refuses it, because
        # discord.py never sends one and the bot should not either.
        errors.add((name,), "DATE_TIME_TYPE_PARSE", f'"{value}" has no UTC offset.')
        return None
    return parsed


def _times(start: datetime | None, end: datetime | None, now: datetime, errors: FormErrors) -> None:
    if start is not None and start <= now:
        errors.add(
            ("scheduled_start_time",),
            "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
            "Cannot schedule event in the past.",
        )
    if start is not None and end is not None and end <= start:
        _end_before_start(errors)


def _end_before_start(errors: FormErrors) -> None:
    errors.add(
        ("scheduled_end_time",),
        "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
        "Cannot schedule event to end before starting.",
    )


def _entity_type(body: JSON, errors: FormErrors) -> int | None:
    value = body.get("entity_type")
    if value is None:
        return None
    if value not in (STAGE_INSTANCE, VOICE, EXTERNAL):
        _enum(errors, "entity_type", value)
        return None
    return int(value)


def _entity(body: JSON, entity_type: int | None, errors: FormErrors) -> str | None:
    """The location of an EXTERNAL event; the channel checks of the others."""
    channel = body.get("channel_id")
    metadata = body.get("entity_metadata")
    if entity_type in (STAGE_INSTANCE, VOICE):
        # The fake's guilds have no voice or stage channel to host one.
        code = "BASE_TYPE_REQUIRED" if channel is None else "CHANNEL_TYPE_INVALID"
        errors.add(("channel_id",), code, "A voice or stage channel is required.")
        return None
    if entity_type != EXTERNAL:
        return None
    if channel is not None:
        errors.add(("channel_id",), "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_NULL", "Must be null.")
    if not isinstance(metadata, dict) or metadata.get("location") is None:
        errors.add(("entity_metadata", "location"), "BASE_TYPE_REQUIRED", "This field is required")
        return None
    unknown = sorted(set(metadata) - {"location"})
    for name in unknown:
        errors.add(("entity_metadata", name), "UNKNOWN_FIELD", f"Unknown field {name!r}")
    location = metadata["location"]
    if not isinstance(location, str):
        errors.add(("entity_metadata", "location"), "BASE_TYPE_STRING", "Must be a string.")
        return None
    low, high = LOCATION_LENGTH
    if not low <= len(location) <= high:
        errors.add(
            ("entity_metadata", "location"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {low} and {high} in length.",
        )
    return location


def _recurrence(body: JSON, errors: FormErrors) -> None:
    if body.get("recurrence_rule") is not None:
        errors.add(
            ("recurrence_rule",),
            "UNKNOWN_FIELD",
            "Recurrence rules are not modelled by the fake (discord.py cannot send one).",
        )
