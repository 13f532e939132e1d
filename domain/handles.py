"""Tournament handles (ハンドルネーム): the name a player chooses for the bot's posts,
standings and exports, in place of their Discord name.

A handle is checked by the one name cleaner, `domain.event.clean_display_name`, in its
`chosen` mode: one line, at most `MAX_HANDLE` characters, no control characters, and, as
the bot publishes it, no mention-like text and no invisible or reordering characters. Two
players of a server cannot share a handle, compared as people read them (`name_key`:
full-width and half-width alike, case and spaces ignored), so nobody can take a name that
reads as someone else's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import InvalidInput
from domain.event import MAX_DISPLAY_NAME, clean_display_name

MAX_HANDLE = MAX_DISPLAY_NAME  # as long as a Discord display name can be


@dataclass(frozen=True)
class Profile:
    """A player on one server: the handle they chose (None: their Discord name is shown),
    whether their record may be shown on the live page (opt-in), and who changed it last
    (the player, or an organizer importing entries with handles)."""

    user_id: int
    handle: str | None = None
    public: bool = False
    updated_by: int = 0


def clean_handle(text: str) -> str:
    """The handle as stored; InvalidInput keyed `event.name_*` (field `handle`) otherwise."""
    return clean_display_name(text, max_length=MAX_HANDLE, field="handle", chosen=True)


def name_key(text: str) -> str:
    """A name as people read it, for comparing two names: NFKC (ＡＢＣ = ABC), case folded,
    spaces removed. `name_key("Ｙｕｉ Hirasawa") == name_key("yuihirasawa")`."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def check_handle_free(handle: str, player_id: int, handles: Mapping[int, str]) -> None:
    """Refuse a handle another player of the server already has (`handles`: player → handle),
    with InvalidInput(`handle.taken`). The player's own current handle does not count."""
    key = name_key(handle)
    for other, theirs in handles.items():
        if other != player_id and name_key(theirs) == key:
            raise InvalidInput("handle.taken", handle=handle)


def set_handle(text: str, player_id: int, handles: Mapping[int, str]) -> str:
    """The handle `player_id` asked for, cleaned and checked to be free."""
    handle = clean_handle(text)
    check_handle_free(handle, player_id, handles)
    return handle


def shown_name(display_name: str, handle: str | None) -> str:
    """The name posts, standings and exports show: the handle when the player set one."""
    return handle if handle else display_name
