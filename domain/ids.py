"""What can be an id: the database's integers are 64-bit, so a longer run of digits names
nothing that can exist (a button from another bot, a mistyped number) and is refused as
such, never looked up."""

from __future__ import annotations

MAX_ID = 2**63 - 1


def storable_id(value: int) -> bool:
    """Whether `value` can be an id of a stored row (or a Discord snowflake)."""
    return 0 < value <= MAX_ID
