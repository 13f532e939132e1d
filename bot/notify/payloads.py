"""What each kind of notice carries: a small frozen dataclass per shape, named for what it
holds. Each `Say` declares its payload's type in its traits (`bot.notify.plan.TRAITS`), and
a `Notice` refuses a payload of another type, so the plan cannot write what its renderer
does not read.

Pure: the standard library and the domain. The plan builds payloads; the outbox stores them
as JSON (`Payload.to_json`) and reads them back (`Payload.from_json`); the delivery reads
what it needs of any notice through the base class's properties (`about_round`,
`about_tables`, `about_table`), and a renderer reads its kind's fields by name.

The JSON keys are the fields' names, the values as `domain.tournament.codec` writes them. A
field with a default is left out while it holds its default and read as its default when a
stored notice lacks it; a field added later that is always written says in its metadata
(`codec.when_absent`) what a notice without it meant; keys a payload does not know are
ignored. So a notice written before an upgrade, still waiting in the outbox, reads as it
was meant.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from domain.engine.results import MatchResult
from domain.errors import InvalidInput
from domain.tournament import codec

P = TypeVar("P", bound="Payload")

# Each player's report of a table, as it stood when the notice was planned.
Claims = tuple[tuple[int, MatchResult], ...]


@dataclass(frozen=True)
class Payload:
    """What a notice needs beyond the tournament as it is when the notice is sent (a
    snapshot where the tournament may move on: the claims of a dispute, a judge's old and
    new result)."""

    # The channel the command was used in, for a notice that may go there (`Place.ORIGIN`):
    # set by the unit of work that writes the notice, not by the plan.
    origin: int | None = field(default=None, kw_only=True)

    @property
    def about_round(self) -> int | None:
        """The round the notice is about: it goes to that round's thread or channel, and
        waits for that round's post where its kind follows it (`Lead.ROUND`)."""
        return None

    @property
    def about_tables(self) -> tuple[int, ...]:
        """The tables of `about_round` the notice is about."""
        return ()

    @property
    def about_table(self) -> int | None:
        """The one table the notice is about, when it is about one."""
        tables = self.about_tables
        return tables[0] if len(tables) == 1 else None

    @property
    def rooms_round(self) -> int | None:
        """The round whose match rooms the message names (the tournament's current round
        when None)."""
        return self.about_round

    def as_(self, kind: type[P]) -> P:
        """This payload as `kind`, the type its notice's kind declares."""
        if not isinstance(self, kind):
            raise TypeError(f"a {type(self).__name__} payload is not a {kind.__name__}")
        return self

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: each field by its name, those at their default left out."""
        encoded: dict[str, Any] = codec.encode(self)
        return {
            name: encoded[name]
            for name, default in _defaults(type(self)).items()
            if default is _REQUIRED or getattr(self, name) != default
        }

    @classmethod
    def from_json(cls: type[P], data: Mapping[str, Any]) -> P:
        """The payload `to_json` wrote, or an older notice's: a field it lacks is read as
        its default, a key this payload does not know is ignored. A required field missing
        or of the wrong type raises `InvalidInput`."""
        present = {
            name: codec.encode(default) if name not in data else data[name]
            for name, default in _defaults(cls).items()
            if name in data or default is not _REQUIRED
        }
        return codec.decode(cls, present)


_REQUIRED = object()
_DEFAULTS: dict[type[Payload], dict[str, object]] = {}


def _defaults(cls: type[Payload]) -> dict[str, object]:
    """Each field's default, `_REQUIRED` for a field without one (worked out once per
    class: the outbox reads thousands of notices in a burst)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = {
            each.name: each.default if each.default is not dataclasses.MISSING else _REQUIRED
            for each in dataclasses.fields(cls)
        }
    return found


@dataclass(frozen=True)
class Nothing(Payload):
    """Nothing: the message reads the tournament as it is when it is sent."""


@dataclass(frozen=True)
class OfRound(Payload):
    """A round's notice: its post, its standings, its clock."""

    round: int

    @property
    def about_round(self) -> int | None:
        return self.round


@dataclass(frozen=True)
class BeforeRound(Payload):
    """The match rooms brought in step; with `round`, before that round's post (which
    names them) and only with the rooms there are."""

    round: int | None = None

    @property
    def about_round(self) -> int | None:
        return self.round


@dataclass(frozen=True)
class OfTable(OfRound):
    """One table of a round."""

    table: int

    @property
    def about_tables(self) -> tuple[int, ...]:
        return (self.table,)


@dataclass(frozen=True)
class AskOpponent(OfTable):
    """The opponent asked to confirm `reporter`'s report."""

    reporter: int


@dataclass(frozen=True)
class Dispute(OfTable):
    """The judges shown both claims; a dispute's: who disputed, and why."""

    claims: Claims
    disputer: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class ResultSet(OfTable):
    """A judge's ruling, for the staff's log: the result before and after."""

    old: MatchResult | None
    new: MatchResult
    judge: str


@dataclass(frozen=True)
class Decision(OfTable):
    """A table's players told that a judge decided their match (a ruling, a no-show, a
    penalty that decides it, or that penalty revoked), and by whom."""

    new: MatchResult | None
    judge: str
    penalty: int | None = None
    revoked: int | None = None


@dataclass(frozen=True)
class Extension(OfTable):
    """A table's time moved: the minutes added now and in all, and its new end (a Unix
    timestamp)."""

    added: int
    total: int
    ends: int


@dataclass(frozen=True)
class RoundExtension(OfRound):
    """Every table of the round still playing got `minutes` more (全体延長): how many
    tables, and when a table without an earlier extension now ends (a Unix timestamp)."""

    minutes: int
    tables: int
    ends: int


@dataclass(frozen=True)
class PlayerInRound(OfRound):
    """A player who left after `round`."""

    player: int


@dataclass(frozen=True)
class OfTables(OfRound):
    """Some tables of a round: the round clock's notices."""

    tables: tuple[int, ...]

    @property
    def about_tables(self) -> tuple[int, ...]:
        return self.tables


@dataclass(frozen=True)
class ClockReminder(OfTables):
    """`minutes` left for the tables."""

    minutes: int


@dataclass(frozen=True)
class CallReping(OfTables):
    """A judge call nobody claimed yet."""

    call: int


@dataclass(frozen=True)
class Unconfirmed(OfTables):
    """A report waiting `minutes` for its opponent: the claims as they stand."""

    minutes: int
    claims: Claims


@dataclass(frozen=True)
class TableInRound(Payload):
    """A player's table in round `of_round`, by DM. The round is not `about_round`: the
    DM goes because the round's post could go nowhere, so it must not wait for it."""

    of_round: int

    @property
    def rooms_round(self) -> int | None:
        return self.of_round


@dataclass(frozen=True)
class OfPlayer(Payload):
    player: int


@dataclass(frozen=True)
class Playing(Payload):
    """How many play."""

    players: int


@dataclass(frozen=True)
class Count(Payload):
    """How many: decklists published, requests Discord refused."""

    count: int


@dataclass(frozen=True)
class Reasons(Payload):
    """Why the start removed a player (`no_checkin`, `no_deck`)."""

    reasons: tuple[str, ...]


@dataclass(frozen=True)
class OfPenalty(Payload):
    penalty: int


@dataclass(frozen=True)
class PenaltyGiven(OfPenalty):
    judge: str


@dataclass(frozen=True)
class PenaltyRevoked(OfPenalty):
    organizer: str


@dataclass(frozen=True)
class OfCall(Payload):
    call: int


@dataclass(frozen=True)
class Undo(Payload):
    """An operation taken back: its log row as it was logged, and who took it back."""

    action: int
    kind: str
    payload: dict[str, Any]
    actor: int
    organizer: str


@dataclass(frozen=True)
class EntryReminder(Payload):
    """A player's reminder `hours` before `deadline` (a Unix timestamp)."""

    hours: int
    deadline: int


@dataclass(frozen=True)
class PlaceRefused(Payload):
    """A channel that refuses the bot: the place it serves, why, the permissions missing."""

    channel: int
    place: str
    reason: str
    missing: tuple[str, ...]


@dataclass(frozen=True)
class RoomsRefused(Payload):
    """Discord refused the match rooms before round `round_of`: why, the permissions
    missing, how many of its tables are left without a room."""

    round_of: int
    reason: str
    missing: tuple[str, ...]
    waiting: int = field(metadata=codec.when_absent(0))  # counted since: 0 before


@dataclass(frozen=True)
class NoticeDropped(Payload):
    """A notice given up (`notice`, after `error`), or one with no place that works
    (`nowhere`)."""

    kind: str
    error: str
    notice: int | None = None
    nowhere: str | None = None


@dataclass(frozen=True)
class Unreadable(Payload):
    """A stored notice whose data does not read as its kind's payload: kept as stored, so
    that only its own renderer fails (and the notice is given up), not the outbox."""

    stored: dict[str, Any]
    error: str


def read_as(kind: type[Payload], data: object) -> Payload:
    """Stored `data` read as `kind`, or `Unreadable` when it does not read."""
    if not isinstance(data, dict):
        return Unreadable({}, f"expected an object, got {type(data).__name__}")
    try:
        return kind.from_json(data)
    except InvalidInput as error:
        return Unreadable(dict(data), str(error))


def payload_types() -> list[type[Payload]]:
    """Every kind of payload a notice may carry (`Unreadable` only comes from storage)."""
    return [
        value
        for value in globals().values()
        if isinstance(value, type)
        and issubclass(value, Payload)
        and value not in (Payload, Unreadable)
    ]
