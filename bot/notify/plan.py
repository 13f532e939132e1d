"""The plan: who is told what, where, and in which language, for each thing that happened.

Pure: it reads the domain's events and the tournament before and after the operation, and
returns `Notice`s. The unit of work writes them to the outbox in the operation's own
transaction (so nothing said is lost to a crash), and the delivery (`bot.delivery`)
sends them. Answering the person who acted is not a notice: the cog does that at once.

`PLAN` has one row per event class of `domain.tournament.events`; a test fails when an event
has no row. A row that returns `[]` tells nobody, on purpose, and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.notify.payloads import (
    AskOpponent,
    BeforeRound,
    CallReping,
    Claims,
    ClockReminder,
    Count,
    Decision,
    Dispute,
    EntryReminder,
    Extension,
    Nothing,
    NoticeDropped,
    OfCall,
    OfPenalty,
    OfPlayer,
    OfRound,
    OfTable,
    OfTables,
    Payload,
    PenaltyGiven,
    PenaltyRevoked,
    PlaceRefused,
    PlayerInRound,
    Playing,
    Reasons,
    ResultSet,
    RoomsRefused,
    RoundExtension,
    TableInRound,
    Unconfirmed,
    Undo,
    read_as,
)
from domain.engine.results import MatchResult
from domain.tournament import events as ev
from domain.tournament.clock import Notice as ClockNotice
from domain.tournament.clock import NoticeKind
from domain.tournament.model import Tournament
from domain.tournament.reminders import Reminder
from domain.tournament.rounds import Report, RoundKind


class Place(StrEnum):
    """Where a notice goes. A notice names several, tried in order until one works."""

    PLAYER = "player"  # a DM to `Notice.user`; closed DMs: a private notice at their next command
    # a DM to `Notice.user` only where the round has no reports thread (the thread told them)
    PLAYER_WITHOUT_THREAD = "player_without_thread"
    # a DM to `Notice.user` only where neither the table's match room nor the round's
    # reports thread told them
    PLAYER_WITHOUT_ROOM = "player_without_room"
    # the text chat of the table's match room this round (a voice channel's own chat):
    # what the bot tells one table during the round, where the event has rooms
    TABLE_ROOM = "table_room"
    ROUND_THREAD = "round_thread"  # the reports thread of the notice's round
    ROUND_CHANNEL = "round_channel"  # the channel the round's pairings were posted in
    PAIRINGS = "pairings"  # the server's pairings channel (/setup)
    STANDINGS = "standings"
    ANNOUNCEMENTS = "announcements"
    JUDGES = "judges"  # the judge-call channel, else the log channel; pings the judge role
    LOG = "log"  # the record of staff actions
    ORIGIN = "origin"  # the channel the command was used in
    STAFF = "staff"  # the staff's channel (/setup), else the log channel
    REGISTRATION_POST = "registration_post"  # an edit of the tournament's registration post
    PANEL = "panel"  # an edit of the tournament's newest panel
    PAIRINGS_POST = "pairings_post"  # edits of the parts of the round's pairings post
    # The server's calendar: the tournament's Discord scheduled event, made once and then
    # brought in step (its id is remembered; bot/delivery).
    CALENDAR = "calendar"
    # The tournament's match rooms: its voice channels made, given to the round's tables or
    # removed, brought in step with the tournament as it is (bot/delivery/rooms.py).
    ROOMS = "rooms"


class Say(StrEnum):
    """What is said: each has one renderer in `bot.ui.notices`."""

    REGISTRATION_POST = "registration_post"
    # the registration post's embed and buttons, brought up to date
    REGISTRATION_REFRESH = "registration_refresh"
    PANEL = "panel"  # the organizer's panel: the state, and the next steps as buttons
    PANEL_REFRESH = "panel_refresh"  # the panel, brought up to date
    ROUND_COMPLETE = "round_complete"  # every result is in: the button for the next step
    PROMOTED = "promoted"
    STARTED = "started"
    DECKS_PUBLISHED = "decks_published"
    PAIRINGS = "pairings"
    # the pairings post brought up to date: each finished table marked with its result
    PAIRINGS_REFRESH = "pairings_refresh"
    CLOCK_STARTED = "clock_started"
    ASK_OPPONENT = "ask_opponent"
    RESULT_CONFIRMED = "result_confirmed"
    DISPUTE = "dispute"
    RESULT_SET = "result_set"  # the staff's log of a judge's decision
    # a table's players told that a judge (a ruling, a no-show, a penalty) decided their match
    RESULT_DECIDED = "result_decided"
    DROPPED_AT_START = "dropped_at_start"  # the reason, and what they could have done
    STANDINGS = "standings"
    DROPPED = "dropped"
    TABLE_EXTENDED = "table_extended"
    # every table still playing got more time (全体延長): said once where the round is read
    ROUND_EXTENDED = "round_extended"
    FINAL_STANDINGS = "final_standings"
    PENALTY_TO_PLAYER = "penalty_to_player"
    PENALTY_GIVEN = "penalty_given"
    PENALTY_REVOKED = "penalty_revoked"
    JUDGE_CALL = "judge_call"
    UNDONE = "undone"
    REMINDER = "reminder"
    TIME_UP = "time_up"
    UNCONFIRMED = "unconfirmed"
    CALL_REPING = "call_reping"
    CALENDAR = "calendar"  # the scheduled event as the tournament is now (time, status)
    ROOMS = "rooms"  # the match rooms as the tournament is now (made, given, removed)
    # Discord refused the match rooms (the server full, a permission taken away): the
    # staff hear it once, with what to do; the tables without a room play as without rooms
    ROOMS_REFUSED = "rooms_refused"
    CANCELLED = "cancelled"  # the event was called off (中止)
    CANCELLED_TO_PLAYER = "cancelled_to_player"
    ENTRY_REMINDER = "entry_reminder"  # 24 hours / 1 hour before check-in closes
    # What the delivery tells the staff and players of Discord itself:
    PLACE_REFUSED = "place_refused"  # a channel refuses the bot: what is missing, the fix
    NOTICE_DROPPED = "notice_dropped"  # a notice given up after Discord failed it for long
    REFUSALS_WARNING = "refusals_warning"  # many refused requests: Discord may ban the bot
    # A player's table by DM: the round's pairings post could go nowhere players read.
    TABLE_BY_DM = "table_by_dm"


class Lead(StrEnum):
    """What a notice goes before: the later notices of its round, of its table, or of its
    whole tournament wait until it is sent (wherever they go), because what they say or
    where they go needs it (a round's reports thread is opened on its pairings post)."""

    NOTHING = "nothing"
    ROUND = "round"
    TABLE = "table"
    TOURNAMENT = "tournament"


class After(StrEnum):
    """What the delivery does once a notice's messages are posted."""

    NOTHING = "nothing"
    OPEN_THREAD = "open_thread"  # the round's reports thread, on the first message
    ENTRY_POST = "entry_post"  # remembered as the tournament's registration post


@dataclass(frozen=True)
class Traits:
    """One kind of notice: what it carries, and how the delivery treats it. Every `Say` has
    its traits in `TRAITS`; a test fails when one is missing."""

    # What a notice of this kind carries (`bot.notify.payloads`): a `Notice` with another
    # type of payload is refused when the plan writes it.
    payload: type[Payload]
    # An edit that brings one post up to date: only the newest of a post counts (a burst
    # of results edits the panel once, not once per result).
    refresh: bool = False
    # Reads every player of the event (every table, every line of the standings): rendered
    # off the event loop.
    heavy: bool = False
    # Heavy work that goes before any other: what every player looks for at once.
    first: bool = False
    lead: Lead = Lead.NOTHING
    after: After = After.NOTHING
    # One table's line: several waiting for the same place share one message (a round's
    # reports thread takes about one post a second; a round can have 2,048 tables).
    gathers: bool = False
    # A staff decision for one table: goes before other tables' lines waiting for the same
    # place (never before an earlier line of its own table).
    urgent: bool = False


def line(payload: type[Payload]) -> Traits:
    return Traits(payload, gathers=True)


def decision(payload: type[Payload]) -> Traits:
    return Traits(payload, gathers=True, urgent=True)


TRAITS: Mapping[Say, Traits] = {
    # A refresh before its post finds no post to edit: the post shows the tournament as it is.
    Say.REGISTRATION_POST: Traits(Nothing, after=After.ENTRY_POST),
    Say.REGISTRATION_REFRESH: Traits(Nothing, refresh=True),
    Say.PANEL: Traits(Nothing),
    Say.PANEL_REFRESH: Traits(Nothing, refresh=True),
    Say.ROUND_COMPLETE: Traits(OfRound),
    Say.PROMOTED: Traits(OfPlayer),
    Say.STARTED: Traits(Playing),
    Say.DECKS_PUBLISHED: Traits(Count),
    Say.PAIRINGS: Traits(OfRound, heavy=True, first=True, lead=Lead.ROUND, after=After.OPEN_THREAD),
    Say.PAIRINGS_REFRESH: Traits(OfRound, refresh=True, heavy=True),
    Say.CLOCK_STARTED: Traits(OfRound),
    Say.ASK_OPPONENT: line(AskOpponent),
    Say.RESULT_CONFIRMED: line(OfTable),
    Say.DISPUTE: Traits(Dispute, lead=Lead.TABLE),  # the judges see it before its decision
    Say.RESULT_SET: line(ResultSet),
    Say.RESULT_DECIDED: decision(Decision),
    Say.DROPPED_AT_START: Traits(Reasons),
    Say.STANDINGS: Traits(OfRound, heavy=True),
    Say.DROPPED: line(PlayerInRound),
    Say.TABLE_EXTENDED: decision(Extension),
    Say.ROUND_EXTENDED: Traits(RoundExtension),
    # The closed registration post links the final standings.
    Say.FINAL_STANDINGS: Traits(Nothing, heavy=True, first=True, lead=Lead.TOURNAMENT),
    Say.PENALTY_TO_PLAYER: Traits(OfPenalty, urgent=True),
    Say.PENALTY_GIVEN: line(PenaltyGiven),
    Say.PENALTY_REVOKED: line(PenaltyRevoked),
    Say.JUDGE_CALL: Traits(OfCall),
    Say.UNDONE: line(Undo),
    Say.REMINDER: Traits(ClockReminder),
    Say.TIME_UP: Traits(OfTables),
    Say.UNCONFIRMED: line(Unconfirmed),
    Say.CALL_REPING: Traits(CallReping),
    Say.CALENDAR: Traits(Nothing, refresh=True),
    # A round's rooms are given to its tables before its post names them.
    Say.ROOMS: Traits(BeforeRound, refresh=True, lead=Lead.ROUND),
    Say.ROOMS_REFUSED: Traits(RoomsRefused),
    Say.CANCELLED: Traits(Nothing),
    Say.CANCELLED_TO_PLAYER: Traits(Nothing),
    Say.ENTRY_REMINDER: Traits(EntryReminder),
    Say.PLACE_REFUSED: Traits(PlaceRefused),
    Say.NOTICE_DROPPED: Traits(NoticeDropped),
    Say.REFUSALS_WARNING: Traits(Count),
    Say.TABLE_BY_DM: Traits(TableInRound),
}


NOTHING = Nothing()


@dataclass(frozen=True)
class Notice:
    """One thing to tell: what, where (in order of preference), and what it needs to say it.

    `data` is the payload of the type `say`'s traits declare (`bot.notify.payloads`): what
    the message needs beyond the tournament as it is when the notice is sent. A payload of
    another type is refused here, when the plan writes the notice. `key`, when set, makes
    the notice unique: it is planned at most once ever (the clock's notices).
    """

    say: Say
    places: tuple[Place, ...]
    data: Payload = NOTHING
    user: int | None = None  # Place.PLAYER's person
    key: str | None = None

    def __post_init__(self) -> None:
        wanted = TRAITS[self.say].payload
        if type(self.data) is not wanted:
            raise TypeError(
                f"a {self.say.value} notice carries {wanted.__name__},"
                f" not {type(self.data).__name__}"
            )


def stored_payload(say: Say, data: object) -> Payload:
    """A stored notice's payload, read back from the JSON `Payload.to_json` wrote (or an
    older version of it) as the type `say` declares; `Unreadable` when it does not read,
    so that one bad row fails only its own notice."""
    return read_as(TRAITS[say].payload, data)


@dataclass(frozen=True)
class Context:
    """What an operation's plan may read besides its events."""

    before: Tournament | None  # None for the creation
    after: Tournament
    operation: str  # the operation's kind
    actor_id: int
    actor_name: str  # shown in the staff's log ("set by …")


Row = Callable[[Any, Context], list[Notice]]

# A round's post, and its clock's notices: where players read, falling back to the
# announcements when the pairings channel refuses the bot (a permission taken, deleted).
ROUND_POST = (Place.PAIRINGS, Place.ANNOUNCEMENTS, Place.ORIGIN)
ROUND_CLOCK = (Place.ROUND_CHANNEL, Place.PAIRINGS, Place.ANNOUNCEMENTS)
# A round's standings: where players read them, the announcements when the standings
# channel refuses the bot or was never chosen, so that no round's standings are lost.
STANDINGS_PLACES = (Place.STANDINGS, Place.ANNOUNCEMENTS)


def nobody(why: str) -> Row:
    """A row that tells nobody: `why` documents the decision where the table is read."""

    def told_to_nobody(event: ev.Event, context: Context) -> list[Notice]:
        return []

    told_to_nobody.__doc__ = why
    return told_to_nobody


def _claims(tournament: Tournament, number: int, table: int) -> Claims:
    """Both players' reports as they stand now (a judge's decision clears them later)."""
    return tuple(
        (report.player_id, report.result) for report in _reports(tournament, number, table)
    )


def _to_table(
    say: Say,
    data: OfTable,
    context: Context,
    *,
    in_room: bool = False,
) -> list[Notice]:
    """Both players of the table `data` is about: in the round's reports thread, named
    there once; where the round has no thread, each by DM. `in_room`: what the bot tells
    the table during the round (a judge's decision, an extension) goes first to the chat of
    the table's match room, where the event has rooms."""
    played = context.after.round(data.round)
    match = played.match_at(data.table) if played else None
    if match is None or not match.players:
        return []
    first, *others = match.players
    places: tuple[Place, ...]
    if in_room and context.after.settings.rooms:
        places = (Place.TABLE_ROOM, Place.ROUND_THREAD, Place.PLAYER)
        rest: tuple[Place, ...] = (Place.PLAYER_WITHOUT_ROOM,)
    else:
        places, rest = (Place.ROUND_THREAD, Place.PLAYER), (Place.PLAYER_WITHOUT_THREAD,)
    told = [Notice(say, places, data, user=first)]
    told += [Notice(say, rest, data, user=other) for other in others]
    return told


def _result_now(context: Context, number: int, table: int) -> MatchResult | None:
    """A table's result as the operation left it (a snapshot for the message)."""
    played = context.after.round(number)
    match = played.match_at(table) if played else None
    return match.result if match else None


def _created(event: ev.TournamentCreated, context: Context) -> list[Notice]:
    # R-FMT-6: the format and time limit are announced before the event, on a post whose
    # buttons are all a player needs to take part; the staff get their panel.
    # A start time comes with the settings (a copy's in the same transaction): then the
    # calendar hears of it.
    return [
        Notice(Say.REGISTRATION_POST, (Place.ANNOUNCEMENTS, Place.ORIGIN)),
        Notice(Say.PANEL, (Place.STAFF,)),
    ]


def calendar_now() -> Notice:
    """The tournament's entry on the server's calendar, brought in step with it as it is
    when the notice is sent (only the newest of these counts)."""
    return Notice(Say.CALENDAR, (Place.CALENDAR,))


def on_calendar(context: Context) -> list[Notice]:
    """The calendar brought in step, for a tournament that has a start time (one without
    never had an entry on it)."""
    return [calendar_now()] if context.after.starts_at is not None else []


def _in_calendar(row: Row) -> Row:
    """`row`, and the calendar brought in step: the event's status changed."""

    def told_and_calendar(event: ev.Event, context: Context) -> list[Notice]:
        return [*row(event, context), *on_calendar(context)]

    told_and_calendar.__doc__ = row.__doc__
    return told_and_calendar


def rooms_now(number: int | None = None) -> Notice:
    """The tournament's match rooms brought in step with it as it is when the notice is
    sent; with `number`, before round `number`'s post (which names them)."""
    return Notice(Say.ROOMS, (Place.ROOMS,), BeforeRound(number))


def with_rooms(context: Context) -> list[Notice]:
    """The rooms brought in step, where the tournament has (or had) them."""
    had = context.before is not None and context.before.settings.rooms
    return [rooms_now()] if had or context.after.settings.rooms else []


def _promoted(event: ev.Promoted, context: Context) -> list[Notice]:
    return [Notice(Say.PROMOTED, (Place.ANNOUNCEMENTS,), OfPlayer(event.player_id))]


def _settings_changed(event: ev.SettingsChanged, context: Context) -> list[Notice]:
    # The registration post shows the start time and the check-in window; the calendar
    # shows the start time (a copy's settings come with its creation: its entry is made).
    told = [Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,))]
    if "starts_at" in event.names:
        told.append(calendar_now())
    if ROOM_SETTINGS & set(event.names) and context.after.started_at is not None:
        told += with_rooms(context)  # made, or removed, at once (before the start: at it)
        if context.after.current_round:  # the round's post says which tables have rooms
            told.append(
                Notice(
                    Say.PAIRINGS_REFRESH,
                    (Place.PAIRINGS_POST,),
                    OfRound(context.after.current_round),
                )
            )
    return told


ROOM_SETTINGS = frozenset({"rooms", "room_spectators", "room_limit"})


def _cancelled(event: ev.Cancelled, context: Context) -> list[Notice]:
    """中止: announced, the registration post loses its buttons, each player who entered is
    told (by DM, else at their next command), and the calendar entry is cancelled."""
    told = [
        Notice(Say.CANCELLED, (Place.ANNOUNCEMENTS, Place.ORIGIN)),
        Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,)),
        *on_calendar(context),
        *with_rooms(context),
    ]
    told += [
        Notice(Say.CANCELLED_TO_PLAYER, (Place.PLAYER,), user=player) for player in event.entered
    ]
    return told


def _started(event: ev.Started, context: Context) -> list[Notice]:
    """The start is announced and the registration post closes; each player it removed is
    told why, and what would have kept them in."""
    told = [
        Notice(
            Say.STARTED,
            (Place.ANNOUNCEMENTS, Place.ORIGIN),
            Playing(len(event.playing)),
        ),
        Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,)),
        *with_rooms(context),  # the first round's rooms, made before it is paired
    ]
    for player in event.dropped:
        reasons = [
            reason
            for reason, who in (
                ("no_checkin", event.not_checked_in),
                ("no_deck", event.without_deck),
            )
            if player in who
        ]
        told.append(Notice(Say.DROPPED_AT_START, (Place.PLAYER,), Reasons(tuple(reasons)), player))
    return told


def _published(event: ev.DecksPublished, context: Context) -> list[Notice]:
    return [Notice(Say.DECKS_PUBLISHED, (Place.ANNOUNCEMENTS, Place.ORIGIN), Count(event.count))]


def _paired(event: ev.RoundPaired, context: Context) -> list[Notice]:
    # Where players read: the pairings channel, else the announcements; the channel the
    # organizer pressed in only if every member can read it (bot/delivery/places.py).
    told = [rooms_now(event.round)] if context.after.settings.rooms else []
    told.append(Notice(Say.PAIRINGS, ROUND_POST, OfRound(event.round)))
    if context.after.late_registration_rounds:  # the post's 途中参加 may close now
        told.append(Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,)))
    return told


def _round_completed(event: ev.RoundCompleted, context: Context) -> list[Notice]:
    """The staff are prompted for the next step; after a Swiss round, everyone gets the
    standings (the top cut's progress is its pairings and bracket, not the Swiss table)."""
    told = [Notice(Say.ROUND_COMPLETE, (Place.STAFF,), OfRound(event.round))]
    played = context.after.round(event.round)
    if played is not None and played.kind is RoundKind.SWISS:
        told.append(Notice(Say.STANDINGS, STANDINGS_PLACES, OfRound(event.round)))
    return told


def _clock_started(event: ev.ClockStarted, context: Context) -> list[Notice]:
    return [Notice(Say.CLOCK_STARTED, ROUND_CLOCK, OfRound(event.round))]


def _report_filed(event: ev.ReportFiled, context: Context) -> list[Notice]:
    played = context.after.round(event.round)
    match = played.match_at(event.table) if played else None
    opponent = match.opponent_of(event.player_id) if match else None
    if opponent is None:
        return []
    return [
        Notice(
            Say.ASK_OPPONENT,
            (Place.ROUND_THREAD, Place.PLAYER),
            AskOpponent(event.round, event.table, event.player_id),
            user=opponent,
        )
    ]


def _disagree(event: ev.ReportsDisagree, context: Context) -> list[Notice]:
    return [_dispute(event.round, event.table, context)]


def _disputed(event: ev.ResultDisputed, context: Context) -> list[Notice]:
    return [_dispute(event.round, event.table, context, event.player_id, event.reason)]


def _dispute(
    number: int, table: int, context: Context, disputer: int | None = None, reason: str = ""
) -> Notice:
    """The judges see both claims (a dispute's: who disputed, and why), with a button for
    each decision."""
    claims = _claims(context.after, number, table)
    data = Dispute(number, table, claims, disputer, reason if disputer is not None else "")
    return Notice(Say.DISPUTE, (Place.JUDGES,), data)


def _confirmed(event: ev.ResultConfirmed, context: Context) -> list[Notice]:
    """Both players hear the result: in the round's thread, or each by DM where there is
    none (or it is gone, the channel deleted)."""
    return _to_table(Say.RESULT_CONFIRMED, OfTable(event.round, event.table), context)


def _result_set(event: ev.ResultSet, context: Context) -> list[Notice]:
    """The table's players hear the decision and who made it; a ruling goes to the staff's
    log too (a no-show is answered to the judge who gave it)."""
    decided = Decision(event.round, event.table, event.new, context.actor_name)
    told = _to_table(Say.RESULT_DECIDED, decided, context, in_room=True)
    if context.operation == "set_result":
        data = ResultSet(event.round, event.table, event.old, event.new, context.actor_name)
        told.append(Notice(Say.RESULT_SET, (Place.LOG,), data))
    return told


def _dropped(event: ev.Dropped, context: Context) -> list[Notice]:
    data = PlayerInRound(event.after_round, event.player_id)
    return [Notice(Say.DROPPED, (Place.LOG,), data)]


def tables_extended(context: Context) -> list[Notice]:
    """Any table whose time the operation moved hears its new end, whatever moved it (/judge
    extend, a judge call resolved with extra minutes): their reminders follow it from now on."""
    told: list[Notice] = []
    if context.before is None:
        return told
    for played in context.after.rounds:
        earlier = context.before.round(played.number)
        if earlier is None or earlier.matches is played.matches:
            continue
        for was, now in zip(earlier.matches, played.matches, strict=False):
            if now.extension_minutes == was.extension_minutes:
                continue
            ends = played.table_ends_at(now)
            if ends is None:
                continue
            data = Extension(
                played.number,
                now.table,
                added=now.extension_minutes - was.extension_minutes,
                total=now.extension_minutes,
                ends=int(ends.timestamp()),
            )
            told += _to_table(Say.TABLE_EXTENDED, data, context, in_room=True)
    return told


def _round_extended(event: ev.RoundExtended, context: Context) -> list[Notice]:
    """全体延長: said once where the round is read, with how many tables and the new end of
    a table without an earlier extension; each table also hears its own new end
    (`tables_extended`, as for any table whose time moved)."""
    ends = int(event.ends_at.timestamp())
    data = RoundExtension(event.round, event.minutes, len(event.tables), ends)
    return [Notice(Say.ROUND_EXTENDED, ROUND_CLOCK, data)]


def _finished(event: ev.Finished, context: Context) -> list[Notice]:
    places = (Place.STANDINGS, Place.ANNOUNCEMENTS, Place.ORIGIN)
    return [
        Notice(Say.FINAL_STANDINGS, places),
        # after the final standings, so that the closed post can link them
        Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,)),
        *with_rooms(context),  # removed
    ]


def _penalty_given(event: ev.PenaltyGiven, context: Context) -> list[Notice]:
    """The player hears of their penalty privately, the log who gave it; a penalty that
    decides a match (R-PEN-3) is told to both of its players."""
    penalty = event.penalty
    told = [
        Notice(Say.PENALTY_TO_PLAYER, (Place.PLAYER,), OfPenalty(penalty.id), penalty.player_id),
        Notice(Say.PENALTY_GIVEN, (Place.LOG,), PenaltyGiven(penalty.id, context.actor_name)),
    ]
    if penalty.effect is not None:
        number, table = penalty.effect.round, penalty.effect.table
        new = _result_now(context, number, table)
        data = Decision(number, table, new, context.actor_name, penalty=penalty.id)
        told += _to_table(Say.RESULT_DECIDED, data, context, in_room=True)
    return told


def _penalty_revoked(event: ev.PenaltyRevoked, context: Context) -> list[Notice]:
    """The log hears who revoked it; a match the penalty had decided goes back, and both of
    its players are told."""
    data = PenaltyRevoked(event.penalty.id, context.actor_name)
    told = [Notice(Say.PENALTY_REVOKED, (Place.LOG,), data)]
    if event.penalty.effect is not None:
        number, table = event.penalty.effect.round, event.penalty.effect.table
        new = _result_now(context, number, table)
        decided = Decision(number, table, new, context.actor_name, revoked=event.penalty.id)
        told += _to_table(Say.RESULT_DECIDED, decided, context, in_room=True)
    return told


def _called(event: ev.JudgeCalled, context: Context) -> list[Notice]:
    return [Notice(Say.JUDGE_CALL, (Place.JUDGES,), OfCall(event.call.id))]


def _undone(event: ev.Undone, context: Context) -> list[Notice]:
    data = Undo(event.action_id, event.kind, event.payload, event.actor_id, context.actor_name)
    return [Notice(Say.UNDONE, (Place.LOG,), data)]


PLAN: Mapping[type[ev.Event], Row] = {
    ev.TournamentCreated: _created,
    ev.Registered: nobody("the player's own answer says it; the post's count is not shown"),
    ev.Unregistered: nobody("the player's own answer says it"),
    ev.Promoted: _promoted,
    ev.CheckedIn: nobody("the player's own answer says it"),
    ev.DeckStored: nobody("decklists are private until published"),
    ev.SettingsChanged: _settings_changed,
    ev.Started: _in_calendar(_started),
    ev.DecksPublished: _published,
    ev.RoundPaired: _paired,
    ev.RoundUnpaired: nobody("the organizer pairs again at once; the new post replaces it"),
    ev.RoundCompleted: _round_completed,
    ev.ClockStarted: _clock_started,
    ev.ReportFiled: _report_filed,
    ev.ReportsDisagree: _disagree,
    ev.ResultConfirmed: _confirmed,
    ev.ResultDisputed: _disputed,
    ev.ResultSet: _result_set,
    ev.Dropped: _dropped,
    ev.Undropped: nobody("the organizer's own answer says it"),
    ev.TableExtended: nobody("told by the rule for every table whose time moved (tables_extended)"),
    ev.RoundExtended: _round_extended,
    ev.Finished: _in_calendar(_finished),
    ev.Cancelled: _cancelled,
    ev.NameChanged: nobody(
        "posts from now on show the new name; those already made keep the one they had"
    ),
    ev.PenaltyGiven: _penalty_given,
    ev.PenaltyRevoked: _penalty_revoked,
    ev.JudgeCalled: _called,
    ev.CallClaimed: nobody("the judge's press edits the call's own post"),
    ev.CallResolved: nobody("the judge's press edits the call's own post"),
    ev.Undone: _undone,
    ev.LivePageChanged: _in_calendar(  # the calendar entry's place is the page while public
        nobody("the organizer's answer carries the link; posts and the panel carry it from then on")
    ),
}


def missing_rows(kinds: Iterable[type[ev.Event]]) -> list[type[ev.Event]]:
    """The event classes the plan has no row for (each must have one, if only `nobody`)."""
    return [kind for kind in kinds if kind not in PLAN]


def plan(events: Sequence[ev.Event], context: Context) -> list[Notice]:
    """Every notice of one operation, in the order its events happened; then the tables
    whose time moved, the pairings posts whose results changed, and the staff's panel,
    brought up to date (the delivery sends only the newest of each)."""
    notices: list[Notice] = []
    for event in events:
        notices += PLAN[type(event)](event, context)
    notices += tables_extended(context)
    notices += [
        Notice(Say.PAIRINGS_REFRESH, (Place.PAIRINGS_POST,), OfRound(number))
        for number in results_changed(context.before, context.after)
    ]
    if events and not isinstance(events[0], ev.TournamentCreated):
        notices.append(Notice(Say.PANEL_REFRESH, (Place.PANEL,)))
    return notices


def results_changed(before: Tournament | None, after: Tournament) -> list[int]:
    """The rounds, paired before the operation, whose results it changed (however: a
    report confirmed, a judge's ruling, a penalty, an undo)."""
    if before is None:
        return []
    changed = []
    for played in after.rounds:
        earlier = before.round(played.number)
        if (
            earlier is not None
            and earlier.matches is not played.matches
            and [m.result for m in earlier.matches] != [m.result for m in played.matches]
        ):
            changed.append(played.number)
    return changed


# -- the round clock's notices ------------------------------------------------------------


def plan_clock(notice: ClockNotice, tournament: Tournament, unconfirmed_minutes: int = 0) -> Notice:
    """A notice of the round clock: posted once, whatever process or restart sees it due.
    `unconfirmed_minutes` is how long a report waits before the judges hear of it."""
    key = f"clock:{tournament.id}:{notice.round}:{notice.key}"
    number, tables = notice.round, notice.tables
    if notice.kind is NoticeKind.REMINDER:
        reminder = ClockReminder(number, tables, notice.minutes_left)
        return Notice(Say.REMINDER, ROUND_CLOCK, reminder, key=key)
    if notice.kind is NoticeKind.TIME_UP:
        return Notice(Say.TIME_UP, ROUND_CLOCK, OfTables(number, tables), key=key)
    if notice.kind is NoticeKind.CALL_REPING:
        reping = CallReping(number, tables, notice.call_id)
        return Notice(Say.CALL_REPING, (Place.JUDGES,), reping, key=key)
    (table,) = tables
    claims = _claims(tournament, number, table)
    waiting = Unconfirmed(number, tables, unconfirmed_minutes, claims)
    return Notice(Say.UNCONFIRMED, (Place.JUDGES,), waiting, key=key)


def plan_clock_rooms(notice: ClockNotice, tournament: Tournament) -> list[Notice]:
    """Where the event has match rooms, a reminder and the time-up instruction also go to
    each of their tables' rooms, into its chat, where the players sit (each planned once;
    the round's channel keeps its one post for everyone). A table whose room refuses, or
    that has none, reads the round's channel as without rooms."""
    if not tournament.settings.rooms or notice.kind not in (
        NoticeKind.REMINDER,
        NoticeKind.TIME_UP,
    ):
        return []
    shared = plan_clock(notice, tournament)
    return [
        Notice(
            shared.say,
            (Place.TABLE_ROOM,),
            replace(shared.data.as_(OfTables), tables=(table,)),
            key=f"{shared.key}:room{table}",
        )
        for table in notice.tables
    ]


def _reports(tournament: Tournament, number: int, table: int) -> Sequence[Report]:
    played = tournament.round(number)
    match = played.match_at(table) if played else None
    return match.reports if match else ()


# -- what the staff ask for, outside any operation -----------------------------------------


def panel_here(channel_id: int | None) -> Notice:
    """/tournament panel: a new panel where the command was used (the newest is kept up to
    date)."""
    return Notice(Say.PANEL, (Place.ORIGIN,), Nothing(origin=channel_id))


def standings_now(number: int) -> Notice:
    """The standings after round `number`, posted when the staff ask for them."""
    return Notice(Say.STANDINGS, STANDINGS_PLACES, OfRound(number))


# -- the reminders before an event ---------------------------------------------------------


def plan_reminder(reminder: Reminder) -> Notice:
    """A registered player's reminder of the start: by DM, else at their next command;
    planned once ever (its key)."""
    data = EntryReminder(reminder.hours, int(reminder.deadline.timestamp()))
    return Notice(
        Say.ENTRY_REMINDER, (Place.PLAYER,), data, user=reminder.player_id, key=reminder.key
    )


# -- what the delivery says of Discord itself --------------------------------------------------


def place_refused(
    channel_id: int, place: Place, reason: str, missing: Sequence[str], since: datetime
) -> Notice:
    """The staff hear once that a channel refuses the bot: which, what is missing (the
    permissions by name), and where its notices go meanwhile. Planned once per refusal
    (`since`: when it began; a channel that works again and then refuses is told again)."""
    data = PlaceRefused(channel_id, place.value, reason, tuple(missing))
    key = f"refused:{channel_id}:{int(since.timestamp())}"
    return Notice(Say.PLACE_REFUSED, (Place.STAFF,), data, key=key)


def rooms_refused(
    tournament_id: int, number: int, reason: str, missing: Sequence[str], waiting: int
) -> Notice:
    """The staff hear once a round (and once before the first) that Discord refused the
    match rooms: why (`reason`, the permissions `missing`), how many tables of the round
    are left without a room (`waiting`), and what to do."""
    data = RoomsRefused(number, reason, tuple(missing), waiting)
    key = f"rooms-refused:{tournament_id}:{number}:{reason}"
    return Notice(Say.ROOMS_REFUSED, (Place.STAFF,), data, key=key)


def notice_dropped(notice_id: int, say: Say, error: str) -> Notice:
    """The staff hear of a notice Discord failed for so long that it was given up."""
    data = NoticeDropped(say.value, error[:200], notice=notice_id)
    return Notice(Say.NOTICE_DROPPED, (Place.STAFF,), data, key=f"dropped:{notice_id}")


def notice_nowhere(tournament_id: int, say: Say, place: Place) -> Notice:
    """The staff hear that a notice had no place that works (its channel never chosen, or
    refusing the bot, with no fallback that works): once per tournament and place."""
    data = NoticeDropped(say.value, "", nowhere=place.value)
    return Notice(
        Say.NOTICE_DROPPED, (Place.STAFF,), data, key=f"nowhere:{tournament_id}:{place.value}"
    )


def refusals_warning(count: int, window: int, guild_id: int) -> Notice:
    """A server's staff hear that Discord refused many of the bot's requests (window: the
    warning's ten minutes, so that one burst is told once per server)."""
    key = f"refusals:{guild_id}:{window}"
    return Notice(Say.REFUSALS_WARNING, (Place.STAFF,), Count(count), key=key)


def tables_by_dm(number: int, players: Iterable[int], tournament_id: int) -> list[Notice]:
    """Each player of round `number` hears their table by DM (else at their next command):
    the round's pairings could be posted nowhere players read. Planned once per player."""
    return [
        Notice(
            Say.TABLE_BY_DM,
            (Place.PLAYER,),
            TableInRound(number),
            user=player,
            key=f"table-dm:{tournament_id}:{number}:{player}",
        )
        for player in players
    ]
