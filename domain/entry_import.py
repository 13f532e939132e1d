"""Importing entries from a CSV (Google Forms, Tonamel, a spreadsheet): all or nothing.

The file is bytes as uploaded: UTF-8 with or without a BOM, or Shift_JIS as Excel in Japan
saves it (`domain.decks.decoding.decode`). Commas separate the columns (a tab-separated
file works too).

Columns. When the first row names its columns, it is a header: the column whose title
says ID (`Discord ID`, `ユーザーID`) holds Discord ids, a handle column (`ハンドルネーム`,
`プレイヤー名`, `エントリー名`, `handle`) the tournament handle, and a name column
(`Discord名`, `ユーザー名`, `名前`, `name`) the member's name; other columns (a form's
timestamp, questions) are ignored. Without a header the first column is the player (an id,
a mention `<@id>` or a name) and the optional second one the handle.

Every row is checked, and the report names each refused row with its line number (the
line where the row starts, as an editor numbers it) and the reason, a catalog key:

- `entry_import.row.missing_player`: no id or name;
- `entry_import.row.bad_id`: an id that is not a Discord id (17 to 20 digits);
- `entry_import.row.not_a_member`: an id of nobody on this server;
- `entry_import.row.unknown_name` / `ambiguous_name`: a name that matches nobody, or
  several members (use the id);
- `entry_import.row.duplicate` / `duplicate_handle`: the player, or the handle, of an
  earlier row;
- `entry_import.row.over_capacity`: past the tournament's capacity (`max_players`), counting
  the entries it already has;
- the name cleaner's keys (`event.name_too_long`, `event.name_control_characters`,
  `event.name_hidden_characters` …) for a name or a handle that is too long or hostile,
  `handle.taken` for another player's handle, and the registration rules' keys
  (`registration.disqualified` …) for a player who may not enter again.

Rows of players already entered (registered or on the waitlist) are not refused but
skipped, and listed as such, so the same form export can be imported again as answers come
in. The import is accepted only when no row is refused; the caller registers the accepted
entries in one transaction. Resolving names to members is the caller's: it passes each
member's names (Discord name, display name, nickname) with their ids.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domain.decks.decoding import byte_size, decode
from domain.engine.players import PlayerStatus
from domain.engine.state import Phase
from domain.errors import DomainError, IllegalTransition, InvalidInput
from domain.event import clean_display_name
from domain.handles import check_handle_free, clean_handle, name_key
from domain.ids import storable_id
from domain.tournament.model import IN_EVENT, Tournament
from domain.tournament.registration import check_may_register_again

MAX_IMPORT_BYTES = 256 * 1024
MAX_IMPORT_ROWS = 1000
SNOWFLAKE_DIGITS = (17, 20)

_MENTION = re.compile(r"^<@!?([0-9]+)>$")
_ID_TITLE = re.compile(r"(?<![a-z])id(?![a-z])|discordid|userid")
_HANDLE_TITLES = (
    "ハンドル",
    "handle",
    "エントリー名",
    "プレイヤー名",
    "playername",
    "ニックネーム",
)
_NAME_TITLES = ("discord", "ディスコード", "ユーザー名", "username", "名前", "name", "表示名")


@dataclass(frozen=True)
class RowProblem:
    """Why a row was refused (or skipped): a catalog key and its values."""

    line: int
    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    @classmethod
    def of(cls, line: int, error: DomainError) -> RowProblem:
        return cls(line, error.key, MappingProxyType(dict(error.params)))


@dataclass(frozen=True)
class ImportedEntry:
    line: int
    player_id: int
    handle: str | None = None


@dataclass(frozen=True)
class ImportPlan:
    """What an import would do: the entries to register (file order), the rows skipped
    because the player is already entered, and the rows refused."""

    entries: tuple[ImportedEntry, ...]
    skipped: tuple[RowProblem, ...]
    refused: tuple[RowProblem, ...]

    @property
    def accepted(self) -> bool:
        return not self.refused

    def problems(self) -> tuple[RowProblem, ...]:
        """Every refused and skipped row, by line: the lines of a report."""
        return tuple(sorted((*self.refused, *self.skipped), key=lambda problem: problem.line))

    def require_accepted(self) -> tuple[ImportedEntry, ...]:
        """The entries, or InvalidInput(`entry_import.refused`) naming the refused lines;
        the rows' reasons are in `refused` for the reply to list."""
        if self.refused:
            lines = [problem.line for problem in self.refused]
            raise InvalidInput("entry_import.refused", count=len(lines), lines=lines)
        return self.entries


@dataclass(frozen=True)
class _Columns:
    """Where the player's id, name and handle are; `headed`: named by a header row."""

    player_id: int | None
    name: int | None
    handle: int | None
    headed: bool = True


def plan_import(
    data: bytes | str,
    *,
    names: Mapping[str, Collection[int]],
    members: Collection[int],
    entered: Collection[int] = (),
    capacity: int | None = None,
    handles: Mapping[int, str] | None = None,
    barred: Mapping[int, DomainError] | None = None,
) -> ImportPlan:
    """Check every row of `data`.

    `names`: each member name → the ids of the members with it (the caller resolves them;
    compared as people read them, `name_key`); `members`: the server's member ids;
    `entered`: players already entered (skipped); `capacity`: how many more may enter (None:
    no limit); `handles`: the server's handles (player → handle); `barred`: players who may
    not enter again, with the error that says why.

    Raises InvalidInput for a file that cannot be read at all (`entry_import.*`).
    """
    rows = _read_rows(data)
    by_name = _names_by_key(names)
    columns, body = _columns(rows, by_name)
    member_ids = frozenset(members)
    taken_handles = dict(handles or {})
    entries: list[ImportedEntry] = []
    skipped: list[RowProblem] = []
    refused: list[RowProblem] = []
    first_line: dict[int, int] = {}
    handle_line: dict[str, int] = {}
    for line, row in body:
        try:
            player = _player(row, columns, by_name, member_ids)
            if player in entered:
                skipped.append(RowProblem(line, "entry_import.row.already_entered"))
                continue
            if player in first_line:
                raise InvalidInput("entry_import.row.duplicate", first=first_line[player])
            first_line[player] = line
            if barred and player in barred:
                refused.append(RowProblem.of(line, barred[player]))
                continue
            handle = _handle(row, columns, player, taken_handles, handle_line)
            if capacity is not None and len(entries) >= capacity:
                raise InvalidInput("entry_import.row.over_capacity", limit=capacity)
        except DomainError as error:
            refused.append(RowProblem.of(line, error))
            continue
        if handle is not None:
            handle_line[name_key(handle)] = line
        entries.append(ImportedEntry(line, player, handle))
    return ImportPlan(tuple(entries), tuple(skipped), tuple(refused))


def import_allowed(tournament: Tournament) -> bool:
    """Entries are imported while registration is open, before the start (a late entry is
    each player's own: R-FMT-8)."""
    return tournament.phase is Phase.REGISTRATION


def check_import_allowed(tournament: Tournament) -> None:
    """`import_allowed`, or the refusal that says registration is closed."""
    if not import_allowed(tournament):
        raise IllegalTransition("registration.closed", tournament=tournament.name)


def plan_tournament_import(
    data: bytes | str,
    tournament: Tournament,
    *,
    names: Mapping[str, Collection[int]],
    members: Collection[int],
    handles: Mapping[int, str] | None = None,
) -> ImportPlan:
    """`plan_import` for `tournament`: its entries, its capacity and its registration rules.
    Refused as a whole with IllegalTransition(`registration.closed`) once it has started."""
    check_import_allowed(tournament)
    entered = {
        user
        for user, entry in tournament.players.items()
        if entry.status in IN_EVENT or entry.status is PlayerStatus.WAITLISTED
    }
    barred: dict[int, DomainError] = {}
    for user, entry in tournament.players.items():
        if user in entered:
            continue
        try:
            check_may_register_again(tournament, entry)
        except DomainError as error:
            barred[user] = error
    capacity = None
    if tournament.max_players is not None:
        capacity = max(tournament.max_players - tournament.count(*IN_EVENT), 0)
    return plan_import(
        data,
        names=names,
        members=members,
        entered=entered,
        capacity=capacity,
        handles=handles,
        barred=barred,
    )


# -- reading the file ---------------------------------------------------------------------


def _read_rows(data: bytes | str) -> list[tuple[int, list[str]]]:
    """(line, cells) of every row that has something in it."""
    size = byte_size(data)
    if size > MAX_IMPORT_BYTES:
        raise InvalidInput("entry_import.too_large", size=size, limit=MAX_IMPORT_BYTES)
    text = decode(data)
    if text is None:
        raise InvalidInput("entry_import.unreadable")
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    rows: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append((start, cells))
                if len(rows) > MAX_IMPORT_ROWS + 1:  # the header may be one more
                    raise InvalidInput("entry_import.too_many_rows", limit=MAX_IMPORT_ROWS)
            start = reader.line_num + 1
    except csv.Error:
        raise InvalidInput("entry_import.bad_csv", line=start) from None
    if not rows:
        raise InvalidInput("entry_import.empty")
    return rows


def _columns(
    rows: list[tuple[int, list[str]]], by_name: Mapping[str, frozenset[int]]
) -> tuple[_Columns, list[tuple[int, list[str]]]]:
    """The columns, from the header when the first row is one, and the rows after it.

    A first row with a member's name or an id in it is a player, never a header, so a
    player called 「Discord太郎」 is not taken for a column title."""
    cells = rows[0][1]
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        kind = _column_kind(_title(cell))
        if kind is not None:
            found.setdefault(kind, index)
    names_a_player = any(
        _snowflake(cell) is not None or name_key(cell) in by_name for cell in cells
    )
    if not found or names_a_player:
        return _Columns(0, None, 1, headed=False), rows
    if "id" not in found and "name" not in found:
        raise InvalidInput("entry_import.no_player_column")
    body = rows[1:]
    if not body:
        raise InvalidInput("entry_import.empty")
    return _Columns(found.get("id"), found.get("name"), found.get("handle")), body


def _title(cell: str) -> str:
    return unicodedata.normalize("NFKC", cell).casefold().strip()


def _column_kind(title: str) -> str | None:
    if not title or _snowflake(title) is not None:
        return None
    squeezed = "".join(title.split())
    if _ID_TITLE.search(title) or _ID_TITLE.search(squeezed):
        return "id"
    if any(word in squeezed for word in _HANDLE_TITLES):
        return "handle"
    if any(word in squeezed for word in _NAME_TITLES):
        return "name"
    return None


# -- one row ------------------------------------------------------------------------------


def _cell(row: list[str], index: int | None) -> str:
    if index is None or index >= len(row):
        return ""
    return row[index].strip()


def _player(
    row: list[str],
    columns: _Columns,
    by_name: Mapping[str, frozenset[int]],
    members: frozenset[int],
) -> int:
    """The member a row names: by id when the id cell holds one (digits or a mention, which
    must then be valid), else by name. Without a header the first cell is either."""
    id_text = _cell(row, columns.player_id)
    name_text = _cell(row, columns.name)
    if id_text and _looks_like_id(id_text):
        player = _snowflake(id_text)
        if player is None:
            raise InvalidInput("entry_import.row.bad_id", value=id_text[:24])
        if player not in members:
            raise InvalidInput("entry_import.row.not_a_member", id=player)
        return player
    if id_text and not columns.headed:
        return _by_name(id_text, by_name)
    if name_text:
        return _by_name(name_text, by_name)
    if id_text:
        raise InvalidInput("entry_import.row.bad_id", value=id_text[:24])
    raise InvalidInput("entry_import.row.missing_player")


def _looks_like_id(text: str) -> bool:
    """Digits or a mention: meant as an id, even when it is not a valid one."""
    normal = unicodedata.normalize("NFKC", text).strip()
    return normal.isdigit() or normal.startswith("<@")


def _snowflake(text: str) -> int | None:
    normal = unicodedata.normalize("NFKC", text).strip()
    mention = _MENTION.match(normal)
    digits = mention[1] if mention else normal
    low, high = SNOWFLAKE_DIGITS
    if not (digits.isascii() and digits.isdigit() and low <= len(digits) <= high):
        return None
    value = int(digits)
    return value if storable_id(value) else None


def _by_name(text: str, by_name: Mapping[str, frozenset[int]]) -> int:
    name = clean_display_name(text, field="name")
    found = by_name.get(name_key(name), frozenset())
    if not found:
        raise InvalidInput("entry_import.row.unknown_name", name=name)
    if len(found) > 1:
        raise InvalidInput("entry_import.row.ambiguous_name", name=name, count=len(found))
    (player,) = found
    return player


def _handle(
    row: list[str],
    columns: _Columns,
    player: int,
    taken: Mapping[int, str],
    earlier: Mapping[str, int],
) -> str | None:
    text = _cell(row, columns.handle)
    if not text:
        return None
    handle = clean_handle(text)
    first = earlier.get(name_key(handle))
    if first is not None:
        raise InvalidInput("entry_import.row.duplicate_handle", handle=handle, first=first)
    check_handle_free(handle, player, taken)
    return handle


def _names_by_key(names: Mapping[str, Collection[int]]) -> dict[str, frozenset[int]]:
    merged: dict[str, set[int]] = {}
    for name, ids in names.items():
        merged.setdefault(name_key(name), set()).update(ids)
    return {key: frozenset(ids) for key, ids in merged.items()}
