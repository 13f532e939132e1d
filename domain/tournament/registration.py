"""The rules before play: registration and its waitlist (R-REG), check-in, decklists and
their lock at the start (R-DECK-4), the organizer's settings and the start itself.

Each handler takes the tournament, the operation, the time and the actor, and returns the
new tournament and what happened; a refusal raises a typed, keyed error naming the rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar

from domain.decks import check_deck, read_stored_decklist
from domain.decks.event_files import FILE_SETTINGS, validate_rule_file
from domain.engine.players import PlayerStatus
from domain.engine.rounds import default_rounds
from domain.engine.state import Phase
from domain.errors import DomainError, IllegalTransition, InvalidInput
from domain.event import EventConfig, clean_display_name
from domain.handles import clean_handle, shown_name
from domain.tournament import events as ev
from domain.tournament.handlers import Applied, Handler
from domain.tournament.model import Entry, Settings, StoredDeck, Tournament, event_deck_rules
from domain.tournament.operations import (
    DECK_RULE_SETTINGS,
    Actor,
    CancelTournament,
    ChangeSettings,
    CheckIn,
    MissingDeckPolicy,
    Operation,
    PublishDecks,
    Register,
    RenewLivePage,
    SetHandle,
    SetLivePage,
    StartTournament,
    SubmitDeck,
    Unregister,
)
from domain.tournament.rooms import ROOM_LIMIT

MINIMUM_PLAYERS = 2
LATE_REGISTRATION_ROUNDS = (0, 30)
CHECKIN_MINUTES = (0, 24 * 60)
MIX_TWO_MINIMUM = (1, 30)
NOSHOW_MINUTES = (0, 60)  # R-REG-3: two titles share 60 cards, so each has at most 30


# -- registration -------------------------------------------------------------------------


def shown_entry_name(display_name: str, handle: str | None) -> str:
    """The name an entry is shown under: the player's handle when they set one, else their
    Discord name; each checked by its own rule (a handle is chosen, so stricter)."""
    return shown_name(clean_display_name(display_name), clean_handle(handle) if handle else None)


def _register(tournament: Tournament, op: Register, at: datetime, actor: Actor) -> Applied:
    name = shown_entry_name(op.display_name, op.handle)
    joined_round = _entry_round(tournament)
    existing = tournament.players.get(op.player_id)
    if existing is not None:
        check_may_register_again(tournament, existing)
    full = tournament.config.max_players is not None and (
        tournament.count(PlayerStatus.REGISTERED, PlayerStatus.ACTIVE)
        >= tournament.config.max_players
    )
    if full:
        status = PlayerStatus.WAITLISTED
    elif tournament.phase is Phase.REGISTRATION:
        status = PlayerStatus.REGISTERED
    else:
        status = PlayerStatus.ACTIVE
    entry = Entry(
        user_id=op.player_id,
        display_name=name,
        status=status,
        seq=tournament.next_seq,
        registered_at=at,
        joined_round=joined_round,
        by_handle=bool(op.handle),
    )
    updated = tournament.with_arrival(entry)
    position = updated.count(PlayerStatus.WAITLISTED) if full else None
    return updated, (ev.Registered(op.player_id, position, joined_round),)


def _entry_round(tournament: Tournament) -> int:
    """0 before the start; the next round while late entry is open (R-FMT-8); else refused."""
    if tournament.phase is Phase.REGISTRATION:
        return 0
    late = late_entry_round(tournament)
    if late is not None:
        return late
    raise IllegalTransition("registration.closed", tournament=tournament.name)


def late_entry_round(tournament: Tournament) -> int | None:
    """R-FMT-8: the round a late entrant would join from, while the event runs and late
    entry is open; None otherwise."""
    next_round = tournament.current_round + 1
    if (
        tournament.phase is Phase.RUNNING
        and next_round <= tournament.settings.late_registration_rounds
    ):
        return next_round
    return None


def check_may_register_again(tournament: Tournament, existing: Entry) -> None:
    """Registering again: after unregistering, yes; a player dropped at the start (no deck or
    no check-in, never paired) may come back as a late entrant; anyone else may not."""
    status = existing.status
    if status in (PlayerStatus.REGISTERED, PlayerStatus.ACTIVE):
        raise InvalidInput("registration.already_registered", tournament=tournament.name)
    if status is PlayerStatus.WAITLISTED:
        raise InvalidInput("registration.already_waitlisted", tournament=tournament.name)
    if status is PlayerStatus.DISQUALIFIED:
        raise IllegalTransition("registration.disqualified", tournament=tournament.name)
    if existing.dropped_round not in (None, 0):
        # R-FMT-7: a drop after playing is taken back only by an organizer (/undrop).
        raise IllegalTransition(
            "registration.dropped_ask_organizer", tournament=tournament.name, rule="R-FMT-7"
        )


def _unregister(tournament: Tournament, op: Unregister, at: datetime, actor: Actor) -> Applied:
    if tournament.phase is not Phase.REGISTRATION:
        # R-FMT-7: once it has started, leaving is a drop, told to the judges.
        raise IllegalTransition(
            "registration.started_use_drop", tournament=tournament.name, rule="R-FMT-7"
        )
    entry = tournament.players.get(op.player_id)
    if entry is None or entry.status not in (PlayerStatus.REGISTERED, PlayerStatus.WAITLISTED):
        raise InvalidInput("registration.not_registered", tournament=tournament.name)
    players = _with(
        tournament.players,
        op.player_id,
        replace(entry, status=PlayerStatus.DROPPED, dropped_round=None, checked_in_at=None),
    )
    happened: list[ev.Event] = [ev.Unregistered(op.player_id)]
    waitlist = tournament.entries(PlayerStatus.WAITLISTED)
    if entry.status is PlayerStatus.REGISTERED and waitlist:
        first = waitlist[0]
        players = _with(players, first.user_id, replace(first, status=PlayerStatus.REGISTERED))
        happened.append(ev.Promoted(first.user_id))
    decks = _without(tournament.decks, op.player_id)
    return replace(tournament, players=players, decks=decks), tuple(happened)


def _set_handle(tournament: Tournament, op: SetHandle, at: datetime, actor: Actor) -> Applied:
    """The player's name in an event not over yet becomes their new handle (or their Discord
    name again); a finished event keeps the name it was played under."""
    if tournament.phase.over:
        raise IllegalTransition("tournament.finished", name=tournament.name)
    entry = tournament.players.get(op.player_id)
    if entry is None:
        raise InvalidInput("registration.not_registered", tournament=tournament.name)
    name = shown_entry_name(op.display_name, op.handle)
    if name == entry.display_name and entry.by_handle == bool(op.handle):
        return tournament, ()
    renamed = replace(entry, display_name=name, by_handle=bool(op.handle))
    players = _with(tournament.players, op.player_id, renamed)
    changed = ev.NameChanged(op.player_id, entry.display_name, name)
    return replace(tournament, players=players), (changed,)


def _cancel(tournament: Tournament, op: CancelTournament, at: datetime, actor: Actor) -> Applied:
    """中止: only before the start (a started event is finished, its results standing)."""
    if tournament.phase is Phase.CANCELLED:
        raise IllegalTransition("tournament.already_cancelled", name=tournament.name)
    if tournament.phase is not Phase.REGISTRATION:
        raise IllegalTransition("tournament.cancel_after_start", name=tournament.name)
    entered = tuple(
        entry.user_id
        for entry in tournament.entries(PlayerStatus.REGISTERED, PlayerStatus.WAITLISTED)
    )
    cancelled = replace(tournament, state=tournament.state.cancel())
    return cancelled, (ev.Cancelled(entered),)


def _check_in(tournament: Tournament, op: CheckIn, at: datetime, actor: Actor) -> Applied:
    settings = tournament.settings
    if tournament.phase is not Phase.REGISTRATION:
        raise IllegalTransition("checkin.already_started", tournament=tournament.name)
    opens = settings.checkin_opens
    if opens is None:
        raise IllegalTransition("checkin.not_used", tournament=tournament.name)
    if not tournament.checkin_open(at):
        raise IllegalTransition("checkin.not_open_yet", opens=int(opens.timestamp()))
    entry = tournament.players.get(op.player_id)
    if entry is None or entry.status is not PlayerStatus.REGISTERED:
        raise InvalidInput("registration.not_registered", tournament=tournament.name)
    if entry.checked_in_at is not None:
        return tournament, (ev.CheckedIn(op.player_id),)  # twice is once
    checked = replace(entry, checked_in_at=at)
    players = _with(tournament.players, op.player_id, checked)
    return replace(tournament, players=players), (ev.CheckedIn(op.player_id),)


# -- decks --------------------------------------------------------------------------------


def check_submission_allowed(tournament: Tournament, player_id: int) -> None:
    """May this player store a list now? Registered (or waitlisted) before the start; after
    it, only a late entrant's first list (R-DECK-4 locks every other)."""
    entry = tournament.players.get(player_id)
    if entry is None or entry.status not in (
        PlayerStatus.REGISTERED,
        PlayerStatus.WAITLISTED,
        PlayerStatus.ACTIVE,
    ):
        raise InvalidInput("submission.register_first", tournament=tournament.name)
    late_entry = entry.joined_round > 0 and player_id not in tournament.decks
    if tournament.phase is not Phase.REGISTRATION and not late_entry:
        raise IllegalTransition("submission.locked", tournament=tournament.name, rule="R-DECK-4")


@dataclass(frozen=True)
class StoredCheck:
    """What the rules said of a stored list: whether it is legal (and the rules it breaks),
    and the fingerprint and card count stored with it."""

    legal: bool
    rules: tuple[str, ...]
    fingerprint: str
    total: int


def stored_check(tournament: Tournament, canonical: str) -> StoredCheck:
    """A stored list checked against the event's current rules. The same list under the
    same event and settings is checked once (the start re-checks every list; a replay of
    the log checks each submission again): the check is a pure function of those."""
    return _stored_check(canonical, tournament.config, tournament.settings)


@lru_cache(maxsize=8192)
def _stored_check(canonical: str, config: EventConfig, settings: Settings) -> StoredCheck:
    rules = event_deck_rules(config, settings)
    check = check_deck(read_stored_decklist(canonical), rules)
    if not check.legal:
        broken = tuple(sorted({violation.rule for violation in check.violations}))
        return StoredCheck(False, broken, "", check.total)
    return StoredCheck(True, (), check.fingerprint, check.total)


def _submit_deck(tournament: Tournament, op: SubmitDeck, at: datetime, actor: Actor) -> Applied:
    check_submission_allowed(tournament, op.player_id)
    check = stored_check(tournament, op.decklist)
    if not check.legal:
        raise InvalidInput("submission.not_legal", rules=check.rules)
    deck = StoredDeck(
        user_id=op.player_id,
        canonical=op.decklist,
        fingerprint=check.fingerprint,
        total=check.total,
        submitted_at=at,
        locked_at=at if tournament.phase is not Phase.REGISTRATION else None,
    )
    updated = tournament.with_deck(deck)
    return updated, (ev.DeckStored(op.player_id, deck.fingerprint, deck.total),)


def deck_rules_changeable(tournament: Tournament) -> bool:
    """R-DECK-4: the settings that decide which lists are legal (the restricted list, the
    card database …) change only before the start, when the lists are locked."""
    return tournament.phase is Phase.REGISTRATION


def check_deck_rules_changeable(tournament: Tournament) -> None:
    """`deck_rules_changeable`, or the refusal that says the lists are locked (R-DECK-4)."""
    if not deck_rules_changeable(tournament):
        raise IllegalTransition("tournament.deck_rules_locked", rule="R-DECK-4")


def publish_allowed(tournament: Tournament) -> bool:
    """The lists are made public once, after the start (an event called off has none to
    show)."""
    return (
        tournament.phase not in (Phase.REGISTRATION, Phase.CANCELLED)
        and not tournament.decks_published
    )


def _publish(tournament: Tournament, op: PublishDecks, at: datetime, actor: Actor) -> Applied:
    if tournament.phase is Phase.REGISTRATION:
        raise IllegalTransition("submission.publish_too_early", name=tournament.name)
    if tournament.decks_published:
        raise IllegalTransition("submission.already_published", name=tournament.name)
    published = replace(tournament, decks_published=True)
    return published, (ev.DecksPublished(len(tournament.decks)),)


# The address of a live page: at least 128 random bits in URL-safe base64 (22 characters).
PAGE_SLUG = re.compile(r"[A-Za-z0-9_-]{22,64}")


def _set_live_page(tournament: Tournament, op: SetLivePage, at: datetime, actor: Actor) -> Applied:
    """The organizer shows or hides the tournament's public page; nothing else changes."""
    if not PAGE_SLUG.fullmatch(op.slug):
        raise InvalidInput("web.bad_slug")
    if op.public == tournament.page_public:
        key = "web.page_already_on" if op.public else "web.page_already_off"
        raise IllegalTransition(key, name=tournament.name)
    updated = replace(tournament, page_slug=op.slug, page_public=op.public)
    return updated, (ev.LivePageChanged(op.public),)


def _renew_live_page(
    tournament: Tournament, op: RenewLivePage, at: datetime, actor: Actor
) -> Applied:
    """The organizer moves the page to a new address; the old one is forgotten."""
    if not PAGE_SLUG.fullmatch(op.slug) or op.slug == tournament.page_slug:
        raise InvalidInput("web.bad_slug")
    if tournament.page_slug is None:
        raise IllegalTransition("web.page_never_on", name=tournament.name)
    updated = replace(tournament, page_slug=op.slug)
    return updated, (ev.LivePageChanged(tournament.page_public),)


# -- settings and the start ---------------------------------------------------------------


def _change_settings(
    tournament: Tournament, op: ChangeSettings, at: datetime, actor: Actor
) -> Applied:
    given = op.change.given()
    if tournament.phase is Phase.FINISHED:
        raise IllegalTransition("tournament.finished", name=tournament.name)
    if tournament.phase is Phase.CANCELLED:
        raise IllegalTransition("tournament.cancelled", name=tournament.name)
    if not given:
        raise InvalidInput("tournament.no_settings_given")
    if set(given) & DECK_RULE_SETTINGS:
        check_deck_rules_changeable(tournament)  # R-DECK-4: locked lists, locked rules
    _check_setting_ranges(given)
    for name in FILE_SETTINGS:
        text = given.get(name)
        if isinstance(text, str):
            validate_rule_file(name, text)
    settings = replace(tournament.settings, **given)
    return replace(tournament, settings=settings), (ev.SettingsChanged(tuple(given)),)


def _check_setting_ranges(given: Mapping[str, Any]) -> None:
    ranges = {
        "late_registration_rounds": (LATE_REGISTRATION_ROUNDS, "tournament.bad_late_rounds"),
        "checkin_minutes": (CHECKIN_MINUTES, "tournament.bad_checkin_minutes"),
        "mix_two_minimum": (MIX_TWO_MINIMUM, "tournament.bad_mix_two_minimum"),
        "noshow_minutes": (NOSHOW_MINUTES, "tournament.bad_noshow_minutes"),
        "room_limit": (ROOM_LIMIT, "rooms.bad_limit"),
    }
    for name, ((low, high), key) in ranges.items():
        value = given.get(name)
        if value is not None and not low <= value <= high:
            raise InvalidInput(key, value=value, low=low, high=high, setting=name)


def _start(tournament: Tournament, op: StartTournament, at: datetime, actor: Actor) -> Applied:
    if tournament.phase is not Phase.REGISTRATION:
        raise IllegalTransition("tournament.already_started", name=tournament.name)
    plan = StartPlan(tournament)
    playing = [entry for entry in plan.registered if entry.user_id not in plan.dropped]
    rounds = tournament.config.rounds or default_rounds(len(playing))
    players = dict(tournament.players)
    for entry in plan.registered:
        if entry.user_id in plan.dropped:
            players[entry.user_id] = replace(entry, status=PlayerStatus.DROPPED, dropped_round=0)
        else:
            players[entry.user_id] = replace(entry, status=PlayerStatus.ACTIVE)
    decks = {
        user: replace(deck, locked_at=deck.locked_at or at)
        for user, deck in tournament.decks.items()
    }
    started = replace(
        tournament,
        state=tournament.state.start(rounds),
        seed=op.seed,
        started_at=at,
        players=players,
        decks=decks,
    )
    event = ev.Started(
        playing=tuple(entry.user_id for entry in playing),
        without_deck=plan.without_deck,
        dropped=tuple(entry.user_id for entry in plan.registered if entry.user_id in plan.dropped),
        not_checked_in=plan.not_checked_in,
    )
    return started, (event,)


def start_allowed(tournament: Tournament) -> bool:
    """Whether `StartTournament` would be accepted now: enough players left once those the
    start would drop (no list, no check-in) are left out."""
    try:
        StartPlan(tournament)
    except DomainError:
        return False
    return tournament.phase is Phase.REGISTRATION


def without_legal_deck(tournament: Tournament, entries: Iterable[Entry]) -> tuple[int, ...]:
    """Who of `entries` has no stored list that is legal under the rules of today (every
    stored list checked again: the organizer may have changed the rules since)."""
    return tuple(
        entry.user_id
        for entry in entries
        if entry.user_id not in tournament.decks
        or not stored_check(tournament, tournament.decks[entry.user_id].canonical).legal
    )


class StartPlan:
    """Who the start drops, and why (re-checking every stored list under today's rules)."""

    def __init__(self, tournament: Tournament) -> None:
        self.registered = tournament.entries(PlayerStatus.REGISTERED)
        settings = tournament.settings
        self.not_checked_in: tuple[int, ...] = ()
        if settings.uses_checkin:
            self.not_checked_in = tuple(
                entry.user_id for entry in self.registered if entry.checked_in_at is None
            )
        self.without_deck: tuple[int, ...] = ()
        if settings.decklist_required:
            self.without_deck = without_legal_deck(tournament, self.registered)
        dropped = set(self.not_checked_in)
        if settings.missing_deck_policy is MissingDeckPolicy.DROP:
            dropped |= set(self.without_deck)
        self.dropped = frozenset(dropped)
        self.playing = len(self.registered) - len(self.dropped)
        if self.playing < MINIMUM_PLAYERS:
            raise IllegalTransition(
                "tournament.not_enough_players",
                count=self.playing,
                minimum=MINIMUM_PLAYERS,
                registered=len(self.registered),
                reasons=self._why_dropped(tournament),
            )

    def _why_dropped(self, tournament: Tournament) -> tuple[DomainError, ...]:
        """Who the start would leave out, by name, for each reason (what an organizer can
        change: the players' decks or check-ins, or the settings)."""
        names = {entry.user_id: entry.display_name for entry in self.registered}
        reasons = []
        no_deck = [names[user] for user in self.without_deck if user in self.dropped]
        if no_deck:
            reasons.append(InvalidInput("tournament.excluded_without_deck", names=no_deck))
        if self.not_checked_in:
            late = [names[user] for user in self.not_checked_in]
            reasons.append(InvalidInput("tournament.excluded_not_checked_in", names=late))
        return tuple(reasons)


# -- helpers ------------------------------------------------------------------------------

K = TypeVar("K")
V = TypeVar("V")


def _with(mapping: Mapping[K, V], key: K, value: V) -> dict[K, V]:
    updated = dict(mapping)
    updated[key] = value
    return updated


def _without(mapping: Mapping[K, V], key: K) -> dict[K, V]:
    return {k: v for k, v in mapping.items() if k != key}


HANDLERS: dict[type[Operation], Handler] = {
    Register: _register,
    Unregister: _unregister,
    CheckIn: _check_in,
    SubmitDeck: _submit_deck,
    PublishDecks: _publish,
    SetLivePage: _set_live_page,
    RenewLivePage: _renew_live_page,
    ChangeSettings: _change_settings,
    StartTournament: _start,
    SetHandle: _set_handle,
    CancelTournament: _cancel,
}
