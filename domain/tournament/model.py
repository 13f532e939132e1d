"""The tournament aggregate's data: the event, its settings, its players and their decks.

Plain frozen values. `domain.tournament.apply` applies the operations that change them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime, timedelta
from functools import cached_property
from operator import attrgetter

from domain.decks import DEFAULT_MIX_TWO_MINIMUM, DeckRules
from domain.decks.event_files import deck_rules
from domain.engine.players import PlayerStatus
from domain.engine.state import Phase, TournamentState
from domain.event import EventConfig, EventFormat
from domain.tournament.operations import MissingDeckPolicy, NoShowTiebreak, Repeat, RoomSpectators
from domain.tournament.penalties import JudgeCall, Penalty
from domain.tournament.rounds import Match, Round, RoundKind

_seq = attrgetter("seq")

# Players who take part in the event (before and after the start).
IN_EVENT = frozenset({PlayerStatus.REGISTERED, PlayerStatus.ACTIVE})


@dataclass(frozen=True)
class Entry:
    """One player's entry. `seq` is the arrival order: the waitlist is served by it."""

    user_id: int
    display_name: str
    status: PlayerStatus
    seq: int
    registered_at: datetime
    checked_in_at: datetime | None = None
    joined_round: int = 0  # 0: from the start; k: late entry (R-FMT-8) from round k
    dropped_round: int | None = None  # 0: dropped at the start; None: never dropped
    # `display_name` is the player's handle (ハンドルネーム), not their Discord name: posts
    # show it beside the mention, which every client shows as the Discord name.
    by_handle: bool = False

    @property
    def in_event(self) -> bool:
        return self.status in IN_EVENT


@dataclass(frozen=True)
class StoredDeck:
    """A legal list as stored: canonical CSV, its fingerprint and card count."""

    user_id: int
    canonical: str
    fingerprint: str
    total: int
    submitted_at: datetime
    locked_at: datetime | None = None


@dataclass(frozen=True)
class Settings:
    """What an organizer sets after creating the event (/tournament settings)."""

    late_registration_rounds: int = 0
    decklist_required: bool = True
    missing_deck_policy: MissingDeckPolicy = MissingDeckPolicy.DROP
    starts_at: datetime | None = None
    checkin_minutes: int = 0
    mix_two_minimum: int = DEFAULT_MIX_TWO_MINIMUM
    restricted_list: str | None = None
    titles_file: str | None = None
    card_database: str | None = None
    ex_deck: bool = False  # R-DECK-6: later products' EX deck; the 2014 regulation has none
    ex_copies_shared: bool = True  # the 4-copy rule counts both decks together
    # R-MATCH-6: a no-show is recorded within this of the start. The bot's default, not the
    # regulation's: line 165 leaves it to the judge, so the organizer sets it.
    noshow_minutes: int = 10
    noshow_tiebreak: NoShowTiebreak = NoShowTiebreak.REAL_POINTS
    # Repeating events: the next event is created at the finish (毎週, 隔週), and registered players
    # are reminded before the start (`domain.tournament.reminders`) unless turned off.
    repeat: Repeat = Repeat.NONE
    reminders: bool = True
    # A voice room per played table (対戦部屋, `domain.tournament.rooms`), off unless asked for.
    rooms: bool = False
    room_spectators: RoomSpectators = RoomSpectators.LISTEN
    # Rooms only for tables 1 to N (0: every table), where the server holds no more.
    room_limit: int = 0

    @property
    def uses_checkin(self) -> bool:
        return self.checkin_minutes > 0 and self.starts_at is not None

    @property
    def checkin_opens(self) -> datetime | None:
        """When check-in opens: `checkin_minutes` before the start (None: no check-in)."""
        if not self.uses_checkin or self.starts_at is None:
            return None
        return self.starts_at - timedelta(minutes=self.checkin_minutes)


@dataclass(frozen=True)
class Tournament:
    """One tournament: everything its rules need, nothing about Discord or storage."""

    id: int
    guild_id: int
    config: EventConfig
    created_by: int
    created_at: datetime
    settings: Settings = field(default_factory=Settings)
    state: TournamentState = field(default_factory=TournamentState)
    seed: int | None = None
    started_at: datetime | None = None
    decks_published: bool = False
    # The live web page: its unguessable address once made, and whether it is on.
    page_slug: str | None = None
    page_public: bool = False
    players: Mapping[int, Entry] = field(default_factory=dict)
    decks: Mapping[int, StoredDeck] = field(default_factory=dict)
    rounds: tuple[Round, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    calls: tuple[JudgeCall, ...] = ()

    # -- what the rest of the bot reads -------------------------------------------------

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def format(self) -> EventFormat:
        return self.config.format

    # The event's choices and settings, read flat by the presentation layer.
    @property
    def regulation(self) -> str:
        return self.config.regulation

    @property
    def top_cut(self) -> int | None:
        return self.config.top_cut

    @property
    def time_limit_minutes(self) -> int:
        return self.config.time_limit_minutes

    @property
    def titles(self) -> tuple[str, ...]:
        return self.config.titles

    @property
    def max_players(self) -> int | None:
        return self.config.max_players

    @property
    def event_date(self) -> date:
        return self.config.event_date

    @property
    def decklist_required(self) -> bool:
        return self.settings.decklist_required

    @property
    def late_registration_rounds(self) -> int:
        return self.settings.late_registration_rounds

    @property
    def checkin_minutes(self) -> int:
        return self.settings.checkin_minutes

    @property
    def starts_at(self) -> datetime | None:
        return self.settings.starts_at

    @property
    def restricted_list(self) -> str | None:
        return self.settings.restricted_list

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def is_open(self) -> bool:
        """Not over: neither finished nor cancelled (中止)."""
        return not self.phase.over

    @property
    def round_count(self) -> int | None:
        """The rounds fixed at the start, or before it the organizer's override (None: auto)."""
        return (
            self.state.planned_rounds
            if self.phase is not Phase.REGISTRATION
            else (self.config.rounds)
        )

    @cached_property
    def next_seq(self) -> int:
        """The next arrival number (entries are kept, even unregistered ones)."""
        return max(map(_seq, self.players.values()), default=0) + 1

    def with_arrival(self, entry: Entry) -> Tournament:
        """This tournament with `entry`, numbered `next_seq`, added (or replacing the
        player's old entry). The arrival number after it is known without looking at every
        entry again (4,096 registrations would look at 8 million)."""
        assert entry.seq == self.next_seq, (entry.seq, self.next_seq)
        players = dict(self.players)
        players[entry.user_id] = entry
        updated = replace(self, players=players)
        updated.__dict__["next_seq"] = entry.seq + 1  # what `next_seq` would find
        return updated

    def with_deck(self, deck: StoredDeck) -> Tournament:
        """This tournament with `deck` stored for its player (the entries untouched: what
        was worked out from them still holds)."""
        decks = dict(self.decks)
        decks[deck.user_id] = deck
        updated = replace(self, decks=decks)
        if "next_seq" in self.__dict__:
            updated.__dict__["next_seq"] = self.__dict__["next_seq"]
        return updated

    @property
    def current_round(self) -> int:
        """The number of the last round paired (0 before the first)."""
        return self.rounds[-1].number if self.rounds else 0

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 0 < number <= len(self.rounds) else None

    def through(self, number: int) -> Tournament:
        """The tournament as it stood after round `number`: the rounds paired since taken
        away, so that what a round says (its standings) is what it said then, however late
        it is told."""
        if number >= len(self.rounds):
            return self
        kept = self.rounds[: max(number, 0)]
        state = self.state
        if state.phase in (Phase.TOP_CUT, Phase.FINISHED):  # not yet, after round `number`
            cut = any(played.kind is RoundKind.ELIMINATION for played in kept)
            state = replace(state, phase=Phase.TOP_CUT if cut else Phase.RUNNING)
        return replace(self, rounds=kept, state=state)

    def with_round(self, updated: Round) -> Tournament:
        """This tournament with round `updated.number` replaced by `updated`."""
        assert self.round(updated.number) is not None, updated.number
        position = updated.number - 1  # rounds are numbered from 1, in order (see `round`)
        rounds = self.rounds[:position] + (updated,) + self.rounds[position + 1 :]  # noqa: RUF005
        # Copied field by field: `dataclasses.replace` cost more than the rest of a report
        # (every report and confirmation comes here). The entries are untouched, so what
        # was worked out from them still holds.
        copied = object.__new__(Tournament)
        known, carried = self.__dict__, copied.__dict__
        for name in _FIELD_NAMES:
            carried[name] = known[name]
        carried["rounds"] = rounds
        if "next_seq" in known:
            carried["next_seq"] = known["next_seq"]
        return copied

    def with_match(self, number: int, match: Match) -> Tournament:
        """This tournament with the match at `match.table` of round `number` replaced."""
        target = self.round(number)
        assert target is not None, number
        return self.with_round(target.with_match(match))

    @property
    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.kind is RoundKind.SWISS)

    def entries(self, *statuses: PlayerStatus) -> list[Entry]:
        """Players in arrival order, optionally only those with one of `statuses`."""
        ordered = sorted(self.players.values(), key=lambda entry: entry.seq)
        return [entry for entry in ordered if not statuses or entry.status in statuses]

    def count(self, *statuses: PlayerStatus) -> int:
        return sum(1 for entry in self.players.values() if entry.status in statuses)

    def checkin_open(self, at: datetime) -> bool:
        """Whether players can check in now: from the window's opening until the start."""
        opens = self.settings.checkin_opens
        return self.phase is Phase.REGISTRATION and opens is not None and at >= opens

    def page_url(self, base_url: str | None) -> str | None:
        """The live page as the public reaches it (`WEB_BASE_URL` and its unguessable
        address), or None while the page is off or the bot serves no page."""
        if not self.page_public or self.page_slug is None or not base_url:
            return None
        return f"{base_url.rstrip('/')}/t/{self.page_slug}"

    def deck_rules(self) -> DeckRules:
        return event_deck_rules(self.config, self.settings)


# The tournament's own fields (not what `cached_property` keeps beside them), copied by
# `Tournament.with_round`.
_FIELD_NAMES = tuple(f.name for f in fields(Tournament))


def event_deck_rules(config: EventConfig, settings: Settings) -> DeckRules:
    """The rules an event's lists are checked against: its regulation and date, and the
    organizer's settings."""
    return deck_rules(
        regulation=config.regulation,
        date=config.event_date,
        designated_titles=config.titles,
        mix_two_minimum=settings.mix_two_minimum,
        restricted_list=settings.restricted_list,
        titles_file=settings.titles_file,
        card_database=settings.card_database,
        ex_deck=settings.ex_deck,
        ex_copies_shared=settings.ex_copies_shared,
    )
