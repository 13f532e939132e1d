"""Every change a person can make to a tournament, as a typed, frozen operation.

An operation says what was asked, with every input it needs (a deck submission carries the
decklist, a settings change the uploaded files' text, a start its random seed), so that the
action log can replay it exactly. `domain.tournament.apply.apply` decides whether it is
allowed: who may make it (`permissions.authorize`), then its rule handler.

Operations are grouped by who may make them: `PlayerOperation`s act on the player's own
entry (staff may act for a player), `JudgeOperation`s need a judge or an organizer, and
`OrganizerOperation`s an organizer. Each has a stable `kind`, its name in the action log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import IntEnum, StrEnum
from typing import Any, ClassVar

from domain.engine.results import MatchResult
from domain.engine.standings import NoShowTiebreak as NoShowTiebreak  # a setting
from domain.event import EventConfig
from domain.tournament import codec
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.rounds import Claim, RoundKind


class Role(IntEnum):
    """Who is asking, as far as the tournament cares. Each role can do what those below can."""

    PLAYER = 1
    JUDGE = 2
    ORGANIZER = 3


@dataclass(frozen=True)
class Actor:
    """The person behind an operation: their user id and their role in this server.

    `staff_roles_configured` only chooses the wording of a refusal: before /setup, server
    managers are the organizers, and the message says so.
    """

    user_id: int
    role: Role = Role.PLAYER
    staff_roles_configured: bool = True


@dataclass(frozen=True)
class Operation:
    kind: ClassVar[str]
    role: ClassVar[Role]

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = codec.encode(self)
        return payload

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Operation:
        decoded: Operation = codec.decode(cls, payload)
        return decoded


@dataclass(frozen=True)
class PlayerOperation(Operation):
    """A change to one player's own entry. `player_id` is the actor, unless staff act."""

    role: ClassVar[Role] = Role.PLAYER


@dataclass(frozen=True)
class JudgeOperation(Operation):
    role: ClassVar[Role] = Role.JUDGE


@dataclass(frozen=True)
class OrganizerOperation(Operation):
    role: ClassVar[Role] = Role.ORGANIZER


class MissingDeckPolicy(StrEnum):
    """What the start does with a player who has no legal list."""

    DROP = "drop"
    START_ANYWAY = "start_anyway"


class Repeat(StrEnum):
    """How often an event comes back (a setting): at its finish, a weekly or fortnightly
    event creates the next one (`domain.series.repeat`)."""

    NONE = "none"  # a one-off copy: the organizer gives the date
    WEEKLY = "weekly"  # 毎週
    BIWEEKLY = "biweekly"  # 隔週

    @property
    def interval(self) -> timedelta | None:
        return {Repeat.WEEKLY: timedelta(weeks=1), Repeat.BIWEEKLY: timedelta(weeks=2)}.get(self)


class RoomSpectators(StrEnum):
    """What a member who is neither a table's player nor staff may do in the match rooms
    (a setting): listen and watch, never speak or stream, or not see them at all."""

    LISTEN = "listen"
    HIDDEN = "hidden"


# -- organizer ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CreateTournament(OrganizerOperation):
    """A new tournament. `copied_from`: the tournament whose settings it copies (「前回と同じ
    設定で作成」, or the next of a repeating event); `repeated`: made by that event's repeat
    at its finish rather than by an organizer's command. The log says so."""

    kind: ClassVar[str] = "create_tournament"
    config: EventConfig
    copied_from: int | None = field(default=None, metadata=codec.when_absent(None))
    repeated: bool = field(default=False, metadata=codec.when_absent(False))


@dataclass(frozen=True)
class SettingsChange:
    """The settings an organizer changes; `None` leaves one as it is. Files carry their text."""

    late_registration_rounds: int | None = None
    decklist_required: bool | None = None
    missing_deck_policy: MissingDeckPolicy | None = None
    starts_at: datetime | None = None
    clear_starts_at: bool = False
    checkin_minutes: int | None = None
    mix_two_minimum: int | None = None
    restricted_list: str | None = None
    titles_file: str | None = None
    card_database: str | None = None
    ex_deck: bool | None = None
    ex_copies_shared: bool | None = None
    noshow_minutes: int | None = None
    noshow_tiebreak: NoShowTiebreak | None = None
    repeat: Repeat | None = field(default=None, metadata=codec.when_absent(None))
    reminders: bool | None = field(default=None, metadata=codec.when_absent(None))
    rooms: bool | None = field(default=None, metadata=codec.when_absent(None))
    room_spectators: RoomSpectators | None = field(default=None, metadata=codec.when_absent(None))
    # Rooms only for tables 1 to N (0: every table): what fits the server.
    room_limit: int | None = field(default=None, metadata=codec.when_absent(None))

    def given(self) -> dict[str, Any]:
        """The settings this change sets, by name (a cleared start time as None)."""
        values = {name: getattr(self, name) for name in SETTING_NAMES}
        given = {name: value for name, value in values.items() if value is not None}
        if self.clear_starts_at:
            given["starts_at"] = None
        return given


SETTING_NAMES = (
    "late_registration_rounds",
    "decklist_required",
    "missing_deck_policy",
    "starts_at",
    "checkin_minutes",
    "mix_two_minimum",
    "restricted_list",
    "titles_file",
    "card_database",
    "ex_deck",
    "ex_copies_shared",
    "noshow_minutes",
    "noshow_tiebreak",
    "repeat",
    "reminders",
    "rooms",
    "room_spectators",
    "room_limit",
)
# R-DECK-4: these decide which lists are legal, so they are locked from the start.
DECK_RULE_SETTINGS = frozenset(
    {
        "mix_two_minimum",
        "restricted_list",
        "titles_file",
        "card_database",
        "ex_deck",
        "ex_copies_shared",
    }
)


@dataclass(frozen=True)
class ChangeSettings(OrganizerOperation):
    kind: ClassVar[str] = "change_settings"
    change: SettingsChange


@dataclass(frozen=True)
class StartTournament(OrganizerOperation):
    kind: ClassVar[str] = "start_tournament"
    seed: int


@dataclass(frozen=True)
class PublishDecks(OrganizerOperation):
    kind: ClassVar[str] = "publish_decks"


@dataclass(frozen=True)
class SetLivePage(OrganizerOperation):
    """Turn the tournament's public live page on or off (/tournament page). The page's
    unguessable address (`slug`) is made by the service and carried here, so a replay of
    the log gives the same address; turning the page off keeps it for the next time on."""

    kind: ClassVar[str] = "set_live_page"
    public: bool
    slug: str


@dataclass(frozen=True)
class RenewLivePage(OrganizerOperation):
    """Give the live page a new unguessable address (its old one leaked): the old address
    shows nothing from then on. Public or hidden stays as it was."""

    kind: ClassVar[str] = "renew_live_page"
    slug: str


# -- players ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Register(PlayerOperation):
    """`display_name`: the player's Discord name; `handle`: their tournament handle
    (ハンドルネーム) on this server, shown instead of it when set."""

    kind: ClassVar[str] = "register"
    player_id: int
    display_name: str
    handle: str | None = field(default=None, metadata=codec.when_absent(None))


@dataclass(frozen=True)
class SetHandle(PlayerOperation):
    """The player set or cleared their handle (/profile handle): the name the event shows
    becomes the handle, or again their Discord name (`display_name`, as it is now)."""

    kind: ClassVar[str] = "set_handle"
    player_id: int
    display_name: str
    handle: str | None = None


@dataclass(frozen=True)
class Unregister(PlayerOperation):
    kind: ClassVar[str] = "unregister"
    player_id: int


@dataclass(frozen=True)
class CheckIn(PlayerOperation):
    kind: ClassVar[str] = "check_in"
    player_id: int


@dataclass(frozen=True)
class SubmitDeck(PlayerOperation):
    """A legal list in its stored (canonical CSV) form; the aggregate checks it again."""

    kind: ClassVar[str] = "submit_deck"
    player_id: int
    decklist: str


# -- rounds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairRound(OrganizerOperation):
    """The next round's tables as the engine paired them from `seed` (kept whole, so the
    log replays to the same tables whatever later versions of the engine would do)."""

    kind: ClassVar[str] = "pair_round"
    round: int
    round_kind: RoundKind
    seed: int
    tables: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class UnpairRound(OrganizerOperation):
    """Take back a pairing that has no results yet (/round repair)."""

    kind: ClassVar[str] = "unpair_round"
    round: int


@dataclass(frozen=True)
class StartRound(OrganizerOperation):
    """Start the round's clock: the tournament's time limit from now (R-MATCH-1)."""

    kind: ClassVar[str] = "start_round"
    round: int


@dataclass(frozen=True)
class ReportResult(PlayerOperation):
    kind: ClassVar[str] = "report_result"
    player_id: int
    round: int
    claim: Claim
    my_points: int | None = None
    opponent_points: int | None = None


@dataclass(frozen=True)
class ConfirmResult(PlayerOperation):
    """The opponent confirms the pending report of their match."""

    kind: ClassVar[str] = "confirm_result"
    player_id: int
    round: int
    table: int


@dataclass(frozen=True)
class DisputeResult(PlayerOperation):
    """The opponent of a report says it is wrong, and what they claim instead (勝ち / 負け /
    時間切れ with both point-zone counts, from their side): the judges see both claims.
    Disputes logged before the claim was asked for carry none, and read back without one."""

    kind: ClassVar[str] = "dispute_result"
    player_id: int
    round: int
    table: int
    reason: str = ""
    claim: Claim | None = field(default=None, metadata=codec.when_absent(None))
    my_points: int | None = field(default=None, metadata=codec.when_absent(None))
    opponent_points: int | None = field(default=None, metadata=codec.when_absent(None))


@dataclass(frozen=True)
class SetResult(JudgeOperation):
    """A judge sets or corrects any result; `advancing` decides a drawn elimination match."""

    kind: ClassVar[str] = "set_result"
    round: int
    table: int
    result: MatchResult
    advancing: int | None = None


@dataclass(frozen=True)
class Drop(PlayerOperation):
    """R-FMT-7: leave the event; not paired from the next round on."""

    kind: ClassVar[str] = "drop"
    player_id: int


@dataclass(frozen=True)
class Undrop(OrganizerOperation):
    kind: ClassVar[str] = "undrop"
    player_id: int


@dataclass(frozen=True)
class ExtendTable(JudgeOperation):
    """R-MATCH-7: more time for one table, after a delayed ruling."""

    kind: ClassVar[str] = "extend_table"
    round: int
    table: int
    minutes: int


@dataclass(frozen=True)
class ExtendRound(JudgeOperation):
    """R-MATCH-7: more time for every table of a round still playing, at once (全体延長:
    after an outage every table waited)."""

    kind: ClassVar[str] = "extend_round"
    round: int
    minutes: int


@dataclass(frozen=True)
class FinishTournament(OrganizerOperation):
    kind: ClassVar[str] = "finish_tournament"


@dataclass(frozen=True)
class CancelTournament(OrganizerOperation):
    """Call the event off before it starts (中止, /tournament cancel)."""

    kind: ClassVar[str] = "cancel_tournament"


# -- judges -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GivePenalty(JudgeOperation):
    kind: ClassVar[str] = "give_penalty"
    player_id: int
    penalty: PenaltyType
    infraction: Infraction
    reason: str
    # R-PEN-4, line 271 「以降」: a disqualification leaves a finished match standing. The
    # payloads logged before this field were applied when it still turned that match into a
    # loss; they read back as False and so fold to the tables they wrote.
    finished_match_stands: bool = field(default=True, metadata=codec.when_absent(False))


@dataclass(frozen=True)
class RevokePenalty(OrganizerOperation):
    kind: ClassVar[str] = "revoke_penalty"
    penalty_id: int


@dataclass(frozen=True)
class RecordNoShow(JudgeOperation):
    """R-MATCH-6: a player not seated gets a game loss, on a judge's decision."""

    kind: ClassVar[str] = "record_no_show"
    round: int
    table: int
    player_id: int


@dataclass(frozen=True)
class CallJudge(PlayerOperation):
    kind: ClassVar[str] = "call_judge"
    player_id: int
    reason: str = ""


@dataclass(frozen=True)
class ClaimCall(JudgeOperation):
    kind: ClassVar[str] = "claim_call"
    call_id: int


@dataclass(frozen=True)
class ResolveCall(JudgeOperation):
    """Close a call; R-MATCH-7: optionally extend the table by the minutes waited."""

    kind: ClassVar[str] = "resolve_call"
    call_id: int
    extension_minutes: int = 0


@dataclass(frozen=True)
class Undo(OrganizerOperation):
    """Take back one earlier operation (by its action-log id): the tournament becomes the
    fold of its log without it. Checked safe before it is logged."""

    kind: ClassVar[str] = "undo"
    action_id: int


# -- registry and roles -----------------------------------------------------------------


def operation_types() -> dict[str, type[Operation]]:
    """Every operation by its kind, as the action log names them."""
    found: dict[str, type[Operation]] = {}
    pending: list[type[Operation]] = [Operation]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if "kind" in sub.__dict__:
                if sub.kind in found:
                    raise ValueError(f"two operations share the kind {sub.kind!r}")
                found[sub.kind] = sub
    return found


def server_role(
    *,
    manages_guild: bool,
    role_ids: frozenset[int],
    organizer_role_id: int | None,
    judge_role_id: int | None,
) -> Role:
    """A member's tournament role from their server roles and the /setup choices.

    Server managers are always organizers, which is also the fallback before /setup.
    """
    if manages_guild or (organizer_role_id is not None and organizer_role_id in role_ids):
        return Role.ORGANIZER
    if judge_role_id is not None and judge_role_id in role_ids:
        return Role.JUDGE
    return Role.PLAYER
